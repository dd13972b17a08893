"""Everything the boxes hold, as data: ids by kind for a list, and each card's text."""

from __future__ import annotations

from typing import Any

from funkoverse.content import scenarios
from funkoverse.content.characters import load_characters
from funkoverse.content.dice import load_dice
from funkoverse.content.fields import DATA
from funkoverse.content.maps import load_map
from funkoverse.content.statuses import (
    load_bonus_objectives,
    load_companions,
    load_items,
    load_statuses,
    load_tokens,
)
from funkoverse.rules.core.cards import Ability


def catalog() -> dict[str, list[dict[str, Any]]]:
    """Everything shipped, as lists of {id, name, box, ...} by kind."""
    characters = [
        {
            "id": c.id,
            "name": c.name,
            "box": c.box,
            "basic": c.basic,
            "defense": c.defense,
            "abilities": [a.id for a in c.abilities],
            "trait": c.trait_name,
        }
        for c in load_characters().values()
    ]
    maps = []
    for path in sorted((DATA / "maps").glob("*.toml")):
        board = load_map(path.stem)
        maps.append(
            {
                "id": path.stem,
                "name": board.name,
                "box": board.box,
                "size": [board.width, board.height],
            }
        )
    return {
        "characters": characters,
        "items": [
            {"id": i.id, "name": i.name, "box": i.box, "cost": i.cost}
            for i in load_items().values()
        ],
        "status_cards": [
            {"id": s.id, "name": s.name, "box": s.box, "group": s.group}
            for s in load_statuses().values()
        ],
        "tokens": [
            {"id": t["id"], "name": t["name"], "box": t["box"]} for t in load_tokens().values()
        ],
        "dice": [{"id": d.id, "name": d.name, "box": _die_box(d.id)} for d in load_dice().values()],
        "maps": maps,
        "scenarios": scenarios.scenarios(),
        "modes": scenarios.modes(),
        "companions": [
            {"id": c.id, "name": c.name, "box": c.box} for c in load_companions().values()
        ],
        "bonus_objectives": [
            {"id": b.id, "name": b.name, "box": b.box} for b in load_bonus_objectives().values()
        ],
    }


def _die_box(die_id: str) -> str:
    return {"champion": "DC Comics 102", "blood": "Universal Monsters 100"}.get(die_id, "every box")


def _ability(a: Ability) -> dict[str, Any]:
    return {
        "id": a.id,
        "name": a.name,
        "type": a.color.value,
        "cost": a.cost,
        "challenge": a.challenge_action,
        "text": a.text,
        "while_knocked_down": a.while_knocked_down,
        "while_knocked_out": a.while_knocked_out,
    }


def cards() -> dict[str, dict[str, Any]]:
    """Every card's text by id: characters (defense, dots, abilities, trait), items, status
    cards, companions, bonus objectives, scenarios."""
    out: dict[str, dict[str, Any]] = {}
    for c in load_characters().values():
        out[c.id] = {
            "kind": "basic character" if c.basic else "character",
            "name": c.name,
            "box": c.box,
            "defense": c.defense,
            "dots": [d.value for d in c.dots],
            "abilities": [_ability(a) for a in c.abilities],
            "trait": {"name": c.trait_name, "text": c.trait_text} if c.trait_name else None,
        }
    for i in load_items().values():
        out[i.id] = {
            "kind": "item",
            "name": i.name,
            "box": i.box,
            "cost": i.cost,
            "challenge": i.challenge_action,
            "text": i.text,
        }
    for s in load_statuses().values():
        out[s.id] = {
            "kind": "status card",
            "name": s.name,
            "box": s.box,
            "text": s.text or s.trait_text,
            "abilities": [_ability(a) for a in s.abilities],
        }
    for comp in load_companions().values():
        out[comp.id] = {
            "kind": "companion",
            "name": comp.name,
            "box": comp.box,
            "defense": comp.defense,
            "text": comp.text,
        }
    for b in load_bonus_objectives().values():
        out[b.id] = {
            "kind": "bonus objective",
            "name": b.name,
            "box": b.box,
            "points": b.points,
            "text": b.text,
        }
    for sc in scenarios.load_scenarios().values():
        out[f"scenario:{sc.id}"] = {
            "kind": "scenario",
            "name": sc.name,
            "box": sc.box,
            "text": sc.note,
        }
    return out

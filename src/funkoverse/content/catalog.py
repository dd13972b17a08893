"""Everything a game may be made of, as one value: the shipped content and the fan-made
folders added to it (`Catalog`); and what it holds as data: ids by kind for a list, and each
card's text.

A folder given with `--content DIR` holds subfolders named as the shipped ones
(`characters/`, `items/`, `statuses/`, `maps/`, `scenarios/`, ...), each with TOML files in
the shipped format. `load_catalog` checks every file (errors name the file, the field and
the fix) and gives the catalog of the shipped content and those folders; whoever makes a
game is handed the catalog it is made from. An id that a shipped card already has is
refused: a fan card never silently replaces a printed one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from funkoverse.content import scenarios
from funkoverse.content.characters import load_characters
from funkoverse.content.dice import load_dice
from funkoverse.content.fan import FOLDERS, Folders, extra_files, refuse_clash, stamp_of
from funkoverse.content.fields import DATA
from funkoverse.content.maps import load_map, maps_folder, shipped_maps
from funkoverse.content.statuses import (
    load_bonus_objectives,
    load_companions,
    load_items,
    load_statuses,
    load_tokens,
)
from funkoverse.errors import UserError
from funkoverse.rules.core.board import Board
from funkoverse.rules.core.cards import (
    Ability,
    BonusObjective,
    CharacterCard,
    CompanionCard,
    ItemCard,
    StatusCard,
)
from funkoverse.rules.core.scenario import Scenario


@dataclass(frozen=True)
class Catalog:
    """The shipped content and the fan content `folders` added to it. A value: the cards it
    holds are read once for its folders as they were when it was made (`stamp`) and never
    change; two catalogs of the same folders and files are equal. `SHIPPED` is the boxes
    alone."""

    folders: Folders = ()
    stamp: str = ""  # the folders' files as read (`fan.stamp_of`)

    @property
    def characters(self) -> Mapping[str, CharacterCard]:
        return load_characters(self.folders, self.stamp)

    @property
    def items(self) -> Mapping[str, ItemCard]:
        return load_items(self.folders, self.stamp)

    @property
    def statuses(self) -> Mapping[str, StatusCard]:
        return load_statuses(self.folders, self.stamp)

    @property
    def companions(self) -> Mapping[str, CompanionCard]:
        return load_companions(self.folders, self.stamp)

    @property
    def bonus_objectives(self) -> Mapping[str, BonusObjective]:
        return load_bonus_objectives(self.folders, self.stamp)

    @property
    def scenarios(self) -> Mapping[str, Scenario]:
        return scenarios.load_scenarios(self.folders, self.stamp)

    def board(self, map_id: str | Path) -> Board:
        """A map by id (shipped or of the folders) or by a file's path."""
        return load_map(map_id, self.folders, self.stamp)

    def default_map(self, scenario_id: str) -> str:
        """The first of a scenario's maps that this catalog has."""
        return scenarios.default_map(scenario_id, self.folders, self.stamp)


SHIPPED = Catalog()


def load_catalog(dirs: Iterable[str | Path]) -> Catalog:
    """The catalog of the shipped content and these folders, every file checked at once: the
    first fault is refused with `UserError` naming it."""
    wanted = [Path(d) for d in dirs]
    for d in wanted:
        if not d.is_dir():
            raise UserError(f"--content {d}: no such folder")
        subfolders = [p.name for p in d.iterdir() if p.is_dir() and not p.name.startswith(".")]
        for name in subfolders:
            if name not in FOLDERS:
                raise UserError(
                    f"--content {d}: folder '{name}' is not a kind of content; "
                    f"use {', '.join(FOLDERS)}"
                )
        if not any((d / f).is_dir() for f in FOLDERS):
            raise UserError(
                f"--content {d}: no content found; put files in subfolders named {', '.join(FOLDERS)}"
            )
    folders = tuple(str(d) for d in wanted)
    found = Catalog(folders, stamp_of(folders))
    for read in (
        load_characters,
        load_items,
        load_statuses,
        load_companions,
        load_bonus_objectives,
        scenarios.load_scenarios,
    ):
        read(folders, found.stamp)  # every file read and checked now, not in a game
    for path in extra_files("maps", found.folders):
        if path.stem in shipped_maps():
            refuse_clash("map", path.stem, path, Path(str(maps_folder() / path.name)))
        found.board(path.stem)
    return found


def listing(catalog: Catalog = SHIPPED) -> dict[str, list[dict[str, Any]]]:
    """Everything the catalog holds, as lists of {id, name, box, ...} by kind."""
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
        for c in catalog.characters.values()
    ]
    maps = []
    for path in sorted((DATA / "maps").glob("*.toml")) + extra_files("maps", catalog.folders):
        board = catalog.board(path.stem)
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
            for i in catalog.items.values()
        ],
        "status_cards": [
            {"id": s.id, "name": s.name, "box": s.box, "group": s.group}
            for s in catalog.statuses.values()
        ],
        "tokens": [
            {"id": t["id"], "name": t["name"], "box": t["box"]} for t in load_tokens().values()
        ],
        "dice": [{"id": d.id, "name": d.name, "box": _die_box(d.id)} for d in load_dice().values()],
        "maps": maps,
        "scenarios": scenarios.scenarios(catalog.folders, catalog.stamp),
        "modes": scenarios.modes(),
        "companions": [
            {"id": c.id, "name": c.name, "box": c.box} for c in catalog.companions.values()
        ],
        "bonus_objectives": [
            {"id": b.id, "name": b.name, "box": b.box} for b in catalog.bonus_objectives.values()
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


def cards(catalog: Catalog = SHIPPED) -> dict[str, dict[str, Any]]:
    """Every card's text by id: characters (defense, dots, abilities, trait), items, status
    cards, companions, bonus objectives, scenarios."""
    out: dict[str, dict[str, Any]] = {}
    for c in catalog.characters.values():
        out[c.id] = {
            "kind": "basic character" if c.basic else "character",
            "name": c.name,
            "box": c.box,
            "defense": c.defense,
            "dots": [d.value for d in c.dots],
            "abilities": [_ability(a) for a in c.abilities],
            "trait": {"name": c.trait_name, "text": c.trait_text} if c.trait_name else None,
        }
    for i in catalog.items.values():
        out[i.id] = {
            "kind": "item",
            "name": i.name,
            "box": i.box,
            "cost": i.cost,
            "challenge": i.challenge_action,
            "text": i.text,
        }
    for s in catalog.statuses.values():
        out[s.id] = {
            "kind": "status card",
            "name": s.name,
            "box": s.box,
            "text": s.text or s.trait_text,
            "abilities": [_ability(a) for a in s.abilities],
        }
    for comp in catalog.companions.values():
        out[comp.id] = {
            "kind": "companion",
            "name": comp.name,
            "box": comp.box,
            "defense": comp.defense,
            "text": comp.text,
        }
    for b in catalog.bonus_objectives.values():
        out[b.id] = {
            "kind": "bonus objective",
            "name": b.name,
            "box": b.box,
            "points": b.points,
            "text": b.text,
        }
    for sc in catalog.scenarios.values():
        out[f"scenario:{sc.id}"] = {
            "kind": "scenario",
            "name": sc.name,
            "box": sc.box,
            "text": sc.note,
        }
    return out

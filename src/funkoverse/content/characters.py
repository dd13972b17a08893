"""Character cards from TOML files: validated into immutable `CharacterCard`s.

Errors name the file, the field and what was expected, on one line.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from funkoverse.errors import UserError
from funkoverse.rules.cards import COLOR_ALIASES, Ability, CharacterCard, Param, Step

DATA = Path(__file__).parent / "data" / "characters"

# The effects vocabulary the engine follows; each step names its parameters.
VOCABULARY: Mapping[str, frozenset[str]] = {
    "move": frozenset({"squares", "optional"}),
    "challenge": frozenset({"dice", "range", "optional"}),
    "stand_up": frozenset(),
    "assist": frozenset({"optional"}),
    "interact": frozenset({"optional"}),
}


def _where(path: Path) -> str:
    try:
        return str(path.relative_to(DATA.parent))
    except ValueError:
        return str(path)


def _need(table: Mapping[str, Any], key: str, kind: type, where: str, what: str) -> Any:
    if key not in table:
        raise UserError(f"{where}: field '{key}' is missing; expected {what}")
    value = table[key]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise UserError(f"{where}: field '{key}': expected {what}, got {value!r}")
    if not isinstance(value, kind):
        raise UserError(f"{where}: field '{key}': expected {what}, got {value!r}")
    return value


def _color(value: Any, where: str, field: str) -> Any:
    if not isinstance(value, str) or value.lower() not in COLOR_ALIASES:
        names = ", ".join(sorted(COLOR_ALIASES))
        raise UserError(
            f"{where}: field '{field}': unknown ability type {value!r}; use one of {names}"
        )
    return COLOR_ALIASES[value.lower()]


def _step(raw: Any, where: str, field: str) -> Step:
    if not isinstance(raw, dict) or "op" not in raw:
        raise UserError(
            f"{where}: field '{field}': expected a table with an 'op', e.g. {{op = \"move\", squares = 2}}"
        )
    op = raw["op"]
    if op not in VOCABULARY:
        words = ", ".join(sorted(VOCABULARY))
        raise UserError(
            f"{where}: field '{field}.op': '{op}' is not in the effects vocabulary ({words}); "
            "behaviour beyond it needs a named hook"
        )
    params: dict[str, Param] = {}
    for key, value in raw.items():
        if key == "op":
            continue
        if key not in VOCABULARY[op]:
            allowed = ", ".join(sorted(VOCABULARY[op])) or "none"
            raise UserError(
                f"{where}: field '{field}.{key}': '{op}' takes no '{key}' (allowed: {allowed})"
            )
        if not isinstance(value, int | str | bool):
            raise UserError(
                f"{where}: field '{field}.{key}': expected a number, word or true/false"
            )
        params[key] = value
    return Step(op, tuple(sorted(params.items())))


def parse_character(data: Mapping[str, Any], where: str) -> CharacterCard:
    """Validate one character file's table into a card."""
    cid = _need(data, "id", str, where, "a lowercase id such as 'wonder-woman'")
    name = _need(data, "name", str, where, "the card's name")
    box = _need(data, "box", str, where, "the game box, e.g. 'DC Comics 102'")
    defense = _need(data, "defense", int, where, "a whole number of dice, 0 to 6")
    if not 0 <= defense <= 6:
        raise UserError(f"{where}: field 'defense': expected 0 to 6, got {defense}")
    basic = bool(data.get("basic", False))
    dots = tuple(_color(c, where, "dots") for c in data.get("dots", []))
    abilities = []
    for i, raw in enumerate(data.get("abilities", [])):
        f = f"abilities[{i}]"
        aid = _need(raw, "id", str, where, f"{f}: an ability id")
        cost = _need(raw, "cost", int, where, f"{f}: a cost from 1 to 4")
        if not 1 <= cost <= 4:
            raise UserError(
                f"{where}: field '{f}.cost': expected a cost from 1 to 4 (the cooldown track's numbers), got {cost}"
            )
        steps = tuple(
            _step(s, where, f"{f}.steps[{j}]") for j, s in enumerate(raw.get("steps", []))
        )
        abilities.append(
            Ability(
                id=aid,
                name=_need(raw, "name", str, where, f"{f}: the ability's name"),
                color=_color(raw.get("type"), where, f"{f}.type"),
                cost=cost,
                challenge_action=bool(raw.get("challenge_action", False)),
                steps=steps,
                text=str(raw.get("text", "")),
                while_knocked_down=bool(raw.get("while_knocked_down", False)),
                while_knocked_out=bool(raw.get("while_knocked_out", False)),
            )
        )
    if basic and abilities:
        raise UserError(f"{where}: field 'abilities': basic characters have no abilities")
    trait = data.get("trait", {})
    return CharacterCard(
        id=cid,
        name=name,
        box=box,
        defense=defense,
        basic=basic,
        dots=dots,
        abilities=tuple(abilities),
        trait_name=str(trait.get("name", "")),
        trait_text=str(trait.get("text", "")),
        elusive=bool(data.get("elusive", False)),
    )


def load_character_file(path: Path) -> CharacterCard:
    where = _where(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise UserError(f"{where}: cannot read: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise UserError(f"{where}: not valid TOML: {e}") from None
    return parse_character(data, where)


@cache
def load_characters() -> Mapping[str, CharacterCard]:
    """Every shipped character card, by id."""
    cards: dict[str, CharacterCard] = {}
    for path in sorted(DATA.glob("*.toml")):
        card = load_character_file(path)
        if card.id != path.stem:
            raise UserError(
                f"{_where(path)}: field 'id': '{card.id}' should match the file name '{path.stem}'"
            )
        cards[card.id] = card
    return cards

"""Character cards from TOML files: validated into immutable `CharacterCard`s."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from funkoverse.content.dice import load_dice
from funkoverse.content.fan import Folders, extra_files, refuse_clash
from funkoverse.content.fields import (
    DATA,
    color,
    hooks,
    listed,
    need,
    numbers_of,
    only_fields,
    parse_ability,
    read_toml,
    shown,
    where,
)
from funkoverse.content.traits import BEHAVIOUR, trait_hook
from funkoverse.errors import UserError
from funkoverse.rules.core.cards import CharacterCard
from funkoverse.rules.vocabulary.traits import TraitHook

CHARACTERS = DATA / "characters"
FIELDS = {
    "id",
    "name",
    "box",
    "defense",
    "basic",
    "base",
    "dots",
    "abilities",
    "trait",
    "elusive",
    "hooks",
    "numbers",
    "tokens",
    "dice",
    "note",
}


def parse_character(data: Mapping[str, Any], name: str) -> CharacterCard:
    """Validate one character file's table into a card."""
    only_fields(data, FIELDS, name)
    cid = need(data, "id", str, name, "a lowercase id such as 'wonder-woman'")
    defense = need(data, "defense", int, name, "a whole number of dice, 0 to 6")
    if not 0 <= defense <= 6:
        raise UserError(f"{name}: field 'defense': expected 0 to 6, got {defense}")
    basic = bool(data.get("basic", False))
    abilities = tuple(
        parse_ability(raw, name, f"abilities[{i}]")
        for i, raw in enumerate(listed(data, "abilities", name, "a list of abilities"))
    )
    if basic and (abilities or data.get("trait") or data.get("hooks")):
        raise UserError(
            f"{name}: field 'basic': basic characters have no abilities or traits (Basic Characters)"
        )
    base = data.get("base", "")
    if base and (not basic or base not in ("dark", "light")):
        raise UserError(f"{name}: field 'base': a basic character's base color, 'dark' or 'light'")
    trait = data.get("trait", {})
    if not isinstance(trait, dict):
        raise UserError(f"{name}: field 'trait': expected a table with 'name' and 'text'")
    only_fields(trait, {"id", "name", "text", *BEHAVIOUR}, name, "trait.")
    tokens = data.get("tokens", {})
    if not isinstance(tokens, dict) or not all(
        isinstance(n, int) and n > 0 for n in tokens.values()
    ):
        raise UserError(
            f"{name}: field 'tokens': expected a table of token kinds and counts, e.g. {{tunnel = 3}}"
        )
    numbers = numbers_of(data, name)
    played, used = trait_hook(trait, name, "trait", str(trait.get("name", "")), numbers)
    return CharacterCard(
        id=cid,
        name=need(data, "name", str, name, "the card's name"),
        box=need(data, "box", str, name, "the game box, e.g. 'DC Comics 102'"),
        defense=defense,
        basic=basic,
        base=str(base),
        dots=tuple(color(c, name, "dots") for c in listed(data, "dots", name, "a list of types")),
        abilities=abilities,
        trait_name=str(trait.get("name", "")),
        trait_text=str(trait.get("text", "")),
        elusive=bool(data.get("elusive", False)),
        hooks=(*hooks(data.get("hooks", []), name, numbers, used), *_own(played)),
        tokens=tuple(sorted(tokens.items())),
        dice=tuple(_dice(data, name)),
    )


def _own(played: TraitHook | None) -> tuple[TraitHook, ...]:
    return () if played is None else (played,)


def _dice(data: Mapping[str, Any], name: str) -> list[str]:
    """The ids of the extra dice a character rolls, each a shipped die."""
    dice = listed(data, "dice", name, "a list of die ids")
    for die in dice:
        if not isinstance(die, str) or die not in load_dice():
            raise UserError(
                f"{name}: field 'dice': no die {shown(die)}; the dice are "
                f"{', '.join(sorted(load_dice()))}"
            )
    return dice


def load_character_file(path: Path) -> CharacterCard:
    return parse_character(read_toml(path), where(path))


def load_characters(folders: Folders = (), stamp: str = "") -> Mapping[str, CharacterCard]:
    """Every character card, by id: the shipped ones and those of the fan content `folders`
    (read once for each set of folders and `stamp` of their files: `fan.stamp_of`; the same
    objects however the arguments are written, which the kernel's tables key on)."""
    return _characters(folders, stamp)


@cache
def _characters(folders: Folders, stamp: str) -> Mapping[str, CharacterCard]:
    cards: dict[str, CharacterCard] = {}
    files: dict[str, Path] = {}
    abilities: dict[str, Path] = {}  # an ability's id names it in bars and reports: one card's
    shipped = sorted(CHARACTERS.glob("*.toml"))
    for path in shipped + extra_files("characters", folders):
        card = load_character_file(path)
        if card.id != path.stem:
            raise UserError(
                f"{where(path)}: field 'id': '{card.id}' should match the file name '{path.stem}'"
            )
        if card.id in cards:
            refuse_clash("character", card.id, path, files[card.id])
        for i, ability in enumerate(card.abilities):
            if ability.id in abilities:
                field = f"abilities[{i}].id"
                refuse_clash("ability", ability.id, path, abilities[ability.id], field)
            abilities[ability.id] = path
        cards[card.id] = card
        files[card.id] = path
    return MappingProxyType(cards)

"""Status cards and items from TOML files."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from funkoverse.content.fan import Folders, extra_files, refuse_clash
from funkoverse.content.fields import (
    DATA,
    hooks,
    listed,
    need,
    numbers_of,
    only_fields,
    parse_ability,
    parse_steps,
    read_toml,
    where,
    whole,
)
from funkoverse.content.traits import BEHAVIOUR, trait_hook
from funkoverse.errors import UserError
from funkoverse.rules.core.cards import (
    TOKEN_KINDS,
    BonusObjective,
    CompanionCard,
    ItemCard,
    StatusCard,
)

STATUSES = DATA / "statuses"
ITEMS = DATA / "items"


def parse_status(data: Mapping[str, Any], name: str) -> StatusCard:
    only_fields(
        data,
        {
            "id",
            "name",
            "box",
            "group",
            "abilities",
            "trait",
            "hooks",
            "numbers",
            "text",
            "note",
            *BEHAVIOUR,
        },
        name,
    )
    trait = data.get("trait", {})
    numbers = numbers_of(data, name)
    card = need(data, "id", str, name, "a lowercase id")
    title = need(data, "name", str, name, "the card's name")
    played, used = trait_hook(data, name, "", title, numbers, card)
    return StatusCard(
        id=card,
        name=title,
        box=need(data, "box", str, name, "the game box"),
        group=str(data.get("group", "")),
        abilities=tuple(
            parse_ability(raw, name, f"abilities[{i}]")
            for i, raw in enumerate(listed(data, "abilities", name, "a list of abilities"))
        ),
        trait_text=str(trait.get("text", "")) if isinstance(trait, dict) else "",
        hooks=(
            *hooks(data.get("hooks", []), name, numbers, used),
            *(() if played is None else (played,)),
        ),
        text=str(data.get("text", "")),
    )


def parse_item(data: Mapping[str, Any], name: str) -> ItemCard:
    only_fields(
        data,
        {
            "id",
            "name",
            "box",
            "cost",
            "challenge_action",
            "basic_action",
            "steps",
            "text",
            "note",
            "tokens",
        },
        name,
    )
    cost = whole(data, "cost", name, "1 to 4 for the use-item icon, or 0 for none")
    if not 0 <= cost <= 4:
        raise UserError(
            f"{name}: field 'cost': expected 1 to 4 for the use-item icon, or 0 for none, got {cost}"
        )
    return ItemCard(
        id=need(data, "id", str, name, "a lowercase id"),
        name=need(data, "name", str, name, "the item's name"),
        box=need(data, "box", str, name, "the game box"),
        cost=cost,
        challenge_action=bool(data.get("challenge_action", False)),
        steps=parse_steps(data.get("steps", []), name, "steps"),
        text=str(data.get("text", "")),
        basic_action=bool(data.get("basic_action", False)),
        tokens=_tokens(data.get("tokens", {}), name),
    )


def _tokens(raw: Any, name: str) -> tuple[tuple[str, int], ...]:
    if not isinstance(raw, dict) or not all(isinstance(n, int) and n > 0 for n in raw.values()):
        raise UserError(
            f"{name}: field 'tokens': expected a table of token kinds and counts, e.g. {{minion = 2}}"
        )
    unknown = [k for k in raw if k not in TOKEN_KINDS]
    if unknown:
        raise UserError(
            f"{name}: field 'tokens': unknown token kind '{unknown[0]}'; known: {', '.join(TOKEN_KINDS)}"
        )
    return tuple(sorted(raw.items()))


def parse_companion(data: Mapping[str, Any], name: str) -> CompanionCard:
    only_fields(data, {"id", "name", "box", "defense", "actions", "text", "note"}, name)
    actions = []
    for i, raw in enumerate(listed(data, "actions", name, "a list of actions")):
        field = f"actions[{i}]"
        if not isinstance(raw, dict):
            raise UserError(f"{name}: field '{field}': expected a table with id, name and steps")
        only_fields(raw, {"id", "name", "steps", "challenge_action", "text"}, name, f"{field}.")
        actions.append(
            ItemCard(
                id=need(raw, "id", str, name, f"{field}: an action id"),
                name=need(raw, "name", str, name, f"{field}: the action's name"),
                box=str(data.get("box", "")),
                cost=0,
                challenge_action=bool(raw.get("challenge_action", False)),
                steps=parse_steps(raw.get("steps", []), name, f"{field}.steps"),
                text=str(raw.get("text", "")),
            )
        )
    if not actions:
        raise UserError(f"{name}: field 'actions': a companion lists at least one action")
    return CompanionCard(
        id=need(data, "id", str, name, "a lowercase id"),
        name=need(data, "name", str, name, "the companion's name"),
        box=need(data, "box", str, name, "the game box"),
        defense=need(data, "defense", int, name, "a whole number of dice"),
        actions=tuple(actions),
        text=str(data.get("text", "")),
    )


def parse_bonus(data: Mapping[str, Any], name: str) -> BonusObjective:
    only_fields(data, {"id", "name", "box", "points", "text", "note"}, name)
    return BonusObjective(
        id=need(data, "id", str, name, "a lowercase id"),
        name=need(data, "name", str, name, "the bonus objective's name"),
        box=need(data, "box", str, name, "the game box"),
        points=need(data, "points", int, name, "the points it gives"),
        text=str(data.get("text", "")),
    )


@cache
def _cached(directory: Path, parse: Any, folders: Folders, stamp: str) -> Mapping[str, Any]:
    """A kind of card read once for each folders and stamp, however its loader was called
    (the same objects: the kernel's tables key on them)."""
    return _load(directory, parse, folders)


def _load(directory: Path, parse: Any, folders: Folders) -> Mapping[str, Any]:
    found: dict[str, Any] = {}
    files: dict[str, Path] = {}
    for path in sorted(directory.glob("*.toml")) + extra_files(directory.name, folders):
        card = parse(read_toml(path), where(path))
        if card.id != path.stem:
            raise UserError(
                f"{where(path)}: field 'id': '{card.id}' should match the file name '{path.stem}'"
            )
        if card.id in found:
            refuse_clash(directory.name.rstrip("s"), card.id, path, files[card.id])
        found[card.id] = card
        files[card.id] = path
    return MappingProxyType(found)


def load_statuses(folders: Folders = (), stamp: str = "") -> Mapping[str, StatusCard]:
    return _cached(STATUSES, parse_status, folders, stamp)


def load_items(folders: Folders = (), stamp: str = "") -> Mapping[str, ItemCard]:
    return _cached(ITEMS, parse_item, folders, stamp)


def load_companions(folders: Folders = (), stamp: str = "") -> Mapping[str, CompanionCard]:
    return _cached(DATA / "companions", parse_companion, folders, stamp)


def load_bonus_objectives(folders: Folders = (), stamp: str = "") -> Mapping[str, BonusObjective]:
    return _cached(DATA / "bonus_objectives", parse_bonus, folders, stamp)


@cache
def load_tokens() -> Mapping[str, Mapping[str, Any]]:
    """Token descriptions (Tunnel, Blood): what a player reads; the rules live with their cards."""
    found: dict[str, Mapping[str, Any]] = {}
    for path in sorted((DATA / "tokens").glob("*.toml")):
        data = read_toml(path)
        name = where(path)
        only_fields(data, {"id", "name", "box", "count", "defense", "card", "text"}, name)
        need(data, "id", str, name, "a lowercase id")
        need(data, "name", str, name, "the token's name")
        need(data, "box", str, name, "the game box")
        found[data["id"]] = data
    return found

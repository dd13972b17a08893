"""Scenarios, ultimate cards and ways to play, from their TOML files."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from funkoverse.content.fan import Folders, extra_files, refuse_clash
from funkoverse.content.fields import DATA, color, need, only_fields, read_toml, shown, where
from funkoverse.content.maps import load_map
from funkoverse.errors import UserError
from funkoverse.rules.core.cards import TokenColor
from funkoverse.rules.core.scenario import Scenario

SCENARIO_FIELDS = {
    "id",
    "name",
    "box",
    "maps",
    "text",
    "note",
    "point_markers",
    "knockout_points",
    "adjacent_knockout_points",
    "first_knockout_wins",
    "immediate_target",
    "target_two",
    "target_three",
    "flags",
    "leaders",
    "control",
    "free_for_all",
    "ultimate",
    "sizes",
    "attachments",
    "first_game",
}


def parse_scenario(data: Mapping[str, Any], name: str) -> Scenario:
    only_fields(data, SCENARIO_FIELDS, name)
    maps = need(data, "maps", list, name, "the ids of the maps this scenario is played on")
    if not all(isinstance(m, str) and m for m in maps):
        raise UserError(f"{name}: field 'maps': expected map ids, got {shown(maps)}")
    flags = {
        k: bool(data.get(k, False))
        for k in (
            "point_markers",
            "adjacent_knockout_points",
            "first_knockout_wins",
            "immediate_target",
            "flags",
            "leaders",
            "control",
            "free_for_all",
            "ultimate",
            "first_game",
        )
    }
    sizes = data.get("sizes", [2, 3])
    if (
        not isinstance(sizes, list)
        or not sizes
        or not all(isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 6 for n in sizes)
    ):
        raise UserError(f"{name}: field 'sizes': expected a list of team sizes, e.g. [2, 3]")
    attachments = data.get("attachments", True)
    if not isinstance(attachments, bool):
        raise UserError(f"{name}: field 'attachments': expected true or false")
    for key in ("target_two", "target_three", "knockout_points"):
        if key in data and (
            not isinstance(data[key], int) or isinstance(data[key], bool) or data[key] < 0
        ):
            raise UserError(f"{name}: field '{key}': expected a whole number of points")
    return Scenario(
        id=need(data, "id", str, name, "a lowercase id"),
        name=need(data, "name", str, name, "the scenario's name"),
        box=need(data, "box", str, name, "the game box, or 'house-made'"),
        maps=tuple(maps),
        knockout_points=int(data.get("knockout_points", 0)),
        target_two=data.get("target_two"),
        target_three=data.get("target_three"),
        note=str(data.get("text", "")),
        sizes=tuple(sizes),
        attachments=attachments,
        **flags,
    )


def load_scenarios(folders: Folders = (), stamp: str = "") -> Mapping[str, Scenario]:
    """Every scenario, by id: the shipped ones and those of the fan content `folders` (read
    once for each folders and stamp, however this was called)."""
    return _scenarios(folders, stamp)


@cache
def _scenarios(folders: Folders, stamp: str) -> Mapping[str, Scenario]:
    found: dict[str, Scenario] = {}
    files: dict[str, Path] = {}
    shipped = sorted((DATA / "scenarios").glob("*.toml"))
    for path in shipped + extra_files("scenarios", folders):
        s = parse_scenario(read_toml(path), where(path))
        if s.id != path.stem:
            raise UserError(
                f"{where(path)}: field 'id': '{s.id}' should match the file name '{path.stem}'"
            )
        if s.id in found:
            refuse_clash("scenario", s.id, path, files[s.id])
        found[s.id] = s
        files[s.id] = path
    return MappingProxyType(found)


def default_map(scenario_id: str, folders: Folders = (), stamp: str = "") -> str:
    """The map a scenario is played on when none is named: the first of its maps that this
    program has (the lab's, the RL environment's)."""
    for map_id in scenario(scenario_id, folders, stamp).maps:
        try:
            load_map(map_id, folders, stamp)
        except UserError:
            continue
        return map_id
    raise UserError(f"scenario '{scenario_id}': none of its maps is here; give one with --map")


def scenario(scenario_id: str, folders: Folders = (), stamp: str = "") -> Scenario:
    known = load_scenarios(folders, stamp)
    if scenario_id not in known:
        raise UserError(f"unknown scenario '{scenario_id}'; known: {', '.join(sorted(known))}")
    return known[scenario_id]


@cache
def load_ultimates() -> Mapping[str, tuple[str, tuple[TokenColor, ...]]]:
    """Ultimate cards: character id -> (card id, extra ability tokens)."""
    found: dict[str, tuple[str, tuple[TokenColor, ...]]] = {}
    for path in sorted((DATA / "ultimates").glob("*.toml")):
        data = read_toml(path)
        name = where(path)
        only_fields(data, {"id", "name", "box", "character", "extra_dots", "note"}, name)
        character = need(data, "character", str, name, "the id of the character it amplifies")
        dots = tuple(
            color(c, name, "extra_dots")
            for c in need(data, "extra_dots", list, name, "ability token types")
        )
        found[character] = (need(data, "id", str, name, "a lowercase id"), dots)
    return found


@cache
def load_modes() -> tuple[Mapping[str, Any], ...]:
    data = read_toml(DATA / "modes.toml")
    return tuple(data.get("mode", []))


def scenarios(folders: Folders = (), stamp: str = "") -> list[dict[str, Any]]:
    return [
        {
            "id": s.id,
            "name": s.name,
            "box": s.box,
            "maps": list(s.maps),
            "sizes": list(s.sizes),
            "attachments": s.attachments,
            "first_game": s.first_game,
            "free_for_all": s.free_for_all,
            "ultimate": s.ultimate,
            "flags": s.flags,
            "leaders": s.leaders,
            "control": s.control,
            "point_markers": s.point_markers,
            "target_two": s.target_two,
            "target_three": s.target_three,
            "text": s.note,
        }
        for s in load_scenarios(folders, stamp).values()
    ]


def modes() -> list[dict[str, Any]]:
    return [dict(m) for m in load_modes()]

"""`funkoverse content list|check`: what the boxes hold, and whether a content file is right."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from funkoverse.content.catalog import listing
from funkoverse.content.characters import parse_character
from funkoverse.content.dice import load_die_file
from funkoverse.content.fields import DATA, read_toml, where
from funkoverse.content.maps import load_map
from funkoverse.content.scenarios import parse_scenario
from funkoverse.content.statuses import (
    parse_bonus,
    parse_companion,
    parse_item,
    parse_status,
)
from funkoverse.errors import UserError

BOXES = ("DC Comics 102", "Universal Monsters 100", "Space Jam A New Legacy 100")
NOTES = {
    "Space Jam A New Legacy 100": (
        "The Space Jam A New Legacy 100 rulebook prints no character, item or status cards; "
        "its rules (Rubble, obscured terrain, ultimate mode, companions) are in the engine, "
        "and no card is invented for it."
    )
}
KINDS = (
    "character",
    "status",
    "item",
    "die",
    "map",
    "token",
    "companion",
    "bonus",
    "scenario",
    "ultimate",
)


def register(sub: Any) -> None:
    p = sub.add_parser("content", help="list the shipped content, or check a content file")
    verbs = p.add_subparsers(dest="verb", metavar="VERB")
    verbs.required = True
    lst = verbs.add_parser("list", help="everything shipped, by id and box")
    lst.add_argument("--json", action="store_true", help="one JSON object")
    lst.set_defaults(func=run_list)
    chk = verbs.add_parser("check", help="validate the shipped content, or one file of yours")
    chk.add_argument(
        "path",
        nargs="?",
        help="a content file (TOML) or a folder of fan content; none: every shipped file",
    )
    chk.add_argument(
        "--kind", choices=KINDS, help="what the file is (default: from its folder or fields)"
    )
    chk.set_defaults(func=run_check)


def run_list(args: argparse.Namespace) -> int:
    found = listing()
    if args.json:
        found_with_notes: dict[str, Any] = dict(found)
        found_with_notes["notes"] = list(NOTES.values())
        sys.stdout.write(json.dumps(found_with_notes) + "\n")
        return 0
    for kind, entries in found.items():
        print(f"{kind.replace('_', ' ')}:")
        for box in (*BOXES, "every box", "funkoverse", "house-made"):
            here = [e for e in entries if e.get("box") == box]
            if here:
                print(f"  {box}: " + ", ".join(e["id"] for e in here))
        print()
    for note in NOTES.values():
        print(f"Note: {note}")
    return 0


def _kind_of(path: Path, data: dict[str, Any]) -> str:
    folder = path.parent.name
    if path.name == "modes.toml":
        return "modes"
    by_folder = {
        "characters": "character",
        "statuses": "status",
        "items": "item",
        "dice": "die",
        "maps": "map",
        "tokens": "token",
        "companions": "companion",
        "bonus_objectives": "bonus",
        "scenarios": "scenario",
        "ultimates": "ultimate",
    }
    if folder in by_folder:
        return by_folder[folder]
    if "grid" in data:
        return "map"
    if "faces" in data:
        return "die"
    if "defense" in data:
        return "character"
    if "group" in data or ("hooks" in data and "cost" not in data):
        return "status"
    if "steps" in data or "cost" in data:
        return "item"
    raise UserError(
        f"{path}: cannot tell what this file is; say it with --kind ({', '.join(KINDS)})"
    )


def check_file(path: Path, kind: str | None) -> str:
    if not path.is_file():
        raise UserError(f"{path}: no such file")
    if path.suffix != ".toml":
        raise UserError(f"{path}: content files are TOML (.toml)")
    data = read_toml(path)
    kind = kind or _kind_of(path, data)
    name = where(path)
    if kind == "character":
        thing: Any = parse_character(data, name)
    elif kind == "status":
        thing = parse_status(data, name)
    elif kind == "item":
        thing = parse_item(data, name)
    elif kind == "die":
        thing = load_die_file(path)
    elif kind == "map":
        thing = load_map(str(path))
    elif kind == "companion":
        thing = parse_companion(data, name)
    elif kind == "bonus":
        thing = parse_bonus(data, name)
    elif kind == "scenario":
        thing = parse_scenario(data, name)
    elif kind == "modes":
        for i, mode in enumerate(data.get("mode", [])):
            for key in ("id", "name", "box"):
                if not isinstance(mode.get(key), str):
                    raise UserError(
                        f"{name}: field 'mode[{i}].{key}' is missing; expected a string"
                    )
        thing = data
    else:
        thing = data
        for key in ("id", "name", "box"):
            if not isinstance(data.get(key), str):
                raise UserError(f"{name}: field '{key}' is missing; expected a string")
    label = getattr(thing, "name", None) or data.get("name", path.stem)
    return f"{name}: ok ({kind} {label!s})"


def check_folder(folder: Path) -> int:
    """A folder of fan-made content (as examples/fan-content): every file on its own, then
    all of them together with the shipped content (ids matching file names, no clash)."""
    from funkoverse.content.catalog import load_catalog
    from funkoverse.content.fan import FOLDERS

    files = sorted(p for f in FOLDERS for p in (folder / f).glob("*.toml"))
    for path in files:
        print(check_file(path, None))
    load_catalog([folder])
    print(f"{folder}: {len(files)} content files: all ok beside the shipped content")
    return 0


def run_check(args: argparse.Namespace) -> int:
    if args.path and Path(args.path).is_dir():
        return check_folder(Path(args.path))
    if args.path:
        print(check_file(Path(args.path), args.kind))
        return 0
    from funkoverse.content.rulebooks import rulebooks

    total = 0
    for path in sorted(DATA.rglob("*.toml")):
        if path.parent.name == "rules":
            continue  # the rulebooks' sections, not content: read by their own loader below
        check_file(path, None)
        total += 1
    listing()  # the loaders' own checks (ids match file names, hooks exist)
    rulebooks()
    print(f"{total} content files: all ok")
    return 0

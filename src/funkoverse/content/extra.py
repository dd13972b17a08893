"""Fan-made content: folders of content files in the shipped format, added to the box.
`fan` holds the folders in use; this module checks and sets them.

A folder given with `--content DIR` holds subfolders named as the shipped ones
(`characters/`, `items/`, `statuses/`, `maps/`, `scenarios/`, ...), each with TOML files in
the shipped format. `use_content` checks every file (errors name the file, the field and
the fix) and the loaders then read them beside the shipped files. An id that a shipped card
already has is refused: a fan card never silently replaces a printed one.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from funkoverse.content import characters, maps, scenarios, statuses
from funkoverse.content.characters import load_characters
from funkoverse.content.fan import (
    FOLDERS,
    content_dirs,
    extra_files,
    refuse_clash,
    set_content_dirs,
)
from funkoverse.content.maps import load_map, maps_folder, shipped_maps
from funkoverse.content.scenarios import load_scenarios
from funkoverse.content.statuses import (
    load_bonus_objectives,
    load_companions,
    load_items,
    load_statuses,
)
from funkoverse.errors import UserError


def use_content(dirs: Iterable[str | Path]) -> None:
    """Add these folders' content to the box (the same folders again: nothing to do). Every
    file is checked at once; the first fault is refused with `UserError` naming it, and the
    folders in use before stay in use."""
    wanted = [Path(d) for d in dirs]
    if tuple(str(d) for d in wanted) == content_dirs():
        return
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
    before = [Path(d) for d in content_dirs()]
    set_content_dirs(wanted)
    _clear()
    try:
        check_loaded()
    except UserError:  # refused: the folders in use before stay in use
        set_content_dirs(before)
        _clear()
        raise


def check_loaded() -> None:
    """Load everything with the fan content in: its files parse, ids match file names and
    clash with no shipped id."""
    load_characters()
    load_items()
    load_statuses()
    load_companions()
    load_bonus_objectives()
    load_scenarios()
    for path in extra_files("maps"):
        if path.stem in shipped_maps():
            refuse_clash("map", path.stem, path, Path(str(maps_folder() / path.name)))
        load_map(path.stem)


def _clear() -> None:
    characters.load_characters.cache_clear()
    scenarios.load_scenarios.cache_clear()
    maps._shipped_map.cache_clear()
    for f in (
        statuses.load_items,
        statuses.load_statuses,
        statuses.load_companions,
        statuses.load_bonus_objectives,
    ):
        f.cache_clear()

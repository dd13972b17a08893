"""Where fan-made content is: the folders given with `--content DIR` that are in use, and
their files of each kind. The loaders read the folders from here, beside the shipped files;
`extra.use_content` sets them, once every file in them is checked.
"""

from __future__ import annotations

from pathlib import Path

from funkoverse.content.fields import DATA, where
from funkoverse.errors import UserError

FOLDERS = (
    "characters",
    "items",
    "statuses",
    "companions",
    "bonus_objectives",
    "maps",
    "scenarios",
)

_DIRS: list[Path] = []  # the folders in use; `extra.use_content` sets them


def content_dirs() -> tuple[str, ...]:
    """The fan content folders in use, as the paths given (for worker processes)."""
    return tuple(str(d) for d in _DIRS)


def extra_files(folder: str) -> list[Path]:
    """The fan content files of one kind (`characters`, `maps`, ...), folder by folder."""
    return [p for d in _DIRS for p in sorted((d / folder).glob("*.toml"))]


def extra_map(map_id: str) -> Path | None:
    """The fan map file with id `map_id`, if a content folder has one."""
    for path in extra_files("maps"):
        if path.stem == map_id:
            return path
    return None


def refuse_clash(kind: str, card_id: str, path: Path, other: Path, field: str = "id") -> None:
    """A fan file whose id a shipped card (or another fan file) already has: one line naming
    both files and saying to rename it."""
    whose = "a shipped" if other.is_relative_to(DATA) else "another fan"
    raise UserError(
        f"{path}: field '{field}': {whose} {kind} is already called '{card_id}' "
        f"({where(other)}); give yours another id"
        + (" (and rename the file to match)" if field == "id" else "")
    )


def set_content_dirs(dirs: list[Path]) -> None:
    """Use these folders (`extra.use_content`, once it has checked them)."""
    _DIRS[:] = dirs

"""Where fan-made content is: the files of each kind in the folders a `Catalog` is made of
(`--content DIR`), which the loaders read beside the shipped files.
"""

from __future__ import annotations

import contextlib
import hashlib
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

Folders = tuple[str, ...]  # fan content folders, as given


def stamp_of(folders: Folders) -> str:
    """A digest of the folders' content files as they are now: the loaders read a set of
    folders once for each stamp, so a folder changed since is read anew."""
    digest = hashlib.sha256()
    for kind in FOLDERS:
        for path in extra_files(kind, folders):
            digest.update(str(path).encode() + b"\0")
            with contextlib.suppress(OSError):
                digest.update(path.read_bytes())
            digest.update(b"\0")
    return digest.hexdigest()[:16] if folders else ""


def extra_files(folder: str, folders: Folders) -> list[Path]:
    """The fan content files of one kind (`characters`, `maps`, ...), folder by folder."""
    return [p for d in folders for p in sorted((Path(d) / folder).glob("*.toml"))]


def extra_map(map_id: str, folders: Folders) -> Path | None:
    """The fan map file with id `map_id`, if one of the folders has one."""
    for path in extra_files("maps", folders):
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

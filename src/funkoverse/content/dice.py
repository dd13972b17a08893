"""Load dice from content data: one TOML file a die, under ``data/dice/``.

A die file has four fields::

    id = "champion"          # the name other content and the command line use
    name = "Champion die"    # for people
    faces = ["shield", ...]  # exactly six face names (see funkoverse.rules.core.dice.Face)
    source = "..."           # where these faces come from, so they can be corrected

Every problem is a :class:`~funkoverse.errors.UserError` on one line that names
the file, the field and what was expected.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from funkoverse.errors import UserError
from funkoverse.rules.core.dice import FACES_PER_DIE, DieSpec, Face

__all__ = ["SHIPPED_DICE_DIR", "load_dice", "load_die_file"]

SHIPPED_DICE_DIR = Path(__file__).resolve().parent / "data" / "dice"
"""The dice that ship with the game."""

_FIELDS = ("id", "name", "faces", "source")
_EXPECTED = {
    "id": "a short name such as 'champion'",
    "name": "a name for people such as 'Champion die'",
    "faces": f"a list of {FACES_PER_DIE} face names",
    "source": "a note of where the faces come from",
}
_ALLOWED_FACES = ", ".join(f.value for f in Face)
_ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


def _label(path: Path) -> str:
    """How a file is named in messages: its folder and its name (``dice/x.toml``)."""
    return f"{path.parent.name}/{path.name}" if path.parent.name else path.name


def _line_of(text: str, key: str) -> int | None:
    """The line where ``key = ...`` is written, for pointing at it; None if not found."""
    pattern = re.compile(rf"^\s*{re.escape(key)}\s*=")
    for number, line in enumerate(text.splitlines(), start=1):
        if pattern.match(line):
            return number
    return None


def load_die_file(path: Path | str) -> DieSpec:
    """Read and check one die file."""
    path = Path(path)
    label = _label(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(f"{label}: cannot read: {e}") from None
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise UserError(f"{label}: not valid TOML: {e}") from None
    except RecursionError:
        raise UserError(f"{label}: not valid TOML: its values are nested too deeply") from None

    def fail(key: str, message: str) -> UserError:
        line = _line_of(text, key)
        where = f" (line {line})" if line is not None else ""
        return UserError(f"{label}: field '{key}': {message}{where}")

    for key in data:
        if key not in _FIELDS:
            allowed = ", ".join(_FIELDS)
            raise fail(key, f"unknown field; a die has only: {allowed}")
    for key in _FIELDS:
        if key not in data:
            raise UserError(f"{label}: field '{key}': missing; expected {_EXPECTED[key]}")

    die_id, name, faces, source = (data[key] for key in _FIELDS)
    for key, value in (("id", die_id), ("name", name), ("source", source)):
        if not isinstance(value, str) or not value.strip():
            raise fail(key, f"expected a non-empty string, got {value!r}")
    if not _ID_PATTERN.match(die_id):
        raise fail("id", f"expected lower-case letters, digits, '-' or '_', got {die_id!r}")
    if not isinstance(faces, list):
        raise fail("faces", f"expected a list of {FACES_PER_DIE} face names, got {faces!r}")
    if len(faces) != FACES_PER_DIE:
        raise fail("faces", f"expected {FACES_PER_DIE} faces, got {len(faces)}")
    parsed: list[Face] = []
    for i, face in enumerate(faces, start=1):
        try:
            parsed.append(Face(face))
        except ValueError:
            raise fail(
                "faces", f"face {i}: unknown face {face!r}; expected one of: {_ALLOWED_FACES}"
            ) from None
    return DieSpec(id=die_id, name=name.strip(), faces=tuple(parsed), source=source.strip())


def _load_directory(directory: Path) -> Mapping[str, DieSpec]:
    if not directory.is_dir():
        raise UserError(f"{directory}: not a folder of dice")
    dice: dict[str, DieSpec] = {}
    where: dict[str, Path] = {}
    for path in sorted(directory.glob("*.toml")):
        die = load_die_file(path)
        if die.id in dice:
            raise UserError(
                f"{_label(path)}: field 'id': {die.id!r} is already used by {_label(where[die.id])}"
            )
        dice[die.id] = die
        where[die.id] = path
    return MappingProxyType(dice)


@cache
def _load_shipped() -> Mapping[str, DieSpec]:
    return _load_directory(SHIPPED_DICE_DIR)


def load_dice(directory: Path | None = None) -> Mapping[str, DieSpec]:
    """Every die in a folder, by id (the shipped dice if no folder is given; cached)."""
    if directory is None or Path(directory).resolve() == SHIPPED_DICE_DIR:
        return _load_shipped()
    return _load_directory(Path(directory))

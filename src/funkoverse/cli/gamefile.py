"""Saved games: a game file is its spec, seed and log (JSON, with a format version).

Written after every choice, atomically (a new file, then renamed over the old one), so a
game interrupted at any moment leaves a whole file behind. Read back, the log is played
again from the spec and the seed; a damaged or hand-edited file is refused with one line
naming what is wrong.
"""

from __future__ import annotations

import functools
import json
import os
import tempfile
from pathlib import Path

from funkoverse.content.catalog import SHIPPED, Catalog
from funkoverse.content.setups import build
from funkoverse.errors import UserError
from funkoverse.rules import Engine, IllegalChoice, Session


def save_game(session: Session, path: Path) -> None:
    """Write `session` to `path` atomically."""
    data = json.dumps(session.to_json(), indent=1) + "\n"
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(data)
        os.replace(tmp, path)
    except OSError as e:
        raise UserError(f"{path}: cannot write the game: {e.strerror}") from None


def read_game(path: Path) -> object:
    """The JSON a game file holds."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"{path}: no such game file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(f"{path}: cannot read the game file: {e}") from None
    try:
        return json.loads(text)
    except ValueError as e:
        raise UserError(
            f"{path}: not a game file: the JSON is damaged or cut short ({e})"
        ) from None
    except RecursionError:
        raise UserError(f"{path}: not a game file: its JSON is nested too deeply") from None


def load_game(path: Path, engine: Engine | None = None, catalog: Catalog = SHIPPED) -> Session:
    """The game saved in `path`, played again to where it stopped (on `engine`), its setup
    built from `catalog`."""
    data = read_game(path)
    try:
        return Session.from_json(data, functools.partial(build, catalog=catalog), engine)
    except IllegalChoice as e:
        raise UserError(f"{path}: {e}") from None
    except ValueError as e:
        raise UserError(f"{path}: {e}") from None
    except UserError as e:
        raise UserError(f"{path}: {e}") from None

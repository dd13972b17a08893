"""The contract every parser of outside input keeps, as the fuzz targets check it.

A parser given bad input refuses it: a `UserError` or a `ValueError` (with its own kinds:
`SpecError`, `IllegalChoice`) whose message is one line naming what is wrong (the file or
the field first), never another exception, never a hang, and nothing shared changed: the
shipped content loaded stays as it was. A target raises `Broken`
when the contract does not hold; anything else it raises is a crash of the parser.

The targets take bytes (what a file or a pipe holds) and ignore inputs over `MAX_INPUT`.
`main(target)` runs one under atheris (`python fuzz/run.py` runs each for a given time),
and `tests/test_fuzz_parsers.py` runs the same targets under Hypothesis.
"""

from __future__ import annotations

import atexit
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from funkoverse.errors import UserError

MAX_INPUT = 64 * 1024  # bytes: a map of 64x64 squares with its layers fits in half of it
MAX_MESSAGE = 2000  # characters: a refusal lists the known ids at most

Target = Callable[[bytes], None]


class Broken(AssertionError):
    """The contract does not hold; the message says how."""


def refused(error: BaseException, *labels: str) -> None:
    """`error` is a refusal as the contract wants it: a UserError or ValueError, one line,
    starting with one of `labels` (the file or the field it names)."""
    if not isinstance(error, UserError | ValueError):
        raise error
    text = str(error)
    if not text or "\n" in text or "\r" in text:
        raise Broken(f"a refusal is not one line: {text[:300]!r}")
    if len(text) > MAX_MESSAGE:
        raise Broken(f"a refusal of {len(text):,} characters: {text[:300]!r}")
    if not text.startswith(labels):
        raise Broken(f"a refusal does not start with {' or '.join(labels)}: {text[:300]!r}")


def shared_state() -> tuple[Any, ...]:
    """What outside input must never change: the content loaded from the box (the loaders'
    caches, by identity)."""
    from funkoverse.content.characters import load_characters
    from funkoverse.content.dice import load_dice
    from funkoverse.content.scenarios import load_scenarios
    from funkoverse.content.statuses import (
        load_bonus_objectives,
        load_companions,
        load_items,
        load_statuses,
    )

    loaded = (
        load_characters,
        load_items,
        load_statuses,
        load_companions,
        load_bonus_objectives,
        load_scenarios,
        load_dice,
    )
    return tuple(id(f()) for f in loaded)


@contextmanager
def keeps_shared_state() -> Iterator[None]:
    """The block changes nothing shared (`shared_state`), whatever it raises."""
    before = shared_state()
    try:
        yield
    finally:
        after = shared_state()
        if after != before:
            raise Broken(f"shared state changed: {before} -> {after}")


_SCRATCH: list[Path] = []


def scratch() -> Path:
    """A folder of this process's own, for the files a target writes (removed at exit)."""
    if not _SCRATCH:
        folder = Path(tempfile.mkdtemp(prefix="funkoverse-fuzz-"))
        atexit.register(shutil.rmtree, folder, True)
        _SCRATCH.append(folder)
    return _SCRATCH[0]


def main(target: Target, mutator: Any = None) -> None:
    """Run `target` under atheris with the command line's libFuzzer options (and a custom
    mutator, as `mutate.custom_mutator` makes one)."""
    import atheris

    atheris.instrument_all()
    atheris.Setup(sys.argv, target, custom_mutator=mutator)
    atheris.Fuzz()

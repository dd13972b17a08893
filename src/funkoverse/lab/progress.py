"""How far a run is, on standard error: a rich progress bar on a terminal, or a log line
every `LOG_SECONDS` (and at the end) when standard error is a file or a pipe."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

KINDS = ("bar", "lines")
LOG_SECONDS = 10.0  # between two progress lines in a log


def line(done: int, total: int, rate: float) -> str:
    """One progress line: games done of the plan, the rate, the time left."""
    share = 100 * done / total if total else 100.0
    text = f"simulate: {done:,} of {total:,} games ({share:.0f}%)"
    if rate > 0:
        text += f", {rate:.1f} games/s"
        if done < total:
            text += f", about {_duration((total - done) / rate)} left"
    return text


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


class Progress:
    """A context giving `advance(rate)`, called once a game is stored."""

    def __init__(self, kind: str | None, total: int, done: int) -> None:
        self.kind = kind
        self.total = total
        self.done = done
        self.rate = 0.0
        self.bar: Any = None
        self.last = 0.0

    def __enter__(self) -> Callable[[float], None]:
        if self.kind == "lines":
            self._write()
            return self._line
        if self.kind != "bar":
            return lambda rate: None
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.progress import Progress as Bar

        self.bar = Bar(
            TextColumn("games"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]:.2f} games/s"),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
        )
        self.bar.start()
        task = self.bar.add_task("games", total=self.total, completed=self.done, rate=0.0)

        def advance(rate: float) -> None:
            self.bar.update(task, advance=1, rate=rate)

        return advance

    def _line(self, rate: float) -> None:
        self.done += 1
        self.rate = rate
        if time.monotonic() - self.last >= LOG_SECONDS:
            self._write()

    def _write(self) -> None:
        self.last = time.monotonic()
        sys.stderr.write(line(self.done, self.total, self.rate) + "\n")
        sys.stderr.flush()

    def __exit__(self, *exc: object) -> None:
        if self.kind == "lines" and exc[0] is None:
            self._write()
        if self.bar is not None:
            self.bar.stop()
            sys.stderr.flush()

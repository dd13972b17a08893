"""Worker processes that play soak games, name the game that kills one, and die with the run.

Each worker has its own pipe and at most `AHEAD` games handed to it; it plays them in turn
and sends back each outcome. A worker that dies (a crash of the compiled kernel, the
machine killing it) names the game it was playing: the first it had not answered. That
game is reported as failed, the others handed to it go back in the queue, and a new
worker takes its place. Workers leave Ctrl-C to the parent, exit when their pipe closes,
and notice within a second that the parent is gone however it went (even SIGKILL).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection, wait
from typing import Any

from funkoverse.soak.game import Outcome

AHEAD = 2  # games handed to a worker before it answers the first
PARENT_POLL = 0.5  # seconds between a worker's looks at whether its parent lives

Play = Callable[[str], Outcome]


def _orphan_watch(parent: int) -> None:
    """End this process when its parent is gone (it is then adopted by another)."""
    while True:
        time.sleep(PARENT_POLL)
        if os.getppid() != parent:
            os._exit(1)


def _serve(conn: Connection, play: Play, parent: int) -> None:
    """A worker's life: play each game id received, send back its outcome; stop at None or
    when the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    threading.Thread(target=_orphan_watch, args=(parent,), daemon=True).start()
    if os.getppid() != parent:
        return
    while True:
        try:
            game = conn.recv()
        except (EOFError, OSError):
            return
        if game is None:
            return
        conn.send(play(game))


class _Worker:
    def __init__(self, context: Any, play: Play) -> None:
        self.conn, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(theirs, play, os.getpid()), daemon=True)
        self.process.start()
        theirs.close()
        self.given: deque[str] = deque()

    def give(self, game: str) -> None:
        self.given.append(game)
        self.conn.send(game)

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.terminate()
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


def _death(process: Any) -> str:
    code = process.exitcode
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


class Workers:
    """`count` worker processes playing games with `play` (a module-level function, so that
    a worker can be started with it). Use as a context manager: leaving it stops them all."""

    def __init__(self, count: int, play: Play) -> None:
        self.play = play
        self.context = multiprocessing.get_context()
        self.workers = [_Worker(self.context, play) for _ in range(count)]

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for w in self.workers:
            w.stop()
        self.workers = []

    def run(self, games: Iterable[str]) -> Iterator[Outcome]:
        """Every game's outcome, in the order they finish."""
        todo = iter(games)
        again: deque[str] = deque()

        def next_game() -> str | None:
            return again.popleft() if again else next(todo, None)

        while True:
            for i, w in enumerate(self.workers):
                if not w.given and not w.process.is_alive():  # died between games
                    w.stop()
                    w = self.workers[i] = _Worker(self.context, self.play)
                while len(w.given) < AHEAD:
                    game = next_game()
                    if game is None:
                        break
                    w.give(game)
            busy = [w for w in self.workers if w.given]
            if not busy:
                return
            ready = wait([w.conn for w in busy] + [w.process.sentinel for w in busy])
            for w in busy:
                if w.conn in ready:
                    try:
                        outcome: Outcome = w.conn.recv()
                    except (EOFError, OSError):
                        pass  # it died while answering: its sentinel says so below
                    else:
                        w.given.popleft()
                        yield outcome
                        continue
                if w.process.sentinel in ready or not w.process.is_alive():
                    w.process.join()
                    lost = w.given.popleft()
                    again.extendleft(reversed(w.given))
                    yield Outcome(
                        lost, failure=f"the worker process playing it died ({_death(w.process)})"
                    )
                    w.stop()
                    self.workers[self.workers.index(w)] = _Worker(self.context, self.play)

"""The computer's seats think in worker processes, off the server's event loop.

Each game goes to one worker, always the same (its id hashed), which keeps the game live
between decisions: it is sent only the log's entries it has not seen, plays them on, and
asks the agent of the seat's level with the seat's view (never the whole game). A decision
late in a long game costs what one early on costs. A worker that has lost the game (it was
restarted, or let the game go to make room) says so, and is sent the whole log once.

Workers think at a lower priority than the server, so answering a person never waits for
the computer, and each exits as soon as the server that started it is gone.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
import time
import zlib
from collections import OrderedDict
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from funkoverse.ai.agents import AGENTS
from funkoverse.content.catalog import SHIPPED, Catalog
from funkoverse.content.setups import build
from funkoverse.rules import Entry, Session, SetupSpec, engines
from funkoverse.rules.core.world import display_names

LEVELS = ("easy", "normal", "hard", "expert")
HINT_LEVEL = "hard"
KEPT = 32  # live games a worker keeps
NICE = 5  # how much lower the workers' priority is than the server's


@dataclass(frozen=True)
class Task:
    """What a worker is sent: the game, and its log from entry `start` on."""

    game: str
    spec: dict[str, Any]
    seed: int
    start: int
    entries: tuple[dict[str, Any], ...]  # `Entry.to_json` of each
    seat: str
    engine: str  # the engine the server plays on ("kernel" or "python")
    catalog: Catalog = SHIPPED  # the content its game is made of


class Lost(Exception):
    """The worker does not hold the game at the version the task starts from."""


# -- in the worker --------------------------------------------------------------------

_LIVE: OrderedDict[str, Session] = OrderedDict()


def _live(task: Task) -> Session:
    """The worker's live game, played on to the task's last entry."""
    session = _LIVE.pop(task.game, None)
    entries = [Entry.from_json(e) for e in task.entries]
    # a log only grows (an undo is an entry of its own), so a worker that is ahead of the
    # task's start (another task of the game came first) skips what it has already played
    skip = session.version - task.start if session is not None else -1
    if session is None or not 0 <= skip <= len(entries):
        if task.start != 0:
            raise Lost(task.game)
        session = Session(
            build(SetupSpec.from_json(task.spec), catalog=task.catalog),
            task.seed,
            settle=False,
            engine=engines.named(task.engine),
        )
        skip = 0
    try:
        session.extend(entries[skip:])
    except Exception:
        raise Lost(task.game) from None
    _LIVE[task.game] = session
    while len(_LIVE) > KEPT:
        _LIVE.popitem(last=False)
    return session


def _agent_seed(seed: int, version: int, seat: str) -> int:
    return zlib.crc32(f"{seed}/{version}/{seat}".encode())


def decide(task: Task, level: str) -> str | None:
    """The choice (its id) the agent of `level` makes for the task's seat; None when the
    worker has lost the game (send the whole log)."""
    try:
        session = _live(task)
    except Lost:
        return None
    agent = AGENTS[level](_agent_seed(session.seed, session.version, task.seat))
    return agent.decide(session.turn(task.seat)).format()


def hint(task: Task, top: int = 3) -> list[dict[str, Any]] | None:
    """The search's best few choices for the task's seat, with their estimated chance to win;
    None when the worker has lost the game."""
    from funkoverse.rules.words.describe import label

    try:
        session = _live(task)
    except Lost:
        return None
    turn = session.turn(task.seat)
    view = turn.view
    agent = AGENTS[HINT_LEVEL](_agent_seed(session.seed, session.version, task.seat))
    names = display_names(view)
    return [
        {"id": c.format(), "label": label(view, c, names), "value": round(v, 4)}
        for c, v in agent.explain(turn, top)
    ]


def _orphan_watch(parent: int) -> None:
    """Exit the worker once the server that started it is gone (even killed outright)."""
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:
            os._exit(0)


def _start_worker(parent: int) -> None:
    """A new worker: lower priority, an eye on its parent, the content and agents loaded."""
    from funkoverse.content.setups import first_game_spec

    with contextlib.suppress(OSError):  # a system that refuses it: the same priority then
        os.nice(NICE)
    threading.Thread(target=_orphan_watch, args=(parent,), daemon=True).start()
    build(first_game_spec())


# -- in the server ----------------------------------------------------------------------


class Thinkers:
    """Worker processes for the computer's seats and hints, a game always on the same one."""

    def __init__(
        self, workers: int = 2, engine: str = "kernel", catalog: Catalog = SHIPPED
    ) -> None:
        self.engine = engine
        self.catalog = catalog  # what the server's games are made of, for the workers
        self._context = multiprocessing.get_context("spawn")
        self._pools: list[ProcessPoolExecutor] = [self._pool() for _ in range(max(1, workers))]
        self._sent: dict[str, int] = {}  # the version each game's worker holds

    def _pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=1,
            mp_context=self._context,
            initializer=_start_worker,
            initargs=(os.getpid(),),
        )

    def _shard(self, game: str) -> int:
        return zlib.crc32(game.encode()) % len(self._pools)

    def task(self, game: str, spec: dict[str, Any], seed: int, log: list[Entry], seat: str) -> Task:
        """The task for `game` at the end of `log`: only what its worker has not seen."""
        start = self._sent.get(game, 0)
        if start > len(log):
            start = 0
        entries = tuple(e.to_json() for e in log[start:])
        return Task(game, spec, seed, start, entries, seat, self.engine, self.catalog)

    def sent(self, task: Task, answered: bool) -> None:
        """The worker answered `task` (it now holds the game), or had lost it."""
        if answered:
            self._sent[task.game] = task.start + len(task.entries)
        else:
            self._sent.pop(task.game, None)

    def decide(self, task: Task, level: str) -> Future[str | None]:
        return self._submit(task.game, decide, task, level)

    def hint(self, task: Task) -> Future[list[dict[str, Any]] | None]:
        return self._submit(task.game, hint, task)

    def _submit(self, game: str, fn: Any, *args: Any) -> Future[Any]:
        shard = self._shard(game)
        try:
            return self._pools[shard].submit(fn, *args)
        except (BrokenProcessPool, RuntimeError):  # a worker died: start it again
            self._pools[shard] = self._pool()
            for held in [g for g in self._sent if self._shard(g) == shard]:
                self._sent.pop(held, None)
            return self._pools[shard].submit(fn, *args)

    def forget(self, game: str) -> None:
        self._sent.pop(game, None)

    def close(self) -> None:
        for pool in self._pools:
            pool.shutdown(wait=False, cancel_futures=True)

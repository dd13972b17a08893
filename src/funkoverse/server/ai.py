"""The computer's seats think in worker processes, off the server's event loop.

A worker is handed a game as data (spec, seed, log) and the seat to play: it plays the log
again, takes the seat's view (never the whole game), and asks the agent of the seat's
level. One agent thinking never stalls another game or the page.
"""

from __future__ import annotations

import multiprocessing
import zlib
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from funkoverse.ai.agents import AGENTS
from funkoverse.content.setups import build
from funkoverse.rules.session import Session
from funkoverse.rules.world import display_names

LEVELS = ("easy", "normal", "hard", "expert")
HINT_LEVEL = "hard"


def _session(spec: dict[str, Any], seed: int, log: list[dict[str, Any]]) -> Session:
    return Session.from_json(
        {"format": "funkoverse-game", "version": 1, "spec": spec, "seed": seed, "log": log}, build
    )


def _agent_seed(seed: int, version: int, seat: str) -> int:
    return zlib.crc32(f"{seed}/{version}/{seat}".encode())


def decide(
    spec: dict[str, Any], seed: int, log: list[dict[str, Any]], seat: str, level: str
) -> str:
    """The choice (its id) the agent of `level` makes for `seat` in this game."""
    session = _session(spec, seed, log)
    agent = AGENTS[level](_agent_seed(seed, session.version, seat))
    return agent.choose(session.view(seat), session.choices(seat)).format()


def hint(
    spec: dict[str, Any], seed: int, log: list[dict[str, Any]], seat: str, top: int = 3
) -> list[dict[str, Any]]:
    """The search's best few choices for `seat` here, with their estimated chance to win."""
    from funkoverse.rules.describe import label

    session = _session(spec, seed, log)
    view = session.view(seat)
    agent = AGENTS[HINT_LEVEL](_agent_seed(seed, session.version, seat))
    names = display_names(view)
    return [
        {"id": c.format(), "label": label(view, c, names), "value": round(v, 4)}
        for c, v in agent.explain(view, session.choices(seat), top)
    ]


def _warm() -> bool:
    """Load the content and the agents once in a new worker."""
    from funkoverse.content.setups import first_game_spec

    build(first_game_spec())
    return True


class Thinkers:
    """A pool of worker processes for the computer's seats and hints."""

    def __init__(self, workers: int = 2) -> None:
        context = multiprocessing.get_context("spawn")
        self.pool = ProcessPoolExecutor(max_workers=max(1, workers), mp_context=context)
        for _ in range(max(1, workers)):
            self.pool.submit(_warm)

    def decide(
        self, spec: dict[str, Any], seed: int, log: list[dict[str, Any]], seat: str, level: str
    ) -> Future[str]:
        return self.pool.submit(decide, spec, seed, log, seat, level)

    def hint(
        self, spec: dict[str, Any], seed: int, log: list[dict[str, Any]], seat: str
    ) -> Future[list[dict[str, Any]]]:
        return self.pool.submit(hint, spec, seed, log, seat)

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)

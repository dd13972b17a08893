"""The Python engine behind the engine interface: the reference every other engine follows.

A position is a `GameState` and the functions of `rules.play.engine` played on it; it plays every
setup and every position a builder can make.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any

from funkoverse.rules.core.choices import Choice
from funkoverse.rules.core.events import Event
from funkoverse.rules.core.frames import RollFrame
from funkoverse.rules.core.state import CHANCE, GameState, Phase, Setup
from funkoverse.rules.engines.base import AS_IS, CHANCE_AT, OVER_AT, Decoder
from funkoverse.rules.play import engine, leaving


class PythonPosition:
    """A position of the Python engine: a `GameState` of its own."""

    __slots__ = ("_s", "decoder", "seats")

    def __init__(self, state: GameState) -> None:
        self._s = state
        self.seats = state.seats
        self.decoder: Decoder = AS_IS

    @property
    def engine(self) -> PythonEngine:
        return PYTHON

    @property
    def setup(self) -> Setup:
        return self._s.setup

    def at(self) -> int:
        found = engine.decider(self._s)
        if found is None:
            return OVER_AT
        if found == CHANCE:
            return CHANCE_AT
        return self._s.seats.index(found)

    @property
    def over(self) -> bool:
        return self._s.phase is Phase.OVER

    @property
    def winner(self) -> str | None:
        return self._s.winner

    @property
    def round(self) -> int:
        return self._s.round

    @property
    def turns(self) -> int:
        return self._s.turns

    @property
    def phase(self) -> Phase:
        return self._s.phase

    def legal(self) -> Sequence[Choice]:
        return engine.choices(self._s)

    def is_legal(self, choice: Choice) -> bool:
        return engine.is_legal(self._s, choice)

    def apply(self, choice: Choice) -> Any:
        return engine.apply(self._s, choice)

    def decode(self, raw: Any) -> tuple[Event, ...]:
        return tuple(raw)

    def depart(self, side: str) -> Any:
        """Free-for-All: `side` leaves the game (`rules.play.leaving`); its record, as `apply`'s.
        Only this engine plays it: the kernel holds no seat that left."""
        return leaving.leave(self._s, side)

    def chance(self) -> list[tuple[Choice, Fraction]]:
        return engine.chance_outcomes(self._s)

    def roll(self) -> tuple[str, str, tuple[str, ...], tuple[str, ...]] | None:
        top = self._s.stack[-1] if self._s.stack else None
        if isinstance(top, RollFrame):
            return top.challenger, top.target, tuple(top.attack), tuple(top.defense)
        return None

    def fork(self) -> PythonPosition:
        return PythonPosition(self._s.copy())

    def peek(self) -> GameState:
        return self._s

    def state(self) -> GameState:
        return self._s.copy()

    def key(self) -> Hashable:
        return self._s.key()


class PythonEngine:
    """The Python engine: it plays every setup."""

    name = "python"
    available = True
    why_not: str | None = None

    def start(self, setup: Setup) -> PythonPosition:
        return PythonPosition(engine.new_game(setup))

    def load(self, state: GameState) -> PythonPosition:
        return PythonPosition(state.copy())

    def __repr__(self) -> str:
        return "the Python engine"


PYTHON = PythonEngine()

"""The engine interface: what every client of the rules asks of an engine, whichever it is.

In the manner of OpenSpiel's `Game`/`State`: an `Engine` starts a position from a setup (or
takes one a builder made, for puzzles and tests), and a `Position` says who decides, lists
the legal choices, applies one, lists a chance node's outcomes with exact odds, forks
cheaply, and reads out as the Python engine's `GameState` for whoever must look at it.
A position is never lent out to be changed: `peek` is for reading, `state` is a copy.

What `apply` returns is the position's own record of what happened (`Raw`), turned into
`Event` values by `decode` only when someone reads them: the kernel's records are rows of
integers, and most games are never read event by event.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any, Protocol

from funkoverse.rules.core.choices import Choice
from funkoverse.rules.core.events import Event
from funkoverse.rules.core.state import GameState, Phase, Setup

CHANCE_AT = -1  # the decider index of a chance node
OVER_AT = -2  # ... of a finished game

Raw = Any  # what `Position.apply` records: decoded by the position's `decoder`


class Decoder(Protocol):
    """What turns a position's record of a choice into `Event` values."""

    def decode(self, raw: Raw) -> tuple[Event, ...]: ...


class AsIs:
    """The decoder of records that are `Event` values already (the Python engine's)."""

    @staticmethod
    def decode(raw: Raw) -> tuple[Event, ...]:
        return tuple(raw)


AS_IS = AsIs()


class Position(Protocol):
    """One position of one game on one engine."""

    @property
    def engine(self) -> Engine: ...

    seats: tuple[str, ...]
    decoder: Decoder  # turns what `apply` returns into events

    @property
    def setup(self) -> Setup:
        """The setup the position is of (a draft replaces the one the game began with)."""
        ...

    def at(self) -> int:
        """The index in `seats` of the seat that decides, `CHANCE_AT` or `OVER_AT`."""
        ...

    @property
    def over(self) -> bool: ...

    @property
    def winner(self) -> str | None: ...

    @property
    def round(self) -> int: ...

    @property
    def turns(self) -> int:
        """Turns taken so far in the game."""
        ...

    @property
    def phase(self) -> Phase: ...

    def legal(self) -> Sequence[Choice]:
        """The legal choices, in the engine's order (the one source of legality)."""
        ...

    def is_legal(self, choice: Choice) -> bool: ...

    def apply(self, choice: Choice) -> Raw:
        """Make a choice: `IllegalChoice` (citing the rule) when it is not legal, and nothing
        changed. Returns the record of what happened, for `decode`."""
        ...

    def decode(self, raw: Raw) -> tuple[Event, ...]: ...

    def chance(self) -> list[tuple[Choice, Fraction]]:
        """A chance node's outcomes with their exact probabilities (empty elsewhere)."""
        ...

    def roll(self) -> tuple[str, str, tuple[str, ...], tuple[str, ...]] | None:
        """At a challenge waiting for its dice: challenger, defender, and the ids of the dice
        each rolls; None at any other node."""
        ...

    def fork(self) -> Position:
        """An independent copy: what is played on it leaves this one as it was."""
        ...

    def peek(self) -> GameState:
        """The position as the Python engine's state, to read and never to change."""
        ...

    def state(self) -> GameState:
        """The position as a new `GameState`, for anyone to keep or change."""
        ...

    def key(self) -> Hashable:
        """Equal for equal positions of one engine (a transposition key)."""
        ...


class Engine(Protocol):
    """A way to play the rules."""

    name: str

    @property
    def available(self) -> bool:
        """Whether this engine can play on this machine at all."""
        ...

    @property
    def why_not(self) -> str | None:
        """Why it cannot, when it cannot."""
        ...

    def start(self, setup: Setup) -> Position:
        """The position a game of `setup` begins at; `Unsupported` when this engine does not
        play it."""
        ...

    def load(self, state: GameState) -> Position:
        """A position holding `state` (copied: the state is left as it is), as a builder or
        a replay made it; `Unsupported` when this engine cannot hold it."""
        ...

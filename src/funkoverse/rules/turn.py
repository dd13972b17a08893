"""What a decider is handed: one value with everything it may know, and nothing more.

A person at the terminal, an agent, a server's computer seat and an RL learner all decide
from a `Turn`: the seat, the version it answers, the seat's view, its legal choices, the
events it has not yet seen, and, for search, a position of the game's engine to play on. The
position is the game itself (a fork of it) only when the seat may see everything; while a
rival's pick is secret it is None, and a search plays on games consistent with the view.

The view and the unseen events are read out of the session when first asked for (a random
decider looks at neither), and a turn is read at once: once the game moves on, it is stale.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from funkoverse.rules.core.choices import Choice
from funkoverse.rules.core.events import Event
from funkoverse.rules.core.state import GameState
from funkoverse.rules.engines import Engine, Position
from funkoverse.rules.play import engine as python_engine


class Source(Protocol):
    """What a turn reads its lazy parts out of: the game it is a decision of (a `Session`).
    Named here, not imported, so that a session can make turns and a turn need not know it."""

    @property
    def engine(self) -> Engine: ...

    def searchable(self, seat: str) -> Position | None: ...

    def view(self, seat: str | None) -> GameState: ...

    def events(self, seat: str | None, since: int = 0) -> list[tuple[int, Event]]: ...


class Turn:
    """One decision of one seat."""

    __slots__ = (
        "_position",
        "_seen",
        "_session",
        "_unseen",
        "_view",
        "choices",
        "engine",
        "seat",
        "turns",
        "version",
    )

    def __init__(
        self,
        seat: str,
        version: int,
        choices: Sequence[Choice],
        session: Source | None = None,
        seen: int = 0,
        view: GameState | None = None,
        unseen: tuple[Event, ...] | None = None,
        turns: int = 0,
    ) -> None:
        self.seat = seat
        self.turns = turns  # turns played so far in the game
        self.version = version
        self.choices = choices
        self._session = session
        self._seen = seen
        self._view = view
        self._unseen = unseen
        self._position: Position | bool | None = None if session is None else False
        # the game's engine (None for a turn made by hand)
        self.engine: Engine | None = session.engine if session is not None else None

    @classmethod
    def of(cls, view: GameState, choices: Sequence[Choice], seat: str | None = None) -> Turn:
        """A turn from a view a caller already holds (a puzzle, a tool): no position to search
        on, nothing unseen."""
        found = seat if seat is not None else python_engine.decider(view)
        return cls(found or "", 0, choices, view=view, unseen=(), turns=view.turns)

    @property
    def position(self) -> Position | None:
        """A position of the game's engine to search on (a fork: play on it freely), or None
        while the seat may not see everything."""
        if self._position is False:
            assert self._session is not None
            self._position = self._session.searchable(self.seat)
        assert self._position is not True
        return self._position

    def narrowed(self, choices: Sequence[Choice]) -> Turn:
        """The same turn with fewer choices to pick from (a restriction on the decider)."""
        other = Turn.__new__(Turn)
        for name in Turn.__slots__:
            setattr(other, name, getattr(self, name))
        other.choices = choices
        return other

    @property
    def view(self) -> GameState:
        """The game as the seat may see it (a copy)."""
        if self._view is None:
            assert self._session is not None
            self._view = self._session.view(self.seat)
        return self._view

    @property
    def unseen(self) -> tuple[Event, ...]:
        """What happened since the seat's last choice and what followed it, as it may see it
        (the others' choices and the dice since)."""
        if self._unseen is None:
            assert self._session is not None
            self._unseen = tuple(e for _, e in self._session.events(self.seat, self._seen))
        return self._unseen


Decide = Callable[[Turn], Choice]

"""A game as setup + seed + choices, played on an engine.

The generator is made from the seed and owned by the game; the rules never touch a global
random. Chance outcomes are drawn with it (`sample_chance`): a roll's dice are rolled and
counted, so the outcome logged is the one the dice show, and replaying the log with the same
seed rolls the same dice.

A game is played on the engine it is given (`rules.engines`: the compiled kernel or the
Python engine), chosen by whoever starts it. Where that engine does not play the setup or
the position, the Python engine plays it and `fallback` says why; a game that leaves the
kernel mid-way is played again from its log on the Python engine, the same game. No
position is lent out to be changed: `peek` is for reading, `state` is a copy.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from funkoverse.rules.core.choices import Choice, FirstPlayer, RollOutcome, parse
from funkoverse.rules.core.dice import resolve, roll
from funkoverse.rules.core.errors import IllegalChoice, Unsupported
from funkoverse.rules.core.events import Event, EventKind, Events
from funkoverse.rules.core.state import CHANCE, GameState, Setup
from funkoverse.rules.core.world import display_names
from funkoverse.rules.engines import CHANCE_AT, OVER_AT, PYTHON, Engine, Position, best
from funkoverse.rules.engines.base import Decoder
from funkoverse.rules.engines.python import PythonPosition
from funkoverse.rules.play import leaving
from funkoverse.rules.words.describe import label

# an entry's events as recorded, and what decodes them when they are read
Record = tuple[Decoder, Any]


@dataclass(frozen=True)
class Leave:
    """Free-for-All: `side` leaves the game (`rules.play.leaving`). Not a choice of the game (no
    seat is offered it), but kept in the game's log among the choices, so that playing the
    log again makes it again at the same point."""

    side: str

    def format(self) -> str:
        return f"leave:{self.side}"


@dataclass(frozen=True)
class Labelled:
    """A legal choice with its stable id and a label for people."""

    choice: Choice
    label: str

    @property
    def id(self) -> str:
        return self.choice.format()


class Game:
    """One game: its setup, seed, position and the log of every choice made."""

    def __init__(self, setup: Setup, seed: int = 0, engine: Engine | None = None) -> None:
        self.setup = setup
        self.seed = seed
        self.log: list[Choice | Leave] = []
        self.rng = random.Random(seed)
        self.wanted = engine if engine is not None else best()
        self.fallback: str | None = None  # why the game is not on the engine wanted
        self._origin: GameState | None = None  # the position a game made by hand began at
        self.position: Position = self._start(setup)

    def _start(self, setup: Setup) -> Position:
        try:
            return self.wanted.start(setup)
        except Unsupported as why:
            self.fallback = str(why)
            return PYTHON.start(setup)

    @classmethod
    def at(cls, state: GameState, seed: int = 0, engine: Engine | None = None) -> Game:
        """A game that starts from a given position (puzzles, tests, analysis): the position
        is handed to `engine` (the Python engine by default) and the state is left as it is."""
        game = cls.__new__(cls)
        game.setup = state.setup
        game.seed = seed
        game.rng = random.Random(seed)
        game.log = []
        game.wanted = engine if engine is not None else PYTHON
        game.fallback = None
        game._origin = state.copy()
        try:
            game.position = game.wanted.load(state)
        except Unsupported as why:
            game.fallback = str(why)
            game.position = PYTHON.load(state)
        return game

    @classmethod
    def replay(
        cls,
        setup: Setup,
        seed: int,
        log: Sequence[Choice | Leave | str],
        engine: Engine | None = None,
    ) -> Game:
        """Rebuild a game from its log; chance draws are repeated to keep the generator in
        step, and a logged chance outcome the dice do not show is refused."""
        game = cls(setup, seed, engine)
        for entry in log:
            game.replay_one(entry)
        return game

    def fork(self) -> Game:
        """An independent copy of the game (position, generator and log): what is played on
        the copy leaves this game as it was."""
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.log = list(self.log)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.position = self.position.fork()
        return other

    # -- the engine ----------------------------------------------------------------------

    @property
    def engine(self) -> Engine:
        """The engine that plays the game now."""
        return self.position.engine

    @property
    def uses_kernel(self) -> bool:
        return self.position.engine.name == "kernel"

    def _leave(self, why: str) -> None:
        """The position is past what the engine holds: the game is played again from its log
        on the Python engine (the same seed draws the same dice), and goes on there."""
        log = self.log
        self.fallback = why
        self.rng = random.Random(self.seed)
        self.log = []
        origin = self._origin
        self.position = PYTHON.start(self.setup) if origin is None else PYTHON.load(origin)
        for choice in log:
            self.replay_one(choice)

    # -- questions ------------------------------------------------------------------------

    def peek(self) -> GameState:
        """The position to read, never to change (the authority's own questions)."""
        return self.position.peek()

    @property
    def state(self) -> GameState:
        """The position as a `GameState` of its own: changing it changes nothing here."""
        return self.position.state()

    def snapshot(self) -> GameState:
        """A copy of the position, for anyone to keep or change."""
        return self.position.state()

    @property
    def seats(self) -> tuple[str, ...]:
        return self.position.seats

    @property
    def decider(self) -> str | None:
        at = self.position.at()
        if at >= 0:
            return self.position.seats[at]
        return CHANCE if at == CHANCE_AT else None

    @property
    def over(self) -> bool:
        return self.position.over

    @property
    def winner(self) -> str | None:
        return self.position.winner

    @property
    def round(self) -> int:
        return self.position.round

    def legal(self) -> Sequence[Choice]:
        """The legal choices, as values, in the engine's order."""
        try:
            return self.position.legal()
        except Unsupported as why:
            self._leave(str(why))
            return self.position.legal()

    def choices(self) -> list[Labelled]:
        """The legal choices with their labels."""
        legal = self.legal()
        state = self.peek()
        names = display_names(state)
        return [Labelled(c, label(state, c, names)) for c in legal]

    def chance_outcomes(self) -> list[tuple[Choice, Fraction]]:
        """The outcomes of a chance node with their exact probabilities (empty elsewhere)."""
        return self.position.chance()

    # -- choices --------------------------------------------------------------------------

    def play(self, choice: Choice | str) -> Events:
        """Make a legal choice (refused with the rule's reason otherwise) and log it."""
        decoder, raw = self.play_record(parse(choice) if isinstance(choice, str) else choice)
        return list(decoder.decode(raw))

    def play_record(self, choice: Choice) -> Record:
        """`play`, with what happened as the engine recorded it (decoded when read)."""
        position = self.position
        try:
            raw = position.apply(choice)
        except (Unsupported, RuntimeError) as why:
            if position.engine is PYTHON or isinstance(why, IllegalChoice):
                raise
            self._leave(f"past the kernel's limits: {why}")
            return self.play_record(choice)
        self.log.append(choice)
        return position.decoder, raw

    def depart(self, side: str) -> Record:
        """Free-for-All: `side` leaves the game and the others play on (`rules.play.leaving`);
        refused with `IllegalChoice` when it cannot leave now, nothing changed. The kernel
        holds no seat that left: a game on it is played again from its log on the Python
        engine first, and goes on there (`fallback` says so)."""
        why = leaving.refusal(self.peek(), side)
        if why is None and self.position.at() == CHANCE_AT:
            why = "a player leaves between decisions, not while the dice are rolled"
        if why is not None:
            raise IllegalChoice(why)
        if not isinstance(self.position, PythonPosition):
            self._leave(f"{side} left the free-for-all: the kernel holds no seat that left")
        position = self.position
        assert isinstance(position, PythonPosition)
        raw = position.depart(side)
        self.log.append(Leave(side))
        return position.decoder, raw

    def sample_chance(self) -> tuple[Choice, Events]:
        """Draw the chance outcome with the game's generator; returns it and, for a roll, the
        event that shows the dice."""
        assert self.position.at() == CHANCE_AT
        found = self.position.roll()
        if found is not None:
            return self._roll(*found)
        return self._flip(self.position.seats)

    def _roll(
        self, challenger: str, target: str, attack: Sequence[str], defense: Sequence[str]
    ) -> tuple[Choice, Events]:
        dice = self.position.setup.dice
        faces_a = roll([dice[d] for d in attack], self.rng)
        faces_d = roll([dice[d] for d in defense], self.rng)
        result = resolve(faces_a, faces_d)
        shown = Event(
            EventKind.DICE,
            piece=challenger,
            other=target,
            attack=tuple(f.value for f in faces_a),
            defense=tuple(f.value for f in faces_d),
            number=result.attack_successes,
            total=result.defense_successes,
        )
        return RollOutcome(result.challenger_wins), [shown]

    def _flip(self, seats: tuple[str, ...]) -> tuple[Choice, Events]:
        """The First Player marker: every seat equally likely (as the engines' `chance`)."""
        r = self.rng.random()
        acc = 0.0
        share = float(Fraction(1, len(seats)))
        for side in seats:
            acc += share
            if r < acc:
                return FirstPlayer(side), []
        return FirstPlayer(seats[-1]), []

    def play_chance(self) -> Events:
        """Draw and make the chance outcome; the dice come first in the events."""
        choice, shown = self.sample_chance()
        return shown + self.play(choice)

    def chance_record(self) -> tuple[Choice, Record]:
        """`play_chance`, with what happened as recorded (the dice first)."""
        choice, shown = self.sample_chance()
        decoder, raw = self.play_record(choice)
        if not shown:
            return choice, (decoder, raw)
        return choice, (ShownFirst(shown, decoder), raw)

    def replay_one(self, entry: Choice | Leave | str) -> Events:
        """Make one logged choice (or a player's leaving); at a chance node the dice are drawn
        again first."""
        if isinstance(entry, Leave):
            decoder, raw = self.depart(entry.side)
            return list(decoder.decode(raw))
        value = parse(entry) if isinstance(entry, str) else entry
        if self.position.at() == CHANCE_AT:
            drawn, shown = self.sample_chance()
            if drawn != value:
                raise IllegalChoice(
                    f"'{value.format()}': the dice of this seed give '{drawn.format()}' here"
                )
            return shown + self.play(value)
        if self.position.at() == OVER_AT:
            raise IllegalChoice(f"'{value.format()}': the game is over")
        return self.play(value)


class ShownFirst:
    """The decoder of a chance entry's record: the dice's event first, then the engine's."""

    __slots__ = ("decoder", "shown")

    def __init__(self, shown: Sequence[Event], decoder: Decoder) -> None:
        self.shown = tuple(shown)
        self.decoder = decoder

    def decode(self, raw: Any) -> tuple[Event, ...]:
        return (*self.shown, *self.decoder.decode(raw))

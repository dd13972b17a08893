"""A game as setup + seed + choices: the record that replays, saves and explains a game.

The generator is made from the seed and owned by the game; the rules never touch a
global random. Chance outcomes are drawn with it (`sample_chance`): a roll's dice are
rolled and counted, so the outcome logged is the one the dice show, and replaying the log
with the same seed rolls the same dice.

A game is played by the compiled kernel when it is built and selected (`compiled.selected`)
and the setup is one it plays, by the Python engine otherwise (and during a draft, which
rewrites the setup); both play the same game, choice for choice. `state` is the position
as the Python engine's `GameState`: with the kernel it is read out of it when asked, and a
change made to it is taken back into the kernel before the game goes on.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from funkoverse.rules import compiled, engine
from funkoverse.rules.choices import Choice, FirstPlayer, RollOutcome, parse
from funkoverse.rules.describe import label
from funkoverse.rules.dice import resolve, roll
from funkoverse.rules.errors import IllegalChoice
from funkoverse.rules.events import Event, EventKind, Events
from funkoverse.rules.frames import RollFrame
from funkoverse.rules.state import CHANCE, GameState, Phase, Setup
from funkoverse.rules.world import display_names


@dataclass(frozen=True)
class Labelled:
    """A legal choice with its stable id and a label for people."""

    choice: Choice
    label: str

    @property
    def id(self) -> str:
        return self.choice.format()


class Game:
    """One game: its setup, seed, current state and the log of every choice made."""

    def __init__(self, setup: Setup, seed: int = 0, kernel: bool = True) -> None:
        self.setup = setup
        self.seed = seed
        self.log: list[Choice] = []
        self.rng = random.Random(seed)
        # the Python engine's position: the game itself when the Python engine plays it;
        # with the kernel, the position handed out by `state` (kept up to date as the game
        # goes on, and taken back into the kernel if it was changed)
        self._state: GameState | None = engine.new_game(setup)
        self._lent_key: tuple[Any, ...] | None = None
        self._lent_dump: tuple[Any, ...] | None = None  # the kernel's dump it mirrors
        # the kernel's position read for `peek`, the dump it mirrors, and whether it is current
        self._cache: GameState | None = None
        self._cache_dump: tuple[Any, ...] | None = None
        self._cache_fresh = False
        self._tables: compiled.Tables | None = None
        self._kernel: Any = None
        self._may_compile = kernel
        self._now = setup  # the setup of the position (a draft replaces it)
        self._take_kernel()

    # -- the two engines ------------------------------------------------------------

    @property
    def uses_kernel(self) -> bool:
        """Whether the compiled kernel plays this game now."""
        return self._kernel is not None

    def _take_kernel(self) -> None:
        """Play on in the kernel, when it is selected and plays this position."""
        state = self._state
        if not self._may_compile or not compiled.selected() or state is None:
            return
        if state.phase is Phase.DRAFT:
            return
        try:
            self._tables, self._kernel = compiled.load(state)
        except compiled.Unsupported:
            return
        self._now = state.setup
        self._state = self._cache = None
        self._lent_key = self._lent_dump = None

    def _leave_kernel(self) -> None:
        """The position is past what the kernel holds: the Python engine plays on from it."""
        state = self.peek()
        self._kernel = self._tables = None
        self._may_compile = False
        self._state = state
        self._cache = None

    def _sync(self) -> None:
        """A position handed out by `state` and changed since goes back into the kernel."""
        lent = self._state
        if self._kernel is None or lent is None:
            return
        key = _key(lent)
        if key == self._lent_key:
            return
        try:
            self._tables, self._kernel = compiled.load(lent)
        except compiled.Unsupported:  # changed past what the kernel plays
            self._kernel = self._tables = None
            return
        self._now = lent.setup
        self._cache = None
        self._lent_key = key
        self._lent_dump = None

    def _moved(self) -> None:
        """The kernel's position changed: what was read out of it follows."""
        self._cache_fresh = False
        lent = self._state
        if lent is not None:
            assert self._tables is not None
            self._lent_dump = self._tables.refresh(self._kernel, lent, self._lent_dump)
            self._lent_key = _key(lent)

    @property
    def state(self) -> GameState:
        """The position (the Python engine's `GameState`): it follows the game as it goes on,
        and changing it changes the game."""
        if self._state is None:
            self._state = self.peek().copy()
            self._lent_key = _key(self._state)
            self._lent_dump = self._cache_dump
        assert self._state is not None
        return self._state

    def peek(self) -> GameState:
        """The position to read, never to change (the authority's own questions)."""
        self._sync()
        if self._state is not None:
            return self._state
        assert self._tables is not None
        if self._cache is None:
            self._cache, self._cache_dump = self._tables.mirror(self._kernel, self._now)
        elif not self._cache_fresh:
            self._cache_dump = self._tables.refresh(self._kernel, self._cache, self._cache_dump)
        self._cache_fresh = True
        return self._cache

    @property
    def seats(self) -> tuple[str, ...]:
        if self._kernel is not None and self._tables is not None:
            return self._tables.seats
        return self.peek().seats

    def snapshot(self) -> GameState:
        """A copy of the position, for anyone to keep or change."""
        return self.peek().copy()

    # -- questions --------------------------------------------------------------------

    @property
    def decider(self) -> str | None:
        if self._kernel is None:
            return engine.decider(self.state)
        self._sync()
        if self._kernel is None:
            return self.decider
        d = self._kernel.decider
        if d == -2:
            return None
        if d == -1:
            return CHANCE
        assert self._tables is not None
        return self._tables.seats[int(d)]

    @property
    def over(self) -> bool:
        if self._kernel is None:
            return engine.is_over(self.state)
        self._sync()
        return self._kernel.over if self._kernel is not None else self.over

    @property
    def winner(self) -> str | None:
        if self._kernel is None:
            return self.state.winner
        self._sync()
        if self._kernel is None:
            return self.winner
        w = self._kernel.winner
        assert self._tables is not None
        return self._tables.seats[int(w)] if w >= 0 else None

    @property
    def round(self) -> int:
        if self._kernel is None:
            return self.state.round
        self._sync()
        return self._kernel.round if self._kernel is not None else self.round

    def legal(self) -> list[Choice]:
        """The legal choices, as values, in the engine's order."""
        if self._kernel is None:
            return engine.choices(self.state)
        self._sync()
        if self._kernel is None:
            return self.legal()
        assert self._tables is not None
        try:
            codes = self._kernel.legal_safe()
        except compiled.limit_error():
            self._leave_kernel()
            return self.legal()
        return self._tables.choices(codes)

    def choices(self) -> list[Labelled]:
        """The legal choices with their labels."""
        legal = self.legal()
        state = self.peek()
        names = display_names(state)
        return [Labelled(c, label(state, c, names)) for c in legal]

    def chance_outcomes(self) -> list[tuple[Choice, Fraction]]:
        """The outcomes of a chance node with their exact probabilities (empty elsewhere)."""
        return engine.chance_outcomes(self.peek())

    # -- choices --------------------------------------------------------------------

    def play(self, choice: Choice | str) -> Events:
        """Make a legal choice (refused with the rule's reason otherwise) and log it."""
        value = parse(choice) if isinstance(choice, str) else choice
        self._sync()
        if self._kernel is None:
            events = engine.apply(self.state, value)
            self.log.append(value)
            if self.state.phase is not Phase.DRAFT:
                self._take_kernel()
            return events
        assert self._tables is not None
        code = self._tables.code(value)
        try:
            done = code is not None and self._kernel.apply_safe(code)
        except compiled.limit_error():
            self._leave_kernel()
            return self.play(value)
        if not done:
            from funkoverse.rules.explain import why_illegal

            raise IllegalChoice(why_illegal(self.peek(), value))
        self._moved()
        self.log.append(value)
        return self._tables.events(self._kernel.events())

    def sample_chance(self) -> tuple[Choice, Events]:
        """Draw the chance outcome with the game's generator; returns it and, for a roll, the
        event that shows the dice."""
        assert self.decider == CHANCE
        if self._kernel is not None:
            assert self._tables is not None
            found = self._kernel.roll()
            if found is not None:
                challenger, target, attack, defense = found
                ids = self._tables.dice_ids
                pieces = self._tables.piece_ids
                return self._roll(
                    pieces[challenger],
                    pieces[target],
                    [ids[d] for d in attack],
                    [ids[d] for d in defense],
                )
            return self._flip(len(self._tables.seats), self._tables.seats)
        state = self.state
        top = state.stack[-1] if state.stack else None
        if isinstance(top, RollFrame):
            return self._roll(top.challenger, top.target, list(top.attack), list(top.defense))
        outcomes = engine.chance_outcomes(state)
        r = self.rng.random()
        acc = 0.0
        for choice, p in outcomes:
            acc += float(p)
            if r < acc:
                return choice, []
        return outcomes[-1][0], []

    def _roll(
        self, challenger: str, target: str, attack: list[str], defense: list[str]
    ) -> tuple[Choice, Events]:
        dice = self.setup.dice
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

    def _flip(self, n: int, seats: tuple[str, ...]) -> tuple[Choice, Events]:
        """The First Player marker: every seat equally likely (as `engine.chance_outcomes`)."""
        r = self.rng.random()
        acc = 0.0
        share = float(Fraction(1, n))
        for side in seats:
            acc += share
            if r < acc:
                return FirstPlayer(side), []
        return FirstPlayer(seats[-1]), []

    def play_chance(self) -> Events:
        """Draw and make the chance outcome; the dice come first in the events."""
        choice, shown = self.sample_chance()
        return shown + self.play(choice)

    def fork(self) -> Game:
        """An independent copy of the game (position, generator and log): what is played on
        the copy leaves this game as it was. The server plays a choice on a fork and keeps it
        only once the choice is written."""
        self._sync()
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.log = list(self.log)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        if self._kernel is not None:
            other._kernel = self._kernel.copy()
            # a position handed out by `state` stays with this game; the fork reads its own
            other._state = None
            other._lent_key = other._lent_dump = None
            other._cache = self._cache.copy() if self._cache is not None else None
        else:
            other._state = self._state.copy() if self._state is not None else None
            other._cache = None
            other._cache_fresh = False
        return other

    @classmethod
    def at(cls, state: GameState, seed: int = 0, kernel: bool = False) -> Game:
        """A game that starts from a given position (puzzles, tests, analysis), played by the
        Python engine (such positions are made and changed by hand), or by the kernel when
        `kernel` is asked and it plays the position."""
        game = cls.__new__(cls)
        game.setup = state.setup
        game.seed = seed
        game.rng = random.Random(seed)
        game.log = []
        game._state = state
        game._lent_key = None
        game._lent_dump = None
        game._cache = None
        game._cache_dump = None
        game._cache_fresh = False
        game._tables = None
        game._kernel = None
        game._may_compile = kernel
        game._now = state.setup
        game._take_kernel()
        return game

    @classmethod
    def replay(cls, setup: Setup, seed: int, log: list[Choice] | list[str]) -> Game:
        """Rebuild a game from its log; chance draws are repeated to keep the generator in
        step, and a logged chance outcome the dice do not show is refused."""
        game = cls(setup, seed)
        for entry in log:
            game.replay_one(entry)
        return game

    def replay_one(self, entry: Choice | str) -> Events:
        """Make one logged choice; at a chance node the dice are drawn again first."""
        value = parse(entry) if isinstance(entry, str) else entry
        if self.decider == CHANCE:
            drawn, shown = self.sample_chance()
            if drawn != value:
                raise IllegalChoice(
                    f"'{value.format()}': the dice of this seed give '{drawn.format()}' here"
                )
            return shown + self.play(value)
        return self.play(value)


def _key(state: GameState) -> tuple[Any, ...]:
    """What a change to a handed-out position would show in."""
    return (state.key(), state.turns, state.setup)

"""A game as setup + seed + choices: the record that replays, saves and explains a game.

The generator is made from the seed and owned by the game; the rules never touch a
global random. Chance outcomes are drawn with it (`sample_chance`): a roll's dice are
rolled and counted, so the outcome logged is the one the dice show, and replaying the log
with the same seed rolls the same dice.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from funkoverse.rules import engine
from funkoverse.rules.choices import Choice, RollOutcome, parse
from funkoverse.rules.describe import label
from funkoverse.rules.dice import resolve, roll
from funkoverse.rules.errors import IllegalChoice
from funkoverse.rules.events import Event, EventKind, Events
from funkoverse.rules.frames import RollFrame
from funkoverse.rules.state import CHANCE, GameState, Setup
from funkoverse.rules.world import display_names


@dataclass(frozen=True)
class Labelled:
    """A legal choice with its stable id and a label for people."""

    choice: Choice
    label: str

    @property
    def id(self) -> str:
        return self.choice.format()


@dataclass
class Game:
    """One game: its setup, seed, current state and the log of every choice made."""

    setup: Setup
    seed: int = 0
    state: GameState = field(init=False)
    log: list[Choice] = field(default_factory=list)
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.state = engine.new_game(self.setup)

    @property
    def decider(self) -> str | None:
        return engine.decider(self.state)

    @property
    def over(self) -> bool:
        return engine.is_over(self.state)

    @property
    def winner(self) -> str | None:
        return self.state.winner

    def choices(self) -> list[Labelled]:
        """The legal choices with their labels."""
        names = display_names(self.state)
        return [Labelled(c, label(self.state, c, names)) for c in engine.choices(self.state)]

    def play(self, choice: Choice | str) -> Events:
        """Make a legal choice (refused with the rule's reason otherwise) and log it."""
        value = parse(choice) if isinstance(choice, str) else choice
        events = engine.apply(self.state, value)
        self.log.append(value)
        return events

    def sample_chance(self) -> tuple[Choice, Events]:
        """Draw the chance outcome with the game's generator; returns it and, for a roll, the
        event that shows the dice."""
        state = self.state
        assert engine.decider(state) == CHANCE
        top = state.stack[-1] if state.stack else None
        if isinstance(top, RollFrame):
            dice = self.setup.dice
            attack = roll([dice[d] for d in top.attack], self.rng)
            defense = roll([dice[d] for d in top.defense], self.rng)
            result = resolve(attack, defense)
            shown = Event(
                EventKind.DICE,
                piece=top.challenger,
                other=top.target,
                attack=tuple(f.value for f in attack),
                defense=tuple(f.value for f in defense),
                number=result.attack_successes,
                total=result.defense_successes,
            )
            return RollOutcome(result.challenger_wins), [shown]
        outcomes = engine.chance_outcomes(state)
        r = self.rng.random()
        acc = 0.0
        for choice, p in outcomes:
            acc += float(p)
            if r < acc:
                return choice, []
        return outcomes[-1][0], []

    def play_chance(self) -> Events:
        """Draw and make the chance outcome; the dice come first in the events."""
        choice, shown = self.sample_chance()
        return shown + self.play(choice)

    @classmethod
    def at(cls, state: GameState, seed: int = 0) -> Game:
        """A game that starts from a given position (puzzles, tests, analysis)."""
        game = cls.__new__(cls)
        game.setup = state.setup
        game.seed = seed
        game.rng = random.Random(seed)
        game.state = state
        game.log = []
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

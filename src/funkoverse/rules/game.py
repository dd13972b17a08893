"""A game as setup + seed + choices: the log that replays, saves and explains a game.

The generator is passed in as a seed and owned by the game; the rules never
touch a global random.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from funkoverse.rules import engine
from funkoverse.rules.describe import label
from funkoverse.rules.dice import Face, resolve, roll
from funkoverse.rules.frames import RollFrame
from funkoverse.rules.state import CHANCE, GameState, Setup


@dataclass(frozen=True)
class Choice:
    """A legal choice: a stable id and a label for people."""

    id: str
    label: str


@dataclass
class Game:
    """One game: its setup, seed, current state and the log of every choice made."""

    setup: Setup
    seed: int = 0
    state: GameState = field(init=False)
    log: list[str] = field(default_factory=list)
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

    def choices(self) -> list[Choice]:
        return [Choice(c, label(self.state, c)) for c in engine.legal_choices(self.state)]

    def play(self, choice: str) -> list[str]:
        """Make a legal choice (refused with the rule's reason otherwise) and log it."""
        events = engine.apply(self.state, choice)
        self.log.append(choice)
        return events

    def sample_chance(self) -> tuple[str, list[str]]:
        """Draw the chance outcome with the game's generator; returns it and words on the dice."""
        state = self.state
        assert engine.decider(state) == CHANCE
        top = state.stack[-1] if state.stack else None
        if isinstance(top, RollFrame):
            dice = self.setup.dice
            attack = roll([dice[d] for d in top.attack], self.rng)
            defense = roll([dice[d] for d in top.defense], self.rng)
            result = resolve(attack, defense)
            outcome = "roll:win" if result.challenger_wins else "roll:lose"
            words = [
                f"Dice: {_faces(attack)} ({result.attack_successes}) against "
                f"{_faces(defense)} ({result.defense_successes})."
            ]
            return outcome, words
        outcomes = engine.chance_outcomes(state)
        r = self.rng.random()
        acc = 0.0
        for choice, p in outcomes:
            acc += float(p)
            if r < acc:
                return choice, []
        return outcomes[-1][0], []

    def play_chance(self) -> list[str]:
        choice, words = self.sample_chance()
        return words + self.play(choice)

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
    def replay(cls, setup: Setup, seed: int, log: list[str]) -> Game:
        """Rebuild a game from its log; chance draws are repeated to keep the generator in step."""
        game = cls(setup, seed)
        for choice in log:
            if game.decider == CHANCE:
                game.sample_chance()
            game.play(choice)
        return game


def _faces(faces: tuple[Face, ...]) -> str:
    if not faces:
        return "no dice"
    names = {Face.BURST: "burst", Face.SHIELD: "shield", Face.TRIPLE: "!!!"}
    return ", ".join(names.get(f, "blank") for f in faces)

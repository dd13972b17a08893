"""The agent interface and the simplest agent."""

from __future__ import annotations

import random
from typing import Protocol

from funkoverse.rules.state import GameState


class Agent(Protocol):
    """Given the game as its side may see it and the legal choices, return one of them."""

    name: str

    def choose(self, state: GameState, choices: list[str]) -> str: ...


class RandomAgent:
    """Plays at random from its own seeded generator: first a kind of choice (move, challenge,
    assist, end, ...) uniformly, then one choice of that kind uniformly, so that the many
    squares a move can reach do not drown out the one challenge on offer."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState, choices: list[str]) -> str:
        kinds: dict[str, list[str]] = {}
        for choice in choices:
            kinds.setdefault(choice.partition(":")[0], []).append(choice)
        groups = list(kinds.values())
        group = groups[self.rng.randrange(len(groups))]
        return group[self.rng.randrange(len(group))]


AGENTS = {"random": RandomAgent}

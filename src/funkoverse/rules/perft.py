"""Counting the game tree: every sequence of legal choices to a depth (chance outcomes are
branches too), as chess programs count "perft" to prove a move generator.

The counts of named positions are pinned by the tests, so a faster engine can show that it
lists exactly the same choices and reaches exactly the same positions."""

from __future__ import annotations

from funkoverse.rules import engine
from funkoverse.rules.state import GameState


def perft(state: GameState, depth: int) -> int:
    """The number of choice sequences of length `depth` from `state` (a finished game is
    one sequence, however short)."""
    if depth <= 0 or engine.is_over(state):
        return 1
    total = 0
    for choice in engine.choices(state):
        child = state.copy()
        engine.apply_unchecked(child, choice)
        total += perft(child, depth - 1)
    return total


def divide(state: GameState, depth: int) -> dict[str, int]:
    """`perft` split by the first choice (its id), to find where two engines differ."""
    out: dict[str, int] = {}
    for choice in engine.choices(state):
        child = state.copy()
        engine.apply_unchecked(child, choice)
        out[choice.format()] = perft(child, depth - 1)
    return out

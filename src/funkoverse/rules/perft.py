"""Counting the game tree: every sequence of legal choices to a depth (chance outcomes are
branches too), as chess programs count "perft" to prove a move generator.

The counts of named positions are pinned by the tests, so a faster engine can show that it
lists exactly the same choices and reaches exactly the same positions: `compiled_perft`
counts on the compiled kernel, which must give the same numbers."""

from __future__ import annotations

from typing import Any

from funkoverse.rules import bridge
from funkoverse.rules.core.state import GameState
from funkoverse.rules.play import engine


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


def compiled_perft(state: GameState, depth: int) -> int:
    """`perft` counted on the compiled kernel (`bridge.Unsupported` where it does not play
    the position)."""
    _, kernel = bridge.load(state)
    return _count(kernel, depth)


def compiled_divide(state: GameState, depth: int) -> dict[str, int]:
    """`divide` counted on the compiled kernel."""
    tables, kernel = bridge.load(state)
    out: dict[str, int] = {}
    for code in kernel.legal():
        child = kernel.copy()
        child.apply_unchecked(code)
        out[tables.choice(code).format()] = _count(child, depth - 1)
    return out


def _count(kernel: Any, depth: int) -> int:
    if depth <= 0 or kernel.over:
        return 1
    if depth == 1:
        return len(kernel.legal())
    total = 0
    for code in kernel.legal():
        child = kernel.copy()
        child.apply_unchecked(code)
        total += _count(child, depth - 1)
    return total

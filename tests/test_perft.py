"""Perft counts of named positions: every sequence of legal choices to a depth, pinned.

A change to how the engine lists or applies choices that changes any count shows here;
`funkoverse perft --position NAME --depth N --divide` shows where."""

from __future__ import annotations

import pytest

from funkoverse.cli.perft import POSITIONS, position
from funkoverse.rules import bridge
from funkoverse.rules.perft import compiled_divide, compiled_perft, divide, perft

COUNTS = {
    ("first-game-start", 5): 13_900,
    ("first-game-midgame", 4): 1_778,
    ("flags-setup", 3): 2_016,
    ("flags-midgame", 4): 14_691,
    ("leaders-secret", 4): 64,
    ("draft", 4): 3_888,
    ("control-midgame", 4): 233,
    ("free-for-all", 4): 818,
    ("ultimate", 4): 4_358,
}


@pytest.mark.parametrize(("name", "depth"), sorted(COUNTS))
def test_perft_counts_of_the_named_positions(name: str, depth: int) -> None:
    assert perft(position(name), depth) == COUNTS[(name, depth)]


def test_every_named_position_is_pinned() -> None:
    assert {name for name, _ in COUNTS} == set(POSITIONS)


def test_divide_adds_up_to_perft() -> None:
    state = position("flags-midgame")
    split = divide(state, 3)
    assert sum(split.values()) == perft(state, 3) and len(split) == perft(state, 1)


@pytest.mark.parametrize(("name", "depth"), sorted(COUNTS))
def test_the_compiled_kernel_counts_the_same(name: str, depth: int) -> None:
    """The kernel lists exactly the Python engine's choices and reaches its positions: the
    same counts, a level deeper too (the draft's too: the kernel plays it)."""
    state = position(name)
    assert bridge.unsupported(state) is None
    assert compiled_perft(state, depth) == COUNTS[(name, depth)]
    if depth < 5:  # one level deeper than pinned, against the Python engine's count
        assert compiled_perft(state, depth + 1) == perft(state, depth + 1)


def test_the_kernels_divide_equals_the_engines() -> None:
    state = position("flags-midgame")
    assert compiled_divide(state, 3) == divide(state, 3)

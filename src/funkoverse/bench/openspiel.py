"""OpenSpiel's backgammon (C++) driven from Python the same way as our engine: list the
legal actions, apply a uniformly random one, draw a chance outcome by its probability.
The reference point of docs/performance.md; `open_spiel` is the optional extra `bench`."""

from __future__ import annotations

import random
import time
from typing import Any

from funkoverse.bench.workloads import Played
from funkoverse.errors import UserError


def _game() -> Any:
    try:
        import pyspiel
    except ImportError:
        raise UserError(
            "--vs-openspiel needs OpenSpiel: pip install -e '.[bench]' (the open_spiel package)"
        ) from None
    return pyspiel.load_game("backgammon")


def random_game(game: Any, rng: random.Random) -> int:
    """One game of backgammon of random legal actions; returns the steps applied."""
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            actions = [a for a, _ in outcomes]
            weights = [p for _, p in outcomes]
            action = rng.choices(actions, weights)[0]
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
        state.apply_action(action)
        steps += 1
    return steps


def play_for(seconds: float, seed: int) -> Played:
    """Random backgammon games until `seconds` have passed (at least one)."""
    game = _game()
    rng = random.Random(seed)
    played = Played()
    start = time.perf_counter()
    while played.games < 1 or time.perf_counter() - start < seconds:
        played.steps += random_game(game, rng)
        played.games += 1
    played.seconds = time.perf_counter() - start
    return played


def available() -> None:
    """Refuse in one line, before anything is measured, if OpenSpiel is not installed."""
    _game()

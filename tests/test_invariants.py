"""The invariant checker over 1,000 seeded random first games, after every choice."""

from __future__ import annotations

import pytest

from funkoverse.ai.agents import RandomAgent
from funkoverse.content.setups import first_game
from funkoverse.rules import engine
from funkoverse.rules.game import Game
from funkoverse.rules.invariants import initial_tokens, violations
from funkoverse.rules.state import CHANCE

GAMES = 1000
CHUNK = 100
MAX_ROUNDS = 120


def _play_checked(seed: int) -> Game:
    setup = first_game()
    game = Game(setup, seed)
    agents = {"dark": RandomAgent(seed * 2 + 1), "light": RandomAgent(seed * 2 + 2)}
    tokens = initial_tokens(game.state)
    points = {s: 0 for s in game.state.seats}
    while not game.over and game.state.round <= MAX_ROUNDS:
        decider = game.decider
        if decider == CHANCE:
            game.play_chance()
        else:
            assert decider is not None
            game.play(agents[decider].choose(game.state, engine.legal_choices(game.state)))
        broken = violations(game.state, tokens, points)
        assert not broken, f"seed {seed}, after {game.log[-1]!r}: {broken}"
        points = {s: game.state.sides[s].points for s in game.state.seats}
    again = Game.replay(setup, seed, game.log)
    assert again.state.key() == game.state.key(), f"seed {seed}: the log does not replay"
    return game


@pytest.mark.parametrize("start", range(0, GAMES, CHUNK))
def test_invariants_hold_after_every_choice_of_random_first_games(start: int) -> None:
    """No two characters in one square; every ability token in its pool or on its cooldown
    track; knocked-out characters off the map; points never go down; a finished game has a
    winner; the log replays to an identical state."""
    finished = 0
    for seed in range(start, start + CHUNK):
        finished += _play_checked(seed).over
    assert finished >= CHUNK * 0.7  # random play still ends most first games in 120 rounds


def test_the_checker_catches_a_broken_position() -> None:
    game = Game(first_game(), 0)
    while game.state.round < 1:
        game.play(engine.legal_choices(game.state)[0])
    state = game.state
    tokens = initial_tokens(state)
    assert violations(state, tokens) == []
    a, b = [p for p in state.pieces.values() if p.square is not None][:2]
    b.square = a.square
    state.sides["dark"].track[1].append(("token", "red"))
    broken = violations(state, tokens)
    assert any("share" in v for v in broken)
    assert any("ability tokens" in v for v in broken)

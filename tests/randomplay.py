"""Random games under the invariant checker, shared by the invariant tests."""

from __future__ import annotations

from funkoverse.ai.agents import RandomAgent
from funkoverse.rules.core.choices import parse
from funkoverse.rules.core.state import CHANCE, Setup
from funkoverse.rules.game import Game
from funkoverse.rules.play import engine
from funkoverse.rules.play.invariants import initial_tokens, violations


def play_checked(setup: Setup, seed: int, max_rounds: int) -> Game:
    """Play `setup` with a random agent a side, checking every invariant after every choice
    and that every legal choice's id reads back to it, and check that the log replays to the
    identical state."""
    game = Game(setup, seed)
    agents = {side: RandomAgent(seed * 7 + i + 1) for i, side in enumerate(game.state.seats)}
    tokens = initial_tokens(game.state)
    points = {s: 0 for s in game.state.seats}
    while not game.over and game.state.round <= max_rounds:
        decider = game.decider
        if decider == CHANCE:
            game.play_chance()
        else:
            assert decider is not None
            choices = engine.choices(game.state)
            for c in choices:  # a choice is a value: its id reads back to it
                assert parse(c.format()) == c, c
            game.play(agents[decider].choose(game.state, choices))
        broken = violations(game.state, tokens, points)
        assert not broken, f"seed {seed}, after {game.log[-1]!r}: {broken}"
        points = {s: game.state.sides[s].points for s in game.state.seats}
    again = Game.replay(setup, seed, game.log)
    assert again.state.key() == game.state.key(), f"seed {seed}: the log does not replay"
    return game

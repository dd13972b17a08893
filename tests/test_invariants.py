"""The invariant checker over 1,000 seeded random first games, after every choice."""

from __future__ import annotations

import pytest

from funkoverse.content.setups import SetupRequest, build, draw_spec, first_game
from funkoverse.rules.game import Game
from funkoverse.rules.play import engine
from funkoverse.rules.play.invariants import initial_tokens, violations
from randomplay import play_checked

GAMES = 1000
CHUNK = 100
MAX_ROUNDS = 120


@pytest.mark.parametrize("start", range(0, GAMES, CHUNK))
def test_invariants_hold_after_every_choice_of_random_first_games(start: int) -> None:
    """No two characters in one square; every ability token in its pool or on its cooldown
    track; knocked-out characters off the map; points never go down; a finished game has a
    winner; the log replays to an identical state."""
    finished = 0
    for seed in range(start, start + CHUNK):
        finished += play_checked(first_game(), seed, MAX_ROUNDS).over
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


def test_the_checker_counts_the_ultimate_cards_extra_ability_tokens() -> None:
    """Ultimate Mode Setup: the ultimate character's side takes the extra ability tokens its
    ultimate card shows; the checker counts them as that side's (it once counted the
    character's dots alone and called every ultimate game broken)."""
    spec = draw_spec(SetupRequest(scenario="titans", mode="ultimate"), 9)
    game = Game(build(spec), 9)
    ultimate = next(t for t in game.state.setup.teams if t.ultimate)
    assert ultimate.extra_dots
    assert violations(game.state, initial_tokens(game.state)) == []

"""The game as a tree of decisions: deciders, chance, refusals that cite rules, replay."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from funkoverse.content.setups import first_game
from funkoverse.rules.core.errors import IllegalChoice
from funkoverse.rules.core.state import CHANCE, Phase
from funkoverse.rules.game import Game
from funkoverse.rules.play import engine


def _random_game(seed: int) -> Game:
    game = Game(first_game(), seed)
    rng = random.Random(seed)
    while not game.over and game.state.round <= 60:
        if game.decider == CHANCE:
            game.play_chance()
        else:
            choices = engine.legal_choices(game.state)
            game.play(choices[rng.randrange(len(choices))])
    return game


def test_setup_flips_the_first_player_marker_as_a_chance_node() -> None:
    """Setup: "Flip the First Player marker to see who goes first." """
    game = Game(first_game(), 1)
    assert game.decider == CHANCE
    assert [(c.format(), p) for c, p in engine.chance_outcomes(game.state)] == [
        ("first:dark", Fraction(1, 2)),
        ("first:light", Fraction(1, 2)),
    ]


def test_setup_first_player_places_first_then_the_other_in_their_starting_areas() -> None:
    """Setup: "The player with the First Player marker places their characters on squares in
    their starting area. Then, the other player places their characters." """
    game = Game(first_game(), 1)
    game.play("first:light")
    assert game.state.phase is Phase.PLACE and game.decider == "light"
    area = {game.state.board.label(s) for s in game.state.board.start_areas["light"]}
    choices = engine.legal_choices(game.state)
    assert {c.rsplit(":", 1)[1] for c in choices} == area
    game.play(choices[0])
    game.play(engine.legal_choices(game.state)[0])
    assert game.decider == "dark"
    game.play(engine.legal_choices(game.state)[0])
    game.play(engine.legal_choices(game.state)[0])
    assert game.state.phase is Phase.CHOOSE and game.state.round == 1
    assert game.decider == "light"  # the first player starts the round


def test_every_choice_has_a_stable_id_and_a_label() -> None:
    game = Game(first_game(), 3)
    game.play("first:dark")
    for choice in game.choices():
        assert choice.id and choice.label and choice.label != choice.id


def test_an_illegal_choice_is_refused_with_a_reason_that_cites_the_rule() -> None:
    game = Game(first_game(), 3)
    with pytest.raises(IllegalChoice, match="First Player marker"):
        game.play("choose:priestess")
    game.play("first:dark")
    with pytest.raises(IllegalChoice, match="starting area"):
        game.play("place:priestess:e4")
    before = game.state.key()
    with pytest.raises(IllegalChoice):
        game.play("nonsense")
    assert game.state.key() == before  # a refusal changes nothing


def test_chance_outcomes_are_exact_and_sum_to_one() -> None:
    game = _random_game(5)
    assert game.over or game.state.round > 60
    replay = Game(first_game(), 5)
    for choice in game.log:
        outcomes = engine.chance_outcomes(replay.state)
        if outcomes:
            assert sum(p for _, p in outcomes) == 1
            assert choice in dict(outcomes)
        replay.play(choice)


def test_replaying_the_log_rebuilds_the_identical_state() -> None:
    """A game is setup + seed + choices: replaying that log rebuilds the identical state."""
    for seed in range(5):
        game = _random_game(seed)
        again = Game.replay(first_game(), seed, game.log)
        assert again.state.key() == game.state.key()
        assert again.winner == game.winner


def test_the_same_seed_plays_the_same_chance_draws() -> None:
    a, b = Game(first_game(), 11), Game(first_game(), 11)
    assert [a.sample_chance()[0] for _ in range(1)] == [b.sample_chance()[0] for _ in range(1)]


def test_copy_is_independent_of_the_original() -> None:
    game = _random_game(2)
    state = Game(first_game(), 2).state
    twin = state.copy()
    engine.apply(twin, engine.legal_choices(twin)[0])
    assert twin.key() != state.key()
    del game

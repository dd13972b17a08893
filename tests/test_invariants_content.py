"""The invariant checker over games with every character and item: every pair of two-a-side
teams (one character and one basic character each) and 1,424 drawn three-a-side games with an
item each, 2,000 games in all, checked after every choice and replayed from their logs."""

from __future__ import annotations

import itertools
import random

import pytest

from funkoverse.ai.agents import RandomAgent
from funkoverse.content.characters import load_characters
from funkoverse.content.setups import make_setup, random_teams, team
from funkoverse.rules import engine
from funkoverse.rules.game import Game
from funkoverse.rules.invariants import initial_tokens, violations
from funkoverse.rules.state import CHANCE, Setup

MAX_ROUNDS = 150
TRIO_GAMES = 1424
CHUNKS = 8


def _pairs() -> list[tuple[tuple[str, str], tuple[str, str]]]:
    cards = load_characters()
    named = sorted(c for c, card in cards.items() if not card.basic)
    basics = sorted(c for c, card in cards.items() if card.basic)
    teams = list(itertools.product(named, basics))
    return list(itertools.product(teams, teams))


def _play_checked(setup: Setup, seed: int) -> Game:
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


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_every_pair_of_two_a_side_teams_plays_to_the_end(chunk: int) -> None:
    pairs = _pairs()
    assert len(pairs) == 24 * 24
    finished = 0
    mine = pairs[chunk::CHUNKS]
    for n, (dark, light) in enumerate(mine):
        setup = make_setup([team("dark", dark), team("light", light)])
        finished += _play_checked(setup, chunk * 1000 + n).over
    assert finished >= len(mine) * 0.9


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_three_a_side_teams_with_an_item_each(chunk: int) -> None:
    held: set[tuple[str, str]] = set()
    finished = 0
    seeds = range(chunk, TRIO_GAMES, CHUNKS)
    for seed in seeds:
        drawn = random_teams(random.Random(10_000 + seed), 3)
        setup = make_setup([team(side, ids, items) for side, (ids, items) in drawn.items()])
        for _, items in drawn.values():
            held |= set(items.items())
        finished += _play_checked(setup, seed).over
    assert finished >= len(seeds) * 0.9
    assert len(held) >= 12  # most of the 18 (character, item) holdings turn up in every chunk

"""The invariant checker over games with every character and item: every pair of two-a-side
teams (one character and one basic character each) and 1,424 drawn three-a-side games with an
item each, 2,000 games in all, checked after every choice and replayed from their logs."""

from __future__ import annotations

import itertools
import random

import pytest

from funkoverse.content.characters import load_characters
from funkoverse.content.setups import make_setup, random_teams, team
from randomplay import play_checked

MAX_ROUNDS = 150
TRIO_GAMES = 1424
CHUNKS = 8


def _pairs() -> list[tuple[tuple[str, str], tuple[str, str]]]:
    cards = load_characters()
    named = sorted(c for c, card in cards.items() if not card.basic)
    basics = sorted(c for c, card in cards.items() if card.basic)
    teams = list(itertools.product(named, basics))
    return list(itertools.product(teams, teams))


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_every_pair_of_two_a_side_teams_plays_to_the_end(chunk: int) -> None:
    pairs = _pairs()
    assert len(pairs) == 24 * 24
    finished = 0
    mine = pairs[chunk::CHUNKS]
    for n, (dark, light) in enumerate(mine):
        setup = make_setup([team("dark", dark), team("light", light)])
        finished += play_checked(setup, chunk * 1000 + n, MAX_ROUNDS).over
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
        finished += play_checked(setup, seed, MAX_ROUNDS).over
    assert finished >= len(seeds) * 0.9
    assert len(held) >= 12  # most of the 18 (character, item) holdings turn up in every chunk

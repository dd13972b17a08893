"""Building a game's setup from shipped content: map, teams, items, scenario, dice.

Every setup is checked against the setup rules, and a bad one is refused with the rule.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from funkoverse.content.characters import load_characters
from funkoverse.content.dice import load_dice
from funkoverse.content.maps import load_map
from funkoverse.content.statuses import load_items, load_statuses
from funkoverse.errors import UserError
from funkoverse.rules.board import Board
from funkoverse.rules.scenario import FirstKnockout, Scenario
from funkoverse.rules.state import Setup, TeamSetup

FIRST_GAME_MAP = "proving-grounds"
FIRST_GAME_TEAMS: dict[str, tuple[str, ...]] = {
    "dark": ("priestess", "mad-scientist"),
    "light": ("hyena-warrior", "villager"),
}


def team(side: str, ids: Sequence[str], items: Mapping[str, str] | None = None) -> TeamSetup:
    """A side's characters (card ids) and items ({character id: item id}), checked."""
    cards = load_characters()
    known_items = load_items()
    chosen = []
    for cid in ids:
        if cid not in cards:
            known = ", ".join(sorted(cards))
            raise UserError(f"unknown character '{cid}' for {side}; known: {known}")
        chosen.append(cards[cid])
    if not chosen:
        raise UserError(f"{side} needs at least one character")
    names = [c.name for c in chosen]
    for name in names:
        if names.count(name) > 1:
            raise UserError(
                f"{side} has two characters named {name}: characters with the same name cannot be "
                "allies (Mixing Games)"
            )
    given: list[tuple[str, str]] = []
    for holder, item in (items or {}).items():
        if item not in known_items:
            raise UserError(f"unknown item '{item}'; known: {', '.join(sorted(known_items))}")
        if holder not in ids:
            raise UserError(
                f"{side} has no character '{holder}' to hold the {known_items[item].name}"
            )
        if cards[holder].basic:
            raise UserError(
                f"{cards[holder].name} is a basic character and cannot hold items (Item Setup)"
            )
        given.append((item, holder))
    return TeamSetup(side, tuple(chosen), items=tuple(given))


def make_setup(
    teams: Sequence[TeamSetup],
    map_id: str = FIRST_GAME_MAP,
    scenario: Scenario | None = None,
    first_player: str | None = None,
    board: Board | None = None,
) -> Setup:
    """A checked setup: starting areas large enough, equal numbers of attachments."""
    board = board or load_map(map_id)
    for t in teams:
        area = board.start_areas.get(t.area, ())
        if len(area) < len(t.characters):
            raise UserError(
                f"{t.side} has {len(t.characters)} characters but its starting area on "
                f"{board.name} has {len(area)} squares"
            )
    counts = {t.side: len(t.items) for t in teams}
    if len(set(counts.values())) > 1:
        said = ", ".join(f"{side} {n}" for side, n in counts.items())
        raise UserError(f"both sides must use the same number of items (Play with Items): {said}")
    return Setup(
        board=board,
        teams=tuple(teams),
        scenario=scenario or FirstKnockout(),
        dice=dict(load_dice()),
        first_player=first_player,
        items=dict(load_items()),
        statuses=dict(load_statuses()),
    )


def first_game(
    dark: Sequence[str] = FIRST_GAME_TEAMS["dark"],
    light: Sequence[str] = FIRST_GAME_TEAMS["light"],
    map_id: str = FIRST_GAME_MAP,
    scenario: Scenario | None = None,
    first_player: str | None = None,
) -> Setup:
    """The first game: knock out one rival to win."""
    return make_setup((team("dark", dark), team("light", light)), map_id, scenario, first_player)


def random_teams(
    rng: random.Random, size: int | None = None
) -> dict[str, tuple[tuple[str, ...], dict[str, str]]]:
    """Two legal teams drawn from every shipped card: either one character and one basic
    character a side (the rulebooks' first setup), or three characters and one item a side."""
    cards = load_characters()
    named = sorted(c for c, card in cards.items() if not card.basic)
    basics = sorted(c for c, card in cards.items() if card.basic)
    items = sorted(load_items())
    size = size or rng.choice((2, 3))
    drawn: dict[str, tuple[tuple[str, ...], dict[str, str]]] = {}
    for side in ("dark", "light"):
        if size == 2:
            drawn[side] = ((rng.choice(named), rng.choice(basics)), {})
            continue
        first = rng.choice(named)
        rest = rng.sample([c for c in named + basics if c != first], 2)
        chosen = (first, *rest)
        holder = rng.choice([c for c in chosen if not cards[c].basic])
        drawn[side] = (chosen, {holder: rng.choice(items)})
    return drawn

"""Building a game's setup from shipped content: map, teams, scenario, dice."""

from __future__ import annotations

from collections.abc import Sequence

from funkoverse.content.characters import load_characters
from funkoverse.content.dice import load_dice
from funkoverse.content.maps import load_map
from funkoverse.errors import UserError
from funkoverse.rules.scenario import FirstKnockout, Scenario
from funkoverse.rules.state import Setup, TeamSetup

FIRST_GAME_MAP = "proving-grounds"
FIRST_GAME_TEAMS: dict[str, tuple[str, ...]] = {
    "dark": ("priestess", "mad-scientist"),
    "light": ("hyena-warrior", "villager"),
}


def team(side: str, ids: Sequence[str]) -> TeamSetup:
    cards = load_characters()
    chosen = []
    for cid in ids:
        if cid not in cards:
            known = ", ".join(sorted(cards))
            raise UserError(f"unknown character '{cid}' for {side}; known: {known}")
        chosen.append(cards[cid])
    names = [c.name for c in chosen]
    for name in names:
        if names.count(name) > 1:
            raise UserError(
                f"{side} has two characters named {name}: characters with the same name cannot be "
                "allies (Mixing Games)"
            )
    if not chosen:
        raise UserError(f"{side} needs at least one character")
    return TeamSetup(side, tuple(chosen))


def first_game(
    dark: Sequence[str] = FIRST_GAME_TEAMS["dark"],
    light: Sequence[str] = FIRST_GAME_TEAMS["light"],
    map_id: str = FIRST_GAME_MAP,
    scenario: Scenario | None = None,
    first_player: str | None = None,
) -> Setup:
    """The first game: knock out one rival to win, on the placeholder map."""
    board = load_map(map_id)
    teams = (team("dark", dark), team("light", light))
    for t in teams:
        area = board.start_areas.get(t.area, ())
        if len(area) < len(t.characters):
            raise UserError(
                f"{t.side} has {len(t.characters)} characters but its starting area on "
                f"{board.name} has {len(area)} squares"
            )
    return Setup(
        board=board,
        teams=teams,
        scenario=scenario or FirstKnockout(),
        dice=dict(load_dice()),
        first_player=first_player,
    )

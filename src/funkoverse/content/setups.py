"""Building a game's setup from shipped content: map, teams, items, scenario, dice.

Every setup is checked against the setup rules, and a bad one is refused with the rule.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace

from funkoverse.content.characters import load_characters
from funkoverse.content.dice import load_dice
from funkoverse.content.maps import load_map
from funkoverse.content.statuses import (
    load_bonus_objectives,
    load_companions,
    load_items,
    load_statuses,
)
from funkoverse.errors import UserError
from funkoverse.rules.board import Board
from funkoverse.rules.scenario import Scenario, first_game_dc
from funkoverse.rules.state import Draft, Setup, TeamSetup

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
        if not area:
            raise UserError(f"{board.name} has no starting area for {t.area}")
        if len(area) < len(t.characters):
            raise UserError(
                f"{t.side} has {len(t.characters)} characters but its starting area on "
                f"{board.name} has {len(area)} squares"
            )
    if scenario is not None:
        _check_map(board, scenario, board.name)
    for t in teams:
        _check_players(t)
        if t.ultimate and (t.items or t.companions or t.bonus):
            raise UserError(
                "ultimate mode: neither team chooses an attachment, such as an item (Ultimate "
                "Mode Setup)"
            )
        for _, holder in t.companions:
            if not any(c.id == holder and not c.basic for c in t.characters):
                raise UserError(
                    f"{t.side}: a companion is paired with one of the side's characters, never a "
                    f"basic character (Companions); '{holder}' is not one"
                )
    counts = {t.side: len(t.items) + len(t.companions) + len(t.bonus) for t in teams}
    if len(set(counts.values())) > 1:
        said = ", ".join(f"{side} {n}" for side, n in counts.items())
        raise UserError(
            "both sides must use the same number of items (Play with Items) and attachments "
            f"(Play with Attachments): {said}"
        )
    return Setup(
        board=board,
        teams=tuple(teams),
        scenario=scenario or first_game_dc(),
        dice=dict(load_dice()),
        first_player=first_player,
        items=dict(load_items()),
        statuses=dict(load_statuses()),
        companions=dict(load_companions()),
        bonus_objectives=dict(load_bonus_objectives()),
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
    items = sorted(i for i, card in load_items().items() if card.box != "house-made")
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


MODES = ("standard", "teams", "free-for-all", "ultimate")
SEATS = ("seat1", "seat2", "seat3", "seat4")


def mode_for(scenario: Scenario, mode: str | None, players: int | None) -> str:
    """The way to play: given, or implied by the scenario and the number of players."""
    if mode is None:
        if scenario.free_for_all:
            mode = "free-for-all"
        elif scenario.ultimate:
            mode = "ultimate"
        elif players == 4:
            mode = "teams"
        else:
            mode = "standard"
    if mode not in MODES:
        raise UserError(f"unknown mode '{mode}'; the modes are {', '.join(MODES)}")
    if (mode == "free-for-all") != scenario.free_for_all:
        need = (
            "a free-for-all scenario (brawl)" if mode == "free-for-all" else "--mode free-for-all"
        )
        raise UserError(
            f"scenario '{scenario.id}' and mode '{mode}' do not go together: use {need}"
        )
    if (mode == "ultimate") != scenario.ultimate:
        need = "an ultimate scenario (titans)" if mode == "ultimate" else "--mode ultimate"
        raise UserError(
            f"scenario '{scenario.id}' and mode '{mode}' do not go together: use {need}"
        )
    allowed = {"standard": (2,), "teams": (3, 4), "free-for-all": (3, 4), "ultimate": (2,)}[mode]
    if players is not None and players not in allowed:
        said = " or ".join(map(str, allowed))
        raise UserError(f"mode '{mode}' is played by {said} players, not {players}")
    return mode


def scenario_setup(
    rng: random.Random,
    scenario: Scenario,
    map_id: str | None = None,
    mode: str | None = None,
    players: int | None = None,
    fixed: Mapping[str, tuple[tuple[str, ...], Mapping[str, str]]] | None = None,
    size: int | None = None,
) -> tuple[Setup, dict[str, tuple[str, ...]]]:
    """A whole legal setup for `scenario`: the map (drawn from the scenario's maps when not
    given), the way to play, and teams (drawn when not fixed). Returns the setup and, for each
    side, its players."""
    from funkoverse.content.scenarios import load_ultimates

    mode = mode_for(scenario, mode, players)
    map_id = map_id or rng.choice(scenario.maps)
    board = load_map(map_id)
    _check_map(board, scenario, map_id)
    fixed = dict(fixed or {})
    cards = load_characters()
    named = sorted(c for c, card in cards.items() if not card.basic)
    teams: list[TeamSetup] = []
    seats_players: dict[str, tuple[str, ...]] = {}
    first_player: str | None = None
    if mode == "free-for-all":
        count = players or 4
        seats = [s for s in SEATS if s in board.start_areas][:count]
        if len(seats) < count:
            raise UserError(
                f"{board.name} has {len(seats)} free-for-all starting areas; {count} players need {count}"
            )
        for seat in seats:
            ids, _ = fixed.get(seat) or random_teams(rng, 2)["dark"]
            teams.append(team(seat, ids))
            seats_players[seat] = (seat,)
    elif mode == "ultimate":
        if any(items for _, items in fixed.values()):
            raise UserError(
                "ultimate mode: neither team chooses an attachment, such as an item (Ultimate "
                "Mode Setup)"
            )
        ultimates = load_ultimates()
        hero = fixed.get("dark", ((rng.choice(sorted(ultimates)),), {}))[0]
        if len(hero) != 1 or hero[0] not in ultimates:
            raise UserError(
                f"ultimate mode: one character with an ultimate card ({', '.join(sorted(ultimates))})"
            )
        opponents = fixed.get("light", (tuple(rng.sample(named, 3)), {}))[0]
        if len(opponents) != 3:
            raise UserError("ultimate mode: the opposing team has three characters")
        ultimate_side = rng.choice(
            ("dark", "light")
        )  # the ultimate player picks a base color first
        other = "light" if ultimate_side == "dark" else "dark"
        u = team(ultimate_side, hero)
        teams = [
            TeamSetup(ultimate_side, u.characters, ultimate=True, extra_dots=ultimates[hero[0]][1]),
            team(other, opponents),
        ]
        teams.sort(key=lambda t: t.side)
        first_player = (
            ultimate_side  # "At the start of the game, the ultimate character goes first."
        )
        seats_players = {"dark": ("dark",), "light": ("light",)}
    else:
        drawn = random_teams(rng, size or (3 if mode == "teams" else None))
        for side in ("dark", "light"):
            ids, items = fixed.get(side) or drawn[side]
            t = team(side, ids, items)
            if mode == "teams" and (players != 3 or side == "dark"):
                # three players: two on the dark side, one on the light side
                if len(ids) < 2:
                    raise UserError(
                        f"two players a side: {side} needs at least two characters, one for each player"
                    )
                split = (ids[: (len(ids) + 1) // 2], ids[(len(ids) + 1) // 2 :])
                t = TeamSetup(
                    t.side,
                    t.characters,
                    t.start_area,
                    t.items,
                    players=((f"{side}-1", split[0]), (f"{side}-2", split[1])),
                )
                seats_players[side] = (f"{side}-1", f"{side}-2")
            else:
                seats_players[side] = (side,)
            teams.append(t)
    return make_setup(teams, map_id, scenario, first_player, board), seats_players


def _check_players(t: TeamSetup) -> None:
    """More Players: "one or two players per side and with each player controlling at least
    one character"."""
    if not t.players:
        return
    if len(t.players) > 2:
        raise UserError(
            f"{t.side}: one or two players per side (More Players), not {len(t.players)}"
        )
    ids = [c.id for c in t.characters]
    controlled = [c for _, chars in t.players for c in chars]
    for player, chars in t.players:
        if not chars:
            raise UserError(
                f"{t.side}: player {player} controls no character; each player controls at least "
                "one (More Players)"
            )
    if sorted(controlled) != sorted(ids):
        raise UserError(
            f"{t.side}: every character is controlled by exactly one of the side's players"
        )


def _check_map(board: Board, scenario: Scenario, map_id: str) -> None:
    needs = [
        ("flags", scenario.flags),
        ("leaders", scenario.leaders),
        ("control", scenario.control),
    ]
    for layer, wanted in needs:
        if wanted and layer not in board.layers:
            raise UserError(
                f"map '{map_id}' has no '{layer}' layer, which scenario '{scenario.id}' needs"
            )
    if scenario.point_markers and not board.point_squares:
        raise UserError(
            f"map '{map_id}' has no point marker setup squares, which scenario '{scenario.id}' needs"
        )


def draft_setup(
    rng: random.Random,
    scenario: Scenario,
    map_id: str | None = None,
    size: int = 3,
    secret: bool = True,
) -> Setup:
    """A setup whose teams are chosen in the game (Scenario Setup, step 5, as decisions): each
    side picks `size` characters and, with three, one item, in secret from its own collection
    or in the open from one shared collection."""
    if scenario.free_for_all or scenario.ultimate:
        raise UserError("choosing characters in the game is for two sides; not for this scenario")
    if size not in (2, 3):
        raise UserError(f"a side chooses two or three characters, not {size}")
    map_id = map_id or rng.choice(scenario.maps)
    board = load_map(map_id)
    _check_map(board, scenario, map_id)
    cards = tuple(c for c in load_characters().values() if c.box != "house-made")
    items = tuple(sorted(i for i, card in load_items().items() if card.box != "house-made"))
    base = make_setup(
        [TeamSetup("dark", ()), TeamSetup("light", ())], map_id, scenario, None, board
    )
    draft = Draft(cards, items, size=size, items=1 if size == 3 else 0, secret=secret)
    return replace(base, draft=draft)

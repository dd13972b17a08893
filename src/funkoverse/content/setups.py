"""Setups from content: drawing a `SetupSpec` and building the engine's `Setup` from it.

`build(spec, catalog)` is the one way a spec becomes a game's setup: every id is looked up
in the catalog (the shipped boxes unless fan folders are added), every setup rule is checked (starting areas large enough, equal numbers of
attachments, what the scenario and the way to play allow), and a bad spec is refused with
one line naming the field and the rule. `draw_spec` fills in what a request leaves out
(scenario, map, teams, items) from a seed, as `funkoverse play` and the server do.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from funkoverse.content.catalog import SHIPPED, Catalog
from funkoverse.content.dice import load_dice
from funkoverse.content.fields import shown
from funkoverse.content.scenarios import load_ultimates
from funkoverse.errors import UserError
from funkoverse.rules.core.board import Board
from funkoverse.rules.core.cards import CharacterCard, TokenColor
from funkoverse.rules.core.scenario import Scenario
from funkoverse.rules.core.spec import DraftSpec, SeatSpec, SetupSpec, SpecError, TeamSpec
from funkoverse.rules.core.state import Draft, Setup, TeamSetup

FIRST_GAME_MAP = "proving-grounds"
FIRST_GAME_TEAMS: dict[str, tuple[str, ...]] = {
    "dark": ("priestess", "mad-scientist"),
    "light": ("hyena-warrior", "villager"),
}
MODES = ("standard", "teams", "free-for-all", "ultimate")
SIDES = {"standard": (2,), "teams": (2,), "free-for-all": (3, 4), "ultimate": (2,)}  # by mode
SEATS = ("seat1", "seat2", "seat3", "seat4")
STANDARD_SCENARIOS = ("first-knockout", "monsters-first-game", "flags", "leaders", "control")
OPPOSING_ULTIMATE = 3  # Ultimate Mode Setup: "The other team chooses three characters"


# --------------------------------------------------------------------------- teams


def team(side: str, ids: Sequence[str], items: Mapping[str, str] | None = None) -> TeamSetup:
    """A side's characters (card ids) and items ({character id: item id}), checked."""
    return _team_setup(
        TeamSpec(side, tuple(ids), tuple((i, h) for h, i in (items or {}).items())), side
    )


def _team_setup(
    t: TeamSpec,
    where: str,
    extra: Mapping[str, CharacterCard] | None = None,
    catalog: Catalog = SHIPPED,
) -> TeamSetup:
    cards = {**catalog.characters, **(extra or {})}
    known_items = catalog.items
    chosen: list[CharacterCard] = []
    for j, cid in enumerate(t.characters):
        if cid not in cards:
            known = ", ".join(sorted(cards))
            raise UserError(
                f"{_at(where, f'characters[{j}]')}unknown character '{cid}' for {t.side}; known: {known}"
            )
        chosen.append(cards[cid])
    if not chosen:
        raise UserError(f"{_at(where, 'characters')}{t.side} needs at least one character")
    names = [c.name for c in chosen]
    for name in names:
        if names.count(name) > 1:
            raise UserError(
                f"{_at(where, 'characters')}{t.side} has two characters named {name}: characters "
                "with the same name cannot be allies (Mixing Games)"
            )
    for j, (item, holder) in enumerate(t.items):
        if item not in known_items:
            raise UserError(
                f"{_at(where, f'items[{j}].item')}unknown item '{item}'; known: {', '.join(sorted(known_items))}"
            )
        if holder not in t.characters:
            raise UserError(
                f"{_at(where, f'items[{j}].holder')}{t.side} has no character '{holder}' to hold "
                f"the {known_items[item].name}"
            )
        if cards[holder].basic:
            raise UserError(
                f"{_at(where, f'items[{j}].holder')}{cards[holder].name} is a basic character and "
                "cannot hold items (Item Setup)"
            )
    companions = catalog.companions
    for j, (companion, _) in enumerate(t.companions):
        if companion not in companions:
            raise UserError(
                f"{_at(where, f'companions[{j}]')}unknown companion '{companion}'; known: "
                f"{', '.join(sorted(companions))}"
            )
    bonuses = catalog.bonus_objectives
    for j, bonus in enumerate(t.bonus):
        if bonus not in bonuses:
            raise UserError(
                f"{_at(where, f'bonus[{j}]')}unknown bonus objective '{bonus}'; known: "
                f"{', '.join(sorted(bonuses))}"
            )
    dots: tuple[TokenColor, ...] = ()
    if t.ultimate:
        ultimates = load_ultimates()
        if len(chosen) != 1 or chosen[0].id not in ultimates:
            raise UserError(
                f"{_at(where, 'characters')}ultimate mode: one character with an ultimate card "
                f"({', '.join(sorted(ultimates))})"
            )
        dots = ultimates[chosen[0].id][1]
    return TeamSetup(
        t.side,
        tuple(chosen),
        items=t.items,
        ultimate=t.ultimate,
        extra_dots=dots,
        players=t.players,
        companions=t.companions,
        bonus=t.bonus,
    )


def _at(where: str, name: str) -> str:
    """The field a message is about, when the team came from a spec."""
    return f"spec field '{where}.{name}': " if where.startswith("teams[") else ""


def team_spec(t: TeamSetup) -> TeamSpec:
    """A team as data (card ids)."""
    return TeamSpec(
        t.side,
        tuple(c.id for c in t.characters),
        t.items,
        t.players,
        t.ultimate,
        t.companions,
        t.bonus,
    )


def make_setup(
    teams: Sequence[TeamSetup],
    map_id: str = FIRST_GAME_MAP,
    scenario: Scenario | None = None,
    first_player: str | None = None,
    board: Board | None = None,
    catalog: Catalog = SHIPPED,
) -> Setup:
    """A checked setup of these teams: built from their spec, as every setup is."""
    sid = scenario.id if scenario is not None else "knockout"
    found = scenario or catalog.scenarios["knockout"]
    mode = "free-for-all" if found.free_for_all else "ultimate" if found.ultimate else "standard"
    if any(t.players for t in teams):
        mode = "teams"
    spec = SetupSpec(sid, map_id, mode, tuple(team_spec(t) for t in teams), None, first_player)
    return build(spec, board=board, scenario=scenario, check_mode=False, catalog=catalog)


def first_game(
    dark: Sequence[str] = FIRST_GAME_TEAMS["dark"],
    light: Sequence[str] = FIRST_GAME_TEAMS["light"],
    map_id: str = FIRST_GAME_MAP,
    scenario: Scenario | None = None,
    first_player: str | None = None,
) -> Setup:
    """A game of basic characters, knock out one rival to win: what `funkoverse match` and
    the bench play when no scenario is named."""
    return build(
        first_game_spec(dark, light, map_id, scenario.id if scenario else None, first_player)
    )


def first_game_spec(
    dark: Sequence[str] = FIRST_GAME_TEAMS["dark"],
    light: Sequence[str] = FIRST_GAME_TEAMS["light"],
    map_id: str = FIRST_GAME_MAP,
    scenario: str | None = None,
    first_player: str | None = None,
) -> SetupSpec:
    return SetupSpec(
        scenario or "knockout",
        map_id,
        "standard",
        (TeamSpec("dark", tuple(dark)), TeamSpec("light", tuple(light))),
        None,
        first_player,
    )


# --------------------------------------------------------------------------- build


def build(
    spec: SetupSpec,
    board: Board | None = None,
    scenario: Scenario | None = None,
    check_mode: bool = True,
    cards: Mapping[str, CharacterCard] | None = None,
    puzzle: bool = False,
    catalog: Catalog = SHIPPED,
) -> Setup:
    """The engine's setup for `spec`, checked against the content and the setup rules; a
    bad spec is refused with `UserError` naming the field. `board`, `scenario` and `cards`
    stand in for the map, the scenario and character cards the spec names (made for a test
    or a puzzle); a `puzzle` is a position to study, not a game to start, so the setup
    rules (equal items, starting areas, the scenario's map layers) are not asked of it.
    `catalog` is the content the spec's ids name (the shipped boxes, or with fan folders)."""
    scenarios = catalog.scenarios
    if scenario is None:
        if spec.scenario not in scenarios:
            raise UserError(
                f"spec field 'scenario': unknown scenario '{spec.scenario}'; known: {', '.join(sorted(scenarios))}"
            )
        scenario = scenarios[spec.scenario]
    if spec.mode not in MODES:
        raise UserError(
            f"spec field 'mode': unknown mode '{spec.mode}'; the modes are {', '.join(MODES)}"
        )
    if check_mode:
        allowed = SIDES[spec.mode]
        if len(spec.teams) not in allowed:
            said = " or ".join(map(str, allowed))
            raise UserError(
                f"spec field 'teams': a game of mode '{spec.mode}' has {said} sides, not "
                f"{len(spec.teams)}"
            )
        players = sum(max(1, len(t.players)) for t in spec.teams) if spec.teams else None
        mode_for(
            scenario, spec.mode, players if spec.mode == "teams" or scenario.free_for_all else None
        )
    if board is None:
        try:
            board = catalog.board(spec.map)
        except UserError as e:
            raise UserError(f"spec field 'map': {e}") from None
    if not puzzle:
        _check_map(board, scenario, spec.map)
    drafted = spec.draft is not None or not any(t.characters for t in spec.teams)
    teams = [
        TeamSetup(t.side, ())
        if drafted and not t.characters
        else _team_setup(t, f"teams[{i}]", cards, catalog)
        for i, t in enumerate(spec.teams)
    ]
    sides = [t.side for t in teams]
    if len(set(sides)) != len(sides):
        raise UserError("spec field 'teams': each side has one team")
    if spec.first_player is not None and spec.first_player not in sides:
        raise UserError(
            f"spec field 'first_player': '{spec.first_player}' is not a side of this game ({', '.join(sides)})"
        )
    for s in spec.seats:
        if sides and s.seat not in sides:
            raise UserError(
                f"spec field 'seats.{s.seat}': not a seat of this game ({', '.join(sides)})"
            )
    draft = _draft(spec.draft, catalog) if spec.draft is not None else None
    if not puzzle:
        _check_teams(board, scenario, teams)
        _check_sizes(scenario, spec, teams)
    return Setup(
        board=board,
        teams=tuple(teams),
        scenario=scenario,
        dice=dict(load_dice()),
        first_player=spec.first_player,
        items=dict(catalog.items),
        statuses=dict(catalog.statuses),
        draft=draft,
        companions=dict(catalog.companions),
        bonus_objectives=dict(catalog.bonus_objectives),
        spec=spec,
    )


def _draft(d: DraftSpec, catalog: Catalog) -> Draft:
    cards = catalog.characters
    items = catalog.items
    for j, cid in enumerate(d.characters):
        if cid not in cards:
            raise UserError(f"spec field 'draft.characters[{j}]': unknown character '{cid}'")
    for j, iid in enumerate(d.item_ids):
        if iid not in items:
            raise UserError(f"spec field 'draft.item_ids[{j}]': unknown item '{iid}'")
    return Draft(tuple(cards[c] for c in d.characters), d.item_ids, d.size, d.items, d.secret)


def sizes_said(scenario: Scenario) -> str:
    return " or ".join(map(str, scenario.sizes))


def _check_sizes(scenario: Scenario, spec: SetupSpec, teams: Sequence[TeamSetup]) -> None:
    """Scenario Setup, step 6: "Each player chooses two or three characters": as many as the
    scenario is played with (its `sizes`); Ultimate Mode Setup: "The other team chooses three
    characters to oppose the ultimate character"."""
    ultimate = any(t.ultimate for t in teams)
    for i, t in enumerate(teams):
        if t.ultimate or not t.characters:  # one ultimate character; a team still to draft
            continue
        allowed = (OPPOSING_ULTIMATE,) if ultimate else scenario.sizes
        if len(t.characters) not in allowed:
            said = " or ".join(map(str, allowed))
            raise UserError(
                f"spec field 'teams[{i}].characters': scenario '{scenario.id}' is played with "
                f"{said} characters a side, not {len(t.characters)} (Scenario Setup, step 6)"
            )
    if spec.draft is not None and spec.draft.size not in scenario.sizes:
        raise UserError(
            f"spec field 'draft.size': scenario '{scenario.id}' is played with "
            f"{sizes_said(scenario)} characters a side, not {spec.draft.size} (Scenario Setup, "
            "step 6)"
        )


def _check_teams(board: Board, scenario: Scenario, teams: Sequence[TeamSetup]) -> None:
    """Starting areas large enough, players, attachments as the rules allow them."""
    for t in teams:
        area = board.start_areas.get(t.area, ())
        if not area:
            raise UserError(f"{board.name} has no starting area for {t.area}")
        if len(area) < len(t.characters):
            raise UserError(
                f"{t.side} has {len(t.characters)} characters but its starting area on "
                f"{board.name} has {len(area)} squares"
            )
    for t in teams:
        _check_players(t)
        if t.ultimate and (t.items or t.companions or t.bonus):
            raise UserError(
                "ultimate mode: neither team chooses an attachment, such as an item (Ultimate "
                "Mode Setup)"
            )
        if not scenario.attachments and (t.items or t.companions or t.bonus):
            raise UserError(
                f"{scenario.name} sets the items and other attachments aside (Your First Game, "
                "Setup, step 1)"
                if scenario.first_game
                else f"{scenario.name}: neither team chooses an attachment, such as an item"
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


# --------------------------------------------------------------------------- ways to play


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


# --------------------------------------------------------------------------- drawing


DRAWN_SIZES = (1, 2, 3)  # the teams `random_teams` draws


def random_teams(
    rng: random.Random, size: int | None = None, catalog: Catalog = SHIPPED
) -> dict[str, tuple[tuple[str, ...], dict[str, str]]]:
    """Two legal teams drawn from every shipped card: one character a side (a duel), one
    character and one basic character a side, or three characters and one item a side."""
    cards = catalog.characters
    named = sorted(c for c, card in cards.items() if not card.basic)
    basics = sorted(c for c, card in cards.items() if card.basic)
    items = sorted(i for i, card in catalog.items.items() if card.box != "house-made")
    size = size or rng.choice((2, 3))
    drawn: dict[str, tuple[tuple[str, ...], dict[str, str]]] = {}
    for side in ("dark", "light"):
        if size == 1:
            drawn[side] = ((rng.choice(named),), {})
            continue
        if size == 2:
            drawn[side] = ((rng.choice(named), rng.choice(basics)), {})
            continue
        first = rng.choice(named)
        rest = rng.sample([c for c in named + basics if c != first], 2)
        chosen = (first, *rest)
        holder = rng.choice([c for c in chosen if not cards[c].basic])
        drawn[side] = (chosen, {holder: rng.choice(items)})
    return drawn


def first_game_teams(
    rng: random.Random, scenario: Scenario, catalog: Catalog = SHIPPED
) -> dict[str, tuple[tuple[str, ...], dict[str, str]]]:
    """Your First Game, Setup: each side takes characters of the scenario's box (one in DC
    Comics, two in Universal Monsters; "Your ... characters are allies") and the basic
    character that matches its base color; no items."""
    cards = catalog.characters
    named = sorted(c for c, card in cards.items() if not card.basic and card.box == scenario.box)
    basic = {
        card.base: c for c, card in sorted(cards.items()) if card.basic and card.box == scenario.box
    }
    per_side = max(scenario.sizes) - 1
    chosen = rng.sample(named, 2 * per_side)
    return {
        "dark": ((*chosen[:per_side], basic["dark"]), {}),
        "light": ((*chosen[per_side:], basic["light"]), {}),
    }


@dataclass(frozen=True)
class SetupRequest:
    """What a person asks for; `draw_spec` draws the rest. `teams` maps a side to character
    ids; `items` a side to {character: item}; `draft` is 2 or 3 to choose in the game."""

    scenario: str | None = None
    map: str | None = None
    mode: str | None = None
    players: int | None = None
    size: int | None = None
    teams: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    items: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    draft: int | None = None
    secret: bool = True
    first_player: str | None = None
    seats: Mapping[str, SeatSpec] = field(default_factory=dict)


def draw_spec(request: SetupRequest, seed: int, catalog: Catalog = SHIPPED) -> SetupSpec:
    """A whole spec for `request`: what it leaves out drawn from `seed` (a scenario among the
    standard ones, the scenario's map, teams, items), then checked by `build`."""
    rng = random.Random(seed)
    scenarios = catalog.scenarios
    if request.scenario is not None:
        if request.scenario not in scenarios:
            raise UserError(
                f"unknown scenario '{request.scenario}'; known: {', '.join(sorted(scenarios))}"
            )
        chosen = scenarios[request.scenario]
    elif request.mode == "free-for-all" or (request.players or 0) == 3:
        chosen = scenarios["brawl"]
    elif request.mode == "ultimate":
        chosen = scenarios["titans"]
    elif request.teams or request.items:
        # characters or items of one's own: a scenario of the full experience played with
        # teams that large, else the house-made knock-out, played with any
        sizes = {len(ids) for ids in request.teams.values() if ids}
        fits = [
            s
            for s in STANDARD_SCENARIOS
            if not scenarios[s].first_game and sizes <= set(scenarios[s].sizes)
        ]
        chosen = scenarios[rng.choice(fits)] if fits else scenarios["knockout"]
    else:
        chosen = scenarios[rng.choice(STANDARD_SCENARIOS)]
    fixed: dict[str, tuple[tuple[str, ...], Mapping[str, str]]] = {
        side: (ids, request.items.get(side, {})) for side, ids in request.teams.items() if ids
    }
    for side, items in request.items.items():
        if side not in fixed and items:
            raise UserError(f"items for {shown(side)} need that side's characters")
    if not request.draft:
        _check_requested_sizes(chosen, request, fixed)
    if len(fixed) == 1 and not request.items and not chosen.first_game and not chosen.ultimate:
        # the other side as large as the one given (Scenario Setup, step 6)
        other = "light" if "dark" in fixed else "dark"
        given = len(next(iter(fixed.values()))[0])
        if given not in DRAWN_SIZES:
            raise UserError(
                f"field 'teams.{other}': a team of {given} is not drawn; give {other}'s "
                "characters too"
            )
        drawn = random_teams(random.Random(seed + 1), given, catalog)
        fixed[other] = (drawn[other][0], {})
    if request.draft:
        if fixed or request.items or request.players or request.mode:
            raise UserError(
                "--draft chooses the teams in the game: give no characters, items, players or mode"
            )
        spec = _draft_spec(rng, chosen, request.map, request.draft, request.secret, catalog=catalog)
    else:
        spec = _scenario_spec(
            rng,
            chosen,
            request.map,
            request.mode,
            request.players,
            fixed,
            request.size,
            catalog=catalog,
        )
    if request.first_player is not None:
        spec = replace(spec, first_player=request.first_player)
    sides = [t.side for t in spec.teams] or ["dark", "light"]
    for seat in request.seats:
        if seat not in sides:
            raise UserError(f"no seat {shown(seat)} in this game; its seats are {', '.join(sides)}")
    seats = tuple(request.seats.get(side, SeatSpec(side)) for side in sides)
    spec = replace(spec, seats=seats)
    build(spec, catalog=catalog)
    return spec


def _check_requested_sizes(
    scenario: Scenario,
    request: SetupRequest,
    fixed: Mapping[str, tuple[tuple[str, ...], Mapping[str, str]]],
) -> None:
    """Scenario Setup, step 6: a team given is as large as `size` asks, and one the scenario
    is played with; refused naming the request's field."""
    if request.size is not None and request.size not in scenario.sizes:
        raise UserError(
            f"field 'size': scenario '{scenario.id}' is played with {sizes_said(scenario)} "
            f"characters a side, not {request.size}"
        )
    for side, (ids, _) in fixed.items():
        if request.size is not None and len(ids) != request.size:
            raise UserError(
                f"field 'teams.{side}': {len(ids)} characters, but 'size' asks for "
                f"{request.size} a side"
            )
        if len(ids) not in scenario.sizes and not scenario.ultimate:
            raise UserError(
                f"field 'teams.{side}': scenario '{scenario.id}' is played with "
                f"{sizes_said(scenario)} characters a side, not {len(ids)} (Scenario Setup, "
                "step 6)"
            )


def _scenario_spec(
    rng: random.Random,
    scenario: Scenario,
    map_id: str | None = None,
    mode: str | None = None,
    players: int | None = None,
    fixed: Mapping[str, tuple[tuple[str, ...], Mapping[str, str]]] | None = None,
    size: int | None = None,
    catalog: Catalog = SHIPPED,
) -> SetupSpec:
    mode = mode_for(scenario, mode, players)
    if size is not None and size not in scenario.sizes:
        raise UserError(
            f"scenario '{scenario.id}' is played with {sizes_said(scenario)} characters a side, "
            f"not {size}"
        )
    if map_id is None:
        map_id = scenario.maps[0] if scenario.first_game else rng.choice(scenario.maps)
    board = catalog.board(map_id)
    _check_map(board, scenario, map_id)
    fixed = dict(fixed or {})
    cards = catalog.characters
    named = sorted(c for c, card in cards.items() if not card.basic)
    teams: list[TeamSpec] = []
    if mode == "free-for-all":
        count = players or 4
        seats = [s for s in SEATS if s in board.start_areas][:count]
        if len(seats) < count:
            raise UserError(
                f"{board.name} has {len(seats)} free-for-all starting areas; {count} players need {count}"
            )
        for seat in seats:
            ids, _ = fixed.get(seat) or random_teams(rng, 2, catalog)["dark"]
            teams.append(TeamSpec(seat, tuple(ids)))
        return SetupSpec(scenario.id, map_id, mode, tuple(teams))
    if mode == "ultimate":
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
        # the ultimate player picks a base color first (Ultimate Mode Setup, 2)
        ultimate_side = rng.choice(("dark", "light"))
        other = "light" if ultimate_side == "dark" else "dark"
        pair = [
            TeamSpec(ultimate_side, tuple(hero), ultimate=True),
            TeamSpec(other, tuple(opponents)),
        ]
        pair.sort(key=lambda t: t.side)
        return SetupSpec(scenario.id, map_id, mode, tuple(pair))
    if scenario.first_game:
        drawn = first_game_teams(rng, scenario, catalog)
    else:
        drawn = random_teams(rng, size or (3 if mode == "teams" else None), catalog)
    for side in ("dark", "light"):
        ids, items = fixed.get(side) or drawn[side]
        given = tuple((i, h) for h, i in items.items())
        split: tuple[tuple[str, tuple[str, ...]], ...] = ()
        if mode == "teams" and (players != 3 or side == "dark"):
            # three players: two on the dark side, one on the light side
            if len(ids) < 2:
                raise UserError(
                    f"two players a side: {side} needs at least two characters, one for each player"
                )
            half = (len(ids) + 1) // 2
            split = ((f"{side}-1", tuple(ids[:half])), (f"{side}-2", tuple(ids[half:])))
        teams.append(TeamSpec(side, tuple(ids), given, split))
    return SetupSpec(scenario.id, map_id, mode, tuple(teams))


def _draft_spec(
    rng: random.Random,
    scenario: Scenario,
    map_id: str | None = None,
    size: int = 3,
    secret: bool = True,
    catalog: Catalog = SHIPPED,
) -> SetupSpec:
    if scenario.free_for_all or scenario.ultimate:
        raise UserError("choosing characters in the game is for two sides; not for this scenario")
    if size not in (2, 3):
        raise UserError(f"a side chooses two or three characters, not {size}")
    map_id = map_id or rng.choice(scenario.maps)
    board = catalog.board(map_id)
    _check_map(board, scenario, map_id)
    cards = tuple(c.id for c in catalog.characters.values() if c.box != "house-made")
    items = tuple(sorted(i for i, card in catalog.items.items() if card.box != "house-made"))
    draft = DraftSpec(size, 1 if size == 3 else 0, secret, cards, items)
    return SetupSpec(scenario.id, map_id, "standard", (TeamSpec("dark"), TeamSpec("light")), draft)


def scenario_setup(
    rng: random.Random,
    scenario: Scenario,
    map_id: str | None = None,
    mode: str | None = None,
    players: int | None = None,
    fixed: Mapping[str, tuple[tuple[str, ...], Mapping[str, str]]] | None = None,
    size: int | None = None,
) -> tuple[Setup, dict[str, tuple[str, ...]]]:
    """A whole legal setup for `scenario`, what is not fixed drawn with `rng`. Returns the
    setup and, for each side, its players."""
    spec = _scenario_spec(rng, scenario, map_id, mode, players, fixed, size)
    return build(spec), players_of(spec)


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
    return build(_draft_spec(rng, scenario, map_id, size, secret))


def players_of(spec: SetupSpec) -> dict[str, tuple[str, ...]]:
    """Each side's players: its own name, or its two players (More Players)."""
    return {t.side: tuple(p for p, _ in t.players) or (t.side,) for t in spec.teams}


def parse_spec(data: object) -> SetupSpec:
    """A spec read from JSON, with a malformed field refused as a `UserError`."""
    try:
        return SetupSpec.from_json(data)  # type: ignore[arg-type]
    except SpecError as e:
        raise UserError(str(e)) from None

"""Ways to play: More Players (two players a side), Free-for-All (three or four players) and
Ultimate Mode (Space Jam A New Legacy 100, "Additional Game Types"; DC Comics 102 and Universal
Monsters 100, "More Players", "Free-for-All"), and `funkoverse play` for each of them."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction

import pytest

from funkoverse.cli import main
from funkoverse.content.characters import load_characters
from funkoverse.content.scenarios import load_ultimates, scenario
from funkoverse.content.setups import make_setup, mode_for, scenario_setup, team
from funkoverse.errors import UserError
from funkoverse.rules.core import track
from funkoverse.rules.core.state import CHANCE, Phase, Setup, TeamSetup
from funkoverse.rules.game import Game
from funkoverse.rules.play import engine
from funkoverse.rules.play.engine import new_game_at
from positions import editing, handed, said

DARK3 = ("wonder-woman", "the-cheetah", "priestess")
LIGHT3 = ("dracula", "the-bride", "villager")


def at(setup: Setup, placements: dict[str, str], first: str, down: tuple[str, ...] = ()) -> Game:
    """A game in round 1 with pieces on the given squares (labels)."""
    b = setup.board
    squares = {pid: b.parse_label(sq) for pid, sq in placements.items()}
    return handed(new_game_at(setup, squares, first, down))


def round_deciders(game: Game) -> list[str]:
    """Play the current round to its end, each character ending its turn at once; returns who
    chose a character for each turn."""
    r = game.state.round
    seen: list[str] = []
    while game.state.round == r and not game.over:
        choices = engine.legal_choices(game.state)
        if choices[0].startswith("choose:"):
            seen.append(game.decider or "")
        game.play("end" if "end" in choices else choices[0])
    return seen


# =========================================================================== More Players


def teams_setup(seed: int = 1, sid: str = "flags", map_id: str = "themyscira") -> Setup:
    s, _ = scenario_setup(
        random.Random(seed),
        scenario(sid),
        map_id,
        players=4,
        fixed={
            "dark": (DARK3, {"wonder-woman": "lasso-of-truth"}),
            "light": (LIGHT3, {"dracula": "shovel"}),
        },
    )
    return s


def test_more_players_two_players_a_side_each_controlling_at_least_one_character() -> None:
    """More Players: "Play the game with one or two players per side and with each player
    controlling at least one character." """
    s, players = scenario_setup(random.Random(1), scenario("control"), "draculas-castle", players=4)
    assert players == {"dark": ("dark-1", "dark-2"), "light": ("light-1", "light-2")}
    for t in s.teams:
        assert len(t.players) == 2
        assert all(len(chars) >= 1 for _, chars in t.players)
        controlled = [c for _, chars in t.players for c in chars]
        assert sorted(controlled) == sorted(c.id for c in t.characters)  # every one, once


def test_more_players_a_side_shares_one_cooldown_track_and_one_ability_token_pool() -> None:
    """More Players: "Each side works as a single player as described in the rules. ... Players on
    the same side use the same cooldown track and ability token pool." """
    s = teams_setup()
    game = Game(s, 1)
    assert set(game.state.sides) == {"dark", "light"}  # two tracks and two pools, not four
    for t in s.teams:
        dots = Counter(color for card in t.characters for color in card.dots)
        assert {c: n for c, n in game.state.sides[t.side].pool.items() if n} == dict(dots)
    # characters of both players of a side, knocked out, are on that side's one track
    game = at(
        s, {"wonder-woman": "d5", "the-cheetah": "a1", "priestess": "e5", "dracula": "e6"}, "light"
    )
    players = dict(next(t for t in s.teams if t.side == "light").players)
    off = [pid for pid in LIGHT3 if game.state.pieces[pid].square is None]
    assert {p for p in off if p in players["light-1"]} and {
        p for p in off if p in players["light-2"]
    }
    for pid in off:
        assert ("character", pid) in game.state.sides["light"].track[0]


def test_more_players_players_of_a_side_decide_together_which_character_takes_the_turn() -> None:
    """DC Comics 102, More Players: "Players of the same side decide which of their characters
    takes a turn when it is their side's turn." Both players' characters may be chosen."""
    s = teams_setup()
    game = at(
        s,
        {
            c: sq
            for c, sq in zip(DARK3 + LIGHT3, ("d1", "e1", "f1", "d10", "e10", "f10"), strict=True)
        },
        "dark",
    )
    assert game.decider == "dark"
    assert engine.legal_choices(game.state) == [f"choose:{c}" for c in DARK3]
    assert round_deciders(game) == ["dark", "light"] * 3  # the sides alternate, as with two players


def test_more_players_characters_of_the_same_side_are_allies() -> None:
    """More Players: "Players on the same side are allies just as if they were controlled by a single
    player." Dark-1's Wonder Woman may assist dark-2's Priestess and may not challenge her."""
    s = teams_setup()
    game = at(
        s,
        {
            "wonder-woman": "e5",
            "the-cheetah": "a1",
            "priestess": "e6",
            "dracula": "f5",
            "the-bride": "j10",
            "villager": "i10",
        },
        "dark",
        down=("priestess",),
    )
    game.play("choose:wonder-woman")
    choices = engine.legal_choices(game.state)
    assert "assist:priestess" in choices
    assert "challenge:priestess" not in choices and "challenge:dracula" in choices


def test_more_players_a_player_needs_a_character_so_one_character_a_side_is_refused() -> None:
    """More Players: "each player controlling at least one character" — two players cannot share
    one character."""
    with pytest.raises(UserError, match="at least two characters"):
        scenario_setup(
            random.Random(1),
            scenario("flags"),
            "themyscira",
            players=4,
            fixed={"dark": (("wonder-woman",), {}), "light": (("dracula",), {})},
        )


def test_more_players_a_setup_where_a_player_controls_no_character_is_refused() -> None:
    """More Players: "with each player controlling at least one character"."""
    dark = team("dark", DARK3)
    lopsided = TeamSetup("dark", dark.characters, players=(("dark-1", DARK3), ("dark-2", ())))
    with pytest.raises(UserError, match="dark-2"):
        make_setup([lopsided, team("light", LIGHT3)], "themyscira", scenario("flags"))


def test_more_players_one_or_two_players_per_side_allows_three_players() -> None:
    """More Players: "Play the game with one or two players per side" — two against one."""
    assert mode_for(scenario("flags"), "teams", 3) == "teams"


def test_more_players_three_characters_a_side_play_to_10() -> None:
    """Flags: "If playing with three characters per side, gain 10 points to win" — whoever controls
    them."""
    game = Game(teams_setup(), 1)
    assert game.setup.scenario.points_to_win(game.state) == 10


# =========================================================================== Free-for-All


def ffa_setup(players: int, map_id: str = "draculas-castle") -> Setup:
    fixed = {
        "seat1": (("wonder-woman", "priestess"), {}),
        "seat2": (("dracula", "villager"), {}),
        "seat3": (("the-bride", "mad-scientist"), {}),
        "seat4": (("the-cheetah", "hyena-warrior"), {}),
    }
    s, _ = scenario_setup(random.Random(1), scenario("brawl"), map_id, players=players, fixed=fixed)  # type: ignore[arg-type]
    return s


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("map_id", scenario("brawl").maps)
def test_free_for_all_three_or_four_players_each_with_their_own_characters(
    players: int, map_id: str
) -> None:
    """Free-for-All: "designed for three or four players to play against each other ... each
    player controls their own characters." The flip chooses among them."""
    s = ffa_setup(players, map_id)
    seats = [t.side for t in s.teams]
    assert seats == ["seat1", "seat2", "seat3", "seat4"][:players]
    game = Game(s, 0)
    assert game.decider == CHANCE
    assert [(c.format(), p) for c, p in engine.chance_outcomes(game.state)] == [
        (f"first:{seat}", Fraction(1, players)) for seat in seats
    ]


def test_free_for_all_every_other_player_is_your_opponent() -> None:
    """Free-for-All: "Every other player is considered your opponent, and all of their characters
    are considered your rivals." Wonder Woman (seat1) may challenge seat2's and seat3's
    characters, and a knock-out of any of them gains a point."""
    s = ffa_setup(3)
    game = at(
        s,
        {
            "wonder-woman": "c3",
            "priestess": "a1",
            "dracula": "d3",
            "villager": "l1",
            "the-bride": "c4",
            "mad-scientist": "l12",
        },
        "seat1",
        down=("dracula", "the-bride"),
    )
    game.play("choose:wonder-woman")
    choices = engine.legal_choices(game.state)
    assert "challenge:dracula" in choices and "challenge:the-bride" in choices
    for rival in ("dracula", "the-bride"):
        game.play(f"challenge:{rival}")
        while "roll:win" not in engine.legal_choices(game.state):
            options = engine.legal_choices(game.state)
            game.play("skip" if "skip" in options else options[-1])
        game.play("roll:win")
        assert game.state.pieces[rival].square is None
    assert {side: st.points for side, st in game.state.sides.items()} == {
        "seat1": 2,
        "seat2": 0,
        "seat3": 0,
    }


@pytest.mark.parametrize(
    ("players", "first", "expected"),
    [
        (3, "seat2", ["seat2", "seat3", "seat1", "seat2"]),
        (4, "seat3", ["seat3", "seat4", "seat1", "seat2", "seat3"]),
    ],
)
def test_free_for_all_the_first_player_marker_passes_clockwise(
    players: int, first: str, expected: list[str]
) -> None:
    """Free-for-All: "When playing with more than two players in a Free-for-All scenario, the first
    player marker is passed clockwise at the end of the round." Seats 1-4 go clockwise round the
    map, and turns go round the table from the first player."""
    s = ffa_setup(players)
    game = Game(s, 0)
    game.play(f"first:{first}")
    while game.state.phase is Phase.PLACE:
        game.play(engine.legal_choices(game.state)[0])
    seen = []
    for _ in expected:
        seen.append(game.state.first_player)
        deciders = round_deciders(game)
        seats = [t.side for t in s.teams]
        i = seats.index(seen[-1])
        assert deciders == (seats[i:] + seats[:i]) * 2  # two characters each, round the table
    assert seen == expected


def test_free_for_all_with_three_players_the_unused_starting_area_is_ignored() -> None:
    """Free-for-All: "When playing with less than 4 players, ignore unused starting areas." No
    character is placed in or returns to the fourth area; each seat uses its own."""
    s = ffa_setup(3)
    game = Game(s, 0)
    game.play("first:seat1")
    unused = set(s.board.start_areas["seat4"])
    while game.state.phase is Phase.PLACE:
        side = game.decider or ""
        choices = engine.legal_choices(game.state)
        squares = {s.board.parse_label(c.rsplit(":", 1)[1]) for c in choices}
        assert squares <= set(s.board.start_areas[side])
        assert not squares & unused
        game.play(choices[0])
    assert not [p for p in game.state.on_map() if p.square in unused]


def test_free_for_all_the_most_points_wins_a_tie_plays_on() -> None:
    """Brawl (house-made free-for-all): the most points at the end of a round, at least 5 with two
    characters each; Winning a Scenario: a tie plays more rounds."""
    s = ffa_setup(3)
    game = Game(s, 0)
    game.play("first:seat1")
    while game.state.phase is Phase.PLACE:
        game.play(engine.legal_choices(game.state)[0])
    with editing(game) as state:
        sides = state.sides
        sides["seat1"].points, sides["seat2"].points, sides["seat3"].points = 5, 5, 2
    round_deciders(game)
    assert game.winner is None and not game.over
    with editing(game) as state:
        state.sides["seat2"].points = 6
    round_deciders(game)
    assert game.winner == "seat2"


# =========================================================================== Ultimate Mode


def ultimate_setup(seed: int = 1, hero: str = "wonder-woman", map_id: str = "themyscira") -> Setup:
    s, _ = scenario_setup(
        random.Random(seed),
        scenario("titans"),
        map_id,
        fixed={"dark": ((hero,), {}), "light": (LIGHT3, {})},
    )
    return s


def ultimate_side(s: Setup) -> tuple[str, str]:
    u = next(t.side for t in s.teams if t.ultimate)
    return u, next(t.side for t in s.teams if not t.ultimate)


def test_ultimate_one_ultimate_character_against_a_team_of_three() -> None:
    """Ultimate Mode: "one player amplifies a single character to their ultimate form, to take on
    a team of three opposing characters." """
    for seed in range(4):
        s = ultimate_setup(seed)
        u, o = ultimate_side(s)
        teams = {t.side: t for t in s.teams}
        assert [c.id for c in teams[u].characters] == ["wonder-woman"]
        assert [c.id for c in teams[o].characters] == list(LIGHT3)
        assert not teams[o].ultimate


def test_ultimate_the_ultimate_card_adds_ability_tokens() -> None:
    """Ultimate Mode Setup, 3: "The ultimate card will indicate additional ability tokens for them
    to start the game with." The pool holds the character's dots and the card's."""
    s = ultimate_setup()
    u, _ = ultimate_side(s)
    game = Game(s, 1)
    extra = load_ultimates()["wonder-woman"][1]
    assert extra
    expected = Counter(load_characters()["wonder-woman"].dots) + Counter(extra)
    assert {c: n for c, n in game.state.sides[u].pool.items() if n} == dict(expected)


def test_ultimate_neither_team_has_an_attachment() -> None:
    """Ultimate Mode Setup, 2: "Neither team chooses an attachment, such as an item." """
    s = ultimate_setup()
    assert all(t.items == () for t in s.teams)
    game = Game(s, 1)
    assert all(p.items == () for p in game.state.pieces.values())


def test_ultimate_asking_for_an_item_is_refused() -> None:
    """Ultimate Mode Setup, 2: "Neither team chooses an attachment, such as an item." A setup that
    gives one is refused with the reason, not played without it."""
    with pytest.raises(UserError, match=r"attachment|item"):
        scenario_setup(
            random.Random(1),
            scenario("titans"),
            "themyscira",
            fixed={
                "dark": (("wonder-woman",), {"wonder-woman": "lasso-of-truth"}),
                "light": (LIGHT3, {"dracula": "shovel"}),
            },
        )


def test_ultimate_refuses_a_character_without_an_ultimate_card_and_a_team_not_of_three() -> None:
    """Ultimate Mode Setup, 2: a single character with its ultimate card; the other team chooses
    three characters."""
    with pytest.raises(UserError, match="ultimate card"):
        scenario_setup(
            random.Random(1), scenario("titans"), "themyscira", fixed={"dark": (("villager",), {})}
        )
    with pytest.raises(UserError, match="three characters"):
        scenario_setup(
            random.Random(1),
            scenario("titans"),
            "themyscira",
            fixed={"dark": (("dracula",), {}), "light": (("wonder-woman", "priestess"), {})},
        )


def test_ultimate_the_ultimate_character_goes_first() -> None:
    """Ultimate Mode Rules: "At the start of the game, the ultimate character goes first." No flip:
    after placement, the ultimate character takes the first turn."""
    for seed in range(4):
        s = ultimate_setup(seed)
        u, _ = ultimate_side(s)
        game = Game(s, seed)
        assert game.decider != CHANCE
        while game.state.phase is Phase.PLACE:
            game.play(engine.legal_choices(game.state)[0])
        assert game.state.round == 1
        assert game.decider == u
        assert engine.legal_choices(game.state) == ["choose:wonder-woman"]


def placed_ultimate(seed: int = 1) -> tuple[Game, str, str]:
    s = ultimate_setup(seed)
    u, o = ultimate_side(s)
    game = Game(s, seed)
    while game.state.phase is Phase.PLACE:
        game.play(engine.legal_choices(game.state)[0])
    return game, u, o


def test_ultimate_three_exhausted_markers_and_alternating_turns() -> None:
    """Ultimate Mode Setup, 3: "The ultimate character takes three exhausted markers". Rules:
    "Ultimate characters are not exhausted until all three exhausted markers are on them. Each
    turn, you alternate between the ultimate character and the opposing team's characters, and the
    round ends when the opponents characters each have an exhausted marker and the ultimate
    character has three." """
    game, u, o = placed_ultimate()
    assert game.state.pieces["wonder-woman"].needed == 3
    deciders: list[str] = []
    markers: list[int] = []
    while game.state.round == 1:
        choices = engine.legal_choices(game.state)
        if choices[0].startswith("choose:"):
            deciders.append(game.decider or "")
            if game.decider == o:
                markers.append(game.state.pieces["wonder-woman"].markers)
        game.play("end" if "end" in choices else choices[0])
        if game.state.round == 1 and game.state.pieces["wonder-woman"].markers < 3:
            assert not game.state.pieces["wonder-woman"].exhausted
    assert deciders == [u, o, u, o, u, o]
    assert markers == [1, 2, 3]  # one marker a turn; exhausted with the third
    assert game.state.round == 2  # the round ended with the last opponent's turn


def test_ultimate_the_round_does_not_end_before_the_ultimate_has_three_markers() -> None:
    """Ultimate Mode: the round ends when "the opponents characters each have an exhausted marker
    and the ultimate character has three" — if the opponents are done first, the ultimate
    character keeps taking its turns."""
    game, u, _ = placed_ultimate()
    game.play("choose:wonder-woman")
    for pid in LIGHT3:  # as if each opponent had taken its turn already
        with editing(game) as s:
            s.pieces[pid].markers = 1
            s.pieces[pid].exhausted = True
    game.play("end")
    assert game.state.round == 1 and game.decider == u
    deciders = round_deciders(game)
    assert deciders == [u, u]
    assert game.state.round == 2


def test_ultimate_shifted_off_the_cooldown_track_at_the_start_of_its_turn() -> None:
    """Ultimate Mode Rules: "At the start of the ultimate character's turn, if they are on the
    cooldown track, shift them off." It returns to its starting area and takes its turn."""
    game, u, _ = placed_ultimate()
    game.play("choose:wonder-woman")
    game.play("end")
    with editing(game) as s:
        # knocked out: on the 3 of its track, far from shifting off by cooldown
        s.pieces["wonder-woman"].square = None
        track.place(s, u, ("character", "wonder-woman"), 3)
    game.play("choose:" + LIGHT3[0])
    game.play("end")
    assert game.decider == u
    events = game.play("choose:wonder-woman")
    assert any("shifts off" in e for e in said(game, events))
    assert game.state.sides[u].track_position(("character", "wonder-woman")) is None
    choices = engine.legal_choices(game.state)
    area = game.state.board.start_areas[u]
    assert choices and all(c.startswith("return:wonder-woman:") for c in choices)
    game.play(choices[0])
    assert (
        game.state.pieces["wonder-woman"].square in area
        and game.state.pieces["wonder-woman"].standing
    )
    assert game.state.active == "wonder-woman" and game.state.actions_left == 2
    assert any(c.startswith("move:") for c in engine.legal_choices(game.state))


def test_ultimate_a_knocked_out_opponent_is_not_shifted_off() -> None:
    """Only "the ultimate character" shifts off at the start of its turn; an opposing character on
    the track stays there (and takes no actions: Knocked Out)."""
    game, _, o = placed_ultimate()
    game.play("choose:wonder-woman")
    game.play("end")
    with editing(game) as s:
        s.pieces["villager"].square = None
        track.place(s, o, ("character", "villager"), 3)
    game.play("choose:villager")
    assert game.state.sides[o].track_position(("character", "villager")) == 3
    assert game.state.pieces["villager"].square is None


# =========================================================================== the command


def _play(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    status = main(["play", *args, "--json"])
    out, err = capsys.readouterr()
    assert status == 0, err
    summary = json.loads(out)
    assert isinstance(summary, dict)
    return summary


def _won(summary: dict[str, object]) -> dict[str, dict[str, object]]:
    assert summary["winner"] is not None and summary["stopped"] is False, summary
    sides = summary["sides"]
    assert isinstance(sides, dict)
    best = sides[summary["winner"]]["points"]
    assert best >= summary["points_to_win"]  # type: ignore[operator]
    assert all(s["points"] < best for k, s in sides.items() if k != summary["winner"])
    return sides


@pytest.mark.parametrize("sid", ["flags", "leaders", "control"])
def test_play_two_players_a_side(capsys: pytest.CaptureFixture[str], sid: str) -> None:
    """`funkoverse play --players 4`: two players a side; the summary names them."""
    summary = _play(capsys, "--scenario", sid, "--players", "4", "--seed", "3")
    sides = _won(summary)
    assert set(sides) == {"dark", "light"}
    for side in ("dark", "light"):
        assert sides[side]["players"] == [f"{side}-1", f"{side}-2"]
        assert len(sides[side]["characters"]) >= 2  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("map_id", scenario("brawl").maps)
def test_play_free_for_all(capsys: pytest.CaptureFixture[str], players: int, map_id: str) -> None:
    """`funkoverse play --scenario brawl --players 3|4`: every seat plays; one wins."""
    summary = _play(
        capsys, "--scenario", "brawl", "--map", map_id, "--players", str(players), "--seed", "2"
    )
    sides = _won(summary)
    assert sorted(sides) == [f"seat{n}" for n in range(1, players + 1)]
    assert summary["winner"] in sides


def test_play_free_for_all_is_implied_by_three_players(capsys: pytest.CaptureFixture[str]) -> None:
    summary = _play(capsys, "--players", "3", "--seed", "4")
    assert summary["scenario"] == "brawl"
    _won(summary)


@pytest.mark.parametrize("seed", [1, 2])
def test_play_ultimate_mode(capsys: pytest.CaptureFixture[str], seed: int) -> None:
    """`funkoverse play --mode ultimate`: one ultimate character against three; the summary marks
    the ultimate side."""
    summary = _play(capsys, "--mode", "ultimate", "--seed", str(seed))
    assert summary["scenario"] == "titans"
    sides = _won(summary)
    ultimate = [k for k, s in sides.items() if s["ultimate"]]
    assert len(ultimate) == 1
    assert len(sides[ultimate[0]]["characters"]) == 1  # type: ignore[arg-type]
    other = next(k for k in sides if k not in ultimate)
    assert len(sides[other]["characters"]) == 3  # type: ignore[arg-type]
    assert all(s["items"] == [] for s in sides.values())


def test_play_refuses_a_mode_that_does_not_fit(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["play", "--scenario", "flags", "--mode", "ultimate", "--seed", "1", "--json"])
    _, err = capsys.readouterr()
    assert status == 2 and "do not go together" in err
    status = main(["play", "--scenario", "brawl", "--players", "2", "--seed", "1", "--json"])
    _, err = capsys.readouterr()
    assert status == 2 and "3 or 4 players" in err


def test_ultimate_goes_first_whatever_made_the_setup() -> None:
    """Ultimate Mode Rules: "At the start of the game, the ultimate character goes first." A
    setup made without the scenario's setup builder does not flip the First Player marker,
    and one that names another first player is overruled."""
    hero = load_ultimates()
    ultimate_id = sorted(hero)[0]
    for first in (None, "light"):
        setup = make_setup(
            [
                TeamSetup(
                    "dark",
                    team("dark", [ultimate_id]).characters,
                    ultimate=True,
                    extra_dots=hero[ultimate_id][1],
                ),
                team("light", ["priestess", "villager", "hyena-warrior"]),
            ],
            "themyscira",
            scenario("titans"),
            first_player=first,
        )
        game = Game(setup, 1)
        assert game.decider != CHANCE
        assert game.state.first_player == "dark" and game.decider == "dark"


def test_ruling_an_ultimate_character_shifted_off_at_its_turn_may_still_use_its_start_of_turn_trait() -> (
    None
):
    """Forbidden Depths: "At the start of The Creature's turn, you may place a Tunnel token in
    its square"; Ultimate Mode: "At the start of the ultimate character's turn, if they are on
    the cooldown track, shift them off." Both are caused by one player, who "may choose the
    order" (FAQ, Timing): it returns first, and then may place its Tunnel (docs/rulings.md)."""
    setup = make_setup(
        [
            TeamSetup(
                "dark",
                team("dark", ["the-creature"]).characters,
                ultimate=True,
                extra_dots=load_ultimates()["the-creature"][1],
            ),
            team("light", ["priestess", "villager", "hyena-warrior"]),
        ],
        "themyscira",
        scenario("titans"),
    )
    b = setup.board
    state = new_game_at(
        setup,
        {
            p: b.parse_label(sq)
            for p, sq in (("priestess", "a1"), ("villager", "b1"), ("hyena-warrior", "c1"))
        },
        "dark",
    )
    game = handed(state)
    assert game.state.pieces["the-creature"].square is None  # on the 1 of its track
    game.play("choose:the-creature")
    returns = engine.legal_choices(game.state)
    assert returns and all(c.startswith("return:the-creature:") for c in returns)
    game.play(returns[0])
    creature = game.state.pieces["the-creature"]
    here = b.label(creature.square or 0)
    assert engine.legal_choices(game.state) == [f"token:tunnel-dark-1:{here}", "skip"]

"""The scenarios of "The Full Experience": Point Markers, Winning a Scenario, the scenario cards
Flags, Leaders and Control, and the two first games ("Winning Your First Game", DC Comics 102
and Universal Monsters 100). Each test quotes the rule it checks. The last tests play every
scenario on every map it belongs to with `funkoverse play --json`."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence

import pytest

from funkoverse.cli import main
from funkoverse.content.scenarios import load_scenarios, scenario
from funkoverse.rules.core.board import Board
from funkoverse.rules.core.state import Phase
from funkoverse.rules.game import Game
from funkoverse.rules.play import engine
from positions import board, editing, position

# --------------------------------------------------------------------------- test boards
#
# The open 6x6 test board of positions.py: dark starts on a1 b1 c1, light on d6 e6 f6. Layer rows
# are listed from rank 1 (row "a1..f1") up to rank 6.

FLAGS = (
    "......",
    "....D.",  # the dark side's flag marker on e2
    "......",
    "......",
    ".L....",  # the light side's flag marker on b5
    "......",
)
LEADERS = (
    "......",
    "..D...",  # the dark leader starting square c2 (not part of the starting area)
    "......",
    "......",
    "...L..",  # the light leader starting square d5
    "......",
)
CONTROL = (
    "......",
    "......",
    "11..22",  # control area 1: a3 b3; control area 2: e3 f3
    "......",
    "..33..",  # control area 3: c5 d5
    "......",
)


def layered(layer: str, rows: Sequence[str], **kw: object) -> Board:
    """The test board with a scenario layer (and the board() options given)."""
    b = board(**kw)  # type: ignore[arg-type]
    return dataclasses.replace(b, layers={layer: tuple(rows)})


def sq(game: Game, label: str) -> int:
    return game.state.board.parse_label(label)


def where(game: Game, pid: str) -> str | None:
    square = game.state.pieces[pid].square
    return None if square is None else game.state.board.label(square)


def points(game: Game) -> dict[str, int]:
    return {side: s.points for side, s in game.state.sides.items()}


def finish_round(game: Game, decide: Callable[[list[str]], str | None] | None = None) -> None:
    """Every character not yet exhausted takes a turn and ends it, to the end of the round.
    End-of-round decisions: `decide` answers first; otherwise Flags' return is declined
    ("skip") and a returning character takes the first square offered."""
    r = game.state.round
    while game.state.round == r and not game.over:
        choices = engine.legal_choices(game.state)
        picked = decide(choices) if decide else None
        if picked is None:
            picked = "end" if "end" in choices else "skip" if "skip" in choices else choices[0]
        game.play(picked)


def knock_out(game: Game, who: str, whom: str) -> list[str]:
    """`who` (chosen for its turn) does a basic challenge on the knocked-down `whom` and wins."""
    if game.state.active != who:
        game.play(f"choose:{who}")
    events = game.play(f"challenge:{whom}")
    events += game.play("roll:win")
    assert game.state.pieces[whom].square is None, "the rival should be knocked out"
    return events


# =========================================================================== Point Markers


def test_point_markers_a_character_in_the_markers_square_may_interact_to_gain_a_point() -> None:
    """Point Markers: "When a character on the map is adjacent to, or in a square with a point
    marker, the character may do the interact action to immediately gain a point." """
    b = board(points={"A": "c3"})
    game = position({"priestess": "c3"}, {"villager": "f6"}, b=b, scenario=scenario("flags"))
    game.play("choose:priestess")
    assert "interact:point-A" in engine.legal_choices(game.state)
    game.play("interact:point-A")
    assert points(game) == {"dark": 1, "light": 0}  # "immediately"
    assert game.state.actions_left == 1  # the interact action is one of the turn's two actions


def test_point_markers_an_adjacent_character_may_interact_beside_or_diagonal() -> None:
    """Point Markers: "adjacent to, or in a square with a point marker"."""
    for square in ("c2", "b2", "d4", "b3"):
        b = board(points={"A": "c3"})
        game = position({"priestess": square}, {"villager": "f6"}, b=b, scenario=scenario("flags"))
        game.play("choose:priestess")
        assert "interact:point-A" in engine.legal_choices(game.state), square


def test_point_markers_not_from_two_squares_away_nor_across_a_wall() -> None:
    """Point Markers: only "adjacent to, or in a square with"; Adjacency: obstructions cut it."""
    b = board(points={"A": "c3"})
    game = position({"priestess": "c5"}, {"villager": "f6"}, b=b, scenario=scenario("flags"))
    game.play("choose:priestess")
    assert not [c for c in engine.legal_choices(game.state) if c.startswith("interact:")]
    walled = board(points={"A": "c3"}, walls=[("c3", "c4")])
    game = position({"priestess": "c4"}, {"villager": "f6"}, b=walled, scenario=scenario("flags"))
    game.play("choose:priestess")
    assert "interact:point-A" not in engine.legal_choices(game.state)


def test_point_markers_the_marker_goes_on_the_4_of_the_cooldown_track() -> None:
    """Point Markers: "Place the point marker, letter-side up, on the 4 of their cooldown track."
    While it is on the track it is not on the map, so nobody can interact with it."""
    b = board(points={"A": "c3"})
    game = position(
        {"priestess": "c2"}, {"villager": "d4"}, b=b, scenario=scenario("control"), first="dark"
    )
    game.play("choose:priestess")
    game.play("interact:point-A")
    assert game.state.sides["dark"].track_position(("point", "point-A")) == 4
    assert game.state.sides["light"].track_position(("point", "point-A")) is None
    assert where(game, "point-A") is None
    game.play("end")
    game.play("choose:villager")  # adjacent to c3, where the marker was
    assert "interact:point-A" not in engine.legal_choices(game.state)


def test_point_markers_shifting_off_the_track_puts_the_marker_back_on_its_setup_square() -> None:
    """Point Markers: "When a point marker shifts off a cooldown track, place it back on the map in
    the corresponding letter's setup square. In subsequent turns, players may gain points by
    interacting with point markers that have returned to the map." """
    b = board(points={"A": "c3"})
    game = position({"priestess": "c3"}, {"villager": "f6"}, b=b, scenario=scenario("leaders"))
    game.play("choose:priestess")
    game.play("interact:point-A")
    game.play("move:a1")
    finish_round(game)  # 4 -> 3
    for number in (2, 1):
        finish_round(game)
        assert game.state.sides["dark"].track_position(("point", "point-A")) == number
        assert where(game, "point-A") is None
    finish_round(game)  # shifts off the 1
    assert where(game, "point-A") == "c3"
    assert game.state.sides["dark"].track_position(("point", "point-A")) is None
    game.play("choose:priestess")  # returned to the map: it may be interacted with again
    game.play("move:b2")
    assert "interact:point-A" in engine.legal_choices(game.state)


@pytest.mark.parametrize("sid", ["flags", "leaders", "control"])
def test_every_scenario_card_gains_a_point_for_interacting_with_a_point_marker(sid: str) -> None:
    """Flags, Leaders, Control: "If you interact with a point marker, gain 1 point. See Point
    Markers in the instructions." """
    layer = {"flags": FLAGS, "leaders": LEADERS, "control": CONTROL}[sid]
    b = dataclasses.replace(board(points={"B": "d4"}), layers={sid: layer})
    game = position({"priestess": "c4"}, {"villager": "f6"}, b=b, scenario=scenario(sid))
    game.play("choose:priestess")
    game.play("interact:point-B")
    assert points(game) == {"dark": 1, "light": 0}


def test_the_first_games_use_no_point_markers() -> None:
    """DC Comics 102, Your First Game: "Set aside the points ... and the scenario cards";
    Universal Monsters 100: "Set aside ... scenario cards". Point markers belong to scenarios."""
    for sid in ("first-knockout", "monsters-first-game"):
        s = scenario(sid)
        assert not s.point_markers
        b = board(points={"A": "c3"})
        game = position({"priestess": "c3"}, {"villager": "f6"}, b=b, scenario=s)
        assert "point-A" not in game.state.pieces
        game.play("choose:priestess")
        assert not [c for c in engine.legal_choices(game.state) if c.startswith("interact:")]


# =========================================================================== Winning a Scenario


def test_winning_a_scenario_is_decided_at_the_end_of_a_round() -> None:
    """Winning a Scenario: "Determine the winner ... by counting the points each player has at the
    end of a round." Reaching the target during the round does not end the game."""
    game = position(
        {"priestess": "a1", "mad-scientist": "b1"},
        {"villager": "f6", "hyena-warrior": "e6"},
        b=board(points={"A": "b2"}),
        scenario=scenario("flags"),
    )
    with editing(game) as s:
        s.sides["dark"].points = 5
    game.play("choose:priestess")
    game.play("interact:point-A")  # the 6th point
    assert points(game)["dark"] == 6
    assert game.winner is None and not game.over
    finish_round(game)
    assert game.winner == "dark" and game.over


def test_winning_a_scenario_below_the_target_nobody_wins() -> None:
    """Flags: "If playing with two characters per side, gain 6 points to win." 5 is not enough."""
    game = position(
        {"priestess": "a1", "mad-scientist": "b1"},
        {"villager": "f6", "hyena-warrior": "e6"},
        scenario=scenario("flags"),
    )
    with editing(game) as s:
        s.sides["dark"].points = 5
        s.sides["light"].points = 1
    finish_round(game)
    assert game.winner is None and game.state.round == 2


def test_winning_a_scenario_the_side_with_the_most_points_wins() -> None:
    """Winning a Scenario: both sides past the target; the one with more points wins."""
    game = position(
        {"priestess": "a1", "mad-scientist": "b1"},
        {"villager": "f6", "hyena-warrior": "e6"},
        scenario=scenario("control"),
    )
    with editing(game) as s:
        s.sides["dark"].points = 7
        s.sides["light"].points = 8
    finish_round(game)
    assert game.winner == "light"


def test_winning_a_scenario_a_tie_plays_more_rounds_until_one_player_has_more_points() -> None:
    """Winning a Scenario: "If there is a tie, play more rounds until one player has more
    points." """
    game = position(
        {"priestess": "a1", "mad-scientist": "b1"},
        {"villager": "f6", "hyena-warrior": "e6"},
        b=board(points={"A": "f5"}),
        scenario=scenario("leaders"),
    )
    with editing(game) as s:
        s.sides["dark"].points = 6
        s.sides["light"].points = 6
    finish_round(game)
    assert game.winner is None and not game.over and game.state.round == 2
    finish_round(game)  # still tied: on it goes
    assert game.winner is None and game.state.round == 3
    assert game.decider == "dark"
    game.play("choose:priestess")
    game.play("end")
    game.play("choose:villager")
    game.play("interact:point-A")
    finish_round(game)
    assert game.winner == "light"


@pytest.mark.parametrize("sid", ["flags", "leaders", "control"])
def test_winning_6_points_with_two_characters_per_side(sid: str) -> None:
    """Flags, Leaders, Control: "If playing with two characters per side, gain 6 points to
    win." """
    game = position(
        {"priestess": "a1", "mad-scientist": "b1"},
        {"villager": "f6", "hyena-warrior": "e6"},
        scenario=scenario(sid),
    )
    assert game.setup.scenario.points_to_win(game.state) == 6
    with editing(game) as s:
        s.sides["light"].points = 6
    finish_round(game)
    assert game.winner == "light"


@pytest.mark.parametrize("sid", ["flags", "leaders", "control"])
def test_winning_10_points_with_three_characters_per_side(sid: str) -> None:
    """Flags, Leaders, Control: "If playing with three characters per side, gain 10 points to
    win." Nine is not enough."""
    game = position(
        {"priestess": "a1", "mad-scientist": "b1", "dracula": "c1"},
        {"villager": "f6", "hyena-warrior": "e6", "the-bride": "d6"},
        scenario=scenario(sid),
    )
    assert game.setup.scenario.points_to_win(game.state) == 10
    with editing(game) as s:
        s.sides["dark"].points = 9
    finish_round(game)
    assert game.winner is None
    with editing(game) as s:
        s.sides["dark"].points = 10
    finish_round(game)
    assert game.winner == "dark"


# =========================================================================== Flags


def flags_game(dark: dict[str, str], light: dict[str, str], **kw: object) -> Game:
    return position(dark, light, b=layered("flags", FLAGS), scenario=scenario("flags"), **kw)  # type: ignore[arg-type]


def test_flags_setup_places_the_flag_markers_as_shown() -> None:
    """Flags, Setup: "Place the flag markers as shown" (the map's flags layer)."""
    game = flags_game({"priestess": "a1"}, {"villager": "f6"})
    assert where(game, "flag-dark") == "e2"
    assert where(game, "flag-light") == "b5"


def test_flags_a_standing_character_on_the_opponents_flag_may_return_for_2_points() -> None:
    """Flags, Rules: "When a round ends, check to see if any of your standing characters are on or
    adjacent to your opponent's flag marker. If so, you may choose to return one or more of those
    characters to your starting area." Gaining points: "If a character returns to your starting
    area using the rule above, gain 2 points." """
    game = flags_game({"priestess": "b5", "mad-scientist": "f1"}, {"villager": "f6"})
    game.play("choose:priestess")
    assert not [c for c in engine.legal_choices(game.state) if c.startswith("flag:")]
    finish_round(game, lambda ch: "flag:priestess" if "flag:priestess" in ch else None)
    assert points(game) == {"dark": 2, "light": 0}
    assert where(game, "priestess") in ("a1", "b1", "c1")  # back in the starting area
    assert game.state.pieces["priestess"].standing


def test_flags_the_return_is_offered_when_the_round_ends_before_the_cooldown() -> None:
    """Flags: "When a round ends, check ..." The owner decides which square of the starting area
    (Cooldown Tracks: characters return to your starting area)."""
    game = flags_game({"priestess": "b5"}, {"villager": "f6"})
    game.play("choose:priestess")
    game.play("end")
    game.play("choose:villager")
    game.play("end")
    assert game.state.round == 1 and game.decider == "dark"
    assert engine.legal_choices(game.state) == ["flag:priestess", "skip"]
    game.play("flag:priestess")
    assert engine.legal_choices(game.state) == [
        "return:priestess:a1",
        "return:priestess:b1",
        "return:priestess:c1",
    ]
    game.play("return:priestess:b1")
    assert where(game, "priestess") == "b1"
    assert game.state.round == 2


def test_flags_you_may_choose_to_return_none() -> None:
    """Flags: "you may choose to return" — declining keeps the character where it is, no points."""
    game = flags_game({"priestess": "b5"}, {"villager": "f6"})
    finish_round(game)  # declines with "skip"
    assert where(game, "priestess") == "b5"
    assert points(game) == {"dark": 0, "light": 0}


def test_flags_a_side_may_return_characters_until_it_has_answered_the_round_end_check() -> None:
    """Flags: "When a round ends, check to see if any of your standing characters are on or
    adjacent to your opponent's flag marker. If so, you may choose to return one or more of
    those characters." The first player answers first; once it has, a character it left by
    the flag returns at the next round's end at the earliest, while the other side may still
    return its own."""
    from funkoverse.rules.core.scenario import flag_returns_open

    game = flags_game({"priestess": "b5"}, {"villager": "e3"})
    assert flag_returns_open(game.state, "dark") and flag_returns_open(game.state, "light")
    for choice in ("choose:priestess", "end", "choose:villager", "end"):
        game.play(choice)
    assert game.decider == "dark" and engine.legal_choices(game.state) == ["flag:priestess", "skip"]
    assert flag_returns_open(game.state, "dark") and flag_returns_open(game.state, "light")
    game.play("skip")
    assert game.decider == "light" and engine.legal_choices(game.state) == ["flag:villager", "skip"]
    assert not flag_returns_open(game.state, "dark")
    assert flag_returns_open(game.state, "light")
    game.play("flag:villager")
    assert not flag_returns_open(game.state, "dark")
    assert flag_returns_open(game.state, "light")  # it places the villager, then may go on
    finish_round(game)
    assert game.state.round == 2 and where(game, "priestess") == "b5"
    assert flag_returns_open(game.state, "dark")


def test_flags_you_may_return_one_or_more_each_for_2_points() -> None:
    """Flags: "return one or more of those characters"; each one returned gains 2 points."""
    game = flags_game(
        {"priestess": "b5", "mad-scientist": "a4", "dracula": "c6"},
        {"villager": "f6", "hyena-warrior": "e6", "the-bride": "d6"},
    )
    seen: list[list[str]] = []

    def decide(choices: list[str]) -> str | None:
        flags = [c for c in choices if c.startswith("flag:")]
        if flags:
            seen.append(choices)
            return flags[0] if len(seen) <= 2 else "skip"
        return None

    finish_round(game, decide)
    assert seen[0] == ["flag:priestess", "flag:mad-scientist", "flag:dracula", "skip"]
    assert points(game) == {"dark": 4, "light": 0}
    assert sorted(
        p for p in ("priestess", "mad-scientist", "dracula") if where(game, p) in ("a1", "b1", "c1")
    ) == [
        "mad-scientist",
        "priestess",
    ]
    assert where(game, "dracula") == "c6"  # not returned: stays


def test_flags_only_standing_characters_may_return() -> None:
    """Flags: "any of your standing characters" — a knocked-down character on the flag may not."""
    game = flags_game(
        {"priestess": "b5", "mad-scientist": "a5"}, {"villager": "f6"}, knocked_down=["priestess"]
    )
    asked: list[list[str]] = []
    finish_round(game, lambda ch: asked.append(ch) if ch[0].startswith("flag:") else None)
    assert asked and all("flag:priestess" not in ch for ch in asked)
    assert "flag:mad-scientist" in asked[0]


def test_flags_only_the_opponents_flag_counts() -> None:
    """Flags: "on or adjacent to your opponent's flag marker" — not next to your own flag, and
    not two squares from the opponent's."""
    game = flags_game({"priestess": "e3", "mad-scientist": "b3"}, {"villager": "f6"})
    finish_round(
        game, lambda ch: pytest.fail(f"no flag return expected: {ch}") if "skip" in ch else None
    )
    assert points(game) == {"dark": 0, "light": 0}
    assert where(game, "priestess") == "e3" and where(game, "mad-scientist") == "b3"


def test_flags_adjacent_means_beside_or_diagonal_and_not_across_a_wall() -> None:
    """Flags: "on or adjacent"; Adjacency: a wall between two squares means they are not
    adjacent."""
    b = layered("flags", FLAGS, walls=[("b5", "b4")])
    game = position(
        {"priestess": "b4", "mad-scientist": "a6"},
        {"villager": "f6"},
        b=b,
        scenario=scenario("flags"),
    )
    asked: list[list[str]] = []
    finish_round(game, lambda ch: asked.append(ch) if "skip" in ch else None)
    assert asked == [["flag:mad-scientist", "skip"]]  # a6 is diagonal to b5; b4 is walled off


def test_flags_both_sides_may_return_the_first_player_decides_first() -> None:
    """Flags applies to each player; the end-of-round decisions go in the Cooldown order, the
    player with the First Player marker first."""
    game = flags_game({"priestess": "b5"}, {"villager": "e2"}, first="light")
    deciders: list[str] = []

    def decide(choices: list[str]) -> str | None:
        flags = [c for c in choices if c.startswith("flag:")]
        if flags:
            deciders.append(game.decider or "")
            return flags[0]
        return None

    finish_round(game, decide)
    assert deciders == ["light", "dark"]
    assert points(game) == {"dark": 2, "light": 2}


def test_flags_knocking_out_a_rival_gains_1_point() -> None:
    """Flags, Gaining points: "If you knock out a rival, gain 1 point." """
    game = flags_game({"priestess": "c3"}, {"villager": "d4"}, knocked_down=["villager"])
    knock_out(game, "priestess", "villager")
    assert points(game) == {"dark": 1, "light": 0}


def test_flags_a_character_returns_at_most_once_per_round_end() -> None:
    """Flags: "When a round ends, check to see if any of your standing characters are on or
    adjacent to your opponent's flag marker. If so, you may choose to return one or more of
    those characters" — the check is made once; each of those characters returns once, for 2
    points. Here the light flag (b2) is adjacent to the dark starting area (a1 b1 c1)."""
    rows = ("......", ".L....", "......", "......", "....D.", "......")
    game = position(
        {"priestess": "b3"},
        {"villager": "f6"},
        b=layered("flags", rows),
        scenario=scenario("flags"),
    )
    offers = 0

    def decide(choices: list[str]) -> str | None:
        nonlocal offers
        if "flag:priestess" in choices:
            offers += 1
            return "flag:priestess" if offers < 5 else "skip"
        return None

    finish_round(game, decide)
    assert offers == 1
    assert points(game)["dark"] == 2


def test_flags_the_return_points_count_toward_winning_at_that_round_end() -> None:
    """Flags: the 2 points of a return come "When a round ends", and Winning a Scenario counts the
    points "at the end of a round": 4 + 2 reaches 6 and wins."""
    game = flags_game(
        {"priestess": "b5", "mad-scientist": "a1"}, {"villager": "f6", "hyena-warrior": "e6"}
    )
    with editing(game) as s:
        s.sides["dark"].points = 4
    finish_round(game, lambda ch: "flag:priestess" if "flag:priestess" in ch else None)
    assert points(game) == {"dark": 6, "light": 0}
    assert game.winner == "dark"


# =========================================================================== Leaders


def leaders_game(
    dark: dict[str, str], light: dict[str, str], leaders: tuple[str, str], **kw: object
) -> Game:
    """A Leaders game in round 1 with the secret picks already made and revealed."""
    game = position(dark, light, b=layered("leaders", LEADERS), scenario=scenario("leaders"), **kw)  # type: ignore[arg-type]
    with editing(game) as s:
        s.sides["dark"].leader = leaders[0]
        s.sides["light"].leader = leaders[1]
        s.leaders_revealed = True
    return game


@pytest.mark.parametrize(
    ("who", "whom", "gained", "rule"),
    [
        ("priestess", "villager", 4, "If your leader knocks out a rival leader, gain 4 points."),
        (
            "mad-scientist",
            "villager",
            3,
            "If your leader's ally knocks out a rival leader, gain 3 points.",
        ),
        ("priestess", "hyena-warrior", 2, "If your leader knocks out a rival, gain 2 points."),
        (
            "mad-scientist",
            "hyena-warrior",
            1,
            "If your leader's ally knocks out a rival, gain 1 point.",
        ),
    ],
)
def test_leaders_gaining_points_for_knock_outs(who: str, whom: str, gained: int, rule: str) -> None:
    """Leaders, Gaining points (each line of the card, in `rule`); a knock-out scores only by
    these lines (no extra point for the knock-out itself)."""
    game = leaders_game(
        {"priestess": "c3", "mad-scientist": "d3"},
        {"villager": "c4", "hyena-warrior": "d4"},
        ("priestess", "villager"),
        knocked_down=["villager", "hyena-warrior"],
    )
    knock_out(game, who, whom)
    assert points(game) == {"dark": gained, "light": 0}, rule


def test_leaders_the_rival_scores_the_same_lines() -> None:
    """Leaders: the light leader knocking out the dark leader gains light 4 points."""
    game = leaders_game(
        {"priestess": "c3", "mad-scientist": "a1"},
        {"villager": "c4", "hyena-warrior": "f6"},
        ("priestess", "villager"),
        first="light",
        knocked_down=["priestess"],
    )
    knock_out(game, "villager", "priestess")
    assert points(game) == {"dark": 0, "light": 4}


def test_leaders_setup_the_leader_starts_on_its_leader_starting_square() -> None:
    """Leaders, Rules: "The starting player places their leader on the leader starting square that
    matches their base color and then places any remaining characters in the corresponding
    starting area." """
    b = layered("leaders", LEADERS, points={"A": "a4"})  # a map a checked setup accepts
    from funkoverse.content.setups import make_setup, team

    s = make_setup(
        [
            team("dark", ("priestess", "mad-scientist")),
            team("light", ("villager", "hyena-warrior")),
        ],
        board=b,
        scenario=scenario("leaders"),
        first_player="light",
    )
    game = Game(s, 0)
    assert game.state.phase is Phase.SECRET and game.decider == "light"
    game.play("leader:villager")
    game.play("leader:mad-scientist")
    assert game.state.phase is Phase.PLACE and game.decider == "light"
    choices = engine.legal_choices(game.state)
    assert [c for c in choices if c.startswith("place:villager:")] == ["place:villager:d5"]
    assert sorted(c for c in choices if c.startswith("place:hyena-warrior:")) == [
        "place:hyena-warrior:d6",
        "place:hyena-warrior:e6",
        "place:hyena-warrior:f6",
    ]
    game.play("place:villager:d5")
    game.play("place:hyena-warrior:e6")
    assert game.decider == "dark"
    assert [c for c in engine.legal_choices(game.state) if "mad-scientist" in c] == [
        "place:mad-scientist:c2"
    ]


def test_leaders_the_leader_starting_squares_are_not_part_of_any_starting_area() -> None:
    """Leaders, Rules: "The leaders' starting squares are not used after play starts. (They are not
    considered part of any starting area.)" A knocked-out leader returns to the starting area."""
    b = layered("leaders", LEADERS, dark=("a1", "b1"), light=("e6", "f6"))
    game = position(
        {"priestess": "c3", "mad-scientist": "a1"},
        {"villager": "c4", "hyena-warrior": "f6"},
        b=b,
        scenario=scenario("leaders"),
        knocked_down=["villager"],
    )
    with editing(game) as s:
        s.sides["dark"].leader = "priestess"
        s.sides["light"].leader = "villager"
    knock_out(game, "priestess", "villager")
    returns: list[list[str]] = []
    for _ in range(2):
        finish_round(game, lambda ch: returns.append(ch) if ch[0].startswith("return:") else None)
    assert returns == [["return:villager:e6"]]  # not d5, the light leader square


# =========================================================================== Control


def control_game(dark: dict[str, str], light: dict[str, str], **kw: object) -> Game:
    return position(dark, light, b=layered("control", CONTROL), scenario=scenario("control"), **kw)  # type: ignore[arg-type]


def control_choices(game: Game) -> list[str]:
    return [c for c in engine.legal_choices(game.state) if c.startswith("interact:control-")]


def test_control_setup_the_control_markers_are_not_placed_on_the_map_yet() -> None:
    """Control, Setup: "You will also use the control markers, but do not place them on the map
    yet." (The box holds 3 control markers.)"""
    game = control_game({"priestess": "a1"}, {"villager": "f6"})
    markers = [p for p in game.state.pieces.values() if p.id.startswith("control-")]
    assert len(markers) == 3
    assert all(m.square is None for m in markers)


def test_control_a_character_in_a_control_area_may_place_a_marker_in_any_square_of_it() -> None:
    """Control, Rules: "When your character is in one of the control areas, the character may do
    the interact action to place a control marker with your side's color face up in any square of
    that control area." Not in another area."""
    game = control_game({"priestess": "a3"}, {"villager": "f6"})
    game.play("choose:priestess")
    assert control_choices(game) == [
        "interact:control-place-1-a3",
        "interact:control-place-1-b3",
    ]
    game.play("interact:control-place-1-b3")
    marker = next(p for p in game.state.pieces.values() if p.id.startswith("control-") and p.square)
    assert where(game, marker.id) == "b3" and marker.side == "dark"


def test_control_a_character_outside_every_control_area_may_not_place() -> None:
    """Control: only "When your character is in one of the control areas" — being adjacent to an
    area is not being in it."""
    game = control_game({"priestess": "c3"}, {"villager": "f6"})
    game.play("choose:priestess")
    assert control_choices(game) == []


def test_control_you_cannot_place_a_marker_in_an_area_that_already_has_one() -> None:
    """Control: "You cannot place a control marker in a control area that already has one." """
    game = control_game({"priestess": "a3"}, {"villager": "b3"})
    game.play("choose:priestess")
    game.play("interact:control-place-1-a3")
    game.play("end")
    game.play("choose:villager")  # in the same area, adjacent to the marker
    choices = control_choices(game)
    assert not [c for c in choices if "place" in c]
    assert choices == ["interact:control-flip-1"]


def test_control_on_or_adjacent_to_a_control_marker_a_character_may_flip_it() -> None:
    """Control: "When a character is on or adjacent to a control marker, the character may do the
    interact action to flip the marker over." """
    for square in ("b4", "a3", "b3"):
        game = control_game({"priestess": "a3"}, {"villager": square if square != "a3" else "a2"})
        game.play("choose:priestess")
        game.play(
            "interact:control-place-1-b3" if square != "b3" else "interact:control-place-1-a3"
        )
        game.play("end")
        marker = "control-1"
        assert game.state.pieces[marker].side == "dark"
        game.play("choose:villager")
        assert "interact:control-flip-1" in control_choices(game), square
        game.play("interact:control-flip-1")
        assert game.state.pieces[marker].side == "light"  # the other face: light's color


def test_control_a_character_two_squares_from_the_marker_may_not_flip_it() -> None:
    """Control: only "on or adjacent to a control marker"."""
    game = control_game({"priestess": "a3"}, {"villager": "d3"})
    game.play("choose:priestess")
    game.play("interact:control-place-1-b3")
    game.play("end")
    game.play("choose:villager")
    assert control_choices(game) == []


def test_control_a_flipped_marker_can_be_flipped_back() -> None:
    """Control: "flip the marker over" — either side may flip a marker showing the other's color."""
    game = control_game({"priestess": "a3"}, {"villager": "b4"})
    game.play("choose:priestess")
    game.play("interact:control-place-1-a3")
    game.play("end")
    game.play("choose:villager")
    game.play("interact:control-flip-1")
    game.play("end")
    assert game.state.round == 2 and game.decider == "light"
    game.play("choose:villager")
    game.play("end")
    game.play("choose:priestess")
    assert "interact:control-flip-1" in control_choices(game)
    game.play("interact:control-flip-1")
    assert game.state.pieces["control-1"].side == "dark"


def _markers(game: Game, shown: dict[str, str]) -> None:
    """Put control markers on the map showing a side's color ({square: side})."""
    with editing(game) as state:
        for n, (label, side) in enumerate(shown.items(), 1):
            m = state.pieces[f"control-{n}"]
            m.square, m.side, m.placed = sq(game, label), side, True


TWO = ({"priestess": "a1", "mad-scientist": "b1"}, {"villager": "f6", "hyena-warrior": "e6"})
THREE = (
    {"priestess": "a1", "mad-scientist": "b1", "dracula": "c1"},
    {"villager": "f6", "hyena-warrior": "e6", "the-bride": "d6"},
)


def test_control_three_characters_any_marker_showing_your_color_gains_1_point() -> None:
    """Control, Gaining Points: "If any control markers show your color at the end of a round, gain
    1 point." With a tie for the most, only this line scores: 1 each."""
    game = control_game(*THREE)
    _markers(game, {"a3": "dark", "e3": "light"})
    finish_round(game)
    assert points(game) == {"dark": 1, "light": 1}


def test_control_ignore_the_any_marker_point_when_playing_with_two_characters_per_side() -> None:
    """Control: "If any control markers show your color at the end of a round, gain 1 point.
    Ignore this when playing with two characters per side." """
    game = control_game(*TWO)
    _markers(game, {"a3": "dark", "e3": "light"})
    finish_round(game)
    assert points(game) == {"dark": 0, "light": 0}


def test_control_the_most_control_markers_gains_an_extra_point() -> None:
    """Control: "If you have the most control markers showing your color at the end of a round,
    gain an extra point." Three characters a side: 1 + 1 for the most, 1 for the other."""
    game = control_game(*THREE)
    _markers(game, {"a3": "dark", "e3": "dark", "c5": "light"})
    finish_round(game)
    assert points(game) == {"dark": 2, "light": 1}


def test_control_the_most_markers_still_scores_with_two_characters_per_side() -> None:
    """Control: only the "any" line is ignored with two characters per side; the most markers
    still gains its point."""
    game = control_game(*TWO)
    _markers(game, {"a3": "dark", "e3": "dark", "c5": "light"})
    finish_round(game)
    assert points(game) == {"dark": 1, "light": 0}
    finish_round(game)  # "at the end of a round": every round
    assert points(game) == {"dark": 2, "light": 0}


def test_control_no_marker_no_points() -> None:
    game = control_game(*THREE)
    finish_round(game)
    assert points(game) == {"dark": 0, "light": 0}


def test_control_knocking_out_a_rival_gains_1_point() -> None:
    """Control, Gaining Points: "If you knock out a rival, gain 1 point." """
    game = control_game({"priestess": "c3"}, {"villager": "d4"}, knocked_down=["villager"])
    knock_out(game, "priestess", "villager")
    assert points(game) == {"dark": 1, "light": 0}


def test_control_points_count_toward_winning_at_the_end_of_the_round() -> None:
    """Control: the markers' points come at the end of a round, and the winner is counted then."""
    game = control_game(*TWO)
    with editing(game) as s:
        s.sides["dark"].points = 5
    _markers(game, {"a3": "dark"})
    finish_round(game)
    assert points(game)["dark"] == 6
    assert game.winner == "dark"


# =========================================================================== the first games


def test_dc_first_game_knocking_down_is_not_enough() -> None:
    """DC Comics 102, First-Game Objective: "Knock down an opponent's character, and then knock
    out that character to win." """
    game = position(
        {"wonder-woman": "c3", "priestess": "a1"},
        {"villager": "d4"},
        scenario=scenario("first-knockout"),
    )
    game.play("choose:wonder-woman")
    game.play("challenge:villager")
    while "roll:win" not in engine.legal_choices(game.state):
        choices = engine.legal_choices(game.state)
        game.play("skip" if "skip" in choices else choices[-1])
    game.play("roll:win")
    assert not game.state.pieces["villager"].standing
    assert game.winner is None


def test_dc_first_game_the_first_knock_out_wins_at_once() -> None:
    """DC Comics 102, Winning Your First Game: "play until one player has knocked out one of their
    rivals." The game ends at the knock-out, mid-round."""
    game = position(
        {"priestess": "c3", "mad-scientist": "a1"},
        {"villager": "d4", "hyena-warrior": "f6"},
        scenario=scenario("first-knockout"),
        knocked_down=["villager"],
    )
    knock_out(game, "priestess", "villager")
    assert game.winner == "dark" and game.over and game.state.round == 1
    assert engine.legal_choices(game.state) == []


def um_game(dark: dict[str, str], light: dict[str, str], **kw: object) -> Game:
    return position(dark, light, scenario=scenario("monsters-first-game"), **kw)  # type: ignore[arg-type]


UM_DARK = {"priestess": "c3", "mad-scientist": "a1", "dracula": "b1"}
UM_LIGHT = {"villager": "d4", "hyena-warrior": "f6", "the-bride": "e6"}


def test_um_first_game_a_point_for_each_knock_out_of_a_rival() -> None:
    """Universal Monsters 100, Winning Your First Game: "collect one point each time you knock out
    a rival character" — and the game goes on."""
    game = um_game(UM_DARK, UM_LIGHT, knocked_down=["villager"])
    knock_out(game, "priestess", "villager")
    assert points(game) == {"dark": 1, "light": 0}
    assert not game.over


def test_um_first_game_a_point_for_being_adjacent_to_a_rival_when_it_is_knocked_out() -> None:
    """Universal Monsters 100: "or when one of your characters is adjacent to a rival when they are
    knocked out" — even when the knock-out is nobody's (no credit)."""
    game = um_game(
        {"priestess": "c3", "mad-scientist": "a1"}, {"villager": "d4", "hyena-warrior": "f6"}
    )
    with editing(game) as state:
        state.setup.scenario.on_knockout(state, None, state.pieces["villager"], [])
    assert points(game) == {"dark": 1, "light": 0}
    far = um_game(
        {"priestess": "c2", "mad-scientist": "a1"}, {"villager": "d4", "hyena-warrior": "f6"}
    )
    with editing(far) as state:
        state.setup.scenario.on_knockout(state, None, state.pieces["villager"], [])
    assert points(far) == {"dark": 0, "light": 0}


def test_um_first_game_adjacent_is_cut_by_a_wall() -> None:
    """Adjacency: squares on either side of a wall are not adjacent."""
    b = board(walls=[("c3", "c4")])
    game = position(
        {"priestess": "c3", "mad-scientist": "a1"},
        {"villager": "c4", "hyena-warrior": "f6"},
        b=b,
        scenario=scenario("monsters-first-game"),
    )
    with editing(game) as state:
        state.setup.scenario.on_knockout(state, None, state.pieces["villager"], [])
    assert points(game) == {"dark": 0, "light": 0}


def test_um_first_game_one_point_for_one_knock_out_even_with_allies_adjacent() -> None:
    """Universal Monsters 100: one point "each time" a rival is knocked out by you or next to you:
    the knock-out and an adjacent ally are the same occasion (ruling: not two points)."""
    game = um_game(
        {"priestess": "c3", "mad-scientist": "e5", "dracula": "a1"},
        {"villager": "d4", "hyena-warrior": "f6", "the-bride": "e6"},
        knocked_down=["villager"],
    )
    knock_out(game, "priestess", "villager")
    assert points(game) == {"dark": 1, "light": 0}


def test_um_first_game_three_points_win_at_once() -> None:
    """Universal Monsters 100: "Continue playing until one player has collected three points." The
    game ends the moment the third point is collected, not at the end of the round."""
    game = um_game(UM_DARK, UM_LIGHT, knocked_down=["villager"])
    with editing(game) as s:
        s.sides["dark"].points = 2
    knock_out(game, "priestess", "villager")
    assert points(game)["dark"] == 3
    assert game.winner == "dark" and game.over
    assert game.state.round == 1 and game.state.turns == 0  # light never took a turn


def test_um_first_game_target_is_three_with_two_or_three_characters() -> None:
    for dark, light in (TWO, THREE):
        game = um_game(dark, light)
        assert game.setup.scenario.points_to_win(game.state) == 3


# =========================================================================== the command


def _play(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    status = main(["play", *args, "--json"])
    out, err = capsys.readouterr()
    assert status == 0, err
    summary = json.loads(out)
    assert isinstance(summary, dict)
    return summary


def _check_summary(summary: dict[str, object]) -> None:
    """The summary says who won and how many points each side had; the winner has the most and
    at least the target."""
    assert summary["winner"] is not None and summary["stopped"] is False, summary
    sides = summary["sides"]
    assert isinstance(sides, dict)
    winner = sides[summary["winner"]]
    target = summary["points_to_win"]
    assert isinstance(target, int)
    assert winner["points"] >= target
    assert all(
        s["points"] < winner["points"] for side, s in sides.items() if side != summary["winner"]
    )


SCENARIO_MAPS = [(sid, map_id) for sid, s in sorted(load_scenarios().items()) for map_id in s.maps]


@pytest.mark.parametrize(("sid", "map_id"), SCENARIO_MAPS)
def test_play_finishes_every_scenario_on_every_map_it_belongs_to(
    capsys: pytest.CaptureFixture[str], sid: str, map_id: str
) -> None:
    """`funkoverse play --scenario ID --map ID --seed N --json` plays to a winner (the free-for-all
    brawl with four players, the ultimate titans in ultimate mode, as their files say)."""
    summary = _play(capsys, "--scenario", sid, "--map", map_id, "--seed", "2")
    assert summary["scenario"] == sid and summary["map"] == map_id
    _check_summary(summary)


@pytest.mark.parametrize("sid", ["flags", "leaders", "control"])
@pytest.mark.parametrize(
    ("dark", "light", "target"),
    [
        ("wonder-woman,priestess", "dracula,villager", 6),
        ("wonder-woman,the-cheetah,priestess", "dracula,the-bride,villager", 10),
    ],
)
def test_play_finishes_with_two_and_three_characters_a_side(
    capsys: pytest.CaptureFixture[str], sid: str, dark: str, light: str, target: int
) -> None:
    """Two characters per side play to 6 points; three to 10."""
    summary = _play(capsys, "--scenario", sid, "--seed", "5", "--dark", dark, "--light", light)
    assert summary["points_to_win"] == target
    sides = summary["sides"]
    assert isinstance(sides, dict)
    assert sides["dark"]["characters"] == dark.split(",")
    assert sides["light"]["characters"] == light.split(",")
    _check_summary(summary)


def test_play_the_first_games_end_at_their_own_targets(capsys: pytest.CaptureFixture[str]) -> None:
    """The DC first game ends at the first knock-out (1 point); the Universal Monsters first game
    at three points, however many rounds it takes."""
    dc = _play(capsys, "--scenario", "first-knockout", "--seed", "1")
    assert dc["points_to_win"] == 1
    sides = dc["sides"]
    assert isinstance(sides, dict)
    assert sorted(s["points"] for s in sides.values()) == [0, 1]
    um = _play(capsys, "--scenario", "monsters-first-game", "--seed", "1")
    assert um["points_to_win"] == 3
    sides = um["sides"]
    assert isinstance(sides, dict)
    assert sides[um["winner"]]["points"] == 3  # at once: never more than 3
    _check_summary(um)


def test_play_refuses_a_map_the_scenario_cannot_use(capsys: pytest.CaptureFixture[str]) -> None:
    """Control needs control areas: Themyscira has none. Refused with a reason, status 2."""
    status = main(["play", "--scenario", "control", "--map", "themyscira", "--seed", "1", "--json"])
    _, err = capsys.readouterr()
    assert status == 2
    assert "control" in err and "themyscira" in err


def test_shipped_scenarios_turn_on_the_rules_their_cards_print() -> None:
    """The scenario files: Flags, Leaders and Control each use point markers; Flags and Control
    give 1 point for a knock-out, Leaders only its own lines; targets 6 and 10."""
    flags, leaders, control = scenario("flags"), scenario("leaders"), scenario("control")
    assert flags.flags and flags.point_markers and flags.knockout_points == 1
    assert leaders.leaders and leaders.point_markers and leaders.knockout_points == 0
    assert control.control and control.point_markers and control.knockout_points == 1
    for s in (flags, leaders, control):
        assert (s.target_two, s.target_three) == (6, 10)
    um = scenario("monsters-first-game")
    assert um.adjacent_knockout_points and um.immediate_target and um.knockout_points == 1
    assert scenario("first-knockout").first_knockout_wins

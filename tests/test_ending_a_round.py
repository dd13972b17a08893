"""Playing the Game: Ending a Round (cooldown, refresh, new first player) and Cooldown Tracks."""

from __future__ import annotations

from funkoverse.rules.core.cards import TokenColor
from funkoverse.rules.core.frames import ReturnFrame
from funkoverse.rules.core.scenario import Scenario
from funkoverse.rules.core.state import Phase
from funkoverse.rules.game import Game
from funkoverse.rules.play import engine
from positions import board, editing, position


def _finish_round(game: Game) -> None:
    """Every remaining character takes a turn and ends it, until the round ends or a side must
    choose where a returning character goes."""
    r = game.state.round
    while game.state.round == r and not (
        game.state.stack and isinstance(game.state.stack[-1], ReturnFrame)
    ):
        choices = engine.legal_choices(game.state)
        game.play("end" if "end" in choices else choices[0])


def test_round_ends_when_both_players_have_exhausted_all_their_characters() -> None:
    game = position({"priestess": "a1"}, {"hyena-warrior": "f6"})
    assert game.state.round == 1
    game.play("choose:priestess")
    game.play("end")
    assert game.state.round == 1
    game.play("choose:hyena-warrior")
    game.play("end")
    assert game.state.round == 2


def test_cooldown_shifts_everything_down_one_number() -> None:
    game = position({"priestess": "a1"}, {"hyena-warrior": "f6"})
    with editing(game) as s:
        s.sides["dark"].track[2].append(("token", "red"))  # on the 3
    _finish_round(game)
    assert game.state.sides["dark"].track_position(("token", "red")) == 2


def test_ability_token_shifting_off_the_1_returns_to_the_pool() -> None:
    """Cooldown Tracks: "ability tokens return to your ability token pool"."""
    game = position({"priestess": "a1"}, {"hyena-warrior": "f6"})
    with editing(game) as s:
        s.sides["dark"].track[0].append(("token", "blue"))
    assert game.state.sides["dark"].pool.get(TokenColor.BLUE, 0) == 0
    _finish_round(game)
    assert game.state.sides["dark"].pool[TokenColor.BLUE] == 1
    assert game.state.sides["dark"].track_position(("token", "blue")) is None


def test_knocked_out_character_shifting_off_returns_to_the_starting_area() -> None:
    """Cooldown Tracks: "characters return to your starting area"; the owner chooses the square."""
    game = position({"priestess": "c4", "mad-scientist": ""}, {"hyena-warrior": "f6"})
    _finish_round(game)
    top = game.state.stack[-1]
    assert isinstance(top, ReturnFrame) and top.side == "dark"
    assert game.decider == "dark"
    assert engine.legal_choices(game.state) == [
        "return:mad-scientist:a1",
        "return:mad-scientist:b1",
        "return:mad-scientist:c1",
    ]
    game.play("return:mad-scientist:b1")
    scientist = game.state.pieces["mad-scientist"]
    assert scientist.square == game.state.board.parse_label("b1") and scientist.standing
    assert game.state.round == 2


def test_returning_to_a_full_starting_area_takes_the_nearest_empty_square() -> None:
    """FAQ: "If your starting area is full, then return your character to an empty square as
    close as possible to your starting area." """
    b = board(dark=("a1",), light=("f6",))
    game = position({"priestess": "a1", "mad-scientist": ""}, {"hyena-warrior": "f6"}, b=b)
    _finish_round(game)
    assert engine.legal_choices(game.state) == [
        "return:mad-scientist:b1",
        "return:mad-scientist:a2",
        "return:mad-scientist:b2",
    ]


def test_cooldown_first_player_first_then_the_other() -> None:
    """Cooldown: "The player with the First Player marker shifts everything ... Then the other
    player does the same." Returns are placed in that order."""
    game = position(
        {"priestess": "a2", "mad-scientist": ""},
        {"hyena-warrior": "f5", "villager": ""},
        first="light",
    )
    _finish_round(game)
    assert game.decider == "light"
    game.play("return:villager:f6")
    assert game.decider == "dark"
    game.play("return:mad-scientist:a1")
    assert game.state.phase is Phase.CHOOSE


def test_point_marker_shifting_off_returns_to_its_setup_square() -> None:
    """Point Markers: "When a point marker shifts off a cooldown track, place it back on the
    map in the corresponding letter's setup square." """
    b = board(points={"A": "c3"})
    game = position(
        {"priestess": "c2"}, {"hyena-warrior": "f6"}, b=b, scenario=Scenario(point_markers=True)
    )
    game.play("choose:priestess")
    assert "interact:point-A" in engine.legal_choices(game.state)
    game.play("interact:point-A")
    dark = game.state.sides["dark"]  # as it stands now
    assert dark.points == 1
    assert dark.track_position(("point", "point-A")) == 4  # on the 4 of the track
    assert game.state.pieces["point-A"].square is None
    game.play("end")
    for _ in range(4):  # the marker shifts 4 -> 3 -> 2 -> 1 -> off
        _finish_round(game)
    assert game.state.pieces["point-A"].square == b.parse_label("c3")
    assert game.state.sides["dark"].track_position(("point", "point-A")) is None


def test_refresh_removes_the_exhausted_markers() -> None:
    game = position({"priestess": "a1"}, {"hyena-warrior": "f6"})
    _finish_round(game)
    assert not any(p.exhausted for p in game.state.pieces.values())


def test_new_first_player_passes_the_marker_and_starts_the_next_round() -> None:
    """New first player: "Pass the First Player marker to the other player. That player starts
    the next round." """
    game = position({"priestess": "a1"}, {"hyena-warrior": "f6"}, first="dark")
    _finish_round(game)
    assert game.state.first_player == "light"
    assert game.decider == "light"
    assert engine.legal_choices(game.state) == ["choose:hyena-warrior"]

"""Items (Lasso of Truth, Fishing Net, Shovel) and basic characters (Priestess, Hyena Warrior,
Mad Scientist, Villager)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from funkoverse.content.setups import make_setup, team
from funkoverse.errors import UserError
from funkoverse.rules.core.cards import TokenColor
from funkoverse.rules.core.frames import RollFrame
from funkoverse.rules.core.scenario import Scenario
from funkoverse.rules.engines import Engine
from funkoverse.rules.game import Game
from funkoverse.rules.play import engine
from funkoverse.rules.play.engine import new_game_at
from positions import ENGINES, board, editing, legal_ids, on_engine, position

LASSO = {"dark": [("lasso-of-truth", "wonder-woman")]}


def _roll(game: Game) -> RollFrame:
    top = game.state.stack[-1]
    assert isinstance(top, RollFrame)
    return top


def _at(game: Game, pid: str) -> str:
    square = game.state.pieces[pid].square
    return "" if square is None else game.state.board.label(square)


# --------------------------------------------------------------------------- Lasso of Truth


def test_lasso_of_truth_range_2_challenge_2_as_a_basic_action() -> None:
    """Lasso of Truth: "This character can do the following as a basic action: Range 2,
    challenge 2. If you win, shift an ability token or a die down 1 on your cooldown track." """
    game = position({"wonder-woman": "b2"}, {"hyena-warrior": "b4", "priestess": "b6"}, items=LASSO)
    game.play("choose:wonder-woman")
    assert "item:lasso-of-truth" in engine.legal_choices(game.state)
    game.play("item:lasso-of-truth")
    assert engine.legal_choices(game.state) == ["target:hyena-warrior"]  # b6 is 4 away
    game.play("target:hyena-warrior")
    game.play("skip")  # Champion of Themyscira
    assert _roll(game).attack == ("standard", "standard")
    assert all(slot == [] for slot in game.state.sides["dark"].track)  # no use-item icon


def test_lasso_of_truth_if_you_win_shift_an_ability_token_or_a_die_down_1() -> None:
    game = position({"wonder-woman": "b2"}, {"hyena-warrior": "b4"}, items=LASSO)
    with editing(game) as s:
        s.sides["dark"].pool[TokenColor.RED] = 0
        s.sides["dark"].track[2].append(("token", "red"))
        s.sides["dark"].track[1].append(("die", "champion"))
        s.sides["dark"].track[3].append(("component", "blood"))  # not an ability token nor a die
    game.play("choose:wonder-woman")
    game.play("item:lasso-of-truth")
    game.play("target:hyena-warrior")
    game.play("roll:win")
    assert engine.legal_choices(game.state) == ["shift:die:champion:2", "shift:token:red:3"]
    game.play("shift:token:red:3")
    assert game.state.sides["dark"].track_position(("token", "red")) == 2


def test_lasso_of_truth_shifting_a_die_off_the_1_returns_it() -> None:
    game = position({"wonder-woman": "b2"}, {"hyena-warrior": "b4"}, items=LASSO)
    with editing(game) as s:
        s.sides["dark"].track[0].append(("die", "champion"))
    game.play("choose:wonder-woman")
    game.play("item:lasso-of-truth")
    game.play("target:hyena-warrior")
    game.play("roll:win")
    game.play("shift:die:champion:1")
    assert game.state.sides["dark"].track_position(("die", "champion")) is None


def test_lasso_of_truth_if_you_lose_nothing_shifts() -> None:
    game = position({"wonder-woman": "b2"}, {"hyena-warrior": "b4"}, items=LASSO)
    with editing(game) as s:
        s.sides["dark"].pool[TokenColor.RED] = 0
        s.sides["dark"].track[2].append(("token", "red"))
    game.play("choose:wonder-woman")
    game.play("item:lasso-of-truth")
    game.play("target:hyena-warrior")
    game.play("skip")
    game.play("roll:lose")
    assert game.state.sides["dark"].track_position(("token", "red")) == 3
    assert game.state.stack == []


def test_lasso_of_truth_may_be_used_twice_in_a_turn() -> None:
    """No use-item icon: it never goes on the track; a basic action may be done twice."""
    game = position({"wonder-woman": "b2"}, {"hyena-warrior": "b4"}, items=LASSO)
    game.play("choose:wonder-woman")
    game.play("item:lasso-of-truth")
    game.play("target:hyena-warrior")
    game.play("skip")
    game.play("roll:lose")
    assert "item:lasso-of-truth" in engine.legal_choices(game.state)


def test_lasso_of_truth_needs_sight() -> None:
    """ "Range 2": "The challenger must be able to see the target." """
    b = board(walls=[("b3", "b4"), ("a3", "a4"), ("c3", "c4")])
    game = position({"wonder-woman": "b3"}, {"hyena-warrior": "b5"}, b=b, items=LASSO)
    game.play("choose:wonder-woman")
    assert "item:lasso-of-truth" not in engine.legal_choices(game.state)


def test_lasso_of_truth_not_while_knocked_down() -> None:
    game = position(
        {"wonder-woman": "b2"}, {"hyena-warrior": "b4"}, items=LASSO, knocked_down=["wonder-woman"]
    )
    game.play("choose:wonder-woman")
    assert "item:lasso-of-truth" not in engine.legal_choices(game.state)


# --------------------------------------------------------------------------- Fishing Net

NET = {"dark": [("fishing-net", "dracula")]}


def test_fishing_net_range_3_challenge_2_then_pull_the_target_2() -> None:
    """Fishing Net (cost 2, challenge action): "Range 3, challenge 2. Pull the target 2
    squares." Its card goes on the 2 of the cooldown track."""
    game = position({"dracula": "b1"}, {"villager": "b4"}, items=NET)
    game.play("choose:dracula")
    game.play("item:fishing-net")
    assert game.state.sides["dark"].track_position(("item", "fishing-net")) == 2
    game.play("target:villager")
    assert _roll(game).attack == ("standard", "standard")
    game.play("roll:win")
    menu = engine.legal_choices(game.state)
    assert "pull:villager:b2" in menu and "pull:villager:b3" in menu
    game.play("pull:villager:b2")
    assert _at(game, "villager") == "b2"
    assert not game.state.pieces["villager"].standing


def test_fishing_net_pulls_even_when_the_challenge_is_lost() -> None:
    """Ruling (docs/rulings.md, Cards): the card has no "If you win" (Shovel and the Lasso do),
    and F.A.Q.: "Failing a challenge doesn't stop the rest of the challenge action from
    happening." So the pull is done either way."""
    game = position({"dracula": "b1"}, {"villager": "b4"}, items=NET)
    game.play("choose:dracula")
    game.play("item:fishing-net")
    game.play("target:villager")
    game.play("roll:lose")
    assert "pull:villager:b2" in engine.legal_choices(game.state)
    game.play("pull:villager:b2")
    assert _at(game, "villager") == "b2" and game.state.pieces["villager"].standing


def test_fishing_net_cannot_be_used_while_on_the_track_and_returns_after_cooldown() -> None:
    """Items: "While an item card is on the cooldown track, the item cannot be used. ... When an
    item card shifts off the 1, it returns to the character holding the item"."""
    game = position({"dracula": "b1"}, {"villager": "b4"}, items=NET, scenario=Scenario())
    game.play("choose:dracula")
    game.play("item:fishing-net")
    game.play("target:villager")
    game.play("roll:lose")
    game.play("pull:villager:b4")
    assert "item:fishing-net" not in engine.legal_choices(game.state)
    game.play("end")
    game.play("choose:villager")
    game.play("end")  # round 1 ends: the card on the 1
    game.play("choose:villager")
    game.play("end")
    game.play("choose:dracula")
    assert "item:fishing-net" not in engine.legal_choices(game.state)
    game.play("end")  # round 2 ends: the card shifts off
    assert game.state.sides["dark"].track_position(("item", "fishing-net")) is None
    game.play("choose:dracula")
    assert "item:fishing-net" in engine.legal_choices(game.state)
    assert game.state.pieces["dracula"].items == ("fishing-net",)


def test_fishing_net_is_a_challenge_action_needing_a_target_in_range() -> None:
    game = position({"dracula": "a1"}, {"villager": "f6"}, items=NET)
    game.play("choose:dracula")
    assert "item:fishing-net" not in engine.legal_choices(game.state)


# --------------------------------------------------------------------------- Shovel

SHOVEL = {"dark": [("shovel", "the-bride")]}


def test_shovel_challenge_4_if_you_win_shift_a_token_down_2() -> None:
    """Shovel (cost 3, challenge action): "Challenge 4. If you win, shift a character, token, or
    marker on your cooldown track down 2." """
    game = position({"the-bride": "b2"}, {"villager": "b3"}, items=SHOVEL)
    with editing(game) as s:
        s.sides["dark"].pool[TokenColor.RED] = 0
        s.sides["dark"].track[3].append(("token", "red"))
    game.play("choose:the-bride")
    game.play("item:shovel")
    assert game.state.sides["dark"].track_position(("item", "shovel")) == 3
    game.play("target:villager")
    assert len(_roll(game).attack) == 4
    game.play("roll:win")
    assert engine.legal_choices(game.state) == ["shift:token:red:4"]  # not its own item card
    game.play("shift:token:red:4")
    assert game.state.sides["dark"].track_position(("token", "red")) == 2


def test_shovel_shifting_a_knocked_out_ally_off_returns_it_to_the_starting_area() -> None:
    """Shift Off: "Things that shift off of the cooldown track return to play" and Cooldown
    Tracks: characters return to your starting area."""
    game = position(
        {"the-bride": "b2", "dracula": ""}, {"villager": "b3"}, items=SHOVEL, scenario=Scenario()
    )
    assert game.state.sides["dark"].track_position(("character", "dracula")) == 1
    game.play("choose:the-bride")
    game.play("item:shovel")
    game.play("target:villager")
    game.play("roll:win")
    assert "shift:character:dracula:1" in engine.legal_choices(game.state)
    game.play("shift:character:dracula:1")
    assert game.state.sides["dark"].track_position(("character", "dracula")) is None
    assert sorted(engine.legal_choices(game.state)) == [
        "return:dracula:a1",
        "return:dracula:b1",
        "return:dracula:c1",
    ]
    game.play("return:dracula:c1")
    assert _at(game, "dracula") == "c1"
    assert game.state.pieces["dracula"].standing


def test_shovel_a_marker_or_the_blood_token_may_be_shifted() -> None:
    """ "a character, token, or marker": point markers and the Blood token count."""
    game = position(
        {"the-bride": "b2"},
        {"villager": "b3"},
        items=SHOVEL,
        b=board(points={"A": "f1"}),
        scenario=Scenario(point_markers=True),
    )
    with editing(game) as s:
        s.sides["dark"].track[3].append(("point", "point-A"))
        s.sides["dark"].track[2].append(("component", "blood"))
        s.sides["dark"].track[1].append(("die", "champion"))
    game.play("choose:the-bride")
    game.play("item:shovel")
    game.play("target:villager")
    game.play("roll:win")
    menu = engine.legal_choices(game.state)
    assert "shift:point:point-A:4" in menu and "shift:component:blood:3" in menu
    assert not any(c.startswith("shift:die:") for c in menu)  # a die is none of those
    game.play("shift:point:point-A:4")
    assert game.state.sides["dark"].track_position(("point", "point-A")) == 2


@pytest.mark.parametrize("engine", ENGINES)
def test_shovel_shifts_a_character_token_or_marker_not_a_companion(engine: Engine) -> None:
    """Shovel: "shift a character, token, or marker on your cooldown track down 2"; the
    Glossary names companions apart from characters and tokens (Ally: "The characters,
    companions, and minion tokens you control"), so a companion on the track is not offered
    (docs/rulings.md)."""
    dark = team("dark", ["the-bride", "priestess"], {"the-bride": "shovel"})
    light = team("light", ["dracula", "villager"], {"dracula": "fishing-net"})
    setup = make_setup(
        [
            replace(dark, companions=(("hound", "the-bride"),)),
            replace(light, companions=(("hound", "dracula"),)),
        ],
        "urzari-jungle",
        Scenario(),
    )
    b = setup.board
    where = {"the-bride": "b5", "priestess": "a1", "dracula": "j10", "villager": "b6"}
    where |= {"hound-light": "h10"}
    state = new_game_at(setup, {k: b.parse_label(v) for k, v in where.items()}, "dark")
    hound = state.pieces["hound-dark"]
    hound.placed = True  # knocked out: challenged and lost, it went on the 1
    mine = state.sides["dark"]
    mine.track[0].append(("companion", "hound-dark"))
    mine.pool[TokenColor.RED] -= 1
    mine.track[3].append(("token", "red"))
    game = on_engine(state, engine)
    game.play("choose:the-bride")
    game.play("item:shovel")
    game.play("target:villager")
    game.play("roll:win")
    assert legal_ids(game) == ["shift:token:red:4"]
    game.play("shift:token:red:4")
    assert game.peek().sides["dark"].track_position(("companion", "hound-dark")) == 1


def test_shovel_if_you_lose_nothing_shifts() -> None:
    game = position({"the-bride": "b2", "dracula": ""}, {"villager": "b3"}, items=SHOVEL)
    game.play("choose:the-bride")
    game.play("item:shovel")
    game.play("target:villager")
    game.play("roll:lose")
    assert game.state.stack == []
    assert game.state.sides["dark"].track_position(("character", "dracula")) == 1


# --------------------------------------------------------------------------- basic characters


@pytest.mark.parametrize("basic", ["priestess", "hyena-warrior", "mad-scientist", "villager"])
def test_basic_characters_have_no_abilities_and_defense_2(basic: str) -> None:
    """Basic characters "follow the rules for characters, but they do not have abilities or
    traits" (defense 2): only the basic actions are offered."""
    game = position({basic: "b2"}, {"wonder-woman": "b3"})
    with editing(game) as s:
        s.sides["dark"].pool = {c: 1 for c in TokenColor}
    game.play(f"choose:{basic}")
    menu = engine.legal_choices(game.state)
    assert not any(c.startswith(("ability:", "item:")) for c in menu)
    assert "challenge:wonder-woman" in menu
    assert game.state.pieces[basic].defense == 2


@pytest.mark.parametrize("basic", ["priestess", "mad-scientist"])
def test_basic_characters_cannot_hold_items(basic: str) -> None:
    """Items: "Basic characters cannot be given items." """
    with pytest.raises(UserError, match="basic character and cannot hold items"):
        team("dark", ["dracula", basic], {basic: "shovel"})


def test_a_basic_character_rallies_with_both_actions() -> None:
    game = position({"villager": "b2"}, {"hyena-warrior": "f6"}, knocked_down=["villager"])
    game.play("choose:villager")
    assert engine.legal_choices(game.state) == ["rally", "end"]
    game.play("rally")
    assert game.state.pieces["villager"].standing
    assert game.state.pieces["villager"].exhausted

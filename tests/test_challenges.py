"""Challenges: Resolving a Challenge, Knocked Down, Knocked Out, Multiple Challenges, targets."""

from __future__ import annotations

from fractions import Fraction

import pytest

from funkoverse.rules.core.cards import Ability, CharacterCard, TokenColor, step
from funkoverse.rules.core.errors import IllegalChoice
from funkoverse.rules.core.frames import RollFrame
from funkoverse.rules.core.pieces import Kind
from funkoverse.rules.core.state import CHANCE, Piece
from funkoverse.rules.play import engine
from positions import editing, position


def test_basic_challenge_rolls_2_dice_against_the_targets_defense() -> None:
    """Basic Challenge: 2 dice; the defender rolls dice equal to the target's defense (2)."""
    game = position({"priestess": "b2"}, {"hyena-warrior": "b3"})
    game.play("choose:priestess")
    game.play("challenge:hyena-warrior")
    top = game.state.stack[-1]
    assert isinstance(top, RollFrame)
    assert top.attack == ("standard", "standard") and top.defense == ("standard", "standard")
    assert game.decider == CHANCE
    assert {c.format(): p for c, p in engine.chance_outcomes(game.state)} == {
        "roll:win": Fraction(103, 216),
        "roll:lose": Fraction(113, 216),
    }


def test_resolving_a_challenge_a_standing_rival_that_loses_is_knocked_down() -> None:
    """Knocked Down: "If a character that is standing is challenged and loses, it is knocked
    down. Tip the character over in the square where the character stood." """
    game = position({"priestess": "b2"}, {"hyena-warrior": "b3"})
    game.play("choose:priestess")
    game.play("challenge:hyena-warrior")
    game.play("roll:win")
    hyena = game.state.pieces["hyena-warrior"]
    assert not hyena.standing
    assert hyena.square == game.state.board.parse_label("b3")


def test_resolving_a_challenge_when_the_challenger_loses_nothing_happens() -> None:
    """Resolving a Challenge: "When you challenge and lose, nothing happens." (a tie is a loss)"""
    game = position({"priestess": "b2"}, {"hyena-warrior": "b3"})
    before = game.state.copy()
    game.play("choose:priestess")
    game.play("challenge:hyena-warrior")
    game.play("roll:lose")
    assert game.state.pieces["hyena-warrior"].standing
    assert game.state.pieces["priestess"].standing
    assert game.state.sides["light"].key() == before.sides["light"].key()


def test_knocked_out_a_knocked_down_character_that_loses_goes_on_the_1_of_its_track() -> None:
    """Knocked Out: "Remove the character from the map and place the character on the 1 of
    their player's cooldown track." In the first game that wins."""
    game = position(
        {"priestess": "b2"},
        {"hyena-warrior": "b3", "villager": "f6"},
        knocked_down=["hyena-warrior"],
    )
    game.play("choose:priestess")
    game.play("challenge:hyena-warrior")
    game.play("roll:win")
    hyena = game.state.pieces["hyena-warrior"]
    assert hyena.square is None
    assert game.state.sides["light"].track_position(("character", "hyena-warrior")) == 1
    assert game.winner == "dark"  # Winning Your First Game: one rival knocked out
    assert engine.legal_choices(game.state) == []


def test_a_knocked_down_rival_can_be_challenged() -> None:
    game = position({"priestess": "b2"}, {"hyena-warrior": "c3"}, knocked_down=["hyena-warrior"])
    game.play("choose:priestess")
    assert "challenge:hyena-warrior" in engine.legal_choices(game.state)


def test_you_cannot_challenge_an_ally() -> None:
    """Challenges: "You cannot challenge an ally." """
    game = position({"priestess": "b2", "mad-scientist": "b3"}, {"hyena-warrior": "f6"})
    game.play("choose:priestess")
    assert "challenge:mad-scientist" not in engine.legal_choices(game.state)
    with pytest.raises(IllegalChoice, match="cannot challenge an ally"):
        game.play("challenge:mad-scientist")


def test_no_challenge_action_without_a_possible_target() -> None:
    """Challenge Actions: "If there is no possible target, you cannot do a challenge action." """
    game = position({"priestess": "a1"}, {"hyena-warrior": "f6"})
    game.play("choose:priestess")
    assert not any(c.startswith("challenge:") for c in engine.legal_choices(game.state))
    with pytest.raises(IllegalChoice, match="not adjacent"):
        game.play("challenge:hyena-warrior")


def test_a_basic_challenge_needs_an_adjacent_target_beside_or_diagonal() -> None:
    game = position({"priestess": "b2"}, {"hyena-warrior": "c3", "villager": "d2"})
    game.play("choose:priestess")
    menu = engine.legal_choices(game.state)
    assert "challenge:hyena-warrior" in menu  # diagonal
    assert "challenge:villager" not in menu  # two squares away


def test_a_wall_between_them_means_not_adjacent_so_no_basic_challenge() -> None:
    """Obstructions and Adjacency: a square behind a wall is not adjacent."""
    from positions import board

    b = board(walls=[("b2", "b3")])
    game = position({"priestess": "b2"}, {"hyena-warrior": "b3"}, b=b)
    game.play("choose:priestess")
    assert "challenge:hyena-warrior" not in engine.legal_choices(game.state)


def _two_challenges() -> CharacterCard:
    twice = Ability(
        id="twin-strike",
        name="Twin Strike",
        color=TokenColor.RED,
        cost=3,
        challenge_action=True,
        steps=(step("challenge", dice=3), step("challenge", dice=2)),
        text="Challenge 3. Challenge 2.",
    )
    return CharacterCard("tester", "Tester", "test", 2, dots=(TokenColor.RED,), abilities=(twice,))


def test_multiple_challenges_are_declared_and_resolved_one_at_a_time() -> None:
    """Multiple Challenges: "Declare and resolve each challenge one at a time. Make separate
    challenge rolls for each target ... or a single target more than once." """
    game = position(
        {"tester": "b2"},
        {"hyena-warrior": "b3", "villager": "c3"},
        cards={"tester": _two_challenges()},
    )
    game.play("choose:tester")
    game.play("ability:twin-strike")
    assert engine.legal_choices(game.state) == ["target:hyena-warrior", "target:villager"]
    game.play("target:hyena-warrior")
    roll = game.state.stack[-1]
    assert isinstance(roll, RollFrame) and len(roll.attack) == 3
    game.play("roll:win")
    # the first is resolved before the second is declared; the same target may be chosen again
    assert not game.state.pieces["hyena-warrior"].standing
    assert engine.legal_choices(game.state) == ["target:hyena-warrior", "target:villager"]
    game.play("target:hyena-warrior")
    roll = game.state.stack[-1]
    assert isinstance(roll, RollFrame) and len(roll.attack) == 2
    game.play("roll:win")
    assert game.state.pieces["hyena-warrior"].square is None


def test_a_token_or_minion_that_loses_a_challenge_is_removed() -> None:
    """Challenging a Token or Minion Token or Marker: "Tokens are never knocked down or knocked
    out. Instead, remove the token from the map when it loses a challenge." """
    game = position({"priestess": "b2"}, {"hyena-warrior": "f6"})
    with editing(game) as state:
        for pid, kind in (("minion", Kind.MINION), ("rubble", Kind.TOKEN)):
            state.pieces[pid] = Piece(
                pid,
                kind,
                "light",
                None,
                state.board.parse_label("c3" if pid == "minion" else "b3"),
                True,
                False,
                1,
            )
    game.play("choose:priestess")
    assert {"challenge:minion", "challenge:rubble"} <= set(engine.legal_choices(game.state))
    game.play("challenge:minion")
    game.play("roll:win")
    assert game.state.pieces["minion"].square is None
    game.play("challenge:rubble")
    game.play("roll:win")
    assert game.state.pieces["rubble"].square is None
    assert game.winner is None  # tokens award no points and no win

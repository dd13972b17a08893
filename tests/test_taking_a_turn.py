"""Playing the Game: Taking a Turn, steps 1-5, each as the rulebook states it."""

from __future__ import annotations

import pytest

from funkoverse.rules.core.errors import IllegalChoice
from funkoverse.rules.core.state import Phase
from funkoverse.rules.play import engine
from positions import position


def test_step1_choose_a_character_without_an_exhausted_marker() -> None:
    """Step 1: "Choose one of your characters without an exhausted marker." No characters
    have exhausted markers at the start of the round."""
    game = position({"priestess": "a1", "mad-scientist": "b1"}, {"hyena-warrior": "f6"})
    assert game.decider == "dark"
    assert engine.legal_choices(game.state) == ["choose:priestess", "choose:mad-scientist"]
    game.play("choose:priestess")
    game.play("end")
    game.play("choose:hyena-warrior")
    game.play("end")
    # Priestess now has an exhausted marker: only Mad Scientist can be chosen.
    assert engine.legal_choices(game.state) == ["choose:mad-scientist"]
    with pytest.raises(IllegalChoice, match="exhausted marker"):
        game.play("choose:priestess")


def test_step2_do_up_to_two_actions_and_the_same_action_twice() -> None:
    """Step 2: "Do up to two actions ... a character may do the same action twice."""
    game = position({"priestess": "a1"}, {"hyena-warrior": "f6"})
    game.play("choose:priestess")
    game.play("move:c1")
    assert game.state.actions_left == 1
    assert "move:e1" in engine.legal_choices(game.state)  # the same action again
    game.play("move:e1")
    # Two actions done: the character is exhausted and the other side takes its turn.
    assert game.state.pieces["priestess"].exhausted
    assert game.decider == "light"
    assert game.state.phase is Phase.CHOOSE


def test_step2_up_to_two_actions_means_the_turn_may_end_early() -> None:
    game = position({"priestess": "a1"}, {"hyena-warrior": "f6"})
    game.play("choose:priestess")
    game.play("move:b2")
    assert "end" in engine.legal_choices(game.state)
    game.play("end")
    assert game.state.pieces["priestess"].exhausted
    assert game.decider == "light"


def test_basic_actions_are_move_challenge_assist_interact() -> None:
    """Basic actions: move up to 2 squares, basic challenge an adjacent rival, assist an
    adjacent knocked-down ally; interact only where a scenario gives something to interact with."""
    game = position(
        {"priestess": "b2", "mad-scientist": "c2"},
        {"hyena-warrior": "b3"},
        knocked_down=["mad-scientist"],
    )
    game.play("choose:priestess")
    menu = engine.legal_choices(game.state)
    assert "challenge:hyena-warrior" in menu
    assert "assist:mad-scientist" in menu
    assert "move:d4" in menu  # two squares diagonally
    assert "move:e2" not in menu  # three squares away (Basic Moves: up to 2)
    assert not any(c.startswith("interact:") for c in menu)
    assert not any(c.startswith("ability:") for c in menu)  # basic characters have none


def test_assist_stands_up_an_adjacent_knocked_down_ally() -> None:
    """Assist: "Stand up an adjacent ally that has been knocked down." """
    game = position(
        {"priestess": "b2", "mad-scientist": "c3"},
        {"hyena-warrior": "f6"},
        knocked_down=["mad-scientist"],
    )
    game.play("choose:priestess")
    game.play("assist:mad-scientist")
    assert game.state.pieces["mad-scientist"].standing


def test_assist_needs_an_adjacent_ally() -> None:
    game = position(
        {"priestess": "a1", "mad-scientist": "d4"},
        {"hyena-warrior": "f6"},
        knocked_down=["mad-scientist"],
    )
    game.play("choose:priestess")
    assert "assist:mad-scientist" not in engine.legal_choices(game.state)
    with pytest.raises(IllegalChoice, match="not adjacent"):
        game.play("assist:mad-scientist")


def test_step3_rally_a_knocked_down_character_can_only_rally() -> None:
    """Step 3: "If the character you've chosen to act is knocked down, they cannot do the
    actions above. Instead, the character can stand up by using both of their actions." """
    game = position({"priestess": "b2"}, {"hyena-warrior": "b3"}, knocked_down=["priestess"])
    game.play("choose:priestess")
    assert engine.legal_choices(game.state) == ["rally", "end"]
    with pytest.raises(IllegalChoice, match="knocked down"):
        game.play("challenge:hyena-warrior")
    game.play("rally")
    priestess = game.state.pieces["priestess"]
    assert priestess.standing
    assert priestess.exhausted  # rally used both actions
    assert game.decider == "light"


def test_step4_exhaust_your_character_then_it_is_the_other_players_turn() -> None:
    """Step 4: "This character cannot take another turn this round. Once you exhaust a
    character, it's the other player's turn." """
    game = position(
        {"priestess": "a1", "mad-scientist": "b1"}, {"hyena-warrior": "f6", "villager": "e6"}
    )
    game.play("choose:priestess")
    game.play("end")
    assert game.state.pieces["priestess"].exhausted
    assert game.decider == "light"


def test_step5_next_player_takes_a_turn_beginning_with_choose_a_character() -> None:
    game = position(
        {"priestess": "a1", "mad-scientist": "b1"}, {"hyena-warrior": "f6", "villager": "e6"}
    )
    game.play("choose:priestess")
    game.play("end")
    assert engine.legal_choices(game.state) == ["choose:hyena-warrior", "choose:villager"]


def test_a_side_with_all_characters_exhausted_passes_while_the_other_finishes() -> None:
    """Ending a Round: the round ends "when both players have exhausted all their characters":
    a side with no character left to choose passes until then."""
    game = position({"priestess": "a1"}, {"hyena-warrior": "f6", "villager": "e6"})
    game.play("choose:priestess")
    game.play("end")
    game.play("choose:hyena-warrior")
    game.play("end")
    assert game.decider == "light"  # dark has no character left this round
    assert engine.legal_choices(game.state) == ["choose:villager"]


def test_knocked_out_character_may_be_chosen_does_nothing_and_is_exhausted() -> None:
    """Knocked Out: "A character that has been knocked out and is on the cooldown track can
    still be chosen to take a turn and become exhausted; however, they may not do any actions." """
    game = position({"priestess": "a1", "mad-scientist": ""}, {"hyena-warrior": "f6"})
    assert "choose:mad-scientist" in engine.legal_choices(game.state)
    game.play("choose:mad-scientist")
    assert game.state.pieces["mad-scientist"].exhausted
    assert game.state.pieces["mad-scientist"].square is None
    assert game.decider == "light"


def test_doing_a_move_cannot_pass_through_standing_rivals() -> None:
    """Doing a Move: "you cannot move through standing rivals or obstructions"."""
    b_game = position(
        {"priestess": "a1"}, {"hyena-warrior": "b1", "villager": "a2", "mad-scientist": "b2"}
    )
    b_game.play("choose:priestess")
    moves = [c for c in engine.legal_choices(b_game.state) if c.startswith("move:")]
    assert moves == ["move:a1"]  # boxed in by standing rivals: only moving 0 squares remains


def test_moving_zero_squares_is_a_move() -> None:
    """FAQ: "you may always move less than the printed distance, to a minimum of zero"."""
    game = position({"priestess": "c3"}, {"hyena-warrior": "f6"})
    game.play("choose:priestess")
    game.play("move:c3")
    assert game.state.actions_left == 1
    assert game.state.pieces["priestess"].square == game.state.board.parse_label("c3")

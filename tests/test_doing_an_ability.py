"""Doing an Ability: the mechanism every card uses (the cards themselves come as content)."""

from __future__ import annotations

import pytest

from funkoverse.rules.core.cards import Ability, CharacterCard, TokenColor, step
from funkoverse.rules.core.errors import IllegalChoice
from funkoverse.rules.play import engine
from positions import editing, position


def _card(*abilities: Ability, dots: tuple[TokenColor, ...] = (TokenColor.RED,)) -> CharacterCard:
    return CharacterCard("tester", "Tester", "test", 2, dots=dots, abilities=abilities)


CHARGE = Ability(
    "charge",
    "Charge",
    TokenColor.RED,
    3,
    True,
    (step("move", squares=2), step("challenge", dice=3)),
    "Move 2. Challenge 3.",
)
DASH = Ability("dash", "Dash", TokenColor.BLUE, 2, False, (step("move", squares=3),), "Move 3.")
GET_UP = Ability(
    "get-up",
    "Get Up",
    TokenColor.RED,
    1,
    False,
    (step("stand_up"), step("move", squares=1)),
    "Stand up. Move 1.",
    while_knocked_down=True,
)


def test_step2_spend_a_token_of_the_type_onto_the_track_at_the_cost() -> None:
    """Doing an Ability, step 2: "Spend an ability token of the appropriate type from your pool
    ... placing it on your cooldown track on the number shown in the ability's icon." """
    game = position({"tester": "b2"}, {"hyena-warrior": "d4"}, cards={"tester": _card(CHARGE)})
    assert game.state.sides["dark"].pool[TokenColor.RED] == 1  # Setup: one token a dot
    game.play("choose:tester")
    game.play("ability:charge")
    dark = game.state.sides["dark"]
    assert dark.pool[TokenColor.RED] == 0
    assert dark.track_position(("token", "red")) == 3


def test_no_token_of_the_type_no_ability() -> None:
    """ "If you do not have the appropriate ability token available in your pool, you cannot use
    the ability." """
    game = position({"tester": "b2"}, {"hyena-warrior": "f6"}, cards={"tester": _card(DASH)})
    game.play("choose:tester")
    assert "ability:dash" not in engine.legal_choices(game.state)
    with pytest.raises(IllegalChoice, match="no blue token"):
        game.play("ability:dash")


def test_step3_follow_the_rules_of_the_ability_in_order() -> None:
    game = position({"tester": "a1"}, {"hyena-warrior": "d4"}, cards={"tester": _card(CHARGE)})
    game.play("choose:tester")
    game.play("ability:charge")
    assert all(c.startswith("move:") for c in engine.legal_choices(game.state))
    game.play("move:c3")
    assert engine.legal_choices(game.state) == ["target:hyena-warrior"]
    game.play("target:hyena-warrior")
    assert game.decider == "chance"


def test_a_part_that_cannot_be_done_ends_the_ability() -> None:
    """Abilities: "If the ability contains a part that cannot be done, the ability ends and the
    remaining rules for the ability are ignored." """
    game = position({"tester": "a1"}, {"hyena-warrior": "d4"}, cards={"tester": _card(CHARGE)})
    game.play("choose:tester")
    game.play("ability:charge")
    game.play("move:a1")  # stays out of reach: the challenge cannot be done
    assert game.state.stack == []
    assert game.state.actions_left == 1


def test_a_challenge_action_needs_a_possible_target() -> None:
    """Abilities That Are Challenge Actions: no possible target, no challenge action."""
    game = position({"tester": "a1"}, {"hyena-warrior": ""}, cards={"tester": _card(CHARGE)})
    game.play("choose:tester")
    assert "ability:charge" not in engine.legal_choices(game.state)


def test_an_ability_usable_while_knocked_down_is_offered_to_a_knocked_down_character() -> None:
    game = position(
        {"tester": "b2"},
        {"hyena-warrior": "f6"},
        knocked_down=["tester"],
        cards={"tester": _card(GET_UP)},
    )
    game.play("choose:tester")
    assert engine.legal_choices(game.state) == ["rally", "ability:get-up", "end"]
    game.play("ability:get-up")
    assert game.state.pieces["tester"].standing


def test_an_ability_ends_when_its_character_is_knocked_down_in_the_middle_of_it() -> None:
    """FAQ (Timing): "What happens if a character is knocked down in the middle of an action?
    If it is in the middle of an ability, it stops the ability." """
    game = position({"tester": "a1"}, {"hyena-warrior": "d4"}, cards={"tester": _card(CHARGE)})
    game.play("choose:tester")
    game.play("ability:charge")
    with editing(game) as s:
        s.pieces["tester"].standing = False  # as if a rival's trait knocked it down
    game.play("move:a1")
    assert game.state.stack == []

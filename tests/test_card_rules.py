"""The general rules every card follows: Abilities, Abilities & Traits, Traits, Items, Status
Cards, Tokens, the F.A.Q. on timing and modifiers, and the setup rules for attachments."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from funkoverse.content.setups import make_setup, team
from funkoverse.errors import UserError
from funkoverse.rules.core.cards import Ability, CharacterCard, StatusCard, TokenColor, step
from funkoverse.rules.core.frames import RollFrame
from funkoverse.rules.core.hooks import Hook, Modifier, modified
from funkoverse.rules.core.scenario import Scenario
from funkoverse.rules.core.state import GameState, Piece
from funkoverse.rules.game import Game
from funkoverse.rules.play import engine
from funkoverse.rules.play.engine import new_game_at
from positions import board, card, editing, handed, position, setup

# --------------------------------------------------------------------------- small test cards

CHARGE = Ability(
    "charge",
    "Charge",
    TokenColor.RED,
    3,
    True,
    (step("challenge", dice=2), step("move", squares=3)),
    "Challenge 2. Move 3.",
)
RUSH = Ability(
    "rush",
    "Rush",
    TokenColor.RED,
    1,
    False,
    (step("move", squares=1), step("move", squares=1)),
    "Move 1. Move 1.",
)


class CostUp(Hook):
    """A test trait: "This character's abilities cost 3 more." """

    name = "test-cost-up"

    def cost(self, state: GameState, owner: Piece, ability: Ability, target: Piece | None) -> int:
        return 3


class CostDown(Hook):
    """A test trait: "This character's abilities cost 2 less." """

    name = "test-cost-down"

    def cost(self, state: GameState, owner: Piece, ability: Ability, target: Piece | None) -> int:
        return -2


class Bolster(Hook):
    """A test trait or status card: "Your other characters have +1 defense." """

    name = "test-bolster"

    def defense(self, state: GameState, owner: Piece, piece: Piece) -> Sequence[Modifier]:
        if piece.side == owner.side and piece.id != owner.id:
            return (Modifier("add", 1),)
        return ()


class Weaken(Hook):
    """A test status card: "This character has -2 defense." """

    name = "test-weaken"

    def defense(self, state: GameState, owner: Piece, piece: Piece) -> Sequence[Modifier]:
        return (Modifier("subtract", 2),) if piece.id == owner.id else ()


def _tester(*abilities: Ability, hooks: tuple[Hook, ...] = ()) -> CharacterCard:
    return CharacterCard(
        "tester", "Tester", "test", 2, dots=(TokenColor.RED,), abilities=abilities, hooks=hooks
    )


def _roll(game: Game) -> RollFrame:
    top = game.state.stack[-1]
    assert isinstance(top, RollFrame)
    return top


# --------------------------------------------------------------------------- Abilities


def test_costs_are_paid_before_the_abilitys_effects() -> None:
    """F.A.Q.: "Costs are paid as soon as the ability action is taken, before the ability rules
    take effect. Ability tokens used to pay for abilities go on the cooldown track before the
    ability effect takes place." """
    game = position({"wonder-woman": "a1"}, {"hyena-warrior": "d3"})
    game.play("choose:wonder-woman")
    game.play("ability:fight-for-justice")
    assert engine.legal_choices(game.state)[0].startswith("move:")  # nothing done yet
    assert game.state.sides["dark"].track_position(("token", "red")) == 3
    assert game.state.sides["dark"].pool[TokenColor.RED] == 0


def test_the_token_paid_is_already_on_the_track_for_the_abilitys_own_effects() -> None:
    """So the fourth Bride status card of She's Alive! can shift the token that paid for it."""
    game = position({"the-bride": "b2"}, {"villager": "b3"})
    with editing(game) as s:
        s.pieces["the-bride"].statuses = ("she-hears", "she-sees", "she-walks")
    game.play("choose:the-bride")
    game.play("ability:shes-alive")
    game.play("target:villager")
    game.play("roll:win")
    game.play("status:she-breathes")
    assert "shiftoff:red:2" in engine.legal_choices(game.state)


def test_a_part_that_cannot_be_done_ends_the_ability() -> None:
    """Abilities & Traits: "If the ability contains a part that cannot be done, the ability ends
    and the remaining rules for the ability are ignored." Reign of Terror with no rival
    adjacent after its move: the push cannot be done."""
    game = position({"invisible-man": "a1"}, {"villager": "e5"})
    game.play("choose:invisible-man")
    game.play("ability:reign-of-terror")
    game.play("move:a2")
    assert game.state.stack == []
    assert game.state.actions_left == 1
    assert game.state.sides["dark"].track_position(("token", "gray")) == 2  # still paid


def test_a_part_that_cannot_be_done_ends_it_even_when_a_later_part_could_be_done() -> None:
    """Grave Robbing: no interact, so no status card, and no Move 1 either."""
    game = position({"the-bride": "b2"}, {"villager": "f6"})
    game.play("choose:the-bride")
    game.play("ability:grave-robbing")
    assert game.state.pieces["the-bride"].square == game.state.board.parse_label("b2")
    assert game.state.stack == []


def test_knocked_down_in_the_middle_of_an_ability_stops_it() -> None:
    """F.A.Q. (Timing): "If it is in the middle of an ability, it stops the ability." """
    game = position({"tester": "b2"}, {"villager": "f6"}, cards={"tester": _tester(RUSH)})
    game.play("choose:tester")
    game.play("ability:rush")
    game.play("move:b3")
    assert engine.legal_choices(game.state)[0].startswith("move:")
    with editing(game) as s:
        s.pieces["tester"].standing = False  # as if a rival's trait knocked it down
    game.play("move:b3")
    assert game.state.stack == []


@pytest.mark.python_only("a card of the test's own whose behaviour is a Python hook")
def test_an_increased_cost_above_4_goes_on_the_4() -> None:
    """Increasing an Ability Cost: "If the cost is increased above 4, place the token on the 4
    instead." Cost 3 + 3 = 6: on the 4."""
    tester = _tester(CHARGE, hooks=(CostUp(),))
    game = position({"tester": "b2"}, {"villager": "b3"}, cards={"tester": tester})
    game.play("choose:tester")
    game.play("ability:charge")
    assert game.state.sides["dark"].track_position(("token", "red")) == 4


@pytest.mark.python_only("a card of the test's own whose behaviour is a Python hook")
def test_a_cost_decreased_below_1_needs_no_token() -> None:
    """Decreasing an Ability Cost: "If the cost is decreased below 1, an ability token is no
    longer required to use the ability." Cost 1 - 2: usable with an empty pool, nothing on the
    track."""
    tester = _tester(RUSH, hooks=(CostDown(),))
    game = position({"tester": "b2"}, {"villager": "f6"}, cards={"tester": tester})
    with editing(game) as s:
        s.sides["dark"].pool[TokenColor.RED] = 0
    game.play("choose:tester")
    assert "ability:rush" in engine.legal_choices(game.state)
    game.play("ability:rush")
    assert all(slot == [] for slot in game.state.sides["dark"].track)
    assert game.state.sides["dark"].pool[TokenColor.RED] == 0


def test_a_decreased_cost_goes_on_the_new_number() -> None:
    """Exsanguinate: 4 - 2 = 2 against a knocked-down character."""
    game = position({"dracula": "b2"}, {"villager": "b3"}, knocked_down=["villager"])
    game.play("choose:dracula")
    game.play("ability:exsanguinate:villager")
    assert game.state.sides["dark"].track_position(("token", "red")) == 2


def test_no_token_of_the_type_no_ability() -> None:
    """ "If you do not have the appropriate ability token available in your pool, you cannot use
    the ability." """
    game = position({"wonder-woman": "b2"}, {"hyena-warrior": "b3"})
    with editing(game) as s:
        s.sides["dark"].pool[TokenColor.YELLOW] = 0
    game.play("choose:wonder-woman")
    menu = engine.legal_choices(game.state)
    assert "ability:divine-resolve" not in menu and "ability:inspire-courage" not in menu
    assert "ability:fight-for-justice" in menu


# --------------------------------------------------------------------------- "you may", timing


def test_you_may_choices_belong_to_the_cards_owner_in_the_opponents_turn() -> None:
    """Predatory Senses and Champion of Themyscira are "you may"s of the card's owner: the
    owner decides even in the rival's turn."""
    game = position(
        {"the-cheetah": "b2", "wonder-woman": "e2"},
        {"hyena-warrior": "d4", "villager": "e3"},
        knocked_down=["hyena-warrior"],
        first="light",
    )
    game.play("choose:villager")
    game.play("challenge:wonder-woman")
    assert game.state.to_act == "light" and game.decider == "dark"
    assert engine.legal_choices(game.state) == ["champion:add", "skip"]
    game.play("skip")
    game.play("roll:lose")
    assert game.decider == "light"
    game.play("assist:hyena-warrior")  # a rival stands up: Predatory Senses
    assert game.state.to_act == "light" and game.decider == "dark"
    assert "skip" in engine.legal_choices(game.state)
    game.play("move:c3")
    assert game.state.pieces["the-cheetah"].square == game.state.board.parse_label("c3")


def _two_wonder_women(first: str) -> Game:
    """Each side has a Wonder Woman (same name: rivals, never allies)."""
    b = board()
    s = setup(
        b, [card("wonder-woman"), card("priestess")], [card("wonder-woman"), card("hyena-warrior")]
    )
    at = {
        "wonder-woman-dark": "a2",
        "priestess": "b2",
        "hyena-warrior": "b3",
        "wonder-woman-light": "a4",
    }
    state = new_game_at(s, {pid: b.parse_label(sq) for pid, sq in at.items()}, first)
    return handed(state)


def test_simultaneous_effects_happen_in_turn_order_current_player_first() -> None:
    """F.A.Q. (Timing): "If the effects are caused by different players, the effects happen in
    turn order, beginning with the player that is taking the current turn." Both Wonder Women
    may add their Champion die to the same challenge: dark's turn, dark decides first."""
    game = _two_wonder_women("dark")
    game.play("choose:priestess")
    game.play("challenge:hyena-warrior")
    assert game.decider == "dark"
    game.play("champion:add")
    assert game.decider == "light"
    game.play("champion:add")
    roll = _roll(game)
    assert roll.attack == ("standard", "standard", "champion")
    assert roll.defense == ("standard", "standard", "champion")
    assert game.state.sides["dark"].track_position(("die", "champion")) == 2
    assert game.state.sides["light"].track_position(("die", "champion")) == 2


def test_simultaneous_effects_in_the_other_players_turn_start_with_that_player() -> None:
    game = _two_wonder_women("light")
    game.play("choose:hyena-warrior")
    game.play("challenge:priestess")
    assert game.decider == "light"
    game.play("skip")
    assert game.decider == "dark"


def test_value_modifiers_add_then_subtract_not_below_0_then_set() -> None:
    """F.A.Q. (Timing): "First apply all modifiers that add to the value. Then apply all
    modifiers that subtract from the value, if it reduce the value less than 0 set to 0.
    Finally apply any effects that set the value." """
    add, sub = Modifier("add", 1), Modifier("subtract", 3)
    assert modified(1, [sub, add]) == 0  # (1 + 1) - 3 -> 0; subtracting first would give 1
    assert modified(1, [add, sub]) == 0
    assert modified(5, [Modifier("subtract", 2)]) == 3
    assert modified(2, [Modifier("set", 1), Modifier("add", 3)]) == 1  # set comes last
    assert modified(0, [Modifier("subtract", 1), Modifier("add", 2)]) == 1  # add before subtract


@pytest.mark.python_only("a card of the test's own whose behaviour is a Python hook")
def test_defense_modifiers_in_play_follow_that_order() -> None:
    """Dracula (defense 1, +1 with the Blood token) given a -2 status: 1 + 1 - 2 = 0 dice."""
    game = position({"villager": "b2"}, {"dracula": "b3"})
    weaken = StatusCard("test-weaken", "Weaken", "test", hooks=(Weaken(),))
    with editing(game) as s:
        s.setup.statuses["test-weaken"] = weaken  # type: ignore[index]
        s.pieces["dracula"].statuses = ("test-weaken",)
        s.sides["light"].track[2].append(("component", "blood"))
    assert engine.defense_of(game.state, game.state.pieces["dracula"]) == 0
    with editing(game) as s:
        s.sides["light"].track[2].clear()
    assert engine.defense_of(game.state, game.state.pieces["dracula"]) == 0  # 1 - 2: not below 0


# --------------------------------------------------------------------------- Traits


@pytest.mark.python_only("a card of the test's own whose behaviour is a Python hook")
def test_traits_work_while_knocked_down_or_knocked_out() -> None:
    """Traits: "Unless the trait says otherwise, its rules also work when a character is
    knocked down or knocked out." A test trait "your other characters have +1 defense" works
    with its character on the map, knocked down, and on the cooldown track."""
    bolster = CharacterCard("tester", "Tester", "test", 2, hooks=(Bolster(),))
    game = position(
        {"tester": "a1", "villager": "b2"}, {"hyena-warrior": "f6"}, cards={"tester": bolster}
    )
    assert engine.defense_of(game.state, game.state.pieces["villager"]) == 3
    with editing(game) as s:
        s.pieces["tester"].standing = False
    assert engine.defense_of(game.state, game.state.pieces["villager"]) == 3
    with editing(game) as s:
        s.pieces["tester"].square = None
        s.sides["dark"].track[0].append(("character", "tester"))
    assert engine.defense_of(game.state, game.state.pieces["villager"]) == 3


def test_a_trait_that_says_otherwise_while_standing() -> None:
    """Predatory Senses says "While standing": knocked down, it does nothing."""
    game = position(
        {"the-cheetah": "b2"},
        {"hyena-warrior": "d4"},
        knocked_down=["hyena-warrior", "the-cheetah"],
        first="light",
    )
    game.play("choose:hyena-warrior")
    game.play("rally")
    assert game.state.stack == []


# --------------------------------------------------------------------------- Tokens, status cards


def test_tokens_stay_when_the_character_that_placed_them_is_knocked_out() -> None:
    """FAQ (Tokens): "Tokens stay in play even if the character that placed them is knocked
    out, and work as usual even if that character is on the cooldown track." """
    game = position(
        {"the-creature": "b2", "dracula": "f1"},
        {"villager": "b3"},
        knocked_down=["the-creature"],
        tokens={"tunnel-dark-1": "c4"},
        first="light",
        scenario=Scenario(),
    )
    game.play("choose:villager")
    game.play("challenge:the-creature")
    game.play("roll:win")
    assert game.state.pieces["the-creature"].square is None
    assert game.state.pieces["tunnel-dark-1"].square == game.state.board.parse_label("c4")
    assert "interact:tunnel-dark-1" in engine.legal_choices(game.state)


def test_status_cards_are_kept_when_knocked_out() -> None:
    """Status Cards: "When a character gets knocked out, the character keeps its status
    cards." """
    game = position(
        {"the-bride": "b2", "invisible-man": "f1"},
        {"villager": "b3"},
        knocked_down=["the-bride"],
        first="light",
        scenario=Scenario(),
    )
    with editing(game) as s:
        s.pieces["the-bride"].statuses = ("she-hears", "she-walks")
    game.play("choose:villager")
    game.play("challenge:the-bride")
    game.play("roll:win")
    assert game.state.pieces["the-bride"].square is None
    assert game.state.pieces["the-bride"].statuses == ("she-hears", "she-walks")


@pytest.mark.python_only("a card of the test's own whose behaviour is a Python hook")
def test_the_same_status_card_twice_stacks() -> None:
    """Status Cards: "A character can have more than one of the same status card, and they
    stack." FAQ (Tokens): "the effects are added together." """
    game = position({"villager": "b2", "mad-scientist": "c2"}, {"hyena-warrior": "f6"})
    bolster = StatusCard("test-bolster", "Bolster", "test", hooks=(Bolster(),))
    with editing(game) as s:
        s.setup.statuses["test-bolster"] = bolster  # type: ignore[index]
        s.pieces["mad-scientist"].statuses = ("test-bolster",)
    assert engine.defense_of(game.state, game.state.pieces["villager"]) == 3
    with editing(game) as s:
        s.pieces["mad-scientist"].statuses = ("test-bolster", "test-bolster")
    assert engine.defense_of(game.state, game.state.pieces["villager"]) == 4


def test_a_status_card_in_play_cannot_be_given_again() -> None:
    """Status Cards: "If a status card is in play, it cannot be given to a character until it
    has been discarded." She's Alive! with every Bride card already given gives none."""
    game = position({"the-bride": "b2"}, {"villager": "b3"})
    with editing(game) as s:
        s.pieces["the-bride"].statuses = ("she-hears", "she-sees", "she-walks", "she-breathes")
    game.play("choose:the-bride")
    game.play("ability:shes-alive")
    game.play("target:villager")
    game.play("roll:win")
    assert game.state.stack == []
    assert len(game.state.pieces["the-bride"].statuses) == 4


# --------------------------------------------------------------------------- Items


def test_items_return_from_the_track_to_their_holder_and_cannot_be_used_on_it() -> None:
    """Items: "While an item card is on the cooldown track, the item cannot be used. When a round
    ends, shift all item cards down the cooldown track. When an item card shifts off the 1, it
    returns to the character holding the item and may be used again." """
    game = position(
        {"the-bride": "b2"},
        {"villager": "b3"},
        items={"dark": [("shovel", "the-bride")]},
        scenario=Scenario(),
    )
    with editing(game) as s:
        s.sides["dark"].track[0].append(("item", "shovel"))
    game.play("choose:the-bride")
    assert "item:shovel" not in engine.legal_choices(game.state)
    game.play("end")
    game.play("choose:villager")
    game.play("end")  # the round ends: the Shovel shifts off the 1
    assert game.state.sides["dark"].track_position(("item", "shovel")) is None
    assert game.state.pieces["the-bride"].items == ("shovel",)
    game.play("choose:villager")
    game.play("end")
    game.play("choose:the-bride")
    assert "item:shovel" in engine.legal_choices(game.state)


def test_basic_characters_cannot_hold_items() -> None:
    """Items: "Basic characters cannot be given items." The setup is refused."""
    with pytest.raises(UserError, match="Villager is a basic character"):
        team("light", ["the-bride", "villager"], {"villager": "fishing-net"})


def test_characters_with_the_same_name_cannot_be_allies() -> None:
    """Mixing Games: "characters with the same name cannot be allies. (Dracula cannot ally with
    another Dracula.)" """
    with pytest.raises(UserError, match="same name cannot be allies"):
        team("dark", ["dracula", "dracula", "villager"])


def test_both_sides_must_have_the_same_number_of_items() -> None:
    """Attachments: "Each team must have the same number of attachments in order to play with
    attachments." """
    dark = team("dark", ["dracula", "the-bride", "villager"], {"dracula": "shovel"})
    light = team("light", ["wonder-woman", "the-cheetah", "priestess"])
    with pytest.raises(UserError, match="same number of items"):
        make_setup((dark, light), "draculas-castle")
    light = team(
        "light", ["wonder-woman", "the-cheetah", "priestess"], {"the-cheetah": "fishing-net"}
    )
    assert make_setup((dark, light), "draculas-castle").teams[1].items == (
        ("fishing-net", "the-cheetah"),
    )


def _rival_twins(cid: str, at_dark: str, at_light: str) -> Game:
    """Mixing Games: same-name characters cannot be allies, but may be rivals."""
    b = board()
    s = setup(b, [card(cid), card("villager")], [card(cid), card("mad-scientist")])
    at = {f"{cid}-dark": at_dark, f"{cid}-light": at_light, "villager": "a1", "mad-scientist": "f1"}
    state = new_game_at(s, {pid: b.parse_label(sq) for pid, sq in at.items()}, "dark")
    return handed(state)


def test_rivals_with_the_same_character_each_have_their_own_status_cards() -> None:
    """Ruling (docs/rulings.md, Cards): each side plays its own copy of the status cards that
    come with its character. The rival Invisible Man having Sneaking does not stop this one
    from getting it."""
    game = _rival_twins("invisible-man", "b3", "e5")
    with editing(game) as s:
        s.pieces["invisible-man-light"].statuses = ("sneaking",)
    game.play("choose:invisible-man-dark")
    game.play("ability:sneaking")
    game.play("move:b4")
    assert game.state.pieces["invisible-man-dark"].statuses == ("sneaking",)
    assert game.state.pieces["invisible-man-light"].statuses == ("sneaking",)


def test_rival_brides_each_draw_from_their_own_four_cards() -> None:
    game = _rival_twins("the-bride", "c3", "c4")
    with editing(game) as s:
        s.pieces["the-bride-light"].statuses = ("she-hears", "she-sees", "she-walks")
    game.play("choose:the-bride-dark")
    game.play("ability:shes-alive")
    game.play("target:the-bride-light")
    game.play("roll:win")
    assert engine.legal_choices(game.state) == [
        "status:she-breathes",
        "status:she-hears",
        "status:she-sees",
        "status:she-walks",
    ]

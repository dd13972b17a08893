"""The Bride of Frankenstein (Universal Monsters 100, "Character Cards in This Game"): her
abilities, Made Me From Dead, and each Bride status card."""

from __future__ import annotations

from funkoverse.rules.core.cards import TokenColor
from funkoverse.rules.core.frames import RollFrame
from funkoverse.rules.core.scenario import Scenario
from funkoverse.rules.game import Game
from funkoverse.rules.play import engine
from positions import board, editing, position

POINTS = Scenario(point_markers=True)
BRIDE_CARDS = ["status:she-breathes", "status:she-hears", "status:she-sees", "status:she-walks"]


def _roll(game: Game) -> RollFrame:
    top = game.state.stack[-1]
    assert isinstance(top, RollFrame)
    return top


def _at(game: Game, pid: str) -> str:
    square = game.state.pieces[pid].square
    return "" if square is None else game.state.board.label(square)


# --------------------------------------------------------------------------- Grave Robbing


def test_grave_robbing_interacts_gives_a_bride_status_card_then_moves_1() -> None:
    """Grave Robbing (finesse 1): "Do an interact action. Give The Bride of Frankenstein a Bride
    status card. Move 1." """
    b = board(points={"A": "c3"})
    game = position({"the-bride": "b2"}, {"villager": "f6"}, b=b, scenario=POINTS)
    game.play("choose:the-bride")
    game.play("ability:grave-robbing")
    assert game.state.sides["dark"].track_position(("token", "blue")) == 1
    assert engine.legal_choices(game.state) == ["interact:point-A"]
    game.play("interact:point-A")
    assert game.state.sides["dark"].points == 1
    assert engine.legal_choices(game.state) == BRIDE_CARDS
    game.play("status:she-walks")
    assert game.state.pieces["the-bride"].statuses == ("she-walks",)
    menu = engine.legal_choices(game.state)
    assert "move:c2" in menu and "move:d2" not in menu
    game.play("move:c2")
    assert _at(game, "the-bride") == "c2"


def test_grave_robbing_with_nothing_to_interact_with_gives_no_card() -> None:
    """Abilities: a part that cannot be done ends the ability."""
    game = position({"the-bride": "b2"}, {"villager": "f6"})
    game.play("choose:the-bride")
    game.play("ability:grave-robbing")
    assert game.state.pieces["the-bride"].statuses == ()
    assert _at(game, "the-bride") == "b2"
    assert game.state.stack == []


def test_grave_robbing_only_offers_cards_not_in_play() -> None:
    """Status Cards: "If a status card is in play, it cannot be given to a character until it
    has been discarded." """
    b = board(points={"A": "c3"})
    game = position({"the-bride": "b2"}, {"villager": "f6"}, b=b, scenario=POINTS)
    with editing(game) as s:
        s.pieces["the-bride"].statuses = ("she-hears", "she-sees")
    game.play("choose:the-bride")
    game.play("ability:grave-robbing")
    game.play("interact:point-A")
    assert engine.legal_choices(game.state) == ["status:she-breathes", "status:she-walks"]


def test_grave_robbing_with_every_card_given_ends_before_the_move() -> None:
    b = board(points={"A": "c3"})
    game = position({"the-bride": "b2"}, {"villager": "f6"}, b=b, scenario=POINTS)
    with editing(game) as s:
        s.pieces["the-bride"].statuses = ("she-hears", "she-sees", "she-walks", "she-breathes")
    game.play("choose:the-bride")
    game.play("ability:grave-robbing")
    game.play("interact:point-A")
    assert game.state.stack == []
    assert _at(game, "the-bride") == "b2"


# --------------------------------------------------------------------------- She's Alive!


def test_shes_alive_challenge_3_and_if_you_win_a_bride_status_card() -> None:
    """She's Alive! (might 2): "Challenge 3. If you win give The Bride of Frankenstein a Bride
    status card." """
    game = position({"the-bride": "b2"}, {"villager": "b3"})
    game.play("choose:the-bride")
    game.play("ability:shes-alive")
    assert game.state.sides["dark"].track_position(("token", "red")) == 2
    game.play("target:villager")
    assert len(_roll(game).attack) == 3
    game.play("roll:win")
    assert not game.state.pieces["villager"].standing
    assert engine.legal_choices(game.state) == BRIDE_CARDS
    game.play("status:she-hears")
    assert game.state.pieces["the-bride"].statuses == ("she-hears",)


def test_shes_alive_no_card_if_you_lose() -> None:
    game = position({"the-bride": "b2"}, {"villager": "b3"})
    game.play("choose:the-bride")
    game.play("ability:shes-alive")
    game.play("target:villager")
    game.play("roll:lose")
    assert game.state.pieces["the-bride"].statuses == ()
    assert game.state.stack == []


# --------------------------------------------------------------------------- Made Me From Dead


def test_made_me_from_dead_without_cards_she_has_only_her_printed_abilities() -> None:
    """Made Me From Dead: "The Bride of Frankenstein gains the traits and abilities printed on
    Bride status cards she has been given." Before any is given, only her own two."""
    game = position({"the-bride": "b2"}, {"villager": "b3"})
    game.play("choose:the-bride")
    abilities = [c for c in engine.legal_choices(game.state) if c.startswith("ability:")]
    assert abilities == ["ability:grave-robbing", "ability:shes-alive"]
    with editing(game) as s:
        s.sides["dark"].pool[TokenColor.RED] = 1
    assert "ability:she-walks" not in engine.legal_choices(game.state)


def test_made_me_from_dead_abilities_of_given_cards_are_offered() -> None:
    game = position({"the-bride": "b2"}, {"villager": "b3"})
    with editing(game) as s:
        s.pieces["the-bride"].statuses = ("she-walks", "she-breathes")
    game.play("choose:the-bride")
    menu = engine.legal_choices(game.state)
    assert "ability:she-walks" in menu and "ability:she-breathes" in menu
    assert "ability:she-hears" not in menu


def test_made_me_from_dead_the_fourth_card_shifts_two_ability_tokens_off() -> None:
    """ "When the Bride of Frankenstein is given the fourth Bride status card, shift two ability
    tokens off your cooldown track." """
    game = position({"the-bride": "b2"}, {"villager": "b3"})
    with editing(game) as s:
        s.pieces["the-bride"].statuses = ("she-hears", "she-sees", "she-walks")
    with editing(game) as s:
        s.sides["dark"].pool[TokenColor.BLUE] = 0
        s.sides["dark"].track[3].append(("token", "blue"))
    game.play("choose:the-bride")
    game.play("ability:shes-alive")
    game.play("target:villager")
    game.play("roll:win")
    assert engine.legal_choices(game.state) == ["status:she-breathes"]
    game.play("status:she-breathes")
    assert game.decider == "dark"
    assert engine.legal_choices(game.state) == ["shiftoff:red:2", "shiftoff:blue:4"]
    game.play("shiftoff:blue:4")
    assert engine.legal_choices(game.state) == ["shiftoff:red:2"]
    game.play("shiftoff:red:2")
    assert (
        game.state.sides["dark"].pool[TokenColor.BLUE] == 1
        and game.state.sides["dark"].pool[TokenColor.RED] == 1
    )
    assert all(slot == [] for slot in game.state.sides["dark"].track)
    assert game.state.stack == []
    # the token paid for She's Alive! is back: she may do She Breathes (might 4) at once
    assert "ability:she-breathes" in engine.legal_choices(game.state)


def test_made_me_from_dead_with_one_token_on_the_track_shifts_that_one() -> None:
    game = position({"the-bride": "b2"}, {"villager": "b3"})
    with editing(game) as s:
        s.pieces["the-bride"].statuses = ("she-hears", "she-sees", "she-walks")
    game.play("choose:the-bride")
    game.play("ability:shes-alive")
    game.play("target:villager")
    game.play("roll:win")
    game.play("status:she-breathes")
    assert engine.legal_choices(game.state) == ["shiftoff:red:2"]
    game.play("shiftoff:red:2")
    assert game.state.stack == []
    assert game.state.actions_left == 1


def test_made_me_from_dead_not_for_the_third_card() -> None:
    game = position({"the-bride": "b2"}, {"villager": "b3"})
    with editing(game) as s:
        s.pieces["the-bride"].statuses = ("she-hears", "she-sees")
    game.play("choose:the-bride")
    game.play("ability:shes-alive")
    game.play("target:villager")
    game.play("roll:win")
    game.play("status:she-walks")
    assert game.state.sides["dark"].track_position(("token", "red")) == 2
    assert game.state.stack == []


# --------------------------------------------------------------------------- She Hears


def test_she_hears_stands_her_up_while_knocked_down() -> None:
    """She Hears (cost 1): "Stand The Bride of Frankenstein up. The Bride of Frankenstein can do
    this while knocked down." """
    game = position({"the-bride": "b2"}, {"villager": "f6"}, knocked_down=["the-bride"])
    with editing(game) as s:
        s.pieces["the-bride"].statuses = ("she-hears",)
    game.play("choose:the-bride")
    assert engine.legal_choices(game.state) == ["rally", "ability:she-hears", "end"]
    game.play("ability:she-hears")
    assert game.state.pieces["the-bride"].standing
    assert game.state.sides["dark"].track_position(("token", "blue")) == 1
    assert game.state.actions_left == 1


def test_she_hears_is_not_hers_without_the_card() -> None:
    game = position({"the-bride": "b2"}, {"villager": "f6"}, knocked_down=["the-bride"])
    game.play("choose:the-bride")
    assert engine.legal_choices(game.state) == ["rally", "end"]


# --------------------------------------------------------------------------- She Breathes


def test_she_breathes_challenges_3_each_rival_within_2_in_her_owners_order() -> None:
    """She Breathes (cost 4): "Do a challenge 3 to each rival within 2 squares." FAQ: the
    player doing the ability chooses the order; all of them must be done."""
    game = position(
        {"the-bride": "c3", "mad-scientist": "c4"},
        {"villager": "c5", "hyena-warrior": "a1", "priestess": "f6"},
    )
    with editing(game) as s:
        s.pieces["the-bride"].statuses = ("she-breathes",)
    game.play("choose:the-bride")
    game.play("ability:she-breathes")
    assert game.state.sides["dark"].track_position(("token", "red")) == 4
    assert engine.legal_choices(game.state) == ["target:villager", "target:hyena-warrior"]
    game.play("target:hyena-warrior")
    assert len(_roll(game).attack) == 3
    game.play("roll:lose")  # failing one does not stop the rest
    assert engine.legal_choices(game.state) == ["target:villager"]
    game.play("target:villager")
    game.play("roll:win")
    assert game.state.stack == []
    assert not game.state.pieces["villager"].standing
    assert game.state.pieces["priestess"].standing


def test_she_breathes_needs_no_sight() -> None:
    """Ruling (docs/rulings.md, Cards): "within 2 squares" is not "Range 2"; Within a Number of
    Squares ignores obstructions and characters, so a rival behind a wall is challenged, and so
    is the Invisible Man 2 squares away."""
    b = board(walls=[("c3", "c4"), ("b3", "b4"), ("d3", "d4")])
    game = position({"the-bride": "c3"}, {"villager": "c4", "invisible-man": "e3"}, b=b)
    with editing(game) as s:
        s.pieces["the-bride"].statuses = ("she-breathes",)
    game.play("choose:the-bride")
    assert "ability:she-breathes" in engine.legal_choices(game.state)
    game.play("ability:she-breathes")
    assert engine.legal_choices(game.state) == ["target:villager", "target:invisible-man"]


def test_she_breathes_is_not_offered_with_no_rival_within_2() -> None:
    game = position({"the-bride": "a1"}, {"villager": "f6"})
    with editing(game) as s:
        s.pieces["the-bride"].statuses = ("she-breathes",)
    game.play("choose:the-bride")
    assert "ability:she-breathes" not in engine.legal_choices(game.state)


# --------------------------------------------------------------------------- She Walks


def test_she_walks_move_3_then_a_basic_challenge() -> None:
    """She Walks (cost 2): "Move 3. Do a basic challenge." """
    game = position({"the-bride": "a1"}, {"villager": "d5"})
    with editing(game) as s:
        s.pieces["the-bride"].statuses = ("she-walks",)
    game.play("choose:the-bride")
    game.play("ability:she-walks")
    assert game.state.sides["dark"].track_position(("token", "blue")) == 2
    menu = engine.legal_choices(game.state)
    assert "move:d4" in menu and "move:e4" not in menu
    game.play("move:d4")
    game.play("target:villager")
    assert _roll(game).attack == ("standard", "standard")


# --------------------------------------------------------------------------- She Sees


def test_she_sees_assist_an_ally_she_can_see_within_2() -> None:
    """She Sees (trait): "The Bride of Frankenstein can assist allies and interact with things
    she can see within 2 squares." """
    game = position(
        {"the-bride": "b2", "mad-scientist": "d4"},
        {"villager": "f6"},
        knocked_down=["mad-scientist"],
    )
    game.play("choose:the-bride")
    assert "assist:mad-scientist" not in engine.legal_choices(game.state)
    with editing(game) as s:
        s.pieces["the-bride"].statuses = ("she-sees",)
    assert "assist:mad-scientist" in engine.legal_choices(game.state)
    game.play("assist:mad-scientist")
    assert game.state.pieces["mad-scientist"].standing


def test_she_sees_interact_with_a_point_marker_within_2() -> None:
    b = board(points={"A": "d2"})
    game = position({"the-bride": "b2"}, {"villager": "f6"}, b=b, scenario=POINTS)
    with editing(game) as s:
        s.pieces["the-bride"].statuses = ("she-sees",)
    game.play("choose:the-bride")
    game.play("interact:point-A")
    assert game.state.sides["dark"].points == 1


def test_she_sees_not_what_she_cannot_see_nor_beyond_2() -> None:
    b = board(walls=[("b2", "b3"), ("a2", "a3"), ("c2", "c3")], points={"A": "b4", "B": "e2"})
    game = position({"the-bride": "b2"}, {"villager": "f6"}, b=b, scenario=POINTS)
    with editing(game) as s:
        s.pieces["the-bride"].statuses = ("she-sees",)
    game.play("choose:the-bride")
    menu = engine.legal_choices(game.state)
    assert "interact:point-A" not in menu  # behind the wall
    assert "interact:point-B" not in menu  # 3 squares away


def test_status_cards_are_kept_when_she_is_knocked_out_and_work_when_she_returns() -> None:
    """Status Cards: "When a character gets knocked out, the character keeps its status
    cards." Back from the cooldown track she still has She Walks."""
    game = position({"the-bride": "", "mad-scientist": "f1"}, {"villager": "d5"})
    with editing(game) as s:
        s.pieces["the-bride"].statuses = ("she-sees", "she-walks")
    game.play("choose:mad-scientist")
    game.play("end")
    game.play("choose:villager")
    game.play("end")
    game.play("choose:the-bride")  # on the track: exhausted at once; the round ends
    game.play("return:the-bride:a1")
    assert game.state.pieces["the-bride"].statuses == ("she-sees", "she-walks")
    game.play("choose:villager")  # round 2: light is first player
    game.play("end")
    game.play("choose:the-bride")
    assert "ability:she-walks" in engine.legal_choices(game.state)

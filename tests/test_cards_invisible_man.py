"""Invisible Man (Universal Monsters 100, "Character Cards in This Game"): his abilities, the
Sneaking status card, and Elusive Trickster with the F.A.Q."""

from __future__ import annotations

from funkoverse.rules.core.frames import RollFrame
from funkoverse.rules.game import Game
from funkoverse.rules.play import engine
from positions import editing, position


def _roll(game: Game) -> RollFrame:
    top = game.state.stack[-1]
    assert isinstance(top, RollFrame)
    return top


def _at(game: Game, pid: str) -> str:
    square = game.state.pieces[pid].square
    return "" if square is None else game.state.board.label(square)


# --------------------------------------------------------------------------- Strangle


def test_strangle_challenge_3_against_a_standing_target() -> None:
    """Strangle (cunning 2): "Challenge 3. Roll 1 extra die when targeting a knocked down
    character." """
    game = position({"invisible-man": "b2"}, {"villager": "b3"})
    game.play("choose:invisible-man")
    game.play("ability:strangle")
    assert game.state.sides["dark"].track_position(("token", "gray")) == 2
    game.play("target:villager")
    assert _roll(game).attack == ("standard",) * 3


def test_strangle_rolls_1_extra_die_against_a_knocked_down_target() -> None:
    game = position({"invisible-man": "b2"}, {"villager": "b3"}, knocked_down=["villager"])
    game.play("choose:invisible-man")
    game.play("ability:strangle")
    game.play("target:villager")
    assert _roll(game).attack == ("standard",) * 4


# --------------------------------------------------------------------------- Sneaking


def test_sneaking_moves_2_and_gives_him_the_sneaking_status_card() -> None:
    """Sneaking (finesse 1): "Move 2. Give Invisible Man the Sneaking status card." """
    game = position({"invisible-man": "a1"}, {"villager": "f6"})
    game.play("choose:invisible-man")
    game.play("move:a1")
    game.play("ability:sneaking")
    assert game.state.sides["dark"].track_position(("token", "blue")) == 1
    assert "move:c3" in engine.legal_choices(game.state)
    assert "move:d4" not in engine.legal_choices(game.state)
    game.play("move:c3")
    assert game.state.pieces["invisible-man"].statuses == ("sneaking",)


def test_sneaking_card_an_extra_action_when_no_rival_can_see_him() -> None:
    """Sneaking status card: "At the start of Invisible Man's turn, if no rivals can see him he
    may do an action." Elusive Trickster: only adjacent rivals see him."""
    game = position({"invisible-man": "b2"}, {"villager": "b4"})
    with editing(game) as s:
        s.pieces["invisible-man"].statuses = ("sneaking",)
    game.play("choose:invisible-man")
    assert game.state.actions_left == 3
    game.play("move:b1")
    game.play("move:a1")
    game.play("move:b2")
    assert game.state.pieces["invisible-man"].exhausted


def test_sneaking_card_no_extra_action_when_a_rival_can_see_him() -> None:
    game = position({"invisible-man": "b2"}, {"villager": "b3"})
    with editing(game) as s:
        s.pieces["invisible-man"].statuses = ("sneaking",)
    game.play("choose:invisible-man")
    assert game.state.actions_left == 2


def test_sneaking_card_a_knocked_down_adjacent_rival_still_sees_him() -> None:
    """Knocked down, a rival still sees (only standing rivals block sight, rule 2; nothing stops
    a knocked-down one from seeing): no extra action."""
    game = position({"invisible-man": "b2"}, {"villager": "b3"}, knocked_down=["villager"])
    with editing(game) as s:
        s.pieces["invisible-man"].statuses = ("sneaking",)
    game.play("choose:invisible-man")
    assert game.state.actions_left == 2


def test_sneaking_card_is_discarded_after_his_action() -> None:
    """ "After the Invisible Man rallies or does an action, discard this card." """
    game = position({"invisible-man": "b2"}, {"villager": "b5"})
    with editing(game) as s:
        s.pieces["invisible-man"].statuses = ("sneaking",)
    game.play("choose:invisible-man")
    game.play("move:c2")
    assert game.state.pieces["invisible-man"].statuses == ()
    assert game.state.actions_left == 2  # the extra action stays his for this turn


def test_sneaking_card_is_discarded_even_when_it_gave_no_extra_action() -> None:
    game = position({"invisible-man": "b2"}, {"villager": "b3"})
    with editing(game) as s:
        s.pieces["invisible-man"].statuses = ("sneaking",)
    game.play("choose:invisible-man")
    game.play("move:a1")
    assert game.state.pieces["invisible-man"].statuses == ()


def test_sneaking_card_is_discarded_after_he_rallies() -> None:
    game = position({"invisible-man": "b2"}, {"villager": "e5"}, knocked_down=["invisible-man"])
    with editing(game) as s:
        s.pieces["invisible-man"].statuses = ("sneaking",)
    game.play("choose:invisible-man")
    assert "rally" in engine.legal_choices(game.state)
    game.play("rally")
    man = game.state.pieces["invisible-man"]
    assert man.standing and man.statuses == ()


def test_sneaking_as_his_last_action_keeps_the_card_for_his_next_turn() -> None:
    """Ruling (docs/rulings.md, Cards): the card is discarded after the next action or rally he
    does once he has it, so Sneaking done as the last action of a turn carries it to his next
    turn, where it gives the extra action."""
    game = position({"invisible-man": "a1", "mad-scientist": "f1"}, {"villager": "f6"})
    game.play("choose:invisible-man")
    game.play("move:a2")
    game.play("ability:sneaking")
    game.play("move:b3")
    assert game.state.pieces["invisible-man"].statuses == ("sneaking",)
    game.play("choose:villager")
    game.play("end")
    game.play("choose:mad-scientist")
    game.play("end")  # round 2: light first
    game.play("choose:villager")
    game.play("end")
    game.play("choose:invisible-man")
    assert game.state.actions_left == 3


def test_sneaking_as_his_first_action_is_discarded_by_his_second() -> None:
    """Ruling (docs/rulings.md, Cards): "After the Invisible Man ... does an action, discard this
    card" holds in the turn he gets it too."""
    game = position({"invisible-man": "a1"}, {"villager": "f6"})
    game.play("choose:invisible-man")
    game.play("ability:sneaking")
    game.play("move:b3")
    assert game.state.pieces["invisible-man"].statuses == ("sneaking",)
    game.play("move:c3")
    assert game.state.pieces["invisible-man"].statuses == ()


def test_sneaking_done_while_he_has_the_card_cannot_give_it_and_it_is_discarded() -> None:
    """Status Cards: "If a status card is in play, it cannot be given to a character until it
    has been discarded." With the card at the start of his turn, the Sneaking ability cannot
    give it again (it is in play until after the action), and after the action it is
    discarded."""
    game = position({"invisible-man": "a1"}, {"villager": "f6"})
    with editing(game) as s:
        s.pieces["invisible-man"].statuses = ("sneaking",)
    game.play("choose:invisible-man")
    game.play("ability:sneaking")
    game.play("move:b3")
    assert game.state.pieces["invisible-man"].statuses == ()


# --------------------------------------------------------------------------- Reign of Terror


def test_reign_of_terror_move_2_then_push_an_adjacent_rival_2() -> None:
    """Reign of Terror (cunning 2): "Move 2. Push an adjacent rival 2 squares." """
    game = position({"invisible-man": "a1"}, {"villager": "c4"})
    game.play("choose:invisible-man")
    game.play("ability:reign-of-terror")
    assert game.state.sides["dark"].track_position(("token", "gray")) == 2
    game.play("move:c3")
    menu = engine.legal_choices(game.state)
    assert "push:villager:c6" in menu and "push:villager:c5" in menu
    assert "push:villager:b4" not in menu  # not farther away
    game.play("push:villager:c6")
    assert _at(game, "villager") == "c6"


def test_reign_of_terror_with_no_adjacent_rival_after_the_move_ends() -> None:
    game = position({"invisible-man": "a1"}, {"villager": "f6"})
    game.play("choose:invisible-man")
    game.play("ability:reign-of-terror")
    game.play("move:b2")
    assert game.state.stack == []
    assert game.state.actions_left == 1


# --------------------------------------------------------------------------- Elusive Trickster


def test_elusive_trickster_no_ranged_challenge_from_a_rival_not_adjacent() -> None:
    """Elusive Trickster: "Rivals can only see the Invisible Man while they are adjacent to
    him." F.A.Q.: rivals not adjacent "can not use ranged attacks like the Fishing Net against
    him"."""
    game = position(
        {"villager": "b2", "dracula": "b1"},
        {"invisible-man": "b4", "the-bride": "f6"},
        items={"dark": [("fishing-net", "dracula")], "light": [("shovel", "the-bride")]},
    )
    game.play("choose:dracula")
    assert "item:fishing-net" not in engine.legal_choices(game.state)
    with editing(game) as s:
        s.pieces["dracula"].square = s.board.parse_label("c3")
    assert "item:fishing-net" in engine.legal_choices(game.state)


def test_elusive_trickster_mesmerize_cannot_choose_him_unless_adjacent() -> None:
    """F.A.Q.: rivals not adjacent "can not choose him for abilities like Mesmerize that require
    that the user 'can see' the target"."""
    game = position({"dracula": "b2"}, {"invisible-man": "b4", "villager": "e2"})
    game.play("choose:dracula")
    game.play("ability:mesmerize")
    menu = engine.legal_choices(game.state)
    assert not any(c.startswith("pull:invisible-man:") for c in menu)
    assert any(c.startswith("pull:villager:") for c in menu)


def test_elusive_trickster_mesmerize_may_choose_him_when_adjacent() -> None:
    game = position({"dracula": "b2"}, {"invisible-man": "b3"})
    game.play("choose:dracula")
    game.play("ability:mesmerize")
    assert "pull:invisible-man:b3" in engine.legal_choices(game.state)


def test_elusive_trickster_savage_hunger_cannot_choose_him_unless_adjacent() -> None:
    game = position({"the-cheetah": "b2"}, {"invisible-man": "b4", "villager": "d2"})
    game.play("choose:the-cheetah")
    game.play("ability:savage-hunger")
    menu = engine.legal_choices(game.state)
    assert not any(c.startswith("place:invisible-man:") for c in menu)
    assert any(c.startswith("place:villager:") for c in menu)


def test_elusive_trickster_a_basic_challenge_from_an_adjacent_rival_is_fine() -> None:
    game = position({"villager": "b2"}, {"invisible-man": "b3"})
    game.play("choose:villager")
    assert "challenge:invisible-man" in engine.legal_choices(game.state)


def test_elusive_trickster_he_does_not_block_what_rivals_see_from_afar() -> None:
    """A rival that cannot see him is not blocked by him (What Your Character Can See, rule 2:
    only a standing rival "you can see" blocks)."""
    game = position(
        {"dracula": "b1"},
        {"invisible-man": "b3", "villager": "b4"},
    )
    game.play("choose:dracula")
    game.play("ability:mesmerize")
    # Dracula sees the Villager past him, and pulls it through its ally's square to b2
    assert "pull:villager:b2" in engine.legal_choices(game.state)


def test_sneaking_card_a_rival_minion_token_sees_him_too() -> None:
    """Sneaking: "if no rivals can see him he may do an action" — rivals are "characters,
    companions, and minion tokens controlled by your opponent(s)" (Glossary: Rival), and a
    minion token "follows the same rules for ... what the token can see as characters"."""
    seen = position(
        {"invisible-man": "b2"},
        {"wonder-woman": "f6"},
        items={"light": [("clockwork-minion", "wonder-woman")]},
        tokens={"minion-light-1": "b3"},
    )
    with editing(seen) as s:
        s.pieces["invisible-man"].statuses = ("sneaking",)
    seen.play("choose:invisible-man")
    assert seen.state.actions_left == 2
    unseen = position(
        {"invisible-man": "b2"},
        {"wonder-woman": "f6"},
        items={"light": [("clockwork-minion", "wonder-woman")]},
    )
    with editing(unseen) as s:
        s.pieces["invisible-man"].statuses = ("sneaking",)
    unseen.play("choose:invisible-man")
    assert unseen.state.actions_left == 3


def test_ruling_a_rally_spends_two_actions_and_sneaking_keeps_its_extra_one() -> None:
    """Rally: "they may use both of their actions to stand up" — two actions. Sneaking's
    extra action, given at the start of his turn, is still his after the rally (the card is
    discarded by the rally), and standing he may use it (docs/rulings.md)."""
    game = position({"invisible-man": "b2"}, {"villager": "f6"}, knocked_down=["invisible-man"])
    with editing(game) as s:
        s.pieces["invisible-man"].statuses = ("sneaking",)
    game.play("choose:invisible-man")
    assert game.state.actions_left == 3
    game.play("rally")
    man = game.state.pieces["invisible-man"]
    assert man.standing and man.statuses == ()
    assert game.state.actions_left == 1
    assert "move:b4" in engine.legal_choices(game.state)

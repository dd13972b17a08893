"""Dracula (Universal Monsters 100, "Character Cards in This Game"): every ability and his
trait, with the F.A.Q. on the Blood die."""

from __future__ import annotations

from funkoverse.rules.core.cards import TokenColor
from funkoverse.rules.core.frames import RollFrame
from funkoverse.rules.game import Game
from funkoverse.rules.play import engine
from positions import board, editing, position

BLOOD = ("component", "blood")


def _roll(game: Game) -> RollFrame:
    top = game.state.stack[-1]
    assert isinstance(top, RollFrame)
    return top


def _sq(game: Game, label: str) -> int:
    return game.state.board.parse_label(label)


# --------------------------------------------------------------------------- The Blood Is the Life


def test_the_blood_is_the_life_stands_him_up_while_knocked_down() -> None:
    """The Blood Is the Life (cunning 2): "Stand Dracula up or shift him off your cooldown
    track. Dracula may use this ability while knocked down or on the cooldown track." """
    game = position({"dracula": "b2"}, {"villager": "f6"}, knocked_down=["dracula"])
    game.play("choose:dracula")
    assert "ability:the-blood-is-the-life" in engine.legal_choices(game.state)
    game.play("ability:the-blood-is-the-life")
    assert game.state.pieces["dracula"].standing
    assert game.state.sides["dark"].track_position(("token", "gray")) == 2
    # one action is left, and standing he may use it
    assert game.state.actions_left == 1
    assert "move:c3" in engine.legal_choices(game.state)


def test_the_blood_is_the_life_from_the_cooldown_track_then_his_remaining_action() -> None:
    """Knocked out on the track he may use it: he shifts off and returns to the starting area.
    Ruling: he then does his remaining action from there."""
    game = position({"dracula": "", "mad-scientist": "f1"}, {"villager": "f6"})
    assert game.state.sides["dark"].track_position(("character", "dracula")) == 1
    game.play("choose:dracula")
    assert engine.legal_choices(game.state) == ["ability:the-blood-is-the-life", "end"]
    game.play("ability:the-blood-is-the-life")
    assert game.state.sides["dark"].track_position(("character", "dracula")) is None
    assert game.decider == "dark"
    assert sorted(engine.legal_choices(game.state)) == [
        "return:dracula:a1",
        "return:dracula:b1",
        "return:dracula:c1",
    ]
    game.play("return:dracula:b1")
    assert (
        game.state.pieces["dracula"].square == _sq(game, "b1")
        and game.state.pieces["dracula"].standing
    )
    assert game.state.actions_left == 1
    game.play("move:b3")
    assert game.state.pieces["dracula"].square == _sq(game, "b3")
    assert game.state.pieces["dracula"].exhausted


def test_a_knocked_out_dracula_without_the_cunning_token_can_do_nothing() -> None:
    """Knocked Out: "they may not do rally or any basic actions or any special actions" unless
    the card says so, and the ability needs its token."""
    game = position({"dracula": "", "mad-scientist": "f1"}, {"villager": "f6"})
    with editing(game) as s:
        s.sides["dark"].pool[TokenColor.GRAY] = 0
    game.play("choose:dracula")
    assert game.state.pieces["dracula"].exhausted  # nothing to do: the turn ends at once


def test_the_blood_is_the_life_while_standing_does_nothing_more() -> None:
    """FAQ: an ability usable while knocked down may be used standing; standing up a standing
    Dracula changes nothing, and the token is spent."""
    game = position({"dracula": "b2"}, {"villager": "f6"})
    game.play("choose:dracula")
    game.play("ability:the-blood-is-the-life")
    assert game.state.pieces["dracula"].standing
    assert game.state.sides["dark"].track_position(("token", "gray")) == 2


# --------------------------------------------------------------------------- Mesmerize


def test_mesmerize_pulls_a_seen_rival_2_then_a_basic_challenge() -> None:
    """Mesmerize (cunning 3): "Pull a rival Dracula can see 2 squares. Do a basic challenge." """
    game = position({"dracula": "b2"}, {"villager": "b5"})
    game.play("choose:dracula")
    game.play("ability:mesmerize")
    menu = engine.legal_choices(game.state)
    assert "pull:villager:b3" in menu and "pull:villager:b4" in menu
    assert "pull:villager:b6" not in menu  # toward: each square nearer
    game.play("pull:villager:b3")
    assert game.state.pieces["villager"].square == _sq(game, "b3")
    game.play("target:villager")
    assert _roll(game).attack == ("standard", "standard")  # "a basic challenge": 2 dice
    assert _roll(game).target == "villager"


def test_mesmerize_needs_sight_of_the_rival() -> None:
    b = board(walls=[("b2", "b3"), ("a2", "a3"), ("c2", "c3")])
    game = position({"dracula": "b2"}, {"villager": "b4", "mad-scientist": "e2"}, b=b)
    game.play("choose:dracula")
    game.play("ability:mesmerize")
    menu = engine.legal_choices(game.state)
    assert not any(c.startswith("pull:villager:") for c in menu)
    assert "pull:mad-scientist:d2" in menu


def test_mesmerize_ends_when_no_rival_is_adjacent_after_the_pull() -> None:
    """Pulled only 1 of 2 squares, the rival is not adjacent: the basic challenge cannot be
    done, so the ability ends (Abilities)."""
    game = position({"dracula": "b2"}, {"villager": "b5"})
    game.play("choose:dracula")
    game.play("ability:mesmerize")
    game.play("pull:villager:b4")
    assert game.state.stack == []
    assert game.state.actions_left == 1


def test_mesmerize_is_not_offered_when_no_seen_rival_can_be_pulled_adjacent() -> None:
    """ "If there is no possible target, you cannot do a challenge action": a rival 5 squares
    away, pulled 2, is still 3 away, so the basic challenge has no possible target."""
    game = position({"dracula": "a1"}, {"villager": "f6"})
    game.play("choose:dracula")
    assert "ability:mesmerize" not in engine.legal_choices(game.state)


# --------------------------------------------------------------------------- Exsanguinate


def test_exsanguinate_costs_4_against_a_standing_target() -> None:
    """Exsanguinate (might 4): "Challenge 5. Reduce the cost of this ability by 2 when
    targeting a knocked down character." """
    game = position({"dracula": "b2"}, {"villager": "b3"})
    game.play("choose:dracula")
    assert "ability:exsanguinate:villager" in engine.legal_choices(game.state)
    game.play("ability:exsanguinate:villager")
    assert game.state.sides["dark"].track_position(("token", "red")) == 4
    assert _roll(game).attack == ("standard",) * 5
    assert _roll(game).target == "villager"


def test_exsanguinate_costs_2_against_a_knocked_down_target() -> None:
    game = position({"dracula": "b2"}, {"villager": "b3"}, knocked_down=["villager"])
    game.play("choose:dracula")
    game.play("ability:exsanguinate:villager")
    assert game.state.sides["dark"].track_position(("token", "red")) == 2
    assert len(_roll(game).attack) == 5


def test_exsanguinate_the_target_is_declared_with_the_ability() -> None:
    """The cost depends on the target, so the target is chosen when the ability is: one choice
    per adjacent rival, none for a rival out of reach."""
    game = position({"dracula": "b2"}, {"villager": "b3", "mad-scientist": "e5"})
    game.play("choose:dracula")
    menu = engine.legal_choices(game.state)
    assert "ability:exsanguinate:villager" in menu
    assert "ability:exsanguinate:mad-scientist" not in menu
    assert "ability:exsanguinate" not in menu


# --------------------------------------------------------------------------- Bloody Terror


def test_bloody_terror_no_blood_die_before_the_token_is_on_the_track() -> None:
    """The Bloody Terror of Transylvania: "When Dracula does a challenge, you may shift the Blood
    token down 1 to add the Blood die to the roll. If you don't, place the Blood token on the 3
    of your cooldown track." FAQ: "Can I use the Blood die when the token is not on the
    cooldown track? No"."""
    game = position({"dracula": "b2"}, {"villager": "b3"})
    game.play("choose:dracula")
    game.play("challenge:villager")
    assert game.decider == "chance"  # no choice to make
    assert "blood" not in _roll(game).attack
    assert game.state.sides["dark"].track_position(BLOOD) == 3


def test_bloody_terror_plus_1_defense_while_the_token_is_on_the_track() -> None:
    """ "Dracula has +1 defense while the Blood token is on your cooldown track." """
    game = position({"dracula": "b2"}, {"villager": "b3"}, first="light")
    game.play("choose:villager")
    game.play("challenge:dracula")
    assert len(_roll(game).defense) == 1
    game.play("roll:lose")
    with editing(game) as s:
        s.sides["dark"].track[2].append(BLOOD)
    game.play("challenge:dracula")
    assert len(_roll(game).defense) == 2


def test_bloody_terror_shift_the_token_down_1_for_the_blood_die() -> None:
    game = position({"dracula": "b2"}, {"villager": "b3"})
    with editing(game) as s:
        s.sides["dark"].track[2].append(BLOOD)
    game.play("choose:dracula")
    game.play("challenge:villager")
    assert game.decider == "dark"
    assert engine.legal_choices(game.state) == ["blood:die", "blood:place"]
    game.play("blood:die")
    assert _roll(game).attack == ("standard", "standard", "blood")
    assert game.state.sides["dark"].track_position(BLOOD) == 2


def test_bloody_terror_may_place_the_token_on_the_3_again() -> None:
    """Ruling: with the token on the track, not shifting it places it on the 3 again."""
    game = position({"dracula": "b2"}, {"villager": "b3"})
    with editing(game) as s:
        s.sides["dark"].track[0].append(BLOOD)
    game.play("choose:dracula")
    game.play("challenge:villager")
    game.play("blood:place")
    assert "blood" not in _roll(game).attack
    assert game.state.sides["dark"].track_position(BLOOD) == 3


def test_bloody_terror_shifting_the_token_off_the_1_ends_the_defense_bonus() -> None:
    game = position({"dracula": "b2"}, {"villager": "b3"})
    with editing(game) as s:
        s.sides["dark"].track[0].append(BLOOD)
    game.play("choose:dracula")
    game.play("challenge:villager")
    game.play("blood:die")
    assert "blood" in _roll(game).attack
    assert game.state.sides["dark"].track_position(BLOOD) is None
    assert engine.defense_of(game.state, game.state.pieces["dracula"]) == 1


def test_bloody_terror_with_an_ability_challenge() -> None:
    """ "When Dracula does a challenge": an ability's challenge (Exsanguinate) too."""
    game = position({"dracula": "b2"}, {"villager": "b3"})
    with editing(game) as s:
        s.sides["dark"].track[3].append(BLOOD)
    game.play("choose:dracula")
    game.play("ability:exsanguinate:villager")
    game.play("blood:die")
    assert _roll(game).attack == ("standard",) * 5 + ("blood",)


def test_bloody_terror_not_when_he_is_challenged() -> None:
    """Only when Dracula "does a challenge": defending asks nothing and leaves the token."""
    game = position({"dracula": "b2"}, {"villager": "b3"}, first="light")
    game.play("choose:villager")
    game.play("challenge:dracula")
    assert game.decider == "chance"
    assert game.state.sides["dark"].track_position(BLOOD) is None


def test_bloody_terror_defense_while_he_is_knocked_down() -> None:
    """Traits work while knocked down: +1 defense for a knocked-down Dracula too."""
    game = position({"dracula": "b2"}, {"villager": "b3"}, knocked_down=["dracula"], first="light")
    with editing(game) as s:
        s.sides["dark"].track[1].append(BLOOD)
    game.play("choose:villager")
    game.play("challenge:dracula")
    assert len(_roll(game).defense) == 2

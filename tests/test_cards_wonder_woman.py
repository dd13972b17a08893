"""Wonder Woman (DC Comics 102, "Character Cards in This Game"): every ability and her trait."""

from __future__ import annotations

from funkoverse.rules.core.cards import TokenColor
from funkoverse.rules.core.frames import RollFrame
from funkoverse.rules.game import Game
from funkoverse.rules.play import engine
from positions import board, editing, position

CHAMPION = ("die", "champion")


def _roll(game: Game) -> RollFrame:
    top = game.state.stack[-1]
    assert isinstance(top, RollFrame)
    return top


# --------------------------------------------------------------------------- Fight for Justice


def test_fight_for_justice_move_2_then_challenge_1_plus_the_targets_defense() -> None:
    """Fight for Justice (red 3): "Move 2. Challenge 1. Increase this challenge by a number
    equal to the target's defense." Hyena Warrior has defense 2: 1 + 2 = 3 dice."""
    game = position({"wonder-woman": "a1"}, {"hyena-warrior": "d3"})
    game.play("choose:wonder-woman")
    game.play("ability:fight-for-justice")
    assert game.state.sides["dark"].track_position(("token", "red")) == 3
    assert "move:c3" in engine.legal_choices(game.state)
    assert "move:d1" not in engine.legal_choices(game.state)  # Move 2, not 3
    game.play("move:c3")
    game.play("target:hyena-warrior")
    game.play("skip")  # Champion of Themyscira: a "you may"
    assert _roll(game).attack == ("standard",) * 3
    assert _roll(game).defense == ("standard",) * 2


def test_fight_for_justice_counts_the_defense_as_modified_bloody_terror() -> None:
    """ "a number equal to the target's defense": Dracula's defense 1 is 2 while his Blood
    token is on the track (The Bloody Terror of Transylvania), so 1 + 2 dice."""
    game = position({"wonder-woman": "b2"}, {"dracula": "c3"})
    with editing(game) as s:
        s.sides["light"].track[2].append(("component", "blood"))
    game.play("choose:wonder-woman")
    game.play("ability:fight-for-justice")
    game.play("move:b2")
    game.play("target:dracula")
    game.play("skip")
    assert len(_roll(game).attack) == 3
    assert len(_roll(game).defense) == 2


def test_fight_for_justice_is_a_challenge_action_no_target_within_reach_no_ability() -> None:
    """Abilities That Are Challenge Actions: "If there is no possible target, you cannot do a
    challenge action." With no rival on the map, Fight for Justice is not offered."""
    game = position({"wonder-woman": "a1", "priestess": "b1"}, {"hyena-warrior": ""})
    game.play("choose:wonder-woman")
    assert "ability:fight-for-justice" not in engine.legal_choices(game.state)


def test_fight_for_justice_not_offered_when_no_rival_is_within_reach_of_move_2() -> None:
    """ "If there is no possible target, you cannot do a challenge action": a rival 5 squares
    away cannot be challenged after Move 2."""
    game = position({"wonder-woman": "a1"}, {"hyena-warrior": "f6"})
    game.play("choose:wonder-woman")
    assert "ability:fight-for-justice" not in engine.legal_choices(game.state)


# --------------------------------------------------------------------------- Divine Resolve


def test_divine_resolve_stands_her_up_and_pushes_every_adjacent_rival_1_away() -> None:
    """Divine Resolve (yellow 2): "Stand Wonder Woman up. Push all adjacent rivals 1 square
    away. Wonder Woman can do this while knocked down." """
    game = position(
        {"wonder-woman": "c3"},
        {"hyena-warrior": "c4", "villager": "b3"},
        knocked_down=["wonder-woman"],
    )
    game.play("choose:wonder-woman")
    assert "ability:divine-resolve" in engine.legal_choices(game.state)
    game.play("ability:divine-resolve")
    assert game.state.pieces["wonder-woman"].standing
    assert game.state.sides["dark"].track_position(("token", "yellow")) == 2
    # one rival at a time, in the order her owner chooses ("Divine Resolve's pushes")
    menu = engine.legal_choices(game.state)
    assert "push:hyena-warrior:c5" in menu and "push:villager:a3" in menu
    assert "push:hyena-warrior:c6" not in menu  # 1 square
    assert "push:hyena-warrior:d3" not in menu  # not farther from her
    game.play("push:villager:a3")
    menu = engine.legal_choices(game.state)
    assert menu and all(c.startswith("push:hyena-warrior:") for c in menu)
    game.play("push:hyena-warrior:c5")
    b = game.state.board
    assert game.state.pieces["villager"].square == b.parse_label("a3")
    assert game.state.pieces["hyena-warrior"].square == b.parse_label("c5")
    assert game.state.stack == []
    assert game.state.actions_left == 1  # the ability was one action


def test_divine_resolve_pushes_knocked_down_rivals_too_and_not_allies() -> None:
    """ "all adjacent rivals": a knocked-down rival is a rival; an ally is not pushed."""
    game = position(
        {"wonder-woman": "c3", "priestess": "d3"},
        {"hyena-warrior": "c4"},
        knocked_down=["hyena-warrior"],
    )
    game.play("choose:wonder-woman")
    game.play("ability:divine-resolve")
    menu = engine.legal_choices(game.state)
    assert menu and all(c.startswith("push:hyena-warrior:") for c in menu)
    game.play("push:hyena-warrior:c5")
    assert game.state.pieces["priestess"].square == game.state.board.parse_label("d3")
    assert not game.state.pieces["hyena-warrior"].standing


def test_divine_resolve_can_be_done_standing() -> None:
    """FAQ (Tokens): "Can a character use an ability that says 'can be used while knocked
    down' while standing? Yes"."""
    game = position({"wonder-woman": "c3"}, {"hyena-warrior": "c4"})
    game.play("choose:wonder-woman")
    game.play("ability:divine-resolve")
    game.play("push:hyena-warrior:c5")
    assert game.state.pieces["hyena-warrior"].square == game.state.board.parse_label("c5")


# --------------------------------------------------------------------------- Inspire Courage


def test_inspire_courage_move_2_may_assist_and_shifts_the_champion_die_off() -> None:
    """Inspire Courage (yellow 2): "Move 2. You may do an assist action. Shift the Champion die
    off your cooldown track." """
    game = position(
        {"wonder-woman": "a1", "priestess": "c3"},
        {"hyena-warrior": "f6"},
        knocked_down=["priestess"],
    )
    with editing(game) as s:
        s.sides["dark"].track[1].append(CHAMPION)
    game.play("choose:wonder-woman")
    game.play("ability:inspire-courage")
    game.play("move:b2")
    assert engine.legal_choices(game.state) == ["assist:priestess", "skip"]
    game.play("assist:priestess")
    assert game.state.pieces["priestess"].standing
    assert game.state.sides["dark"].track_position(CHAMPION) is None


def test_inspire_courage_the_assist_may_be_declined_and_the_die_still_shifts_off() -> None:
    game = position(
        {"wonder-woman": "a1", "priestess": "c3"},
        {"hyena-warrior": "f6"},
        knocked_down=["priestess"],
    )
    with editing(game) as s:
        s.sides["dark"].track[3].append(CHAMPION)
    game.play("choose:wonder-woman")
    game.play("ability:inspire-courage")
    game.play("move:b2")
    game.play("skip")
    assert not game.state.pieces["priestess"].standing
    assert game.state.sides["dark"].track_position(CHAMPION) is None


def test_inspire_courage_with_no_one_to_assist_still_shifts_the_die_off() -> None:
    """ "You may do an assist action": with no knocked-down ally near, it is not done, and that
    does not end the ability (it is optional), so the Champion die still shifts off."""
    game = position({"wonder-woman": "a1", "priestess": "f1"}, {"hyena-warrior": "f6"})
    with editing(game) as s:
        s.sides["dark"].track[1].append(CHAMPION)
    game.play("choose:wonder-woman")
    game.play("ability:inspire-courage")
    game.play("move:b2")
    assert game.state.sides["dark"].track_position(CHAMPION) is None
    assert game.state.stack == []


def test_inspire_courage_the_die_shifted_off_can_be_added_again_the_same_turn() -> None:
    """Shift Off: "Things that shift off of the cooldown track return to play": the Champion
    die is back at once."""
    game = position({"wonder-woman": "a1"}, {"hyena-warrior": "c3"})
    with editing(game) as s:
        s.sides["dark"].track[1].append(CHAMPION)
    game.play("choose:wonder-woman")
    game.play("ability:inspire-courage")
    game.play("move:b2")
    game.play("challenge:hyena-warrior")
    assert engine.legal_choices(game.state) == ["champion:add", "skip"]


# --------------------------------------------------------------------------- Champion of Themyscira


def test_champion_die_joins_her_own_challenge_and_goes_on_the_2() -> None:
    """Champion of Themyscira: "When Wonder Woman or an adjacent ally would roll dice, you may
    add the Champion die to their roll. If you do, place the Champion die on the 2 of your
    cooldown track." """
    game = position({"wonder-woman": "b2"}, {"hyena-warrior": "b3"})
    game.play("choose:wonder-woman")
    game.play("challenge:hyena-warrior")
    assert game.decider == "dark"
    assert engine.legal_choices(game.state) == ["champion:add", "skip"]
    game.play("champion:add")
    assert _roll(game).attack == ("standard", "standard", "champion")
    assert game.state.sides["dark"].track_position(CHAMPION) == 2


def test_champion_die_may_be_declined() -> None:
    game = position({"wonder-woman": "b2"}, {"hyena-warrior": "b3"})
    game.play("choose:wonder-woman")
    game.play("challenge:hyena-warrior")
    game.play("skip")
    assert _roll(game).attack == ("standard", "standard")
    assert game.state.sides["dark"].track_position(CHAMPION) is None


def test_champion_die_joins_an_adjacent_allys_challenge() -> None:
    game = position({"wonder-woman": "a2", "priestess": "b2"}, {"hyena-warrior": "b3"})
    game.play("choose:priestess")
    game.play("challenge:hyena-warrior")
    game.play("champion:add")
    assert _roll(game).attack == ("standard", "standard", "champion")


def test_champion_die_not_for_an_ally_that_is_not_adjacent() -> None:
    game = position({"wonder-woman": "a1", "priestess": "c3"}, {"hyena-warrior": "c4"})
    game.play("choose:priestess")
    game.play("challenge:hyena-warrior")
    assert game.decider == "chance"
    assert _roll(game).attack == ("standard", "standard")


def test_champion_die_not_for_an_ally_behind_a_wall() -> None:
    """Adjacency: a square behind a wall is not adjacent, so that ally is not "adjacent"."""
    b = board(walls=[("b2", "b3")])
    game = position({"wonder-woman": "b2", "priestess": "b3"}, {"hyena-warrior": "b4"}, b=b)
    game.play("choose:priestess")
    game.play("challenge:hyena-warrior")
    assert game.decider == "chance"


def test_champion_die_joins_the_defenders_roll_when_she_is_challenged() -> None:
    """Ruling (docs/rulings.md, Cards): when Wonder Woman is challenged she "would roll dice"
    (the defender's); the Champion die joins the defender's dice. It is her owner's decision
    in the rival's turn."""
    game = position({"wonder-woman": "b2"}, {"hyena-warrior": "b3"}, first="light")
    game.play("choose:hyena-warrior")
    game.play("challenge:wonder-woman")
    assert game.state.to_act == "light"
    assert game.decider == "dark"
    game.play("champion:add")
    assert _roll(game).defense == ("standard", "standard", "champion")
    assert _roll(game).attack == ("standard", "standard")
    assert game.state.sides["dark"].track_position(CHAMPION) == 2


def test_champion_die_joins_the_defenders_roll_when_an_adjacent_ally_is_challenged() -> None:
    game = position(
        {"wonder-woman": "a2", "priestess": "b2"}, {"hyena-warrior": "b3"}, first="light"
    )
    game.play("choose:hyena-warrior")
    game.play("challenge:priestess")
    assert game.decider == "dark"
    game.play("champion:add")
    assert _roll(game).defense == ("standard", "standard", "champion")


def test_champion_die_only_once_it_is_off_the_track() -> None:
    """While the Champion die is on the cooldown track it is not there to add."""
    game = position({"wonder-woman": "b2"}, {"hyena-warrior": "b3"})
    with editing(game) as s:
        s.sides["dark"].track[0].append(CHAMPION)
    game.play("choose:wonder-woman")
    game.play("challenge:hyena-warrior")
    assert game.decider == "chance"
    assert "champion" not in _roll(game).attack


def test_champion_die_returns_after_two_round_ends() -> None:
    game = position({"wonder-woman": "b2"}, {"hyena-warrior": "b3"})
    game.play("choose:wonder-woman")
    game.play("challenge:hyena-warrior")
    game.play("champion:add")
    game.play("roll:lose")
    game.play("end")
    game.play("choose:hyena-warrior")
    game.play("end")  # round 1 ends: the die shifts to the 1
    assert game.state.sides["dark"].track_position(CHAMPION) == 1
    game.play("choose:hyena-warrior")
    game.play("end")
    game.play("choose:wonder-woman")
    game.play("end")  # round 2 ends: it shifts off and can be added again
    assert game.state.sides["dark"].track_position(CHAMPION) is None


def test_champion_of_themyscira_works_while_she_is_knocked_down() -> None:
    """Traits: "Unless the trait says otherwise, its rules also work when a character is
    knocked down"."""
    game = position(
        {"wonder-woman": "b2"},
        {"hyena-warrior": "b3"},
        knocked_down=["wonder-woman"],
        first="light",
    )
    game.play("choose:hyena-warrior")
    game.play("challenge:wonder-woman")
    assert engine.legal_choices(game.state) == ["champion:add", "skip"]


def test_her_dots_give_a_yellow_and_a_red_token() -> None:
    game = position({"wonder-woman": "b2"}, {"hyena-warrior": "f6"})
    pool = game.state.sides["dark"].pool
    assert pool[TokenColor.YELLOW] == 1 and pool[TokenColor.RED] == 1
    assert game.state.pieces["wonder-woman"].defense == 2

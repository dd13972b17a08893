"""What the page is told about each choice before it is made (rules/words/present.py, foresee.py,
prompt.py): what to tap, the words and the cost, the odds of every challenge a choice can
lead to (with and without a die a card may add), a warning when a legal choice would change
nothing, which move squares keep a target, and the prompt in words."""

from __future__ import annotations

from typing import Any

from funkoverse.rules.core.dice import win_probability
from funkoverse.rules.core.scenario import Scenario
from funkoverse.rules.core.world import display_names
from funkoverse.rules.game import Game
from funkoverse.rules.play import engine
from funkoverse.rules.words.describe import label
from funkoverse.rules.words.notes import trait_answer, turn_side
from funkoverse.rules.words.present import present
from funkoverse.rules.words.preview import challenge_odds
from funkoverse.rules.words.prompt import prompt
from funkoverse.rules.words.serialize import choice_to_json, event_to_json
from positions import board, position

POINTS = Scenario(point_markers=True)


def shown(game: Game) -> dict[str, dict[str, Any]]:
    """Every legal choice of the decider as the page is sent it, by id."""
    state = game.state
    names = display_names(state)
    legal = engine.choices(state)
    worded = [(c, label(state, c, names), challenge_odds(state, c)) for c in legal]
    seat = engine.decider(state) or ""
    return {
        c.format(): {**choice_to_json(c, words, p), **s.to_json()}
        for (c, words, p), s in zip(worded, present(state, seat, worded, names), strict=True)
    }


def odds(attack: int, defense: int, extra: tuple[str, ...] = ()) -> float:
    from funkoverse.content.dice import load_dice

    dice = load_dice()
    return round(
        float(
            win_probability(
                [dice["standard"]] * attack + [dice[d] for d in extra], [dice["standard"]] * defense
            )
        ),
        4,
    )


# --------------------------------------------------------------------------- odds before paying


def test_an_ability_challenge_shows_its_odds_before_the_token_is_paid() -> None:
    """Savage Hunger (blue 2): "Choose a rival within 2 squares ... Do a challenge 2 to
    them": the chance is known when the ability is offered, not after its token is spent."""
    game = position({"the-cheetah": "b2"}, {"hyena-warrior": "d4", "villager": "f6"})
    game.play("choose:the-cheetah")
    hunger = shown(game)["ability:savage-hunger"]
    assert hunger["cost"] == {"color": "blue", "number": 2}
    assert hunger["words"] == "Savage Hunger (blue, 2)"
    [only] = hunger["challenges"]
    assert only["target"] == "hyena-warrior" and only["odds"] == odds(2, 2)
    assert hunger["odds_words"] == f"{round(odds(2, 2) * 100)}% against Hyena Warrior"
    assert "warning" not in hunger
    assert game.state.sides["dark"].pool  # nothing was paid to know it


def test_exsanguinate_costs_2_against_a_knocked_down_target_and_says_so() -> None:
    """Exsanguinate (might 4): "Reduce the cost of this ability by 2 when targeting a knocked
    down character"; the label and the cost say 2, not 4."""
    game = position({"dracula": "b2"}, {"hyena-warrior": "c3"}, knocked_down=["hyena-warrior"])
    game.play("choose:dracula")
    drink = shown(game)["ability:exsanguinate:hyena-warrior"]
    assert drink["cost"] == {"color": "red", "number": 2}
    assert "(red 2)" in drink["label"] and "(red, 2)" in drink["words"]
    assert drink["where"]["piece"] == "hyena-warrior"
    assert drink["challenges"][0]["odds"] == odds(5, 2)


def test_a_die_a_card_may_add_shows_the_odds_with_and_without_it() -> None:
    """Champion of Themyscira: "you may add the Champion die to their roll"."""
    game = position({"wonder-woman": "b2"}, {"hyena-warrior": "c3"})
    game.play("choose:wonder-woman")
    basic = shown(game)["challenge:hyena-warrior"]
    [challenge] = basic["challenges"]
    assert challenge["odds"] == basic["odds"] == odds(2, 2)
    [die] = challenge["with"]
    assert die["die"] == "Champion die" and die["decider"] == "dark"
    assert die["odds"] == odds(2, 2, ("champion",)) > challenge["odds"]
    assert "with the Champion die" in basic["odds_words"]


def test_move_then_challenge_marks_the_squares_that_keep_a_target() -> None:
    """Fight for Justice: "Move 2. Challenge 1": from some squares no rival is adjacent, and
    the ability would end without its challenge."""
    game = position({"wonder-woman": "b2"}, {"hyena-warrior": "e5"})
    game.play("choose:wonder-woman")
    game.play("ability:fight-for-justice")
    moves = {cid: c for cid, c in shown(game).items() if cid.startswith("move")}
    keeping = {c["where"]["square"] for c in moves.values() if c["keeps_target"]}
    assert keeping == {"d4"}  # the one square in reach adjacent to e5
    assert all(c["keeps_target"] is False for c in moves.values() if c["where"]["square"] != "d4")
    assert moves["move:d4"]["challenges"][0]["target"] == "hyena-warrior"


# --------------------------------------------------------------------------- legal but futile


def test_quick_swipe_with_no_point_marker_near_stays_legal_and_is_warned() -> None:
    b = board(points={"A": "f1"})
    game = position({"the-cheetah": "b2"}, {"hyena-warrior": "f6"}, b=b, scenario=POINTS)
    game.play("choose:the-cheetah")
    swipe = shown(game)["ability:quick-swipe"]
    assert swipe["warning"].startswith("Nothing would happen now: Quick Swipe")


def test_quick_swipe_beside_a_point_marker_is_not_warned() -> None:
    b = board(points={"A": "b3"})
    game = position({"the-cheetah": "b2"}, {"hyena-warrior": "f6"}, b=b, scenario=POINTS)
    game.play("choose:the-cheetah")
    assert "warning" not in shown(game)["ability:quick-swipe"]


def test_divine_resolve_and_the_blood_is_the_life_while_standing_are_warned_not_refused() -> None:
    """FAQ (Tokens): an ability that "can be used while knocked down" may be used while
    standing; alone and standing, it changes nothing."""
    ww = position({"wonder-woman": "b2"}, {"hyena-warrior": "f6"})
    ww.play("choose:wonder-woman")
    assert "warning" in shown(ww)["ability:divine-resolve"]
    dracula = position({"dracula": "b2"}, {"hyena-warrior": "f6"})
    dracula.play("choose:dracula")
    assert "warning" in shown(dracula)["ability:the-blood-is-the-life"]


def test_divine_resolve_with_a_rival_to_push_is_not_warned() -> None:
    game = position({"wonder-woman": "b2"}, {"hyena-warrior": "c3"})
    game.play("choose:wonder-woman")
    assert "warning" not in shown(game)["ability:divine-resolve"]


# --------------------------------------------------------------------------- what to tap


def test_each_choice_says_what_to_tap() -> None:
    b = board(points={"A": "b2"})
    game = position({"the-cheetah": "b2"}, {"hyena-warrior": "c3"}, b=b, scenario=POINTS)
    menu = shown(game)
    assert menu["choose:the-cheetah"]["where"] == {"piece": "the-cheetah", "square": None}
    game.play("choose:the-cheetah")
    menu = shown(game)
    # the point marker under her: the marker and its square, though she stands on it
    assert menu["interact:point-A"]["where"] == {"piece": "point-A", "square": "b2"}
    assert menu["move:c2"]["where"] == {"piece": None, "square": "c2"}
    assert menu["move:c2"]["actor"] == "the-cheetah"
    assert menu["challenge:hyena-warrior"]["where"]["piece"] == "hyena-warrior"
    assert menu["challenge:hyena-warrior"]["words"] == "Challenge Hyena Warrior, 2 dice vs 2"
    assert menu["end"]["where"] == {"piece": None, "square": None}


# --------------------------------------------------------------------------- the prompt


def test_the_prompt_names_a_trait_that_asks_in_the_rivals_turn() -> None:
    game = position(
        {"the-cheetah": "b2"},
        {"hyena-warrior": "d4"},
        knocked_down=["hyena-warrior"],
        first="light",
    )
    assert prompt(game.state, "light", display_names(game.state)) == (
        "light chooses a character to take a turn"
    )
    game.play("choose:hyena-warrior")
    assert prompt(game.state, "light", display_names(game.state)) == "Hyena Warrior: 2 actions left"
    game.play("rally")
    said = prompt(game.state, "dark", display_names(game.state))
    assert said == "The Cheetah may move up to 1 square (Predatory Senses, a trait)"


def test_the_dice_say_what_each_face_scored() -> None:
    game = position({"the-cheetah": "b2"}, {"hyena-warrior": "c3"})
    game.play("choose:the-cheetah")
    game.play("challenge:hyena-warrior")
    events = game.play_chance()
    dice = next(event_to_json(e, {}) for e in events if e.kind.value == "dice")
    score = {"burst": 1, "triple_exclamation": 3, "shield": 0, "blank": 0}
    assert dice["counted"]["attack"] == [score[f] for f in dice["attack"]]
    guard = {"shield": 1, "triple_exclamation": 3, "burst": 0, "blank": 0}
    assert dice["counted"]["defense"] == [guard[f] for f in dice["defense"]]


def test_an_event_says_what_to_mark_on_the_board_where_it_happens() -> None:
    game = position({"the-cheetah": "b2"}, {"hyena-warrior": "c3"})
    game.play("choose:the-cheetah")
    game.play("challenge:hyena-warrior")
    events = [event_to_json(e, {}) for e in game.play_chance()]
    marks = {e["kind"]: e.get("mark") for e in events}
    if "knocked_down" in marks:
        assert marks["knocked_down"] == {"text": "knocked down", "tone": "loss", "on": "piece"}
    else:
        assert marks["challenge_lost"] == {"text": "missed", "tone": "none", "on": "other"}
    assert not any(e.get("weighty") for e in events)


def test_a_trait_that_answers_the_rivals_turn_is_named_in_the_log() -> None:
    """Predatory Senses: "if a rival ... stands up, The Cheetah may move 1 square": the move
    alone says only that she moves; the log names the trait, its card one tap away."""
    game = position(
        {"the-cheetah": "b2"},
        {"hyena-warrior": "d4"},
        knocked_down=["hyena-warrior"],
        first="light",
    )
    names = display_names(game.state)
    turn = turn_side(game.state, game.play("choose:hyena-warrior"), None)
    game.play("rally")
    assert turn == "light"
    moved = game.play("move:c3")
    said = trait_answer(game.state, "dark", turn, moved, names)
    assert said == {
        "kind": "trait",
        "text": "The Cheetah's trait, Predatory Senses, answers light's turn.",
        "rule": "Predatory Senses",
        "piece": "the-cheetah",
    }
    # her own move in her own turn is no answer to anyone
    assert trait_answer(game.state, "dark", "dark", moved, names) is None


def test_only_the_starting_areas_of_the_sides_in_play_are_tinted() -> None:
    """Funko Factory has a starting area for each of four free-for-all seats besides dark's
    and light's: a game of two tints two."""
    from funkoverse.content.setups import SetupRequest, build, draw_spec
    from funkoverse.rules.session import Session
    from funkoverse.rules.words.present import start_areas

    spec = draw_spec(SetupRequest(scenario="flags", map="funko-factory", size=2), 1)
    state = Session(build(spec), 1).view("dark")
    assert len(state.board.start_areas) > 2
    areas = start_areas(state)
    assert set(areas) == {"dark", "light"}
    assert all(areas[side] for side in areas)

"""The terminal game as a new player met it: each thing they hit, fixed and pinned.

What is played and how many points win, said at the start and when a side reaches the
target; cards readable at the prompt; dice that say what counted; two characters of one
name told apart; the Champion die's odds; a returning character not shown knocked out;
status cards in the side panel; a move that leaves an ability without a target, or
beside a flag across a wall corner, said before it is made; a move of 0 squares last; the
board once a turn with the rival's turn in short; the final score."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

from funkoverse.ai.agents import RandomAgent
from funkoverse.cli.terminal import character_status, menu_order, piece_labels, sides_panel
from funkoverse.content.scenarios import scenario
from funkoverse.rules.core.choices import Move
from funkoverse.rules.core.events import Event, EventKind, words
from funkoverse.rules.core.frames import ReturnFrame
from funkoverse.rules.core.world import display_names
from funkoverse.rules.game import Game
from funkoverse.rules.play import engine
from funkoverse.rules.play.engine import new_game_at
from funkoverse.rules.words.describe import label
from positions import board, card, editing, position, said, setup


def _run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "funkoverse", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _human(*args: str, answers: str) -> str:
    result = _run("play", "--dark", "human", "--light", "random", *args, stdin=answers)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return result.stdout


def test_the_game_says_its_scenario_map_and_points_to_win_at_the_start() -> None:
    out = _human(
        "--scenario",
        "flags",
        "--size",
        "2",
        "--seed",
        "2",
        "--max-rounds",
        "1",
        answers="1\n" * 200,
    )
    assert "Flags on Themyscira" in out
    assert "6 points win" in out and "decided at the end of a round" in out
    first = _human(
        "--scenario", "first-knockout", "--seed", "2", "--max-rounds", "1", answers="1\n" * 200
    )
    assert "The first side to knock out a rival wins" in first


def test_play_help_speaks_of_scenarios_not_only_knock_outs() -> None:
    out = _run("play", "--help").stdout
    assert "scenario" in out and "knock out one rival to win" not in out


def test_reaching_the_target_mid_round_is_said_and_the_round_goes_on() -> None:
    """Winning a Scenario: "counting the points each player has at the end of a round"."""
    game = position(
        {"priestess": "b2", "mad-scientist": "a1"},
        {"villager": "f6", "hyena-warrior": "e6"},
        b=board(points={"A": "c3"}),
        scenario=scenario("flags"),
    )
    with editing(game) as s:
        s.sides["dark"].points = 5
    game.play("choose:priestess")
    events = game.play("interact:point-A")
    text = said(game, events)
    assert any("the 6 this scenario needs" in t and "end of a round" in t for t in text)
    assert not game.over


def test_the_prompt_shows_the_legend_and_a_cards_text() -> None:
    out = _human(
        "--scenario",
        "first-knockout",
        "--seed",
        "2",
        "--max-rounds",
        "1",
        answers="?\ninfo wonder woman\ninfo lasso\ninfo sneaking\ninfo nobody\n" + "1\n" * 200,
    )
    for mark in ("wall", "post", "knocked down", "a point marker on the map", "starting area"):
        assert mark in out, mark
    assert "Fight for Justice" in out and "defense 2" in out and "Champion of Themyscira" in out
    # an item's text and a status card's text (read across the console's line breaks)
    flat = " ".join(out.split())
    assert "Lasso of Truth" in flat and "Range 2, challenge 2" in flat
    assert "Sneaking" in flat and "if no rivals can see him he may do an action" in flat
    assert "no card named 'nobody'" in out


def test_dice_say_what_counted_for_each_side() -> None:
    event = Event(
        EventKind.DICE,
        piece="a",
        other="b",
        attack=("triple_exclamation", "burst", "shield"),
        defense=("shield", "blank"),
        number=4,
        total=1,
    )
    text = words(event, {"a": "Wonder Woman", "b": "Villager"})
    assert "!!! = 3, burst = 1: 4 for Wonder Woman" in text
    assert "shield = 1: 1 for Villager" in text


def test_two_characters_of_one_name_are_told_apart_in_words_and_on_the_board() -> None:
    """Mixing Games: same-name characters may be rivals (mirrored Cheetahs)."""
    b = board()
    s = setup(b, [card("the-cheetah")], [card("the-cheetah")])
    at = {"the-cheetah-dark": b.parse_label("b2"), "the-cheetah-light": b.parse_label("e5")}
    game = Game.at(new_game_at(s, at, "dark"))
    names = display_names(game.state)
    assert names["the-cheetah-dark"] == "The Cheetah (dark)"
    assert names["the-cheetah-light"] == "The Cheetah (light)"
    labels = piece_labels(game.state)
    assert labels["the-cheetah-dark"] != labels["the-cheetah-light"]
    game.play("choose:the-cheetah-dark")
    menu = [label(game.state, c) for c in engine.choices(game.state)]
    assert all("The Cheetah (dark)" in m for m in menu if m.startswith("The Cheetah"))


def test_the_champion_die_offer_shows_the_odds_with_and_without_it() -> None:
    game = position({"wonder-woman": "b2"}, {"villager": "b3"})
    game.play("choose:wonder-woman")
    game.play("challenge:villager")
    choices = engine.choices(game.state)
    texts = [label(game.state, c) for c in choices]
    assert [c.format() for c in choices] == ["champion:add", "skip"]
    assert "without it" in texts[0] and "with it" in texts[0] and "%" in texts[0]
    assert "champion:add" not in " ".join(texts)


def test_a_character_returning_from_a_flag_is_not_shown_knocked_out() -> None:
    game = position({"priestess": "b2"}, {"villager": "f6"})
    state = game.state
    priestess = state.pieces["priestess"]
    priestess.square = None
    state.stack.append(ReturnFrame("dark", ("priestess",)))
    assert "returning to the starting area" in character_status(
        state, priestess, display_names(state)
    )


def test_status_cards_and_items_appear_in_the_side_panel() -> None:
    game = position(
        {"the-bride": "b2"}, {"villager": "f6"}, items={"dark": [("shovel", "the-bride")]}
    )
    with editing(game) as s:
        s.pieces["the-bride"].statuses = ("she-sees",)
    panel = sides_panel(game.state).plain
    assert "She Sees" in panel and "Shovel" in panel


def test_a_move_that_leaves_the_abilitys_challenge_without_a_target_says_so() -> None:
    """Fight for Justice: "Move 2. Challenge 1." — only a square beside a rival keeps it."""
    game = position({"wonder-woman": "b2"}, {"villager": "e5"})
    game.play("choose:wonder-woman")
    game.play("ability:fight-for-justice")
    labels = {c.format(): label(game.state, c) for c in engine.choices(game.state)}
    assert "no target from there" not in labels["move:d4"]
    assert "no target from there: Fight for Justice ends" in labels["move:a1"]


FLAGS = ("......", "....D.", "......", "......", ".L....", "......")  # dark flag e2, light b5


def test_beside_a_flag_across_a_wall_corner_there_is_no_return_and_it_is_said() -> None:
    """Obstructions and Adjacency: "obstructions on the corner of squares blocking diagonal
    adjacency": a4 is beside b5 but, with a wall corner between, not adjacent to it; Flags
    returns only characters "on or adjacent to your opponent's flag marker"."""
    walled = dataclasses.replace(board(walls=[("a4", "b4")]), layers={"flags": FLAGS})
    game = position(
        {"priestess": "a3", "mad-scientist": "f1"},
        {"villager": "f6"},
        b=walled,
        scenario=scenario("flags"),
    )
    game.play("choose:priestess")
    labels = {c.format(): label(game.state, c) for c in engine.choices(game.state)}
    assert "a wall corner is between" in labels["move:a4"]
    assert "a return when the round ends" in labels["move:a5"]
    game.play("move:a4")
    for choice in ("end", "choose:villager", "end", "choose:mad-scientist", "end"):
        events = game.play(choice)
    assert any("not adjacent to it: a wall corner" in t for t in said(game, events))


def test_a_move_of_0_squares_stays_legal_but_comes_last_and_random_play_avoids_it() -> None:
    game = position({"priestess": "b2"}, {"villager": "f6"})
    game.play("choose:priestess")
    choices = engine.choices(game.state)
    assert Move("b2") in choices
    ordered = menu_order(game.state, choices)
    assert ordered[-1] == Move("b2") and sorted(map(str, ordered)) == sorted(map(str, choices))
    agent = RandomAgent(1)
    assert all(agent.choose(game.state, choices) != Move("b2") for _ in range(300))
    assert agent.choose(game.state, [Move("b2")]) == Move("b2")


def test_the_board_is_drawn_once_a_turn_and_the_rivals_turn_is_summed_up() -> None:
    out = _human(
        "--scenario",
        "flags",
        "--size",
        "2",
        "--seed",
        "2",
        "--max-rounds",
        "2",
        answers="1\n" * 400,
    )
    turns = out.count("to decide ─")
    prompts = out.count("your choice (")
    assert 0 < turns < prompts
    assert out.count("Since your last choice:") >= 2


def test_the_end_gives_the_final_score_and_the_rounds() -> None:
    out = _human("--scenario", "first-knockout", "--seed", "3", answers="1\n" * 3000)
    assert "Final score: dark" in out and "in round" in out and "wins" in out


def test_the_command_line_messages_a_newcomer_met() -> None:
    item = _run("play", "--item", "dark:wonder-woman=lasso-of-truth")
    assert item.returncode == 2 and "name dark's characters first" in item.stderr
    assert "unknown side" not in item.stderr
    version = _run("--version")
    assert version.returncode == 0 and version.stdout.startswith("funkoverse ")
    shown = _run("map", "show", "Themyscira")
    assert shown.returncode == 2 and "lower case" in shown.stderr and "themyscira" in shown.stderr
    assert "%%" not in _run("match", "--help").stdout

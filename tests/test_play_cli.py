"""`funkoverse play` and `funkoverse bench`: what a person and a script see."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def _run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "funkoverse", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_random_game_json_summary_names_winner_rounds_and_choices() -> None:
    result = _run("play", "--seed", "3", "--json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["winner"] in ("dark", "light")
    assert summary["rounds"] >= 1
    assert summary["choices"][0].startswith("first:")
    assert summary["decisions"] == len(summary["choices"])
    winner_points = summary["sides"][summary["winner"]]["points"]
    assert winner_points >= summary["points_to_win"]
    assert all(
        side["points"] <= winner_points for side in summary["sides"].values()
    )  # Winning a Scenario: the most points
    for side in ("dark", "light"):
        drawn = summary["sides"][side]
        assert len(drawn["characters"]) in (2, 3)  # drawn from the seed


def test_without_options_the_seed_draws_the_setup_and_the_summary_names_it() -> None:
    """Teams of one character and one basic character, or three characters with an item each;
    the first games as their setup says (Your First Game, Setup: no items)."""
    seen_items = set()
    sizes = set()
    for seed in range(12):
        summary = json.loads(_run("play", "--seed", str(seed), "--json").stdout)
        first_game = summary["scenario"] in ("first-knockout", "monsters-first-game")
        for side in ("dark", "light"):
            drawn = summary["sides"][side]
            sizes.add(len(drawn["characters"]))
            if first_game:
                assert drawn["items"] == []
            elif len(drawn["characters"]) == 3:
                assert len(drawn["items"]) == 1
                assert drawn["items"][0]["holder"] in drawn["characters"]
                seen_items.add(drawn["items"][0]["item"])
    assert sizes == {2, 3}
    assert seen_items


def test_items_are_given_with_the_item_option() -> None:
    result = _run(
        "play",
        "--seed",
        "4",
        "--json",
        "--dark",
        "wonder-woman,priestess",
        "--light",
        "dracula,villager",
        "--item",
        "wonder-woman=lasso-of-truth",
        "--item",
        "light:dracula=shovel",
    )
    summary = json.loads(result.stdout)
    assert summary["sides"]["dark"]["items"] == [
        {"item": "lasso-of-truth", "holder": "wonder-woman"}
    ]
    assert summary["sides"]["light"]["items"] == [{"item": "shovel", "holder": "dracula"}]


def test_the_seed_fixes_the_game() -> None:
    a = _run("play", "--seed", "8", "--json").stdout
    b = _run("play", "--seed", "8", "--json").stdout
    c = _run("play", "--seed", "9", "--json").stdout
    assert a == b
    assert json.loads(a)["choices"] != json.loads(c)["choices"]


def test_characters_can_be_chosen_for_each_side() -> None:
    result = _run(
        "play", "--seed", "1", "--json", "--dark", "villager,hyena-warrior", "--light", "priestess"
    )
    summary = json.loads(result.stdout)
    assert summary["sides"]["dark"]["characters"] == ["villager", "hyena-warrior"]
    assert summary["sides"]["light"]["characters"] == ["priestess"]


def test_a_person_plays_by_number_and_bad_answers_are_asked_again() -> None:
    answers = "x\n99\n0\n" + "1\n" * 400
    result = _run(
        "play",
        "--dark",
        "human",
        "--light",
        "random",
        "--seed",
        "2",
        "--max-rounds",
        "2",
        stdin=answers,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "'x' is not one of the choices" in out
    assert "'99' is not one of the choices" in out
    assert "your choice (1-" in out
    assert (
        out.count("cooldown track  1:") >= 2 and "ability pool" in out
    )  # both cooldown tracks and pools are shown
    assert "Setup · dark to decide" in out and "Round 1" in out
    assert "Traceback" not in result.stderr


def test_input_ending_early_is_one_line_not_a_traceback() -> None:
    result = _run("play", "--dark", "human", "--seed", "2", stdin="")
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0
    assert "input ended" in result.stderr
    assert "Traceback" not in result.stderr


def test_bad_options_get_one_line_each() -> None:
    cases = [
        (["play", "--dark", "human", "--json"], "--json plays without a person"),
        (["play", "--dark", "batman"], "unknown character 'batman'"),
        (["play", "--dark", "priestess,priestess"], "same name cannot be allies"),
        (["play", "--max-rounds", "0"], "--max-rounds"),
        (
            ["play", "--dark", "priestess", "--light", "villager", "--item", "priestess=shovel"],
            "cannot hold items",
        ),
        (
            ["play", "--dark", "dracula", "--light", "villager", "--item", "dracula=shovel"],
            "same number of items",
        ),
        (["play", "--item", "nonsense"], "CHARACTER=ITEM"),
        (["play", "--map", "atlantis"], "atlantis"),
        (["play", "--seed", "many"], "invalid int value"),
        (["bench", "--seconds", "0"], "--seconds"),
        (["bench", "--repeat", "0"], "--repeat"),
        (["nonsense"], "invalid choice"),
    ]
    for args, words in cases:
        result = _run(*args)
        assert result.returncode != 0, args
        assert words in result.stderr, (args, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1, (args, result.stderr)
        assert "Traceback" not in result.stderr


def test_bench_reports_each_measure() -> None:
    """`funkoverse bench --json`: every workload played to the end of at least one game, each
    single operation timed in the mid-game Flags position, and the searches' positions."""
    result = _run("bench", "--seconds", "0.01", "--repeat", "5", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["engine"] in ("kernel", "python")
    assert set(report["workloads"]) == {"flags", "first-game"}
    for workload in report["workloads"].values():
        assert workload["games"] >= 1
        assert workload["steps_per_second"] > 0 and workload["steps_per_game"] > 10
    for key in ("legal_choices_us", "is_legal_us", "apply_us", "copy_us", "odds_us"):
        assert report["operations_us"][key] > 0
    assert report["position"]["workload"] == "flags" and report["position"]["choices"] > 8
    for level in ("hard", "expert"):
        assert report["searches"][level]["positions"] > 0


def test_bench_without_openspiel_says_how_to_install_it() -> None:
    """--vs-openspiel with OpenSpiel missing: one line naming the extra, before any
    measuring."""
    import importlib.util

    if importlib.util.find_spec("pyspiel") is not None:
        from funkoverse.bench import openspiel

        openspiel.available()  # installed here: it must load the game
        return
    result = _run("bench", "--vs-openspiel")
    assert result.returncode != 0
    assert "[bench]" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_draft_chooses_the_teams_in_the_game() -> None:
    """Scenario Setup, step 5, as decisions: `--draft 3` has each side choose three characters
    and an item in the game; the log holds the picks and the summary the teams."""
    result = _run("play", "--seed", "3", "--draft", "3", "--scenario", "flags", "--json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    picks = [c for c in summary["choices"] if c.startswith(("pick:", "give:"))]
    assert len(picks) == 8  # three characters and one item, each side
    for side in ("dark", "light"):
        assert len(summary["sides"][side]["characters"]) == 3
        assert len(summary["sides"][side]["items"]) == 1
    refused = _run("play", "--draft", "3", "--dark", "priestess,villager")
    assert refused.returncode == 2 and "--draft" in refused.stderr


def test_play_save_writes_the_game_after_every_choice_and_load_carries_it_on(
    tmp_path: Path,
) -> None:
    """A game file is its spec, seed and log; --load plays the log again and goes on."""
    path = tmp_path / "game.json"
    first = _run(
        "play",
        "--seed",
        "5",
        "--scenario",
        "flags",
        "--size",
        "2",
        "--max-rounds",
        "2",
        "--save",
        str(path),
        "--json",
    )
    assert first.returncode == 0, first.stderr
    saved = json.loads(path.read_text())
    assert saved["format"] == "funkoverse-game" and saved["seed"] == 5
    assert saved["spec"]["scenario"] == "flags"
    stopped = json.loads(first.stdout)
    assert [e["choice"] for e in saved["log"]] == stopped["choices"]
    later = _run("play", "--load", str(path), "--max-rounds", "200", "--json")
    assert later.returncode == 0, later.stderr
    summary = json.loads(later.stdout)
    assert summary["choices"][: len(stopped["choices"])] == stopped["choices"]
    assert summary["winner"] in ("dark", "light")


def test_replay_steps_through_a_saved_game_and_prints_its_summary(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    assert (
        _run(
            "play", "--seed", "3", "--scenario", "first-knockout", "--save", str(path), "--json"
        ).returncode
        == 0
    )
    summary = json.loads(_run("replay", str(path), "--json").stdout)
    assert summary["over"] and summary["winner"] in ("dark", "light")
    shown = _run("replay", str(path), stdin="n\nn\nb\nr 2\ne\nq\n")
    assert shown.returncode == 0, shown.stderr
    out = shown.stdout
    assert "entry 0 of" in out and "entry 1 of" in out and "entry 2 of" in out
    assert "Round 2" in out and f"{summary['winner']} wins" in out


def test_a_damaged_or_edited_game_file_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    assert (
        _run(
            "play",
            "--seed",
            "3",
            "--scenario",
            "flags",
            "--size",
            "2",
            "--max-rounds",
            "1",
            "--save",
            str(path),
            "--json",
        ).returncode
        == 0
    )
    text = path.read_text()
    data = json.loads(text)
    cases = {
        "cut.json": (text[: len(text) // 2], "damaged or cut short"),
        "format.json": (json.dumps({**data, "format": "chess"}), "not a saved game"),
        "spec.json": (json.dumps({**data, "spec": {**data["spec"], "map": 7}}), "spec field 'map'"),
        "unknown.json": (
            json.dumps({**data, "spec": {**data["spec"], "scenario": "darts"}}),
            "unknown scenario",
        ),
    }
    log = list(data["log"])
    at = next(
        i for i, e in enumerate(log) if e["kind"] == "choice" and e["choice"].startswith("move:")
    )
    log[at] = {**log[at], "choice": "move:z99"}
    cases["illegal.json"] = (json.dumps({**data, "log": log}), f"log entry {at + 1}")
    for name, (body, words) in cases.items():
        bad = tmp_path / name
        bad.write_text(body)
        for command in (["replay", str(bad)], ["play", "--load", str(bad), "--json"]):
            result = _run(*command)
            assert result.returncode == 2, (name, result.stderr)
            assert words in result.stderr, (name, result.stderr)
            assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr

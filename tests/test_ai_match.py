"""`funkoverse match`: what a person and a script see, and the statistics behind it."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from funkoverse.ai.arena import (
    GameResult,
    Thinking,
    game_specs,
    play_game,
    run_match,
    summarize,
    wilson,
)
from funkoverse.cli import main


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "funkoverse", "match", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_json_has_the_keys_and_sane_numbers() -> None:
    result = _run("--a", "random", "--b", "random", "--games", "6", "--seed", "3", "--json")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert set(out) == {"games", "a_wins", "b_wins", "draws", "a_rate", "ci95", "avg_rounds"}
    assert out["games"] == 6
    assert out["a_wins"] + out["b_wins"] + out["draws"] == 6
    assert out["a_rate"] == pytest.approx((out["a_wins"] + out["draws"] / 2) / 6, abs=1e-4)
    lo, hi = out["ci95"]
    assert 0.0 <= lo <= out["a_rate"] <= hi <= 1.0
    assert out["avg_rounds"] >= 1


def test_the_seed_fixes_the_match_and_workers_do_not_change_it() -> None:
    one = _run("--a", "easy", "--b", "random", "--games", "4", "--seed", "9", "--json")
    two = _run(
        "--a", "easy", "--b", "random", "--games", "4", "--seed", "9", "--json", "--workers", "2"
    )
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    assert json.loads(one.stdout) == json.loads(two.stdout)


def test_text_report_names_the_rate_and_interval() -> None:
    result = _run("--a", "greedy", "--b", "random", "--games", "2", "--max-rounds", "4")
    assert result.returncode == 0, result.stderr
    assert "win rate" in result.stdout and "95% CI" in result.stdout
    assert result.stderr == ""  # no progress bar when standard error is not a terminal


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--a", "nobody", "--b", "random"], "unknown agent 'nobody'"),
        (["--a", "random", "--b", "random", "--games", "0"], "--games must be at least 1"),
        (["--a", "random", "--b", "random", "--workers", "0"], "--workers must be at least 1"),
        (["--a", "random", "--b", "random", "--scenario", "nowhere"], "unknown scenario"),
        (["--a", "random", "--b", "random", "--size", "3"], "--size needs --scenario"),
        (["--a", "random", "--b", "random", "--scenario", "flags", "--size", "5"], "--size"),
        (["--a", "random", "--b", "random", "--map", "nowhere"], "unknown map"),
    ],
)
def test_bad_input_is_one_line(args: list[str], words: str) -> None:
    result = _run(*args)
    assert result.returncode != 0
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert words in lines[0]
    assert "Traceback" not in result.stderr


def test_bad_input_in_process_returns_non_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "--a", "random", "--b", "random", "--games", "-3"]) != 0
    assert "--games" in capsys.readouterr().err


def test_sides_and_first_player_alternate() -> None:
    specs = game_specs("a", "b", 8)
    assert [s.a_seat for s in specs[:4]] == [0, 1, 0, 1]
    assert [s.first_seat for s in specs[:4]] == [0, 0, 1, 1]
    assert len({s.seed for s in specs}) == 8
    # each block of four games shares its draw of teams and map
    assert [s.setup_seed for s in specs] == [specs[0].setup_seed] * 4 + [specs[4].setup_seed] * 4
    results = [play_game(s) for s in game_specs("random", "random", 4, max_rounds=1)]
    assert [r.a_side for r in results] == ["dark", "light", "dark", "light"]


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and 0.25 < hi < 0.35
    lo, hi = wilson(10, 10)
    assert hi == 1.0 and 0.65 < lo < 0.75


def test_summary_counts_draws_half() -> None:
    results = [
        GameResult(0, "dark", "dark", 5),
        GameResult(1, "light", "dark", 7),
        GameResult(2, "dark", None, 30),
        GameResult(3, "light", "light", 3),
    ]
    s = summarize(results)
    assert (s.a_wins, s.b_wins, s.draws) == (2, 1, 1)
    assert s.a_rate == pytest.approx(2.5 / 4)
    assert s.avg_rounds == pytest.approx(45 / 4)


def test_a_scenario_with_three_characters_a_side_plays() -> None:
    result = _run(
        "--a",
        "greedy",
        "--b",
        "random",
        "--games",
        "2",
        "--scenario",
        "flags",
        "--size",
        "3",
        "--max-rounds",
        "2",
        "--json",
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["games"] == 2


def test_thinking_is_counted_per_decision_and_per_turn() -> None:
    s = run_match("greedy", "random", 2, seed=4, max_rounds=3)
    t = s.thinking["a"]
    assert t.decisions >= len(t.turns) > 0
    mean, p95, most = s.per_turn("a")
    assert 0 < mean <= most and p95 <= most
    assert s.per_decision("a") * t.decisions == pytest.approx(t.seconds)
    assert isinstance(s.thinking["b"], Thinking)


def test_greedy_beats_random_in_a_short_match() -> None:
    s = run_match("greedy", "random", 6, seed=1)
    assert s.a_wins >= 5


def test_a_level_searches_a_game_on_the_python_engine_on_the_kernel_with_its_settings() -> None:
    """A level's budgets are for the compiled kernel, which searches a game played on the
    Python engine too (the seat's view loaded into it): the level keeps its settings there,
    and settings written out hold."""
    from funkoverse.ai.agents import EXPERT, HARD, agent_factory
    from funkoverse.ai.arena import build_setup
    from funkoverse.rules.engines import PYTHON
    from funkoverse.rules.session import Session

    session = Session(build_setup("flags", None, None, 5, 3), 5, engine=PYTHON)
    seat = session.decider
    assert seat in session.seats
    for name, settings in (("hard", HARD), ("expert", EXPERT)):
        agent = agent_factory(name)(1)
        agent.decide(session.turn(seat))
        assert agent.simple is None and agent._kernel_search is not None  # type: ignore[attr-defined]
        assert agent.turn_budget == settings["turn_budget"]  # type: ignore[attr-defined]
        assert agent.beam_positions == settings["beam_positions"]  # type: ignore[attr-defined]
    expert = agent_factory("expert:positions=9000")(1)
    expert.decide(session.turn(seat))
    assert expert.turn_budget == 9000  # type: ignore[attr-defined]
    assert expert.widths == EXPERT["width"]  # type: ignore[attr-defined]


def test_an_agent_may_be_given_a_budget_and_a_bad_one_is_refused_naming_it() -> None:
    from funkoverse.ai.agents import agent_factory
    from funkoverse.errors import UserError

    hard = agent_factory("hard:positions=300")(1)
    assert hard.name == "hard:positions=300"
    assert hard.turn_budget == 300  # type: ignore[attr-defined]
    assert agent_factory("expert")(1).name == "expert"
    expert = agent_factory("expert:positions=8000,width=2x1,reply-beam=2,beam-positions=3000")(1)
    assert (expert.turn_budget, expert.widths, expert.reply_beam) == (8000, (2, 1), 2)  # type: ignore[attr-defined]
    assert expert.beam_positions == 3000  # type: ignore[attr-defined]
    for text, says in [
        ("godlike", "unknown agent 'godlike'"),
        ("mcts", "unknown agent 'mcts'"),
        ("mcts:simulations=400", "unknown agent 'mcts'"),
        ("hard:moves=3", "hard:positions=N"),
        ("hard:positions=0", "above 0"),
        ("hard:positions=10,beam=x", "hard:beam=N"),
        ("hard:width=3x2", "hard takes positions=N, beam=N, beam-positions=N"),
        ("expert:width=3x0", "expert:width=N or NxN"),
        ("random:positions=3", "takes no budget"),
    ]:
        with pytest.raises(UserError, match=re.escape(says)):
            agent_factory(text)

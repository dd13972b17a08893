"""The balance lab's sweep (issue 22, item 1 and 2): every two-a-side matchup of the shipped
characters on Flags, the same on the local and the Ray backend for one master seed; killed
halfway and started again, it finishes without playing a game twice."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from funkoverse.cli import main
from funkoverse.lab.plan import game_seed, matchups, plan
from funkoverse.lab.store import Store

ROOT = Path(__file__).resolve().parent.parent
SWEEP = ["--roster", "all", "--size", "2", "--scenario", "flags", "--agent", "random"]
HALF = 630  # the kill test plays two games of each of the 630 matchups


def _need_ray() -> None:
    if importlib.util.find_spec("ray") is None:
        message = "ray is not installed: pip install -e '.[lab]'"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


def test_every_two_a_side_flags_matchup_is_planned_with_seats_and_first_player_alternated() -> None:
    found = matchups("all", 2, ["flags"], agent_a="random")
    assert len(found) == 630  # pairs of 2-character teams of the 10 shipped, no one on both
    assert all(not set(m.a.characters) & set(m.b.characters) for m in found)
    tasks = plan(found[:1], 4, master_seed=7)
    assert [t.a_side for t in tasks] == ["dark", "light", "dark", "light"]
    firsts = [t.spec for t in tasks]
    assert '"first_player":"dark"' in firsts[0] and '"first_player":"light"' in firsts[2]
    assert len({t.seed for t in tasks}) == 4
    assert tasks[0].seed == game_seed(7, found[0].key, 0)


def test_local_and_ray_backends_give_identical_results(tmp_path: Path) -> None:
    _need_ray()
    # a few games each: four play each team from each seat, first and second
    common = [*SWEEP, "--games", "4", "--max-rounds", "3", "--seed", "5"]
    assert main(["simulate", *common, "--out", str(tmp_path / "local.db")]) == 0
    assert main(["simulate", *common, "--out", str(tmp_path / "two.db"), "--workers", "2"]) == 0
    assert main(["simulate", *common, "--out", str(tmp_path / "ray.db"), "--backend", "ray"]) == 0
    with Store(tmp_path / "local.db") as a, Store(tmp_path / "two.db") as b:
        local = a.results()
        assert len(local) == a.count("plan") == 4 * 630
        assert b.results() == local
    with Store(tmp_path / "ray.db") as c:
        assert c.results() == local
    # a finished game replays from its spec, seed and log
    from funkoverse.content.setups import build
    from funkoverse.rules.core.spec import SetupSpec
    from funkoverse.rules.session import Entry, Session

    db = sqlite3.connect(tmp_path / "ray.db")
    spec, seed, log, a_side, points_a = db.execute(
        "SELECT spec, seed, log, a_side, points_a FROM games ORDER BY points_a DESC LIMIT 1"
    ).fetchone()
    replayed = Session(
        build(SetupSpec.from_json(spec)), seed, [Entry.from_json(e) for e in json.loads(log)]
    )
    assert replayed.state.sides[a_side].points == points_a > 0


def test_killed_halfway_it_resumes_without_replaying_a_finished_game(tmp_path: Path) -> None:
    """Two games of every matchup (1,260), SIGKILL once half of them are stored."""
    out = tmp_path / "results.db"
    args = [sys.executable, "-m", "funkoverse", "simulate", *SWEEP, "--games", "2"]
    args += ["--max-rounds", "3", "--seed", "9", "--out", str(out)]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    stored = 0
    while time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
        if out.exists():
            try:
                with sqlite3.connect(out, timeout=5) as db:
                    stored = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
            except sqlite3.OperationalError:
                continue
            if stored >= HALF:
                break
    assert proc.poll() is None, "the run finished before it could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.wait(30)
    with Store(out) as store:
        before = {r[0]: r for r in store.results()}
        planned = store.count("plan")
    assert HALF <= len(before) < planned == 2 * HALF
    done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"{planned - len(before)} played now ({len(before)} stored before)" in done.stdout
    with Store(out) as store:
        after = {r[0]: r for r in store.results()}
        assert store.count() == store.count("plan") == planned
    db = sqlite3.connect(out)
    assert db.execute("SELECT COUNT(DISTINCT game_id) FROM games").fetchone()[0] == planned
    assert all(after[k] == row for k, row in before.items())  # finished games untouched
    # and the whole is what one uninterrupted run stores
    fresh = tmp_path / "fresh.db"
    again = subprocess.run(
        [*args[:-1], str(fresh)], env=env, capture_output=True, text=True, timeout=300
    )
    assert again.returncode == 0, again.stderr
    with Store(fresh) as store:
        assert {r[0]: r for r in store.results()} == after


def test_ray_backend_without_ray_says_how_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray: ImportError
    from funkoverse.errors import UserError
    from funkoverse.lab.run import RAY_INSTALL, run

    tasks = plan(matchups(["the-cheetah", "priestess"], 1, ["knockout"]), 1, 0)
    with pytest.raises(UserError) as e, Store(tmp_path / "r.db") as store:
        run(tasks, store, backend="ray")
    assert str(e.value) == RAY_INSTALL
    assert "pip install -e '.[lab]'" in RAY_INSTALL


def test_two_agents_play_every_pair_both_ways_so_no_team_is_its_agent() -> None:
    """With greedy against random, a team's figures must not be greedy's: each pair of teams
    is played with each team on each agent, as often."""
    roster = ["the-cheetah", "wonder-woman", "priestess", "villager"]
    found = matchups(roster, 2, ["flags"], agent_a="greedy", agent_b="random")
    with_greedy: dict[tuple[str, str], list[str]] = {}
    for task in plan(found, 4, master_seed=1):
        pair = tuple(sorted((task.team_a, task.team_b)))
        greedy = task.team_a if task.agent_a == "greedy" else task.team_b
        assert {task.agent_a, task.agent_b} == {"greedy", "random"}
        with_greedy.setdefault(pair, []).append(greedy)  # type: ignore[arg-type]
    assert len(with_greedy) == 3
    for (a, b), greedy_teams in with_greedy.items():
        assert greedy_teams.count(a) == greedy_teams.count(b) == 4


def test_focus_puts_the_focused_team_on_side_a() -> None:
    """A one-sided bar (a=...) with --focus hits the focused card's team in every matchup."""
    found = matchups("all", 2, ["flags"], agent_a="random", focus=["the-cheetah"])
    assert len(found) == 252  # the Cheetah's 9 teams against the 28 without her
    assert all("the-cheetah" in m.a.characters for m in found)


def test_a_new_seed_into_an_old_store_is_refused_and_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "results.db"
    small = ["simulate", "--roster", "the-cheetah,priestess,villager", "--size", "1"]
    small += ["--scenario", "knockout", "--agent", "random", "--games", "2", "--max-rounds", "3"]
    small += ["--out", str(db)]
    assert main([*small, "--seed", "7"]) == 0
    with Store(db) as store:
        rows = store.results()
    capsys.readouterr()
    assert main([*small, "--seed", "8"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert "planned with master seed 7, not 8" in err and "--seed 7" in err
    with Store(db) as store:
        assert store.results() == rows
        assert store.meta("last_run")["seed"] == 7
    assert main([*small, "--seed", "7"]) == 0  # the same seed still adds to it


def test_an_unreachable_ray_address_fails_at_once_and_leaves_no_store(tmp_path: Path) -> None:
    out = tmp_path / "results.db"
    args = [sys.executable, "-m", "funkoverse", "simulate", "--roster", "the-cheetah,priestess"]
    args += ["--size", "1", "--scenario", "knockout", "--backend", "ray"]
    args += ["--address", "127.0.0.1:1", "--out", str(out)]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "--address 127.0.0.1:1" in done.stderr
    assert "no Ray cluster answers there" in done.stderr
    assert not out.exists()


def test_a_run_that_cannot_start_leaves_no_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "results.db"
    small = ["simulate", "--roster", "the-cheetah,priestess", "--size", "1"]
    small += ["--scenario", "knockout", "--out", str(out)]
    assert main([*small, "--workers", "0"]) == 2
    assert "--workers must be at least 1" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "ray", None)  # Ray not installed
    assert main([*small, "--backend", "ray"]) == 2
    assert "pip install -e '.[lab]'" in capsys.readouterr().err
    assert not out.exists()

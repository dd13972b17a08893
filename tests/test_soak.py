"""`funkoverse soak`: a slice of the soak in CI, and proof that it finds what it looks for (a
broken invariant, a log that replays to another game, a secret shown, a crash inside a
game, a worker process that dies) and names the game so it plays again."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import funkoverse.rules.play.engine as engine
import funkoverse.rules.session as session_module
from funkoverse.cli import main
from funkoverse.content.scenarios import load_scenarios
from funkoverse.rules.core.state import GameState
from funkoverse.soak import game as soak_game
from funkoverse.soak.run import game_ids
from funkoverse.soak.ways import spec_for, way_of, ways

SRC = Path(__file__).resolve().parent.parent / "src"


def _soak(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any, str]:
    status = main(["soak", "--quiet", "--json", *args])
    out, err = capsys.readouterr()
    return status, json.loads(out), err


# ------------------------------------------------------------------ the slice in CI


def test_a_slice_of_random_and_ai_games_over_every_way_to_play_finds_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, result, err = _soak(capsys, "--games", "40", "--ai-games", "2", "--max-rounds", "40")
    assert status == 0, err
    assert result["failures"] == [] and err == ""
    assert result["games"] == {"random": 40, "ai": 2}
    assert sorted(result["covered"]["way"]) == sorted(w.name for w in ways())
    assert set(result["covered"]["scenario"]) == set(load_scenarios())
    assert result["choices_checked"] > 10_000
    assert result["choice_ids_read_back"] > result["choices_checked"]
    assert result["secrecy_checks"] > 0


def test_a_slice_on_the_python_engine_finds_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    before = os.environ.get("FUNKOVERSE_ENGINE")
    status, result, err = _soak(
        capsys, "--games", "10", "--ai-games", "0", "--max-rounds", "8", "--engine", "python"
    )
    assert status == 0, err
    assert result["engine"] == "python" and result["failures"] == []
    assert os.environ.get("FUNKOVERSE_ENGINE") == before  # the edge's choice is undone


def test_every_scenario_and_every_map_it_allows_has_a_way_and_every_seed_draws_a_setup() -> None:
    played = {(scenario, m) for w in ways() for scenario, m in w.options}
    for s in load_scenarios().values():
        assert {(s.id, m) for m in s.maps} <= played, s.id
    most = max(len(w.options) for w in ways())
    for seed in range(len(ways()) * most):
        way, scenario, map_id = way_of(seed)
        name, spec = spec_for(seed)
        assert (name, spec.scenario, spec.map) == (way.name, scenario, map_id)


def test_the_ai_games_spread_among_the_random_ones_and_seeds_follow_on() -> None:
    ids = list(game_ids(6, 3, seed=100))
    assert sorted(ids) == sorted(
        [f"random:{s}" for s in range(100, 106)] + [f"ai:{s}" for s in range(100, 103)]
    )
    assert ids.index("ai:100") < 4 and ids[-1] == "ai:102"


# ------------------------------------------------------------------ it finds what is wrong


def _lose_a_token(monkeypatch: pytest.MonkeyPatch, after: int) -> None:
    """A broken rule: from the `after`-th choice on, the deciding side's pool loses a token."""
    real = engine.apply
    count = [0]

    def apply(state: GameState, choice: Any) -> Any:
        events = real(state, choice)
        count[0] += 1
        if count[0] == after:
            pool = next(
                state.sides[s].pool for s in state.seats if any(state.sides[s].pool.values())
            )
            color = next(c for c, n in pool.items() if n)
            pool[color] -= 1
        return events

    monkeypatch.setattr(engine, "apply", apply)


def test_a_broken_rule_is_a_failure_named_with_the_game_that_plays_it_again(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _lose_a_token(monkeypatch, after=30)
    args = ["--games", "1", "--ai-games", "0", "--engine", "python", "--max-rounds", "10"]
    status, result, err = _soak(capsys, *args, "--failures", str(tmp_path))
    assert status == 1
    [failure] = result["failures"]
    assert failure["game"] == "random:0"
    assert "ability tokens are not all in its pool or on its cooldown track" in failure["failure"]
    [line] = err.splitlines()
    assert line.startswith("FAILED random:0 [standard: control on draculas-castle, ")
    assert line.endswith(
        "(again: funkoverse soak --replay random:0 --max-rounds 10 --engine python)"
    )
    saved = json.loads((tmp_path / "random-0.json").read_text())
    assert saved["format"] == "funkoverse-game" and len(saved["log"]) >= 29
    assert "ability tokens" in (tmp_path / "random-0.txt").read_text()
    # the game plays again from its id alone, with the same failure
    monkeypatch.undo()
    _lose_a_token(monkeypatch, after=30)
    status, again, err = _soak(capsys, "--replay", "random:0", *args[4:])
    assert status == 1 and again["failures"] == result["failures"]


def test_a_log_that_replays_to_another_game_is_a_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule that keeps state outside the game (here: a count of every choice ever made)
    plays a saved log to another position."""
    real = engine.apply
    count = [0]

    def apply(state: GameState, choice: Any) -> Any:
        count[0] += 1
        if count[0] == 40:
            state.sides[state.seats[0]].points += 1
        return real(state, choice)

    monkeypatch.setattr(engine, "apply", apply)
    outcome = soak_game.play("random:0", max_rounds=10, engine="python")
    assert outcome.failure == "the saved log replays to another game: different events"


def test_a_secret_shown_to_a_rival_is_a_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(session_module, "observe", lambda state, seat: state)
    secret_draft = next(s for s in range(20) if way_of(s)[0].name == "secret-draft")
    outcome = soak_game.play(f"random:{secret_draft}", max_rounds=10)
    assert outcome.failure is not None and "secret shown" in outcome.failure
    assert outcome.secrecy > 0


def test_an_exception_inside_a_game_is_that_games_failure_not_a_crash(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FUNKOVERSE_ENGINE", "python")

    def apply(state: GameState, choice: Any) -> Any:
        raise KeyError("lost")

    monkeypatch.setattr(engine, "apply", apply)
    status, result, err = _soak(capsys, "--games", "2", "--ai-games", "0")
    assert status == 1 and len(result["failures"]) == 2
    assert result["failures"][0]["failure"].startswith("KeyError at test_soak.py:")
    assert "Traceback" not in err


def test_a_worker_process_that_dies_names_the_game_it_was_playing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = soak_game.spec_for

    def spec_for(seed: int) -> Any:
        if seed == 2:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(seed)

    monkeypatch.setattr(soak_game, "spec_for", spec_for)  # forked workers inherit it
    status, result, err = _soak(capsys, "--games", "5", "--ai-games", "0", "--workers", "2")
    assert "FAILED random:2 " in err
    assert status == 1
    assert result["games"]["random"] == 5
    [failure] = result["failures"]
    assert failure["game"] == "random:2"
    assert failure["failure"] == "the worker process playing it died (killed by SIGKILL)"
    assert failure["setup"].startswith("teams-3: ")


# ------------------------------------------------------------------ the command


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--workers", "0"], "--workers must be at least 1"),
        (["--games", "0", "--ai-games", "0"], "nothing to play"),
        (["--games", "-3"], "0 or more"),
        (["--replay", "seed7"], "expected a game as the soak names it"),
        (["--max-rounds", "0"], "--max-rounds must be at least 1"),
        (["--time-limit", "0"], "--time-limit must be"),
    ],
)
def test_bad_options_get_one_line(
    args: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["soak", *args]) == 2
    err = capsys.readouterr().err
    assert said in err and len(err.splitlines()) == 1


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_the_workers_end_with_the_command(how: signal.Signals) -> None:
    """SIGTERM stops the run and its workers at once; after a SIGKILL of the command its
    workers notice within a second and exit."""
    command = [sys.executable, "-m", "funkoverse", "soak", "--games", "100000"]
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    proc = subprocess.Popen(
        [*command, "--workers", "2", "--quiet", "--ai-games", "0"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    workers: list[int] = []
    while len(workers) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
        workers = _children(proc.pid)
    assert len(workers) == 2
    proc.send_signal(how)
    proc.wait(timeout=20)
    deadline = time.monotonic() + 10
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(_alive(w) for w in workers)
    if how == signal.SIGTERM:
        assert proc.returncode == 143
        assert proc.stderr is not None
        assert proc.stderr.read().startswith("funkoverse soak: stopped after ")
        assert proc.stdout is not None
        assert "random and 0 AI games on" in proc.stdout.read()

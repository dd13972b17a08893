"""A run's worker processes die with it (issue 32): stopped with SIGTERM, a run stops as
on Ctrl-C, keeping what it stored; killed with SIGKILL, its workers notice and go."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (read from /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    """Running, not gone nor a zombie waiting to be reaped."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _run_until_playing(tmp_path: Path) -> tuple[subprocess.Popen[bytes], list[int]]:
    """A two-worker run, once its workers have stored some games."""
    out = tmp_path / "results.db"
    args = [sys.executable, "-m", "funkoverse", "simulate", "--roster", "all", "--size", "2"]
    args += ["--agent", "random", "--games", "50", "--workers", "2", "--out", str(out)]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.1)
        try:
            with sqlite3.connect(out, timeout=5) as db:
                if db.execute("SELECT COUNT(*) FROM games").fetchone()[0] >= 20:
                    break
        except sqlite3.OperationalError:
            continue
    assert proc.poll() is None, "the run ended before it could be stopped"
    workers = _children(proc.pid)
    assert len(workers) >= 2
    return proc, workers


def _gone_soon(pids: list[int], seconds: float = 15) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(_alive(p) for p in pids):
        time.sleep(0.1)
    return [p for p in pids if _alive(p)]


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL])
def test_the_workers_die_with_the_run(tmp_path: Path, signum: int) -> None:
    proc, workers = _run_until_playing(tmp_path)
    try:
        proc.send_signal(signum)
        proc.wait(30)
        left = _gone_soon(workers)
        assert not left, f"workers still running after {signal.Signals(signum).name}: {left}"
        if signum == signal.SIGTERM:  # stopped as on Ctrl-C: said so, what is stored kept
            assert proc.returncode == 128 + signal.SIGTERM
            err = proc.stderr.read().decode() if proc.stderr else ""
            assert "interrupted;" in err and "run the same command again" in err
    finally:
        for pid in workers:  # never leave them behind, whatever the outcome
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()

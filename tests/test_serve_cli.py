"""`funkoverse serve` answers bad input with one line naming what is wrong, and starts
nothing."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "funkoverse", "serve", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, result
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]


def test_a_port_out_of_range_is_refused(tmp_path: Path) -> None:
    assert "--port" in one_line(serve("--port", "70000", "--db", str(tmp_path / "g.db")))


def test_a_port_already_taken_is_refused_before_serving(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = one_line(serve("--port", str(port), "--db", str(tmp_path / "g.db")))
    assert f"cannot listen on 127.0.0.1:{port}" in line
    assert "serving" not in line


def test_a_database_that_cannot_be_opened_is_refused(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a folder")
    line = one_line(serve("--port", "18001", "--db", str(tmp_path / "file" / "g.db")))
    assert "games database" in line


def test_workers_must_be_at_least_one(tmp_path: Path) -> None:
    assert "--workers" in one_line(serve("--workers", "0", "--db", str(tmp_path / "g.db")))


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    db.write_bytes(b"this is not SQLite at all" * 200)
    line = one_line(serve("--port", "18002", "--db", str(db)))
    assert "not a games database" in line
    assert db.read_bytes().startswith(b"this is not SQLite")  # left as it was

"""A real `funkoverse serve` process on a free port, for the restart and browser tests."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """`funkoverse serve --db DB` in its own process group, started and stopped whole."""

    def __init__(
        self, db: Path, workers: int = 1, port: int | None = None, extra: tuple[str, ...] = ()
    ) -> None:
        self.db = db
        self.extra = extra
        self.workers = workers
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = db.with_suffix(".log")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60.0) -> LiveServer:
        command = [sys.executable, "-m", "funkoverse", "serve", "--port", str(self.port)]
        command += ["--db", str(self.db), "--workers", str(self.workers), *self.extra]
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"funkoverse serve stopped: {self.log.read_text()[-2000:]}")
            try:
                if self.get("/api/health") == {"ok": True}:
                    return self
            except (OSError, urllib.error.URLError):
                time.sleep(0.2)
        raise RuntimeError(f"funkoverse serve did not answer in {timeout} s")

    def kill_server_only(self) -> None:
        """SIGKILL to the server's own process, not its workers (a crash of the server)."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def group_alive(self) -> list[int]:
        """The processes still alive in the server's process group (its workers)."""
        if self.process is None:
            return []
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z" and int(fields[2]) == self.process.pid:
                found.append(int(entry.name))
        return found

    def kill(self) -> None:
        """SIGKILL to the server and its worker processes, at once."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
        self.process = None

    def request(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return r.status, json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"null")

    def get(self, path: str, token: str | None = None) -> Any:
        status, body = self.request("GET", path, token=token)
        assert status == 200, (status, body)
        return body

    def post(self, path: str, body: Any, token: str | None = None) -> Any:
        status, answer = self.request("POST", path, body, token)
        assert status in (200, 201), (status, answer)
        return answer

    def wait_for(
        self, game: str, token: str | None, done: Any, timeout: float = 120.0
    ) -> dict[str, Any]:
        """The seat's view once `done(view)` holds (the computer's seats think meanwhile)."""
        deadline = time.monotonic() + timeout
        while True:
            v: dict[str, Any] = self.get(f"/api/games/{game}", token)
            if done(v):
                return v
            if time.monotonic() > deadline:
                raise AssertionError(f"still waiting after {timeout} s: {v['decider']} decides")
            time.sleep(0.1)

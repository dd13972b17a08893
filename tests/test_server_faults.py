"""A real `funkoverse serve` under faults: a watcher that never reads, a crash that leaves no
worker behind, a full disk, and kills at random moments of several games (server-api.md,
"Added 2026-12-03": nothing lost, nobody stalled)."""

from __future__ import annotations

import base64
import os
import random
import socket
import sqlite3
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from liveserver import LiveServer

pytestmark = pytest.mark.xdist_group("live-server")

HOT_SEAT = {
    "scenario": "flags",
    "map": "themyscira",
    "size": 3,
    "seats": {"dark": {"player": "human"}, "light": {"player": "human"}},
}


def never_reading_socket(server: LiveServer, game: str) -> socket.socket:
    """A WebSocket to `game` that completes its handshake and then never reads a byte."""
    raw = socket.create_connection(("127.0.0.1", server.port))
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall(
        (
            f"GET /api/games/{game}/ws HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += raw.recv(1)
    assert b" 101 " in answer.split(b"\r\n")[0], answer
    return raw


def send_frame(raw: socket.socket, text: str) -> None:
    """A masked text frame, as a client sends one (RFC 6455, 5.2)."""
    data = text.encode()
    mask = os.urandom(4)
    n = len(data)
    head = bytes([0x81]) + (
        bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + n.to_bytes(2, "big")
    )
    raw.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))


def hot_seat_step(server: LiveServer, game: str, tokens: dict[str, str], n: int) -> dict[str, Any]:
    v = server.get(f"/api/games/{game}")
    seat = v["decider"]
    mine = server.get(f"/api/games/{game}", tokens[seat])
    choice = mine["choices"][n % len(mine["choices"])]["id"]
    return server.post(
        f"/api/games/{game}/choices", {"choice": choice, "version": mine["version"]}, tokens[seat]
    )


def test_a_watcher_that_never_reads_delays_nobody(tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "games.db").start()
    try:
        made = server.post("/api/games", {**HOT_SEAT, "seed": 4})
        game = made["game"]
        tokens = {s: t["token"] for s, t in made["seats"].items()}
        stuck = never_reading_socket(server, game)
        for _ in range(300):  # it asks for the whole view again and again, reading nothing
            send_frame(stuck, '{"type": "view"}')
        # each view carries the whole log to that socket: its buffers fill within a few
        # dozen choices, and then the server must stop waiting for it
        started = time.monotonic()
        for n in range(150):
            v = hot_seat_step(server, game, tokens, n)
            if v["status"] == "finished":
                break
        spent = time.monotonic() - started
        # not a timing test: a server that waited on the socket would take minutes (each
        # send would block until the socket drains), and the request timeout would fail it
        assert spent < 120, spent
        # the stuck socket was dropped, and the server said so in its log
        deadline = time.monotonic() + 30
        while "too slow" not in server.log.read_text() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert "too slow" in server.log.read_text()
        stuck.close()
        assert server.get("/api/health") == {"ok": True}
    finally:
        server.stop()


def test_a_server_killed_outright_leaves_no_worker_behind(tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "games.db", workers=2).start()
    try:
        made = server.post(
            "/api/games",
            {
                "scenario": "flags",
                "size": 2,
                "seed": 3,
                "seats": {"dark": {"player": "ai", "level": "easy"}, "light": {"player": "ai"}},
            },
        )
        server.wait_for(made["game"], None, lambda v: v["version"] > 8)
        assert len(server.group_alive()) >= 2  # the server and its workers
        server.kill_server_only()
        deadline = time.monotonic() + 20
        while server.group_alive() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert server.group_alive() == [], "worker processes outlived the server"
    finally:
        server.kill()


def test_a_full_disk_refuses_choices_with_503_and_loses_nothing(tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "games.db").start()
    assert server.process is not None
    pid = server.process.pid
    try:
        made = server.post("/api/games", {**HOT_SEAT, "seed": 8})
        game = made["game"]
        tokens = {s: t["token"] for s, t in made["seats"].items()}
        for n in range(5):
            hot_seat_step(server, game, tokens, n)
        sizes = [p.stat().st_size for p in tmp_path.glob("games.db*")]
        # no file of the server may grow past its size now: the next write fails
        subprocess.run(["prlimit", f"--pid={pid}", f"--fsize={max(sizes)}:unlimited"], check=True)
        try:
            refusals = 0
            for _ in range(40):
                v = server.get(f"/api/games/{game}")
                seat = v["decider"]
                mine = server.get(f"/api/games/{game}", tokens[seat])
                status, body = server.request(
                    "POST",
                    f"/api/games/{game}/choices",
                    {"choice": mine["choices"][0]["id"], "version": mine["version"]},
                    tokens[seat],
                )
                assert status in (200, 503), (status, body)
                if status == 503:
                    refusals += 1
                    assert body["error"]["code"] == "unavailable"
                    assert server.get(f"/api/games/{game}")["version"] == mine["version"]
            assert refusals > 0
        finally:
            subprocess.run(["prlimit", f"--pid={pid}", "--fsize=unlimited:unlimited"], check=True)
        acknowledged = server.get(f"/api/games/{game}")
        after = hot_seat_step(server, game, tokens, 1)  # service resumes
        assert after["version"] > acknowledged["version"]
        server.kill()
        server.start()
        again = server.get(f"/api/games/{game}")
        assert again["version"] == after["version"]
        assert again["log"] == server.get(f"/api/games/{game}")["log"]
    finally:
        server.stop()


def test_a_write_waiting_on_a_locked_database_holds_up_no_other_request(tmp_path: Path) -> None:
    import threading

    db = tmp_path / "games.db"
    server = LiveServer(db).start()
    try:
        made = server.post("/api/games", {**HOT_SEAT, "seed": 9})
        game = made["game"]
        tokens = {s: t["token"] for s, t in made["seats"].items()}
        v = server.get(f"/api/games/{game}")
        mine = server.get(f"/api/games/{game}", tokens[v["decider"]])
        other = sqlite3.connect(str(db), isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        answered: list[int] = []
        waiting = threading.Thread(
            target=lambda: answered.append(
                server.request(
                    "POST",
                    f"/api/games/{game}/choices",
                    {"choice": mine["choices"][0]["id"], "version": mine["version"]},
                    tokens[v["decider"]],
                )[0]
            )
        )
        try:
            waiting.start()
            time.sleep(0.2)  # the write is now waiting on the lock, on the database's thread
            views = 0
            while waiting.is_alive() and views < 3:
                assert server.get(f"/api/games/{game}")["version"] == mine["version"]
                views += 1
            # other requests were answered while the write waited (the loop never blocked)
            assert views == 3 and waiting.is_alive()
        finally:
            waiting.join(30)
            other.execute("ROLLBACK")
            other.close()
        assert answered == [503]
    finally:
        server.stop()


def test_kills_at_random_moments_of_several_games_lose_no_acknowledged_choice(
    tmp_path: Path,
) -> None:
    """A slice of the fault run of docs/reliability.md: a few games, a kill every few choices."""
    rng = random.Random(5)
    server = LiveServer(tmp_path / "games.db").start()
    acknowledged: dict[str, int] = {}
    try:
        games: dict[str, dict[str, str]] = {}
        for n in range(3):
            made = server.post("/api/games", {**HOT_SEAT, "seed": 30 + n})
            games[made["game"]] = {s: t["token"] for s, t in made["seats"].items()}
        for _round in range(4):
            for _ in range(rng.randrange(3, 12)):
                game = rng.choice(list(games))
                v = hot_seat_step(server, game, games[game], rng.randrange(100))
                acknowledged[game] = v["version"]
            server.kill()
            server.start()
            for game, version in acknowledged.items():
                assert server.get(f"/api/games/{game}")["version"] >= version
        with sqlite3.connect(str(tmp_path / "games.db")) as db:
            for game in games:
                indices = [
                    i
                    for (i,) in db.execute(
                        "SELECT idx FROM entries WHERE game = ? ORDER BY idx", (game,)
                    )
                ]
                assert indices == list(range(len(indices)))
    finally:
        server.stop()

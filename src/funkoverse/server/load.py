"""`funkoverse bench --server --load`: many games at once against a real server on loopback.

An asyncio load generator on the `websockets` client: games against the computer and
hot-seat games, each seat a socket that answers its turn after a person's thinking time,
spectators, and one watcher that never reads what it is sent. Every acknowledgement is
timed (a choice sent to the view that holds it), and checked afterwards against the log the
server's database holds: a choice acknowledged at version v is the log's entry v.

A second run (`--watchers N`) measures how much N watchers of one game delay another
game's acknowledgements: the other game alone, then beside the watched one.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import random
import resource
import socket
import sqlite3
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from funkoverse.errors import UserError
from funkoverse.server.bench import _free_port, _percentile, _serve

VS_AI = {
    "scenario": "flags",
    "map": "themyscira",
    "size": 3,
    "seats": {"dark": {"player": "human"}, "light": {"player": "ai", "level": "normal"}},
}
HOT_SEAT = {
    "scenario": "flags",
    "map": "themyscira",
    "size": 3,
    "seats": {"dark": {"player": "human"}, "light": {"player": "human"}},
}


@dataclass
class Tally:
    """What the clients saw: acknowledgement times, errors, and each acknowledged choice."""

    acks: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    acknowledged: list[tuple[str, int, str]] = field(default_factory=list)  # game, version, id
    views: int = 0


def _raise_open_files() -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


async def _post(port: int, path: str, body: Any) -> Any:
    """One JSON POST over a fresh connection (only to create games)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    data = json.dumps(body).encode()
    writer.write(
        (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n"
        ).encode()
        + data
    )
    await writer.drain()
    raw = await reader.read()
    writer.close()
    head, _, payload = raw.partition(b"\r\n\r\n")
    status = int(head.split()[1])
    if status not in (200, 201):
        raise UserError(f"the server answered {status} to POST {path}: {payload[:200]!r}")
    return json.loads(payload)


async def _seat(
    port: int,
    game: str,
    seat: str,
    token: str,
    tally: Tally,
    stop: asyncio.Event,
    think: tuple[float, float],
    rng: random.Random,
) -> None:
    """One seat's socket: it answers its turns (a random legal choice after `think` seconds)
    and times each acknowledgement."""
    from websockets.asyncio.client import connect

    url = f"ws://127.0.0.1:{port}/api/games/{game}/ws?token={token}"
    pending: tuple[int, float, str] | None = None
    async with connect(url, max_size=None, ping_interval=None) as ws:
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), 1.0)
            except TimeoutError:
                continue
            message = json.loads(text)
            if message["type"] == "error":
                if message["error"]["code"] not in ("stale", "not_your_turn", "finished"):
                    tally.errors.append(f"{game}/{seat}: {message['error']}")
                pending = None
                continue
            view = message["view"]
            tally.views += 1
            if pending is not None and view["version"] > pending[0]:
                tally.acks.append((time.perf_counter() - pending[1]) * 1000)
                tally.acknowledged.append((game, pending[0], pending[2]))
                pending = None
            if view["status"] == "finished" or view["decider"] != seat or pending is not None:
                continue
            await asyncio.sleep(rng.uniform(*think))
            if stop.is_set():
                break
            choice = rng.choice(view["choices"])["id"]
            pending = (view["version"], time.perf_counter(), choice)
            await ws.send(
                json.dumps({"type": "choice", "choice": choice, "version": view["version"]})
            )


async def _spectator(port: int, game: str, stop: asyncio.Event, tally: Tally) -> None:
    from websockets.asyncio.client import connect

    async with connect(
        f"ws://127.0.0.1:{port}/api/games/{game}/ws", max_size=None, ping_interval=None
    ) as ws:
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                json.loads(await asyncio.wait_for(ws.recv(), 1.0))
                tally.views += 1


def _stuck_watcher(port: int, game: str) -> socket.socket:
    """A socket that opens a game's WebSocket, asks for its view again and again, and never
    reads a byte of what it is sent."""
    raw = socket.create_connection(("127.0.0.1", port))
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall(
        (
            f"GET /api/games/{game}/ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += raw.recv(1)
    frame = b'{"type": "view"}'
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(frame))
    for _ in range(400):
        raw.sendall(bytes([0x81, 0x80 | len(frame)]) + mask + masked)
    return raw


async def _new(port: int, body: dict[str, Any], seed: int) -> tuple[str, dict[str, str]]:
    made = await _post(port, "/api/games", {**body, "seed": seed})
    return made["game"], {s: t["token"] for s, t in made["seats"].items()}


def _disagreements(db: Path, acknowledged: list[tuple[str, int, str]]) -> int:
    """Acknowledged choices that are not the log's entry at their version (or undone)."""
    with sqlite3.connect(str(db)) as c:
        rows = {
            (g, int(i)): (k, ch, int(u))
            for g, i, k, ch, u in c.execute("SELECT game, idx, kind, choice, undone FROM entries")
        }
    wrong = 0
    for game, version, choice in acknowledged:
        found = rows.get((game, version))
        if found is None or found[0] != "choice" or found[1] != choice or found[2]:
            wrong += 1
    return wrong


def _summary(tally: Tally) -> dict[str, Any]:
    acks = tally.acks or [0.0]
    return {
        "acknowledged": len(tally.acks),
        "ack_median_ms": round(statistics.median(acks), 1),
        "ack_p99_ms": round(_percentile(acks, 0.99), 1),
        "ack_max_ms": round(max(acks), 1),
    }


async def _games_at_once(
    port: int,
    seconds: float,
    vs_ai: int,
    hot_seat: int,
    spectators: int,
    think: tuple[float, float],
    seed: int,
) -> Tally:
    tally = Tally()
    stop = asyncio.Event()
    rng = random.Random(seed)
    tasks = []
    made: list[str] = []
    for n in range(vs_ai + hot_seat):
        body = VS_AI if n < vs_ai else HOT_SEAT
        game, tokens = await _new(port, body, seed + n)
        made.append(game)
        for seat, token in tokens.items():
            tasks.append(
                asyncio.create_task(
                    _seat(port, game, seat, token, tally, stop, think, random.Random(rng.random()))
                )
            )
    for n in range(spectators):
        tasks.append(asyncio.create_task(_spectator(port, made[n % len(made)], stop, tally)))
    stuck = _stuck_watcher(port, made[0])
    await asyncio.sleep(seconds)
    stop.set()
    for done in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(done, BaseException):
            tally.errors.append(f"a client failed: {type(done).__name__}: {done}")
    stuck.close()
    return tally


def _watch_many(port: int, game: str, count: int, ready: Any, stop: Any) -> None:
    """In a process of its own (so that reading them does not slow the measuring client):
    `count` sockets watching `game`, read until `stop` is set."""
    from websockets.asyncio.client import connect

    _raise_open_files()

    async def main() -> None:
        sockets = [
            await connect(
                f"ws://127.0.0.1:{port}/api/games/{game}/ws", max_size=None, ping_interval=None
            )
            for _ in range(count)
        ]
        for ws in sockets:
            await ws.recv()  # the first view of each
        ready.set()
        done = asyncio.Event()
        readers = [asyncio.create_task(_drain(ws, done)) for ws in sockets]
        while not stop.is_set():
            await asyncio.sleep(0.2)
        done.set()
        await asyncio.gather(*readers, return_exceptions=True)
        for ws in sockets:
            await ws.close()

    asyncio.run(main())


async def _watched(
    port: int, seconds: float, watchers: int, think: tuple[float, float], seed: int
) -> dict[str, Any]:
    """Another game's acknowledgements, alone and while `watchers` watch a busy game."""
    import multiprocessing

    results: dict[str, Any] = {}
    context = multiprocessing.get_context("spawn")
    for phase, count in (("alone", 0), ("beside", watchers)):
        tally = Tally()
        stop = asyncio.Event()
        busy, busy_tokens = await _new(port, HOT_SEAT, seed + 1)
        other, other_tokens = await _new(port, HOT_SEAT, seed + 2)
        ready, done = context.Event(), context.Event()
        crowd = None
        if count:
            crowd = context.Process(target=_watch_many, args=(port, busy, count, ready, done))
            crowd.start()
            while not ready.is_set():
                if not crowd.is_alive():
                    raise UserError("the watchers' process stopped before they all watched")
                await asyncio.sleep(0.1)
        rng = random.Random(seed)
        players = [
            asyncio.create_task(
                _seat(port, g, seat, token, tally if g == other else Tally(), stop, think, rng)
            )
            for g, tokens in ((busy, busy_tokens), (other, other_tokens))
            for seat, token in tokens.items()
        ]
        await asyncio.sleep(seconds)
        stop.set()
        done.set()
        await asyncio.gather(*players, return_exceptions=True)
        if crowd is not None:
            crowd.join(30)
        results[phase] = _summary(tally)
    results["watchers"] = watchers
    results["p99_delay_ms"] = round(
        results["beside"]["ack_p99_ms"] - results["alone"]["ack_p99_ms"], 1
    )
    return results


async def _drain(ws: Any, stop: asyncio.Event) -> None:
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(ws.recv(), 1.0)


def run_load(
    seconds: float = 60.0,
    vs_ai: int = 30,
    hot_seat: int = 25,
    spectators: int = 5,
    watchers: int = 500,
    think: tuple[float, float] = (0.2, 1.0),
    workers: int = 2,
    seed: int = 1,
) -> dict[str, Any]:
    """Both runs against a fresh `funkoverse serve`; figures as one dictionary."""
    if seconds <= 0 or vs_ai < 0 or hot_seat < 0 or vs_ai + hot_seat < 1:
        raise UserError("--seconds must be above 0 and there must be at least one game")
    _raise_open_files()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "games.db"
        log = Path(folder) / "serve.log"
        port = _free_port()
        process = _serve(
            db, port, workers=workers, log=log, extra=("--limit-games", "0", "--limit-hints", "0")
        )
        try:
            tally = asyncio.run(
                _games_at_once(port, seconds, vs_ai, hot_seat, spectators, think, seed)
            )
            watched = (
                asyncio.run(_watched(port, min(seconds, 30.0), watchers, think, seed + 1000))
                if watchers
                else None
            )
        finally:
            process.terminate()
            process.wait(20)
        dropped = log.read_text().count("too slow")
        wrong = _disagreements(db, tally.acknowledged)
    return {
        "seconds": seconds,
        "games": {"vs_ai": vs_ai, "hot_seat": hot_seat, "spectators": spectators},
        "think_s": list(think),
        **_summary(tally),
        "views": tally.views,
        "errors": len(tally.errors),
        "error_samples": tally.errors[:5],
        "disagreeing_acks": wrong,
        "stuck_watcher_dropped": dropped > 0,
        "watchers": watched,
    }

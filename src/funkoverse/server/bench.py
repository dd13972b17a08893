"""`funkoverse bench --server`: how fast the game server answers on loopback.

A real `funkoverse serve` process on a fresh database; a scripted hot-seat game is played
through the HTTP API, and the time from sending each choice to its acknowledgement (the
seat's new view) is measured, as is the page's first load (the HTML, every module and
stylesheet it imports, and the content it asks for). Measured here, never asserted.
"""

from __future__ import annotations

import http.client
import json
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from funkoverse.errors import UserError

GAME = {
    "scenario": "flags",
    "map": "themyscira",
    "size": 3,
    "seats": {"dark": {"player": "human"}, "light": {"player": "human"}},
}
IMPORTS = re.compile(
    r"""(?:\bfrom\s*|\bimport\s*|\b(?:src|href)=)["']([^"']+\.(?:js|css|svg))["']"""
)


class _Client:
    """One keep-alive connection to the server, as a page holds."""

    def __init__(self, port: int) -> None:
        self.http = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, bytes]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        self.http.request(method, path, body=data, headers=headers)
        r = self.http.getresponse()
        return r.status, r.read()

    def json(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        status, data = self.call(method, path, body, token)
        if status not in (200, 201):
            raise UserError(f"the server answered {status} to {method} {path}: {data[:200]!r}")
        return json.loads(data)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(
    db: Path,
    port: int,
    workers: int = 1,
    log: Path | None = None,
    extra: tuple[str, ...] = (),
) -> subprocess.Popen[bytes]:
    """`funkoverse serve` on `db` and `port`, once it accepts connections."""
    command = [sys.executable, "-m", "funkoverse", "serve", "--port", str(port), "--db", str(db)]
    out = log.open("wb") if log is not None else subprocess.DEVNULL
    process = subprocess.Popen(
        [*command, "--workers", str(workers), *extra], stdout=out, stderr=subprocess.STDOUT
    )
    if log is not None:
        out.close()  # type: ignore[union-attr]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return process
        except OSError:
            if process.poll() is not None:
                raise UserError("funkoverse serve stopped at once") from None
            time.sleep(0.1)
    process.kill()
    raise UserError("funkoverse serve did not start in 60 s")


def _first_load(client: _Client) -> dict[str, Any]:
    """The lobby's HTML, then everything it imports, one request after another."""
    t0 = time.perf_counter()
    seen: set[str] = set()
    todo = ["/"]
    size = 0
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        status, data = client.call("GET", path)
        if status != 200:
            raise UserError(f"the page's {path} answered {status}")
        size += len(data)
        if path == "/" or path.endswith((".js", ".html")):
            base = path.rsplit("/", 1)[0] if path != "/" else ""
            for ref in IMPORTS.findall(data.decode("utf-8", "replace")):
                if ref.startswith("/"):
                    todo.append(ref)
                elif ref.startswith("./"):
                    todo.append(f"{base}/{ref[2:]}")
    status, data = client.call("GET", "/api/content")
    size += len(data)
    return {
        "ms": round((time.perf_counter() - t0) * 1000, 1),
        "requests": len(seen) + 1,
        "kilobytes": round(size / 1024, 1),
    }


def _percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]


def measure(choices: int = 300, seed: int = 1) -> dict[str, Any]:
    """Acknowledgement times over a scripted game, and the page's first load, on loopback."""
    if choices < 1:
        raise UserError("--choices must be at least 1")
    with tempfile.TemporaryDirectory() as folder:
        port = _free_port()
        process = _serve(Path(folder) / "games.db", port)
        try:
            client = _Client(port)
            load = _first_load(client)
            rng = random.Random(seed)
            made = client.json("POST", "/api/games", {**GAME, "seed": seed})
            game, tokens = made["game"], {s: t["token"] for s, t in made["seats"].items()}
            view = client.json("GET", f"/api/games/{game}")
            samples: list[float] = []
            games = 1
            while len(samples) < choices:
                if view["status"] == "finished":
                    made = client.json("POST", "/api/games", {**GAME, "seed": seed + games})
                    game = made["game"]
                    tokens = {s: t["token"] for s, t in made["seats"].items()}
                    games += 1
                    view = client.json("GET", f"/api/games/{game}")
                seat = view["decider"]
                view = client.json("GET", f"/api/games/{game}", token=tokens[seat])
                pick = rng.choice(view["choices"])["id"]
                body = {"choice": pick, "version": view["version"]}
                t0 = time.perf_counter()
                view = client.json("POST", f"/api/games/{game}/choices", body, tokens[seat])
                samples.append((time.perf_counter() - t0) * 1000)
        finally:
            process.terminate()
            process.wait(10)
    return {
        "choices": len(samples),
        "games": games,
        "ack_median_ms": round(statistics.median(samples), 2),
        "ack_p99_ms": round(_percentile(samples, 0.99), 2),
        "ack_max_ms": round(max(samples), 2),
        "first_load": load,
    }


def ai_decisions(
    seed: int = 1,
    versions: tuple[int, ...] = (10, 500, 1000),
    decisions: int = 40,
    level: str = "easy",
    engine: str = "kernel",
) -> dict[str, Any]:
    """What the computer's decisions cost the server at each of `versions` of one long game,
    as the server asks its worker (`Thinkers`): the worker's first sight of the game (the
    whole log), then `decisions` decisions in a row, each sent only the entries since the
    last one (its choice and the chance outcomes after). Milliseconds, median and slowest."""
    from funkoverse.content.setups import build
    from funkoverse.rules import Session, named
    from funkoverse.server.ai import Thinkers

    spec, game = _long_game(seed, max(versions) + decisions, engine)
    thinkers = Thinkers(1, engine)
    out: dict[str, Any] = {"level": level, "engine": engine, "versions": {}}
    try:
        warm = Session(build(spec), seed, game.entries[:1], engine=named(engine))
        seat = warm.decider
        assert seat is not None
        thinkers.decide(
            thinkers.task("warm", spec.to_json(), seed, warm.entries, seat), level
        ).result()
        for at in versions:
            name = f"bench-{at}"
            session = Session(build(spec), seed, game.entries[:at], engine=named(engine))
            samples: list[float] = []
            first = 0.0
            while len(samples) < decisions and not session.over:
                seat = session.decider
                assert seat is not None
                task = thinkers.task(name, spec.to_json(), seed, session.entries, seat)
                t0 = time.perf_counter()
                choice = thinkers.decide(task, level).result()
                spent = (time.perf_counter() - t0) * 1000
                assert choice is not None, "the worker lost the game"
                thinkers.sent(task, True)
                if task.start == 0:
                    first = spent
                else:
                    samples.append(spent)
                session.play(seat, choice)
            out["versions"][str(at)] = {
                "first_sight_ms": round(first, 2),
                "decisions": len(samples),
                "median_ms": round(statistics.median(samples), 2),
                "slowest_ms": round(max(samples), 2),
            }
    finally:
        thinkers.close()
    return out


def _long_game(seed: int, length: int, engine: str) -> tuple[Any, Any]:
    """A random Flags game (three a side on Themyscira) that lasts `length` entries: the
    first from `seed` on whose random choices play that long."""
    from funkoverse.ai.arena import match_spec
    from funkoverse.content.setups import build
    from funkoverse.rules import Session, named

    for attempt in range(seed, seed + 200):
        spec = match_spec("flags", "themyscira", None, attempt, 3)
        session = Session(build(spec), attempt, engine=named(engine))
        rng = random.Random(attempt)
        while not session.over and session.version < length:
            seat = session.decider
            assert seat is not None
            legal = session.choices(seat)
            session.play(seat, legal[rng.randrange(len(legal))])
        if session.version >= length and not session.over:
            return spec, session
    raise UserError(f"no random game from seed {seed} lasted {length} entries")

"""Helpers for the server's tests: an app on a fresh database, games, seats and views."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from funkoverse.server.app import create_app


@contextmanager
def served(db: Path, thinking: bool = False, workers: int = 1) -> Iterator[TestClient]:
    """The app on `db`, its lifespan run (games resumed on entry, the pool shut on exit)."""
    with TestClient(create_app(db, workers=workers, thinking=thinking)) as client:
        yield client


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def new_game(client: TestClient, **body: Any) -> tuple[str, dict[str, str]]:
    """A game made of `body` (see server-api.md); its id and each human seat's token."""
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    made = r.json()
    return made["game"], {seat: s["token"] for seat, s in made["seats"].items()}


def view(client: TestClient, game: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/games/{game}", headers=auth(token))
    assert r.status_code == 200, r.text
    return r.json()


def play(client: TestClient, game: str, token: str, choice: str, version: int) -> dict[str, Any]:
    r = client.post(
        f"/api/games/{game}/choices",
        json={"choice": choice, "version": version},
        headers=auth(token),
    )
    assert r.status_code == 200, r.text
    return r.json()


def hot_seat(client: TestClient, game: str, tokens: dict[str, str]) -> dict[str, Any]:
    """The view of whichever held seat decides now."""
    v = view(client, game)
    seat = v["decider"]
    return view(client, game, tokens[seat]) if seat in tokens else v


def first_choice(v: dict[str, Any], prefer: tuple[str, ...] = ()) -> str:
    """A legal choice of the view: the first whose id starts with one of `prefer`, else the
    first listed."""
    ids = [c["id"] for c in v["choices"]]
    assert ids, v
    for start in prefer:
        for cid in ids:
            if cid.startswith(start):
                return cid
    return ids[0]


def steady(v: dict[str, Any]) -> dict[str, Any]:
    """A view without what changes with time and requests alone (who is here, and since
    when a seat is away), to compare the game before and after."""
    seats = {
        seat: {k: x for k, x in held.items() if k not in ("present", "away_since")}
        for seat, held in v.get("seats", {}).items()
    }
    return {**v, "seats": seats}


def everything(client: TestClient, game: str) -> str:
    """What the server holds of a game, as text: the spectator's view and the listing row,
    to compare before and after a refused request."""
    row = [g for g in client.get("/api/games").json()["games"] if g["game"] == game]
    for g in row:
        g.pop("updated", None)
    return json.dumps({"view": steady(view(client, game)), "row": row}, sort_keys=True)


def xy(square: str) -> tuple[int, int]:
    m = re.fullmatch(r"([a-z]+)(\d+)", square)
    assert m, square
    x = 0
    for ch in m.group(1):
        x = x * 26 + ord(ch) - 96
    return x - 1, int(m.group(2)) - 1


def distance(a: str, b: str) -> int:
    (ax, ay), (bx, by) = xy(a), xy(b)
    return max(abs(ax - bx), abs(ay - by))


def keen(v: dict[str, Any], seat: str) -> dict[str, Any]:
    """A keen player's choice in a view: challenge at the best odds, else close in on a
    rival, else end the turn (so that short games end, and challenges come)."""
    choices = v["choices"]
    state = v["state"]
    mine = {c["id"]: c for c in state["characters"] if c["side"] == seat}
    rivals = [
        c["square"]
        for c in state["characters"]
        if c["side"] != seat and c["square"] and not c["knocked_out"]
    ]
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for c in choices:
        by_kind.setdefault(c["kind"], []).append(c)

    def near(square: str | None) -> int:
        return min((distance(square, r) for r in rivals), default=0) if square else 99

    if "challenge" in by_kind:
        return max(by_kind["challenge"], key=lambda c: c.get("odds", 0))
    if "place" in by_kind:
        if not rivals:
            far = {"dark": 99, "light": -99}.get(seat, 0)
            return max(by_kind["place"], key=lambda c: -abs(xy(c["square"])[1] - far))
        return min(by_kind["place"], key=lambda c: near(c["square"]))
    if "choose" in by_kind:
        return min(by_kind["choose"], key=lambda c: near(mine[c["piece"]]["square"]))
    if "move" in by_kind:
        here = mine.get(state["active"] or "", {}).get("square")
        best = min(by_kind["move"], key=lambda c: near(c["square"]))
        if near(best["square"]) < near(here) or "end" not in by_kind:
            return best
        # no closer: a wall may stand between, so wander (deterministically) round it
        others = [c for c in by_kind["move"] if c["square"] != here]
        if others and v["version"] % 3:
            return others[v["version"] % len(others)]
        return by_kind["end"][0]
    for kind in ("assist", "rally", "skip", "end"):
        if kind in by_kind:
            return by_kind[kind][0]
    return dict(choices[0])


# a game that ends soon: knock-out on a small map, one character a side, both seats held
SHORT_GAME: dict[str, Any] = {
    "scenario": "knockout",
    "map": "proving-grounds",
    "size": 1,
    "seed": 4,
    "seats": {"dark": {"player": "human"}, "light": {"player": "human"}},
}


def play_out(
    client: TestClient, game: str, tokens: dict[str, str], limit: int = 2000
) -> dict[str, Any]:
    """A hot-seat game played by keen players to its end (or `limit` choices): its last view."""
    v = hot_seat(client, game, tokens)
    for _ in range(limit):
        if v["status"] == "finished":
            break
        v = play(client, game, tokens[v["decider"]], keen(v, v["decider"])["id"], v["version"])
        v = hot_seat(client, game, tokens)
    return v


class ManualClock:
    """The server's time, moved by the test (server/online.py, `Clock`): `advance` runs each
    call that falls due and waits for what it started on the server's loop to finish."""

    def __init__(self, start: float = 1_900_000_000.0) -> None:
        self.t = start
        self._calls: list[tuple[float, int, Any]] = []
        self._n = 0

    def now(self) -> float:
        return self.t

    def call_at(self, when: float, callback: Any) -> Any:
        clock = self

        class Handle:
            cancelled = False

            def cancel(self) -> None:
                self.cancelled = True

        handle = Handle()
        self._n += 1
        if when <= self.t:  # already due (a deadline passed while the server was stopped)
            callback()
            return handle
        self._calls.append((when, self._n, (handle, callback)))
        del clock
        return handle

    def advance(self, seconds: float) -> None:
        self.t += seconds
        due = sorted(c for c in self._calls if c[0] <= self.t)
        self._calls = [c for c in self._calls if c[0] > self.t]
        for _, _, (handle, callback) in due:
            if handle.cancelled:
                continue
            started = callback()
            if started is not None:
                started.result(timeout=30)


@contextmanager
def served_at(db: Path, clock: ManualClock, thinking: bool = False) -> Iterator[TestClient]:
    """The app on `db` reading the time from `clock`."""
    with TestClient(create_app(db, workers=1, thinking=thinking, clock=clock)) as client:
        yield client

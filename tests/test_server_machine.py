"""The server as a state machine (Hypothesis): games made, sockets opened and reopened with
`?since=`, choices current, stale and resent over HTTP and over a socket, undos, spectators,
and the database refusing writes at any moment. After every step:

- every client's view (its first view with each later one laid over it from `log_from`)
  equals the authority's view for its seat;
- the versions a client sees only grow;
- no payload holds a rival's secret pick before its reveal, a seed, or a token;
- the log on disk is the log in memory, and replays to the position in memory.

`FUNKOVERSE_MACHINE_EXAMPLES=400 python -m pytest tests/test_server_machine.py -n 0` is the
long run of docs/reliability.md; CI runs a slice of 12 examples.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    consumes,
    initialize,
    invariant,
    multiple,
    rule,
)

from funkoverse.content.setups import build
from funkoverse.rules.core.spec import SetupSpec
from funkoverse.rules.session import Session
from funkoverse.server.app import create_app
from funkoverse.server.guard import Limits
from funkoverse.server.store import Store, Unavailable
from serverclient import auth, steady
from test_server_secrecy import _scan

EXAMPLES = int(os.environ.get("FUNKOVERSE_MACHINE_EXAMPLES", "12"))
STEPS = int(os.environ.get("FUNKOVERSE_MACHINE_STEPS", "25"))

SETUPS = (
    {"scenario": "flags", "map": "themyscira", "size": 2},
    {"scenario": "leaders", "draft": 2},
    {"scenario": "first-knockout"},
    {"scenario": "control", "size": 2},
)


class Flaky(Store):
    """A store that refuses every write while `failing` is set (locked, full, read-only)."""

    failing = False

    def append(self, *args: Any, **kwargs: Any) -> None:
        if self.failing:
            raise Unavailable("database is locked")
        super().append(*args, **kwargs)

    def create(self, *args: Any, **kwargs: Any) -> None:
        if self.failing:
            raise Unavailable("database or disk is full")
        super().create(*args, **kwargs)


class Client:
    """A socket of one game, and the view it has put together from what it was sent."""

    def __init__(self, http: TestClient, game: str, seat: str | None, token: str | None) -> None:
        self.http = http
        self.game = game
        self.seat = seat
        self.token = token
        self.view: dict[str, Any] | None = None
        self.payloads: list[dict[str, Any]] = []
        self._open(None)

    def _open(self, since: int | None) -> None:
        query = []
        if self.token:
            query.append(f"token={self.token}")
        if since is not None:
            query.append(f"since={since}")
        self._cm = self.http.websocket_connect(f"/api/games/{self.game}/ws?{'&'.join(query)}")
        self.ws = self._cm.__enter__()
        self.expect(1)

    def reopen(self) -> None:
        self.close()
        self._open(self.view["version"] if self.view else None)

    def close(self) -> None:
        self._cm.__exit__(None, None, None)

    def expect(self, n: int) -> list[dict[str, Any]]:
        """The next `n` messages, each view laid over the one put together so far."""
        got = [self.ws.receive_json() for _ in range(n)]
        for message in got:
            self.payloads.append(message)
            if message["type"] != "view":
                continue
            view = message["view"]
            held = self.view
            if held is not None:
                assert view["version"] >= held["version"], "a version went back"
                assert view["log_from"] <= held["version"], "a gap in the log"
                log = [e for e in held["log"] if e["entry"] < view["log_from"]] + view["log"]
            else:
                assert view["log_from"] == 0
                log = view["log"]
            self.view = {**view, "log": log, "log_from": 0}
        return got


class ServerMachine(RuleBasedStateMachine):
    games = Bundle("games")
    clients = Bundle("clients")

    def __init__(self) -> None:
        super().__init__()
        import tempfile

        self._folder = tempfile.TemporaryDirectory()
        db = Path(self._folder.name) / "games.db"
        self.store = Flaky(db)
        self.http = TestClient(
            create_app(db, thinking=False, store=self.store, limits=Limits(games=0, hints=0))
        )
        self.http.__enter__()
        self.tokens: dict[str, dict[str, str]] = {}
        self.seeds: dict[str, int] = {}
        self.open: list[Client] = []
        self.last: dict[str, tuple[str, str, int]] = {}  # game: seat, choice, version answered

    def teardown(self) -> None:
        for client in self.open:
            client.close()
        self.http.__exit__(None, None, None)
        self._folder.cleanup()

    # -- helpers -----------------------------------------------------------------

    def _room(self, game: str) -> Any:
        return self.http.app.state.games.rooms[game]  # type: ignore[attr-defined]

    def _changed(self, game: str) -> None:
        """A change of `game`: each of its sockets is sent one view."""
        for client in self.open:
            if client.game == game:
                client.expect(1)

    def _view(self, game: str, seat: str | None) -> dict[str, Any]:
        token = self.tokens[game].get(seat or "")
        r = self.http.get(f"/api/games/{game}", headers=auth(token))
        assert r.status_code == 200, r.text
        return dict(r.json())

    # -- rules -------------------------------------------------------------------

    @initialize(target=games, setup=st.sampled_from(SETUPS), seed=st.integers(10**8, 10**9))
    def first_game(self, setup: dict[str, Any], seed: int) -> str:
        return self._make(setup, seed)

    @rule(target=games, setup=st.sampled_from(SETUPS), seed=st.integers(10**8, 10**9))
    def make_game(self, setup: dict[str, Any], seed: int) -> Any:
        if self.store.failing:
            before = self.http.get("/api/games").json()
            r = self.http.post("/api/games", json={**setup, "seed": seed})
            assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable", r.text
            assert self.http.get("/api/games").json() == before
            return multiple()  # nothing made: nothing to add
        return self._make(setup, seed)

    def _make(self, setup: dict[str, Any], seed: int) -> str:
        body = {**setup, "seed": seed, "seats": {"dark": {}, "light": {}}}
        r = self.http.post("/api/games", json=body)
        assert r.status_code == 201, r.text
        made = r.json()
        game = made["game"]
        self.tokens[game] = {s: t["token"] for s, t in made["seats"].items()}
        self.seeds[game] = seed
        return str(game)

    @rule(target=clients, game=games, who=st.sampled_from(["dark", "light", None]))
    def connect(self, game: str, who: str | None) -> Client:
        client = Client(self.http, game, who, self.tokens[game].get(who or ""))
        self.open.append(client)
        return client

    @rule(client=clients)
    def reconnect(self, client: Client) -> None:
        if client in self.open:
            client.reopen()

    @rule(client=consumes(clients))
    def disconnect(self, client: Client) -> None:
        if client in self.open:
            self.open.remove(client)
            client.close()

    @rule(game=games, pick=st.integers(0, 10**6), over_socket=st.booleans())
    def play_current(self, game: str, pick: int, over_socket: bool) -> None:
        v = self._view(game, None)
        seat = v["decider"]
        if seat is None or v["status"] == "finished":
            return
        mine = self._view(game, seat)
        choice = mine["choices"][pick % len(mine["choices"])]["id"]
        sockets = [c for c in self.open if c.game == game and c.seat == seat]
        before = self._view(game, seat)
        if over_socket and sockets:
            sockets[0].ws.send_json(
                {"type": "choice", "choice": choice, "version": mine["version"]}
            )
            if self.store.failing:
                got = sockets[0].expect(1)[0]
                assert got["type"] == "error" and got["error"]["code"] == "unavailable"
                assert self._view(game, seat) == before
                return
            self._changed(game)
        else:
            r = self.http.post(
                f"/api/games/{game}/choices",
                json={"choice": choice, "version": mine["version"]},
                headers=auth(self.tokens[game][seat]),
            )
            if self.store.failing:
                assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable"
                assert self._view(game, seat) == before
                return
            assert r.status_code == 200, r.text
            self._changed(game)
        self.last[game] = (seat, choice, mine["version"])

    @rule(game=games)
    def resend_last(self, game: str) -> None:
        if game not in self.last:
            return
        seat, choice, version = self.last[game]
        before = self._view(game, seat)
        r = self.http.post(
            f"/api/games/{game}/choices",
            json={"choice": choice, "version": version},
            headers=auth(self.tokens[game][seat]),
        )
        if r.status_code == 200:  # acknowledged again, applied once
            assert r.json()["version"] == before["version"]
        else:  # taken back by an undo since: the version was answered by another entry
            assert r.status_code == 409, r.text
        assert self._view(game, seat) == before

    @rule(game=games, shift=st.sampled_from([-2, -1, 1, 5]))
    def play_stale(self, game: str, shift: int) -> None:
        v = self._view(game, None)
        seat = v["decider"]
        if seat is None or v["status"] == "finished" or v["version"] + shift < 0:
            return
        mine = self._view(game, seat)
        before = mine
        r = self.http.post(
            f"/api/games/{game}/choices",
            json={"choice": "end", "version": mine["version"] + shift},
            headers=auth(self.tokens[game][seat]),
        )
        assert r.status_code in (200, 409), r.text
        if r.status_code == 409:
            assert r.json()["error"]["code"] == "stale"
        assert self._view(game, seat) == before

    @rule(game=games)
    def undo(self, game: str) -> None:
        v = self._view(game, None)
        seat = next((s for s in self.tokens[game] if self._view(game, s)["undo"]), None)
        if seat is None or v["status"] == "finished":
            return
        before = self._view(game, seat)
        r = self.http.post(
            f"/api/games/{game}/undo",
            json={"version": before["version"], "tokens": list(self.tokens[game].values())},
            headers=auth(self.tokens[game][seat]),
        )
        if self.store.failing:
            assert r.status_code == 503, r.text
            assert self._view(game, seat) == before
            return
        assert r.status_code == 200, r.text
        self._changed(game)

    @rule(game=games, who=st.sampled_from(["dark", "light"]))
    def resign(self, game: str, who: str) -> None:
        """Resign (server-api.md, Added 2026-12-03): the other side wins, once; a game over
        refuses it; a failed write changes nothing."""
        token = self.tokens[game].get(who)
        if token is None:
            return
        before = self._view(game, who)
        r = self.http.post(
            f"/api/games/{game}/resign", json={"version": before["version"]}, headers=auth(token)
        )
        if before["status"] == "finished":
            assert r.status_code == 409 and r.json()["error"]["code"] == "finished", r.text
            assert steady(self._view(game, who)) == steady(before)
            return
        if self.store.failing:
            assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable", r.text
            assert steady(self._view(game, who)) == steady(before)
            return
        assert r.status_code == 200, r.text
        self._changed(game)
        after = self._view(game, who)
        assert after["status"] == "finished" and after["winner"] not in (None, who)
        assert after["log"][-1]["kind"] == "resign"

    @rule()
    def database_fails_or_recovers(self) -> None:
        self.store.failing = not self.store.failing

    # -- invariants ---------------------------------------------------------------

    @invariant()
    def each_client_holds_the_authoritys_view_for_its_seat(self) -> None:
        for client in self.open:
            # who is here changes with time and requests alone: not part of the game's view
            authority = steady(self._view(client.game, client.seat))
            assert client.view is not None
            held = steady(client.view)
            differ = {k for k in authority if held.get(k) != authority[k]}
            assert not differ, (client.game, client.seat, differ)

    @invariant()
    def no_payload_holds_a_secret_a_seed_or_a_token(self) -> None:
        for client in self.open:
            room = self._room(client.game)
            revealed = any(
                e["kind"] == "team_revealed" for e in self._view(client.game, None)["log"]
            )
            for payload in client.payloads:
                _scan(
                    payload,
                    client.seat,
                    room.session,
                    self.tokens[client.game],
                    revealed,
                    self.seeds[client.game],
                )
            client.payloads.clear()

    @invariant()
    def the_log_on_disk_replays_to_the_game_in_memory(self) -> None:
        games = self.http.app.state.games  # type: ignore[attr-defined]
        for game, room in games.rooms.items():
            row = self.store.game(game)
            assert row is not None
            stored = self.store.entries(game)
            assert [e.to_json() for e in stored] == [e.to_json() for e in room.session.entries]
            again = Session(build(SetupSpec.from_json(row.spec)), row.seed, stored)
            assert again.state.key() == room.session.state.key()
            assert json.dumps(row.spec, sort_keys=True)  # the row is readable


ServerMachine.TestCase.settings = settings(
    max_examples=EXAMPLES,
    stateful_step_count=STEPS,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_the_server_keeps_its_promises_whatever_happens = pytest.mark.xdist_group("machine")(
    ServerMachine.TestCase
)

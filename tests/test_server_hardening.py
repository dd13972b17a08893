"""The server under faults and bad input (server-api.md, "Added 2026-12-03: ... hardening"):
a write is all or nothing, nobody waits for a slow watcher, a client names ids and never
paths, and every input gets the spec's answer. Each test pins a fault an outside probe
found."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from funkoverse.server.app import create_app
from funkoverse.server.store import Store
from serverclient import auth, first_choice, hot_seat, new_game, play, served, steady, view

FLAGS = {
    "scenario": "flags",
    "map": "themyscira",
    "size": 2,
    "seed": 11,
    "seats": {"dark": {"player": "human"}, "light": {"player": "human"}},
}


def refused(r: Any, status: int, code: str) -> str:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    assert body["error"]["code"] == code, body
    message = str(body["error"]["message"])
    assert message and "\n" not in message and "Traceback" not in message
    return message


@contextmanager
def locked(db: Path) -> Iterator[None]:
    """Another process's write lock on the games database while the block runs."""
    other = sqlite3.connect(str(db), isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


@contextmanager
def quick(db: Path, **options: Any) -> Iterator[TestClient]:
    """The app on `db` with a short busy timeout (a locked database answers at once)."""
    store = Store(db, busy_timeout=0.05)
    with TestClient(create_app(db, thinking=False, store=store, **options)) as client:
        yield client


def stored_log(db: Path, game: str) -> list[tuple[int, str, str]]:
    with sqlite3.connect(str(db)) as c:
        rows = c.execute(
            "SELECT idx, kind, choice FROM entries WHERE game = ? ORDER BY idx", (game,)
        ).fetchall()
    return [(int(i), str(k), str(ch)) for i, k, ch in rows]


# -- a write is all or nothing -------------------------------------------------------


def test_a_choice_the_locked_database_cannot_take_changes_nothing_and_answers_503(
    tmp_path: Path,
) -> None:
    db = tmp_path / "games.db"
    with quick(db) as client:
        gid, tokens = new_game(client, **FLAGS)
        v = hot_seat(client, gid, tokens)
        seat = v["decider"]
        before = {s: steady(view(client, gid, t)) for s, t in tokens.items()}
        with client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[seat]}") as ws:
            ws.receive_json()
            with locked(db):
                r = client.post(
                    f"/api/games/{gid}/choices",
                    json={"choice": first_choice(v), "version": v["version"]},
                    headers=auth(tokens[seat]),
                )
                refused(r, 503, "unavailable")
                assert r.headers.get("retry-after")
                # over the socket as well: an error, and the socket stays open
                ws.send_json({"type": "choice", "choice": first_choice(v), "version": v["version"]})
                got = ws.receive_json()
                assert got["type"] == "error" and got["error"]["code"] == "unavailable", got
            # nothing changed, in memory and on disk
            assert {s: steady(view(client, gid, t)) for s, t in tokens.items()} == before
            assert len(stored_log(db, gid)) == v["version"]
            # once the database is writable the same version takes a choice: a different one
            other = [c["id"] for c in v["choices"]][-1]
            after = play(client, gid, tokens[seat], other, v["version"])
            assert after["version"] > v["version"]
            assert ws.receive_json()["view"]["version"] == after["version"]
        indices = [i for i, _, _ in stored_log(db, gid)]
        assert indices == list(range(after["version"]))
    # the database replays: the server starts again on it, the game where it was
    with served(db) as client:
        assert view(client, gid, tokens[seat])["version"] == after["version"]


def test_an_undo_and_a_new_game_the_database_cannot_take_change_nothing(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with quick(db) as client:
        gid, tokens = new_game(client, **FLAGS)
        v = hot_seat(client, gid, tokens)
        v = play(client, gid, tokens[v["decider"]], first_choice(v, ("choose",)), v["version"])
        assert v["undo"], v
        listed = client.get("/api/games").json()
        with locked(db):
            r = client.post(
                f"/api/games/{gid}/undo",
                json={"version": v["version"], "tokens": list(tokens.values())},
                headers=auth(tokens[v["seat"]]),
            )
            refused(r, 503, "unavailable")
            refused(client.post("/api/games", json=FLAGS), 503, "unavailable")
        assert view(client, gid, tokens[v["seat"]]) == v
        assert client.get("/api/games").json() == listed


class Flaky(Store):
    """A store whose writes fail while `failing` is set, as a full or read-only disk's do."""

    failing = False
    refused = 0

    def append(self, *args: Any, **kwargs: Any) -> None:
        if self.failing:
            from funkoverse.server.store import Unavailable

            self.refused += 1
            raise Unavailable("database or disk is full")
        super().append(*args, **kwargs)


def test_the_computer_tries_its_refused_write_again_and_moves_once_the_database_takes_it(
    tmp_path: Path,
) -> None:
    import time

    db = tmp_path / "games.db"
    store = Flaky(db)
    store.failing = True
    app = create_app(db, workers=1, store=store)
    with TestClient(app) as client:
        gid, _ = new_game(
            client,
            scenario="flags",
            map="themyscira",
            size=2,
            seed=5,
            seats={
                "dark": {"player": "ai", "level": "easy"},
                "light": {"player": "ai", "level": "easy"},
            },
        )
        deadline = time.monotonic() + 60
        while store.refused < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert store.refused >= 2, "the computer gave up after one refused write"
        stuck = view(client, gid)["version"]
        assert len(stored_log(db, gid)) == stuck
        store.failing = False
        while view(client, gid)["version"] <= stuck + 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert view(client, gid)["version"] > stuck + 3, "the computer's seat never moved again"


def test_a_server_starts_with_every_game_but_one_whose_stored_log_is_damaged(
    tmp_path: Path,
) -> None:
    db = tmp_path / "games.db"
    with served(db) as client:
        good, good_tokens = new_game(client, **FLAGS)
        bad, bad_tokens = new_game(client, **{**FLAGS, "seed": 12})
        for gid, tokens in ((good, good_tokens), (bad, bad_tokens)):
            v = hot_seat(client, gid, tokens)
            for _ in range(6):
                v = play(client, gid, tokens[v["decider"]], first_choice(v), v["version"])
                v = hot_seat(client, gid, tokens)
    with sqlite3.connect(str(db)) as c:  # a gap in the log's indices
        c.execute("DELETE FROM entries WHERE game = ? AND idx = 3", (bad,))
    with served(db) as client:
        assert view(client, good, good_tokens["dark"])["version"] > 6
        message = refused(client.get(f"/api/games/{bad}"), 404, "not_found")
        assert "damaged" in message
        listed = {g["game"] for g in client.get("/api/games").json()["games"]}
        assert {good, bad} <= listed


# -- nobody waits for a slow watcher ---------------------------------------------------


def test_a_view_is_built_once_per_audience_however_many_watch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from funkoverse.server import views

    built: list[str | None] = []
    real = views.view_to_json

    def counted(state: Any) -> Any:
        built.append("x")
        return real(state)

    monkeypatch.setattr(views, "view_to_json", counted)
    with served(tmp_path / "games.db") as client:
        gid, tokens = new_game(client, **FLAGS)
        v = hot_seat(client, gid, tokens)
        sockets = [client.websocket_connect(f"/api/games/{gid}/ws") for _ in range(12)]
        opened = [s.__enter__() for s in sockets]
        try:
            for ws in opened:
                ws.receive_json()
            built.clear()
            v = play(client, gid, tokens[v["decider"]], first_choice(v), v["version"])
            for ws in opened:
                assert ws.receive_json()["view"]["version"] == v["version"]
            # the deciding seat's view and the spectators' view: two, not fourteen
            assert len(built) <= 3, len(built)
        finally:
            for s in sockets:
                s.__exit__(None, None, None)


def test_a_game_has_a_bounded_number_of_watchers(tmp_path: Path) -> None:
    with served(tmp_path / "games.db") as client:
        client.app.state.games.max_watchers = 2  # type: ignore[attr-defined]
        gid, _ = new_game(client, **FLAGS)
        with (
            client.websocket_connect(f"/api/games/{gid}/ws") as a,
            client.websocket_connect(f"/api/games/{gid}/ws") as b,
        ):
            a.receive_json()
            b.receive_json()
            with client.websocket_connect(f"/api/games/{gid}/ws") as c:
                got = c.receive_json()
                assert got["type"] == "error" and got["error"]["code"] == "unavailable"


# -- views that stay small -----------------------------------------------------------


def test_since_gives_only_the_events_after_the_first_n_entries(tmp_path: Path) -> None:
    with served(tmp_path / "games.db") as client:
        gid, tokens = new_game(client, **FLAGS)
        v = hot_seat(client, gid, tokens)
        for _ in range(10):
            v = play(client, gid, tokens[v["decider"]], first_choice(v), v["version"])
            v = hot_seat(client, gid, tokens)
        whole = view(client, gid)
        part = client.get(f"/api/games/{gid}", params={"since": 5}).json()
        assert whole["log_from"] == 0 and part["log_from"] == 5
        assert part["log"] == [e for e in whole["log"] if e["entry"] >= 5]
        assert {k: x for k, x in part.items() if k not in ("log", "log_from")} == {
            k: x for k, x in whole.items() if k not in ("log", "log_from")
        }
        refused(client.get(f"/api/games/{gid}", params={"since": -1}), 400, "bad_request")
        refused(client.get(f"/api/games/{gid}", params={"since": 10**6}), 400, "bad_request")
        refused(client.get(f"/api/games/{gid}", params={"since": "x"}), 400, "bad_request")


def test_a_socket_sends_the_whole_log_once_then_only_what_each_view_adds(tmp_path: Path) -> None:
    with served(tmp_path / "games.db") as client:
        gid, tokens = new_game(client, **FLAGS)
        with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
            first = ws.receive_json()["view"]
            assert first["log_from"] == 0
            log = list(first["log"])
            held = first["version"]
            v = hot_seat(client, gid, tokens)
            for _ in range(15):
                v = play(client, gid, tokens[v["decider"]], first_choice(v), v["version"])
                got = ws.receive_json()["view"]
                assert got["log_from"] == held, (got["log_from"], held)
                log = [e for e in log if e["entry"] < got["log_from"]] + got["log"]
                held = got["version"]
                assert log == view(client, gid)["log"]
                v = hot_seat(client, gid, tokens)
        # opened again from where it was: only what is new
        with client.websocket_connect(f"/api/games/{gid}/ws?since={held}") as ws:
            again = ws.receive_json()["view"]
            assert again["log_from"] == held and again["log"] == []


# -- ids, never paths ----------------------------------------------------------------


@pytest.mark.parametrize("where", ["/etc/hostname", "../../etc/hostname", "themyscira.toml"])
def test_a_map_is_an_id_of_the_content_never_a_file(tmp_path: Path, where: str) -> None:
    with served(tmp_path / "games.db") as client:
        r = client.post("/api/games", json={"scenario": "flags", "map": where})
        message = refused(r, 400, "bad_request")
        assert "map" in message
        assert Path("/etc/hostname").read_text().strip()[:8] not in message


def test_a_map_is_served_by_id_only_never_read_from_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = Path(__file__).parent.parent / "src/funkoverse/content/data/maps/themyscira.toml"
    (tmp_path / "stolen").write_text(shipped.read_text())
    monkeypatch.chdir(tmp_path)
    with served(tmp_path / "games.db") as client:
        assert client.get("/api/maps/themyscira").status_code == 200
        refused(client.get("/api/maps/stolen"), 404, "not_found")
        refused(client.get("/api/maps/%00"), 404, "not_found")
        refused(client.get("/api/maps/" + "a" * 81), 404, "not_found")


# -- every input gets the spec's answer -------------------------------------------------


@pytest.mark.parametrize("version", ["5", 5.0, True, None, [5], {"v": 5}])
def test_a_field_of_the_wrong_json_type_is_a_bad_request(tmp_path: Path, version: Any) -> None:
    with served(tmp_path / "games.db") as client:
        gid, tokens = new_game(client, **FLAGS)
        v = hot_seat(client, gid, tokens)
        r = client.post(
            f"/api/games/{gid}/choices",
            json={"choice": first_choice(v), "version": version},
            headers=auth(tokens[v["decider"]]),
        )
        refused(r, 400, "bad_request")
        assert view(client, gid)["version"] == v["version"]
        refused(
            client.post("/api/games", json={"scenario": "flags", "size": "2"}), 400, "bad_request"
        )
        refused(
            client.post("/api/games", json={"scenario": "flags", "secret": 1}), 400, "bad_request"
        )


def test_json_nested_too_deep_is_a_bad_request_not_an_error(tmp_path: Path) -> None:
    with served(tmp_path / "games.db") as client:
        deep = "[" * 1000 + "]" * 1000
        r = client.post("/api/games", content=deep, headers={"Content-Type": "application/json"})
        assert "deeper" in refused(r, 400, "bad_request")
        ok = {"scenario": "flags", "seats": {}}
        nested: Any = ok
        for _ in range(40):
            nested = {"x": nested}
        refused(client.post("/api/games", json=nested), 400, "bad_request")


def test_every_websocket_frame_is_answered_and_the_socket_stays_open(tmp_path: Path) -> None:
    with served(tmp_path / "games.db") as client:
        gid, tokens = new_game(client, **FLAGS)
        with client.websocket_connect(f"/api/games/{gid}/ws?token={tokens['dark']}") as ws:
            ws.receive_json()
            for frame in (
                b"\x00\x01binary",
                "{not json",
                '{"type": "choice", "choice": "\\ud800", "version": 0}',
                "[" * 100 + "]" * 100,
                '{"type": "choice", "choice": "end", "version": "3"}',
                '"a string"',
            ):
                if isinstance(frame, bytes):
                    ws.send_bytes(frame)
                else:
                    ws.send_text(frame)
                got = ws.receive_json()
                assert got["type"] == "error", (frame, got)
                assert got["error"]["code"] == "bad_request", (frame, got)
            ws.send_json({"type": "view"})
            assert ws.receive_json()["type"] == "view"


def test_every_answer_carries_the_security_headers(tmp_path: Path) -> None:
    with served(tmp_path / "games.db") as client:
        for path in (
            "/",
            "/games/x",
            "/api/content",
            "/api/games/nope",
            "/static/game.js",
            "/docs",
        ):
            r = client.get(path)
            assert "frame-ancestors 'none'" in r.headers["content-security-policy"], path
            assert r.headers["x-content-type-options"] == "nosniff", path
            assert r.headers["x-frame-options"] == "DENY", path


def test_a_request_or_socket_from_a_page_of_another_site_is_refused(tmp_path: Path) -> None:
    from starlette.testclient import WebSocketDenialResponse

    with served(tmp_path / "games.db") as client:
        evil = {"Origin": "https://evil.example"}
        r = client.post(
            "/api/games", content=json.dumps(FLAGS), headers={**evil, "Content-Type": "text/plain"}
        )
        refused(r, 403, "bad_origin")
        assert client.get("/api/games").json()["games"] == []
        ours = {"Origin": "http://testserver"}
        assert client.post("/api/games", json=FLAGS, headers=ours).status_code == 201
        gid = client.get("/api/games").json()["games"][0]["game"]
        with (
            pytest.raises(WebSocketDenialResponse) as denied,
            client.websocket_connect(f"/api/games/{gid}/ws", headers=evil),
        ):
            pass
        assert denied.value.status_code == 403
        with client.websocket_connect(f"/api/games/{gid}/ws", headers=ours) as ws:
            assert ws.receive_json()["type"] == "view"


def test_an_unforeseen_error_names_no_exception_class_and_no_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from funkoverse.server import games

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise KeyError(str(tmp_path))

    with served(tmp_path / "games.db") as client:
        client.app.state.games.replay = broken  # type: ignore[attr-defined]
        gid, _ = new_game(client, **FLAGS)
        r = client.get(f"/api/games/{gid}/replay")
        message = refused(r, 500, "internal")
        assert "KeyError" not in message and str(tmp_path) not in message
        assert games is not None
        page = client.get("/report")
        assert page.status_code == 404 and str(tmp_path) not in page.text


def test_creating_games_and_asking_hints_are_limited_per_address(tmp_path: Path) -> None:
    from funkoverse.server.guard import Limits

    db = tmp_path / "games.db"
    with TestClient(
        create_app(db, thinking=False, limits=Limits(games=2, hints=2, burst=2))
    ) as client:
        new_game(client, **FLAGS)
        new_game(client, **FLAGS)
        r = client.post("/api/games", json=FLAGS)
        assert "try again" in refused(r, 429, "rate_limited")
        assert len(client.get("/api/games").json()["games"]) == 2
        # a guided first game is a new game too
        assert "try again" in refused(client.post("/api/tutorial"), 429, "rate_limited")
        assert len(client.get("/api/games").json()["games"]) == 2


def test_a_server_drawn_seed_holds_128_random_bits(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with served(db) as client:
        gid, _ = new_game(client, scenario="flags")
    store = Store(db)
    row = store.game(gid)
    store.close()
    assert row is not None and row.seed.bit_length() > 64


# -- the computer's workers -------------------------------------------------------------


def test_a_worker_keeps_the_game_live_and_is_sent_only_what_it_has_not_seen(
    tmp_path: Path,
) -> None:
    from funkoverse.content.catalog import SHIPPED
    from funkoverse.content.setups import SetupRequest, build, draw_spec
    from funkoverse.rules.session import Session
    from funkoverse.server import ai

    spec = draw_spec(SetupRequest(scenario="flags", map="themyscira", size=2), 3)
    session = Session(build(spec), 3)
    thinkers = ai.Thinkers.__new__(ai.Thinkers)
    thinkers._sent = {}
    thinkers.engine = "kernel"
    thinkers.catalog = SHIPPED
    for _ in range(40):
        seat = session.decider
        assert seat is not None
        task = thinkers.task("g1", spec.to_json(), 3, session.entries, seat)
        assert task.start + len(task.entries) == session.version
        choice = ai.decide(task, "easy")
        assert choice is not None
        thinkers.sent(task, True)
        session.play(seat, choice)
    later = thinkers.task("g1", spec.to_json(), 3, session.entries, session.decider or "")
    assert later.start > 0 and len(later.entries) < 10
    # a worker that does not hold the game says so, and is then sent the whole log
    ai._LIVE.clear()
    assert ai.decide(later, "easy") is None
    thinkers.sent(later, False)
    whole = thinkers.task("g1", spec.to_json(), 3, session.entries, session.decider or "")
    assert whole.start == 0 and ai.decide(whole, "easy") is not None


def test_a_read_only_database_refuses_the_write_and_service_resumes_when_it_is_writable(
    tmp_path: Path,
) -> None:
    db = tmp_path / "games.db"
    with quick(db) as client:
        store = client.app.state.store  # type: ignore[attr-defined]
        gid, tokens = new_game(client, **FLAGS)
        v = hot_seat(client, gid, tokens)
        # the database as a read-only mount gives it: every write refused by SQLite itself
        store.close()
        store._db = sqlite3.connect(
            f"file:{db}?mode=ro", uri=True, check_same_thread=False, isolation_level=None
        )
        r = client.post(
            f"/api/games/{gid}/choices",
            json={"choice": first_choice(v), "version": v["version"]},
            headers=auth(tokens[v["decider"]]),
        )
        refused(r, 503, "unavailable")
        assert view(client, gid)["version"] == v["version"]
        # the store opens the database again for the next write, which it now takes
        after = play(client, gid, tokens[v["decider"]], first_choice(v), v["version"])
        assert after["version"] > v["version"]
        assert len(stored_log(db, gid)) == after["version"]

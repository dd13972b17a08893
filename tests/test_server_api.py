"""The game server's API (../shared/spec/server-api.md): every refusal gets the spec's error
and changes nothing; choices are checked by the session, resends are applied once, undo
keeps to its policy, views go live to every watcher, and a server started again on its
database carries every game on."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from serverclient import (
    SHORT_GAME,
    auth,
    everything,
    first_choice,
    hot_seat,
    keen,
    new_game,
    play,
    play_out,
    served,
    steady,
    view,
)

FIVE = ["dracula", "invisible-man", "the-bride", "the-cheetah", "the-creature"]
FLAGS = {
    "scenario": "flags",
    "map": "themyscira",
    "size": 2,
    "seed": 11,
    "seats": {"dark": {"player": "human"}, "light": {"player": "human"}},
}


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with served(tmp_path / "games.db") as c:
        yield c


@pytest.fixture
def game(client: TestClient) -> tuple[str, dict[str, str]]:
    return new_game(client, **FLAGS)


def refused(r: Any, status: int, code: str) -> str:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    assert body["error"]["code"] == code, body
    message = body["error"]["message"]
    assert message and "\n" not in message and "Traceback" not in message
    return str(message)


def post_choice(client: TestClient, game: str, token: str | None, body: Any) -> Any:
    return client.post(f"/api/games/{game}/choices", json=body, headers=auth(token))


# -- creating games -------------------------------------------------------------------


def test_a_game_is_made_of_a_spec_and_gives_a_token_to_each_human_seat(client: TestClient) -> None:
    r = client.post(
        "/api/games",
        json={"scenario": "flags", "seats": {"light": {"player": "ai", "level": "easy"}}},
    )
    assert r.status_code == 201
    made = r.json()
    assert set(made["seats"]) == {"dark"}  # a seat left out is a human seat; AI seats get none
    assert len(made["seats"]["dark"]["token"]) >= 22  # at least 128 random bits
    assert made["spectate"] == f"/games/{made['game']}"
    listed = client.get("/api/games").json()["games"]
    assert [g["game"] for g in listed] == [made["game"]]
    assert listed[0]["seats"]["light"] == {"player": "ai", "level": "easy", "joined": True}
    assert listed[0]["seats"]["dark"] == {"player": "human", "joined": False}
    assert listed[0]["status"] == "setup"


@pytest.mark.parametrize(
    ("body", "names"),
    [
        ({"scenario": "no-such-scenario"}, "scenario"),
        ({"scenario": "flags", "map": "the-moon"}, "map"),
        ({"scenario": "flags", "teams": {"dark": ["nobody-at-all"]}}, "nobody-at-all"),
        ({"scenario": "flags", "seats": {"dark": {"player": "ai", "level": "godlike"}}}, "level"),
        ({"scenario": "flags", "size": "three"}, "size"),
        ({"map": "themyscira"}, "scenario"),
        ({"scenario": "flags", "colour": "red"}, "colour"),
        ([1, 2, 3], "body"),
    ],
)
def test_a_bad_game_is_refused_naming_the_field(client: TestClient, body: Any, names: str) -> None:
    message = refused(client.post("/api/games", json=body), 400, "bad_request")
    assert names in message
    assert client.get("/api/games").json() == {"games": []}


@pytest.mark.parametrize(
    "body",
    [
        {"scenario": "flags", "size": 2, "teams": {"dark": FIVE}},
        {"scenario": "flags", "size": 3, "teams": {"dark": ["dracula"]}},
        {"scenario": "flags", "teams": {"dark": FIVE, "light": ["dracula", "villager"]}},
    ],
)
def test_scenario_setup_step_6_a_team_the_scenario_does_not_allow_is_refused(
    client: TestClient, body: dict[str, Any]
) -> None:
    """Scenario Setup, 6: "Each player chooses two or three characters": five for dark with
    `size` 2 is not a game of five against two, nor one character with 3 a side one against
    two; the team is refused, naming the field, and no game is made."""
    message = refused(client.post("/api/games", json=body), 400, "bad_request")
    assert "field 'teams.dark'" in message, message
    assert client.get("/api/games").json() == {"games": []}


def test_malformed_json_is_refused_before_anything_else(client: TestClient) -> None:
    r = client.post(
        "/api/games", content=b"{scenario: flags", headers={"Content-Type": "application/json"}
    )
    assert "malformed JSON" in refused(r, 400, "bad_request")
    r = client.post(
        "/api/games/no-such-game/choices",
        content=b"{oops",
        headers={"Content-Type": "application/json"},
    )
    refused(r, 400, "bad_request")  # malformed JSON answers before the unknown game
    assert client.get("/api/games").json() == {"games": []}


def test_an_oversized_body_is_refused_first(
    client: TestClient, game: tuple[str, dict[str, str]]
) -> None:
    gid, _ = game
    before = everything(client, gid)
    huge = b'{"choice": "' + b"x" * (70 * 1024) + b'", "version": 0}'
    r = client.post(
        f"/api/games/{gid}/choices",
        content=huge,
        headers={"Content-Type": "application/json", **auth("not-a-token")},
    )
    refused(r, 413, "too_large")
    refused(
        client.post("/api/games", content=huge, headers={"Content-Type": "application/json"}),
        413,
        "too_large",
    )
    assert everything(client, gid) == before


# -- making choices -------------------------------------------------------------------


def test_each_refused_choice_gets_the_spec_error_and_changes_nothing(
    client: TestClient, game: tuple[str, dict[str, str]]
) -> None:
    gid, tokens = game
    v = hot_seat(client, gid, tokens)
    seat, other = v["decider"], next(s for s in tokens if s != v["decider"])
    version = v["version"]
    legal = first_choice(v)
    before = everything(client, gid)
    cases = [
        (
            post_choice(
                client, "no-such-game", tokens[seat], {"choice": legal, "version": version}
            ),
            404,
            "not_found",
        ),
        (post_choice(client, gid, None, {"choice": legal, "version": version}), 401, "no_token"),
        (
            post_choice(client, gid, "x" * 32, {"choice": legal, "version": version}),
            403,
            "wrong_seat",
        ),
        (post_choice(client, gid, tokens[seat], {"version": version}), 400, "bad_request"),
        (post_choice(client, gid, tokens[seat], {"choice": legal}), 400, "bad_request"),
        (
            post_choice(client, gid, tokens[seat], {"choice": legal, "version": "now"}),
            400,
            "bad_request",
        ),
        (
            post_choice(client, gid, tokens[seat], {"choice": legal, "version": version, "x": 1}),
            400,
            "bad_request",
        ),
        (
            post_choice(client, gid, tokens[seat], {"choice": legal, "version": version + 1}),
            409,
            "stale",
        ),
        (
            post_choice(client, gid, tokens[other], {"choice": legal, "version": version}),
            409,
            "not_your_turn",
        ),
        (
            post_choice(client, gid, tokens[seat], {"choice": "fly:z99", "version": version}),
            422,
            "illegal",
        ),
        (
            post_choice(client, gid, tokens[seat], {"choice": "end", "version": version}),
            422,
            "illegal",
        ),
    ]
    for r, status, code in cases:
        refused(r, status, code)
        assert everything(client, gid) == before
    # a missing field is named
    message = refused(
        post_choice(client, gid, tokens[seat], {"version": version}), 400, "bad_request"
    )
    assert "choice" in message


def test_an_illegal_choice_cites_the_rule_that_forbids_it(
    client: TestClient, game: tuple[str, dict[str, str]]
) -> None:
    gid, tokens = game
    v = hot_seat(client, gid, tokens)
    while v["state"]["phase"] != "choose":
        v = play(client, gid, tokens[v["decider"]], first_choice(v), v["version"])
        v = hot_seat(client, gid, tokens)
    chose = first_choice(v, ("choose:",))
    v = play(client, gid, tokens[v["decider"]], chose, v["version"])
    board = client.get(f"/api/maps/{v['state']['map']}").json()
    squares = [
        f"{chr(97 + x)}{y}" for x in range(board["width"]) for y in range(1, board["height"] + 1)
    ]
    moves = {c["id"] for c in v["choices"] if c["id"].startswith("move:")}
    far = next(f"move:{s}" for s in squares if f"move:{s}" not in moves)
    message = refused(
        post_choice(client, gid, tokens[v["seat"]], {"choice": far, "version": v["version"]}),
        422,
        "illegal",
    )
    assert message.endswith("(Basic Moves)"), message  # the section of the rulebook


def test_a_resent_choice_is_acknowledged_again_and_applied_once(
    client: TestClient, game: tuple[str, dict[str, str]]
) -> None:
    gid, tokens = game
    v = hot_seat(client, gid, tokens)
    seat, version, choice = v["decider"], v["version"], first_choice(v)
    once = play(client, gid, tokens[seat], choice, version)
    twice = play(client, gid, tokens[seat], choice, version)
    assert twice["version"] == once["version"] > version
    assert twice["log"] == once["log"]
    # a different choice for the answered version is stale
    other = [c["id"] for c in v["choices"] if c["id"] != choice]
    if other:
        refused(
            post_choice(client, gid, tokens[seat], {"choice": other[0], "version": version}),
            409,
            "stale",
        )
    assert view(client, gid)["version"] == once["version"]


def test_a_finished_game_takes_no_choice_and_no_undo_and_gives_its_replay(
    client: TestClient,
) -> None:
    gid, tokens = new_game(client, **SHORT_GAME)
    refused(client.get(f"/api/games/{gid}/replay"), 409, "not_finished")
    refused(client.get(f"/api/games/{gid}/at/0"), 409, "not_finished")
    v = play_out(client, gid, tokens)
    assert v["status"] == "finished" and v["winner"] in tokens and v["decider"] is None
    before = everything(client, gid)
    refused(
        post_choice(client, gid, tokens["dark"], {"choice": "end", "version": v["version"]}),
        409,
        "finished",
    )
    refused(
        client.post(
            f"/api/games/{gid}/undo", json={"version": v["version"]}, headers=auth(tokens["dark"])
        ),
        409,
        "finished",
    )
    assert everything(client, gid) == before
    replay = client.get(f"/api/games/{gid}/replay").json()
    assert set(replay) == {"spec", "seed", "log"} and replay["seed"] == 4
    assert len(replay["log"]) == v["version"]
    start = client.get(f"/api/games/{gid}/at/0").json()
    assert start["version"] == 0 and start["seat"] is None and start["choices"] == []
    end = client.get(f"/api/games/{gid}/at/{v['version']}").json()
    assert end["winner"] == v["winner"] and end["state"] == view(client, gid)["state"]
    refused(client.get(f"/api/games/{gid}/at/{v['version'] + 1}"), 400, "bad_request")


def test_an_unknown_game_is_not_found(client: TestClient) -> None:
    refused(client.get("/api/games/nope"), 404, "not_found")
    refused(client.get("/api/games/" + "x" * 300), 404, "not_found")
    refused(client.get("/api/maps/the-moon"), 404, "not_found")


# -- undo -----------------------------------------------------------------------------


def _to_turn(client: TestClient, gid: str, tokens: dict[str, str]) -> dict[str, Any]:
    v = hot_seat(client, gid, tokens)
    while v["state"]["phase"] != "choose" and v["status"] != "finished":
        v = play(client, gid, tokens[v["decider"]], first_choice(v), v["version"])
        v = hot_seat(client, gid, tokens)
    return v


def test_undo_takes_back_every_entry_since_the_last_chance_outcome_and_marks_them_undone(
    client: TestClient, game: tuple[str, dict[str, str]]
) -> None:
    gid, tokens = game
    opening = hot_seat(client, gid, tokens)  # just after the First Player flip, a chance outcome
    v = _to_turn(client, gid, tokens)
    seat = v["decider"]
    v = play(client, gid, tokens[seat], first_choice(v, ("choose:",)), v["version"])
    moves = [c["id"] for c in v["choices"] if c["id"].startswith("move:")]
    v = play(client, gid, tokens[seat], moves[-1], v["version"])
    assert v["undo"] is True
    # what the page says on its button: each seat's choices the undo takes back
    assert v["undo_choices"][seat] >= 2  # the choice of a character and its move at least
    assert sum(v["undo_choices"].values()) == v["undo_entries"]
    others = [t for s, t in tokens.items() if s != seat]
    before = everything(client, gid)
    # undo needs the other person's token too (they may be another person)
    refused(
        client.post(
            f"/api/games/{gid}/undo", json={"version": v["version"]}, headers=auth(tokens[seat])
        ),
        403,
        "wrong_seat",
    )
    refused(
        client.post(
            f"/api/games/{gid}/undo",
            json={"version": v["version"] - 1, "tokens": others},
            headers=auth(tokens[seat]),
        ),
        409,
        "stale",
    )
    refused(client.post(f"/api/games/{gid}/undo", json={"version": v["version"]}), 401, "no_token")
    assert everything(client, gid) == before
    r = client.post(
        f"/api/games/{gid}/undo",
        json={"version": v["version"], "tokens": others},
        headers=auth(tokens[seat]),
    )
    assert r.status_code == 200, r.text
    back = r.json()
    assert back["version"] == v["version"] + 1  # the undo is an entry of its own
    assert back["state"]["characters"] == opening["state"]["characters"]
    assert back["decider"] == opening["decider"]
    assert back["undo"] is False and back["undo_choices"] == {}
    undone = [e for e in back["log"] if e.get("undone")]
    assert undone and all(e["entry"] >= opening["version"] for e in undone)
    refused(
        client.post(
            f"/api/games/{gid}/undo",
            json={"version": back["version"], "tokens": others},
            headers=auth(tokens[seat]),
        ),
        409,
        "nothing_to_undo",
    )
    # versions are never reused: the next choice answers the version after the undo
    again = hot_seat(client, gid, tokens)
    assert again["version"] == back["version"]
    play(client, gid, tokens[again["decider"]], first_choice(again), again["version"])


def test_undo_never_crosses_a_roll(client: TestClient) -> None:
    gid, tokens = new_game(
        client,
        scenario="knockout",
        map="proving-grounds",
        size=1,
        seed=5,
        seats={"dark": {"player": "human"}, "light": {"player": "human"}},
    )
    v = _to_turn(client, gid, tokens)
    for _ in range(400):
        if any(e["kind"] == "dice" for e in v["log"]):
            break
        v = play(client, gid, tokens[v["decider"]], keen(v, v["decider"])["id"], v["version"])
        v = hot_seat(client, gid, tokens)
    else:
        pytest.fail("no dice rolled in 400 choices")
    if v["status"] != "finished":
        assert v["undo"] is False
        seat = v["decider"]
        refused(
            client.post(
                f"/api/games/{gid}/undo",
                json={"version": v["version"], "tokens": list(tokens.values())},
                headers=auth(tokens[seat]),
            ),
            409,
            "nothing_to_undo",
        )


# -- live updates ---------------------------------------------------------------------


def test_every_watcher_gets_its_own_seats_view_live_in_version_order(
    client: TestClient, game: tuple[str, dict[str, str]]
) -> None:
    gid, tokens = game
    with (
        client.websocket_connect(f"/api/games/{gid}/ws?token={tokens['dark']}") as dark,
        client.websocket_connect(f"/api/games/{gid}/ws") as spectator,
        client.websocket_connect(f"/api/games/{gid}/ws") as light,
    ):
        first = dark.receive_json()
        assert first["type"] == "view" and first["view"]["seat"] == "dark"
        assert spectator.receive_json()["view"]["seat"] is None
        assert light.receive_json()["view"]["seat"] is None
        light.send_json({"token": tokens["light"]})  # the token as the first message
        assert light.receive_json()["view"]["seat"] == "light"
        versions: dict[str, list[int]] = {"dark": [], "light": [], None: []}  # type: ignore[dict-item]
        for _ in range(6):
            v = hot_seat(client, gid, tokens)
            seat = v["decider"]
            done = play(client, gid, tokens[seat], first_choice(v), v["version"])
            for name, ws in (("dark", dark), ("light", light), (None, spectator)):
                got = ws.receive_json()
                assert got["type"] == "view"
                assert got["view"]["seat"] == name
                assert got["view"]["version"] == done["version"]
                versions[name].append(got["view"]["version"])  # type: ignore[index]
                if name != got["view"]["decider"]:
                    assert got["view"]["choices"] == []
        for seen in versions.values():
            assert seen == sorted(seen) and len(set(seen)) == len(seen)


def test_a_choice_over_the_websocket_is_checked_like_one_over_http(
    client: TestClient, game: tuple[str, dict[str, str]]
) -> None:
    gid, tokens = game
    v = hot_seat(client, gid, tokens)
    seat = v["decider"]
    other = next(s for s in tokens if s != seat)
    before = everything(client, gid)
    with (
        client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[seat]}") as ws,
        client.websocket_connect(f"/api/games/{gid}/ws") as watcher,
    ):
        ws.receive_json()
        watcher.receive_json()

        def error(message: Any, code: str, raw: bool = False) -> None:
            if raw:
                ws.send_text(message)
            else:
                ws.send_json(message)
            got = ws.receive_json()
            assert got["type"] == "error" and got["error"]["code"] == code, got
            assert got["error"]["message"]
            assert everything(client, gid) == before

        error("{not json", "bad_request", raw=True)
        error("[1, 2]", "bad_request", raw=True)
        error({"type": "choice", "version": v["version"]}, "bad_request")
        error({"type": "choice", "choice": first_choice(v)}, "bad_request")
        error({"type": "dance"}, "bad_request")
        error({"type": "choice", "choice": "fly:z9", "version": v["version"]}, "illegal")
        error({"type": "choice", "choice": first_choice(v), "version": v["version"] + 3}, "stale")
        error({"type": "choice", "choice": "x" * (65 * 1024), "version": 0}, "too_large")
        error({"token": "not-a-token"}, "wrong_seat")
        # the spectator cannot act
        watcher.send_json({"type": "choice", "choice": first_choice(v), "version": v["version"]})
        got = watcher.receive_json()
        assert got["type"] == "error" and got["error"]["code"] == "no_token"
        assert everything(client, gid) == before
        # a choice for another seat
        watcher.send_json({"token": tokens[other]})
        assert watcher.receive_json()["view"]["seat"] == other
        watcher.send_json({"type": "choice", "choice": first_choice(v), "version": v["version"]})
        got = watcher.receive_json()
        assert got["error"]["code"] == "not_your_turn"
        assert everything(client, gid) == before
        # and a good one, then its resend
        ws.send_json({"type": "choice", "choice": first_choice(v), "version": v["version"]})
        after = ws.receive_json()["view"]
        assert after["version"] > v["version"]
        assert watcher.receive_json()["view"]["version"] == after["version"]
        ws.send_json({"type": "choice", "choice": first_choice(v), "version": v["version"]})
        again = ws.receive_json()["view"]
        assert again["version"] == after["version"]
        ws.send_json({"type": "view"})
        assert ws.receive_json()["view"]["version"] == after["version"]


def test_a_websocket_to_no_game_or_with_a_wrong_token_is_told_why(
    client: TestClient, game: tuple[str, dict[str, str]]
) -> None:
    gid, _ = game
    with client.websocket_connect("/api/games/nope/ws") as ws:
        assert ws.receive_json()["error"]["code"] == "not_found"
    with client.websocket_connect(f"/api/games/{gid}/ws?token=wrong") as ws:
        assert ws.receive_json()["error"]["code"] == "wrong_seat"


# -- the page's extras ----------------------------------------------------------------


def test_a_preview_shows_moves_sight_and_challenge_odds_only_to_the_deciding_seat(
    client: TestClient, game: tuple[str, dict[str, str]]
) -> None:
    gid, tokens = game
    v = _to_turn(client, gid, tokens)
    seat = v["decider"]
    other = next(s for s in tokens if s != seat)
    piece = next(c["id"].split(":", 1)[1] for c in v["choices"] if c["id"].startswith("choose:"))
    r = client.get(f"/api/games/{gid}/preview", params={"piece": piece}, headers=auth(tokens[seat]))
    assert r.status_code == 200
    seen = r.json()
    assert seen["piece"] == piece and seen["moves"] and seen["sees"]
    for t in seen["targets"]:
        assert 0 <= t["odds"] <= 1
    # a rival's character is not the seat's to preview
    rival = next(c["id"] for c in v["state"]["characters"] if c["side"] == other)
    refused(
        client.get(
            f"/api/games/{gid}/preview", params={"piece": rival}, headers=auth(tokens[seat])
        ),
        400,
        "bad_request",
    )
    refused(client.get(f"/api/games/{gid}/preview", params={"piece": piece}), 401, "no_token")


def test_content_and_maps_give_the_page_what_it_draws(client: TestClient) -> None:
    content = client.get("/api/content").json()
    assert {"characters", "items", "scenarios", "maps", "levels", "cards"} <= set(content)
    assert content["levels"] == ["easy", "normal", "hard", "expert"]
    flags = next(s for s in content["scenarios"] if s["id"] == "flags")
    assert "themyscira" in flags["maps"] and 3 in flags["sizes"]
    board = client.get("/api/maps/themyscira").json()
    assert board["id"] == "themyscira" and (board["width"], board["height"]) == (10, 10)
    assert board["start_areas"]["dark"] and board["walls"]
    assert client.get("/docs").status_code == 200
    assert client.get("/openapi.json").json()["paths"]["/api/games/{game}/choices"]
    page = client.get("/")
    assert page.status_code == 200 and "<script" in page.text
    # nothing is fetched from the internet: every import, script, style and font is served here
    remote = re.compile(
        r"""(?:\bfrom\s*|\bimport\s*\(?\s*|\b(?:src|href)\s*=\s*|url\(\s*|fetch\(\s*)["']?(?:https?:)?//"""
    )
    pages = {"/": page.text, "/games/x": client.get("/games/x").text}
    for asset in (
        "lobby.js",
        "game.js",
        "board.js",
        "api.js",
        "style.css",
        "vendor/htm-preact.module.js",
    ):
        r = client.get(f"/static/{asset}")
        assert r.status_code == 200, asset
        pages[asset] = r.text
    for name, text in pages.items():
        assert not remote.search(text), (name, remote.search(text))


# -- the database ---------------------------------------------------------------------


def test_a_server_started_again_on_its_database_carries_every_game_on(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with served(db) as client:
        gid, tokens = new_game(client, **FLAGS)
        v = hot_seat(client, gid, tokens)
        for _ in range(12):
            v = play(client, gid, tokens[v["decider"]], first_choice(v), v["version"])
            v = hot_seat(client, gid, tokens)
        before = {s: steady(view(client, gid, t)) for s, t in tokens.items()}
    with served(db) as client:
        after = {s: steady(view(client, gid, t)) for s, t in tokens.items()}
        assert after == before
        v = hot_seat(client, gid, tokens)
        play(client, gid, tokens[v["decider"]], first_choice(v), v["version"])
        listed = client.get("/api/games").json()["games"]
        assert listed[0]["seats"][v["decider"]]["joined"] is True


def test_the_computer_plays_its_seat_off_the_request_path(tmp_path: Path) -> None:
    with served(tmp_path / "games.db", thinking=True) as client:
        gid, tokens = new_game(
            client,
            scenario="flags",
            map="themyscira",
            size=2,
            seed=2,
            seats={"dark": {"player": "human"}, "light": {"player": "ai", "level": "easy"}},
        )
        with client.websocket_connect(f"/api/games/{gid}/ws?token={tokens['dark']}") as ws:
            v = ws.receive_json()["view"]
            light_moves = 0
            for _ in range(400):
                if v["decider"] == "dark":
                    ws.send_json(
                        {"type": "choice", "choice": first_choice(v), "version": v["version"]}
                    )
                got = ws.receive_json()
                assert got["type"] == "view", got
                v = got["view"]
                light_moves = sum(
                    1
                    for e in client.get(f"/api/games/{gid}").json()["log"]
                    if e.get("side") == "light"
                )
                if v["state"]["round"] >= 2 and light_moves:
                    break
            assert v["state"]["round"] >= 2 and light_moves > 0

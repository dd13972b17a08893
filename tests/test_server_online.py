"""Online play that lasts (server-api.md, "Added 2026-12-03"), over HTTP and the WebSocket:
resign, a rematch offered live and answered once, presence and claims on a seat gone past
the grace period (too early, then to the computer or for the win), Fischer and
correspondence clocks that run out with nobody connected (and across a restart), two
players a side each with a seat acting only for their own characters, and `?since=`.

The server's time is a `ManualClock` the test moves: nothing here sleeps or waits on time.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from serverclient import ManualClock, auth, new_game, play, served_at, view

FLAGS = {
    "scenario": "flags",
    "map": "themyscira",
    "size": 2,
    "seed": 11,
    "seats": {"dark": {"player": "human"}, "light": {"player": "human"}},
}


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def client(tmp_path: Path, clock: ManualClock) -> Any:
    with served_at(tmp_path / "games.db", clock) as c:
        yield c


def refused(r: Any, status: int, code: str) -> str:
    assert r.status_code == status, r.text
    body = r.json()
    assert body["error"]["code"] == code, body
    message = body["error"]["message"]
    assert message and "\n" not in message
    return str(message)


def post(client: TestClient, game: str, what: str, token: str | None, body: Any) -> Any:
    return client.post(f"/api/games/{game}/{what}", json=body, headers=auth(token))


def decider_token(client: TestClient, game: str, tokens: dict[str, str]) -> tuple[str, str]:
    seat = view(client, game)["decider"]
    return seat, tokens[seat]


def kinds(v: dict[str, Any]) -> list[str]:
    return [e["kind"] for e in v["log"]]


# -- resign -------------------------------------------------------------------------------


def test_a_resignation_ends_the_game_for_the_other_side_and_every_watcher_sees_it(
    client: TestClient,
) -> None:
    gid, tokens = new_game(client, **FLAGS)
    version = view(client, gid)["version"]
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tokens['light']}") as light:
        assert light.receive_json()["type"] == "view"
        r = post(client, gid, "resign", tokens["dark"], {"version": version})
        assert r.status_code == 200, r.text
        ended = r.json()
        assert ended["status"] == "finished" and ended["winner"] == "light"
        assert ended["decider"] is None and ended["choices"] == []
        assert ended["log"][-1]["kind"] == "resign" and "dark resigned" in ended["log"][-1]["text"]
        while True:  # the other player is told live
            msg = light.receive_json()
            if msg["type"] == "view" and msg["view"]["status"] == "finished":
                break
        assert msg["view"]["winner"] == "light" and msg["view"]["log"][-1]["kind"] == "resign"
    # a resend is acknowledged once; a resignation of a game over is refused
    again = post(client, gid, "resign", tokens["dark"], {"version": version})
    assert again.status_code == 200 and again.json()["version"] == ended["version"]
    refused(
        post(client, gid, "resign", tokens["light"], {"version": ended["version"]}), 409, "finished"
    )
    refused(post(client, gid, "resign", None, {"version": 0}), 401, "no_token")
    refused(post(client, gid, "resign", "x" * 30, {"version": 0}), 403, "wrong_seat")
    refused(post(client, gid, "resign", tokens["dark"], {"version": "5"}), 400, "bad_request")
    replay = client.get(f"/api/games/{gid}/replay").json()
    assert replay["log"][-1] == {"kind": "resign", "choice": "win:light", "seat": "dark"}


def test_a_resignation_answering_an_old_version_is_stale_and_changes_nothing(
    client: TestClient,
) -> None:
    gid, tokens = new_game(client, **FLAGS)
    _, token = decider_token(client, gid, tokens)
    v = view(client, gid, token)
    play(client, gid, token, v["choices"][0]["id"], v["version"])
    refused(post(client, gid, "resign", tokens["light"], {"version": v["version"]}), 409, "stale")
    assert view(client, gid)["status"] != "finished"


# -- rematch ------------------------------------------------------------------------------


def test_a_rematch_is_offered_live_to_the_other_player_and_answered_once(
    client: TestClient,
) -> None:
    gid, tokens = new_game(client, **FLAGS)
    refused(post(client, gid, "rematch", tokens["dark"], {}), 409, "not_finished")
    before = view(client, gid)
    post(client, gid, "resign", tokens["light"], {"version": before["version"]})
    with (
        client.websocket_connect(f"/api/games/{gid}/ws?token={tokens['light']}") as light,
        client.websocket_connect(f"/api/games/{gid}/ws") as spectator,
    ):
        light.receive_json()
        spectator.receive_json()
        r = client.post(f"/api/games/{gid}/rematch", headers=auth(tokens["dark"]))
        assert r.status_code == 201, r.text
        made = r.json()
        assert made["seat"] == "light" and len(made["token"]) >= 22  # sides swapped
        offered = light.receive_json()
        while offered["type"] != "rematch":
            offered = light.receive_json()
        assert offered["game"] == made["game"] and offered["token"] != made["token"]
        seen = spectator.receive_json()  # the spectator is told of the new game, no token
        assert seen["type"] == "view" and seen["view"]["rematch"] == made["game"]
        assert made["token"] not in str(seen) and offered["token"] not in str(seen)
    # asked again, by either player: the same game
    second = post(client, gid, "rematch", tokens["light"], {}).json()
    assert second["game"] == made["game"] and second["token"] == offered["token"]
    assert second["seat"] == "dark"
    third = post(client, gid, "rematch", tokens["dark"], {}).json()
    assert third["game"] == made["game"] and third["token"] == made["token"]
    # the same setup with the sides swapped, a new seed, the same kinds of seat
    old = client.get(f"/api/games/{gid}/replay").json()["spec"]
    new = view(client, made["game"], made["token"])
    assert new["seat"] == "light" and view(client, made["game"], offered["token"])["seat"] == "dark"
    teams = {t["side"]: t["characters"] for t in old["teams"]}
    fresh = (
        {p["id"].rsplit("-", 1)[0]: p["side"] for p in new["state"]["pieces"] if p.get("character")}
        if False
        else None
    )
    del fresh
    listing = {g["game"]: g for g in client.get("/api/games").json()["games"]}
    assert listing[made["game"]]["map"] == old["map"]
    assert listing[made["game"]]["scenario"] == old["scenario"]
    assert set(listing[made["game"]]["seats"]) == {"dark", "light"}
    assert teams  # the old game's teams were named


def test_the_second_player_gets_its_rematch_token_after_a_restart(
    tmp_path: Path, clock: ManualClock
) -> None:
    db = tmp_path / "games.db"
    with served_at(db, clock) as client:
        gid, tokens = new_game(client, **FLAGS)
        post(client, gid, "resign", tokens["light"], {"version": view(client, gid)["version"]})
        made = post(client, gid, "rematch", tokens["dark"], {}).json()
    with served_at(db, clock) as client:  # the server started again
        second = post(client, gid, "rematch", tokens["light"], {}).json()
        assert second["game"] == made["game"] and second["seat"] == "dark"
        assert second["token"] and second["token"] != made["token"]
        v = view(client, made["game"], second["token"])
        assert v["seat"] == "dark"  # the token is that seat's in the new game
        again = post(client, gid, "rematch", tokens["dark"], {}).json()
        assert again["token"] == made["token"]
        assert second["token"] not in str(view(client, gid))  # never in a view


def test_a_rematch_swaps_the_teams(client: TestClient) -> None:
    gid, tokens = new_game(client, **{**FLAGS, "teams": {"dark": ["wonder-woman", "the-cheetah"]}})
    post(client, gid, "resign", tokens["dark"], {"version": view(client, gid)["version"]})
    made = post(client, gid, "rematch", tokens["dark"], {}).json()
    old = client.get(f"/api/games/{gid}/replay").json()["spec"]
    post(
        client,
        made["game"],
        "resign",
        made["token"],
        {"version": view(client, made["game"])["version"]},
    )
    new = client.get(f"/api/games/{made['game']}/replay").json()
    swapped = {t["side"]: t["characters"] for t in new["spec"]["teams"]}
    was = {t["side"]: t["characters"] for t in old["teams"]}
    assert swapped == {"dark": was["light"], "light": was["dark"]}
    assert new["seed"] != client.get(f"/api/games/{gid}/replay").json()["seed"]


# -- presence and claims ------------------------------------------------------------------


def test_presence_shows_who_is_here_and_for_how_long_a_seat_has_been_away(
    client: TestClient, clock: ManualClock
) -> None:
    gid, tokens = new_game(client, **FLAGS)
    seats = view(client, gid, tokens["dark"])["seats"]
    assert seats["dark"]["present"] is True and seats["dark"]["away_since"] is None
    assert seats["light"]["present"] is False and seats["light"]["away_since"]
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tokens['light']}") as ws:
        ws.receive_json()
        clock.advance(300)
        seats = view(client, gid)["seats"]
        assert seats["light"]["present"] is True  # an open socket keeps a seat here
        assert seats["dark"]["present"] is False  # a request counts for 60 seconds
    seats = view(client, gid)["seats"]
    assert seats["light"]["present"] is False and seats["light"]["away_since"]


def test_a_claim_before_the_grace_period_is_too_early_then_the_computer_takes_the_seat(
    client: TestClient, clock: ManualClock
) -> None:
    gid, tokens = new_game(client, **{**FLAGS, "grace": 120})
    seat, token = decider_token(client, gid, tokens)
    other = "light" if seat == "dark" else "dark"
    v = view(client, gid, token)  # the decider is here now
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[other]}") as ws:
        ws.receive_json()
        message = refused(
            post(client, gid, "claim", tokens[other], {"version": v["version"], "claim": "ai"}),
            409,
            "too_early",
        )
        assert seat in message
        refused(
            post(client, gid, "claim", token, {"version": v["version"], "claim": "ai"}),
            409,
            "too_early",
        )
        clock.advance(100)  # away 40 s past its last request's minute: not yet
        refused(
            post(client, gid, "claim", tokens[other], {"version": v["version"], "claim": "win"}),
            409,
            "too_early",
        )
        clock.advance(121)
        claimable = view(client, gid, tokens[other])
        assert claimable["claimable"] == seat and claimable["grace"] == 120
        refused(
            post(client, gid, "claim", tokens[other], {"version": 0, "claim": "ai"}), 409, "stale"
        )
        refused(
            post(client, gid, "claim", tokens[other], {"version": v["version"], "claim": "all"}),
            400,
            "bad_request",
        )
        r = post(client, gid, "claim", tokens[other], {"version": v["version"], "claim": "ai"})
        assert r.status_code == 200, r.text
        after = r.json()
        assert after["seats"][seat] == {
            "player": "ai",
            "level": "normal",
            "claimed": True,
            "joined": True,
            "present": True,
            "away_since": None,
        }
        assert after["log"][-1]["kind"] == "claim" and after["status"] != "finished"
        assert after["version"] == v["version"] + 1
        told = ws.receive_json()
        while told["view"]["version"] != after["version"]:
            told = ws.receive_json()
        assert told["view"]["seats"][seat]["claimed"] is True
    # the seat stays the computer's after a restart of its record
    listed = {g["game"]: g for g in client.get("/api/games").json()["games"]}[gid]
    assert listed["seats"][seat]["player"] == "ai"


def test_a_claim_for_the_win_ends_the_game_for_the_claimers_side(
    client: TestClient, clock: ManualClock
) -> None:
    gid, tokens = new_game(client, **{**FLAGS, "grace": 30})
    seat, _ = decider_token(client, gid, tokens)
    other = "light" if seat == "dark" else "dark"
    clock.advance(31)  # the decider was never here
    v = view(client, gid, tokens[other])
    r = post(client, gid, "claim", tokens[other], {"version": v["version"], "claim": "win"})
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "finished" and r.json()["winner"] == other
    assert r.json()["log"][-1]["kind"] == "claim"
    refused(
        post(client, gid, "claim", tokens[other], {"version": r.json()["version"], "claim": "win"}),
        409,
        "finished",
    )


def test_the_computer_plays_a_claimed_seat(tmp_path: Path, clock: ManualClock) -> None:
    with served_at(tmp_path / "games.db", clock, thinking=True) as client:
        gid, tokens = new_game(client, **{**FLAGS, "grace": 10})
        seat, _ = decider_token(client, gid, tokens)
        other = "light" if seat == "dark" else "dark"
        clock.advance(11)
        v = view(client, gid, tokens[other])
        post(client, gid, "claim", tokens[other], {"version": v["version"], "claim": "ai"})
        with client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[other]}") as ws:
            while True:  # the computer moves for the claimed seat until the claimer decides
                got = ws.receive_json()["view"]
                if got["decider"] == other or got["status"] == "finished":
                    break
        assert got["version"] > v["version"] + 1


# -- clocks -------------------------------------------------------------------------------


def test_a_fischer_clock_runs_for_the_decider_adds_its_increment_and_times_out_unwatched(
    client: TestClient, clock: ManualClock
) -> None:
    gid, tokens = new_game(client, **{**FLAGS, "clock": {"initial": 60, "increment": 5}})
    seat, token = decider_token(client, gid, tokens)
    other = "light" if seat == "dark" else "dark"
    v = view(client, gid, token)
    assert v["clock"] == {"initial": 60, "increment": 5}
    assert v["clocks"] == {"dark": 60, "light": 60} and v["clock_running"] == seat
    clock.advance(20)
    v = view(client, gid, token)
    assert v["clocks"][seat] == 40 and v["clocks"][other] == 60
    after = play(client, gid, token, v["choices"][0]["id"], v["version"])
    assert after["clocks"][seat] == 45  # 40 left, and the increment
    # nobody is connected: the server alone finds the clock run out
    running = after["clock_running"]
    left = after["clocks"][running]
    clock.advance(left + 1)
    ended = view(client, gid)
    assert ended["status"] == "finished" and ended["clock_running"] is None
    assert ended["log"][-1]["kind"] == "timeout"
    loser = ended["log"][-1]["seat"]
    assert loser == running and ended["winner"] == ("light" if loser == "dark" else "dark")
    assert ended["clocks"][running] == 0


def test_a_correspondence_clock_gives_each_decision_its_days_and_runs_out_across_a_restart(
    tmp_path: Path, clock: ManualClock
) -> None:
    db = tmp_path / "games.db"
    with served_at(db, clock) as client:
        gid, tokens = new_game(client, **{**FLAGS, "clock": {"days": 2}})
        seat, token = decider_token(client, gid, tokens)
        clock.advance(86400)
        v = view(client, gid, token)
        assert v["clocks"][seat] == 86400 and v["clock_running"] == seat
        after = play(client, gid, token, v["choices"][0]["id"], v["version"])
        assert after["clocks"][after["clock_running"]] == 2 * 86400
        running = after["clock_running"]
    clock.advance(3 * 86400)  # the server is stopped meanwhile
    with served_at(db, clock) as client:
        ended = view(client, gid)
        assert ended["status"] == "finished" and ended["log"][-1]["kind"] == "timeout"
        assert ended["log"][-1]["seat"] == running


def test_a_bad_clock_is_refused_naming_it(client: TestClient) -> None:
    for bad in ({"days": 1, "initial": 60}, {}, {"initial": 0}, {"days": "2"}):
        r = client.post("/api/games", json={**FLAGS, "clock": bad})
        assert "clock" in refused(r, 400, "bad_request")
    assert client.get("/api/games").json()["games"] == []


def test_without_a_clock_a_view_has_none(client: TestClient) -> None:
    gid, _ = new_game(client, **FLAGS)
    v = view(client, gid)
    assert "clocks" not in v and "clock_running" not in v


# -- two players a side, each with a seat -------------------------------------------------

TEAMS = {
    "scenario": "flags",
    "map": "themyscira",
    "mode": "teams",
    "players": 4,
    "seed": 5,
    "seating": "per-player",
    "teams": {
        "dark": ["wonder-woman", "the-cheetah", "priestess"],
        "light": ["dracula", "the-bride", "mad-scientist"],
    },
}


def test_per_player_seats_act_only_for_their_own_characters(client: TestClient) -> None:
    gid, tokens = new_game(client, **TEAMS)
    assert set(tokens) == {"dark-1", "dark-2", "light-1", "light-2"}
    v = view(client, gid)
    assert v["seating"] == "per-player"
    owners = {seat: s["characters"] for seat, s in v["seats"].items()}
    assert (
        owners["dark-1"] and owners["dark-2"] and not set(owners["dark-1"]) & set(owners["dark-2"])
    )
    assert v["seats"]["dark-2"]["side"] == "dark"
    # play on until a seat's side decides: each player is offered only its own characters
    for _ in range(40):
        v = view(client, gid)
        if v["status"] != "setup":
            break
        seat = v["decider"]
        mine = view(client, gid, tokens[seat])
        assert mine["choices"], mine
        for c in mine["choices"]:
            piece = c["id"].split(":")[1]
            assert piece in owners[seat], (seat, c["id"])
        # the other player of the side may not place this player's character
        partner = seat[:-1] + ("2" if seat.endswith("1") else "1")
        other_view = view(client, gid, tokens[partner])
        piece_choice = mine["choices"][0]["id"]
        r = post(
            client,
            gid,
            "choices",
            tokens[partner],
            {"choice": piece_choice, "version": v["version"]},
        )
        if partner in v["deciders"]:
            assert "More Players" in refused(r, 422, "illegal")
        else:
            refused(r, 409, "not_your_turn")
            assert other_view["choices"] == []
        play(client, gid, tokens[seat], piece_choice, v["version"])
    assert v["status"] == "playing"
    # choosing which character takes the turn: either player of the side, each its own
    side = v["decider"].split("-")[0]
    assert set(v["deciders"]) <= {f"{side}-1", f"{side}-2"}
    theirs = {p: view(client, gid, tokens[p])["choices"] for p in (f"{side}-1", f"{side}-2")}
    for p, choices in theirs.items():
        for c in choices:
            if c["id"].startswith("choose:"):
                assert c["id"].split(":")[1] in owners[p]
    p = v["deciders"][0]
    chosen = next(c["id"] for c in theirs[p] if c["id"].startswith("choose:"))
    other = next(q for q in theirs if q != p)
    refused(
        post(client, gid, "choices", tokens[other], {"choice": chosen, "version": v["version"]}),
        422,
        "illegal",
    )
    after = play(client, gid, tokens[p], chosen, v["version"])
    assert after["deciders"] == [p]  # the chosen character's player takes the turn
    assert view(client, gid, tokens[other])["choices"] == []
    rival = ("light" if side == "dark" else "dark") + "-1"
    refused(
        post(
            client,
            gid,
            "choices",
            tokens[rival],
            {"choice": after["choices"][0]["id"], "version": after["version"]},
        ),
        409,
        "not_your_turn",
    )


def test_per_player_seating_needs_two_players_a_side(client: TestClient) -> None:
    r = client.post("/api/games", json={**FLAGS, "seating": "per-player"})
    assert "per-player" in refused(r, 400, "bad_request")
    r = client.post("/api/games", json={**TEAMS, "seats": {"dark-3": {"player": "ai"}}})
    assert "dark-3" in refused(r, 400, "bad_request")


def test_a_computer_player_of_a_side_plays_only_its_own_characters(
    tmp_path: Path, clock: ManualClock
) -> None:
    with served_at(tmp_path / "games.db", clock, thinking=True) as client:
        gid, tokens = new_game(
            client,
            **{
                **TEAMS,
                "seats": {
                    "dark-2": {"player": "ai", "level": "easy"},
                    "light": {"player": "ai", "level": "easy"},
                },
            },
        )
        assert set(tokens) == {"dark-1"}
        v = view(client, gid)
        owners = {seat: s["characters"] for seat, s in v["seats"].items()}
        with client.websocket_connect(f"/api/games/{gid}/ws?token={tokens['dark-1']}") as ws:
            while True:
                got = ws.receive_json()["view"]
                if "dark-1" in got["deciders"] and got["choices"]:
                    break
        # every choice of dark's computer player named only its own characters
        for c in got["choices"]:
            if ":" in c["id"] and c["id"].split(":")[0] in ("place", "choose"):
                assert c["id"].split(":")[1] in owners["dark-1"]


# -- ?since= ------------------------------------------------------------------------------


def test_since_gives_only_the_log_after_the_first_n_entries(client: TestClient) -> None:
    gid, tokens = new_game(client, **FLAGS)
    for _ in range(3):
        _, token = decider_token(client, gid, tokens)
        v = view(client, gid, token)
        play(client, gid, token, v["choices"][0]["id"], v["version"])
    whole = view(client, gid)
    part = client.get(f"/api/games/{gid}?since=2").json()
    assert part["log_from"] == 2
    assert part["log"] == [e for e in whole["log"] if e["entry"] >= 2]
    with client.websocket_connect(f"/api/games/{gid}/ws?since={whole['version']}") as ws:
        first = ws.receive_json()["view"]
        assert first["log"] == [] and first["log_from"] == whole["version"]


# -- leaving a free-for-all ---------------------------------------------------------------

BRAWL = {
    "scenario": "brawl",
    "players": 3,
    "seed": 21,
    "seats": {s: {"player": "human"} for s in ("seat1", "seat2", "seat3")},
}


def _keen_to(client: TestClient, gid: str, tokens: dict[str, str], until: Any) -> dict[str, Any]:
    """Hot-seat keen choices until `until(view)` holds or the game is over: the last view."""
    from serverclient import hot_seat, keen

    v = hot_seat(client, gid, tokens)
    for _ in range(3000):
        if v["status"] == "finished" or until(v):
            return v
        seat = v["decider"]
        play(client, gid, tokens[seat], keen(v, seat)["id"], v["version"])
        v = hot_seat(client, gid, tokens)
    raise AssertionError("the game went on too long")


def test_in_a_free_for_all_a_resigning_seat_leaves_and_the_others_play_on_to_a_finish(
    client: TestClient,
) -> None:
    gid, tokens = new_game(client, **BRAWL)
    v = _keen_to(
        client, gid, tokens, lambda v: v["state"]["round"] >= 1 and v["status"] == "playing"
    )
    leaver = next(s for s in tokens if s != v["decider"])
    r = post(client, gid, "resign", tokens[leaver], {"version": v["version"]})
    assert r.status_code == 200, r.text
    after = r.json()
    assert after["status"] == "playing" and after["winner"] is None
    assert after["state"]["left"] == [leaver]
    said = [e for e in after["log"] if e.get("entry") == v["version"]]
    assert said[0]["kind"] == "resign" and said[0]["left"] == leaver
    assert "leaves the game" in said[0]["text"] and said[0]["rule"] == "Free-for-All"
    assert any(e["kind"] == "knocked_out" for e in said[1:])
    gone = {c["id"] for c in after["state"]["characters"] if c["side"] == leaver}
    # its resend is acknowledged once; it cannot resign again nor choose
    again = post(client, gid, "resign", tokens[leaver], {"version": v["version"]})
    assert again.status_code == 200 and again.json()["version"] == after["version"]
    refused(
        post(client, gid, "resign", tokens[leaver], {"version": after["version"]}), 409, "finished"
    )
    end = _keen_to(client, gid, {s: t for s, t in tokens.items() if s != leaver}, lambda v: False)
    assert end["status"] == "finished" and end["winner"] in tokens and end["winner"] != leaver
    for c in end["state"]["characters"]:  # never back on the map
        if c["id"] in gone:
            assert c["square"] is None
    replay = client.get(f"/api/games/{gid}/replay").json()
    assert {"kind": "resign", "choice": f"leave:{leaver}", "seat": leaver} in replay["log"]


def test_in_a_free_for_all_the_second_to_last_seat_resigning_ends_the_game(
    client: TestClient,
) -> None:
    gid, tokens = new_game(client, **BRAWL)
    v = _keen_to(client, gid, tokens, lambda v: v["status"] == "playing")
    first, second, last = tokens
    v = post(client, gid, "resign", tokens[first], {"version": v["version"]}).json()
    assert v["status"] == "playing"
    ended = post(client, gid, "resign", tokens[second], {"version": v["version"]}).json()
    assert ended["status"] == "finished" and ended["winner"] == last
    assert ended["decider"] is None and ended["choices"] == []
    assert ended["state"]["left"] == [first, second]
    refused(
        post(client, gid, "resign", tokens[last], {"version": ended["version"]}), 409, "finished"
    )


def test_a_free_for_all_with_a_seat_gone_replays_from_its_log_after_a_restart(
    tmp_path: Path, clock: ManualClock
) -> None:
    db = tmp_path / "games.db"
    with served_at(db, clock) as client:
        gid, tokens = new_game(client, **BRAWL)
        v = _keen_to(client, gid, tokens, lambda v: v["version"] >= 25 and v["status"] == "playing")
        leaver = v["decider"]  # the seat taking its turn leaves
        post(client, gid, "resign", tokens[leaver], {"version": v["version"]})
        rest = {s: t for s, t in tokens.items() if s != leaver}
        v = _keen_to(client, gid, rest, lambda w, n=v["version"]: w["version"] >= n + 20)
        before = view(client, gid)
    with served_at(db, clock) as client:  # the server started again: the game from its log
        after = view(client, gid)
        assert after["state"] == before["state"] and after["version"] == before["version"]
        assert after["decider"] == before["decider"] and after["state"]["left"] == [leaver]
        if after["status"] == "playing":  # and it plays on
            _keen_to(client, gid, rest, lambda w, n=after["version"]: w["version"] > n)


def test_in_a_free_for_all_a_seat_out_of_time_leaves_and_the_others_play_on(
    client: TestClient, clock: ManualClock
) -> None:
    gid, tokens = new_game(client, **{**BRAWL, "clock": {"initial": 600, "increment": 0}})
    v = _keen_to(client, gid, tokens, lambda v: v["status"] == "playing")
    running = v["clock_running"]
    clock.advance(601)
    v = view(client, gid)
    assert v["status"] == "playing" and v["state"]["left"] == [running]
    assert [e["left"] for e in v["log"] if e["kind"] == "timeout"] == [running]
    assert v["clock_running"] not in (None, running)


def test_in_a_free_for_all_a_claim_for_the_win_makes_the_seat_gone_too_long_leave(
    client: TestClient, clock: ManualClock
) -> None:
    gid, tokens = new_game(client, **{**BRAWL, "grace": 30})
    v = _keen_to(client, gid, tokens, lambda v: v["status"] == "playing")
    away = v["decider"]
    claimer = next(s for s in tokens if s != away)
    clock.advance(60 + 31)  # its last request's minute, then the grace period
    for seat in tokens:  # the others are here; the decider is not
        if seat != away:
            view(client, gid, tokens[seat])
    r = post(client, gid, "claim", tokens[claimer], {"version": v["version"], "claim": "win"})
    assert r.status_code == 200, r.text
    after = r.json()
    assert after["status"] == "playing" and after["state"]["left"] == [away]
    claim = next(e for e in after["log"] if e["kind"] == "claim")
    assert claim["seat"] == claimer and claim["left"] == away

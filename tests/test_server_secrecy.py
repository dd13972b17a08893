"""No leaks from the server: every view, event and log entry sent to each seat and to
spectators, over HTTP answers and the live WebSocket, holds no rival's secret pick before
its reveal, no seed or generator state before the game is over, and no token.

Scenario Setup, step 5 ("choose characters and items in secret") and Leaders ("Each player
secretly picks one of their characters to be a leader ... reveal leaders at the same
time"); server-api.md, "A seat's view"."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from funkoverse.rules.core.state import Phase
from serverclient import auth, new_game, served

GAMES = 24
SEED = 987_654_321


def _secrets(session: Any) -> dict[str, tuple[set[str], set[str], str | None]]:
    state = session.state
    return {
        side: (
            set(state.sides[side].picks),
            {item for item, _ in state.sides[side].gifts},
            state.sides[side].leader,
        )
        for side in state.seats
    }


def _scan(
    payload: dict[str, Any],
    seat: str | None,
    session: Any,
    tokens: dict[str, str],
    revealed_teams: bool,
    seed: int,
) -> None:
    text = json.dumps(payload)
    for token in tokens.values():
        assert token not in text, (seat, "a token")
    if not session.over:
        assert not re.search(rf"\b{seed}\b", text), (seat, "the seed")
        assert not re.search(r'"(seed|rng|generator|random_state)"', text), (seat, "the generator")
    secrets = _secrets(session)
    names = session.names()
    views = [payload["view"]] if "view" in payload else [payload] if "state" in payload else []
    for rival, (picks, items, leader) in secrets.items():
        if rival == seat:
            continue
        own = secrets[seat][0] | secrets[seat][1] if seat is not None else set()
        if not revealed_teams:
            # a seat's own choices list its own collection, which may hold the same cards
            shown = json.dumps(
                [{k: v for k, v in view.items() if k != "choices"} for view in views] or payload
            )
            for card in (picks | items) - own:
                assert f'"{card}"' not in shown, (seat, rival, card)
        if leader is not None and not session.state.leaders_revealed:
            assert f"leader:{leader}" not in text, (seat, rival, "leader choice")
            assert f"picks {names.get(leader)}" not in text, (seat, rival, "leader words")
            for view in views:
                assert view["state"]["sides"][rival]["leader"] in (None, "?"), (seat, rival)
        for view in views:
            side = view["state"]["sides"][rival]
            assert set(side["picks"]) <= {"?"}, (seat, rival, side["picks"])


@pytest.mark.parametrize("chunk", range(4))
def test_no_payload_to_any_seat_or_spectator_leaks_a_secret_a_seed_or_a_token(
    tmp_path: Path, chunk: int
) -> None:
    with served(tmp_path / "games.db") as client:
        games = client.app.state.games  # type: ignore[attr-defined]
        checked = 0
        for n in range(chunk, GAMES, 4):
            scenario = ("leaders", "flags", "control", "leaders")[n % 4]
            size = 3 if n % 2 else 2
            seed = SEED + n
            gid, tokens = new_game(
                client,
                scenario=scenario,
                draft=size,
                seed=seed,
                seats={"dark": {"player": "human"}, "light": {"player": "human"}},
            )
            room = games.rooms[gid]  # its session is replaced as each choice is written
            revealed = False
            sockets = {
                seat: client.websocket_connect(f"/api/games/{gid}/ws?token={token}")
                for seat, token in tokens.items()
            }
            sockets[None] = client.websocket_connect(f"/api/games/{gid}/ws")  # type: ignore[index]
            opened = {seat: ws.__enter__() for seat, ws in sockets.items()}
            try:
                for seat, ws in opened.items():
                    _scan(ws.receive_json(), seat, room.session, tokens, revealed, seed)
                turns = 0
                while not room.session.over and turns < 6:
                    decider = room.session.decider
                    # what each seat may fetch now
                    for seat in (*tokens, None):
                        got = client.get(f"/api/games/{gid}", headers=auth(tokens.get(seat or "")))
                        _scan(got.json(), seat, room.session, tokens, revealed, seed)
                        checked += 1
                    _scan(
                        client.get("/api/games").json(), None, room.session, tokens, revealed, seed
                    )
                    mine = client.get(f"/api/games/{gid}", headers=auth(tokens[decider])).json()
                    if room.session.state.phase is Phase.CHOOSE and mine["choices"]:
                        piece = mine["choices"][0]["id"].split(":", 1)[1]
                        seen = client.get(
                            f"/api/games/{gid}/preview",
                            params={"piece": piece},
                            headers=auth(tokens[decider]),
                        )
                        _scan(seen.json(), decider, room.session, tokens, revealed, seed)
                    choice = mine["choices"][(n + mine["version"]) % len(mine["choices"])]["id"]
                    answer = client.post(
                        f"/api/games/{gid}/choices",
                        json={"choice": choice, "version": mine["version"]},
                        headers=auth(tokens[decider]),
                    )
                    assert answer.status_code == 200, answer.text
                    revealed = revealed or any(
                        e["kind"] == "team_revealed" for e in answer.json()["log"]
                    )
                    _scan(answer.json(), decider, room.session, tokens, revealed, seed)
                    for seat, ws in opened.items():  # the live update each watcher got
                        _scan(ws.receive_json(), seat, room.session, tokens, revealed, seed)
                    if room.session.state.phase is Phase.ACT and mine["state"]["phase"] == "choose":
                        turns += 1
                assert revealed or room.session.state.round > 0
                if scenario == "leaders":
                    assert room.session.state.leaders_revealed
            finally:
                for ws in sockets.values():
                    ws.__exit__(None, None, None)
        assert checked > 200


def test_what_online_play_adds_leaks_nothing(tmp_path: Path) -> None:
    """Heartbeat answers, two players a side each with a seat (Leaders: each side's secret
    pick), a resignation and the rematch offered live: no token but the receiver's own, no
    rival's secret before its reveal, no seed before the game is over."""
    with served(tmp_path / "games.db") as client:
        games = client.app.state.games  # type: ignore[attr-defined]
        seed = SEED + 99
        gid, tokens = new_game(
            client, scenario="leaders", mode="teams", players=4, seating="per-player", seed=seed
        )
        assert set(tokens) == {"dark-1", "dark-2", "light-1", "light-2"}
        room = games.rooms[gid]
        side = {p: p.split("-")[0] for p in tokens}
        sockets = {
            p: client.websocket_connect(f"/api/games/{gid}/ws?token={t}") for p, t in tokens.items()
        }
        sockets[None] = client.websocket_connect(f"/api/games/{gid}/ws")  # type: ignore[index]
        opened = {p: ws.__enter__() for p, ws in sockets.items()}
        try:
            for p, ws in opened.items():
                others = {q: t for q, t in tokens.items() if q != p}
                got = ws.receive_json()
                _scan(got, side.get(p or ""), room.session, others, False, seed)
                ws.send_json({"type": "ping", "at": 1})
                pong = ws.receive_json()
                assert pong["type"] == "pong" and set(pong["seats"]) == set(tokens)
                _scan(pong, side.get(p or ""), room.session, others, False, seed)
            for _ in range(12):  # into the secret picks of the leaders
                v = client.get(f"/api/games/{gid}").json()
                if room.session.state.leaders_revealed or v["status"] == "finished":
                    break
                p = v["decider"]
                mine = client.get(f"/api/games/{gid}", headers=auth(tokens[p])).json()
                answer = client.post(
                    f"/api/games/{gid}/choices",
                    json={"choice": mine["choices"][0]["id"], "version": mine["version"]},
                    headers=auth(tokens[p]),
                )
                assert answer.status_code == 200, answer.text
                for q in tokens:
                    seen = client.get(f"/api/games/{gid}", headers=auth(tokens[q])).json()
                    others = {r: t for r, t in tokens.items() if r != q}
                    _scan(seen, side[q], room.session, others, False, seed)
            version = room.session.version
            r = client.post(
                f"/api/games/{gid}/resign",
                json={"version": version},
                headers=auth(tokens["dark-1"]),
            )
            assert r.status_code == 200
            assert not any(t in r.text for t in tokens.values())
            made = client.post(f"/api/games/{gid}/rematch", headers=auth(tokens["dark-1"])).json()
            offered: dict[str | None, str] = {}
            for p, ws in opened.items():
                while True:
                    got = ws.receive_json()
                    if got["type"] == "rematch":
                        offered[p] = got["token"]
                        break
                    if p is None and got["type"] == "view" and got["view"]["rematch"]:
                        break
                    if p == "dark-1" and got["type"] == "view" and got["view"]["rematch"]:
                        break
                    text = json.dumps(got)
                    assert not any(t in text for t in tokens.values())
            assert set(offered) == {"dark-2", "light-1", "light-2"}  # each its own, once
            assert len({*offered.values(), made["token"]}) == 4
        finally:
            for ws in sockets.values():
                ws.__exit__(None, None, None)

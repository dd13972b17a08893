"""A server killed at any moment carries on: a real `funkoverse serve` killed with SIGKILL
in the middle of a game against the computer, started again on the same database, holds
every acknowledged choice and its computer seat plays on (server-api.md, "Making a
choice": a choice is appended to the log in the transaction that acknowledges it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from liveserver import LiveServer

pytestmark = pytest.mark.xdist_group("live-server")


def test_a_server_killed_mid_game_resumes_from_the_last_acknowledged_choice(
    tmp_path: Path,
) -> None:
    server = LiveServer(tmp_path / "games.db").start()
    try:
        made = server.post(
            "/api/games",
            {
                "scenario": "flags",
                "map": "themyscira",
                "size": 2,
                "seed": 21,
                "seats": {"dark": {"player": "human"}, "light": {"player": "ai", "level": "easy"}},
            },
        )
        game, token = made["game"], made["seats"]["dark"]["token"]
        mine = lambda v: v["decider"] == "dark"  # noqa: E731
        acknowledged = None
        handed_over = 0
        for _ in range(300):
            v = server.wait_for(game, token, mine)
            acknowledged = server.post(
                f"/api/games/{game}/choices",
                {"choice": v["choices"][-1]["id"], "version": v["version"]},
                token,
            )
            if acknowledged["decider"] == "light":
                handed_over += 1
                if handed_over == 3 and acknowledged["state"]["round"] >= 1:
                    break  # the computer is thinking now: kill the server mid-game
        assert acknowledged is not None and acknowledged["decider"] == "light"
        server.kill()

        server.start()
        again = server.get(f"/api/games/{game}", token)
        # every acknowledged choice is there; the computer may have answered before the kill
        assert again["version"] >= acknowledged["version"]
        assert again["log"][: len(acknowledged["log"])] == acknowledged["log"]
        # the computer's seat plays on by itself after the restart: the game comes back to the
        # person only once the computer has made its choices
        v = again
        while v["decider"] == "dark" and v["status"] != "finished":
            v = server.post(
                f"/api/games/{game}/choices",
                {"choice": v["choices"][-1]["id"], "version": v["version"]},
                token,
            )
        assert v["decider"] == "light"
        thinking_from = v["version"]
        back = server.wait_for(
            game, token, lambda v: v["decider"] == "dark" or v["status"] == "finished"
        )
        assert back["version"] > thinking_from
        after = server.post(
            f"/api/games/{game}/choices",
            {"choice": back["choices"][0]["id"], "version": back["version"]},
            token,
        )
        assert after["version"] > back["version"]
        listed = server.get("/api/games")["games"]
        assert [g["game"] for g in listed] == [game]
    finally:
        server.stop()

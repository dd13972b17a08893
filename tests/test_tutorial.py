"""Learn to play: the guided first game is a real game that its script plays through."""

from __future__ import annotations

from pathlib import Path

from funkoverse.content.setups import build
from funkoverse.rules.session import Session
from funkoverse.server.tutorial import script
from serverclient import auth, served, view

RULEBOOK = Path(__file__).resolve().parents[2] / "shared" / "rules" / "dc-comics-102.txt"


def _texts(session: Session) -> list[str]:
    from funkoverse.rules.words.serialize import event_to_json

    names = session.names()
    return [event_to_json(e, names)["text"] for _, e in session.events(None)]


def test_the_script_is_a_game_the_engine_plays_to_the_players_win() -> None:
    found = script()
    session = Session(build(found.spec), found.seed)
    for seat, choice, _ in found.moves:
        assert session.decider == seat, (choice, session.decider)
        legal = [c.format() for c in session.choices(seat)]
        assert choice in legal, (choice, legal)
        session.play(seat, choice)
    assert session.over and session.winner == found.player
    told = [t for t in _texts(session) if "knocked" in t or "rall" in t or "loses the" in t]
    assert told == [
        "The Cheetah loses the challenge: nothing happens.",
        "The Cheetah is knocked down.",
        "Wonder Woman loses the challenge: nothing happens.",
        "The Cheetah rallies: both actions to stand up.",
        "The Cheetah is knocked down.",
        "The Cheetah is knocked out: onto the 1 of the cooldown track.",
    ]


def test_every_step_quotes_the_rulebook_word_for_word() -> None:
    if not RULEBOOK.exists():
        return  # the rulebooks are not beside this checkout
    import re

    book = " ".join(RULEBOOK.read_text("utf-8").split())
    for step in script().steps:
        for part in re.split(r"\.\.\. |(?<=[.:]) ", step.quote):
            words = part.strip().rstrip(":")
            assert not words or words in book, f"{step.title}: not the rulebook's words: {words!r}"


def test_a_guided_game_over_http(tmp_path: Path) -> None:
    found = script()
    with served(tmp_path / "g.db") as client:
        steps = client.get("/api/tutorial").json()["steps"]
        assert steps[0]["title"] and steps[1]["kind"] == "choice"
        made = client.post("/api/tutorial")
        assert made.status_code == 201, made.text
        game, token = made.json()["game"], made.json()["token"]
        v = view(client, game, token)
        assert v["decider"] == "dark" and v["state"]["map"] == "urzari-jungle"
        # off the script: refused, citing the step
        r = client.post(
            f"/api/games/{game}/choices",
            json={"choice": "place:wonder-woman:c1", "version": v["version"]},
            headers=auth(token),
        )
        assert r.status_code == 422 and "Learn to play" in r.json()["error"]["message"]
        for i, step in enumerate(found.steps):
            at = client.get(f"/api/games/{game}/tutorial").json()
            if step.choice or step.rival:  # the page starts there and reads on to step i
                between = found.steps[at["step"] : i]
                assert all(not s.choice and not s.rival for s in between), (i, at)
            version = view(client, game, token)["version"]
            if step.choice:
                r = client.post(
                    f"/api/games/{game}/choices",
                    json={"choice": step.choice, "version": version},
                    headers=auth(token),
                )
                assert r.status_code == 200, (step.title, r.text)
            elif step.rival:
                assert at["rival"] == list(step.rival)
                r = client.post(
                    f"/api/games/{game}/tutorial/next",
                    json={"version": version},
                    headers=auth(token),
                )
                assert r.status_code == 200, (step.title, r.text)
        v = view(client, game, token)
        assert v["status"] == "finished" and v["winner"] == "dark"
        # nothing for the rival to play when the player is next, or once over
        r = client.post(
            f"/api/games/{game}/tutorial/next", json={"version": v["version"]}, headers=auth(token)
        )
        assert r.status_code == 409


def test_the_rival_plays_only_when_asked(tmp_path: Path) -> None:
    with served(tmp_path / "g.db", thinking=True) as client:
        made = client.post("/api/tutorial").json()
        game, token = made["game"], made["token"]
        for choice in ("place:wonder-woman:e2", "place:priestess:f2"):
            version = view(client, game, token)["version"]
            r = client.post(
                f"/api/games/{game}/choices",
                json={"choice": choice, "version": version},
                headers=auth(token),
            )
            assert r.status_code == 200
        v = view(client, game, token)
        assert v["decider"] == "light"
        r = client.post(
            f"/api/games/{game}/choices",
            json={"choice": "place:the-cheetah:e9", "version": v["version"]},
            headers=auth(token),
        )
        assert r.status_code == 409  # the player holds no rival seat
        assert client.get(f"/api/games/{game}/tutorial").json()["rival"] == [
            "place:the-cheetah:e9",
            "place:hyena-warrior:f9",
        ]

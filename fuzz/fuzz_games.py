"""Fuzz targets: saved games (`funkoverse replay FILE --json`, `play --load FILE`: both read
with `cli.gamefile.load_game`, which is `Session.from_json`) and setups as JSON
(`SetupSpec.from_json`, then `content.setups.build`).

A saved game is read from disk as its bytes: played again to where it stopped, or refused
with exit status 2 and one line naming the file. A spec is refused with `SpecError` naming
`spec` or a field; one that reads is built or refused with one line; a spec that reads
back writes itself again unchanged.
"""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout

from contract import MAX_INPUT, Broken, keeps_shared_state, refused, scratch

from funkoverse.cli import main as command
from funkoverse.content.setups import build
from funkoverse.rules.core.spec import SetupSpec


def saved_game(data: bytes) -> None:
    """A game file, as `funkoverse replay FILE --json` reads it."""
    if len(data) > MAX_INPUT:
        return
    path = scratch() / "game.json"
    path.write_bytes(data)
    out, err = io.StringIO(), io.StringIO()
    with keeps_shared_state(), redirect_stdout(out), redirect_stderr(err):
        status = command(["replay", str(path), "--json"])
    said = err.getvalue()
    if status == 0 and not said:
        return
    if status != 2 or said.count("\n") != 1 or not said.startswith(f"funkoverse replay: {path}: "):
        raise Broken(f"exit status {status}, standard error {said[:400]!r}")


def setup_spec(data: bytes) -> None:
    """A setup as JSON text, as a saved game, the server and the lab hold it."""
    if len(data) > MAX_INPUT:
        return
    text = data.decode("utf-8", "replace")
    with keeps_shared_state():
        try:
            spec = SetupSpec.from_json(text)
        except Exception as e:
            refused(e, "spec")
            return
        if SetupSpec.from_json(spec.dumps()) != spec:
            raise Broken("a spec read back does not write itself again")
        try:
            build(spec)
        except Exception as e:
            refused(e, "")


def seeds() -> dict[str, list[bytes]]:
    """Games of every way to play, saved at their start, a few choices in and at their end
    (as the soak draws them), and their specs."""
    import json

    from funkoverse.ai.agents import RandomAgent
    from funkoverse.rules.session import Session
    from funkoverse.soak.ways import spec_for, ways

    games: list[bytes] = []
    specs: list[bytes] = []
    for seed in range(len(ways()) * 2):
        _, spec = spec_for(seed)
        specs.append(spec.dumps().encode())
        session = Session(build(spec), seed)
        agent = RandomAgent(seed)
        for stop in (0, 12, 10**6):
            while session.version < stop and not session.over:
                seat = session.decider
                assert seat is not None
                session.play(seat, agent.choose(session.view(seat), session.choices(seat)))
            text = json.dumps(session.to_json(), indent=1).encode()
            if len(text) <= MAX_INPUT:
                games.append(text)
    return {"saved_game": games, "setup_spec": specs}

"""Golden transcripts: seeded whole games written out as text, compared on every run.

Each game is a spec, a seed and random agents seeded from it; its transcript is every log
entry (who decided, the choice id) followed by what it caused, in words, with the rule
each event applies. A change to the rules engine that changes any decision or any event
shows here as a diff.
"""

from __future__ import annotations

import json
from pathlib import Path

from funkoverse.ai.agents import RandomAgent
from funkoverse.content.setups import SetupRequest, build, draw_spec
from funkoverse.rules.core.events import line
from funkoverse.rules.core.spec import SetupSpec
from funkoverse.rules.engines import Engine
from funkoverse.rules.session import Session

GOLDEN = Path(__file__).parent / "golden"

# name: (what is asked, the seed) — seeds picked for whole games of a readable length
GAMES: dict[str, tuple[SetupRequest, int]] = {
    "first-game-dc": (SetupRequest(scenario="first-knockout"), 1),
    "first-game-monsters": (SetupRequest(scenario="monsters-first-game"), 17),
    "flags": (SetupRequest(scenario="flags", size=2), 16),
    "leaders": (SetupRequest(scenario="leaders", size=2), 3),
    "control": (SetupRequest(scenario="control", size=3), 5),
    "free-for-all": (SetupRequest(scenario="brawl", players=3), 1),
    "ultimate": (SetupRequest(scenario="titans"), 18),
    "draft": (SetupRequest(scenario="flags", draft=3), 12),
}
MAX_ENTRIES = 3000


def play(request: SetupRequest, seed: int, engine: Engine | None = None) -> Session:
    """The game on `engine` (None: the fastest built): a random agent a seat, each seeded
    from the game's seed."""
    spec = draw_spec(request, seed)
    session = Session(build(spec), seed, engine=engine)
    agents = {side: RandomAgent(seed * 31 + i) for i, side in enumerate(session.seats)}
    while not session.over and session.version < MAX_ENTRIES:
        seat = session.decider
        assert seat is not None
        session.play(seat, agents[seat].choose(session.view(seat), session.choices(seat)))
    return session


def transcript(session: Session) -> str:
    """The game as text: its spec and seed, then each entry and its events."""
    spec = session.setup.spec
    assert isinstance(spec, SetupSpec)
    names = session.names()
    out = [f"spec {json.dumps(spec.to_json(), sort_keys=True)}", f"seed {session.seed}"]
    for i, (entry, events) in enumerate(zip(session.entries, session.records, strict=True)):
        who = entry.seat or entry.kind
        out.append(f"{i:>4} {who}: {entry.choice or entry.kind}")
        out.extend(f"       {line(e, names)}" for e in events)
    state = session.state
    points = ", ".join(f"{s} {state.sides[s].points}" for s in state.seats)
    out.append(f"end: winner {state.winner}, round {state.round}, points {points}")
    return "\n".join(out) + "\n"

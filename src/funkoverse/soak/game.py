"""One soak game: played through the session, checked after every choice, replayed at the end.

After every choice: every invariant of `rules.play.invariants` holds, every legal choice's id
reads back to it (`choices.parse`), and while a secret is kept no seat's payloads show it
(`soak.secrecy`). At the end: the game saved as JSON (`Session.to_json`), read back
(`Session.from_json`) and played again reaches the same position, log, events, legal
choices and every seat's view. Whatever goes wrong, a broken check or an exception inside
the game, is the game's failure, reported with its id so that it plays again.
"""

from __future__ import annotations

import json
import re
import signal
import threading
import traceback
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from funkoverse.ai.agents import AGENTS, Agent
from funkoverse.content.setups import build
from funkoverse.errors import UserError
from funkoverse.rules import (
    Choice,
    Decide,
    Event,
    EventKind,
    GameState,
    Session,
    Setup,
    Turn,
    named,
    view_to_json,
)
from funkoverse.rules.core.choices import parse
from funkoverse.rules.play.invariants import initial_tokens, violations
from funkoverse.soak.secrecy import drafted_in_secret, leaks, secret_kept
from funkoverse.soak.ways import describe, spec_for, ways

KINDS = ("random", "ai")
AI_PLAYERS = tuple(AGENTS)  # the agents of AI games, seat by seat in turn, at full strength
# choices whose ids were read back in this process: reading back is a pure function of the
# value, so each distinct choice is read once (up to this many kept)
READ_BACK_KEPT = 200_000
_READ_BACK: set[Choice] = set()
MAX_CHOICES = 50_000  # a game that makes this many choices without ending goes round in circles


class Broken(Exception):
    """A check that does not hold; the message says which and where."""


class TooLong(Exception):
    """A game that ran past its time limit."""


@dataclass
class Outcome:
    """What one soak game did: its checks, and its failure if it had one."""

    game: str  # "random:17", "ai:3"
    setup: str = ""
    choices: int = 0  # choices made, each followed by every check
    options: int = 0  # legal choices whose ids were read back
    secrecy: int = 0  # (seat, rival) payload reads
    over: bool = False
    failure: str | None = None
    detail: str = ""  # the traceback or the whole check, for the failures folder
    saved: dict[str, Any] | None = None  # the game as a file holds it, when it failed
    covered: list[tuple[str, str]] = field(default_factory=list)  # ("way", "draft"), ...


def game_id(kind: str, seed: int) -> str:
    return f"{kind}:{seed}"


_GAME_ID = re.compile(rf"(?:(?P<kind>{'|'.join(KINDS)}):)?(?P<seed>[0-9]{{1,18}})")


def read_game_id(text: str) -> tuple[str, int]:
    """'random:17' or 'ai:3' (a bare number: a random game), refused with `UserError`."""
    found = _GAME_ID.fullmatch(text.strip())
    if found is None:
        raise UserError(
            f"--replay {text[:40]}: expected a game as the soak names it, random:SEED or ai:SEED"
        )
    return found["kind"] or "random", int(found["seed"])


def players_for(kind: str, seed: int, seats: tuple[str, ...]) -> dict[str, str]:
    """Each seat's agent by name: random agents, or the AI players in turn from the seed."""
    if kind == "random":
        return {seat: "random" for seat in seats}
    turn = seed // len(ways())
    return {seat: AI_PLAYERS[(turn + i) % len(AI_PLAYERS)] for i, seat in enumerate(seats)}


def agents_for(players: dict[str, str], seed: int) -> dict[str, Agent]:
    """The seats' agents, each seeded from the game's seed and its seat."""
    return {seat: AGENTS[name](seed * 8 + 1 + i) for i, (seat, name) in enumerate(players.items())}


def play(
    game: str, max_rounds: int, time_limit: float | None = None, engine: str | None = None
) -> Outcome:
    """Play soak game `game` to its end or past `max_rounds` rounds under every check, on
    the rules engine named `engine` (None: the fastest built); never raises: a failure is
    reported in the outcome."""
    out = Outcome(game)
    session: Session | None = None
    try:
        kind, seed = read_game_id(game)
        way, spec = spec_for(seed)
        out.setup = describe(way, spec)
        session = Session(build(spec), seed, engine=named(engine))
        players = players_for(kind, seed, session.seats)
        agents = agents_for(players, seed)
        out.covered = [("way", way), ("scenario", spec.scenario), ("map", spec.map)]
        out.covered += [("agent", name) for name in players.values()]
        with _time_limit(time_limit):
            stopped = _play_checked(session, agents, max_rounds, out)
            _check_replay(session)
        out.covered += _content(session.state.setup)
        out.over = session.over and not stopped
    except Exception as e:
        out.failure = _said(e, session)
        out.detail = traceback.format_exc()
        out.saved = _saved(session)
    return out


def _play_checked(
    session: Session, agents: dict[str, Agent], max_rounds: int, out: Outcome
) -> bool:
    """Play on with `agents`, every check after every choice; True when stopped at the
    round limit. The position is checked as the next decider is handed it (the choice and
    the chance drawn after it applied) and once more at the end."""
    check = _Checks(session, out)

    def decider(agent: Agent) -> Decide:
        def decide(turn: Turn) -> Choice:
            view = turn.view
            options = list(turn.choices)
            check.position(view)
            for c in options:
                if c not in _READ_BACK:
                    if parse(c.format()) != c:
                        raise Broken(f"choice id '{c.format()}' reads back as another choice")
                    if len(_READ_BACK) >= READ_BACK_KEPT:
                        _READ_BACK.clear()
                    _READ_BACK.add(c)
            out.options += len(options)
            if out.choices >= MAX_CHOICES:
                raise Broken(f"{MAX_CHOICES} choices and the game goes on (round {view.round})")
            return agent.decide(turn)

        return decide

    def after(seat: str, events: Sequence[Event]) -> None:
        out.choices += 1
        check.secrets(events)

    check.secrets([])
    stopped = session.play_out(
        {seat: decider(agent) for seat, agent in agents.items()}, max_rounds, after
    )
    check.position(session.view(None))
    return stopped


class _Checks:
    """The checks of a position, with what they remember from one to the next."""

    def __init__(self, session: Session, out: Outcome) -> None:
        self.session = session
        self.out = out
        self.setup: Setup | None = None
        self.tokens: dict[str, Any] = {}
        self.points: dict[str, int] | None = None
        self.teams_revealed = False
        self.secret_draft = drafted_in_secret(session.setup)
        self.secret_before = False
        self.any_secret = self.secret_draft or session.setup.scenario.leaders

    def position(self, state: GameState) -> None:
        """Every invariant holds in `state` (a seat's view: the position, its secrets
        aside), and no side's points went down since the last position."""
        if state.setup is not self.setup:  # teams chosen in the game: their tokens now
            self.setup = state.setup
            self.tokens = initial_tokens(state)
        broken = violations(state, self.tokens, self.points)
        if broken:
            raise Broken(f"after entry {self.session.version}: {'; '.join(broken)}")
        self.points = {s: state.sides[s].points for s in state.seats}

    def secrets(self, events: Sequence[Event]) -> None:
        """While a secret is kept (and once after the last reveal), no payload shows it."""
        session = self.session
        if not self.any_secret:
            return
        self.teams_revealed = self.teams_revealed or any(
            e.kind is EventKind.TEAM_REVEALED for e in events
        )
        kept = secret_kept(session, self.teams_revealed)
        if kept or self.secret_before:
            found, checks = leaks(session, self.teams_revealed, self.secret_draft)
            self.out.secrecy += checks
            if found:
                raise Broken(f"after entry {session.version}: secret shown: {found[0]}")
        self.secret_before = kept


def _check_replay(session: Session) -> None:
    """The game saved as a file holds it, read back and played again, is the same game."""
    text = json.dumps(session.to_json())
    again = Session.from_json(json.loads(text), build, session.engine)
    for what, a, b in _compared(session, again):
        if a != b:
            raise Broken(f"the saved log replays to another game: different {what}")


def _compared(a: Session, b: Session) -> Iterator[tuple[str, Any, Any]]:
    yield "log", a.entries, b.entries
    yield "events", a.records, b.records
    sa, sb = a.state, b.state
    yield "position", sa.key(), sb.key()
    yield "turn count", sa.turns, sb.turns
    yield "teams", _teams(sa.setup), _teams(sb.setup)
    yield "decider", a.decider, b.decider
    yield "legal choices", a.choices(a.decider), b.choices(b.decider)
    for seat in (*sa.seats, None):
        yield (
            f"view for {seat or 'the spectator'}",
            view_to_json(a.view(seat)),
            view_to_json(b.view(seat)),
        )


def _teams(setup: Setup) -> list[tuple[str, tuple[str, ...], Any, Any]]:
    return [(t.side, tuple(c.id for c in t.characters), t.items, t.players) for t in setup.teams]


def _content(setup: Setup) -> list[tuple[str, str]]:
    """The cards a game played with, for the run's coverage."""
    found: list[tuple[str, str]] = []
    for t in setup.teams:
        found += [("character", c.id) for c in t.characters]
        found += [("item", i) for i, _ in t.items]
        found += [("companion", c) for c, _ in t.companions]
        found += [("bonus", b) for b in t.bonus]
    return found


def _said(e: Exception, session: Session | None) -> str:
    """A failure in one line: what broke, and for an exception where it was raised."""
    text = str(e).splitlines()[0] if str(e) else ""
    if isinstance(e, Broken | TooLong):
        return text
    frames = traceback.extract_tb(e.__traceback__)
    where = ""
    if frames:
        last = frames[-1]
        where = f" at {Path(last.filename).name}:{last.lineno}"
    entry = f" (entry {session.version})" if session is not None else ""
    return f"{type(e).__name__}{where}{entry}: {text}"


def _saved(session: Session | None) -> dict[str, Any] | None:
    if session is None or session.setup.spec is None:
        return None
    try:
        return session.to_json()
    except Exception:  # a game that cannot be written is reported by its id alone
        return None


@contextmanager
def _time_limit(seconds: float | None) -> Iterator[None]:
    """Raise `TooLong` inside the block after `seconds` (where an alarm can be set: the main
    thread)."""
    if not seconds or threading.current_thread() is not threading.main_thread():
        yield
        return

    def ring(signum: int, frame: object) -> None:
        raise TooLong(f"still playing after {seconds:g} s (the time limit)")

    before = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)

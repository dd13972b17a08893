"""What online play adds around a game: seats per player, who is here, and the clocks.

Nothing here is a rule of the game. `Seating` says which seat may act for which of a side's
characters when two players share a side (More Players: "Players of the same side decide
which of their characters takes a turn"); `Table` is what the server keeps of a game beside
its log (its grace period, its clock and how much time each seat has left, the seats handed
to the computer, the rematch): a small record written in the same transaction as the log
entries it goes with, so a server started again finds the clocks where they stood.

Time comes from a `Clock`, which tests replace with one they move by hand: the server never
reads the time of day or sleeps on its own.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from funkoverse.rules import Choice, Session, SetupSpec

GRACE = 120  # seconds a seat may be away before another may claim it (server-api.md)
PRESENCE = 60.0  # seconds a seat without an open socket counts as here after a request
DAY = 86400


class Timer(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    """The server's time: what time it is, and a call at a later time."""

    def now(self) -> float: ...

    def call_at(self, when: float, callback: Callable[[], object]) -> Timer: ...


class SystemClock:
    """The time of day, and calls made by the running event loop."""

    def now(self) -> float:
        return time.time()

    def call_at(self, when: float, callback: Callable[[], object]) -> Timer:
        loop = asyncio.get_running_loop()
        return loop.call_later(max(0.0, when - time.time()), callback)


# -- seats per player ------------------------------------------------------------------


class Seating:
    """The seats of a game and the side each plays for. With `per_player`, each player of a
    side that two share (`dark-1`, `dark-2`) has a seat of its own and acts only for its own
    characters; otherwise a seat is a side."""

    def __init__(self, spec: SetupSpec, per_player: bool) -> None:
        self.per_player = per_player and any(t.players for t in spec.teams)
        self.sides: dict[str, str] = {}  # player seat -> its side
        self.characters: dict[str, tuple[str, ...]] = {}  # player seat -> its character ids
        if self.per_player:
            for team in spec.teams:
                for player, ids in team.players or ((team.side, team.characters),):
                    self.sides[player] = team.side
                    self.characters[player] = tuple(ids)

    def seats(self, sides: Sequence[str]) -> list[str]:
        """Every seat of the game whose sides are `sides` (turn order)."""
        if not self.per_player:
            return list(sides)
        return [p for side in sides for p, s in self.sides.items() if s == side]

    def side_of(self, seat: str | None) -> str | None:
        if seat is None:
            return None
        return self.sides.get(seat, seat)

    def owner(self, session: Session, piece: str) -> str | None:
        """The player seat whose character `piece` is (None: not a character of a player)."""
        found = session.peek().pieces.get(piece)
        if found is None or found.card is None:
            return None
        for player, ids in self.characters.items():
            if self.sides[player] == found.side and found.card.id in ids:
                return player
        return None

    def _concerns(self, session: Session, choice: Choice) -> str | None:
        """The player a choice of the deciding side belongs to: the owner of the character
        taking its turn, else of the character the choice names; None: either player."""
        state = session.peek()
        active = state.active
        if (
            active is not None
            and active in state.pieces
            and (state.pieces[active].side == session.decider)
        ):
            return self.owner(session, active)
        piece = getattr(choice, "piece", None)
        if isinstance(piece, str):
            return self.owner(session, piece)
        return None

    def allowed(self, session: Session, seat: str) -> list[Choice]:
        """The legal choices `seat` may make now."""
        side = self.side_of(seat)
        if side != session.decider:
            return []
        legal = list(session.choices(side))
        if not self.per_player:
            return legal
        return [c for c in legal if self._concerns(session, c) in (None, seat)]

    def deciders(self, session: Session) -> list[str]:
        """The seats that may act now (two when either player of a side may choose which
        of their characters takes the turn), in seat order."""
        side = session.decider
        if side is None:
            return []
        if not self.per_player or side not in self.sides.values():
            return [side]
        return [p for p, s in self.sides.items() if s == side and self.allowed(session, p)]

    def decider(self, session: Session) -> str | None:
        """The seat that decides now (the first of `deciders`), as a view names it."""
        found = self.deciders(session)
        return found[0] if found else session.decider

    def refusal(self, session: Session, seat: str, choice: str) -> str | None:
        """Why `seat` may not make `choice` though its side decides (None: it may)."""
        if not self.per_player:
            return None
        from funkoverse.rules.core.choices import parse

        try:
            value = parse(choice)
        except Exception:
            return None  # the session refuses it, citing the rule
        owner = self._concerns(session, value)
        if owner is None or owner == seat:
            return None
        return (
            f"More Players: each player acts only for their own characters; "
            f"this is {owner}'s to decide, not {seat}'s"
        )


# -- what the server keeps beside the log ----------------------------------------------


@dataclass
class Table:
    """A game's online settings and clocks, as stored beside its log."""

    grace: float = GRACE
    clock: dict[str, float] | None = None  # {"initial", "increment"} or {"days"}
    seating: str = "per-side"
    left: dict[str, float] = field(default_factory=dict)  # seconds left, when `since` began
    running: str | None = None  # the seat whose clock runs
    since: float = 0.0  # when the running clock started
    claimed: list[str] = field(default_factory=list)  # seats handed to the computer
    rematch: str | None = None  # the game a rematch made
    holders: dict[str, dict[str, str]] = field(default_factory=dict)  # per-player seat kinds
    script: str | None = None  # a guided game's script (server/tutorial.py), None for a game
    # each seat's token in the rematch game, kept until the server is asked for it again
    # (a rematch's tokens are handed out later than its creation: see docs/server.md)
    rematch_tokens: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "grace": self.grace,
            "clock": self.clock,
            "seating": self.seating,
            "left": self.left,
            "running": self.running,
            "since": self.since,
            "claimed": self.claimed,
            "rematch": self.rematch,
            "holders": self.holders,
            "script": self.script,
            "rematch_tokens": self.rematch_tokens,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Table:
        if not data:
            return cls()
        return cls(
            grace=float(data.get("grace", GRACE)),
            clock=data.get("clock"),
            seating=str(data.get("seating", "per-side")),
            left={str(k): float(v) for k, v in (data.get("left") or {}).items()},
            running=data.get("running"),
            since=float(data.get("since", 0.0)),
            claimed=list(data.get("claimed") or []),
            rematch=data.get("rematch"),
            holders={str(k): dict(v) for k, v in (data.get("holders") or {}).items()},
            script=data.get("script"),
            rematch_tokens={str(k): str(v) for k, v in (data.get("rematch_tokens") or {}).items()},
        )

    def copy(self) -> Table:
        return replace(
            self,
            left=dict(self.left),
            claimed=list(self.claimed),
            holders=dict(self.holders),
            rematch_tokens=dict(self.rematch_tokens),
        )

    # -- the clocks ----------------------------------------------------------------

    @property
    def per_decision(self) -> float | None:
        """Correspondence: the seconds a decision may take (None: a Fischer clock)."""
        if self.clock is not None and "days" in self.clock:
            return float(self.clock["days"]) * DAY
        return None

    def start(self, seats: Sequence[str], holder: str | None, now: float) -> None:
        """Every seat's clock at its full time, `holder`'s running."""
        if self.clock is None:
            return
        full = self.per_decision
        initial = full if full is not None else float(self.clock["initial"])
        self.left = {seat: initial for seat in seats}
        self.running = holder
        self.since = now

    def clocks(self, now: float) -> dict[str, float]:
        """Seconds left on each seat's clock now (never below 0)."""
        out = dict(self.left)
        if self.running is not None and self.running in out:
            out[self.running] = max(0.0, out[self.running] - (now - self.since))
        return {seat: round(left, 1) for seat, left in out.items()}

    def passed(self, decided: str | None, holder: str | None, now: float) -> None:
        """`decided` made a decision (None: nobody did, an undo or a claim); the clock runs
        for `holder` from now. Fischer: the time used comes off and the increment goes on;
        correspondence: the next decision has its full days."""
        if self.clock is None:
            return
        if self.running is not None and self.running in self.left:
            used = now - self.since
            self.left[self.running] = max(0.0, self.left[self.running] - used)
        full = self.per_decision
        if full is not None:
            for seat in self.left:
                self.left[seat] = full
        elif decided is not None and decided in self.left:
            self.left[decided] += float(self.clock.get("increment", 0))
        self.running = holder
        self.since = now

    def stop(self, now: float) -> None:
        """The game is over: the clocks stand where they are."""
        self.passed(None, None, now)
        if self.per_decision is not None:
            self.left = {seat: left for seat, left in self.clocks(now).items()}

    def deadline(self) -> float | None:
        """When the running clock reaches zero (None: no clock runs)."""
        if self.clock is None or self.running is None or self.running not in self.left:
            return None
        return self.since + self.left[self.running]


# -- who is here -----------------------------------------------------------------------


@dataclass
class Presence:
    """Who is at the table: a seat is here while it has an open socket or made a request in
    the last `window` seconds (server-api.md, Presence and leavers)."""

    window: float = PRESENCE
    sockets: dict[str, int] = field(default_factory=dict)
    asked: dict[str, float] = field(default_factory=dict)  # each seat's last request
    left: dict[str, float] = field(default_factory=dict)  # when its last socket closed
    since: float = 0.0  # when the server began to watch (a seat never seen: away from it)

    def request(self, seat: str, now: float) -> None:
        self.asked[seat] = now

    def opened(self, seat: str, now: float) -> None:
        self.sockets[seat] = self.sockets.get(seat, 0) + 1

    def closed(self, seat: str, now: float) -> None:
        self.sockets[seat] = max(0, self.sockets.get(seat, 0) - 1)
        if self.sockets[seat] == 0:
            self.left[seat] = now

    def present(self, seat: str, now: float) -> bool:
        if self.sockets.get(seat, 0) > 0:
            return True
        asked = self.asked.get(seat)
        return asked is not None and now - asked < self.window

    def away_since(self, seat: str, now: float) -> float | None:
        """When `seat` stopped being here: its last socket closed, or its last request's
        window ran out (None: it is here now)."""
        if self.present(seat, now):
            return None
        asked = self.asked.get(seat)
        ends = [self.since, self.left.get(seat, self.since)]
        if asked is not None:
            ends.append(asked + self.window)
        return max(ends)

    def away_for(self, seat: str, now: float) -> float:
        away = self.away_since(seat, now)
        return 0.0 if away is None else max(0.0, now - away)


def iso(t: float) -> str:
    """A time in ISO 8601 (UTC, to the second)."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def swapped(name: str) -> str:
    """The seat or side on the other side of the board (`dark-2` -> `light-2`)."""
    for a, b in (("dark", "light"), ("light", "dark")):
        if name == a or name.startswith(a + "-"):
            return b + name[len(a) :]
    return name

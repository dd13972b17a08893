"""The games the server holds: each a session, its seats, and who is watching.

`Games` is the authority around the rules: it checks a choice against the game's session
(the seat, the version, the legal choices), writes it to the store in the transaction
that acknowledges it, lets the computer's seats think in worker processes, and tells
every watcher its own seat's view. It holds no rule of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from funkoverse.content.setups import build
from funkoverse.errors import UserError
from funkoverse.rules.describe import label
from funkoverse.rules.errors import GameOver, IllegalChoice, NothingToUndo, NotYourTurn
from funkoverse.rules.preview import challenge_odds
from funkoverse.rules.serialize import choice_to_json, event_to_json, view_to_json
from funkoverse.rules.session import CHANCE_ENTRY, Entry, Session
from funkoverse.rules.spec import SetupSpec
from funkoverse.rules.state import CHANCE, Phase
from funkoverse.rules.view import observe_event
from funkoverse.rules.world import display_names
from funkoverse.server.ai import Thinkers
from funkoverse.server.store import GameRow, Store, token_hash

Send = Callable[[dict[str, Any]], Awaitable[None]]


class ApiError(Exception):
    """A refusal of the API: its status, code and one line for a person (server-api.md)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message}}


@dataclass
class SeatInfo:
    player: str  # "human" or "ai"
    level: str | None
    token_hash: str | None
    joined: bool = False


@dataclass(eq=False)
class Watcher:
    seat: str | None
    send: Send


@dataclass(eq=False)
class Room:
    """One game in play: its session, its seats and who is watching it."""

    id: str
    session: Session
    seats: dict[str, SeatInfo]
    created: float
    updated: float
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: set[Watcher] = field(default_factory=set)
    thinking: asyncio.Task[None] | None = None

    @property
    def status(self) -> str:
        state = self.session.state
        if self.session.over:
            return "finished"
        if state.phase in (Phase.FLIP, Phase.DRAFT, Phase.SECRET, Phase.PLACE):
            return "setup"
        return "playing"

    def seat_of(self, token: str | None) -> str | None:
        if token is None:
            return None
        digest = token_hash(token)
        for seat, info in self.seats.items():
            if info.token_hash is not None and secrets.compare_digest(info.token_hash, digest):
                return seat
        return None


def _status_of(session: Session) -> str:
    state = session.state
    if session.over:
        return "finished"
    if state.phase in (Phase.FLIP, Phase.DRAFT, Phase.SECRET, Phase.PLACE):
        return "setup"
    return "playing"


def _iso(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


class Games:
    """Every game of the server, loaded from the store on demand."""

    def __init__(self, store: Store, thinkers: Thinkers | None) -> None:
        self.store = store
        self.thinkers = thinkers
        self.rooms: dict[str, Room] = {}

    # -- loading and creating -----------------------------------------------------

    def _load(self, row: GameRow) -> Room:
        spec = SetupSpec.from_json(row.spec)
        session = Session(build(spec), row.seed, self.store.entries(row.id))
        seats = {}
        for seat, (digest, joined) in self.store.seats(row.id).items():
            held = spec.seat(seat)
            seats[seat] = SeatInfo(held.player, held.level, digest, joined)
        room = Room(row.id, session, seats, row.created, row.updated)
        self.rooms[row.id] = room
        return room

    def room(self, game: str) -> Room:
        room = self.rooms.get(game)
        if room is not None:
            return room
        row = self.store.game(game) if _plausible_id(game) else None
        if row is None:
            raise ApiError(404, "not_found", f"no game '{game[:40]}'")
        return self._load(row)

    def resume(self) -> None:
        """After a start: every unfinished game whose computer seat is to decide thinks on."""
        for row in self.store.games():
            if row.status != "finished":
                room = self.room(row.id)
                self.think(room)

    def create(self, spec: SetupSpec, seed: int) -> tuple[Room, dict[str, str]]:
        """A new game of `spec`; returns it and a fresh token for each human seat."""
        setup = build(spec)
        session = Session(setup, seed)
        game = secrets.token_urlsafe(9)
        tokens: dict[str, str] = {}
        seats: dict[str, SeatInfo] = {}
        for seat in session.seats:
            held = spec.seat(seat)
            if held.player == "human":
                tokens[seat] = secrets.token_urlsafe(24)
            seats[seat] = SeatInfo(
                held.player, held.level, token_hash(tokens[seat]) if seat in tokens else None
            )
        self.store.create(
            game,
            spec.to_json(),
            seed,
            {s: info.token_hash for s, info in seats.items()},
            session.entries,
            _status_of(session),
            session.decider,
        )
        now = time.time()
        room = Room(game, session, seats, now, now)
        self.rooms[game] = room
        self.think(room)
        return room, tokens

    # -- views ------------------------------------------------------------------

    def view(self, room: Room, seat: str | None) -> dict[str, Any]:
        """What `seat` (None: a spectator) may see of the game now (server-api.md)."""
        session = room.session
        view = session.view(seat)
        names = display_names(view)
        choices = []
        if seat is not None and seat == session.decider:
            choices = [
                choice_to_json(c, label(view, c, names), challenge_odds(view, c))
                for c in session.choices(seat)
            ]
        log = []
        for index, event in session.events(seat):
            entry = event_to_json(event, names)
            entry["entry"] = index
            if session.entries[index].undone:
                entry["undone"] = True
            log.append(entry)
        return {
            "game": room.id,
            "version": session.version,
            "status": room.status,
            "seat": seat,
            "decider": session.decider,
            "choices": choices,
            "winner": session.winner,
            "state": view_to_json(view),
            "log": log,
            "seats": self.seat_summary(room),
            "undo": self.undo_allowed(room, seat),
            "undo_entries": session.undoable() if self.undo_allowed(room, seat) else 0,
            "undo_choices": self.undo_choices(room) if self.undo_allowed(room, seat) else {},
        }

    def seat_summary(self, room: Room) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for seat, info in room.seats.items():
            entry: dict[str, Any] = {
                "player": info.player,
                "joined": info.joined or info.player == "ai",
            }
            if info.level is not None:
                entry["level"] = info.level
            out[seat] = entry
        return out

    def listing(self) -> list[dict[str, Any]]:
        """Every game in a line: never a token or a seed."""
        out = []
        for row in self.store.games():
            room = self.rooms.get(row.id)
            spec = row.spec
            seats: dict[str, dict[str, Any]] = {}
            if room is not None:
                seats = self.seat_summary(room)
                status, turn, updated = room.status, room.session.decider, room.updated
            else:
                held = SetupSpec.from_json(spec)
                for seat, (_, was) in self.store.seats(row.id).items():
                    info = held.seat(seat)
                    entry: dict[str, Any] = {
                        "player": info.player,
                        "joined": was or info.player == "ai",
                    }
                    if info.level is not None:
                        entry["level"] = info.level
                    seats[seat] = entry
                status, turn, updated = row.status, row.decider, row.updated
            out.append(
                {
                    "game": row.id,
                    "scenario": spec.get("scenario"),
                    "map": spec.get("map"),
                    "status": status,
                    "turn": turn if status != "finished" else None,
                    "seats": seats,
                    "created": _iso(row.created),
                    "updated": _iso(updated),
                }
            )
        return out

    # -- choices ----------------------------------------------------------------

    async def play(self, room: Room, seat: str, choice: str, version: int) -> dict[str, Any]:
        """`seat` answers `version` with `choice` (server-api.md, "Making a choice")."""
        async with room.lock:
            session = room.session
            if version < session.version:
                entry = session.entries[version] if version < len(session.entries) else None
                if (
                    entry is not None
                    and entry.kind == "choice"
                    and entry.seat == seat
                    and entry.choice == choice
                    and not entry.undone
                ):
                    return self.view(room, seat)  # a resend: acknowledged again, applied once
                raise ApiError(
                    409,
                    "stale",
                    f"version {version} has been answered; the game is at version {session.version}",
                )
            if version > session.version:
                raise ApiError(
                    409, "stale", f"the game is at version {session.version}, not {version}"
                )
            if session.over:
                raise ApiError(409, "finished", "the game is over")
            if seat != session.decider:
                raise ApiError(409, "not_your_turn", f"{session.decider} decides now, not {seat}")
            await self._apply(room, seat, choice)
            self._mark_joined(room, seat)
        self.think(room)
        await self.broadcast(room)
        return self.view(room, seat)

    async def _apply(self, room: Room, seat: str, choice: str) -> None:
        session = room.session
        start = session.version
        try:
            session.play(seat, choice, start)
        except (IllegalChoice, NotYourTurn, GameOver) as e:
            raise ApiError(422, "illegal", str(e)) from None
        self._persist(room, start)

    def _persist(self, room: Room, start: int, undone: list[int] | None = None) -> None:
        session = room.session
        try:
            self.store.append(
                room.id,
                start,
                session.entries[start:],
                room.status,
                session.decider,
                session.winner,
                undone or [],
            )
        except Exception:
            # what the store did not take did not happen: the game goes back to the store's
            self.rooms.pop(room.id, None)
            raise
        room.updated = time.time()

    def _mark_joined(self, room: Room, seat: str) -> None:
        info = room.seats.get(seat)
        if info is not None and not info.joined:
            info.joined = True
            self.store.join(room.id, seat)

    def undo_allowed(self, room: Room, seat: str | None) -> bool:
        """Whether `seat` may ask for an undo now (every other seat it would touch is the
        computer's, or a hot-seat client holds its token too)."""
        session = room.session
        if seat is None or session.over or session.undoable() == 0:
            return False
        return seat in session.undo_seats()

    def undo_choices(self, room: Room) -> dict[str, int]:
        """How many of each seat's choices an undo would take back (what the page says on
        its button: the player's own choices, and the computer's reply)."""
        session = room.session
        taken = session.entries[len(session.entries) - session.undoable() :]
        counts: dict[str, int] = {}
        for entry in taken:
            if entry.seat is not None:
                counts[entry.seat] = counts.get(entry.seat, 0) + 1
        return counts

    async def undo(self, room: Room, seat: str, version: int, tokens: list[str]) -> dict[str, Any]:
        """Take back every choice since the last roll or reveal (server-api.md, undo)."""
        async with room.lock:
            session = room.session
            if version != session.version:
                raise ApiError(
                    409, "stale", f"the game is at version {session.version}, not {version}"
                )
            if session.over:
                raise ApiError(409, "finished", "the game is over")
            held = {seat} | {s for t in tokens if (s := room.seat_of(t)) is not None}
            others = {s for s, info in room.seats.items() if info.player == "human"} - held
            if others:
                raise ApiError(
                    403,
                    "wrong_seat",
                    f"undo needs the tokens of {', '.join(sorted(others))} too (or computer seats)",
                )
            touched = session.undo_seats()
            if session.undoable() == 0 or seat not in touched | {None}:
                raise ApiError(
                    409,
                    "nothing_to_undo",
                    "nothing of yours to take back since the last roll or reveal",
                )
            start = session.version
            n = session.undoable()
            try:
                session.undo()
            except (NothingToUndo, GameOver) as e:
                raise ApiError(409, "nothing_to_undo", str(e)) from None
            self._persist(room, start, list(range(start - n, start)))
            if room.thinking is not None:
                room.thinking.cancel()
                room.thinking = None
        self.think(room)
        await self.broadcast(room)
        return self.view(room, seat)

    # -- the computer's seats ---------------------------------------------------

    def think(self, room: Room) -> None:
        """Let the computer play its seats while it decides (one task a game)."""
        if self.thinkers is None or (room.thinking is not None and not room.thinking.done()):
            return
        seat = room.session.decider
        if (
            room.session.over
            or seat is None
            or room.seats.get(seat, SeatInfo("human", None, None)).player != "ai"
        ):
            return
        with contextlib.suppress(RuntimeError):  # no running loop: a later request thinks
            room.thinking = asyncio.get_running_loop().create_task(self._think(room))

    async def _think(self, room: Room) -> None:
        assert self.thinkers is not None
        while True:
            session = room.session
            seat = session.decider
            info = room.seats.get(seat or "")
            if session.over or seat is None or info is None or info.player != "ai":
                return
            version = session.version
            spec = room.session.setup.spec
            assert spec is not None
            future = self.thinkers.decide(
                spec.to_json(),
                session.seed,
                [e.to_json() for e in session.entries],
                seat,
                info.level or "normal",
            )
            choice = await asyncio.wrap_future(future)
            async with room.lock:
                if room.session.version != version or room.session.decider != seat:
                    continue  # the game moved on (an undo): think again
                await self._apply(room, seat, choice)
            await self.broadcast(room)

    async def hint(self, room: Room, seat: str) -> list[dict[str, Any]]:
        if self.thinkers is None:
            raise ApiError(409, "not_your_turn", "no hints on this server")
        session = room.session
        if session.decider != seat:
            raise ApiError(409, "not_your_turn", f"{session.decider} decides now, not {seat}")
        spec = session.setup.spec
        assert spec is not None
        future = self.thinkers.hint(
            spec.to_json(), session.seed, [e.to_json() for e in session.entries], seat
        )
        return await asyncio.wrap_future(future)

    # -- watchers ---------------------------------------------------------------

    async def broadcast(self, room: Room) -> None:
        """Every watcher gets its own seat's view."""
        for watcher in list(room.watchers):
            try:
                await watcher.send({"type": "view", "view": self.view(room, watcher.seat)})
            except Exception:  # a connection gone: it asks again when it comes back
                room.watchers.discard(watcher)

    # -- replays ----------------------------------------------------------------

    def replay(self, room: Room) -> dict[str, Any]:
        session = room.session
        if not session.over:
            raise ApiError(409, "not_finished", "the game is still being played")
        spec = session.setup.spec
        assert spec is not None
        return {
            "spec": spec.to_json(),
            "seed": session.seed,
            "log": [e.to_json() for e in session.entries],
        }

    def at(self, room: Room, version: int) -> dict[str, Any]:
        """The spectator's view after the first `version` entries of a finished game."""
        session = room.session
        if not session.over:
            raise ApiError(409, "not_finished", "the game is still being played")
        if not 0 <= version <= session.version:
            raise ApiError(400, "bad_request", f"version: from 0 to {session.version}")
        past = Session.prefix(session, version)
        view = past.view(None)
        names = display_names(view)
        next_entry = session.entries[version] if version < session.version else None
        decider = (
            "chance" if next_entry is not None and next_entry.kind == CHANCE_ENTRY else past.decider
        )
        if decider == CHANCE:
            decider = "chance"
        return {
            "game": room.id,
            "version": version,
            "status": "finished" if past.over else _status_of(past),
            "seat": None,
            "decider": decider,
            "choices": [],
            "winner": past.winner,
            "state": view_to_json(view),
            "log": [
                {**event_to_json(observe_event(e, None), names), "entry": i}
                for i, e in past.events(None)
            ],
            "next": next_entry.to_json() if next_entry is not None else None,
        }


def _plausible_id(game: str) -> bool:
    return 0 < len(game) <= 64 and all(c.isalnum() or c in "-_" for c in game)


__all__ = ["ApiError", "Entry", "Games", "Room", "UserError"]

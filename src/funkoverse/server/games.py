"""The games the server holds: each a session, its seats, and who is watching.

`Games` is the authority around the rules: it checks a choice against the game's session
(the seat, the version, the legal choices), writes it to the store in the transaction
that acknowledges it, lets the computer's seats think in worker processes, and tells
every watcher its own seat's view. It holds no rule of its own.

A write is all or nothing: a choice is played on a fork of the game's session, written to
the database, and only once the transaction has committed does the fork become the game.
A write the database cannot take leaves the game as it was, in memory and on disk, and is
answered `503 unavailable`. Database work runs on a thread of its own, never on the event
loop; what the game tells its watchers is queued for each socket and never awaited.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from funkoverse.content.setups import build
from funkoverse.rules.errors import GameOver, IllegalChoice, NothingToUndo, NotYourTurn
from funkoverse.rules.serialize import event_to_json, view_to_json
from funkoverse.rules.session import CHANCE_ENTRY, Session
from funkoverse.rules.spec import SetupSpec
from funkoverse.rules.state import CHANCE
from funkoverse.rules.view import observe_event
from funkoverse.rules.world import display_names
from funkoverse.server.ai import Thinkers
from funkoverse.server.database import Database
from funkoverse.server.errors import ApiError
from funkoverse.server.store import GameRow, Unavailable, token_hash
from funkoverse.server.views import Views, status_of
from funkoverse.server.watchers import Watcher

log = logging.getLogger("funkoverse.server")

MAX_WATCHERS = 1000  # sockets one game may have open at once
RETRY = (0.25, 0.5, 1.0, 2.0, 5.0)  # how long the computer waits between tries of a write


@dataclass
class SeatInfo:
    player: str  # "human" or "ai"
    level: str | None
    token_hash: str | None
    joined: bool = False


@dataclass(eq=False)
class Room:
    """One game in play: its session (as the database holds it), its seats and who is
    watching it."""

    id: str
    session: Session
    seats: dict[str, SeatInfo]
    created: float
    updated: float
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: set[Watcher] = field(default_factory=set)
    thinking: asyncio.Task[None] | None = None
    views: Views = field(init=False)

    def __post_init__(self) -> None:
        self.views = Views(self.id)

    @property
    def status(self) -> str:
        return status_of(self.session)

    def seat_of(self, token: str | None) -> str | None:
        if token is None:
            return None
        digest = token_hash(token)
        for seat, info in self.seats.items():
            if info.token_hash is not None and secrets.compare_digest(info.token_hash, digest):
                return seat
        return None


def _iso(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


class Games:
    """Every game of the server, loaded from the store on demand."""

    def __init__(
        self, db: Database, thinkers: Thinkers | None, max_watchers: int = MAX_WATCHERS
    ) -> None:
        self.db = db
        self.thinkers = thinkers
        self.max_watchers = max_watchers
        self.rooms: dict[str, Room] = {}
        self.damaged: dict[str, str] = {}  # games whose stored log cannot be played, and why
        self._loading: dict[str, asyncio.Future[Room]] = {}

    # -- loading and creating -----------------------------------------------------

    def _load(self, row: GameRow, entries: list[Any], stored: dict[str, Any]) -> Room:
        spec = SetupSpec.from_json(row.spec)
        session = Session(build(spec), row.seed, entries)
        seats = {}
        for seat, (digest, joined) in stored.items():
            held = spec.seat(seat)
            seats[seat] = SeatInfo(held.player, held.level, digest, joined)
        return Room(row.id, session, seats, row.created, row.updated)

    async def room(self, game: str) -> Room:
        """The game `game` (404 when there is none), loaded from the store on first ask."""
        room = self.rooms.get(game)
        if room is not None:
            return room
        if not _plausible_id(game):
            raise ApiError(404, "not_found", f"no game '{game[:40]}'")
        if game in self.damaged:
            raise ApiError(
                404, "not_found", f"game '{game}' cannot be played: its stored log is damaged"
            )
        loading = self._loading.get(game)
        if loading is None:
            loading = asyncio.get_running_loop().create_future()
            self._loading[game] = loading
            try:
                found = await self._read(game)
            except BaseException as e:
                loading.set_exception(e)
                loading.exception()  # retrieved: whoever waits gets it, nobody is warned
                raise
            finally:
                self._loading.pop(game, None)
            loading.set_result(found)
            return found
        return await asyncio.shield(loading)

    async def _read(self, game: str) -> Room:
        try:
            row, entries, stored = await self.db.run(self.db.store.load, game)
        except Unavailable:
            raise ApiError(
                503, "unavailable", "the games database cannot be read now; try again"
            ) from None
        if row is None:
            raise ApiError(404, "not_found", f"no game '{game[:40]}'")
        try:
            room = await asyncio.to_thread(self._load, row, entries, stored)
        except Exception as e:  # a log the rules refuse: this game only is unreachable
            reason = str(e).splitlines()[0] if str(e) else type(e).__name__
            self.damaged[game] = reason
            log.error("game %s cannot be loaded: %s", game, reason)
            raise ApiError(
                404, "not_found", f"game '{game}' cannot be played: its stored log is damaged"
            ) from None
        return self.rooms.setdefault(game, room)

    async def resume(self) -> None:
        """After a start: every unfinished game is loaded, and those whose computer seat is to
        decide think on. A game whose stored log is damaged is left out (logged, with why);
        the others start."""
        rows = await self.db.run(self.db.store.games)
        for row in rows:
            if row.status == "finished":
                continue
            try:
                room = await self.room(row.id)
            except ApiError as e:
                log.error("game %s not resumed: %s", row.id, e.message)
                continue
            self.think(room)

    async def create(self, spec: SetupSpec, seed: int) -> tuple[Room, dict[str, str]]:
        """A new game of `spec`; returns it and a fresh token for each human seat. Nothing is
        kept unless the database took the game (503 otherwise)."""
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
        await self._write(
            self.db.store.create,
            game,
            spec.to_json(),
            seed,
            {s: info.token_hash for s, info in seats.items()},
            list(session.entries),
            status_of(session),
            session.decider,
        )
        now = time.time()
        room = Room(game, session, seats, now, now)
        self.rooms[game] = room
        self.think(room)
        return room, tokens

    async def _write(self, fn: Any, *args: Any) -> None:
        """A write to the store, run to its end even when whoever asked has gone (so memory
        follows what the database holds); 503 when the database cannot take it."""
        task = asyncio.ensure_future(self.db.run(fn, *args))
        try:
            await asyncio.shield(task)
        except Unavailable as e:
            log.warning("a write was refused by the database: %s", e)
            raise ApiError(
                503,
                "unavailable",
                "the games database cannot take the write now; nothing changed, try again",
            ) from None

    # -- views ------------------------------------------------------------------

    def view(self, room: Room, seat: str | None, since: int | None = None) -> dict[str, Any]:
        """What `seat` (None: a spectator) may see of the game now (server-api.md); the log
        from entry `since` on (the whole log without it)."""
        session = room.session
        start = 0 if since is None else since
        if not 0 <= start <= session.version:
            raise ApiError(400, "bad_request", f"since: from 0 to {session.version}")
        body, _ = room.views.body(session, seat)
        allowed = self.undo_allowed(room, seat)
        return {
            **body,
            "log": room.views.log(session, seat, start),
            "log_from": start,
            "seats": self.seat_summary(room),
            "undo": allowed,
            "undo_entries": session.undoable() if allowed else 0,
            "undo_choices": self.undo_choices(room) if allowed else {},
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

    async def listing(self) -> list[dict[str, Any]]:
        """Every game in a line: never a token or a seed."""
        try:
            rows, seats_of = await self.db.run(self.db.store.listing)
        except Unavailable:
            raise ApiError(
                503, "unavailable", "the games database cannot be read now; try again"
            ) from None
        out = []
        for row in rows:
            room = self.rooms.get(row.id)
            spec = row.spec
            seats: dict[str, dict[str, Any]] = {}
            if room is not None:
                seats = self.seat_summary(room)
                status, turn, updated = room.status, room.session.decider, room.updated
            else:
                try:
                    held = SetupSpec.from_json(spec)
                except Exception:
                    continue  # a row that is not a game of this program
                for seat, (_, was) in seats_of.get(row.id, {}).items():
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

    async def play(self, room: Room, seat: str, choice: str, version: int) -> bool:
        """`seat` answers `version` with `choice` (server-api.md, "Making a choice"); True
        when it changed the game, False for a resend of the choice already acknowledged."""
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
                    return False  # a resend: acknowledged again, applied once
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
            await self._commit_choice(room, seat, choice)
        self.think(room)
        return True

    async def _commit_choice(self, room: Room, seat: str, choice: str) -> None:
        """Play `choice` on a fork, write it, and make the fork the game once written."""
        session = room.session
        start = session.version
        fork = session.fork()
        try:
            fork.play(seat, choice, start)
        except (IllegalChoice, NotYourTurn, GameOver) as e:
            raise ApiError(422, "illegal", str(e)) from None
        info = room.seats.get(seat)
        joined = seat if info is not None and not info.joined and info.player == "human" else None
        await self._write(
            self.db.store.append,
            room.id,
            start,
            fork.entries[start:],
            status_of(fork),
            fork.decider,
            fork.winner,
            [],
            joined,
        )
        if joined is not None and info is not None:
            info.joined = True
        self._adopt(room, fork, start)

    def _adopt(self, room: Room, fork: Session, changed_from: int) -> None:
        """The written fork is the game now; every watcher is told (queued, not awaited)."""
        room.session = fork
        room.updated = time.time()
        self.publish(room, changed_from)

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

    async def undo(self, room: Room, seat: str, version: int, tokens: list[str]) -> None:
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
            fork = session.fork()
            try:
                fork.undo()
            except (NothingToUndo, GameOver) as e:
                raise ApiError(409, "nothing_to_undo", str(e)) from None
            await self._write(
                self.db.store.append,
                room.id,
                start,
                fork.entries[start:],
                status_of(fork),
                fork.decider,
                fork.winner,
                list(range(start - n, start)),
                None,
            )
            if room.thinking is not None:
                room.thinking.cancel()
                room.thinking = None
            self._adopt(room, fork, start - n)
        self.think(room)

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
        """The computer's seats play while one of them decides. A decision the database
        cannot take now is tried again, later and later, until it can: the seat moves once
        the database is writable."""
        assert self.thinkers is not None
        tries = 0
        while True:
            session = room.session
            seat = session.decider
            info = room.seats.get(seat or "")
            if session.over or seat is None or info is None or info.player != "ai":
                return
            version = session.version
            try:
                choice = await self._ask(room, seat, info.level or "normal")
            except asyncio.CancelledError:
                raise
            except Exception as e:  # a worker that died: it is started again
                log.warning("the computer could not decide in game %s: %s", room.id, e)
                await asyncio.sleep(RETRY[min(tries, len(RETRY) - 1)])
                tries += 1
                continue
            async with room.lock:
                if room.session.version != version or room.session.decider != seat:
                    continue  # the game moved on (an undo): think again
                try:
                    await self._commit_choice(room, seat, choice)
                except ApiError as e:
                    if e.status != 503:
                        log.error("the computer's choice %r in game %s: %s", choice, room.id, e)
                        return
                    failed = True
                else:
                    failed = False
            if failed:
                await asyncio.sleep(RETRY[min(tries, len(RETRY) - 1)])
                tries += 1
                continue
            tries = 0

    async def _ask(self, room: Room, seat: str, level: str) -> str:
        """The choice of the computer's seat, from the game's worker."""
        assert self.thinkers is not None
        for _ in range(2):
            task = self._task(room, seat)
            choice = await asyncio.wrap_future(self.thinkers.decide(task, level))
            self.thinkers.sent(task, choice is not None)
            if choice is not None:
                return choice
        raise RuntimeError("the worker lost the game twice")

    def _task(self, room: Room, seat: str) -> Any:
        assert self.thinkers is not None
        session = room.session
        spec = session.setup.spec
        assert spec is not None
        return self.thinkers.task(room.id, spec.to_json(), session.seed, session.entries, seat)

    async def hint(self, room: Room, seat: str) -> list[dict[str, Any]]:
        if self.thinkers is None:
            raise ApiError(409, "not_your_turn", "no hints on this server")
        if room.session.decider != seat:
            raise ApiError(409, "not_your_turn", f"{room.session.decider} decides now, not {seat}")
        for _ in range(2):
            task = self._task(room, seat)
            found = await asyncio.wrap_future(self.thinkers.hint(task))
            self.thinkers.sent(task, found is not None)
            if found is not None:
                return found
        raise ApiError(503, "unavailable", "the computer cannot give a hint now; try again")

    # -- watchers ---------------------------------------------------------------

    def watch(self, room: Room, watcher: Watcher) -> None:
        """A socket starts watching; refused when the game has as many as it may hold."""
        if len(room.watchers) >= self.max_watchers:
            raise ApiError(
                503, "unavailable", f"this game has {self.max_watchers} watchers already; try later"
            )
        watcher.on_drop = room.watchers.discard
        room.watchers.add(watcher)

    def publish(self, room: Room, changed_from: int) -> None:
        """Tell every watcher the game's new view, without waiting for any of them: each view
        built once per audience and starting version, and queued on each socket."""
        import json

        version = room.session.version
        built: dict[tuple[str | None, int], str] = {}
        for watcher in list(room.watchers):
            start = min(watcher.since, changed_from)
            key = (watcher.seat, start)
            text = built.get(key)
            if text is None:
                text = json.dumps({"type": "view", "view": self.view(room, watcher.seat, start)})
                built[key] = text
            if watcher.offer(text):
                watcher.since = version

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
            "status": "finished" if past.over else status_of(past),
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


__all__ = ["ApiError", "Games", "Room"]

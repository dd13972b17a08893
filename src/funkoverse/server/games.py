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
import json
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from funkoverse.ai.agents import playing_name
from funkoverse.content.catalog import SHIPPED, Catalog
from funkoverse.content.setups import build
from funkoverse.rules import (
    CHANCE,
    CHANCE_ENTRY,
    CLAIM,
    HANDED,
    RESIGN,
    TIMEOUT,
    Engine,
    GameOver,
    IllegalChoice,
    NothingToUndo,
    NotYourTurn,
    SeatSpec,
    Session,
    SetupSpec,
    best,
    event_to_json,
    view_to_json,
)
from funkoverse.rules.core.view import observe_event
from funkoverse.rules.core.world import display_names
from funkoverse.server.ai import Thinkers
from funkoverse.server.database import Database
from funkoverse.server.errors import ApiError
from funkoverse.server.online import (
    PRESENCE,
    Clock,
    Presence,
    Seating,
    SystemClock,
    Table,
    Timer,
    iso,
    swapped,
)
from funkoverse.server.store import GameRow, Unavailable, token_hash
from funkoverse.server.tutorial import Script
from funkoverse.server.tutorial import of as script_of
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
    claimed: bool = False  # a person's seat handed to the computer after they left


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
    table: Table = field(default_factory=Table)
    seating: Seating | None = None
    presence: Presence = field(default_factory=Presence)
    timer: Timer | None = None  # the running clock's deadline
    # each computer level's name in this game (funkoverse.ai.agents.playing_name), found once
    agent_names: dict[tuple[str, tuple[str, ...]], str] = field(default_factory=dict)
    rematching: asyncio.Lock = field(default_factory=asyncio.Lock)
    views: Views = field(init=False)

    def __post_init__(self) -> None:
        self.views = Views(self.id, self.seating)

    def side_of(self, seat: str | None) -> str | None:
        """The side a seat plays for (itself, unless two players share a side)."""
        return self.seating.side_of(seat) if self.seating is not None else seat

    def deciders(self, session: Session | None = None) -> list[str]:
        """The seats that may act now."""
        session = session or self.session
        if self.seating is not None:
            return self.seating.deciders(session)
        return [] if session.decider is None else [session.decider]

    def decider(self, session: Session | None = None) -> str | None:
        session = session or self.session
        if self.seating is not None:
            return self.seating.decider(session)
        return session.decider

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


def _answering(session: Session, version: int) -> None:
    """A change answering `version` is refused unless the game is at it (`409 stale`) and
    still being played (`409 finished`)."""
    if version != session.version:
        raise ApiError(409, "stale", f"the game is at version {session.version}, not {version}")
    if session.over:
        raise ApiError(409, "finished", "the game is over")


class Games:
    """Every game of the server, loaded from the store on demand."""

    def __init__(
        self,
        db: Database,
        thinkers: Thinkers | None,
        max_watchers: int = MAX_WATCHERS,
        engine: Engine | None = None,
        clock: Clock | None = None,
        presence: float = PRESENCE,
        catalog: Catalog = SHIPPED,
    ) -> None:
        self.db = db
        self.catalog = catalog  # what the games are made of
        self.engine = engine if engine is not None else best()  # the rules engine games use
        self.thinkers = thinkers
        self.max_watchers = max_watchers
        self.clock: Clock = clock or SystemClock()
        self.presence = presence
        self.loop: asyncio.AbstractEventLoop | None = None
        self.rooms: dict[str, Room] = {}
        self.damaged: dict[str, str] = {}  # games whose stored log cannot be played, and why
        self._loading: dict[str, asyncio.Future[Room]] = {}

    # -- loading and creating -----------------------------------------------------

    def _load(self, row: GameRow, entries: list[Any], stored: dict[str, Any], table: Table) -> Room:
        spec = SetupSpec.from_json(row.spec)
        session = Session(build(spec, catalog=self.catalog), row.seed, entries, engine=self.engine)
        seating = Seating(spec, table.seating == "per-player")
        seats = {}
        for seat, (digest, joined) in stored.items():
            held = _held(spec, seating, seat, table)
            seats[seat] = SeatInfo(held.player, held.level, digest, joined)
            if seat in table.claimed:
                seats[seat] = SeatInfo("ai", "normal", digest, joined, claimed=True)
        return self._room(row.id, session, seats, row.created, row.updated, table, seating)

    def _room(
        self,
        game: str,
        session: Session,
        seats: dict[str, SeatInfo],
        created: float,
        updated: float,
        table: Table,
        seating: Seating,
    ) -> Room:
        room = Room(
            game,
            session,
            seats,
            created,
            updated,
            table=table,
            seating=seating if seating.per_player else None,
        )
        room.presence = Presence(self.presence, since=self.clock.now())
        return room

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
            table = Table.from_json(await self.db.run(self.db.store.table, game))
        except Unavailable:
            raise ApiError(
                503, "unavailable", "the games database cannot be read now; try again"
            ) from None
        if row is None:
            raise ApiError(404, "not_found", f"no game '{game[:40]}'")
        try:
            room = await asyncio.to_thread(self._load, row, entries, stored, table)
        except Exception as e:  # a log the rules refuse: this game only is unreachable
            reason = str(e).splitlines()[0] if str(e) else type(e).__name__
            self.damaged[game] = reason
            log.error("game %s cannot be loaded: %s", game, reason)
            raise ApiError(
                404, "not_found", f"game '{game}' cannot be played: its stored log is damaged"
            ) from None
        found = self.rooms.setdefault(game, room)
        if found is room:
            self._schedule(room)
        return found

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
            deadline = room.table.deadline()
            if deadline is not None and deadline <= self.clock.now():
                await self._expire(room)  # a clock ran out while the server was stopped
            self.think(room)

    async def create(
        self, spec: SetupSpec, seed: int, table: Table | None = None, parent: Room | None = None
    ) -> tuple[Room, dict[str, str]]:
        """A new game of `spec` (its grace period, clock and seating in `table`); returns it
        and a fresh token for each human seat. Nothing is kept unless the database took the
        game (503 otherwise). With `parent`, the new game is its rematch: the parent's table
        names it and keeps each seat's new token, written in the same transaction."""
        setup = build(spec, catalog=self.catalog)
        session = Session(setup, seed, engine=self.engine)
        table = table.copy() if table is not None else Table()
        seating = Seating(spec, table.seating == "per-player")
        game = secrets.token_urlsafe(9)
        tokens: dict[str, str] = {}
        seats: dict[str, SeatInfo] = {}
        for seat in seating.seats(session.seats):
            held = _held(spec, seating, seat, table)
            if held.player == "human":
                tokens[seat] = secrets.token_urlsafe(24)
            seats[seat] = SeatInfo(
                held.player, held.level, token_hash(tokens[seat]) if seat in tokens else None
            )
        now = self.clock.now()
        room = self._room(game, session, seats, now, now, table, seating)
        table.start(list(seats), self._holder(room, session), now)
        before = None
        if parent is not None:
            before = parent.table.copy()
            before.rematch = game
            before.rematch_tokens = {
                s: tokens[swapped(s)] for s in parent.seats if swapped(s) in tokens
            }
        await self._write(
            self.db.store.create,
            game,
            spec.to_json(),
            seed,
            {s: info.token_hash for s, info in seats.items()},
            list(session.entries),
            status_of(session),
            session.decider,
            table.to_json(),
            (parent.id, before.to_json()) if parent is not None and before is not None else None,
        )
        if parent is not None and before is not None:
            parent.table = before
        self.rooms[game] = room
        self._schedule(room)
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
        now = self.clock.now()
        table = room.table
        out = {
            **body,
            "log": room.views.log(session, seat, start),
            "log_from": start,
            "seats": self.seat_summary(room),
            "undo": allowed,
            "undo_entries": session.undoable() if allowed else 0,
            "undo_choices": self.undo_choices(room) if allowed else {},
            "deciders": room.deciders(),
            "seating": "per-player" if room.seating is not None else "per-side",
            "grace": table.grace,
            "claimable": self.claimable(room),
            "rematch": table.rematch,
        }
        if table.clock is not None:
            out["clock"] = dict(table.clock)
            out["clocks"] = table.clocks(now)
            out["clock_running"] = table.running
        return out

    def seat_summary(self, room: Room, presence: bool = True) -> dict[str, dict[str, Any]]:
        """Each seat: who holds it, whether it has joined, and (in a view) whether it is here
        and since when it has been away."""
        out: dict[str, dict[str, Any]] = {}
        now = self.clock.now()
        for seat, info in room.seats.items():
            entry: dict[str, Any] = {
                "player": info.player,
                "joined": info.joined or info.player == "ai",
            }
            if info.level is not None:
                entry["level"] = info.level
            if info.player == "ai":
                level = info.level or "normal"
                state = room.session.state
                key = (level, tuple(state.gone))  # a seat that left: the kernel holds no more
                shown = room.agent_names.get(key)
                if shown is None:
                    shown = room.agent_names[key] = playing_name(level, state)
                if shown != level:  # it decides by rule of thumb: its name says why
                    entry["agent"] = shown
            if info.claimed:
                entry["claimed"] = True
            if not presence:
                pass
            elif info.player == "human":
                away = room.presence.away_since(seat, now)
                entry["present"] = away is None
                entry["away_since"] = iso(away) if away is not None else None
            else:
                entry["present"] = True
                entry["away_since"] = None
            if room.seating is not None:
                entry["side"] = room.seating.side_of(seat)
                entry["characters"] = _pieces_of(room, seat)
            out[seat] = entry
        return out

    def claimable(self, room: Room) -> str | None:
        """The deciding person's seat when it has been away longer than the grace period."""
        session = room.session
        if session.over:
            return None
        now = self.clock.now()
        for seat in room.deciders():
            info = room.seats.get(seat)
            if info is None or info.player != "human":
                continue
            if room.presence.away_for(seat, now) > room.table.grace:
                return seat
        return None

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
                seats = self.seat_summary(room, presence=False)
                status, turn, updated = room.status, room.decider(), room.updated
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
                    "created": iso(row.created),
                    "updated": iso(updated),
                }
            )
        return out

    # -- choices ----------------------------------------------------------------

    async def play(self, room: Room, seat: str, choice: str, version: int) -> bool:
        """`seat` answers `version` with `choice` (server-api.md, "Making a choice"); True
        when it changed the game, False for a resend of the choice already acknowledged."""
        async with room.lock:
            session = room.session
            side = room.side_of(seat)
            if version < session.version:
                entry = session.entries[version] if version < len(session.entries) else None
                if (
                    entry is not None
                    and entry.kind == "choice"
                    and entry.seat == side
                    and entry.choice == choice
                    and not entry.undone
                ):
                    return False  # a resend: acknowledged again, applied once
                raise ApiError(
                    409,
                    "stale",
                    f"version {version} has been answered; the game is at version {session.version}",
                )
            _answering(session, version)
            deciders = room.deciders()
            if seat not in deciders:
                raise ApiError(
                    409, "not_your_turn", f"{' or '.join(deciders)} decides now, not {seat}"
                )
            if room.seating is not None:
                why = room.seating.refusal(session, seat, choice)
                if why is not None:
                    raise ApiError(422, "illegal", why)
            script = script_of(room.table.script)
            if script is not None:
                why = script.refusal(session, seat, choice)
                if why is not None:
                    raise ApiError(422, "illegal", why)
            await self._commit_choice(room, seat, choice)
        self.think(room)
        return True

    async def scripted(self, room: Room, script: Script, version: int) -> None:
        """A guided game's rival plays the step the game is at: its scripted choices, each
        played and written as any choice is (server/tutorial.py)."""
        async with room.lock:
            session = room.session
            _answering(session, version)
            moves = script.rival_moves(session)
            if not moves:
                raise ApiError(
                    409, "not_your_turn", "the player makes the next choice, not the rival"
                )
            for choice in moves:
                await self._commit_choice(room, script.rival, choice)

    async def _commit_choice(self, room: Room, seat: str, choice: str) -> None:
        """Play `choice` on a fork, write it, and make the fork the game once written."""
        session = room.session
        start = session.version
        fork = session.fork()
        try:
            fork.play(room.side_of(seat), choice, start)
        except (IllegalChoice, NotYourTurn, GameOver) as e:
            raise ApiError(422, "illegal", str(e)) from None
        info = room.seats.get(seat)
        joined = seat if info is not None and not info.joined and info.player == "human" else None
        table = self._passed(room, fork, seat)
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
            table.to_json(),
        )
        if joined is not None and info is not None:
            info.joined = True
        self._adopt(room, fork, start, table)

    def _holder(self, room: Room, session: Session) -> str | None:
        """The seat whose clock runs: the deciding person's (the computer plays untimed)."""
        if session.over:
            return None
        seat = room.decider(session)
        info = room.seats.get(seat or "")
        return seat if info is not None and info.player == "human" else None

    def _passed(self, room: Room, fork: Session, decided: str | None) -> Table:
        """The clocks after `decided` (None: nobody) moved the game to `fork`."""
        table = room.table.copy()
        now = self.clock.now()
        if fork.over:
            table.stop(now)
        else:
            table.passed(decided, self._holder(room, fork), now)
        return table

    def _adopt(
        self, room: Room, fork: Session, changed_from: int, table: Table | None = None
    ) -> None:
        """The written fork is the game now; every watcher is told (queued, not awaited)."""
        room.session = fork
        if table is not None:
            room.table = table
            self._schedule(room)
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
            _answering(session, version)
            held = {seat} | {s for t in tokens if (s := room.seat_of(t)) is not None}
            others = {s for s, info in room.seats.items() if info.player == "human"} - held
            if others:
                raise ApiError(
                    403,
                    "wrong_seat",
                    f"undo needs the tokens of {', '.join(sorted(others))} too (or computer seats)",
                )
            touched = session.undo_seats()
            if session.undoable() == 0 or room.side_of(seat) not in touched | {None}:
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
            table = self._passed(room, fork, None)
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
                table.to_json(),
            )
            if room.thinking is not None:
                room.thinking.cancel()
                room.thinking = None
            self._adopt(room, fork, start - n, table)
        self.think(room)

    # -- the computer's seats ---------------------------------------------------

    def think(self, room: Room) -> None:
        """Let the computer play its seats while it decides (one task a game)."""
        if self.thinkers is None or (room.thinking is not None and not room.thinking.done()):
            return
        if room.table.script is not None:
            return  # a guided game's rival plays its script, at the player's asking
        if room.session.over or self._computer(room) is None:
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
            seat = self._computer(room)
            info = room.seats.get(seat or "")
            if session.over or seat is None or info is None:
                return
            version = session.version
            try:
                choice = await self._ask(room, session.decider or seat, info.level or "normal")
                if room.seating is not None:
                    choice = _own(room.seating, session, seat, choice)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # a worker that died: it is started again
                log.warning("the computer could not decide in game %s: %s", room.id, e)
                await asyncio.sleep(RETRY[min(tries, len(RETRY) - 1)])
                tries += 1
                continue
            async with room.lock:
                if room.session.version != version or seat not in room.deciders():
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

    def _computer(self, room: Room) -> str | None:
        """The computer's seat that may act now, if any."""
        for seat in room.deciders():
            info = room.seats.get(seat)
            if info is not None and info.player == "ai":
                return seat
        return None

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
        if seat not in room.deciders():
            raise ApiError(409, "not_your_turn", f"{room.decider()} decides now, not {seat}")
        for _ in range(2):
            task = self._task(room, room.side_of(seat) or seat)
            found = await asyncio.wrap_future(self.thinkers.hint(task))
            self.thinkers.sent(task, found is not None)
            if found is not None:
                return found
        raise ApiError(503, "unavailable", "the computer cannot give a hint now; try again")

    # -- what players do at the table: resign, claim, run out of time -------------

    async def resign(self, room: Room, seat: str, version: int) -> bool:
        """`seat` resigns answering `version`: the other side wins; in a free-for-all the seat
        leaves and the rest play on (server-api.md, Resign). True when it changed the game,
        False for a resend of the resignation."""
        async with room.lock:
            session = room.session
            if version < session.version:
                entry = session.entries[version]
                if entry.kind == RESIGN and entry.seat == seat:
                    return False  # a resend: acknowledged again, applied once
            _answering(session, version)
            await self._lose(room, RESIGN, seat, room.side_of(seat) or seat)
        self.think(room)
        return True

    async def claim(self, room: Room, seat: str, version: int, what: str) -> None:
        """`seat` claims the deciding seat gone longer than the grace period: the computer
        plays it from now on (`ai`), or the game ends and the claimer's side wins (`win`)."""
        async with room.lock:
            session = room.session
            _answering(session, version)
            away = self._away_decider(room)
            now = self.clock.now()
            if away is None:
                raise ApiError(
                    409, "too_early", "nobody to claim: the seat that decides is not a person's"
                )
            if away == seat:
                raise ApiError(409, "too_early", f"{seat} decides now: there is no one to claim")
            gone = room.presence.away_for(away, now)
            grace = room.table.grace
            if gone <= grace:
                shown = "is here" if gone == 0 else f"has been away {int(gone)} s"
                raise ApiError(
                    409,
                    "too_early",
                    f"{away} {shown}; a claim is open after {int(grace)} s away",
                )
            if what == "win":
                mine = room.side_of(seat)
                if mine == room.side_of(away):
                    raise ApiError(
                        403, "wrong_seat", f"{seat} plays on {away}'s side: claim 'ai' instead"
                    )
                if _free_for_all(session):
                    # the claimer wins over the seat gone too long, which leaves; the rest
                    # play on (docs/server.md, "Leaving a free-for-all")
                    await self._lose(room, CLAIM, seat, room.side_of(away) or away)
                else:
                    await self._end(room, CLAIM, seat, mine or seat)
                self.think(room)
                return
            fork = session.fork()
            fork.note(CLAIM, seat, HANDED + away)
            before = room.seats[away]
            room.seats[away] = SeatInfo("ai", "normal", before.token_hash, before.joined, True)
            try:
                table = self._passed(room, fork, None)
                table.claimed = [*table.claimed, away]
                await self._write_entries(room, fork, session.version, table)
            except BaseException:
                room.seats[away] = before
                raise
            self._adopt(room, fork, session.version, table)
        self.think(room)

    def _away_decider(self, room: Room) -> str | None:
        """The deciding person's seat that has been away the longest (None: the computer
        decides)."""
        now = self.clock.now()
        found = [
            s
            for s in room.deciders()
            if (i := room.seats.get(s)) is not None and i.player == "human"
        ]
        if not found:
            return None
        return max(found, key=lambda s: room.presence.away_for(s, now))

    async def _lose(self, room: Room, kind: str, seat: str, side: str) -> None:
        """`side` loses (`seat` resigned, ran out of time, or claimed the win from it): with
        two sides the other wins; in a free-for-all it leaves and the rest play on, the last
        one left winning (`Session.leave`). Held under the room's lock."""
        session = room.session
        if side in session.gone:
            raise ApiError(409, "finished", f"{side} has left this game")
        if _free_for_all(session):
            fork = session.fork()
            try:
                fork.leave(kind, seat, side)
            except IllegalChoice:
                pass  # before the first player is known: the game ends, as with two sides
            else:
                await self._keep(room, fork)
                return
        await self._end(room, kind, seat, _rival(session, side))

    async def _keep(self, room: Room, fork: Session) -> None:
        """Write what `fork` added to the log, then keep it (under the room's lock)."""
        start = room.session.version
        table = self._passed(room, fork, None)
        await self._write_entries(room, fork, start, table)
        if room.thinking is not None:
            room.thinking.cancel()
            room.thinking = None
        self._adopt(room, fork, start, table)

    async def _end(self, room: Room, kind: str, seat: str, winner: str) -> None:
        """End the game outside its rules (held under the room's lock): written, then kept."""
        session = room.session
        fork = session.fork()
        fork.end(kind, seat, winner)
        table = self._passed(room, fork, None)
        await self._write_entries(room, fork, session.version, table)
        if room.thinking is not None:
            room.thinking.cancel()
            room.thinking = None
        self._adopt(room, fork, session.version, table)

    async def _write_entries(self, room: Room, fork: Session, start: int, table: Table) -> None:
        await self._write(
            self.db.store.append,
            room.id,
            start,
            fork.entries[start:],
            status_of(fork),
            fork.decider,
            fork.winner,
            [],
            None,
            table.to_json(),
        )

    def _schedule(self, room: Room) -> None:
        """A timer at the running clock's deadline: the server checks it whether or not
        anyone is connected (and at once, for a deadline passed while it was stopped)."""
        if room.timer is not None:
            room.timer.cancel()
            room.timer = None
        deadline = room.table.deadline()
        if deadline is None or room.session.over:
            return
        with contextlib.suppress(RuntimeError):
            self.loop = asyncio.get_running_loop()
        room.timer = self.clock.call_at(deadline, lambda: self._soon(self._expire(room)))

    def _soon(self, work: Any) -> Any:
        """Run a coroutine on the server's loop, from any thread (a timer's call)."""
        loop = self.loop
        if loop is None or loop.is_closed():
            work.close()
            return None
        return asyncio.run_coroutine_threadsafe(work, loop)

    async def _expire(self, room: Room) -> None:
        """The running clock's deadline: the seat out of time loses (a `timeout` entry)."""
        async with room.lock:
            table = room.table
            seat = table.running
            if room.session.over or seat is None:
                return
            if table.clocks(self.clock.now()).get(seat, 1.0) > 0:
                self._schedule(room)  # time was added since: not yet
                return
            try:
                await self._lose(room, TIMEOUT, seat, room.side_of(seat) or seat)
                self.think(room)  # a free-for-all plays on: the computer's seat may be next
            except ApiError as e:  # the database cannot take it now: try again soon
                log.warning("game %s: a timeout could not be written: %s", room.id, e.message)
                room.timer = self.clock.call_at(
                    self.clock.now() + RETRY[-1], lambda: self._soon(self._expire(room))
                )

    # -- who is here --------------------------------------------------------------

    # Presence is not pushed as views (a view follows a change of the game): each socket's
    # heartbeat answer carries it (`table_now`), and every view holds it as it stands.

    def touch(self, room: Room, seat: str | None) -> None:
        """`seat` made a request: it is here."""
        if seat is not None:
            room.presence.request(seat, self.clock.now())

    def opened(self, room: Room, seat: str | None) -> None:
        """A socket of `seat` opened: it is here while the socket is open."""
        if seat is not None:
            room.presence.opened(seat, self.clock.now())

    def closed(self, room: Room, seat: str | None) -> None:
        """A socket of `seat` closed: with no other open, it is away from now."""
        if seat is not None:
            room.presence.closed(seat, self.clock.now())

    def table_now(self, room: Room) -> dict[str, Any]:
        """What changes with time alone, for a heartbeat's answer: each seat's presence,
        the seat that may be claimed, the clocks, and the server's time."""
        now = self.clock.now()
        out: dict[str, Any] = {
            "seats": self.seat_summary(room),
            "claimable": self.claimable(room),
            "version": room.session.version,
            "now": iso(now),
        }
        if room.table.clock is not None:
            out["clocks"] = room.table.clocks(now)
            out["clock_running"] = room.table.running
        return out

    # -- rematch ------------------------------------------------------------------

    async def rematch(self, room: Room, seat: str) -> tuple[Room, str | None, str]:
        """A new game of the same setup, sides swapped, a new seed (server-api.md, Rematch):
        the new game, the asking seat's token and its seat there. Asked again, the same."""
        if not room.session.over:
            raise ApiError(409, "not_finished", "a rematch is for a game that is over")
        async with room.rematching:
            new_seat = swapped(seat)
            if room.table.rematch is not None:
                other = await self.room(room.table.rematch)
                return other, room.table.rematch_tokens.get(seat), new_seat
            spec = room.session.setup.spec
            assert spec is not None
            old = room.table
            settings = Table(grace=old.grace, clock=old.clock, seating=old.seating)
            settings.holders = {swapped(k): dict(v) for k, v in old.holders.items()}
            other, _ = await self.create(
                _swap(spec, room), secrets.randbits(128), settings, parent=room
            )
            mine = room.table.rematch_tokens
            for watcher in list(room.watchers):
                if watcher.seat is None or watcher.seat == seat:
                    continue
                token = mine.get(watcher.seat)
                if token is not None:
                    watcher.offer(json.dumps({"type": "rematch", "game": other.id, "token": token}))
            self.publish(room, room.session.version)
            return other, mine.get(seat), new_seat

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


def _held(spec: SetupSpec, seating: Seating, seat: str, table: Table) -> SeatSpec:
    """Who holds `seat`: a player's seat as the game was made with it, else as the spec
    holds its side."""
    kind = table.holders.get(seat)
    if kind is not None:
        return SeatSpec(seat, kind.get("player", "human"), kind.get("level"))
    return spec.seat(seating.side_of(seat) or seat)


def _pieces_of(room: Room, seat: str) -> list[str]:
    """The pieces of `seat`'s own characters (two players a side)."""
    seating = room.seating
    if seating is None:
        return []
    state = room.session.peek()
    return [pid for pid in state.pieces if seating.owner(room.session, pid) == seat]


def _own(seating: Seating, session: Session, seat: str, choice: str) -> str:
    """The computer's choice for `seat`, kept to its own characters: when the side's search
    chose the other player's character, the first choice of its own instead."""
    allowed = seating.allowed(session, seat)
    ids = [c.format() for c in allowed]
    return choice if choice in ids or not ids else ids[0]


def _free_for_all(session: Session) -> bool:
    """Whether the game has more than two sides (Free-for-All: a player who loses leaves)."""
    return len(session.seats) > 2


def _rival(session: Session, side: str) -> str:
    """The side that wins when `side` leaves the game: the other side; in a free-for-all,
    the rival with the most points (the first in turn order on a tie)."""
    rivals = [s for s in session.seats if s != side]
    if len(rivals) == 1:
        return rivals[0]
    sides = session.peek().sides
    return max(rivals, key=lambda s: (sides[s].points, -rivals.index(s)))


def _swap(spec: SetupSpec, room: Room) -> SetupSpec:
    """The same setup with the sides swapped: each team, its players and each seat's holder
    on the other side of the board."""
    from dataclasses import replace

    order = [t.side for t in spec.teams]
    teams = [
        replace(
            t,
            side=swapped(t.side),
            players=tuple((swapped(p), ids) for p, ids in t.players),
        )
        for t in spec.teams
    ]
    teams.sort(key=lambda t: order.index(t.side) if t.side in order else len(order))
    seats = [replace(s, seat=swapped(s.seat)) for s in spec.seats]
    first = swapped(spec.first_player) if spec.first_player else None
    return replace(spec, teams=tuple(teams), seats=tuple(seats), first_player=first)


def _plausible_id(game: str) -> bool:
    return 0 < len(game) <= 64 and all(c.isalnum() or c in "-_" for c in game)


__all__ = ["ApiError", "Games", "Room"]

"""Where the server keeps its games: one embedded SQLite database (WAL).

A game is a row (its spec, seed and status), its log is rows of entries, and its seat
tokens are stored only as hashes. An entry is written in the transaction that
acknowledges the choice, so a server killed at any moment starts again with every
acknowledged choice. A write that the database cannot take (locked past the busy timeout,
full, read-only, an I/O error) is rolled back whole and raised as `Unavailable`; the
connection is opened again for the next call, so service resumes once the fault clears.
The store is called from one thread at a time (the server's database thread).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from funkoverse.rules import Entry

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    seed INTEGER NOT NULL,
    status TEXT NOT NULL,
    decider TEXT,
    winner TEXT,
    version INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS entries (
    game TEXT NOT NULL REFERENCES games(id),
    idx INTEGER NOT NULL,
    kind TEXT NOT NULL,
    choice TEXT NOT NULL,
    seat TEXT,
    secret INTEGER NOT NULL DEFAULT 0,
    undone INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, idx)
);
CREATE TABLE IF NOT EXISTS seats (
    game TEXT NOT NULL REFERENCES games(id),
    seat TEXT NOT NULL,
    token_hash TEXT,
    joined INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, seat)
);
CREATE INDEX IF NOT EXISTS seats_by_token ON seats(token_hash);
CREATE TABLE IF NOT EXISTS tables (
    game TEXT PRIMARY KEY REFERENCES games(id),
    data TEXT NOT NULL
);
"""


def token_hash(token: str) -> str:
    """What is kept of a seat's token: its SHA-256."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class GameRow:
    id: str
    spec: dict[str, object]
    seed: int
    status: str
    decider: str | None
    winner: str | None
    version: int
    created: float
    updated: float


class Unavailable(Exception):
    """The database cannot take this call now (locked, full, read-only, I/O error): nothing
    was written."""


BUSY_TIMEOUT = 1.0  # seconds a write waits for another writer's lock before giving up


class Store:
    """The games database. Safe to use from several threads (one connection, one lock)."""

    def __init__(self, path: Path, busy_timeout: float = BUSY_TIMEOUT) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.busy_timeout = busy_timeout
        self._lock = threading.RLock()
        self._db: sqlite3.Connection | None = None
        with self._lock:
            db = self._connect()
            db.executescript(SCHEMA)

    def _connect(self) -> sqlite3.Connection:
        if self._db is None:
            db = sqlite3.connect(
                str(self.path),
                check_same_thread=False,
                isolation_level=None,
                timeout=self.busy_timeout,
            )
            try:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")
                db.execute("PRAGMA foreign_keys=ON")
            except BaseException:
                db.close()
                raise
            self._db = db
        return self._db

    def _drop(self) -> None:
        """After a fault: the next call opens the database again."""
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
            self._db = None

    def close(self) -> None:
        with self._lock:
            self._drop()

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                yield self._connect()
            except sqlite3.Error as e:
                self._drop()
                raise Unavailable(str(e)) from None

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """All or nothing: a fault anywhere rolls the whole transaction back."""
        with self._lock:
            try:
                db = self._connect()
                db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as e:
                self._drop()
                raise Unavailable(str(e)) from None
            try:
                yield db
                db.execute("COMMIT")
            except BaseException as e:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
                if isinstance(e, sqlite3.Error):
                    if "locked" not in str(e) and "busy" not in str(e):
                        self._drop()
                    raise Unavailable(str(e)) from None
                raise

    # -- games ------------------------------------------------------------------

    def create(
        self,
        game: str,
        spec: dict[str, object],
        seed: int,
        seats: dict[str, str | None],
        entries: Sequence[Entry],
        status: str,
        decider: str | None,
        table: dict[str, object] | None = None,
        parent: tuple[str, dict[str, object]] | None = None,
    ) -> None:
        """A new game with its seats (token hashes; None for a computer seat), the
        entries its creation drew (the First Player flip) and its online table (clocks);
        `parent` (a game and its new table) is written in the same transaction: the game a
        rematch was made of, which then names it and holds its tokens."""
        now = time.time()
        with self._transaction() as db:
            db.execute(
                "INSERT INTO games VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?)",
                (game, json.dumps(spec), _seed_out(seed), status, decider, len(entries), now, now),
            )
            db.executemany(
                "INSERT INTO seats VALUES (?, ?, ?, 0)",
                [(game, seat, h) for seat, h in seats.items()],
            )
            self._add(db, game, 0, entries)
            if table is not None:
                self._table(db, game, table)
            if parent is not None:
                self._table(db, parent[0], parent[1])

    def append(
        self,
        game: str,
        start: int,
        entries: Sequence[Entry],
        status: str,
        decider: str | None,
        winner: str | None,
        undone: Sequence[int] = (),
        joined: str | None = None,
        table: dict[str, object] | None = None,
    ) -> None:
        """New entries from index `start`, in one transaction with the game's new status
        (and the entries an undo marks taken back, the seat that has now joined, and the
        game's online table: its clocks as they stand after these entries)."""
        with self._transaction() as db:
            if table is not None:
                self._table(db, game, table)
            if joined is not None:
                db.execute(
                    "UPDATE seats SET joined = 1 WHERE game = ? AND seat = ?", (game, joined)
                )
            if undone:
                db.executemany(
                    "UPDATE entries SET undone = 1 WHERE game = ? AND idx = ?",
                    [(game, i) for i in undone],
                )
            self._add(db, game, start, entries)
            db.execute(
                "UPDATE games SET status = ?, decider = ?, winner = ?, version = ?, updated = ? "
                "WHERE id = ?",
                (status, decider, winner, start + len(entries), time.time(), game),
            )

    @staticmethod
    def _table(db: sqlite3.Connection, game: str, table: dict[str, object]) -> None:
        db.execute(
            "INSERT INTO tables VALUES (?, ?) ON CONFLICT(game) DO UPDATE SET data = excluded.data",
            (game, json.dumps(table)),
        )

    def set_table(self, game: str, table: dict[str, object]) -> None:
        """The game's online table alone (a rematch made of it)."""
        with self._transaction() as db:
            self._table(db, game, table)

    def table(self, game: str) -> dict[str, object] | None:
        """The game's online table (None for a game made without one)."""
        with self._reading() as db:
            row = db.execute("SELECT data FROM tables WHERE game = ?", (game,)).fetchone()
        return json.loads(str(row[0])) if row else None

    @staticmethod
    def _add(db: sqlite3.Connection, game: str, start: int, entries: Sequence[Entry]) -> None:
        db.executemany(
            "INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (game, start + i, e.kind, e.choice, e.seat, int(e.secret), int(e.undone))
                for i, e in enumerate(entries)
            ],
        )

    def game(self, game: str) -> GameRow | None:
        with self._reading() as db:
            row = db.execute("SELECT * FROM games WHERE id = ?", (game,)).fetchone()
        return _row(row) if row else None

    def games(self) -> list[GameRow]:
        with self._reading() as db:
            rows = db.execute("SELECT * FROM games ORDER BY updated DESC").fetchall()
        return [_row(r) for r in rows]

    def entries(self, game: str) -> list[Entry]:
        with self._reading() as db:
            rows = db.execute(
                "SELECT kind, choice, seat, secret, undone FROM entries WHERE game = ? ORDER BY idx",
                (game,),
            ).fetchall()
        return [
            Entry(kind, choice, seat, bool(secret), bool(undone))
            for kind, choice, seat, secret, undone in rows
        ]

    def load(
        self, game: str
    ) -> tuple[GameRow | None, list[Entry], dict[str, tuple[str | None, bool]]]:
        """A game's row, its log and its seats, read in one transaction."""
        with self._reading() as db:
            db.execute("BEGIN")
            try:
                return self.game(game), self.entries(game), self.seats(game)
            finally:
                db.execute("COMMIT")

    def listing(self) -> tuple[list[GameRow], dict[str, dict[str, tuple[str | None, bool]]]]:
        """Every game's row, newest first, and every game's seats."""
        with self._reading() as db:
            rows = db.execute("SELECT * FROM games ORDER BY updated DESC").fetchall()
            seats: dict[str, dict[str, tuple[str | None, bool]]] = {}
            for gid, seat, h, joined in db.execute(
                "SELECT game, seat, token_hash, joined FROM seats"
            ):
                seats.setdefault(gid, {})[seat] = (h, bool(joined))
        return [_row(r) for r in rows], seats

    # -- seats ------------------------------------------------------------------

    def seats(self, game: str) -> dict[str, tuple[str | None, bool]]:
        """Each seat: its token hash (None: the computer's) and whether it has joined."""
        with self._reading() as db:
            rows = db.execute(
                "SELECT seat, token_hash, joined FROM seats WHERE game = ?", (game,)
            ).fetchall()
        return {seat: (h, bool(joined)) for seat, h, joined in rows}


def _seed_out(seed: int) -> int | str:
    """A seed as SQLite holds it: an integer when it fits in 64 bits, else hexadecimal text
    (a server-drawn seed has 128 bits; SQLite would round a larger integer to a real)."""
    return seed if -(2**63) <= seed < 2**63 else f"x{seed:x}"


def _seed_in(value: object) -> int:
    if isinstance(value, str) and value.startswith("x"):
        return int(value[1:], 16)
    return int(str(value))


def _row(row: tuple[object, ...]) -> GameRow:
    gid, spec, seed, status, decider, winner, version, created, updated = row
    return GameRow(
        str(gid),
        json.loads(str(spec)),
        _seed_in(seed),
        str(status),
        decider if decider is None else str(decider),
        winner if winner is None else str(winner),
        int(version),  # type: ignore[call-overload]
        float(created),  # type: ignore[arg-type]
        float(updated),  # type: ignore[arg-type]
    )

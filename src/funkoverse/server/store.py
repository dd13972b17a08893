"""Where the server keeps its games: one embedded SQLite database (WAL).

A game is a row (its spec, seed and status), its log is rows of entries, and its seat
tokens are stored only as hashes. An entry is written in the transaction that
acknowledges the choice, so a server killed at any moment starts again with every
acknowledged choice.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from funkoverse.rules.session import Entry

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


class Store:
    """The games database. Safe to use from several threads (one connection, one lock)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._lock = threading.RLock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

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
    ) -> None:
        """A new game with its seats (token hashes; None for a computer seat) and the
        entries its creation drew (the First Player flip)."""
        now = time.time()
        with self._transaction() as db:
            db.execute(
                "INSERT INTO games VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?)",
                (game, json.dumps(spec), seed, status, decider, len(entries), now, now),
            )
            db.executemany(
                "INSERT INTO seats VALUES (?, ?, ?, 0)",
                [(game, seat, h) for seat, h in seats.items()],
            )
            self._add(db, game, 0, entries)

    def append(
        self,
        game: str,
        start: int,
        entries: Sequence[Entry],
        status: str,
        decider: str | None,
        winner: str | None,
        undone: Sequence[int] = (),
    ) -> None:
        """New entries from index `start`, in one transaction with the game's new status
        (and the entries an undo marks taken back)."""
        with self._transaction() as db:
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
    def _add(db: sqlite3.Connection, game: str, start: int, entries: Sequence[Entry]) -> None:
        db.executemany(
            "INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (game, start + i, e.kind, e.choice, e.seat, int(e.secret), int(e.undone))
                for i, e in enumerate(entries)
            ],
        )

    def game(self, game: str) -> GameRow | None:
        with self._lock:
            row = self._db.execute("SELECT * FROM games WHERE id = ?", (game,)).fetchone()
        return _row(row) if row else None

    def games(self) -> list[GameRow]:
        with self._lock:
            rows = self._db.execute("SELECT * FROM games ORDER BY updated DESC").fetchall()
        return [_row(r) for r in rows]

    def entries(self, game: str) -> list[Entry]:
        with self._lock:
            rows = self._db.execute(
                "SELECT kind, choice, seat, secret, undone FROM entries WHERE game = ? ORDER BY idx",
                (game,),
            ).fetchall()
        return [
            Entry(kind, choice, seat, bool(secret), bool(undone))
            for kind, choice, seat, secret, undone in rows
        ]

    # -- seats ------------------------------------------------------------------

    def seats(self, game: str) -> dict[str, tuple[str | None, bool]]:
        """Each seat: its token hash (None: the computer's) and whether it has joined."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seat, token_hash, joined FROM seats WHERE game = ?", (game,)
            ).fetchall()
        return {seat: (h, bool(joined)) for seat, h, joined in rows}

    def join(self, game: str, seat: str) -> None:
        with self._transaction() as db:
            db.execute("UPDATE seats SET joined = 1 WHERE game = ? AND seat = ?", (game, seat))


def _row(row: tuple[object, ...]) -> GameRow:
    gid, spec, seed, status, decider, winner, version, created, updated = row
    return GameRow(
        str(gid),
        json.loads(str(spec)),
        int(seed),  # type: ignore[call-overload]
        str(status),
        decider if decider is None else str(decider),
        winner if winner is None else str(winner),
        int(version),  # type: ignore[call-overload]
        float(created),  # type: ignore[arg-type]
        float(updated),  # type: ignore[arg-type]
    )

"""The results store: one SQLite file (WAL), a row per planned game and a row per finished
one, written as each game finishes.

A game's row is written in one transaction, so a run killed at any moment leaves only
whole games; `pending` is the plan less the games stored, so a run started again plays
exactly what is missing, and the primary key makes a game impossible to store twice.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from funkoverse.errors import UserError
from funkoverse.lab.game import GameRecord
from funkoverse.lab.plan import GameTask

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS plan (
    game_id TEXT PRIMARY KEY,
    matchup TEXT NOT NULL,
    idx INTEGER NOT NULL,
    task TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    game_id TEXT PRIMARY KEY REFERENCES plan(game_id),
    matchup TEXT NOT NULL,
    idx INTEGER NOT NULL,
    scenario TEXT NOT NULL,
    map TEXT NOT NULL,
    team_a TEXT NOT NULL,
    team_b TEXT NOT NULL,
    agent_a TEXT NOT NULL,
    agent_b TEXT NOT NULL,
    bars TEXT NOT NULL,          -- JSON list of bars, as written ("a=ability:savage-hunger")
    a_side TEXT NOT NULL,
    first_player TEXT,
    winner_side TEXT,
    winner TEXT,                 -- 'a', 'b', or NULL: stopped at the round limit (a draw)
    points_a INTEGER NOT NULL,
    points_b INTEGER NOT NULL,
    rounds INTEGER NOT NULL,
    abilities TEXT NOT NULL,     -- JSON {"a": {ability: uses}, "b": {...}}
    items TEXT NOT NULL,         -- JSON {"a": {item: uses}, "b": {...}}
    forced INTEGER NOT NULL,
    spec TEXT NOT NULL,
    seed INTEGER NOT NULL,
    log TEXT NOT NULL,           -- JSON list of log entries: the game replays from spec, seed, log
    seconds REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS games_matchup ON games(matchup);
"""

# The columns of a game's row that the same master seed makes equal on any backend.
RESULT_COLUMNS = (
    "game_id",
    "winner_side",
    "winner",
    "first_player",
    "points_a",
    "points_b",
    "rounds",
    "abilities",
    "items",
    "forced",
    "spec",
    "seed",
    "log",
)


class Store:
    """A results store on disk."""

    def __init__(self, path: str | Path, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.is_file():
            raise UserError(f"{self.path}: no such results store")
        try:
            self.db = sqlite3.connect(self.path, timeout=30)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(SCHEMA)
        except sqlite3.DatabaseError as e:
            raise UserError(f"{self.path}: not a results store ({e})") from None
        self.db.row_factory = sqlite3.Row

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the plan ------------------------------------------------------------

    def add_plan(self, tasks: Iterable[GameTask]) -> None:
        """Add games to the plan (games planned already stay as they are)."""
        with self.db:
            self.db.executemany(
                "INSERT OR IGNORE INTO plan (game_id, matchup, idx, task) VALUES (?, ?, ?, ?)",
                ((t.game_id, t.matchup, t.index, t.to_json()) for t in tasks),
            )

    def pending(self, tasks: Sequence[GameTask]) -> list[GameTask]:
        """The tasks whose game is not stored yet, in order."""
        done = {r[0] for r in self.db.execute("SELECT game_id FROM games")}
        return [t for t in tasks if t.game_id not in done]

    def set_meta(self, key: str, value: Any) -> None:
        with self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, json.dumps(value))
            )

    def meta(self, key: str) -> Any:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    # -- games ---------------------------------------------------------------

    def add(self, task: GameTask, record: GameRecord) -> bool:
        """Store a finished game in one transaction; False when it was stored already."""
        b_side = "light" if task.a_side == "dark" else "dark"
        with self.db:
            cur = self.db.execute(
                "INSERT OR IGNORE INTO games VALUES "
                "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    task.game_id,
                    task.matchup,
                    task.index,
                    task.scenario,
                    task.map,
                    task.team_a,
                    task.team_b,
                    task.agent_a,
                    task.agent_b,
                    json.dumps(list(task.bars)),
                    task.a_side,
                    record.first_player,
                    record.winner_side,
                    record.winner,
                    record.points.get(task.a_side, 0),
                    record.points.get(b_side, 0),
                    record.rounds,
                    json.dumps(record.abilities, sort_keys=True),
                    json.dumps(record.items, sort_keys=True),
                    record.forced,
                    task.spec,
                    task.seed,
                    json.dumps(record.log, separators=(",", ":")),
                    record.seconds,
                ),
            )
        return cur.rowcount == 1

    def count(self, table: str = "games") -> int:
        if table not in ("games", "plan"):
            raise ValueError(table)
        return int(self.db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])

    def games(self) -> Iterator[sqlite3.Row]:
        """Every stored game, in the order of its id."""
        yield from self.db.execute("SELECT * FROM games ORDER BY game_id")

    def results(self) -> list[tuple[Any, ...]]:
        """The columns a master seed fixes, of every game: what two backends must agree on."""
        cols = ", ".join(RESULT_COLUMNS)
        return [tuple(r) for r in self.db.execute(f"SELECT {cols} FROM games ORDER BY game_id")]

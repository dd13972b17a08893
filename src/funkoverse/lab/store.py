"""The results store: one SQLite file (WAL), a row per planned game and a row per finished
one, written as each game finishes.

A game's row is written in one transaction, so a run killed at any moment leaves only
whole games; `pending` is the plan less the games stored, so a run started again plays
exactly what is missing, and the primary key makes a game impossible to store twice.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
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
    first_player TEXT,           -- who went first in round 1 (the marker then passes each round)
    last_first_player TEXT,      -- who held the First Player marker in the last round
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


def _upgrade(db: sqlite3.Connection) -> None:
    """A store written before the starting first player was kept: its `first_player` held
    the last round's; it becomes `last_first_player`, and `first_player` is read again from
    each game's spec (the lab always names who goes first)."""
    columns = {r[1] for r in db.execute("PRAGMA table_info(games)")}
    if "last_first_player" in columns:
        return
    with db:
        db.execute("ALTER TABLE games RENAME COLUMN first_player TO last_first_player")
        db.execute("ALTER TABLE games ADD COLUMN first_player TEXT")
        db.execute("UPDATE games SET first_player = json_extract(spec, '$.first_player')")


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
            _upgrade(self.db)
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

    def check_plan(self, tasks: Sequence[GameTask]) -> None:
        """Refuse, changing nothing, a plan of another master seed than the store's: its
        games would be new games under old ids, or a second plan mixed into the figures."""
        if not tasks:
            return
        seed = tasks[0].master_seed
        found = {
            s
            for (s,) in self.db.execute(
                "SELECT DISTINCT json_extract(task, '$.master_seed') FROM plan"
            )
        }
        other = sorted(found - {None, seed})
        if other:
            raise UserError(
                f"{self.path}: its games were planned with master seed {other[0]}, not {seed}; "
                f"give --seed {other[0]} to add to that plan, or another --out for a new one"
            )
        if None in found:  # a plan stored before its master seed was kept: compare seeds
            planned = dict(
                self.db.execute("SELECT game_id, json_extract(task, '$.seed') FROM plan")
            )
            if any(planned.get(t.game_id, t.seed) != t.seed for t in tasks):
                raise UserError(
                    f"{self.path}: its games were planned with another master seed than {seed}; "
                    "give that seed to add to its plan, or another --out for a new one"
                )

    def add_plan(self, tasks: Sequence[GameTask]) -> None:
        """Add games to the plan (games planned already stay as they are), once
        `check_plan` has found it of the store's master seed."""
        self.check_plan(tasks)
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
        row = {
            "game_id": task.game_id,
            "matchup": task.matchup,
            "idx": task.index,
            "scenario": task.scenario,
            "map": task.map,
            "team_a": task.team_a,
            "team_b": task.team_b,
            "agent_a": task.agent_a,
            "agent_b": task.agent_b,
            "bars": json.dumps(list(task.bars)),
            "a_side": task.a_side,
            "first_player": record.first_player,
            "last_first_player": record.last_first_player,
            "winner_side": record.winner_side,
            "winner": record.winner,
            "points_a": record.points.get(task.a_side, 0),
            "points_b": record.points.get(b_side, 0),
            "rounds": record.rounds,
            "abilities": json.dumps(record.abilities, sort_keys=True),
            "items": json.dumps(record.items, sort_keys=True),
            "forced": record.forced,
            "spec": task.spec,
            "seed": task.seed,
            "log": json.dumps(record.log, separators=(",", ":")),
            "seconds": record.seconds,
        }
        with self.db:
            cur = self.db.execute(
                f"INSERT OR IGNORE INTO games ({', '.join(row)}) "
                f"VALUES ({', '.join('?' * len(row))})",
                tuple(row.values()),
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

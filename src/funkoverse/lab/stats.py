"""The figures of a balance report, computed from a results store's games: pure functions
of the rows, so a test can recompute each one and compare it with the page.

Scores count a draw (a game stopped at the round limit) as half a win. Intervals of rates
are Wilson 95% intervals (`arena.wilson`). The ratings, a model of teams as the sum of
their cards, are `lab/model.py`'s.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from funkoverse.ai.arena import wilson
from funkoverse.errors import UserError
from funkoverse.lab.bars import parse_bar


@dataclass(frozen=True)
class Game:
    """One stored game, as the report reads it."""

    game_id: str
    scenario: str
    map: str
    team_a: str
    team_b: str
    agent_a: str
    agent_b: str
    bars: tuple[str, ...]
    a_side: str
    first_player: str | None
    winner: str | None  # "a", "b", None
    rounds: int
    abilities: dict[str, dict[str, int]]
    items: dict[str, dict[str, int]]
    points_a: int = 0
    points_b: int = 0
    seed: int = 0

    @property
    def score_a(self) -> float:
        return 1.0 if self.winner == "a" else 0.0 if self.winner == "b" else 0.5

    def members(self, who: str) -> tuple[list[str], list[str]]:
        """A team's characters and items, read from its label ('x+y/item')."""
        label = self.team_a if who == "a" else self.team_b
        chars, _, items = label.partition("/")
        return chars.split("+"), [i for i in items.split("+") if i]


# The columns the report reads: never a game's log or spec, the bulk of a store.
READ_COLUMNS = (
    "game_id",
    "scenario",
    "map",
    "team_a",
    "team_b",
    "agent_a",
    "agent_b",
    "bars",
    "a_side",
    "first_player",
    "winner",
    "rounds",
    "abilities",
    "items",
    "points_a",
    "points_b",
    "seed",
)


def load_games(path: Path) -> list[Game]:
    """Every game of a results store, read column by column as the report needs them."""
    if not path.is_file():
        raise UserError(f"{path}: no such results store")
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        columns = {r[1] for r in db.execute("PRAGMA table_info(games)")}
        wanted = list(READ_COLUMNS)
        if "last_first_player" not in columns:
            # written before the starting first player was kept: its first_player column
            # holds the last round's, so who went first is read from the spec
            wanted[wanted.index("first_player")] = "json_extract(spec, '$.first_player')"
        rows = db.execute(f"SELECT {', '.join(wanted)} FROM games ORDER BY game_id").fetchall()
    except sqlite3.DatabaseError as e:
        raise UserError(f"{path}: not a results store ({e})") from None
    out = []
    for r in rows:
        fields = dict(zip(READ_COLUMNS, r, strict=True))
        for name in ("abilities", "items"):
            fields[name] = json.loads(fields[name])
        fields["bars"] = tuple(json.loads(fields["bars"]))
        out.append(Game(**fields))
    db.close()
    return out


def content_of(path: Path) -> tuple[str, ...]:
    """The fan content folders the store's games were planned with."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        found: set[str] = set()
        for (content,) in db.execute("SELECT DISTINCT json_extract(task, '$.content') FROM plan"):
            found.update(json.loads(content or "[]"))
    finally:
        db.close()
    return tuple(sorted(found))


# --------------------------------------------------------------------------- rates


@dataclass
class Rate:
    """A score over games, with its Wilson interval."""

    games: int = 0
    score: float = 0.0

    def add(self, score: float) -> None:
        self.games += 1
        self.score += score

    @property
    def rate(self) -> float:
        return self.score / self.games if self.games else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        return wilson(self.score, self.games)


def matrix(games: Iterable[Game]) -> dict[tuple[str, str], Rate]:
    """The score of each team (row) against each other (column), both ways."""
    out: dict[tuple[str, str], Rate] = defaultdict(Rate)
    for g in games:
        out[(g.team_a, g.team_b)].add(g.score_a)
        out[(g.team_b, g.team_a)].add(1 - g.score_a)
    return dict(out)


def team_rates(games: Iterable[Game]) -> dict[str, Rate]:
    """Each team's score over all its games."""
    out: dict[str, Rate] = defaultdict(Rate)
    for g in games:
        out[g.team_a].add(g.score_a)
        out[g.team_b].add(1 - g.score_a)
    return dict(out)


def first_player(games: Iterable[Game]) -> Rate:
    """The first player's score (draws half)."""
    out = Rate()
    for g in games:
        if g.first_player is None:
            continue
        if g.winner is None:
            out.add(0.5)
        else:
            winner_side = g.a_side if g.winner == "a" else _other(g.a_side)
            out.add(1.0 if winner_side == g.first_player else 0.0)
    return out


def _other(side: str) -> str:
    return "light" if side == "dark" else "dark"


def card_rates(games: Iterable[Game], items: bool = False) -> dict[str, Rate]:
    """The score of the teams with each character (or item) in them."""
    out: dict[str, Rate] = defaultdict(Rate)
    for g in games:
        for who, score in (("a", g.score_a), ("b", 1 - g.score_a)):
            chars, held = g.members(who)
            for card in held if items else chars:
                out[card].add(score)
    return dict(out)


@dataclass
class Balance:
    """One scenario (or map): how long its games run, how often they stall, and how much
    going first and the team chosen matter."""

    games: int
    draws: int
    first: Rate
    mean_rounds: float
    best_team: str
    best: Rate
    worst_team: str
    worst: Rate


def balance(games: Sequence[Game], by: str) -> dict[str, Balance]:
    """Balance figures grouped by "scenario" or "map"."""
    groups: dict[str, list[Game]] = defaultdict(list)
    for g in games:
        groups[getattr(g, by)].append(g)
    out = {}
    for key, group in sorted(groups.items()):
        teams = team_rates(group)
        ranked = sorted(teams.items(), key=lambda kv: (-kv[1].rate, kv[0]))
        out[key] = Balance(
            len(group),
            sum(1 for g in group if g.winner is None),
            first_player(group),
            sum(g.rounds for g in group) / len(group),
            ranked[0][0],
            ranked[0][1],
            ranked[-1][0],
            ranked[-1][1],
        )
    return out


def lengths(games: Iterable[Game]) -> dict[int, tuple[int, int]]:
    """Games by rounds played: (finished, stopped at the limit)."""
    done: Counter[int] = Counter()
    stopped: Counter[int] = Counter()
    for g in games:
        (stopped if g.winner is None else done)[g.rounds] += 1
    return {r: (done[r], stopped[r]) for r in sorted(set(done) | set(stopped))}


# --------------------------------------------------------------------------- cards in use


@dataclass
class Usage:
    """How often a side that could use an ability (or item) used it, and how such sides
    scored when they did and when they did not."""

    card: str
    owner: str  # the character with the ability, or "" for an item
    available: int = 0  # side-games where the card was in the team
    used_games: int = 0
    uses: int = 0
    when_used: Rate = field(default_factory=Rate)
    when_not: Rate = field(default_factory=Rate)


def usage(games: Iterable[Game], owners: dict[str, str], items: bool = False) -> dict[str, Usage]:
    """Use of every ability (`owners`: ability id -> character id) or item."""
    out: dict[str, Usage] = {}
    for g in games:
        for who, score in (("a", g.score_a), ("b", 1 - g.score_a)):
            chars, held = g.members(who)
            used = (g.items if items else g.abilities).get(who, {})
            have = held if items else [a for a, owner in owners.items() if owner in chars]
            for card in have:
                u = out.setdefault(card, Usage(card, "" if items else owners[card]))
                u.available += 1
                n = used.get(card, 0)
                u.uses += n
                if n:
                    u.used_games += 1
                    u.when_used.add(score)
                else:
                    u.when_not.add(score)
    return dict(sorted(out.items()))


@dataclass
class Worth:
    """Restricted play: the score of the side barred from a card, and of the same side in
    the same matchups unbarred. `worth` is how much the card adds to its side's win rate."""

    bar: str
    barred: Rate
    free: Rate

    @property
    def comparable(self) -> bool:
        """Whether free games of the same matchups exist to measure the bar against."""
        return self.free.games > 0 and self.barred.games > 0

    @property
    def worth(self) -> float:
        return self.free.rate - self.barred.rate


def worth(games: Sequence[Game], owners: dict[str, str]) -> list[Worth]:
    """What each barred card is worth: for every bar in the store, the barred side's score
    against the same side's score in the same matchups without bars. A bar on both sides
    counts the side that has the card (games where both or neither have it are left out);
    an action barred to both sides is symmetric and measures nothing."""
    free: dict[tuple[object, ...], list[Game]] = defaultdict(list)
    for g in games:
        if not g.bars:
            free[_pairing(g)].append(g)
    out: dict[str, Worth] = {}
    for g in games:
        for text in g.bars:
            bar = parse_bar(text)
            sides = [w for w in "ab" if bar.applies_to(w) and _holds(g, w, bar, owners)]
            if len(sides) != 1:
                continue
            who = sides[0]
            w = out.setdefault(text, Worth(text, Rate(), Rate()))
            w.barred.add(g.score_a if who == "a" else 1 - g.score_a)
    for text, w in out.items():
        bar = parse_bar(text)
        seen: set[str] = set()
        for g in games:
            if text not in g.bars:
                continue
            for f in free.get(_pairing(g), []):
                if f.game_id in seen:
                    continue
                sides = [s for s in "ab" if bar.applies_to(s) and _holds(f, s, bar, owners)]
                if len(sides) == 1:
                    seen.add(f.game_id)
                    w.free.add(f.score_a if sides[0] == "a" else 1 - f.score_a)
    return sorted(out.values(), key=lambda w: (not w.comparable, -w.worth))


def _pairing(g: Game) -> tuple[object, ...]:
    """A matchup whichever team was team A (a --focus run puts its card's team there)."""
    return (g.scenario, g.map, *sorted(((g.team_a, g.agent_a), (g.team_b, g.agent_b))))


def _holds(g: Game, who: str, bar: Any, owners: dict[str, str]) -> bool:
    chars, held = g.members(who)
    if bar.kind == "ability":
        return owners.get(bar.what) in chars
    if bar.kind == "item":
        return bar.what in held
    return True

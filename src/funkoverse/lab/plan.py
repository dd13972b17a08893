"""The games of a sweep: every matchup of teams drawn from a roster, on each scenario and
map, with the agent of each side, a number of games each.

Within a matchup, team A changes seat (dark, light) every game and the first player every
two games, so four games play each team from each seat, first and second. Each game's seed
is derived from the master seed, the matchup and the game's index alone (a hash), so a game
is the same whichever backend plays it, in whatever order, and any one can be replayed
from its spec, seed and log.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

from funkoverse.ai.agents import agent_factory
from funkoverse.content.catalog import SHIPPED, Catalog
from funkoverse.content.setups import build
from funkoverse.errors import UserError
from funkoverse.lab.bars import Bar, check_bars
from funkoverse.rules import SetupSpec, TeamSpec

SIDES = ("dark", "light")
DEFAULT_MAX_ROUNDS = 30


@dataclass(frozen=True, order=True)
class Team:
    """A side's characters (card ids) and the items they hold ((item, holder))."""

    characters: tuple[str, ...]
    items: tuple[tuple[str, str], ...] = ()

    def label(self) -> str:
        """The team as one word: characters joined by '+', then '/' and its items."""
        text = "+".join(self.characters)
        if self.items:
            text += "/" + "+".join(i for i, _ in self.items)
        return text

    def spec(self, side: str) -> TeamSpec:
        return TeamSpec(side, self.characters, self.items)


@dataclass(frozen=True)
class Matchup:
    """Two teams on one scenario and map, each side with its agent, under the same bars."""

    scenario: str
    map: str
    a: Team
    b: Team
    agent_a: str
    agent_b: str
    bars: tuple[Bar, ...] = ()
    max_rounds: int = DEFAULT_MAX_ROUNDS

    @property
    def key(self) -> str:
        """A stable name of the matchup: the store's key and part of each game's seed."""
        bars = ",".join(b.text() for b in self.bars) or "-"
        return (
            f"{self.scenario}@{self.map}|{self.a.label()}|{self.b.label()}|"
            f"{self.agent_a}|{self.agent_b}|{bars}|r{self.max_rounds}"
        )


@dataclass(frozen=True)
class GameTask:
    """One game to play: everything a worker needs, as plain data (it pickles and goes to
    JSON)."""

    game_id: str
    matchup: str
    index: int
    spec: str  # SetupSpec as JSON
    seed: int
    a_side: str
    team_a: str
    team_b: str
    scenario: str
    map: str
    agent_a: str
    agent_b: str
    bars: tuple[str, ...] = ()
    max_rounds: int = DEFAULT_MAX_ROUNDS
    content: tuple[str, ...] = field(default=())
    master_seed: int | None = None  # the plan's: None in plans stored before it was kept

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> GameTask:
        data = json.loads(text)
        data["bars"] = tuple(data["bars"])
        data["content"] = tuple(data["content"])
        return cls(**data)


def game_seed(master: int, matchup: str, index: int) -> int:
    """The seed of game `index` of `matchup`: a hash of the three, 63 bits."""
    digest = hashlib.sha256(f"{master}|{matchup}|{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def roster_ids(roster: Sequence[str] | str, catalog: Catalog = SHIPPED) -> list[str]:
    """The characters of a roster: the ids given, or every character for "all"."""
    cards = catalog.characters
    if roster == "all" or list(roster) == ["all"]:
        return sorted(cards)
    ids = list(roster)
    for cid in ids:
        if cid not in cards:
            raise UserError(
                f"--roster: unknown character '{cid}'; known: {', '.join(sorted(cards))}"
            )
    if len(set(ids)) != len(ids):
        raise UserError("--roster names a character twice")
    return sorted(ids)


def teams(
    roster: Sequence[str], size: int, items: Sequence[str] = (), catalog: Catalog = SHIPPED
) -> list[Team]:
    """Every team of `size` characters of the roster (no two allies of one name); with
    items, one team for each item, held by the team's first character who is not basic."""
    cards = catalog.characters
    if size < 1 or size > len(roster):
        raise UserError(f"--size {size}: the roster has {len(roster)} characters")
    out: list[Team] = []
    for chosen in itertools.combinations(roster, size):
        names = [cards[c].name for c in chosen]
        if len(set(names)) != len(names):
            continue
        if not items:
            out.append(Team(chosen))
            continue
        holder = next((c for c in chosen if not cards[c].basic), None)
        if holder is None:
            continue
        out.extend(Team(chosen, ((item, holder),)) for item in items)
    if not out:
        raise UserError("no team can be made of this roster, size and items")
    return out


def matchups(
    roster: Sequence[str] | str,
    size: int,
    scenarios: Sequence[str],
    maps: Sequence[str] = (),
    agent_a: str = "greedy",
    agent_b: str | None = None,
    items: Sequence[str] = (),
    bars: Sequence[Bar] = (),
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    focus: Sequence[str] = (),
    catalog: Catalog = SHIPPED,
) -> list[Matchup]:
    """Every pair of teams with no character in common, on every scenario and map (a
    scenario's own first map when none is given), checked to build. With `focus` (character
    or item ids), only the pairs where a team has one of them, that team as team A: a card
    measured against every team. With two agents, every pair is played both ways: team A
    with `agent_a` against team B with `agent_b`, and the other way round. The cards, maps
    and scenarios are `catalog`'s."""
    agent_factory(agent_a)
    agent_factory(agent_b or agent_a)
    if max_rounds < 1:
        raise UserError(f"--max-rounds must be at least 1, not {max_rounds}")
    known_items = catalog.items
    for item in items:
        if item not in known_items:
            raise UserError(
                f"--items: unknown item '{item}'; known: {', '.join(sorted(known_items))}"
            )
    abilities = {a.id for c in catalog.characters.values() for a in c.abilities}
    check_bars(bars, abilities, set(known_items))
    all_scenarios = catalog.scenarios
    ids = roster_ids(roster, catalog)
    for f in focus:
        if f not in ids and f not in items:
            raise UserError(f"--focus {f}: not a character of the roster nor an item given")
    made = teams(ids, size, items, catalog)
    # two agents: each matchup played both ways, so that no team's figures are its agent's
    second = agent_b or agent_a
    sides = [(agent_a, second)] if second == agent_a else [(agent_a, second), (second, agent_a)]
    out: list[Matchup] = []
    for sid in scenarios:
        if sid not in all_scenarios:
            raise UserError(
                f"--scenario: unknown scenario '{sid}'; known: {', '.join(sorted(all_scenarios))}"
            )
        for map_id in maps or (catalog.default_map(sid),):
            for a, b in itertools.combinations(made, 2):
                if set(a.characters) & set(b.characters):
                    continue
                if focus and not any(_has(a, f) or _has(b, f) for f in focus):
                    continue
                if focus and not any(_has(a, f) for f in focus):
                    a, b = b, a  # the focused team is team A, whom a= bars bar
                for x, y in sides:
                    out.append(Matchup(sid, map_id, a, b, x, y, tuple(bars), max_rounds))
    if not out:
        raise UserError("no matchup: every two teams of this roster share a character")
    for m in {(m.scenario, m.map): m for m in out}.values():
        build(spec_of(m, 0), catalog=catalog)  # a bad scenario, map or team: one line first
    return out


def _has(team: Team, card: str) -> bool:
    return card in team.characters or any(i == card for i, _ in team.items)


def spec_of(m: Matchup, index: int) -> SetupSpec:
    """Game `index` of a matchup as a spec: A's seat changes every game, the first player
    every two games."""
    a_side = SIDES[index % 2]
    teams_ = sorted(
        (m.a.spec(a_side), m.b.spec(SIDES[1 - index % 2])), key=lambda t: SIDES.index(t.side)
    )
    return SetupSpec(
        scenario=m.scenario,
        map=m.map,
        mode="standard",
        teams=tuple(teams_),
        first_player=SIDES[(index // 2) % 2],
    )


def plan(
    found: Sequence[Matchup], games: int, master_seed: int, content: Sequence[str] = ()
) -> list[GameTask]:
    """`games` games of every matchup, in a fixed order: game 0 of every matchup, then game 1,
    ... so that a stopped run has played every matchup about equally."""
    if games < 1:
        raise UserError(f"--games must be at least 1, not {games}")
    out: list[GameTask] = []
    for index in range(games):
        for m in found:
            key = m.key
            out.append(
                GameTask(
                    game_id=f"{key}#{index}",
                    matchup=key,
                    index=index,
                    spec=spec_of(m, index).dumps(),
                    seed=game_seed(master_seed, key, index),
                    a_side=SIDES[index % 2],
                    team_a=m.a.label(),
                    team_b=m.b.label(),
                    scenario=m.scenario,
                    map=m.map,
                    agent_a=m.agent_a,
                    agent_b=m.agent_b,
                    bars=tuple(b.text() for b in m.bars),
                    max_rounds=m.max_rounds,
                    content=tuple(content),
                    master_seed=master_seed,
                )
            )
    return out

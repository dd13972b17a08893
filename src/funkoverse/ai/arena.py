"""Agents against agents: one game, a match of many, and its statistics.

The `funkoverse match` command is a shell around `run_match`; tests and experiments call
it directly. A game is fixed by its seed: the dice come from the game's generator, each
agent gets its own generator seeded from the game's seed, and budgets are counted in
positions searched, not seconds, so a match gives the same result on any machine and with
any number of worker processes.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from funkoverse.ai.agents import Agent, agent_factory, base_name
from funkoverse.content.catalog import SHIPPED, Catalog
from funkoverse.content.setups import (
    FIRST_GAME_MAP,
    SetupRequest,
    build,
    draw_spec,
    first_game_spec,
)
from funkoverse.errors import UserError
from funkoverse.rules import Choice, Decide, Session, Setup, SetupSpec, Turn, named

DEFAULT_MAX_ROUNDS = 30


def match_spec(
    scenario: str | None,
    map_id: str | None,
    first_player: str | None,
    seed: int = 0,
    size: int | None = None,
    catalog: Catalog = SHIPPED,
) -> SetupSpec:
    """The setup a match plays, as data: the one place that turns --scenario, --map and --size
    into a spec. Without a scenario, the knock-out game of basic characters; with one, that
    scenario, its teams (and its map, when not given) drawn from `seed` out of `catalog`."""
    if scenario is None:
        if size not in (None, 2):
            raise UserError("--size needs --scenario: the first game has two characters a side")
        return first_game_spec(map_id=map_id or FIRST_GAME_MAP, first_player=first_player)
    if size not in (None, 2, 3):
        raise UserError(f"--size must be 2 or 3 characters a side, not {size}")
    spec = draw_spec(SetupRequest(scenario=scenario, map=map_id, size=size), seed, catalog)
    if first_player in spec.sides and not any(t.ultimate for t in spec.teams):
        spec = dataclasses.replace(spec, first_player=first_player)
    return spec


def build_setup(
    scenario: str | None,
    map_id: str | None,
    first_player: str | None,
    seed: int = 0,
    size: int | None = None,
) -> Setup:
    """The setup of `match_spec`, built."""
    return build(match_spec(scenario, map_id, first_player, seed, size))


def make_agent(name: str, seed: int) -> Agent:
    """The agent `name` names (a budget allowed: `hard:positions=4000`), seeded."""
    return agent_factory(name)(seed)


# ------------------------------------------------------------------ one game


@dataclass
class Thinking:
    """How long one side's agent thought: per decision and per whole turn."""

    decisions: int = 0
    seconds: float = 0.0
    turns: list[float] = field(default_factory=list)  # seconds, one entry a turn

    def add(self, other: Thinking) -> None:
        self.decisions += other.decisions
        self.seconds += other.seconds
        self.turns.extend(other.turns)


def timed(agent: Agent, seat: str, thinking: dict[str, Thinking], last: list[object]) -> Decide:
    """`agent`'s decisions for `seat`, each timed into `thinking` (per decision and per turn:
    the decisions of one turn add up)."""

    def decide(handed: Turn) -> Choice:
        t0 = time.perf_counter()
        choice = agent.decide(handed)
        spent = time.perf_counter() - t0
        t = thinking.setdefault(seat, Thinking())
        t.decisions += 1
        t.seconds += spent
        turn = (seat, handed.turns)
        if last and last[0] == turn and t.turns:
            t.turns[-1] += spent
        else:
            t.turns.append(spent)
        last[:] = [turn]
        return choice

    return decide


def play(
    session: Session,
    agents: Mapping[str, Agent],
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    thinking: dict[str, Thinking] | None = None,
) -> bool:
    """Play `session` on with an agent for each side, to the end or past the round limit
    (then True). Each answer is checked against the legal choices by the session;
    `thinking` (by side) adds up how long the agents took."""
    record: dict[str, Thinking] = thinking if thinking is not None else {}
    last: list[object] = []
    deciders = {seat: timed(agent, seat, record, last) for seat, agent in agents.items()}
    return session.play_out(deciders, max_rounds)


@dataclass(frozen=True)
class GameSpec:
    """One game of a match: who plays which seat, who goes first, the seeds."""

    index: int
    a: str
    b: str
    a_seat: int  # A plays this seat (index into the setup's seats); B plays all the others
    first_seat: int
    seed: int  # the dice and the agents
    setup_seed: int  # the teams and map a scenario draws: one draw for a block of games
    scenario: str | None
    map_id: str | None
    max_rounds: int
    size: int | None = None
    engine: str | None = None  # the rules engine's name (None: the fastest built)
    catalog: Catalog = SHIPPED  # the content its setup is drawn from


@dataclass
class GameResult:
    index: int
    a_side: str
    winner: str | None  # a side, or None when stopped at the round limit
    rounds: int
    thinking: dict[str, Thinking] = field(default_factory=dict)  # by agent: "a", "b"
    log: list[str] = field(default_factory=list)  # every choice, chance outcomes included
    # by agent, "a" and "b": its name at the end of the game where it is not the name it was
    # given (a level that decided by rule of thumb: the kernel could not play the game)
    renamed: dict[str, str] = field(default_factory=dict)

    @property
    def outcome(self) -> str:
        """'a', 'b' or 'draw'."""
        if self.winner is None:
            return "draw"
        return "a" if self.winner == self.a_side else "b"


def play_game(spec: GameSpec) -> GameResult:
    """Play one game of a match to the end or to the round limit."""
    catalog = spec.catalog
    probe = match_spec(spec.scenario, spec.map_id, None, spec.setup_seed, spec.size, catalog)
    seats = probe.sides
    first = seats[spec.first_seat % len(seats)]
    drawn = match_spec(spec.scenario, spec.map_id, first, spec.setup_seed, spec.size, catalog)
    setup = build(drawn, catalog=catalog)
    session = Session(setup, spec.seed, engine=named(spec.engine))
    a_side = seats[spec.a_seat % len(seats)]
    agents = {
        side: make_agent(spec.a, spec.seed * 8 + 1)
        if side == a_side
        else make_agent(spec.b, spec.seed * 8 + 2 + i)
        for i, side in enumerate(seats)
    }
    by_side: dict[str, Thinking] = {}
    stopped = play(session, agents, spec.max_rounds, by_side)
    state = session.state
    thinking = {"a": Thinking(), "b": Thinking()}
    for side, t in by_side.items():
        thinking["a" if side == a_side else "b"].add(t)
    renamed = {}
    for side, agent in agents.items():
        who, given = ("a", spec.a) if side == a_side else ("b", spec.b)
        if agent.name not in (given, base_name(given)):
            renamed[who] = agent.name
    return GameResult(
        spec.index,
        a_side,
        None if stopped else state.winner,
        min(state.round, spec.max_rounds),
        thinking,
        [e.choice for e in session.entries],
        renamed,
    )


# ------------------------------------------------------------------ a match


def game_specs(
    a: str,
    b: str,
    games: int,
    seed: int = 0,
    scenario: str | None = None,
    map_id: str | None = None,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    size: int | None = None,
    engine: str | None = None,
    catalog: Catalog = SHIPPED,
) -> list[GameSpec]:
    """N games with A's seat changing every game and the first player every two games; each
    block of four games shares one draw of teams and map, so that both agents play both
    sides of it, first and second."""
    return [
        GameSpec(
            index=i,
            a=a,
            b=b,
            a_seat=i % 2,
            first_seat=(i // 2) % 2,
            seed=seed * 100_003 + i,
            setup_seed=seed * 100_003 + i // 4,
            scenario=scenario,
            map_id=map_id,
            max_rounds=max_rounds,
            size=size,
            engine=engine,
            catalog=catalog,
        )
        for i in range(games)
    ]


def run_games(specs: list[GameSpec], workers: int = 1) -> Iterator[GameResult]:
    """Results in the order of the specs (one process, or a pool of `workers`)."""
    if workers <= 1 or len(specs) <= 1:
        for spec in specs:
            yield play_game(spec)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(play_game, specs, chunksize=1)


@dataclass
class MatchSummary:
    games: int
    a_wins: int
    b_wins: int
    draws: int
    a_rate: float
    ci95: tuple[float, float]
    avg_rounds: float
    thinking: dict[str, Thinking]  # by agent: "a", "b"
    # by agent, "a" and "b": the names it took in the games where it decided by rule of
    # thumb, with how many games each
    renamed: dict[str, dict[str, int]] = field(default_factory=dict)

    def as_json(self) -> dict[str, object]:
        return {
            "games": self.games,
            "a_wins": self.a_wins,
            "b_wins": self.b_wins,
            "draws": self.draws,
            "a_rate": round(self.a_rate, 4),
            "ci95": [round(self.ci95[0], 4), round(self.ci95[1], 4)],
            "avg_rounds": round(self.avg_rounds, 2),
        }

    def per_decision(self, who: str) -> float:
        t = self.thinking[who]
        return t.seconds / t.decisions if t.decisions else 0.0

    def per_turn(self, who: str) -> tuple[float, float, float]:
        """Seconds of thinking in a whole turn: mean, 95th percentile, most."""
        turns = sorted(self.thinking[who].turns)
        if not turns:
            return (0.0, 0.0, 0.0)
        p95 = turns[min(len(turns) - 1, int(0.95 * len(turns)))]
        return (sum(turns) / len(turns), p95, turns[-1])


def wilson(successes: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval of a proportion (draws count as half a success)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return (lo, hi)


def summarize(results: Iterable[GameResult]) -> MatchSummary:
    results = list(results)
    n = len(results)
    a = sum(1 for r in results if r.outcome == "a")
    b = sum(1 for r in results if r.outcome == "b")
    d = n - a - b
    score = a + d / 2
    thinking = {"a": Thinking(), "b": Thinking()}
    renamed: dict[str, dict[str, int]] = {}
    for r in results:
        for who, t in r.thinking.items():
            thinking[who].add(t)
        for who, name in r.renamed.items():
            names = renamed.setdefault(who, {})
            names[name] = names.get(name, 0) + 1
    return MatchSummary(
        n,
        a,
        b,
        d,
        score / n if n else 0.0,
        wilson(score, n),
        sum(r.rounds for r in results) / n if n else 0.0,
        thinking,
        renamed,
    )


def run_match(
    a: str,
    b: str,
    games: int,
    seed: int = 0,
    scenario: str | None = None,
    map_id: str | None = None,
    workers: int = 1,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    size: int | None = None,
    progress: Callable[[GameResult], None] | None = None,
    engine: str | None = None,
) -> MatchSummary:
    """Play a match and summarize it; checks the names and numbers first (UserError)."""
    check_match(a, b, games, workers, max_rounds)
    match_spec(scenario, map_id, None, seed, size)  # bad scenario or map: one line, no game
    specs = game_specs(a, b, games, seed, scenario, map_id, max_rounds, size, engine)
    results = []
    for result in run_games(specs, workers):
        results.append(result)
        if progress is not None:
            progress(result)
    return summarize(results)


def check_match(a: str, b: str, games: int, workers: int, max_rounds: int) -> None:
    for name in (a, b):
        agent_factory(name)  # refuses an unknown agent or a bad budget, naming it
    if games < 1:
        raise UserError(f"--games must be at least 1, not {games}")
    if workers < 1:
        raise UserError(f"--workers must be at least 1, not {workers}")
    if max_rounds < 1:
        raise UserError(f"--max-rounds must be at least 1, not {max_rounds}")

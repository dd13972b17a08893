"""Agents against agents: one game, a match of many, and its statistics.

The `funkoverse match` command is a shell around `run_match`; tests and experiments call
it directly. A game is fixed by its seed: the dice come from the game's generator, each
agent gets its own generator seeded from the game's seed, and budgets are counted in
simulations, so a match gives the same result on any machine.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from funkoverse.ai.agents import AGENTS, Agent
from funkoverse.content.setups import FIRST_GAME_MAP, first_game
from funkoverse.errors import UserError
from funkoverse.rules import engine
from funkoverse.rules.game import Game
from funkoverse.rules.state import CHANCE, Setup

DEFAULT_MAX_ROUNDS = 30
FIRST_GAME_SCENARIO = "first-knockout"


def build_setup(scenario: str | None, map_id: str | None, first_player: str | None) -> Setup:
    """The setup a match plays: the one place that turns --scenario and --map into a setup
    (to be switched to a scenario registry once the scenarios land)."""
    if scenario not in (None, FIRST_GAME_SCENARIO):
        raise UserError(f"unknown scenario '{scenario}'; known: {FIRST_GAME_SCENARIO}")
    return first_game(map_id=map_id or FIRST_GAME_MAP, first_player=first_player)


def make_agent(name: str, seed: int) -> Agent:
    try:
        factory = AGENTS[name]
    except KeyError:
        raise UserError(f"unknown agent '{name}'; known: {', '.join(AGENTS)}") from None
    return factory(seed)


@dataclass(frozen=True)
class GameSpec:
    """One game of a match: who plays which side, who goes first, the seed."""

    index: int
    a: str
    b: str
    a_side: str
    first_player: str
    seed: int
    scenario: str | None
    map_id: str | None
    max_rounds: int


@dataclass
class GameResult:
    index: int
    a_side: str
    winner: str | None  # a side, or None when stopped at the round limit
    rounds: int
    decisions: dict[str, int] = field(default_factory=dict)  # by agent: "a", "b"
    seconds: dict[str, float] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)  # every choice, chance outcomes included

    @property
    def outcome(self) -> str:
        """'a', 'b' or 'draw'."""
        if self.winner is None:
            return "draw"
        return "a" if self.winner == self.a_side else "b"


def play(
    game: Game,
    agents: Mapping[str, Agent],
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    seconds: dict[str, float] | None = None,
    decisions: dict[str, int] | None = None,
) -> bool:
    """Play `game` on with an agent for each side, chance drawn by the game's generator, to
    the end or the round limit (then True). Each answer is checked against the legal
    choices; `seconds` and `decisions` (by side) add up the agents' thinking."""
    state = game.state
    while not game.over:
        if state.round > max_rounds:
            return True
        decider = engine.decider(state)
        if decider == CHANCE:
            game.play_chance()
            continue
        assert decider is not None
        agent = agents[decider]
        choices = engine.legal_choices(state)
        t0 = time.perf_counter()
        choice = agent.choose(state, list(choices))
        if seconds is not None:
            seconds[decider] = seconds.get(decider, 0.0) + time.perf_counter() - t0
        if decisions is not None:
            decisions[decider] = decisions.get(decider, 0) + 1
        if choice not in choices:
            raise RuntimeError(f"agent {agent.name} chose '{choice}', not a legal choice")
        game.play(choice)
    return False


def play_game(spec: GameSpec) -> GameResult:
    """Play one game of a match to the end or to the round limit."""
    setup = build_setup(spec.scenario, spec.map_id, spec.first_player)
    game = Game(setup, spec.seed)
    b_side = next(s for s in game.state.seats if s != spec.a_side)
    agents = {
        spec.a_side: make_agent(spec.a, spec.seed * 2 + 1),
        b_side: make_agent(spec.b, spec.seed * 2 + 2),
    }
    seconds: dict[str, float] = {}
    decisions: dict[str, int] = {}
    stopped = play(game, agents, spec.max_rounds, seconds, decisions)
    state = game.state
    return GameResult(
        spec.index,
        spec.a_side,
        None if stopped else state.winner,
        min(state.round, spec.max_rounds),
        {"a": decisions.get(spec.a_side, 0), "b": decisions.get(b_side, 0)},
        {"a": seconds.get(spec.a_side, 0.0), "b": seconds.get(b_side, 0.0)},
        list(game.log),
    )


def game_specs(
    a: str,
    b: str,
    games: int,
    seed: int = 0,
    scenario: str | None = None,
    map_id: str | None = None,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    seats: tuple[str, str] = ("dark", "light"),
) -> list[GameSpec]:
    """N games with A's side alternating every game and the first player every two games, so
    each block of four plays every combination once."""
    return [
        GameSpec(
            i,
            a,
            b,
            seats[i % 2],
            seats[(i // 2) % 2],
            seed * 100_003 + i,
            scenario,
            map_id,
            max_rounds,
        )
        for i in range(games)
    ]


def run_games(specs: list[GameSpec], workers: int = 1) -> Iterator[GameResult]:
    """Results in the order the games finish (one process, or a pool of `workers`)."""
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
    seconds_per_decision: dict[str, float]

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
    decisions = {k: sum(r.decisions.get(k, 0) for r in results) for k in ("a", "b")}
    seconds = {k: sum(r.seconds.get(k, 0.0) for r in results) for k in ("a", "b")}
    return MatchSummary(
        n,
        a,
        b,
        d,
        score / n if n else 0.0,
        wilson(score, n),
        sum(r.rounds for r in results) / n if n else 0.0,
        {k: seconds[k] / decisions[k] if decisions[k] else 0.0 for k in ("a", "b")},
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
    progress: Callable[[GameResult], None] | None = None,
) -> MatchSummary:
    """Play a match and summarize it; checks the names and numbers first (UserError)."""
    check_match(a, b, games, workers, max_rounds)
    build_setup(scenario, map_id, None)  # a bad scenario or map: one line, before any game
    specs = game_specs(a, b, games, seed, scenario, map_id, max_rounds)
    results = []
    for result in run_games(specs, workers):
        results.append(result)
        if progress is not None:
            progress(result)
    return summarize(results)


def check_match(a: str, b: str, games: int, workers: int, max_rounds: int) -> None:
    for name in (a, b):
        if name not in AGENTS:
            raise UserError(f"unknown agent '{name}'; known: {', '.join(AGENTS)}")
    if games < 1:
        raise UserError(f"--games must be at least 1, not {games}")
    if workers < 1:
        raise UserError(f"--workers must be at least 1, not {workers}")
    if max_rounds < 1:
        raise UserError(f"--max-rounds must be at least 1, not {max_rounds}")

"""The measurements of `funkoverse bench`: random games a second per workload, the time of
single operations in a fixed mid-game Flags position, and the positions a second the `hard`
and `expert` searches value there."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from funkoverse.bench.workloads import (
    WORKLOADS,
    Played,
    flags_spec,
    midgame,
    random_game,
    session_game,
)
from funkoverse.rules import KERNEL, Engine, GameState, SetupSpec, bridge
from funkoverse.rules.core import dice
from funkoverse.rules.play import engine

POSITION_SEED = 7  # the mid-game Flags position every run measures in


def play_for(
    workload: str,
    seconds: float,
    seed: int,
    at_least: int = 1,
    on: Engine = KERNEL,
    game: Callable[[SetupSpec, int, Engine], int] = random_game,
) -> Played:
    """Random games of `workload`, one after another, until `seconds` have passed (and at
    least `at_least` games were played); game g is seeded `seed + g`."""
    spec_of = WORKLOADS[workload]
    played = Played()
    start = time.perf_counter()
    while played.games < at_least or time.perf_counter() - start < seconds:
        played.steps += game(spec_of(seed + played.games), seed + played.games, on)
        played.games += 1
    played.seconds = time.perf_counter() - start
    return played


def session_against_raw(seconds: float, seed: int, on: Engine, rounds: int = 3) -> dict[str, Any]:
    """The same random Flags games through the session API and through the engine's raw
    loop, alternated `rounds` times for `seconds` each on this one core: games a second of
    each, and the ratio of the session's to the raw loop's (1.0: the API costs nothing)."""
    per_round = []
    for r in range(rounds):
        raw = play_for("flags", seconds, seed + 1000 * r, on=on)
        api = play_for("flags", seconds, seed + 1000 * r, on=on, game=session_game)
        per_round.append(
            {
                "raw_games_per_second": round(raw.games_per_second, 2),
                "session_games_per_second": round(api.games_per_second, 2),
                "ratio": round(api.games_per_second / raw.games_per_second, 4),
            }
        )
    return {
        "engine": on.name,
        "rounds": per_round,
        "raw_games_per_second": statistics.median(r["raw_games_per_second"] for r in per_round),
        "session_games_per_second": statistics.median(
            r["session_games_per_second"] for r in per_round
        ),
        "ratio": statistics.median(r["ratio"] for r in per_round),
    }


def median_us(fn: Callable[[], object], repeat: int) -> float:
    """The median time of one call of `fn`, in microseconds."""
    samples = []
    clock = time.perf_counter
    for _ in range(repeat):
        t0 = clock()
        fn()
        samples.append(clock() - t0)
    return statistics.median(samples) * 1e6


def position() -> GameState:
    """The fixed mid-game Flags position."""
    return midgame(flags_spec(POSITION_SEED), POSITION_SEED)


def operations(state: GameState, repeat: int, on: Engine = KERNEL) -> dict[str, float]:
    """Median microseconds to list the legal choices, to check one choice's legality, to
    apply a choice (on a copy), to copy the state, and to look up the exact odds of a
    challenge (attack 3 against defense 2, the cache warm, as in play). On the kernel the
    choices are its integer codes, as an engine's actions are."""
    standard = state.setup.dice["standard"]
    attack, defense = (standard,) * 3, (standard,) * 2
    dice.win_probability(attack, defense)
    odds = median_us(lambda: dice.win_probability(attack, defense), repeat)
    pick = iter(range(10**9))
    if on is KERNEL:
        _, kernel = bridge.load(state)
        codes = kernel.legal()
        samples = []
        for i in range(repeat):
            child = kernel.copy()
            c = codes[i % len(codes)]
            t0 = time.perf_counter()
            child.apply_unchecked(c)
            samples.append(time.perf_counter() - t0)
        return {
            "legal_choices_us": median_us(kernel.legal, repeat),
            "is_legal_us": median_us(
                lambda: kernel.is_legal(codes[next(pick) % len(codes)]), repeat
            ),
            "apply_us": statistics.median(samples) * 1e6,
            "copy_us": median_us(kernel.copy, repeat),
            "odds_us": odds,
        }
    legal = engine.choices(state)
    samples = []
    for i in range(repeat):
        s = state.copy()
        c = legal[i % len(legal)]
        t0 = time.perf_counter()
        engine.apply_unchecked(s, c)
        samples.append(time.perf_counter() - t0)
    return {
        "legal_choices_us": median_us(lambda: engine.choices(state), repeat),
        "is_legal_us": median_us(
            lambda: engine.is_legal(state, legal[next(pick) % len(legal)]), repeat
        ),
        "apply_us": statistics.median(samples) * 1e6,
        "copy_us": median_us(state.copy, repeat),
        "odds_us": odds,
    }


def search(
    level: str, state: GameState, decisions: int = 3, on: Engine = KERNEL
) -> dict[str, float]:
    """Positions a second the `level` agent values over its first `decisions` decisions of
    the turn from `state` (chance outcomes drawn by the engine's odds on the way), each
    decision handed its turn as the session hands it (the position to search on included)."""
    from funkoverse.ai.agents import AGENTS
    from funkoverse.rules import CHANCE, Game, Turn

    agent = AGENTS[level](POSITION_SEED)
    game = Game.at(state.copy(), POSITION_SEED, on)
    positions = 0
    seconds = 0.0
    made = 0
    while made < decisions and not game.over:
        if game.decider == CHANCE:
            game.play_chance()
            continue
        seat = game.decider
        assert seat is not None
        turn = Turn(seat, 0, game.legal(), view=game.snapshot(), unseen=())
        turn._position = game.position.fork()
        turn.engine = game.engine
        t0 = time.perf_counter()
        choice = agent.decide(turn)
        seconds += time.perf_counter() - t0
        positions += getattr(agent, "positions", 0)
        made += 1
        game.play(choice)
    return {
        "positions": positions,
        "seconds": seconds,
        "positions_per_second": positions / seconds if seconds else 0.0,
    }


def run(
    seconds: float, repeat: int, seed: int, searches: bool = True, on: Engine = KERNEL
) -> dict[str, Any]:
    """Every measurement of the engine, as one JSON-ready object."""
    result: dict[str, Any] = {"engine": on.name, "workloads": {}}
    for name in WORKLOADS:
        played = play_for(name, seconds, seed, on=on)
        result["workloads"][name] = {
            "games": played.games,
            "steps": played.steps,
            "seconds": round(played.seconds, 2),
            "steps_per_second": round(played.steps_per_second),
            "games_per_second": round(played.games_per_second, 2),
            "steps_per_game": round(played.steps / played.games),
        }
    state = position()
    result["position"] = {
        "workload": "flags",
        "seed": POSITION_SEED,
        "round": state.round,
        "choices": len(engine.choices(state)),
    }
    result["operations_us"] = {k: round(v, 2) for k, v in operations(state, repeat, on).items()}
    result["session"] = session_against_raw(seconds / 2, seed, on)
    if searches:
        search("hard", state, 1, on)  # the setup's tables made once, as in a game, not timed
        result["searches"] = {
            level: {k: round(v, 2) for k, v in search(level, state, on=on).items()}
            for level in ("hard", "expert")
        }
    return result

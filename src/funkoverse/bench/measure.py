"""The measurements of `funkoverse bench`: random games a second per workload, the time of
single operations in a fixed mid-game Flags position, and the positions a second the `hard`
and `expert` searches value there."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from funkoverse.bench.workloads import WORKLOADS, Played, flags_spec, midgame, random_game
from funkoverse.rules import compiled, dice, engine
from funkoverse.rules.state import GameState

POSITION_SEED = 7  # the mid-game Flags position every run measures in


def play_for(workload: str, seconds: float, seed: int, at_least: int = 1) -> Played:
    """Random games of `workload`, one after another, until `seconds` have passed (and at
    least `at_least` games were played); game g is seeded `seed + g`."""
    spec_of = WORKLOADS[workload]
    played = Played()
    start = time.perf_counter()
    while played.games < at_least or time.perf_counter() - start < seconds:
        played.steps += random_game(spec_of(seed + played.games), seed + played.games)
        played.games += 1
    played.seconds = time.perf_counter() - start
    return played


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


def operations(state: GameState, repeat: int) -> dict[str, float]:
    """Median microseconds to list the legal choices, to check one choice's legality, to
    apply a choice (on a copy), to copy the state, and to look up the exact odds of a
    challenge (attack 3 against defense 2, the cache warm, as in play). On the kernel the
    choices are its integer codes, as an engine's actions are."""
    standard = state.setup.dice["standard"]
    attack, defense = (standard,) * 3, (standard,) * 2
    dice.win_probability(attack, defense)
    odds = median_us(lambda: dice.win_probability(attack, defense), repeat)
    pick = iter(range(10**9))
    if engine_name() == "kernel":
        _, kernel = compiled.load(state)
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


def engine_name() -> str:
    """The engine the workloads run on: "kernel" (compiled) or "python"."""
    return "kernel" if compiled.selected() else "python"


def search(level: str, state: GameState, decisions: int = 3) -> dict[str, float]:
    """Positions a second the `level` agent values over its first `decisions` decisions of
    the turn from `state` (chance outcomes drawn by the engine's odds on the way)."""
    from funkoverse.ai.agents import AGENTS
    from funkoverse.rules.game import Game
    from funkoverse.rules.state import CHANCE

    agent = AGENTS[level](POSITION_SEED)
    game = Game.at(state.copy(), POSITION_SEED)
    positions = 0
    seconds = 0.0
    made = 0
    while made < decisions and not game.over:
        if game.decider == CHANCE:
            game.play_chance()
            continue
        legal = engine.choices(game.state)
        t0 = time.perf_counter()
        choice = agent.choose(game.state, legal)
        seconds += time.perf_counter() - t0
        positions += getattr(agent, "positions", 0)
        made += 1
        game.play(choice)
    return {
        "positions": positions,
        "seconds": seconds,
        "positions_per_second": positions / seconds if seconds else 0.0,
    }


def run(seconds: float, repeat: int, seed: int, searches: bool = True) -> dict[str, Any]:
    """Every measurement of the engine, as one JSON-ready object."""
    result: dict[str, Any] = {"engine": engine_name(), "workloads": {}}
    for name in WORKLOADS:
        played = play_for(name, seconds, seed)
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
    result["operations_us"] = {k: round(v, 2) for k, v in operations(state, repeat).items()}
    if searches:
        search("hard", state, 1)  # the setup's tables made once, as in a game, not timed
        result["searches"] = {
            level: {k: round(v, 2) for k, v in search(level, state).items()}
            for level in ("hard", "expert")
        }
    return result

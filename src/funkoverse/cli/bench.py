"""`funkoverse bench`: how fast the engine answers, measured here and never asserted in tests."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from funkoverse.ai.agents import RandomAgent
from funkoverse.content.setups import build, first_game_spec
from funkoverse.errors import UserError
from funkoverse.rules import engine
from funkoverse.rules.game import Game
from funkoverse.rules.state import CHANCE, GameState, Phase, Setup


def first_game() -> Setup:
    return build(first_game_spec())


def register(sub: Any) -> None:
    p = sub.add_parser(
        "bench",
        help="benchmark the rules engine on this machine",
        description=(
            "Median time to list legal choices in a mid-game position, to apply a choice and to "
            "copy a state, and random full games per second on one core."
        ),
    )
    p.add_argument(
        "--games", type=int, default=200, help="random games to play (default: %(default)s)"
    )
    p.add_argument(
        "--repeat", type=int, default=2000, help="timings per median (default: %(default)s)"
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--server",
        action="store_true",
        help="time the game server on loopback instead: a choice to its acknowledgement "
        "(median, 99th percentile) over a scripted game, and the page's first load",
    )
    p.add_argument(
        "--choices",
        type=int,
        default=300,
        help="with --server: choices to time (default: %(default)s)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def _midgame(seed: int) -> GameState:
    """A seeded random game advanced to an action choice after a few rounds."""
    for attempt in range(100):
        game = Game(first_game(), seed + attempt)
        agent = RandomAgent(seed + attempt)
        while not game.over:
            state = game.state
            if (
                state.round >= 3
                and state.phase is Phase.ACT
                and not state.stack
                and len(engine.choices(state)) > 8
            ):
                return state.copy()
            if game.decider == CHANCE:
                game.play_chance()
            else:
                game.play(agent.choose(state, engine.choices(state)))
    raise UserError("could not reach a mid-game position to measure")


def _median_us(fn: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples) * 1e6


def run_bench(games: int, repeat: int, seed: int) -> dict[str, Any]:
    state = _midgame(seed)
    choices = engine.choices(state)
    legal_us = _median_us(lambda: engine.choices(state), repeat)
    copy_us = _median_us(state.copy, repeat)

    apply_samples = []
    for i in range(repeat):
        s = state.copy()
        c = choices[i % len(choices)]
        t0 = time.perf_counter()
        engine.apply_unchecked(s, c)
        apply_samples.append(time.perf_counter() - t0)
    apply_us = statistics.median(apply_samples) * 1e6

    decisions = 0
    t0 = time.perf_counter()
    for g in range(games):
        game = Game(first_game(), seed + g)
        agent = RandomAgent(seed + g)
        s = game.state
        while not engine.is_over(s) and s.round <= 200:
            if engine.decider(s) == CHANCE:
                choice, _ = game.sample_chance()
            else:
                choice = agent.choose(s, engine.choices(s))
            engine.apply_unchecked(s, choice)
            decisions += 1
    elapsed = time.perf_counter() - t0
    return {
        "position": {"round": state.round, "choices": len(choices)},
        "legal_choices_us": round(legal_us, 1),
        "apply_us": round(apply_us, 1),
        "copy_us": round(copy_us, 1),
        "games": games,
        "games_per_second": round(games / elapsed, 1),
        "decisions_per_second": round(decisions / elapsed),
    }


def run_server(args: argparse.Namespace) -> int:
    from funkoverse.server.bench import measure

    result = measure(args.choices, args.seed)
    if args.json:
        sys.stdout.write(json.dumps(result) + "\n")
        return 0
    load = result["first_load"]
    print(f"a choice to its acknowledgement, over {result['choices']} choices of a scripted game:")
    print(f"  median             {result['ack_median_ms']:>10.2f} ms")
    print(f"  99th percentile    {result['ack_p99_ms']:>10.2f} ms")
    print(f"  slowest            {result['ack_max_ms']:>10.2f} ms")
    print(
        f"the page's first load {load['ms']:>8.1f} ms "
        f"({load['requests']} requests, {load['kilobytes']} KiB, one after another)"
    )
    return 0


def run(args: argparse.Namespace) -> int:
    if args.server:
        return run_server(args)
    if args.games < 1 or args.repeat < 1:
        raise UserError("--games and --repeat must be at least 1")
    result = run_bench(args.games, args.repeat, args.seed)
    if args.json:
        sys.stdout.write(json.dumps(result) + "\n")
        return 0
    print(
        f"mid-game position: round {result['position']['round']}, {result['position']['choices']} legal choices"
    )
    print(f"list legal choices   {result['legal_choices_us']:>10.1f} µs (median)")
    print(f"apply a choice       {result['apply_us']:>10.1f} µs (median)")
    print(f"copy a state         {result['copy_us']:>10.1f} µs (median)")
    print(
        f"random full games    {result['games_per_second']:>10.1f} per second ({result['games']} games, one core)"
    )
    print(f"decisions            {result['decisions_per_second']:>10} per second")
    return 0

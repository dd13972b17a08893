"""`funkoverse bench`: how fast the engine and the AI answer, measured here and never asserted
in tests (the workloads are in funkoverse.bench; docs/performance.md records the figures)."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from typing import Any

from funkoverse.cli.engine import engine_of
from funkoverse.errors import UserError
from funkoverse.rules import Engine


def register(sub: Any) -> None:
    p = sub.add_parser(
        "bench",
        help="benchmark the rules engine and the AI on this machine",
        description=(
            "Random full games a second on one core (Flags on Themyscira, three a side with "
            "items; Your First Game), and in a fixed mid-game Flags position the median time "
            "to list the legal choices, to check one choice, to apply one, to copy the state "
            "and to look up exact odds, and the positions a second of the hard and expert "
            "searches. --vs-openspiel plays OpenSpiel's backgammon the same way in the same "
            "run, alternating, and prints the ratio of steps a second."
        ),
    )
    p.add_argument(
        "--seconds",
        type=float,
        default=10.0,
        help="seconds of random games per workload (default: %(default)s)",
    )
    p.add_argument(
        "--repeat", type=int, default=2000, help="timings per median (default: %(default)s)"
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--vs-openspiel",
        action="store_true",
        help="also drive OpenSpiel's backgammon (pip install -e '.[bench]'), alternating "
        "with the Flags workload, and print the ratio of steps a second",
    )
    p.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="with --vs-openspiel or --env: alternations of the two (default: %(default)s)",
    )
    p.add_argument("--no-search", action="store_true", help="skip the hard and expert searches")
    p.add_argument(
        "--env",
        action="store_true",
        help="time the RL environment instead: masked random steps a second of the PettingZoo "
        "environment (Flags on Themyscira) against PettingZoo's connect_four_v3, the same "
        "loop alternated --rounds times for --seconds each",
    )
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
    p.add_argument(
        "--load",
        action="store_true",
        help="with --server: many games at once (--games against the computer, --hot-seat "
        "games, spectators, a watcher that never reads) for --seconds, then the delay "
        "--watchers watchers of one game cause another (docs/reliability.md)",
    )
    p.add_argument("--games", type=int, default=30, help="with --load: games against the computer")
    p.add_argument("--hot-seat", type=int, default=25, help="with --load: hot-seat games")
    p.add_argument("--spectators", type=int, default=5, help="with --load: spectators")
    p.add_argument(
        "--watchers", type=int, default=500, help="with --load: watchers of one game (0: skip)"
    )
    p.add_argument(
        "--think",
        default="0.2-1.0",
        help="with --load: a seat's thinking time before each choice, in seconds, drawn "
        "from a range (default: %(default)s; 0 plays at once)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def versus_openspiel(seconds: float, rounds: int, seed: int, on: Engine) -> dict[str, Any]:
    """Flags and OpenSpiel's backgammon, alternated `rounds` times for `seconds` each, on
    this one core: each round's ratio of steps a second, and their median."""
    from funkoverse.bench import measure, openspiel

    openspiel.available()
    per_round = []
    for r in range(rounds):
        ours = measure.play_for("flags", seconds, seed + 1000 * r, on=on)
        theirs = openspiel.play_for(seconds, seed + r)
        per_round.append(
            {
                "flags_steps_per_second": round(ours.steps_per_second),
                "flags_games_per_second": round(ours.games_per_second, 2),
                "backgammon_steps_per_second": round(theirs.steps_per_second),
                "backgammon_games_per_second": round(theirs.games_per_second, 1),
                "ratio": round(ours.steps_per_second / theirs.steps_per_second, 4),
            }
        )
    return {
        "rounds": per_round,
        "ratio_median": round(statistics.median(r["ratio"] for r in per_round), 4),
    }


def _think(text: str) -> tuple[float, float]:
    try:
        low, _, high = text.partition("-")
        span = (float(low), float(high or low))
    except ValueError:
        raise UserError(f"--think {text}: seconds, or a range such as 0.2-1.0") from None
    if not 0 <= span[0] <= span[1]:
        raise UserError(f"--think {text}: a range from low to high, at least 0")
    return span


def run_load(args: argparse.Namespace) -> int:
    from funkoverse.server.load import run_load

    seconds = args.seconds if args.seconds != 10.0 else 60.0
    for name in ("games", "hot_seat", "spectators", "watchers"):
        if getattr(args, name) < 0:
            raise UserError(f"--{name.replace('_', '-')} must be 0 or more")
    result = run_load(
        seconds,
        args.games,
        args.hot_seat,
        args.spectators,
        args.watchers,
        _think(args.think),
        seed=args.seed,
    )
    if args.json:
        sys.stdout.write(json.dumps(result) + "\n")
        return 0
    g = result["games"]
    print(
        f"{g['vs_ai']} games against the computer, {g['hot_seat']} hot-seat, {g['spectators']} "
        f"spectators and a watcher that never reads, for {result['seconds']:g} s "
        f"(thinking {result['think_s'][0]:g}-{result['think_s'][1]:g} s a choice):"
    )
    print(f"  acknowledged       {result['acknowledged']:>10}")
    print(f"  median             {result['ack_median_ms']:>10.1f} ms")
    print(f"  99th percentile    {result['ack_p99_ms']:>10.1f} ms")
    print(f"  slowest            {result['ack_max_ms']:>10.1f} ms")
    print(f"  errors             {result['errors']:>10}")
    print(f"  acks not in the log{result['disagreeing_acks']:>10}")
    print(f"  stuck watcher dropped: {'yes' if result['stuck_watcher_dropped'] else 'no'}")
    w = result["watchers"]
    if w:
        print(
            f"another game's acknowledgements beside {w['watchers']} watchers of a busy game: "
            f"p99 {w['alone']['ack_p99_ms']:.1f} ms alone, {w['beside']['ack_p99_ms']:.1f} ms "
            f"beside them ({w['p99_delay_ms']:+.1f} ms)"
        )
    return 0 if not result["errors"] and not result["disagreeing_acks"] else 1


def run_env(args: argparse.Namespace) -> int:
    from funkoverse.bench.environment import versus_connect_four
    from funkoverse.env.aec import env

    name = engine_of(args).name
    result = versus_connect_four(args.seconds, args.rounds, args.seed, lambda: env(engine=name))
    result["engine"] = name
    if args.json:
        sys.stdout.write(json.dumps(result) + "\n")
        return 0
    print(
        f"the PettingZoo environment (Flags on Themyscira, on the {name} engine) against "
        "connect_four_v3, masked random steps, alternated on this core:"
    )
    for i, r in enumerate(result["rounds"], 1):
        print(
            f"  round {i}: funkoverse {r['funkoverse_steps_per_second']:>7} steps/s, "
            f"connect_four {r['connect_four_steps_per_second']:>7} steps/s, "
            f"ratio {r['ratio']:.3f}"
        )
    print(f"  median ratio {result['ratio_median']:.3f} (1.0: as fast)")
    return 0


def run_server(args: argparse.Namespace) -> int:
    if args.load:
        return run_load(args)
    from funkoverse.server.bench import ai_decisions, measure

    result = measure(args.choices, args.seed)
    result["ai_decisions"] = ai_decisions(args.seed, engine=engine_of(args).name)
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
    ai = result["ai_decisions"]
    print(
        f"the computer's decisions ({ai['level']}, on the {ai['engine']} engine) in one long "
        "game, as the server asks its worker:"
    )
    for at, found in ai["versions"].items():
        print(
            f"  at version {at:>5}: median {found['median_ms']:>7.2f} ms, slowest "
            f"{found['slowest_ms']:>7.2f} ms over {found['decisions']} decisions "
            f"(the worker's first sight of the game {found['first_sight_ms']:.1f} ms)"
        )
    return 0


def run(args: argparse.Namespace) -> int:
    if args.server:
        return run_server(args)
    if args.seconds <= 0 or args.repeat < 1 or args.rounds < 1:
        raise UserError("--seconds must be above 0, --repeat and --rounds at least 1")
    if args.env:
        return run_env(args)
    from funkoverse.bench import measure

    if args.vs_openspiel:
        from funkoverse.bench import openspiel

        openspiel.available()
    on = engine_of(args)
    result = measure.run(args.seconds, args.repeat, args.seed, searches=not args.no_search, on=on)
    if args.vs_openspiel:
        result["vs_openspiel"] = versus_openspiel(args.seconds, args.rounds, args.seed, on)
    if args.json:
        sys.stdout.write(json.dumps(result) + "\n")
        return 0
    engine = "the compiled kernel" if result["engine"] == "kernel" else "the Python engine"
    print(
        f"random full games on {engine}, one core (uniformly random legal choices, each checked):"
    )
    for name, w in result["workloads"].items():
        print(
            f"  {name:<11} {w['steps_per_second']:>8} steps/s  {w['games_per_second']:>7.2f} "
            f"games/s  {w['steps_per_game']:>5} steps a game  ({w['games']} games)"
        )
    pos = result["position"]
    print(
        f"mid-game Flags position (seed {pos['seed']}, round {pos['round']}, "
        f"{pos['choices']} legal choices), medians:"
    )
    ops = result["operations_us"]
    for key, label in (
        ("legal_choices_us", "list the legal choices"),
        ("is_legal_us", "check one choice"),
        ("apply_us", "apply a choice"),
        ("copy_us", "copy the state"),
        ("odds_us", "exact odds of a challenge"),
    ):
        print(f"  {label:<26} {ops[key]:>9.2f} µs")
    for level, found in result.get("searches", {}).items():
        print(
            f"  {level} search {found['positions_per_second']:>15.0f} positions/s "
            f"({found['positions']} positions in {found['seconds']:.2f} s)"
        )
    versus = result.get("vs_openspiel")
    if versus:
        print("against OpenSpiel backgammon (C++), the same loop, alternated on this core:")
        for i, r in enumerate(versus["rounds"], 1):
            print(
                f"  round {i}: Flags {r['flags_steps_per_second']:>7} steps/s, backgammon "
                f"{r['backgammon_steps_per_second']:>7} steps/s, ratio {r['ratio']:.3f}"
            )
        print(f"  median ratio {versus['ratio_median']:.3f} (1.0: as fast)")
    return 0

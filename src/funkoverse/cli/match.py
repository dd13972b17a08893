"""`funkoverse match`: agent against agent over many games, with the win rate and its interval."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from funkoverse.ai.agents import AGENTS
from funkoverse.ai.arena import (
    DEFAULT_MAX_ROUNDS,
    GameResult,
    MatchSummary,
    check_match,
    game_specs,
    match_spec,
    run_games,
    summarize,
)
from funkoverse.cli.engine import engine_of
from funkoverse.cli.fancontent import add_content_option, content_catalog


def register(sub: Any) -> None:
    names = ", ".join(AGENTS)
    p = sub.add_parser(
        "match",
        help="play agents against each other and report the win rate",
        description=(
            "Play N games of agent A against agent B, A's side alternating every game and the "
            "first player every two games. Reports wins, draws (games stopped at the round "
            "limit), A's win rate (a draw counts half) with its 95% Wilson interval, and the "
            f"average game length. Agents: {names}; hard, expert and expectimax take a budget of "
            "positions a turn (hard:positions=4000) and other search settings "
            "(expert:positions=8000,width=2x1: docs/ai.md). A level whose game the compiled "
            "kernel cannot play decides by rule of thumb (the simple agent), and its name "
            "says so."
        ),
    )
    p.add_argument("--a", required=True, metavar="AGENT", help="the agent whose rate is reported")
    p.add_argument("--b", required=True, metavar="AGENT", help="its opponent")
    p.add_argument("--games", type=int, default=100, help="games to play (default: %(default)s)")
    p.add_argument("--scenario", default=None, help="scenario id (default: the first game)")
    p.add_argument("--map", default=None, help="map id or map file (default: the first game's)")
    p.add_argument(
        "--size",
        type=int,
        default=None,
        help="characters a side with --scenario: 2 or 3 (default: drawn from the seed)",
    )
    p.add_argument("--seed", type=int, default=0, help="fixes every game of the match")
    p.add_argument(
        "--workers", type=int, default=1, help="processes to play in (default: %(default)s)"
    )
    p.add_argument(
        "--max-rounds",
        type=int,
        default=DEFAULT_MAX_ROUNDS,
        help="a game still going after this many rounds is a draw (default: %(default)s)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_content_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    catalog = content_catalog(args)
    check_match(args.a, args.b, args.games, args.workers, args.max_rounds)
    match_spec(args.scenario, args.map, None, args.seed, args.size, catalog)  # bad input: one line
    specs = game_specs(
        args.a,
        args.b,
        args.games,
        args.seed,
        args.scenario,
        args.map,
        args.max_rounds,
        args.size,
        engine_of(args).name,
        catalog,
    )
    results: list[GameResult] = []
    if sys.stderr.isatty() and args.games > 1:
        from rich.progress import Progress

        with Progress(transient=True, console=_stderr_console()) as progress:
            task = progress.add_task(f"{args.a} vs {args.b}", total=args.games)
            for result in run_games(specs, args.workers):
                results.append(result)
                progress.advance(task)
    else:
        results.extend(run_games(specs, args.workers))
    summary = summarize(results)
    if args.json:
        sys.stdout.write(json.dumps(summary.as_json()) + "\n")
    else:
        _print(args, summary)
    return 0


def _stderr_console() -> Any:
    from rich.console import Console

    return Console(stderr=True)


def _print(args: argparse.Namespace, s: MatchSummary) -> None:
    lo, hi = s.ci95
    print(f"{args.a} (A) against {args.b} (B), {s.games} games")
    print(f"  A wins  {s.a_wins:>6}")
    print(f"  B wins  {s.b_wins:>6}")
    print(f"  draws   {s.draws:>6}  (stopped after {args.max_rounds} rounds)")
    print(f"  A's win rate {s.a_rate * 100:.1f}%  (95% CI {lo * 100:.1f}%-{hi * 100:.1f}%)")
    print(f"  average length {s.avg_rounds:.1f} rounds")
    for who, name in (("a", args.a), ("b", args.b)):
        for renamed, games in s.renamed.get(who, {}).items():
            print(f"  {name} ({who.upper()}) played as {renamed} in {games} of the games")
    for who, name in (("a", args.a), ("b", args.b)):
        mean, p95, most = s.per_turn(who)
        print(
            f"  {name} ({who.upper()}) thinks {s.per_decision(who) * 1000:.1f} ms a decision, "
            f"{mean:.2f} s a turn (95% of turns under {p95:.2f} s, longest {most:.2f} s)"
        )

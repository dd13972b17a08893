"""`funkoverse simulate`: every matchup of a roster played many times, into a results store."""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
from collections.abc import Iterator
from typing import Any

from funkoverse.ai.agents import AGENTS
from funkoverse.cli.engine import engine_of
from funkoverse.cli.fancontent import add_content_option, content_catalog
from funkoverse.errors import UserError


def register(sub: Any) -> None:
    p = sub.add_parser(
        "simulate",
        help="play every matchup of a roster many times into a results store",
        description=(
            "Play every matchup of teams made from a roster (every pair of teams with no "
            "character in common) on each scenario and map, GAMES games each, team A's seat "
            "changing every game and the first player every two games. Each game's seed comes "
            "from --seed, its matchup and its index, so a run is the same on any backend and "
            "any single game replays from the store. Results are stored as games finish; run "
            "the same command again after an interruption and it plays only what is missing. "
            f"Agents: {', '.join(AGENTS)} (with a budget: hard:positions=4000)."
        ),
    )
    p.add_argument(
        "--roster",
        default="all",
        help="character ids, comma separated, or 'all' (default: %(default)s)",
    )
    p.add_argument(
        "--focus",
        default="",
        help="only the matchups where a team has one of these characters or items (comma "
        "separated), that team as team A: a card against every team",
    )
    p.add_argument("--size", type=int, default=2, help="characters a side (default: %(default)s)")
    p.add_argument(
        "--items",
        default="",
        help="item ids, comma separated, or 'all': each team once with each item (default: none)",
    )
    p.add_argument(
        "--scenario", default="flags", help="scenario ids, comma separated (default: %(default)s)"
    )
    p.add_argument(
        "--map", default="", help="map ids, comma separated (default: each scenario's first map)"
    )
    p.add_argument("--agent", default="greedy", help="both sides' agent (default: %(default)s)")
    p.add_argument(
        "--agent-a",
        default=None,
        help="team A's agent (default: --agent); with two agents, every pair of teams is also "
        "played the other way round, so that no team's figures are its agent's",
    )
    p.add_argument("--agent-b", default=None, help="team B's agent (default: --agent)")
    p.add_argument(
        "--games", type=int, default=4, help="games of each matchup (default: %(default)s)"
    )
    p.add_argument(
        "--seed",
        type=int,
        default=0,
        help="the master seed, part of the plan: a store holds one (default: %(default)s)",
    )
    p.add_argument(
        "--max-rounds",
        type=int,
        default=30,
        help="a game still going after this many rounds is a draw (default: %(default)s)",
    )
    p.add_argument(
        "--bar",
        action="append",
        default=[],
        metavar="BAR",
        help="restricted play: ability:ID, item:ID or action:NAME, barred to both sides, or to "
        "one with a= or b= (a=ability:savage-hunger); may be given more than once",
    )
    add_content_option(p)
    p.add_argument("--out", default="results.db", help="the results store (default: %(default)s)")
    p.add_argument("--backend", default="local", choices=("local", "ray"))
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        help="processes (local) or CPUs of the local Ray instance (default: %(default)s)",
    )
    p.add_argument("--address", default=None, help="with --backend ray: an existing Ray cluster")
    p.add_argument("--dry-run", action="store_true", help="print the plan's size and stop")
    p.add_argument("--json", action="store_true", help="print one JSON object at the end")
    p.set_defaults(func=run)


class Stopped(KeyboardInterrupt):
    """A stop asked for with a signal (SIGTERM): handled as Ctrl-C is."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def _stop_on(signum: int) -> Iterator[None]:
    """Within the block, `signum` stops the run as Ctrl-C does: in-flight games are
    dropped, the workers stopped, and what is stored stays."""

    def stop(number: int, frame: object) -> None:
        raise Stopped(number)

    before = signal.signal(signum, stop)
    try:
        yield
    finally:
        signal.signal(signum, before)


def _two_agents(found: Any) -> bool:
    return any(m.agent_a != m.agent_b for m in found)


def _list(text: str) -> list[str]:
    return [w.strip() for w in text.split(",") if w.strip()]


def run(args: argparse.Namespace) -> int:
    from funkoverse.lab.bars import parse_bar
    from funkoverse.lab.plan import matchups, plan
    from funkoverse.lab.run import check_backend
    from funkoverse.lab.run import run as run_plan
    from funkoverse.lab.store import Store

    catalog = content_catalog(args)
    content = list(catalog.folders)
    if args.backend == "local" and args.address:
        raise UserError("--address is for --backend ray")
    items = _list(args.items)
    if items == ["all"]:
        items = sorted(i for i, card in catalog.items.items() if card.box != "house-made")
    roster: list[str] | str = "all" if args.roster.strip() == "all" else _list(args.roster)
    found = matchups(
        roster,
        args.size,
        _list(args.scenario),
        _list(args.map),
        args.agent_a or args.agent,
        args.agent_b or args.agent,
        items,
        [parse_bar(b) for b in args.bar],
        args.max_rounds,
        _list(args.focus),
        catalog,
    )
    tasks = plan(found, args.games, args.seed, content)
    both = " (each pair of teams both ways: team A with each agent)" if _two_agents(found) else ""
    if args.dry_run:
        print(f"{len(found)} matchups{both}, {len(tasks)} games")
        return 0
    check_backend(args.backend, args.workers, args.address)  # before the store is made
    with Store(args.out) as store:
        store.check_plan(tasks)
        store.set_meta("last_run", {"argv": sys.argv[1:], "seed": args.seed})
        try:
            with _stop_on(signal.SIGTERM):
                stats = run_plan(
                    tasks,
                    store,
                    workers=args.workers,
                    backend=args.backend,
                    address=args.address,
                    progress="bar" if sys.stderr.isatty() and not args.json else "lines",
                    engine=engine_of(args).name,
                )
        except KeyboardInterrupt as stop:
            sys.stderr.write(
                f"funkoverse simulate: interrupted; {store.count()} games stored in {args.out}; "
                "run the same command again to resume\n"
            )
            return 128 + (stop.signum if isinstance(stop, Stopped) else signal.SIGINT)
        total = store.count()
    summary = {
        "matchups": len(found),
        "planned": stats.planned,
        "stored_before": stats.already,
        "played": stats.played,
        "seconds": round(stats.seconds, 2),
        "startup_seconds": round(stats.startup, 2),
        "games_per_second": round(stats.rate, 3),
        "store": args.out,
        "games_in_store": total,
    }
    if args.json:
        sys.stdout.write(json.dumps(summary) + "\n")
    else:
        print(
            f"{len(found)} matchups{both}, {stats.planned} games planned: {stats.played} played now "
            f"({stats.already} stored before) in {stats.seconds:.1f} s, "
            f"{stats.rate:.2f} games/s; {total} games in {args.out}"
        )
    return 0

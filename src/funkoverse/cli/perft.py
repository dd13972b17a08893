"""`funkoverse perft`: count the legal choice sequences from named positions."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from funkoverse.ai.agents import RandomAgent
from funkoverse.content.setups import SetupRequest, build, draw_spec, first_game_spec
from funkoverse.errors import UserError
from funkoverse.rules import PYTHON, GameState, Session, bridge
from funkoverse.rules.perft import compiled_divide, compiled_perft, divide, perft

# name: (what is asked, the seed, entries played by random agents to get there, what it is)
POSITIONS: dict[str, tuple[SetupRequest | None, int, int, str]] = {
    "first-game-start": (None, 1, 5, "basic characters, knock-out: the first turn of round 1"),
    "first-game-midgame": (None, 2, 40, "basic characters, knock-out: a few rounds in"),
    "flags-setup": (SetupRequest(scenario="flags", size=3), 4, 1, "Flags, three a side: placing"),
    "flags-midgame": (SetupRequest(scenario="flags", size=3), 4, 90, "Flags, three a side, items"),
    "leaders-secret": (SetupRequest(scenario="leaders", size=2), 3, 1, "Leaders: the secret picks"),
    "draft": (SetupRequest(scenario="flags", draft=3), 5, 1, "a secret draft of three and an item"),
    "control-midgame": (SetupRequest(scenario="control", size=3), 6, 70, "Control, three a side"),
    "free-for-all": (SetupRequest(scenario="brawl", players=4), 7, 60, "four players, each alone"),
    "ultimate": (SetupRequest(scenario="titans"), 8, 50, "one ultimate character against three"),
}


def register(sub: Any) -> None:
    p = sub.add_parser(
        "perft",
        help="count the legal choice sequences from named positions",
        description=(
            "Count every sequence of legal choices (chance outcomes included) to a depth from "
            "named positions, as chess engines count perft: the counts are pinned by the tests, "
            f"so a change to the engine that changes them is seen. Positions: {', '.join(POSITIONS)}."
        ),
    )
    p.add_argument("--position", default="all", help="a position's name, or all (default)")
    p.add_argument("--depth", type=int, default=3, help="choices deep (default: %(default)s)")
    p.add_argument("--divide", action="store_true", help="the count split by the first choice")
    p.add_argument(
        "--engine",
        choices=("kernel", "python"),
        default=None,
        help="count on the compiled kernel or the Python engine (default: the kernel where "
        "it is built and plays the position)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def position(name: str) -> GameState:
    """The named position: its game played on by random agents for the entries it names."""
    if name not in POSITIONS:
        raise UserError(f"unknown position '{name}'; the positions are {', '.join(POSITIONS)}")
    request, seed, entries, _ = POSITIONS[name]
    spec = first_game_spec() if request is None else draw_spec(request, seed)
    session = Session(build(spec), seed, engine=PYTHON)
    agent = RandomAgent(seed)
    while not session.over and session.version < entries:
        seat = session.decider
        assert seat is not None
        session.play(seat, agent.decide(session.turn(seat)))
    return session.state


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.depth <= 8:
        raise UserError("--depth must be from 0 to 8")
    names = list(POSITIONS) if args.position == "all" else [args.position]
    found: dict[str, Any] = {}
    if args.engine == "kernel" and not bridge.built():
        raise UserError("--engine kernel: the compiled kernel is not built here (pip install -e .)")
    for name in names:
        state = position(name)
        engine = args.engine or ("kernel" if bridge.built() else "python")
        if engine == "kernel" and bridge.unsupported(state) is not None:
            if args.engine == "kernel":
                raise UserError(f"--engine kernel: {name}: {bridge.unsupported(state)}")
            engine = "python"
        t0 = time.perf_counter()
        if args.divide:
            split = (compiled_divide if engine == "kernel" else divide)(state, args.depth)
            found[name] = {"count": sum(split.values()), "divide": split}
        else:
            count = (compiled_perft if engine == "kernel" else perft)(state, args.depth)
            found[name] = {"count": count}
        found[name]["seconds"] = round(time.perf_counter() - t0, 3)
        found[name]["engine"] = engine
    if args.json:
        sys.stdout.write(json.dumps({"depth": args.depth, "positions": found}) + "\n")
        return 0
    for name, result in found.items():
        print(
            f"{name:<20} depth {args.depth}: {result['count']:>12,}  ({result['seconds']:.2f} s, "
            f"{result['engine']})  {POSITIONS[name][3]}"
        )
        for choice, count in result.get("divide", {}).items():
            print(f"    {choice:<40} {count:>10,}")
    return 0

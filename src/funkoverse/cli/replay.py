"""`funkoverse replay FILE`: step through a saved game in the terminal, or print its summary."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from funkoverse.cli.engine import engine_of
from funkoverse.cli.gamefile import load_game
from funkoverse.cli.terminal import piece_labels, sides_panel
from funkoverse.rules import UNDO, Event, Game, GameState, Session
from funkoverse.rules.core.events import line
from funkoverse.rules.core.world import display_names
from funkoverse.text.board import render_board

KEYS = "Enter or n: next · b: back · r N: round N · g N: entry N · e: the end · q: quit"


def register(sub: Any) -> None:
    p = sub.add_parser(
        "replay",
        help="step through a saved game (from `play --save`)",
        description=(
            "Step through a game saved with `funkoverse play --save FILE`: next, back, jump to a "
            f"round or an entry. {KEYS}. --json prints the game's summary instead."
        ),
    )
    p.add_argument("file", metavar="FILE", help="a game file written by `funkoverse play --save`")
    p.add_argument("--json", action="store_true", help="print the final summary as one JSON object")
    p.set_defaults(func=run)


def positions(session: Session) -> list[tuple[GameState, list[Event], str]]:
    """The position after each live entry of the log, with that entry's events and its id:
    index 0 is the start."""
    setup = session.setup
    game = Game(setup, session.seed, session.engine)
    out: list[tuple[GameState, list[Event], str]] = [(game.state.copy(), [], "")]
    for entry in session.entries:
        if entry.kind == UNDO or entry.undone:
            continue
        events = game.replay_one(entry.choice)
        out.append((game.state.copy(), events, entry.choice))
    return out


def summary(session: Session) -> dict[str, Any]:
    state = session.state
    spec = state.setup.spec
    return {
        "spec": spec.to_json() if spec is not None else None,
        "seed": session.seed,
        "entries": session.version,
        "over": session.over,
        "winner": state.winner,
        "rounds": state.round,
        "turns": state.turns,
        "points": {side: state.sides[side].points for side in state.seats},
        "points_to_win": state.setup.scenario.points_to_win(state),
    }


def run(args: argparse.Namespace, read: Callable[[str], str] = input) -> int:
    session = load_game(Path(args.file), engine_of(args))
    if args.json:
        sys.stdout.write(json.dumps(summary(session)) + "\n")
        return 0
    steps = positions(session)
    console = Console(highlight=False)
    at = 0
    last = len(steps) - 1
    while True:
        show(console, steps, at, last)
        try:
            answer = read(f"entry {at} of {last} ({KEYS}): ").strip().lower()
        except EOFError:
            return 0
        if answer in ("", "n", "next"):
            at = min(last, at + 1)
        elif answer in ("b", "back"):
            at = max(0, at - 1)
        elif answer in ("e", "end"):
            at = last
        elif answer in ("q", "quit"):
            return 0
        elif answer.startswith(("r", "g")) and answer[1:].strip().isdigit():
            n = int(answer[1:].strip())
            if answer[0] == "g":
                at = max(0, min(last, n))
            else:
                found = next((i for i, (s, _, _) in enumerate(steps) if s.round >= n), None)
                if found is None:
                    console.print(f"  the game has no round {n}")
                else:
                    at = found
        else:
            console.print(f"  '{answer}': {KEYS}")


def show(
    console: Console, steps: list[tuple[GameState, list[Event], str]], at: int, last: int
) -> None:
    state, events, choice = steps[at]
    names = display_names(state)
    when = f"Round {state.round}" if state.round else "Setup"
    console.rule(f"{when} · entry {at} of {last}" + (f" · {choice}" if choice else " · the start"))
    console.print(
        render_board(
            state.board,
            state.on_map(),
            piece_labels(state),
            point_setup=state.setup.scenario.point_markers,
        )
    )
    console.print(sides_panel(state))
    for event in events:
        console.print(Text("  " + line(event, names), style="dim"))
    if at == last and state.winner is not None:
        console.print(Text(f"{state.winner} wins.", style="bold"))

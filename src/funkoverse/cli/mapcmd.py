"""`funkoverse map show FILE_OR_ID [--position POSITION.json]`: draw a map in the terminal."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from funkoverse.cli.query import QueryError, parse_pieces
from funkoverse.content.maps import load_map
from funkoverse.errors import UserError
from funkoverse.rules import Board
from funkoverse.rules.core.pieces import KNOCKABLE_KINDS
from funkoverse.text.board import legend, render_board, side_color


def register(sub: Any) -> None:
    p = sub.add_parser("map", help="look at maps", description="Look at maps.")
    maps = p.add_subparsers(dest="map_command", metavar="SUBCOMMAND")
    maps.required = True
    show = maps.add_parser(
        "show",
        help="draw a map in the terminal",
        description="Draw a map: walls, posts, blocked squares, starting areas, point "
        "marker setup squares, obscured terrain, and pieces from a position.",
    )
    show.add_argument("map", metavar="FILE_OR_ID", help="a shipped map's id or a map file")
    show.add_argument(
        "--position",
        metavar="POSITION.json",
        help="pieces to draw: a JSON list of pieces as in `funkoverse query` (or an object "
        "with a 'pieces' list); '-' reads standard input",
    )
    show.set_defaults(func=run)


def read_position(board: Board, source: str) -> list[Any]:
    """The pieces of a position file (or '-' for standard input), checked as `query` does."""
    name = "<stdin>" if source == "-" else source
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"{name}: no such position file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(f"{name}: cannot read: {e}") from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise UserError(f"{name}: malformed JSON: {str(e).splitlines()[0]}") from None
    if isinstance(data, dict):
        if "pieces" not in data:
            raise UserError(f"{name}: expected a list of pieces or an object with 'pieces'")
        data, fld = data["pieces"], "pieces"
    else:
        fld = "pieces"
    try:
        return list(parse_pieces(board, data, fld))
    except QueryError as e:
        raise UserError(f"{name}: {e}") from None


def run(args: argparse.Namespace) -> int:
    board = load_map(args.map)
    pieces = read_position(board, args.position) if args.position else []
    console = Console(highlight=False)
    title = Text()
    title.append(board.name, style="bold")
    details = [d for d in (board.box, f"{board.width}x{board.height}") if d]
    title.append(f"  ({', '.join(details)})")
    console.print(title, soft_wrap=True)
    if board.note:
        console.print(Text(board.note, style="italic"))
    console.print()
    console.print(render_board(board, pieces), soft_wrap=True)
    console.print()
    console.print(legend(board), soft_wrap=True)
    if pieces:
        console.print()
        for p in pieces:
            line = Text("  ")
            line.append(p.id, style=f"bold {side_color(p.side)}")
            where = board.label(p.square) if p.square is not None else "off the map"
            state = "" if p.kind not in KNOCKABLE_KINDS else ", standing"
            if not p.standing:
                state = ", knocked down"
            extra = f", defense {p.defense}" if p.defense is not None else ""
            line.append(f"  {p.side or '-'} {p.kind.value} at {where}{state}{extra}")
            console.print(line, soft_wrap=True)
    return 0

"""The kernel's tables of a map (steps, adjacency, distances, sight), built once per map."""

from __future__ import annotations

from typing import Any

from funkoverse.rules.bridge.numbering import _kernel
from funkoverse.rules.core.board import Board
from funkoverse.rules.core.errors import Unsupported

# --------------------------------------------------------------------------- boards

_BOARDS: dict[int, tuple[Board, Any]] = {}


def board_tables(board: Board) -> Any:
    """The kernel's tables of a map (steps, adjacency, distances, sight), built once."""
    found = _BOARDS.get(id(board))
    if found is not None and found[0] is board:
        return found[1]
    if board.width * board.height > 256:
        raise Unsupported(
            f"the map has {board.width * board.height} squares; the kernel plays at most 256"
        )
    kb = _kernel.Board(
        {
            "width": board.width,
            "height": board.height,
            "blocked": sorted(board.blocked),
            "obscured": sorted(board.obscured),
            "walls": sorted(board.walls),
            "points": sorted(board.obstructed_points),
            "steps": [list(board.steps(i)) for i in board.squares],
            "adjacent": [list(board.adjacent(i)) for i in board.squares],
        }
    )
    _BOARDS[id(board)] = (board, kb)
    return kb

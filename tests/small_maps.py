"""Small maps and pieces for geometry tests: maps written in the map file format
(spec/map-format.md), pieces with just what sight and movement read."""

from __future__ import annotations

from dataclasses import dataclass

from funkoverse.content.maps import parse_map_dict
from funkoverse.rules.core.board import Board
from funkoverse.rules.core.pieces import Kind

DARK, LIGHT = "dark", "light"


@dataclass(frozen=True)
class P:
    id: str
    side: str
    square: int | None
    kind: Kind = Kind.CHARACTER
    standing: bool = True
    elusive: bool = False
    defense: int | None = None


def board(*rows: str, terrain: str | None = None) -> Board:
    """A map from its grid lines (and an optional terrain layer)."""
    h = (len(rows) - 1) // 2
    w = (len(rows[0]) - 1) // 2
    data: dict[str, object] = {"width": w, "height": h, "grid": "\n".join(rows)}
    if terrain is not None:
        data["layers"] = {"terrain": terrain}
    return parse_map_dict(data, "test")


def open_board(w: int, h: int, terrain: str | None = None) -> Board:
    """A w x h map with no inner walls."""
    rows = ["+" + "-+" * w]
    for y in range(h):
        rows.append("|" + " ".join("." * w) + "|")
        rows.append("+" + "  " * (w - 1) + " +" if y < h - 1 else "+" + "-+" * w)
    return board(*rows, terrain=terrain)


def put(b: Board, pid: str, side: str, x: int, y: int, **kw: object) -> P:
    return P(pid, side, b.square(x, y), **kw)  # type: ignore[arg-type]


def xy_set(b: Board, squares: object) -> set[tuple[int, int]]:
    return {b.xy(s) for s in squares}  # type: ignore[attr-defined]

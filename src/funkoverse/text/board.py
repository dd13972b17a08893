"""Drawing a map in the terminal with rich: used by `map show`, the terminal game and the
environments' text rendering.

Each square is three characters wide between one-character wall columns:

     a   b   c
   ┌───────────┐
 1 │ A  [C] (t)│      standing piece 'A', point marker setup 'C', a token 't'
   │   ┌───┐   │
 2 │↓B │▓▓▓│ d │      'B' knocked down, a blocked square, a dark start square
   └───┴───┴───┘

Walls are box-drawing lines, a lone post is '●', blocked ('#') squares '▓',
obscured terrain '░', starting areas show their letter (lower case) on the
side's color, point marker setup squares their letter in brackets ('[A]'),
highlighted squares '○' on a tinted background. Color only adds to what the characters
already say, so the drawing reads the same without it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from rich.text import Text

from funkoverse.rules import Board
from funkoverse.rules.core.board import column_letters
from funkoverse.rules.core.pieces import BLOCKING_KINDS, PieceLike

SIDE_COLORS: dict[str, str] = {
    "dark": "bright_magenta",
    "light": "bright_yellow",
    "red": "bright_red",
    "blue": "bright_blue",
    "green": "bright_green",
    "yellow": "yellow",
}
_OTHER_COLORS = ("bright_cyan", "orange1", "spring_green1", "deep_pink2", "turquoise2", "gold3")
SIDE_BACKGROUNDS: dict[str, str] = {
    "dark": "grey23",
    "light": "grey42",
}

WALL = "bold white"
POST = "bold white"
BLOCKED = "grey50"
OBSCURED = "grey62"
EMPTY = "grey39"
POINT = "bold bright_white"
HIGHLIGHT_BG = "dark_green"

_JUNCTIONS = {
    # (up, down, left, right) -> character
    (True, True, True, True): "┼",
    (True, True, True, False): "┤",
    (True, True, False, True): "├",
    (True, False, True, True): "┴",
    (False, True, True, True): "┬",
    (True, True, False, False): "│",
    (False, False, True, True): "─",
    (False, True, False, True): "┌",
    (False, True, True, False): "┐",
    (True, False, False, True): "└",
    (True, False, True, False): "┘",
    (True, False, False, False): "╵",
    (False, True, False, False): "╷",
    (False, False, True, False): "╴",
    (False, False, False, True): "╶",
}


def side_color(side: str) -> str:
    """The color a side's pieces and starting area are drawn in."""
    if side in SIDE_COLORS:
        return SIDE_COLORS[side]
    return _OTHER_COLORS[sum(map(ord, side)) % len(_OTHER_COLORS)]


def default_labels(pieces: Sequence[PieceLike]) -> dict[str, str]:
    """Each piece's label when none is given: the first two characters of its id."""
    return {p.id: p.id[:2] for p in pieces}


def render_board(
    board: Board,
    pieces: Sequence[PieceLike],
    labels: Mapping[str, str] | None = None,
    highlight: Collection[int] = (),
    point_setup: bool = True,
) -> Text:
    """Draw `board` with `pieces` on it.

    `labels`: piece id -> the 1-2 characters drawn in its square (default: the
    id's first two characters). `highlight`: squares to tint, e.g. legal
    destinations. Rows are numbered from 1 at the top, columns lettered from
    `a` at the left, as squares are typed (`a1` is the top-left square).
    `point_setup`: mark the point markers' setup squares (not for a game without them).
    """
    if labels is None:
        labels = default_labels(pieces)
    w, h = board.width, board.height
    highlight = frozenset(highlight)
    start_side: dict[int, str] = {}
    for side, squares in board.start_areas.items():
        for sq in squares:
            start_side[sq] = side
    start_rows = board.layers.get("start")
    point_letter = {sq: letter for letter, sq in board.point_squares.items()} if point_setup else {}
    by_square: dict[int, list[PieceLike]] = {}
    for p in pieces:
        if p.square is not None:
            by_square.setdefault(p.square, []).append(p)
    rubble_edges = {r.edge for r in board.rubble if r.edge is not None}
    rubble_points = {r.point for r in board.rubble if r.point is not None}

    def vwall(cx: int, row: int) -> bool:
        """Wall on the vertical line x = cx in `row`."""
        if not 0 <= row < h:
            return False
        if cx in (0, w):
            return True
        a = row * w + cx - 1
        return board.is_wall(a, a + 1)

    def hwall(col: int, cy: int) -> bool:
        """Wall on the horizontal line y = cy in `col`."""
        if not 0 <= col < w:
            return False
        if cy in (0, h):
            return True
        a = (cy - 1) * w + col
        return board.is_wall(a, a + w)

    def blocked_around(cx: int, cy: int) -> bool:
        return all(
            0 <= x < w and 0 <= y < h and y * w + x in board.blocked
            for x, y in ((cx - 1, cy - 1), (cx, cy - 1), (cx - 1, cy), (cx, cy))
        )

    num_width = len(str(h))
    out = Text()
    # column letters over the middle of each square
    header = " " * (num_width + 1) + "".join(" " + column_letters(x).center(3) for x in range(w))
    out.append(header.rstrip(), style="bold")
    out.append("\n")
    for r in range(2 * h + 1):
        cy, y = r // 2, r // 2
        if r % 2 == 0:
            out.append(" " * (num_width + 1))
        else:
            out.append(f"{y + 1:>{num_width}} ", style="bold")
        for c in range(2 * w + 1):
            cx, x = c // 2, c // 2
            if r % 2 == 0 and c % 2 == 0:  # grid point (cx, cy)
                key = (vwall(cx, cy - 1), vwall(cx, cy), hwall(cx - 1, cy), hwall(cx, cy))
                if (cx, cy) in rubble_points:
                    out.append("░", style="bold yellow")
                elif any(key):
                    out.append(_JUNCTIONS[key], style=WALL)
                elif (cx, cy) in board.obstructed_points:
                    out.append("●", style=POST)
                elif blocked_around(cx, cy):
                    out.append("▓", style=BLOCKED)
                else:
                    out.append(" ")
            elif r % 2 == 0:  # edge between (x, cy - 1) and (x, cy)
                if hwall(x, cy):
                    out.append("───", style=WALL)
                elif (
                    0 < cy < h and (cy - 1) * w + x in board.blocked and cy * w + x in board.blocked
                ):
                    out.append("▓▓▓", style=BLOCKED)
                elif 0 < cy < h and ((cy - 1) * w + x, cy * w + x) in rubble_edges:
                    out.append("░░░", style="bold yellow")
                else:
                    out.append("   ")
            elif c % 2 == 0:  # edge between (cx - 1, y) and (cx, y)
                if vwall(cx, y):
                    out.append("│", style=WALL)
                elif 0 < cx < w and y * w + cx - 1 in board.blocked and y * w + cx in board.blocked:
                    out.append("▓", style=BLOCKED)
                elif 0 < cx < w and (y * w + cx - 1, y * w + cx) in rubble_edges:
                    out.append("░", style="bold yellow")
                else:
                    out.append(" ")
            else:  # the square (x, y)
                sq = y * w + x
                text, style = _cell(
                    sq,
                    board,
                    by_square.get(sq, ()),
                    labels,
                    start_side.get(sq),
                    start_rows[y][x] if start_rows is not None else ".",
                    point_letter.get(sq),
                    sq in highlight,
                )
                out.append(text, style=style)
        out.append("\n")
    out.rstrip()
    return out


def _cell(
    sq: int,
    board: Board,
    here: Sequence[PieceLike],
    labels: Mapping[str, str],
    start: str | None,
    start_letter: str,
    point: str | None,
    lit: bool,
) -> tuple[str, str]:
    """The three characters drawn for one square and their style."""
    if sq in board.blocked:
        return "▓▓▓", BLOCKED
    background = ""
    if lit:
        background = f" on {HIGHLIGHT_BG}"
    elif start is not None:
        background = f" on {SIDE_BACKGROUNDS.get(start, 'grey19')}"
    elif sq in board.obscured:
        background = " on grey15"
    blocking = [p for p in here if p.kind in BLOCKING_KINDS]
    others = [p for p in here if p.kind not in BLOCKING_KINDS]
    if blocking:
        p = blocking[0]
        label = labels.get(p.id, p.id[:2])[:2]
        color = side_color(p.side)
        if p.standing:
            text = label
            style = f"bold {color}"
        else:
            text = "↓" + label
            style = f"italic {color}"
        if others and len(text) < 3:
            text += "*"
        return text.center(3)[:3], style + background
    if others:
        p = others[0]
        label = labels.get(p.id, p.id[:2])[:2]
        text = f"({label})" if len(label) == 1 else label.center(3)
        return text, f"italic {side_color(p.side)}" + background
    if point is not None:
        return f"[{point}]", POINT + background
    if start is not None:
        return f" {start_letter.lower()} ", f"{side_color(start)}" + background
    if sq in board.obscured:
        return "░░░", OBSCURED + background
    if lit:
        return " ○ ", "bold bright_green" + background
    return " · ", EMPTY + background


def legend(board: Board, point_setup: bool = True) -> Text:
    """A key to the drawing's marks, for what this board has: one line for the map,
    one for starting areas, one for pieces."""
    out = Text()
    out.append("│─", style=WALL)
    out.append(" wall")
    if any(
        0 < p[0] < board.width
        and 0 < p[1] < board.height
        and not any(board.is_wall(a, b) for a, b in board.point_edges(*p))
        for p in board.obstructed_points
    ):
        out.append("  ")
        out.append("●", style=POST)
        out.append(" post")
    if board.blocked:
        out.append("  ")
        out.append("▓", style=BLOCKED)
        out.append(" blocked")
    if board.obscured:
        out.append("  ")
        out.append("░", style=OBSCURED)
        out.append(" obscured terrain")
    if board.rubble:
        out.append("  ")
        out.append("░", style="bold yellow")
        out.append(" rubble")
    if board.point_squares and point_setup:
        out.append("  ")
        out.append("[A]", style=POINT)
        out.append(" point marker setup square (empty)")
    start_rows = board.layers.get("start")
    areas = [(side, sqs) for side, sqs in board.start_areas.items() if sqs]
    if areas and start_rows is not None:
        out.append("\n")
        for n, (side, squares) in enumerate(areas):
            x, y = board.xy(squares[0])
            out.append("  " if n else "")
            out.append(start_rows[y][x].lower(), style=side_color(side))
            out.append(f" {side} starting area")
    out.append("\n")
    out.append("Ww", style="bold")
    out.append(" a standing character (its initials; P1, P2 when two share a name)  ")
    out.append("↓Ww", style="italic")
    out.append(" knocked down\n")
    out.append("(A)", style="italic")
    out.append(" a point marker on the map  ")
    out.append("Fd Cd", style="italic")
    out.append(" a flag, a control marker (d: dark, l: light)  ")
    out.append("Td", style="italic")
    out.append(" a token\n")
    out.append("Ww*", style="bold")
    out.append(" a character on a token or marker  ")
    out.append(" ○ ", style="bold bright_green")
    out.append(" a square the choices reach")
    return out

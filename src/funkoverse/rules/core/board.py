"""The static map: squares, walls, obstructed grid points, terrain and setup layers.

Pure data plus the tables the map makes static, built once per `Board`:
one-step moves (Moving, rules 1-3), adjacency, and for each viewing square
the squares every sight line crosses and whether an obstruction interrupts it
(What Your Character Can See, rule 1). Pieces never enter here; see
`funkoverse.rules.core.geometry` for everything that depends on where they stand.

Coordinates (map-format.md): square `i = y * width + x`, `[0, 0]` top-left;
grid point `(cx, cy)` is the top-left corner of square `(cx, cy)`, with
`0 <= cx <= width`, `0 <= cy <= height`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import NamedTuple

Point = tuple[int, int]
Edge = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Rubble:
    """A Rubble token on a wall (Space Jam, "Walls and Rubble Tokens").

    Either `edge` names the square-wide wall section between two squares
    beside each other (smaller square first), or `point` names the grid point
    `(cx, cy)` where four corners meet. Build one with `Rubble.on_edge` or
    `Rubble.on_point`.
    """

    edge: Edge | None = None
    point: Point | None = None

    def __post_init__(self) -> None:
        if (self.edge is None) == (self.point is None):
            raise ValueError("a Rubble token lies on exactly one wall edge or one grid point")
        if self.edge is not None and self.edge[0] >= self.edge[1]:
            raise ValueError("a Rubble edge names its smaller square first")

    @staticmethod
    def on_edge(a: int, b: int) -> Rubble:
        """Rubble on the wall section between squares `a` and `b`."""
        return Rubble(edge=(min(a, b), max(a, b)))

    @staticmethod
    def on_point(cx: int, cy: int) -> Rubble:
        """Rubble where four corners meet, at grid point `(cx, cy)`."""
        return Rubble(point=(cx, cy))


class SightLine(NamedTuple):
    """One center-to-center line, relative to the viewer's square at (0, 0).

    `squares`: the squares whose inside the line passes through, in order,
    viewer and target excluded (a square only touched at a grid point is not
    listed: rule 4). `v_edges` `(k, j)`: the vertical grid line `x = k` crossed
    in row `j`; `h_edges` `(i, m)`: the horizontal grid line `y = m` crossed in
    column `i`; `points` `(k, m)`: grid points the line passes exactly through.
    """

    squares: tuple[Point, ...]
    v_edges: tuple[Point, ...]
    h_edges: tuple[Point, ...]
    points: tuple[Point, ...]


@cache
def sight_line(dx: int, dy: int) -> SightLine:
    """The geometry of the line from a square's center to the center `dx, dy` squares away.

    Exact (rational) arithmetic: the viewer's square is `[0, 1] x [0, 1]`, its
    center `(1/2, 1/2)`; the line is `(1/2 + s*dx, 1/2 + s*dy)` for `0 <= s <= 1`.
    """
    vertical: dict[Fraction, int] = {}  # where the line crosses x = k
    horizontal: dict[Fraction, int] = {}  # where it crosses y = m
    if dx:
        for k in range(1, dx + 1) if dx > 0 else range(dx + 1, 1):
            vertical[Fraction(2 * k - 1, 2 * dx)] = k
    if dy:
        for m in range(1, dy + 1) if dy > 0 else range(dy + 1, 1):
            horizontal[Fraction(2 * m - 1, 2 * dy)] = m
    sx = (dx > 0) - (dx < 0)
    sy = (dy > 0) - (dy < 0)
    x = y = 0
    squares: list[Point] = []
    v_edges: list[Point] = []
    h_edges: list[Point] = []
    points: list[Point] = []
    half = Fraction(1, 2)
    for s in sorted(vertical.keys() | horizontal.keys()):
        vk = vertical.get(s)
        hm = horizontal.get(s)
        if vk is not None and hm is not None:
            points.append((vk, hm))
            x += sx
            y += sy
        elif vk is not None:
            v_edges.append((vk, int((half + s * dy) // 1)))
            x += sx
        elif hm is not None:
            h_edges.append((int((half + s * dx) // 1), hm))
            y += sy
        squares.append((x, y))
    if squares:
        squares.pop()  # the target itself
    return SightLine(tuple(squares), tuple(v_edges), tuple(h_edges), tuple(points))


@dataclass(frozen=True, slots=True)
class SightTable:
    """What the map alone decides about sight from one square (built once, then cached).

    `clear`: squares whose line from here no obstruction interrupts (rule 1),
    this square included. `base`: the squares seen when no piece blocks: `clear`
    minus squares behind obscured terrain and obscured squares not beside this
    one (Obscured Terrain, both rules). `between[t]`: the squares the line to
    `t` passes through (for `t` in `clear`). `shadow[s]`: the squares of `base`
    whose line passes through `s`, i.e. what a standing rival seen in `s` hides
    (rule 2). Every square in `shadow[s]` is farther from here than `s`.
    """

    clear: frozenset[int]
    base: frozenset[int]
    between: Mapping[int, tuple[int, ...]]
    shadow: Mapping[int, frozenset[int]]


def column_letters(x: int) -> str:
    """Column name for a person: a..z, then aa, ab, ... (map-format.md: `a1` is the top-left)."""
    out = ""
    n = x + 1
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(ord("a") + r) + out
    return out


_LABEL = re.compile(r"([a-zA-Z]+)([0-9]+)")


@dataclass(frozen=True, eq=False)
class Board:
    """A map as the rules see it ("Using the Map").

    `walls` are the inside wall edges, each as the two squares it separates
    (smaller first); the outer frame is always wall. `obstructed_points` are
    the grid points marked `+` (a wall ends or passes there, or a post stands
    there), frame included. `blocked` squares ('#') hold an obstruction over
    their center. `rubble` is the set of Rubble tokens applied by `with_rubble`.
    """

    name: str
    box: str
    width: int
    height: int
    note: str
    blocked: frozenset[int]
    obscured: frozenset[int]
    start_areas: Mapping[str, tuple[int, ...]]
    point_squares: Mapping[str, int]
    layers: Mapping[str, tuple[str, ...]]
    walls: frozenset[Edge] = frozenset()
    obstructed_points: frozenset[Point] = frozenset()
    rubble: frozenset[Rubble] = frozenset()
    id: str = ""  # the shipped map's id ("themyscira"); empty for a map read from a file
    _xs: tuple[int, ...] = field(init=False, repr=False)
    _labels: tuple[str, ...] = field(init=False, repr=False)
    _label_index: dict[str, int] = field(init=False, repr=False)
    _ys: tuple[int, ...] = field(init=False, repr=False)
    _steps: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    _adjacent: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    _adjacent_sets: tuple[frozenset[int], ...] = field(init=False, repr=False)
    _sight: dict[int, SightTable] = field(init=False, repr=False)
    _distance_rows: list[tuple[int, ...] | None] = field(init=False, repr=False)
    _rubble_cache: dict[frozenset[Rubble], Board] = field(init=False, repr=False)
    _printed: Board | None = field(init=False, repr=False)

    def __post_init__(self) -> None:
        w, h = self.width, self.height
        if w < 1 or h < 1:
            raise ValueError("a board has at least one square")
        n = w * h
        for a, b in self.walls:
            if not (0 <= a < b < n) or not self._beside(a, b):
                raise ValueError(f"wall edge {(a, b)} is not between two squares beside each other")
            for p in self.edge_points(a, b):
                if p not in self.obstructed_points:
                    raise ValueError(f"wall edge {(a, b)} ends at open grid point {p}")
        put = object.__setattr__
        put(self, "_xs", tuple(i % w for i in range(n)))
        put(self, "_ys", tuple(i // w for i in range(n)))
        labels = tuple(f"{column_letters(i % w)}{i // w + 1}" for i in range(n))
        put(self, "_labels", labels)
        put(self, "_label_index", {text: i for i, text in enumerate(labels)})
        put(self, "_sight", {})
        put(self, "_distance_rows", [None] * n)
        put(self, "_rubble_cache", {})
        put(self, "_printed", None)
        adjacent: list[tuple[int, ...]] = []
        steps: list[tuple[int, ...]] = []
        for i in range(n):
            x, y = i % w, i // w
            near = [i]
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    if (dx or dy) and 0 <= x + dx < w and 0 <= y + dy < h:
                        j = i + dy * w + dx
                        if self._neighbour_clear(x, y, dx, dy):
                            near.append(j)
            near.sort()
            adjacent.append(tuple(near))
            steps.append(tuple(j for j in near if j != i and j not in self.blocked))
        put(self, "_adjacent", tuple(adjacent))
        put(self, "_adjacent_sets", tuple(frozenset(a) for a in adjacent))
        put(self, "_steps", tuple(steps))

    # -- coordinates ---------------------------------------------------------

    def square(self, x: int, y: int) -> int:
        """The square at column `x`, row `y` (ValueError when off the board)."""
        if not self.on_board(x, y):
            raise ValueError(f"[{x}, {y}] is not on the {self.width}x{self.height} board")
        return y * self.width + x

    def xy(self, i: int) -> tuple[int, int]:
        """Column and row of square `i`."""
        return self._xs[i], self._ys[i]

    def on_board(self, x: int, y: int) -> bool:
        """Is `[x, y]` a square of this map (not the outside ring)?"""
        return 0 <= x < self.width and 0 <= y < self.height

    def label(self, i: int) -> str:
        """The square as a person types it: column letters then row number (`a1` top-left)."""
        return self._labels[i]

    def index_of(self, label: str) -> int | None:
        """The square whose label is exactly `label` (as `label` writes it), else None."""
        return self._label_index.get(label)

    def parse_label(self, text: str) -> int:
        """Inverse of `label` (case-insensitive); ValueError on anything else."""
        known = self._label_index.get(text)
        if known is not None:
            return known
        m = _LABEL.fullmatch(text.strip())
        if not m:
            raise ValueError(f"{text!r} is not a square like 'a1'")
        x = 0
        for ch in m.group(1).lower():
            x = x * 26 + (ord(ch) - ord("a") + 1)
        x -= 1
        y = int(m.group(2)) - 1
        if not self.on_board(x, y):
            raise ValueError(f"{text!r} is not on the {self.width}x{self.height} board")
        return y * self.width + x

    @property
    def squares(self) -> range:
        """Every square of the map, blocked ones included."""
        return range(self.width * self.height)

    # -- static tables -------------------------------------------------------

    def steps(self, i: int) -> tuple[int, ...]:
        """Squares one legal step from `i` ("How to Move Something", rules 1-3): no wall
        between, no diagonal through an obstructed corner, not a blocked square."""
        return self._steps[i]

    def adjacent(self, i: int) -> tuple[int, ...]:
        """Squares adjacent to `i` ("Adjacency"): beside or diagonal and seen, `i` included.

        Pieces never change this: a square beside you has no square between, and a
        diagonal line only touches the two squares beside the corner (rule 4)."""
        return self._adjacent[i]

    def adjacent_set(self, i: int) -> frozenset[int]:
        """`adjacent(i)` as a set."""
        return self._adjacent_sets[i]

    def distance(self, a: int, b: int) -> int:
        """How many squares apart ("Within a Number of Squares"): king moves, ignoring
        obstructions and pieces."""
        xs, ys = self._xs, self._ys
        dx = xs[a] - xs[b]
        dy = ys[a] - ys[b]
        if dx < 0:
            dx = -dx
        if dy < 0:
            dy = -dy
        return dx if dx > dy else dy

    def distances(self, a: int) -> tuple[int, ...]:
        """`distance(a, b)` for every square `b`, as one row (built on first use, kept)."""
        row = self._distance_rows[a]
        if row is None:
            xs, ys = self._xs, self._ys
            ax, ay = xs[a], ys[a]
            row = tuple(max(abs(ax - x), abs(ay - y)) for x, y in zip(xs, ys, strict=True))
            self._distance_rows[a] = row
        return row

    def is_wall(self, a: int, b: int) -> bool:
        """Is there a wall between squares `a` and `b` beside each other?"""
        return (a, b) in self.walls if a < b else (b, a) in self.walls

    def sight_from(self, origin: int) -> SightTable:
        """The map's part of what can be seen from `origin`, built on first use and kept."""
        table = self._sight.get(origin)
        if table is None:
            table = self._build_sight(origin)
            self._sight[origin] = table
        return table

    # -- rubble --------------------------------------------------------------

    def with_rubble(self, rubble: frozenset[Rubble]) -> Board:
        """This map as printed, with exactly these Rubble tokens opening walls
        (Space Jam, "Walls and Rubble Tokens"). Cached: asking again is free.

        A token on a wall edge opens that edge; on a point where four corners meet
        it opens the point and every wall edge meeting there. A grid point that no
        wall touches any more is open again. ValueError for a token where there is
        no wall, on the frame, or on the border of a blocked ('#') area ("the
        borders of fully enclosed areas of a map are not considered walls").
        """
        printed = self._printed or self
        if not rubble:
            return printed
        cached = printed._rubble_cache.get(rubble)
        if cached is None:
            cached = printed._open(rubble)
            printed._rubble_cache[rubble] = cached
        return cached

    # -- helpers -------------------------------------------------------------

    def _beside(self, a: int, b: int) -> bool:
        w = self.width
        return (b - a == 1 and a % w != w - 1) or b - a == w

    def edge_points(self, a: int, b: int) -> tuple[Point, Point]:
        """The grid points at the ends of the edge between squares `a` < `b` beside each other."""
        w = self.width
        x, y = a % w, a // w
        if b - a == 1:  # vertical edge x+1, from row y to y+1
            return (x + 1, y), (x + 1, y + 1)
        return (x, y + 1), (x + 1, y + 1)  # horizontal edge y+1

    def point_edges(self, cx: int, cy: int) -> tuple[Edge, ...]:
        """The inside edges (as square pairs) that have grid point `(cx, cy)` as an end."""
        w, h = self.width, self.height
        out: list[Edge] = []

        def sq(x: int, y: int) -> int | None:
            return y * w + x if 0 <= x < w and 0 <= y < h else None

        for p, q in (
            ((cx - 1, cy - 1), (cx, cy - 1)),  # up
            ((cx - 1, cy), (cx, cy)),  # down
            ((cx - 1, cy - 1), (cx - 1, cy)),  # left
            ((cx, cy - 1), (cx, cy)),  # right
        ):
            a, b = sq(*p), sq(*q)
            if a is not None and b is not None:
                out.append((a, b))
        return tuple(out)

    def _on_frame(self, p: Point) -> bool:
        return p[0] in (0, self.width) or p[1] in (0, self.height)

    def _neighbour_clear(self, x: int, y: int, dx: int, dy: int) -> bool:
        """Rule 1 for a square beside or diagonal: no wall edge between, no obstructed corner."""
        w = self.width
        i = y * w + x
        if dx and dy:
            return (x + (dx > 0), y + (dy > 0)) not in self.obstructed_points
        return not self.is_wall(i, i + dy * w + dx)

    def _open(self, rubble: frozenset[Rubble]) -> Board:
        walls = set(self.walls)
        points = set(self.obstructed_points)
        touched: set[Point] = set()
        for r in rubble:
            if r.edge is not None:
                a, b = r.edge
                n = self.width * self.height
                if not (0 <= a < b < n and self._beside(a, b)):
                    raise ValueError(
                        f"Rubble edge {r.edge} is not between two squares beside each other"
                    )
                if a in self.blocked or b in self.blocked:
                    raise ValueError(f"Rubble edge {r.edge} borders a blocked area: not a wall")
                if r.edge not in self.walls:
                    raise ValueError(
                        f"no wall between {self.label(a)} and {self.label(b)} for Rubble"
                    )
                walls.discard(r.edge)
                touched.update(self.edge_points(a, b))
            else:
                assert r.point is not None
                cx, cy = r.point
                if not (0 < cx < self.width and 0 < cy < self.height):
                    raise ValueError(
                        f"Rubble point {r.point} is not where four squares' corners meet"
                    )
                around = {
                    (cy - 1) * self.width + cx - 1,
                    (cy - 1) * self.width + cx,
                    cy * self.width + cx - 1,
                    cy * self.width + cx,
                }
                if around & self.blocked:
                    raise ValueError(f"Rubble point {r.point} touches a blocked area: not a wall")
                if r.point not in self.obstructed_points:
                    raise ValueError(f"no wall or post at grid point {r.point} for Rubble")
                points.discard(r.point)
                for e in self.point_edges(cx, cy):
                    if e in walls:
                        walls.discard(e)
                        touched.update(self.edge_points(*e))
                touched.discard(r.point)
        for p in touched:
            if (
                p in points
                and not self._on_frame(p)
                and not any(e in walls for e in self.point_edges(*p))
            ):
                points.discard(p)
        board = dataclasses.replace(
            self, walls=frozenset(walls), obstructed_points=frozenset(points), rubble=rubble
        )
        object.__setattr__(board, "_printed", self)
        return board

    def _build_sight(self, origin: int) -> SightTable:
        w, h = self.width, self.height
        ox, oy = origin % w, origin // w
        walls, points, obscured = self.walls, self.obstructed_points, self.obscured
        clear: set[int] = set()
        base: set[int] = set()
        between: dict[int, tuple[int, ...]] = {}
        shadow: dict[int, set[int]] = {}
        for ty in range(h):
            for tx in range(w):
                t = ty * w + tx
                line = sight_line(tx - ox, ty - oy)
                if any((ox + k, oy + m) in points for k, m in line.points):
                    continue
                cut = False
                for k, j in line.v_edges:
                    a = (oy + j) * w + ox + k - 1
                    if (a, a + 1) in walls:
                        cut = True
                        break
                if cut:
                    continue
                for i, m in line.h_edges:
                    a = (oy + m - 1) * w + ox + i
                    if (a, a + w) in walls:
                        cut = True
                        break
                if cut:
                    continue
                clear.add(t)
                crossed = tuple((oy + j) * w + ox + i for i, j in line.squares)
                between[t] = crossed
                if t in obscured and max(abs(tx - ox), abs(ty - oy)) > 1:
                    continue  # Obscured Terrain: seen only from itself or beside it
                if any(s in obscured for s in crossed):
                    continue  # Obscured Terrain blocks sight through its squares
                base.add(t)
        for t in base:
            for s in between[t]:
                shadow.setdefault(s, set()).add(t)
        return SightTable(
            clear=frozenset(clear),
            base=frozenset(base),
            between=between,
            shadow={s: frozenset(ts) for s, ts in shadow.items()},
        )

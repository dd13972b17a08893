"""Sight, adjacency, distance, movement, push and pull, placing, and challenge targets.

Everything the map alone decides lives in `Board`'s tables, built once; the
functions here add the pieces. Pieces are `PieceLike`: pieces of the same
`side` are allies, of different sides rivals.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import TypeVar

from funkoverse.rules.core.board import Board
from funkoverse.rules.core.pieces import BLOCKING_KINDS, Kind, PieceLike

# Kinds a challenge may target when they are rivals (rules-query.md `challenge_targets`);
# tokens and markers (a bonus objective is a marker) only when they have a defense
# ("Challenging a Token or Minion Token or Marker").
_CHALLENGEABLE: frozenset[Kind] = frozenset(
    {Kind.CHARACTER, Kind.BASIC, Kind.MINION, Kind.COMPANION}
)
_CHALLENGEABLE_WITH_DEFENSE: frozenset[Kind] = frozenset(
    {Kind.TOKEN, Kind.MARKER, Kind.BONUS_OBJECTIVE}
)


# -- sight -------------------------------------------------------------------

P = TypeVar("P", bound=PieceLike)


def _king_adjacent(board: Board, a: int, b: int) -> bool:
    return board.distance(a, b) <= 1


class SightBlockers(frozenset[int]):
    """Blocker squares whose elusive rivals are not yet checked against a board.

    `sight_blockers` called without a board cannot tell whether an elusive rival
    is beside the viewer, so it returns this: every candidate square, with the
    elusive ones also in `elusive`. `can_see` and `visible_squares` drop those
    not beside the viewing square."""

    elusive: frozenset[int]

    def __new__(cls, squares: Iterable[int], elusive: Iterable[int]) -> SightBlockers:
        self = super().__new__(cls, squares)
        self.elusive = frozenset(elusive)
        return self

    def resolve(self, board: Board, origin: int) -> frozenset[int]:
        """The plain blocker set for a viewer in `origin` (Elusive Trickster applied)."""
        far = {s for s in self.elusive if not _king_adjacent(board, origin, s)}
        return frozenset(self - far) if far else frozenset(self)


def sight_blockers(
    viewer: PieceLike, pieces: Iterable[PieceLike], board: Board | None = None
) -> frozenset[int]:
    """Squares of the standing rivals that may block what `viewer` sees
    (What Your Character Can See, rule 2; allies never block, rule 3).

    Only the blocking kinds block (characters, basic characters, minions,
    companions, bonus objectives); knocked-down rivals do not. Elusive Trickster:
    an elusive rival blocks only from a square beside or diagonal to the viewer
    ("Rivals can only see the Invisible Man while they are adjacent to him"). With
    the `board` that is decided here; without it the answer is a `SightBlockers`
    that `can_see` and `visible_squares` finish deciding.
    """
    origin = viewer.square
    if origin is None:
        return frozenset()
    side = viewer.side
    out: set[int] = set()
    elusive: set[int] = set()
    for p in pieces:
        sq = p.square
        if sq is None or p.side == side or not p.standing or p.kind not in BLOCKING_KINDS:
            continue
        if p.elusive:
            if board is None:
                elusive.add(sq)
            elif not _king_adjacent(board, origin, sq):
                continue
        out.add(sq)
    if elusive:
        return SightBlockers(out, elusive)
    return frozenset(out)


def can_see(board: Board, origin: int, target: int, blockers: Collection[int]) -> bool:
    """Can a piece in `origin` see square `target`? (What Your Character Can See.)

    Rule 1: no wall or obstructed grid point touches the line (walls are closed
    segments). Rule 2, read literally: a blocker in a square the line passes
    through blocks only when `origin` can itself see that square. Rule 3: allies
    are not in `blockers`. Rule 4: squares only touched at a grid point never
    block. Obscured Terrain: blocks through its squares, and is seen only from
    itself or a square beside it. `blockers` comes from `sight_blockers`.
    """
    table = board.sight_from(origin)
    if target not in table.base:
        return False
    if not blockers:
        return True
    if isinstance(blockers, SightBlockers):
        blockers = blockers.resolve(board, origin)
    return _unblocked(board, origin, target, blockers)


def _unblocked(board: Board, origin: int, target: int, blockers: Collection[int]) -> bool:
    """Rule 2 for a `target` already in the table's `base`."""
    table = board.sight_from(origin)
    for s in table.between[target]:
        if s in blockers and s in table.base and _unblocked(board, origin, s, blockers):
            return False
    return True


def visible_squares(board: Board, origin: int, blockers: Collection[int]) -> frozenset[int]:
    """Every square a piece in `origin` can see, its own included (see `can_see`)."""
    table = board.sight_from(origin)
    seen = table.base
    if not blockers:
        return seen
    if isinstance(blockers, SightBlockers):
        blockers = blockers.resolve(board, origin)
    shadow = table.shadow
    near = [s for s in blockers if s in shadow]
    if not near:
        return seen
    if len(near) > 1:
        # A blocker's visibility depends only on nearer blockers (a square a line
        # passes through is always nearer than its end), so take them nearest first.
        dist2 = _dist2_from(board, origin)
        near.sort(key=dist2)
    for s in near:
        if s in seen:  # rule 2: only a rival the viewer can see blocks
            seen = seen - shadow[s]
    return seen


def _dist2_from(board: Board, origin: int) -> Callable[[int], int]:
    ox, oy = board.xy(origin)
    w = board.width

    def key(s: int) -> int:
        dx = s % w - ox
        dy = s // w - oy
        return dx * dx + dy * dy

    return key


def adjacent_squares(board: Board, origin: int) -> tuple[int, ...]:
    """Squares adjacent to `origin` ("Adjacency"): beside or diagonal and seen, `origin`
    included, sorted. Obstructions cut adjacency ("Obstructions and Adjacency",
    including obstructed corners); pieces never do (nothing lies between beside
    squares, and rule 4 covers the corner)."""
    return board.adjacent(origin)


def is_adjacent(board: Board, a: int, b: int) -> bool:
    """Is square `b` adjacent to square `a` ("Adjacency")? Symmetric; true for `a == b`."""
    return b in board.adjacent_set(a)


def can_see_piece(
    board: Board, viewer: PieceLike, target: PieceLike, pieces: Iterable[PieceLike]
) -> bool:
    """Can `viewer` see `target`: its square, by `can_see` with the viewer's blockers.

    Elusive Trickster: a rival sees an elusive piece only while adjacent to it
    (beside or diagonal, and seeing its square)."""
    vs, ts = viewer.square, target.square
    if vs is None or ts is None:
        return False
    if target.elusive and target.side != viewer.side and not _king_adjacent(board, vs, ts):
        return False
    return can_see(board, vs, ts, sight_blockers(viewer, pieces, board))


# -- movement ----------------------------------------------------------------


def _occupancy(
    piece: PieceLike, pieces: Iterable[PieceLike]
) -> tuple[frozenset[int], frozenset[int]]:
    """(squares `piece` may not end in, squares it may not pass through), for a
    piece of a blocking kind: How to Move Something rules 4-6. Allies and rivals
    are relative to the moved piece's own side (rules-query.md "Whose allies"
    leaves a push or pull by a rival to the engine; this is the moved piece's view)."""
    if piece.kind not in BLOCKING_KINDS:
        return frozenset(), frozenset()  # rules 5 and 6 speak of characters
    occupied: set[int] = set()
    impassable: set[int] = set()
    side, pid = piece.side, piece.id
    for p in pieces:
        sq = p.square
        if sq is None or p.kind not in BLOCKING_KINDS or p.id == pid:
            continue
        occupied.add(sq)  # rule 6: never end on an ally or a rival
        if p.side != side and p.standing:
            impassable.add(sq)  # rule 5: not through a standing rival (rule 4: allies are fine)
    return frozenset(occupied), frozenset(impassable)


def _reach(
    board: Board,
    start: int,
    steps: int,
    impassable: frozenset[int],
    links: Mapping[int, Sequence[int]] | None,
    allowed: Callable[[int, int], bool] | None = None,
    parents: dict[int, int] | None = None,
) -> set[int]:
    """Squares reachable from `start` in 1 to `steps` legal steps (`start` itself excluded)."""
    step_table = board.steps
    if allowed is None and parents is None:
        # what is reached, whatever the way: a step at a time, as sets
        reached = {start}
        ring = {start}
        for _ in range(steps):
            nxt: set[int] = set()
            for sq in ring:
                nxt.update(step_table(sq))
                if links is not None and sq in links:
                    nxt.update(links[sq])
            nxt -= reached
            nxt -= impassable
            if not nxt:
                break
            reached |= nxt
            ring = nxt
        reached.discard(start)
        return reached
    seen = {start}
    frontier = [start]
    for _ in range(steps):
        ahead: list[int] = []
        for sq in frontier:
            around: Iterable[int] = step_table(sq)
            if links is not None and sq in links:
                around = (*around, *links[sq])
            for to in around:
                if to in seen or to in impassable:
                    continue
                if allowed is not None and not allowed(sq, to):
                    continue
                seen.add(to)
                ahead.append(to)
                if parents is not None:
                    parents[to] = sq
        if not ahead:
            break
        frontier = ahead
    seen.discard(start)
    return seen


def move_destinations(
    board: Board,
    piece: PieceLike,
    pieces: Iterable[PieceLike],
    steps: int,
    links: Mapping[int, Sequence[int]] | None = None,
) -> frozenset[int]:
    """Where a move of up to `steps` squares can end (How to Move Something, rules 1-6).

    Rules 1-3 are the board's `steps`; rule 4: through allies' squares; rule 5:
    not through a standing rival's; rule 6: never ending on a square with a
    blocking piece. Tokens and markers neither block nor are blocked (for a moved
    token only rules 1-3 apply). `links` adds one-step connections (Tunnels).
    The starting square is excluded."""
    start = piece.square
    if start is None or steps <= 0:
        return frozenset()
    occupied, impassable = _occupancy(piece, pieces)
    reached = _reach(board, start, steps, impassable, links)
    return frozenset(reached - occupied) if occupied else frozenset(reached)


def move_path(
    board: Board,
    piece: PieceLike,
    pieces: Iterable[PieceLike],
    dest: int,
    steps: int,
    links: Mapping[int, Sequence[int]] | None = None,
) -> tuple[int, ...] | None:
    """One shortest legal path for a move to `dest`: the squares from the start to
    `dest`, both included; None when `dest` is not in `move_destinations`."""
    start = piece.square
    if start is None or steps <= 0:
        return None
    occupied, impassable = _occupancy(piece, pieces)
    if dest in occupied:
        return None
    parents: dict[int, int] = {}
    reached = _reach(board, start, steps, impassable, links, parents=parents)
    if dest not in reached:
        return None
    path = [dest]
    while path[-1] != start:
        path.append(parents[path[-1]])
    return tuple(reversed(path))


def push_destinations(
    board: Board,
    piece: PieceLike,
    pieces: Iterable[PieceLike],
    away_from: int | tuple[int, int],
    steps: int,
) -> frozenset[int]:
    """Where a push of up to `steps` can end (Glossary "Away"): moving rules apply and
    every square entered is farther from `away_from` than the one left (distance as in
    "Within a Number of Squares"). `away_from` is a square, or `(x, y)` for a square of
    the outside ring (a token there, FAQ). Starting square excluded."""
    start = piece.square
    if start is None or steps <= 0:
        return frozenset()
    occupied, impassable = _occupancy(piece, pieces)
    if isinstance(away_from, int):
        ax, ay = board.xy(away_from)
    else:
        ax, ay = away_from
    w = board.width

    def farther(frm: int, to: int) -> bool:
        return max(abs(to % w - ax), abs(to // w - ay)) > max(abs(frm % w - ax), abs(frm // w - ay))

    reached = _reach(board, start, steps, impassable, None, farther)
    return frozenset(reached - occupied)


def pull_destinations(
    board: Board, piece: PieceLike, pieces: Iterable[PieceLike], puller: PieceLike, steps: int
) -> frozenset[int]:
    """Where a pull toward `puller` of up to `steps` can end (Glossary "Toward"): moving
    rules apply, every square entered is nearer the puller than the one left, and the
    puller must see the piece (`can_see_piece`, so Elusive Trickster applies) and each
    square it is moved into (with the puller's own sight blockers). Starting square
    excluded."""
    start, at = piece.square, puller.square
    if start is None or at is None or steps <= 0:
        return frozenset()
    pieces = tuple(pieces)
    if not can_see_piece(board, puller, piece, pieces):
        return frozenset()
    blockers = sight_blockers(puller, pieces, board)
    occupied, impassable = _occupancy(piece, pieces)
    dist = board.distance

    def nearer_and_seen(frm: int, to: int) -> bool:
        return dist(at, to) < dist(at, frm) and can_see(board, at, to, blockers)

    reached = _reach(board, start, steps, impassable, None, nearer_and_seen)
    return frozenset(reached - occupied)


def placeable(
    board: Board, pieces: Iterable[PieceLike], square: int, kind: Kind = Kind.CHARACTER
) -> bool:
    """May something of `kind` be placed in `square`? (Glossary "Placing Something";
    FAQ "Can I stand in this square?"): never on a blocked square (an obstruction
    covers its center); a blocking piece never where another blocking piece is.
    Placing ignores the moving rules and sight."""
    if square not in board.squares or square in board.blocked:
        return False
    if kind not in BLOCKING_KINDS:
        return True
    return not any(p.square == square and p.kind in BLOCKING_KINDS for p in pieces)


# -- challenges --------------------------------------------------------------


def challengeable(p: PieceLike) -> bool:
    """Can this kind of piece be challenged at all: characters, basic characters, minions and
    companions; tokens and markers only with a defense ("Challenging a Token or Minion Token
    or Marker")."""
    return p.kind in _CHALLENGEABLE or (
        p.kind in _CHALLENGEABLE_WITH_DEFENSE and p.defense is not None
    )


def challenge_targets(
    board: Board, challenger: PieceLike, pieces: Iterable[P], range_: int | None
) -> list[P]:
    """What `challenger` may challenge, sorted by id (Challenges).

    Rivals only ("You cannot challenge an ally"): characters, basic characters,
    minions, companions (knocked down or not), and tokens or markers with a
    defense. `range_` None: an adjacent target ("Challenge (Number)"; FAQ "What if a
    challenge doesn't have a range?"). A number: within that many squares and seen
    ("Range (Number) Challenge (Number)"). Elusive Trickster: an elusive rival is a
    target only from a square beside or diagonal to it."""
    origin = challenger.square
    if origin is None:
        return []
    pieces = tuple(pieces)
    side = challenger.side
    adjacent = board.adjacent_set(origin)
    blockers: frozenset[int] | None = None
    out: list[P] = []
    for p in pieces:
        sq = p.square
        if sq is None or p.side == side or p.id == challenger.id:
            continue
        if not challengeable(p):
            continue
        if p.elusive and not _king_adjacent(board, origin, sq):
            continue
        if range_ is None:
            if sq in adjacent:
                out.append(p)
        elif board.distance(origin, sq) <= range_:
            if blockers is None:
                blockers = sight_blockers(challenger, pieces, board)
            if can_see(board, origin, sq, blockers):
                out.append(p)
    out.sort(key=lambda p: p.id)
    return out


# -- the outside ring (tokens only) ------------------------------------------


def ring_squares(board: Board) -> tuple[tuple[int, int], ...]:
    """The extra row of squares around the board's edge (FAQ "How do tokens outside of
    the edge of the board work?"), as `(x, y)` with x in -1..width, y in -1..height,
    clockwise from the top-left corner. Only tokens use them: things on the board may
    not enter them, see them or see anything in them."""
    w, h = board.width, board.height
    top = [(x, -1) for x in range(-1, w + 1)]
    right = [(w, y) for y in range(0, h + 1)]
    bottom = [(x, h) for x in range(w - 1, -2, -1)]
    left = [(-1, y) for y in range(h - 1, -1, -1)]
    return (*top, *right, *bottom, *left)


def ring_steps(board: Board, xy: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """The ring squares one step from ring square `xy`, beside or diagonal; moving
    round the corners is allowed and the corners are always unobstructed (FAQ)."""
    w, h = board.width, board.height
    x, y = xy
    if not _on_ring(w, h, x, y):
        raise ValueError(f"{xy} is not in the ring around the {w}x{h} board")
    out = [
        (x + dx, y + dy)
        for dy in (-1, 0, 1)
        for dx in (-1, 0, 1)
        if (dx or dy) and _on_ring(w, h, x + dx, y + dy)
    ]
    out.sort()
    return tuple(out)


def _on_ring(w: int, h: int, x: int, y: int) -> bool:
    return -1 <= x <= w and -1 <= y <= h and (x in (-1, w) or y in (-1, h))

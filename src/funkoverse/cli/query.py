"""`funkoverse query`: the rules conformance interface (spec/rules-query.md).

Reads one JSON position-and-question (or an array of them) on standard input and
writes the answer (or an array, in the same order). A question that cannot be
answered gets `{"error": "..."}` naming the field; exit status 0 when all were
answered, 1 when any got an error, 2 for input that is not JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from funkoverse.content.characters import load_characters
from funkoverse.content.maps import load_map, parse_map_dict
from funkoverse.errors import UserError
from funkoverse.rules import Board, Kind
from funkoverse.rules.core import geometry
from funkoverse.rules.core.pieces import BLOCKING_KINDS, KNOCKABLE_KINDS


class QueryError(Exception):
    """A question that cannot be answered; the message names the field."""


@dataclass(frozen=True)
class Piece:
    """A piece as the query describes it; satisfies `PieceLike`."""

    id: str
    side: str
    square: int | None
    kind: Kind
    standing: bool
    elusive: bool
    defense: int | None
    character: str | None = None


def register(sub: Any) -> None:
    p = sub.add_parser(
        "query",
        help="answer rules questions given as JSON on standard input (spec/rules-query.md)",
        description="Read one JSON query object, or an array of them, on standard input; "
        "write the answers as JSON on standard output.",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    text = sys.stdin.read()
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:
        sys.stderr.write(f"funkoverse query: malformed JSON on standard input: {_one_line(e)}\n")
        return 2
    if isinstance(data, list):
        cache: dict[str, Board] = {}
        answers = [answer(item, cache, f"[{i}]") for i, item in enumerate(data)]
        out: Any = answers
        failed = any("error" in a for a in answers)
    elif isinstance(data, dict):
        out = answer(data, {}, "")
        failed = "error" in out
    else:
        sys.stderr.write(
            "funkoverse query: expected a JSON object or an array of objects on standard input\n"
        )
        return 2
    sys.stdout.write(json.dumps(out) + "\n")
    return 1 if failed else 0


def _shown(value: Any) -> str:
    """A value from the question as an error quotes it: JSON, cut short."""
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _one_line(e: BaseException) -> str:
    text = str(e)
    return text.splitlines()[0] if text else type(e).__name__


def answer(case: Any, cache: dict[str, Board] | None = None, where: str = "") -> dict[str, Any]:
    """The answer to one case: `{"answer": ...}` or `{"error": "..."}`."""
    try:
        if not isinstance(case, dict):
            raise QueryError(f"{where or 'input'}: expected an object with 'query'")
        return {"answer": _answer(case, {} if cache is None else cache)}
    except (QueryError, UserError) as e:
        return {"error": str(e)}
    except Exception as e:  # a bug of ours: still an answer, never a traceback
        return {"error": f"internal error: {type(e).__name__}: {_one_line(e)}"}


# -- the position -----------------------------------------------------------


def get_board(spec: Any, cache: dict[str, Board]) -> Board:
    """The `map` field: a shipped map's name or an inline map object."""
    key = json.dumps(spec, sort_keys=True)
    board = cache.get(key)
    if board is not None:
        return board
    if isinstance(spec, str):
        try:
            board = load_map(spec)
        except UserError as e:
            raise QueryError(f"map: {e}") from None
    elif isinstance(spec, dict):
        board = parse_map_dict(spec, "map")
    else:
        raise QueryError("map: expected a shipped map's name or an inline map object")
    cache[key] = board
    return board


def parse_square(
    board: Board | None, value: Any, fld: str, ring: bool = False
) -> int | tuple[int, int]:
    """A `[x, y]` field: the board square (or the pair itself when there is no board,
    or when `ring` allows a square of the outside ring and it is one)."""
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise QueryError(f"{fld}: expected a square [x, y], not {_shown(value)}")
    x, y = value
    if board is None:
        return (x, y)
    if ring and not board.on_board(x, y) and -1 <= x <= board.width and -1 <= y <= board.height:
        return (x, y)
    if not board.on_board(x, y):
        raise QueryError(f"{fld}: [{x}, {y}] is outside the {board.width}x{board.height} board")
    return board.square(x, y)


_KINDS = {k.value: k for k in Kind}
_PIECE_FIELDS = frozenset({"id", "team", "at", "kind", "standing", "character", "defense"})


def parse_pieces(board: Board, value: Any, fld: str = "pieces") -> list[Piece]:
    """The `pieces` list, checked as rules-query.md says (also used by `map show`)."""
    if not isinstance(value, list):
        raise QueryError(f"{fld}: expected a list of pieces")
    pieces: list[Piece] = []
    ids: set[str] = set()
    holder: dict[int, str] = {}
    for n, raw in enumerate(value):
        f = f"{fld}[{n}]"
        if not isinstance(raw, dict):
            raise QueryError(f"{f}: expected a piece object")
        for key in raw:
            if key not in _PIECE_FIELDS:
                raise QueryError(
                    f"{f}: unknown field {_shown(key)} (a piece has: "
                    f"{', '.join(sorted(_PIECE_FIELDS))})"
                )
        pid = raw.get("id")
        if not isinstance(pid, str) or not pid:
            raise QueryError(f"{f}.id: expected a name")
        if pid in ids:
            raise QueryError(f"{f}.id: {pid!r} is used twice")
        ids.add(pid)
        kind_name = raw.get("kind", "character")
        if not isinstance(kind_name, str) or kind_name not in _KINDS:
            raise QueryError(
                f"{f}.kind: unknown kind {_shown(kind_name)} (one of {', '.join(_KINDS)})"
            )
        kind = _KINDS[kind_name]
        defense = raw.get("defense")
        if defense is not None and (
            isinstance(defense, bool) or not isinstance(defense, int) or defense < 0
        ):
            raise QueryError(f"{f}.defense: expected a number of dice (0 or more)")
        team = raw.get("team")
        if team is None:
            if kind in BLOCKING_KINDS or defense is not None:
                raise QueryError(f"{f}.team: required for a {kind.value}")
            team = ""
        elif not isinstance(team, str):
            raise QueryError(f"{f}.team: expected a string")
        standing = raw.get("standing", True)
        if not isinstance(standing, bool):
            raise QueryError(f"{f}.standing: expected true or false")
        if not standing and kind not in KNOCKABLE_KINDS:
            raise QueryError(
                f"{f}.standing: a {kind.value} cannot be knocked down (only a character or "
                "basic character can; the others are removed instead)"
            )
        character = raw.get("character")
        if character is not None and not isinstance(character, str):
            raise QueryError(f"{f}.character: expected a content id string")
        if "at" not in raw:
            raise QueryError(f"{f}.at: missing (the piece's square [x, y])")
        sq = parse_square(board, raw["at"], f"{f}.at")
        assert isinstance(sq, int)
        if sq in board.blocked:
            x, y = board.xy(sq)
            raise QueryError(f"{f}.at: [{x}, {y}] is a blocked square ('#'); nothing stands there")
        if kind in BLOCKING_KINDS:
            if sq in holder:
                x, y = board.xy(sq)
                raise QueryError(
                    f"{f}.at: [{x}, {y}] already holds {holder[sq]!r}; two characters "
                    "(or minions, companions, bonus objectives) cannot share a square"
                )
            holder[sq] = pid
        pieces.append(
            Piece(
                id=pid,
                side=team,
                square=sq,
                kind=kind,
                standing=standing,
                elusive=_elusive(character),
                defense=defense,
                character=character,
            )
        )
    return pieces


def _elusive(character: str | None) -> bool:
    """Whether the piece's card says it is elusive (Elusive Trickster: its card's `elusive`),
    read from the content like every other card fact; an id no card has is a plain piece."""
    card = load_characters().get(character) if character is not None else None
    return card is not None and card.elusive


# -- the questions ----------------------------------------------------------


@dataclass
class _Position:
    board: Board | None
    pieces: list[Piece]
    query: Mapping[str, Any]

    def need_board(self) -> Board:
        if self.board is None:
            raise QueryError("map: this question needs a map")
        return self.board

    def piece(self, fld: str, blocking: bool = False) -> Piece:
        if fld not in self.query:
            raise QueryError(f"query.{fld}: missing (a piece id)")
        pid = self.query[fld]
        for p in self.pieces:
            if p.id == pid:
                if blocking and p.kind not in BLOCKING_KINDS:
                    raise QueryError(
                        f"query.{fld}: {pid!r} is a {p.kind.value}; only a character, basic "
                        "character, minion, companion or bonus objective can be moved here"
                    )
                return p
        raise QueryError(f"query.{fld}: no piece with id {_shown(pid)}")

    def square(self, fld: str) -> int:
        if fld not in self.query:
            raise QueryError(f"query.{fld}: missing (a square [x, y])")
        sq = parse_square(self.need_board(), self.query[fld], f"query.{fld}")
        assert isinstance(sq, int)
        return sq

    def count(self, fld: str, allow_null: bool = False) -> int | None:
        if fld not in self.query:
            hint = " (null or a number)" if allow_null else " (a number)"
            raise QueryError(f"query.{fld}: missing{hint}")
        value = self.query[fld]
        if value is None and allow_null:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise QueryError(f"query.{fld}: expected a whole number 0 or more")
        return value

    def squares_out(self, squares: frozenset[int] | Sequence[int]) -> list[list[int]]:
        board = self.need_board()
        return sorted([list(board.xy(s)) for s in squares])


def _answer(case: dict[str, Any], cache: dict[str, Board]) -> Any:
    query = case.get("query")
    if not isinstance(query, dict):
        raise QueryError("query: expected an object with 'op'")
    op = query.get("op")
    handler = _OPS.get(op) if isinstance(op, str) else None
    if handler is None:
        raise QueryError(f"query.op: unknown op {_shown(op)} (one of {', '.join(_OPS)})")
    board = get_board(case["map"], cache) if "map" in case else None
    if "pieces" in case:
        if board is None:
            raise QueryError("map: pieces need a map to stand on")
        pieces = parse_pieces(board, case["pieces"])
    else:
        pieces = []
    return handler(_Position(board, pieces, query))


def _can_see(pos: _Position) -> Any:
    board = pos.need_board()
    viewer = pos.piece("viewer")
    target = pos.square("square")
    assert viewer.square is not None
    blockers = geometry.sight_blockers(viewer, pos.pieces, board)
    return geometry.can_see(board, viewer.square, target, blockers)


def _visible_squares(pos: _Position) -> Any:
    board = pos.need_board()
    viewer = pos.piece("viewer")
    assert viewer.square is not None
    blockers = geometry.sight_blockers(viewer, pos.pieces, board)
    return pos.squares_out(geometry.visible_squares(board, viewer.square, blockers))


def _adjacent_squares(pos: _Position) -> Any:
    board = pos.need_board()
    viewer = pos.piece("viewer")
    assert viewer.square is not None
    return pos.squares_out(geometry.adjacent_squares(board, viewer.square))


def _distance(pos: _Position) -> Any:
    for fld in ("from", "to"):
        if fld not in pos.query:
            raise QueryError(f"query.{fld}: missing (a square [x, y])")
    a = parse_square(pos.board, pos.query["from"], "query.from")
    b = parse_square(pos.board, pos.query["to"], "query.to")
    if pos.board is not None:
        assert isinstance(a, int) and isinstance(b, int)
        return pos.board.distance(a, b)
    assert isinstance(a, tuple) and isinstance(b, tuple)
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def _move_destinations(pos: _Position) -> Any:
    board = pos.need_board()
    piece = pos.piece("piece", blocking=True)
    steps = pos.count("steps")
    assert steps is not None
    return pos.squares_out(geometry.move_destinations(board, piece, pos.pieces, steps))


def _push_destinations(pos: _Position) -> Any:
    board = pos.need_board()
    piece = pos.piece("piece", blocking=True)
    if "away_from" not in pos.query:
        raise QueryError("query.away_from: missing (a square [x, y])")
    # a square of the outside ring is allowed: a token there can push (FAQ, tokens
    # outside the edge of the board)
    away = parse_square(pos.need_board(), pos.query["away_from"], "query.away_from", ring=True)
    steps = pos.count("steps")
    assert steps is not None
    return pos.squares_out(geometry.push_destinations(board, piece, pos.pieces, away, steps))


def _pull_destinations(pos: _Position) -> Any:
    board = pos.need_board()
    piece = pos.piece("piece", blocking=True)
    puller = pos.piece("puller")
    steps = pos.count("steps")
    assert steps is not None
    return pos.squares_out(geometry.pull_destinations(board, piece, pos.pieces, puller, steps))


def _challenge_targets(pos: _Position) -> Any:
    board = pos.need_board()
    challenger = pos.piece("challenger")
    rng = pos.count("range", allow_null=True)
    return [p.id for p in geometry.challenge_targets(board, challenger, pos.pieces, rng)]


def _challenge_odds(pos: _Position) -> Any:
    from funkoverse.cli.odds import MAX_POOL
    from funkoverse.content.dice import load_dice  # built elsewhere; imported when asked
    from funkoverse.rules.core.dice import win_probability

    dice = load_dice()
    if "standard" not in dice:
        raise QueryError("dice: the content has no 'standard' die")
    pools: list[list[Any]] = []
    for count_fld, extra_fld in (
        ("attack_dice", "attack_extra"),
        ("defense_dice", "defense_extra"),
    ):
        n = pos.count(count_fld)
        assert n is not None
        extra = pos.query.get(extra_fld, [])
        if not isinstance(extra, list):
            raise QueryError(f"query.{extra_fld}: expected a list of die names")
        if n + len(extra) > MAX_POOL:
            raise QueryError(
                f"query.{count_fld}: at most {MAX_POOL} dice a side, {extra_fld} included "
                f"(as funkoverse odds), not {n + len(extra)}"
            )
        pool = [dice["standard"]] * n
        for i, name in enumerate(extra):
            if not isinstance(name, str) or name not in dice:
                raise QueryError(
                    f"query.{extra_fld}[{i}]: unknown die {_shown(name)} "
                    f"(one of {', '.join(sorted(dice))})"
                )
            pool.append(dice[name])
        pools.append(pool)
    p = Fraction(win_probability(pools[0], pools[1]))
    percent = _round_half_up(p * 100)
    return {"p": f"{p.numerator}/{p.denominator}", "percent": percent}


def _round_half_up(x: Fraction) -> float:
    """One decimal, halves rounded up, from the exact value (no binary-float surprises)."""
    tenths = math.floor(x * 10 + Fraction(1, 2))
    return tenths / 10


_OPS: dict[str, Callable[[_Position], Any]] = {
    "can_see": _can_see,
    "visible_squares": _visible_squares,
    "adjacent_squares": _adjacent_squares,
    "distance": _distance,
    "move_destinations": _move_destinations,
    "push_destinations": _push_destinations,
    "pull_destinations": _pull_destinations,
    "challenge_targets": _challenge_targets,
    "challenge_odds": _challenge_odds,
}

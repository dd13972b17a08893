"""Fuzz target: map files (`content.maps.load_map_file`, `parse_map_text`) and inline maps
(`parse_map_dict`, as `funkoverse query` and a setup read them).

A map file is read from disk as its bytes; an inline map is JSON. Refused: a `UserError`
naming the file (or `map`) first. A map that is read is then asked what the rules ask of
it: a square's label, the distance between two squares, what one square sees.
"""

from __future__ import annotations

import json
from pathlib import Path

from contract import MAX_INPUT, Broken, keeps_shared_state, refused, scratch

from funkoverse.content.fields import DATA
from funkoverse.content.maps import load_map_file, parse_map_dict
from funkoverse.rules.core import geometry
from funkoverse.rules.core.board import Board

ROOT = Path(__file__).resolve().parent.parent
SMALL = 256  # squares: a map this large or smaller is asked what one square sees


def map_file(data: bytes) -> None:
    """A map file's bytes, read as `funkoverse map`, `--content` and `content check` do."""
    if len(data) > MAX_INPUT:
        return
    path = scratch() / "fan-map.toml"
    path.write_bytes(data)
    with keeps_shared_state():
        try:
            board = load_map_file(path)
        except Exception as e:
            refused(e, str(path))
            return
        _use(board)


def map_json(data: bytes) -> None:
    """An inline map, as the JSON of a query's `map` field."""
    if len(data) > MAX_INPUT:
        return
    try:
        value = json.loads(data)
    except (ValueError, RecursionError):
        return  # not JSON: the reader of the JSON refuses it before any map is read
    with keeps_shared_state():
        try:
            board = parse_map_dict(value, "map")
        except Exception as e:
            refused(e, "map")
            return
        _use(board)


def _use(board: Board) -> None:
    """What the rules ask of every map: it answers, or the map should have been refused."""
    squares = board.width * board.height
    last = squares - 1
    if board.xy(last) != (board.width - 1, board.height - 1):
        raise Broken(f"square {last} is not the last square of a {board.width}x{board.height} map")
    if board.parse_label(board.label(last)) != last:
        raise Broken(f"the label {board.label(last)} does not read back")
    board.distance(0, last)
    for side, area in board.start_areas.items():
        if not area or any(sq in board.blocked for sq in area):
            raise Broken(f"starting area {side} is empty or blocked")
    open_squares = [sq for sq in board.squares if sq not in board.blocked]
    if open_squares and squares <= SMALL:
        geometry.visible_squares(board, open_squares[0], frozenset())
        board.steps(open_squares[-1])


def seeds() -> dict[str, list[bytes]]:
    """The shipped maps and the example fan map, as files and as inline maps."""
    import tomllib

    files = sorted((DATA / "maps").glob("*.toml")) + sorted(
        (ROOT / "examples" / "fan-content" / "maps").glob("*.toml")
    )
    texts = [p.read_bytes() for p in files]
    inline = [json.dumps(tomllib.loads(t.decode())).encode() for t in texts]
    return {"map_file": texts, "map_json": inline}

"""Every shipped map is a playable board: it loads, its starting areas and setup
squares are usable, no part of it is cut off, and neither side starts nearer the
point markers ("Scenario Setup", "Using the Map", "Walls and Rubble Tokens",
"Obscured Terrain", "Free-for-All").

Distances are counted in legal steps (`Board.steps`: How to Move Something,
rules 1-3), from the nearest square of a starting area, ignoring pieces.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from collections import deque
from collections.abc import Iterable
from importlib import resources

import pytest

from funkoverse.content.maps import load_map, shipped_maps
from funkoverse.rules.core.board import Board, Rubble

MAPS = shipped_maps()
SIDES = ("dark", "light")
SEATS = ("seat1", "seat2", "seat3", "seat4")

# The maps of the printed boards, and the scenario layers each one must carry.
BOARDS = {
    "urzari-jungle": {"flags", "leaders"},
    "themyscira": {"flags", "leaders"},
    "draculas-castle": {"flags", "control"},
    "frankensteins-lab": {"flags", "leaders", "control"},
    "funko-factory": {"flags", "control"},
}
FREE_FOR_ALL = {"draculas-castle", "funko-factory"}
# The placeholder first-game map is not laid out for fair point markers (its A is
# 2 steps from the dark starting area and 7 from the light one).
NOT_BALANCED = {"proving-grounds"}
LAYER_LETTERS = {"flags": {"D", "L"}, "leaders": {"D", "L"}, "control": {"1", "2", "3"}}
LEGENDS = {
    "flags": {"D": "dark", "L": "light"},
    "leaders": {"D": "dark", "L": "light"},
    "control": {"1": "area1", "2": "area2", "3": "area3"},
}


def distances(board: Board, sources: Iterable[int]) -> dict[int, int]:
    """Fewest legal steps from any of `sources` to each square that can be reached."""
    dist = dict.fromkeys(sources, 0)
    todo = deque(dist)
    while todo:
        here = todo.popleft()
        for there in board.steps(here):
            if there not in dist:
                dist[there] = dist[here] + 1
                todo.append(there)
    return dist


def layer_squares(board: Board, name: str) -> dict[str, list[int]]:
    """Each letter of a layer and its squares."""
    out: dict[str, list[int]] = {}
    for y, row in enumerate(board.layers[name]):
        for x, ch in enumerate(row):
            if ch != ".":
                out.setdefault(ch, []).append(board.square(x, y))
    return out


def map_file(map_id: str) -> dict[str, object]:
    folder = resources.files("funkoverse.content") / "data" / "maps"
    return tomllib.loads((folder / f"{map_id}.toml").read_text(encoding="utf-8"))


def test_every_printed_board_is_shipped() -> None:
    assert set(BOARDS) <= set(MAPS)


@pytest.mark.parametrize("map_id", MAPS)
def test_starting_areas_and_point_squares(map_id: str) -> None:
    board = load_map(map_id)
    for side in SIDES:
        assert len(board.start_areas.get(side, ())) >= 6, side
    assert sorted(board.point_squares) == ["A", "B", "C", "D"]
    special = [sq for area in board.start_areas.values() for sq in area]
    special += board.point_squares.values()
    for name in ("flags", "leaders"):
        if name in board.layers:
            special += [sq for sqs in layer_squares(board, name).values() for sq in sqs]
    assert not set(special) & board.blocked
    starts = [sq for area in board.start_areas.values() for sq in area]
    assert len(starts) == len(set(starts)), "starting areas overlap"


@pytest.mark.parametrize("map_id", MAPS)
def test_every_open_square_is_reachable_from_every_starting_area(map_id: str) -> None:
    board = load_map(map_id)
    open_squares = {sq for sq in board.squares if sq not in board.blocked}
    for side, area in board.start_areas.items():
        cut_off = open_squares - distances(board, area).keys()
        assert not cut_off, f"{side} cannot reach {sorted(board.label(s) for s in cut_off)}"


@pytest.mark.parametrize("map_id", sorted(set(MAPS) - NOT_BALANCED))
def test_point_markers_are_as_near_to_one_side_as_the_other(map_id: str) -> None:
    board = load_map(map_id)
    dark = distances(board, board.start_areas["dark"])
    light = distances(board, board.start_areas["light"])
    for letter, sq in board.point_squares.items():
        assert abs(dark[sq] - light[sq]) <= 1, (letter, board.label(sq), dark[sq], light[sq])


@pytest.mark.parametrize("map_id", sorted(FREE_FOR_ALL))
def test_free_for_all_boards_have_four_more_starting_areas(map_id: str) -> None:
    board = load_map(map_id)
    for seat in SEATS:
        assert len(board.start_areas.get(seat, ())) >= 3, seat
    assert set(board.start_areas) == set(SIDES) | set(SEATS)


@pytest.mark.parametrize("map_id", MAPS)
def test_seats_come_in_fours(map_id: str) -> None:
    board = load_map(map_id)
    seats = {side for side in board.start_areas if side.startswith("seat")}
    assert seats in (set(), set(SEATS))


@pytest.mark.parametrize(
    ("map_id", "layer"), [(m, layer) for m, layers in BOARDS.items() for layer in sorted(layers)]
)
def test_scenario_layers(map_id: str, layer: str) -> None:
    board = load_map(map_id)
    assert layer in board.layers
    marks = layer_squares(board, layer)
    assert set(marks) == LAYER_LETTERS[layer]
    legend = map_file(map_id)["legend"]
    assert isinstance(legend, dict)
    assert legend[layer] == LEGENDS[layer]
    starts = {sq for area in board.start_areas.values() for sq in area}
    for letter, squares in marks.items():
        assert not set(squares) & board.blocked, (layer, letter)
        if layer == "control":
            assert 2 <= len(squares) <= 6, letter
            continue
        assert len(squares) == 1, (layer, letter)
        # Leaders: "The leaders' starting squares ... are not considered part of any
        # starting area"; a flag is not in one either.
        assert not set(squares) & starts, (layer, letter)
    if layer != "control":
        # Each side's flag (or leader) is on its own side of the board.
        dark = distances(board, board.start_areas["dark"])
        light = distances(board, board.start_areas["light"])
        (d,), (li,) = marks["D"], marks["L"]
        assert dark[d] < light[d]
        assert light[li] < dark[li]


def test_funko_factory_has_obscured_terrain_and_walls_rubble_can_open() -> None:
    board = load_map("funko-factory")
    assert board.obscured
    assert not board.obscured & board.blocked
    walls = [(a, b) for a, b in board.walls if a not in board.blocked and b not in board.blocked]
    assert walls, "no wall a Rubble token could open"
    a, b = walls[0]
    assert b not in board.steps(a)
    opened = board.with_rubble(frozenset({Rubble.on_edge(a, b)}))
    assert not opened.is_wall(a, b)
    assert b in opened.steps(a)
    # "the borders of fully enclosed areas of a map are not considered walls"
    border = next((a, b) for a, b in board.walls if (a in board.blocked) != (b in board.blocked))
    with pytest.raises(ValueError, match="blocked"):
        board.with_rubble(frozenset({Rubble.on_edge(*border)}))


@pytest.mark.parametrize("map_id", MAPS)
def test_map_show_draws_each_map(map_id: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "funkoverse", "map", "show", map_id],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert load_map(map_id).name in done.stdout

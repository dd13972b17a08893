"""The map model (coordinates, static tables) and the map loader (spec/map-format.md):
shipped maps load, and every broken file gets one line naming file:line:col."""

from __future__ import annotations

from pathlib import Path

import pytest

from funkoverse.content.maps import load_map, parse_map_dict, parse_map_text, shipped_maps
from funkoverse.errors import UserError
from funkoverse.rules.core import geometry as g
from funkoverse.rules.core.board import Board, column_letters

GOOD = '''name = "Test Yard"
box = "tests"
width = 4
height = 3
note = "for loader tests"
grid = """
+-+-+-+-+
|. . . .|
+ +-+   +
|.|#|. .|
+ +-+   +
|. . . .|
+-+-+-+-+
"""

[layers]
start = """
DD..
....
..LL
"""
points = """
...A
....
B...
"""
terrain = """
....
...O
....
"""

[legend.start]
D = "dark"
L = "light"
'''
# file lines (from 1): grid rows are lines 7-13; the start layer's rows lines 18-20


def test_good_file_loads_every_part() -> None:
    """map-format.md: grid, layers and legend become the Board's fields."""
    b = parse_map_text(GOOD, "yard.toml")
    assert (b.name, b.box, b.width, b.height, b.note) == (
        "Test Yard",
        "tests",
        4,
        3,
        "for loader tests",
    )
    assert b.blocked == {b.square(1, 1)}
    assert b.obscured == {b.square(3, 1)}
    assert dict(b.start_areas) == {"dark": (0, 1), "light": (10, 11)}
    assert dict(b.point_squares) == {"A": b.square(3, 0), "B": b.square(0, 2)}
    assert b.layers["start"] == ("DD..", "....", "..LL")
    assert b.is_wall(b.square(0, 1), b.square(1, 1))
    assert not b.is_wall(b.square(2, 1), b.square(3, 1))
    assert (1, 1) in b.obstructed_points and (3, 1) not in b.obstructed_points


def test_coordinates_and_labels() -> None:
    """map-format.md Coordinates: `a1` is the top-left square, `b3` is [1, 2]."""
    b = parse_map_text(GOOD, "yard.toml")
    assert b.square(1, 2) == 9 and b.xy(9) == (1, 2)
    assert b.label(0) == "a1" and b.label(b.square(1, 2)) == "b3"
    assert b.parse_label("b3") == b.square(1, 2) == b.parse_label("B3")
    assert all(b.parse_label(b.label(s)) == s for s in b.squares)
    for bad in ("", "3b", "e1", "a4", "a0", "a-1", "??"):
        with pytest.raises(ValueError):
            b.parse_label(bad)
    assert not b.on_board(4, 0) and not b.on_board(-1, 0) and b.on_board(3, 2)
    assert [column_letters(x) for x in (0, 25, 26, 27, 51, 52)] == [
        "a",
        "z",
        "aa",
        "ab",
        "az",
        "ba",
    ]
    assert b.squares == range(12)


def test_steps_and_adjacency_are_tables_built_once() -> None:
    """Static tables: asking twice gives the very same objects (no work per question)."""
    b = parse_map_text(GOOD, "yard.toml")
    assert b.steps(0) is b.steps(0)
    assert b.sight_from(4) is b.sight_from(4)
    assert g.adjacent_squares(b, 0) is g.adjacent_squares(b, 0)


def test_proving_grounds() -> None:
    """The placeholder first-game map: 10x10, walls, one enclosed blocked area, posts,
    starting areas of 6 squares on opposite edges, point setup squares A-D, a note."""
    b = load_map("proving-grounds")
    assert (b.name, b.box, b.width, b.height) == ("Proving Grounds", "funkoverse", 10, 10)
    assert "placeholder" in b.note and "not a printed board" in b.note
    assert set(b.start_areas) == {"dark", "light"}
    assert len(b.start_areas["dark"]) == len(b.start_areas["light"]) == 6
    assert {b.xy(s)[1] for s in b.start_areas["dark"]} == {0}
    assert {b.xy(s)[1] for s in b.start_areas["light"]} == {9}
    assert sorted(b.point_squares) == ["A", "B", "C", "D"]
    assert b.blocked and b.walls and b.obscured
    lone_posts = [
        p
        for p in b.obstructed_points
        if 0 < p[0] < 10 and 0 < p[1] < 10 and not any(e in b.walls for e in b.point_edges(*p))
    ]
    assert lone_posts
    # the blocked area cannot be entered from anywhere
    for s in b.squares:
        assert not set(b.steps(s)) & b.blocked
    # each side can walk to every open square
    start = b.start_areas["dark"][0]
    seen, todo = {start}, [start]
    while todo:
        for n in b.steps(todo.pop()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == set(b.squares) - b.blocked


def test_every_shipped_map_loads() -> None:
    assert "proving-grounds" in shipped_maps()
    for map_id in shipped_maps():
        assert isinstance(load_map(map_id), Board)


def test_load_map_by_path(tmp_path: Path) -> None:
    f = tmp_path / "yard.toml"
    f.write_text(GOOD)
    assert load_map(str(f)).name == "Test Yard"
    assert load_map(f).name == "Test Yard"


def test_unknown_map_id_and_missing_file() -> None:
    with pytest.raises(UserError, match=r"unknown map 'nowhere'.*proving-grounds"):
        load_map("nowhere")
    with pytest.raises(UserError, match="no such map file"):
        load_map("no/such/file.toml")


# -- loader errors: one line naming file:line:col --------------------------------


def broken(tmp_path: Path, old: str, new: str, count: int = 1) -> str:
    text = GOOD.replace(old, new, count)
    assert text != GOOD
    f = tmp_path / "broken.toml"
    f.write_text(text)
    with pytest.raises(UserError) as info:
        load_map(str(f))
    msg = str(info.value)
    assert "\n" not in msg
    assert msg.startswith(f"{f}:")
    return msg[len(str(f)) :]


def test_error_broken_frame(tmp_path: Path) -> None:
    """map-format.md: "the outer frame is all wall"."""
    msg = broken(tmp_path, "|. . . .|\n+ +-+", "|. . . . \n+ +-+")
    assert msg.startswith(":8:9: broken frame")
    msg = broken(tmp_path, '"""\n+-+-+-+-+', '"""\n+-+ +-+-+')
    assert msg.startswith(":7:4: broken frame")


def test_error_wall_edge_end_is_not_a_plus(tmp_path: Path) -> None:
    """map-format.md: "both ends of every wall edge are `+`"."""
    msg = broken(tmp_path, "+ +-+   +\n|.|", "+ +-    +\n|.|")
    assert msg == ":9:5: wall edge ends at an open grid point; put '+' there"


def test_error_blocked_square_not_walled_off(tmp_path: Path) -> None:
    """map-format.md: every edge between a `#` square and a non-`#` square is a wall."""
    msg = broken(tmp_path, "|.|#|. .|", "|.|# . .|")
    assert msg.startswith(":10:5: blocked square next to an open one (b2, c2)")


def test_error_bad_character(tmp_path: Path) -> None:
    """map-format.md: "no other characters"."""
    msg = broken(tmp_path, "|. . . .|\n+-+", "|. . x .|\n+-+")
    assert msg.startswith(":12:6: unexpected 'x' at square c3")
    msg = broken(tmp_path, "+ +-+   +\n|.|", "+ +-+ * +\n|.|")
    assert msg.startswith(":9:7: unexpected '*' at a grid point")


def test_error_wrong_sizes(tmp_path: Path) -> None:
    """map-format.md: "sizes match `width` and `height`"; layers are `height` lines of
    `width` characters."""
    msg = broken(tmp_path, "width = 4", "width = 5")
    assert msg.startswith(":7:10: grid line has 9 characters")
    msg = broken(tmp_path, "height = 3", "height = 4")
    assert msg.startswith(":14:1: the grid has 7 lines")
    msg = broken(tmp_path, "DD..\n", "DD...\n")
    assert msg.startswith(":18:5: layer 'start' row 1 has 5 characters")
    msg = broken(tmp_path, "..LL\n", "..LL\n....\n")
    assert msg.startswith(":21:1: layer 'start' has 4 rows")
    msg = broken(tmp_path, "width = 4", "width = 0")
    assert msg.startswith(":3:9: 'width' must be a whole number")


def test_error_start_letter_missing_from_the_legend(tmp_path: Path) -> None:
    """map-format.md: `[legend.start]` maps each start letter to a side."""
    msg = broken(tmp_path, "..LL\n", "..LX\n")
    assert msg.startswith(":20:4: start letter 'X' at d3 is not in [legend.start]")


def test_error_bad_layer_characters(tmp_path: Path) -> None:
    msg = broken(tmp_path, "...A\n", "...E\n")
    assert msg.startswith(":23:4: unexpected 'E' in the points layer")
    msg = broken(tmp_path, "...O\n", "...X\n")
    assert msg.startswith(":29:4: unexpected 'X' in the terrain layer")
    msg = broken(tmp_path, "DD..\n", "DD#.\n")
    assert msg.startswith(":18:3: unexpected '#' in the start layer")


def test_error_bad_toml(tmp_path: Path) -> None:
    msg = broken(tmp_path, "width = 4", "width = ")
    assert msg.startswith(":3:9: bad TOML: Invalid value")
    msg = broken(tmp_path, 'note = "for loader tests"', 'note = "for loader tests')
    assert msg.startswith(":5:")


def test_error_missing_and_unknown_keys(tmp_path: Path) -> None:
    msg = broken(tmp_path, "width = 4\n", "")
    assert msg == ":1:1: missing 'width' (squares across)"
    msg = broken(tmp_path, "box = ", "boxx = ")
    assert msg.startswith(":2:8: unknown key 'boxx'")


def test_inline_map_errors_name_the_field_and_position() -> None:
    """parse_map_dict: the same checks, positions within the grid string (from 1)."""
    grid = "+-+-+\n|. .|\n+   +\n|. . \n+-+-+"
    with pytest.raises(UserError) as info:
        parse_map_dict({"width": 2, "height": 2, "grid": grid}, "map")
    assert str(info.value) == "map.grid:4:5: broken frame: the map's edge needs '|' here"
    with pytest.raises(UserError, match=r"^map\.height: 'height' must be"):
        parse_map_dict({"width": 2, "height": "2", "grid": grid}, "map")
    with pytest.raises(UserError, match=r"^map: missing 'grid'"):
        parse_map_dict({"width": 2, "height": 2}, "map")
    terrain = {"terrain": "..\n.?"}
    with pytest.raises(UserError, match=r"^map\.layers\.terrain:2:2: unexpected '\?'"):
        parse_map_dict(
            {"width": 2, "height": 2, "grid": grid.replace(". \n", ".|\n"), "layers": terrain},
            "map",
        )


def test_an_inline_map_quotes_what_it_refuses_cut_short() -> None:
    """Found by fuzzing: an unknown key (or a width, or a layer's name) thousands of
    characters long was quoted whole, twice, in a refusal of many kilobytes."""
    long = "w" + "\x7f" * 5000
    for inline in (
        {long: 1, "width": 2},
        {"width": long, "height": 2, "grid": ""},
        {"width": 1, "height": 1, "grid": "+-+\n|.|\n+-+", "layers": {long: 5}},
    ):
        with pytest.raises(UserError) as refused:
            parse_map_dict(inline, "map")
        said = str(refused.value)
        assert said.startswith("map") and len(said) < 300, said


@pytest.mark.parametrize("name", ["a" * 300, "a\x00b", "maps/" + "b" * 300 + ".toml"])
def test_a_map_name_no_file_can_have_is_refused_as_unknown(name: str) -> None:
    """Found by fuzzing `funkoverse query`: a map name longer than a file name may be raised
    OSError (File name too long), one with a null byte ValueError ("internal error")."""
    with pytest.raises(UserError) as refused:
        load_map(name)
    said = str(refused.value)
    assert len(said) < 400 and "\n" not in said
    assert said.startswith(("unknown map", "a\\x00b: cannot read", "maps/bbb"))

"""Map files (TOML, `spec/map-format.md`) turned into `Board`s, with errors a person can act on.

Every error is one `UserError` line naming where the problem is: `file:line:col:`
for a map file (lines and columns counted from 1, as editors do), or
`source.field:line:col:` for an inline map (counted from 1 within that string).
"""

from __future__ import annotations

import dataclasses
import functools
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from funkoverse.content.fan import Folders, extra_map
from funkoverse.errors import UserError
from funkoverse.rules.core.board import Board, column_letters

_TOP_KEYS = frozenset({"name", "box", "width", "height", "note", "grid", "layers", "legend"})
_KNOWN_LAYERS = {
    "start": "a letter for each starting area",
    "points": "'A'-'D' for the point markers' setup squares",
    "terrain": "'O' for obscured terrain",
}
_POINT_LETTERS = frozenset("ABCD")


# -- where an error is -------------------------------------------------------


@dataclass(frozen=True)
class _ValuePos:
    line: int  # 0-based file line of the key
    col: int  # 0-based column where the value starts
    content_line: int  # 0-based file line where a string's content starts
    content_col: int
    multiline: bool


class _Source:
    """Names positions: in a TOML file (file:line:col) or in an inline map's fields."""

    def __init__(self, name: str, text: str | None) -> None:
        self.name = name
        self._positions = _scan_toml_keys(text) if text is not None else None

    def err(self, msg: str, fld: str | None = None, line: int = -1, col: int = -1) -> UserError:
        return UserError(f"{self.where(fld, line, col)}: {msg}")

    def where(self, fld: str | None, line: int = -1, col: int = -1) -> str:
        if self._positions is None:  # an inline map
            if fld is None:
                return self.name
            fld = _cut(fld)
            if line < 0:
                return f"{self.name}.{fld}"
            return f"{self.name}.{fld}:{line + 1}:{col + 1}"
        pos = self._positions.get(fld) if fld is not None else None
        if pos is None:
            return f"{self.name}:1:1"
        if line < 0:
            return f"{self.name}:{pos.line + 1}:{pos.col + 1}"
        if not pos.multiline:
            return (
                f"{self.name}:{pos.line + 1}:{pos.col + 1}: {fld} line {line + 1}, column {col + 1}"
            )
        file_line = pos.content_line + line
        file_col = (pos.content_col if line == 0 else 0) + col
        return f"{self.name}:{file_line + 1}:{file_col + 1}"


QUOTED = 40  # characters of a key or value from the input that a message quotes


def _cut(text: str) -> str:
    """A name from the input as a message names it: cut short."""
    return text if len(text) <= QUOTED else text[: QUOTED - 3] + "..."


def _shown(value: Any) -> str:
    """A value from the input as a message quotes it: its repr, cut short."""
    return _cut(repr(value))


_HEADER = re.compile(r"\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$")


def _scan_toml_keys(text: str) -> dict[str, _ValuePos]:
    """Where each `key = value` of a TOML text is, by dotted key (best effort, for messages)."""
    out: dict[str, _ValuePos] = {}
    table = ""
    lines = text.splitlines()
    n = 0
    while n < len(lines):
        raw = lines[n]
        m = _HEADER.match(raw)
        if m and not raw.lstrip().startswith("[["):
            table = ".".join(p.strip().strip("\"'") for p in m.group(1).split("."))
            n += 1
            continue
        eq = raw.find("=")
        key_part = raw[:eq].strip() if eq > 0 else ""
        if not key_part or key_part.startswith("#"):
            n += 1
            continue
        key = ".".join(p.strip().strip("\"'") for p in key_part.split("."))
        full = f"{table}.{key}" if table else key
        col = eq + 1
        while col < len(raw) and raw[col] in " \t":
            col += 1
        rest = raw[col:]
        delim = rest[:3] if rest[:3] in ('"""', "'''") else ""
        if delim:
            after = rest[3:]
            closed = delim in after
            if after == "" and not closed:
                pos = _ValuePos(n, col, n + 1, 0, True)
            else:
                pos = _ValuePos(n, col, n, col + 3, True)
            out[full] = pos
            if not closed:  # skip the string's lines
                n += 1
                while n < len(lines) and delim not in lines[n]:
                    n += 1
        else:
            out[full] = _ValuePos(n, col, n, col, False)
        n += 1
    return out


# -- public entry points -----------------------------------------------------


def maps_folder() -> Traversable:
    return resources.files("funkoverse.content") / "data" / "maps"


def shipped_maps() -> list[str]:
    """Ids of the maps that come with the game (file stems under content/data/maps)."""
    folder = maps_folder()
    return sorted(p.name[: -len(".toml")] for p in folder.iterdir() if p.name.endswith(".toml"))


def load_map(id_or_path: str | Path, folders: Folders = (), stamp: str = "") -> Board:
    """A shipped map by id (`"proving-grounds"`), a map of the fan content `folders` by id, or
    a map file by path. A map is read once: its tables (sight, steps) are built once per run,
    whoever plays on it."""
    text_id = str(id_or_path)
    lowered = text_id.lower().replace(" ", "-").replace("'", "")
    if (
        isinstance(id_or_path, str)
        and lowered != text_id
        and not _is(Path(text_id), "exists")
        and _is(maps_folder() / f"{lowered}.toml", "is_file")
    ):
        raise UserError(f"unknown map {_shown(text_id)}: map ids are lower case, as in '{lowered}'")
    if isinstance(id_or_path, str) and re.fullmatch(r"[a-z0-9][a-z0-9-]*", text_id):
        if _is(maps_folder() / f"{text_id}.toml", "is_file"):
            return _shipped_map(text_id)
        fan = _fan_map(text_id, folders, stamp)
        if fan is not None:
            return fan
        if not _is(Path(text_id), "exists"):
            known = ", ".join(shipped_maps()) or "none"
            raise UserError(
                f"unknown map {_shown(text_id)} (shipped maps: {known}; or give a file path)"
            )
    return load_map_file(Path(id_or_path))


def _is(path: Path | Traversable, question: str) -> bool:
    """`path.exists()` or `path.is_file()`, False for a name no file can have (too long, a
    null byte in it)."""
    try:
        return bool(getattr(path, question)())
    except (OSError, ValueError):
        return False


@functools.cache
def _shipped_map(map_id: str) -> Board:
    res = maps_folder() / f"{map_id}.toml"
    board = parse_map_text(res.read_text(encoding="utf-8"), f"maps/{map_id}.toml")
    return dataclasses.replace(board, id=map_id)


def _fan_map(map_id: str, folders: Folders, stamp: str) -> Board | None:
    """A fan-made map of one of the content folders (`--content`), by id; read once for each
    `stamp` of the folders' files."""
    path = extra_map(map_id, folders)
    if path is None:
        return None
    return _fan_map_file(str(path), map_id, stamp)


@functools.cache
def _fan_map_file(path: str, map_id: str, stamp: str) -> Board:
    return dataclasses.replace(load_map_file(Path(path)), id=map_id)


def load_map_file(path: Path) -> Board:
    """Read and validate one map file."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"{path}: no such map file") from None
    except (OSError, ValueError) as e:  # a name no file can have; not UTF-8
        reason = e.strerror if isinstance(e, OSError) and e.strerror else e
        raise UserError(f"{path}: cannot read map file: {reason}") from None
    return parse_map_text(text, str(path))


_TOML_POS = re.compile(r"^(.*?)\s*\(at line (\d+), column (\d+)\)$")
_TOML_END = re.compile(r"^(.*?)\s*\(at end of document\)$")


def parse_map_text(text: str, source_name: str) -> Board:
    """Parse a map file's TOML text; errors name `source_name:line:col`."""
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise UserError(f"{source_name}:1:1: bad TOML: its values are nested too deeply") from None
    except tomllib.TOMLDecodeError as e:
        msg = str(e).splitlines()[0] if str(e) else "invalid TOML"
        m = _TOML_POS.match(msg)
        if m:
            raise UserError(
                f"{source_name}:{m.group(2)}:{m.group(3)}: bad TOML: {m.group(1)}"
            ) from None
        m = _TOML_END.match(msg)
        if m:
            line = text.count("\n") + 1
            raise UserError(f"{source_name}:{line}:1: bad TOML: {m.group(1)}") from None
        raise UserError(f"{source_name}:1:1: bad TOML: {msg}") from None
    return _build(data, _Source(source_name, text), Path(source_name).stem)


def parse_map_dict(data: Mapping[str, Any], source_name: str) -> Board:
    """Validate an inline map (a JSON object in the map file format).

    Errors name the field, e.g. `map.grid:3:5: ...` (line and column within that
    string, from 1)."""
    if not isinstance(data, Mapping):
        raise UserError(f"{source_name}: a map is an object with width, height and grid")
    return _build(data, _Source(source_name, None), "inline map")


# -- validation --------------------------------------------------------------


def _text_rows(value: str) -> tuple[list[str], int]:
    """A multi-line string's rows, without blank lines before and after; and how
    many rows were dropped at the start (to keep line numbers true)."""
    rows = value.split("\n")
    rows = [r[:-1] if r.endswith("\r") else r for r in rows]
    skip = 0
    while rows and rows[0].strip() == "":
        rows.pop(0)
        skip += 1
    while rows and rows[-1].strip() == "":
        rows.pop()
    return rows, skip


def _sq_name(x: int, y: int) -> str:
    return f"{column_letters(x)}{y + 1}"


def _build(data: Mapping[str, Any], src: _Source, default_name: str) -> Board:
    for key in data:
        if key not in _TOP_KEYS:
            raise src.err(
                f"unknown key {_shown(key)} (a map has: {', '.join(sorted(_TOP_KEYS))})", str(key)
            )
    width = _positive_int(data, "width", src)
    height = _positive_int(data, "height", src)
    name = _string(data, "name", src, default_name)
    box = _string(data, "box", src, "")
    note = _string(data, "note", src, "")
    if "grid" not in data:
        raise src.err("missing 'grid' (the map's squares, walls and grid points)")
    grid = data["grid"]
    if not isinstance(grid, str):
        raise src.err("'grid' must be a string", "grid")
    blocked, walls, points = _parse_grid(grid, width, height, src)

    layers_raw = data.get("layers", {})
    if not isinstance(layers_raw, Mapping):
        raise src.err("'layers' must be a table of strings", "layers")
    legend_raw = data.get("legend", {})
    if not isinstance(legend_raw, Mapping):
        raise src.err("'legend' must be a table of tables", "legend")
    layers: dict[str, tuple[str, ...]] = {}
    for lname, value in layers_raw.items():
        layers[str(lname)] = _parse_layer(str(lname), value, width, height, src)

    start_areas: dict[str, list[int]] = {}
    if "start" in layers:
        legend = legend_raw.get("start", {})
        if not isinstance(legend, Mapping):
            raise src.err("'legend.start' must be a table: letter = side", "legend.start")
        for letter, side in legend.items():
            if not isinstance(side, str) or not side:
                raise src.err(
                    f"legend.start.{_cut(str(letter))} must name a side", f"legend.start.{letter}"
                )
        for y, row in enumerate(layers["start"]):
            for x, ch in enumerate(row):
                if ch == ".":
                    continue
                line, col = _layer_pos("start", y, x, layers_raw, src)
                if not ch.isalpha():
                    raise src.err(
                        f"unexpected {ch!r} in the start layer; use a letter or '.'",
                        "layers.start",
                        line,
                        col,
                    )
                if ch not in legend:
                    raise src.err(
                        f"start letter {ch!r} at {_sq_name(x, y)} is not in [legend.start]; "
                        f'add {ch} = "dark" (or the side it stands for)',
                        "layers.start",
                        line,
                        col,
                    )
                if y * width + x in blocked:
                    raise src.err(
                        f"starting area square {_sq_name(x, y)} is blocked ('#') in the grid",
                        "layers.start",
                        line,
                        col,
                    )
                start_areas.setdefault(legend[ch], []).append(y * width + x)

    point_squares: dict[str, int] = {}
    if "points" in layers:
        for y, row in enumerate(layers["points"]):
            for x, ch in enumerate(row):
                if ch == ".":
                    continue
                line, col = _layer_pos("points", y, x, layers_raw, src)
                if ch not in _POINT_LETTERS:
                    raise src.err(
                        f"unexpected {ch!r} in the points layer; use 'A'-'D' or '.'",
                        "layers.points",
                        line,
                        col,
                    )
                if ch in point_squares:
                    raise src.err(f"point marker {ch!r} set up twice", "layers.points", line, col)
                if y * width + x in blocked:
                    raise src.err(
                        f"point marker square {_sq_name(x, y)} is blocked ('#') in the grid",
                        "layers.points",
                        line,
                        col,
                    )
                point_squares[ch] = y * width + x

    obscured: set[int] = set()
    if "terrain" in layers:
        for y, row in enumerate(layers["terrain"]):
            for x, ch in enumerate(row):
                if ch == ".":
                    continue
                if ch != "O":
                    line, col = _layer_pos("terrain", y, x, layers_raw, src)
                    raise src.err(
                        f"unexpected {ch!r} in the terrain layer; use 'O' (obscured) or '.'",
                        "layers.terrain",
                        line,
                        col,
                    )
                obscured.add(y * width + x)

    return Board(
        name=name,
        box=box,
        width=width,
        height=height,
        note=note,
        blocked=frozenset(blocked),
        obscured=frozenset(obscured),
        start_areas={side: tuple(sorted(sqs)) for side, sqs in start_areas.items()},
        point_squares=point_squares,
        layers=layers,
        walls=frozenset(walls),
        obstructed_points=frozenset(points),
    )


def _positive_int(data: Mapping[str, Any], key: str, src: _Source) -> int:
    if key not in data:
        raise src.err(f"missing {key!r} (squares {'across' if key == 'width' else 'down'})")
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 64:
        raise src.err(f"{key!r} must be a whole number from 1 to 64, not {_shown(value)}", key)
    return value


def _string(data: Mapping[str, Any], key: str, src: _Source, default: str) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise src.err(f"{key!r} must be a string", key)
    return value


def _layer_pos(
    lname: str, y: int, x: int, layers_raw: Mapping[str, Any], src: _Source
) -> tuple[int, int]:
    """Row and column within the layer's string value of the layer's square (x, y)."""
    _, skip = _text_rows(str(layers_raw.get(lname, "")))
    return y + skip, x


def _parse_layer(lname: str, value: Any, width: int, height: int, src: _Source) -> tuple[str, ...]:
    fld = f"layers.{lname}"
    if not isinstance(value, str):
        raise src.err(f"layer {_shown(lname)} must be a string of {height} rows", fld)
    rows, skip = _text_rows(value)
    if len(rows) != height:
        raise src.err(
            f"layer {_shown(lname)} has {len(rows)} rows; the map is {height} squares down",
            fld,
            skip + min(len(rows), height) if rows else skip,
            0,
        )
    for y, row in enumerate(rows):
        if len(row) != width:
            raise src.err(
                f"layer {_shown(lname)} row {y + 1} has {len(row)} characters; "
                f"the map is {width} squares across",
                fld,
                skip + y,
                min(len(row), width),
            )
    return tuple(rows)


def _parse_grid(
    grid: str, width: int, height: int, src: _Source
) -> tuple[set[int], set[tuple[int, int]], set[tuple[int, int]]]:
    """Check the grid against map-format.md and read its blocked squares, wall
    edges (inside ones, as square pairs) and obstructed grid points."""
    rows, skip = _text_rows(grid)
    n_lines, n_cols = 2 * height + 1, 2 * width + 1
    if len(rows) != n_lines:
        raise src.err(
            f"the grid has {len(rows)} lines; a {width}x{height} map needs 2*height+1 = {n_lines}",
            "grid",
            skip + min(len(rows), n_lines) if rows else skip,
            0,
        )
    # the top frame line shows the width; a longer line anywhere is a size error
    # (shorter ones are padded with spaces, as editors drop trailing ones)
    for r, row in enumerate(rows):
        length = len(row.rstrip())
        if length > n_cols or (r == 0 and length != n_cols):
            raise src.err(
                f"grid line has {length} characters; a {width}-square-wide map "
                f"needs 2*width+1 = {n_cols}",
                "grid",
                skip + r,
                min(length, n_cols),
            )
    g = [row.ljust(n_cols)[:n_cols] for row in rows]

    def err(msg: str, r: int, c: int) -> UserError:
        return src.err(msg, "grid", skip + r, c)

    # characters: each position holds one kind of thing
    for r in range(n_lines):
        for c in range(n_cols):
            ch = g[r][c]
            if r % 2 and c % 2:
                what, allowed = f"square {_sq_name(c // 2, r // 2)}", ".#"
            elif r % 2:
                what, allowed = "a wall position between squares side by side", "| "
            elif c % 2:
                what, allowed = "a wall position between squares one above the other", "- "
            else:
                what, allowed = "a grid point", "+ "
            if ch not in allowed:
                shown = " or ".join(repr(a) for a in allowed)
                raise err(f"unexpected {ch!r} at {what}; expected {shown}", r, c)
    # the outer frame is all wall
    for r in range(n_lines):
        for c in (0, n_cols - 1):
            want = "|" if r % 2 else "+"
            if g[r][c] != want:
                raise err(f"broken frame: the map's edge needs {want!r} here", r, c)
    for r in (0, n_lines - 1):
        for c in range(n_cols):
            want = "-" if c % 2 else "+"
            if g[r][c] != want:
                raise err(f"broken frame: the map's edge needs {want!r} here", r, c)
    # both ends of every wall edge are '+'
    for r in range(n_lines):
        for c in range(n_cols):
            ch = g[r][c]
            if ch == "|":
                ends = ((r - 1, c), (r + 1, c))
            elif ch == "-":
                ends = ((r, c - 1), (r, c + 1))
            else:
                continue
            for er, ec in ends:
                if g[er][ec] != "+":
                    raise err("wall edge ends at an open grid point; put '+' there", er, ec)
    blocked: set[int] = set()
    for y in range(height):
        for x in range(width):
            if g[2 * y + 1][2 * x + 1] == "#":
                blocked.add(y * width + x)
    walls: set[tuple[int, int]] = set()
    for y in range(height):
        for x in range(width):
            a = y * width + x
            if x + 1 < width:
                ch = g[2 * y + 1][2 * x + 2]
                if ch == "|":
                    walls.add((a, a + 1))
                elif (a in blocked) != (a + 1 in blocked):
                    raise err(
                        f"blocked square next to an open one ({_sq_name(x, y)}, "
                        f"{_sq_name(x + 1, y)}) needs a wall: put '|' here",
                        2 * y + 1,
                        2 * x + 2,
                    )
            if y + 1 < height:
                b = a + width
                ch = g[2 * y + 2][2 * x + 1]
                if ch == "-":
                    walls.add((a, b))
                elif (a in blocked) != (b in blocked):
                    raise err(
                        f"blocked square next to an open one ({_sq_name(x, y)}, "
                        f"{_sq_name(x, y + 1)}) needs a wall: put '-' here",
                        2 * y + 2,
                        2 * x + 1,
                    )
    points = {
        (cx, cy) for cy in range(height + 1) for cx in range(width + 1) if g[2 * cy][2 * cx] == "+"
    }
    return blocked, walls, points

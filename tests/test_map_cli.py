"""`funkoverse map show` and `render_board`: what the drawing must show."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from funkoverse.cli import main
from funkoverse.content.maps import load_map, parse_map_dict
from funkoverse.rules.core.pieces import Kind
from funkoverse.text.board import render_board


def show(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["map", "show", *args])
    out, err = capsys.readouterr()
    return code, out, err


def board_lines(out: str) -> list[str]:
    """The drawing's own lines: from the column letters to the frame's bottom."""
    lines = out.splitlines()
    top = next(i for i, line in enumerate(lines) if line.split() and line.split()[0] == "a")
    bottom = next(i for i in range(top, len(lines)) if lines[i].strip().startswith("└"))
    return lines[top : bottom + 1]


def test_show_proving_grounds(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = show(capsys, "proving-grounds")
    assert code == 0 and err == ""
    assert "Proving Grounds" in out and "placeholder" in out
    lines = board_lines(out)
    assert lines[0].split() == list("abcdefghij")
    assert len(lines) == 1 + 2 * 10 + 1
    assert lines[1].strip().startswith("┌") and lines[-1].strip().endswith("┘")
    rows = [line for line in lines if line.split() and line.split()[0].isdigit()]
    assert [int(r.split()[0]) for r in rows] == list(range(1, 11))
    drawing = "\n".join(lines)
    for mark in ("│", "─", "●", "▓", "░", "[A]", "[B]", "[C]", "[D]"):
        assert mark in drawing, mark
    assert rows[0].count(" d ") == 6  # the dark starting area along the top edge
    assert rows[-1].count(" l ") == 6  # the light one along the bottom
    assert "dark starting area" in out and "light starting area" in out


def test_columns_line_up_with_squares(capsys: pytest.CaptureFixture[str]) -> None:
    """Column letters stand over the middle of their squares (a1 top-left)."""
    _, out, _ = show(capsys, "proving-grounds")
    lines = board_lines(out)
    header, row1 = lines[0], lines[2]
    assert row1[header.index("c")] == "d"  # c1 is in the dark starting area
    assert row1[header.index("a")] == "·"


POSITION = [
    {"id": "A", "team": "dark", "at": [2, 0]},
    {"id": "Bx", "team": "dark", "kind": "basic", "at": [4, 3], "standing": False},
    {"id": "Z", "team": "light", "at": [5, 8]},
    {"id": "t", "team": "light", "kind": "token", "at": [0, 9]},
]


def test_show_a_map_file_with_a_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Pieces are drawn by label; a knocked-down one is marked '↓', a token '(t)'."""
    src = Path(__file__).resolve().parent.parent / "src/funkoverse/content/data/maps"
    map_file = tmp_path / "pg.toml"
    map_file.write_text((src / "proving-grounds.toml").read_text())
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(POSITION))
    code, out, err = show(capsys, str(map_file), "--position", str(pos))
    assert code == 0 and err == ""
    rows = [line for line in board_lines(out) if line.split() and line.split()[0].isdigit()]
    header = board_lines(out)[0]
    assert rows[0][header.index("c") - 1 : header.index("c") + 2] == " A "
    assert "↓Bx" in rows[3]
    assert " Z " in rows[8]
    assert "(t)" in rows[9]
    assert "Bx  dark basic at e4, knocked down" in out


def test_show_reads_a_position_on_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps({"pieces": POSITION})))
    code, out, _ = show(capsys, "proving-grounds", "--position", "-")
    assert code == 0 and "↓Bx" in out


@pytest.mark.parametrize(
    ("position", "says"),
    [
        ("{oops", "malformed JSON"),
        (
            json.dumps([{"id": "A", "team": "dark", "at": [4, 4]}]),
            "pieces[0].at: [4, 4] is a blocked square",
        ),
        (
            json.dumps([{"id": "A", "team": "dark", "at": [10, 0]}]),
            "pieces[0].at: [10, 0] is outside",
        ),
        (json.dumps({"nothing": 1}), "expected a list of pieces"),
    ],
)
def test_a_bad_position_is_one_line_and_non_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], position: str, says: str
) -> None:
    pos = tmp_path / "pos.json"
    pos.write_text(position)
    code, out, err = show(capsys, "proving-grounds", "--position", str(pos))
    assert code != 0 and out == ""
    assert len(err.strip().splitlines()) == 1 and says in err


def test_bad_map_names_are_one_line_and_non_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = show(capsys, "no-such-map")
    assert code != 0 and len(err.strip().splitlines()) == 1 and "unknown map" in err
    broken = tmp_path / "broken.toml"
    broken.write_text('width = 1\nheight = 1\ngrid = """\n+-+\n|x|\n+-+\n"""\n')
    code, _, err = show(capsys, str(broken))
    assert (
        code != 0
        and err.strip()
        == f"funkoverse map: {broken}:5:2: unexpected 'x' at square a1; expected '.' or '#'"
    )
    code, _, err = show(capsys, "proving-grounds", "--position", str(tmp_path / "missing.json"))
    assert code != 0 and "no such position file" in err


def test_the_command_runs_as_a_program() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "funkoverse", "map", "show", "proving-grounds"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    assert "┌" in proc.stdout and "[A]" in proc.stdout


@dataclass(frozen=True)
class P:
    id: str
    side: str
    square: int | None
    kind: Kind = Kind.CHARACTER
    standing: bool = True
    elusive: bool = False
    defense: int | None = None


def test_render_board_labels_and_highlights() -> None:
    """render_board: labels draw pieces by the given 1-2 characters; highlighted squares
    are marked; a rubble-free wall is a box-drawing line; sides are colored."""
    b = parse_map_dict(
        {"width": 3, "height": 2, "grid": "+-+-+-+\n|. .|.|\n+   + +\n|. . .|\n+-+-+-+"},
        "test",
    )
    pieces = [
        P("hero-1", "dark", b.square(0, 0)),
        P("villain", "light", b.square(2, 1), standing=False),
    ]
    text = render_board(b, pieces, {"hero-1": "H", "villain": "V2"}, highlight={b.square(1, 0)})
    plain = text.plain.splitlines()
    assert plain[0] == "    a   b   c"
    assert plain[2] == "1 │ H   ○ │ · │"
    assert plain[4] == "2 │ ·   ·  ↓V2│"
    styles = {str(span.style) for span in text.spans}
    assert any("bright_magenta" in s for s in styles) and any("bright_yellow" in s for s in styles)
    default = render_board(b, pieces).plain
    assert "he" in default and "↓vi" in default


def test_render_board_needs_no_start_layer() -> None:
    b = load_map("proving-grounds")
    assert render_board(b, []).plain.count("[") == 4

"""`funkoverse odds`: what a person sees, and that bad input is one line, exit 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from funkoverse.cli import main
from funkoverse.content.dice import load_dice
from funkoverse.rules.core.dice import fraction_text, percent, win_probability

STD = load_dice()["standard"]
CHAMPION = load_dice()["champion"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(["odds", *argv])
    except SystemExit as e:  # argparse's own errors
        status = int(e.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def test_one_against_one(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "1", "1")
    assert status == 0, err
    assert "Chance the challenger wins: 7/18 = 38.9%" in out
    # the success distributions
    assert "successes" in out and "challenger" in out and "defender" in out
    assert "1/6" in out  # one triple-exclamation face in six


def test_defense_zero(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "1", "0")
    assert status == 0
    assert "2/3 = 66.7%" in out


def test_extra_dice(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "2", "2", "--attack-extra", "champion")
    assert status == 0
    p = win_probability([STD, STD, CHAMPION], [STD, STD])
    assert f"{fraction_text(p)} = {percent(p)}%" in out
    assert "Champion die" in out


def test_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "2", "1", "--defense-extra", "champion", "--json")
    assert status == 0
    answer = json.loads(out)
    p = win_probability([STD, STD], [STD, CHAMPION])
    assert answer["p"] == fraction_text(p)
    assert answer["percent"] == percent(p)
    assert answer["attack"] == {"dice": 2, "extra": []}
    assert answer["defense"] == {"dice": 1, "extra": ["champion"]}
    for role in ("challenger", "defender"):
        dist = answer["distributions"][role]
        assert sum(row["percent"] for row in dist) == pytest.approx(100, abs=0.5)
    # the champion die scores shields for the defender: 1 shield die + champion, at least 1
    assert answer["distributions"]["defender"][0]["successes"] == 1


def test_json_matches_conformance_format(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "1", "2", "--json")
    answer = json.loads(out)
    assert (answer["p"], answer["percent"]) == ("13/54", 24.1)


def _table_rows(out: str) -> dict[int, list[str]]:
    """Body rows of the drawn table: defender's dice -> cells."""
    rows: dict[int, list[str]] = {}
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip("│┃ ").split("│")]
        if len(cells) > 1 and cells[0].isdigit():
            rows[int(cells[0])] = cells[1:]
    return rows


def test_table_labels_and_cells(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--table")
    assert status == 0
    assert "Rows: defender's dice." in out
    assert "Columns: challenger's dice." in out
    assert "defender \\ challenger" in out  # the corner of the table says it too
    header = next(line for line in out.splitlines() if "defender \\ challenger" in line)
    assert [c.strip() for c in header.strip("┃ ").split("┃")][1:] == [str(a) for a in range(1, 7)]
    rows = _table_rows(out)
    assert sorted(rows) == list(range(7))  # defender's dice 0..6
    assert rows[0][0] == "66.7%"
    # The rulebook's first row (1 defender's die): 39% 66% 81% 89% 94% 97%.
    assert rows[1] == ["38.9%", "66.2%", "80.8%", "89.1%", "94.0%", "96.9%"]
    assert rows[2][0] == "24.1%"  # 1 challenger's die against 2


def test_table_max(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--table", "--max", "10")
    assert status == 0
    rows = _table_rows(out)
    assert sorted(rows) == list(range(11))
    assert all(len(cells) == 10 for cells in rows.values())
    assert rows[0][9] == ">99.9%"  # not certain, so never shown as 100.0%


def test_table_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--table", "--max", "3", "--json")
    assert status == 0
    answer = json.loads(out)
    assert answer["rows"] == "defender_dice"
    assert answer["columns"] == "challenger_dice"
    assert answer["defender_dice"] == [0, 1, 2, 3]
    assert answer["challenger_dice"] == [1, 2, 3]
    assert answer["p"][1][0] == "7/18"
    assert answer["percent"][2][0] == 24.1
    assert answer["percent"][1][1] == 66.2


BAD_INPUT = [
    ["-1", "2"],
    ["2", "-3"],
    ["two", "2"],
    ["2"],
    [],
    ["21", "1"],
    ["1", "21"],
    ["19", "1", "--attack-extra", "champion", "blood"],
    ["2", "2", "--attack-extra", "sword"],
    ["2", "2", "--defense-extra"],
    ["--table", "2", "2"],
    ["--table", "--attack-extra", "champion"],
    ["--table", "--max", "0"],
    ["--table", "--max", "21"],
    ["--table", "--max", "-4"],
    ["2", "2", "--max", "3"],
    ["2", "2", "--frobnicate"],
]


@pytest.mark.parametrize("argv", BAD_INPUT, ids=lambda a: " ".join(a) or "(nothing)")
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err


def test_unknown_die_lists_the_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    _, _, err = run(capsys, "2", "2", "--attack-extra", "sword")
    assert "unknown die 'sword'" in err
    assert "champion" in err and "blood" in err


def test_negative_dice_named(capsys: pytest.CaptureFixture[str]) -> None:
    _, _, err = run(capsys, "-1", "2")
    assert err == "funkoverse odds: ATTACK_DICE: expected 0 or more dice, got -1\n"


def _subprocess(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "funkoverse", "odds", *argv],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_command_runs_as_a_program() -> None:
    proc = _subprocess("--table")
    assert proc.returncode == 0, proc.stderr
    assert "Rows: defender's dice." in proc.stdout
    assert "Columns: challenger's dice." in proc.stdout
    assert "38.9%" in proc.stdout


@pytest.mark.parametrize("argv", [["-1", "2"], ["2", "2", "--attack-extra", "x"], ["5"]])
def test_command_bad_input_as_a_program(argv: list[str]) -> None:
    proc = _subprocess(*argv)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1
    assert "Traceback" not in proc.stderr

"""`funkoverse content check` and `content list`: a content file with a mistake is refused with
one line naming the file, the field and the fix; the catalogue lists every kind of thing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

CHARACTER = """\
id = "tester"
name = "Tester"
box = "test"
defense = 2
dots = ["might"]
{hooks}

[[abilities]]
id = "smash"
name = "Smash"
type = "{type}"
cost = {cost}
challenge_action = true
steps = [{{ op = "{op}", dice = 3 }}]
"""


def _character(**changes: str) -> str:
    fields = {"hooks": "", "type": "might", "cost": "3", "op": "challenge"}
    fields.update(changes)
    return CHARACTER.format(**fields)


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "funkoverse", "content", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


MISTAKES = {
    "unknown ability type": (
        _character(type="purple"),
        "abilities[0].type",
        "use one of",
    ),
    "a cost of 7": (_character(cost="7"), "abilities[0].cost", "from 1 to 4"),
    "a step the vocabulary lacks": (
        _character(op="teleport"),
        "abilities[0].steps[0].op",
        "not in the effects vocabulary",
    ),
    "an unknown hook": (
        _character(hooks='hooks = ["no-such-hook"]'),
        "hooks",
        "the hooks are",
    ),
}


@pytest.mark.parametrize("mistake", sorted(MISTAKES))
def test_content_check_refuses_a_file_with_a_mistake_in_one_line(
    mistake: str, tmp_path: Path
) -> None:
    text, field, fix = MISTAKES[mistake]
    path = tmp_path / "tester.toml"
    path.write_text(text, encoding="utf-8")
    result = _run("check", str(path))
    assert result.returncode != 0
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    line = lines[0]
    assert "Traceback" not in result.stderr
    assert str(path) in line  # the file
    assert f"field '{field}'" in line  # the field
    assert fix in line  # the fix


def test_content_check_the_correct_file_is_ok(tmp_path: Path) -> None:
    path = tmp_path / "tester.toml"
    path.write_text(_character(), encoding="utf-8")
    result = _run("check", str(path))
    assert result.returncode == 0, result.stderr
    assert "ok" in result.stdout


def test_content_check_a_step_parameter_the_step_does_not_take(tmp_path: Path) -> None:
    path = tmp_path / "tester.toml"
    path.write_text(_character().replace("dice = 3", "squares = 3"), encoding="utf-8")
    result = _run("check", str(path))
    assert result.returncode != 0
    assert "field 'abilities[0].steps[0].squares'" in result.stderr
    assert "it takes:" in result.stderr


def test_content_check_an_item_with_a_cost_of_7(tmp_path: Path) -> None:
    path = tmp_path / "net.toml"
    path.write_text(
        'id = "net"\nname = "Net"\nbox = "test"\ncost = 7\nsteps = [{ op = "challenge", dice = 2 }]\n',
        encoding="utf-8",
    )
    result = _run("check", "--kind", "item", str(path))
    assert result.returncode != 0
    assert len(result.stderr.strip().splitlines()) == 1
    assert "field 'cost'" in result.stderr and "1 to 4" in result.stderr


def test_content_list_json_has_every_kind_with_id_name_and_box() -> None:
    result = _run("list", "--json")
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    for key in (
        "characters",
        "items",
        "status_cards",
        "tokens",
        "dice",
        "maps",
        "scenarios",
        "modes",
    ):
        assert isinstance(found[key], list) and found[key], key
        for entry in found[key]:
            assert {"id", "name", "box"} <= set(entry), (key, entry)
    ids = {key: {e["id"] for e in found[key]} for key in ("characters", "items", "status_cards")}
    assert {"wonder-woman", "the-cheetah", "dracula", "the-creature", "the-bride"} <= ids[
        "characters"
    ]
    assert {"invisible-man", "priestess", "hyena-warrior", "mad-scientist", "villager"} <= ids[
        "characters"
    ]
    boxed = {e["id"] for e in found["items"] if e["box"] != "house-made"}
    assert boxed == {"lasso-of-truth", "fishing-net", "shovel"}
    assert ids["status_cards"] == {"she-hears", "she-breathes", "she-walks", "she-sees", "sneaking"}
    notes = " ".join(found["notes"])
    assert "Space Jam" in notes


def test_a_content_file_that_is_not_utf8_is_refused_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found by fuzzing: a file that is not UTF-8 raised `UnicodeDecodeError`, which named no
    file (`content check` said "internal error")."""
    from funkoverse.cli import main

    path = tmp_path / "characters" / "fan.toml"
    path.parent.mkdir()
    path.write_bytes(b'id = "fan"\nname = "\x80"\n')
    assert main(["content", "check", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"funkoverse content: {path}: not UTF-8 text (byte 20 is not)\n"
    )


ITEM = 'id = "tester"\nname = "Tester"\nbox = "test"\n{line}\n'
WRONG_KINDS = {
    # found by fuzzing: each raised TypeError or ValueError with no file or field named
    "an item's cost as a list": (ITEM.format(line="cost = [1, 2]"), "items", "'cost'"),
    "an item's cost as text": (ITEM.format(line='cost = "x"'), "items", "'cost'"),
    "a hook as a table": (_character(hooks="hooks = [{ a = 1 }]"), "characters", "'hooks'"),
    "dots as a number": (
        _character().replace('dots = ["might"]', "dots = 5"),
        "characters",
        "'dots'",
    ),
    "dice as text": (
        _character().replace('dots = ["might"]', 'dots = ["might"]\ndice = "abc"'),
        "characters",
        "'dice'",
    ),
    "a step's op as a list": (
        _character().replace('op = "challenge"', 'op = ["move"]'),
        "characters",
        "steps[0].op'",
    ),
    "abilities as a number": (
        _character().split("[[abilities]]")[0] + "abilities = 3\n",
        "characters",
        "'abilities'",
    ),
    "a cost against a knocked-down rival as text": (
        _character() + 'cost_vs_knocked_down = "two"\n',
        "characters",
        "cost_vs_knocked_down'",
    ),
    "a scenario's map as a number": (
        'id = "tester"\nname = "T"\nbox = "test"\nmaps = [5]\n',
        "scenarios",
        "'maps'",
    ),
    "a companion's actions as a table": (
        'id = "tester"\nname = "T"\nbox = "test"\ndefense = 1\nactions = { a = 1 }\n',
        "companions",
        "'actions'",
    ),
}


@pytest.mark.parametrize("mistake", sorted(WRONG_KINDS))
def test_a_value_of_the_wrong_kind_is_refused_naming_the_file_and_field(
    mistake: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from funkoverse.cli import main

    text, folder, field = WRONG_KINDS[mistake]
    path = tmp_path / folder / "tester.toml"
    path.parent.mkdir()
    path.write_text(text, encoding="utf-8")
    assert main(["content", "check", str(path)]) == 2
    said = capsys.readouterr().err
    assert said.startswith(f"funkoverse content: {path}: field ") and said.count("\n") == 1
    assert field in said, said


def test_checking_every_shipped_file_passes(capsys: pytest.CaptureFixture[str]) -> None:
    """`funkoverse content check` with no file checks every shipped content file; the
    rulebooks' sections beside them are read by their own loader, not taken for content."""
    from funkoverse.cli import main

    assert main(["content", "check"]) == 0
    assert capsys.readouterr().out.strip().endswith("content files: all ok")

"""Fan-made content tested before the table (issue 22, item 4): the example folder checks
clean, plays in simulate and match, and the report ranks its character among the shipped
ones; a broken fan file is refused in one line naming the file, the field and the fix."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from funkoverse.cli import main
from funkoverse.content.catalog import SHIPPED, load_catalog

ROOT = Path(__file__).resolve().parent.parent
FAN = ROOT / "examples" / "fan-content"


def test_the_example_is_marked_house_made_and_checks_clean(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for path in [*FAN.glob("*/*.toml"), FAN / "README.md"]:
        assert "house-made" in path.read_text(encoding="utf-8").lower(), path
    assert main(["content", "check", str(FAN)]) == 0
    out = capsys.readouterr().out
    assert "the-gardener.toml: ok (character The Gardener)" in out
    assert "hedge-maze.toml: ok (map" in out


def test_simulate_then_report_ranks_the_fan_character(tmp_path: Path) -> None:
    db = tmp_path / "fan.db"
    roster = "the-gardener,the-cheetah,wonder-woman,priestess,villager"
    argv = ["simulate", "--content", str(FAN), "--roster", roster, "--agent", "random"]
    argv += ["--map", "hedge-maze,themyscira", "--games", "4", "--max-rounds", "8"]
    assert main([*argv, "--out", str(db)]) == 0
    # the report finds the folder from the store's plan
    out = tmp_path / "report"
    assert main(["report", str(db), "--out", str(out), "--bootstrap", "10"]) == 0
    with (out / "ratings.csv").open(encoding="utf-8") as fh:
        ranked = [r["card"] for r in csv.DictReader(fh) if r["kind"] == "character"]
    assert set(ranked) == set(roster.split(","))
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "The Gardener" in page
    with (out / "abilities.csv").open(encoding="utf-8") as fh:
        owners = {r["card"]: r["owner"] for r in csv.DictReader(fh)}
    assert owners.get("thorn-lash") == "the-gardener"
    with (out / "balance_by_map.csv").open(encoding="utf-8") as fh:
        assert {r["map"] for r in csv.DictReader(fh)} == {"hedge-maze", "themyscira"}


def test_match_plays_on_the_fan_map(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["match", "--content", str(FAN), "--a", "random", "--b", "random"]
    argv += ["--scenario", "flags", "--map", "hedge-maze", "--games", "2", "--json"]
    assert main(argv) == 0
    assert '"games": 2' in capsys.readouterr().out


def test_a_broken_fan_file_names_file_field_and_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "fan"
    shutil.copytree(FAN, broken)
    card = broken / "characters" / "the-gardener.toml"
    card.write_text(card.read_text().replace("defense = 2", 'defense = "two"'))
    assert main(["content", "check", str(broken)]) == 2
    err = capsys.readouterr().err
    assert "the-gardener.toml: field 'defense': expected a whole number" in err
    assert len(err.strip().splitlines()) == 1
    clash = broken / "characters" / "the-cheetah.toml"
    card.write_text((FAN / "characters" / "the-gardener.toml").read_text())
    clash.write_text(card.read_text().replace('"the-gardener"', '"the-cheetah"'))
    assert main(["simulate", "--content", str(broken), "--dry-run"]) == 2
    assert "a shipped character is already called 'the-cheetah'" in capsys.readouterr().err
    clash.unlink()
    (broken / "cards").mkdir()
    assert main(["play", "--content", str(broken)]) == 2
    assert "folder 'cards' is not a kind of content" in capsys.readouterr().err


def test_a_refused_fan_folder_leaves_the_folders_in_use_before(tmp_path: Path) -> None:
    """Found by fuzzing: a refused `--content` folder dropped every fan folder in use, not
    only itself. A catalog is a value: a refused folder makes none, and the catalogs made
    before hold what they held, the shipped one without the fan cards."""
    from funkoverse.errors import UserError

    fan = load_catalog([FAN])
    broken = tmp_path / "characters" / "fan.toml"
    broken.parent.mkdir()
    broken.write_text('id = "other"\n', encoding="utf-8")
    with pytest.raises(UserError, match=r"fan\.toml"):
        load_catalog([FAN, tmp_path])
    assert fan.folders == (str(FAN),)
    assert "the-gardener" in fan.characters
    assert "the-gardener" not in SHIPPED.characters
    assert load_catalog([FAN]) == fan


def test_a_fan_card_whose_id_holds_a_newline_is_refused_on_one_line(tmp_path: Path) -> None:
    """Found by fuzzing: a refusal quoting a card's id with a newline in it ran over two
    lines; a `UserError` writes every control character it quotes as an escape."""
    from funkoverse.errors import UserError

    path = tmp_path / "bonus_objectives" / "fan.toml"
    path.parent.mkdir()
    path.write_text('id = "\\n"\nname = "x"\nbox = "x"\npoints = 1\n', encoding="utf-8")
    with pytest.raises(UserError) as refused:
        load_catalog([tmp_path])
    assert str(refused.value) == f"{path}: field 'id': '\\n' should match the file name 'fan'"
    assert UserError("a\x1b[31mb\r\nc\td").args == ("a\\x1b[31mb\\r\\nc\td",)


def test_a_fan_ability_taking_a_shipped_id_is_refused_naming_both_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A fan ability called savage-hunger would take the Cheetah's uses in the report and her
    bars: refused, naming the fan file, the field and the shipped card's file."""
    fan = tmp_path / "fan"
    shutil.copytree(FAN, fan)
    card = fan / "characters" / "the-gardener.toml"
    card.write_text(card.read_text().replace('id = "thorn-lash"', 'id = "savage-hunger"'))
    assert main(["content", "check", str(fan)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert f"{card}: field 'abilities[0].id'" in err
    assert "a shipped ability is already called 'savage-hunger'" in err
    assert "characters/the-cheetah.toml" in err
    assert main(["simulate", "--content", str(fan), "--dry-run"]) == 2
    assert "savage-hunger" in capsys.readouterr().err

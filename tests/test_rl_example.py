"""The training example of docs/rl.md runs, on a tiny budget: a few games learnt from, the
evaluations it prints and writes as CSV (its full run's curve is in docs/rl.md)."""

from __future__ import annotations

import csv
import importlib.util
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "rl_train_numpy.py"


def test_the_numpy_training_example_runs_on_a_tiny_budget(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = importlib.util.spec_from_file_location("rl_train_numpy", EXAMPLE)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    sys.modules["rl_train_numpy"] = example
    spec.loader.exec_module(example)
    curve = tmp_path / "curve.csv"
    argv = ["--episodes", "3", "--eval-every", "2", "--eval-games", "2", "--curve", str(curve)]
    rows = example.main(argv)
    assert [r["episodes"] for r in rows] == [0, 2, 3]
    for r in rows:
        assert r["wins"] + r["draws"] + r["losses"] == 2
        assert r["score"] == pytest.approx((r["wins"] + r["draws"] / 2) / 2)
    printed = capsys.readouterr().out.strip().splitlines()
    assert len(printed) == 3 and "against random" in printed[-1]
    with curve.open(encoding="utf-8") as fh:
        assert [int(r["episodes"]) for r in csv.DictReader(fh)] == [0, 2, 3]

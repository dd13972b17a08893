"""The balance report (being written)."""

from __future__ import annotations

from pathlib import Path

from funkoverse.errors import UserError


def write_report(results: Path, out: Path, bootstrap: int = 200, seed: int = 0) -> Path:
    raise UserError("report: not yet")

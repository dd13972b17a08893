"""`funkoverse bench --server`: what it measures is measured, on a small slice (never timed)."""

from __future__ import annotations

from funkoverse.server.bench import ai_decisions


def test_the_computers_decisions_are_timed_at_each_version_of_one_game() -> None:
    """Decisions in a row from versions 10 and 200 of one game, each timed, and the worker's
    first sight of the game apart from them."""
    found = ai_decisions(seed=3, versions=(10, 200), decisions=4)
    assert set(found["versions"]) == {"10", "200"}
    for at in found["versions"].values():
        assert at["decisions"] == 4
        assert 0 < at["median_ms"] <= at["slowest_ms"]
        assert at["first_sight_ms"] > 0

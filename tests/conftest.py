"""Fixtures of the browser tests: Debian's chromium driven by Playwright (pytest-playwright),
and a real `funkoverse serve` to drive it against.

`playwright install` cannot work offline, so the browser is the system's
(`apt-get install -y chromium`). Without it the browser tests skip on a developer's
machine and fail when `CI` is set: CI must never pass without having played in a browser.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path(os.environ.get("FUNKOVERSE_CHROMIUM", "/usr/bin/chromium"))
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not CHROMIUM.exists():
        message = f"no browser at {CHROMIUM}: apt-get install -y chromium"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": DESKTOP}


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Any]:
    """A real `funkoverse serve` on a free port and a fresh database."""
    from liveserver import LiveServer

    server = LiveServer(tmp_path / "games.db").start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def screenshots(tmp_path: Path) -> Path:
    """Where the browser tests leave their screenshots: `FUNKOVERSE_SCREENSHOTS` (the docs
    take theirs from `FUNKOVERSE_SCREENSHOTS=docs/screenshots`), else the test's folder."""
    where = Path(os.environ.get("FUNKOVERSE_SCREENSHOTS") or tmp_path / "screenshots")
    where.mkdir(parents=True, exist_ok=True)
    return where


# -- every rule test on both engines ---------------------------------------------------

# The rule tests: each runs once on the Python engine (the reference) and once on the
# compiled kernel. Its positions (`positions.position`, `positions.handed`) and the games it
# starts with no engine named are handed to the engine of the run, and a kernel run whose
# position the kernel could not hold fails, naming why (unless marked `python_only`).
RULE_TESTS = frozenset(
    {
        "test_attachments",
        "test_card_numbers",
        "test_card_rules",
        "test_cards_bride",
        "test_cards_cheetah",
        "test_cards_creature",
        "test_cards_dracula",
        "test_cards_invisible_man",
        "test_cards_items_and_basics",
        "test_cards_wonder_woman",
        "test_challenges",
        "test_doing_an_ability",
        "test_ending_a_round",
        "test_game_tree",
        "test_house_traits",
        "test_leaving",
        "test_legality",
        "test_scenarios",
        "test_session",
        "test_setup_decisions",
        "test_taking_a_turn",
        "test_view_and_draft",
        "test_ways_to_play",
    }
)
ENGINES = ("python", "kernel")


def pytest_configure(config: Any) -> None:
    config.addinivalue_line(
        "markers",
        "python_only(why): a rule test whose position only the Python engine holds (a card "
        "of the test's own with Python behaviour), said why",
    )


def pytest_generate_tests(metafunc: Any) -> None:
    if metafunc.module.__name__ in RULE_TESTS:
        metafunc.parametrize("rules_engine", ENGINES, indirect=True)


@pytest.fixture(autouse=True)
def rules_engine(request: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[str | None]:
    """The engine of this run of a rule test (None for a test that is not one)."""
    name = getattr(request, "param", None)
    if name is None:
        yield None
        return
    import positions
    from funkoverse.rules import engines
    from funkoverse.rules import game as game_module

    chosen = engines.named(name)
    if not chosen.available:
        message = f"no {name} engine here: {chosen.why_not}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    fell_back: list[str] = []
    start = game_module.Game._start

    def started(self: Any, setup: Any) -> Any:
        found = start(self, setup)
        if self.fallback is not None:
            fell_back.append(self.fallback)
        return found

    monkeypatch.setattr(game_module, "best", lambda: chosen)
    monkeypatch.setattr(game_module.Game, "_start", started)
    positions.ENGINE[0] = chosen
    positions.FELL_BACK.clear()
    try:
        yield name
    finally:
        positions.ENGINE[0] = engines.PYTHON
    fell_back += positions.FELL_BACK
    if name == "kernel" and fell_back and not request.node.get_closest_marker("python_only"):
        pytest.fail(f"the kernel did not play this test's game: {fell_back[0]}")

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

"""The pages for everyone, in a real browser (Debian's chromium): axe-core (vendored in
web/vendor/axe, injected here, never loaded by a page) finds no serious or critical
violation on the lobby, a game, a replay and How to play; and the API's documentation
(/docs, /redoc) renders with every request that leaves this machine refused."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from playwright.sync_api import BrowserContext, Page, Route, expect

from browserplay import drive, new_game, open_seat
from serverclient import SHORT_GAME

pytestmark = pytest.mark.xdist_group("browser")

AXE = Path(__file__).resolve().parent.parent / "src/funkoverse/web/vendor/axe/axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


def violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's serious and critical findings on the page as it is shown."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")
    found: list[dict[str, Any]] = page.evaluate(
        """async (tags) => (await axe.run(document, { runOnly: { type: "tag", values: tags } }))
            .violations.filter((v) => ["serious", "critical"].includes(v.impact))
            .map((v) => ({ id: v.id, impact: v.impact, help: v.help,
                           nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }))""",
        TAGS,
    )
    return found


def finished_game(live: Any) -> tuple[str, dict[str, str]]:
    """A short game played to its end through the API (knock-out, one character a side)."""
    game, tokens = new_game(live, **SHORT_GAME)
    drive(live, game, tokens, lambda v: False, limit=2000)
    return game, tokens


def test_axe_finds_nothing_serious_on_the_lobby_a_game_a_replay_and_how_to_play(
    page: Page, live: Any
) -> None:
    done, _ = finished_game(live)
    game, tokens = new_game(
        live,
        scenario="flags",
        map="themyscira",
        size=2,
        seed=7,
        seats={"dark": {"player": "human"}, "light": {"player": "ai", "level": "easy"}},
    )
    v = drive(live, game, tokens, lambda v: v["decider"] == "dark" and v["state"]["phase"] == "act")

    page.goto(live.url + "/")
    expect(page.locator(f'tr[data-game="{done}"] .result')).to_contain_text("won")
    found = violations(page)
    assert found == [], json.dumps(found)

    me = open_seat(page, live, game, "dark", tokens["dark"])
    me.wait_shown(v["version"])
    expect(page.locator(".choices button[data-choice]").first).to_be_visible()
    found = violations(page)
    assert found == [], json.dumps(found)
    page.get_by_role("button", name="rule").first.click()
    expect(page.get_by_role("dialog")).to_be_visible()
    found = violations(page)
    assert found == [], json.dumps(found)
    page.keyboard.press("Escape")

    page.goto(f"{live.url}/games/{done}#replay")
    expect(page.locator("[data-replay-at]")).to_be_visible()
    page.get_by_role("button", name="next").click()
    expect(page.locator("[data-replay-at]")).to_have_attribute("data-replay-at", "1")
    found = violations(page)
    assert found == [], json.dumps(found)

    page.goto(live.url + "/rules")
    expect(page.get_by_role("heading", name="How to play")).to_be_visible()
    expect(page.locator(".rules-text section").first).to_be_visible()
    found = violations(page)
    assert found == [], json.dumps(found)


def offline(context: BrowserContext) -> list[str]:
    """Every request for another machine is refused; the list of those refused."""
    refused: list[str] = []

    def route(r: Route) -> None:
        if urlparse(r.request.url).hostname in ("127.0.0.1", "localhost"):
            r.continue_()
        else:
            refused.append(r.request.url)
            r.abort()

    context.route(re.compile(".*"), route)
    return refused


@pytest.mark.parametrize(
    ("path", "drawn"),
    [
        ("/docs", ".swagger-ui .opblock-summary-path"),
        ("/redoc", "[role=navigation] li, .menu-content li"),
    ],
)
def test_the_api_documentation_renders_with_the_network_blocked(
    page: Page, live: Any, path: str, drawn: str
) -> None:
    refused = offline(page.context)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.url + path)
    expect(page.locator(drawn).first).to_be_visible(timeout=30_000)
    expect(page.get_by_text("/api/games").first).to_be_attached()
    assert refused == [], refused
    assert not errors, errors

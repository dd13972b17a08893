"""Learn to play in a real browser: a new player in a fresh context finds it first in the
lobby and finishes the guided first game by following its prompts alone, clicking only
what the current step points at (the element carrying data-tutorial="target"). Its screens
are photographed at both sizes (FUNKOVERSE_SCREENSHOTS=docs/screenshots)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from conftest import DESKTOP, PHONE

pytestmark = pytest.mark.xdist_group("browser")

SHOTS = {
    1: "learn-place",
    6: "learn-sees",
    8: "learn-cooldown",
    18: "learn-end-of-round",
    21: "learn-odds",
    22: "learn-knocked-down",
    25: "learn-rally",
}


def snap(page: Page, where: Path, name: str) -> None:
    for size, suffix in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page.set_viewport_size(size)
        page.wait_for_timeout(200)
        page.screenshot(path=str(where / f"{name}-{suffix}.png"))
    page.set_viewport_size(DESKTOP)


def test_a_new_player_finishes_the_tutorial_by_its_prompts_alone(
    browser: Browser, live: Any, screenshots: Path
) -> None:
    page = browser.new_context().new_page()
    page.goto(live.url + "/")
    cta = page.locator("a.learn-cta")
    expect(cta).to_be_visible()
    expect(cta).to_contain_text("Learn to play")
    cta.click()
    expect(page).to_have_url(f"{live.url}/learn")

    card = page.locator(".learn-card")
    steps = int(live.get("/api/tutorial")["steps"].__len__())
    seen: list[int] = []
    for _ in range(steps + 5):
        expect(card).to_be_visible()
        if card.get_attribute("data-tutorial-state") == "finished":
            break
        step = int(card.get_attribute("data-step") or "0")
        seen.append(step)
        target = page.locator('[data-tutorial="target"]')
        expect(target).to_have_count(1)
        if step in SHOTS:
            snap(page, screenshots, SHOTS[step])
        # keyboard focus rests on the step's own button when it has one
        if target.evaluate("el => el.tagName") == "BUTTON":
            expect(target).to_be_focused()
        target.click()
        expect(page.locator(f'.learn-card[data-step="{step}"]')).to_have_count(0)
    else:
        pytest.fail("the tutorial did not finish")

    assert seen == list(range(steps)), seen
    expect(page.locator('[data-tutorial-state="finished"]')).to_contain_text("first game")
    snap(page, screenshots, "learn-finished")
    # the game behind it is a real one, won by the player
    game = page.evaluate("JSON.parse(localStorage.getItem('funkoverse.learn')).game")
    v = live.get(f"/api/games/{game}")
    assert v["status"] == "finished" and v["winner"] == "dark"
    # and the lobby now offers it again, less loudly
    page.goto(live.url + "/")
    expect(page.locator("a.learn-cta.done")).to_be_visible()

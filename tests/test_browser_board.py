"""The table in a real browser (Debian's chromium): nothing on the board hides anything else,
every chance is shown before it is paid, and every choice is within reach.

- A flag and a point marker under characters are drawn beside them, and the marker's
  interact is made by tapping it ("Point Markers": "When a character is adjacent to a point
  marker on the map or in its square, the character may do the interact action").
- An ability that challenges (Savage Hunger) shows its odds on its button and on the board
  before its token is spent.
- At 1280x800 twelve choices and more are each reachable in the decision's own scroll, the
  page itself never scrolls and the rival's score stays in sight; on a phone every target is
  44 px or more.

Positions are reached through the API (both seats held: hot-seat), then played in the page.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browserplay import drive, new_game, open_seat, shoot
from conftest import DESKTOP, PHONE

pytestmark = pytest.mark.xdist_group("browser")

HOT = {"dark": {"player": "human"}, "light": {"player": "human"}}


def cheetah_against_wonder_woman(live: Any, seed: int) -> tuple[str, dict[str, str]]:
    """Flags on Themyscira, two a side, both seats held: The Cheetah and a Priestess against
    Wonder Woman and a Hyena Warrior."""
    return new_game(
        live,
        scenario="flags",
        map="themyscira",
        size=2,
        seed=seed,
        teams={"dark": ["the-cheetah", "priestess"], "light": ["wonder-woman", "hyena-warrior"]},
        seats=HOT,
    )


def uncovered(page: Page, selector: str) -> bool:
    """Whether a tap in the middle of what `selector` draws lands on it (nothing over it)."""
    return bool(
        page.evaluate(
            """(sel) => { const el = document.querySelector(sel); const r = el.getBoundingClientRect();
                const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
                return r.width > 0 && el.contains(hit); }""",
            selector,
        )
    )


def on_the_way(plan: dict[str, list[str]]) -> Any:
    """Dark walks each character along its squares of `plan` (a square a move); light only
    ends its turns."""

    def pick(v: dict[str, Any]) -> dict[str, Any]:
        ch, s = v["choices"], v["state"]
        by = {c["kind"]: c for c in reversed(ch)}
        if v["seat"] == "light":
            return by.get("end") or by.get("choose") or ch[0]
        for c in ch:
            if c["kind"] == "place" and plan.get(c["piece"], [""])[0] == c["square"]:
                return c
        at = {x["id"]: x["square"] for x in s["characters"]}
        if s["active"]:
            path = plan.get(s["active"], [])
            here = at[s["active"]]
            ahead = path[path.index(here) + 1 :] if here in path else []
            return next(
                (c for c in ch if c["kind"] == "move" and ahead and c["square"] == ahead[0]),
                by["end"],
            )
        going = [c for c in ch if c["kind"] == "choose" and at[c["piece"]] != plan[c["piece"]][-1]]
        return (going or [c for c in ch if c["kind"] == "choose"] or ch)[0]

    return pick


def test_a_flag_and_a_point_marker_under_characters_are_drawn_and_tapped(
    page: Page, live: Any
) -> None:
    plan = {"the-cheetah": ["d2", "d4", "d6"], "priestess": ["f2", "f4"]}
    game, tokens = cheetah_against_wonder_woman(live, seed=3)

    def there(v: dict[str, Any]) -> bool:
        at = {x["id"]: x["square"] for x in v["state"]["characters"]}
        return (
            v["seat"] == "dark"
            and v["state"]["phase"] == "choose"
            and all(at[p] == path[-1] for p, path in plan.items())
        )

    v = drive(live, game, tokens, there, on_the_way(plan))
    things = {t["id"]: t for t in v["state"]["things"]}
    assert things["point-C"]["square"] == "d6" and things["flag-dark"]["square"] == "f4"
    me = open_seat(page, live, game, "dark", tokens["dark"])
    me.wait_shown(v["version"])

    # the flag under the Priestess and the marker under The Cheetah: drawn beside them, seen
    for thing in ("flag-dark", "point-C"):
        drawn = page.locator(f'svg.board [data-piece="{thing}"]')
        expect(drawn).to_be_visible()
        assert uncovered(page, f'svg.board [data-piece="{thing}"]'), thing
    expect(page.locator('svg.board [data-piece="point-C"]')).to_have_attribute(
        "aria-label", "point marker C at d6"
    )

    # her turn taken by tapping her twice (the first tap shows what she could do)
    page.locator('svg.board [data-piece="the-cheetah"]').click()
    expect(page.locator("svg.board .hl-sees").first).to_be_visible()
    page.locator('svg.board [data-piece="the-cheetah"]').click()
    me.wait_shown(v["version"] + 1)
    v = me.view()
    assert "interact:point-C" in [c["id"] for c in v["choices"]]

    # the marker under her, tapped: she interacts with it
    marker = page.locator('svg.board [data-piece="point-C"]')
    expect(marker).to_have_attribute("role", "button")
    marker.click()
    me.wait_shown(v["version"] + 1)
    after = me.view()
    assert after["state"]["sides"]["dark"]["points"] == v["state"]["sides"]["dark"]["points"] + 1
    assert any(e["kind"] == "point_marker" for e in after["log"] if e["entry"] == v["version"])


def test_an_ability_challenge_shows_its_odds_before_its_token_is_paid_and_every_choice_is_reachable(
    page: Page, live: Any, screenshots: Path
) -> None:
    game, tokens = cheetah_against_wonder_woman(live, seed=5)

    def hungry(v: dict[str, Any]) -> bool:
        return v["seat"] == "dark" and any(
            c["id"] == "ability:savage-hunger" and c.get("challenges") for c in v["choices"]
        )

    v = drive(live, game, tokens, hungry)
    me = open_seat(page, live, game, "dark", tokens["dark"])
    me.wait_shown(v["version"])
    hunger = next(c for c in v["choices"] if c["id"] == "ability:savage-hunger")
    best = hunger["challenges"][0]
    odds = f"{round(best['odds'] * 100)}%"
    pool = dict(v["state"]["sides"]["dark"]["pool"])

    # before anything is paid: the odds on the ability's button, and pointed at, on the board
    button = page.locator('button[data-choice="ability:savage-hunger"]')
    if not button.count():
        page.get_by_role("button", name="Every choice as a list").click()
    button.scroll_into_view_if_needed()
    expect(button).to_contain_text(f"{odds} against")
    expect(button).to_contain_text("(blue, 2)")
    button.hover()
    ring = page.locator(f'svg.board [data-target="{best["target"]}"] text.odds-label')
    expect(ring).to_have_text(odds)
    assert me.view()["state"]["sides"]["dark"]["pool"] == pool  # nothing spent to see them
    shoot(page, screenshots, "game-odds", ready=lambda: button.hover())

    # twelve choices or more at 1280x800: each reachable, the page not scrolling, the
    # rival's score in sight
    listed = page.get_by_role("button", name="Every choice as a list")
    if listed.count():
        listed.click()
    buttons = page.locator(".choices button[data-choice]")
    assert buttons.count() >= 12, buttons.count()
    score = page.locator(".bar .score")
    for i in range(buttons.count()):
        b = buttons.nth(i)
        b.evaluate("(el) => el.scrollIntoView({ block: 'center' })")
        expect(b).to_be_in_viewport(ratio=1)
        assert uncovered(page, f'.choices button[data-choice="{b.get_attribute("data-choice")}"]')
        expect(score).to_contain_text("light")
        expect(score).to_be_in_viewport(ratio=1)
    size = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    assert size[0] <= DESKTOP["width"] and size[1] <= DESKTOP["height"], size
    expect(page.locator(".slot-rivals .points .n")).to_be_in_viewport()

    # on a phone: every target a finger wide (44 px), the score in the header
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(200)
    expect(score).to_be_visible()
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= PHONE["width"], wide  # the page never pans sideways, only the board
    small = page.evaluate(
        """() => [...document.querySelectorAll('button, [role=button], [role=tab], a, select')]
            .filter((el) => el.getClientRects().length && !el.closest('svg .marker.beside') && !el.closest('.tagline'))
            .map((el) => [el.outerHTML.slice(0, 60), Math.round(el.getBoundingClientRect().width), Math.round(el.getBoundingClientRect().height)])
            .filter(([, w, h]) => w > 0 && (w < 44 || h < 44))"""
    )
    assert not small, small
    page.set_viewport_size(DESKTOP)

    # the token is paid only once the ability is chosen
    button = page.locator('button[data-choice="ability:savage-hunger"]')
    button.scroll_into_view_if_needed()
    button.click()
    me.wait_shown(v["version"] + 1)
    paid = me.view()["state"]["sides"]["dark"]["pool"]
    assert paid.get("blue", 0) == pool.get("blue", 0) - 1

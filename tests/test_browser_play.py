"""A new player's path through the web app, in a real browser (Debian's chromium): the
lobby, a Flags game against the computer set up and played for three rounds by clicking
squares and pieces, a challenge's odds seen before committing, the hint, undo, a reload
mid-turn; then a short game played to its end and its replay stepped through.

Screenshots of the lobby, a game with a challenge's odds showing and a replay are taken
at 1280x800 and 390x844 (`FUNKOVERSE_SCREENSHOTS=docs/screenshots` writes the docs' own).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browserplay import Player
from conftest import DESKTOP, PHONE

pytestmark = pytest.mark.xdist_group("browser")


def shoot(page: Page, where: Path, name: str) -> None:
    """The page at both sizes, as a player sees it."""
    for size, suffix in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page.set_viewport_size(size)
        page.wait_for_timeout(250)
        page.screenshot(path=str(where / f"{name}-{suffix}.png"), full_page=suffix == "phone")
    page.set_viewport_size(DESKTOP)


def first_load(page: Page, url: str, ready: str) -> dict[str, float]:
    """A cold load of `url` (no cache) until `ready` is drawn: navigation timings in ms."""
    page.context.clear_cookies()
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    page.goto(url)
    page.locator(ready).first.wait_for()
    timing: dict[str, float] = page.evaluate(
        """() => { const n = performance.getEntriesByType('navigation')[0];
            return {dom_content_loaded: n.domContentLoadedEventEnd, load: n.loadEventEnd,
                    drawn: performance.now(),
                    requests: performance.getEntriesByType('resource').length + 1}; }"""
    )
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": False})
    return {k: round(v, 1) for k, v in timing.items()}


def errors_of(page: Page) -> list[str]:
    found: list[str] = []
    page.on("pageerror", lambda e: found.append(str(e)))
    page.on("console", lambda m: found.append(m.text) if m.type == "error" else None)
    return found


def start_from_lobby(page: Page, live: Any, scenario: str, options: dict[str, str]) -> Player:
    """The lobby: a scenario, its options, the light seat to the computer; Start."""
    page.goto(live.url + "/")
    expect(page.get_by_role("heading", name="Funkoverse")).to_be_visible()
    page.locator(f'button[data-scenario="{scenario}"]').click()
    for name, value in options.items():
        if name == "seed":
            page.get_by_placeholder("any").fill(value)
        else:
            page.locator(f'select[name="{name}"]').select_option(value)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/"))
    game = page.url.split("/games/")[1].split("#")[0]
    tokens = page.evaluate("() => JSON.parse(localStorage.getItem('funkoverse.seats'))")[game]
    assert set(tokens) == {"dark"}  # the computer's seat has no token
    player = Player(page, live, game, "dark", tokens["dark"])
    expect(page.locator("main.table")).to_be_visible()
    return player


def test_a_new_player_sets_up_a_flags_game_against_the_computer_and_plays_three_rounds(
    page: Page, live: Any, screenshots: Path
) -> None:
    errors = errors_of(page)
    loads = {"lobby": first_load(page, live.url + "/", 'button[data-scenario="flags"]')}
    shoot(page, screenshots, "lobby")
    me = start_from_lobby(
        page,
        live,
        "flags",
        {"map": "themyscira", "size": "2", "level-light": "easy", "seed": "7"},
    )
    expect(page.get_by_text("Flags", exact=False).first).to_be_visible()
    loads["game"] = first_load(page, page.url, "svg.board rect[data-square]")
    (screenshots / "first-load.json").write_text(json.dumps(loads, indent=1) + "\n")
    assert loads["game"]["drawn"] > 0

    # setup: the characters placed by clicking a square of the starting area
    v = me.play_turns(lambda v: v["state"]["phase"] != "place")
    assert me.clicks.get("place", 0) >= 2
    assert all(c["square"] for c in v["state"]["characters"] if c["side"] == "dark")

    # the hint: the search's top choices with their chance to win
    page.get_by_role("button", name="Hint").click()
    expect(page.locator(".hint li").first).to_be_visible(timeout=60_000)
    hints = page.locator(".hint li")
    assert 1 <= hints.count() <= 3
    assert all(re.search(r"\d+% to win", t) for t in hints.all_inner_texts())

    # undo: every choice since the last roll or reveal is taken back (here the placing too:
    # the First Player flip is the last chance outcome), and the page shows it undone
    v = me.wait_my_turn()
    me.click_choice(next(c for c in v["choices"] if c["kind"] == "choose"), v)
    v = me.wait_my_turn()
    active = v["state"]["active"]
    start = next(c["square"] for c in v["state"]["characters"] if c["id"] == active)
    move = next(c for c in v["choices"] if c["kind"] == "move" and c["square"] != start)
    me.click_choice(move, v)
    moved = me.wait_my_turn()
    assert (
        next(c["square"] for c in moved["state"]["characters"] if c["id"] == active)
        == move["square"]
    )
    undo = page.get_by_role("button", name=re.compile("^Undo"))
    expect(undo).to_be_enabled()
    expect(undo).to_have_text(re.compile(r"Undo \(\d+\)"))  # how many choices it takes back
    undo.click()
    me.wait_shown(moved["version"] + 1)
    back = me.wait_my_turn()
    assert back["version"] == moved["version"] + 1
    assert (
        next(c["square"] for c in back["state"]["characters"] if c["id"] == active)
        != move["square"]
    )
    expect(page.locator(f'svg.board [data-piece="{active}"]')).not_to_be_visible()
    expect(page.locator(".log li.undone").first).to_be_visible()
    expect(undo).to_be_disabled()
    me.play_turns(lambda v: v["state"]["phase"] != "place")

    # a reload in the middle of a turn carries on where it was
    v = me.wait_my_turn()
    me.click_choice(me.pick(v), v)
    mid = me.wait_my_turn()
    page.reload()
    me.wait_shown(mid["version"])
    expect(page.locator("main.table")).to_have_attribute("data-version", str(mid["version"]))
    assert page.locator("button[data-choice]").count() > 0

    # three rounds, every choice by a click; a challenge's odds seen before it is made
    shot = False

    def three_rounds(v: dict[str, Any]) -> bool:
        nonlocal shot
        if not shot and any(c["kind"] == "challenge" for c in v["choices"]):
            challenge = max(
                (c for c in v["choices"] if c["kind"] == "challenge"), key=lambda c: c["odds"]
            )
            me.see_odds(challenge)
            shoot(page, screenshots, "game-odds")
            shot = True
        return bool(v["state"]["round"] >= 4 and shot)

    v = me.play_turns(three_rounds, limit=600)
    assert v["state"]["round"] >= 4, "three whole rounds were not played"
    assert me.challenges_seen >= 1 and shot
    assert me.clicks.get("move", 0) >= 3 and me.clicks.get("choose", 0) >= 3
    # the computer played its turns too, and the page showed them in the log
    assert page.locator(".log li").count() > 20
    assert not errors, errors


def test_a_short_game_ends_with_the_winner_and_its_replay_steps_through(
    page: Page, live: Any, screenshots: Path
) -> None:
    errors = errors_of(page)
    me = start_from_lobby(
        page,
        live,
        "knockout",
        {"map": "proving-grounds", "size": "1", "level-light": "easy", "seed": "3"},
    )
    v = me.play_turns(lambda v: False, limit=600)
    assert v["status"] == "finished"
    banner = page.locator(".banner")
    expect(banner).to_contain_text("wins")
    expect(banner).to_contain_text(f"round {v['state']['round']}")

    page.get_by_role("link", name="Watch the replay").click()
    expect(page.locator("[data-replay-at]")).to_have_attribute("data-replay-at", "0")
    total = len(live.get(f"/api/games/{me.game}/replay")["log"])
    expect(page.locator("[data-replay-at]")).to_contain_text(f"of {total}")
    page.get_by_role("button", name="next").click()
    page.get_by_role("button", name="next").click()
    expect(page.locator("[data-replay-at]")).to_have_attribute("data-replay-at", "2")
    page.get_by_role("button", name="back").click()
    expect(page.locator("[data-replay-at]")).to_have_attribute("data-replay-at", "1")
    rounds = page.get_by_label("jump to a round")
    options = rounds.locator("option").all_inner_texts()
    assert "round 1" in options
    rounds.select_option(label="round 1")
    expect(page.locator("main.table")).to_have_attribute("data-round", "1")
    assert page.locator("button[data-choice]").count() == 0  # a replay offers nothing to do
    rounds.select_option(label=options[-1])  # the last round, stepped into, for the pictures
    for _ in range(4):
        page.get_by_role("button", name="next").click()
        page.wait_for_timeout(150)
    shoot(page, screenshots, "replay")
    page.get_by_role("button", name="the end").click()
    expect(page.locator("[data-replay-at]")).to_have_attribute("data-replay-at", str(total))
    expect(page.locator(".banner")).to_contain_text("wins")
    assert not errors, errors

"""A new player's path through the web app, in a real browser (Debian's chromium): the
lobby, a Flags game against the computer set up and played for three rounds by clicking
squares and pieces, a challenge's odds seen before committing, the hint, undo, a reload
mid-turn, a few choices on a phone; then the same Flags game played to its end by the
keyboard alone, an undo in it, its replay stepped through (a roll beside the board, the
undone entries marked) and its result in the lobby.

Screenshots of the lobby (with the game's result) and of the replay at an entry an undo
took back are taken at 1280x800 and 390x844 (`FUNKOVERSE_SCREENSHOTS=docs/screenshots`
writes the docs' own): the desktop's as the window shows it (the page fits it), the
phone's of the whole page.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browserplay import Player, shoot
from conftest import DESKTOP, PHONE

pytestmark = pytest.mark.xdist_group("browser")


FLAGS = {"map": "themyscira", "size": "2", "level-light": "easy", "seed": "7"}


def fits_the_window(page: Page) -> None:
    """Nothing of the page falls below or beside a desktop window."""
    size = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    assert size[0] <= DESKTOP["width"] and size[1] <= DESKTOP["height"], size


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
    fits_the_window(page)  # the whole form, its Start button too
    expect(page.get_by_role("button", name="Start the game")).to_be_in_viewport()
    me = start_from_lobby(page, live, "flags", FLAGS)
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
    # what it takes back, in a player's words: the choices of this seat, and exactly how many
    # of the computer's (none of them made before this seat's first choice)
    now = me.view()
    taken = now["undo_choices"]
    assert now["undo_order"][0]["seat"] == "dark"
    mine = "your last choice" if taken["dark"] == 1 else f"your last {taken['dark']} choices"
    n = taken.get("light", 0)
    reply = (
        ""
        if not n
        else " and the computer's reply"
        if n == 1
        else f" and the computer's {n} replies"
    )
    words = f"Undo {mine}{reply}"
    expect(undo).to_have_accessible_name(words)
    expect(undo).to_contain_text(words)
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
            shot = True
        return bool(v["state"]["round"] >= 4 and shot)

    v = me.play_turns(three_rounds, limit=600)
    assert v["state"]["round"] >= 4, "three whole rounds were not played"
    assert me.challenges_seen >= 1 and shot
    assert me.clicks.get("move", 0) >= 3 and me.clicks.get("choose", 0) >= 3
    # the computer played its turns too, and the page showed them in the log
    assert page.locator(".log li").count() > 20
    # the page fits the window: the board, both sides, the decision and the log
    fits_the_window(page)
    for panel in (".slot-mine .side", ".decision", ".slot-rivals .side", ".log"):
        expect(page.locator(panel).first).to_be_in_viewport(ratio=1)
    # a point marker on a cooldown track is drawn as one, its letter in a disc
    on_tracks = [t for s in v["state"]["sides"].values() for slot in s["track"] for t in slot]
    if any(t["kind"] == "point" for t in on_tracks):
        expect(page.locator(".track .point-disc").first).to_have_attribute(
            "title", re.compile("^point marker [A-Z]")
        )

    # on a phone: the squares a finger wide, the board panning to what is chosen
    page.set_viewport_size(PHONE)
    square = page.locator('svg.board rect[data-square="a1"]').bounding_box()
    assert square is not None and square["width"] >= 44, square
    expect(page.get_by_role("tab", name="Log")).to_be_visible()
    turns = v["state"]["turns"]
    v = me.play_turns(lambda v: v["state"]["turns"] >= turns + 2, limit=60)
    page.get_by_role("tab", name="Log").click()
    newest = page.locator(".log li").first
    # brought to the middle of the screen: scrolled only to the screen's edge, a line can
    # stay a fraction of a pixel outside it, wherever the layout above ends on a fraction
    newest.evaluate("el => el.scrollIntoView({ block: 'center' })")
    expect(newest).to_be_in_viewport(ratio=1)
    page.set_viewport_size(DESKTOP)
    assert not errors, errors


def a_roll_worth_showing(live: Any, game: str, total: int) -> int:
    """The last entry of the game, before its end, that is a roll of the dice with points
    on both sides already (the replay's picture)."""
    best = 0
    for at in range(1, total):
        v = live.get(f"/api/games/{game}/at/{at}")
        fresh = [e for e in v["log"] if e["entry"] == at - 1]
        scores = [s["points"] for s in v["state"]["sides"].values()]
        if any(e["kind"] == "dice" for e in fresh) and min(scores) > 0 and v["decider"]:
            best = at
    assert best, "no roll after both sides scored"
    return best


def test_a_whole_flags_game_played_by_keyboard_alone_ends_with_the_winner_and_its_replay(
    page: Page, live: Any, screenshots: Path
) -> None:
    errors = errors_of(page)
    me = start_from_lobby(page, live, "flags", FLAGS)
    # every choice of the game by the keyboard: number keys, Tab and Enter, nothing clicked
    v = me.play_turns(lambda v: v["state"]["phase"] not in ("flip", "place"), keys=True)
    v = me.play_turns(lambda v: v["state"]["active"] and v["state"]["actions_left"] < 2, keys=True)
    # an undo, by the keyboard too: taken back, and marked so in the replay
    me.tab_to("button.tool.undo")
    page.keyboard.press("Enter")
    me.wait_shown(v["version"] + 1)
    undone = me.view()
    assert undone["version"] == v["version"] + 1 and any(e.get("undone") for e in undone["log"])
    v = me.play_turns(lambda v: False, limit=1500, keys=True)
    assert v["status"] == "finished"
    assert me.clicks.get("move", 0) >= 3 and me.clicks.get("choose", 0) >= 3
    assert all(s["points"] > 0 for s in v["state"]["sides"].values())
    banner = page.locator(".banner")
    expect(banner).to_contain_text("You win" if v["winner"] == "dark" else "The computer wins")
    expect(banner).to_contain_text(f"round {v['state']['round']}")
    shown = v["state"]["sides"]
    expect(banner).to_contain_text(
        f"dark {shown['dark']['points']} · light {shown['light']['points']}"
    )

    page.get_by_role("link", name="Watch the replay").click()
    at = page.locator("[data-replay-at]")
    expect(at).to_have_attribute("data-replay-at", "0")
    total = len(live.get(f"/api/games/{me.game}/replay")["log"])
    expect(at).to_contain_text(f"of {total}")
    page.get_by_role("button", name="next").click()
    page.get_by_role("button", name="next").click()
    expect(at).to_have_attribute("data-replay-at", "2")
    page.get_by_role("button", name="back").click()
    expect(at).to_have_attribute("data-replay-at", "1")
    rounds = page.get_by_label("jump to a round")
    options = rounds.locator("option").all_inner_texts()
    assert "round 1" in options
    rounds.select_option(label="round 1")
    expect(page.locator("main.table")).to_have_attribute("data-round", "1")
    assert page.locator("button[data-choice]").count() == 0  # a replay offers nothing to do

    # the picture: a roll late in the game, both sides with points, the dice beside the board
    roll = a_roll_worth_showing(live, me.game, total)
    in_round = live.get(f"/api/games/{me.game}/at/{roll}")["state"]["round"]
    rounds.select_option(label=f"round {in_round}")
    while int(at.get_attribute("data-replay-at") or 0) < roll - 1:
        step = int(at.get_attribute("data-replay-at") or 0)
        page.get_by_role("button", name="next").click()
        expect(at).to_have_attribute("data-replay-at", str(step + 1))

    def rolled() -> None:
        if at.get_attribute("data-replay-at") == str(roll):
            page.get_by_role("button", name="back").click()
        expect(at).to_have_attribute("data-replay-at", str(roll - 1))
        page.get_by_role("button", name="next").click()
        dice = page.locator(f'.dice[data-entry="{roll - 1}"]')
        expect(dice.locator(".die.counts").first).to_be_visible()
        expect(dice.locator(".die.rolling")).to_have_count(0)
        box = dice.bounding_box()
        shown = page.locator("svg.board").bounding_box()
        assert box is not None and shown is not None
        assert box["y"] + box["height"] <= shown["y"], "the dice hide the board"

    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        rolled()
    page.set_viewport_size(DESKTOP)

    # the entries an undo took back: struck through in the log, named on the bar
    chapters = live.get(f"/api/games/{me.game}/rounds")
    assert chapters["undone"], "the undo's entries are not marked"
    back = max(chapters["undone"]) + 1
    page.get_by_label("entry").fill(str(back))
    expect(at).to_have_attribute("data-replay-at", str(back))
    expect(page.locator("[data-undone]")).to_have_text("taken back by an undo")
    struck = page.locator(f'.log li.undone[data-entry="{back - 1}"]')
    expect(struck.first).to_be_visible()

    def the_log() -> None:
        log_tab = page.get_by_role("tab", name="Log")
        if log_tab.is_visible():  # on a phone the log is a tab
            log_tab.click()
        expect(struck.first).to_be_visible()

    shoot(page, screenshots, "replay", ready=the_log)
    page.get_by_role("button", name="the end").click()
    expect(at).to_have_attribute("data-replay-at", str(total))
    expect(page.locator(".banner")).to_contain_text("win")

    # the lobby lists the game with its result in this browser's words
    page.goto(live.url + "/")
    result = page.locator(f'tr[data-game="{me.game}"] .result')
    expect(result).to_contain_text("You won" if v["winner"] == "dark" else "you lost")
    shoot(page, screenshots, "lobby")
    assert not errors, errors

"""Online play that lasts, in a real browser (Debian's chromium): two players with a clock,
one resigns and both see it, one starts a rematch the other joins from the live offer; a
spectator is labelled and shown no button it cannot use; a player leaves and the other,
after the grace period, hands the seat to the computer, which plays on. Each screen is
photographed at both sizes (FUNKOVERSE_SCREENSHOTS=docs/screenshots)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute, expect

from browserplay import Player
from conftest import DESKTOP, PHONE
from liveserver import LiveServer

pytestmark = pytest.mark.xdist_group("browser")


def snap(page: Page, where: Path, name: str) -> None:
    """The page at both sizes."""
    for size, suffix in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page.set_viewport_size(size)
        page.wait_for_timeout(150)
        page.screenshot(path=str(where / f"{name}-{suffix}.png"))
    page.set_viewport_size(DESKTOP)


def open_seat(browser: Browser, server: LiveServer, game: str, seat: str, token: str) -> Page:
    page = browser.new_context().new_page()
    page.goto(f"{server.url}/games/{game}#seat={seat}&token={token}")
    expect(page.locator("main.table")).to_have_attribute("data-seat", seat)
    return page


def test_two_players_with_a_clock_one_resigns_and_they_rematch_while_one_watches(
    browser: Browser, live: Any, screenshots: Path
) -> None:
    made = live.post(
        "/api/games",
        {
            "scenario": "flags",
            "map": "themyscira",
            "size": 2,
            "seed": 21,
            "first_player": "dark",
            "clock": {"initial": 600, "increment": 5},
        },
    )
    game, tokens = made["game"], {s: t["token"] for s, t in made["seats"].items()}
    host = open_seat(browser, live, game, "dark", tokens["dark"])
    guest = open_seat(browser, live, game, "light", tokens["light"])
    watcher = browser.new_context().new_page()
    watcher.goto(f"{live.url}/games/{game}")
    expect(watcher.locator("main.table")).to_be_visible()

    # the clocks, who is here, and whose turn it is in the tab's title
    for page in (host, guest):
        expect(page.locator('[data-clock="dark"]')).to_be_visible()
        expect(page.locator('[data-clock="light"]')).to_be_visible()
    expect(host).to_have_title(re.compile("Your turn"))
    expect(guest).not_to_have_title(re.compile("Your turn"))
    expect(guest.locator('[data-presence="dark"]')).to_have_attribute("data-present", "1")
    expect(host.locator('[data-clock="dark"].running')).to_be_visible()

    dark = Player(host, live, game, "dark", tokens["dark"])
    light = Player(guest, live, game, "light", tokens["light"])
    for _ in range(3):
        v = live.get(f"/api/games/{game}")
        me = dark if v["decider"] == "dark" else light
        mine = me.wait_my_turn()
        me.click_choice(me.pick(mine), mine)

    # the spectator: labelled, and no button it cannot use
    expect(watcher.locator("[data-spectating]")).to_be_visible()
    for name in ("Hint", "Resign"):
        assert watcher.get_by_role("button", name=name).count() == 0
    assert watcher.get_by_role("button", name=re.compile("^Undo")).count() == 0
    assert watcher.locator("button[data-choice]").count() == 0
    snap(host, screenshots, "online-clock")
    snap(watcher, screenshots, "online-spectator")

    # dark resigns; both players and the spectator see it
    host.once("dialog", lambda d: d.accept())
    host.locator("[data-resign]").click()
    # each in its own words: the loser, the winner, the spectator
    for page, words in (
        (host, "light wins: you lose"),
        (guest, "You win"),
        (watcher, "light wins"),
    ):
        expect(page.locator("main.table")).to_have_attribute("data-status", "finished")
        expect(page.locator(".banner h3")).to_have_text(words)
    expect(guest.locator(".log")).to_contain_text("dark resigned")
    assert watcher.locator("[data-rematch]").count() == 0
    snap(guest, screenshots, "online-resigned")

    # light asks for a rematch; dark is offered it live and joins: the sides swapped
    guest.locator("[data-rematch]").click()
    guest.wait_for_url(re.compile(r"/games/(?!" + re.escape(game) + r")[\w-]+$"))
    new = guest.url.rsplit("/", 1)[1]
    join = host.locator("[data-join-rematch]")
    expect(join).to_be_visible()
    snap(host, screenshots, "online-rematch-offer")
    join.click()
    host.wait_for_url(re.compile(rf"/games/{re.escape(new)}$"))
    expect(host.locator("main.table")).to_have_attribute("data-seat", "light")
    expect(guest.locator("main.table")).to_have_attribute("data-seat", "dark")
    expect(host.locator('[data-presence="dark"]')).to_have_attribute("data-present", "1")


def test_a_player_leaves_and_after_the_grace_period_the_computer_takes_the_seat(
    browser: Browser, tmp_path: Path, screenshots: Path
) -> None:
    server = LiveServer(tmp_path / "games.db", extra=("--presence", "1")).start()
    try:
        made = server.post(
            "/api/games",
            {
                "scenario": "flags",
                "map": "themyscira",
                "size": 2,
                "seed": 4,
                "first_player": "dark",
                "grace": 2,
            },
        )
        game, tokens = made["game"], {s: t["token"] for s, t in made["seats"].items()}
        leaver = open_seat(browser, server, game, "dark", tokens["dark"])
        stayer = open_seat(browser, server, game, "light", tokens["light"])
        expect(stayer.locator('[data-presence="dark"]')).to_have_attribute("data-present", "1")
        leaver.context.close()  # gone, mid-decision
        claim = stayer.locator('[data-claim="ai"]')
        expect(claim).to_be_visible(timeout=30_000)
        expect(stayer.locator('[data-claim="win"]')).to_be_visible()
        expect(stayer.locator('[data-presence="dark"]')).to_contain_text("away")
        snap(stayer, screenshots, "online-claim")
        version = server.get(f"/api/games/{game}")["version"]
        claim.click()
        expect(stayer.locator('[data-presence="dark"]')).to_contain_text("the computer (took over)")
        stayer.wait_for_function(
            "(v) => Number(document.querySelector('main.table').dataset.version) > v + 1",
            arg=version,
            timeout=60_000,
        )  # the computer plays the seat it was given
        assert server.get(f"/api/games/{game}")["seats"]["dark"]["claimed"] is True
    finally:
        server.stop()


def test_per_player_seats_show_who_owns_which_character(
    browser: Browser, live: Any, screenshots: Path
) -> None:
    made = live.post(
        "/api/games",
        {
            "scenario": "flags",
            "map": "themyscira",
            "mode": "teams",
            "players": 4,
            "seed": 5,
            "seating": "per-player",
            "clock": {"days": 1},
        },
    )
    game, tokens = made["game"], {s: t["token"] for s, t in made["seats"].items()}
    page = open_seat(browser, live, game, "dark-2", tokens["dark-2"])
    for seat in ("dark-1", "dark-2", "light-1", "light-2"):
        expect(page.locator(f'[data-owns="{seat}"]')).to_contain_text("plays")
    snap(page, screenshots, "online-per-player")


def test_a_connection_that_stops_answering_is_said_and_made_again(
    browser: Browser, live: Any
) -> None:
    """The heartbeat: the page pings over its socket; with no pong in time it says so and
    connects again (the server's pongs are held back by never letting the pings through)."""
    made = live.post(
        "/api/games",
        {"scenario": "flags", "map": "themyscira", "size": 2, "seed": 3, "first_player": "dark"},
    )
    game, token = made["game"], made["seats"]["dark"]["token"]
    context = browser.new_context()
    deaf = {"on": True, "pings": 0}

    def through(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            if isinstance(message, str) and '"ping"' in message:
                deaf["pings"] += 1
                if deaf["on"]:
                    return
            server.send(message)

        ws.on_message(from_page)

    context.route_web_socket(re.compile(r"/ws"), through)
    page = context.new_page()
    page.goto(f"{live.url}/games/{game}#seat=dark&token={token}")
    expect(page.locator("main.table")).to_have_attribute("data-seat", "dark")
    # shown from the missed pong until the next socket opens: watched for in the page
    page.wait_for_selector('[data-net="disconnected"]', timeout=30_000)
    assert deaf["pings"] >= 1
    deaf["on"] = False
    expect(page.locator("[data-net]")).to_have_count(0, timeout=30_000)
    expect(page.locator(".dot-live.off")).to_have_count(0)
    context.close()

"""Two browsers play one game online through an invite link while a third watches, in a
real browser (Debian's chromium): each sees the other's moves live over the WebSocket, a
dropped network and a reload carry on, and the spectator sees everything public and can
do nothing (server-api.md: live updates, spectators)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute, expect

from browserplay import Player

pytestmark = pytest.mark.xdist_group("browser")


def shown_version(page: Page) -> int:
    return int(page.locator("main.table").get_attribute("data-version") or -1)


def test_two_browsers_play_online_through_an_invite_link_while_a_third_watches(
    browser: Browser, live: Any
) -> None:
    host_context, guest_context, watch_context = (browser.new_context() for _ in range(3))
    # the guest's live connection goes through a switch, to drop it as a network would
    network: dict[str, Any] = {"up": True, "open": []}

    def through(ws: WebSocketRoute) -> None:
        if not network["up"]:
            ws.close(code=1006, reason="the network is down")
            return
        ws.connect_to_server()
        network["open"].append(ws)

    guest_context.route_web_socket(re.compile(r"/ws"), through)
    host, guest, watcher = (c.new_page() for c in (host_context, guest_context, watch_context))
    errors: list[str] = []
    for page in (host, guest, watcher):
        page.on("pageerror", lambda e: errors.append(str(e)))

    # the lobby: dark is this browser, light a friend online
    host.goto(live.url + "/")
    host.locator('button[data-scenario="flags"]').click()
    host.locator('select[name="map"]').select_option("themyscira")
    host.locator('select[name="size"]').select_option("2")
    host.get_by_placeholder("any").fill("12")
    host.locator('select[name="who-light"]').select_option("online")
    host.get_by_role("button", name="Start the game").click()
    invite = host.locator('code[data-invite="light"]').inner_text()
    spectate = host.locator("code[data-spectate]").inner_text()
    assert re.search(r"/games/[\w-]+#seat=light&token=[\w-]{22,}$", invite), invite
    assert "token" not in spectate
    game = spectate.rsplit("/", 1)[1]
    host.get_by_role("link", name="Go to the game").click()
    host.wait_for_url(re.compile(rf"/games/{game}$"))

    guest.goto(invite)
    expect(guest.locator("main.table")).to_have_attribute("data-seat", re.compile("light|dark"))
    assert "token" not in guest.url  # the link's token is kept, and taken off the address bar
    watcher.goto(spectate)
    expect(watcher.locator("main.table")).to_be_visible()

    tokens = {
        seat: page.evaluate("(g) => JSON.parse(localStorage.getItem('funkoverse.seats'))[g]", game)
        for seat, page in (("dark", host), ("light", guest))
    }
    assert set(tokens["dark"]) == {"dark"} and set(tokens["light"]) == {"light"}
    dark = Player(host, live, game, "dark", tokens["dark"]["dark"])
    light = Player(guest, live, game, "light", tokens["light"]["light"])
    players = {"dark": dark, "light": light}

    # the guest's lobby marks the game as theirs, with their turn when it is
    guest.goto(live.url + "/")
    expect(guest.locator("table.games")).to_contain_text("Flags")
    guest.goto(live.url + f"/games/{game}")

    moves = 0
    dropped = reloaded = False
    while moves < 24:
        v = live.get(f"/api/games/{game}")
        if v["status"] == "finished":
            break
        seat = v["decider"]
        me, other = players[seat], players["light" if seat == "dark" else "dark"]
        mine = me.wait_my_turn()
        choice = me.pick(mine)
        me.click_choice(choice, mine)
        after = me.view()["version"]
        # the other browser and the spectator see it live, without asking
        other.wait_shown(after)
        expect(watcher.locator("main.table")).to_have_attribute("data-version", re.compile(r"\d+"))
        watcher.wait_for_function(
            "(v) => Number(document.querySelector('main.table').dataset.version) >= v", arg=after
        )
        # the spectator is offered nothing, ever
        assert watcher.locator("button[data-choice]").count() == 0
        # no button it cannot use: no Hint, no Undo, no Resign; labelled as watching
        assert watcher.get_by_role("button", name="Hint").count() == 0
        assert watcher.get_by_role("button", name=re.compile("^Undo")).count() == 0
        expect(watcher.locator("[data-spectating]")).to_be_visible()
        moves += 1
        if moves == 6 and not dropped:
            # the guest's network drops while the host plays on; back online it catches up
            guest_context.set_offline(True)
            network["up"] = False
            for ws in network["open"]:
                ws.close(code=1006, reason="the network is down")
            network["open"].clear()
            expect(guest.locator(".dot-live.off")).to_be_visible(timeout=15_000)
            expect(guest.locator('[data-net="reconnecting"]')).to_be_visible()
            while live.get(f"/api/games/{game}")["decider"] == "dark":
                h = dark.wait_my_turn()
                dark.click_choice(dark.pick(h), h)
                moves += 1
            guest_context.set_offline(False)
            network["up"] = True
            light.wait_shown(live.get(f"/api/games/{game}")["version"], timeout=30_000)
            expect(guest.locator("[data-net]")).to_have_count(0)
            dropped = True
        if moves >= 12 and not reloaded:
            guest.reload()
            light.wait_shown(live.get(f"/api/games/{game}")["version"])
            reloaded = True
    assert moves >= 12 and dropped and reloaded
    # both saw the same game: the same positions, each from its seat
    final = live.get(f"/api/games/{game}")
    for page in (host, guest, watcher):
        page.wait_for_function(
            "(v) => Number(document.querySelector('main.table').dataset.version) >= v",
            arg=final["version"],
        )
        board = page.locator("svg.board")
        for c in final["state"]["characters"]:
            if c["square"]:
                expect(board.locator(f'[data-piece="{c["id"]}"]')).to_be_visible()

    # the spectator's page holds no token, and acting without one is refused
    assert watcher.evaluate("() => localStorage.getItem('funkoverse.seats')") in (None, "{}")
    status = watcher.evaluate(
        """async ([g, v]) => (await fetch(`/api/games/${g}/choices`, {method: 'POST',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({choice: 'end', version: v})})).status""",
        [game, final["version"]],
    )
    assert status == 401
    assert live.get(f"/api/games/{game}")["version"] == final["version"]
    assert not errors, errors
    for c in (host_context, guest_context, watch_context):
        c.close()

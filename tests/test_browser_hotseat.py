"""Hot-seat in a real browser (Debian's chromium): two people on one screen play Leaders
with secret picks, the device handed over before each secret choice; every card is one
click away, choices are made with the number keys, and an event of the log shows where on
the board it happened.

Leaders: "Each player secretly picks one of their characters to be a leader. Both players
reveal leaders ... at the same time"; Scenario Setup, step 5 ("choose characters and items
in secret")."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browserplay import shoot

pytestmark = pytest.mark.xdist_group("browser")


def shown(page: Page, name: str) -> str:
    return page.locator("main.table").get_attribute(f"data-{name}") or ""


def wait_version(page: Page, version: int) -> None:
    page.wait_for_function(
        "(v) => { const m = document.querySelector('main.table');"
        " return m && Number(m.dataset.version) >= v && !m.dataset.sending; }",
        arg=version,
    )


def test_two_people_on_one_screen_pick_leaders_in_secret_and_play(
    page: Page, live: Any, screenshots: Path
) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.url + "/")
    page.locator('button[data-scenario="leaders"]').click()
    page.locator('select[name="map"]').select_option("themyscira")
    page.locator('select[name="size"]').select_option("2")
    page.get_by_placeholder("any").fill("4")
    page.locator('select[name="who-light"]').select_option("hotseat")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[\w-]+$"))
    game = page.url.rsplit("/", 1)[1]
    seats = page.evaluate("(g) => JSON.parse(localStorage.getItem('funkoverse.seats'))[g]", game)
    assert set(seats) == {"dark", "light"}  # one browser holds both seats

    # each secret pick: the screen asks for the device to be handed over first
    picked: dict[str, str] = {}
    for _ in range(2):
        cover = page.locator(".handover")
        expect(cover).to_be_visible()
        seat = re.search(r"Pass the device to (\w+)", cover.inner_text()).group(1)  # type: ignore[union-attr]
        rival = "light" if seat == "dark" else "dark"
        # under the cover, and once it is lifted, nothing of the rival's pick is shown
        if rival in picked:
            assert f"picks {picked[rival]}" not in page.locator("body").inner_text()
        page.get_by_role("button", name=f"I am {seat}: show my choices").click()
        expect(cover).not_to_be_visible()
        v = live.get(f"/api/games/{game}", seats[seat])
        assert v["decider"] == seat and v["state"]["phase"] == "secret"
        leader = v["choices"][0]
        names = {c["id"]: c["name"] for c in v["state"]["characters"]}
        picked[seat] = names[leader["piece"]]
        if rival in picked:
            assert f"picks {picked[rival]}" not in page.locator("body").inner_text()
        page.locator(f'button[data-choice="{leader["id"]}"]').click()
        wait_version(page, v["version"] + 1)
        wait_version(page, v["version"] + 1)
    # both leaders revealed together
    expect(page.locator(".log").first).to_contain_text(re.compile("reveals its leader", re.I))
    v = live.get(f"/api/games/{game}")
    assert all(v["state"]["sides"][s]["leader"] not in (None, "?") for s in ("dark", "light"))

    # placing, by the number keys: each press makes the listed choice of that number
    for _ in range(30):
        v = live.get(f"/api/games/{game}")
        if v["state"]["phase"] != "place":
            break
        seat = v["decider"]
        wait_version(page, v["version"])
        expect(page.locator("main.table")).to_have_attribute("data-seat", seat)
        every = page.get_by_role("button", name=re.compile("Every choice as a list"))
        if every.count():
            every.click()
        first = page.locator("button[data-choice]").first
        expected = first.get_attribute("data-choice")
        page.keyboard.press("1")
        wait_version(page, v["version"] + 1)
        after = live.get(f"/api/games/{game}")
        assert any(e["kind"] == "placed" for e in after["log"])
        assert expected and expected.startswith("place:")
    else:
        pytest.fail("placing did not end")

    # the leaders revealed: each crowned on the board and named in its side's panel
    leaders = {v["state"]["sides"][s]["leader"] for s in ("dark", "light")}
    for leader in leaders:
        expect(page.locator(f'svg.board [data-piece="{leader}"].leader .crown')).to_be_visible()
    expect(page.locator(".crown-tag")).to_have_count(2)
    shoot(page, screenshots, "leaders")

    # the cards: a character's, an item's or status card's, and the scenario's, a click away
    page.locator("ul.roster li").first.click()
    modal = page.get_by_role("dialog")
    expect(modal).to_be_visible()
    expect(modal).to_contain_text(re.compile("defense|Move 2", re.I))
    page.keyboard.press("Escape")
    expect(modal).not_to_be_visible()
    page.get_by_role("button", name="Rules").click()
    expect(page.get_by_role("dialog")).to_contain_text("Leaders")
    page.get_by_role("button", name="Close").click()

    # a log line shows where it happened on the board
    line = page.locator(".log li", has_text="is placed at").first
    square = re.search(r"placed at (\w+)", line.inner_text()).group(1)  # type: ignore[union-attr]
    line.hover()
    expect(page.locator("svg.board rect.hot-square")).to_be_visible()
    box = page.locator(f'svg.board rect[data-square="{square}"]').bounding_box()
    hot = page.locator("svg.board rect.hot-square").bounding_box()
    assert box and hot
    assert abs(box["x"] - hot["x"]) < box["width"] and abs(box["y"] - hot["y"]) < box["height"]
    assert not errors, errors


def test_the_lobby_filters_by_box_and_makes_a_game_of_two_players_a_side(
    page: Page, live: Any
) -> None:
    bodies: list[str] = []
    page.on(
        "request",
        lambda r: (
            bodies.append(r.post_data or "")
            if r.method == "POST" and r.url.endswith("/api/games")
            else None
        ),
    )
    page.goto(live.url + "/")
    page.locator('button[data-box="Universal Monsters 100"]').click()
    shown = page.locator("button[data-scenario]").evaluate_all(
        "(bs) => bs.map((b) => b.dataset.scenario)"
    )
    content = live.get("/api/content")
    boxes = {s["id"]: s["box"] for s in content["scenarios"]}
    assert shown and all(boxes[s] in ("Universal Monsters 100", "house-made") for s in shown)
    assert "flags" not in shown and "control" in shown
    names = page.locator(".seat .picker .pick").all_inner_texts()
    assert "Wonder Woman" not in names and "Dracula" in names
    page.locator('button[data-scenario="control"]').click()
    page.locator('select[name="mode"]').select_option("teams")
    page.locator('select[name="who-light"]').select_option("hotseat")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[\w-]+$"))
    assert '"mode":"teams"' in bodies[-1] and '"scenario":"control"' in bodies[-1]
    expect(page.locator("main.table")).to_be_visible()

"""The computer's turn at a pace a person can follow, in a real browser (Debian's chromium):
each of its steps stays on screen at least the pace of ../shared/ux.md (550 ms; a roll until
its faces have been shown 700 ms), however fast its views arrive, and every roll is drawn.

The page is watched from inside: every view it shows (`main.table[data-version]`) and every
roll it draws (`.dice[data-entry]`) is written down with the time it appeared. This checks
behaviour (a minimum time on screen per step), never speed.
"""

from __future__ import annotations

import time
from itertools import pairwise
from pathlib import Path
from typing import Any, cast

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from browserplay import decider_view, new_game, open_seat
from conftest import DESKTOP, PHONE
from serverclient import keen

pytestmark = pytest.mark.xdist_group("browser")

PACE_MS = 550
FACES_MS = 700
SLACK_MS = 15  # a timer fires a few milliseconds either side of its time

WATCH = """(() => {
  const steps = (window.__steps = []);
  const rolls = (window.__rolls = []);
  let last = null;
  const seen = new Set();
  const faced = new Set();
  const look = () => {
    const now = performance.now();
    const m = document.querySelector("main.table");
    if (m && m.dataset.version !== last) {
      last = m.dataset.version;
      steps.push({ version: Number(last), decider: m.dataset.decider, t: now });
    }
    for (const d of document.querySelectorAll(".dice[data-entry]")) {
      const e = Number(d.dataset.entry);
      if (!seen.has(e)) { seen.add(e); rolls.push({ entry: e, t: now, faces: null }); }
      if (!d.classList.contains("is-rolling") && !faced.has(e)) {
        faced.add(e);
        rolls.find((r) => r.entry === e).faces = now;
      }
    }
  };
  new MutationObserver(look).observe(document, { subtree: true, childList: true, attributes: true });
})();"""


def score_in_sight(page: Page) -> bool | None:
    """Whether the score is drawn over a roll shown in the header, none of the dice under it
    (the dice let taps through: for the test they are made to catch one); None when the roll
    has already left the header (the next step came while the test waited)."""
    return cast(
        "bool | None",
        page.evaluate(
            """() => {
              const score = document.querySelector(".bar .score");
              const dice = document.querySelector(".bar .dice");
              if (!dice) return null;
              const s = score.getBoundingClientRect();
              const apart = [...dice.children].every((c) => {
                const r = c.getBoundingClientRect();
                return r.width === 0 || r.right <= s.left || r.left >= s.right
                  || r.bottom <= s.top || r.top >= s.bottom;
              });
              dice.style.pointerEvents = "auto";
              const hit = document.elementFromPoint(s.x + s.width / 2, s.y + s.height / 2);
              dice.style.pointerEvents = "";
              return apart && score.contains(hit);
            }"""
        ),
    )


def light_rolls_since(live: Any, game: str, tokens: dict[str, str], version: int) -> list[int]:
    """The entries of the computer's (light's) rolls after `version`, once its turn is over on
    the server (the page may still be showing it)."""
    for _ in range(100):
        v = decider_view(live, game, tokens)
        if v["decider"] != "light":
            break
        time.sleep(0.05)
    sides = {c["id"]: c["side"] for c in v["state"]["characters"]}
    return [
        e["entry"]
        for e in v["log"]
        if e.get("counted") and e["entry"] >= version and sides.get(e.get("piece")) == "light"
    ]


def computer_turns(steps: list[dict[str, Any]], computer: str) -> list[list[dict[str, Any]]]:
    """The views shown, grouped into the computer's turns: a view shown after one the
    computer decided in is a step of the computer's, each with how long it stayed."""
    for here, after in pairwise(steps):
        here["shown"] = after["t"] - here["t"]
    turns: list[list[dict[str, Any]]] = []
    run: list[dict[str, Any]] = []
    for before, step in pairwise(steps):
        if before["decider"] == computer and "shown" in step:
            run.append(step)
        elif run:
            turns.append(run)
            run = []
    return turns


def test_the_computers_turn_is_paced_and_every_roll_is_drawn(
    page: Page, live: Any, screenshots: Path
) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script(WATCH)
    game, tokens = new_game(
        live,
        scenario="flags",
        map="themyscira",
        size=2,
        seed=11,
        seats={"dark": {"player": "human"}, "light": {"player": "ai", "level": "easy"}},
    )
    me = open_seat(page, live, game, "dark", tokens["dark"])

    # dark (a keen player, clicking in the page) closes in until the computer has made a turn
    # of three steps or more with a roll in it, as the page showed it
    sizes = [(DESKTOP, "desktop"), (PHONE, "phone")]  # the pictures still to take
    found: list[dict[str, Any]] = []
    for _ in range(200):
        v = me.wait_my_turn()
        log = v["log"]
        for turn in computer_turns(page.evaluate("window.__steps"), "light"):
            rolled = [
                e
                for e in log
                if e.get("counted") and turn[0]["version"] - 1 <= e["entry"] < turn[-1]["version"]
            ]
            if len(turn) >= 3 and rolled:
                found = turn
        if (found and not sizes) or v["status"] == "finished":
            break
        me.click_choice(keen(v, "dark"), v)
        if not sizes:
            continue
        # the computer's turn, caught while it is being shown: a roll's faces on screen, more
        # of its steps still to show
        caught = light_rolls_since(live, game, tokens, v["version"])
        if not caught:
            continue
        size, suffix = sizes[0]
        page.set_viewport_size(size)
        try:
            page.wait_for_function(
                "(entry) => { const d = document.querySelector("
                "`.bar .dice[data-entry='${entry}']:not(.is-rolling)`);"
                " return d && getComputedStyle(d).opacity === '1'"
                " && document.querySelector('main.table[data-behind]'); }",
                arg=caught[0],
                timeout=4_000,
            )
        except PlaywrightError:  # the roll was the last step of the turn
            page.set_viewport_size(DESKTOP)
            continue
        seen = score_in_sight(page)
        if seen is None:  # gone before it could be looked at: catch the next roll
            page.set_viewport_size(DESKTOP)
            continue
        assert seen, "the roll hides the score"
        # the picture of this moment: the dice's fade held while a whole page is taken
        page.evaluate("() => document.getAnimations().forEach((a) => a.pause())")
        page.screenshot(
            path=str(screenshots / f"computer-turn-{suffix}.png"), full_page=suffix == "phone"
        )
        page.evaluate("() => document.getAnimations().forEach((a) => a.play())")
        page.set_viewport_size(DESKTOP)
        sizes.pop(0)
    assert found, "the computer made no turn of three steps with a roll"
    assert not sizes, f"no roll of the computer's was caught on screen at {sizes}"

    # every step of every turn of the computer's stayed at least the pace; the turn took at
    # least as many paces as it had steps
    for turn in computer_turns(page.evaluate("window.__steps"), "light"):
        for step in turn:
            assert step["shown"] >= PACE_MS - SLACK_MS, (step, turn)
    assert sum(s["shown"] for s in found) >= len(found) * PACE_MS - SLACK_MS

    # every roll of the computer's was drawn, its faces shown 700 ms before the next step
    rolls = {r["entry"]: r for r in page.evaluate("window.__rolls")}
    steps = page.evaluate("window.__steps")
    sides = {c["id"]: c["side"] for c in v["state"]["characters"]}
    for e in (e for e in log if e.get("counted") and sides.get(e.get("piece")) == "light"):
        shown_in = next(s for s in steps if s["version"] > e["entry"])
        if shown_in["decider"] == "dark" and shown_in is steps[-1]:
            continue  # the last view, still on screen
        assert e["entry"] in rolls, f"roll of entry {e['entry']} never drawn"
        roll = rolls[e["entry"]]
        after = next((s for s in steps if s["t"] > shown_in["t"]), None)
        if after is not None and roll["faces"] is not None:
            assert after["t"] - roll["faces"] >= FACES_MS - SLACK_MS, (e, roll, after)
    assert not errors, errors

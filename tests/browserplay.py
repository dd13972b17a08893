"""A person at the game page, for the browser tests: reads what the page shows, and makes
each choice the way a player does, by clicking the square or the piece on the board
(or the button of the list where a choice has no place on the board).

The legal choices come from the server (the seat's view), so that the test knows what
the page should offer; the page is then checked to offer it, and clicked."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Page, expect

from liveserver import LiveServer
from serverclient import keen


def stays(choice: dict[str, Any], v: dict[str, Any]) -> bool:
    """Whether `choice` moves its piece 0 squares: the page takes that from its list, never
    from a tap on the piece (a tap that would spend an action by accident)."""
    at = {c["id"]: c["square"] for c in v["state"]["characters"]}
    return bool(choice.get("actor") and at.get(choice["actor"]) == choice["where"]["square"])


@dataclass
class Player:
    """One seat at one page."""

    page: Page
    server: LiveServer
    game: str
    seat: str
    token: str
    challenges_seen: int = 0
    clicks: dict[str, int] = field(default_factory=dict)

    # -- what the page and the server say ---------------------------------------------

    def view(self) -> dict[str, Any]:
        v: dict[str, Any] = self.server.get(f"/api/games/{self.game}", self.token)
        return v

    def shown(self) -> dict[str, str]:
        main = self.page.locator("main.table")
        return {
            k: main.get_attribute(f"data-{k}") or ""
            for k in ("version", "decider", "seat", "phase", "round", "status", "sending")
        }

    def wait_shown(self, version: int, timeout: float = 30_000) -> None:
        """Until the page shows `version` of the game (or a later one), not sending."""
        self.page.wait_for_function(
            """(v) => { const m = document.querySelector('main.table');
                return m && Number(m.dataset.version) >= v && !m.dataset.sending; }""",
            arg=version,
            timeout=timeout,
        )

    def wait_my_turn(self, timeout: float = 120_000) -> dict[str, Any]:
        """Until this seat decides (the computer's or the friend's turn played out) or the
        game is over; the page then shows the server's current view."""
        deadline = time.monotonic() + timeout / 1000
        while True:
            v = self.view()
            if v["status"] == "finished" or v["decider"] == self.seat:
                self.wait_shown(v["version"], timeout)
                if v["decider"] == self.seat:  # its choices offered, the last step shown
                    self.page.locator("main.table[data-deciding]").wait_for(timeout=timeout)
                now = self.view()
                if now["version"] == v["version"]:
                    return now
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.seat}: still waiting for {v['decider']}")
            time.sleep(0.15)

    # -- choosing ---------------------------------------------------------------------

    def pick(self, v: dict[str, Any]) -> dict[str, Any]:
        return keen(v, self.seat)

    def click_choice(self, choice: dict[str, Any], v: dict[str, Any]) -> None:
        """Make `choice` as a player would, then wait for the page to show its answer."""
        page = self.page
        kind = choice["kind"]
        board = page.locator("svg.board")
        self.clicks[kind] = self.clicks.get(kind, 0) + 1
        if kind in ("place", "return") and choice.get("piece"):
            tray = page.locator(f'[data-place-piece="{choice["piece"]}"]')
            expect(tray).to_be_visible()
            if tray.get_attribute("aria-pressed") != "true":
                tray.click()
            expect(tray).to_have_attribute("aria-pressed", "true")
            self.click_square(choice["square"])
        elif kind == "move" and not stays(choice, v):
            self.click_square(choice["square"])
        elif kind == "choose":
            piece = board.locator(f'[data-piece="{choice["piece"]}"]')
            piece.click()
            take = page.get_by_role("button", name=re.compile("Take the turn with"))
            expect(take).to_be_visible()
            who = next(c for c in v["state"]["characters"] if c["id"] == choice["piece"])
            if who["standing"]:
                # selecting shows what it sees and where it may move before the turn is taken
                expect(board.locator(".hl-sees").first).to_be_visible()
            take.click()
        elif kind == "challenge":
            self.see_odds(choice)
            board.locator(f'[data-piece="{choice["target"]}"]').click()
        else:
            button = page.locator(f'button[data-choice="{choice["id"]}"]')
            if not button.count():
                page.get_by_role("button", name=re.compile("Every choice as a list")).click()
            button.click()
        self.wait_shown(v["version"] + 1)

    def click_square(self, square: str) -> None:
        """A tap in the middle of the square, on whatever is drawn there (a marker, a
        token), as a finger would; on a phone the board is panned to it first."""
        rect = self.page.locator(f'svg.board rect[data-square="{square}"]')
        expect(rect).to_be_visible()
        rect.scroll_into_view_if_needed()
        box = rect.bounding_box()
        assert box is not None
        self.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    def see_odds(self, choice: dict[str, Any]) -> None:
        """Before committing: the challenge's chance to win on the board and in the list."""
        odds = f"{round(choice['odds'] * 100)}%"
        expect(self.page.locator(f'button[data-choice="{choice["id"]}"] .odds')).to_have_text(odds)
        expect(self.page.locator("svg.board text.odds-label", has_text=odds).first).to_be_visible()
        self.challenges_seen += 1

    def press_choice(self, choice: dict[str, Any], v: dict[str, Any]) -> None:
        """Make `choice` by the keyboard alone: its number key when it is among the first nine
        listed, else Tab to its button, its square or its piece on the board, and Enter."""
        page = self.page
        self.clicks[choice["kind"]] = self.clicks.get(choice["kind"], 0) + 1
        listed = page.locator(".choices button[data-choice]").evaluate_all(
            "(bs) => bs.map((b) => b.dataset.choice)"
        )
        tray = page.locator(f'[data-place-piece="{choice.get("actor")}"]')
        if choice.get("actor") and tray.count() and tray.get_attribute("aria-pressed") != "true":
            self.tab_to(f'[data-place-piece="{choice["actor"]}"]')  # which piece is placed
            page.keyboard.press("Enter")
            expect(tray).to_have_attribute("aria-pressed", "true")
        where = choice["where"]
        on_board = where["square"] and not where["piece"] and not stays(choice, v)
        if choice["id"] not in listed and not on_board:  # the whole list first
            self.tab_to(".choices button[aria-expanded]")
            page.keyboard.press("Enter")
            listed = page.locator(".choices button[data-choice]").evaluate_all(
                "(bs) => bs.map((b) => b.dataset.choice)"
            )
        if choice["id"] in listed[:9]:
            page.keyboard.press(str(listed.index(choice["id"]) + 1))
        else:
            if choice["id"] in listed:
                target = f'.choices button[data-choice="{choice["id"]}"]'
            elif on_board:
                target = f'svg.board rect[data-square="{where["square"]}"]'
            else:
                target = f'svg.board [data-piece="{where["piece"]}"]'
            self.tab_to(target)
            page.keyboard.press("Enter")
            if choice.get("preview"):  # a first Enter shows what the piece could do
                page.keyboard.press("Enter")
        self.wait_shown(v["version"] + 1)

    def tab_to(self, selector: str, limit: int = 400) -> None:
        """Press Tab until the element `selector` names has the focus."""
        for _ in range(limit):
            if self.page.evaluate(
                "(sel) => document.activeElement === document.querySelector(sel)", selector
            ):
                return
            self.page.keyboard.press("Tab")
        raise AssertionError(f"Tab never reached {selector}")

    def play_turns(self, until: Any, limit: int = 400, keys: bool = False) -> dict[str, Any]:
        """Choose, by clicking (or by the keyboard alone), until `until(view)` holds or the
        game ends."""
        v = self.wait_my_turn()
        for _ in range(limit):
            if v["status"] == "finished" or until(v):
                return v
            (self.press_choice if keys else self.click_choice)(self.pick(v), v)
            v = self.wait_my_turn()
        raise AssertionError(f"not done after {limit} choices")


# -- games set up and played through the API, to bring a page to a moment ---------------


def new_game(server: LiveServer, **body: Any) -> tuple[str, dict[str, str]]:
    """A game made of `body` (server-api.md); its id and each human seat's token."""
    made = server.post("/api/games", body)
    return made["game"], {seat: s["token"] for seat, s in made["seats"].items()}


def decider_view(server: LiveServer, game: str, tokens: dict[str, str]) -> dict[str, Any]:
    """The view of the seat that decides now, when this side holds it (else a spectator's)."""
    v: dict[str, Any] = server.get(f"/api/games/{game}")
    seat = v["decider"]
    if seat in tokens:
        v = server.get(f"/api/games/{game}", tokens[seat])
    return v


def drive(
    server: LiveServer,
    game: str,
    tokens: dict[str, str],
    until: Any,
    pick: Any = None,
    limit: int = 600,
) -> dict[str, Any]:
    """Choose through the API for the held seats (`pick(view)`, a keen player by default)
    until `until(view)` holds for the deciding seat's view; the computer's seats play on
    meanwhile."""
    for _ in range(limit):
        v = decider_view(server, game, tokens)
        if v["status"] == "finished" or until(v):
            return v
        if v["decider"] not in tokens:
            time.sleep(0.1)
            continue
        chosen = (pick or (lambda w: keen(w, w["seat"])))(v)
        server.post(
            f"/api/games/{game}/choices",
            {"choice": chosen["id"], "version": v["version"]},
            tokens[v["decider"]],
        )
    raise AssertionError(f"not there after {limit} choices")


def open_seat(page: Page, server: LiveServer, game: str, seat: str, token: str) -> Player:
    """The game page as `seat`, from its invite link."""
    page.goto(f"{server.url}/games/{game}#seat={seat}&token={token}")
    expect(page.locator("main.table")).to_be_visible()
    return Player(page, server, game, seat, token)


def shoot(page: Page, where: Any, name: str, ready: Any = None) -> None:
    """The page at both sizes, as a player sees it (`ready` brings it to the moment): at
    1280x800 the window, at 390x844 the whole page."""
    from conftest import DESKTOP, PHONE

    for size, suffix in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page.set_viewport_size(size)
        page.wait_for_timeout(250)
        if ready is not None:
            ready()
        page.screenshot(path=str(where / f"{name}-{suffix}.png"), full_page=suffix == "phone")
    page.set_viewport_size(DESKTOP)

"""A seat's view as the API sends it, built once per change and audience, sent in pieces.

A view (server-api.md, "A seat's view") is a body (the position, the choices, the seats)
and the log. The body is built once for each audience (a seat, or the spectators) at each
version, however many requests and sockets ask for it; each entry's events are worded once
per audience and kept, so a view that carries the log from `since` costs what the new
events cost, not what the whole game has cost.
"""

from __future__ import annotations

from typing import Any

from funkoverse.rules.describe import label
from funkoverse.rules.preview import challenge_odds
from funkoverse.rules.serialize import choice_to_json, event_to_json, view_to_json
from funkoverse.rules.session import HANDED, OUTSIDE, RESIGN, TIMEOUT, WINS, Entry, Session
from funkoverse.rules.state import GameState, Phase
from funkoverse.rules.view import observe_event
from funkoverse.rules.world import display_names
from funkoverse.server.online import Seating

Audience = str | None  # a seat, or None for the spectators


def status_of(session: Session) -> str:
    """`setup`, `playing` or `finished` (server-api.md, the listing)."""
    if session.over:
        return "finished"
    if session.phase in (Phase.FLIP, Phase.DRAFT, Phase.SECRET, Phase.PLACE):
        return "setup"
    return "playing"


class Sight:
    """What one audience sees of one game: its view's body at a version, and its log."""

    def __init__(self) -> None:
        self.version = -1
        self.body: dict[str, Any] = {}
        self.names: dict[str, str] = {}
        self.entries: list[list[dict[str, Any]]] = []  # each entry's events, worded


class Views:
    """The views of one game, built from its session and kept until the game moves on."""

    def __init__(self, game: str, seating: Seating | None = None) -> None:
        self.game = game
        self.seating = seating
        self._sights: dict[Audience, Sight] = {}

    def side(self, seat: Audience) -> Audience:
        """The side whose sight a seat has (a player of a side sees what its side sees)."""
        return self.seating.side_of(seat) if self.seating is not None else seat

    def body(self, session: Session, seat: Audience) -> tuple[dict[str, Any], Sight]:
        """The view's body (everything but the log) for `seat` at the session's version."""
        sight = self._sights.setdefault(seat, Sight())
        if sight.version != session.version:
            side = self.side(seat)
            view = session.view(side)
            names = display_names(view)
            if names != sight.names:
                sight.names = names
                sight.entries = []  # worded anew with the names as they now are
            sight.body = {
                "game": self.game,
                "version": session.version,
                "status": status_of(session),
                "seat": seat,
                "decider": (
                    self.seating.decider(session) if self.seating is not None else session.decider
                ),
                "choices": _choices(session, view, seat, names, self.seating),
                "winner": session.winner,
                "state": view_to_json(view),
            }
            sight.version = session.version
        return sight.body, sight

    def log(self, session: Session, seat: Audience, since: int = 0) -> list[dict[str, Any]]:
        """The events of the entries from `since` on, as `seat` may see them, each with its
        entry's index (and `undone` when an undo took it back)."""
        _, sight = self.body(session, seat)
        words = sight.entries
        records = session.records
        side = self.side(seat)
        entries = session.entries
        for index in range(len(words), len(records)):
            entry = []
            for event in records[index]:
                item = event_to_json(observe_event(event, side), sight.names)
                item["entry"] = index
                entry.append(item)
            if entries[index].kind in OUTSIDE:
                entry.append(outside_event(entries[index], index))
            words.append(entry)
        out: list[dict[str, Any]] = []
        for index in range(max(0, since), len(records)):
            if entries[index].undone:
                out.extend({**item, "undone": True} for item in words[index])
            else:
                out.extend(words[index])
        return out

    def forget(self) -> None:
        """Drop what was built (the log was rewritten: a session loaded again)."""
        self._sights.clear()


def outside_event(entry: Entry, index: int) -> dict[str, Any]:
    """What players did at the table (a resignation, a claim, a clock run out), worded as a
    log event."""
    seat = entry.seat or "a seat"
    winner = entry.choice[len(WINS) :] if entry.choice.startswith(WINS) else None
    if entry.kind == RESIGN:
        text = f"{seat} resigned: {winner} wins"
    elif entry.kind == TIMEOUT:
        text = f"{seat} ran out of time: {winner} wins"
    elif winner is not None:
        text = f"{seat} claimed the win from a player gone too long: {winner} wins"
    else:
        away = entry.choice.removeprefix(HANDED)
        text = f"{seat} handed {away}, gone too long, to the computer (normal) for the rest of the game"
    out: dict[str, Any] = {"text": text, "rule": None, "kind": entry.kind, "entry": index}
    out["seat"] = entry.seat
    if winner is not None:
        out["winner"] = winner
    else:
        out["ai"] = entry.choice.removeprefix(HANDED)
    return out


def _choices(
    session: Session,
    view: GameState,
    seat: Audience,
    names: dict[str, str],
    seating: Seating | None = None,
) -> list[dict[str, Any]]:
    if seat is None:
        return []
    if seating is not None:
        options = seating.allowed(session, seat)
    elif seat != session.decider:
        return []
    else:
        options = list(session.choices(seat))
    return [choice_to_json(c, label(view, c, names), challenge_odds(view, c)) for c in options]

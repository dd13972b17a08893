"""A seat's view as the API sends it, built once per change and audience, sent in pieces.

A view (server-api.md, "A seat's view") is a body (the position, the choices, the seats)
and the log. The body is built once for each audience (a seat, or the spectators) at each
version, however many requests and sockets ask for it; each entry's events are worded once
per audience and kept, so a view that carries the log from `since` costs what the new
events cost, not what the whole game has cost.
"""

from __future__ import annotations

from typing import Any

from funkoverse.rules import (
    CHOICE,
    HANDED,
    RESIGN,
    TIMEOUT,
    Entry,
    EventKind,
    GameState,
    Phase,
    Session,
    choice_to_json,
    event_to_json,
    view_to_json,
)
from funkoverse.rules.core.view import observe_event, secret_decision
from funkoverse.rules.core.world import display_names
from funkoverse.rules.session import LEAVES, OUTSIDE, WINS
from funkoverse.rules.words.describe import label
from funkoverse.rules.words.notes import trait_answer, turn_side
from funkoverse.rules.words.present import board_help, present, start_areas
from funkoverse.rules.words.preview import challenge_odds
from funkoverse.rules.words.prompt import prompt
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
        self.turn: str | None = None  # whose turn it is after the entries worded


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
                sight.turn = None
            choices, help_words = _choices(session, view, seat, names, self.seating)
            sight.body = {
                "game": self.game,
                "version": session.version,
                "status": status_of(session),
                "seat": seat,
                "decider": (
                    self.seating.decider(session) if self.seating is not None else session.decider
                ),
                "choices": choices,
                "winner": session.winner,
                "state": view_to_json(view),
                "prompt": {"text": prompt(view, session.decider, names), "help": help_words},
                "start_areas": start_areas(view),
                "undo_order": undo_order(session),
                "secret_pick": secret_decision(view),
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
        view = session.view(side) if len(words) < len(records) else None
        for index in range(len(words), len(records)):
            assert view is not None
            seen = [observe_event(event, side) for event in records[index]]
            note = trait_answer(view, entries[index].seat, sight.turn, seen, sight.names)
            entry = [note] if note is not None else []
            if entries[index].kind in OUTSIDE:  # what was done at the table, then what it did
                entry.append(outside_event(entries[index], index))
            entry += [event_to_json(event, sight.names) for event in seen]
            for item in entry:
                item["entry"] = index
            words.append(entry)
            sight.turn = turn_side(view, seen, sight.turn)
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
    if entry.choice.startswith(LEAVES):  # a free-for-all: the seat leaves, the rest play on
        return _leaving_event(entry, index)
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


def _leaving_event(entry: Entry, index: int) -> dict[str, Any]:
    """A free-for-all seat leaving, worded as a log event: its characters follow, removed."""
    seat = entry.seat or "a seat"
    side = entry.choice[len(LEAVES) :]
    if entry.kind == RESIGN:
        text = f"{seat} resigned and leaves the game"
    elif entry.kind == TIMEOUT:
        text = f"{seat} ran out of time and leaves the game"
    else:
        text = f"{seat} claimed the win from {side}, gone too long: {side} leaves the game"
    return {
        "text": text + "; the others play on",
        "rule": "Free-for-All",
        "kind": entry.kind,
        "entry": index,
        "seat": entry.seat,
        "left": side,
    }


def _choices(
    session: Session,
    view: GameState,
    seat: Audience,
    names: dict[str, str],
    seating: Seating | None = None,
) -> tuple[list[dict[str, Any]], str]:
    """The seat's legal choices as the page draws them (`rules.words.present`), and what to tap
    when they are many squares; with a seat per player, only that player's."""
    if seat is None:
        return [], ""
    if seating is not None:
        legal = seating.allowed(session, seat)
    elif seat != session.decider:
        return [], ""
    else:
        legal = list(session.choices(seat))
    if not legal:
        return [], ""
    worded = [(c, label(view, c, names), challenge_odds(view, c)) for c in legal]
    shown = present(view, seat, worded, names)
    out = [
        {**choice_to_json(c, words, odds), **s.to_json()}
        for (c, words, odds), s in zip(worded, shown, strict=True)
    ]
    return out, board_help(view, legal, shown)


def undo_order(session: Session) -> list[dict[str, Any]]:
    """What an undo would take back, in the order it was chosen: each run of one seat's
    choices (so that a page can say "your 3 choices and the computer's 2 before them")."""
    taken = session.entries[len(session.entries) - session.undoable() :]
    runs: list[dict[str, Any]] = []
    for entry in taken:
        if entry.kind != CHOICE or entry.seat is None:
            continue
        if runs and runs[-1]["seat"] == entry.seat:
            runs[-1]["choices"] += 1
        else:
            runs.append({"seat": entry.seat, "choices": 1})
    return runs


def chapters(session: Session) -> dict[str, Any]:
    """A finished game's log for a replay to step through: where each round begins (the
    number of entries before it: round 1 before the first turn, a later round after the
    entry that began it), counting only entries no undo took back, and which entries an
    undo took back."""
    rounds: list[dict[str, int]] = []
    for index, (entry, events) in enumerate(zip(session.entries, session.records, strict=True)):
        if entry.undone:
            continue
        for event in events:
            if event.kind is EventKind.TURN and not rounds:
                rounds.append({"round": 1, "at": index})
            elif event.kind is EventKind.ROUND_BEGINS and event.number is not None:
                rounds.append({"round": event.number, "at": index + 1})
    undone = [i for i, e in enumerate(session.entries) if e.undone]
    return {"rounds": rounds, "undone": undone}

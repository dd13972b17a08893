"""The terminal game as a person sees it: the board once a turn, the sides, the menu, the cards.

A `Person` decides for a seat at the prompt: a number or a choice id, `?` for help and
the board's legend, `info NAME` for a card's text, `board` to draw the board again, `log`
for the last events. What the other seats did since the person's last choice is shown
first, as a short list of lines, so a rival's turn never scrolls away.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Console
from rich.text import Text

from funkoverse.cli.cards import card_text, find_card
from funkoverse.errors import UserError
from funkoverse.rules import (
    Choice,
    Event,
    GameState,
    Kind,
    Move,
    Piece,
    Place,
    Return,
    Role,
    Session,
    Turn,
)
from funkoverse.rules.core.events import line
from funkoverse.rules.core.frames import ReturnFrame
from funkoverse.rules.core.world import display_names
from funkoverse.rules.words.describe import label
from funkoverse.text.board import legend, render_board

HELP = (
    "Answer with the number of a choice (or its id). Also: ? (this help and the board's "
    "legend), info NAME (a character's, item's or status card's text), board (draw the board "
    "again), log (the last events)."
)


def piece_labels(state: GameState) -> dict[str, str]:
    """Two characters a piece: initials for characters, with a numeral when two share a name;
    the letter for point markers, F for a flag, C for a control marker, T for a Tunnel, m for
    a minion, B for a bonus objective."""
    labels: dict[str, str] = {}
    initials: dict[str, list[str]] = {}
    for p in state.pieces.values():
        side = (p.side or " ")[0]
        if p.role is Role.POINT:
            labels[p.id] = p.ref
        elif p.role is Role.FLAG:
            labels[p.id] = "F" + side
        elif p.role is Role.CONTROL:
            labels[p.id] = "C" + side
        elif p.kind is Kind.TOKEN:
            labels[p.id] = p.role.value[:1].upper() + side
        elif p.kind is Kind.MINION:
            labels[p.id] = "m" + side
        elif p.kind is Kind.BONUS_OBJECTIVE:
            labels[p.id] = "B" + side
        else:
            words = [w for w in p.name.split() if w.lower() != "the"] or [p.name]
            two = (words[0][0] + (words[1][0] if len(words) > 1 else words[0][1])).title()
            labels[p.id] = two
            initials.setdefault(p.name, []).append(p.id)
    for pids in initials.values():
        if len(pids) > 1:  # two of one name: the first letter and a numeral
            for n, pid in enumerate(pids, 1):
                labels[pid] = labels[pid][0] + str(n)
    return labels


def returning(state: GameState) -> set[str]:
    """Pieces on their way back to the starting area (a return waiting to be placed)."""
    return {pid for f in state.stack if isinstance(f, ReturnFrame) for pid in f.pieces}


def character_status(state: GameState, p: Piece, names: dict[str, str]) -> str:
    """One character in words: where it is and how it stands, its items and status cards."""
    if not p.placed:
        where = "to be placed"
    elif p.id in returning(state):
        where = "returning to the starting area"
    elif p.square is None:
        number = state.sides[p.side].track_position(("character", p.id))
        where = f"knocked out, on the {number} of the cooldown track" if number else "off the map"
    else:
        where = (
            "standing" if p.standing else "knocked down"
        ) + f" at {state.board.label(p.square)}"
    extra = []
    if p.exhausted:
        extra.append("exhausted")
    elif p.markers:
        extra.append(f"{p.markers} of {p.needed} exhausted markers")
    if p.items:
        extra.append("holds " + ", ".join(_item_name(state, i) for i in p.items))
    if p.statuses:
        extra.append("status cards: " + ", ".join(_status_name(state, s) for s in p.statuses))
    tail = f"; {'; '.join(extra)}" if extra else ""
    return f"{names.get(p.id, p.name)} ({where}{tail})"


def _item_name(state: GameState, item_id: str) -> str:
    card = state.setup.items.get(item_id)
    return card.name if card else item_id


def _status_name(state: GameState, sid: str) -> str:
    card = state.setup.statuses.get(sid)
    return card.name if card else sid


def sides_panel(state: GameState) -> Text:
    """Each side's points (against the target), characters, ability token pool and cooldown
    track."""
    names = display_names(state)
    target = state.setup.scenario.points_to_win(state)
    out = Text()
    for side in state.seats:
        s = state.sides[side]
        mark = " (First Player marker)" if state.first_player == side else ""
        out.append(f"{side}{mark}", style="bold")
        scenario = state.setup.scenario
        of = (
            " (the first knock-out wins)"
            if scenario.first_knockout_wins
            else f" of {target}"
            if target
            else ""
        )
        out.append(f" · {s.points} point{'s' if s.points != 1 else ''}{of}\n")
        for p in state.characters(side):
            out.append(f"  {character_status(state, p, names)}\n")
        pool = ", ".join(f"{c.value} ×{n}" for c, n in sorted(s.pool.items()) if n) or "empty"
        out.append(f"  ability pool: {pool}\n")
        slots = " | ".join(
            f"{n}: "
            + (", ".join(_track_word(state, kind, ref, names) for kind, ref in slot) or "—")
            for n, slot in enumerate(s.track, 1)
        )
        out.append(f"  cooldown track  {slots}\n")
    return out


def _track_word(state: GameState, kind: str, ref: str, names: dict[str, str]) -> str:
    if kind == "token":
        return f"{ref} token"
    if kind == "item":
        return _item_name(state, ref)
    if kind in ("character", "companion", "point"):
        return names.get(ref, ref)
    return f"{ref} {kind}" if kind == "die" else ref


def highlighted(state: GameState, choices: Sequence[Choice]) -> list[int]:
    """The squares the choices move or place to, tinted on the board."""
    squares = []
    for c in choices:
        if isinstance(c, (Move, Place, Return)):
            try:
                squares.append(state.board.parse_label(c.square))
            except ValueError:
                continue
    return squares


def menu_order(state: GameState, choices: Sequence[Choice]) -> list[Choice]:
    """The choices as the menu lists them: a move of 0 squares last (it stays legal)."""
    piece = state.pieces.get(state.active or "")
    here = (
        state.board.label(piece.square) if piece is not None and piece.square is not None else None
    )
    stay = [c for c in choices if isinstance(c, Move) and c.square == here]
    return [c for c in choices if c not in stay] + stay


class Person:
    """A seat played at the terminal."""

    def __init__(
        self,
        console: Console,
        session: Session,
        seat: str,
        read: Callable[[str], str] = input,
    ) -> None:
        self.console = console
        self.session = session
        self.seat = seat
        self.read = read
        self.seen = 0  # the log entries already shown to this person
        self.turn: tuple[int, str | None] | None = None

    def decide(self, handed: Turn) -> Choice:
        view = handed.view
        choices = list(handed.choices)
        self._catch_up(handed.unseen)
        turn = (view.turns, self.seat)
        if turn != self.turn:
            self.turn = turn
            self.show(view, choices)
        names = display_names(view)
        ordered = menu_order(view, choices)
        when = f"Round {view.round}" if view.round else "Setup"
        self.console.print(Text(f"{when} · {self.seat} to decide", style="bold"))
        for i, c in enumerate(ordered, 1):
            self.console.print(f"  [bold]{i:>3}[/bold]  {label(view, c, names)}")
        while True:
            try:
                answer = self.read(
                    f"{self.seat}, your choice (1-{len(ordered)}, ? for help): "
                ).strip()
            except EOFError:
                raise UserError("input ended before the game did") from None
            if answer.isdigit() and 1 <= int(answer) <= len(ordered):
                choice = ordered[int(answer) - 1]
                break
            ids = {c.format(): c for c in ordered}
            if answer in ids:
                choice = ids[answer]
                break
            if answer in ("?", "help"):
                self.console.print(HELP)
                self.console.print(legend(view.board, view.setup.scenario.point_markers))
                continue
            if answer == "board":
                self.show(view, choices)
                continue
            if answer == "log":
                self._last_events(12)
                continue
            if answer.startswith("info"):
                self._info(view, answer.removeprefix("info").strip())
                continue
            self.console.print(
                f"  '{answer}' is not one of the choices: answer with a number from 1 to "
                f"{len(ordered)} (? for help)."
            )
        return choice

    def show(self, view: GameState, choices: Sequence[Choice]) -> None:
        """The board with the squares the choices reach, and both sides."""
        when = f"Round {view.round}" if view.round else "Setup"
        self.console.rule(f"{when} · {self.seat} to decide")
        self.console.print(
            render_board(
                view.board,
                view.on_map(),
                piece_labels(view),
                highlighted(view, choices),
                point_setup=view.setup.scenario.point_markers,
            )
        )
        self.console.print(sides_panel(view))

    def print_events(self, events: Sequence[Event]) -> None:
        names = self.session.names()
        for event in events:
            self.console.print(Text("  " + line(event, names), style="dim"))

    def after_own(self, events: Sequence[Event]) -> None:
        """What this person's choice caused, printed at once."""
        self.print_events(events)
        self.seen = self.session.version

    def _catch_up(self, shown: Sequence[Event]) -> None:
        """What happened since this person's last choice, the others' turns included."""
        self.seen = self.session.version
        if shown:
            self.console.print(Text("Since your last choice:", style="bold"))
            self.print_events(shown)

    def _last_events(self, n: int) -> None:
        shown = [e for _, e in self.session.events(self.seat)][-n:]
        self.print_events(shown)

    def _info(self, view: GameState, name: str) -> None:
        if not name:
            self.console.print("  info NAME: a character's, item's or status card's text")
            return
        found = find_card(view, name)
        if found is None:
            self.console.print(f"  no card named '{name}' in this game")
            return
        self.console.print(card_text(view, found))

"""Lines a log adds where the engine's events leave a cause unnamed: a trait that answers
another side's action. The Cheetah's Predatory Senses lets her move in the rival's turn,
and the events say only that she moves (or declines); the log then says which trait it is,
its rule one tap away (the card's trait).

Worded from a seat's observed view, the seat that decided the entry and the side whose turn
it is: nothing here is a secret a seat may not see.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from funkoverse.rules.core.events import Event, EventKind
from funkoverse.rules.core.state import GameState

_ANSWERS = frozenset({EventKind.MOVED, EventKind.DECLINED})


def turn_side(state: GameState, events: Sequence[Event], was: str | None) -> str | None:
    """The side whose turn it is after `events` (a turn event names the piece that takes it)."""
    for e in events:
        if e.kind is EventKind.TURN and e.piece in state.pieces:
            was = state.pieces[e.piece].side
    return was


def trait_answer(
    state: GameState,
    seat: str | None,
    turn: str | None,
    events: Sequence[Event],
    names: dict[str, str],
) -> dict[str, Any] | None:
    """A line naming the trait behind an entry that `seat` decided in another side's turn,
    when what it did first was move or decline a piece of that seat's with a trait (what
    follows is the turn going on: an exhausted marker, the next turn); else None."""
    if seat is None or turn is None or seat == turn or not events:
        return None
    if events[0].kind not in _ANSWERS or events[0].piece is None:
        return None
    piece = state.pieces.get(events[0].piece)
    if piece is None or piece.side != seat or piece.card is None or not piece.card.trait_name:
        return None
    trait = piece.card.trait_name
    who = names.get(piece.id, piece.name)
    return {
        "kind": "trait",
        "text": f"{who}'s trait, {trait}, answers {turn}'s turn.",
        "rule": trait,
        "piece": piece.id,
    }

"""Moving: the word `move` and its part of the target pre-check (where a move can end)."""

from __future__ import annotations

from funkoverse.rules.core import world
from funkoverse.rules.core.cards import Step
from funkoverse.rules.core.choices import (
    Choice,
    Move,
)
from funkoverse.rules.core.events import Event, EventKind, Events
from funkoverse.rules.core.frames import ChoiceFrame
from funkoverse.rules.core.state import GameState, Piece
from funkoverse.rules.vocabulary.ops import (
    Op,
    from_square,
    label,
    register,
)


def _move_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    piece = state.pieces[frame.piece]
    return [
        Move(label(state, sq)) for sq in world.move_options(state, piece, frame.step.int("squares"))
    ]


def _move_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: Choice, events: Events
) -> None:
    assert isinstance(choice, Move)
    move_piece(state, piece, state.board.parse_label(choice.square), events)


def move_piece(state: GameState, piece: Piece, square: int, events: Events) -> None:
    """Moving: `piece` ends its move in `square` (its own square: a move of 0)."""
    origin = label(state, piece.square) if piece.square is not None else None
    events.append(
        Event(EventKind.MOVED, piece=piece.id, origin=origin, square=label(state, square))
    )
    piece.square = square


def _move_reach(
    state: GameState, piece: Piece, s: Step, squares: set[int], rest: tuple[Step, ...]
) -> set[int]:
    reached: set[int] = set()
    n = s.int("squares")
    for sq in squares:
        found = from_square(state, piece, sq, lambda: world.move_options(state, piece, n))
        reached |= set(found)  # type: ignore[call-overload]
    return reached


register(
    Op(
        "move",
        frozenset({"squares", "optional"}),
        options=_move_options,
        apply=_move_apply,
        reach=_move_reach,
    )
)

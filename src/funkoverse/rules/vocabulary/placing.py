"""Placing: the character beside a rival it can see (Savage Hunger), a chosen adjacent
character beside it (Abduct), with their parts of the target pre-check."""

from __future__ import annotations

from funkoverse.rules.core import geometry, world
from funkoverse.rules.core.cards import Step
from funkoverse.rules.core.choices import (
    Carry,
    Choice,
    Place,
    Put,
)
from funkoverse.rules.core.events import Event, EventKind, Events
from funkoverse.rules.core.frames import ChoiceFrame
from funkoverse.rules.core.pieces import KNOCKABLE_KINDS
from funkoverse.rules.core.stack import (
    nearest_steps,
    update_steps,
)
from funkoverse.rules.core.state import GameState, Piece
from funkoverse.rules.vocabulary.ops import (
    Op,
    from_square,
    label,
    play_out,
    register,
)


def _place_self_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    """Savage Hunger: "Choose a rival within 2 squares that The Cheetah can see and place her
    adjacent to them." """
    piece = state.pieces[frame.piece]
    if piece.square is None:
        return []
    board = state.board
    pieces = state.on_map()
    within = frame.step.int("within", 1)
    found: list[Choice] = []
    for t in pieces:
        if not world.is_rival(t, piece) or t.square is None:
            continue
        if board.distance(piece.square, t.square) > within:
            continue
        if not geometry.can_see_piece(board, piece, t, pieces):
            continue
        for sq in board.adjacent(t.square):
            if sq == piece.square or geometry.placeable(board, pieces, sq):
                found.append(Place(t.id, label(state, sq)))
    return found


def _place_self_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: Choice, events: Events
) -> None:
    assert isinstance(choice, Place)
    piece.square = state.board.parse_label(choice.square)
    update_steps(state, target=choice.piece)
    events.append(
        Event(EventKind.PLACED_BESIDE, piece=piece.id, other=choice.piece, square=choice.square)
    )


def _place_self_reach(
    state: GameState, piece: Piece, s: Step, squares: set[int], rest: tuple[Step, ...]
) -> bool:
    """Placed beside a rival it then challenges: possible when there is such a rival."""
    frame = ChoiceFrame(piece.side, s, piece.id)
    return any(
        from_square(state, piece, sq, lambda: bool(_place_self_options(state, frame)))
        for sq in squares
    )


register(
    Op(
        "place_self_adjacent_to_rival",
        frozenset({"within"}),
        options=_place_self_options,
        apply=_place_self_apply,
        reach=_place_self_reach,
    )
)


def _choose_adjacent_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    """Abduct: "Choose an adjacent character." """
    piece = state.pieces[frame.piece]
    squares = world.adjacent_set(state, piece)
    return [
        Carry(p.id)
        for p in state.on_map()
        if p.id != piece.id and p.kind in KNOCKABLE_KINDS and p.square in squares
    ]


def _choose_adjacent_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: Choice, events: Events
) -> None:
    assert isinstance(choice, Carry)
    update_steps(state, chosen=choice.piece)
    events.append(Event(EventKind.CARRY_CHOSEN, piece=piece.id, other=choice.piece))


def _place_chosen_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    """Abduct: "Place that character in an adjacent square" (adjacent to The Creature)."""
    piece = state.pieces[frame.piece]
    found = nearest_steps(state)
    chosen = state.pieces.get(found[1].chosen or "") if found else None
    if chosen is None or chosen.square is None or piece.square is None:
        return []
    others = [p for p in state.on_map() if p.id != chosen.id]
    squares = world.adjacent_set(state, piece)
    return [
        Put(label(state, sq))
        for sq in sorted(squares)
        if geometry.placeable(state.board, others, sq)
    ]


def _place_chosen_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: Choice, events: Events
) -> None:
    assert isinstance(choice, Put)
    found = nearest_steps(state)
    assert found is not None
    chosen = state.pieces[found[1].chosen or ""]
    chosen.square = state.board.parse_label(choice.square)
    events.append(Event(EventKind.CARRIED, piece=piece.id, other=chosen.id, square=choice.square))


register(
    Op(
        "choose_adjacent_character",
        frozenset(),
        options=_choose_adjacent_options,
        apply=_choose_adjacent_apply,
        reach=play_out,
    )
)
register(
    Op(
        "place_chosen_adjacent",
        frozenset(),
        options=_place_chosen_options,
        apply=_place_chosen_apply,
    )
)

"""Push and pull: moving a rival away from or toward the character, with the pre-check
of a pull that brings a target beside it (Mesmerize)."""

from __future__ import annotations

from funkoverse.rules.core import geometry, world
from funkoverse.rules.core.cards import Step
from funkoverse.rules.core.choices import (
    Choice,
    Pull,
    Push,
)
from funkoverse.rules.core.events import Event, EventKind, Events
from funkoverse.rules.core.frames import ChoiceFrame
from funkoverse.rules.core.stack import (
    nearest_steps,
    targets_so_far,
    update_steps,
)
from funkoverse.rules.core.state import GameState, Piece
from funkoverse.rules.vocabulary.challenging import targets_from
from funkoverse.rules.vocabulary.ops import (
    Op,
    label,
    play_out,
    register,
)


def _adjacent_rivals(state: GameState, piece: Piece) -> list[Piece]:
    squares = world.adjacent_set(state, piece)
    return [p for p in state.on_map() if world.is_rival(p, piece) and p.square in squares]


def _push_options_for(state: GameState, piece: Piece, target: Piece, squares: int) -> list[Choice]:
    assert piece.square is not None and target.square is not None
    dests = geometry.push_destinations(state.board, target, state.on_map(), piece.square, squares)
    return [Push(target.id, label(state, sq)) for sq in sorted({*dests, target.square})]


def _push_one_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    """Reign of Terror: "Push an adjacent rival 2 squares" (Away: each square farther)."""
    piece = state.pieces[frame.piece]
    n = frame.step.int("squares", 1)
    return [
        o for t in _adjacent_rivals(state, piece) for o in _push_options_for(state, piece, t, n)
    ]


def _push_each_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    """Divine Resolve: "Push all adjacent rivals 1 square away", one at a time in the order
    its owner chooses."""
    piece = state.pieces[frame.piece]
    n = frame.step.int("squares", 1)
    done = targets_so_far(state)
    return [
        o
        for t in _adjacent_rivals(state, piece)
        if t.id not in done
        for o in _push_options_for(state, piece, t, n)
    ]


def _push_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: Choice, events: Events
) -> None:
    assert isinstance(choice, Push)
    target = state.pieces[choice.piece]
    origin = label(state, target.square) if target.square is not None else None
    target.square = state.board.parse_label(choice.square)
    update_steps(state, targets=(*targets_so_far(state), target.id), target=target.id)
    events.append(
        Event(
            EventKind.PUSHED, piece=piece.id, other=target.id, origin=origin, square=choice.square
        )
    )


register(
    Op(
        "push_adjacent_rival",
        frozenset({"squares"}),
        options=_push_one_options,
        apply=_push_apply,
        reach=play_out,
    )
)
register(
    Op(
        "push_each_adjacent_rival",
        frozenset({"squares"}),
        options=_push_each_options,
        apply=_push_apply,
        repeats=True,
    )
)


def _pull_seen_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    """Mesmerize: "Pull a rival Dracula can see 2 squares" (Toward)."""
    piece = state.pieces[frame.piece]
    pieces = state.on_map()
    n = frame.step.int("squares", 1)
    found: list[Choice] = []
    for t in pieces:
        if not world.is_rival(t, piece) or t.square is None:
            continue
        if not geometry.can_see_piece(state.board, piece, t, pieces):
            continue
        dests = geometry.pull_destinations(state.board, t, pieces, piece, n)
        found.extend(Pull(t.id, label(state, sq)) for sq in sorted({*dests, t.square}))
    return found


def _pull_target_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    """Fishing Net: "Pull the target 2 squares" toward its holder."""
    piece = state.pieces[frame.piece]
    found = nearest_steps(state)
    target = state.pieces.get(found[1].target or "") if found else None
    if target is None or target.square is None or piece.square is None:
        return []
    pieces = state.on_map()
    dests = geometry.pull_destinations(
        state.board, target, pieces, piece, frame.step.int("squares", 1)
    )
    return [Pull(target.id, label(state, sq)) for sq in sorted({*dests, target.square})]


def _pull_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: Choice, events: Events
) -> None:
    assert isinstance(choice, Pull)
    target = state.pieces[choice.piece]
    origin = label(state, target.square) if target.square is not None else None
    target.square = state.board.parse_label(choice.square)
    update_steps(state, target=target.id)
    events.append(
        Event(
            EventKind.PULLED, piece=piece.id, other=target.id, origin=origin, square=choice.square
        )
    )


def _pull_seen_reach(
    state: GameState, piece: Piece, s: Step, squares: set[int], rest: tuple[Step, ...]
) -> bool:
    """Mesmerize: a target already adjacent, or a rival it can pull to beside it."""
    assert piece.square is not None
    if targets_from(state, piece, piece.square, None):
        return True
    near = state.board.adjacent_set(piece.square)
    frame = ChoiceFrame(piece.side, s, piece.id)
    return any(
        isinstance(o, Pull) and state.board.parse_label(o.square) in near
        for o in _pull_seen_options(state, frame)
    )


register(
    Op(
        "pull_rival_seen",
        frozenset({"squares"}),
        options=_pull_seen_options,
        apply=_pull_apply,
        reach=_pull_seen_reach,
    )
)
register(Op("pull_target", frozenset({"squares"}), options=_pull_target_options, apply=_pull_apply))

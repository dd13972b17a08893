"""The stack of work in progress: the running abilities, and what listens to what happens.

Frames are immutable; these helpers find the innermost running ability or roll and
replace it with an updated copy, and put the decisions that traits ask in reaction to an
event on the stack in turn order.
"""

from __future__ import annotations

from dataclasses import replace

from funkoverse.rules.core import world
from funkoverse.rules.core.events import Event, EventKind, Events
from funkoverse.rules.core.frames import ChoiceFrame, Frame, RollFrame, StepsFrame
from funkoverse.rules.core.hooks import Hook
from funkoverse.rules.core.state import GameState, Piece


def acting(state: GameState) -> str | None:
    """The piece a decision is about: the one the decision on top names, else the active one
    ("" for a decision of no piece's, as the scenario's)."""
    top = state.stack[-1] if state.stack else None
    return top.piece if isinstance(top, ChoiceFrame) else state.active


def nearest_steps(state: GameState) -> tuple[int, StepsFrame] | None:
    """The innermost running ability and its place on the stack."""
    for i in range(len(state.stack) - 1, -1, -1):
        f = state.stack[i]
        if isinstance(f, StepsFrame):
            return i, f
    return None


def nearest_roll(state: GameState) -> tuple[int, RollFrame] | None:
    """The challenge about to be rolled and its place on the stack."""
    for i in range(len(state.stack) - 1, -1, -1):
        f = state.stack[i]
        if isinstance(f, RollFrame):
            return i, f
    return None


def update_steps(state: GameState, **changes: object) -> None:
    """Record something in the innermost running ability (its target, a challenge result)."""
    found = nearest_steps(state)
    if found is None:
        return
    i, f = found
    state.stack[i] = replace(f, **changes)  # type: ignore[arg-type]


def current_source(state: GameState) -> str:
    """What is being done, in words ("Fight for Justice"), for the events it causes."""
    found = nearest_steps(state)
    return found[1].source if found else "challenge"


def targets_so_far(state: GameState) -> tuple[str, ...]:
    """Everything the innermost running ability has challenged or pushed so far."""
    found = nearest_steps(state)
    return found[1].targets if found else ()


def react(state: GameState, event: str, subject: Piece) -> None:
    """Traits that listen to `event`: their decisions go on the stack, the current player's
    first (FAQ, Timing: effects of different players happen in turn order)."""
    frames: list[Frame] = []
    for owner, hook in in_turn_order(state):
        frames.extend(hook.react(state, owner, event, subject))
    state.stack.extend(reversed(frames))


def in_turn_order(state: GameState) -> list[tuple[Piece, Hook]]:
    """Every (owner, hook) of the game, the side taking the current turn first."""
    current = state.to_act or state.first_player or state.seats[0]
    start = state.seats.index(current) if current in state.seats else 0
    order = {side: (i - start) % len(state.seats) for i, side in enumerate(state.seats)}
    pairs = list(world.all_hooks(state))
    pairs.sort(key=lambda pair: order.get(pair[0].side, 0))
    return pairs


def stand_up(state: GameState, piece: Piece, why: str, events: Events) -> None:
    """Stand `piece` up and tell the traits that listen (Predatory Senses)."""
    if piece.standing or piece.square is None:
        return
    piece.standing = True
    events.append(Event(EventKind.STOOD_UP, piece=piece.id, source=why))
    react(state, "stood_up", piece)

"""Assist and interact: standing up an adjacent ally, and the things a character may
interact with (the scenario's point markers, a rival's Tunnels)."""

from __future__ import annotations

from funkoverse.rules.core import world
from funkoverse.rules.core.choices import (
    Assist,
    Choice,
    Interact,
)
from funkoverse.rules.core.events import Event, EventKind, Events
from funkoverse.rules.core.frames import ChoiceFrame
from funkoverse.rules.core.pieces import Role
from funkoverse.rules.core.stack import (
    react,
    stand_up,
)
from funkoverse.rules.core.state import GameState, Piece
from funkoverse.rules.vocabulary.ops import (
    Op,
    register,
)


def _assist_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    piece = state.pieces[frame.piece]
    squares = world.reach_set(state, piece, "assist")
    return [Assist(p.id) for p in world.knocked_down_allies_in(state, piece, squares)]


def _assist_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: Choice, events: Events
) -> None:
    assert isinstance(choice, Assist)
    assist(state, piece, state.pieces[choice.ally], events)


def assist(state: GameState, piece: Piece, ally: Piece, events: Events) -> None:
    """Assist: "Stand up an adjacent ally who has been knocked down." """
    events.append(Event(EventKind.ASSISTED, piece=piece.id, other=ally.id))
    stand_up(state, ally, "Assist", events)


register(Op("assist", frozenset({"optional"}), options=_assist_options, apply=_assist_apply))


def interact_targets(state: GameState, piece: Piece, only: str = "") -> list[Choice]:
    """What `piece` may interact with: the scenario's things (point markers) and what traits
    offer (a rival's Tunnels)."""
    if piece.square is None:
        return []
    squares = world.reach_set(state, piece, "interact")
    found = list(state.setup.scenario.interactions(state, piece, squares))
    if only != "point_marker":
        for owner, hook in world.all_hooks(state):
            found.extend(hook.interactions(state, owner, piece, squares))
    if only == "point_marker":
        found = [t for t in found if _is_point_marker(state, t)]
    return found


def _is_point_marker(state: GameState, thing: Choice) -> bool:
    if not isinstance(thing, Interact):
        return False
    marker = state.pieces.get(thing.thing)
    return marker is not None and marker.role is Role.POINT


def interact(state: GameState, piece: Piece, thing: Choice, events: Events) -> None:
    """Interact: the scenario or the trait that offered `thing` says what happens."""
    if state.setup.scenario.interact(state, piece, thing, events):
        if _is_point_marker(state, thing):
            react(state, "interacted_point_marker", piece)
        return
    for owner, hook in world.all_hooks(state):
        if hook.interact(state, owner, piece, thing, events):
            return


def _interact_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    piece = state.pieces[frame.piece]
    return interact_targets(state, piece, str(frame.step.get("only", "")))


def _interact_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: Choice, events: Events
) -> None:
    interact(state, piece, choice, events)


register(
    Op(
        "interact",
        frozenset({"optional", "only"}),
        options=_interact_options,
        apply=_interact_apply,
    )
)

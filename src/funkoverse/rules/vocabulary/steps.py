"""Following an ability's steps in sequence, and the decisions they ask.

A step either happens at once or asks its owner a decision (a `ChoiceFrame` whose
options its word in `vocabulary` lists). Abilities are followed in sequence; a part
that cannot be done ends the ability ("Abilities & Traits"); being knocked down in the
middle of an ability stops it (FAQ, Timing).
"""

from __future__ import annotations

from funkoverse.rules.core import world
from funkoverse.rules.core.choices import Choice, Skip
from funkoverse.rules.core.events import Event, EventKind, Events
from funkoverse.rules.core.frames import ChoiceFrame, StepsFrame
from funkoverse.rules.core.stack import nearest_steps, update_steps
from funkoverse.rules.core.state import GameState
from funkoverse.rules.vocabulary.ops import OPS, CannotBeDone


def run(state: GameState, frame: StepsFrame, events: Events) -> None:
    """Do the next step of the ability on top of the stack."""
    piece = state.pieces[frame.piece]
    if frame.pc >= len(frame.steps):
        state.stack.pop()
        return
    if frame.pc == 0 and frame.started_standing and piece.square is None and not frame.targets:
        # Nothing has happened yet: a character doing this from the cooldown track (The Blood
        # Is the Life) started off the map, not standing on it, so it is not "knocked down in
        # the middle" of it.
        update_steps(state, started_standing=False)
        return
    if frame.started_standing and (not piece.standing or piece.square is None):
        events.append(Event(EventKind.ABILITY_STOPPED, piece=piece.id, name=frame.source))
        state.stack.pop()
        return
    s = frame.steps[frame.pc]
    if s.get("if_won") and frame.won is not True:
        update_steps(state, pc=frame.pc + 1)
        return
    op = OPS[s.op]
    if not op.repeats:
        update_steps(state, pc=frame.pc + 1)
    try:
        if op.immediate(s):
            assert op.run is not None
            done = op.run(state, piece, frame, s, events)
            if op.repeats and done:
                update_steps(state, pc=frame.pc + 1)
        else:
            assert op.options is not None
            choice = ChoiceFrame(piece.side, s, piece.id, bool(s.get("optional", False)))
            if op.repeats and not op.options(state, choice):
                update_steps(state, pc=frame.pc + 1)
                return
            state.stack.append(choice)
    except CannotBeDone as why:
        abort(state, str(why), events)


def abort(state: GameState, why: str, events: Events) -> None:
    """Abilities: "If the ability contains a part that cannot be done, the ability ends"."""
    found = nearest_steps(state)
    if found is None:
        return
    i, frame = found
    del state.stack[i:]
    events.append(
        Event(EventKind.ABILITY_ENDED, piece=frame.piece, name=frame.source, source=why or None)
    )


def options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    """The legal options of a decision frame (`Skip` last where the card says "you may")."""
    if frame.hook == "scenario":
        found = state.setup.scenario.choices(state, frame.decider, frame.purpose)
    else:
        piece = state.pieces[frame.piece]
        if frame.hook:
            hook = world.find_hook(state, piece, frame.hook)
            found = hook.choices(state, piece, frame.purpose) if hook is not None else []
        else:
            op = OPS[frame.purpose]
            assert op.options is not None
            found = op.options(state, frame)
    if found and frame.optional:
        found.append(Skip())
    return found


def apply_option(state: GameState, frame: ChoiceFrame, choice: Choice, events: Events) -> None:
    """Do the option taken at a decision frame."""
    if frame.hook == "scenario":
        if not isinstance(choice, Skip):
            state.setup.scenario.choose(state, frame.decider, frame.purpose, choice, events)
        return
    piece = state.pieces[frame.piece]
    if isinstance(choice, Skip):
        events.append(Event(EventKind.DECLINED, piece=piece.id))
        return
    if frame.hook:
        hook = world.find_hook(state, piece, frame.hook)
        if hook is not None:
            hook.choose(state, piece, frame.purpose, choice, events)
        return
    op = OPS[frame.purpose]
    assert op.apply is not None
    op.apply(state, frame, piece, choice, events)

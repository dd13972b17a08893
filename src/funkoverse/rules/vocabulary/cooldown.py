"""The cooldown track: shifting a named thing off it, shifting things down it (Lasso of
Truth, Shovel) and shifting ability tokens off it (Made Me From Dead)."""

from __future__ import annotations

from funkoverse.rules.core import track
from funkoverse.rules.core.cards import Step, TokenColor
from funkoverse.rules.core.choices import (
    Choice,
    ShiftDown,
    ShiftOff,
)
from funkoverse.rules.core.events import Events
from funkoverse.rules.core.frames import ChoiceFrame, ReturnFrame, StepsFrame
from funkoverse.rules.core.state import GameState, Piece
from funkoverse.rules.vocabulary.ops import (
    Op,
    register,
)


def _shift_off(state: GameState, piece: Piece, frame: StepsFrame, s: Step, events: Events) -> bool:
    """Shift a named thing off your cooldown track (Inspire Courage: "Shift the Champion die
    off your cooldown track"): a die or a character component, by id."""
    kind = "die" if s.get("die") else "component"
    item = (kind, str(s.get(kind, "")))
    back = track.shift_off(state, piece.side, item, events)
    if back:
        state.stack.append(ReturnFrame(piece.side, tuple(back)))
    return True


register(Op("shift_off", frozenset({"die", "component"}), run=_shift_off))

# The words a shift names and the things on a track they mean. A companion is not a
# character (Glossary, Ally: "The characters, companions, and minion tokens you control"):
# "shift a character" (Shovel) does not shift one (docs/rulings.md).
SHIFTABLE = {
    "token": ("token",),
    "die": ("die",),
    "character": ("character",),
    "companion": ("companion",),
    "marker": ("point",),
    "component": ("component",),
    "item": ("item",),
}


def _shift_down_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    """Lasso of Truth / Shovel: choose something of the named kinds on your cooldown track."""
    piece = state.pieces[frame.piece]
    kinds = {
        k
        for word in str(frame.step.get("kinds", "")).split(",")
        for k in SHIFTABLE.get(word.strip(), ())
    }
    found: list[Choice] = []
    for number, slot in enumerate(state.sides[piece.side].track, 1):
        for kind, ref in slot:
            if kind in kinds:
                option = ShiftDown(kind, ref, number)
                if option not in found:
                    found.append(option)
    return found


def _shift_down_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: Choice, events: Events
) -> None:
    assert isinstance(choice, ShiftDown)
    back = track.shift_down(
        state,
        piece.side,
        (choice.thing, choice.what),
        frame.step.int("amount", 1),
        events,
        at=choice.at,
    )
    if back:
        state.stack.append(ReturnFrame(piece.side, tuple(back)))


register(
    Op(
        "shift_down",
        frozenset({"kinds", "amount", "if_won"}),
        options=_shift_down_options,
        apply=_shift_down_apply,
    )
)


def token_off_options(state: GameState, side: str) -> list[Choice]:
    """Made Me From Dead: "shift two ability tokens off your cooldown track" (one at a time):
    each token on the track, by color and number."""
    found: list[Choice] = []
    for number, slot in enumerate(state.sides[side].track, 1):
        for kind, ref in slot:
            option = ShiftOff(ref, number)
            if kind == "token" and option not in found:
                found.append(option)
    return found


def token_off(state: GameState, side: str, choice: Choice, events: Events) -> None:
    """Shift the ability token a `ShiftOff` choice names off `side`'s track, to the pool."""
    assert isinstance(choice, ShiftOff)
    slot = state.sides[side].track[choice.at - 1]
    slot.remove(("token", choice.color))
    track.returned(state, side, ("token", TokenColor(choice.color).value), events)


def _token_off_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    return token_off_options(state, state.pieces[frame.piece].side)


def _token_off_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: Choice, events: Events
) -> None:
    token_off(state, piece.side, choice, events)


register(
    Op(
        "shift_off_token",
        frozenset(),
        options=_token_off_options,
        apply=_token_off_apply,
    )
)

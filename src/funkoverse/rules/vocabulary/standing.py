"""Standing up: the words that stand a character up, or shift it off the cooldown track
when it is there (The Blood Is the Life)."""

from __future__ import annotations

from funkoverse.rules.core import track
from funkoverse.rules.core.cards import Step
from funkoverse.rules.core.events import Event, EventKind, Events
from funkoverse.rules.core.frames import ReturnFrame, StepsFrame
from funkoverse.rules.core.stack import (
    stand_up,
)
from funkoverse.rules.core.state import GameState, Piece
from funkoverse.rules.vocabulary.ops import (
    Op,
    register,
)


def _stand_up(state: GameState, piece: Piece, frame: StepsFrame, s: Step, events: Events) -> bool:
    stand_up(state, piece, frame.source, events)
    return True


def _stand_up_or_shift_off(
    state: GameState, piece: Piece, frame: StepsFrame, s: Step, events: Events
) -> bool:
    """The Blood Is the Life: "Stand Dracula up or shift him off your cooldown track." """
    if piece.square is None:
        back = track.shift_off(state, piece.side, ("character", piece.id), events)
        if back:
            events.append(Event(EventKind.OFF_THE_TRACK, piece=piece.id, source=frame.source))
            state.stack.append(ReturnFrame(piece.side, tuple(back)))
    else:
        stand_up(state, piece, frame.source, events)
    return True


register(Op("stand_up", frozenset(), run=_stand_up))
register(Op("stand_up_or_shift_off", frozenset(), run=_stand_up_or_shift_off))

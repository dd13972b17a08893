"""Status cards: giving one (by name, or a free card of a group the owner chooses), and
whether a card is in play for a side."""

from __future__ import annotations

from funkoverse.rules.core import world
from funkoverse.rules.core.cards import Step
from funkoverse.rules.core.choices import (
    Choice,
)
from funkoverse.rules.core.choices import GiveStatus as GiveStatusChoice
from funkoverse.rules.core.events import Event, EventKind, Events
from funkoverse.rules.core.frames import ChoiceFrame, Frame, StepsFrame
from funkoverse.rules.core.state import GameState, Piece
from funkoverse.rules.vocabulary.ops import (
    CannotBeDone,
    Op,
    register,
)


def status_in_play(state: GameState, card: str, side: str) -> bool:
    """Status Cards: "If a status card is in play, it cannot be given to a character until it
    has been discarded." Each side plays its own copy of the cards that come with its
    characters (Setup: "The player controlling The Bride takes the 4 The Bride status cards"),
    so rivals with the same character (Mixing Games allows it) each have a set: the card is in
    play when one of `side`'s characters has it."""
    return any(card in p.statuses for p in state.pieces.values() if p.side == side)


def free_statuses(state: GameState, group: str, side: str) -> list[str]:
    """The status cards of `group` not in play for `side`."""
    return [
        sid
        for sid, card in state.setup.statuses.items()
        if card.group == group and not status_in_play(state, sid, side)
    ]


def give_status(state: GameState, piece: Piece, card: str, events: Events) -> None:
    """Status Cards: put it by the character; it follows that card's rules."""
    piece.statuses = (*piece.statuses, card)
    events.append(
        Event(
            EventKind.STATUS_GIVEN, piece=piece.id, card=card, name=state.setup.statuses[card].name
        )
    )
    frames: list[Frame] = []
    for hook in world.hooks_of(state, piece):
        frames.extend(hook.on_status(state, piece, card))
    state.stack.extend(reversed(frames))


def _give_status(
    state: GameState, piece: Piece, frame: StepsFrame, s: Step, events: Events
) -> bool:
    card = str(s.get("card", ""))
    if card:
        if status_in_play(state, card, piece.side):
            raise CannotBeDone(f"the {state.setup.statuses[card].name} status card is in play")
        give_status(state, piece, card, events)
        return True
    group = str(s.get("group", ""))
    if not free_statuses(state, group, piece.side):
        raise CannotBeDone(f"every {group} status card is in play")
    state.stack.append(ChoiceFrame(piece.side, Step("_status", (("group", group),)), piece.id))
    return True


def _status_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    piece = state.pieces[frame.piece]
    group = str(frame.step.get("group", ""))
    return [GiveStatusChoice(sid) for sid in free_statuses(state, group, piece.side)]


def _status_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: Choice, events: Events
) -> None:
    assert isinstance(choice, GiveStatusChoice)
    give_status(state, piece, choice.card, events)


register(Op("give_status", frozenset({"card", "group"}), run=_give_status))
# the choice of which card of a group `give_status` asks (not a word for content files)
register(Op("_status", frozenset({"group"}), options=_status_options, apply=_status_apply))

"""The cooldown track: placing things on it, shifting them down and off.

Glossary "Shift Down/Up" and "Shift Off"; Cooldown Tracks: "Things that shift off
the 1 return to play": characters and companions to the starting area, ability
tokens to the pool, point markers to their setup squares, attachments and
character components (the Champion die, the Blood token) to their character.
"""

from __future__ import annotations

from funkoverse.rules.core.cards import TokenColor
from funkoverse.rules.core.events import Event, EventKind, Events
from funkoverse.rules.core.numbers import TRACK_LENGTH
from funkoverse.rules.core.state import GameState, TrackItem


def place(
    state: GameState, side: str, item: TrackItem, number: int, was: int | None = None
) -> None:
    """Put `item` on the given number (1-4) of `side`'s track, taking it off where it was
    (the number `was`, or the lowest that holds one: two ability tokens of one color are
    two things). Shift Up: what would go beyond the top is placed on the top."""
    track = state.sides[side].track
    if was is not None and item in track[was - 1]:
        track[was - 1].remove(item)
    else:
        for slot in track:
            if item in slot:
                slot.remove(item)
                break
    track[max(1, min(number, TRACK_LENGTH)) - 1].append(item)


def position(state: GameState, side: str, item: TrackItem) -> int | None:
    """The number (1-4) of the space of `side`'s track that holds `item`, or None."""
    return state.sides[side].track_position(item)


def shift_down(
    state: GameState, side: str, item: TrackItem, amount: int, events: Events, at: int | None = None
) -> list[str]:
    """Shift `item` (the one on number `at`, if given) down `amount`; past the 1 it shifts
    off. Returns characters to place."""
    track = state.sides[side].track
    at = at if at is not None and item in track[at - 1] else position(state, side, item)
    if at is None:
        return []
    if at - amount >= 1:
        place(state, side, item, at - amount, was=at)
        events.append(
            Event(EventKind.SHIFTED_DOWN, side=side, name=describe(state, item), number=at - amount)
        )
        return []
    track[at - 1].remove(item)
    return returned(state, side, item, events)


def shift_off(state: GameState, side: str, item: TrackItem, events: Events) -> list[str]:
    """Take `item` off the track and return it to play; characters are returned by the caller
    (their owner chooses the square), so their ids come back."""
    for slot in state.sides[side].track:
        if item in slot:
            slot.remove(item)
            break
    else:
        return []
    return returned(state, side, item, events)


def returned(state: GameState, side: str, item: TrackItem, events: Events) -> list[str]:
    """`item` has left the track: put it back where it belongs."""
    kind, ref = item
    side_state = state.sides[side]
    if kind == "token":
        color = TokenColor(ref)
        side_state.pool[color] = side_state.pool.get(color, 0) + 1
        events.append(Event(EventKind.TOKEN_BACK, side=side, source=ref))
    elif kind in ("character", "companion"):
        return [ref]
    elif kind == "point":
        marker = state.pieces[ref]
        marker.square = state.board.point_squares[marker.ref]
        events.append(
            Event(EventKind.MARKER_BACK, piece=ref, square=state.board.label(marker.square))
        )
    else:
        events.append(Event(EventKind.SHIFTED_OFF, side=side, name=describe(state, item)))
    return []


def cooldown(state: GameState, side: str, events: Events) -> list[str]:
    """Ending a Round, Cooldown: everything shifts down one; what shifts off the 1 returns."""
    track = state.sides[side].track
    off = track[0]
    track[:] = [*track[1:], []]
    returning: list[str] = []
    for item in off:
        returning.extend(returned(state, side, item, events))
    return returning


def describe(state: GameState, item: TrackItem) -> str:
    """A track item in words: "The Champion die", "The Lasso of Truth item card"."""
    kind, ref = item
    setup = state.setup
    if kind == "die":
        die = setup.dice.get(ref)
        return f"The {die.name}" if die else f"The {ref.title()} die"
    if kind == "component":
        return f"The {ref.title()} token"
    if kind == "item":
        card = setup.items.get(ref)
        return f"The {card.name if card else ref} item card"
    if kind == "token":
        return f"A {ref} ability token"
    piece = state.pieces.get(ref)
    return piece.name if piece is not None else ref

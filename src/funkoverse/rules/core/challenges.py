"""Challenges: declaring one, what may change before the dice, and what losing does.

Resolving a Challenge: "Declare your target and roll a number of dice as specified by
the rules for your challenge. Your opponent then rolls a number of dice equal to the
target's defense." The roll itself is a chance node (`RollFrame`); its outcome is
applied by `resolve_challenge`.
"""

from __future__ import annotations

from funkoverse.rules.core import track, world
from funkoverse.rules.core.cards import Step
from funkoverse.rules.core.events import Event, EventKind, Events
from funkoverse.rules.core.frames import Frame, RollFrame
from funkoverse.rules.core.numbers import BASIC_CHALLENGE_DICE, COMPANION_SLOT, KNOCKED_OUT_SLOT
from funkoverse.rules.core.pieces import KNOCKABLE_KINDS, Kind
from funkoverse.rules.core.stack import in_turn_order, react, targets_so_far, update_steps
from funkoverse.rules.core.state import GameState, Piece


def attack_dice(state: GameState, challenger: Piece, target: Piece, s: Step) -> int:
    """Dice for a challenge step: "challenge N", plus what the card adds."""
    dice = s.int("dice", BASIC_CHALLENGE_DICE)
    bonus = s.get("bonus")
    if bonus == "target_defense":  # Fight for Justice
        dice += world.defense_of(state, target)
    elif bonus == "highest_point_marker":  # Ferocious Slash
        dice += highest_point_marker(state)
    if not target.standing:
        dice += s.int("extra_vs_knocked_down", 0)  # Strangle
    return dice


def highest_point_marker(state: GameState) -> int:
    """The highest number where a point marker is on any cooldown track (0 when none is)."""
    best = 0
    for side in state.sides.values():
        for number, slot in enumerate(side.track, 1):
            if any(kind == "point" for kind, _ in slot):
                best = max(best, number)
    return best


def declare_challenge(
    state: GameState, challenger: Piece, target: Piece, dice: int, source: str, events: Events
) -> None:
    """Resolving a Challenge: declare the target; then any "you may" before the dice; roll."""
    frame = RollFrame(
        challenger.id,
        target.id,
        ("standard",) * dice,
        ("standard",) * world.defense_of(state, target),
        source,
    )
    update_steps(state, target=target.id, targets=(*targets_so_far(state), target.id))
    state.stack.append(frame)
    events.append(
        Event(
            EventKind.CHALLENGE,
            piece=challenger.id,
            other=target.id,
            number=dice,
            total=len(frame.defense),
            source=source,
        )
    )
    before_roll(state)


def before_roll(state: GameState) -> None:
    """Ask each hook once, in turn order, whether it wants a say before this roll."""
    roll = state.stack[-1]
    assert isinstance(roll, RollFrame)
    frames: list[Frame] = []
    asked = list(roll.asked)
    for owner, hook in in_turn_order(state):
        key = f"{owner.id}/{hook.name}"
        if key in asked:
            continue
        asked.append(key)
        frames.extend(hook.before_roll(state, owner, roll))
    roll = state.stack[-1]
    assert isinstance(roll, RollFrame)
    state.stack[-1] = RollFrame(
        roll.challenger, roll.target, roll.attack, roll.defense, roll.source, tuple(asked)
    )
    state.stack.extend(reversed(frames))


def resolve_challenge(state: GameState, roll: RollFrame, won: bool, events: Events) -> None:
    """Knocked Down / Knocked Out / tokens removed; nothing happens when the challenger loses."""
    challenger = state.pieces[roll.challenger]
    target = state.pieces[roll.target]
    update_steps(state, won=won)
    if not won:
        events.append(Event(EventKind.CHALLENGE_LOST, piece=challenger.id))
        return
    if target.square is None:
        return
    if target.kind in KNOCKABLE_KINDS:
        if target.standing:
            target.standing = False
            events.append(Event(EventKind.KNOCKED_DOWN, piece=target.id))
        else:
            knock_out(state, target, challenger, events)
    elif target.kind is Kind.COMPANION:
        target.square = None
        track.place(state, target.side, ("companion", target.id), COMPANION_SLOT)
        events.append(Event(EventKind.COMPANION_OUT, piece=target.id))
    else:
        target.square = None
        events.append(Event(EventKind.TOKEN_REMOVED, piece=target.id))


def knock_out(state: GameState, victim: Piece, by: Piece | None, events: Events) -> None:
    """Knocked Out: remove from the map, onto the 1 of its player's cooldown track. Tokens it
    placed stay; status cards and items stay with it."""
    credit = by
    if by is not None and by.owner and by.kind is not Kind.CHARACTER:
        # Tokens, minion tokens and companions: credit the character who put them into play
        credit = state.pieces.get(by.owner, by)
    where = state.board.label(victim.square) if victim.square is not None else None
    scored: Events = []
    state.setup.scenario.on_knockout(state, credit, victim, scored)  # still in its square
    victim.square = None
    victim.standing = True
    track.place(state, victim.side, ("character", victim.id), KNOCKED_OUT_SLOT)
    events.append(Event(EventKind.KNOCKED_OUT, piece=victim.id, square=where))
    events.extend(scored)
    react(state, "knocked_out", victim)

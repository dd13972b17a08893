"""What one seat may see of a game: everything but the other sides' secret picks.

Scenario Setup: "If both players have collections, choose characters and items in
secret." Leaders: "Each player secretly picks one of their characters to be a leader.
Both players reveal leaders ... at the same time." Until then, a side sees that the
others have picked, not what. This module is the only place that decides what a seat
may see: of a position (`observe`), of an event (`observe_event`) and of a logged
choice (`may_see_choice`). A spectator (`None`) sees no secret.
"""

from __future__ import annotations

import random
from dataclasses import replace

from funkoverse.rules.core.events import Event
from funkoverse.rules.core.state import GameState, Phase

HIDDEN = "?"


def secret_draft(state: GameState) -> bool:
    """Characters and items are being chosen in secret (Scenario Setup, step 5)."""
    return state.phase is Phase.DRAFT and state.setup.draft is not None and state.setup.draft.secret


def secret_leaders(state: GameState) -> bool:
    """Leaders are picked and not yet revealed (Leaders: Setup)."""
    return state.setup.scenario.leaders and not state.leaders_revealed


def secret_decision(state: GameState) -> bool:
    """Whether the decision waiting now is a secret pick (its answer is the decider's secret)."""
    return secret_draft(state) or (state.phase is Phase.SECRET and secret_leaders(state))


def observe(state: GameState, seat: str | None) -> GameState:
    """`state` as `seat` may see it: a copy with every other side's secret picks hidden (each
    pick replaced by `HIDDEN`, so their number shows), or `state` itself when nothing is
    secret."""
    draft = secret_draft(state)
    leaders = secret_leaders(state)
    if not (draft or leaders):
        return state
    view = state.copy()
    for side, mine in view.sides.items():
        if side == seat:
            continue
        if draft:
            mine.picks = tuple(HIDDEN for _ in mine.picks)
            mine.gifts = tuple((HIDDEN, HIDDEN) for _ in mine.gifts)
        if leaders and mine.leader is not None:
            mine.leader = HIDDEN
    return view


def observe_event(event: Event, seat: str | None) -> Event:
    """`event` as `seat` may see it: an event about a secret pick loses the pick for every
    seat but the picker's."""
    if not event.secret or event.side == seat:
        return event
    return replace(event, piece=None, other=None, card=None, name=None)


def may_see_choice(seat: str | None, decider: str | None, secret: bool) -> bool:
    """Whether `seat` may read a logged choice: a secret pick only by the seat that made it."""
    return not secret or (seat is not None and seat == decider)


def determinize(view: GameState, rng: random.Random) -> GameState:
    """One game consistent with `view`: each hidden pick replaced by a pick the rival may have
    made, drawn with `rng`. Search plays on such games ("sampling what the rival may have
    picked"); the real game is never changed."""
    hidden_sides = [
        side
        for side in view.seats
        if HIDDEN in view.sides[side].picks or view.sides[side].leader == HIDDEN
    ]
    if not hidden_sides:
        return view
    game = view.copy()
    draft = game.setup.draft
    for side in sorted(hidden_sides):
        mine = game.sides[side]
        if HIDDEN in mine.picks and draft is not None:
            count = len(mine.picks)
            for _ in range(100):
                chosen = rng.sample(list(draft.characters), count)
                names = {c.name for c in chosen}
                holders = [c for c in chosen if not c.basic]
                if len(names) == count and (holders or not draft.items):
                    break
            mine.picks = tuple(c.id for c in chosen)
            if mine.gifts and holders:
                n = len(mine.gifts)
                picked = rng.sample(list(draft.item_ids), min(n, len(draft.item_ids)))
                mine.gifts = tuple((i, rng.choice(holders).id) for i in picked)
        if mine.leader == HIDDEN:
            own = [p.id for p in game.characters(side)]
            if own:
                mine.leader = rng.choice(own)
    return game

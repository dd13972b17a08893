"""What one side may see of a game: everything but the other sides' secret picks.

Scenario Setup: "If both players have collections, choose characters and items in
secret." Leaders: "Each player secretly picks one of their characters to be a leader.
Both players reveal leaders ... at the same time." Until then, a side sees that the
others have picked, not what.
"""

from __future__ import annotations

from funkoverse.rules.state import GameState, Phase

HIDDEN = "?"


def observe(state: GameState, side: str | None) -> GameState:
    """`state` as `side` may see it (a copy when something must be hidden; `None`: a spectator,
    who sees no secret either)."""
    secret_draft = (
        state.phase is Phase.DRAFT and state.setup.draft is not None and state.setup.draft.secret
    )
    secret_leaders = state.setup.scenario.leaders and "revealed:leaders" not in state.objective
    if not (secret_draft or secret_leaders):
        return state
    view = state.copy()
    for key, value in state.objective.items():
        owner = key.partition(":")[2]
        if owner == side:
            continue
        if secret_draft and key.startswith(("draft:", "items:")):
            view.objective[key] = ",".join(HIDDEN for _ in value.split(",")) if value else ""
        elif secret_leaders and key.startswith("leader:"):
            view.objective[key] = HIDDEN
    return view


def hidden(state: GameState, side: str | None) -> bool:
    """Does `side` miss something of `state` (a rival's secret pick)?"""
    return observe(state, side) is not state and observe(state, side).key() != state.key()

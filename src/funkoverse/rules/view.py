"""What one side may see of a game: everything but the other sides' secret picks.

Scenario Setup: "If both players have collections, choose characters and items in
secret." Leaders: "Each player secretly picks one of their characters to be a leader.
Both players reveal leaders ... at the same time." Until then, a side sees that the
others have picked, not what.
"""

from __future__ import annotations

import random

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


def determinize(view: GameState, rng: random.Random) -> GameState:
    """One game consistent with `view`: each hidden pick replaced by a pick the rival may have
    made, drawn with `rng`. Search plays on such games ("sampling what the rival may have
    picked"); the real game is never changed."""
    hidden_keys = [k for k, v in view.objective.items() if HIDDEN in v.split(",")]
    if not hidden_keys:
        return view
    game = view.copy()
    draft = game.setup.draft
    for key in sorted(hidden_keys):
        kind, _, side = key.partition(":")
        if kind == "draft" and draft is not None:
            count = len(game.objective[key].split(","))
            for _ in range(100):
                chosen = rng.sample(list(draft.characters), count)
                names = {c.name for c in chosen}
                holders = [c for c in chosen if not c.basic]
                if len(names) == count and (holders or not draft.items):
                    break
            game.objective[key] = ",".join(c.id for c in chosen)
            items_key = f"items:{side}"
            if game.objective.get(items_key) and holders:
                n = len(game.objective[items_key].split(","))
                picked = rng.sample(list(draft.item_ids), min(n, len(draft.item_ids)))
                game.objective[items_key] = ",".join(
                    f"{i}@{rng.choice(holders).id}" for i in picked
                )
        elif kind == "leader":
            own = [p.id for p in game.characters(side)]
            if own:
                game.objective[key] = rng.choice(own)
    return game

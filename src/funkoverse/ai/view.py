"""What an agent may see of the game.

Every agent looks at the game through `observe(state, side)` before deciding: the rules'
own view, which hides a rival's secret picks (characters chosen in secret, a secret
leader) until they are revealed, with each hidden pick then replaced by one the rival may
have made, so that search can play on. The sample is drawn from a generator seeded by
what the side sees, so an agent stays deterministic.
"""

from __future__ import annotations

import random
import zlib

from funkoverse.rules import GameState
from funkoverse.rules.core import view as rules_view


def observe(state: GameState, side: str | None) -> GameState:
    """The game as `side` may see it, hidden picks sampled."""
    seen = rules_view.observe(state, side)
    if seen is state:
        return state
    picks = [
        (s, seen.sides[s].picks, seen.sides[s].gifts, seen.sides[s].leader) for s in seen.seats
    ]
    seed = zlib.crc32(repr(picks).encode())
    return rules_view.determinize(seen, random.Random(seed))

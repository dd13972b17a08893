"""The evaluation's weights, and the two sets the levels play with.

The evaluation itself runs in the compiled kernel (kernel/evaluate.cpp; docs/ai.md says what
it reads and how). This module holds what it is told: `Weights`, in logit units (the log-odds
scale of a chance to win) unless said otherwise, and the presets behind the levels:
`NEXT_TURNS` (easy and normal) and `FITTED` (hard and expert). The dataclass's defaults are
the kernel's own (its `Weights` struct): the `race` reading, the next turns played out on the
chances alone, which no level uses.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

HORIZON_TURNS = 8  # turns the evaluation looks at ahead (one side's turns in a row merged)


@dataclass(frozen=True)
class Weights:
    """The evaluation's weights, in logit units unless said otherwise."""

    knocked_down: float = 0.7  # a character of ours knocked down
    knocked_out: float = 1.4  # a character of ours on the cooldown track
    pool_token: float = 0.12  # an ability token in the pool
    track_token: float = 0.04  # an ability token on the cooldown track (it will come back)
    points: float = 5.0  # all the points the scenario needs (scaled by the share we have)
    raw_point: float = 0.5  # a point, when the scenario names no target
    win: float = 6.0  # what a turn that wins the game is worth when choosing its plan
    objective: float = 0.08  # per move action between our nearest character and a marker
    # per square between each standing character of ours and its nearest marker (at most 12):
    # a pull toward the objectives where the rest of the evaluation sees no difference
    walk: float = 0.0
    turn_weights: tuple[float, ...] = (1.0, 0.5, 0.25)  # how much the next turns count
    win_weights: tuple[float, ...] = (1.0, 0.55, 0.3)  # same, for a turn that wins the game
    race: bool = True  # play the next turns out as a race (else: weigh each turn's plan)
    race_groups: int = 6  # turns played out (turns of one side in a row count as one)
    decay: float = 0.8  # the chance a plan a turn further ahead still happens
    recover: float = 1.5  # standing an ally up, per knocked-down character
    # Flags: the share of a return's points counted for a standing character that is beside
    # the rival's flag now, one move action from it, two (0: the round end is not looked at)
    flag_return: tuple[float, float, float] = (0.0, 0.0, 0.0)
    # Flags, read round by round: (the share a return still counts per round it is away, the
    # chance a character standing by the rival's flag a round or more ahead is still standing
    # when its round ends); 0 leaves it to `flag_return`
    flag_rounds: tuple[float, float] = (0.0, 0.0)
    # the threats of the next turns count each character's challenge abilities (its first
    # challenge's dice, the squares it moves on the way) when its side has a token to pay,
    # and the challenge items it holds while their cards are off the cooldown track
    abilities: bool = False
    # the characters knocked down and knocked out now, when they weigh otherwise than in the
    # next turns' plans (None: `knocked_down` and `knocked_out`)
    material: tuple[float, float] | None = None
    flag_scale: float = 1.0  # how much the Flags count is trusted, against points in hand
    # Flags: a return no rival can stop any more (none is left to act this round) counts as
    # points in hand, not at `flag_scale`
    sure_returns: bool = False
    # Flags: the returns and points still possible this round decide the game when they take a
    # side to the target with the most points ("Winning a Scenario"), at their chances
    round_race: bool = False
    # past the scenario's target, points still count while a rival is within this many of
    # them: "If there is a tie, play more rounds until one player has more points" (0: the
    # target caps the points worth having)
    beyond_target: int = 0

    def for_kernel(self, horizon_turns: int = HORIZON_TURNS) -> dict[str, Any]:
        """The weights as the kernel's evaluator takes them."""
        return {**dataclasses.asdict(self), "horizon_turns": horizon_turns}


# easy and normal: each of the next three turns' best plan weighed (1, 1/2, 1/4) into the
# score, a plan that may win the game outright entering as a race of turns in probability
NEXT_TURNS = Weights(race=False)
# hard and expert: Flags read round by round (a return this round at the exact chance no
# rival still to act knocks the character down there, later rounds discounted), the threats
# read with the characters' challenge abilities and items, what is not yet in hand weighed
# against points in hand as a fit to self-play suggested, a return no rival is left to act
# against counted as points in hand, the end of a round read as the rules decide the game,
# and each character drawn square by square toward its nearest objective (docs/ai.md)
FITTED = Weights(
    race=False,
    flag_rounds=(0.5, 0.375),
    abilities=True,
    flag_scale=0.6,
    sure_returns=True,
    turn_weights=(0.4, 0.35, 0.25),
    material=(0.3, 0.4),
    objective=0.12,
    pool_token=0.15,
    track_token=0.15,
    round_race=True,
    beyond_target=2,
    walk=0.005,
)

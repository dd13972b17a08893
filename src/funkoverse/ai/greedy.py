"""The greedy agent: the best end of its own turn, one turn deep.

From the decision it is asked, the kernel searches the rest of its own turn's chain of
decisions (which character, each action, the parts of an ability) with the exact
expectation at every roll, and scores each end of the turn with the evaluation (by default
`NEXT_TURNS`). It is the search of `funkoverse.ai.expectimax` at a depth of one turn, its
beam narrowing past half of a choice's part of the budget. Values are the evaluation's
estimate of its side's chance to win, so `explain` reads as win probabilities.
"""

from __future__ import annotations

from funkoverse.ai import kernel
from funkoverse.ai.expectimax import BEAM, BEAM_POSITIONS, NARROW_SHARE, ExpectimaxAgent
from funkoverse.ai.kernel import Evaluator
from funkoverse.ai.weights import NEXT_TURNS
from funkoverse.rules import CHANCE, Choice, Turn, Unsupported


class GreedyAgent(ExpectimaxAgent):
    """One turn deep, exact at chance nodes, scored by the evaluation.

    `depth="decision"` looks only one decision ahead (the next chance node's outcomes
    included) and `noise` is the share of decisions taken at random: the easy level.
    """

    name = "greedy"

    def __init__(
        self,
        seed: int = 0,
        evaluator: Evaluator | None = None,
        depth: str = "turn",
        noise: float = 0.0,
        beam: int | None = BEAM,
        turn_budget: int | None = None,
        beam_positions: int = BEAM_POSITIONS,
    ) -> None:
        if depth not in ("turn", "decision"):
            raise ValueError(f"depth must be 'turn' or 'decision', not {depth!r}")
        super().__init__(
            seed,
            depth=1,
            evaluator=evaluator or Evaluator(NEXT_TURNS),
            beam=beam,
            turn_budget=turn_budget,
            narrow=NARROW_SHARE,
            beam_positions=beam_positions,
        )
        self.one_decision = depth == "decision"
        self.noise = noise

    def decide(self, turn: Turn) -> Choice:
        choices = turn.choices
        if len(choices) > 1 and self.noise and self.rng.random() < self.noise:
            return choices[self.rng.randrange(len(choices))]
        return super().decide(turn)

    def rank_turn(self, turn: Turn) -> list[tuple[Choice, float]]:
        if not self.one_decision:
            return super().rank_turn(turn)
        side = turn.seat
        choices = list(turn.choices)
        if not side or side == CHANCE:
            return [(c, 0.0) for c in choices]
        try:
            found = kernel.loaded(turn)
            ranked = kernel.search(self).rank_decision(
                found.ai, found.kernel, found.codes, found.seat
            )
        except (Unsupported, RuntimeError) as why:
            return self._simply(turn, str(why))
        self.positions += len(choices)
        return [(choices[i], value) for i, value in ranked]

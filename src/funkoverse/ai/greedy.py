"""The greedy agent: the best end of its own turn, one turn deep.

From the decision it is asked, it searches the rest of its own turn's chain of decisions
(which character, each action, the parts of an ability) with the exact expectation at
every chance node (the challenge rolls), and scores each end of the turn with the
evaluator (by default `NEXT_TURNS`: material, points, tokens, objectives, and the threats
and exact odds of the challenges the next turns can make). It is the turn search of
`funkoverse.ai.expectimax` at a depth of one turn: at each decision of the turn the
choices are ordered by their value as they stand and the `beam` best are searched on, so
the cost of a turn stays small with every character (a Creature's tunnels or a long
ability do not multiply it). Values are the evaluator's estimate of its side's chance to
win, so `explain` reads as win probabilities. Like that search, it runs on the compiled
kernel where it plays the position, with the same results.
"""

from __future__ import annotations

from typing import Any

from funkoverse.ai import kernel
from funkoverse.ai.evaluate import NEXT_TURNS, Evaluator
from funkoverse.ai.expectimax import BEAM, BEAM_POSITIONS, NARROW_SHARE, ExpectimaxAgent
from funkoverse.ai.view import observe
from funkoverse.rules import CHANCE, Choice, Turn


class GreedyAgent(ExpectimaxAgent):
    """One turn deep, exact at chance nodes, scored by the evaluator.

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
        kernel: bool = True,
        beam_positions: int = BEAM_POSITIONS,
        in_python: dict[str, Any] | None = None,
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
            kernel=kernel,
            beam_positions=beam_positions,
            in_python=in_python,
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
        found = kernel.loaded(turn) if self._on_kernel() else None
        if found is not None:  # the same values on the compiled kernel
            try:
                ranked = kernel.search(self).rank_decision(
                    found.ai, found.kernel, found.codes, found.seat
                )
            except RuntimeError:  # past what the kernel's lists hold: Python decides
                self.kernel = False
                return self.rank_turn(turn)
            self.positions += len(choices)
            return [(choices[i], value) for i, value in ranked]
        view = observe(turn.view, side)  # a rival's hidden picks sampled
        seat = view.seats.index(side)
        scored = [(c, self._eval(self._child(view, c))[seat]) for c in choices]
        scored.sort(key=lambda cv: -cv[1])
        return scored

"""The greedy agent: the best end of its own turn, one turn deep.

From the decision it is asked, it searches the rest of its own turn's chain of decisions
(which character, each action, the parts of an ability) with the exact expectation at
every chance node (the challenge rolls), and scores each end of the turn with the
evaluator (by default `NEXT_TURNS`: material, points, tokens, objectives, and the threats
and exact odds of the challenges the next turns can make). Values are the evaluator's estimate of its side's chance to win, so `explain`
reads as win probabilities. Positions met again inside the turn (two moves in another
order) are looked up, not searched twice, and the table lasts for the whole turn: the
second and third decisions of a turn cost next to nothing.
"""

from __future__ import annotations

import random

from funkoverse.ai.evaluate import NEXT_TURNS, Evaluator
from funkoverse.ai.view import observe
from funkoverse.rules import engine
from funkoverse.rules.state import CHANCE, GameState

_MEMO_LIMIT = 300_000


class GreedyAgent:
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
    ) -> None:
        if depth not in ("turn", "decision"):
            raise ValueError(f"depth must be 'turn' or 'decision', not {depth!r}")
        self.rng = random.Random(seed)
        self.evaluator = evaluator or Evaluator(NEXT_TURNS)
        self.depth = depth
        self.noise = noise
        self._memo: dict[tuple[object, ...], float] = {}

    # -- the agent interface ---------------------------------------------------

    def choose(self, state: GameState, choices: list[str]) -> str:
        if len(choices) == 1:
            return choices[0]
        if self.noise and self.rng.random() < self.noise:
            return choices[self.rng.randrange(len(choices))]
        ranked = self.rank(state, choices)
        best = ranked[0][1]
        ties = [c for c, v in ranked if v >= best - 1e-12]
        return ties[self.rng.randrange(len(ties))] if len(ties) > 1 else ties[0]

    def explain(
        self, state: GameState, choices: list[str], top: int = 3
    ) -> list[tuple[str, float]]:
        return self.rank(state, choices)[:top]

    # -- the search ------------------------------------------------------------

    def rank(self, state: GameState, choices: list[str]) -> list[tuple[str, float]]:
        """Every choice with its value (estimated chance to win), best first (stable)."""
        side = engine.decider(state)
        if side is None or side == CHANCE:
            return [(c, 0.0) for c in choices]
        view = observe(state, side)
        seat = view.seats.index(side)
        if len(self._memo) > _MEMO_LIMIT:
            self._memo.clear()
        scored = []
        for choice in choices:
            child = view.copy()
            engine.apply_unchecked(child, choice)
            scored.append((choice, self._value(child, side, seat, view.turns)))
        scored.sort(key=lambda cv: -cv[1])
        return scored

    def _value(self, state: GameState, side: str, seat: int, turns: int) -> float:
        decider = engine.decider(state)
        if decider == CHANCE:
            total = 0.0
            for outcome, p in engine.chance_outcomes(state):
                child = state.copy()
                engine.apply_unchecked(child, outcome)
                total += float(p) * self._value(child, side, seat, turns)
            return total
        key = (side, turns, state.key())
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        if decider != side or state.turns != turns or self.depth == "decision":
            best = self.evaluator.values(state)[seat]
        else:
            best = -1.0
            for choice in engine.legal_choices(state):
                child = state.copy()
                engine.apply_unchecked(child, choice)
                v = self._value(child, side, seat, turns)
                if v > best:
                    best = v
        self._memo[key] = best
        return best

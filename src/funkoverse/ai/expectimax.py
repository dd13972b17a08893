"""The turn-deep expectimax agent: whole turns ahead, every side playing its best turn.

A position's value is a vector: every seat's estimated chance to win. The search counts
in whole turns:

* `depth=1` values a position by letting the side whose turn it is play the rest of its
  turn as the greedy agent would (the best end of the turn by the evaluator, exact
  expectation at every roll) and scoring where that turn ends;
* `depth=d` lets the deciding side search its turn with, at every one of its decisions,
  the `width` choices best by the depth-1 value looked at again by the depth-`d` value,
  where the end of the turn is valued at depth `d-1` (the next side's reply).

Chance nodes are expanded with their exact probabilities (never sampled). Every value is
kept in a table keyed by `(depth, turn, state.key())`, so transpositions are searched
once and the next decision of a game starts from what the last one found. Every leaf is
scored at the same point of a turn cycle, so lines of different lengths are never
compared against one another.
"""

from __future__ import annotations

import random

from funkoverse.ai.evaluate import Evaluator
from funkoverse.ai.view import observe
from funkoverse.rules import engine
from funkoverse.rules.state import CHANCE, GameState

Values = tuple[float, ...]
_TABLE_LIMIT = 400_000


class ExpectimaxAgent:
    """Searches `depth` whole turns (its own, then each reply), `width` choices wide."""

    name = "expectimax"

    def __init__(
        self,
        seed: int = 0,
        depth: int = 2,
        width: int | tuple[int, ...] = 2,
        evaluator: Evaluator | None = None,
    ) -> None:
        widths = (width,) if isinstance(width, int) else tuple(width)
        if depth < 1 or not widths or min(widths) < 1:
            raise ValueError("depth and widths must be at least 1")
        self.rng = random.Random(seed)
        self.depth = depth
        # widths[0] for the turn being decided, widths[1] for the next, ... (the last repeats)
        self.widths = widths
        self.evaluator = evaluator or Evaluator()
        self._table: dict[tuple[object, ...], Values] = {}
        self._evals: dict[object, Values] = {}

    # -- the agent interface ---------------------------------------------------

    def choose(self, state: GameState, choices: list[str]) -> str:
        if len(choices) == 1:
            return choices[0]
        ranked = self.rank(state, choices)
        best = ranked[0][1]
        ties = [c for c, v in ranked if v >= best - 1e-12]
        return ties[self.rng.randrange(len(ties))] if len(ties) > 1 else ties[0]

    def explain(
        self, state: GameState, choices: list[str], top: int = 3
    ) -> list[tuple[str, float]]:
        return self.rank(state, choices)[:top]

    def rank(self, state: GameState, choices: list[str]) -> list[tuple[str, float]]:
        """Every choice with its value for the decider, best first: the `width` best by the
        one-turn value are searched `depth` turns deep and come first; the others keep
        their one-turn value."""
        side = engine.decider(state)
        if side is None or side == CHANCE:
            return [(c, 0.0) for c in choices]
        view = observe(state, side)
        seat = view.seats.index(side)
        if len(self._table) > _TABLE_LIMIT:
            self._table.clear()
        if len(self._evals) > _TABLE_LIMIT:
            self._evals.clear()
        children = []
        for choice in choices:
            child = view.copy()
            engine.apply_unchecked(child, choice)
            children.append((choice, child))
        turn = (view.turns, side)
        shallow = [(c, self._value(ch, 1, turn)[seat]) for c, ch in children]
        if self.depth == 1:
            deep = shallow
        else:
            order = sorted(range(len(children)), key=lambda i: -shallow[i][1])
            keep = set(order[: self._width(self.depth)])
            deep = []
            for i, (choice, child) in enumerate(children):
                if i in keep:
                    deep.append((choice, self._value(child, self.depth, turn)[seat]))
            # the choices not searched deep rank below those that were
            rest = [(c, v) for i, (c, v) in enumerate(shallow) if i not in keep]
            deep.sort(key=lambda cv: -cv[1])
            rest.sort(key=lambda cv: -cv[1])
            return deep + [(c, min(v, deep[-1][1])) for c, v in rest]
        deep.sort(key=lambda cv: -cv[1])
        return deep

    # -- the search ------------------------------------------------------------

    def _value(self, state: GameState, depth: int, turn: tuple[int, str]) -> Values:
        """The value of `state` met during `turn` (its number and side), searched `depth`
        turns. A change of decider counts as a new turn too (placing at setup, a rival's
        reaction in the middle of a turn)."""
        decider = engine.decider(state)
        if decider is None:
            return tuple(1.0 if s == state.winner else 0.0 for s in state.seats)
        if decider == CHANCE:
            total = [0.0] * len(state.seats)
            for outcome, p in engine.chance_outcomes(state):
                child = state.copy()
                engine.apply_unchecked(child, outcome)
                for i, v in enumerate(self._value(child, depth, turn)):
                    total[i] += float(p) * v
            return tuple(total)
        if (state.turns, decider) != turn:  # a new turn begins: one turn less to search
            if depth <= 1:
                return self._eval(state)
            depth -= 1
            turn = (state.turns, decider)
        key = (depth, turn, state.key())
        hit = self._table.get(key)
        if hit is not None:
            return hit
        seat = state.seats.index(decider)
        children = []
        for choice in engine.legal_choices(state):
            child = state.copy()
            engine.apply_unchecked(child, choice)
            children.append(child)
        if depth == 1:
            best = max((self._value(ch, 1, turn) for ch in children), key=lambda v: v[seat])
        else:
            shallow = [self._value(ch, 1, turn)[seat] for ch in children]
            order = sorted(range(len(children)), key=lambda i: -shallow[i])
            best = max(
                (self._value(children[i], depth, turn) for i in order[: self._width(depth)]),
                key=lambda v: v[seat],
            )
        self._table[key] = best
        return best

    def _width(self, depth: int) -> int:
        level = self.depth - depth
        return self.widths[min(level, len(self.widths) - 1)]

    def _eval(self, state: GameState) -> Values:
        key = state.key()
        hit = self._evals.get(key)
        if hit is None:
            hit = self.evaluator.values(state)
            self._evals[key] = hit
        return hit

"""The search agent: best-first expectimax over whole turns, grown like a Monte Carlo tree.

The tree holds positions keyed by `state.key()` (so two orders of the same moves meet in
one node, and the tree built for one decision is reused for the next: the next decision's
position is already in it). There are two kinds of nodes:

* a *decision* node, where one side chooses; its value is the value of its best child for
  that side (each side maximizes its own chance to win, so free-for-all works too);
* a *chance* node, a challenge roll or a flip; its children are all the outcomes with their
  exact probabilities from `engine.chance_outcomes`, and its value is their expectation:
  dice are never sampled.

Each simulation walks down from the root, at decision nodes to the child with the best
value plus a small exploration bonus (UCB), at chance nodes to the outcome visited least
for its probability, until it reaches a position not yet expanded. Expanding it lists its
legal choices and scores every child with the evaluator (a chance child at once gets all
its outcomes), and the new values are backed up to the root. The budget is a number of
such expansions per decision, so the result does not depend on the machine; a seconds cap
exists only as a safety limit.

Values are estimated chances to win, per seat; `explain` reports the decider's.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from funkoverse.ai.evaluate import Evaluator
from funkoverse.ai.view import observe
from funkoverse.rules import CHANCE, Choice, GameState, Turn
from funkoverse.rules.play import engine

Values = tuple[float, ...]


class _Node:
    __slots__ = (
        "chance",
        "children",
        "choices",
        "edge_visits",
        "probs",
        "seat",
        "state",
        "terminal",
        "value",
        "visits",
    )

    def __init__(self, state: GameState, value: Values, seat: int, chance: bool, terminal: bool):
        self.state: GameState | None = state
        self.value = value
        self.seat = seat  # the decider's seat index; -1 at chance and terminal nodes
        self.chance = chance
        self.terminal = terminal
        self.choices: list[Choice] = []
        self.children: list[_Node] = []
        self.probs: list[float] = []
        self.edge_visits: list[int] = []
        self.visits = 0

    @property
    def expanded(self) -> bool:
        return bool(self.children)


class MCTSAgent:
    """Searches whole turns ahead (its own and the rivals'), exact at chance nodes.

    `simulations`: expansions per decision (the budget); `exploration`: the UCB constant on
    values in [0, 1]; `max_seconds`: a safety cap only, never reached at the shipped budgets.
    """

    name = "mcts"

    def __init__(
        self,
        seed: int = 0,
        simulations: int = 200,
        exploration: float = 0.1,
        evaluator: Evaluator | None = None,
        max_seconds: float = 30.0,
        max_nodes: int = 400_000,
    ) -> None:
        self.rng = random.Random(seed)
        self.simulations = simulations
        self.exploration = exploration
        self.evaluator = evaluator or Evaluator()
        self.max_seconds = max_seconds
        self.max_nodes = max_nodes
        self._table: dict[object, _Node] = {}

    # -- the agent interface ---------------------------------------------------

    def decide(self, turn: Turn) -> Choice:
        choices = list(turn.choices)
        if len(choices) == 1:
            return choices[0]
        ranked = self._search(turn.view, choices)
        best = ranked[0][1]
        ties = [c for c, v, _ in ranked if v >= best - 1e-12]
        if len(ties) > 1:
            # prefer the most searched of equal values, then the generator
            most = max(n for c, v, n in ranked if c in ties)
            ties = [c for c, v, n in ranked if c in ties and n == most]
        return ties[self.rng.randrange(len(ties))] if len(ties) > 1 else ties[0]

    def explain(self, turn: Turn, top: int = 3) -> list[tuple[Choice, float]]:
        return [(c, v) for c, v, _ in self._search(turn.view, list(turn.choices))[:top]]

    def choose(self, state: GameState, choices: Sequence[Choice]) -> Choice:
        """`decide` from a position a caller holds (a puzzle, a tool)."""
        return self.decide(Turn.of(state, choices))

    # -- the search ------------------------------------------------------------

    def _search(self, state: GameState, choices: list[Choice]) -> list[tuple[Choice, float, int]]:
        side = engine.decider(state)
        if side is None or side == CHANCE:
            return [(c, 0.0, 0) for c in choices]
        view = observe(state, side)
        if len(self._table) > self.max_nodes:
            self._table.clear()
        root = self._node(view.copy())
        deadline = time.perf_counter() + self.max_seconds
        for i in range(self.simulations):
            if root.terminal or (i % 16 == 15 and time.perf_counter() > deadline):
                break
            self._simulate(root)
        if not root.expanded:
            self._expand(root)
        seat = root.seat
        out = []
        by_choice = dict(zip(root.choices, range(len(root.choices)), strict=True))
        for c in choices:
            index = by_choice.get(c)
            if index is None:  # pragma: no cover - the view lists what the state lists
                out.append((c, 0.0, 0))
            else:
                out.append((c, root.children[index].value[seat], root.edge_visits[index]))
        out.sort(key=lambda cvn: (-cvn[1], -cvn[2]))
        return out

    def _node(self, state: GameState) -> _Node:
        key = state.key()
        node = self._table.get(key)
        if node is not None:
            return node
        seats = state.seats
        decider = engine.decider(state)
        if decider is None:
            node = _Node(state, _final(state), -1, False, True)
        elif decider == CHANCE:
            node = _Node(state, (), -1, True, False)
            self._expand_chance(node, state)
        else:
            node = _Node(state, self.evaluator.values(state), seats.index(decider), False, False)
        self._table[key] = node
        return node

    def _expand_chance(self, node: _Node, state: GameState) -> None:
        total = [0.0] * len(state.seats)
        for outcome, p in engine.chance_outcomes(state):
            child_state = state.copy()
            engine.apply_unchecked(child_state, outcome)
            child = self._node(child_state)
            node.choices.append(outcome)
            node.children.append(child)
            node.probs.append(float(p))
            node.edge_visits.append(0)
            for i, v in enumerate(child.value):
                total[i] += float(p) * v
        node.value = tuple(total)
        node.state = None  # a chance node is never expanded again

    def _expand(self, node: _Node) -> None:
        state = node.state
        assert state is not None
        for choice in engine.choices(state):
            child_state = state.copy()
            engine.apply_unchecked(child_state, choice)
            node.choices.append(choice)
            node.children.append(self._node(child_state))
            node.edge_visits.append(0)
        node.state = None  # the children hold what the search needs from here
        self._back(node)

    def _back(self, node: _Node) -> None:
        children = node.children
        if node.chance:
            total = [0.0] * len(node.value)
            for p, child in zip(node.probs, children, strict=True):
                for i, v in enumerate(child.value):
                    total[i] += p * v
            node.value = tuple(total)
        elif children:
            seat = node.seat
            best = children[0].value
            for child in children[1:]:
                if child.value[seat] > best[seat]:
                    best = child.value
            node.value = best

    def _simulate(self, root: _Node) -> None:
        path = [root]
        node = root
        c = self.exploration
        while node.expanded and not node.terminal:
            node.visits += 1
            if node.chance:
                n = node.visits
                i = max(
                    range(len(node.children)),
                    key=lambda j: node.probs[j] * n - node.edge_visits[j],
                )
            else:
                seat = node.seat
                log_n = math.log(node.visits + 1)
                best_i, best_u = 0, -math.inf
                for j, child in enumerate(node.children):
                    u = child.value[seat] + c * math.sqrt(log_n / (node.edge_visits[j] + 1))
                    if u > best_u:
                        best_i, best_u = j, u
                i = best_i
            node.edge_visits[i] += 1
            node = node.children[i]
            path.append(node)
        if node.terminal:
            node.visits += 1
        else:
            node.visits += 1
            self._expand(node)
        for parent in reversed(path[:-1]):
            self._back(parent)


def _final(state: GameState) -> Values:
    return tuple(1.0 if s == state.winner else 0.0 for s in state.seats)

"""The turn-deep expectimax agent: whole turns ahead, every side playing its best turn.

The search runs in the compiled kernel (kernel/search.cpp, valuing positions with
kernel/evaluate.cpp); this agent holds its settings and asks it. A position's value is a
vector, every seat's estimated chance to win, and the search counts in whole turns (a turn
is the chain of decisions of one side: which character, its actions, the parts of its
abilities):

* at depth 1 the side whose turn it is plays the rest of its turn as the greedy agent
  would (the best end of the turn by the evaluation, exact expectation at every roll) and
  the position is valued where that turn ends;
* at depth d the deciding side looks at every choice at depth 1 and at the `width` best
  of them again at depth d, where the end of its turn is valued at depth d - 1: the next
  side's reply, searched the same way.

Each side maximizes its own chance, so free-for-all works as two sides do. Chance nodes
are expanded with their exact probabilities, never sampled. Every value is kept in a table
keyed by (depth, turn, position), so a position reached by two orders of the same moves is
searched once, and the next decision of the same turn starts from the values the last one
found, except a value two or more turns deep that the budget cut short. The tables hold one
turn: they are emptied when the agent's next turn begins. Every leaf is scored at the same
point of the cycle of turns (after `depth` whole turns), so lines of different lengths are
never compared.

Inside a turn, the search is a beam: at each decision the choices are ordered by their
value as they stand, and the `beam` best are followed to the end of the turn (a choice
that ends the turn is always counted); past `beam_positions` in one turn's search the beam
narrows to one. `reply_beam` may narrow the beam of the reply, which is searched at every
end of the turn being decided.

`turn_budget` bounds the positions one whole turn of the agent may generate, over all of
that turn's decisions. A decision's choices are searched in order of their value as they
stand, each with an equal part of what is left; past a choice's part, what is not searched
yet is valued as it stands, and a deeper search that did not finish gives way to the one-turn
values of every choice. Past the share `narrow` of a choice's part, the beam and the width
narrow to one, so a choice that opens a long chain of decisions is valued at an end of its
turn. Positions are counted, not seconds: the same seed, the same choices on any machine.

Where the kernel cannot hold the game (`Unsupported`: a fan card's Python hook, a setup
without dice, a machine without the kernel) or a position (past the lengths of the
evaluation's lists), the agent decides by rule of thumb (`funkoverse.ai.simple`) and its
name says so from then on.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from funkoverse.ai import kernel
from funkoverse.ai.kernel import Evaluator
from funkoverse.ai.simple import SimpleAgent, simple_name
from funkoverse.ai.weights import FITTED
from funkoverse.rules import CHANCE, Choice, GameState, Turn, Unsupported

TurnKey = tuple[int, str]
BEAM = 4  # the choices searched on to the end of a turn at each of its decisions
BEAM_POSITIONS = 3_000  # past this many positions in one turn's search, the beam narrows to one
NARROW_SHARE = 0.5  # past this share of a choice's part of the budget, the beam narrows to one


def _widths(width: int | tuple[int, ...]) -> tuple[int, ...]:
    """A search's widths, one per turn (the last repeating), each at least 1."""
    widths = (width,) if isinstance(width, int) else tuple(width)
    if not widths or min(widths) < 1:
        raise ValueError("depth and widths must be at least 1")
    return widths


class ExpectimaxAgent:
    """Searches `depth` whole turns (its own, then each reply), `width` choices wide at every
    decision (`width` may be a tuple: one width for the turn being decided, one for the next,
    and so on, the last repeating), with `evaluator` (default: the `FITTED` weights).
    `beam` is the beam of the turn being decided and `reply_beam` that of the turns after it
    (None: `beam`). Past the share `narrow` of a choice's part of `turn_budget`, the beam and
    the width narrow to one (None: never); past `beam_positions` positions in one turn's
    search, the beam narrows to one."""

    name = "expectimax"

    def __init__(
        self,
        seed: int = 0,
        depth: int = 2,
        width: int | tuple[int, ...] = 5,
        evaluator: Evaluator | None = None,
        turn_budget: int | None = None,
        beam: int | None = BEAM,
        reply_beam: int | None = None,
        narrow: float | None = None,
        beam_positions: int = BEAM_POSITIONS,
    ) -> None:
        if depth < 1:
            raise ValueError("depth and widths must be at least 1")
        self.rng = random.Random(seed)
        self.depth = depth
        self.widths = _widths(width)
        self.evaluator = evaluator or Evaluator(FITTED)
        self.turn_budget = turn_budget
        self.beam = beam
        self.reply_beam = reply_beam
        self.narrow = narrow
        self.beam_positions = beam_positions
        self.positions = 0  # positions generated for the current decision
        self._cuts = 0  # the times a search stopped at the budget (valued a position as it stood)
        self._turn: TurnKey | None = None  # the turn the last decision belonged to
        self._spent = 0  # positions its earlier decisions of the turn generated
        # the kernel's search, made for the settings it holds (funkoverse.ai.kernel)
        self._kernel_search: tuple[dict[str, object], Any, Any] | None = None
        # why it decides by rule of thumb (None: it searches on the kernel)
        self.simple: str | None = None
        self._simple = SimpleAgent(seed)

    # -- the agent interface ---------------------------------------------------

    def decide(self, turn: Turn) -> Choice:
        choices = turn.choices
        if len(choices) == 1:
            return choices[0]
        ranked = self.rank_turn(turn)
        best = ranked[0][1]
        ties = [c for c, v in ranked if v >= best - 1e-12]
        return ties[self.rng.randrange(len(ties))] if len(ties) > 1 else ties[0]

    def explain(self, turn: Turn, top: int = 3) -> list[tuple[Choice, float]]:
        return self.rank_turn(turn)[:top]

    def choose(self, state: GameState, choices: Sequence[Choice]) -> Choice:
        """`decide` from a position a caller holds (a puzzle, a tool)."""
        return self.decide(Turn.of(state, choices))

    def rank(self, state: GameState, choices: Sequence[Choice]) -> list[tuple[Choice, float]]:
        """`rank_turn` from a position a caller holds."""
        return self.rank_turn(Turn.of(state, choices))

    def rank_turn(self, turn: Turn) -> list[tuple[Choice, float]]:
        """Every choice with its value (the decider's chance to win), best first. The `width`
        best by the one-turn value are searched `depth` turns deep and come first; the others
        follow with their one-turn value (capped at the last deep one, so the order holds)."""
        side = turn.seat
        choices = list(turn.choices)
        if not side or side == CHANCE:
            return [(c, 0.0) for c in choices]
        self.positions = 0
        try:
            found = kernel.loaded(turn)
        except Unsupported as why:
            return self._simply(turn, str(why))
        this_turn = (found.turns, side)
        if this_turn != self._turn:  # a new turn: what the last one searched is behind it
            self._turn, self._spent = this_turn, 0
            if self._kernel_search is not None:
                self._kernel_search[2].clear()
        try:
            return self._search(found, choices)
        except RuntimeError as why:  # past what the evaluation's lists hold
            return self._simply(turn, str(why))
        finally:
            self._spent += self.positions

    def _search(self, found: kernel.Loaded, choices: list[Choice]) -> list[tuple[Choice, float]]:
        """The kernel's ranking of `choices`."""
        search = kernel.search(self)
        cuts = search.cuts
        try:
            ranked = search.rank(found.ai, found.kernel, found.codes, found.seat, self._spent)
        finally:
            self.positions = search.positions
            self._cuts += search.cuts - cuts
        return [(choices[i], value) for i, value in ranked]

    def _simply(self, turn: Turn, reason: str) -> list[tuple[Choice, float]]:
        """The simple agent's ranking, where the kernel cannot search: from now on the
        agent's name says so."""
        if self.simple is None:
            self.simple = reason
            self.name = simple_name(self.name, reason)
        self.positions = 0
        return self._simple.explain(turn, len(turn.choices))

"""The turn-deep expectimax agent: whole turns ahead, every side playing its best turn.

A position's value is a vector, every seat's estimated chance to win, and the search
counts in whole turns (a turn is the chain of decisions of one side: which character, its
actions, the parts of its abilities):

* at depth 1 the side whose turn it is plays the rest of its turn as the greedy agent
  would (the best end of the turn by the evaluator, exact expectation at every roll) and
  the position is valued where that turn ends;
* at depth d the deciding side looks at every choice at depth 1 and at the `width` best
  of them again at depth d, where the end of its turn is valued at depth d - 1: the next
  side's reply, searched the same way.

Each side maximizes its own chance, so free-for-all works as two sides do. Chance nodes
are expanded with their exact probabilities from `engine.chance_outcomes`, never sampled.
Every value is kept in a table keyed by `(depth, turn, state.key())`, so a position reached
by two orders of the same moves is searched once, and the next decision of the same turn
starts from the values the last one found (the tree is reused, not rebuilt), except a
value two or more turns deep that the budget cut short. The tables hold one turn: they
are emptied when the agent's next turn begins.

Every leaf is scored at the same point of the cycle of turns (after `depth` whole turns),
so lines of different lengths are never compared: a best-first tree that mixes depths
compares a position where one side has just moved with one where the other has, and the
evaluation's sense of whose turn is next then biases it (see docs/ai.md).

Inside a turn, the search is a beam: at each decision the choices are ordered by their
value as they stand, and the `beam` best are followed to the end of the turn (a choice
that ends the turn is always counted); past `beam_positions` in one turn's search the beam
narrows to one. A turn of tunnel tokens or a long ability then costs hundreds of positions,
not tens of thousands. A reply is searched at every end of the turn being decided, so its
beam multiplies the cost of the whole search; `reply_beam` may narrow it, so that more of
the turns the budget allows are searched to the end.

The budget is the depth, the widths and the beam, so the work is fixed by the position,
not by the machine, and `turn_budget` bounds it: the positions one whole turn of the agent
may generate, over all of that turn's decisions. A decision's choices are searched in
order of their value as they stand, each with an equal part of what is left; past a
choice's part, what is not searched yet is valued as it stands, and a deeper search that
did not finish gives way to the one-turn values of every choice (so values of different
depths are never compared). Past the share `narrow` of a choice's part, the beam and the
width narrow to one: the rest of its lines are finished on the values as they stand (one
turn deep) or along the best of them (two turns deep) rather than cut where the budget ran
out, so a choice that opens a long chain of decisions (a Creature placing its tunnels) is
valued at an end of its turn, as the cheaper choices are, and a two-turn search finishes
on more of the turns it is given. Positions are counted, not seconds: the same seed, the same
choices on any machine.

Where the compiled kernel is selected and plays the position, the same search runs there
(kernel/search.cpp, with the evaluation of kernel/evaluate.cpp; `funkoverse.ai.kernel`): the
same choices ranked in the same order with the same values, the same positions counted and
cut, many times faster (docs/performance.md, "The AI's search", has the figures). This module
stays the reference, and searches wherever the kernel does not: a game on the Python engine, a position the kernel does not play
or cannot hold, `kernel=False`, and a subclass that changes the search's methods or the
evaluator's. A change here is a change to search.cpp too (tests/test_ai_kernel.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from funkoverse.ai import kernel
from funkoverse.ai.evaluate import Evaluator
from funkoverse.ai.view import observe
from funkoverse.rules import CHANCE, Choice, GameState, Turn
from funkoverse.rules.play import engine

Values = tuple[float, ...]
TurnKey = tuple[int, str]
BEAM = 4  # the choices searched on to the end of a turn at each of its decisions
BEAM_POSITIONS = 3_000  # past this many positions in one turn's search, the beam narrows to one
# (the default; an agent may set its own)
SHALLOW_SHARE = 1 / 3  # of a deeper search's budget, what the one-turn values of its choices get
NARROW_SHARE = 0.5  # past this share of a choice's part of the budget, the beam narrows to one
# the methods of the search the compiled kernel follows (funkoverse.ai.kernel)
_SEARCH = (
    "_rank",
    "_shared",
    "_child",
    "_value",
    "_rest_of_turn",
    "_over",
    "_narrowed",
    "_width",
    "_eval",
)


def _widths(width: int | tuple[int, ...]) -> tuple[int, ...]:
    """A search's widths, one per turn (the last repeating), each at least 1."""
    widths = (width,) if isinstance(width, int) else tuple(width)
    if not widths or min(widths) < 1:
        raise ValueError("depth and widths must be at least 1")
    return widths


class ExpectimaxAgent:
    """Searches `depth` whole turns (its own, then each reply), `width` choices wide at every
    decision (`width` may be a tuple: one width for the turn being decided, one for the next,
    and so on, the last repeating). `beam` is the beam of the turn being decided and
    `reply_beam` that of the turns after it (None: `beam`). Past the share `narrow` of a
    choice's part of `turn_budget`, the beam and the width narrow to one (None: never);
    past `beam_positions` positions in one turn's search, the beam narrows to one.
    `in_python`: the settings (these arguments' names) it takes from its first decision
    searched in Python on (None: the same as on the kernel).
    `kernel`: search on the compiled kernel where it plays the position (the same results);
    an agent whose search the kernel could not hold searches in Python from then on."""

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
        kernel: bool = True,
        beam_positions: int = BEAM_POSITIONS,
        in_python: dict[str, Any] | None = None,
    ) -> None:
        if depth < 1:
            raise ValueError("depth and widths must be at least 1")
        self.rng = random.Random(seed)
        self.depth = depth
        self.widths = _widths(width)
        self.evaluator = evaluator or Evaluator()
        self.turn_budget = turn_budget
        self.beam = beam
        self.reply_beam = reply_beam  # the beam of the turns after the one being decided
        self.narrow = narrow  # the share of a choice's part of the budget searched at full beam
        self.beam_positions = beam_positions  # past this many in one turn's search: beam one
        self.positions = 0  # positions generated for the current decision
        self._turn: TurnKey | None = None  # the turn the last decision belonged to
        self._spent = 0  # positions its earlier decisions generated
        self._cap: float | None = None  # the positions the choice being searched may reach
        self._wide: float | None = None  # the positions it may reach before its beam narrows
        self._cuts = 0  # the times a search stopped at the budget (valued a position as it stood)
        self._table: dict[tuple[object, ...], Values] = {}
        self._evals: dict[object, Values] = {}
        # search on the compiled kernel when it plays the position (funkoverse.ai.kernel: the
        # same values, positions and choices); its search, made for the settings it holds
        self.kernel = kernel
        self._kernel_search: tuple[dict[str, object], Any, Any] | None = None
        # the settings it takes once it searches in Python, where a position costs many times
        # as much (docs/performance.md; a level's budget for the kernel would take minutes there)
        self.in_python = in_python

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
        found = kernel.loaded(turn) if self._on_kernel() else None
        turns = found.turns if found is not None else turn.view.turns
        this_turn = (turns, side)
        if this_turn != self._turn:
            # a new turn: what the last one searched is behind the game, and tables kept past
            # their turn grow the heap the garbage collector walks (pauses of half a second)
            self._turn, self._spent = this_turn, 0
            self._table.clear()
            self._evals.clear()
            if self._kernel_search is not None:
                self._kernel_search[2].clear()
        try:
            if found is not None:
                ranked = self._kernel_rank(found, choices)
                if ranked is not None:
                    return ranked
            self._settle_in_python()
            view = observe(turn.view, side)  # a rival's hidden picks sampled
            return self._rank(view, choices, view.seats.index(side), this_turn)
        finally:
            self._spent += self.positions

    def _settle_in_python(self) -> None:
        """Take the settings for a search in Python (`in_python`), once."""
        settings, self.in_python = self.in_python, None
        for name, value in (settings or {}).items():
            if name == "width":
                name, value = "widths", _widths(value)
            if not hasattr(self, name):
                raise ValueError(f"no search setting {name!r}")
            setattr(self, name, value)

    def _kernel_rank(
        self, found: kernel.Loaded, choices: list[Choice]
    ) -> list[tuple[Choice, float]] | None:
        """`_rank` on the compiled kernel; None when it cannot hold the search (the Python
        search then decides)."""
        search = kernel.search(self)
        cuts = search.cuts
        try:
            ranked = search.rank(found.ai, found.kernel, found.codes, found.seat, self._spent)
        except RuntimeError:  # past what the kernel's lists hold: the Python search decides
            self.positions = 0
            self.kernel = False
            return None
        self.positions = search.positions
        self._cuts += search.cuts - cuts
        return [(choices[i], value) for i, value in ranked]

    def _rank(
        self, view: GameState, choices: list[Choice], seat: int, turn: TurnKey
    ) -> list[tuple[Choice, float]]:
        children = [(c, self._child(view, c)) for c in choices]
        # the most promising as they stand are searched first, each with a fair share of the
        # budget, so that no choice is left unsearched because it came late in the list
        first = list(range(len(children)))
        keys: list[tuple[object, ...] | None] = [None] * len(children)
        if self.turn_budget is not None:
            keys = [child.key() for _, child in children]
            first.sort(key=lambda i: -self._eval(children[i][1], keys[i])[seat])
        share = 1.0 if self.depth == 1 else SHALLOW_SHARE
        # the one-turn values of this decision's choices share one beam budget (origin 0)
        found = self._shared(
            first, lambda i: self._value(children[i][1], 1, turn, 0, keys[i]), share
        )
        values = dict(zip(first, (v[seat] for v in found), strict=True))
        shallow = [(c, values[i]) for i, (c, _) in enumerate(children)]
        if self.depth == 1 or self._over():
            return sorted(shallow, key=lambda cv: -cv[1])
        order = sorted(range(len(children)), key=lambda i: -shallow[i][1])
        keep = order[: self._width(self.depth)]
        cuts = self._cuts
        found = self._shared(keep, lambda i: self._value(children[i][1], self.depth, turn), 1.0)
        if self._cuts != cuts:  # the deeper search did not finish: the one-turn values decide
            return sorted(shallow, key=lambda cv: -cv[1])
        deep = [(children[i][0], v[seat]) for i, v in zip(keep, found, strict=True)]
        deep.sort(key=lambda cv: -cv[1])
        floor = deep[-1][1]
        rest = [(shallow[i][0], min(shallow[i][1], floor)) for i in order[len(keep) :]]
        return deep + rest

    def _on_kernel(self) -> bool:
        """Whether the compiled kernel may search for this agent: asked to (`kernel`), with
        the evaluator and the search's methods as they are defined here (a subclass that
        changes them searches in Python, where its changes are)."""
        if not self.kernel or type(self.evaluator) is not Evaluator:
            return False
        cls = type(self)
        return all(getattr(cls, name) is getattr(ExpectimaxAgent, name) for name in _SEARCH)

    def _shared(
        self, items: list[int], search: Callable[[int], Values], share: float
    ) -> list[Values]:
        """`search` each item in turn, each with an equal part of what is left of `share` of
        the turn's remaining budget (what one leaves unspent passes on to the next)."""
        if self.turn_budget is None:
            return [search(i) for i in items]
        left = share * (self.turn_budget - self._spent - self.positions)
        start = self.positions
        out = []
        try:
            for k, item in enumerate(items):
                used = self.positions - start
                part = max(0.0, (left - used) / (len(items) - k))
                self._cap = self.positions + part
                if self.narrow is not None:
                    self._wide = self.positions + self.narrow * part
                out.append(search(item))
        finally:
            self._cap = self._wide = None
        return out

    # -- the search ------------------------------------------------------------

    def _child(self, state: GameState, choice: Choice) -> GameState:
        child = state.copy()
        engine.apply_unchecked(child, choice)
        self.positions += 1
        return child

    def _value(
        self,
        state: GameState,
        depth: int,
        turn: TurnKey,
        origin: int | None = None,
        key: tuple[object, ...] | None = None,
    ) -> Values:
        """The value of `state` met during `turn` (its number and its side), searched `depth`
        turns. A change of decider counts as a new turn too (placing at setup, a rival's
        reaction in the middle of a turn)."""
        decider = engine.decider(state)
        if decider is None:
            return tuple(1.0 if s == state.winner else 0.0 for s in state.seats)
        if decider == CHANCE:
            total = [0.0] * len(state.seats)
            for outcome, p in engine.chance_outcomes(state):
                outcome_state = self._child(state, outcome)
                for i, v in enumerate(self._value(outcome_state, depth, turn, origin)):
                    total[i] += float(p) * v
            return tuple(total)
        if (state.turns, decider) != turn:  # a new turn begins: one turn less to search
            if depth <= 1:
                return self._eval(state, key)
            depth -= 1
            turn = (state.turns, decider)
        if key is None:
            key = state.key()
        entry = (depth, turn, key)
        hit = self._table.get(entry)
        if hit is not None:
            return hit
        if self._over():  # past the turn's budget: valued as it stands
            self._cuts += 1
            return self._eval(state, key)
        cuts = self._cuts
        seat = state.seats.index(decider)
        children = [self._child(state, c) for c in engine.choices(state)]
        if depth == 1:
            best = self._rest_of_turn(
                children, seat, turn, self.positions if origin is None else origin
            )
        else:
            shallow = [self._value(ch, 1, turn)[seat] for ch in children]
            order = sorted(range(len(children)), key=lambda i: -shallow[i])
            # the budget running out: finish the best line rather than cut it
            width = 1 if self._narrowed() else self._width(depth)
            best = max(
                (self._value(children[i], depth, turn) for i in order[:width]),
                key=lambda v: v[seat],
            )
        if depth == 1 or self._cuts == cuts:
            # a deeper value the budget cut short is not kept: a later decision of the turn
            # would take it for a search to the end, built partly on positions valued as
            # they stood (one turn deep, the beam values such positions anyway)
            self._table[entry] = best
        return best

    def _rest_of_turn(
        self, children: list[GameState], seat: int, turn: TurnKey, origin: int
    ) -> Values:
        """The best end of the turn from one of `children`: a child where the turn is over is
        valued as it stands; the others are ordered by their value as they stand (the
        evaluator reads a turn in progress: the actions the active character has left) and
        the `beam` best are searched on to the end of the turn."""
        ended: list[Values] = []
        going: list[tuple[Values, GameState, tuple[object, ...]]] = []
        for child in children:
            decider = engine.decider(child)
            key = child.key()
            if decider is None or (decider != CHANCE and (child.turns, decider) != turn):
                ended.append(self._eval(child, key))
            else:
                going.append((self._eval(child, key), child, key))
        beam = self.beam
        if self.reply_beam is not None and turn != self._turn:
            beam = self.reply_beam  # a reply: what it costs is paid at every end of our turn
        if beam is not None and self.positions - origin > self.beam_positions:
            beam = 1  # a turn of very many decisions: finish it on the values as they stand
        if beam is not None and self._narrowed():
            beam = 1  # the budget is running out: finish the line rather than cut it
        if beam is not None and len(going) > beam:
            going.sort(key=lambda vc: -vc[0][seat])
            del going[beam:]
        searched = [self._value(child, 1, turn, origin, key) for _, child, key in going]
        return max(ended + searched, key=lambda v: v[seat])

    def _over(self) -> bool:
        """Whether this turn's decisions have generated more positions than its budget, or
        the search of one choice more than its share of it."""
        if self.turn_budget is None:
            return False
        if self._cap is not None and self.positions > self._cap:
            return True
        return self._spent + self.positions > self.turn_budget

    def _narrowed(self) -> bool:
        """Whether the choice being searched is past the share `narrow` of its part of the
        budget, so that its beam and width narrow to one."""
        return self._wide is not None and self.positions > self._wide

    def _width(self, depth: int) -> int:
        level = self.depth - depth
        return self.widths[min(level, len(self.widths) - 1)]

    def _eval(self, state: GameState, key: tuple[object, ...] | None = None) -> Values:
        if key is None:
            key = state.key()
        hit = self._evals.get(key)
        if hit is None:
            hit = self.evaluator.values(state)
            self._evals[key] = hit
        return hit

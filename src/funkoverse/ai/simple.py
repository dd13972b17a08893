"""The simple agent: rules of thumb, for the setups the kernel cannot play.

The evaluation and the search live in the compiled kernel. A game it cannot hold (a fan
card whose ability is a Python hook the kernel does not know, a scenario with rules of its
own, a setup without dice, a machine where the kernel was not built) is still played, by
this agent, and every level then says so in its name (`hard (simple: ...)`). It looks one
choice ahead on the Python engine, and takes, in this order:

1. a choice that wins the game or gains its side points at once (the most points);
2. the challenge with the best exact odds (`rules.core.dice.win_probability`, through the
   roll it starts), when they are at least even;
3. standing up a knocked-down character of its side (a rally or an assist);
4. the move that ends nearest an objective: a marker that is not its side's own (a point
   marker, a rival's flag, a control marker), else a rival character, counted in squares
   walked on the map (`funkoverse.ai.tables.walks`), when it comes nearer;
5. any other choice but ending the turn, skipping or a move that comes no nearer; then
   those. Ties are broken by its own seeded generator.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from funkoverse.ai.tables import walks
from funkoverse.ai.view import observe
from funkoverse.rules import CHANCE, Choice, GameState, Kind, Turn
from funkoverse.rules.core.choices import RollOutcome
from funkoverse.rules.core.pieces import KNOCKABLE_KINDS
from funkoverse.rules.core.stack import acting
from funkoverse.rules.play import engine

# why a level plays by rule of thumb, as its name says it, from why the kernel cannot play
_WHY = (
    ("not built", "the fast engine is not built on this machine"),
    ("without dice", "this game has no dice"),
    ("hook", "this game has a card the fast engine cannot play"),
    ("word", "this game has a card the fast engine cannot play"),
    ("card", "this game has a card the fast engine cannot play"),
    ("ability", "this game has a card the fast engine cannot play"),
    ("scenario", "this game's scenario has rules the fast engine cannot play"),
    ("pieces", "this game is larger than the fast engine holds"),
    ("lists", "this position is larger than the fast engine's search holds"),
    ("left", "a player left this game, which the fast engine does not hold"),
)


def why_simple(reason: str) -> str:
    """In a few plain words, why the kernel cannot play a game (`reason`: its `Unsupported`)."""
    for word, said in _WHY:
        if word in reason:
            return said
    return "the fast engine cannot play this game"


def simple_name(level: str, reason: str) -> str:
    """A level's name while it plays by rule of thumb: `hard (simple: this game has ...)`."""
    return f"{level} (simple: {why_simple(reason)})"


class SimpleAgent:
    """Rules of thumb, one choice ahead (see the module's docstring)."""

    name = "simple"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def decide(self, turn: Turn) -> Choice:
        ranked = self.rank(observe(turn.view, turn.seat), turn.choices)
        best = ranked[0][1]
        ties = [c for c, v in ranked if v == best]
        return ties[self.rng.randrange(len(ties))] if len(ties) > 1 else ties[0]

    def choose(self, state: GameState, choices: Sequence[Choice]) -> Choice:
        return self.decide(Turn.of(state, choices))

    def explain(self, turn: Turn, top: int = 3) -> list[tuple[Choice, float]]:
        """The best few choices with a rough chance to win (even, nudged by the rule that
        took each; its rules are not an estimate of the game)."""
        ranked = self.rank(observe(turn.view, turn.seat), turn.choices)
        return [(c, 0.5 + v / 20) for c, v in ranked[:top]]

    def rank(self, state: GameState, choices: Sequence[Choice]) -> list[tuple[Choice, float]]:
        """Every choice with the rank of the rule that takes it (higher first, 0 to 9)."""
        side = engine.decider(state)
        if side is None or side == CHANCE or len(choices) < 2:
            return [(c, 0.0) for c in choices]
        mover = acting(state) or state.active  # the character a move now moves
        near = self._distance(state, side, mover)
        scored = [(c, self._rank(state, side, c, near, mover)) for c in choices]
        scored.sort(key=lambda cv: -cv[1])
        return scored

    def _rank(
        self, state: GameState, side: str, choice: Choice, near: int | None, mover: str | None
    ) -> float:
        after = state.copy()
        engine.apply_unchecked(after, choice)
        if after.winner == side:
            return 9.0
        gained = after.sides[side].points - state.sides[side].points
        if gained > 0:
            return 8.0 + min(gained, 9) / 10
        if choice.kind == "challenge":
            odds = self._odds(after)
            return 6.0 + odds if odds >= 0.5 else 1.0 + odds
        if choice.kind in ("rally", "assist"):
            return 5.0
        if choice.kind == "move":
            nearer = self._distance(after, side, mover)
            if near is not None and nearer is not None and nearer < near:
                return 4.0 + 1 / (1 + nearer)
            return 1.0
        if choice.kind in ("end", "skip"):
            return 0.0
        return 2.0

    @staticmethod
    def _odds(after: GameState) -> float:
        """The challenger's exact chance to win the roll the choice has started (0 when it
        has started none yet)."""
        for outcome, p in engine.chance_outcomes(after):
            if isinstance(outcome, RollOutcome) and outcome.won:
                return float(p)
        return 0.0

    @staticmethod
    def _distance(state: GameState, side: str, mover: str | None) -> int | None:
        """Squares walked from `mover` (or, when no character is moving, the side's nearest
        standing character) to beside its nearest objective; None when it has none."""
        table = walks(state.board).squares
        pieces = list(state.pieces.values())
        goals = [
            p.square
            for p in pieces
            if p.kind is Kind.MARKER and p.square is not None and p.side != side
        ]
        if not goals:
            goals = [
                p.square
                for p in pieces
                if p.kind in KNOCKABLE_KINDS
                and p.square is not None
                and p.side != side
                and p.side in state.sides
                and state.rivals(side, p.side)
            ]
        mine = [
            p.square
            for p in pieces
            if p.side == side
            and p.kind in KNOCKABLE_KINDS
            and p.square is not None
            and p.standing
            and mover in (None, p.id)
        ]
        if not goals or not mine:
            return None
        return min(table[a][g] for a in mine for g in goals)

"""A word of the effects vocabulary (`Op`), the registry of every word, and the target
pre-check that walks an ability's words.

Each word is one registered `Op`: the parameters a content file may give it, and either
what it does at once (`run`) or the decision it asks (`options`, then `apply` for the
option taken). `repeats` marks a step that stays current until nothing is left to do
("each", "all"). `reach` is its part of the target pre-check of a challenge action
("If there is no possible target, you cannot do a challenge action"): given the squares
the challenger may stand on when the step begins, it answers the squares it may stand on
after it, or, for a challenge, whether a target can be found.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from funkoverse.rules.core.cards import Step
from funkoverse.rules.core.choices import (
    Choice,
)
from funkoverse.rules.core.events import Events
from funkoverse.rules.core.frames import ChoiceFrame, StepsFrame
from funkoverse.rules.core.state import GameState, Piece


class CannotBeDone(Exception):
    """A part of an ability that cannot be done: the ability ends."""


Run = Callable[[GameState, Piece, StepsFrame, Step, Events], bool]
Options = Callable[[GameState, ChoiceFrame], list[Choice]]
Apply = Callable[[GameState, ChoiceFrame, Piece, Choice, Events], None]
# (state, challenger, step, squares it may stand on, the steps after this one)
Reach = Callable[[GameState, Piece, Step, set[int], tuple[Step, ...]], "set[int] | bool"]


@dataclass(frozen=True)
class Op:
    """One word of the vocabulary and everything the engine needs to play it."""

    name: str
    params: frozenset[str]
    run: Run | None = None  # what it does at once; True when a repeating step is done
    options: Options | None = None  # the decision it asks
    apply: Apply | None = None  # the option taken
    repeats: bool = False
    reach: Reach | None = None  # its part of a challenge action's target pre-check
    now: Callable[[Step], bool] | None = None  # a decision word that happens at once here

    def immediate(self, s: Step) -> bool:
        """Whether this step happens at once (no decision)."""
        if self.options is None:
            return True
        return self.now is not None and self.now(s)


OPS: dict[str, Op] = {}
# the words that challenge (an ability with one of them needs a possible target)
CHALLENGE_OPS = frozenset({"challenge", "challenge_each", "minion_challenge"})


def register(op: Op) -> Op:
    """Add a word to the vocabulary (each family module registers its own words)."""
    OPS[op.name] = op
    return op


def vocabulary() -> dict[str, frozenset[str]]:
    """The words a content file may use, with the parameters each takes."""
    return {name: op.params for name, op in OPS.items() if not name.startswith("_")}


def label(state: GameState, sq: int) -> str:
    return state.board.label(sq)


def from_square(state: GameState, piece: Piece, square: int, ask: Callable[[], object]) -> object:
    """Ask a question as if `piece` stood on `square` (the state is left as it was)."""
    was = piece.square
    piece.square = square
    try:
        return ask()
    finally:
        piece.square = was


def possible_target(state: GameState, piece: Piece, steps: tuple[Step, ...]) -> bool:
    """Abilities That Are Challenge Actions: "If there is no possible target, you cannot do
    a challenge action." The steps before the first challenge are followed in every way
    they can go (where a move can end, where a placement can put the challenger, whom a
    pull can bring adjacent, where a token can be placed) and the challenge looks for a
    target from each result."""
    if piece.square is None:
        return False
    squares = {piece.square}
    for i, s in enumerate(steps):
        op = OPS[s.op]
        if op.reach is None:
            continue
        found = op.reach(state, piece, s, squares, steps[i + 1 :])
        if isinstance(found, bool):
            return found
        squares = found
    return False


def play_out(
    state: GameState, piece: Piece, s: Step, squares: set[int], rest: tuple[Step, ...]
) -> bool:
    """The pre-check of a step whose effect on the board is too open to follow by tables:
    each of its options is played on a copy of the game, and the steps after it are
    checked from there."""
    op = OPS[s.op]
    assert op.options is not None and op.apply is not None
    for square in sorted(squares):
        game = state.copy()
        me = game.pieces[piece.id]
        me.square = square
        game.stack.append(StepsFrame(me.id, "", (s, *rest), 1, None, me.standing))
        frame = ChoiceFrame(me.side, s, me.id)
        for option in op.options(game, frame):
            trial = game.copy()
            op.apply(trial, frame, trial.pieces[me.id], option, [])
            if possible_target(trial, trial.pieces[me.id], rest):
                return True
    return False

"""What a character could do in its turn, before a player commits to it: where a basic move
takes it, what it sees, and whom it may challenge at what odds (with a die a card may add,
such as the Champion die, and without it).

Everything is asked of the engine on a copy of the position: the legal choices of the
turn and of the challenge, and the exact odds of the roll they lead to. Nothing here is
a rule of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from funkoverse.rules.core import geometry, world
from funkoverse.rules.core.choices import Challenge, Choice, Choose, Move, Skip
from funkoverse.rules.core.frames import ChoiceFrame, RollFrame
from funkoverse.rules.core.state import CHANCE, GameState, Phase
from funkoverse.rules.play import engine


@dataclass(frozen=True)
class Target:
    """A challenge the character may make: its target and the chance to win, and the
    chances with each die a card may add before the roll."""

    piece: str
    odds: float
    options: dict[str, float] = field(default_factory=dict)  # choice id -> chance to win


@dataclass(frozen=True)
class Preview:
    piece: str
    moves: tuple[str, ...]  # squares a move action may end on
    sees: tuple[str, ...]  # squares it can see
    targets: tuple[Target, ...]  # basic challenges it may make now


def _roll_odds(state: GameState) -> float | None:
    top = state.stack[-1] if state.stack else None
    if isinstance(top, RollFrame):
        return float(engine.roll_win_probability(state, top))
    return None


def _odds_after(state: GameState, choice: Choice) -> tuple[float, dict[str, float]]:
    """The chance to win of the challenge `choice` declares, with the say a card has before
    the dice (each option of a "you may" before the roll, and declining it)."""
    game = state.copy()
    engine.apply_unchecked(game, choice)
    options: dict[str, float] = {}
    plain = _roll_odds(game)
    top = game.stack[-1] if game.stack else None
    if plain is None and isinstance(top, ChoiceFrame) and engine.decider(game) != CHANCE:
        for option in engine.choices(game):
            after = game.copy()
            engine.apply_unchecked(after, option)
            odds = _roll_odds(after)
            if odds is not None:
                options[option.format()] = odds
        plain = options.pop(Skip().format(), None)
        if plain is None and options:
            plain = min(options.values())
    return (plain if plain is not None else 0.0), options


def preview(state: GameState, pid: str) -> Preview | None:
    """What `pid` could do if it took its turn now (None: it cannot take one)."""
    game = state.copy()
    if game.phase is Phase.CHOOSE and not game.stack:
        if Choose(pid) not in engine.choices(game):
            return None
        engine.apply_unchecked(game, Choose(pid))
        for _ in range(6):  # a "you may" at the start of its turn: declined for the preview
            pending = engine.choices(game)
            if not game.stack or not isinstance(game.stack[-1], ChoiceFrame) or not pending:
                break
            engine.apply_unchecked(game, Skip() if Skip() in pending else pending[0])
    if game.active != pid or game.phase is not Phase.ACT:
        return None
    piece = game.pieces[pid]
    board = game.board
    menu = engine.choices(game)
    moves = tuple(c.square for c in menu if isinstance(c, Move))
    sees: tuple[str, ...] = ()
    if piece.square is not None:
        seen = geometry.visible_squares(board, piece.square, world.blockers(game, piece))
        sees = tuple(board.label(sq) for sq in sorted(seen))
    targets = []
    for c in menu:
        if isinstance(c, Challenge):
            odds, options = _odds_after(game, c)
            targets.append(Target(c.target, odds, options))
    return Preview(pid, moves, sees, tuple(targets))


def challenge_odds(state: GameState, choice: Choice) -> float | None:
    """The chance to win of the challenge a choice declares (a basic challenge or a challenge
    step's target), without a die a card may still add; None for other choices."""
    from funkoverse.rules.core.choices import Target as TargetChoice

    if not isinstance(choice, (Challenge, TargetChoice)):
        return None
    odds, _ = _odds_after(state, choice)
    return odds

"""The words that challenge: `challenge` (a target chosen, or the same one again) and
`challenge_each` (She Breathes), each with its part of the target pre-check: whether a
target can be found from the squares the challenger may stand on."""

from __future__ import annotations

from funkoverse.rules.core import geometry
from funkoverse.rules.core.cards import Step
from funkoverse.rules.core.challenges import attack_dice, declare_challenge
from funkoverse.rules.core.choices import (
    Choice,
    Target,
)
from funkoverse.rules.core.events import Events
from funkoverse.rules.core.frames import ChoiceFrame, StepsFrame
from funkoverse.rules.core.pieces import RIVAL_KINDS
from funkoverse.rules.core.stack import (
    current_source,
    targets_so_far,
)
from funkoverse.rules.core.state import GameState, Piece
from funkoverse.rules.vocabulary.ops import (
    CannotBeDone,
    Op,
    from_square,
    register,
)


def challenge_candidates(state: GameState, frame: ChoiceFrame) -> list[Piece]:
    """Whom a challenge step may target now (Challenges; "a different rival")."""
    piece = state.pieces[frame.piece]
    reach = frame.step.get("range")
    found = geometry.challenge_targets(
        state.board, piece, state.on_map(), reach if isinstance(reach, int) else None
    )
    if frame.step.get("target") == "different":
        before = targets_so_far(state)
        found = [t for t in found if t.id not in before]
    return found


def _challenge_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    return [Target(t.id) for t in challenge_candidates(state, frame)]


def _challenge_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: Choice, events: Events
) -> None:
    assert isinstance(choice, Target)
    target = state.pieces[choice.piece]
    dice = attack_dice(state, piece, target, frame.step)
    declare_challenge(state, piece, target, dice, current_source(state), events)


def _same_target_challenge(
    state: GameState, piece: Piece, frame: StepsFrame, s: Step, events: Events
) -> bool:
    """ "Challenge N" after a challenge the card has already aimed: the same target again
    (Savage Hunger's "Do a challenge 2 to them", Exsanguinate's declared target)."""
    target = state.pieces.get(frame.target or "")
    reach = s.get("range")
    legal = geometry.challenge_targets(
        state.board, piece, state.on_map(), reach if isinstance(reach, int) else None
    )
    if target is None or target not in legal:
        raise CannotBeDone("its target cannot be challenged")
    declare_challenge(
        state, piece, target, attack_dice(state, piece, target, s), frame.source, events
    )
    return True


def targets_from(state: GameState, piece: Piece, square: int, reach: int | None) -> bool:
    return bool(
        from_square(
            state,
            piece,
            square,
            lambda: geometry.challenge_targets(state.board, piece, state.on_map(), reach),
        )
    )


def _challenge_reach(
    state: GameState, piece: Piece, s: Step, squares: set[int], rest: tuple[Step, ...]
) -> bool:
    reach = s.get("range")
    if not isinstance(reach, int) and len(squares) > 1:
        # an adjacent challenge: a rival in a square adjacent to one the challenger can
        # reach (adjacency does not depend on where pieces stand)
        rivals = {
            p.square
            for p in state.on_map()
            if p.side != piece.side and p.id != piece.id and geometry.challengeable(p)
        }
        adjacent = state.board.adjacent_set
        return any(not rivals.isdisjoint(adjacent(sq)) for sq in squares)
    return any(
        targets_from(state, piece, sq, reach if isinstance(reach, int) else None) for sq in squares
    )


register(
    Op(
        "challenge",
        frozenset(
            {"dice", "range", "target", "bonus", "extra_vs_knocked_down", "optional", "if_won"}
        ),
        run=_same_target_challenge,
        options=_challenge_options,
        apply=_challenge_apply,
        reach=_challenge_reach,
        now=lambda s: s.get("target") == "same",
    )
)


def _each_within(state: GameState, piece: Piece, within: int) -> list[Piece]:
    """She Breathes: "each rival within 2 squares" (Glossary: Rival) not yet challenged."""
    if piece.square is None:
        return []
    done = targets_so_far(state)
    board = state.board
    return [
        p
        for p in state.on_map()
        if p.side != piece.side
        and p.kind in RIVAL_KINDS
        and p.id not in done
        and p.square is not None
        and board.distance(piece.square, p.square) <= within
    ]


def _each_within_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    """She Breathes: "each rival within 2 squares", in the order its owner chooses; a rival
    that becomes a target is challenged too, one that no longer is, is not (FAQ)."""
    piece = state.pieces[frame.piece]
    return [Target(p.id) for p in _each_within(state, piece, frame.step.int("within", 1))]


def _each_within_reach(
    state: GameState, piece: Piece, s: Step, squares: set[int], rest: tuple[Step, ...]
) -> bool:
    within = s.int("within", 1)
    return any(
        from_square(state, piece, sq, lambda: _each_within(state, piece, within)) for sq in squares
    )


register(
    Op(
        "challenge_each",
        frozenset({"dice", "within"}),
        options=_each_within_options,
        apply=_challenge_apply,
        repeats=True,
        reach=_each_within_reach,
    )
)

"""What must hold in every reachable position, whatever was played.

Used by the property tests over thousands of seeded random games, and
available to any tool that wants to check a game it was handed.
"""

from __future__ import annotations

from collections import Counter

from funkoverse.rules.core.cards import TokenColor
from funkoverse.rules.core.pieces import BLOCKING_KINDS
from funkoverse.rules.core.state import GameState, Phase


def initial_tokens(state: GameState) -> dict[str, Counter[TokenColor]]:
    """Each side's ability tokens as set up: one a colored dot (Setup), and the ultimate
    card's extra tokens (Ultimate Mode Setup)."""
    tokens: dict[str, Counter[TokenColor]] = {side: Counter() for side in state.seats}
    for team in state.setup.teams:
        for card in team.characters:
            tokens[team.side].update(card.dots)
        tokens[team.side].update(team.extra_dots)
    return tokens


def violations(
    state: GameState,
    tokens: dict[str, Counter[TokenColor]],
    points_before: dict[str, int] | None = None,
) -> list[str]:
    """Every invariant that `state` breaks, in words (empty when all hold)."""
    found: list[str] = []
    occupied: dict[int, str] = {}
    for piece in state.pieces.values():
        if piece.square is None:
            continue
        if piece.square in state.board.blocked:
            found.append(f"{piece.id} stands on blocked square {state.board.label(piece.square)}")
        if piece.kind in BLOCKING_KINDS:
            other = occupied.get(piece.square)
            if other is not None:
                found.append(f"{piece.id} and {other} share {state.board.label(piece.square)}")
            occupied[piece.square] = piece.id
    for side in state.seats:
        s = state.sides[side]
        on_track: Counter[tuple[str, str]] = Counter()
        counted: Counter[TokenColor] = Counter({c: n for c, n in s.pool.items() if n})
        if any(n < 0 for n in s.pool.values()):
            found.append(f"{side}'s pool holds a negative number of tokens")
        for slot in s.track:
            for kind, ref in slot:
                on_track[(kind, ref)] += 1
                if kind == "token":
                    counted[TokenColor(ref)] += 1
        if counted != tokens[side]:
            found.append(
                f"{side}'s ability tokens are not all in its pool or on its cooldown track: "
                f"{dict(counted)} != {dict(tokens[side])}"
            )
        for (kind, ref), n in on_track.items():
            if n > 1 and kind != "token":
                found.append(f"{kind} {ref} is on {side}'s cooldown track {n} times")
        if points_before is not None and s.points < points_before.get(side, 0):
            found.append(f"{side}'s points went down")
    for piece in state.pieces.values():
        if not piece.is_character or not piece.placed:
            continue
        if piece.side in state.gone:
            if piece.square is not None or not piece.exhausted:
                found.append(f"{piece.id} of {piece.side}, who left the game, is still in play")
            continue  # Free-for-All: off the map and off the track for good (rules/play/leaving.py)
        on_a_track = state.sides[piece.side].track_position(("character", piece.id)) is not None
        if on_a_track and piece.square is not None:
            found.append(f"knocked-out {piece.id} is still on the map")
        if piece.square is None and not on_a_track and not _returning(state, piece.id):
            found.append(f"{piece.id} is neither on the map nor on a cooldown track")
    if state.phase is Phase.OVER and state.winner is None:
        found.append("the game is over without a winner")
    if state.phase is not Phase.OVER and state.winner is not None:
        found.append("a winner is named but the game goes on")
    return found


def _returning(state: GameState, pid: str) -> bool:
    from funkoverse.rules.core.frames import ReturnFrame

    return any(isinstance(f, ReturnFrame) and pid in f.pieces for f in state.stack)

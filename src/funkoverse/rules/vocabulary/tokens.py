"""Tokens: placing a Tunnel or a minion token, and a minion's challenge, with the
pre-check of a placement that may open a way to a target (Aquatic Ambush)."""

from __future__ import annotations

from collections.abc import Sequence

from funkoverse.rules.core import geometry, world
from funkoverse.rules.core.cards import Step
from funkoverse.rules.core.challenges import declare_challenge
from funkoverse.rules.core.choices import (
    Choice,
    MinionChallenge,
    PlaceToken,
)
from funkoverse.rules.core.events import Event, EventKind, Events
from funkoverse.rules.core.frames import ChoiceFrame
from funkoverse.rules.core.numbers import BASIC_CHALLENGE_DICE
from funkoverse.rules.core.pieces import Role
from funkoverse.rules.core.state import GameState, Piece
from funkoverse.rules.vocabulary.ops import (
    Op,
    from_square,
    label,
    play_out,
    possible_target,
    register,
)


def _token_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    """Place a token in a square within N squares (Aquatic Ambush: a Tunnel). Tokens: "If all
    of your tokens are in play, you may choose a token already on the map to place instead." """
    piece = state.pieces[frame.piece]
    if piece.square is None:
        return []
    role = Role(str(frame.step.get("token", "")))
    within = frame.step.int("within", 0)
    board = state.board
    row = board.distances(piece.square)
    blocked = board.blocked
    squares = [sq for sq in board.squares if row[sq] <= within and sq not in blocked]
    return token_place_options(state, piece, role, squares)


def token_place_options(
    state: GameState, piece: Piece, role: Role, squares: list[int]
) -> list[Choice]:
    """Where `piece` may place one of its side's tokens of `role`: a free one, or, when all
    are in play, one already on the map moved to another square (Glossary: Tokens)."""
    tokens = world.tokens_of(state, piece.side, role)
    free = [t for t in tokens if t.square is None]
    if free:
        return [PlaceToken(free[0].id, label(state, sq)) for sq in squares]
    return [PlaceToken(t.id, label(state, sq)) for t in tokens for sq in squares if sq != t.square]


TOKEN_NAMES = {Role.TUNNEL: "Tunnel", Role.MINION: "minion"}


def place_token(state: GameState, piece: Piece, choice: Choice, events: Events) -> None:
    """Put the token a `PlaceToken` choice names on its square, credited to `piece`."""
    assert isinstance(choice, PlaceToken)
    token = state.pieces[choice.token]
    token.square = state.board.parse_label(choice.square)
    token.owner = piece.id
    events.append(
        Event(
            EventKind.TOKEN_PLACED,
            piece=piece.id,
            other=token.id,
            name=TOKEN_NAMES.get(token.role, token.role.value),
            square=choice.square,
        )
    )


def _token_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: Choice, events: Events
) -> None:
    place_token(state, piece, choice, events)


def _token_reach(
    state: GameState, piece: Piece, s: Step, squares: set[int], rest: tuple[Step, ...]
) -> bool:
    """A token placed now may open a way (a Tunnel links squares for The Creature). Tokens
    neither block nor are blocked, so a token more on the map only adds to what the steps
    after it can do: the check with the token left where it is (or picked up, when it has
    to come from the map) is a lower bound, the check with a token on every square it
    could go to an upper bound, and only between the two is each placement tried."""
    role = Role(str(s.get("token", "")))
    tokens = world.tokens_of(state, piece.side, role)
    if any(t.square is None for t in tokens):
        if _rest_from(state, piece, squares, rest):
            return True
    else:
        for token in tokens:
            was = token.square
            token.square = None
            try:
                if _rest_from(state, piece, squares, rest):
                    return True
            finally:
                token.square = was
    frame = ChoiceFrame(piece.side, s, piece.id)
    board = state.board
    was = piece.square
    try:
        for square in sorted(squares):
            piece.square = square
            options = _token_options(state, frame)
            if not options or not _with_tokens_on(state, piece, tokens, options, rest):
                continue
            # Square by square: a token more there is the bound of every placement there;
            # each placement is made on the game itself and taken back (it changes only
            # the token's square and owner, and the pre-check after it only reads).
            by_square: dict[str, list[PlaceToken]] = {}
            for option in options:
                assert isinstance(option, PlaceToken)
                by_square.setdefault(option.square, []).append(option)
            for there in by_square.values():
                if len(there) > 1 and not _with_tokens_on(state, piece, tokens, there, rest):
                    continue
                for option in there:
                    token = state.pieces[option.token]
                    before = token.square, token.owner
                    token.square, token.owner = board.parse_label(option.square), piece.id
                    try:
                        found = possible_target(state, piece, rest)
                    finally:
                        token.square, token.owner = before
                    if found:
                        return True
    finally:
        piece.square = was
    return False


def _with_tokens_on(
    state: GameState,
    piece: Piece,
    tokens: list[Piece],
    options: Sequence[Choice],
    rest: tuple[Step, ...],
) -> bool:
    """The upper bound of `_token_reach`: the steps after it checked with a token of the kind
    on each square the placement could choose, beside those already on the map."""
    board = state.board
    targets = {board.parse_label(o.square) for o in options if isinstance(o, PlaceToken)}
    model = tokens[0]
    added = []
    for n, square in enumerate(sorted(targets)):
        extra = model.copy()
        extra.id, extra.square, extra.owner = f"{model.id}+{n}", square, piece.id
        state.pieces[extra.id] = extra
        added.append(extra.id)
    try:
        return possible_target(state, piece, rest)
    finally:
        for pid in added:
            del state.pieces[pid]


def _rest_from(state: GameState, piece: Piece, squares: set[int], rest: tuple[Step, ...]) -> bool:
    return any(
        bool(from_square(state, piece, sq, lambda: possible_target(state, piece, rest)))
        for sq in squares
    )


register(
    Op(
        "place_token",
        frozenset({"token", "within"}),
        options=_token_options,
        apply=_token_apply,
        reach=_token_reach,
    )
)


def _minion_place_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    """Minion Tokens: "You cannot place a minion token in a square occupied by an ally or
    rival"; the house-made Clockwork Minion places one in an empty adjacent square."""
    piece = state.pieces[frame.piece]
    if piece.square is None:
        return []
    pieces = state.on_map()
    squares = [
        sq
        for sq in sorted(world.adjacent_set(state, piece))
        if geometry.placeable(state.board, pieces, sq)
    ]
    return token_place_options(state, piece, Role.MINION, squares)


def _minion_challenges(state: GameState, side: str) -> list[Choice]:
    pieces = state.on_map()
    found: list[Choice] = []
    for minion in world.tokens_of(state, side, Role.MINION):
        if minion.square is None:
            continue
        for t in geometry.challenge_targets(state.board, minion, pieces, None):
            found.append(MinionChallenge(minion.id, t.id))
    return found


def _minion_challenge_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    """One of the side's minion tokens does a basic challenge (it challenges as a character)."""
    return _minion_challenges(state, state.pieces[frame.piece].side)


def _minion_challenge_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: Choice, events: Events
) -> None:
    assert isinstance(choice, MinionChallenge)
    declare_challenge(
        state,
        state.pieces[choice.minion],
        state.pieces[choice.target],
        BASIC_CHALLENGE_DICE,
        "minion token",
        events,
    )


def _minion_challenge_reach(
    state: GameState, piece: Piece, s: Step, squares: set[int], rest: tuple[Step, ...]
) -> bool:
    return bool(_minion_challenges(state, piece.side))


register(
    Op(
        "place_minion",
        frozenset(),
        options=_minion_place_options,
        apply=_token_apply,
        reach=play_out,
    )
)
register(
    Op(
        "minion_challenge",
        frozenset({"optional"}),
        options=_minion_challenge_options,
        apply=_minion_challenge_apply,
        reach=_minion_challenge_reach,
    )
)

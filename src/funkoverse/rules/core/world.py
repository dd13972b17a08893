"""Questions every part of the engine asks about a position: hooks, defense, abilities,
who is adjacent, where a returning character may go."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from funkoverse.rules.core import geometry
from funkoverse.rules.core.cards import Ability
from funkoverse.rules.core.hooks import Hook, hooks_on, modified
from funkoverse.rules.core.pieces import KNOCKABLE_KINDS, RIVAL_KINDS, Kind, Role
from funkoverse.rules.core.state import GameState, Piece


def hooks_of(state: GameState, piece: Piece) -> Iterator[Hook]:
    """The hooks of a piece's card and of the status cards it has been given."""
    if piece.card is not None:
        yield from hooks_on(piece.card.hooks)
    for sid in piece.statuses:
        card = state.setup.statuses.get(sid)
        if card is not None:
            yield from hooks_on(card.hooks)


def all_hooks(state: GameState) -> Iterator[tuple[Piece, Hook]]:
    """Every (owner, hook) in the game: traits work on the map, knocked down or out."""
    gone = state.gone  # a seat that left a free-for-all: its traits no longer work
    for piece in state.pieces.values():
        card = piece.card
        if card is not None and (card.hooks or piece.statuses) and piece.is_character:
            if gone and piece.side in gone:
                continue
            for hook in hooks_of(state, piece):
                yield piece, hook


def find_hook(state: GameState, piece: Piece, name: str) -> Hook | None:
    for hook in hooks_of(state, piece):
        if hook.name == name:
            return hook
    return None


def defense_of(state: GameState, piece: Piece) -> int:
    """Dice rolled to defend ("Defense"; "Increasing Defense"), modifiers in the FAQ's order."""
    base = piece.defense or 0
    modifiers = [m for owner, hook in all_hooks(state) for m in hook.defense(state, owner, piece)]
    return modified(base, modifiers) if modifiers else base


def abilities_of(state: GameState, piece: Piece) -> list[Ability]:
    """The abilities on its card and on the status cards it has (Made Me From Dead)."""
    card = piece.card
    if card is None or card.basic:
        return []
    found = list(card.abilities)
    for sid in piece.statuses:
        status = state.setup.statuses.get(sid)
        if status is not None:
            found.extend(a for a in status.abilities if a not in found)
    return found


def ability_cost(
    state: GameState, piece: Piece, ability: Ability, target: Piece | None = None
) -> int:
    """The cost to pay now ("Cost"; "Increasing/Decreasing an Ability Cost")."""
    cost = ability.cost
    if target is not None and not target.standing:
        cost += ability.cost_vs_knocked_down
    cost += sum(h.cost(state, piece, ability, target) for h in hooks_of(state, piece))
    return cost


def find_ability(state: GameState, piece: Piece, ability_id: str) -> Ability | None:
    for ability in abilities_of(state, piece):
        if ability.id == ability_id:
            return ability
    return None


def blockers(state: GameState, piece: Piece) -> frozenset[int]:
    return geometry.sight_blockers(piece, state.on_map(), state.board)


def adjacent_set(state: GameState, piece: Piece) -> set[int]:
    """Squares adjacent to `piece` (beside or diagonal and seen, its own included)."""
    if piece.square is None:
        return set()
    return set(geometry.adjacent_squares(state.board, piece.square))


def reach_set(state: GameState, piece: Piece, purpose: str) -> set[int]:
    """Squares `piece` may assist or interact into: adjacent, or farther where a trait says so
    (She Sees: "things she can see within 2 squares")."""
    reach = max((h.reach(state, piece, purpose) for h in hooks_of(state, piece)), default=1)
    squares = adjacent_set(state, piece)
    if reach > 1 and piece.square is not None:
        board = state.board
        seen = geometry.visible_squares(board, piece.square, blockers(state, piece))
        squares |= {sq for sq in seen if board.distance(piece.square, sq) <= reach}
    return squares


def move_links(state: GameState, piece: Piece) -> Mapping[int, Sequence[int]] | None:
    """Extra one-step connections when `piece` moves (The Creature's Tunnels)."""
    for hook in hooks_of(state, piece):
        links = hook.move_links(state, piece)
        if links:
            return links
    return None


def move_options(state: GameState, piece: Piece, squares: int) -> list[int]:
    """Where `piece` may end a move of up to `squares` (its own square included: a move of 0)."""
    if piece.square is None:
        return []
    found = geometry.move_destinations(
        state.board, piece, state.on_map(), squares, move_links(state, piece)
    )
    return sorted({*found, piece.square})


def knocked_down_allies_in(state: GameState, piece: Piece, squares: set[int]) -> list[Piece]:
    return [
        p
        for p in state.on_map()
        if p.id != piece.id
        and p.side == piece.side
        and p.kind in KNOCKABLE_KINDS
        and not p.standing
        and p.square in squares
    ]


def empty_squares(state: GameState, squares: Sequence[int]) -> list[int]:
    pieces = state.on_map()
    return [sq for sq in squares if geometry.placeable(state.board, pieces, sq)]


def start_area(state: GameState, side: str) -> tuple[int, ...]:
    for team in state.setup.teams:
        if team.side == side:
            return tuple(state.board.start_areas.get(team.area, ()))
    return ()


def arrival_squares(state: GameState, side: str) -> list[int]:
    """Where a character of `side` enters: an empty square of its starting area or, when the
    area is full, an empty square as close as possible to it (FAQ: starting area is full)."""
    area = start_area(state, side)
    empty = empty_squares(state, area)
    if empty:
        return empty
    board = state.board
    candidates = empty_squares(state, list(board.squares))
    if not candidates or not area:
        return candidates
    nearest = min(min(board.distance(sq, a) for a in area) for sq in candidates)
    return [sq for sq in candidates if min(board.distance(sq, a) for a in area) == nearest]


def put_on_map(piece: Piece, square: int) -> None:
    piece.square = square
    piece.standing = True
    piece.placed = True


def tokens_of(state: GameState, owner_side: str, role: Role) -> list[Piece]:
    """The tokens of one kind (Tunnels, minion tokens) a side has, on the map or not."""
    return [
        p
        for p in state.pieces.values()
        if p.role is role and p.side == owner_side and p.kind in (Kind.TOKEN, Kind.MINION)
    ]


def markers(state: GameState, role: Role) -> list[Piece]:
    """The markers of one role (point markers, flags, control markers), on the map or not."""
    return [p for p in state.pieces.values() if p.role is role and p.kind is Kind.MARKER]


def is_rival(piece: Piece, of: Piece) -> bool:
    """Is `piece` a rival of `of`: a character, companion or minion token of another side
    (Glossary: Rival)? Markers and plain tokens are never rivals."""
    return piece.kind in RIVAL_KINDS and piece.side != of.side and piece.id != of.id


def display_names(state: GameState) -> dict[str, str]:
    """The name each piece goes by in words: its card's name, told apart by its side when
    two pieces share one (mirrored characters, two Priestesses); markers and tokens by what
    they are ("point marker A", "dark's flag", "a Tunnel token")."""
    names: dict[str, str] = {}
    counts: dict[str, int] = {}
    for p in state.pieces.values():
        if p.card is not None:
            counts[p.card.name] = counts.get(p.card.name, 0) + 1
    for p in state.pieces.values():
        if p.card is not None:
            shared = counts[p.card.name] > 1
            names[p.id] = f"{p.card.name} ({p.side})" if shared else p.card.name
        elif p.role is Role.POINT:
            names[p.id] = f"point marker {p.ref}"
        elif p.role is Role.FLAG:
            names[p.id] = f"{p.side}'s flag"
        elif p.role is Role.CONTROL:
            names[p.id] = f"control marker {p.ref}"
        elif p.role is Role.BONUS:
            bonus = state.setup.bonus_objectives.get(p.ref)
            names[p.id] = f"{p.side}'s {bonus.name if bonus else 'bonus objective'} marker"
        elif p.role is Role.TUNNEL:
            names[p.id] = f"{p.side}'s Tunnel token"
        elif p.role is Role.MINION:
            names[p.id] = f"{p.side}'s minion token"
        else:
            names[p.id] = p.id
    return names

"""The legal choices at every point of a game: the one source of legality.

`legal(state)` lists what the decider may choose now, in a stable order: the chance
outcomes of a flip or a roll, the setup picks and placements, the character to take a
turn, the actions of the active character (basic actions, abilities whose token is in
the pool, items off the cooldown track, companion actions, rally, end), and the options
of a step or trait that asks a decision.
"""

from __future__ import annotations

from funkoverse.rules.core import geometry, track, world
from funkoverse.rules.core.cards import Ability, ItemCard
from funkoverse.rules.core.choices import (
    Assist,
    Challenge,
    Choice,
    Choose,
    CompanionAction,
    End,
    FirstPlayer,
    Move,
    Place,
    Rally,
    Return,
    RollOutcome,
    UseAbility,
    UseItem,
)
from funkoverse.rules.core.frames import ChoiceFrame, ReturnFrame, RollFrame
from funkoverse.rules.core.numbers import BASIC_MOVE, RALLY_ACTIONS
from funkoverse.rules.core.pieces import Kind
from funkoverse.rules.core.state import GameState, Phase, Piece
from funkoverse.rules.play import setup_phase
from funkoverse.rules.vocabulary import steps
from funkoverse.rules.vocabulary.assisting import interact_targets
from funkoverse.rules.vocabulary.ops import possible_target

ROLLS: tuple[Choice, Choice] = (RollOutcome(True), RollOutcome(False))


def legal(state: GameState) -> list[Choice]:
    """Every legal choice at this point, in a stable order."""
    if state.phase is Phase.OVER:
        return []
    if state.stack:
        top = state.stack[-1]
        if isinstance(top, RollFrame):
            return list(ROLLS)
        if isinstance(top, ChoiceFrame):
            return steps.options(state, top)
        if isinstance(top, ReturnFrame):
            return return_options(state, top)
    if state.phase is Phase.FLIP:
        return [FirstPlayer(side) for side in state.seats]
    if state.phase is Phase.DRAFT:
        return setup_phase.draft_options(state)
    if state.phase is Phase.SECRET:
        return setup_phase.secret_options(state)
    if state.phase is Phase.PLACE:
        return place_options(state)
    if state.phase is Phase.CHOOSE:
        return [Choose(p.id) for p in state.characters(state.to_act or "") if not p.exhausted]
    return action_menu(state)


# --------------------------------------------------------------------------- setup


def place_options(state: GameState) -> list[Choice]:
    """Setup: the side to place puts its characters (and companions) in its starting area;
    Leaders: its leader on its leader starting square."""
    side = state.to_act or ""
    waiting = [
        p
        for p in state.pieces.values()
        if p.side == side and not p.placed and (p.is_character or p.kind is Kind.COMPANION)
    ]
    if not waiting:
        # Bonus Objective Setup: "Immediately after your characters are placed during setup,
        # place the bonus objective marker you have been given by your opponent in your
        # starting area."
        giver = seat_before(state, side)
        waiting = [
            p
            for p in state.pieces.values()
            if p.kind is Kind.BONUS_OBJECTIVE and p.side == giver and not p.placed
        ]
    squares = world.arrival_squares(state, side)
    label = state.board.label
    options: list[Choice] = []
    for p in waiting:
        own = state.setup.scenario.placement_squares(state, p)
        for sq in own if own is not None else squares:
            options.append(Place(p.id, label(sq)))
    return options


def seat_before(state: GameState, side: str) -> str:
    """The seat that hands its bonus objective marker to `side` (the one before it)."""
    i = state.seats.index(side)
    return state.seats[i - 1]


def return_options(state: GameState, frame: ReturnFrame) -> list[Choice]:
    """Cooldown Tracks: characters return to the starting area (FAQ: if it is full, the
    nearest empty squares)."""
    squares = world.arrival_squares(state, frame.side)
    label = state.board.label
    return [Return(pid, label(sq)) for pid in frame.pieces for sq in squares]


# --------------------------------------------------------------------------- actions


def action_menu(state: GameState) -> list[Choice]:
    """Taking a Turn, steps 2-3: the actions the active character can do now."""
    piece = state.pieces[state.active or ""]
    if state.actions_left <= 0:
        # "You may do this before, between, or after the character's two actions": the
        # companion's additional action is still there once both are done (or rallied).
        return [*free_companion_options(state, piece), End()]
    menu: list[Choice] = []
    menu.extend(companion_options(state, piece))
    if piece.square is None:
        # Knocked Out: on the cooldown track it may do no actions, only what its card allows.
        menu.extend(ability_options(state, piece))
    elif not piece.standing:
        # Rally: a knocked-down character cannot do actions; it may use both actions to stand.
        if state.actions_left >= RALLY_ACTIONS:
            menu.append(Rally())
        menu.extend(ability_options(state, piece))
    else:
        board = state.board
        # Basic actions. FAQ: a move may be of zero squares.
        menu.extend(Move(board.label(sq)) for sq in world.move_options(state, piece, BASIC_MOVE))
        pieces = state.on_map()
        menu.extend(Challenge(t.id) for t in geometry.challenge_targets(board, piece, pieces, None))
        squares = world.reach_set(state, piece, "assist")
        menu.extend(Assist(p.id) for p in world.knocked_down_allies_in(state, piece, squares))
        menu.extend(interact_targets(state, piece))
        menu.extend(item_options(state, piece))
        menu.extend(ability_options(state, piece))
    menu.append(End())
    return menu


def companions_of(state: GameState, piece: Piece) -> list[Piece]:
    """The companions attached to `piece` ("Companions")."""
    return [p for p in state.pieces.values() if p.kind is Kind.COMPANION and p.owner == piece.id]


def companion_options(state: GameState, piece: Piece) -> list[Choice]:
    """Companions: the attached companion "may also do one of the actions listed on the
    companion's card", and the character may spend an action on a companion action; both
    "while the attached character is knocked down, and even while [it] is on the cooldown
    track"."""
    options: list[Choice] = []
    for comp in companions_of(state, piece):
        card = state.setup.companions.get(comp.ref)
        if card is None or comp.square is None:
            continue
        for action in card.actions:
            if action.challenge_action and not possible_target(state, comp, action.steps):
                continue
            if state.companion_used != piece.id:
                options.append(CompanionAction(action.id, free=True))
            options.append(CompanionAction(action.id))
    return options


def free_companion_options(state: GameState, piece: Piece) -> list[Choice]:
    """The companion's additional action alone (Taking a Turn, Companion Actions: "before,
    between, or after the character's two actions"), once a turn."""
    return [c for c in companion_options(state, piece) if isinstance(c, CompanionAction) and c.free]


def ability_options(state: GameState, piece: Piece) -> list[Choice]:
    """Doing an Ability: the abilities whose token is in the pool, usable in the piece's condition."""
    card = piece.card
    if card is None or card.basic:
        return []
    pool = state.sides[piece.side].pool
    options: list[Choice] = []
    for ability in world.abilities_of(state, piece):
        if piece.square is None and not ability.while_knocked_out:
            continue
        if piece.square is not None and not piece.standing and not ability.while_knocked_down:
            continue
        if ability.declare_target:
            for target in first_challenge_targets(state, piece, ability):
                cost = world.ability_cost(state, piece, ability, target)
                if cost < 1 or pool.get(ability.color, 0) > 0:
                    options.append(UseAbility(ability.id, target.id))
            continue
        cost = world.ability_cost(state, piece, ability)
        if cost >= 1 and pool.get(ability.color, 0) <= 0:
            continue
        if ability.challenge_action and not possible_target(state, piece, ability.steps):
            continue
        options.append(UseAbility(ability.id))
    return options


def first_challenge_targets(state: GameState, piece: Piece, ability: Ability) -> list[Piece]:
    """Whom the first challenge of `ability` may target from where `piece` stands."""
    for s in ability.steps:
        if s.op == "challenge":
            reach = s.get("range")
            return geometry.challenge_targets(
                state.board, piece, state.on_map(), reach if isinstance(reach, int) else None
            )
    return []


def ready_items(state: GameState, piece: Piece) -> list[tuple[str, ItemCard]]:
    """The items `piece` holds that give it an action now, whatever it may target: a
    use-item action whose card is not on the track, or a basic action the item gives."""
    ready = []
    for item_id in piece.items:
        item = state.setup.items.get(item_id)
        if item is None or (item.cost == 0 and not item.basic_action):
            continue
        if track.position(state, piece.side, ("item", item_id)) is not None:
            continue  # "While an item is on the cooldown track, it cannot be used."
        ready.append((item_id, item))
    return ready


def item_options(state: GameState, piece: Piece) -> list[Choice]:
    """Items: the use-item action (its card not on the track) and items that give a basic
    action, a challenge only with a target in reach."""
    return [
        UseItem(item_id)
        for item_id, item in ready_items(state, piece)
        if not item.challenge_action or possible_target(state, piece, item.steps)
    ]


# --------------------------------------------------------------------------- one choice


def is_legal(state: GameState, choice: Choice) -> bool:
    """Whether `choice` is among `legal(state)`, working out only what that one choice
    needs (an action is checked against its own kind, never the whole menu). Equal to
    `choice in legal(state)` for every choice: `tests/test_legality.py` holds it to that."""
    if state.phase is Phase.OVER:
        return False
    if state.stack:
        top = state.stack[-1]
        if isinstance(top, RollFrame):
            return choice in ROLLS
        if isinstance(top, ChoiceFrame):
            return choice in steps.options(state, top)
        if isinstance(top, ReturnFrame):
            return choice in return_options(state, top)
    if state.phase is Phase.CHOOSE:
        if not isinstance(choice, Choose):
            return False
        piece = state.pieces.get(choice.piece)
        return (
            piece is not None
            and piece.side == state.to_act
            and piece.is_character
            and not piece.exhausted
        )
    if state.phase is not Phase.ACT:
        return choice in legal(state)
    return _is_legal_action(state, choice)


def _is_legal_action(state: GameState, choice: Choice) -> bool:
    """Taking a Turn, steps 2-3: `choice` checked as `action_menu` would list it."""
    if isinstance(choice, End):
        return True
    piece = state.pieces[state.active or ""]
    if state.actions_left <= 0:
        return choice in free_companion_options(state, piece)
    if isinstance(choice, CompanionAction):
        return choice in companion_options(state, piece)
    if isinstance(choice, UseAbility):
        return choice in ability_options(state, piece)
    if isinstance(choice, Rally):
        return (
            piece.square is not None and not piece.standing and state.actions_left >= RALLY_ACTIONS
        )
    if piece.square is None or not piece.standing:
        return False
    board = state.board
    if isinstance(choice, Move):
        square = board.index_of(choice.square)
        return square is not None and square in world.move_options(state, piece, BASIC_MOVE)
    if isinstance(choice, Challenge):
        pieces = state.on_map()
        return any(
            t.id == choice.target for t in geometry.challenge_targets(board, piece, pieces, None)
        )
    if isinstance(choice, Assist):
        squares = world.reach_set(state, piece, "assist")
        return any(p.id == choice.ally for p in world.knocked_down_allies_in(state, piece, squares))
    if isinstance(choice, UseItem):
        return choice in item_options(state, piece)
    return choice in interact_targets(state, piece)

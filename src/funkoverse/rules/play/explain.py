"""Why a choice is not legal, in words that cite the rulebook.

This module only explains: legality itself is decided by `menus.legal`.
"""

from __future__ import annotations

from funkoverse.rules.core import geometry
from funkoverse.rules.core.choices import (
    Assist,
    Challenge,
    Choice,
    Choose,
    CompleteBonus,
    FlipControl,
    Give,
    Interact,
    Move,
    Pick,
    Place,
    PlaceControl,
    Rally,
    UseAbility,
)
from funkoverse.rules.core.frames import ChoiceFrame, ReturnFrame, RollFrame
from funkoverse.rules.core.numbers import BASIC_MOVE
from funkoverse.rules.core.pieces import BLOCKING_KINDS
from funkoverse.rules.core.state import GameState, Phase
from funkoverse.rules.core.world import find_ability

_BASIC_ACTIONS = (Move, Challenge, Assist, Interact, CompleteBonus, PlaceControl, FlipControl)


def why_illegal(state: GameState, choice: Choice) -> str:
    """One line saying why `choice` cannot be taken now."""
    text = choice.format()
    if state.phase is Phase.OVER:
        return "the game is over"
    top = state.stack[-1] if state.stack else None
    if isinstance(top, RollFrame):
        return f"'{text}': the dice decide now; the outcomes are roll:win and roll:lose"
    if isinstance(top, ReturnFrame):
        return (
            f"'{text}': {top.side} returns characters to its starting area first "
            "(Cooldown Tracks; FAQ: if your starting area is full, the nearest empty square)"
        )
    if isinstance(top, ChoiceFrame):
        return _why_step_choice(state, top, choice)
    if state.phase is Phase.FLIP:
        return f"'{text}': the First Player marker is flipped first (Setup)"
    if state.phase is Phase.DRAFT:
        return _why_draft(state, choice)
    if state.phase is Phase.SECRET:
        return f"'{text}': {state.to_act} picks its leader in secret now: leader:<one of its characters> (Leaders)"
    if state.phase is Phase.PLACE:
        return _why_place(state, choice)
    if state.phase is Phase.CHOOSE:
        if not isinstance(choice, Choose):
            return f"'{text}': {state.to_act} must first choose a character (Taking a Turn, step 1)"
        piece = state.pieces.get(choice.piece)
        if piece is None:
            return f"'{text}': there is no character '{choice.piece}' in this game"
        if piece.side != state.to_act:
            return f"'{text}': {piece.name} is not {state.to_act}'s character"
        if piece.exhausted:
            return (
                f"'{text}': {piece.name} has an exhausted marker (Taking a Turn, step 1: "
                "choose a character without an exhausted marker)"
            )
        return f"'{text}': {piece.name} cannot take a turn"
    return _why_action(state, choice)


def _why_draft(state: GameState, choice: Choice) -> str:
    text = choice.format()
    draft = state.setup.draft
    side = state.to_act or ""
    if draft is None or not isinstance(choice, (Pick, Give)):
        return f"'{text}': {side} chooses its characters and items now (Scenario Setup, step 5)"
    mine = state.sides[side].picks
    if isinstance(choice, Pick):
        if len(mine) >= draft.size:
            return f"'{text}': {side} has its {draft.size} characters; now its items"
        cards = {c.id: c for c in draft.characters}
        if choice.character not in cards:
            return f"'{text}': '{choice.character}' is not in the collection"
        if any(cards[c].name == cards[choice.character].name for c in mine):
            return f"'{text}': characters with the same name cannot be allies (Mixing Games)"
        return (
            f"'{text}': {cards[choice.character].name} is already chosen from the shared collection"
        )
    return (
        f"'{text}': an item goes to one of {side}'s characters that is not a basic character, "
        "once, from the items not yet chosen (Item Setup)"
    )


def _why_place(state: GameState, choice: Choice) -> str:
    text = choice.format()
    if not isinstance(choice, Place):
        return f"'{text}': {state.to_act} places its characters now (Setup)"
    piece = state.pieces.get(choice.piece)
    if piece is None or piece.side != state.to_act:
        return f"'{text}': {state.to_act} has no character '{choice.piece}' to place"
    try:
        square = state.board.parse_label(choice.square)
    except ValueError:
        return f"'{text}': '{choice.square}' is not a square of this map"
    if piece.placed:
        return f"'{text}': {piece.name} is already on the map"
    if not geometry.placeable(state.board, state.on_map(), square):
        return (
            f"'{text}': {choice.square} is occupied or blocked (FAQ: Can I stand in this square?)"
        )
    return (
        f"'{text}': {choice.square} is not in {state.to_act}'s starting area (Setup: place your "
        "characters on squares in your starting area)"
    )


def _why_action(state: GameState, choice: Choice) -> str:
    text = choice.format()
    if state.active not in state.pieces:
        return f"'{text}': not one of the choices now"
    piece = state.pieces[state.active or ""]
    name = piece.name
    if state.actions_left <= 0:
        return f"'{text}': {name} has no actions left (Taking a Turn: up to two actions)"
    if piece.square is None:
        return (
            f"'{text}': {name} is knocked out on the cooldown track and may not do rally or "
            "any actions (Knocked Out)"
        )
    if isinstance(choice, Rally):
        if piece.standing:
            return f"'{text}': {name} is standing; rally is for a knocked-down character (Rally)"
        return f"'{text}': rally takes both of {name}'s actions, and one is already used (Rally)"
    if not piece.standing and isinstance(choice, _BASIC_ACTIONS):
        return (
            f"'{text}': {name} is knocked down and cannot do basic or special actions, only "
            "rally (Taking a Turn, step 3: Rally)"
        )
    board = state.board
    if isinstance(choice, Move):
        try:
            square = board.parse_label(choice.square)
        except ValueError:
            return f"'{text}': '{choice.square}' is not a square of this map"
        return _why_not_move(state, piece.id, square, BASIC_MOVE, text)
    if isinstance(choice, Challenge):
        target = state.pieces.get(choice.target)
        if target is None:
            return f"'{text}': there is no '{choice.target}' in this game"
        if target.side == piece.side:
            return f"'{text}': you cannot challenge an ally (Challenges)"
        if target.square is None:
            return f"'{text}': {target.name} is not on the map"
        return (
            f"'{text}': {target.name} is not adjacent to {name} (Basic Challenge: must be "
            "adjacent to the target; Adjacency: beside or diagonal and seen)"
        )
    if isinstance(choice, Assist):
        ally = state.pieces.get(choice.ally)
        if ally is None or ally.side != piece.side:
            return f"'{text}': assist stands up an ally (Assist)"
        if ally.standing:
            return f"'{text}': {ally.name} is not knocked down (Assist)"
        return f"'{text}': {ally.name} is not adjacent to {name} (Assist: an adjacent ally)"
    if isinstance(choice, UseAbility):
        ability = find_ability(state, piece, choice.ability)
        if ability is None:
            return (
                f"'{text}': {name} has no ability '{choice.ability}' (basic characters have none)"
            )
        if state.sides[piece.side].pool.get(ability.color, 0) <= 0:
            return (
                f"'{text}': no {ability.color.value} token in the pool (Doing an Ability: no "
                "token, no ability)"
            )
        if ability.challenge_action:
            return f"'{text}': there is no possible target (Abilities That Are Challenge Actions)"
        return f"'{text}': {ability.name} cannot be done now"
    if isinstance(choice, (Interact, CompleteBonus, PlaceControl, FlipControl)):
        return f"'{text}': there is nothing like that to interact with here (Interact)"
    return f"'{text}': not an action; the actions are move, challenge, assist, interact, ability, rally and end"


def _why_not_move(state: GameState, pid: str, square: int, steps: int, text: str) -> str:
    board = state.board
    piece = state.pieces[pid]
    start = piece.square
    if start is None:
        return f"'{text}': {piece.name} is not on the map"
    if square in board.blocked:
        return (
            f"'{text}': an obstruction covers the center of {board.label(square)} "
            "(How to Move Something, rule 2)"
        )
    occupant = next(
        (
            p
            for p in state.on_map()
            if p.square == square and p.kind in BLOCKING_KINDS and p.id != pid
        ),
        None,
    )
    if occupant is not None:
        return (
            f"'{text}': {occupant.name} is in {board.label(square)} (How to Move Something, "
            "rule 6: you cannot end a move in a square occupied by an ally or rival)"
        )
    if board.distance(start, square) > steps:
        return f"'{text}': {board.label(square)} is more than {steps} squares away (Basic Moves)"
    return (
        f"'{text}': every way to {board.label(square)} crosses an obstruction or a standing "
        "rival (How to Move Something, rules 1, 3 and 5)"
    )


def _why_step_choice(state: GameState, frame: ChoiceFrame, choice: Choice) -> str:
    text = choice.format()
    piece = state.pieces.get(frame.piece)
    if piece is None:
        return f"'{text}': not one of the choices for {frame.purpose} now"
    if frame.purpose == "move":
        if not isinstance(choice, Move):
            return f"'{text}': {piece.name} moves now, up to {frame.step.int('squares')} squares"
        try:
            square = state.board.parse_label(choice.square)
        except ValueError:
            return f"'{text}': '{choice.square}' is not a square of this map"
        return _why_not_move(state, piece.id, square, frame.step.int("squares"), text)
    if frame.purpose in ("challenge", "challenge_each"):
        return f"'{text}': not a target {piece.name} can challenge now (Challenges)"
    return f"'{text}': not one of the choices for {frame.purpose.replace('_', ' ')} now"

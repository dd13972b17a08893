"""Why a choice is not legal, in words that cite the rulebook.

This module only explains: legality itself is decided by `engine.legal_choices`.
"""

from __future__ import annotations

from funkoverse.rules import geometry
from funkoverse.rules.frames import ChoiceFrame, ReturnFrame, RollFrame
from funkoverse.rules.pieces import BLOCKING_KINDS
from funkoverse.rules.state import GameState, Phase
from funkoverse.rules.world import find_ability


def why_illegal(state: GameState, choice: str) -> str:
    """One line saying why `choice` cannot be taken now."""
    if state.phase is Phase.OVER:
        return "the game is over"
    head, _, rest = choice.partition(":")
    top = state.stack[-1] if state.stack else None
    if isinstance(top, RollFrame):
        return f"'{choice}': the dice decide now; the outcomes are roll:win and roll:lose"
    if isinstance(top, ReturnFrame):
        return (
            f"'{choice}': {top.side} returns characters to its starting area first "
            "(Cooldown Tracks; FAQ: if your starting area is full, the nearest empty square)"
        )
    if isinstance(top, ChoiceFrame):
        return _why_step_choice(state, top, head, rest, choice)
    if state.phase is Phase.FLIP:
        return f"'{choice}': the First Player marker is flipped first (Setup)"
    if state.phase is Phase.DRAFT:
        return _why_draft(state, head, rest, choice)
    if state.phase is Phase.SECRET:
        return f"'{choice}': {state.to_act} picks its leader in secret now: leader:<one of its characters> (Leaders)"
    if state.phase is Phase.PLACE:
        return _why_place(state, head, rest, choice)
    if state.phase is Phase.CHOOSE:
        if head != "choose":
            return (
                f"'{choice}': {state.to_act} must first choose a character (Taking a Turn, step 1)"
            )
        piece = state.pieces.get(rest)
        if piece is None:
            return f"'{choice}': there is no character '{rest}' in this game"
        if piece.side != state.to_act:
            return f"'{choice}': {piece.name} is not {state.to_act}'s character"
        if piece.exhausted:
            return (
                f"'{choice}': {piece.name} has an exhausted marker (Taking a Turn, step 1: "
                "choose a character without an exhausted marker)"
            )
        return f"'{choice}': {piece.name} cannot take a turn"
    return _why_action(state, head, rest, choice)


def _why_draft(state: GameState, head: str, rest: str, choice: str) -> str:
    from funkoverse.rules.setup_phase import picks

    draft = state.setup.draft
    side = state.to_act or ""
    if draft is None or head not in ("pick", "give"):
        return f"'{choice}': {side} chooses its characters and items now (Scenario Setup, step 5)"
    mine = picks(state, side)
    if head == "pick":
        if len(mine) >= draft.size:
            return f"'{choice}': {side} has its {draft.size} characters; now its items"
        cards = {c.id: c for c in draft.characters}
        if rest not in cards:
            return f"'{choice}': '{rest}' is not in the collection"
        if any(cards[c].name == cards[rest].name for c in mine):
            return f"'{choice}': characters with the same name cannot be allies (Mixing Games)"
        return f"'{choice}': {cards[rest].name} is already chosen from the shared collection"
    return (
        f"'{choice}': an item goes to one of {side}'s characters that is not a basic character, "
        "once, from the items not yet chosen (Item Setup)"
    )


def _why_place(state: GameState, head: str, rest: str, choice: str) -> str:
    if head != "place":
        return f"'{choice}': {state.to_act} places its characters now (Setup)"
    pid, _, label = rest.partition(":")
    piece = state.pieces.get(pid)
    if piece is None or piece.side != state.to_act:
        return f"'{choice}': {state.to_act} has no character '{pid}' to place"
    try:
        square = state.board.parse_label(label)
    except ValueError:
        return f"'{choice}': '{label}' is not a square of this map"
    if piece.placed:
        return f"'{choice}': {piece.name} is already on the map"
    if not geometry.placeable(state.board, state.on_map(), square):
        return f"'{choice}': {label} is occupied or blocked (FAQ: Can I stand in this square?)"
    return (
        f"'{choice}': {label} is not in {state.to_act}'s starting area (Setup: place your "
        "characters on squares in your starting area)"
    )


def _why_action(state: GameState, head: str, rest: str, choice: str) -> str:
    if state.active not in state.pieces:
        return f"'{choice}': not one of the choices now"
    piece = state.pieces[state.active or ""]
    name = piece.name
    if state.actions_left <= 0:
        return f"'{choice}': {name} has no actions left (Taking a Turn: up to two actions)"
    if piece.square is None:
        return (
            f"'{choice}': {name} is knocked out on the cooldown track and may not do rally or "
            "any actions (Knocked Out)"
        )
    if head == "rally":
        if piece.standing:
            return f"'{choice}': {name} is standing; rally is for a knocked-down character (Rally)"
        return f"'{choice}': rally takes both of {name}'s actions, and one is already used (Rally)"
    if not piece.standing and head in ("move", "challenge", "assist", "interact"):
        return (
            f"'{choice}': {name} is knocked down and cannot do basic or special actions, only "
            "rally (Taking a Turn, step 3: Rally)"
        )
    board = state.board
    if head == "move":
        try:
            square = board.parse_label(rest)
        except ValueError:
            return f"'{choice}': '{rest}' is not a square of this map"
        return _why_not_move(state, piece.id, square, 2, choice)
    if head == "challenge":
        target = state.pieces.get(rest)
        if target is None:
            return f"'{choice}': there is no '{rest}' in this game"
        if target.side == piece.side:
            return f"'{choice}': you cannot challenge an ally (Challenges)"
        if target.square is None:
            return f"'{choice}': {target.name} is not on the map"
        return (
            f"'{choice}': {target.name} is not adjacent to {name} (Basic Challenge: must be "
            "adjacent to the target; Adjacency: beside or diagonal and seen)"
        )
    if head == "assist":
        ally = state.pieces.get(rest)
        if ally is None or ally.side != piece.side:
            return f"'{choice}': assist stands up an ally (Assist)"
        if ally.standing:
            return f"'{choice}': {ally.name} is not knocked down (Assist)"
        return f"'{choice}': {ally.name} is not adjacent to {name} (Assist: an adjacent ally)"
    if head == "ability":
        ability = find_ability(state, piece, rest.partition(":")[0])
        if ability is None:
            return f"'{choice}': {name} has no ability '{rest}' (basic characters have none)"
        if state.sides[piece.side].pool.get(ability.color, 0) <= 0:
            return (
                f"'{choice}': no {ability.color.value} token in the pool (Doing an Ability: no "
                "token, no ability)"
            )
        if ability.challenge_action:
            return f"'{choice}': there is no possible target (Abilities That Are Challenge Actions)"
        return f"'{choice}': {ability.name} cannot be done now"
    if head == "interact":
        return f"'{choice}': there is nothing '{rest}' to interact with here (Interact)"
    return f"'{choice}': not an action; the actions are move, challenge, assist, interact, ability, rally and end"


def _why_not_move(state: GameState, pid: str, square: int, steps: int, choice: str) -> str:
    board = state.board
    piece = state.pieces[pid]
    start = piece.square
    if start is None:
        return f"'{choice}': {piece.name} is not on the map"
    if square in board.blocked:
        return (
            f"'{choice}': an obstruction covers the center of {board.label(square)} "
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
            f"'{choice}': {occupant.name} is in {board.label(square)} (How to Move Something, "
            "rule 6: you cannot end a move in a square occupied by an ally or rival)"
        )
    if board.distance(start, square) > steps:
        return f"'{choice}': {board.label(square)} is more than {steps} squares away (Basic Moves)"
    return (
        f"'{choice}': every way to {board.label(square)} crosses an obstruction or a standing "
        "rival (How to Move Something, rules 1, 3 and 5)"
    )


def _why_step_choice(
    state: GameState, frame: ChoiceFrame, head: str, rest: str, choice: str
) -> str:
    piece = state.pieces[frame.piece]
    if frame.purpose == "move":
        if head != "move":
            return f"'{choice}': {piece.name} moves now, up to {frame.step.int('squares')} squares"
        try:
            square = state.board.parse_label(rest)
        except ValueError:
            return f"'{choice}': '{rest}' is not a square of this map"
        return _why_not_move(state, piece.id, square, frame.step.int("squares"), choice)
    if frame.purpose == "target":
        return f"'{choice}': not a target {piece.name} can challenge now (Challenges)"
    return f"'{choice}': not one of the choices for {frame.purpose} now"

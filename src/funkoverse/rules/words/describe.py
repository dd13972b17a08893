"""Labels for choices: a short sentence saying what a choice does here, for menus and hints."""

from __future__ import annotations

from funkoverse.rules.core.challenges import attack_dice
from funkoverse.rules.core.choices import (
    Assist,
    Carry,
    Challenge,
    Choice,
    Choose,
    CompanionAction,
    CompleteBonus,
    End,
    FirstPlayer,
    FlagReturn,
    FlipControl,
    Give,
    GiveStatus,
    Interact,
    Leader,
    MinionChallenge,
    Move,
    Pick,
    Place,
    PlaceControl,
    PlaceToken,
    Pull,
    Push,
    Put,
    Rally,
    Return,
    RollOutcome,
    ShiftDown,
    ShiftOff,
    Skip,
    Target,
    UseAbility,
    UseItem,
)
from funkoverse.rules.core.dice import win_probability
from funkoverse.rules.core.frames import ChoiceFrame, RollFrame
from funkoverse.rules.core.numbers import BASIC_CHALLENGE_DICE, FLAG_POINTS
from funkoverse.rules.core.pieces import Role
from funkoverse.rules.core.stack import acting, nearest_steps
from funkoverse.rules.core.state import GameState, Piece
from funkoverse.rules.core.world import (
    ability_cost,
    defense_of,
    display_names,
    find_ability,
    find_hook,
)
from funkoverse.rules.vocabulary.ops import CHALLENGE_OPS, possible_target


def _pct(p: float) -> str:
    return f"{p * 100:.1f}%"


def challenge_odds(state: GameState, dice: int, target: Piece) -> float:
    """The exact chance that `dice` standard dice beat `target`'s defense."""
    standard = state.setup.dice["standard"]
    return float(win_probability([standard] * dice, [standard] * defense_of(state, target)))


def move_note(state: GameState, piece: Piece, choice: Move, names: dict[str, str]) -> str:
    """What a person should know before moving there: that the ability under way can find
    no target from that square (its challenge will not happen), or, in Flags, that the
    square is beside the rival's flag but not adjacent to it (a wall corner between: no
    return), or adjacent to it (a return when the round ends)."""
    board = state.board
    try:
        square = board.parse_label(choice.square)
    except ValueError:
        return ""
    notes = []
    top = state.stack[-1] if state.stack else None
    found = nearest_steps(state)
    if isinstance(top, ChoiceFrame) and top.purpose == "move" and found is not None:
        frame = found[1]
        rest = frame.steps[frame.pc :]
        if any(s.op in CHALLENGE_OPS for s in rest) and not any(s.op == "move" for s in rest):
            there = state.copy()
            there.pieces[piece.id].square = square
            if not possible_target(there, there.pieces[piece.id], rest):
                notes.append(f"no target from there: {frame.source} ends without its challenge")
    if state.setup.scenario.flags and piece.is_character:
        for flag in state.pieces.values():
            if flag.role is not Role.FLAG or flag.side == piece.side or flag.square is None:
                continue
            if flag.square in board.adjacent_set(square):
                notes.append(f"by {names.get(flag.id, flag.id)}: a return when the round ends")
            elif board.distance(square, flag.square) <= 1:
                notes.append(
                    f"beside {names.get(flag.id, flag.id)} but not adjacent to it (a wall "
                    "corner is between): no return from there"
                )
    return "".join(f" — {n}" for n in notes)


def label(state: GameState, choice: Choice, names: dict[str, str] | None = None) -> str:
    """A short sentence saying what `choice` does in this position."""
    names = names if names is not None else display_names(state)
    top = state.stack[-1] if state.stack else None

    def n(pid: str) -> str:
        return names.get(pid, pid)

    if isinstance(choice, FirstPlayer):
        return f"The First Player marker lands {choice.side}"
    if isinstance(choice, Place) and not isinstance(top, ChoiceFrame):
        return f"Place {n(choice.piece)} at {choice.square}"
    if isinstance(choice, Return):
        return f"Return {n(choice.piece)} at {choice.square}"
    if isinstance(choice, Choose):
        piece = state.pieces[choice.piece]
        if piece.square is None:
            return f"Choose {n(piece.id)} (knocked out: exhausted without actions)"
        if not piece.standing:
            return f"Choose {n(piece.id)} (knocked down)"
        return f"Choose {n(piece.id)}"
    if isinstance(choice, RollOutcome) and isinstance(top, RollFrame):
        dice = state.setup.dice
        p = float(win_probability([dice[d] for d in top.attack], [dice[d] for d in top.defense]))
        if choice.won:
            return f"{n(top.challenger)} wins the challenge ({_pct(p)})"
        return f"{n(top.challenger)} loses the challenge ({_pct(1 - p)})"
    if isinstance(top, ChoiceFrame) and top.hook and top.hook != "scenario":
        owner = state.pieces.get(top.piece)
        hook = find_hook(state, owner, top.hook) if owner is not None else None
        said = hook.label(state, owner, top.purpose, choice) if hook and owner else None
        if said is not None:
            return said
    active = state.pieces.get(acting(state) or "")
    who = n(active.id) if active is not None else ""
    if isinstance(choice, Move):
        note = move_note(state, active, choice, names) if active is not None else ""
        if (
            active is not None
            and active.square is not None
            and state.board.label(active.square) == choice.square
        ):
            return f"{who}: move 0 squares (stay at {choice.square}){note}"
        return f"{who}: move to {choice.square}{note}"
    if isinstance(choice, (Challenge, Target)):
        target = state.pieces[choice.target if isinstance(choice, Challenge) else choice.piece]
        count = BASIC_CHALLENGE_DICE
        if isinstance(top, ChoiceFrame) and active is not None:
            count = attack_dice(state, active, target, top.step)
        p = challenge_odds(state, count, target)
        state_word = "" if target.standing else " (knocked down: a win knocks it out)"
        return (
            f"{who}: challenge {n(target.id)}{state_word}, {count} dice vs "
            f"{defense_of(state, target)}, {_pct(p)}"
        )
    if isinstance(choice, Assist):
        return f"{who}: assist {n(choice.ally)} (stand it up)"
    if isinstance(choice, Interact):
        return f"{who}: interact with {n(choice.thing)}"
    if isinstance(choice, CompleteBonus):
        return f"{who}: complete the bonus objective ({n(choice.piece)})"
    if isinstance(choice, PlaceControl):
        return f"{who}: place a control marker at {choice.square} (control area {choice.area})"
    if isinstance(choice, FlipControl):
        return f"{who}: flip control marker {choice.number}"
    if isinstance(choice, UseAbility) and active is not None:
        ability = find_ability(state, active, choice.ability)
        if ability is not None:
            aimed = state.pieces.get(choice.target or "")
            on = f" on {n(aimed.id)}" if aimed is not None else ""
            cost = ability_cost(state, active, ability, aimed)  # the cost paid now
            return f"{who}: {ability.name}{on} ({ability.color.value} {cost}) — {ability.text}"
    if isinstance(choice, UseItem) and active is not None and choice.item in state.setup.items:
        item = state.setup.items[choice.item]
        return f"{who}: use the {item.name} — {item.text}"
    if isinstance(choice, CompanionAction):
        free = " (free, once a turn)" if choice.free else " (one action)"
        return f"{who}: companion action {choice.action}{free}"
    if isinstance(choice, Rally):
        return f"{who}: rally (both actions to stand up)"
    if isinstance(choice, End):
        return f"{who}: end the turn (exhaust {who})"
    if isinstance(choice, Skip):
        return "Decline (you may)"
    if isinstance(choice, FlagReturn):
        return f"Return {n(choice.piece)} from the rival flag to the starting area (+{FLAG_POINTS} points, Flags)"
    if isinstance(choice, Pick):
        card = (
            next((c for c in state.setup.draft.characters if c.id == choice.character), None)
            if state.setup.draft
            else None
        )
        return f"Choose {card.name if card else choice.character}"
    if isinstance(choice, Give):
        given = state.setup.items.get(choice.item)
        return f"Give the {given.name if given else choice.item} to {choice.holder}"
    if isinstance(choice, Leader):
        return f"Pick {n(choice.piece)} as your leader (secret until both have picked)"
    if isinstance(choice, Push):
        return f"{who}: push {n(choice.piece)} to {choice.square}"
    if isinstance(choice, Pull):
        return f"{who}: pull {n(choice.piece)} to {choice.square}"
    if isinstance(choice, Place):
        return f"{who}: be placed at {choice.square}, adjacent to {n(choice.piece)}"
    if isinstance(choice, Carry):
        return f"{who}: carry {n(choice.piece)}"
    if isinstance(choice, Put):
        return f"{who}: put the carried character at {choice.square}"
    if isinstance(choice, PlaceToken):
        return f"{who}: place {n(choice.token)} at {choice.square}"
    if isinstance(choice, GiveStatus):
        status = state.setup.statuses.get(choice.card)
        return f"{who}: take the {status.name if status else choice.card} status card"
    if isinstance(choice, ShiftDown):
        return f"Shift the {choice.thing} {choice.what} on the {choice.at} down"
    if isinstance(choice, ShiftOff):
        return f"Shift the {choice.color} ability token on the {choice.at} off, back to the pool"
    if isinstance(choice, MinionChallenge):
        return f"{n(choice.minion)}: challenge {n(choice.target)}"
    return choice.format()

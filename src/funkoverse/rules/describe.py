"""Human-readable labels for choice ids, for menus, logs and hints."""

from __future__ import annotations

from funkoverse.rules.engine import defense_of, roll_win_probability
from funkoverse.rules.frames import ChoiceFrame, RollFrame
from funkoverse.rules.state import GameState
from funkoverse.rules.steps import attack_dice
from funkoverse.rules.world import find_ability


def _pct(p: float) -> str:
    return f"{p * 100:.1f}%"


def label(state: GameState, choice: str) -> str:
    """A short sentence saying what `choice` does in this position."""
    head, _, rest = choice.partition(":")
    pieces = state.pieces
    top = state.stack[-1] if state.stack else None
    if head == "first":
        return f"The First Player marker lands {rest}"
    if head in ("place", "return"):
        pid, _, square = rest.partition(":")
        verb = "Place" if head == "place" else "Return"
        return f"{verb} {pieces[pid].name} at {square}"
    if head == "choose":
        piece = pieces[rest]
        if piece.square is None:
            return f"Choose {piece.name} (knocked out: exhausted without actions)"
        if not piece.standing:
            return f"Choose {piece.name} (knocked down)"
        return f"Choose {piece.name}"
    if head == "roll" and isinstance(top, RollFrame):
        p = float(roll_win_probability(state, top))
        challenger = pieces[top.challenger].name
        if rest == "win":
            return f"{challenger} wins the challenge ({_pct(p)})"
        return f"{challenger} loses the challenge ({_pct(1 - p)})"
    active = (
        pieces.get(top.piece) if isinstance(top, ChoiceFrame) else pieces.get(state.active or "")
    )
    who = active.name if active is not None else ""
    if head == "move":
        if (
            active is not None
            and active.square is not None
            and state.board.label(active.square) == rest
        ):
            return f"{who}: move 0 squares (stay at {rest})"
        return f"{who}: move to {rest}"
    if head in ("challenge", "target"):
        target = pieces[rest]
        dice = 2
        if isinstance(top, ChoiceFrame) and active is not None:
            dice = attack_dice(state, active, target, top.step)
        from funkoverse.rules.dice import win_probability

        standard = state.setup.dice["standard"]
        p = float(win_probability([standard] * dice, [standard] * defense_of(state, target)))
        state_word = "" if target.standing else " (knocked down: a win knocks it out)"
        return f"{who}: challenge {target.name}{state_word}, {dice} dice vs {defense_of(state, target)}, {_pct(p)}"
    if head == "assist":
        return f"{who}: assist {pieces[rest].name} (stand it up)"
    if head == "interact":
        return f"{who}: interact with {rest}"
    if head == "ability" and active is not None:
        ability_id, _, target_id = rest.partition(":")
        ability = find_ability(state, active, ability_id)
        if ability is not None:
            on = f" on {pieces[target_id].name}" if target_id in pieces else ""
            return (
                f"{who}: {ability.name}{on} ({ability.color.value} {ability.cost}) — {ability.text}"
            )
    if head == "item" and active is not None and rest in state.setup.items:
        item = state.setup.items[rest]
        return f"{who}: use the {item.name} — {item.text}"
    if head == "rally":
        return f"{who}: rally (both actions to stand up)"
    if head == "end":
        return f"{who}: end the turn (exhaust {who})"
    if head == "skip":
        return "Decline (you may)"
    if head == "flag":
        return f"Return {pieces[rest].name} from the rival flag to the starting area (+2 points, Flags)"
    if head == "pick":
        card = (
            next((c for c in state.setup.draft.characters if c.id == rest), None)
            if state.setup.draft
            else None
        )
        return f"Choose {card.name if card else rest}"
    if head == "give":
        item_id, _, holder = rest.partition(":")
        given = state.setup.items.get(item_id)
        return f"Give the {given.name if given else item_id} to {holder}"
    if head == "leader":
        return f"Pick {pieces[rest].name} as your leader (secret until both have picked)"
    return choice

"""What is being decided now, in words: the line above a seat's choices.

Worded from the seat's observed view and the decider alone (a spectator and a waiting seat
read the same line), in the rulebooks' words: "Wonder Woman: 2 actions left", "The round
ends: dark may return characters on or adjacent to the rival's flag (Flags)".
"""

from __future__ import annotations

from funkoverse.rules.core.frames import ChoiceFrame, ReturnFrame, RollFrame, RoundEndFrame
from funkoverse.rules.core.stack import nearest_steps
from funkoverse.rules.core.state import GameState, Phase
from funkoverse.rules.core.view import secret_decision

# A step's decision by the word of the vocabulary it answers (what its piece does now).
_STEP_WORDS = {
    "challenge": "chooses whom to challenge",
    "challenge_each": "chooses whom to challenge next",
    "interact": "chooses what to interact with",
    "push_adjacent_rival": "pushes an adjacent rival",
    "push_each_adjacent_rival": "pushes each adjacent rival, one at a time",
    "pull_rival_seen": "pulls a rival it can see",
    "pull_target": "pulls the target",
    "place_self_adjacent_to_rival": "chooses where to be placed, adjacent to a rival",
    "choose_adjacent_character": "chooses an adjacent character to carry",
    "place_chosen_adjacent": "places the carried character",
    "place_token": "places a token",
    "place_minion": "places a minion token",
    "minion_challenge": "chooses a minion token's challenge",
    "shift_down": "chooses what to shift down on the cooldown track",
    "shift_off_token": "chooses an ability token to shift off the cooldown track",
    "assist": "may do an assist action",
    "_status": "chooses a status card",
}


def _name(names: dict[str, str], pid: str | None, fallback: str) -> str:
    return names.get(pid or "", fallback) if pid else fallback


def _step(state: GameState, frame: ChoiceFrame, decider: str, names: dict[str, str]) -> str:
    piece = state.pieces.get(frame.piece)
    who = _name(names, frame.piece, decider)
    found = nearest_steps(state)
    source = f" ({found[1].source})" if found is not None and found[1].piece == frame.piece else ""
    if frame.purpose == "flag_return":
        return (
            f"The round ends: {decider} may return characters on or adjacent to the rival's "
            "flag to the starting area (Flags, 2 points each)"
        )
    if frame.hook and frame.hook != "scenario" and piece is not None and piece.card is not None:
        return f"{who}'s trait, {piece.card.trait_name}: {decider} decides"
    if frame.purpose == "move":
        n = frame.step.int("squares")
        squares = f"{n} square" if n == 1 else f"{n} squares"
        may = "may move" if frame.optional else "moves"
        if not source and piece is not None and piece.id != state.active and piece.card is not None:
            trait = piece.card.trait_name
            return f"{who} {may} up to {squares} ({trait}, a trait)"
        return f"{who} {may} up to {squares}{source}"
    words = _STEP_WORDS.get(frame.purpose, frame.purpose.replace("_", " ").strip())
    return f"{who} {words}{source}"


def prompt(state: GameState, decider: str | None, names: dict[str, str]) -> str:
    """The decision `decider` makes now in `state` (a seat's view), in a line."""
    if state.phase is Phase.OVER or decider is None:
        return "The game is over"
    top = state.stack[-1] if state.stack else None
    if state.phase is Phase.FLIP:
        return "The First Player marker is flipped"
    if state.phase is Phase.DRAFT:
        secret = secret_decision(state)
        return f"{decider} chooses characters and items" + (", in secret" if secret else "")
    if state.phase is Phase.SECRET:
        return f"{decider} picks a leader, in secret"
    if isinstance(top, RollFrame):
        return f"{_name(names, top.challenger, 'someone')} challenges: the dice are rolled"
    if isinstance(top, ReturnFrame):
        return f"{top.side} returns characters to the starting area"
    if isinstance(top, ChoiceFrame):
        return _step(state, top, decider, names)
    if isinstance(top, RoundEndFrame):
        return "The round ends"
    if state.phase is Phase.PLACE:
        return f"{decider} places characters in the starting area"
    if state.active is None or state.phase is Phase.CHOOSE:
        return f"{decider} chooses a character to take a turn"
    n = state.actions_left
    return f"{_name(names, state.active, decider)}: {n} action{'' if n == 1 else 's'} left"

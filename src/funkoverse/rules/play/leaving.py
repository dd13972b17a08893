"""Free-for-All: a player leaves the game and the others play on.

The rulebooks have no rule for a player who leaves. The server's spec has one: "in a
free-for-all the seat leaves and its characters are removed as knocked out, the rest play
on". What follows is that, read with the rulebooks' words (docs/rulings.md, "A player
leaves a free-for-all"):

- Its characters, companions and minion tokens leave the map and never return: each
  character is taken off as a knocked-out one is ("Remove the character from the map"),
  but it goes on no cooldown track, so nothing shifts it off ("Things that shift off the 1
  return to play" is never reached); nobody gains points for it ("If you knock out a
  rival": no rival knocked it out). Companions and minion tokens are what the player
  controls besides its characters ("The characters, companions, and minion tokens you
  control are allies"), so they go with it.
- Other tokens and markers stay where they are: "Tokens stay in play even if the character
  that placed them is knocked out". Its cooldown track keeps what is on it (ability tokens,
  item cards, point markers), which shifts down as before, so a point marker it scored still
  comes back to its setup square on time.
- It takes no more turns and decides nothing: its characters stay exhausted (no Refresh),
  its traits stop working, and a decision it was asked is not made. When it was taking a
  turn, that turn ends and the next player clockwise goes ("Taking a Turn").
- The First Player marker is passed only "clockwise at the end of the round"
  (Free-for-All); a player who leaves holding it leaves it where it lies until then, and
  it then passes to the next player still in the game: the one who would have had it
  anyway. Before round 1 begins it passes at once, since it says who plays first.
- It gains no more points and cannot win; when one player is left, that player wins.

Leaving happens in play or in placing characters, never in the flip or a draft (a
free-for-all has neither: its teams are given).
"""

from __future__ import annotations

from dataclasses import replace

from funkoverse.rules.core.errors import IllegalChoice
from funkoverse.rules.core.events import LEFT, Event, EventKind, Events
from funkoverse.rules.core.frames import ChoiceFrame, ReturnFrame, RollFrame, StepsFrame
from funkoverse.rules.core.pieces import Kind
from funkoverse.rules.core.state import GameState, Phase
from funkoverse.rules.play.engine import _advance, pass_turn

RULE = "Free-for-All"
# what a player controls that goes with it (Glossary: Ally; Minion Tokens; Companions)
CONTROLLED = frozenset({Kind.CHARACTER, Kind.BASIC, Kind.COMPANION, Kind.MINION})
WHEN = frozenset({Phase.PLACE, Phase.CHOOSE, Phase.ACT})


def refusal(state: GameState, side: str) -> str | None:
    """Why `side` cannot leave the game now (None: it can)."""
    if side not in state.seats:
        return f"'{side}' is not a seat of this game"
    if len(state.seats) < 3:
        return "only a player of a free-for-all (three or four players) leaves and the rest play on"
    if side in state.gone:
        return f"{side} has already left the game"
    if state.phase is Phase.OVER:
        return "the game is over"
    if state.phase not in WHEN:
        return "a player leaves once the teams are chosen and the first player known"
    if state.stack and isinstance(state.stack[-1], RollFrame):
        return "a player leaves between decisions, not while the dice are rolled"
    return None


def leave(state: GameState, side: str) -> Events:
    """`side` leaves the free-for-all: what it controls leaves the map for good, it takes
    no more turns, and the game goes on to the next decision (or ends with one player
    left, who wins). Refused with `IllegalChoice` when it cannot leave now."""
    why = refusal(state, side)
    if why is not None:
        raise IllegalChoice(why)
    events: Events = []
    state.gone = (*state.gone, side)
    removed: set[str] = set()
    for piece in state.pieces.values():
        if piece.side != side or piece.kind not in CONTROLLED:
            continue
        was = state.board.label(piece.square) if piece.square is not None else None
        on_map = piece.square is not None
        piece.square = None
        piece.placed = True  # nothing left to place (Setup)
        piece.standing = True
        piece.markers = piece.needed
        piece.exhausted = True
        removed.add(piece.id)
        if piece.is_character:
            events.append(
                Event(EventKind.KNOCKED_OUT, piece=piece.id, square=was, source=LEFT, rule=RULE)
            )
        elif on_map and piece.kind is Kind.COMPANION:
            events.append(Event(EventKind.COMPANION_OUT, piece=piece.id, source=LEFT, rule=RULE))
        elif on_map:
            events.append(Event(EventKind.TOKEN_REMOVED, piece=piece.id, source=LEFT, rule=RULE))
    # nothing of its characters and companions is left on its track to return
    for slot in state.sides[side].track:
        slot[:] = [item for item in slot if item[1] not in removed or item[0] not in _PIECES]
    _end_its_part(state, side, removed)
    playing = state.playing()
    if len(playing) == 1 and state.winner is None:
        state.winner = playing[0]  # the last player in the game wins
    _advance(state, events)
    return events


_PIECES = frozenset({"character", "companion"})


def _end_its_part(state: GameState, side: str, removed: set[str]) -> None:
    """The turn it was taking ends; the decisions it was asked, and anything still to be
    done by what left the map, are dropped ("If a target becomes unavailable, then they
    are no longer targeted", FAQ)."""
    active = state.active
    if active is not None and active in removed:
        state.stack.clear()  # all of it is its turn's: the end of a round has no turn under way
        state.active = None
        state.actions_left = 0
        state.acting = None
        state.companion_used = None
        state.phase = Phase.CHOOSE
        pass_turn(state)
        return
    kept = []
    for frame in state.stack:
        if isinstance(frame, ChoiceFrame) and (frame.decider == side or frame.piece in removed):
            continue
        if isinstance(frame, ReturnFrame) and frame.side == side:
            continue
        if isinstance(frame, StepsFrame):
            if frame.piece in removed:
                continue
            if frame.target in removed or frame.chosen in removed:
                frame = _untarget(frame, removed)
        kept.append(frame)
    state.stack = kept
    if state.phase is Phase.CHOOSE and state.to_act == side and not state.stack:
        pass_turn(state)  # it was to choose a character: the next player clockwise does


def _untarget(frame: StepsFrame, removed: set[str]) -> StepsFrame:
    """The ability goes on without what left the map."""
    return replace(
        frame,
        target=None if frame.target in removed else frame.target,
        chosen=None if frame.chosen in removed else frame.chosen,
    )

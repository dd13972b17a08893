"""The effects vocabulary: every step an ability, item, trait or action can be written in.

Each word is one registered `Op`: the parameters a content file may give it, and either
what it does at once (`run`) or the decision it asks (`options`, then `apply` for the
option taken). `repeats` marks a step that stays current until nothing is left to do
("each", "all"). `reach` is its part of the target pre-check of a challenge action
("If there is no possible target, you cannot do a challenge action"): given the squares
the challenger may stand on when the step begins, it answers the squares it may stand on
after it, or, for a challenge, whether a target can be found.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from funkoverse.rules import geometry, track, world
from funkoverse.rules.cards import Step, TokenColor
from funkoverse.rules.challenges import attack_dice, declare_challenge
from funkoverse.rules.choices import (
    Assist,
    Carry,
    Choice,
    Interact,
    MinionChallenge,
    Move,
    Place,
    PlaceToken,
    Pull,
    Push,
    Put,
    ShiftDown,
    ShiftOff,
    Target,
)
from funkoverse.rules.choices import GiveStatus as GiveStatusChoice
from funkoverse.rules.events import Event, EventKind, Events
from funkoverse.rules.frames import ChoiceFrame, Frame, ReturnFrame, StepsFrame
from funkoverse.rules.numbers import BASIC_CHALLENGE_DICE
from funkoverse.rules.pieces import BLOCKING_KINDS, KNOCKABLE_KINDS, RIVAL_KINDS, Kind, Role
from funkoverse.rules.stack import (
    current_source,
    nearest_steps,
    react,
    stand_up,
    targets_so_far,
    update_steps,
)
from funkoverse.rules.state import GameState, Piece


class CannotBeDone(Exception):
    """A part of an ability that cannot be done: the ability ends."""


Run = Callable[[GameState, Piece, StepsFrame, Step, Events], bool]
Options = Callable[[GameState, ChoiceFrame], list[Choice]]
Apply = Callable[[GameState, ChoiceFrame, Piece, Choice, Events], None]
# (state, challenger, step, squares it may stand on, the steps after this one)
Reach = Callable[[GameState, Piece, Step, set[int], tuple[Step, ...]], "set[int] | bool"]


@dataclass(frozen=True)
class Op:
    """One word of the vocabulary and everything the engine needs to play it."""

    name: str
    params: frozenset[str]
    run: Run | None = None  # what it does at once; True when a repeating step is done
    options: Options | None = None  # the decision it asks
    apply: Apply | None = None  # the option taken
    repeats: bool = False
    reach: Reach | None = None  # its part of a challenge action's target pre-check
    now: Callable[[Step], bool] | None = None  # a decision word that happens at once here

    def immediate(self, s: Step) -> bool:
        """Whether this step happens at once (no decision)."""
        if self.options is None:
            return True
        return self.now is not None and self.now(s)


OPS: dict[str, Op] = {}
# the words that challenge (an ability with one of them needs a possible target)
CHALLENGE_OPS = frozenset({"challenge", "challenge_each", "minion_challenge"})


def _register(op: Op) -> Op:
    OPS[op.name] = op
    return op


def vocabulary() -> dict[str, frozenset[str]]:
    """The words a content file may use, with the parameters each takes."""
    return {name: op.params for name, op in OPS.items() if not name.startswith("_")}


def _label(state: GameState, sq: int) -> str:
    return state.board.label(sq)


def _from_square(state: GameState, piece: Piece, square: int, ask: Callable[[], object]) -> object:
    """Ask a question as if `piece` stood on `square` (the state is left as it was)."""
    was = piece.square
    piece.square = square
    try:
        return ask()
    finally:
        piece.square = was


def possible_target(state: GameState, piece: Piece, steps: tuple[Step, ...]) -> bool:
    """Abilities That Are Challenge Actions: "If there is no possible target, you cannot do
    a challenge action." The steps before the first challenge are followed in every way
    they can go (where a move can end, where a placement can put the challenger, whom a
    pull can bring adjacent, where a token can be placed) and the challenge looks for a
    target from each result."""
    if piece.square is None:
        return False
    squares = {piece.square}
    for i, s in enumerate(steps):
        op = OPS[s.op]
        if op.reach is None:
            continue
        found = op.reach(state, piece, s, squares, steps[i + 1 :])
        if isinstance(found, bool):
            return found
        squares = found
    return False


def _play_out(
    state: GameState, piece: Piece, s: Step, squares: set[int], rest: tuple[Step, ...]
) -> bool:
    """The pre-check of a step whose effect on the board is too open to follow by tables:
    each of its options is played on a copy of the game, and the steps after it are
    checked from there."""
    op = OPS[s.op]
    assert op.options is not None and op.apply is not None
    for square in sorted(squares):
        game = state.copy()
        me = game.pieces[piece.id]
        me.square = square
        game.stack.append(StepsFrame(me.id, "", (s, *rest), 1, None, me.standing))
        frame = ChoiceFrame(me.side, s, me.id)
        for option in op.options(game, frame):
            trial = game.copy()
            op.apply(trial, frame, trial.pieces[me.id], option, [])
            if possible_target(trial, trial.pieces[me.id], rest):
                return True
    return False


# --------------------------------------------------------------------------- standing up


def _stand_up(state: GameState, piece: Piece, frame: StepsFrame, s: Step, events: Events) -> bool:
    stand_up(state, piece, frame.source, events)
    return True


def _stand_up_or_shift_off(
    state: GameState, piece: Piece, frame: StepsFrame, s: Step, events: Events
) -> bool:
    """The Blood Is the Life: "Stand Dracula up or shift him off your cooldown track." """
    if piece.square is None:
        back = track.shift_off(state, piece.side, ("character", piece.id), events)
        if back:
            events.append(Event(EventKind.OFF_THE_TRACK, piece=piece.id, source=frame.source))
            state.stack.append(ReturnFrame(piece.side, tuple(back)))
    else:
        stand_up(state, piece, frame.source, events)
    return True


_register(Op("stand_up", frozenset(), run=_stand_up))
_register(Op("stand_up_or_shift_off", frozenset(), run=_stand_up_or_shift_off))


# --------------------------------------------------------------------------- moving


def _move_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    piece = state.pieces[frame.piece]
    return [
        Move(_label(state, sq))
        for sq in world.move_options(state, piece, frame.step.int("squares"))
    ]


def _move_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: Choice, events: Events
) -> None:
    assert isinstance(choice, Move)
    move_piece(state, piece, state.board.parse_label(choice.square), events)


def move_piece(state: GameState, piece: Piece, square: int, events: Events) -> None:
    """Moving: `piece` ends its move in `square` (its own square: a move of 0)."""
    origin = _label(state, piece.square) if piece.square is not None else None
    events.append(
        Event(EventKind.MOVED, piece=piece.id, origin=origin, square=_label(state, square))
    )
    piece.square = square


def _move_reach(
    state: GameState, piece: Piece, s: Step, squares: set[int], rest: tuple[Step, ...]
) -> set[int]:
    reached: set[int] = set()
    n = s.int("squares")
    for sq in squares:
        found = _from_square(state, piece, sq, lambda: world.move_options(state, piece, n))
        reached |= set(found)  # type: ignore[call-overload]
    return reached


_register(
    Op(
        "move",
        frozenset({"squares", "optional"}),
        options=_move_options,
        apply=_move_apply,
        reach=_move_reach,
    )
)


# --------------------------------------------------------------------------- challenges


def challenge_candidates(state: GameState, frame: ChoiceFrame) -> list[Piece]:
    """Whom a challenge step may target now (Challenges; "a different rival")."""
    piece = state.pieces[frame.piece]
    reach = frame.step.get("range")
    found = geometry.challenge_targets(
        state.board, piece, state.on_map(), reach if isinstance(reach, int) else None
    )
    if frame.step.get("target") == "different":
        before = targets_so_far(state)
        found = [t for t in found if t.id not in before]
    return found


def _challenge_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    return [Target(t.id) for t in challenge_candidates(state, frame)]


def _challenge_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: Choice, events: Events
) -> None:
    assert isinstance(choice, Target)
    target = state.pieces[choice.piece]
    dice = attack_dice(state, piece, target, frame.step)
    declare_challenge(state, piece, target, dice, current_source(state), events)


def _same_target_challenge(
    state: GameState, piece: Piece, frame: StepsFrame, s: Step, events: Events
) -> bool:
    """ "Challenge N" after a challenge the card has already aimed: the same target again
    (Savage Hunger's "Do a challenge 2 to them", Exsanguinate's declared target)."""
    target = state.pieces.get(frame.target or "")
    reach = s.get("range")
    legal = geometry.challenge_targets(
        state.board, piece, state.on_map(), reach if isinstance(reach, int) else None
    )
    if target is None or target not in legal:
        raise CannotBeDone("its target cannot be challenged")
    declare_challenge(
        state, piece, target, attack_dice(state, piece, target, s), frame.source, events
    )
    return True


def _targets_from(state: GameState, piece: Piece, square: int, reach: int | None) -> bool:
    return bool(
        _from_square(
            state,
            piece,
            square,
            lambda: geometry.challenge_targets(state.board, piece, state.on_map(), reach),
        )
    )


def _challenge_reach(
    state: GameState, piece: Piece, s: Step, squares: set[int], rest: tuple[Step, ...]
) -> bool:
    reach = s.get("range")
    if not isinstance(reach, int) and len(squares) > 1:
        # an adjacent challenge: a rival in a square adjacent to one the challenger can
        # reach (adjacency does not depend on where pieces stand)
        rivals = {
            p.square
            for p in state.on_map()
            if p.side != piece.side and p.id != piece.id and geometry.challengeable(p)
        }
        adjacent = state.board.adjacent_set
        return any(not rivals.isdisjoint(adjacent(sq)) for sq in squares)
    return any(
        _targets_from(state, piece, sq, reach if isinstance(reach, int) else None) for sq in squares
    )


_register(
    Op(
        "challenge",
        frozenset(
            {"dice", "range", "target", "bonus", "extra_vs_knocked_down", "optional", "if_won"}
        ),
        run=_same_target_challenge,
        options=_challenge_options,
        apply=_challenge_apply,
        reach=_challenge_reach,
        now=lambda s: s.get("target") == "same",
    )
)


def _each_within(state: GameState, piece: Piece, within: int) -> list[Piece]:
    """She Breathes: "each rival within 2 squares" (Glossary: Rival) not yet challenged."""
    if piece.square is None:
        return []
    done = targets_so_far(state)
    board = state.board
    return [
        p
        for p in state.on_map()
        if p.side != piece.side
        and p.kind in RIVAL_KINDS
        and p.id not in done
        and p.square is not None
        and board.distance(piece.square, p.square) <= within
    ]


def _each_within_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    """She Breathes: "each rival within 2 squares", in the order its owner chooses; a rival
    that becomes a target is challenged too, one that no longer is, is not (FAQ)."""
    piece = state.pieces[frame.piece]
    return [Target(p.id) for p in _each_within(state, piece, frame.step.int("within", 1))]


def _each_within_reach(
    state: GameState, piece: Piece, s: Step, squares: set[int], rest: tuple[Step, ...]
) -> bool:
    within = s.int("within", 1)
    return any(
        _from_square(state, piece, sq, lambda: _each_within(state, piece, within)) for sq in squares
    )


_register(
    Op(
        "challenge_each",
        frozenset({"dice", "within"}),
        options=_each_within_options,
        apply=_challenge_apply,
        repeats=True,
        reach=_each_within_reach,
    )
)


# --------------------------------------------------------------------------- assist, interact


def _assist_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    piece = state.pieces[frame.piece]
    squares = world.reach_set(state, piece, "assist")
    return [Assist(p.id) for p in world.knocked_down_allies_in(state, piece, squares)]


def _assist_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: Choice, events: Events
) -> None:
    assert isinstance(choice, Assist)
    assist(state, piece, state.pieces[choice.ally], events)


def assist(state: GameState, piece: Piece, ally: Piece, events: Events) -> None:
    """Assist: "Stand up an adjacent ally who has been knocked down." """
    events.append(Event(EventKind.ASSISTED, piece=piece.id, other=ally.id))
    stand_up(state, ally, "Assist", events)


_register(Op("assist", frozenset({"optional"}), options=_assist_options, apply=_assist_apply))


def interact_targets(state: GameState, piece: Piece, only: str = "") -> list[Choice]:
    """What `piece` may interact with: the scenario's things (point markers) and what traits
    offer (a rival's Tunnels)."""
    if piece.square is None:
        return []
    squares = world.reach_set(state, piece, "interact")
    found = list(state.setup.scenario.interactions(state, piece, squares))
    if only != "point_marker":
        for owner, hook in world.all_hooks(state):
            found.extend(hook.interactions(state, owner, piece, squares))
    if only == "point_marker":
        found = [t for t in found if _is_point_marker(state, t)]
    return found


def _is_point_marker(state: GameState, thing: Choice) -> bool:
    if not isinstance(thing, Interact):
        return False
    marker = state.pieces.get(thing.thing)
    return marker is not None and marker.role is Role.POINT


def interact(state: GameState, piece: Piece, thing: Choice, events: Events) -> None:
    """Interact: the scenario or the trait that offered `thing` says what happens."""
    if state.setup.scenario.interact(state, piece, thing, events):
        if _is_point_marker(state, thing):
            react(state, "interacted_point_marker", piece)
        return
    for owner, hook in world.all_hooks(state):
        if hook.interact(state, owner, piece, thing, events):
            return


def _interact_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    piece = state.pieces[frame.piece]
    return interact_targets(state, piece, str(frame.step.get("only", "")))


def _interact_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: Choice, events: Events
) -> None:
    interact(state, piece, choice, events)


_register(
    Op(
        "interact",
        frozenset({"optional", "only"}),
        options=_interact_options,
        apply=_interact_apply,
    )
)


# --------------------------------------------------------------------------- push and pull


def _adjacent_rivals(state: GameState, piece: Piece) -> list[Piece]:
    squares = world.adjacent_set(state, piece)
    return [p for p in state.on_map() if world.is_rival(p, piece) and p.square in squares]


def _push_options_for(state: GameState, piece: Piece, target: Piece, squares: int) -> list[Choice]:
    assert piece.square is not None and target.square is not None
    dests = geometry.push_destinations(state.board, target, state.on_map(), piece.square, squares)
    return [Push(target.id, _label(state, sq)) for sq in sorted({*dests, target.square})]


def _push_one_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    """Reign of Terror: "Push an adjacent rival 2 squares" (Away: each square farther)."""
    piece = state.pieces[frame.piece]
    n = frame.step.int("squares", 1)
    return [
        o for t in _adjacent_rivals(state, piece) for o in _push_options_for(state, piece, t, n)
    ]


def _push_each_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    """Divine Resolve: "Push all adjacent rivals 1 square away", one at a time in the order
    its owner chooses."""
    piece = state.pieces[frame.piece]
    n = frame.step.int("squares", 1)
    done = targets_so_far(state)
    return [
        o
        for t in _adjacent_rivals(state, piece)
        if t.id not in done
        for o in _push_options_for(state, piece, t, n)
    ]


def _push_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: Choice, events: Events
) -> None:
    assert isinstance(choice, Push)
    target = state.pieces[choice.piece]
    origin = _label(state, target.square) if target.square is not None else None
    target.square = state.board.parse_label(choice.square)
    update_steps(state, targets=(*targets_so_far(state), target.id), target=target.id)
    events.append(
        Event(
            EventKind.PUSHED, piece=piece.id, other=target.id, origin=origin, square=choice.square
        )
    )


_register(
    Op(
        "push_adjacent_rival",
        frozenset({"squares"}),
        options=_push_one_options,
        apply=_push_apply,
        reach=_play_out,
    )
)
_register(
    Op(
        "push_each_adjacent_rival",
        frozenset({"squares"}),
        options=_push_each_options,
        apply=_push_apply,
        repeats=True,
    )
)


def _pull_seen_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    """Mesmerize: "Pull a rival Dracula can see 2 squares" (Toward)."""
    piece = state.pieces[frame.piece]
    pieces = state.on_map()
    n = frame.step.int("squares", 1)
    found: list[Choice] = []
    for t in pieces:
        if not world.is_rival(t, piece) or t.square is None:
            continue
        if not geometry.can_see_piece(state.board, piece, t, pieces):
            continue
        dests = geometry.pull_destinations(state.board, t, pieces, piece, n)
        found.extend(Pull(t.id, _label(state, sq)) for sq in sorted({*dests, t.square}))
    return found


def _pull_target_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    """Fishing Net: "Pull the target 2 squares" toward its holder."""
    piece = state.pieces[frame.piece]
    found = nearest_steps(state)
    target = state.pieces.get(found[1].target or "") if found else None
    if target is None or target.square is None or piece.square is None:
        return []
    pieces = state.on_map()
    dests = geometry.pull_destinations(
        state.board, target, pieces, piece, frame.step.int("squares", 1)
    )
    return [Pull(target.id, _label(state, sq)) for sq in sorted({*dests, target.square})]


def _pull_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: Choice, events: Events
) -> None:
    assert isinstance(choice, Pull)
    target = state.pieces[choice.piece]
    origin = _label(state, target.square) if target.square is not None else None
    target.square = state.board.parse_label(choice.square)
    update_steps(state, target=target.id)
    events.append(
        Event(
            EventKind.PULLED, piece=piece.id, other=target.id, origin=origin, square=choice.square
        )
    )


def _pull_seen_reach(
    state: GameState, piece: Piece, s: Step, squares: set[int], rest: tuple[Step, ...]
) -> bool:
    """Mesmerize: a target already adjacent, or a rival it can pull to beside it."""
    assert piece.square is not None
    if _targets_from(state, piece, piece.square, None):
        return True
    near = state.board.adjacent_set(piece.square)
    frame = ChoiceFrame(piece.side, s, piece.id)
    return any(
        isinstance(o, Pull) and state.board.parse_label(o.square) in near
        for o in _pull_seen_options(state, frame)
    )


_register(
    Op(
        "pull_rival_seen",
        frozenset({"squares"}),
        options=_pull_seen_options,
        apply=_pull_apply,
        reach=_pull_seen_reach,
    )
)
_register(
    Op("pull_target", frozenset({"squares"}), options=_pull_target_options, apply=_pull_apply)
)


# --------------------------------------------------------------------------- placing


def _place_self_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    """Savage Hunger: "Choose a rival within 2 squares that The Cheetah can see and place her
    adjacent to them." """
    piece = state.pieces[frame.piece]
    if piece.square is None:
        return []
    board = state.board
    pieces = state.on_map()
    within = frame.step.int("within", 1)
    found: list[Choice] = []
    for t in pieces:
        if not world.is_rival(t, piece) or t.square is None:
            continue
        if board.distance(piece.square, t.square) > within:
            continue
        if not geometry.can_see_piece(board, piece, t, pieces):
            continue
        for sq in board.adjacent(t.square):
            if sq == piece.square or geometry.placeable(board, pieces, sq):
                found.append(Place(t.id, _label(state, sq)))
    return found


def _place_self_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: Choice, events: Events
) -> None:
    assert isinstance(choice, Place)
    piece.square = state.board.parse_label(choice.square)
    update_steps(state, target=choice.piece)
    events.append(
        Event(EventKind.PLACED_BESIDE, piece=piece.id, other=choice.piece, square=choice.square)
    )


def _place_self_reach(
    state: GameState, piece: Piece, s: Step, squares: set[int], rest: tuple[Step, ...]
) -> bool:
    """Placed beside a rival it then challenges: possible when there is such a rival."""
    frame = ChoiceFrame(piece.side, s, piece.id)
    return any(
        _from_square(state, piece, sq, lambda: bool(_place_self_options(state, frame)))
        for sq in squares
    )


_register(
    Op(
        "place_self_adjacent_to_rival",
        frozenset({"within"}),
        options=_place_self_options,
        apply=_place_self_apply,
        reach=_place_self_reach,
    )
)


def _choose_adjacent_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    """Abduct: "Choose an adjacent character." """
    piece = state.pieces[frame.piece]
    squares = world.adjacent_set(state, piece)
    return [
        Carry(p.id)
        for p in state.on_map()
        if p.id != piece.id and p.kind in KNOCKABLE_KINDS and p.square in squares
    ]


def _choose_adjacent_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: Choice, events: Events
) -> None:
    assert isinstance(choice, Carry)
    update_steps(state, chosen=choice.piece)
    events.append(Event(EventKind.CARRY_CHOSEN, piece=piece.id, other=choice.piece))


def _place_chosen_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    """Abduct: "Place that character in an adjacent square" (adjacent to The Creature)."""
    piece = state.pieces[frame.piece]
    found = nearest_steps(state)
    chosen = state.pieces.get(found[1].chosen or "") if found else None
    if chosen is None or chosen.square is None or piece.square is None:
        return []
    others = [p for p in state.on_map() if p.id != chosen.id]
    squares = world.adjacent_set(state, piece)
    return [
        Put(_label(state, sq))
        for sq in sorted(squares)
        if geometry.placeable(state.board, others, sq)
    ]


def _place_chosen_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: Choice, events: Events
) -> None:
    assert isinstance(choice, Put)
    found = nearest_steps(state)
    assert found is not None
    chosen = state.pieces[found[1].chosen or ""]
    chosen.square = state.board.parse_label(choice.square)
    events.append(Event(EventKind.CARRIED, piece=piece.id, other=chosen.id, square=choice.square))


_register(
    Op(
        "choose_adjacent_character",
        frozenset(),
        options=_choose_adjacent_options,
        apply=_choose_adjacent_apply,
        reach=_play_out,
    )
)
_register(
    Op(
        "place_chosen_adjacent",
        frozenset(),
        options=_place_chosen_options,
        apply=_place_chosen_apply,
    )
)


# --------------------------------------------------------------------------- tokens


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
        return [PlaceToken(free[0].id, _label(state, sq)) for sq in squares]
    return [PlaceToken(t.id, _label(state, sq)) for t in tokens for sq in squares if sq != t.square]


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
        bool(_from_square(state, piece, sq, lambda: possible_target(state, piece, rest)))
        for sq in squares
    )


_register(
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


_register(
    Op(
        "place_minion",
        frozenset(),
        options=_minion_place_options,
        apply=_token_apply,
        reach=_play_out,
    )
)
_register(
    Op(
        "minion_challenge",
        frozenset({"optional"}),
        options=_minion_challenge_options,
        apply=_minion_challenge_apply,
        reach=_minion_challenge_reach,
    )
)


# --------------------------------------------------------------------------- status cards


def status_in_play(state: GameState, card: str, side: str) -> bool:
    """Status Cards: "If a status card is in play, it cannot be given to a character until it
    has been discarded." Each side plays its own copy of the cards that come with its
    characters (Setup: "The player controlling The Bride takes the 4 The Bride status cards"),
    so rivals with the same character (Mixing Games allows it) each have a set: the card is in
    play when one of `side`'s characters has it."""
    return any(card in p.statuses for p in state.pieces.values() if p.side == side)


def free_statuses(state: GameState, group: str, side: str) -> list[str]:
    """The status cards of `group` not in play for `side`."""
    return [
        sid
        for sid, card in state.setup.statuses.items()
        if card.group == group and not status_in_play(state, sid, side)
    ]


def give_status(state: GameState, piece: Piece, card: str, events: Events) -> None:
    """Status Cards: put it by the character; it follows that card's rules."""
    piece.statuses = (*piece.statuses, card)
    events.append(
        Event(
            EventKind.STATUS_GIVEN, piece=piece.id, card=card, name=state.setup.statuses[card].name
        )
    )
    frames: list[Frame] = []
    for hook in world.hooks_of(state, piece):
        frames.extend(hook.on_status(state, piece, card))
    state.stack.extend(reversed(frames))


def _give_status(
    state: GameState, piece: Piece, frame: StepsFrame, s: Step, events: Events
) -> bool:
    card = str(s.get("card", ""))
    if card:
        if status_in_play(state, card, piece.side):
            raise CannotBeDone(f"the {state.setup.statuses[card].name} status card is in play")
        give_status(state, piece, card, events)
        return True
    group = str(s.get("group", ""))
    if not free_statuses(state, group, piece.side):
        raise CannotBeDone(f"every {group} status card is in play")
    state.stack.append(ChoiceFrame(piece.side, Step("_status", (("group", group),)), piece.id))
    return True


def _status_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    piece = state.pieces[frame.piece]
    group = str(frame.step.get("group", ""))
    return [GiveStatusChoice(sid) for sid in free_statuses(state, group, piece.side)]


def _status_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: Choice, events: Events
) -> None:
    assert isinstance(choice, GiveStatusChoice)
    give_status(state, piece, choice.card, events)


_register(Op("give_status", frozenset({"card", "group"}), run=_give_status))
# the choice of which card of a group `give_status` asks (not a word for content files)
_register(Op("_status", frozenset({"group"}), options=_status_options, apply=_status_apply))


# --------------------------------------------------------------------------- the cooldown track


def _shift_off(state: GameState, piece: Piece, frame: StepsFrame, s: Step, events: Events) -> bool:
    """Shift a named thing off your cooldown track (Inspire Courage: "Shift the Champion die
    off your cooldown track"): a die or a character component, by id."""
    kind = "die" if s.get("die") else "component"
    item = (kind, str(s.get(kind, "")))
    back = track.shift_off(state, piece.side, item, events)
    if back:
        state.stack.append(ReturnFrame(piece.side, tuple(back)))
    return True


_register(Op("shift_off", frozenset({"die", "component"}), run=_shift_off))

# The words a shift names and the things on a track they mean. A companion is not a
# character (Glossary, Ally: "The characters, companions, and minion tokens you control"):
# "shift a character" (Shovel) does not shift one (docs/rulings.md).
SHIFTABLE = {
    "token": ("token",),
    "die": ("die",),
    "character": ("character",),
    "companion": ("companion",),
    "marker": ("point",),
    "component": ("component",),
    "item": ("item",),
}


def _shift_down_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    """Lasso of Truth / Shovel: choose something of the named kinds on your cooldown track."""
    piece = state.pieces[frame.piece]
    kinds = {
        k
        for word in str(frame.step.get("kinds", "")).split(",")
        for k in SHIFTABLE.get(word.strip(), ())
    }
    found: list[Choice] = []
    for number, slot in enumerate(state.sides[piece.side].track, 1):
        for kind, ref in slot:
            if kind in kinds:
                option = ShiftDown(kind, ref, number)
                if option not in found:
                    found.append(option)
    return found


def _shift_down_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: Choice, events: Events
) -> None:
    assert isinstance(choice, ShiftDown)
    back = track.shift_down(
        state,
        piece.side,
        (choice.thing, choice.what),
        frame.step.int("amount", 1),
        events,
        at=choice.at,
    )
    if back:
        state.stack.append(ReturnFrame(piece.side, tuple(back)))


_register(
    Op(
        "shift_down",
        frozenset({"kinds", "amount", "if_won"}),
        options=_shift_down_options,
        apply=_shift_down_apply,
    )
)


def token_off_options(state: GameState, side: str) -> list[Choice]:
    """Made Me From Dead: "shift two ability tokens off your cooldown track" (one at a time):
    each token on the track, by color and number."""
    found: list[Choice] = []
    for number, slot in enumerate(state.sides[side].track, 1):
        for kind, ref in slot:
            option = ShiftOff(ref, number)
            if kind == "token" and option not in found:
                found.append(option)
    return found


def token_off(state: GameState, side: str, choice: Choice, events: Events) -> None:
    """Shift the ability token a `ShiftOff` choice names off `side`'s track, to the pool."""
    assert isinstance(choice, ShiftOff)
    slot = state.sides[side].track[choice.at - 1]
    slot.remove(("token", choice.color))
    track.returned(state, side, ("token", TokenColor(choice.color).value), events)


def _token_off_options(state: GameState, frame: ChoiceFrame) -> list[Choice]:
    return token_off_options(state, state.pieces[frame.piece].side)


def _token_off_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: Choice, events: Events
) -> None:
    token_off(state, piece.side, choice, events)


_register(
    Op(
        "shift_off_token",
        frozenset(),
        options=_token_off_options,
        apply=_token_off_apply,
    )
)

__all__ = [
    "BLOCKING_KINDS",
    "OPS",
    "CannotBeDone",
    "Kind",
    "Op",
    "assist",
    "challenge_candidates",
    "free_statuses",
    "give_status",
    "interact",
    "interact_targets",
    "move_piece",
    "place_token",
    "possible_target",
    "status_in_play",
    "token_off",
    "token_off_options",
    "token_place_options",
    "vocabulary",
]

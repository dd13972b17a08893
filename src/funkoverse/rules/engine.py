"""The game as a tree of decisions: who decides, what the legal choices are, and `apply`.

At every point there is one decider (a side, or `CHANCE`) and a finite list of
legal choices, each a stable string id ("move:c3", "challenge:villager",
"roll:win"). This list is the only source of legality: `apply` accepts exactly
what `legal_choices` lists and refuses anything else with a reason that cites
the rule. Chance nodes list their outcomes with exact probabilities.
"""

from __future__ import annotations

from fractions import Fraction

from funkoverse.rules import geometry
from funkoverse.rules.cards import Ability, Step, TokenColor
from funkoverse.rules.dice import win_probability
from funkoverse.rules.errors import IllegalChoice
from funkoverse.rules.frames import (
    ChoiceFrame,
    ReturnFrame,
    RollFrame,
    RoundEndFrame,
    StepsFrame,
)
from funkoverse.rules.pieces import KNOCKABLE_KINDS, Kind
from funkoverse.rules.state import CHANCE, GameState, Phase, Piece, Setup, TrackItem

ACTIONS_PER_TURN = 2  # Taking a Turn, step 2: "Do up to two actions"
BASIC_MOVE = 2  # Basic Moves: "up to 2 squares"
BASIC_CHALLENGE_DICE = 2  # Basic Challenge: "rolls 2 dice"
POINT_MARKER_SLOT = 4  # Point Markers: "on the 4 of their cooldown track"
KNOCKED_OUT_SLOT = 1  # Knocked Out: "on the 1 of their player's cooldown track"

Events = list[str]


# --------------------------------------------------------------------------- setup


def new_game(setup: Setup) -> GameState:
    """The state before the first decision: pieces off the map, pools filled from ability dots."""
    state = GameState(setup)
    seen: dict[str, int] = {}
    for team in setup.teams:
        for card in team.characters:
            seen[card.id] = seen.get(card.id, 0) + 1
    for team in setup.teams:
        side = state.sides[team.side]
        for card in team.characters:
            pid = card.id if seen[card.id] == 1 else f"{card.id}-{team.side}"
            kind = Kind.BASIC if card.basic else Kind.CHARACTER
            state.pieces[pid] = Piece(
                pid, kind, team.side, card, None, True, False, card.defense, card.elusive
            )
            # Setup: "Take one ability token to match each of the colored dots."
            for color in card.dots:
                side.pool[color] = side.pool.get(color, 0) + 1
    if setup.scenario.point_markers:
        for letter, square in sorted(setup.board.point_squares.items()):
            pid = f"point-{letter}"
            state.pieces[pid] = Piece(pid, Kind.MARKER, "", None, square, True, False, None)
    if setup.first_player is not None:
        _set_first_player(state, setup.first_player)
    _advance(state, [])
    return state


def _set_first_player(state: GameState, side: str) -> None:
    state.first_player = side
    state.to_act = side
    state.phase = Phase.PLACE


# --------------------------------------------------------------------------- questions


def decider(state: GameState) -> str | None:
    """The side that decides next, `CHANCE` for a roll or a flip, or None when the game is over."""
    if state.phase is Phase.OVER:
        return None
    if state.stack:
        top = state.stack[-1]
        if isinstance(top, RollFrame):
            return CHANCE
        if isinstance(top, ChoiceFrame):
            return top.decider
        if isinstance(top, ReturnFrame):
            return top.side
    if state.phase is Phase.FLIP:
        return CHANCE
    return state.to_act


def is_over(state: GameState) -> bool:
    return state.phase is Phase.OVER


def legal_choices(state: GameState) -> list[str]:
    """Every legal choice at this point, in a stable order (the one source of legality)."""
    if state.phase is Phase.OVER:
        return []
    if state.stack:
        top = state.stack[-1]
        if isinstance(top, RollFrame):
            return ["roll:win", "roll:lose"]
        if isinstance(top, ChoiceFrame):
            return _frame_options(state, top)
        if isinstance(top, ReturnFrame):
            return _return_options(state, top)
    if state.phase is Phase.FLIP:
        return [f"first:{side}" for side in state.seats]
    if state.phase is Phase.PLACE:
        return _place_options(state)
    if state.phase is Phase.CHOOSE:
        return [f"choose:{p.id}" for p in state.characters(state.to_act or "") if not p.exhausted]
    return _action_menu(state)


def chance_outcomes(state: GameState) -> list[tuple[str, Fraction]]:
    """The outcomes of a chance node with their exact probabilities (empty elsewhere)."""
    if state.phase is Phase.OVER:
        return []
    if state.stack and isinstance(state.stack[-1], RollFrame):
        p = roll_win_probability(state, state.stack[-1])
        outcomes = [("roll:win", p), ("roll:lose", 1 - p)]
        return [(c, q) for c, q in outcomes if q > 0]
    if not state.stack and state.phase is Phase.FLIP:
        share = Fraction(1, len(state.seats))
        return [(f"first:{side}", share) for side in state.seats]
    return []


def roll_win_probability(state: GameState, frame: RollFrame) -> Fraction:
    dice = state.setup.dice
    return win_probability([dice[d] for d in frame.attack], [dice[d] for d in frame.defense])


def defense_of(state: GameState, piece: Piece) -> int:
    """How many dice `piece` rolls to defend ("Defense")."""
    return piece.defense or 0


# --------------------------------------------------------------------------- apply


def apply(state: GameState, choice: str) -> Events:
    """Do `choice`, which must be legal; returns what happened, in words, citing the rules."""
    if choice not in legal_choices(state):
        from funkoverse.rules.explain import why_illegal

        raise IllegalChoice(why_illegal(state, choice))
    return apply_unchecked(state, choice)


def apply_unchecked(state: GameState, choice: str) -> Events:
    """`apply` for a choice already taken from `legal_choices` (search's fast path)."""
    events: Events = []
    head, _, rest = choice.partition(":")
    top = state.stack[-1] if state.stack else None
    if isinstance(top, RollFrame):
        state.stack.pop()
        _resolve_challenge(state, top, head == "roll" and rest == "win", events)
    elif isinstance(top, ChoiceFrame):
        state.stack.pop()
        _apply_frame_choice(state, top, head, rest, events)
    elif isinstance(top, ReturnFrame):
        pid, _, label = rest.partition(":")
        square = state.board.parse_label(label)
        piece = state.pieces[pid]
        _put_on_map(piece, square)
        events.append(
            f"{piece.name} returns to the map at {label} (Cooldown Tracks: characters that shift off "
            "return to your starting area)"
        )
        remaining = tuple(p for p in top.pieces if p != pid)
        state.stack[-1] = ReturnFrame(top.side, remaining)
        if not remaining:
            state.stack.pop()
    elif head == "first":
        _set_first_player(state, rest)
        events.append(f"The First Player marker lands {rest}: {rest} goes first.")
    elif head == "place":
        pid, _, label = rest.partition(":")
        piece = state.pieces[pid]
        _put_on_map(piece, state.board.parse_label(label))
        events.append(f"{piece.name} is placed at {label}.")
    elif head == "choose":
        _choose(state, rest, events)
    else:
        _apply_action(state, head, rest, events)
    _advance(state, events)
    return events


def _put_on_map(piece: Piece, square: int) -> None:
    piece.square = square
    piece.standing = True
    piece.placed = True


# --------------------------------------------------------------------------- setup placement


def _empty_squares(state: GameState, squares: tuple[int, ...] | list[int]) -> list[int]:
    pieces = state.on_map()
    return [sq for sq in squares if geometry.placeable(state.board, pieces, sq)]


def _arrival_squares(state: GameState, side: str) -> list[int]:
    """Where a character of `side` enters: an empty square of its starting area or, when the
    area is full, an empty square as close as possible to it (FAQ: starting area is full)."""
    area = _start_area(state, side)
    empty = _empty_squares(state, area)
    if empty:
        return empty
    board = state.board
    candidates = _empty_squares(state, list(board.squares))
    if not candidates or not area:
        return candidates
    nearest = min(min(board.distance(sq, a) for a in area) for sq in candidates)
    return [sq for sq in candidates if min(board.distance(sq, a) for a in area) == nearest]


def _start_area(state: GameState, side: str) -> tuple[int, ...]:
    for team in state.setup.teams:
        if team.side == side:
            return tuple(state.board.start_areas.get(team.area, ()))
    return ()


def _place_options(state: GameState) -> list[str]:
    side = state.to_act or ""
    waiting = [p for p in state.characters(side) if not p.placed]
    squares = _arrival_squares(state, side)
    label = state.board.label
    return [f"place:{p.id}:{label(sq)}" for p in waiting for sq in squares]


def _return_options(state: GameState, frame: ReturnFrame) -> list[str]:
    squares = _arrival_squares(state, frame.side)
    label = state.board.label
    return [f"return:{pid}:{label(sq)}" for pid in frame.pieces for sq in squares]


# --------------------------------------------------------------------------- taking a turn


def _choose(state: GameState, pid: str, events: Events) -> None:
    piece = state.pieces[pid]
    state.active = pid
    state.actions_left = ACTIONS_PER_TURN
    state.phase = Phase.ACT
    if piece.square is None:
        events.append(
            f"{piece.name} takes a turn from the cooldown track (Knocked Out: it may be chosen, "
            "does no actions, and is exhausted)."
        )
    else:
        events.append(f"{piece.name} takes a turn.")


def _action_menu(state: GameState) -> list[str]:
    """Taking a Turn, steps 2-3: the actions the active character can do now."""
    piece = state.pieces[state.active or ""]
    menu: list[str] = []
    if state.actions_left <= 0:
        return ["end"]
    board = state.board
    if piece.square is None:
        # Knocked Out: on the cooldown track it may do no actions, only what its card allows.
        menu.extend(_ability_options(state, piece))
    elif not piece.standing:
        # Rally: a knocked-down character cannot do actions; it may use both actions to stand.
        if state.actions_left == ACTIONS_PER_TURN:
            menu.append("rally")
        menu.extend(_ability_options(state, piece))
    else:
        pieces = state.on_map()
        for sq in sorted(geometry.move_destinations(board, piece, pieces, BASIC_MOVE)):
            menu.append(f"move:{board.label(sq)}")
        # FAQ: "you may always move less than the printed distance, to a minimum of zero."
        menu.append(f"move:{board.label(piece.square)}")
        for target in geometry.challenge_targets(board, piece, pieces, None):
            menu.append(f"challenge:{target.id}")
        for ally in _assist_targets(state, piece):
            menu.append(f"assist:{ally.id}")
        for thing in _interact_targets(state, piece):
            menu.append(f"interact:{thing.id}")
        menu.extend(_ability_options(state, piece))
    menu.append("end")
    return menu


def _assist_targets(state: GameState, piece: Piece) -> list[Piece]:
    """Assist: "Stand up an adjacent ally that has been knocked down"."""
    if piece.square is None:
        return []
    pieces = state.on_map()
    adjacent = set(
        geometry.adjacent_squares(state.board, piece.square, geometry.sight_blockers(piece, pieces))
    )
    return [
        p
        for p in pieces
        if p.id != piece.id
        and p.side == piece.side
        and p.kind in KNOCKABLE_KINDS
        and not p.standing
        and p.square in adjacent
    ]


def _interact_targets(state: GameState, piece: Piece) -> list[Piece]:
    """Interact: point markers on or adjacent to the character ("Point Markers")."""
    if piece.square is None or not state.setup.scenario.point_markers:
        return []
    pieces = state.on_map()
    adjacent = set(
        geometry.adjacent_squares(state.board, piece.square, geometry.sight_blockers(piece, pieces))
    )
    return [
        p
        for p in pieces
        if p.kind is Kind.MARKER and p.id.startswith("point-") and p.square in adjacent
    ]


def ability_cost(state: GameState, piece: Piece, ability: Ability) -> int:
    """The cost to pay now ("Cost"; increases and decreases come from cards)."""
    return ability.cost


def _ability_options(state: GameState, piece: Piece) -> list[str]:
    """Doing an Ability: the abilities whose token is in the pool, usable in the piece's condition."""
    card = piece.card
    if card is None or card.basic:
        return []
    pool = state.sides[piece.side].pool
    options = []
    for ability in card.abilities:
        if piece.square is None and not ability.while_knocked_out:
            continue
        if piece.square is not None and not piece.standing and not ability.while_knocked_down:
            continue
        cost = ability_cost(state, piece, ability)
        if cost >= 1 and pool.get(ability.color, 0) <= 0:
            continue
        if ability.challenge_action and not _has_possible_target(state, piece, ability):
            continue
        options.append(f"ability:{ability.id}")
    return options


def _has_possible_target(state: GameState, piece: Piece, ability: Ability) -> bool:
    """Abilities That Are Challenge Actions: "If there is no possible target, you cannot do a
    challenge action." Steps before the first challenge that can move the challenger make any
    rival on the map a possible target."""
    if piece.square is None:
        return False
    for s in ability.steps:
        if s.op == "challenge":
            reach = s.get("range")
            targets = geometry.challenge_targets(
                state.board, piece, state.on_map(), reach if isinstance(reach, int) else None
            )
            return bool(targets)
        if s.op in ("move", "place_self"):
            return any(p.side != piece.side and p.defense is not None for p in state.on_map())
    return False


def _apply_action(state: GameState, head: str, rest: str, events: Events) -> None:
    piece = state.pieces[state.active or ""]
    board = state.board
    if head == "end":
        _end_turn(state, events)
        return
    if head == "rally":
        state.actions_left = 0
        piece.standing = True
        events.append(f"{piece.name} rallies and stands up (Rally: both actions to stand up).")
        return
    state.actions_left -= 1
    if head == "move":
        square = board.parse_label(rest)
        if square == piece.square:
            events.append(f"{piece.name} moves 0 squares.")
        else:
            events.append(f"{piece.name} moves {board.label(piece.square or 0)} → {rest}.")
        piece.square = square
    elif head == "challenge":
        _declare_challenge(
            state, piece, state.pieces[rest], BASIC_CHALLENGE_DICE, "basic challenge", events
        )
    elif head == "assist":
        ally = state.pieces[rest]
        ally.standing = True
        events.append(f"{piece.name} assists {ally.name}, who stands up (Assist).")
    elif head == "interact":
        _interact(state, piece, state.pieces[rest], events)
    elif head == "ability":
        card = piece.card
        ability = card.ability(rest) if card is not None else None
        if ability is None:  # pragma: no cover - guarded by legal_choices
            raise IllegalChoice(f"{piece.name} has no ability '{rest}'")
        _pay(state, piece, ability, events)
        state.stack.append(
            StepsFrame(piece.id, ability.name, ability.steps, 0, None, piece.standing)
        )
    else:  # pragma: no cover - guarded by legal_choices
        raise IllegalChoice(f"unknown action '{head}'")


def _pay(state: GameState, piece: Piece, ability: Ability, events: Events) -> None:
    """Doing an Ability, step 2: the token goes onto the track before the ability's rules
    (FAQ: costs are paid as soon as the ability action is taken)."""
    cost = ability_cost(state, piece, ability)
    if cost < 1:
        events.append(f"{piece.name} does {ability.name} at no cost (Decreasing an Ability Cost).")
        return
    side = state.sides[piece.side]
    side.pool[ability.color] -= 1
    slot = min(cost, 4)  # Increasing an Ability Cost: above 4 goes on the 4
    side.track[slot - 1].append(("token", ability.color.value))
    events.append(
        f"{piece.name} does {ability.name}: a {ability.color.value} token goes on the {slot} of "
        "the cooldown track."
    )


def _interact(state: GameState, piece: Piece, thing: Piece, events: Events) -> None:
    """Point Markers: interact to gain a point; the marker goes on the 4 of your track."""
    side = state.sides[piece.side]
    side.points += 1
    thing.square = None
    side.track[POINT_MARKER_SLOT - 1].append(("point", thing.id))
    events.append(
        f"{piece.name} interacts with {thing.id}: +1 point; the marker goes on the 4 of the "
        "cooldown track (Point Markers)."
    )


def _end_turn(state: GameState, events: Events) -> None:
    """Taking a Turn, step 4: exhaust the character; the next side with a character to choose goes."""
    piece = state.pieces[state.active or ""]
    piece.exhausted = True
    events.append(f"{piece.name} is exhausted.")
    state.active = None
    state.actions_left = 0
    state.turns += 1
    current = state.to_act or state.seats[0]
    index = state.seats.index(current)
    order = state.seats[index + 1 :] + state.seats[: index + 1]
    for side in order:
        if any(not p.exhausted for p in state.characters(side)):
            state.to_act = side
            state.phase = Phase.CHOOSE
            return
    # Ending a Round: "When both players have exhausted all their characters, the round ends."
    state.to_act = None
    state.phase = Phase.CHOOSE
    state.stack.append(RoundEndFrame(0))


# --------------------------------------------------------------------------- challenges


def _declare_challenge(
    state: GameState, challenger: Piece, target: Piece, dice: int, source: str, events: Events
) -> None:
    """Resolving a Challenge: declare the target; both sides' dice are known before the roll."""
    standard = "standard"
    attack = (standard,) * dice
    defense = (standard,) * defense_of(state, target)
    frame = RollFrame(challenger.id, target.id, attack, defense, source)
    state.stack.append(frame)
    p = roll_win_probability(state, frame)
    events.append(
        f"{challenger.name} challenges {target.name} ({source}): {len(attack)} dice against "
        f"{len(defense)}, {float(p) * 100:.1f}% to win."
    )


def _resolve_challenge(state: GameState, frame: RollFrame, won: bool, events: Events) -> None:
    challenger = state.pieces[frame.challenger]
    target = state.pieces[frame.target]
    if not won:
        events.append(
            f"{challenger.name} loses the challenge: nothing happens (Resolving a Challenge)."
        )
        return
    if target.kind in KNOCKABLE_KINDS:
        if target.standing:
            target.standing = False
            events.append(f"{target.name} is knocked down (Knocked Down).")
        else:
            knock_out(state, target, challenger, events)
    elif target.kind is Kind.COMPANION:
        target.square = None
        state.sides[target.side].track[0].append(("companion", target.id))
        events.append(f"{target.name} loses and goes on the 1 of its cooldown track (Companions).")
    else:
        target.square = None
        events.append(
            f"{target.name} loses and is removed from the map (Challenging a Token or Minion "
            "Token or Marker)."
        )


def knock_out(state: GameState, victim: Piece, by: Piece | None, events: Events) -> None:
    """Knocked Out: remove from the map, onto the 1 of its player's cooldown track."""
    victim.square = None
    victim.standing = True
    state.sides[victim.side].track[KNOCKED_OUT_SLOT - 1].append(("character", victim.id))
    events.append(
        f"{victim.name} is knocked out and goes on the 1 of the cooldown track (Knocked Out)."
    )
    state.setup.scenario.on_knockout(state, by, victim)


# --------------------------------------------------------------------------- steps of abilities


def _run_steps(state: GameState, frame: StepsFrame, events: Events) -> None:
    """Follow an ability's parts in sequence; a part that cannot be done ends it, and so does
    being knocked down in the middle of it (FAQ: knocked down in the middle of an action)."""
    piece = state.pieces[frame.piece]
    if frame.pc >= len(frame.steps):
        state.stack.pop()
        return
    if frame.started_standing and (not piece.standing or piece.square is None):
        events.append(f"{frame.source} stops: {piece.name} was knocked down in the middle of it.")
        state.stack.pop()
        return
    s = frame.steps[frame.pc]
    state.stack[-1] = StepsFrame(
        frame.piece, frame.source, frame.steps, frame.pc + 1, frame.target, frame.started_standing
    )
    _do_step(state, piece, s, events)


def _do_step(state: GameState, piece: Piece, s: Step, events: Events) -> None:
    optional = bool(s.get("optional", False))
    if s.op == "move":
        state.stack.append(
            ChoiceFrame(piece.side, "move", piece.id, s.int("squares", 0), None, optional)
        )
    elif s.op == "challenge":
        reach = s.get("range")
        state.stack.append(
            ChoiceFrame(
                piece.side,
                "target",
                piece.id,
                s.int("dice", BASIC_CHALLENGE_DICE),
                reach if isinstance(reach, int) else None,
                optional,
            )
        )
    elif s.op == "stand_up":
        if not piece.standing:
            piece.standing = True
            events.append(f"{piece.name} stands up.")
    elif s.op == "assist":
        state.stack.append(ChoiceFrame(piece.side, "assist", piece.id, 0, None, optional))
    elif s.op == "interact":
        state.stack.append(ChoiceFrame(piece.side, "interact", piece.id, 0, None, optional))
    else:
        raise ValueError(f"step '{s.op}' is not in the effects vocabulary")


def _frame_options(state: GameState, frame: ChoiceFrame) -> list[str]:
    piece = state.pieces[frame.piece]
    board = state.board
    options: list[str] = []
    if piece.square is not None:
        pieces = state.on_map()
        if frame.purpose == "move":
            for sq in sorted(geometry.move_destinations(board, piece, pieces, frame.amount)):
                options.append(f"move:{board.label(sq)}")
            options.append(f"move:{board.label(piece.square)}")
        elif frame.purpose == "target":
            for target in geometry.challenge_targets(board, piece, pieces, frame.reach):
                options.append(f"target:{target.id}")
        elif frame.purpose == "assist":
            options.extend(f"assist:{p.id}" for p in _assist_targets(state, piece))
        elif frame.purpose == "interact":
            options.extend(f"interact:{p.id}" for p in _interact_targets(state, piece))
    if options and frame.optional:
        options.append("skip")
    return options


def _apply_frame_choice(
    state: GameState, frame: ChoiceFrame, head: str, rest: str, events: Events
) -> None:
    piece = state.pieces[frame.piece]
    if head == "skip":
        return
    if head == "move":
        square = state.board.parse_label(rest)
        events.append(f"{piece.name} moves to {rest}.")
        piece.square = square
    elif head == "target":
        target = state.pieces[rest]
        _set_frame_target(state, rest)
        _declare_challenge(state, piece, target, frame.amount, _current_source(state), events)
    elif head == "assist":
        ally = state.pieces[rest]
        ally.standing = True
        events.append(f"{piece.name} assists {ally.name}, who stands up (Assist).")
    elif head == "interact":
        _interact(state, piece, state.pieces[rest], events)


def _set_frame_target(state: GameState, target: str) -> None:
    for i in range(len(state.stack) - 1, -1, -1):
        f = state.stack[i]
        if isinstance(f, StepsFrame):
            state.stack[i] = StepsFrame(
                f.piece, f.source, f.steps, f.pc, target, f.started_standing
            )
            return


def _current_source(state: GameState) -> str:
    for f in reversed(state.stack):
        if isinstance(f, StepsFrame):
            return f.source
    return "challenge"


# --------------------------------------------------------------------------- ending a round


def _run_round_end(state: GameState, frame: RoundEndFrame, events: Events) -> None:
    first = state.first_player or state.seats[0]
    index = state.seats.index(first)
    order = state.seats[index:] + state.seats[:index]
    if frame.stage == 0:
        state.stack[-1] = RoundEndFrame(1)
        returns: list[ReturnFrame] = []
        for side in order:
            returning = _cooldown(state, side, events)
            if returning:
                returns.append(ReturnFrame(side, tuple(returning)))
        # the first player's returns are decided first
        state.stack.extend(reversed(returns))
    elif frame.stage == 1:
        state.stack[-1] = RoundEndFrame(2)
        state.setup.scenario.on_round_end(state)
    else:
        state.stack.pop()
        for p in state.pieces.values():
            p.exhausted = False
        nxt = order[1] if len(order) > 1 else order[0]
        state.first_player = nxt
        state.to_act = nxt
        state.round += 1
        state.phase = Phase.CHOOSE
        events.append(
            f"Round {state.round} begins: exhausted markers removed; the First Player marker "
            f"passes to {nxt} (Ending a Round)."
        )


def _cooldown(state: GameState, side: str, events: Events) -> list[str]:
    """Cooldown: shift everything down one number; what shifts off the 1 returns to play."""
    track = state.sides[side].track
    off = track[0]
    track[:] = [*track[1:], []]
    returning: list[str] = []
    for item in off:
        returning.extend(_shift_off(state, side, item, events))
    return returning


def _shift_off(state: GameState, side: str, item: TrackItem, events: Events) -> list[str]:
    kind, ref = item
    side_state = state.sides[side]
    if kind == "token":
        color = TokenColor(ref)
        side_state.pool[color] = side_state.pool.get(color, 0) + 1
        events.append(f"{side}'s {ref} token shifts off the cooldown track back to the pool.")
    elif kind in ("character", "companion"):
        return [ref]
    elif kind == "point":
        marker = state.pieces[ref]
        marker.square = state.board.point_squares[ref.removeprefix("point-")]
        events.append(f"{ref} shifts off and returns to its setup square (Point Markers).")
    return []


def begin_round_one(state: GameState) -> None:
    """After placement: round 1 starts with the first player (Setup)."""
    state.round = 1
    state.to_act = state.first_player
    state.phase = Phase.CHOOSE


# --------------------------------------------------------------------------- the driver


def _advance(state: GameState, events: Events) -> None:
    """Do everything that needs no decision, until a decision (or the end) is reached."""
    while True:
        if state.winner is not None:
            if state.phase is not Phase.OVER:
                state.phase = Phase.OVER
                state.stack.clear()
                state.active = None
                events.append(f"{state.winner} wins.")
            return
        if state.stack:
            top = state.stack[-1]
            if isinstance(top, StepsFrame):
                _run_steps(state, top, events)
                continue
            if isinstance(top, RoundEndFrame):
                _run_round_end(state, top, events)
                continue
            if isinstance(top, ChoiceFrame):
                if _frame_options(state, top):
                    return
                state.stack.pop()
                if not top.optional:
                    _abort_steps(state, events)
                continue
            if isinstance(top, ReturnFrame):
                if top.pieces and _return_options(state, top):
                    return
                state.stack.pop()
                continue
            return  # RollFrame: chance decides
        if state.phase is Phase.FLIP:
            return
        if state.phase is Phase.PLACE:
            if _place_options(state):
                return
            side = state.to_act or state.seats[0]
            if any(not p.placed for p in state.characters(side)):
                return  # pragma: no cover - nowhere to place at all
            first = state.first_player or state.seats[0]
            index = state.seats.index(first)
            order = state.seats[index:] + state.seats[:index]
            pos = order.index(side)
            if pos + 1 < len(order):
                state.to_act = order[pos + 1]
            else:
                begin_round_one(state)
            continue
        if state.phase is Phase.ACT:
            menu = _action_menu(state)
            if menu == ["end"]:
                _end_turn(state, events)
                continue
            return
        return


def _abort_steps(state: GameState, events: Events) -> None:
    """Abilities: "If the ability contains a part that cannot be done, the ability ends"."""
    if state.stack:
        frame = state.stack[-1]
        if isinstance(frame, StepsFrame):
            state.stack.pop()
            events.append(f"{frame.source} ends: a part of it cannot be done.")

def new_game_at(
    setup: Setup,
    placements: dict[str, int],
    first_player: str,
    knocked_down: tuple[str, ...] = (),
) -> GameState:
    """A game in round 1 with pieces already on given squares: for puzzles, tests and analysis.

    Pieces not in `placements` start knocked out on the 1 of their cooldown track.
    """
    state = new_game(Setup(setup.board, setup.teams, setup.scenario, setup.dice, first_player))
    for pid, piece in state.pieces.items():
        if not piece.is_character:
            continue
        if pid in placements:
            _put_on_map(piece, placements[pid])
            piece.standing = pid not in knocked_down
        else:
            piece.placed = True
            piece.square = None
            state.sides[piece.side].track[KNOCKED_OUT_SLOT - 1].append(("character", pid))
    unknown = set(placements) - set(state.pieces)
    if unknown:
        raise ValueError(f"no piece named {', '.join(sorted(unknown))} in this setup")
    state.stack.clear()
    begin_round_one(state)
    _advance(state, [])
    return state

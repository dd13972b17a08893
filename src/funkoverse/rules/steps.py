"""The effects vocabulary: what each step of an ability, item or action does.

A step either happens at once or asks its owner a decision (a `ChoiceFrame`
whose options this module lists). Abilities are followed in sequence; a part
that cannot be done ends the ability ("Abilities"); being knocked down in the
middle of an ability stops it (FAQ, Timing).
"""

from __future__ import annotations

from collections.abc import Callable

from funkoverse.rules import geometry, track, world
from funkoverse.rules.cards import Step, TokenColor
from funkoverse.rules.dice import win_probability
from funkoverse.rules.frames import ChoiceFrame, Frame, ReturnFrame, RollFrame, StepsFrame
from funkoverse.rules.hooks import Hook
from funkoverse.rules.pieces import BLOCKING_KINDS, KNOCKABLE_KINDS, Kind
from funkoverse.rules.state import GameState, Piece

Events = list[str]
BASIC_CHALLENGE_DICE = 2  # Basic Challenge: "rolls 2 dice"
KNOCKED_OUT_SLOT = 1  # Knocked Out: "on the 1 of their player's cooldown track"


class CannotBeDone(Exception):
    """A part of an ability that cannot be done: the ability ends."""


# --------------------------------------------------------------------------- frames on the stack


def nearest_steps(state: GameState) -> tuple[int, StepsFrame] | None:
    for i in range(len(state.stack) - 1, -1, -1):
        f = state.stack[i]
        if isinstance(f, StepsFrame):
            return i, f
    return None


def update_steps(state: GameState, **changes: object) -> None:
    """Record something in the innermost running ability (its target, a challenge result)."""
    found = nearest_steps(state)
    if found is None:
        return
    i, f = found
    values = {
        "piece": f.piece,
        "source": f.source,
        "steps": f.steps,
        "pc": f.pc,
        "target": f.target,
        "started_standing": f.started_standing,
        "won": f.won,
        "targets": f.targets,
        "chosen": f.chosen,
    }
    values.update(changes)
    state.stack[i] = StepsFrame(**values)  # type: ignore[arg-type]


def current_source(state: GameState) -> str:
    found = nearest_steps(state)
    return found[1].source if found else "challenge"


# --------------------------------------------------------------------------- standing up, events


def stand_up(state: GameState, piece: Piece, why: str, events: Events) -> None:
    """Stand `piece` up and tell the traits that listen (Predatory Senses)."""
    if piece.standing or piece.square is None:
        return
    piece.standing = True
    events.append(f"{piece.name} stands up ({why}).")
    react(state, "stood_up", piece)


def react(state: GameState, event: str, subject: Piece) -> None:
    """Traits that listen to `event`: their decisions go on the stack, the current player's
    first (FAQ, Timing: effects of different players happen in turn order)."""
    frames: list[Frame] = []
    for owner, hook in _in_turn_order(state):
        frames.extend(hook.react(state, owner, event, subject))
    state.stack.extend(reversed(frames))


def _in_turn_order(state: GameState) -> list[tuple[Piece, Hook]]:
    current = state.to_act or state.first_player or state.seats[0]
    start = state.seats.index(current) if current in state.seats else 0
    order = {side: (i - start) % len(state.seats) for i, side in enumerate(state.seats)}
    pairs = list(world.all_hooks(state))
    pairs.sort(key=lambda pair: order.get(pair[0].side, 0))
    return pairs


# --------------------------------------------------------------------------- challenges


def attack_dice(state: GameState, challenger: Piece, target: Piece, s: Step) -> int:
    """Dice for a challenge step: "challenge N", plus what the card adds."""
    dice = s.int("dice", BASIC_CHALLENGE_DICE)
    bonus = s.get("bonus")
    if bonus == "target_defense":  # Fight for Justice
        dice += world.defense_of(state, target)
    elif bonus == "highest_point_marker":  # Ferocious Slash
        dice += highest_point_marker(state)
    if not target.standing:
        dice += s.int("extra_vs_knocked_down", 0)  # Strangle
    return dice


def highest_point_marker(state: GameState) -> int:
    """The highest number where a point marker is on any cooldown track (0 when none is)."""
    best = 0
    for side in state.sides.values():
        for number, slot in enumerate(side.track, 1):
            if any(kind == "point" for kind, _ in slot):
                best = max(best, number)
    return best


def declare_challenge(
    state: GameState, challenger: Piece, target: Piece, dice: int, source: str, events: Events
) -> None:
    """Resolving a Challenge: declare the target; then any "you may" before the dice; roll."""
    frame = RollFrame(
        challenger.id,
        target.id,
        ("standard",) * dice,
        ("standard",) * world.defense_of(state, target),
        source,
    )
    update_steps(state, target=target.id, targets=(*_targets(state), target.id))
    state.stack.append(frame)
    events.append(
        f"{challenger.name} challenges {target.name} ({source}): {dice} dice against "
        f"{len(frame.defense)}."
    )
    before_roll(state)


def _targets(state: GameState) -> tuple[str, ...]:
    found = nearest_steps(state)
    return found[1].targets if found else ()


def before_roll(state: GameState) -> None:
    """Ask each hook once, in turn order, whether it wants a say before this roll."""
    roll = state.stack[-1]
    assert isinstance(roll, RollFrame)
    frames: list[Frame] = []
    asked = list(roll.asked)
    for owner, hook in _in_turn_order(state):
        key = f"{owner.id}/{hook.name}"
        if key in asked:
            continue
        asked.append(key)
        frames.extend(hook.before_roll(state, owner, roll))
    roll = state.stack[-1]
    assert isinstance(roll, RollFrame)
    state.stack[-1] = RollFrame(
        roll.challenger, roll.target, roll.attack, roll.defense, roll.source, tuple(asked)
    )
    state.stack.extend(reversed(frames))


def nearest_roll(state: GameState) -> tuple[int, RollFrame] | None:
    for i in range(len(state.stack) - 1, -1, -1):
        f = state.stack[i]
        if isinstance(f, RollFrame):
            return i, f
    return None


def roll_probability(state: GameState, roll: RollFrame) -> float:
    dice = state.setup.dice
    return float(win_probability([dice[d] for d in roll.attack], [dice[d] for d in roll.defense]))


def resolve_challenge(state: GameState, roll: RollFrame, won: bool, events: Events) -> None:
    """Knocked Down / Knocked Out / tokens removed; nothing happens when the challenger loses."""
    challenger = state.pieces[roll.challenger]
    target = state.pieces[roll.target]
    update_steps(state, won=won)
    if not won:
        events.append(f"{challenger.name} loses the challenge: nothing happens.")
        return
    if target.square is None:
        return
    if target.kind in KNOCKABLE_KINDS:
        if target.standing:
            target.standing = False
            events.append(f"{target.name} is knocked down (Knocked Down).")
        else:
            knock_out(state, target, challenger, events)
    elif target.kind is Kind.COMPANION:
        target.square = None
        track.place(state, target.side, ("companion", target.id), 1)
        events.append(f"{target.name} loses and goes on the 1 of its cooldown track (Companions).")
    else:
        target.square = None
        events.append(
            f"{target.name} loses and is removed from the map (Challenging a Token or Minion "
            "Token or Marker)."
        )


def knock_out(state: GameState, victim: Piece, by: Piece | None, events: Events) -> None:
    """Knocked Out: remove from the map, onto the 1 of its player's cooldown track. Tokens it
    placed stay; status cards and items stay with it."""
    credit = by
    if by is not None and by.owner and by.kind is not Kind.CHARACTER:
        # Tokens, minion tokens and companions: credit the character who put them into play
        credit = state.pieces.get(by.owner, by)
    state.setup.scenario.on_knockout(state, credit, victim)  # while it is still in its square
    victim.square = None
    victim.standing = True
    track.place(state, victim.side, ("character", victim.id), KNOCKED_OUT_SLOT)
    events.append(f"{victim.name} is knocked out: onto the 1 of the cooldown track (Knocked Out).")
    react(state, "knocked_out", victim)


# --------------------------------------------------------------------------- running steps


def run(state: GameState, frame: StepsFrame, events: Events) -> None:
    """Do the next step of the ability on top of the stack."""
    piece = state.pieces[frame.piece]
    if frame.pc >= len(frame.steps):
        state.stack.pop()
        return
    if frame.pc == 0 and frame.started_standing and piece.square is None and not frame.targets:
        # Nothing has happened yet: a character doing this from the cooldown track (The Blood
        # Is the Life) started off the map, not standing on it, so it is not "knocked down in
        # the middle" of it.
        update_steps(state, started_standing=False)
        return
    if frame.started_standing and (not piece.standing or piece.square is None):
        events.append(f"{frame.source} stops: {piece.name} was knocked down in the middle of it.")
        state.stack.pop()
        return
    s = frame.steps[frame.pc]
    if s.get("if_won") and frame.won is not True:
        update_steps(state, pc=frame.pc + 1)
        return
    if s.op == "challenge" and s.get("target") == "same":
        s = Step("challenge_same", s.params)
    repeat = s.op in REPEATING
    if not repeat:
        update_steps(state, pc=frame.pc + 1)
    try:
        if s.op in IMMEDIATE:
            done = IMMEDIATE[s.op](state, piece, frame, s, events)
            if repeat and done:
                update_steps(state, pc=frame.pc + 1)
        elif s.op in OPTIONS:
            choice = ChoiceFrame(piece.side, s, piece.id, bool(s.get("optional", False)))
            if repeat and not OPTIONS[s.op](state, choice):
                update_steps(state, pc=frame.pc + 1)
                return
            state.stack.append(choice)
        else:
            raise ValueError(f"step '{s.op}' is not in the effects vocabulary")
    except CannotBeDone as why:
        abort(state, str(why), events)


def abort(state: GameState, why: str, events: Events) -> None:
    """Abilities: "If the ability contains a part that cannot be done, the ability ends"."""
    found = nearest_steps(state)
    if found is None:
        return
    i, frame = found
    del state.stack[i:]
    events.append(f"{frame.source} ends: {why or 'a part of it cannot be done'}.")


# -- immediate steps ---------------------------------------------------------


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
            events.append(f"{piece.name} shifts off the cooldown track ({frame.source}).")
            state.stack.append(ReturnFrame(piece.side, tuple(back)))
    else:
        stand_up(state, piece, frame.source, events)
    return True


def _same_target_challenge(
    state: GameState, piece: Piece, frame: StepsFrame, s: Step, events: Events
) -> bool:
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


def _shift_off(state: GameState, piece: Piece, frame: StepsFrame, s: Step, events: Events) -> bool:
    """Shift a named thing off your cooldown track (Inspire Courage: the Champion die)."""
    kind, _, ref = str(s.get("thing", "")).partition(":")
    back = track.shift_off(state, piece.side, (kind, ref), events)
    if track.position(state, piece.side, (kind, ref)) is None and not back:
        return True
    state.stack.append(ReturnFrame(piece.side, tuple(back)))
    return True


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
    state.stack.append(ChoiceFrame(piece.side, Step("status", (("group", group),)), piece.id))
    return True


def status_in_play(state: GameState, card: str, side: str) -> bool:
    """Status Cards: "If a status card is in play, it cannot be given to a character until it
    has been discarded." Each side plays its own copy of the cards that come with its
    characters (Setup: "The player controlling The Bride takes the 4 The Bride status cards"),
    so rivals with the same character (Mixing Games allows it) each have a set: the card is in
    play when one of `side`'s characters has it."""
    return any(card in p.statuses for p in state.pieces.values() if p.side == side)


def free_statuses(state: GameState, group: str, side: str) -> list[str]:
    return [
        sid
        for sid, card in state.setup.statuses.items()
        if card.group == group and not status_in_play(state, sid, side)
    ]


def give_status(state: GameState, piece: Piece, card: str, events: Events) -> None:
    """Status Cards: put it by the character; it follows that card's rules."""
    piece.statuses = (*piece.statuses, card)
    events.append(f"{piece.name} is given the {state.setup.statuses[card].name} status card.")
    frames: list[Frame] = []
    for hook in world.hooks_of(state, piece):
        frames.extend(hook.on_status(state, piece, card))
    state.stack.extend(reversed(frames))


def discard_status(state: GameState, piece: Piece, card: str, events: Events) -> None:
    """Discard: taken from the character, available to be given again."""
    if card in piece.statuses:
        statuses = list(piece.statuses)
        statuses.remove(card)
        piece.statuses = tuple(statuses)
        events.append(f"{piece.name} discards the {state.setup.statuses[card].name} status card.")


IMMEDIATE: dict[str, Callable[[GameState, Piece, StepsFrame, Step, Events], bool]] = {
    "stand_up": _stand_up,
    "stand_up_or_shift_off": _stand_up_or_shift_off,
    "challenge_same": _same_target_challenge,
    "shift_off": _shift_off,
    "give_status": _give_status,
}


# -- steps that ask a decision -------------------------------------------------


def options(state: GameState, frame: ChoiceFrame) -> list[str]:
    """The legal options of a decision frame ("skip" last where the card says "you may")."""
    if frame.hook == "scenario":
        found = state.setup.scenario.choices(state, frame.decider, frame.purpose)
        if found and frame.optional:
            found.append("skip")
        return found
    piece = state.pieces[frame.piece]
    if frame.hook:
        hook = world.find_hook(state, piece, frame.hook)
        found = hook.choices(state, piece, frame.purpose) if hook is not None else []
    else:
        found = OPTIONS[frame.purpose](state, frame)
    if found and frame.optional:
        found.append("skip")
    return found


def apply_option(state: GameState, frame: ChoiceFrame, choice: str, events: Events) -> None:
    if frame.hook == "scenario":
        if choice != "skip":
            events.extend(state.setup.scenario.choose(state, frame.decider, frame.purpose, choice))
        return
    piece = state.pieces[frame.piece]
    if choice == "skip":
        events.append(f"{piece.name}: declined.")
        return
    if frame.hook:
        hook = world.find_hook(state, piece, frame.hook)
        if hook is not None:
            events.extend(hook.choose(state, piece, frame.purpose, choice))
        return
    APPLY[frame.purpose](state, frame, piece, choice, events)


def _label(state: GameState, sq: int) -> str:
    return state.board.label(sq)


def _move_options(state: GameState, frame: ChoiceFrame) -> list[str]:
    piece = state.pieces[frame.piece]
    return [
        f"move:{_label(state, sq)}"
        for sq in world.move_options(state, piece, frame.step.int("squares"))
    ]


def _move_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: str, events: Events
) -> None:
    label = choice.partition(":")[2]
    square = state.board.parse_label(label)
    if piece.square == square:
        events.append(f"{piece.name} moves 0 squares.")
    else:
        events.append(f"{piece.name} moves to {label}.")
    piece.square = square


def challenge_candidates(state: GameState, frame: ChoiceFrame) -> list[Piece]:
    piece = state.pieces[frame.piece]
    reach = frame.step.get("range")
    found = geometry.challenge_targets(
        state.board, piece, state.on_map(), reach if isinstance(reach, int) else None
    )
    if frame.step.get("target") == "different":
        before = _targets(state)
        found = [t for t in found if t.id not in before]
    return found


def _challenge_options(state: GameState, frame: ChoiceFrame) -> list[str]:
    return [f"target:{t.id}" for t in challenge_candidates(state, frame)]


def _challenge_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: str, events: Events
) -> None:
    target = state.pieces[choice.partition(":")[2]]
    dice = attack_dice(state, piece, target, frame.step)
    declare_challenge(state, piece, target, dice, current_source(state), events)


def _each_within_options(state: GameState, frame: ChoiceFrame) -> list[str]:
    """She Breathes: "each rival within 2 squares", in the order its owner chooses; a rival
    that becomes a target is challenged too, one that no longer is, is not (FAQ)."""
    piece = state.pieces[frame.piece]
    if piece.square is None:
        return []
    within = frame.step.int("within", 1)
    done = _targets(state)
    board = state.board
    return [
        f"target:{p.id}"
        for p in state.on_map()
        if p.side != piece.side
        and p.kind in (Kind.CHARACTER, Kind.BASIC, Kind.MINION, Kind.COMPANION)
        and p.id not in done
        and p.square is not None
        and board.distance(piece.square, p.square) <= within
    ]


def _assist_options(state: GameState, frame: ChoiceFrame) -> list[str]:
    piece = state.pieces[frame.piece]
    squares = world.reach_set(state, piece, "assist")
    return [f"assist:{p.id}" for p in world.knocked_down_allies_in(state, piece, squares)]


def _assist_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: str, events: Events
) -> None:
    ally = state.pieces[choice.partition(":")[2]]
    events.append(f"{piece.name} assists {ally.name}.")
    stand_up(state, ally, "Assist", events)


def interact_targets(state: GameState, piece: Piece, only: str = "") -> list[str]:
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
        found = [t for t in found if t.startswith("point-")]
    return found


def _interact_options(state: GameState, frame: ChoiceFrame) -> list[str]:
    piece = state.pieces[frame.piece]
    return [
        f"interact:{t}" for t in interact_targets(state, piece, str(frame.step.get("only", "")))
    ]


def interact(state: GameState, piece: Piece, thing: str, events: Events) -> None:
    """Interact: the scenario or the trait that offered `thing` says what happens."""
    if state.setup.scenario.interact(state, piece, thing, events):
        if thing.startswith("point-"):
            react(state, "interacted_point_marker", piece)
        return
    for owner, hook in world.all_hooks(state):
        if hook.interact(state, owner, piece, thing, events):
            return


def _interact_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: str, events: Events
) -> None:
    interact(state, piece, choice.partition(":")[2], events)


def _adjacent_rivals(state: GameState, piece: Piece) -> list[Piece]:
    squares = world.adjacent_set(state, piece)
    return [
        p
        for p in state.on_map()
        if p.side != piece.side
        and p.kind in BLOCKING_KINDS
        and p.square in squares
        and p.id != piece.id
    ]


def _push_options_for(state: GameState, piece: Piece, target: Piece, squares: int) -> list[str]:
    assert piece.square is not None and target.square is not None
    dests = geometry.push_destinations(state.board, target, state.on_map(), piece.square, squares)
    return [f"push:{target.id}:{_label(state, sq)}" for sq in sorted({*dests, target.square})]


def _push_one_options(state: GameState, frame: ChoiceFrame) -> list[str]:
    """Reign of Terror: "Push an adjacent rival 2 squares" (Away: each square farther)."""
    piece = state.pieces[frame.piece]
    n = frame.step.int("squares", 1)
    return [
        o for t in _adjacent_rivals(state, piece) for o in _push_options_for(state, piece, t, n)
    ]


def _push_each_options(state: GameState, frame: ChoiceFrame) -> list[str]:
    """Divine Resolve: "Push all adjacent rivals 1 square away", one at a time in the order
    its owner chooses."""
    piece = state.pieces[frame.piece]
    n = frame.step.int("squares", 1)
    done = _targets(state)
    return [
        o
        for t in _adjacent_rivals(state, piece)
        if t.id not in done
        for o in _push_options_for(state, piece, t, n)
    ]


def _push_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: str, events: Events
) -> None:
    _, pid, label = choice.split(":")
    target = state.pieces[pid]
    target.square = state.board.parse_label(label)
    update_steps(state, targets=(*_targets(state), pid), target=pid)
    events.append(f"{piece.name} pushes {target.name} to {label}.")


def _pull_seen_options(state: GameState, frame: ChoiceFrame) -> list[str]:
    """Mesmerize: "Pull a rival Dracula can see 2 squares" (Toward)."""
    piece = state.pieces[frame.piece]
    pieces = state.on_map()
    n = frame.step.int("squares", 1)
    found: list[str] = []
    for t in pieces:
        if t.side == piece.side or t.kind not in BLOCKING_KINDS or t.square is None:
            continue
        if not geometry.can_see_piece(state.board, piece, t, pieces):
            continue
        dests = geometry.pull_destinations(state.board, t, pieces, piece, n)
        found.extend(f"pull:{t.id}:{_label(state, sq)}" for sq in sorted({*dests, t.square}))
    return found


def _pull_target_options(state: GameState, frame: ChoiceFrame) -> list[str]:
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
    return [f"pull:{target.id}:{_label(state, sq)}" for sq in sorted({*dests, target.square})]


def _pull_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: str, events: Events
) -> None:
    _, pid, label = choice.split(":")
    target = state.pieces[pid]
    target.square = state.board.parse_label(label)
    update_steps(state, target=pid)
    events.append(f"{piece.name} pulls {target.name} to {label}.")


def _place_self_options(state: GameState, frame: ChoiceFrame) -> list[str]:
    """Savage Hunger: "Choose a rival within 2 squares that The Cheetah can see and place her
    adjacent to them." """
    piece = state.pieces[frame.piece]
    if piece.square is None:
        return []
    board = state.board
    pieces = state.on_map()
    within = frame.step.int("within", 1)
    found: list[str] = []
    for t in pieces:
        if t.side == piece.side or t.kind not in BLOCKING_KINDS or t.square is None:
            continue
        if board.distance(piece.square, t.square) > within:
            continue
        if not geometry.can_see_piece(board, piece, t, pieces):
            continue
        for sq in board.adjacent(t.square):
            if sq == piece.square or geometry.placeable(board, pieces, sq):
                found.append(f"place:{t.id}:{_label(state, sq)}")
    return found


def _place_self_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: str, events: Events
) -> None:
    _, pid, label = choice.split(":")
    piece.square = state.board.parse_label(label)
    update_steps(state, target=pid)
    events.append(f"{piece.name} is placed at {label}, adjacent to {state.pieces[pid].name}.")


def _choose_adjacent_options(state: GameState, frame: ChoiceFrame) -> list[str]:
    """Abduct: "Choose an adjacent character." """
    piece = state.pieces[frame.piece]
    squares = world.adjacent_set(state, piece)
    return [
        f"carry:{p.id}"
        for p in state.on_map()
        if p.id != piece.id and p.kind in KNOCKABLE_KINDS and p.square in squares
    ]


def _choose_adjacent_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: str, events: Events
) -> None:
    pid = choice.partition(":")[2]
    update_steps(state, chosen=pid)
    events.append(f"{piece.name} chooses {state.pieces[pid].name}.")


def _place_chosen_options(state: GameState, frame: ChoiceFrame) -> list[str]:
    """Abduct: "Place that character in an adjacent square" (adjacent to The Creature)."""
    piece = state.pieces[frame.piece]
    found = nearest_steps(state)
    chosen = state.pieces.get(found[1].chosen or "") if found else None
    if chosen is None or chosen.square is None or piece.square is None:
        return []
    others = [p for p in state.on_map() if p.id != chosen.id]
    squares = world.adjacent_set(state, piece)
    return [
        f"put:{_label(state, sq)}"
        for sq in sorted(squares)
        if geometry.placeable(state.board, others, sq)
    ]


def _place_chosen_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: str, events: Events
) -> None:
    found = nearest_steps(state)
    assert found is not None
    chosen = state.pieces[found[1].chosen or ""]
    label = choice.partition(":")[2]
    chosen.square = state.board.parse_label(label)
    events.append(f"{piece.name} places {chosen.name} at {label}.")


def _token_options(state: GameState, frame: ChoiceFrame) -> list[str]:
    """Place a token in a square within N squares (Aquatic Ambush: a Tunnel). Tokens: "If all
    of your tokens are in play, you may choose a token already on the map to place instead." """
    piece = state.pieces[frame.piece]
    if piece.square is None:
        return []
    kind = str(frame.step.get("token", ""))
    within = frame.step.int("within", 0)
    board = state.board
    squares = [
        sq
        for sq in board.squares
        if sq not in board.blocked and board.distance(piece.square, sq) <= within
    ]
    return token_place_options(state, piece, kind, squares)


def token_place_options(state: GameState, piece: Piece, kind: str, squares: list[int]) -> list[str]:
    tokens = world.tokens_of(state, piece.side, kind)
    free = [t for t in tokens if t.square is None]
    if free:
        return [f"token:{free[0].id}:{_label(state, sq)}" for sq in squares]
    return [f"token:{t.id}:{_label(state, sq)}" for t in tokens for sq in squares if sq != t.square]


def place_token(state: GameState, piece: Piece, choice: str, events: Events) -> None:
    _, tid, label = choice.split(":")
    token = state.pieces[tid]
    token.square = state.board.parse_label(label)
    token.owner = piece.id
    events.append(f"{piece.name} places a {tid.split('-')[0]} token at {label}.")


def _token_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: str, events: Events
) -> None:
    place_token(state, piece, choice, events)


def _status_options(state: GameState, frame: ChoiceFrame) -> list[str]:
    piece = state.pieces[frame.piece]
    group = str(frame.step.get("group", ""))
    return [f"status:{sid}" for sid in free_statuses(state, group, piece.side)]


def _status_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: str, events: Events
) -> None:
    give_status(state, piece, choice.partition(":")[2], events)


SHIFTABLE = {
    "token": ("token",),
    "die": ("die",),
    "character": ("character", "companion"),
    "marker": ("point",),
    "component": ("component",),
    "item": ("item",),
}


def _shift_down_options(state: GameState, frame: ChoiceFrame) -> list[str]:
    """Lasso of Truth / Shovel: choose something of the named kinds on your cooldown track."""
    piece = state.pieces[frame.piece]
    kinds = {
        k
        for word in str(frame.step.get("kinds", "")).split(",")
        for k in SHIFTABLE.get(word.strip(), ())
    }
    found: list[str] = []
    for number, slot in enumerate(state.sides[piece.side].track, 1):
        for kind, ref in slot:
            if kind in kinds:
                option = f"shift:{kind}:{ref}:{number}"
                if option not in found:
                    found.append(option)
    return found


def _shift_down_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: str, events: Events
) -> None:
    _, kind, ref, number = choice.split(":")
    back = track.shift_down(
        state, piece.side, (kind, ref), frame.step.int("amount", 1), events, at=int(number)
    )
    if back:
        state.stack.append(ReturnFrame(piece.side, tuple(back)))


def _token_off_options(state: GameState, frame: ChoiceFrame) -> list[str]:
    """Made Me From Dead: "shift two ability tokens off your cooldown track" (one at a time)."""
    piece = state.pieces[frame.piece]
    found: list[str] = []
    for number, slot in enumerate(state.sides[piece.side].track, 1):
        for kind, ref in slot:
            option = f"shiftoff:{ref}:{number}"
            if kind == "token" and option not in found:
                found.append(option)
    return found


def _token_off_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: str, events: Events
) -> None:
    _, color, number = choice.split(":")
    side = state.sides[piece.side]
    slot = side.track[int(number) - 1]
    slot.remove(("token", color))
    track.returned(state, piece.side, ("token", TokenColor(color).value), events)


def _minion_place_options(state: GameState, frame: ChoiceFrame) -> list[str]:
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
    return token_place_options(state, piece, "minion", squares)


def _minion_challenge_options(state: GameState, frame: ChoiceFrame) -> list[str]:
    """One of the side's minion tokens does a basic challenge (it challenges as a character)."""
    piece = state.pieces[frame.piece]
    pieces = state.on_map()
    found: list[str] = []
    for minion in world.tokens_of(state, piece.side, "minion"):
        if minion.square is None:
            continue
        for t in geometry.challenge_targets(state.board, minion, pieces, None):
            found.append(f"minion:{minion.id}:{t.id}")
    return found


def _minion_challenge_apply(
    state: GameState, frame: ChoiceFrame, piece: Piece, choice: str, events: Events
) -> None:
    _, mid, tid = choice.split(":")
    declare_challenge(
        state, state.pieces[mid], state.pieces[tid], BASIC_CHALLENGE_DICE, "minion token", events
    )


OPTIONS: dict[str, Callable[[GameState, ChoiceFrame], list[str]]] = {
    "move": _move_options,
    "challenge": _challenge_options,
    "challenge_each": _each_within_options,
    "assist": _assist_options,
    "interact": _interact_options,
    "push_adjacent_rival": _push_one_options,
    "push_each_adjacent_rival": _push_each_options,
    "pull_rival_seen": _pull_seen_options,
    "pull_target": _pull_target_options,
    "place_self_adjacent_to_rival": _place_self_options,
    "choose_adjacent_character": _choose_adjacent_options,
    "place_chosen_adjacent": _place_chosen_options,
    "place_token": _token_options,
    "status": _status_options,
    "shift_down": _shift_down_options,
    "shift_off_token": _token_off_options,
    "place_minion": _minion_place_options,
    "minion_challenge": _minion_challenge_options,
}

APPLY: dict[str, Callable[[GameState, ChoiceFrame, Piece, str, Events], None]] = {
    "move": _move_apply,
    "challenge": _challenge_apply,
    "challenge_each": _challenge_apply,
    "assist": _assist_apply,
    "interact": _interact_apply,
    "push_adjacent_rival": _push_apply,
    "push_each_adjacent_rival": _push_apply,
    "pull_rival_seen": _pull_apply,
    "pull_target": _pull_apply,
    "place_self_adjacent_to_rival": _place_self_apply,
    "choose_adjacent_character": _choose_adjacent_apply,
    "place_chosen_adjacent": _place_chosen_apply,
    "place_token": _token_apply,
    "status": _status_apply,
    "shift_down": _shift_down_apply,
    "shift_off_token": _token_off_apply,
    "place_minion": _token_apply,
    "minion_challenge": _minion_challenge_apply,
}

# Steps that stay current until nothing is left to do ("each", "all").
REPEATING = frozenset({"challenge_each", "push_each_adjacent_rival"})

# The words a content file may use, with the parameters each takes.
VOCABULARY: dict[str, frozenset[str]] = {
    "move": frozenset({"squares", "optional"}),
    "challenge": frozenset(
        {"dice", "range", "target", "bonus", "extra_vs_knocked_down", "optional", "if_won"}
    ),
    "challenge_each": frozenset({"dice", "within"}),
    "stand_up": frozenset(),
    "stand_up_or_shift_off": frozenset(),
    "assist": frozenset({"optional"}),
    "interact": frozenset({"optional", "only"}),
    "push_adjacent_rival": frozenset({"squares"}),
    "push_each_adjacent_rival": frozenset({"squares"}),
    "pull_rival_seen": frozenset({"squares"}),
    "pull_target": frozenset({"squares"}),
    "place_self_adjacent_to_rival": frozenset({"within"}),
    "choose_adjacent_character": frozenset(),
    "place_chosen_adjacent": frozenset(),
    "place_token": frozenset({"token", "within"}),
    "give_status": frozenset({"card", "group"}),
    "shift_off": frozenset({"thing"}),
    "shift_down": frozenset({"kinds", "amount", "if_won"}),
    "shift_off_token": frozenset(),
    "place_minion": frozenset(),
    "minion_challenge": frozenset({"optional"}),
}

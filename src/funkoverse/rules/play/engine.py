"""The game as a tree of decisions: who decides, the legal choices, and `apply`.

At every point there is one decider (a side, or `CHANCE`) and a finite list of legal
choices (`choices`, typed values; `legal_choices`, their stable ids). That list is the
only source of legality (`menus.legal`): `apply` accepts exactly what it lists and
refuses anything else with a reason that cites the rule. Chance nodes list their
outcomes with exact probabilities. This module keeps the turn and round machine: setup,
taking a turn, the actions, exhausting, ending a round, and the driver that does
everything that needs no decision.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from funkoverse.rules.core import track, world
from funkoverse.rules.core.cards import Ability, TokenColor
from funkoverse.rules.core.challenges import declare_challenge, knock_out, resolve_challenge
from funkoverse.rules.core.choices import (
    Assist,
    Challenge,
    Choice,
    Choose,
    CompanionAction,
    CompleteBonus,
    End,
    FirstPlayer,
    FlipControl,
    Give,
    Interact,
    Leader,
    Move,
    Pick,
    Place,
    PlaceControl,
    Rally,
    Return,
    RollOutcome,
    UseAbility,
    UseItem,
    format_id,
    parse,
)
from funkoverse.rules.core.dice import win_probability
from funkoverse.rules.core.errors import IllegalChoice
from funkoverse.rules.core.events import Event, EventKind, Events
from funkoverse.rules.core.frames import (
    ChoiceFrame,
    ReturnFrame,
    RollFrame,
    RoundEndFrame,
    StepsFrame,
    TurnStartFrame,
)
from funkoverse.rules.core.hooks import hooks_on
from funkoverse.rules.core.numbers import (
    ACTIONS_PER_TURN,
    BASIC_CHALLENGE_DICE,
    KNOCKED_OUT_SLOT,
    RALLY_ACTIONS,
    TRACK_LENGTH,
)
from funkoverse.rules.core.pieces import BLOCKING_KINDS
from funkoverse.rules.core.stack import stand_up
from funkoverse.rules.core.state import CHANCE, GameState, Phase, Piece, Setup
from funkoverse.rules.play import menus, setup_phase
from funkoverse.rules.vocabulary import steps
from funkoverse.rules.vocabulary.assisting import assist, interact
from funkoverse.rules.vocabulary.moving import move_piece

__all__ = [
    "CHANCE",
    "apply",
    "apply_unchecked",
    "chance_outcomes",
    "choices",
    "decider",
    "defense_of",
    "is_over",
    "knock_out",
    "legal_choices",
    "new_game",
    "new_game_at",
]

defense_of = world.defense_of
ready_items = menus.ready_items
companions_of = menus.companions_of


# --------------------------------------------------------------------------- setup


def new_game(setup: Setup) -> GameState:
    """The state before the first decision: pieces off the map, pools filled from ability
    dots, tokens and items given to their characters, the scenario's markers set up."""
    state = GameState(setup)
    if setup.teams and any(t.characters for t in setup.teams):
        setup_phase.create_pieces(state)
    setup.scenario.setup_pieces(state)
    first = setup.first_player
    ultimate = next((t.side for t in setup.teams if t.ultimate), None)
    if ultimate is not None:
        first = ultimate  # Ultimate Mode Rules: "At the start of the game, the ultimate character goes first."
    if first is not None:
        _set_first_player(state, first)
    _advance(state, [])
    return state


def _set_first_player(state: GameState, side: str) -> None:
    """After the flip: the draft (if characters are chosen in the game), the scenario's secret
    picks, then placement, each starting with the first player."""
    state.first_player = side
    state.to_act = side
    if state.setup.draft is not None:
        state.phase = Phase.DRAFT
    elif state.setup.scenario.leaders:
        state.phase = Phase.SECRET
    else:
        state.phase = Phase.PLACE


def new_game_at(
    setup: Setup,
    placements: dict[str, int],
    first_player: str,
    knocked_down: tuple[str, ...] = (),
) -> GameState:
    """A game in round 1 with pieces already on given squares: for puzzles, tests and analysis.

    Characters not in `placements` start knocked out on the 1 of their cooldown track;
    tokens in `placements` are put on the map.
    """
    state = new_game(replace(setup, first_player=first_player, draft=None))
    state.first_player = state.to_act = first_player
    unknown = set(placements) - set(state.pieces)
    if unknown:
        raise ValueError(f"no piece named {', '.join(sorted(unknown))} in this setup")
    holders: dict[int, str] = {}
    for pid, square in placements.items():
        label = state.board.label(square)
        if square in state.board.blocked:
            raise ValueError(f"{pid}: {label} is blocked; nothing can be placed there")
        if state.pieces[pid].kind in BLOCKING_KINDS:
            if square in holders:
                raise ValueError(f"{pid} and {holders[square]} cannot share {label}")
            holders[square] = pid
    for pid, piece in state.pieces.items():
        if pid in placements:
            world.put_on_map(piece, placements[pid])
            piece.standing = pid not in knocked_down
        elif piece.is_character:
            piece.placed = True
            piece.square = None
            track.place(state, piece.side, ("character", pid), KNOCKED_OUT_SLOT)
    state.stack.clear()
    begin_round_one(state)
    _advance(state, [])
    return state


def begin_round_one(state: GameState) -> None:
    """After placement: round 1 starts with the first player (Setup)."""
    state.round = 1
    if state.first_player in state.gone:
        # a player who left during setup holds no marker: it goes on clockwise (rules/play/leaving.py)
        state.first_player = next_playing(state, state.first_player)
    state.to_act = state.first_player
    state.phase = Phase.CHOOSE


def next_playing(state: GameState, side: str | None) -> str | None:
    """The first seat after `side`, clockwise, still in the game (Free-for-All)."""
    seats = state.seats
    i = seats.index(side) if side in seats else -1
    for step in range(1, len(seats) + 1):
        found = seats[(i + step) % len(seats)]
        if found not in state.gone:
            return found
    return None


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


def choices(state: GameState) -> list[Choice]:
    """Every legal choice at this point, as values, in a stable order."""
    return menus.legal(state)


def legal_choices(state: GameState) -> list[str]:
    """Every legal choice at this point, as stable ids, in the same order as `choices`."""
    return [c.format() for c in menus.legal(state)]


def is_legal(state: GameState, choice: Choice) -> bool:
    """Whether `choice` is among `choices(state)`, checked without listing them."""
    return menus.is_legal(state, choice)


def chance_outcomes(state: GameState) -> list[tuple[Choice, Fraction]]:
    """The outcomes of a chance node with their exact probabilities (empty elsewhere)."""
    if state.phase is Phase.OVER:
        return []
    if state.stack and isinstance(state.stack[-1], RollFrame):
        p = roll_win_probability(state, state.stack[-1])
        outcomes: list[tuple[Choice, Fraction]] = [
            (menus.ROLLS[0], p),
            (menus.ROLLS[1], 1 - p),
        ]
        return [(c, q) for c, q in outcomes if q > 0]
    if not state.stack and state.phase is Phase.FLIP:
        share = Fraction(1, len(state.seats))
        return [(FirstPlayer(side), share) for side in state.seats]
    return []


def roll_win_probability(state: GameState, frame: RollFrame) -> Fraction:
    """The exact chance that the challenger of `frame` wins (Resolving a Challenge)."""
    dice = state.setup.dice
    return win_probability([dice[d] for d in frame.attack], [dice[d] for d in frame.defense])


# --------------------------------------------------------------------------- apply


def apply(state: GameState, choice: Choice | str) -> Events:
    """Do `choice` (a value or its id), which must be legal; returns what happened.
    An illegal choice is refused with `IllegalChoice`, citing the rule, and changes nothing."""
    value = parse(choice) if isinstance(choice, str) else choice
    if not menus.is_legal(state, value):
        from funkoverse.rules.play.explain import why_illegal

        raise IllegalChoice(why_illegal(state, value))
    return apply_unchecked(state, value)


def apply_unchecked(state: GameState, choice: Choice) -> Events:
    """`apply` for a choice already taken from `choices` (search's fast path)."""
    events: Events = []
    top = state.stack[-1] if state.stack else None
    if isinstance(top, RollFrame):
        assert isinstance(choice, RollOutcome), format_id(choice)
        state.stack.pop()
        resolve_challenge(state, top, choice.won, events)
    elif isinstance(top, ChoiceFrame):
        state.stack.pop()
        steps.apply_option(state, top, choice, events)
    elif isinstance(top, ReturnFrame):
        assert isinstance(choice, Return), format_id(choice)
        piece = state.pieces[choice.piece]
        world.put_on_map(piece, state.board.parse_label(choice.square))
        events.append(Event(EventKind.RETURNED, piece=piece.id, square=choice.square))
        remaining = tuple(p for p in top.pieces if p != piece.id)
        state.stack[-1] = ReturnFrame(top.side, remaining)
        if not remaining:
            state.stack.pop()
    elif isinstance(choice, FirstPlayer):
        _set_first_player(state, choice.side)
        events.append(Event(EventKind.FIRST_PLAYER, side=choice.side))
    elif isinstance(choice, (Pick, Give)):
        setup_phase.apply_draft(state, choice, events)
    elif isinstance(choice, Leader):
        setup_phase.apply_secret(state, choice, events)
    elif isinstance(choice, Place):
        piece = state.pieces[choice.piece]
        world.put_on_map(piece, state.board.parse_label(choice.square))
        events.append(Event(EventKind.PLACED, piece=piece.id, square=choice.square))
    elif isinstance(choice, Choose):
        _choose(state, choice.piece, events)
    else:
        _apply_action(state, choice, events)
    _advance(state, events)
    return events


# --------------------------------------------------------------------------- taking a turn


def _choose(state: GameState, pid: str, events: Events) -> None:
    """Taking a Turn, step 1; then what happens "at the start of" the character's turn."""
    piece = state.pieces[pid]
    state.active = pid
    state.actions_left = ACTIONS_PER_TURN
    state.phase = Phase.ACT
    team = next((t for t in state.setup.teams if t.side == piece.side), None)
    # what the character's traits do at the start of its turn comes once it is back on the
    # map: the player causing both chooses their order (FAQ, Timing), docs/rulings.md
    state.stack.append(TurnStartFrame(piece.id))
    if team is not None and team.ultimate and piece.square is None:
        # Ultimate Mode: "At the start of the ultimate character's turn, if they are on the
        # cooldown track, shift them off."
        back = track.shift_off(state, piece.side, ("character", piece.id), events)
        if back:
            state.stack.append(ReturnFrame(piece.side, tuple(back)))
        events.append(
            Event(
                EventKind.OFF_THE_TRACK,
                piece=piece.id,
                source="the ultimate character's turn",
                rule="Ultimate Mode Rules",
            )
        )
        events.append(Event(EventKind.TURN, piece=piece.id, number=1))
    else:
        events.append(Event(EventKind.TURN, piece=piece.id, number=int(piece.square is not None)))


def _turn_start(state: GameState, piece: Piece, events: Events) -> None:
    """At the start of the character's turn: actions its traits add, decisions they ask."""
    for hook in list(world.hooks_of(state, piece)):
        extra = hook.extra_actions(state, piece)
        if extra:
            state.actions_left += extra
            events.append(
                Event(
                    EventKind.EXTRA_ACTION,
                    piece=piece.id,
                    number=extra,
                    name=hook.title or hook.name,
                )
            )
        state.stack.extend(reversed(list(hook.turn_start(state, piece))))


def _apply_action(state: GameState, choice: Choice, events: Events) -> None:
    piece = state.pieces[state.active or ""]
    if isinstance(choice, End):
        _end_turn(state, events)
        return
    if isinstance(choice, CompanionAction) and choice.free:
        state.companion_used = piece.id
        _companion_act(state, piece, choice.action, events)
        return
    # "After the Invisible Man rallies or does an action": what listens is what he had when it began
    state.acting = (piece.id, piece.statuses)
    if isinstance(choice, Rally):
        # "they may use both of their actions to stand up": two actions; an action a card
        # adds to the turn (Sneaking) is still there (docs/rulings.md)
        state.actions_left -= RALLY_ACTIONS
        events.append(Event(EventKind.RALLIED, piece=piece.id))
        stand_up(state, piece, "Rally: both actions to stand up", events)
        return
    state.actions_left -= 1
    if isinstance(choice, Move):
        move_piece(state, piece, state.board.parse_label(choice.square), events)
    elif isinstance(choice, Challenge):
        target = state.pieces[choice.target]
        declare_challenge(state, piece, target, BASIC_CHALLENGE_DICE, "basic challenge", events)
    elif isinstance(choice, Assist):
        assist(state, piece, state.pieces[choice.ally], events)
    elif isinstance(choice, (Interact, CompleteBonus, PlaceControl, FlipControl)):
        interact(state, piece, choice, events)
    elif isinstance(choice, UseAbility):
        ability = world.find_ability(state, piece, choice.ability)
        if ability is None:  # pragma: no cover - guarded by the legal choices
            raise IllegalChoice(f"{piece.name} has no ability '{choice.ability}'")
        aimed = state.pieces.get(choice.target) if choice.target else None
        _pay(state, piece, ability, aimed, events)
        state.stack.append(
            StepsFrame(piece.id, ability.name, ability.steps, 0, choice.target, piece.standing)
        )
    elif isinstance(choice, CompanionAction):
        _companion_act(state, piece, choice.action, events)
    elif isinstance(choice, UseItem):
        item = state.setup.items[choice.item]
        slot = min(item.cost, TRACK_LENGTH) if item.cost > 0 else 0
        if slot:
            # Doing the Use-Item Action: the item card goes on the track at its number.
            track.place(state, piece.side, ("item", choice.item), slot)
        events.append(
            Event(EventKind.ITEM_USED, piece=piece.id, card=item.id, name=item.name, number=slot)
        )
        state.stack.append(StepsFrame(piece.id, item.name, item.steps, 0, None, piece.standing))
    else:  # pragma: no cover - guarded by the legal choices
        raise IllegalChoice(f"'{format_id(choice)}' is not an action")


def _companion_act(state: GameState, piece: Piece, action_id: str, events: Events) -> None:
    for comp in menus.companions_of(state, piece):
        card = state.setup.companions.get(comp.ref)
        action = next((a for a in card.actions if a.id == action_id), None) if card else None
        if action is not None:
            events.append(Event(EventKind.COMPANION_ACTS, piece=comp.id, name=action.name))
            state.stack.append(StepsFrame(comp.id, action.name, action.steps, 0, None, True))
            return


def _after_action(state: GameState, piece: Piece, had: tuple[str, ...], events: Events) -> None:
    """Hooks that listen for the end of an action: the card's, and those of the status cards
    the character had when the action began."""
    hooks = list(hooks_on(piece.card.hooks)) if piece.card is not None else []
    for sid in had:
        status = state.setup.statuses.get(sid)
        if status is not None:
            hooks.extend(hooks_on(status.hooks))
    for hook in hooks:
        hook.after_action(state, piece, events)


def _pay(
    state: GameState, piece: Piece, ability: Ability, target: Piece | None, events: Events
) -> None:
    """Doing an Ability, step 2: the token goes onto the track before the ability's rules
    (FAQ: costs are paid as soon as the ability action is taken)."""
    cost = world.ability_cost(state, piece, ability, target)
    if cost < 1:
        events.append(
            Event(
                EventKind.ABILITY,
                piece=piece.id,
                card=ability.id,
                name=ability.name,
                source=ability.color.value,
                number=0,
                rule="Glossary: Decreasing an Ability Cost",
            )
        )
        return
    side = state.sides[piece.side]
    side.pool[ability.color] -= 1
    slot = min(cost, TRACK_LENGTH)  # Increasing an Ability Cost: above 4 goes on the 4
    side.track[slot - 1].append(("token", TokenColor(ability.color).value))
    events.append(
        Event(
            EventKind.ABILITY,
            piece=piece.id,
            card=ability.id,
            name=ability.name,
            source=ability.color.value,
            number=slot,
        )
    )


def _end_turn(state: GameState, events: Events) -> None:
    """Taking a Turn, step 4: exhaust the character; the next side with a character to choose goes."""
    piece = state.pieces[state.active or ""]
    piece.markers += 1
    piece.exhausted = piece.markers >= piece.needed
    events.append(
        Event(EventKind.EXHAUSTED, piece=piece.id, number=piece.markers, total=piece.needed)
    )
    state.active = None
    state.actions_left = 0
    state.turns += 1
    state.companion_used = None
    pass_turn(state)


def pass_turn(state: GameState) -> None:
    """The next side clockwise with a character to choose takes a turn; with none, the round
    ends. A seat that left a free-for-all has none (rules/play/leaving.py)."""
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


# --------------------------------------------------------------------------- ending a round


def _run_round_end(state: GameState, frame: RoundEndFrame, events: Events) -> None:
    """Ending a Round: the scenario's end-of-round decisions (Flags), cooldown in first-player
    order, scoring and the winner check, refresh, new first player."""
    first = state.first_player or state.seats[0]
    index = state.seats.index(first)
    order = state.seats[index:] + state.seats[:index]
    if frame.stage == 0:
        state.stack[-1] = RoundEndFrame(1)
        events.extend(state.setup.scenario.round_end_notes(state))
        state.stack.extend(state.setup.scenario.round_end_frames(state))
    elif frame.stage == 1:
        state.stack[-1] = RoundEndFrame(2)
        returns: list[ReturnFrame] = []
        for side in order:  # Cooldown: the first player first, then the others
            returning = track.cooldown(state, side, events)
            if returning:
                returns.append(ReturnFrame(side, tuple(returning)))
        state.stack.extend(reversed(returns))  # the first player's returns are decided first
    elif frame.stage == 2:
        state.stack[-1] = RoundEndFrame(3)
        state.setup.scenario.on_round_end(state, events)
    else:
        state.stack.pop()
        gone = state.gone
        for p in state.pieces.values():
            if gone and p.side in gone:
                continue  # a seat that left takes no more turns (rules/play/leaving.py)
            p.markers = 0  # Refresh
            p.exhausted = False
        for seat in state.sides.values():
            seat.returned = ()
        # New first player: passed clockwise, to the next player still in the game
        playing = [s for s in order[1:] if s not in gone] if gone else order[1:]
        nxt = playing[0] if playing else order[0]
        state.first_player = nxt  # New first player (clockwise in a free-for-all)
        state.to_act = nxt
        state.round += 1
        state.phase = Phase.CHOOSE
        events.append(Event(EventKind.ROUND_BEGINS, number=state.round, side=nxt))


# --------------------------------------------------------------------------- the driver


def _advance(state: GameState, events: Events) -> None:
    """Do everything that needs no decision, until a decision (or the end) is reached."""
    while True:
        if state.winner is not None:
            if state.phase is not Phase.OVER:
                state.phase = Phase.OVER
                state.stack.clear()
                state.active = None
                scenario = state.setup.scenario
                first = scenario.first_knockout_wins or scenario.immediate_target
                events.append(
                    Event(
                        EventKind.WINNER,
                        side=state.winner,
                        number=state.sides[state.winner].points,
                        total=state.round,
                        rule="Winning Your First Game" if first else None,
                    )
                )
            return
        if state.stack:
            top = state.stack[-1]
            if isinstance(top, StepsFrame):
                steps.run(state, top, events)
                continue
            if isinstance(top, RoundEndFrame):
                _run_round_end(state, top, events)
                continue
            if isinstance(top, TurnStartFrame):
                state.stack.pop()
                _turn_start(state, state.pieces[top.piece], events)
                continue
            if isinstance(top, ChoiceFrame):
                if steps.options(state, top):
                    return
                state.stack.pop()
                if not top.optional and not top.hook:
                    steps.abort(state, "", events)
                continue
            if isinstance(top, ReturnFrame):
                if top.pieces and menus.return_options(state, top):
                    return
                state.stack.pop()
                continue
            return  # RollFrame: chance decides
        if state.phase is Phase.FLIP:
            return
        if state.phase is Phase.DRAFT:
            if setup_phase.advance_draft(state, events):
                continue
            return
        if state.phase is Phase.SECRET:
            if setup_phase.advance_secret(state, events):
                continue
            return
        if state.phase is Phase.PLACE:
            if menus.place_options(state):
                return
            side = state.to_act or state.seats[0]
            order = setup_phase.order(state)
            pos = order.index(side)
            if pos + 1 < len(order):
                state.to_act = order[pos + 1]
            else:
                begin_round_one(state)
            continue
        if state.phase is Phase.ACT:
            done = state.acting
            if done is not None:  # the action and all it caused are over
                state.acting = None
                _after_action(state, state.pieces[done[0]], done[1], events)
            piece = state.pieces[state.active or ""]
            if state.actions_left > 0 and piece.standing and piece.square is not None:
                return  # a standing character can always move, if only 0 squares
            if menus.action_menu(state) == [End()]:
                _end_turn(state, events)
                continue
            return
        return

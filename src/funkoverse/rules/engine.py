"""The game as a tree of decisions: who decides, what the legal choices are, and `apply`.

At every point there is one decider (a side, or `CHANCE`) and a finite list of
legal choices, each a stable string id ("move:c3", "challenge:villager",
"roll:win"). This list is the only source of legality: `apply` accepts exactly
what `legal_choices` lists and refuses anything else with a reason that cites
the rule. Chance nodes list their outcomes with exact probabilities.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from typing import TypeVar

from funkoverse.rules import geometry, setup_phase, steps, track, world
from funkoverse.rules.cards import TOKEN_KINDS, Ability, CharacterCard, ItemCard, Step, TokenColor
from funkoverse.rules.dice import win_probability
from funkoverse.rules.errors import IllegalChoice
from funkoverse.rules.frames import (
    ChoiceFrame,
    ReturnFrame,
    RollFrame,
    RoundEndFrame,
    StepsFrame,
)
from funkoverse.rules.pieces import BLOCKING_KINDS, Kind
from funkoverse.rules.state import CHANCE, GameState, Phase, Piece, Setup

ACTIONS_PER_TURN = 2  # Taking a Turn, step 2: "Do up to two actions"
BASIC_MOVE = 2  # Basic Moves: "up to 2 squares"
BASIC_CHALLENGE_DICE = steps.BASIC_CHALLENGE_DICE
KNOCKED_OUT_SLOT = steps.KNOCKED_OUT_SLOT
TRACK_TOP = 4

Events = list[str]
_T = TypeVar("_T")

__all__ = [
    "CHANCE",
    "apply",
    "apply_unchecked",
    "chance_outcomes",
    "decider",
    "defense_of",
    "is_over",
    "legal_choices",
    "new_game",
    "new_game_at",
]

defense_of = world.defense_of


# --------------------------------------------------------------------------- setup


def new_game(setup: Setup) -> GameState:
    """The state before the first decision: pieces off the map, pools filled from ability
    dots, tokens and items given to their characters, the scenario's markers set up."""
    state = GameState(setup)
    if setup.teams and any(t.characters for t in setup.teams):
        create_pieces(state)
    if setup.scenario.point_markers:
        for letter, square in sorted(setup.board.point_squares.items()):
            pid = f"point-{letter}"
            state.pieces[pid] = Piece(pid, Kind.MARKER, "", None, square, placed=True)
    setup.scenario.setup_pieces(state)
    if setup.first_player is not None:
        _set_first_player(state, setup.first_player)
    _advance(state, [])
    return state


def create_pieces(state: GameState) -> None:
    """Setup, steps 6-7: each side's characters, their tokens, items and companions, and the
    ability token pool (one token a colored dot; an ultimate card adds more)."""
    setup = state.setup
    seen: dict[str, int] = {}
    for team in setup.teams:
        for card in team.characters:
            seen[card.id] = seen.get(card.id, 0) + 1
    for team in setup.teams:
        side = state.sides[team.side]
        held: dict[str, list[str]] = {}
        for item_id, holder in team.items:
            held.setdefault(holder, []).append(item_id)
        for card in team.characters:
            pid = card.id if seen[card.id] == 1 else f"{card.id}-{team.side}"
            kind = Kind.BASIC if card.basic else Kind.CHARACTER
            piece = Piece(pid, kind, team.side, card, None, True, False, card.defense, card.elusive)
            piece.items = tuple(held.get(card.id, ()))
            piece.needed = 3 if team.ultimate else 1  # Ultimate Mode: three exhausted markers
            state.pieces[pid] = piece
            for color in card.dots:
                side.pool[color] = side.pool.get(color, 0) + 1
            tokens = list(card.tokens)
            for item_id in piece.items:
                item = setup.items.get(item_id)
                if item is not None:
                    tokens.extend(item.tokens)
            for token_kind, count in tokens:
                kind_name, defense = TOKEN_KINDS.get(token_kind, ("token", None))
                for n in range(1, count + 1):
                    tid = f"{token_kind}-{team.side}-{n}"
                    state.pieces[tid] = Piece(
                        tid, Kind(kind_name), team.side, None, defense=defense, owner=pid
                    )
        for color in team.extra_dots:
            side.pool[color] = side.pool.get(color, 0) + 1
        for companion_id, holder in team.companions:
            comp = setup.companions[companion_id]
            cid = f"{companion_id}-{team.side}"
            owner = holder if seen.get(holder, 0) == 1 else f"{holder}-{team.side}"
            face = CharacterCard(comp.id, comp.name, comp.box, comp.defense)
            state.pieces[cid] = Piece(
                cid, Kind.COMPANION, team.side, face, None, True, False, comp.defense, owner=owner
            )
        for bonus_id in team.bonus:
            bonus = setup.bonus_objectives[bonus_id]
            bid = f"{bonus_id}-{team.side}"
            state.pieces[bid] = Piece(bid, Kind.BONUS_OBJECTIVE, team.side, None, owner=team.side)
            del bonus


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
    state.to_act = state.first_player
    state.phase = Phase.CHOOSE


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
            return steps.options(state, top)
        if isinstance(top, ReturnFrame):
            return _return_options(state, top)
    if state.phase is Phase.FLIP:
        return [f"first:{side}" for side in state.seats]
    if state.phase is Phase.DRAFT:
        return setup_phase.draft_options(state)
    if state.phase is Phase.SECRET:
        return setup_phase.secret_options(state)
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


def ability_cost(
    state: GameState, piece: Piece, ability: Ability, target: Piece | None = None
) -> int:
    """The cost to pay now ("Cost"; "Increasing/Decreasing an Ability Cost")."""
    cost = ability.cost
    if target is not None and not target.standing:
        cost += ability.cost_vs_knocked_down
    cost += sum(h.cost(state, piece, ability, target) for h in world.hooks_of(state, piece))
    return cost


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
        steps.resolve_challenge(state, top, rest == "win", events)
    elif isinstance(top, ChoiceFrame):
        state.stack.pop()
        steps.apply_option(state, top, choice, events)
    elif isinstance(top, ReturnFrame):
        pid, _, label = rest.partition(":")
        piece = state.pieces[pid]
        world.put_on_map(piece, state.board.parse_label(label))
        events.append(
            f"{piece.name} returns at {label} (Cooldown Tracks: characters return to your "
            "starting area)."
        )
        remaining = tuple(p for p in top.pieces if p != pid)
        state.stack[-1] = ReturnFrame(top.side, remaining)
        if not remaining:
            state.stack.pop()
    elif head == "first":
        _set_first_player(state, rest)
        events.append(f"The First Player marker lands {rest}: {rest} goes first.")
    elif head in ("pick", "give"):
        setup_phase.apply_draft(state, choice, events)
    elif head == "leader":
        setup_phase.apply_secret(state, choice, events)
    elif head == "place":
        pid, _, label = rest.partition(":")
        piece = state.pieces[pid]
        world.put_on_map(piece, state.board.parse_label(label))
        events.append(f"{piece.name} is placed at {label}.")
    elif head == "choose":
        _choose(state, rest, events)
    else:
        _apply_action(state, head, rest, events)
    _advance(state, events)
    return events


# --------------------------------------------------------------------------- placement


def _place_options(state: GameState) -> list[str]:
    """Setup: the side to place puts its characters (and companions) in its starting area;
    Leaders: its leader on its leader starting square."""
    side = state.to_act or ""
    waiting = [
        p
        for p in state.pieces.values()
        if p.side == side and not p.placed and (p.is_character or p.kind is Kind.COMPANION)
    ]
    if not waiting:
        # Bonus Objective Setup: "Immediately after your characters are placed during setup,
        # place the bonus objective marker you have been given by your opponent in your
        # starting area."
        giver = _seat_before(state, side)
        waiting = [
            p
            for p in state.pieces.values()
            if p.kind is Kind.BONUS_OBJECTIVE and p.side == giver and not p.placed
        ]
    squares = world.arrival_squares(state, side)
    label = state.board.label
    options = []
    for p in waiting:
        own = state.setup.scenario.placement_squares(state, p)
        for sq in own if own is not None else squares:
            options.append(f"place:{p.id}:{label(sq)}")
    return options


def _seat_before(state: GameState, side: str) -> str:
    """The seat that hands its bonus objective marker to `side` (the one before it)."""
    i = state.seats.index(side)
    return state.seats[i - 1]


def _return_options(state: GameState, frame: ReturnFrame) -> list[str]:
    squares = world.arrival_squares(state, frame.side)
    label = state.board.label
    return [f"return:{pid}:{label(sq)}" for pid in frame.pieces for sq in squares]


# --------------------------------------------------------------------------- taking a turn


def _choose(state: GameState, pid: str, events: Events) -> None:
    """Taking a Turn, step 1; then what happens "at the start of" the character's turn."""
    piece = state.pieces[pid]
    state.active = pid
    state.actions_left = ACTIONS_PER_TURN
    state.phase = Phase.ACT
    team = next((t for t in state.setup.teams if t.side == piece.side), None)
    if team is not None and team.ultimate and piece.square is None:
        # Ultimate Mode: "At the start of the ultimate character's turn, if they are on the
        # cooldown track, shift them off."
        back = track.shift_off(state, piece.side, ("character", piece.id), events)
        if back:
            state.stack.append(ReturnFrame(piece.side, tuple(back)))
        events.append(f"{piece.name}, the ultimate character, shifts off the cooldown track.")
    elif piece.square is None:
        events.append(f"{piece.name} takes a turn from the cooldown track.")
    else:
        events.append(f"{piece.name} takes a turn.")
    for hook in list(world.hooks_of(state, piece)):
        extra = hook.extra_actions(state, piece)
        if extra:
            state.actions_left += extra
            events.append(f"{piece.name} may do {extra} more action ({hook.name}).")
        state.stack.extend(reversed(list(hook.turn_start(state, piece))))


def _action_menu(state: GameState) -> list[str]:
    """Taking a Turn, steps 2-3: the actions the active character can do now."""
    piece = state.pieces[state.active or ""]
    if state.actions_left <= 0:
        return ["end"]
    menu: list[str] = []
    menu.extend(_companion_options(state, piece))
    if piece.square is None:
        # Knocked Out: on the cooldown track it may do no actions, only what its card allows.
        menu.extend(_ability_options(state, piece))
    elif not piece.standing:
        # Rally: a knocked-down character cannot do actions; it may use both actions to stand.
        if state.actions_left >= ACTIONS_PER_TURN:
            menu.append("rally")
        menu.extend(_ability_options(state, piece))
    else:
        board = state.board
        # Basic actions. FAQ: a move may be of zero squares.
        menu.extend(
            f"move:{board.label(sq)}" for sq in world.move_options(state, piece, BASIC_MOVE)
        )
        pieces = state.on_map()
        menu.extend(
            f"challenge:{t.id}" for t in geometry.challenge_targets(board, piece, pieces, None)
        )
        squares = world.reach_set(state, piece, "assist")
        menu.extend(f"assist:{p.id}" for p in world.knocked_down_allies_in(state, piece, squares))
        menu.extend(f"interact:{t}" for t in steps.interact_targets(state, piece))
        menu.extend(_item_options(state, piece))
        menu.extend(_ability_options(state, piece))
    menu.append("end")
    return menu


def companions_of(state: GameState, piece: Piece) -> list[Piece]:
    return [p for p in state.pieces.values() if p.kind is Kind.COMPANION and p.owner == piece.id]


def _companion_options(state: GameState, piece: Piece) -> list[str]:
    """Companions: the attached companion "may also do one of the actions listed on the
    companion's card", and the character may spend an action on a companion action; both
    "while the attached character is knocked down, and even while [it] is on the cooldown
    track"."""
    options: list[str] = []
    for comp in companions_of(state, piece):
        card = state.setup.companions.get(comp.id.rsplit("-", 1)[0])
        if card is None or comp.square is None:
            continue
        for action in card.actions:
            if action.challenge_action and not _has_possible_target(state, comp, action.steps):
                continue
            if state.objective.get("companion-free") != piece.id:
                options.append(f"companion:{action.id}")
            options.append(f"companion-action:{action.id}")
    return options


def _ability_options(state: GameState, piece: Piece) -> list[str]:
    """Doing an Ability: the abilities whose token is in the pool, usable in the piece's condition."""
    card = piece.card
    if card is None or card.basic:
        return []
    pool = state.sides[piece.side].pool
    options = []
    for ability in world.abilities_of(state, piece):
        if piece.square is None and not ability.while_knocked_out:
            continue
        if piece.square is not None and not piece.standing and not ability.while_knocked_down:
            continue
        if ability.declare_target:
            for target in _first_challenge_targets(state, piece, ability):
                cost = ability_cost(state, piece, ability, target)
                if cost < 1 or pool.get(ability.color, 0) > 0:
                    options.append(f"ability:{ability.id}:{target.id}")
            continue
        cost = ability_cost(state, piece, ability)
        if cost >= 1 and pool.get(ability.color, 0) <= 0:
            continue
        if ability.challenge_action and not _has_possible_target(state, piece, ability.steps):
            continue
        options.append(f"ability:{ability.id}")
    return options


def _first_challenge_targets(state: GameState, piece: Piece, ability: Ability) -> list[Piece]:
    for s in ability.steps:
        if s.op == "challenge":
            reach = s.get("range")
            return geometry.challenge_targets(
                state.board, piece, state.on_map(), reach if isinstance(reach, int) else None
            )
    return []


def _has_possible_target(state: GameState, piece: Piece, ability_steps: tuple[Step, ...]) -> bool:
    """Abilities That Are Challenge Actions: "If there is no possible target, you cannot do a
    challenge action." The steps before the first challenge are followed in every way they
    can go (where a move can end, where a placement can put the challenger, whom a pull can
    bring adjacent) and the challenge looks for a target from each result."""
    if piece.square is None:
        return False
    squares = {piece.square}
    for s in ability_steps:
        op = s.op
        if op == "challenge_each":
            within = s.int("within", 1)
            return any(
                p.side != piece.side
                and p.is_character
                and p.square is not None
                and state.board.distance(sq, p.square) <= within
                for p in state.on_map()
                for sq in squares
            )
        if op == "challenge":
            reach = s.get("range")
            if not isinstance(reach, int) and len(squares) > 1:
                # an adjacent challenge: a rival in a square adjacent to one the challenger
                # can reach (adjacency does not depend on where pieces stand)
                rivals = {
                    p.square
                    for p in state.on_map()
                    if p.side != piece.side and p.id != piece.id and geometry.challengeable(p)
                }
                adjacent = state.board.adjacent_set
                return any(not rivals.isdisjoint(adjacent(sq)) for sq in squares)
            return any(
                _targets_from(state, piece, sq, reach if isinstance(reach, int) else None)
                for sq in squares
            )
        if op == "move":
            reached: set[int] = set()
            for sq in squares:
                reached |= set(_moves_from(state, piece, sq, s.int("squares")))
            squares = reached
        elif op == "place_self_adjacent_to_rival":
            frame = ChoiceFrame(piece.side, s, piece.id)
            return bool(steps.OPTIONS[op](state, frame))  # placed beside a rival it then challenges
        elif op == "pull_rival_seen":
            if _targets_from(state, piece, piece.square, None):
                return True
            near = state.board.adjacent_set(piece.square)
            frame = ChoiceFrame(piece.side, s, piece.id)
            return any(
                state.board.parse_label(o.rsplit(":", 1)[1]) in near
                for o in steps.OPTIONS[op](state, frame)
            )
        elif op in (
            "push_adjacent_rival",
            "place_token",
            "choose_adjacent_character",
            "place_minion",
        ):
            # what these steps do to the board is too open to follow: any rival may become a target
            return any(
                p.side != piece.side and p.defense is not None and p.kind is not Kind.MARKER
                for p in state.on_map()
            )
    return False


def _from_square(state: GameState, piece: Piece, square: int, ask: Callable[[], _T]) -> _T:
    """Ask a question as if `piece` stood on `square` (the state is left as it was)."""
    was = piece.square
    piece.square = square
    try:
        return ask()
    finally:
        piece.square = was


def _moves_from(state: GameState, piece: Piece, square: int, n: int) -> list[int]:
    return _from_square(state, piece, square, lambda: world.move_options(state, piece, n))


def _targets_from(state: GameState, piece: Piece, square: int, reach: int | None) -> bool:
    return bool(
        _from_square(
            state,
            piece,
            square,
            lambda: geometry.challenge_targets(state.board, piece, state.on_map(), reach),
        )
    )


def ready_items(state: GameState, piece: Piece) -> list[tuple[str, ItemCard]]:
    """The items `piece` holds that give it an action now, whatever it may target: a
    use-item action whose card is not on the track, or a basic action the item gives."""
    ready = []
    for item_id in piece.items:
        item = state.setup.items.get(item_id)
        if item is None or (item.cost == 0 and not item.basic_action):
            continue
        if track.position(state, piece.side, ("item", item_id)) is not None:
            continue  # "While an item is on the cooldown track, it cannot be used."
        ready.append((item_id, item))
    return ready


def _item_options(state: GameState, piece: Piece) -> list[str]:
    """Items: the use-item action (its card not on the track) and items that give a basic
    action, a challenge only with a target in reach."""
    return [
        f"item:{item_id}"
        for item_id, item in ready_items(state, piece)
        if not item.challenge_action or _has_possible_target(state, piece, item.steps)
    ]


def _apply_action(state: GameState, head: str, rest: str, events: Events) -> None:
    piece = state.pieces[state.active or ""]
    board = state.board
    if head == "end":
        _end_turn(state, events)
        return
    if head == "companion":
        state.objective["companion-free"] = piece.id
        _companion_act(state, piece, rest, events)
        return
    # "After the Invisible Man rallies or does an action": what listens is what he had when it began
    state.objective["after-action"] = "|".join((piece.id, *piece.statuses))
    if head == "rally":
        state.actions_left = 0
        steps.stand_up(state, piece, "Rally: both actions to stand up", events)
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
        target = state.pieces[rest]
        steps.declare_challenge(
            state, piece, target, BASIC_CHALLENGE_DICE, "basic challenge", events
        )
    elif head == "assist":
        ally = state.pieces[rest]
        events.append(f"{piece.name} assists {ally.name}.")
        steps.stand_up(state, ally, "Assist", events)
    elif head == "interact":
        steps.interact(state, piece, rest, events)
    elif head == "ability":
        ability_id, _, target_id = rest.partition(":")
        ability = world.find_ability(state, piece, ability_id)
        if ability is None:  # pragma: no cover - guarded by legal_choices
            raise IllegalChoice(f"{piece.name} has no ability '{ability_id}'")
        _pay(state, piece, ability, state.pieces.get(target_id), events)
        state.stack.append(
            StepsFrame(piece.id, ability.name, ability.steps, 0, target_id or None, piece.standing)
        )
    elif head == "companion-action":
        _companion_act(state, piece, rest, events)
    elif head == "item":
        item = state.setup.items[rest]
        if item.cost > 0:
            # Doing the Use-Item Action: the item card goes on the track at its number.
            track.place(state, piece.side, ("item", rest), min(item.cost, TRACK_TOP))
            events.append(
                f"{piece.name} uses the {item.name}: its card goes on the {item.cost} of the cooldown track."
            )
        else:
            events.append(f"{piece.name} uses the {item.name}.")
        state.stack.append(StepsFrame(piece.id, item.name, item.steps, 0, None, piece.standing))
    else:  # pragma: no cover - guarded by legal_choices
        raise IllegalChoice(f"unknown action '{head}'")


def _companion_act(state: GameState, piece: Piece, action_id: str, events: Events) -> None:
    for comp in companions_of(state, piece):
        card = state.setup.companions.get(comp.id.rsplit("-", 1)[0])
        action = next((a for a in card.actions if a.id == action_id), None) if card else None
        if action is not None:
            events.append(f"{comp.name} acts: {action.name} (Companions).")
            state.stack.append(StepsFrame(comp.id, action.name, action.steps, 0, None, True))
            return


def _after_action(state: GameState, piece: Piece, had: tuple[str, ...]) -> None:
    """Hooks that listen for the end of an action: the card's, and those of the status cards
    the character had when the action began."""
    hooks = list(piece.card.hooks) if piece.card is not None else []
    for sid in had:
        status = state.setup.statuses.get(sid)
        if status is not None:
            hooks.extend(status.hooks)
    for hook in hooks:
        hook.after_action(state, piece)


def _pay(
    state: GameState, piece: Piece, ability: Ability, target: Piece | None, events: Events
) -> None:
    """Doing an Ability, step 2: the token goes onto the track before the ability's rules
    (FAQ: costs are paid as soon as the ability action is taken)."""
    cost = ability_cost(state, piece, ability, target)
    if cost < 1:
        events.append(f"{piece.name} does {ability.name} at no cost (Decreasing an Ability Cost).")
        return
    side = state.sides[piece.side]
    side.pool[ability.color] -= 1
    slot = min(cost, TRACK_TOP)  # Increasing an Ability Cost: above 4 goes on the 4
    side.track[slot - 1].append(("token", TokenColor(ability.color).value))
    events.append(
        f"{piece.name} does {ability.name}: a {ability.color.value} token goes on the {slot} of "
        "the cooldown track."
    )


def _end_turn(state: GameState, events: Events) -> None:
    """Taking a Turn, step 4: exhaust the character; the next side with a character to choose goes."""
    piece = state.pieces[state.active or ""]
    piece.markers += 1
    piece.exhausted = piece.markers >= piece.needed
    if piece.exhausted:
        events.append(f"{piece.name} is exhausted.")
    else:
        events.append(f"{piece.name} takes exhausted marker {piece.markers} of {piece.needed}.")
    state.active = None
    state.actions_left = 0
    state.turns += 1
    state.objective.pop("companion-free", None)
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
        state.setup.scenario.on_round_end(state)
    else:
        state.stack.pop()
        for p in state.pieces.values():
            p.markers = 0  # Refresh
            p.exhausted = False
        for key in [k for k in state.objective if k.startswith("flag-returned:")]:
            del state.objective[key]
        nxt = order[1] if len(order) > 1 else order[0]
        state.first_player = nxt  # New first player (clockwise in a free-for-all)
        state.to_act = nxt
        state.round += 1
        state.phase = Phase.CHOOSE
        events.append(
            f"Round {state.round} begins: exhausted markers removed; the First Player marker "
            f"passes to {nxt} (Ending a Round)."
        )


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
                steps.run(state, top, events)
                continue
            if isinstance(top, RoundEndFrame):
                _run_round_end(state, top, events)
                continue
            if isinstance(top, ChoiceFrame):
                if steps.options(state, top):
                    return
                state.stack.pop()
                if not top.optional and not top.hook:
                    steps.abort(state, "", events)
                continue
            if isinstance(top, ReturnFrame):
                if top.pieces and _return_options(state, top):
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
            if _place_options(state):
                return
            side = state.to_act or state.seats[0]
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
            done = state.objective.pop("after-action", None)
            if done is not None:  # the action and all it caused are over
                pid, *had = done.split("|")
                _after_action(state, state.pieces[pid], tuple(had))
            piece = state.pieces[state.active or ""]
            if state.actions_left > 0 and piece.standing and piece.square is not None:
                return  # a standing character can always move, if only 0 squares
            if _action_menu(state) == ["end"]:
                _end_turn(state, events)
                continue
            return
        return

"""Setup as decisions: the pieces of each team, choosing characters and items, and the
scenario's secret picks.

Scenario Setup, step 5: "Each player chooses a character ... If both players have
collections, choose characters and items in secret." Leaders: "Each player
secretly picks one of their characters to be a leader. Both players reveal
leaders ... at the same time." A secret pick is made in seat order; nobody sees
another's pick (see `view.observe`) until everyone has picked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from funkoverse.rules.core.cards import TOKEN_KINDS, CharacterCard
from funkoverse.rules.core.choices import Choice, Give, Leader, Pick
from funkoverse.rules.core.events import Event, EventKind, Events
from funkoverse.rules.core.numbers import ULTIMATE_MARKERS
from funkoverse.rules.core.pieces import Kind, Role
from funkoverse.rules.core.state import Draft, GameState, Phase, Piece, Setup, TeamSetup


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
            piece.needed = ULTIMATE_MARKERS if team.ultimate else 1
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
                        tid,
                        Kind(kind_name),
                        team.side,
                        None,
                        defense=defense,
                        owner=pid,
                        role=Role(token_kind),
                    )
        for color in team.extra_dots:
            side.pool[color] = side.pool.get(color, 0) + 1
        for companion_id, holder in team.companions:
            comp = setup.companions[companion_id]
            cid = f"{companion_id}-{team.side}"
            owner = holder if seen.get(holder, 0) == 1 else f"{holder}-{team.side}"
            face = CharacterCard(comp.id, comp.name, comp.box, comp.defense)
            state.pieces[cid] = Piece(
                cid,
                Kind.COMPANION,
                team.side,
                face,
                None,
                True,
                False,
                comp.defense,
                owner=owner,
                ref=companion_id,
            )
        for bonus_id in team.bonus:
            bid = f"{bonus_id}-{team.side}"
            state.pieces[bid] = Piece(
                bid,
                Kind.BONUS_OBJECTIVE,
                team.side,
                None,
                owner=team.side,
                role=Role.BONUS,
                ref=bonus_id,
            )


def order(state: GameState) -> tuple[str, ...]:
    """The seats from the first player on."""
    first = state.first_player or state.seats[0]
    i = state.seats.index(first)
    return state.seats[i:] + state.seats[:i]


def _taken(state: GameState, draft: Draft) -> set[str]:
    if draft.secret:
        return set()
    return {c for side in state.seats for c in state.sides[side].picks}


def draft_options(state: GameState) -> list[Choice]:
    """The characters, then the items, the side to choose may take."""
    draft = state.setup.draft
    side = state.to_act or ""
    if draft is None:
        return []
    mine = state.sides[side].picks
    cards = {c.id: c for c in draft.characters}
    if len(mine) < draft.size:
        names = {cards[c].name for c in mine}
        taken = _taken(state, draft)
        options = [
            c.id
            for c in draft.characters
            if c.id not in taken
            and c.id not in mine
            and c.name not in names  # same name: not allies
        ]
        needs_holder = draft.items > 0 and not any(not cards[c].basic for c in mine)
        if needs_holder and len(mine) == draft.size - 1:
            options = [c for c in options if not cards[c].basic]  # someone must hold the item
        return [Pick(c) for c in options]
    given = state.sides[side].gifts
    if len(given) < draft.items:
        used = {i for i, _ in given}
        if not draft.secret:
            used |= {i for s in state.seats for i, _ in state.sides[s].gifts}
        holders = [c for c in mine if not cards[c].basic]  # Item Setup: not basic characters
        return [Give(i, h) for i in draft.item_ids if i not in used for h in holders]
    return []


def apply_draft(state: GameState, choice: Choice, events: Events) -> None:
    """A pick or an item given: recorded for the side; named in the event, which is a
    secret of that side in a secret draft."""
    side = state.to_act or ""
    draft = state.setup.draft
    assert draft is not None
    mine = state.sides[side]
    if isinstance(choice, Pick):
        mine.picks = (*mine.picks, choice.character)
        card = next(c for c in draft.characters if c.id == choice.character)
        events.append(
            Event(
                EventKind.PICKED,
                side=side,
                card=card.id,
                name=card.name,
                secret=draft.secret,
            )
        )
    elif isinstance(choice, Give):
        mine.gifts = (*mine.gifts, (choice.item, choice.holder))
        item = state.setup.items.get(choice.item)
        events.append(
            Event(
                EventKind.ITEM_CHOSEN,
                side=side,
                card=choice.item,
                name=item.name if item else choice.item,
                other=choice.holder,
                secret=draft.secret,
            )
        )


def advance_draft(state: GameState, events: Events) -> bool:
    """Pass the choice to the next side, or reveal when all have chosen. False: a decision waits."""
    if draft_options(state):
        return False
    seats = order(state)
    side = state.to_act or seats[0]
    pos = seats.index(side)
    if pos + 1 < len(seats):
        state.to_act = seats[pos + 1]
        return True
    reveal_draft(state, events)
    return True


Chosen = Mapping[str, tuple[tuple[str, ...], tuple[tuple[str, str], ...]]]


def revealed(setup: Setup, seats: tuple[str, ...], chosen: Chosen) -> Setup:
    """The setup once the draft is revealed: each side's team is what it chose ({side:
    (character card ids, (item id, holder) given)})."""
    draft = setup.draft
    assert draft is not None
    cards = {c.id: c for c in draft.characters}
    teams = []
    for team in setup.teams or tuple(TeamSetup(s, ()) for s in seats):
        picks, gifts = chosen[team.side]
        teams.append(replace(team, characters=tuple(cards[c] for c in picks), items=gifts))
    return replace(setup, teams=tuple(teams), draft=None)


def reveal_draft(state: GameState, events: Events) -> None:
    """Both commit, then both are revealed: the chosen teams become the game's teams."""
    chosen = {s: (state.sides[s].picks, state.sides[s].gifts) for s in state.seats}
    state.setup = revealed(state.setup, state.seats, chosen)
    for team in state.setup.teams:
        names = tuple(c.name for c in team.characters)
        events.append(Event(EventKind.TEAM_REVEALED, side=team.side, names=names))
    for seat in state.seats:
        state.sides[seat].picks = ()
        state.sides[seat].gifts = ()
    create_pieces(state)
    state.to_act = state.first_player
    state.phase = Phase.SECRET if state.setup.scenario.leaders else Phase.PLACE


def secret_options(state: GameState) -> list[Choice]:
    """Leaders: the side to choose picks one of its characters, in secret."""
    side = state.to_act or ""
    if state.sides[side].leader is not None:
        return []
    return [Leader(p.id) for p in state.characters(side)]


def apply_secret(state: GameState, choice: Choice, events: Events) -> None:
    """Leaders: the pick is kept; the event names it only to its own side."""
    assert isinstance(choice, Leader)
    side = state.to_act or ""
    state.sides[side].leader = choice.piece
    events.append(Event(EventKind.LEADER_PICKED, side=side, piece=choice.piece, secret=True))


def advance_secret(state: GameState, events: Events) -> bool:
    """Pass the pick to the next side, or reveal every leader when all have picked."""
    if secret_options(state):
        return False
    seats = order(state)
    side = state.to_act or seats[0]
    pos = seats.index(side)
    if pos + 1 < len(seats):
        state.to_act = seats[pos + 1]
        return True
    state.leaders_revealed = True
    for s in seats:
        events.append(Event(EventKind.LEADER_REVEALED, side=s, piece=state.sides[s].leader))
    state.to_act = state.first_player
    state.phase = Phase.PLACE
    return True

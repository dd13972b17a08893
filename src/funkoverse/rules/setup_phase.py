"""Setup as decisions: choosing characters and items, and the scenario's secret picks.

Scenario Setup, step 5: "Each player chooses a character ... If both players have
collections, choose characters and items in secret." Leaders: "Each player
secretly picks one of their characters to be a leader. Both players reveal
leaders ... at the same time." A secret pick is made in seat order; nobody sees
another's pick (see `view.observe`) until everyone has picked.
"""

from __future__ import annotations

from dataclasses import replace

from funkoverse.rules.state import Draft, GameState, Phase, TeamSetup

Events = list[str]


def _order(state: GameState) -> tuple[str, ...]:
    first = state.first_player or state.seats[0]
    i = state.seats.index(first)
    return state.seats[i:] + state.seats[:i]


def picks(state: GameState, side: str) -> list[str]:
    raw = state.objective.get(f"draft:{side}", "")
    return raw.split(",") if raw else []


def gifts(state: GameState, side: str) -> list[tuple[str, str]]:
    raw = state.objective.get(f"items:{side}", "")
    return [tuple(g.split("@", 1)) for g in raw.split(",")] if raw else []  # type: ignore[misc]


def _taken(state: GameState, draft: Draft) -> set[str]:
    if draft.secret:
        return set()
    return {c for side in state.seats for c in picks(state, side)}


def draft_options(state: GameState) -> list[str]:
    """The characters, then the items, the side to choose may take."""
    draft = state.setup.draft
    side = state.to_act or ""
    if draft is None:
        return []
    mine = picks(state, side)
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
        return [f"pick:{c}" for c in options]
    given = gifts(state, side)
    if len(given) < draft.items:
        used = {i for i, _ in given}
        if not draft.secret:
            used |= {i for s in state.seats for i, _ in gifts(state, s)}
        holders = [c for c in mine if not cards[c].basic]  # Item Setup: not basic characters
        return [f"give:{i}:{h}" for i in draft.item_ids if i not in used for h in holders]
    return []


def apply_draft(state: GameState, choice: str, events: Events) -> None:
    side = state.to_act or ""
    head, _, rest = choice.partition(":")
    draft = state.setup.draft
    assert draft is not None
    if head == "pick":
        state.objective[f"draft:{side}"] = ",".join([*picks(state, side), rest])
        events.append(f"{side} chooses a character" + ("" if draft.secret else f": {rest}") + ".")
    else:
        item, _, holder = rest.partition(":")
        state.objective[f"items:{side}"] = ",".join(
            f"{i}@{h}" for i, h in [*gifts(state, side), (item, holder)]
        )
        events.append(
            f"{side} chooses an item" + ("" if draft.secret else f": {item} for {holder}") + "."
        )


def advance_draft(state: GameState, events: Events) -> bool:
    """Pass the choice to the next side, or reveal when all have chosen. False: a decision waits."""
    if draft_options(state):
        return False
    order = _order(state)
    side = state.to_act or order[0]
    pos = order.index(side)
    if pos + 1 < len(order):
        state.to_act = order[pos + 1]
        return True
    reveal_draft(state, events)
    return True


def reveal_draft(state: GameState, events: Events) -> None:
    """Both commit, then both are revealed: the chosen teams become the game's teams."""
    from funkoverse.rules.engine import create_pieces

    draft = state.setup.draft
    assert draft is not None
    cards = {c.id: c for c in draft.characters}
    teams = []
    for team in state.setup.teams or tuple(TeamSetup(s, ()) for s in state.seats):
        chosen = tuple(cards[c] for c in picks(state, team.side))
        teams.append(replace(team, characters=chosen, items=tuple(gifts(state, team.side))))
        events.append(f"{team.side} reveals: {', '.join(c.name for c in chosen)}.")
    state.setup = replace(state.setup, teams=tuple(teams), draft=None)
    for side in state.seats:
        state.objective.pop(f"draft:{side}", None)
        state.objective.pop(f"items:{side}", None)
    create_pieces(state)
    state.to_act = state.first_player
    state.phase = Phase.SECRET if state.setup.scenario.leaders else Phase.PLACE


def secret_options(state: GameState) -> list[str]:
    """Leaders: the side to choose picks one of its characters, in secret."""
    side = state.to_act or ""
    if f"leader:{side}" in state.objective:
        return []
    return [f"leader:{p.id}" for p in state.characters(side)]


def apply_secret(state: GameState, choice: str, events: Events) -> None:
    side = state.to_act or ""
    state.objective[f"leader:{side}"] = choice.partition(":")[2]
    events.append(f"{side} picks a leader in secret.")


def advance_secret(state: GameState, events: Events) -> bool:
    if secret_options(state):
        return False
    order = _order(state)
    side = state.to_act or order[0]
    pos = order.index(side)
    if pos + 1 < len(order):
        state.to_act = order[pos + 1]
        return True
    state.objective["revealed:leaders"] = "yes"
    for s in order:
        leader = state.pieces[state.objective[f"leader:{s}"]]
        events.append(f"{s} reveals its leader: {leader.name} (Leaders).")
    state.to_act = state.first_player
    state.phase = Phase.PLACE
    return True

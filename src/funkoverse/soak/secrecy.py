"""What no seat may read before its reveal: a rival's secret picks.

Scenario Setup, step 5: "If both players have collections, choose characters and items in
secret"; Leaders: "Each player secretly picks one of their characters to be a leader. Both
players reveal leaders ... at the same time." `leaks` reads every payload a seat (and a
spectator) is given through the session, the view as JSON, the events in words and the
log, and says in words each rival secret found there. The soak asks it after every choice
while a secret is kept; `tests/test_secrecy.py` asks it over thousands of drafts.
"""

from __future__ import annotations

import json

from funkoverse.rules import GameState, Session, Setup, view_to_json
from funkoverse.rules.core.events import words


def drafted_in_secret(setup: Setup) -> bool:
    """Whether the game's teams are chosen in secret (Scenario Setup, step 5)."""
    draft = setup.spec.draft if setup.spec is not None else None
    return draft is not None and draft.secret


def secret_kept(session: Session, teams_revealed: bool) -> bool:
    """Whether a secret is kept now: teams chosen in secret not yet revealed, or leaders
    picked in secret not yet revealed."""
    state = session.view(None)
    secret_teams = drafted_in_secret(session.setup) and not teams_revealed
    return secret_teams or (state.setup.scenario.leaders and not state.leaders_revealed)


def leaks(
    session: Session,
    teams_revealed: bool,
    secret_draft: bool = True,
    real: GameState | None = None,
) -> tuple[list[str], int]:
    """Every rival secret that a seat's or the spectator's payloads show, in words, and how
    many (seat, rival) pairs were read. `teams_revealed`: the teams chosen in secret have
    been revealed; `secret_draft`: the teams are chosen in secret (otherwise picks are
    public as they are made). The secrets are read from `real`, the position itself, or
    else from each side's own view, which shows that side its own picks."""
    views = {seat: session.view(seat) for seat in (*session.seats, None)}
    state = views[None]
    secrets = {}
    for side in state.seats:
        mine = (real or views[side]).sides[side]
        secrets[side] = (set(mine.picks), {item for item, _ in mine.gifts}, mine.leader)
    names = session.names()
    found: list[str] = []
    checks = 0
    for seat in (*state.seats, None):
        who = seat or "the spectator"
        view = view_to_json(views[seat])
        text = json.dumps(view)
        events = [e for _, e in session.events(seat)]
        said = " ".join(words(e, names) for e in events)
        log = session.log(seat)
        for rival, (picks, items, leader) in secrets.items():
            if rival == seat:
                continue
            mine = view["sides"][rival]
            if secret_draft and not set(mine["picks"]) <= {"?"}:
                found.append(f"{who} sees {rival}'s picks {mine['picks']}")
            if secret_draft and not all(g == ["?", "?"] for g in mine["items_chosen"]):
                found.append(f"{who} sees {rival}'s items {mine['items_chosen']}")
            if secret_draft and not teams_revealed:
                own = secrets[seat][0] | secrets[seat][1] if seat is not None else set()
                for card in sorted((picks | items) - own):
                    if f'"{card}"' in text:
                        found.append(f"{who}'s view names {rival}'s secret pick {card}")
            if not state.leaders_revealed and mine["leader"] not in (None, "?"):
                found.append(f"{who} sees {rival}'s leader {mine['leader']}")
            for e in events:
                if (
                    e.secret
                    and e.side == rival
                    and not (e.card is None and e.name is None and e.piece is None)
                ):
                    found.append(f"{who} is told {rival}'s secret pick: {e.kind.value}")
            for entry in log:
                if entry.secret and entry.seat == rival and entry.choice != "?":
                    found.append(f"{who} reads {rival}'s secret choice {entry.choice}")
            told = leader is not None and f"picks {names.get(leader)}" in said
            if told and not state.leaders_revealed:
                found.append(f"{who} is told {rival}'s leader in words")
            checks += 1
    return found, checks

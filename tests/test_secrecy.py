"""Secrets stay secret: no seat ever sees a rival's secret pick before its reveal.

Scenario Setup, step 5: "If both players have collections, choose characters and items in
secret"; Leaders: "Each player secretly picks one of their characters to be a leader. Both
players reveal leaders ... at the same time." Over 2,000 random games with secret drafts
(characters and items) and secret leaders, every seat's view, events and log, and the
spectator's, are checked at every entry until both reveals are behind."""

from __future__ import annotations

import json

import pytest

from funkoverse.ai.agents import RandomAgent
from funkoverse.content.setups import SetupRequest, build, draw_spec
from funkoverse.rules.events import EventKind, words
from funkoverse.rules.serialize import view_to_json
from funkoverse.rules.session import Session
from funkoverse.rules.state import Phase

GAMES = 2000
CHUNKS = 8


def _check(session: Session, revealed_teams: bool) -> int:
    """Every seat's payloads against every rival's secret picks; returns the checks made."""
    state = session.state
    secrets = {
        side: (
            set(state.sides[side].picks),
            {item for item, _ in state.sides[side].gifts},
            state.sides[side].leader,
        )
        for side in state.seats
    }
    names = session.names()
    checks = 0
    for seat in (*state.seats, None):
        view = view_to_json(session.view(seat))
        text = json.dumps(view)
        events = [e for _, e in session.events(seat)]
        said = " ".join(words(e, names) for e in events)
        log = session.log(seat)
        for rival, (picks, items, leader) in secrets.items():
            if rival == seat:
                continue
            mine = view["sides"][rival]
            assert set(mine["picks"]) <= {"?"}, (seat, rival, mine["picks"])
            assert all(g == ["?", "?"] for g in mine["items_chosen"])
            if not revealed_teams:
                own = secrets[seat][0] | secrets[seat][1] if seat is not None else set()
                for card in (picks | items) - own:
                    assert f'"{card}"' not in text, (seat, rival, card)
            if not state.leaders_revealed:
                assert mine["leader"] in (None, "?")
            for e in events:
                if e.secret and e.side == rival:
                    assert e.card is None and e.name is None and e.piece is None
            for entry in log:
                if entry.secret and entry.seat == rival:
                    assert entry.choice == "?"
            if leader is not None and not state.leaders_revealed:
                assert f"picks {names.get(leader)}" not in said
            checks += 1
    return checks


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_no_seat_sees_a_rivals_secret_pick_before_its_reveal(chunk: int) -> None:
    checks = 0
    for seed in range(chunk, GAMES, CHUNKS):
        scenario = ("leaders", "flags", "leaders", "control")[seed % 4]
        size = 3 if seed % 3 else 2
        spec = draw_spec(SetupRequest(scenario=scenario, draft=size), seed)
        session = Session(build(spec), seed)
        agent = RandomAgent(seed)
        revealed_teams = False
        while not session.over and session.state.phase is not Phase.CHOOSE:
            checks += _check(session, revealed_teams)
            seat = session.decider
            assert seat is not None
            session.play(seat, agent.choose(session.view(seat), session.choices(seat)))
            revealed_teams = revealed_teams or any(
                e.kind is EventKind.TEAM_REVEALED for e in session.records[-1]
            )
        checks += _check(session, True)
        assert revealed_teams
        if scenario == "leaders":
            assert session.state.leaders_revealed
    assert checks > 10_000

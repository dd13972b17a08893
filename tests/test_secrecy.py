"""Secrets stay secret: no seat ever sees a rival's secret pick before its reveal.

Scenario Setup, step 5: "If both players have collections, choose characters and items in
secret"; Leaders: "Each player secretly picks one of their characters to be a leader. Both
players reveal leaders ... at the same time." Over 2,000 random games with secret drafts
(characters and items) and secret leaders, every seat's view, events and log, and the
spectator's, are checked at every entry until both reveals are behind."""

from __future__ import annotations

import pytest

from funkoverse.ai.agents import RandomAgent
from funkoverse.content.setups import SetupRequest, build, draw_spec
from funkoverse.rules.core.events import EventKind
from funkoverse.rules.core.state import Phase
from funkoverse.rules.session import Session
from funkoverse.soak.secrecy import leaks

GAMES = 2000
CHUNKS = 8


def _check(session: Session, revealed_teams: bool) -> int:
    """Every seat's payloads against every rival's secret picks; returns the checks made."""
    found, checks = leaks(session, revealed_teams, real=session.state)
    assert not found, found
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

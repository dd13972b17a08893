"""One source of legality, asked two ways: `menus.is_legal(state, c)` (what `apply` checks,
working out only that choice) equals `c in menus.legal(state)` for every legal choice and
for every plausible illegal one (every square to move to, every piece to challenge or
assist or choose, every ability, item, companion action, rally and end), at every decision
of random games of every scenario and way to play."""

from __future__ import annotations

import pytest

from funkoverse.ai.agents import RandomAgent
from funkoverse.content.setups import SetupRequest, build, draw_spec
from funkoverse.rules.core import world
from funkoverse.rules.core.choices import (
    Assist,
    Challenge,
    Choice,
    Choose,
    CompanionAction,
    End,
    Interact,
    Move,
    Rally,
    UseAbility,
    UseItem,
)
from funkoverse.rules.core.errors import IllegalChoice
from funkoverse.rules.core.state import GameState
from funkoverse.rules.play import engine, menus
from funkoverse.rules.session import Session

REQUESTS = [
    SetupRequest(scenario="flags", size=3),
    SetupRequest(scenario="leaders", size=2),
    SetupRequest(scenario="control", size=3),
    SetupRequest(scenario="knockout", size=1),
    SetupRequest(scenario="first-knockout"),
    SetupRequest(scenario="monsters-first-game"),
    SetupRequest(scenario="brawl", players=4),
    SetupRequest(scenario="titans"),
    SetupRequest(scenario="flags", size=3, mode="teams", players=4),
]


def candidates(state: GameState) -> list[Choice]:
    """Choices of every action kind a position could be asked about, legal or not."""
    board = state.board
    out: list[Choice] = [End(), Rally()]
    out.extend(Move(board.label(sq)) for sq in board.squares)
    for p in state.pieces.values():
        out.extend((Challenge(p.id), Assist(p.id), Choose(p.id), Interact(p.id)))
        for ability in world.abilities_of(state, p):
            out.append(UseAbility(ability.id))
            out.extend(UseAbility(ability.id, t) for t in state.pieces)
        out.extend(UseItem(i) for i in p.items)
        card = state.setup.companions.get(p.ref)
        if card is not None:
            for action in card.actions:
                out.extend((CompanionAction(action.id), CompanionAction(action.id, free=True)))
    return out


@pytest.mark.parametrize("chunk", range(4))
def test_is_legal_agrees_with_the_legal_choices_everywhere(chunk: int) -> None:
    asked = 0
    for seed in range(chunk, 120, 4):
        spec = draw_spec(REQUESTS[seed % len(REQUESTS)], seed)
        session = Session(build(spec), seed)
        agent = RandomAgent(seed)
        while not session.over and session.state.round <= 8:
            state = session.state
            legal = set(menus.legal(state))
            for c in legal:
                assert menus.is_legal(state, c), (seed, c)
            if seed % 3 == 0 or state.round <= 2:
                for c in candidates(state):
                    assert menus.is_legal(state, c) == (c in legal), (seed, c)
                    asked += 1
            seat = session.decider
            assert seat is not None
            session.play(seat, agent.choose(session.view(seat), session.choices(seat)))
    assert asked > 50_000


def test_apply_refuses_what_is_not_legal_and_changes_nothing() -> None:
    spec = draw_spec(SetupRequest(scenario="flags", size=3), 4)
    session = Session(build(spec), 4)
    agent = RandomAgent(4)
    while session.state.round < 2:
        seat = session.decider
        assert seat is not None
        session.play(seat, agent.choose(session.view(seat), session.choices(seat)))
    state = session.state
    before = state.key()
    for c in candidates(state):
        if c not in menus.legal(state):
            with pytest.raises(IllegalChoice):
                engine.apply(state, c)
            assert state.key() == before

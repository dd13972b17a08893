"""Free-for-All: a player leaves the game (resigns, runs out of time) and the others play on.

The rulings are in docs/rulings.md ("A player leaves a free-for-all") and `rules.play.leaving`:
its characters, companions and minion tokens are removed as knocked out and never return,
it takes no more turns, the First Player marker passes at the round's end to the next
player still in the game, and the last player left wins. Each test runs on both engines
(conftest, RULE_TESTS): the kernel holds no seat that left, so a game on it is played again
on the Python engine from the leaving on, saying why; a saved log replays to the same
position on either engine.
"""

from __future__ import annotations

import json

import pytest

from funkoverse.ai.agents import RandomAgent
from funkoverse.content.setups import SetupRequest, build, draw_spec
from funkoverse.rules.core.errors import GameOver, IllegalChoice
from funkoverse.rules.core.events import EventKind
from funkoverse.rules.core.state import Phase
from funkoverse.rules.engines import KERNEL, PYTHON
from funkoverse.rules.session import Entry, Session


def _brawl(players: int = 3, seed: int = 5) -> Session:
    spec = draw_spec(SetupRequest(scenario="brawl", players=players), seed)
    return Session(build(spec), seed)


def _play(session: Session, until: object, agent: RandomAgent, limit: int = 3000) -> None:
    """Random choices until `until(session)` holds (or the game is over)."""
    for _ in range(limit):
        if session.over or until(session):  # type: ignore[operator]
            return
        seat = session.decider
        assert seat is not None
        session.play(seat, agent.choose(session.view(seat), session.choices(seat)))
    raise AssertionError("the position looked for never came")


def _fell_back_if_kernel(session: Session, rules_engine: str) -> None:
    if rules_engine == "kernel":
        assert session.fallback is not None and "left the free-for-all" in session.fallback
    else:
        assert session.engine is PYTHON


def _choosing(session: Session) -> bool:
    return session.phase is Phase.CHOOSE and session.round >= 1 and not session.peek().stack


def test_free_for_all_a_player_who_leaves_is_removed_as_knocked_out_and_never_returns(
    rules_engine: str,
) -> None:
    session = _brawl()
    agent = RandomAgent(2)
    _play(session, _choosing, agent)
    leaver = next(s for s in session.seats if s != session.decider)
    theirs = [p.id for p in session.peek().characters(leaver)]
    events = list(session.leave("resign", leaver, leaver))
    _fell_back_if_kernel(session, rules_engine)
    out = [e for e in events if e.kind is EventKind.KNOCKED_OUT]
    assert sorted(e.piece for e in out) == sorted(theirs)
    assert all(e.rule == "Free-for-All" for e in out)
    assert session.entries[-1] == Entry("resign", f"leave:{leaver}", leaver)
    assert session.gone == (leaver,) and not session.over
    start = session.round
    while not session.over and session.round < start + 3:  # through the cooldowns of rounds
        state = session.peek()
        for pid in theirs:  # Cooldown Tracks: nothing of theirs shifts off to return
            assert state.pieces[pid].square is None
            assert state.sides[leaver].track_position(("character", pid)) is None
        assert session.decider != leaver  # its turns are skipped
        assert session.choices(leaver) == []
        _play(session, lambda s, v=session.version: s.version > v, agent)


def test_free_for_all_the_player_taking_a_turn_leaves_and_the_next_player_clockwise_goes(
    rules_engine: str,
) -> None:
    session = _brawl(players=4, seed=8)
    agent = RandomAgent(4)
    _play(session, lambda s: s.phase is Phase.ACT and s.round >= 1, agent)
    leaver = session.decider
    assert leaver is not None
    seats = session.seats
    before = session.peek()
    clockwise = [seats[(seats.index(leaver) + i) % len(seats)] for i in range(1, len(seats))]
    expected = next(s for s in clockwise if any(not p.exhausted for p in before.characters(s)))
    session.leave("resign", leaver, leaver)
    _fell_back_if_kernel(session, rules_engine)
    state = session.peek()
    assert state.active is None or state.pieces[state.active].side != leaver
    assert session.decider == expected  # Taking a Turn: the next player clockwise goes


def test_free_for_all_the_first_player_marker_passes_to_the_next_player_still_in_the_game(
    rules_engine: str,
) -> None:
    session = _brawl(players=4, seed=3)
    agent = RandomAgent(6)
    _play(session, _choosing, agent)
    first = session.peek().first_player
    assert first is not None
    seats = session.seats
    session.leave("timeout", first, first)
    round_now = session.round
    # Free-for-All: "the first player marker is passed clockwise at the end of the round";
    # it lies where the player left it until then
    assert session.peek().first_player == first
    _play(session, lambda s: s.round > round_now, agent)
    assert not session.over
    after = seats[(seats.index(first) + 1) % len(seats)]
    assert session.peek().first_player == after  # the one who would have had it anyway


def test_free_for_all_the_last_player_left_wins(rules_engine: str) -> None:
    session = _brawl()
    agent = RandomAgent(1)
    _play(session, _choosing, agent)
    first, second, last = session.seats
    session.leave("resign", first, first)
    assert not session.over
    events = list(session.leave("timeout", second, second))
    assert session.over and session.winner == last and session.ended_outside
    assert [e.side for e in events if e.kind is EventKind.WINNER] == [last]
    with pytest.raises(GameOver):
        session.leave("resign", last, last)


def test_free_for_all_a_player_who_left_gains_no_points_and_cannot_win(
    rules_engine: str,
) -> None:
    """Winning a Scenario: the most points at a round's end wins, among those still in."""
    session = _brawl()
    _play(session, _choosing, RandomAgent(3))
    leaver = session.seats[0]
    session.leave("resign", leaver, leaver)
    state = session.state
    scenario = state.setup.scenario
    target = scenario.points_to_win(state)
    assert target is not None
    state.sides[leaver].points = target + 5
    others = [s for s in state.seats if s != leaver]
    state.sides[others[0]].points = target
    scenario.check_winner(state)
    assert state.winner == others[0]
    scenario.gain(state, leaver, 3, "knock-out", [])
    assert state.sides[leaver].points == target + 5


def test_only_a_free_for_all_player_leaves_and_only_once(rules_engine: str) -> None:
    two = Session(build(draw_spec(SetupRequest(scenario="flags"), 3)), 3)
    _play(two, _choosing, RandomAgent(1))
    seen = two.state.key()
    with pytest.raises(IllegalChoice, match="free-for-all"):
        two.leave("resign", "dark", "dark")
    assert two.state.key() == seen and two.version == len(two.entries)
    session = _brawl()
    _play(session, _choosing, RandomAgent(1))
    session.leave("resign", session.seats[1], session.seats[1])
    with pytest.raises(IllegalChoice, match="already left"):
        session.leave("resign", session.seats[1], session.seats[1])
    with pytest.raises(IllegalChoice, match="not a seat"):
        session.leave("resign", "nobody", "nobody")


def test_a_log_with_a_player_leaving_replays_to_the_same_position_on_both_engines(
    rules_engine: str,
) -> None:
    session = _brawl(players=4, seed=9)
    agent = RandomAgent(7)
    _play(session, lambda s: s.version >= 40 and _choosing(s), agent)
    leaver = session.seats[2]
    session.leave("resign", leaver, leaver)
    _play(session, lambda s, v=session.version: s.version >= v + 60, agent)
    saved = json.loads(json.dumps(session.to_json()))
    for engine in (PYTHON, KERNEL):
        again = Session.from_json(saved, build, engine=engine)
        assert again.state.key() == session.state.key()
        assert again.gone == (leaver,) and again.decider == session.decider
        if engine is KERNEL:
            assert again.fallback is not None and leaver in again.fallback


def test_an_undo_after_a_player_left_never_takes_the_leaving_back(rules_engine: str) -> None:
    session = _brawl(seed=12)
    agent = RandomAgent(5)
    _play(session, _choosing, agent)
    leaver = session.seats[0] if session.decider != session.seats[0] else session.seats[1]
    session.leave("resign", leaver, leaver)
    assert session.undoable() == 0  # no undo reaches back past what players did at the table
    at_leaving = session.state.key()
    seat = session.decider
    assert seat is not None
    moves = [c for c in session.choices(seat) if c.kind == "choose"]
    session.play(seat, moves[0])
    assert session.undoable() == 1
    session.undo()  # the game is played again from its log: the leaving with it
    assert session.state.key() == at_leaving and session.gone == (leaver,)

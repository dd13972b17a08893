"""The session: the one authority loop every game is played through.

It gives a seat only its own legal choices and the game as it may see it, refuses a
choice from the wrong seat, for an old version or for a game that is over (changing
nothing), draws chance at once, keeps each entry's events, takes back choices up to the
last roll or reveal, and saves a game that reloads to the identical position."""

from __future__ import annotations

import json
import random

import pytest

from funkoverse.ai.agents import RandomAgent
from funkoverse.content.setups import SetupRequest, build, draw_spec, first_game_spec
from funkoverse.rules.core.choices import RollOutcome
from funkoverse.rules.core.errors import (
    GameOver,
    IllegalChoice,
    NothingToUndo,
    NotYourTurn,
    StaleVersion,
)
from funkoverse.rules.core.events import EventKind
from funkoverse.rules.core.state import CHANCE
from funkoverse.rules.core.view import observe
from funkoverse.rules.session import CHANCE_ENTRY, UNDO, Entry, Session


def _session(scenario: str = "flags", seed: int = 3, **kw: object) -> Session:
    spec = draw_spec(SetupRequest(scenario=scenario, **kw), seed)  # type: ignore[arg-type]
    return Session(build(spec), seed)


def _random_to(session: Session, entries: int, seed: int = 1) -> None:
    agent = RandomAgent(seed)
    while not session.over and session.version < entries:
        seat = session.decider
        assert seat is not None
        session.play(seat, agent.choose(session.view(seat), session.choices(seat)))


def test_chance_is_drawn_at_once_so_a_seat_always_decides() -> None:
    """The First Player flip and every roll are drawn by the session with the game's
    generator as soon as the game reaches them."""
    session = Session(build(first_game_spec()), 3)
    assert session.decider in session.seats
    assert session.entries[0].kind == CHANCE_ENTRY and session.entries[0].choice.startswith(
        "first:"
    )
    _random_to(session, 600)
    assert session.decider != CHANCE
    rolls = [i for i, e in enumerate(session.entries) if e.choice.startswith("roll:")]
    assert rolls and all(session.entries[i].kind == CHANCE_ENTRY for i in rolls)
    dice = [e for i in rolls for e in session.records[i] if e.kind is EventKind.DICE]
    assert len(dice) == len(rolls)  # every roll shows its faces


def test_only_the_decider_gets_choices_and_a_copy_of_its_view() -> None:
    session = _session()
    seat = session.decider
    other = next(s for s in session.seats if s != seat)
    assert session.choices(seat) and session.choices(other) == [] and session.choices(None) == []
    view = session.view(seat)
    assert view is not session.state and view.key() == session.state.key()


def test_refusals_change_nothing() -> None:
    """A choice from a seat that is not the decider, for another version, not legal, or for a
    game that is over is refused, and the game is as it was."""
    session = _session()
    seat = session.decider
    assert seat is not None
    other = next(s for s in session.seats if s != seat)
    choice = session.choices(seat)[0]
    key, version = session.state.key(), session.version
    with pytest.raises(NotYourTurn):
        session.play(other, choice)
    with pytest.raises(StaleVersion):
        session.play(seat, choice, version + 1)
    with pytest.raises(IllegalChoice):
        session.play(seat, "fly:z99")
    with pytest.raises(IllegalChoice):
        session.play(seat, "move:z99")
    assert session.state.key() == key and session.version == version
    session.play(seat, choice, version)
    assert session.version > version


def test_a_game_over_refuses_choices_and_undos() -> None:
    session = Session(build(first_game_spec()), 5)
    _random_to(session, 10_000)
    assert session.over and session.winner is not None
    with pytest.raises(GameOver):
        session.play(session.seats[0], "end")
    with pytest.raises(GameOver):
        session.undo()


def test_undo_takes_back_every_choice_since_the_last_roll_and_is_an_entry_of_its_own() -> None:
    """Undo goes back to the last chance outcome or secret reveal, never across it; the undone
    entries stay in the log, marked, so versions are never reused."""
    session = _session()
    agent = RandomAgent(4)
    while True:
        seat = session.decider
        assert seat is not None
        before = session.state.key()
        session.play(seat, agent.choose(session.view(seat), session.choices(seat)))
        if session.entries[-1].kind == "choice" and session.undoable() >= 2:
            break
    n = session.undoable()
    version = session.version
    last_chance = max(i for i, e in enumerate(session.entries) if e.kind != "choice")
    session.undo()
    assert session.version == version + 1 and session.entries[-1].kind == UNDO
    assert sum(e.undone for e in session.entries) == n
    assert all(not e.undone for e in session.entries[: last_chance + 1])
    assert session.undoable() == 0
    with pytest.raises(NothingToUndo):
        session.undo()
    replayed = Session(session.setup, session.seed, session.entries)
    assert replayed.state.key() == session.state.key()
    assert before != session.state.key() or n >= 1


def test_a_saved_game_reloads_to_the_identical_position_at_every_prefix() -> None:
    """A game file is its spec, seed and log: written after any choice, it plays again to the
    same position, undos included."""
    for scenario, seed in (
        ("flags", 1),
        ("leaders", 2),
        ("control", 3),
        ("brawl", 4),
        ("titans", 5),
    ):
        session = _session(scenario, seed)
        agent = RandomAgent(seed)
        rng = random.Random(seed)
        checked = 0
        while not session.over and session.version < 260:
            seat = session.decider
            assert seat is not None
            if session.undoable() and rng.random() < 0.05:
                session.undo()
            else:
                session.play(seat, agent.choose(session.view(seat), session.choices(seat)))
            data = json.loads(json.dumps(session.to_json()))
            again = Session.from_json(data, build)
            assert again.state.key() == session.state.key(), (scenario, session.version)
            assert again.version == session.version
            checked += 1
        assert checked > 100


def test_a_damaged_log_is_refused_where_it_goes_wrong() -> None:
    session = _session()
    _random_to(session, 40)
    data = session.to_json()
    entries = [Entry.from_json(e) for e in data["log"]]
    bad = [*entries[:20], Entry("choice", "move:z99", entries[20].seat), *entries[21:]]
    with pytest.raises(IllegalChoice, match="log entry 21"):
        Session(session.setup, session.seed, bad)
    rolls = [i for i, e in enumerate(entries) if e.choice.startswith("roll:")]
    if rolls:
        i = rolls[0]
        flipped = RollOutcome(entries[i].choice == "roll:lose").format()
        lying = [*entries[:i], Entry(CHANCE_ENTRY, flipped), *entries[i + 1 :]]
        with pytest.raises(IllegalChoice, match="dice of this seed"):
            Session(session.setup, session.seed, lying)
    with pytest.raises(ValueError):
        Session.from_json({**data, "format": "chess"}, build)
    with pytest.raises(ValueError, match="seed"):
        Session.from_json({**data, "seed": "seven"}, build)


def test_the_log_hides_a_rivals_secret_picks_until_the_game_is_over() -> None:
    """Scenario Setup, step 5: picks made in secret; the raw log of choices never shows another
    seat's pick (only a finished game's replay does)."""
    spec = draw_spec(SetupRequest(scenario="leaders", draft=3), 7)
    session = Session(build(spec), 7)
    _random_to(session, 14)
    picks = [e for e in session.entries if e.secret]
    assert {e.seat for e in picks} == {"dark", "light"}
    for seat in ("dark", "light", None):
        shown = session.log(seat)
        for entry, seen in zip(session.entries, shown, strict=True):
            if entry.secret and entry.seat != seat:
                assert seen.choice == "?"
            else:
                assert seen.choice == entry.choice
    _random_to(session, 20_000)
    if session.over:
        assert session.log("light") == session.entries


def test_play_out_hands_each_seat_the_observed_game() -> None:
    """Agents are handed the game as their seat may see it, never the real state."""
    session = _session("leaders", 2)
    seen: list[object] = []

    def decide(turn):  # type: ignore[no-untyped-def]
        real = session.peek()
        assert turn.view is not real
        assert turn.view.key() == observe(real, turn.seat).key()
        seen.append(turn.view)
        return turn.choices[0]

    session.play_out({s: decide for s in session.seats}, max_rounds=1)
    assert seen


# -- endings outside the rules of play ---------------------------------------------------


def test_a_resignation_ends_the_game_with_the_other_side_winning_and_replays() -> None:
    session = _session()
    _random_to(session, 12)
    before = session.version
    session.end("resign", "dark", "light")
    assert session.over and session.decider is None and session.winner == "light"
    assert session.entries[before] == Entry("resign", "win:light", "dark")
    assert session.choices("light") == [] and session.ended_outside
    with pytest.raises(GameOver):
        session.play("light", "pass")
    with pytest.raises(GameOver):
        session.end("timeout", "light", "dark")
    again = Session.from_json(json.loads(json.dumps(session.to_json())), build)
    assert again.over and again.winner == "light" and again.version == session.version
    assert Session.prefix(session, before).over is False


def test_a_claim_handing_a_seat_to_the_computer_changes_no_piece_and_stops_undo() -> None:
    session = _session()
    _random_to(session, 12)
    seen = session.state.key()
    decider = session.decider
    session.note("claim", "light", f"ai:{decider}")
    assert session.state.key() == seen and session.decider == decider and not session.over
    assert session.undoable() == 0  # no undo reaches back past what players did at the table
    assert session.entries[-1] == Entry("claim", f"ai:{decider}", "light")
    again = Session(session.setup, session.seed, session.entries)
    assert again.state.key() == seen and again.version == session.version


def test_an_entry_after_the_game_ended_is_refused_on_replay() -> None:
    session = _session()
    _random_to(session, 6)
    entries = [*session.entries, Entry("timeout", "win:dark", "light")]
    with pytest.raises(IllegalChoice, match="already over"):
        Session(session.setup, session.seed, [*entries, Entry("resign", "win:light", "dark")])

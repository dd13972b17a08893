"""The compiled kernel plays exactly the Python engine's game.

The Python engine is the reference. Thousands of seeded games of every way to play are
played through both, choice by choice (tests/kernelgames.py): the same legal choices in the
same order, one choice's legality equal to its place in that list, the same events and the
same position after every step. The map's sight tables, the position's way into the kernel
and back, the numbering both sides share, the switch that selects the Python engine and the
setups the kernel leaves to it are tested here too.
"""

from __future__ import annotations

import os
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest

from funkoverse.bench.workloads import flags_spec
from funkoverse.content.maps import load_map
from funkoverse.content.setups import SetupRequest, build, draw_spec, make_setup, team
from funkoverse.rules import _kernel, bridge
from funkoverse.rules.core import schema, traits
from funkoverse.rules.core.cards import Ability, TokenColor
from funkoverse.rules.core.events import EventKind
from funkoverse.rules.core.hooks import Hook
from funkoverse.rules.core.scenario import Scenario
from funkoverse.rules.core.state import CHANCE, Phase
from funkoverse.rules.engines import KERNEL, PYTHON, Engine
from funkoverse.rules.game import Game
from funkoverse.rules.play import engine
from funkoverse.rules.session import Session
from kernelgames import KINDS, compare, drafted, varied_setup, whole

GAMES = 2040  # at least 2,000 seeded games, every kind of setup 102 times
DRAFTS = 200  # and drafts from odd pools
CHUNKS = 11  # coprime to the kinds of setups: every chunk plays every kind
MAPS = (
    "urzari-jungle",
    "themyscira",
    "draculas-castle",
    "frankensteins-lab",
    "funko-factory",
    "proving-grounds",
)

pytestmark = pytest.mark.skipif(
    not bridge.built() and not os.environ.get("CI"), reason="the kernel is not built here"
)


def test_the_kernel_is_built() -> None:
    """`pip install -e .` builds the kernel (gcc is on every machine this runs on); CI fails
    rather than quietly testing the Python engine alone."""
    assert bridge.built()


def test_both_sides_number_choices_events_and_words_alike() -> None:
    from funkoverse.rules import _kernel

    assert _kernel.enums() == {
        "choices": bridge.C_GIVE + 1,
        "events": len(EventKind),
        "ops": len(bridge.OPS),
        "misc": len(bridge.MISC),
        "pieces": bridge.MAX_PIECES,
        "slot": bridge.SLOT_CAP,
        "targets": bridge.TARGETS_CAP,
        "returns": bridge.RETURN_CAP,
        "picks": bridge.PICK_CAP,
        "gifts": bridge.GIFT_CAP,
        "event_bytes": bridge.EVENT_ROW.size,  # an event's struct, read as it is laid out
    }


def test_both_sides_name_the_shared_enums_alike_in_the_same_order() -> None:
    """The kinds of pieces, roles, phases, colors, track kinds, effect words, choice kinds,
    the trait vocabulary's words, event kinds, frames and strings the two sides share, and the limits
    of a kernel position: the built kernel answers the names it was compiled with, and they
    are the schema's, member by member in the same order (a count alone would let two
    swapped members through); the bridge numbers choices and events by the same schema."""
    built = _kernel.schema()
    for shared in schema.ENUMS:
        assert built[shared.name] == list(shared.members), shared.name
    assert built["limits"] == schema.LIMIT
    assert built["EventKind"] == [f"E_{k.name}" for k in EventKind]
    choice_kinds = sorted(
        (getattr(bridge, n), n) for n in dir(bridge) if n.startswith("C_") and n.isupper()
    )
    assert built["ChoiceKind"] == [n for _, n in choice_kinds]
    assert built["ChoiceKind"] == [
        "C_" + re.sub(r"(?<=[a-z])(?=[A-Z])", "_", c.__name__).upper()
        for c in schema.CHOICE_CLASSES
    ]
    assert [w for w in schema.BY_NAME["Op"].words] == list(bridge.OPS)
    for enum, words in (
        ("When", traits.WHEN),
        ("Who", traits.WHO),
        ("Need", traits.NEEDS),
        ("Offer", traits.OFFERS),
        ("EffectOp", traits.EFFECTS),
    ):
        assert list(schema.BY_NAME[enum].words) == list(words), enum
    assert built["limits"]["MAX_PIECES"] == bridge.MAX_PIECES


def test_the_kernels_header_is_written_from_the_schema() -> None:
    """The header the kernel was compiled from is the one the schema writes now: an edit of
    the schema without a build, or of the header by hand, fails here."""
    on_disk = Path(schema.__file__).parents[1] / "kernel" / schema.HEADER
    assert on_disk.read_text() == schema.header()


@pytest.mark.parametrize("map_id", MAPS)
def test_sight_tables_equal_the_boards(map_id: str) -> None:
    """What Your Character Can See, as the map alone decides it: the kernel's tables (built
    in integer arithmetic) equal `Board.sight_from` for every square of every map."""
    board = load_map(map_id)
    tables = bridge.board_tables(board)
    for origin in board.squares:
        base, between, shadow = tables.sight(origin)
        expected = board.sight_from(origin)
        assert set(base) == expected.base, (map_id, board.label(origin))
        assert {t: tuple(between[t]) for t in base} == {t: expected.between[t] for t in base}
        assert {s: frozenset(v) for s, v in shadow.items()} == dict(expected.shadow)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_seeded_games_of_every_kind_play_identically(chunk: int) -> None:
    kinds: set[int] = set()
    steps = 0
    for seed in range(chunk, GAMES, CHUNKS):
        steps += compare(varied_setup(seed), seed).steps
        kinds.add(seed % KINDS)
    assert len(kinds) == KINDS  # every chunk plays every kind of setup
    assert steps > 50_000


@pytest.mark.parametrize("chunk", range(4))
def test_drafts_from_odd_pools_play_identically(chunk: int) -> None:
    """Scenario Setup, step 5 as decisions, from pools the shipped setups do not draw: one
    character twice, the house-made minion item, none to two items, both sides picking the
    same character in secret, the First Player given or flipped."""
    for seed in range(chunk, DRAFTS, 4):
        compare(drafted(seed), seed, max_rounds=20)


def test_the_benchs_random_games_are_the_same_games_on_both_engines() -> None:
    """`funkoverse bench` drives the kernel by its integer codes and the Python engine by its
    values: for one seed, the same game (as many steps, the same dice)."""
    from funkoverse.bench.workloads import WORKLOADS, random_game, session_game

    for name, spec_of in WORKLOADS.items():
        for seed in range(4):
            kernel = random_game(spec_of(seed), seed, KERNEL)
            python = random_game(spec_of(seed), seed, PYTHON)
            assert kernel == python, (name, seed)
            # the session's API plays the same games on either engine
            assert session_game(spec_of(seed), seed, KERNEL) == kernel
            assert session_game(spec_of(seed), seed, PYTHON) == python


def test_a_position_goes_into_the_kernel_and_back_unchanged_at_every_step() -> None:
    for seed in range(3):
        game = Game(build(flags_spec(seed)), seed, PYTHON)
        rng = random.Random(seed)
        while not game.over:
            tables, kernel = bridge.load(game.state)
            back = tables.state(kernel, game.state.setup)
            assert whole(back) == whole(game.state)
            if game.decider == CHANCE:
                game.play_chance()
            else:
                legal = engine.choices(game.state)
                game.play(legal[rng.randrange(len(legal))])


def test_every_code_reads_back_to_its_choice() -> None:
    game = Game(build(flags_spec(4)), 4)
    tables = bridge.tables_for(game.state)
    rng = random.Random(4)
    while not game.over:
        legal = game.legal()
        for c in legal:
            code = tables.code(c)
            assert code is not None and tables.choice(code) == c
        game.play(game.sample_chance()[0] if game.decider == CHANCE else rng.choice(legal))


def test_a_game_is_played_on_the_engine_its_edge_chooses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The engine is chosen where a game is started: the kernel when it is built, the
    Python engine when asked for (`--engine python`, or FUNKOVERSE_ENGINE read by the
    command line only)."""
    import argparse

    from funkoverse.cli.engine import engine_of

    setup = build(flags_spec(1))
    assert Game(setup, 1).uses_kernel
    assert not Game(setup, 1, PYTHON).uses_kernel
    assert engine_of(argparse.Namespace(engine="python")) is PYTHON
    monkeypatch.setenv("FUNKOVERSE_ENGINE", "python")
    assert engine_of(argparse.Namespace(engine=None)) is PYTHON
    assert engine_of(argparse.Namespace(engine="kernel")) is KERNEL
    assert Game(setup, 1).uses_kernel  # the core reads no environment


@pytest.mark.parametrize("name", ["kernel", "python"])
def test_the_server_plays_its_games_on_the_engine_it_was_given(tmp_path: Path, name: str) -> None:
    """`funkoverse serve --engine`: the games the server makes and the ones it loads again
    are played on the engine it was started with."""
    from fastapi.testclient import TestClient

    from funkoverse.rules.engines import named
    from funkoverse.server.app import create_app
    from serverclient import new_game

    db = tmp_path / "games.db"
    app = create_app(db, thinking=False, engine=named(name))
    with TestClient(app) as client:
        gid, _ = new_game(client, scenario="flags", map="themyscira", size=2, seed=3)
        assert app.state.games.rooms[gid].session.engine.name == name
    again = create_app(db, thinking=False, engine=named(name))
    with TestClient(again) as client:
        assert client.get(f"/api/games/{gid}").status_code == 200
        assert again.state.games.rooms[gid].session.engine.name == name


def test_sessions_on_either_engine_log_the_same_game() -> None:
    """The authority loop gives the same views, choices, events and log whichever engine
    plays the game."""

    def play(on: Engine) -> tuple[list[object], list[object]]:
        session = Session(build(flags_spec(9)), 9, engine=on)
        assert session.engine is on
        rng = random.Random(9)
        views = []
        while not session.over:
            seat = session.decider
            assert seat is not None
            views.append(session.view(seat).key())
            session.play(seat, rng.choice(session.choices(seat)))
        return [e.to_json() for e in session.entries] + views, list(session.events(None))

    assert play(KERNEL) == play(PYTHON)


def test_no_position_is_lent_out_a_change_goes_through_the_builder() -> None:
    """`Game.state` is a copy of the position whichever engine plays: changing it changes
    nothing in the game; a position changed by hand (a test, a puzzle) is handed to an engine
    as a new game (`Game.at`), and is that game from there on, on either engine."""
    game = Game(build(flags_spec(2)), 2)
    assert game.uses_kernel
    while game.round < 2:
        game.play(game.sample_chance()[0] if game.decider == CHANCE else game.legal()[0])
    before = whole(game.state)
    lent = game.state
    side = lent.seats[0]
    lent.sides[side].points = 7
    assert whole(game.state) == before  # the game did not change
    changed = Game.at(lent, 2, KERNEL)
    reference = Game.at(lent, 2, PYTHON)
    assert changed.uses_kernel and not reference.uses_kernel
    assert changed.state.sides[side].points == 7
    for g in (changed, reference):
        if g.decider == CHANCE:
            g.play_chance()
        else:
            g.play(g.legal()[-1])
    assert whole(changed.state) == whole(reference.state)


def test_a_setup_the_kernel_does_not_know_is_played_by_the_python_engine() -> None:
    class Extra(Scenario):
        """A scenario with rules of its own, in Python."""

    class Whisper(Hook):
        name = "whisper"

    setup = make_setup(
        [
            team("dark", ["priestess", "mad-scientist"]),
            team("light", ["hyena-warrior", "villager"]),
        ],
        "proving-grounds",
        Extra(id="extra", knockout_points=1, target_two=3),
    )
    assert "rules of its own" in (bridge.unsupported(engine.new_game(setup)) or "")
    assert not Game(setup, 1).uses_kernel
    normal = build(flags_spec(3))
    dark = normal.teams[0]
    odd = replace(dark.characters[0], hooks=(Whisper(),))
    strange = replace(
        normal, teams=(replace(dark, characters=(odd, *dark.characters[1:])), *normal.teams[1:])
    )
    assert "whisper" in (bridge.unsupported(engine.new_game(strange)) or "")
    game = Game(strange, 3)
    assert not game.uses_kernel
    while not game.over and game.round < 2:
        game.play(game.sample_chance()[0] if game.decider == CHANCE else game.legal()[0])


@pytest.mark.parametrize("secret", [True, False])
def test_a_draft_is_played_by_the_kernel_from_its_first_choice(secret: bool) -> None:
    """Scenario Setup, step 5 as decisions (characters and an item, in secret or from one
    shared collection), the reveal and placement: the kernel plays them, and the game from
    there, never handing it to the Python engine."""
    spec = draw_spec(SetupRequest(scenario="flags", draft=3, secret=secret), 5)
    game = Game(build(spec), 5)
    rng = random.Random(5)
    seen = set()
    while not game.over and game.round < 3:
        assert game.uses_kernel, game.peek().phase
        seen.add(game.peek().phase)
        game.play(game.sample_chance()[0] if game.decider == CHANCE else rng.choice(game.legal()))
    assert {Phase.FLIP, Phase.DRAFT, Phase.PLACE, Phase.CHOOSE} <= seen
    teams = game.peek().setup.teams
    assert [len(t.characters) for t in teams] == [3, 3] and all(len(t.items) == 1 for t in teams)


def test_a_position_the_tables_cannot_hold_is_unsupported_never_a_key_error() -> None:
    """A hand-built position naming something its setup does not hold (a point marker on a
    track, on a map without point markers; a status card or a seat of no setup) is refused
    with `Unsupported` and its reason, and `Game.at` plays it with the Python engine."""
    from funkoverse.rules.play.engine import new_game_at
    from positions import board, card, setup

    s = setup(board(), [card("the-cheetah")], [card("hyena-warrior")], Scenario(point_markers=True))
    b = s.board
    state = new_game_at(s, {"the-cheetah": b.parse_label("b2")}, "dark")
    state.sides["dark"].track[1].append(("point", "point-A"))
    with pytest.raises(bridge.Unsupported, match="track item"):
        bridge.load(state)
    fallen = Game.at(state, 0, KERNEL)
    assert not fallen.uses_kernel and fallen.fallback is not None
    state.sides["dark"].track[1].clear()
    state.pieces["the-cheetah"].statuses = ("no-such-status",)
    with pytest.raises(bridge.Unsupported, match="status card"):
        bridge.load(state)
    state.pieces["the-cheetah"].statuses = ()
    state.pieces["the-cheetah"].side = "purple"
    with pytest.raises(bridge.Unsupported, match="purple"):
        bridge.load(state)


def test_the_most_a_shipped_setup_holds_is_within_the_kernels_limits() -> None:
    """Four seats of a free-for-all, each with three characters, the Hound and the clockwork
    minion: one ability may challenge 18 rivals (She Breathes: "each rival within 2
    squares"), past the 16 targets the kernel held; the kernel plays it from its start."""
    from funkoverse.content.scenarios import load_scenarios

    trios = (
        ("the-bride", "dracula", "priestess"),
        ("wonder-woman", "the-cheetah", "villager"),
        ("the-creature", "invisible-man", "hyena-warrior"),
        ("the-bride", "wonder-woman", "mad-scientist"),
    )
    teams = [
        replace(team(seat, ids, {ids[0]: "clockwork-minion"}), companions=(("hound", ids[1]),))
        for seat, ids in zip(("seat1", "seat2", "seat3", "seat4"), trios, strict=True)
    ]
    setup = make_setup(teams, "funko-factory", load_scenarios()["brawl"])
    assert bridge.unsupported(engine.new_game(setup)) is None
    assert Game(setup, 1).uses_kernel


def test_a_setup_past_the_kernels_limits_is_played_by_the_python_engine_from_its_start() -> None:
    """A fan-made card with 22 ability tokens: with the Champion die, the Blood token and the
    character, 25 things may share a space of its track, past the 24 the kernel holds; the
    Python engine plays the game from its start rather than take it over mid-game."""
    normal = build(flags_spec(3))
    dark = normal.teams[0]
    hero = next(c for c in dark.characters if not c.basic)
    rich = replace(hero, dots=(TokenColor.RED,) * 22)
    setup = replace(normal, teams=(replace(dark, characters=(rich,)), *normal.teams[1:]))
    assert "cooldown track" in (bridge.unsupported(engine.new_game(setup)) or "")
    assert not Game(setup, 3).uses_kernel


def test_a_position_past_the_kernels_limits_is_played_on_by_the_python_engine() -> None:
    """A fan-made ability rolling more dice than the kernel holds (16 a side): the kernel
    leaves the position as it was and the game goes on in the Python engine, the same game."""
    from funkoverse.rules.core.cards import step
    from funkoverse.rules.play.engine import new_game_at

    normal = build(flags_spec(3))
    dark = normal.teams[0]
    hero = next(c for c in dark.characters if not c.basic)
    huge = Ability("huge", "Huge", TokenColor.RED, 1, True, (step("challenge", dice=20),))
    strong = replace(hero, abilities=(huge,))
    cards = tuple(strong if c is hero else c for c in dark.characters)
    setup = replace(normal, teams=(replace(dark, characters=cards), *normal.teams[1:]))
    pieces = engine.new_game(setup).pieces.values()
    mine = next(p.id for p in pieces if p.card is strong)
    rival = next(p.id for p in pieces if p.side == "light" and p.is_character)
    b = setup.board
    state = new_game_at(setup, {mine: b.parse_label("e5"), rival: b.parse_label("e6")}, "dark")
    state.sides["dark"].pool = {TokenColor.RED: 1}
    game = Game.at(state, 5, KERNEL)
    reference = Game.at(state.copy(), 5, PYTHON)
    assert game.uses_kernel
    for g in (game, reference):
        g.play(f"choose:{mine}")
        g.play("ability:huge")
        g.play(f"target:{rival}")
    assert not game.uses_kernel  # the challenge's 20 dice are past the kernel's limit
    assert game.state.key() == reference.state.key()
    assert len(game.state.stack[-1].attack) == 20  # type: ignore[union-attr]

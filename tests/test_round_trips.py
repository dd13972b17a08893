"""Round trips of the game's data: choices to their ids and back, setups to JSON and back.

A choice is a value whose stable id reads back to it; a setup is a spec whose JSON reads
back to it and builds the same game. Both over thousands of random games and draws (the
invariant games check every choice's id too, see `randomplay.play_checked`)."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from funkoverse.ai.agents import RandomAgent
from funkoverse.content.setups import SetupRequest, build, draw_spec, parse_spec, team, team_spec
from funkoverse.errors import UserError
from funkoverse.rules.core.choices import Choice, parse
from funkoverse.rules.core.errors import InvalidChoice
from funkoverse.rules.core.spec import SetupSpec, SpecError
from funkoverse.rules.play import engine
from funkoverse.rules.session import Session

REQUESTS = [
    SetupRequest(),
    SetupRequest(scenario="flags", size=2),
    SetupRequest(scenario="flags", size=3),
    SetupRequest(scenario="leaders"),
    SetupRequest(scenario="control", size=3),
    SetupRequest(scenario="first-knockout"),
    SetupRequest(scenario="monsters-first-game"),
    SetupRequest(scenario="brawl", players=3),
    SetupRequest(scenario="brawl", players=4),
    SetupRequest(scenario="titans"),
    SetupRequest(scenario="flags", players=4),
    SetupRequest(scenario="leaders", draft=3),
    SetupRequest(scenario="flags", draft=2, secret=False),
]


def _attachments_spec(seed: int) -> SetupSpec:
    """Companions, bonus objectives and minion tokens (house-made cards), for choices no
    shipped scenario draws."""
    rng = random.Random(seed)
    dark = team("dark", ["wonder-woman", "priestess", "dracula"])
    light = team("light", ["the-creature", "villager", "the-bride"])
    extras = [
        {"companions": (("hound", "wonder-woman"),)},
        {"bonus": ("supply-cache",)},
        {"items": (("clockwork-minion", "dracula"),)},
    ]
    mine = rng.choice(extras)
    theirs = {
        "companions": (("hound", "the-bride"),),
        "bonus": ("supply-cache",),
        "items": (("clockwork-minion", "the-bride"),),
    }
    key = next(iter(mine))
    return SetupSpec(
        "flags",
        "draculas-castle",
        "standard",
        (team_spec(replace(dark, **mine)), team_spec(replace(light, **{key: theirs[key]}))),
    )


def _specs(count: int) -> list[tuple[SetupSpec, int]]:
    out = []
    for seed in range(count):
        if seed % 7 == 6:
            out.append((_attachments_spec(seed), seed))
        else:
            out.append((draw_spec(REQUESTS[seed % len(REQUESTS)], seed), seed))
    return out


@pytest.mark.parametrize("chunk", range(4))
def test_every_legal_choice_reads_back_from_its_id_in_every_kind_of_game(chunk: int) -> None:
    """`parse(c.format()) == c` for every legal choice met in short random games of every
    scenario, way to play, draft and attachment (80 games a chunk, 320 in all)."""
    kinds: set[str] = set()
    for spec, seed in _specs(320)[chunk::4]:
        session = Session(build(spec), seed)
        agent = RandomAgent(seed)
        while not session.over and session.state.round <= 6:
            seat = session.decider
            assert seat is not None
            choices = session.choices(seat)
            for c in choices:
                assert parse(c.format()) == c, c
                kinds.add(c.kind)
            session.play(seat, agent.choose(session.view(seat), choices))
        for entry in session.entries:
            assert parse(entry.choice).format() == entry.choice
    assert {"pick", "give", "place", "choose", "move", "end", "interact"} <= kinds


@pytest.mark.parametrize("chunk", range(4))
def test_a_saved_game_file_reloads_to_the_identical_state_in_thousands_of_games(
    chunk: int,
) -> None:
    """A game file is its spec, seed and log: for 2,000 random games of every kind (500 a
    chunk), undos among the choices, the file written at three versions drawn at random and
    at the last one reloads, through JSON text, to the identical state and version.
    (`test_session` reloads a few games at every version.)"""
    reloaded = 0
    for spec, seed in _specs(2000)[chunk::4]:
        session = Session(build(spec), seed)
        agent = RandomAgent(seed)
        rng = random.Random(seed)
        saved: list[tuple[str, int, str]] = []
        wanted = {rng.randrange(1, 90) for _ in range(3)}
        undos = 0
        while not session.over and session.state.round <= 6:
            seat = session.decider
            assert seat is not None
            if undos < 3 and session.undoable() and rng.random() < 0.05:
                session.undo()
                undos += 1
            else:
                session.play(seat, agent.choose(session.view(seat), session.choices(seat)))
            if session.version in wanted:
                saved.append((json.dumps(session.to_json()), session.version, session.state.key()))
        saved.append((json.dumps(session.to_json()), session.version, session.state.key()))
        for text, version, key in saved:
            again = Session.from_json(json.loads(text), build)
            assert (again.version, again.state.key()) == (version, key), (spec, seed, version)
            reloaded += 1
    assert reloaded >= 500 * 3


@given(st.text(max_size=40))
def test_any_text_is_a_choice_or_refused_with_invalid_choice(text: str) -> None:
    """`parse` never fails another way, and what it reads writes back as the same id."""
    try:
        choice = parse(text)
    except InvalidChoice as e:
        assert str(e)
        return
    assert isinstance(choice, Choice)
    assert choice.format() == text


def test_specs_read_back_from_json_and_build_the_same_game() -> None:
    """`SetupSpec.from_json(spec.to_json()) == spec`, and both build the same game: the same
    opening and, with the same seed, the same first entries, for 2,000 drawn specs."""
    for spec, seed in _specs(2000):
        text = json.dumps(spec.to_json())
        again = SetupSpec.from_json(json.loads(text))
        assert again == spec
        assert SetupSpec.from_json(spec.dumps()) == spec
        a, b = build(spec), build(again)
        assert a.spec == spec
        assert engine.new_game(a).key() == engine.new_game(b).key()
        if seed % 40 == 0:
            first, second = Session(a, seed), Session(b, seed)
            for session in (first, second):
                agent = RandomAgent(seed)
                while not session.over and session.version < 30:
                    seat = session.decider
                    assert seat is not None
                    session.play(seat, agent.choose(session.view(seat), session.choices(seat)))
            assert first.state.key() == second.state.key()


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"map": "themyscira"}, "scenario"),
        ({"scenario": "flags"}, "map"),
        ({"scenario": 7, "map": "themyscira"}, "scenario"),
        ({"scenario": "flags", "map": "themyscira", "teams": {}}, "teams"),
        (
            {"scenario": "flags", "map": "themyscira", "teams": [{"characters": []}]},
            "teams[0].side",
        ),
        (
            {
                "scenario": "flags",
                "map": "themyscira",
                "teams": [{"side": "dark", "characters": ["x", 3]}],
            },
            "teams[0].characters[1]",
        ),
        (
            {
                "scenario": "flags",
                "map": "themyscira",
                "teams": [{"side": "dark", "items": [{"item": "shovel"}]}],
            },
            "teams[0].items[0]",
        ),
        (
            {"scenario": "flags", "map": "themyscira", "seats": {"dark": {"player": "robot"}}},
            "seats.dark.player",
        ),
        ({"scenario": "flags", "map": "themyscira", "draft": {"size": 99}}, "draft.size"),
        ({"scenario": "flags", "map": "themyscira", "colour": "red"}, "colour"),
        ({"scenario": "flags", "map": "themyscira", "version": 2}, "version"),
    ],
)
def test_a_malformed_spec_is_refused_naming_the_field(data: dict[str, object], field: str) -> None:
    with pytest.raises(SpecError, match=re.escape(f"'{field}'")):
        SetupSpec.from_json(data)


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"scenario": "capture-the-moon"}, "scenario", "unknown scenario"),
        ({"map": "atlantis"}, "map", "unknown map"),
        ({"mode": "solitaire"}, "mode", "unknown mode"),
        ({"first_player": "green"}, "first_player", "not a side"),
    ],
)
def test_a_spec_with_an_unknown_id_is_refused_naming_the_field(
    change: dict[str, str], field: str, words: str
) -> None:
    spec = draw_spec(SetupRequest(scenario="flags", size=2), 1)
    with pytest.raises(UserError, match=f"'{field}'.*{words}"):
        build(replace(spec, **change))  # type: ignore[arg-type]


def test_a_team_the_rules_do_not_allow_is_refused_naming_the_field() -> None:
    spec = draw_spec(SetupRequest(scenario="flags", size=2), 1)
    dark, light = spec.teams
    with pytest.raises(UserError, match=r"teams\[0\]\.characters\[0\].*unknown character 'batman'"):
        build(replace(spec, teams=(replace(dark, characters=("batman", "priestess")), light)))
    with pytest.raises(UserError, match="same name cannot be allies"):
        build(replace(spec, teams=(replace(dark, characters=("dracula", "dracula")), light)))
    first = draw_spec(SetupRequest(scenario="first-knockout"), 1)
    d, lt = first.teams
    given = replace(
        d, characters=("wonder-woman", "priestess"), items=(("lasso-of-truth", "wonder-woman"),)
    )
    with pytest.raises(UserError, match="set"):
        build(replace(first, teams=(given, replace(lt, items=(("shovel", lt.characters[0]),)))))
    with pytest.raises(UserError, match="spec field"):
        parse_spec({"scenario": "flags"})


@pytest.mark.parametrize(
    ("request_", "sides", "said"),
    [
        (SetupRequest(scenario="brawl", players=4), 0, "'free-for-all' has 3 or 4 sides, not 0"),
        (SetupRequest(scenario="flags"), 1, "'standard' has 2 sides, not 1"),
        (SetupRequest(scenario="titans"), 3, "'ultimate' has 2 sides, not 3"),
    ],
)
def test_a_spec_with_too_few_or_too_many_sides_for_its_mode_is_refused(
    request_: SetupRequest, sides: int, said: str
) -> None:
    """Found by fuzzing saved games: a free-for-all spec without teams was built into a game
    of no sides, whose first-player flip divided by zero (`funkoverse replay` said "internal
    error")."""
    spec = draw_spec(request_, 1)
    teams = (spec.teams * 2)[:sides]
    with pytest.raises(UserError, match=f"spec field 'teams': a game of mode {re.escape(said)}"):
        build(replace(spec, teams=teams, seats=()))


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ({"scenario": "flags", "map": "x", "sc\nario": 1}, "spec field 'sc\\nario' is not known"),
        (
            {"scenario": "flags", "map": "x", "teams": [{"side": "dark", "ch\racters": []}]},
            "spec field 'teams[0].ch\\racters' is not known",
        ),
        (
            {"scenario": "flags", "map": "x", "seats": {"a\nb": {"player": "robot"}}},
            "spec field 'seats.a\\nb.player'",
        ),
    ],
)
def test_a_spec_field_the_input_names_is_quoted_on_one_line(
    data: dict[str, object], said: str
) -> None:
    """Found by fuzzing: an unknown field's name (or a seat's) was written as it came, so a
    newline in it broke the refusal over two lines."""
    with pytest.raises(SpecError) as refused:
        SetupSpec.from_json(data)
    assert str(refused.value).startswith(said) and "\n" not in str(refused.value)

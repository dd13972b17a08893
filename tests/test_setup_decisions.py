"""Scenario Setup as decisions of the game, and the setups the rules refuse.

"The Full Experience", Scenario Setup steps 1-9 (DC Comics 102, Universal Monsters 100): point
markers on their setup squares, the First Player flip, choosing characters and items (in secret
when both players have collections), the scenario card's own setup (flags placed, control markers
kept aside, leaders picked in secret and revealed together), and placement, first player first,
the leader on its leader starting square. Then the refusals: a setup that breaks the rules is
refused with a reason (Mixing Games, Item Setup, Play with Items, starting areas, a scenario's map,
Free-for-All, the ways to play)."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction
from pathlib import Path

import pytest

from funkoverse.content.characters import load_characters
from funkoverse.content.maps import load_map
from funkoverse.content.scenarios import load_scenarios, scenario
from funkoverse.content.setups import (
    SetupRequest,
    build,
    draw_spec,
    make_setup,
    mode_for,
    scenario_setup,
    team,
)
from funkoverse.errors import UserError
from funkoverse.rules.core.choices import Give, Pick, Place
from funkoverse.rules.core.errors import IllegalChoice
from funkoverse.rules.core.pieces import Role
from funkoverse.rules.core.scenario import flag_squares, leader_squares
from funkoverse.rules.core.spec import DraftSpec, SetupSpec, TeamSpec
from funkoverse.rules.core.state import CHANCE, Draft, Phase, TeamSetup
from funkoverse.rules.game import Game
from funkoverse.rules.play import engine
from positions import board, said

DARK2 = (("wonder-woman", "priestess"), {})
LIGHT2 = (("dracula", "villager"), {})
DARK3 = (("wonder-woman", "the-cheetah", "priestess"), {"the-cheetah": "lasso-of-truth"})
LIGHT3 = (("dracula", "the-bride", "villager"), {"dracula": "shovel"})


def scenario_game(sid: str, map_id: str, seed: int = 1, three: bool = False) -> Game:
    """A game of `sid`: two a side, or three where the scenario is played with three."""
    three = three and 3 in scenario(sid).sizes
    fixed = {"dark": DARK3, "light": LIGHT3} if three else {"dark": DARK2, "light": LIGHT2}
    if not scenario(sid).attachments:  # the first games set the items aside
        fixed = {side: (ids, {}) for side, (ids, _) in fixed.items()}
    s, _ = scenario_setup(random.Random(seed), scenario(sid), map_id, fixed=fixed)  # type: ignore[arg-type]
    return Game(s, seed)


def label(game: Game, square: int | None) -> str | None:
    return None if square is None else game.state.board.label(square)


def place_all(game: Game) -> list[tuple[str, Place]]:
    """Place every character on the first square offered; returns (side, choice) in order."""
    done = []
    while game.state.phase is Phase.PLACE:
        choice = engine.choices(game.state)[0]
        assert isinstance(choice, Place)
        done.append((game.decider or "", choice))
        game.play(choice)
    return done


SCENARIO_MAPS = [
    (sid, map_id)
    for sid, s in sorted(load_scenarios().items())
    if not s.free_for_all and not s.ultimate
    for map_id in s.maps
]

# =========================================================================== step 1: point markers


@pytest.mark.parametrize(
    ("sid", "map_id"), [(s, m) for s, m in SCENARIO_MAPS if scenario(s).point_markers]
)
def test_step_1_point_markers_start_on_their_setup_squares(sid: str, map_id: str) -> None:
    """Scenario Setup, 1: "Place the point markers on the setup squares, as shown on the scenario
    card." Before the first decision, each letter's marker is on its square."""
    game = scenario_game(sid, map_id)
    b = load_map(map_id)
    assert b.point_squares
    for letter, square in b.point_squares.items():
        marker = game.state.pieces[f"point-{letter}"]
        assert marker.square == square, letter
    assert game.state.phase is Phase.FLIP


# =========================================================================== step 4: the flip


def test_step_4_the_first_player_marker_is_flipped_a_chance_node() -> None:
    """Scenario Setup, 4: "Each player picks a base color. Flip the First Player marker. If the
    side matching your base color lands up, take the First Player marker." """
    game = scenario_game("flags", "themyscira")
    assert game.decider == CHANCE
    assert [(c.format(), p) for c, p in engine.chance_outcomes(game.state)] == [
        ("first:dark", Fraction(1, 2)),
        ("first:light", Fraction(1, 2)),
    ]
    events = game.play("first:light")
    assert game.state.first_player == "light"
    assert any("light goes first" in e for e in said(game, events))


# =========================================================================== step 5: choosing


def draft_game(sid: str = "flags", map_id: str = "themyscira", secret: bool = True) -> Game:
    """Step 5 as decisions: each side chooses 3 characters and 1 item from the shipped cards."""
    base = make_setup(
        [TeamSetup("dark", ()), TeamSetup("light", ())], map_id, scenario(sid), first_player=None
    )
    cards = tuple(load_characters().values())
    draft = Draft(cards, ("lasso-of-truth", "shovel", "fishing-net"), 3, 1, secret)
    return Game(dataclasses.replace(base, draft=draft), 0)


def test_step_5_characters_and_items_are_chosen_after_the_flip_first_player_first() -> None:
    """Scenario Setup, 5: "choose three characters and one item each." """
    game = draft_game()
    game.play("first:light")
    assert game.state.phase is Phase.DRAFT and game.decider == "light"
    assert all(c.startswith("pick:") for c in engine.legal_choices(game.state))
    for choice in ("pick:dracula", "pick:the-bride", "pick:villager", "give:shovel:dracula"):
        game.play(choice)
    assert game.decider == "dark"
    for choice in ("pick:wonder-woman", "pick:the-cheetah", "pick:priestess"):
        game.play(choice)
    assert game.state.phase is Phase.DRAFT
    events = game.play("give:lasso-of-truth:the-cheetah")
    assert game.state.phase is Phase.PLACE
    words = said(game, events)
    assert any("light reveals" in e for e in words) and any("dark reveals" in e for e in words)
    teams = {t.side: t for t in game.state.setup.teams}
    assert [c.id for c in teams["light"].characters] == ["dracula", "the-bride", "villager"]
    assert teams["dark"].items == (("lasso-of-truth", "the-cheetah"),)
    assert game.state.pieces["the-cheetah"].items == ("lasso-of-truth",)


def test_step_5_choices_made_in_secret_are_hidden_until_both_are_revealed() -> None:
    """Scenario Setup, 5: "If both players have collections, choose characters and items in
    secret." The events do not name the pick, each side chooses from its own collection (a rival's
    pick takes nothing away), and a rival's view hides the picks."""
    from funkoverse.rules.core.view import observe

    game = draft_game()
    game.play("first:dark")
    events = game.play("pick:wonder-woman")
    assert said(game, events, "light") == ["dark chooses a character."]
    assert said(game, events, "dark") == ["dark chooses a character: Wonder Woman."]
    game.play("pick:dracula")
    game.play("pick:priestess")
    events = game.play("give:lasso-of-truth:wonder-woman")
    assert "lasso" not in " ".join(said(game, events, "light")).lower()
    assert game.decider == "light"
    assert "pick:wonder-woman" in engine.legal_choices(game.state)  # its own Wonder Woman
    seen = observe(game.state, "light").sides["dark"]
    assert "wonder-woman" not in seen.picks and "lasso-of-truth" not in str(seen.gifts)
    assert "wonder-woman" in observe(game.state, "dark").sides["dark"].picks  # its own picks


def test_step_5_an_open_choice_from_one_collection_takes_a_card_away() -> None:
    """When the players share one collection (not in secret), a character chosen by one side is
    not there for the other."""
    game = draft_game(secret=False)
    game.play("first:dark")
    events = game.play("pick:wonder-woman")
    assert "Wonder Woman" in " ".join(said(game, events, "light"))
    for choice in ("pick:dracula", "pick:priestess", "give:shovel:dracula"):
        game.play(choice)
    choices = engine.legal_choices(game.state)
    assert "pick:wonder-woman" not in choices and "pick:the-cheetah" in choices


def test_step_5_characters_with_the_same_name_cannot_be_allies() -> None:
    """Mixing Games: "characters with the same name cannot be allies." """
    game = draft_game()
    game.play("first:dark")
    game.play("pick:dracula")
    assert "pick:dracula" not in engine.legal_choices(game.state)
    with pytest.raises(IllegalChoice):
        game.play("pick:dracula")


def test_step_5_an_item_is_never_given_to_a_basic_character() -> None:
    """Item Setup: "Basic characters cannot be given items." A side that picked two basic
    characters must pick a character who can hold its item."""
    game = draft_game()
    game.play("first:dark")
    game.play("pick:priestess")
    game.play("pick:mad-scientist")
    third = engine.choices(game.state)
    basics = {cid for cid, c in load_characters().items() if c.basic}
    assert third and not [c for c in third if isinstance(c, Pick) and c.character in basics]
    game.play("pick:the-creature")
    assert {c.holder for c in engine.choices(game.state) if isinstance(c, Give)} == {"the-creature"}
    with pytest.raises(IllegalChoice):
        game.play("give:shovel:priestess")


# =========================================================================== step 6: how many

FIVE = ("dracula", "invisible-man", "the-bride", "the-cheetah", "the-creature")


def test_step_6_a_team_the_scenario_is_not_played_with_is_refused_naming_the_field() -> None:
    """Scenario Setup, 6: "Each player chooses two or three characters and one attachment"
    (Space Jam A New Legacy 100): Flags is played with two or three a side, so five are
    refused, naming the spec's field."""
    spec = SetupSpec(
        "flags",
        "themyscira",
        "standard",
        (TeamSpec("dark", FIVE), TeamSpec("light", ("wonder-woman", "priestess"))),
    )
    with pytest.raises(UserError, match=r"teams\[0\]\.characters.*2 or 3.*not 5"):
        build(spec)
    draft = dataclasses.replace(
        spec, teams=(TeamSpec("dark"), TeamSpec("light")), draft=DraftSpec(5, 0)
    )
    with pytest.raises(UserError, match=r"draft\.size.*not 5"):
        build(draft)


@pytest.mark.parametrize(
    ("request_", "field"),
    [
        (SetupRequest(scenario="flags", teams={"dark": FIVE}, size=2), "teams.dark"),
        (SetupRequest(scenario="flags", teams={"dark": FIVE}), "teams.dark"),
        (SetupRequest(scenario="knockout", teams={"dark": ("dracula",)}, size=3), "teams.dark"),
        (SetupRequest(scenario="flags", teams={"dark": ("dracula",)}), "teams.dark"),
        (SetupRequest(scenario="flags", size=5), "size"),
    ],
)
def test_step_6_a_requested_team_the_scenario_or_size_does_not_allow_is_refused(
    request_: SetupRequest, field: str
) -> None:
    """Scenario Setup, 6: "Each player chooses two or three characters": a team given for a
    side is as large as `size` asks and as the scenario is played with; refused otherwise,
    naming the field, rather than starting five against two or one against two."""
    with pytest.raises(UserError, match=f"field '{field}'"):
        draw_spec(request_, 7)


@pytest.mark.parametrize(
    ("sid", "given"),
    [("knockout", ("dracula",)), ("flags", ("dracula", "priestess")), ("control", DARK3[0])],
)
def test_step_6_the_side_not_given_is_drawn_as_large_as_the_one_given(
    sid: str, given: tuple[str, ...]
) -> None:
    """Scenario Setup, 6: each player chooses as many characters as the scenario is played
    with; one side given, the other is drawn with as many."""
    for seed in range(5):
        spec = draw_spec(SetupRequest(scenario=sid, teams={"dark": given}), seed)
        assert [len(t.characters) for t in spec.teams] == [len(given), len(given)]


# =========================================================================== step 8: the card's setup


@pytest.mark.parametrize("map_id", scenario("flags").maps)
def test_step_8_flags_the_flag_markers_are_placed_as_shown(map_id: str) -> None:
    """Flags, Setup: "Place the flag markers as shown." Each side's flag on its square of the map's
    flags layer, before anyone decides anything."""
    game = scenario_game("flags", map_id)
    rows = load_map(map_id).layers["flags"]
    expected = {
        side: game.state.board.square(x, y)
        for y, row in enumerate(rows)
        for x, ch in enumerate(row)
        for letter, side in (("D", "dark"), ("L", "light"))
        if ch == letter
    }
    assert flag_squares(game.state) == expected
    for side, square in expected.items():
        flag = game.state.pieces[f"flag-{side}"]
        assert flag.square == square and flag.side == side


@pytest.mark.parametrize("map_id", scenario("control").maps)
def test_step_8_control_the_control_markers_are_not_placed_yet(map_id: str) -> None:
    """Control, Setup: "You will also use the control markers, but do not place them on the map
    yet." """
    game = scenario_game("control", map_id)
    markers = [p for p in game.state.pieces.values() if p.role is Role.CONTROL]
    assert len(markers) == 3
    assert all(m.square is None and not m.placed for m in markers)
    game.play("first:dark")
    place_all(game)
    assert all(m.square is None for m in markers)


def leaders_game(map_id: str = "themyscira", first: str = "dark") -> Game:
    game = scenario_game("leaders", map_id)
    game.play(f"first:{first}")
    return game


def test_step_8_leaders_each_player_secretly_picks_a_leader() -> None:
    """Leaders, Setup: "Each player secretly picks one of their characters to be a leader." The
    first player picks first, from its own characters."""
    game = leaders_game(first="light")
    assert game.state.phase is Phase.SECRET and game.decider == "light"
    assert engine.legal_choices(game.state) == ["leader:dracula", "leader:villager"]
    events = game.play("leader:villager")
    assert said(game, events, "dark") == ["light picks a leader in secret."]  # not named
    assert game.decider == "dark"
    assert engine.legal_choices(game.state) == ["leader:wonder-woman", "leader:priestess"]
    with pytest.raises(IllegalChoice):
        game.play("leader:dracula")  # not dark's


def test_step_8_leaders_a_rivals_secret_pick_is_hidden_from_its_view() -> None:
    """Leaders: picked "secretly"; `observe` (the view every agent decides from) hides the rival's
    pick until both are revealed, and a side sees its own."""
    from funkoverse.rules.core.view import observe

    game = leaders_game(first="dark")
    game.play("leader:wonder-woman")
    assert game.decider == "light"
    light_view = observe(game.state, "light")
    assert light_view.sides["dark"].leader != "wonder-woman"
    assert "wonder-woman" not in [s.leader for s in light_view.sides.values()]
    assert observe(game.state, "dark").sides["dark"].leader == "wonder-woman"
    assert game.state.sides["dark"].leader == "wonder-woman"  # the state itself keeps it


def test_step_8_leaders_the_agents_view_does_not_depend_on_a_rivals_secret_pick() -> None:
    """Leaders: "Each player secretly picks one of their characters to be a leader." The agents
    look at the game through `funkoverse.ai.view.observe`, which samples what the rival may
    have picked: what light sees is the same whichever leader dark picked."""
    from funkoverse.ai import view as ai_view

    seen = []
    for leader in ("wonder-woman", "priestess"):
        game = leaders_game(first="dark")
        game.play(f"leader:{leader}")
        seen.append(ai_view.observe(game.state, "light").sides["dark"].leader)
    assert seen[0] == seen[1]
    assert seen[0] in ("wonder-woman", "priestess")  # a pick dark could have made


def test_step_8_leaders_both_leaders_are_revealed_at_the_same_time() -> None:
    """Leaders, Setup: "Both players reveal leaders by placing their character cards on the table
    at the same time." Both are revealed by the second pick, together, and then seen by all."""
    from funkoverse.rules.core.view import observe

    game = leaders_game(first="dark")
    first = said(game, game.play("leader:priestess"))
    assert not [e for e in first if "reveals" in e]
    second = said(game, game.play("leader:dracula"))
    reveals = [e for e in second if "reveals its leader" in e]
    assert len(reveals) == 2
    assert any("Priestess" in e for e in reveals) and any("Dracula" in e for e in reveals)
    for side in ("dark", "light"):
        view = observe(game.state, side)
        assert view.sides["dark"].leader == "priestess"
        assert view.sides["light"].leader == "dracula"
    assert game.state.phase is Phase.PLACE


# =========================================================================== step 9: placement


@pytest.mark.parametrize(("sid", "map_id"), SCENARIO_MAPS)
def test_step_9_the_first_player_places_first_then_the_other(sid: str, map_id: str) -> None:
    """Scenario Setup, 9: "The player with the First Player marker places their characters on
    squares in their starting area. Then, the other player places their characters in their
    starting area." Then round 1 begins with the first player."""
    game = scenario_game(sid, map_id, three=True)
    game.play("first:light")
    if game.state.phase is Phase.SECRET:
        game.play(engine.choices(game.state)[0])
        game.play(engine.choices(game.state)[0])
    order = place_all(game)
    deciders = [side for side, _ in order]
    n = max(scenario(sid).sizes)  # three a side, two in the DC first game
    assert deciders == ["light"] * n + ["dark"] * n
    leaders = leader_squares(game.state) if sid == "leaders" else {}
    for side, choice in order:
        pid = choice.piece
        square = game.state.pieces[pid].square
        if game.state.sides[side].leader == pid:
            assert square == leaders[side]
        else:
            assert square in game.state.board.start_areas[side], choice
    assert game.state.round == 1 and game.decider == "light"
    assert game.state.phase is Phase.CHOOSE


@pytest.mark.parametrize("map_id", scenario("leaders").maps)
def test_step_9_leaders_the_leader_goes_on_its_leader_starting_square(map_id: str) -> None:
    """Leaders, Rules: "The starting player places their leader on the leader starting square that
    matches their base color and then places any remaining characters in the corresponding
    starting area." Only the leader may go there (it is "not ... part of any starting area")."""
    game = leaders_game(map_id, first="dark")
    game.play("leader:priestess")
    game.play("leader:dracula")
    squares = leader_squares(game.state)
    choices = engine.legal_choices(game.state)
    assert [c for c in choices if c.startswith("place:priestess:")] == [
        f"place:priestess:{label(game, squares['dark'])}"
    ]
    others = [c for c in choices if c.startswith("place:wonder-woman:")]
    assert len(others) == len(game.state.board.start_areas["dark"])
    assert f"place:wonder-woman:{label(game, squares['dark'])}" not in others
    place_all(game)
    assert game.state.pieces["priestess"].square == squares["dark"]
    assert game.state.pieces["dracula"].square == squares["light"]
    for square in squares.values():
        assert all(square not in area for area in game.state.board.start_areas.values())


def test_setup_order_flip_then_secret_picks_then_placement() -> None:
    """Scenario Setup: flip (4), choose (5), the card's setup (8: Leaders' secret picks), place (9)."""
    game = draft_game("leaders", "themyscira")
    phases = [game.state.phase]
    while game.state.phase is not Phase.CHOOSE:
        choices = engine.legal_choices(game.state)
        game.play(choices[0])
        if game.state.phase is not phases[-1]:
            phases.append(game.state.phase)
    assert phases == [Phase.FLIP, Phase.DRAFT, Phase.SECRET, Phase.PLACE, Phase.CHOOSE]


# =========================================================================== refusals


def test_refused_two_allies_with_the_same_name() -> None:
    """Mixing Games: "characters with the same name cannot be allies. (Dracula cannot ally with
    another Dracula.)" """
    with pytest.raises(UserError, match="same name"):
        team("dark", ("dracula", "dracula", "villager"))


def test_refused_an_item_on_a_basic_character() -> None:
    """Item Setup: "Basic characters cannot be given items." """
    with pytest.raises(UserError, match="basic character"):
        team("light", ("dracula", "villager"), {"villager": "shovel"})


def test_refused_an_item_holder_not_on_the_team_and_an_unknown_item_or_character() -> None:
    with pytest.raises(UserError, match="no character 'wonder-woman'"):
        team("light", ("dracula", "villager"), {"wonder-woman": "shovel"})
    with pytest.raises(UserError, match="unknown item"):
        team("light", ("dracula", "villager"), {"dracula": "hammer"})
    with pytest.raises(UserError, match="unknown character"):
        team("light", ("count-orlok", "villager"))


def test_refused_unequal_numbers_of_items() -> None:
    """Play with Items: "Both players must use the same number of items." (Space Jam: attachments.)"""
    with pytest.raises(UserError, match="same number of items"):
        make_setup(
            [
                team("dark", *DARK3),  # type: ignore[arg-type]
                team("light", ("dracula", "the-bride", "villager")),
            ],
            "themyscira",
            scenario("flags"),
        )
    with pytest.raises(UserError, match="same number of items"):
        scenario_setup(
            random.Random(1),
            scenario("flags"),
            "themyscira",
            fixed={"dark": DARK3, "light": (LIGHT3[0], {})},  # type: ignore[dict-item]
        )


def test_refused_more_characters_than_starting_squares() -> None:
    """Setup, 9: the characters are placed "on squares in their starting area" — one each."""
    small = board(dark=("a1", "b1"), light=("d6", "e6", "f6"))
    with pytest.raises(UserError, match="starting area"):
        make_setup(
            [team("dark", DARK3[0]), team("light", LIGHT3[0])],
            board=small,
            scenario=scenario("first-knockout"),
        )


@pytest.mark.parametrize(
    ("sid", "map_id", "layer"),
    [
        ("control", "themyscira", "control"),
        ("control", "urzari-jungle", "control"),
        ("leaders", "draculas-castle", "leaders"),
        ("leaders", "funko-factory", "leaders"),
        ("flags", "proving-grounds", "flags"),
    ],
)
def test_refused_a_scenario_on_a_map_without_its_layer(sid: str, map_id: str, layer: str) -> None:
    """Scenario Setup, 1: "Agree on a map and one of its associated scenarios." A scenario needs its
    flag squares, leader starting squares or control areas on the map."""
    with pytest.raises(UserError, match=f"no '{layer}' layer") as refusal:
        scenario_setup(random.Random(1), scenario(sid), map_id)
    assert map_id in str(refusal.value) and sid in str(refusal.value)


def test_refused_a_scenario_on_a_map_without_its_layer_by_make_setup_too() -> None:
    """`make_setup` promises "a checked setup": Control on Themyscira has no control areas."""
    with pytest.raises(UserError, match="control"):
        make_setup(
            [team("dark", DARK2[0]), team("light", LIGHT2[0])], "themyscira", scenario("control")
        )


def _shipped_map_text(map_id: str) -> str:
    from importlib import resources

    folder = resources.files("funkoverse.content") / "data" / "maps"
    return (folder / f"{map_id}.toml").read_text(encoding="utf-8")


def test_refused_a_point_marker_scenario_on_a_map_without_point_marker_squares(
    tmp_path: Path,
) -> None:
    """Scenario Setup, 1: "Place the point markers on the setup squares, as shown on the scenario
    card" — Flags uses point markers, so its map must show their setup squares."""
    text = _shipped_map_text("themyscira")
    head, _, rest = text.partition('points = """')
    _, _, tail = rest.partition('"""')
    path = tmp_path / "no-points.toml"
    path.write_text(head + tail, encoding="utf-8")
    assert not load_map(str(path)).point_squares
    with pytest.raises(UserError, match="no point marker setup squares"):
        scenario_setup(random.Random(1), scenario("flags"), str(path))


def _three_seat_map(tmp_path: Path) -> Path:
    """Dracula's Castle with the seat3 starting area (Y) taken out."""
    text = _shipped_map_text("draculas-castle").replace("YY", "..").replace('Y = "seat3"\n', "")
    path = tmp_path / "three-towers.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_refused_free_for_all_with_more_players_than_starting_areas(tmp_path: Path) -> None:
    """Free-for-All: each player has a starting area; four players need four."""
    path = _three_seat_map(tmp_path)
    assert len([a for a in load_map(str(path)).start_areas if a.startswith("seat")]) == 3
    with pytest.raises(UserError, match="3 free-for-all starting areas; 4 players need 4"):
        scenario_setup(random.Random(1), scenario("brawl"), str(path), players=4)
    s, players = scenario_setup(random.Random(1), scenario("brawl"), str(path), players=3)
    assert sorted(players) == ["seat1", "seat2", "seat4"]  # three players fit
    assert len(s.teams) == 3


@pytest.mark.parametrize(
    ("sid", "mode", "players", "said"),
    [
        ("flags", "free-for-all", None, "do not go together"),
        ("control", "ultimate", None, "do not go together"),
        ("brawl", "standard", None, "do not go together"),
        ("brawl", "teams", 4, "do not go together"),
        ("titans", "standard", None, "do not go together"),
        ("titans", "teams", 4, "do not go together"),
        ("flags", None, 3, "not 3"),
        ("leaders", "standard", 4, "not 4"),
        ("brawl", None, 2, "not 2"),
        ("brawl", None, 5, "not 5"),
        ("titans", None, 4, "not 4"),
        ("flags", "solitaire", None, "unknown mode"),
    ],
)
def test_refused_a_mode_that_does_not_fit_the_scenario(
    sid: str, mode: str | None, players: int | None, said: str
) -> None:
    """Free-for-All: "Free-for-All scenarios are designed for three or four players"; Ultimate
    Mode: "There are special scenarios that are specifically designed to be used in ultimate mode";
    More Players: two players a side. A way to play and a scenario that do not fit are refused."""
    with pytest.raises(UserError, match=said):
        mode_for(scenario(sid), mode, players)
    with pytest.raises(UserError, match=said):
        scenario_setup(random.Random(1), scenario(sid), None, mode, players)


def test_the_mode_follows_from_the_scenario_and_the_number_of_players() -> None:
    assert mode_for(scenario("flags"), None, None) == "standard"
    assert mode_for(scenario("flags"), None, 4) == "teams"
    assert mode_for(scenario("brawl"), None, 3) == "free-for-all"
    assert mode_for(scenario("titans"), None, None) == "ultimate"


def test_an_unknown_scenario_is_refused_with_the_known_ones() -> None:
    with pytest.raises(UserError, match=r"known: .*flags"):
        scenario("capture-the-moon")


# =========================================================================== the first games


def test_your_first_game_dc_a_character_and_the_matching_basic_character_no_items() -> None:
    """DC Comics 102, Your First Game, Setup: "Set aside ... the Lasso of Truth"; "One player
    takes the dark character base and the basic character that matches their base color";
    "Each player chooses a character"; "Place the map with the Urzari Jungle face up"."""
    from funkoverse.content.setups import SetupRequest, draw_spec

    seen = set()
    for seed in range(30):
        spec = draw_spec(SetupRequest(scenario="first-knockout"), seed)
        assert spec.map == "urzari-jungle"
        dark, light = spec.teams
        assert dark.characters[1] == "priestess" and light.characters[1] == "hyena-warrior"
        chosen = {dark.characters[0], light.characters[0]}
        assert chosen == {"wonder-woman", "the-cheetah"}
        assert not dark.items and not light.items
        seen.add(dark.characters[0])
    assert seen == {"wonder-woman", "the-cheetah"}


def test_your_first_game_monsters_two_characters_and_the_matching_basic_character() -> None:
    """Universal Monsters 100, Your First Game, Setup: "Set aside Shovel, Fishing Net"; "Each
    player chooses two characters ... Your three characters are allies"."""
    from funkoverse.content.setups import SetupRequest, draw_spec

    monsters = {"dracula", "the-creature", "the-bride", "invisible-man"}
    for seed in range(30):
        spec = draw_spec(SetupRequest(scenario="monsters-first-game"), seed)
        dark, light = spec.teams
        assert len(dark.characters) == len(light.characters) == 3
        assert dark.characters[2] == "mad-scientist" and light.characters[2] == "villager"
        assert set(dark.characters[:2]) | set(light.characters[:2]) == monsters
        assert not dark.items and not light.items


def test_your_first_game_sets_the_items_aside() -> None:
    """Your First Game, Setup 1: the items are set aside, so a first game with one is refused."""
    from funkoverse.content.setups import SetupRequest, build, draw_spec

    spec = draw_spec(SetupRequest(scenario="first-knockout"), 1)
    dark, light = spec.teams
    armed = dataclasses.replace(dark, items=(("lasso-of-truth", dark.characters[0]),))
    disarmed = dataclasses.replace(light, items=(("shovel", light.characters[0]),))
    with pytest.raises(UserError, match="set"):
        build(dataclasses.replace(spec, teams=(armed, disarmed)))


@pytest.mark.parametrize("size", [1, 2, 3])
def test_drawn_teams_have_the_size_asked_for(size: int) -> None:
    """A knock-out skirmish (house-made) of 1, 2 or 3 characters a side: one character a
    side is a duel, two is a character and its basic character, three are characters with
    an item (Scenario Setup, step 5: "choose characters and items")."""
    from funkoverse.content.setups import SetupRequest, draw_spec

    for seed in range(20):
        spec = draw_spec(SetupRequest(scenario="knockout", size=size), seed)
        cards = load_characters()
        for t in spec.teams:
            assert len(t.characters) == size, (seed, t)
            basics = [c for c in t.characters if cards[c].basic]
            assert len(basics) == (1 if size == 2 else 0 if size == 1 else len(basics))
            assert len(t.items) == (1 if size == 3 else 0)

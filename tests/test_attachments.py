"""Attachments beyond items: companions, bonus objectives and minion tokens (Universal Monsters
100 and Space Jam A New Legacy 100, "Attachments", Glossary "Minion Tokens"), played with the
house-made cards that exist to test those systems."""

from __future__ import annotations

from dataclasses import replace

import pytest

from funkoverse.content.setups import make_setup, team
from funkoverse.errors import UserError
from funkoverse.rules.core.scenario import Scenario
from funkoverse.rules.core.state import Phase
from funkoverse.rules.engines import PYTHON, Engine
from funkoverse.rules.game import Game
from funkoverse.rules.play import engine
from funkoverse.rules.play.engine import new_game_at
from positions import ENGINES, handed, legal_ids, on_engine

SCORING = Scenario(id="test", knockout_points=1, target_two=6, target_three=10)


def _setup(
    dark_extra: dict[str, object], light_extra: dict[str, object], scenario: Scenario = SCORING
):  # type: ignore[no-untyped-def]
    dark = team("dark", ["wonder-woman", "priestess"])
    light = team("light", ["dracula", "villager"])
    return make_setup(
        [replace(dark, **dark_extra), replace(light, **light_extra)], "urzari-jungle", scenario
    )


def _at(setup, where: dict[str, str], knocked_down=()):  # type: ignore[no-untyped-def]
    b = setup.board
    return handed(
        new_game_at(
            setup, {k: b.parse_label(v) for k, v in where.items()}, "dark", tuple(knocked_down)
        )
    )


def _hound_game(engine: Engine, knocked_down: tuple[str, ...] = ()) -> Game:
    """Wonder Woman with the Hound, far from any rival, dark to choose."""
    setup = _setup(
        {"companions": (("hound", "wonder-woman"),)}, {"companions": (("hound", "dracula"),)}
    )
    where = {
        "wonder-woman": "c2",
        "priestess": "d1",
        "hound-dark": "e8",
        "dracula": "j10",
        "villager": "i10",
        "hound-light": "h10",
    }
    b = setup.board
    state = new_game_at(
        setup, {k: b.parse_label(v) for k, v in where.items()}, "dark", knocked_down
    )
    return on_engine(state, engine)


def test_companion_setup_is_placed_in_the_starting_area_with_the_characters() -> None:
    """Companion Setup: "At the beginning of the game ... place the companion in your starting
    area." """
    setup = _setup(
        {"companions": (("hound", "wonder-woman"),)}, {"companions": (("hound", "dracula"),)}
    )
    game = Game(replace(setup, first_player="dark"), 1)
    assert game.state.phase is Phase.PLACE
    placed = {c.split(":")[1] for c in engine.legal_choices(game.state)}
    assert "hound-dark" in placed
    while game.state.phase is Phase.PLACE:
        game.play(engine.legal_choices(game.state)[0])
    hound = game.state.pieces["hound-dark"]
    assert hound.square in game.state.board.start_areas["dark"]


def test_a_companion_is_paired_with_a_character_never_a_basic_character() -> None:
    with pytest.raises(UserError, match="never a basic character"):
        _setup({"companions": (("hound", "priestess"),)}, {"companions": (("hound", "dracula"),)})


def test_each_team_must_have_the_same_number_of_attachments() -> None:
    """Play with Attachments: "Each team must have the same number of attachments"."""
    with pytest.raises(UserError, match="same number"):
        _setup({"companions": (("hound", "wonder-woman"),)}, {})


def test_the_companion_acts_free_once_and_again_for_one_of_the_characters_actions() -> None:
    """Companion Rules: "the attached companion may also do one of the actions listed on the
    companion's card. Additionally, a character ... may do a companion action on their turn"."""
    game = _hound_game(PYTHON)
    game.play("choose:wonder-woman")
    menu = engine.legal_choices(game.state)
    assert "companion:hound-move" in menu and "companion-action:hound-move" in menu
    game.play("companion:hound-move")
    assert all(c.startswith("move:") for c in engine.legal_choices(game.state))
    assert "move:g8" in engine.legal_choices(game.state)  # Move 2
    game.play("move:g8")
    assert game.state.pieces["hound-dark"].square == game.state.board.parse_label("g8")
    assert game.state.actions_left == 2  # the free companion action costs no action
    menu = engine.legal_choices(game.state)
    assert "companion:hound-move" not in menu  # once a turn
    game.play("companion-action:hound-move")
    assert game.state.actions_left == 1
    game.play("move:g7")


def test_companion_actions_while_the_character_is_knocked_down_or_on_the_track() -> None:
    """ "Companion actions may be done while the attached character is knocked down, and even
    while the character is on the cooldown track!" """
    setup = _setup(
        {"companions": (("hound", "wonder-woman"),)}, {"companions": (("hound", "dracula"),)}
    )
    game = _at(
        setup,
        {
            "priestess": "d1",
            "hound-dark": "e8",
            "dracula": "j10",
            "villager": "i10",
            "hound-light": "h10",
        },
    )
    assert game.state.pieces["wonder-woman"].square is None  # knocked out, on the track
    game.play("choose:wonder-woman")
    menu = engine.legal_choices(game.state)
    assert "companion:hound-move" in menu  # not exhausted at once: the hound can act


@pytest.mark.parametrize("engine", ENGINES)
def test_taking_a_turn_the_companion_action_may_come_after_the_two_actions(engine: Engine) -> None:
    """Space Jam, Taking a Turn: "A character with an attached companion may do an additional
    action selected from the companion's card. You may do this before, between, or after the
    character's two actions." After the second action the turn waits for it (or for End)."""
    game = _hound_game(engine)
    game.play("choose:wonder-woman")
    game.play("move:b2")
    game.play("move:b3")
    assert game.decider == "dark"
    assert legal_ids(game) == ["companion:hound-move", "end"]  # not the one costing an action
    game.play("companion:hound-move")
    game.play("move:g8")
    assert game.decider == "light"  # nothing is left: the turn ended by itself
    assert game.peek().pieces["wonder-woman"].exhausted


@pytest.mark.parametrize("engine", ENGINES)
def test_taking_a_turn_the_companion_action_may_come_after_a_rally(engine: Engine) -> None:
    """Space Jam, Taking a Turn: the companion's action comes "before, between, or after the
    character's two actions"; Rally: "they may use both of their actions to stand up", so after
    a rally is after the two actions (docs/rulings.md); Knocked Down: a knocked-down character
    "can rally or do companion actions"."""
    game = _hound_game(engine, knocked_down=("wonder-woman",))
    game.play("choose:wonder-woman")
    game.play("rally")
    assert game.peek().pieces["wonder-woman"].standing
    assert legal_ids(game) == ["companion:hound-move", "end"]
    game.play("end")
    assert game.decider == "light"


@pytest.mark.parametrize("engine", ENGINES)
def test_taking_a_turn_the_companion_action_done_first_the_turn_ends_after_two(
    engine: Engine,
) -> None:
    """Space Jam, Taking a Turn: one additional companion action a turn; done before the two
    actions, the turn ends by itself after them."""
    game = _hound_game(engine)
    game.play("choose:wonder-woman")
    game.play("companion:hound-move")
    game.play("move:g8")
    game.play("move:b2")
    assert "companion:hound-move" not in legal_ids(game)
    game.play("move:b3")
    assert game.decider == "light"


def test_a_companion_that_loses_goes_on_the_1_and_gives_no_points() -> None:
    """ "When a companion is challenged and loses, remove it from the board and place it on the 1
    of its owner's cooldown track. Players do not gain points from challenging companions." """
    setup = _setup(
        {"companions": (("hound", "wonder-woman"),)}, {"companions": (("hound", "dracula"),)}
    )
    game = _at(
        setup,
        {
            "wonder-woman": "d8",
            "priestess": "a1",
            "hound-dark": "a2",
            "dracula": "j10",
            "villager": "i10",
            "hound-light": "e8",
        },
    )
    game.play("choose:wonder-woman")
    game.play("challenge:hound-light")
    while game.decider != "chance":
        game.play("skip")  # decline the Champion die
    game.play("roll:win")
    assert game.state.pieces["hound-light"].square is None
    assert game.state.sides["light"].track_position(("companion", "hound-light")) == 1
    assert game.state.sides["dark"].points == 0


def test_a_knock_out_by_a_companion_is_credited_to_its_character() -> None:
    """ "when a companion knocks out a rival, credit the knockout to the character the
    companion is attached to" (a point for knocking out a rival)."""
    setup = _setup(
        {"companions": (("hound", "wonder-woman"),)}, {"companions": (("hound", "dracula"),)}
    )
    game = _at(
        setup,
        {
            "wonder-woman": "a1",
            "priestess": "b1",
            "hound-dark": "d8",
            "dracula": "j10",
            "villager": "e8",
            "hound-light": "h10",
        },
        knocked_down=["villager"],
    )
    game.play("choose:wonder-woman")
    game.play("companion:hound-bite")
    game.play("target:villager")
    game.play("roll:win")
    assert game.state.pieces["villager"].square is None
    assert game.state.sides["dark"].points == 1


def test_bonus_objective_the_opponent_places_the_marker_in_their_own_starting_area() -> None:
    """Bonus Objective Setup: "Hand the bonus objective marker to an opponent. Immediately
    after characters are placed during setup, your opponent places the bonus objective marker
    they have been given by you in their starting area." """
    setup = _setup({"bonus": ("supply-cache",)}, {"bonus": ("supply-cache",)})
    game = Game(replace(setup, first_player="dark"), 1)
    while game.state.phase is Phase.PLACE:
        choices = engine.legal_choices(game.state)
        if any("supply-cache" in c for c in choices):
            side = game.decider
            assert all("supply-cache" in c for c in choices)  # after its own characters
            marker = choices[0].split(":")[1]
            assert marker != f"supply-cache-{side}"  # the marker it was given
        game.play(choices[0])
    light_marker = game.state.pieces["supply-cache-light"]
    assert light_marker.square in game.state.board.start_areas["dark"]


def test_bonus_objective_blocks_as_a_character_and_scores_when_completed() -> None:
    """Bonus Objective Rules: markers "follow the same rules for adjacency, movement, blocking
    line of sight ... as characters"; the house-made Supply Cache gives 2 points."""
    setup = _setup({"bonus": ("supply-cache",)}, {"bonus": ("supply-cache",)})
    game = _at(
        setup,
        {
            "wonder-woman": "d8",
            "priestess": "a1",
            "supply-cache-dark": "e8",
            "supply-cache-light": "a3",
            "dracula": "j10",
            "villager": "i10",
        },
    )
    game.play("choose:wonder-woman")
    menu = engine.legal_choices(game.state)
    assert "move:e8" not in menu  # nobody ends a move on the marker's square
    assert "interact:bonus-supply-cache-dark" in menu
    game.play("interact:bonus-supply-cache-dark")
    assert game.state.sides["dark"].points == 2
    assert game.state.pieces["supply-cache-dark"].square is None


def test_minion_tokens_block_and_challenge_as_characters_and_are_removed_when_they_lose() -> None:
    """Minion Tokens: "A minion token follows the same rules for adjacency, movement, blocking
    line of sight ... as characters"; "remove the token from the map when it loses a
    challenge"; a knock-out by a minion is credited to the character who placed it."""
    setup = _setup(
        {"items": (("clockwork-minion", "wonder-woman"),)}, {"items": (("shovel", "dracula"),)}
    )
    game = _at(
        setup,
        {"wonder-woman": "d8", "priestess": "a1", "dracula": "f8", "villager": "j10"},
        knocked_down=["dracula"],
    )
    game.play("choose:wonder-woman")
    game.play("item:clockwork-minion")
    options = engine.legal_choices(game.state)
    assert "token:minion-dark-1:e8" in options
    game.play("token:minion-dark-1:e8")
    minion = game.state.pieces["minion-dark-1"]
    assert minion.square == game.state.board.parse_label("e8") and minion.owner == "wonder-woman"
    assert "minion:minion-dark-1:dracula" in engine.legal_choices(game.state)
    game.play("minion:minion-dark-1:dracula")
    if game.decider != "chance":
        game.play("skip")  # the Champion die: Wonder Woman is adjacent to her minion ally
    game.play("roll:win")
    assert game.state.pieces["dracula"].square is None
    assert game.state.sides["dark"].points == 1  # credited to Wonder Woman's side


def _bonus_game(dark: dict[str, str], light: dict[str, str], teams: tuple[list[str], list[str]]):  # type: ignore[no-untyped-def]
    setup = make_setup(
        [
            replace(team("dark", teams[0]), bonus=("supply-cache",)),
            replace(team("light", teams[1]), bonus=("supply-cache",)),
        ],
        "urzari-jungle",
        SCORING,
    )
    return _at(setup, {**dark, **light})


def test_bonus_objective_marker_is_not_a_rival_mesmerize_cannot_pull_it() -> None:
    """Glossary, Markers: "characters cannot move or target markers". A bonus objective
    marker blocks as a character does, but it is a marker, not a rival: Mesmerize ("Pull a
    rival Dracula can see 2 squares. Do a basic challenge.") has no target in it."""
    game = _bonus_game(
        {"wonder-woman": "a1", "priestess": "b1", "supply-cache-dark": "e8"},
        {"dracula": "e10", "villager": "j10", "supply-cache-light": "a3"},
        (["wonder-woman", "priestess"], ["dracula", "villager"]),
    )
    game.play("choose:wonder-woman")
    game.play("end")
    game.play("choose:dracula")
    assert not [c for c in engine.legal_choices(game.state) if c.startswith("ability:mesmerize")]


def test_bonus_objective_marker_is_not_a_rival_divine_resolve_does_not_push_it() -> None:
    """Divine Resolve: "Push all adjacent rivals 1 square away" — not the marker beside her."""
    game = _bonus_game(
        {"wonder-woman": "d8", "priestess": "a1", "supply-cache-dark": "j1"},
        {"dracula": "j10", "villager": "i10", "supply-cache-light": "e8"},
        (["wonder-woman", "priestess"], ["dracula", "villager"]),
    )
    game.play("choose:wonder-woman")
    game.play("ability:divine-resolve")
    assert not [c for c in engine.legal_choices(game.state) if c.startswith("push:")]
    assert game.state.pieces["supply-cache-light"].square == game.state.board.parse_label("e8")


def test_bonus_objective_marker_is_not_a_rival_savage_hunger_is_not_offered_for_it() -> None:
    """Savage Hunger: "Choose a rival within 2 squares that The Cheetah can see and place her
    adjacent to them. Do a challenge 2 to them." With only the marker in reach there is no
    possible target, so the challenge action is not offered."""
    game = _bonus_game(
        {"the-cheetah": "d8", "priestess": "a1", "supply-cache-dark": "j1"},
        {"dracula": "j10", "villager": "i10", "supply-cache-light": "f8"},
        (["the-cheetah", "priestess"], ["dracula", "villager"]),
    )
    game.play("choose:the-cheetah")
    assert "ability:savage-hunger" not in engine.legal_choices(game.state)

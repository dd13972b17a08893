"""Setup, step 5, as decisions: choosing characters and items, in secret or from one shared
collection; and what each side may see of the other's secret picks."""

from __future__ import annotations

from dataclasses import replace

import pytest

from funkoverse.content.characters import load_characters
from funkoverse.content.setups import make_setup, team
from funkoverse.rules.core.choices import Pick
from funkoverse.rules.core.errors import IllegalChoice
from funkoverse.rules.core.state import Draft, Phase, TeamSetup
from funkoverse.rules.core.view import HIDDEN, observe
from funkoverse.rules.game import Game
from funkoverse.rules.play import engine


def _draft_game(secret: bool) -> Game:
    base = make_setup([team("dark", ["priestess"]), team("light", ["villager"])], "urzari-jungle")
    cards = tuple(load_characters().values())
    draft = Draft(
        cards, ("lasso-of-truth", "shovel", "fishing-net"), size=3, items=1, secret=secret
    )
    setup = replace(
        base,
        teams=(TeamSetup("dark", ()), TeamSetup("light", ())),
        draft=draft,
        first_player="dark",
    )
    return Game(setup, 1)


def test_choose_characters_and_items_in_secret_both_commit_then_both_are_revealed() -> None:
    """Scenario Setup, step 5: "If both players have ... collections, choose characters and
    items in secret." """
    game = _draft_game(secret=True)
    assert game.state.phase is Phase.DRAFT and game.decider == "dark"
    game.play("pick:wonder-woman")
    game.play("pick:dracula")
    game.play("pick:priestess")
    assert engine.legal_choices(game.state)[0].startswith("give:")
    assert "give:shovel:priestess" not in engine.legal_choices(
        game.state
    )  # Item Setup: no basic holder
    game.play("give:shovel:dracula")
    assert game.decider == "light"
    seen = observe(game.state, "light")
    assert seen.sides["dark"].picks == (HIDDEN,) * 3  # light sees that, not what
    assert seen.sides["dark"].gifts == ((HIDDEN, HIDDEN),)
    assert observe(game.state, "dark").sides["dark"].picks == (
        "wonder-woman",
        "dracula",
        "priestess",
    )
    # secret picks from one's own collection: the same characters are still there for light
    assert "pick:wonder-woman" in engine.legal_choices(game.state)
    game.play("pick:wonder-woman")
    game.play("pick:the-cheetah")
    with pytest.raises(IllegalChoice):
        game.play("pick:wonder-woman")  # same name: not allies (Mixing Games)
    game.play("pick:villager")
    game.play("give:shovel:the-cheetah")
    # both committed: revealed, and the game goes on to placement
    assert game.state.phase is Phase.PLACE
    dark = [p.card.id for p in game.state.characters("dark") if p.card]
    assert dark == ["wonder-woman", "dracula", "priestess"]
    assert game.state.pieces["dracula"].items == ("shovel",)
    state = game.state
    assert observe(state, "light") is state  # nothing secret any more


def test_a_shared_collection_is_chosen_in_the_open_and_a_chosen_figure_is_gone() -> None:
    game = _draft_game(secret=False)
    game.play("pick:wonder-woman")
    game.play("pick:dracula")
    game.play("pick:villager")
    game.play("give:lasso-of-truth:wonder-woman")
    choices = engine.legal_choices(game.state)
    assert "pick:wonder-woman" not in choices and "pick:dracula" not in choices
    state = game.state
    assert observe(state, "light") is state


def test_a_side_that_must_hold_an_item_keeps_a_character_who_can() -> None:
    """Item Setup: basic characters cannot be given items, so the last pick of a side that has
    only basic characters so far must be a character."""
    game = _draft_game(secret=True)
    game.play("pick:priestess")
    game.play("pick:villager")
    last = engine.choices(game.state)
    assert last and all(
        isinstance(c, Pick) and not load_characters()[c.character].basic for c in last
    )

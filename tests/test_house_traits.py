"""A trait written as data plays from its card file alone, on both engines: the house-made
Lamplighter (examples/fan-content), whose Vigil listens at moments, with conditions and steps
no printed card puts together ("At the start of The Lamplighter's turn, if no rival can see
it, it may move 2. While standing, when an ally stands up, The Lamplighter may move 1.")."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from funkoverse.content.characters import parse_character
from funkoverse.errors import UserError
from funkoverse.rules.core.cards import CharacterCard
from funkoverse.rules.play import engine
from positions import board, position

FILE = (
    Path(__file__).parents[1] / "examples" / "fan-content" / "characters" / "the-lamplighter.toml"
)
# walls that hide b2 from b4 (What Your Character Can See)
HIDDEN = board(walls=[("b2", "b3"), ("c2", "c3"), ("a2", "a3")])


def _data() -> dict[str, Any]:
    return tomllib.loads(FILE.read_text())


def _lamplighter(**numbers: int) -> CharacterCard:
    data = _data()
    data["numbers"] = {**data["numbers"], **numbers}
    return parse_character(data, "house/the-lamplighter.toml")


def test_vigil_unseen_at_the_start_of_its_turn_it_may_move_2() -> None:
    card = _lamplighter()
    game = position(
        {"the-lamplighter": "b2"}, {"villager": "b4"}, b=HIDDEN, cards={"the-lamplighter": card}
    )
    game.play("choose:the-lamplighter")
    menu = engine.legal_choices(game.state)
    assert "skip" in menu and "move:d2" in menu and "move:e2" not in menu
    game.play("move:d2")
    assert game.state.board.label(game.state.pieces["the-lamplighter"].square) == "d2"
    assert game.state.actions_left == 2  # the move is the trait's, not an action


def test_vigil_a_rival_that_sees_it_asks_nothing() -> None:
    card = _lamplighter()
    game = position({"the-lamplighter": "b2"}, {"villager": "b4"}, cards={"the-lamplighter": card})
    game.play("choose:the-lamplighter")
    assert "skip" not in engine.legal_choices(game.state)


def test_vigil_moves_as_far_as_the_card_says() -> None:
    card = _lamplighter(vigil_move=3)
    game = position(
        {"the-lamplighter": "b2"}, {"villager": "b4"}, b=HIDDEN, cards={"the-lamplighter": card}
    )
    game.play("choose:the-lamplighter")
    assert "move:e2" in engine.legal_choices(game.state)


def test_vigil_when_an_ally_stands_up_it_may_move_1() -> None:
    """An ally stood up by an assist: the Lamplighter's owner may move it 1; it does not
    listen for its own standing up ("an ally")."""
    card = _lamplighter()
    game = position(
        {"the-lamplighter": "d4", "villager": "b2", "hyena-warrior": "b3"},
        {"priestess": "f6"},
        knocked_down=["villager"],
        cards={"the-lamplighter": card},
    )
    game.play("choose:hyena-warrior")
    game.play("assist:villager")
    menu = engine.legal_choices(game.state)
    assert "skip" in menu and "move:d5" in menu and "move:d6" not in menu
    game.play("move:d5")
    assert game.state.board.label(game.state.pieces["the-lamplighter"].square) == "d5"


@pytest.mark.parametrize(
    ("edit", "says"),
    [
        (
            lambda d: d.__setitem__("numbers", {}),
            "house/the-lamplighter.toml: field 'numbers': the hook 'vigil' needs 'vigil_move'",
        ),
        (
            lambda d: d["trait"]["triggers"][0].__setitem__("when", "dawn"),
            "house/the-lamplighter.toml: field 'trait.triggers[0].when[0]': expected one of",
        ),
        (
            lambda d: d["trait"]["triggers"][1].__setitem__("who", "everyone"),
            "house/the-lamplighter.toml: field 'trait.triggers[1].who': expected one of",
        ),
        (
            lambda d: d["trait"]["triggers"][0].__setitem__("step", {"op": "fly"}),
            "house/the-lamplighter.toml: field 'trait.triggers[0].step.op': 'fly' is not in",
        ),
    ],
    ids=["number-missing", "unknown-moment", "unknown-whom", "unknown-step"],
)
def test_a_trait_file_that_says_something_unknown_is_refused_in_one_line(
    edit: Any, says: str
) -> None:
    data = _data()
    edit(data)
    with pytest.raises(UserError) as refused:
        parse_character(data, "house/the-lamplighter.toml")
    assert str(refused.value).startswith(says), str(refused.value)
    assert "\n" not in str(refused.value)


def test_no_hand_written_kernel_file_names_a_card() -> None:
    """Card behaviour is the card file's: the kernel's hand-written C++ names no character,
    status card, item or companion, nor any of their traits and abilities (the generated
    schema.hpp holds only the vocabulary's words)."""
    data = Path(__file__).parents[1] / "src" / "funkoverse" / "content" / "data"
    names: set[str] = set()
    for folder in ("characters", "statuses", "items", "companions"):
        for path in (data / folder).glob("*.toml"):
            card = tomllib.loads(path.read_text())
            names |= {card["id"], card["name"]}
            trait = card.get("trait")
            if isinstance(trait, dict) and trait.get("name"):
                names.add(trait["name"])
            for ability in card.get("abilities", []):
                names |= {ability["id"], ability["name"]}
    kernel = Path(__file__).parents[1] / "src" / "funkoverse" / "rules" / "kernel"
    found = [
        f"{path.name}: {name}"
        for path in sorted(kernel.glob("*.[ch]pp"))
        if path.name != "schema.hpp"
        for name in sorted(names)
        if len(name) > 3 and name.lower() in path.read_text().lower()
    ]
    assert not found, found

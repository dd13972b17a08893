"""A card's numbers live in its file: the hooks play by what the card's `numbers` table says
(Champion of Themyscira's "on the 2 of your cooldown track", The Bloody Terror's "on the 3",
Forbidden Depths' "within 5 squares"), on both engines, and the loader refuses a card that
leaves one out or gives one no hook of it plays by, naming the file, the field and the fix."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from funkoverse.content.characters import parse_character
from funkoverse.content.fields import DATA
from funkoverse.errors import UserError
from funkoverse.rules.core.cards import CharacterCard
from funkoverse.rules.play import engine
from positions import board, position

CHAMPION = ("die", "champion")
BLOOD = ("component", "blood")
WIDE = board(width=12, height=6, dark=("a6", "b6", "c6"), light=("l6", "k6", "j6"))


def _file(card_id: str) -> dict[str, Any]:
    return tomllib.loads((Path(DATA) / "characters" / f"{card_id}.toml").read_text())


def _house_made(card_id: str, **numbers: int) -> CharacterCard:
    """The shipped card as a house-made copy whose file gives other numbers."""
    data = _file(card_id)
    data["numbers"] = {**data["numbers"], **numbers}
    return parse_character(data, f"house/{card_id}.toml")


def test_the_shipped_cards_give_their_traits_numbers() -> None:
    assert _file("wonder-woman")["numbers"] == {"champion_slot": 2}
    assert _file("dracula")["numbers"] == {"blood_slot": 3}
    assert _file("the-creature")["numbers"] == {"tunnel_reach": 5}


def test_champion_of_themyscira_places_the_die_where_the_card_says() -> None:
    """A house-made Wonder Woman whose trait reads "place the Champion die on the 3": the die
    joins her roll and goes on the 3, not the shipped card's 2."""
    variant = _house_made("wonder-woman", champion_slot=3)
    game = position(
        {"wonder-woman": "b2"}, {"hyena-warrior": "b3"}, cards={"wonder-woman": variant}
    )
    game.play("choose:wonder-woman")
    game.play("challenge:hyena-warrior")
    game.play("champion:add")
    assert game.state.sides["dark"].track_position(CHAMPION) == 3


def test_the_bloody_terror_places_the_blood_token_where_the_card_says() -> None:
    """The Bloody Terror of Transylvania: "If you don't, place the Blood token on the 3 of
    your cooldown track"; a house-made Dracula whose card says 4 places it on the 4."""
    variant = _house_made("dracula", blood_slot=4)
    game = position({"dracula": "b2"}, {"hyena-warrior": "b3"}, cards={"dracula": variant})
    game.play("choose:dracula")
    game.play("challenge:hyena-warrior")
    assert game.state.sides["dark"].track_position(BLOOD) == 4


def test_forbidden_depths_links_tunnels_as_far_apart_as_the_card_says() -> None:
    """Forbidden Depths: "squares with Tunnels are considered adjacent to other squares with
    Tunnels within 5 squares"; Tunnels 6 apart link for a house-made Creature whose card says 6
    and not for the shipped one."""
    tunnels = {"tunnel-dark-1": "a1", "tunnel-dark-2": "g1"}
    for reach, linked in ((5, False), (6, True)):
        creature = _house_made("the-creature", tunnel_reach=reach)
        game = position(
            {"the-creature": "a1"},
            {"villager": "l6"},
            b=WIDE,
            tokens=tunnels,
            cards={"the-creature": creature},
        )
        game.play("choose:the-creature")
        if "skip" in engine.legal_choices(game.state):
            game.play("skip")
        assert ("move:g1" in engine.legal_choices(game.state)) is linked, reach


@pytest.mark.parametrize(
    ("numbers", "says"),
    [
        (
            None,
            "house/wonder-woman.toml: field 'numbers': the hook 'champion-of-themyscira' needs "
            "'champion_slot'",
        ),
        (
            {"champion_slot": 2, "blood_slot": 3},
            "house/wonder-woman.toml: field 'numbers': no hook of this card plays by 'blood_slot'",
        ),
        (
            {"champion_slot": "two"},
            "house/wonder-woman.toml: field 'numbers.champion_slot': expected a whole number",
        ),
    ],
    ids=["missing", "not-wanted", "not-a-number"],
)
def test_a_card_file_without_its_hooks_numbers_is_refused_in_one_line(
    numbers: dict[str, Any] | None, says: str
) -> None:
    data = _file("wonder-woman")
    del data["numbers"]
    if numbers is not None:
        data["numbers"] = numbers
    with pytest.raises(UserError) as refused:
        parse_character(data, "house/wonder-woman.toml")
    assert str(refused.value).startswith(says)
    assert "\n" not in str(refused.value)

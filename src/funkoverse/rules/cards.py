"""Card definitions the rules play: characters, basic characters, abilities and their steps.

These are immutable values; the content loader builds them from data files.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType


class TokenColor(StrEnum):
    """Ability types ("Ability Types"): the DC names are colors, the Universal Monsters names qualities."""

    YELLOW = "yellow"  # leadership
    RED = "red"  # might
    BLUE = "blue"  # finesse
    GRAY = "gray"  # cunning


COLOR_ALIASES: Mapping[str, TokenColor] = MappingProxyType(
    {
        "yellow": TokenColor.YELLOW,
        "leadership": TokenColor.YELLOW,
        "red": TokenColor.RED,
        "might": TokenColor.RED,
        "blue": TokenColor.BLUE,
        "finesse": TokenColor.BLUE,
        "gray": TokenColor.GRAY,
        "grey": TokenColor.GRAY,
        "cunning": TokenColor.GRAY,
    }
)

Param = int | str | bool | None


@dataclass(frozen=True)
class Step:
    """One part of an ability, in the effects vocabulary (`move`, `challenge`, `stand_up`, ...)."""

    op: str
    params: tuple[tuple[str, Param], ...] = ()

    def get(self, name: str, default: Param = None) -> Param:
        for key, value in self.params:
            if key == name:
                return value
        return default

    def int(self, name: str, default: int = 0) -> int:
        value = self.get(name, default)
        return value if isinstance(value, int) and not isinstance(value, bool) else default


def step(op: str, **params: Param) -> Step:
    """A step with its parameters in a stable order."""
    return Step(op, tuple(sorted(params.items())))


@dataclass(frozen=True)
class Ability:
    """An ability printed on a card ("Doing an Ability"): type, cost, challenge-action mark, steps."""

    id: str
    name: str
    color: TokenColor
    cost: int
    challenge_action: bool
    steps: tuple[Step, ...]
    text: str = ""
    while_knocked_down: bool = False
    while_knocked_out: bool = False


@dataclass(frozen=True)
class CharacterCard:
    """A character card, or a basic character card (no abilities, traits or attachments)."""

    id: str
    name: str
    box: str
    defense: int
    basic: bool = False
    dots: tuple[TokenColor, ...] = ()
    abilities: tuple[Ability, ...] = ()
    trait_name: str = ""
    trait_text: str = ""
    elusive: bool = False  # Elusive Trickster: rivals only see him while adjacent
    hooks: tuple[str, ...] = field(default_factory=tuple)

    def ability(self, ability_id: str) -> Ability | None:
        for ability in self.abilities:
            if ability.id == ability_id:
                return ability
        return None

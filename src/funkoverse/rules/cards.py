"""Card definitions the rules play: characters, basic characters, abilities and their steps.

These are immutable values; the content loader builds them from data files.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from funkoverse.rules.hooks import Hook


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
    declare_target: bool = (
        False  # the first challenge's target is chosen with the ability (its cost may depend on it)
    )
    cost_vs_knocked_down: int = (
        0  # change to the cost when that target is knocked down (Exsanguinate: -2)
    )


@dataclass(frozen=True)
class CharacterCard:
    """A character card, or a basic character card (no abilities, traits or attachments)."""

    id: str
    name: str
    box: str
    defense: int
    basic: bool = False
    base: str = ""  # a basic character's base color: the side it comes with in its box
    dots: tuple[TokenColor, ...] = ()
    abilities: tuple[Ability, ...] = ()
    trait_name: str = ""
    trait_text: str = ""
    elusive: bool = False  # Elusive Trickster: rivals only see him while adjacent
    hooks: tuple[Hook, ...] = ()
    tokens: tuple[tuple[str, int], ...] = ()  # tokens that come with the card: (kind, how many)
    dice: tuple[str, ...] = ()  # dice that come with the card (the Champion die)

    def ability(self, ability_id: str) -> Ability | None:
        for ability in self.abilities:
            if ability.id == ability_id:
                return ability
        return None


@dataclass(frozen=True)
class StatusCard:
    """A status card ("Status Cards"): given to a character, it adds abilities or a trait."""

    id: str
    name: str
    box: str
    group: str = ""  # cards given as "a Bride status card" share a group
    abilities: tuple[Ability, ...] = ()
    trait_text: str = ""
    hooks: tuple[Hook, ...] = ()
    text: str = ""


@dataclass(frozen=True)
class ItemCard:
    """An item ("Items"): a new action for its holder, with or without the use-item icon.

    `cost` 0 means no use icon: the action is a basic action (Lasso of Truth) or a trait.
    """

    id: str
    name: str
    box: str
    cost: int
    challenge_action: bool
    steps: tuple[Step, ...]
    text: str = ""
    basic_action: bool = False
    tokens: tuple[tuple[str, int], ...] = ()  # tokens that come with the item (minion tokens)


@dataclass(frozen=True)
class CompanionCard:
    """A companion ("Companions"): an ally paired with a character, with its own actions."""

    id: str
    name: str
    box: str
    defense: int
    actions: tuple[ItemCard, ...]
    text: str = ""


@dataclass(frozen=True)
class BonusObjective:
    """A bonus objective ("Bonus Objectives"): a marker the opponent places in their own
    starting area; the owning side's characters complete it by interacting with it."""

    id: str
    name: str
    box: str
    points: int
    text: str = ""


# What kind of piece each token kind is, and its defense (None: it cannot be challenged).
TOKEN_KINDS: Mapping[str, tuple[str, int | None]] = MappingProxyType(
    {"tunnel": ("token", None), "minion": ("minion", 1)}
)

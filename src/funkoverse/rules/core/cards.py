"""Card definitions the rules play: characters, basic characters, abilities and their steps.

These are immutable values; the content loader builds them from data files.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
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


class CardHook:
    """A hook as a card carries it: its name and the trait or card it plays. What it does is
    `hooks.Hook`'s (every hook a card carries is one); a card holds only this much, so that
    the cards need not know the state the hooks act on."""

    name: str = ""
    title: str = ""  # the card or trait it plays, in words ("Sneaking"); `name` when empty
    # the card's numbers the hook plays by, as its file gives them ("place the Champion die
    # on the 2 of your cooldown track": champion_slot = 2)
    numbers: tuple[tuple[str, int], ...] = ()

    def number(self, key: str) -> int:
        """The card's number named `key` (one of its hook's `wants`)."""
        for name, value in self.numbers:
            if name == key:
                return value
        raise KeyError(f"the card gives the hook '{self.name}' no number '{key}'")


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
    hooks: tuple[CardHook, ...] = ()
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
    hooks: tuple[CardHook, ...] = ()
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


@dataclass(frozen=True)
class ScenarioCard:
    """A scenario card as data: the rules it switches on and its targets (the rules
    themselves are `scenario.Scenario`'s). The base values are a plain game with no
    objective."""

    id: str = "none"
    name: str = "No objective"
    box: str = ""
    maps: tuple[str, ...] = ()
    point_markers: bool = False  # "Point Markers": interact for a point
    knockout_points: int = 0  # "If you knock out a rival, gain 1 point."
    adjacent_knockout_points: bool = (
        False  # UM first game: adjacent to a rival when it is knocked out
    )
    first_knockout_wins: bool = False  # DC first game
    immediate_target: bool = False  # the first games end the moment the target is reached
    target_two: int | None = None  # points to win with two characters per side
    target_three: int | None = None  # ... with three (or more)
    flags: bool = False
    leaders: bool = False
    control: bool = False
    free_for_all: bool = False
    ultimate: bool = False
    note: str = ""
    sizes: tuple[int, ...] = (2, 3)  # characters a side it is played with
    attachments: bool = True  # False: items and other attachments are set aside
    first_game: bool = False  # each side plays its box's characters and matching basic character

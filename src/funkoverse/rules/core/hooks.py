"""The points of the game where a trait or status card has a say.

A hook is attached to a card and asked at fixed points of the game. A trait written as data
in its card file is played by `vocabulary.traits.TraitHook`; a Python subclass is the escape
hatch for what those words cannot say (the Python engine plays it). Every method has a
default that does nothing, so a hook overrides only what its card changes. `owner` is the
piece whose card or status card carries the hook.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, cast

from funkoverse.rules.core.cards import Ability, CardHook
from funkoverse.rules.core.choices import Choice
from funkoverse.rules.core.events import Event
from funkoverse.rules.core.frames import Frame, RollFrame
from funkoverse.rules.core.state import GameState, Piece


@dataclass(frozen=True)
class Modifier:
    """A change to a value ("What happens when multiple things modify a value at the same
    time?": add, then subtract (not below 0), then set)."""

    op: str  # "add", "subtract" or "set"
    amount: int


def modified(base: int, modifiers: Sequence[Modifier]) -> int:
    """Apply modifiers in the FAQ's order: every add, then every subtract (not below 0),
    then any set (the last one counts)."""
    value = base + sum(m.amount for m in modifiers if m.op == "add")
    value = max(0, value - sum(m.amount for m in modifiers if m.op == "subtract"))
    for m in modifiers:
        if m.op == "set":
            value = m.amount
    return value


class Hook(CardHook):
    """A named piece of card behaviour; subclasses override what their card changes. The
    numbers it plays by come from the card's file (`wants`: each number's name and what it
    is), so that a card with other numbers is a change of its file alone."""

    wants: ClassVar[tuple[tuple[str, str], ...]] = ()

    def defense(self, state: GameState, owner: Piece, piece: Piece) -> Sequence[Modifier]:
        """Modifiers to `piece`'s defense."""
        return ()

    def before_roll(self, state: GameState, owner: Piece, roll: RollFrame) -> Sequence[Frame]:
        """Decisions ("you may") to take before the dice of `roll` are rolled."""
        return ()

    def react(self, state: GameState, owner: Piece, event: str, subject: Piece) -> Sequence[Frame]:
        """Decisions or effects when something happens to `subject` (`event`: "stood_up",
        "interacted_point_marker", "knocked_out", ...)."""
        return ()

    def turn_start(self, state: GameState, owner: Piece) -> Sequence[Frame]:
        """At the start of `owner`'s turn."""
        return ()

    def extra_actions(self, state: GameState, owner: Piece) -> int:
        """Actions added at the start of `owner`'s turn."""
        return 0

    def after_action(self, state: GameState, owner: Piece, events: list[Event]) -> None:
        """After `owner` rallies or does an action."""

    def move_links(self, state: GameState, owner: Piece) -> Mapping[int, Sequence[int]] | None:
        """Extra one-step connections when `owner` moves (Tunnels)."""
        return None

    def cost(self, state: GameState, owner: Piece, ability: Ability, target: Piece | None) -> int:
        """Change to an ability's cost (negative to decrease)."""
        return 0

    def reach(self, state: GameState, owner: Piece, purpose: str) -> int:
        """How far (in squares, seen) `owner` may assist or interact; 1 is adjacent."""
        return 1

    def interactions(
        self, state: GameState, owner: Piece, actor: Piece, squares: set[int]
    ) -> list[Choice]:
        """Things `actor` may interact with in `squares` because of this trait (Tunnels)."""
        return []

    def interact(
        self, state: GameState, owner: Piece, actor: Piece, thing: Choice, events: list[Event]
    ) -> bool:
        """Do `actor`'s interaction `thing` if it is this hook's; True when it was."""
        return False

    def on_status(self, state: GameState, owner: Piece, card_id: str) -> Sequence[Frame]:
        """After `owner` is given a status card."""
        return ()

    def choices(self, state: GameState, owner: Piece, purpose: str) -> list[Choice]:
        """Options of a decision this hook asked for (a `ChoiceFrame` with its purpose)."""
        return []

    def choose(
        self, state: GameState, owner: Piece, purpose: str, choice: Choice, events: list[Event]
    ) -> None:
        """Apply one of those options, adding what happened to `events`."""

    def label(self, state: GameState, owner: Piece, purpose: str, choice: Choice) -> str | None:
        """Words for one of those options (declining included) in a menu; None: the usual."""
        return None


def hooks_on(hooks: tuple[CardHook, ...]) -> tuple[Hook, ...]:
    """A card's hooks as the rules ask them: a card holds its hooks as `CardHook`s, and every
    one of them is a `Hook` (the loader takes hooks only from the registry of hooks)."""
    return cast("tuple[Hook, ...]", hooks)

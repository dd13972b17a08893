"""Restricted play (Jaffe et al., "Evaluating competitive game balance with restricted play"):
a side barred from one ability, item or action never picks it, so the lab can measure what
the card is worth: the win rate with it and without it.

A bar is written `ability:ID`, `item:ID` or `action:NAME`, optionally for one side of the
matchup only (`a=ability:savage-hunger`). Whether a choice is barred is read from the choice
value's type (`rules/core/choices.py`), never from its id.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from funkoverse.ai.agents import Agent
from funkoverse.errors import UserError
from funkoverse.rules import (
    Assist,
    Challenge,
    Choice,
    CompanionAction,
    CompleteBonus,
    FlipControl,
    GameState,
    Interact,
    Move,
    PlaceControl,
    Rally,
    Turn,
    UseAbility,
    UseItem,
)

KINDS = ("ability", "item", "action")
SIDES = ("a", "b")

# The actions of Taking a Turn, step 2, by the rulebook's names, and the choice types of each.
ACTIONS: dict[str, tuple[type[Choice], ...]] = {
    "move": (Move,),
    "challenge": (Challenge,),
    "assist": (Assist,),
    "interact": (Interact, CompleteBonus, PlaceControl, FlipControl),
    "rally": (Rally,),
    "ability": (UseAbility,),
    "item": (UseItem,),
    "companion": (CompanionAction,),
}

_BAR = re.compile(r"(?:(?P<side>[ab])=)?(?P<kind>[a-z]+)[:](?P<what>[a-z0-9][a-z0-9-]*)")


@dataclass(frozen=True, order=True)
class Bar:
    """One barred choice: `kind` ability, item or action; `what` its id or action name;
    `side` "a" or "b" for one side of the matchup, None for both."""

    kind: str
    what: str
    side: str | None = None

    def text(self) -> str:
        """The bar as it is written on the command line (and kept in the store)."""
        head = f"{self.side}=" if self.side else ""
        return head + self.kind + ":" + self.what

    def applies_to(self, side: str) -> bool:
        return self.side is None or self.side == side

    def bars(self, choice: Choice) -> bool:
        """Whether this bar forbids `choice`."""
        if self.kind == "ability":
            return isinstance(choice, UseAbility) and choice.ability == self.what
        if self.kind == "item":
            return isinstance(choice, UseItem) and choice.item == self.what
        return isinstance(choice, ACTIONS[self.what])


def parse_bar(text: str) -> Bar:
    """A bar as a person writes it; a malformed one is refused in one line saying how to
    write it."""
    found = _BAR.fullmatch(text.strip())
    if found is None or found["kind"] not in KINDS:
        raise UserError(
            f"--bar '{text[:60]}': write ability:ID, item:ID or action:NAME, "
            "optionally for one side (a=ability:savage-hunger)"
        )
    bar = Bar(found["kind"], found["what"], found["side"])
    if bar.kind == "action" and bar.what not in ACTIONS:
        raise UserError(
            f"--bar '{text[:60]}': unknown action '{bar.what}'; the actions are {', '.join(ACTIONS)}"
        )
    return bar


def check_bars(bars: Sequence[Bar], abilities: set[str], items: set[str]) -> None:
    """Refuse a bar naming an ability or item no card has, in one line."""
    for bar in bars:
        if bar.kind == "ability" and bar.what not in abilities:
            raise UserError(f"--bar {bar.text()}: no character has an ability '{bar.what}'")
        if bar.kind == "item" and bar.what not in items:
            raise UserError(f"--bar {bar.text()}: there is no item '{bar.what}'")


class RestrictedAgent:
    """An agent whose menu has the barred choices taken out before it sees it. When a bar
    would leave nothing to pick (a move step inside an ability, with moving barred), the
    whole menu is offered and the decision counted in `forced`."""

    def __init__(self, agent: Agent, bars: Sequence[Bar]) -> None:
        self.agent = agent
        self.bars = tuple(bars)
        self.name = agent.name
        self.forced = 0
        self.removed = 0

    def allowed(self, choices: list[Choice]) -> list[Choice]:
        kept = [c for c in choices if not any(b.bars(c) for b in self.bars)]
        self.removed += len(choices) - len(kept)
        if not kept:
            self.forced += 1
            return choices
        return kept

    def decide(self, turn: Turn) -> Choice:
        return self.agent.decide(turn.narrowed(self.allowed(list(turn.choices))))

    def explain(self, turn: Turn, top: int = 3) -> list[tuple[Choice, float]]:
        return self.agent.explain(turn.narrowed(self.allowed(list(turn.choices))), top)

    def choose(self, state: GameState, choices: Sequence[Choice]) -> Choice:
        return self.decide(Turn.of(state, choices))

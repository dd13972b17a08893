"""A choice is a value: one small immutable type per kind of decision, with its stable id.

Every decision of a game (a chance outcome, a setup pick, an action, a part of an
ability, a "you may") is one of these values. `format()` writes the stable id that logs,
saved games, the conformance interface and people use ("move:c3", "roll:win",
"interact:point-A"); `parse()` reads it back. This module owns the grammar of those ids:
no other code splits or builds one.

Squares are written as labels ("c3": column letters, then the row from 1 at the top), so
a choice means the same thing without its board.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import ClassVar

from funkoverse.rules.core.errors import InvalidChoice

__all__ = [
    "Assist",
    "Carry",
    "Challenge",
    "Choice",
    "Choose",
    "CompanionAction",
    "CompleteBonus",
    "End",
    "FirstPlayer",
    "FlagReturn",
    "FlipControl",
    "Give",
    "GiveStatus",
    "Interact",
    "Leader",
    "MinionChallenge",
    "Move",
    "Option",
    "Pick",
    "Place",
    "PlaceControl",
    "PlaceToken",
    "Pull",
    "Push",
    "Put",
    "Rally",
    "Return",
    "RollOutcome",
    "ShiftDown",
    "ShiftOff",
    "Skip",
    "Target",
    "UseAbility",
    "UseItem",
    "format_id",
    "parse",
    "register_option",
]


class Choice:
    """One decision's answer. `kind` is the first word of its id (what the choice is)."""

    __slots__ = ()
    kind: ClassVar[str] = ""

    def format(self) -> str:
        """The stable id."""
        raise NotImplementedError

    def fields(self) -> dict[str, object]:
        """The parts of the choice by name (for clients that draw it)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}  # type: ignore[arg-type]

    def __str__(self) -> str:
        return self.format()


# --------------------------------------------------------------------------- chance


@dataclass(frozen=True, slots=True)
class FirstPlayer(Choice):
    """Setup: the First Player marker lands on `side` (a chance outcome)."""

    side: str
    kind: ClassVar[str] = "first"

    def format(self) -> str:
        return f"first:{self.side}"


@dataclass(frozen=True, slots=True)
class RollOutcome(Choice):
    """Resolving a Challenge: the challenger wins or loses (a chance outcome)."""

    won: bool
    kind: ClassVar[str] = "roll"

    def format(self) -> str:
        return "roll:win" if self.won else "roll:lose"


# --------------------------------------------------------------------------- setup


@dataclass(frozen=True, slots=True)
class Pick(Choice):
    """Scenario Setup, step 5: choose a character (by card id) for one's team."""

    character: str
    kind: ClassVar[str] = "pick"

    def format(self) -> str:
        return f"pick:{self.character}"


@dataclass(frozen=True, slots=True)
class Give(Choice):
    """Item Setup: give an item to one of the side's chosen characters."""

    item: str
    holder: str
    kind: ClassVar[str] = "give"

    def format(self) -> str:
        return f"give:{self.item}:{self.holder}"


@dataclass(frozen=True, slots=True)
class Leader(Choice):
    """Leaders: secretly pick one's leader."""

    piece: str
    kind: ClassVar[str] = "leader"

    def format(self) -> str:
        return f"leader:{self.piece}"


@dataclass(frozen=True, slots=True)
class Place(Choice):
    """Put `piece` at `square`: setup placement in a starting area; in Savage Hunger's step
    ("place her adjacent to them"), `piece` is the rival she is placed beside."""

    piece: str
    square: str
    kind: ClassVar[str] = "place"

    def format(self) -> str:
        return f"place:{self.piece}:{self.square}"


@dataclass(frozen=True, slots=True)
class Return(Choice):
    """Cooldown Tracks: a character shifted off returns to the starting area at `square`."""

    piece: str
    square: str
    kind: ClassVar[str] = "return"

    def format(self) -> str:
        return f"return:{self.piece}:{self.square}"


# --------------------------------------------------------------------------- a turn


@dataclass(frozen=True, slots=True)
class Choose(Choice):
    """Taking a Turn, step 1: choose a character without an exhausted marker."""

    piece: str
    kind: ClassVar[str] = "choose"

    def format(self) -> str:
        return f"choose:{self.piece}"


@dataclass(frozen=True, slots=True)
class Move(Choice):
    """Move to `square` (a basic move, or a move step of an ability or trait)."""

    square: str
    kind: ClassVar[str] = "move"

    def format(self) -> str:
        return f"move:{self.square}"


@dataclass(frozen=True, slots=True)
class Challenge(Choice):
    """Basic Challenge: challenge an adjacent `target` with 2 dice."""

    target: str
    kind: ClassVar[str] = "challenge"

    def format(self) -> str:
        return f"challenge:{self.target}"


@dataclass(frozen=True, slots=True)
class Assist(Choice):
    """Assist: stand up a knocked-down `ally`."""

    ally: str
    kind: ClassVar[str] = "assist"

    def format(self) -> str:
        return f"assist:{self.ally}"


@dataclass(frozen=True, slots=True)
class Interact(Choice):
    """Interact with a piece on or beside one's square: a point marker, a rival's Tunnel."""

    thing: str
    kind: ClassVar[str] = "interact"

    def format(self) -> str:
        return f"interact:{self.thing}"


@dataclass(frozen=True, slots=True)
class CompleteBonus(Choice):
    """Bonus Objectives: interact with one's bonus objective marker `piece`."""

    piece: str
    kind: ClassVar[str] = "interact"

    def format(self) -> str:
        return f"interact:bonus-{self.piece}"


@dataclass(frozen=True, slots=True)
class PlaceControl(Choice):
    """Control: interact to place a control marker in `square` of control area `area`."""

    area: str
    square: str
    kind: ClassVar[str] = "interact"

    def format(self) -> str:
        return f"interact:control-place-{self.area}-{self.square}"


@dataclass(frozen=True, slots=True)
class FlipControl(Choice):
    """Control: interact to flip control marker number `number`."""

    number: str
    kind: ClassVar[str] = "interact"

    def format(self) -> str:
        return f"interact:control-flip-{self.number}"


@dataclass(frozen=True, slots=True)
class UseAbility(Choice):
    """Doing an Ability; `target` when its first challenge's target is chosen with it (the
    cost may depend on it: Exsanguinate)."""

    ability: str
    target: str | None = None
    kind: ClassVar[str] = "ability"

    def format(self) -> str:
        if self.target is None:
            return f"ability:{self.ability}"
        return f"ability:{self.ability}:{self.target}"


@dataclass(frozen=True, slots=True)
class UseItem(Choice):
    """Doing the Use-Item Action, or an action an item gives."""

    item: str
    kind: ClassVar[str] = "item"

    def format(self) -> str:
        return f"item:{self.item}"


@dataclass(frozen=True, slots=True)
class CompanionAction(Choice):
    """Companions: the attached companion does `action`; `free` for the one it may do on the
    character's turn without spending an action."""

    action: str
    free: bool = False

    @property
    def kind(self) -> str:  # type: ignore[override]
        return "companion" if self.free else "companion-action"

    def format(self) -> str:
        return f"{self.kind}:{self.action}"


@dataclass(frozen=True, slots=True)
class Rally(Choice):
    """Rally: a knocked-down character uses both actions to stand up."""

    kind: ClassVar[str] = "rally"

    def format(self) -> str:
        return "rally"


@dataclass(frozen=True, slots=True)
class End(Choice):
    """End the turn (Taking a Turn, step 4: exhaust the character)."""

    kind: ClassVar[str] = "end"

    def format(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class Skip(Choice):
    """Decline what the card says one may do."""

    kind: ClassVar[str] = "skip"

    def format(self) -> str:
        return "skip"


# --------------------------------------------------------------------------- parts of abilities


@dataclass(frozen=True, slots=True)
class Target(Choice):
    """The target of a challenge step of an ability, item or companion action."""

    piece: str
    kind: ClassVar[str] = "target"

    def format(self) -> str:
        return f"target:{self.piece}"


@dataclass(frozen=True, slots=True)
class Push(Choice):
    """Away: push `piece` to `square` (its own square: not at all)."""

    piece: str
    square: str
    kind: ClassVar[str] = "push"

    def format(self) -> str:
        return f"push:{self.piece}:{self.square}"


@dataclass(frozen=True, slots=True)
class Pull(Choice):
    """Toward: pull `piece` to `square` (its own square: not at all)."""

    piece: str
    square: str
    kind: ClassVar[str] = "pull"

    def format(self) -> str:
        return f"pull:{self.piece}:{self.square}"


@dataclass(frozen=True, slots=True)
class Carry(Choice):
    """Abduct: choose the adjacent character to carry."""

    piece: str
    kind: ClassVar[str] = "carry"

    def format(self) -> str:
        return f"carry:{self.piece}"


@dataclass(frozen=True, slots=True)
class Put(Choice):
    """Abduct: place the carried character at `square`."""

    square: str
    kind: ClassVar[str] = "put"

    def format(self) -> str:
        return f"put:{self.square}"


@dataclass(frozen=True, slots=True)
class PlaceToken(Choice):
    """Tokens: place `token` at `square` (a free one, or one already on the map)."""

    token: str
    square: str
    kind: ClassVar[str] = "token"

    def format(self) -> str:
        return f"token:{self.token}:{self.square}"


@dataclass(frozen=True, slots=True)
class GiveStatus(Choice):
    """Status Cards: which status card of a group is given."""

    card: str
    kind: ClassVar[str] = "status"

    def format(self) -> str:
        return f"status:{self.card}"


@dataclass(frozen=True, slots=True)
class ShiftDown(Choice):
    """Shift Down: the thing (`what` of kind `thing`, e.g. a "token" "red") on number `at` of
    one's cooldown track."""

    thing: str
    what: str
    at: int
    kind: ClassVar[str] = "shift"

    def format(self) -> str:
        return f"shift:{self.thing}:{self.what}:{self.at}"


@dataclass(frozen=True, slots=True)
class ShiftOff(Choice):
    """Shift Off: an ability token of `color` from number `at` of one's cooldown track."""

    color: str
    at: int
    kind: ClassVar[str] = "shiftoff"

    def format(self) -> str:
        return f"shiftoff:{self.color}:{self.at}"


@dataclass(frozen=True, slots=True)
class MinionChallenge(Choice):
    """Minion Tokens: `minion` does a basic challenge against `target`."""

    minion: str
    target: str
    kind: ClassVar[str] = "minion"

    def format(self) -> str:
        return f"minion:{self.minion}:{self.target}"


@dataclass(frozen=True, slots=True)
class FlagReturn(Choice):
    """Flags: at the round's end, return `piece` from the rival's flag."""

    piece: str
    kind: ClassVar[str] = "flag"

    def format(self) -> str:
        return f"flag:{self.piece}"


@dataclass(frozen=True, slots=True)
class Option(Choice):
    """A decision a card's hook asks in words of its own ("champion:add", "blood:die"): the
    hook registers its word with `register_option`."""

    word: str
    value: str

    @property
    def kind(self) -> str:  # type: ignore[override]
        return self.word

    def format(self) -> str:
        return f"{self.word}:{self.value}"


# --------------------------------------------------------------------------- parsing


def _one(text: str, rest: str, make: Callable[[str], Choice]) -> Choice:
    if not rest or ":" in rest:
        raise InvalidChoice(f"'{text}': expected one name after the colon")
    return make(rest)


def _two(text: str, rest: str, make: Callable[[str, str], Choice]) -> Choice:
    first, sep, second = rest.partition(":")
    if not sep or not first or not second or ":" in second:
        raise InvalidChoice(f"'{text}': expected two names after the colon, as in 'push:a:c3'")
    return make(first, second)


def _number(text: str, value: str) -> int:
    if not value.isdigit():
        raise InvalidChoice(f"'{text}': '{value}' is not a cooldown track number")
    return int(value)


def _roll(text: str, rest: str) -> Choice:
    if rest not in ("win", "lose"):
        raise InvalidChoice(f"'{text}': a roll is roll:win or roll:lose")
    return RollOutcome(rest == "win")


def _ability(text: str, rest: str) -> Choice:
    ability, sep, target = rest.partition(":")
    if not ability or (sep and (not target or ":" in target)):
        raise InvalidChoice(f"'{text}': expected ability:ABILITY or ability:ABILITY:TARGET")
    return UseAbility(ability, target if sep else None)


def _interact(text: str, rest: str) -> Choice:
    if not rest or ":" in rest:
        raise InvalidChoice(f"'{text}': expected interact:THING")
    if rest.startswith("bonus-") and len(rest) > len("bonus-"):
        return CompleteBonus(rest.removeprefix("bonus-"))
    if rest.startswith("control-place-"):
        area, sep, square = rest.removeprefix("control-place-").partition("-")
        if not area or not sep or not square:
            raise InvalidChoice(f"'{text}': expected interact:control-place-AREA-SQUARE")
        return PlaceControl(area, square)
    if rest.startswith("control-flip-") and len(rest) > len("control-flip-"):
        return FlipControl(rest.removeprefix("control-flip-"))
    return Interact(rest)


def _shift(text: str, rest: str) -> Choice:
    parts = rest.split(":")
    if len(parts) != 3 or not all(parts):
        raise InvalidChoice(f"'{text}': expected shift:KIND:THING:NUMBER")
    return ShiftDown(parts[0], parts[1], _number(text, parts[2]))


def _shiftoff(text: str, rest: str) -> Choice:
    color, sep, at = rest.partition(":")
    if not color or not sep:
        raise InvalidChoice(f"'{text}': expected shiftoff:COLOR:NUMBER")
    return ShiftOff(color, _number(text, at))


_WORDS: dict[str, Callable[[str, str], Choice]] = {
    "first": lambda t, r: _one(t, r, FirstPlayer),
    "roll": _roll,
    "pick": lambda t, r: _one(t, r, Pick),
    "give": lambda t, r: _two(t, r, Give),
    "leader": lambda t, r: _one(t, r, Leader),
    "place": lambda t, r: _two(t, r, Place),
    "return": lambda t, r: _two(t, r, Return),
    "choose": lambda t, r: _one(t, r, Choose),
    "move": lambda t, r: _one(t, r, Move),
    "challenge": lambda t, r: _one(t, r, Challenge),
    "assist": lambda t, r: _one(t, r, Assist),
    "interact": _interact,
    "ability": _ability,
    "item": lambda t, r: _one(t, r, UseItem),
    "companion": lambda t, r: _one(t, r, lambda a: CompanionAction(a, free=True)),
    "companion-action": lambda t, r: _one(t, r, CompanionAction),
    "target": lambda t, r: _one(t, r, Target),
    "push": lambda t, r: _two(t, r, Push),
    "pull": lambda t, r: _two(t, r, Pull),
    "carry": lambda t, r: _one(t, r, Carry),
    "put": lambda t, r: _one(t, r, Put),
    "token": lambda t, r: _two(t, r, PlaceToken),
    "status": lambda t, r: _one(t, r, GiveStatus),
    "shift": _shift,
    "shiftoff": _shiftoff,
    "minion": lambda t, r: _two(t, r, MinionChallenge),
    "flag": lambda t, r: _one(t, r, FlagReturn),
}
_BARE: dict[str, Choice] = {"rally": Rally(), "end": End(), "skip": Skip()}
_OPTIONS: dict[str, frozenset[str]] = {}


def register_option(word: str, values: frozenset[str]) -> None:
    """Let a card's hook ask a decision in words of its own: `word:value` for each value."""
    if word in _WORDS or word in _BARE:
        raise ValueError(f"'{word}' is already a kind of choice")
    _OPTIONS[word] = _OPTIONS.get(word, frozenset()) | values


def parse(text: str) -> Choice:
    """The choice a stable id names; `InvalidChoice` says in one line why it names none."""
    if not isinstance(text, str) or not text:
        raise InvalidChoice("a choice id is a non-empty string such as 'move:c3' or 'end'")
    bare = _BARE.get(text)
    if bare is not None:
        return bare
    word, sep, rest = text.partition(":")
    if not sep:
        raise InvalidChoice(
            f"'{text}' is not a choice: ids read 'kind:detail', or 'rally', 'end', 'skip'"
        )
    make = _WORDS.get(word)
    if make is not None:
        return make(text, rest)
    values = _OPTIONS.get(word)
    if values is not None:
        if rest not in values:
            raise InvalidChoice(f"'{text}': {word} is one of {', '.join(sorted(values))}")
        return Option(word, rest)
    raise InvalidChoice(f"'{text}' is not a choice: there is no kind of choice '{word}'")


def format_id(choice: Choice | str) -> str:
    """The id of a choice given as a value or already as its id."""
    return choice if isinstance(choice, str) else choice.format()

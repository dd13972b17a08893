"""Work in progress inside a turn: a running action or ability, a decision it asks for, a roll.

Frames are immutable values kept on the state's stack; the engine replaces the
top frame to advance it, so copying a state copies only a list of references.
"""

from __future__ import annotations

from dataclasses import dataclass

from funkoverse.rules.core.cards import Step


@dataclass(frozen=True)
class StepsFrame:
    """An ability (or an action built from steps) being followed in sequence ("Abilities")."""

    piece: str
    source: str  # what is being done, for explanations: "Fight for Justice"
    steps: tuple[Step, ...]
    pc: int = 0
    target: str | None = None  # the thing most recently chosen, for steps that refer to it
    started_standing: bool = True
    won: bool | None = None  # the last challenge's result, for "if you win"
    targets: tuple[str, ...] = ()  # everything challenged so far ("a different rival")
    chosen: str | None = None  # a character chosen to be carried (Abduct)


@dataclass(frozen=True)
class ChoiceFrame:
    """A decision a step needs: where to move, whom to challenge, whom to assist.

    `step` is the vocabulary word with its parameters; `piece` is who does it.
    A `hook` purpose asks the named hook of `piece` for its options.
    """

    decider: str
    step: Step
    piece: str
    optional: bool = False  # "you may": the decider can decline
    hook: str = ""

    @property
    def purpose(self) -> str:
        return self.step.op


@dataclass(frozen=True)
class RollFrame:
    """A challenge about to be rolled: a chance node ("Resolving a Challenge")."""

    challenger: str
    target: str
    attack: tuple[str, ...]  # die ids rolled by the challenger
    defense: tuple[str, ...]  # die ids rolled by the defender
    source: str
    asked: tuple[str, ...] = ()  # hooks already asked before this roll


@dataclass(frozen=True)
class ReturnFrame:
    """Characters shifted off a cooldown track, to be returned to the starting area ("Ending a Round")."""

    side: str
    pieces: tuple[str, ...]


@dataclass(frozen=True)
class TurnStartFrame:
    """What happens "at the start of" a character's turn, once anything that returns it to
    the map first (an ultimate character shifted off) is done: traits that add actions or
    ask a decision then (Sneaking, Forbidden Depths)."""

    piece: str


@dataclass(frozen=True)
class RoundEndFrame:
    """The steps of "Ending a Round" still to do: 0 cooldown, 1 scoring, 2 refresh and pass."""

    stage: int = 0


Frame = StepsFrame | ChoiceFrame | RollFrame | ReturnFrame | TurnStartFrame | RoundEndFrame

"""What stands on the map, as the geometry sees it.

The engine's own pieces and the conformance interface's pieces both satisfy
`PieceLike`, so sight, movement and challenge targets have one source.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Protocol


class Kind(StrEnum):
    """The kinds of things on the map (Glossary: Tokens, Markers, Minion Tokens, Companions)."""

    CHARACTER = "character"
    BASIC = "basic"
    MINION = "minion"
    COMPANION = "companion"
    BONUS_OBJECTIVE = "bonus_objective"
    TOKEN = "token"
    MARKER = "marker"


# These occupy their square and block sight and movement as characters do
# (FAQ "Can I enter this square?"; Minion Tokens; Companions; Bonus Objective Rules).
BLOCKING_KINDS: frozenset[Kind] = frozenset(
    {Kind.CHARACTER, Kind.BASIC, Kind.MINION, Kind.COMPANION, Kind.BONUS_OBJECTIVE}
)

# Only these can be knocked down; the others are removed when they lose a challenge.
KNOCKABLE_KINDS: frozenset[Kind] = frozenset({Kind.CHARACTER, Kind.BASIC})

# Rivals and allies: "Characters, companions, and minion tokens controlled by your
# opponent(s) are rivals" (Glossary: Rival, Ally). A bonus objective marker blocks as a
# character does but is a marker: "characters cannot move or target markers".
RIVAL_KINDS: frozenset[Kind] = frozenset({Kind.CHARACTER, Kind.BASIC, Kind.MINION, Kind.COMPANION})


class Role(StrEnum):
    """What a marker or token stands for in the game, set when the piece is made."""

    NONE = ""
    POINT = "point"  # a point marker ("Point Markers"); its letter names its setup square
    FLAG = "flag"  # a flag marker (Flags)
    CONTROL = "control"  # a control marker (Control)
    TUNNEL = "tunnel"  # a Tunnel token (Forbidden Depths)
    MINION = "minion"  # a minion token ("Minion Tokens")
    BONUS = "bonus"  # a bonus objective marker ("Bonus Objectives")


class PieceLike(Protocol):
    """A thing on (or off) the map: enough for sight, movement and targeting."""

    @property
    def id(self) -> str: ...

    @property
    def side(self) -> str:
        """Pieces of the same side are allies; of different sides, rivals."""
        ...

    @property
    def square(self) -> int | None:
        """Board square index, or None when off the map (on a cooldown track, not yet placed)."""
        ...

    @property
    def kind(self) -> Kind: ...

    @property
    def standing(self) -> bool: ...

    @property
    def elusive(self) -> bool:
        """Elusive Trickster: rivals can only see this piece while adjacent to it."""
        ...

    @property
    def defense(self) -> int | None:
        """Dice rolled to defend; None for a token or marker that cannot be challenged."""
        ...

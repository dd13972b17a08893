"""How a game is won and scored. Scenarios plug their rules in here.

Each scenario reacts to a few events (a knock-out, an interaction, the end of a
round) and says when someone has won.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from funkoverse.rules.state import GameState, Piece


@dataclass(frozen=True)
class Scenario:
    """The rules of how to win; the base class is a plain game with no objective."""

    id: str = "none"
    name: str = "No objective"
    point_markers: bool = False  # "Point Markers": interact for a point

    def points_to_win(self, state: GameState) -> int | None:
        """Points a side needs to win, or None when points do not decide the game."""
        return None

    def on_knockout(self, state: GameState, by: Piece | None, victim: Piece) -> None:
        """Called when `victim` is knocked out, `by` being the challenger (if any)."""

    def on_round_end(self, state: GameState) -> None:
        """Called after the cooldown of "Ending a Round"; may set `state.winner`."""


@dataclass(frozen=True)
class FirstKnockout(Scenario):
    """DC Comics 102, Winning Your First Game: play until one player has knocked out a rival."""

    id: str = "first-knockout"
    name: str = "First game: knock out a rival"

    def points_to_win(self, state: GameState) -> int | None:
        return 1

    def on_knockout(self, state: GameState, by: Piece | None, victim: Piece) -> None:
        if by is not None and state.rivals(by.side, victim.side):
            state.sides[by.side].points += 1
            state.winner = by.side

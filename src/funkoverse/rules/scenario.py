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

    def interactions(self, state: GameState, actor: Piece, squares: set[int]) -> list[str]:
        """What `actor` may interact with in `squares` (Point Markers: on or adjacent)."""
        if not self.point_markers:
            return []
        return [
            p.id
            for p in state.pieces.values()
            if p.id.startswith("point-") and p.square is not None and p.square in squares
        ]

    def interact(self, state: GameState, actor: Piece, thing: str, events: list[str]) -> bool:
        """Point Markers: "immediately gain a point. Place the point marker, letter-side up, on
        the 4 of their cooldown track." True when `thing` was the scenario's."""
        if not (self.point_markers and thing.startswith("point-")):
            return False
        marker = state.pieces[thing]
        side = state.sides[actor.side]
        side.points += 1
        marker.square = None
        for slot in side.track:
            if ("point", thing) in slot:
                slot.remove(("point", thing))
        side.track[3].append(("point", thing))
        events.append(
            f"{actor.name} interacts with point marker {thing.removeprefix('point-')}: +1 point; "
            "the marker goes on the 4 of the cooldown track (Point Markers)."
        )
        return True


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

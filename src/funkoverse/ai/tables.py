"""What the kernel's evaluation reads of a setup beside the rules' tables: content, not play.

Per map, the walk table (`walks`: how many basic move actions a character needs to stand
beside each square, walking the map's legal steps and ignoring pieces); per card and item,
the first challenge of its challenge abilities, read from its steps (`strikes`,
`item_strike`). `funkoverse.ai.kernel` hands them to the kernel once per setup.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass

from funkoverse.rules import Board, CharacterCard, ItemCard, TokenColor
from funkoverse.rules.core import numbers
from funkoverse.rules.core.cards import Step

BASIC_MOVE = numbers.BASIC_MOVE  # squares a basic move covers
BASIC_DICE = numbers.BASIC_CHALLENGE_DICE  # dice a basic challenge rolls


class Walks:
    """Per map: `moves[a][t]`, the basic move actions a character on square `a` needs to
    stand adjacent to square `t`; `squares[a][t]`, the squares it walks to get there."""

    def __init__(self, board: Board) -> None:
        n = board.width * board.height
        inf = 10**6
        walk = [[inf] * n for _ in range(n)]
        for origin in range(n):
            row = walk[origin]
            row[origin] = 0
            frontier = [origin]
            d = 0
            while frontier:
                d += 1
                nxt = []
                for sq in frontier:
                    for to in board.steps(sq):
                        if row[to] > d:
                            row[to] = d
                            nxt.append(to)
                frontier = nxt
        self.moves: list[list[int]] = []
        self.squares: list[list[int]] = []
        for a in range(n):
            row = walk[a]
            out = []
            steps = []
            for t in range(n):
                best = min((row[s] for s in board.adjacent(t) if s != t), default=inf)
                steps.append(0 if best == 0 or t in board.adjacent_set(a) else best)
                out.append(-(-steps[-1] // BASIC_MOVE))
            self.moves.append(out)
            self.squares.append(steps)


# Each board's table lives as long as the board does.
_WALKS: weakref.WeakKeyDictionary[Board, Walks] = weakref.WeakKeyDictionary()


def walks(board: Board) -> Walks:
    """The walk table of `board`, built once per board."""
    table = _WALKS.get(board)
    if table is None:
        table = Walks(board)
        _WALKS[board] = table
    return table


@dataclass(frozen=True)
class Strike:
    """A challenge ability or item as the evaluation's threats read it: its first challenge,
    paid with a token (an ability) or made while the item's card is off the cooldown track."""

    color: TokenColor | None  # the token an ability costs (None: an item)
    dice: int
    plus_defense: bool  # its dice grow by the target's defense (Fight for Justice)
    vs_down: int  # more dice against a knocked-down target
    reach: int  # move actions the squares it covers before the challenge (and its range) save


def _read_strike(steps: Sequence[Step], color: TokenColor | None) -> Strike | None:
    """The first challenge of a card's steps, with the squares the steps before it cover."""
    squares = 0
    for step in steps:
        if step.op == "challenge":
            squares += max(0, step.int("range", 1) - 1)
            return Strike(
                color,
                step.int("dice", BASIC_DICE),
                step.get("bonus") == "target_defense",
                step.int("extra_vs_knocked_down"),
                squares // BASIC_MOVE,
            )
        if step.op in ("move", "pull_rival_seen"):
            squares += step.int("squares")
        elif step.op == "place_self_adjacent_to_rival":
            squares += step.int("within")
    return None


def strikes(card: CharacterCard | None) -> tuple[Strike, ...]:
    """The challenge abilities printed on `card`, read from their steps."""
    if card is None:
        return ()
    found = (
        _read_strike(ability.steps, ability.color)
        for ability in card.abilities
        if ability.challenge_action
    )
    return tuple(strike for strike in found if strike is not None)


def item_strike(item: ItemCard) -> Strike | None:
    """The challenge of a challenge item, read from its steps."""
    return _read_strike(item.steps, None) if item.challenge_action else None

"""Small positions for rule tests: an open board, teams, pieces on named squares."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pytest

from funkoverse.content.characters import load_characters
from funkoverse.content.setups import build
from funkoverse.rules import compiled
from funkoverse.rules.board import Board
from funkoverse.rules.cards import CharacterCard
from funkoverse.rules.engine import new_game_at
from funkoverse.rules.events import Event, words
from funkoverse.rules.game import Game
from funkoverse.rules.scenario import FirstKnockout, Scenario
from funkoverse.rules.spec import SetupSpec, TeamSpec
from funkoverse.rules.state import GameState, Setup
from funkoverse.rules.view import observe_event
from funkoverse.rules.world import display_names

# A rule test run on both engines: `Game.at(state, kernel=...)` with each of these.
ENGINES = [
    pytest.param(False, id="python"),
    pytest.param(
        True,
        id="kernel",
        marks=pytest.mark.skipif(
            not compiled.selected(), reason="the kernel is not built or not selected here"
        ),
    ),
]


def on_engine(state: GameState, kernel: bool) -> Game:
    """A game from a hand-built position, played by the Python engine or by the kernel."""
    game = Game.at(state, kernel=kernel)
    assert game.uses_kernel is kernel, "the kernel does not play this position"
    return game


def legal_ids(game: Game) -> list[str]:
    """The legal choices now, as ids, as the game's engine lists them."""
    return [c.format() for c in game.legal()]


def _sq(w: int, label: str) -> int:
    x = ord(label[0]) - ord("a")
    y = int(label[1:]) - 1
    return y * w + x


def board(
    width: int = 6,
    height: int = 6,
    dark: Sequence[str] = ("a1", "b1", "c1"),
    light: Sequence[str] = ("d6", "e6", "f6"),
    walls: Iterable[tuple[str, str]] = (),
    points: dict[str, str] | None = None,
) -> Board:
    """An open board with the given starting areas, inner walls between named squares and
    point marker setup squares."""
    frame = {(cx, cy) for cx in range(width + 1) for cy in (0, height)}
    frame |= {(cx, cy) for cx in (0, width) for cy in range(height + 1)}
    edges = set()
    for a, b in walls:
        i, j = sorted((_sq(width, a), _sq(width, b)))
        edges.add((i, j))
        (x1, y1), (x2, y2) = (i % width, i // width), (j % width, j // width)
        if y1 == y2:  # vertical wall between left and right squares
            frame |= {(x2, y1), (x2, y1 + 1)}
        else:
            frame |= {(x1, y2), (x1 + 1, y2)}
    return Board(
        name="test",
        box="test",
        width=width,
        height=height,
        note="",
        blocked=frozenset(),
        obscured=frozenset(),
        start_areas={
            "dark": tuple(sorted(_sq(width, s) for s in dark)),
            "light": tuple(sorted(_sq(width, s) for s in light)),
        },
        point_squares={k: _sq(width, v) for k, v in (points or {}).items()},
        layers={},
        walls=frozenset(edges),
        obstructed_points=frozenset(frame),
    )


def card(cid: str) -> CharacterCard:
    return load_characters()[cid]


def setup(
    b: Board,
    dark: Sequence[CharacterCard],
    light: Sequence[CharacterCard],
    scenario: Scenario | None = None,
    first: str | None = "dark",
    items: dict[str, list[tuple[str, str]]] | None = None,
) -> Setup:
    items = items or {}
    spec = SetupSpec(
        "knockout",
        "test",
        "standard",
        tuple(
            TeamSpec(side, tuple(c.id for c in chosen), tuple(items.get(side, ())))
            for side, chosen in (("dark", dark), ("light", light))
        ),
        None,
        first,
    )
    made = {c.id: c for c in (*dark, *light)}
    return build(
        spec,
        board=b,
        scenario=scenario or FirstKnockout(),
        check_mode=False,
        cards=made,
        puzzle=True,
    )


def position(
    dark: dict[str, str],
    light: dict[str, str],
    b: Board | None = None,
    first: str = "dark",
    knocked_down: Sequence[str] = (),
    scenario: Scenario | None = None,
    cards: dict[str, CharacterCard] | None = None,
    items: dict[str, list[tuple[str, str]]] | None = None,
    tokens: dict[str, str] | None = None,
) -> Game:
    """A game in round 1, `first` to choose, with pieces (card ids) on squares ('a1' labels).

    `items`: {side: [(item id, holder id)]}; `tokens`: {token id: square}, e.g.
    {"tunnel-dark-1": "c3"}."""
    b = b or board()
    extra = cards or {}

    def get(cid: str) -> CharacterCard:
        return extra[cid] if cid in extra else card(cid)

    s = setup(b, [get(c) for c in dark], [get(c) for c in light], scenario, first, items)
    where = {**dark, **light, **(tokens or {})}
    placements = {cid: b.parse_label(sq) for cid, sq in where.items() if sq}
    state = new_game_at(s, placements, first, tuple(knocked_down))
    return Game.at(state)


def said(game: Game, events: Iterable[Event], seat: str | None = "") -> list[str]:
    """The events in words; with `seat`, as that seat sees them (a spectator for None)."""
    names = display_names(game.state)
    shown = events if seat == "" else (observe_event(e, seat) for e in events)
    return [words(e, names) for e in shown]

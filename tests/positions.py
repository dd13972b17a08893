"""Small positions for rule tests: an open board, teams, pieces on named squares.

Positions are built as a `GameState` and handed to an engine (`Game.at`): the conftest runs
each rule test once on each engine by setting `ENGINE`. A position changed by hand after it
was made is handed over again (`edit`): no game lends out its position to be changed."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager

import pytest

from funkoverse.content.characters import load_characters
from funkoverse.content.setups import build
from funkoverse.rules.core.board import Board
from funkoverse.rules.core.cards import CharacterCard
from funkoverse.rules.core.events import Event, words
from funkoverse.rules.core.scenario import FirstKnockout, Scenario
from funkoverse.rules.core.spec import SetupSpec, TeamSpec
from funkoverse.rules.core.state import GameState, Setup
from funkoverse.rules.core.view import observe_event
from funkoverse.rules.core.world import display_names
from funkoverse.rules.engines import KERNEL, PYTHON, Engine
from funkoverse.rules.game import Game
from funkoverse.rules.play.engine import new_game_at

# the engine positions are handed to (set by the conftest for each run of a rule test), and
# why any was played by the Python engine instead
ENGINE: list[Engine] = [PYTHON]
FELL_BACK: list[str] = []


def handed(state: GameState, seed: int = 0) -> Game:
    """A game at `state` on the engine of this run."""
    game = Game.at(state, seed, ENGINE[0])
    if game.fallback is not None:
        FELL_BACK.append(game.fallback)
    return game


def edit(game: Game, change: Callable[[GameState], None]) -> Game:
    """The game's position with `change` made to it by hand, handed to the engine again (a
    puzzle's setup: a status card given, a piece knocked down)."""
    state = game.state
    change(state)
    again = Game.at(state, game.seed, game.wanted)
    if again.fallback is not None:
        FELL_BACK.append(again.fallback)
    return again


@contextmanager
def editing(game: Game) -> Iterator[GameState]:
    """`edit` as a block: the position to change by hand, handed to the engine again at the
    end of the block (the game goes on from the changed position)."""
    state = game.state
    yield state
    again = Game.at(state, game.seed, game.wanted)
    if again.fallback is not None:
        FELL_BACK.append(again.fallback)
    game.position = again.position
    game.fallback = again.fallback


# A rule test written for both engines by hand: parametrized over these.
ENGINES = [pytest.param(PYTHON, id="python"), pytest.param(KERNEL, id="kernel")]


def on_engine(state: GameState, engine: Engine) -> Game:
    """A game from a hand-built position, played by `engine` (never fallen back)."""
    game = Game.at(state, 0, engine)
    assert game.fallback is None, f"the kernel does not play this position: {game.fallback}"
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
    return handed(state)


def said(game: Game, events: Iterable[Event], seat: str | None = "") -> list[str]:
    """The events in words; with `seat`, as that seat sees them (a spectator for None)."""
    names = display_names(game.state)
    shown = events if seat == "" else (observe_event(e, seat) for e in events)
    return [words(e, names) for e in shown]

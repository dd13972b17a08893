"""The evaluation and the turn search, on the compiled kernel (`funkoverse.rules._kernel`).

The AI lives in the kernel: kernel/evaluate.cpp values a position, kernel/search.cpp searches
whole turns (docs/ai.md says what each does). This module hands them what they read beside
the rules' tables, once per setup (`ai_tables`: the map's walk table, each die's faces, the
challenge abilities and items read from the cards: `funkoverse.ai.tables`), and loads the
position a turn is searched on (`loaded`): the game's own position when it is played on the
kernel, forked, with no copy through Python; otherwise the seat's view, loaded into a kernel
(a game on the Python engine, a turn made by hand). Where the kernel cannot hold the game,
`Unsupported` says why, and the agents decide by rule of thumb (`funkoverse.ai.simple`).
tests/golden/ai.json holds what both compute on fixed positions and games.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from funkoverse.ai.tables import Strike, item_strike, strikes, walks
from funkoverse.ai.view import observe
from funkoverse.ai.weights import HORIZON_TURNS, Weights
from funkoverse.rules import GameState, TokenColor, Turn, Unsupported, bridge
from funkoverse.rules.engines.kernel import KernelPosition, Legal

try:
    from funkoverse.rules import _kernel
except ImportError:  # pragma: no cover - a machine where the kernel was not built
    _kernel = None  # type: ignore[assignment]

# the kernel's tables of the evaluator, one a setup's tables
_AI_TABLES: weakref.WeakKeyDictionary[bridge.Tables, Any] = weakref.WeakKeyDictionary()
# piece ids numbered across setups: the knock-out cache is keyed by ids
_PIECE_NAMES: dict[str, int] = {}


def _strike_row(strike: Strike) -> tuple[int, int, bool, int, int]:
    color = -1 if strike.color is None else bridge.COLORS.index(TokenColor(strike.color))
    return (color, strike.dice, strike.plus_defense, strike.vs_down, strike.reach)


def ai_tables(tables: bridge.Tables, state_of: Callable[[], GameState]) -> Any:
    """The kernel's `AiTables` of `tables`' setup (built once, with the position `state_of`
    reads): what the evaluator reads beside the rules' tables. `Unsupported` when the setup
    has no dice."""
    found = _AI_TABLES.get(tables)
    if found is not None:
        return found
    state = state_of()
    setup = tables.setup
    board = setup.board
    if not setup.dice:
        raise Unsupported("a setup without dice")
    table = walks(board)
    standard = tables.dice_ids.index("standard") if "standard" in setup.dice else 0
    scenario = setup.scenario
    target = scenario.points_to_win(state)
    found = _kernel.AiTables(
        tables.rules,
        {
            "n": board.width * board.height,
            "moves": [m for row in table.moves for m in row],
            "squares": [s for row in table.squares for s in row],
            "attack_values": [list(setup.dice[d].values("challenger")) for d in tables.dice_ids],
            "defense_values": [list(setup.dice[d].values("defender")) for d in tables.dice_ids],
            "standard": standard,
            "card_strikes": [[_strike_row(s) for s in strikes(card)] for card in tables.cards],
            "item_strikes": [
                None if strike is None else _strike_row(strike)
                for strike in (item_strike(setup.items[i]) for i in tables.item_ids)
            ],
            "flags": scenario.flags,
            "point_markers": scenario.point_markers,
            "target": target or 0,
            "scenario": id(scenario),
            "piece_global": [
                _PIECE_NAMES.setdefault(pid, len(_PIECE_NAMES)) for pid in tables.piece_ids
            ],
        },
    )
    _AI_TABLES[tables] = found
    return found


class Evaluator:
    """The kernel's evaluation with one set of weights: every seat's estimated chance to win
    a position, and (for the tests that pin it) what that estimate is made of. It keeps its
    own cache of what knock-outs do, as a search's evaluator does."""

    def __init__(self, weights: Weights | None = None, horizon_turns: int = HORIZON_TURNS):
        self.w = weights or Weights()
        self.horizon_turns = horizon_turns
        self._twin: Any = None

    @property
    def twin(self) -> Any:
        """The kernel's evaluator, made once."""
        if self._twin is None:
            if _kernel is None:
                raise Unsupported("the kernel was not built on this machine")
            self._twin = _kernel.Evaluator(self.w.for_kernel(self.horizon_turns))
        return self._twin

    @staticmethod
    def _load(state: GameState) -> tuple[bridge.Tables, Any, Any]:
        tables, position = bridge.load(state)
        return tables, ai_tables(tables, lambda: state), position

    def values(self, state: GameState) -> tuple[float, ...]:
        """Every seat's estimated chance to win `state`, in `state.seats` order."""
        _, ai, position = self._load(state)
        return tuple(self.twin.values(ai, position))

    def scores(self, state: GameState) -> dict[str, float]:
        """Each side's score in logit units (material, points, resources, next turns)."""
        tables, ai, position = self._load(state)
        return dict(zip(tables.seats, self.twin.scores(ai, position), strict=True))

    def tries(
        self, state: GameState, piece: str, actions: int, away: int, target: str, standing: bool
    ) -> list[float]:
        """The chances to win of the challenges `piece`, with `actions` and `away` move actions
        from beside `target`, can make against it (as the next turns' threats read them)."""
        tables, ai, position = self._load(state)
        number = tables.piece_index
        return list(
            self.twin.tries(ai, position, number[piece], actions, away, number[target], standing)
        )

    def points_value(self, state: GameState, side: str, points: float) -> float:
        """What `points` more are worth to `side`, in logit units."""
        tables, ai, position = self._load(state)
        return float(self.twin.points_value(ai, position, tables.seats.index(side), points))


@dataclass(frozen=True)
class Loaded:
    """A turn's position in the kernel, as its search reads it."""

    ai: Any  # the evaluator's tables
    kernel: Any  # the position (the search copies it; it is never changed)
    codes: list[int]  # the turn's choices, as codes, in the turn's order
    seat: int  # the deciding seat's index
    turns: int  # turns played so far: a new turn empties the search's tables


def loaded(turn: Turn) -> Loaded:
    """The kernel position `turn` is searched on: the position it was handed, when the game
    is played on the kernel; otherwise the seat's view (a rival's hidden picks sampled),
    loaded into a kernel. `Unsupported` when the kernel does not hold it."""
    position = turn.position
    choices = turn.choices
    if isinstance(position, KernelPosition):
        tables, kernel = position.tables, position.kernel
        ai = ai_tables(tables, position.peek)
    else:
        view = observe(turn.view, turn.seat)
        tables, kernel = bridge.load(view)
        ai = ai_tables(tables, lambda: view)
    if isinstance(choices, Legal) and choices.tables is tables:
        codes = list(choices.codes)
    else:
        found = [tables.code(c) for c in choices]
        codes = [c for c in found if c is not None]
        if len(codes) != len(found):
            raise Unsupported("a choice the kernel does not name")
    seat = tables.seats.index(turn.seat) if turn.seat in tables.seats else -1
    return Loaded(ai, kernel, codes, seat, int(kernel.turns))


class Searcher(Protocol):
    """The settings of a search the kernel plays for an agent, and where the agent keeps the
    search made for them (named here so that this module need not know the agent)."""

    depth: int
    widths: tuple[int, ...]
    turn_budget: int | None
    beam: int | None
    reply_beam: int | None
    narrow: float | None
    beam_positions: int
    evaluator: Evaluator
    _kernel_search: tuple[dict[str, object], Any, Any] | None


def search(agent: Searcher) -> Any:
    """The kernel's search of `agent`, with its settings as they are now (made again, with
    empty tables, when they changed)."""
    params = {
        "depth": agent.depth,
        "widths": list(agent.widths),
        "turn_budget": agent.turn_budget,
        "beam": agent.beam,
        "reply_beam": agent.reply_beam,
        "narrow": agent.narrow,
        "beam_positions": agent.beam_positions,
    }
    twin = agent.evaluator.twin
    held: tuple[dict[str, object], Any, Any] | None = agent._kernel_search
    if held is None or held[0] != params or held[1] is not twin:
        held = (params, twin, _kernel.Search(params, twin))
        agent._kernel_search = held
    return held[2]

"""The evaluator and the turn search on the compiled kernel (`funkoverse.rules._kernel`).

`evaluate.py` and `expectimax.py` are the reference: the kernel's evaluator
(kernel/evaluate.cpp) and search (kernel/search.cpp) follow them function by function, in the
same order of floating-point operations, and give the same values, count the same positions
and so make the same choices (tests/test_ai_kernel.py). An agent searches on the kernel when
it is handed a position of the kernel (`loaded`): the game's own position, forked, with no
copy through Python; otherwise, and for a position the kernel does not hold, it searches in
Python.

This module builds what the kernel's evaluator reads beside the rules' tables, once per setup
and with the Python functions themselves: the map's walk table (`evaluate.walks`), each die's
faces, and the challenge abilities and items read from the cards (`evaluate._strikes`).
"""

from __future__ import annotations

import dataclasses
import sys
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from funkoverse.ai.evaluate import Evaluator, _item_strike, _Strike, _strikes, walks
from funkoverse.ai.view import observe
from funkoverse.rules import KERNEL, Choice, GameState, TokenColor, Turn, Unsupported, bridge
from funkoverse.rules.engines.kernel import KernelPosition, Legal


class Searcher(Protocol):
    """The settings of a search the kernel plays for an agent (an `ExpectimaxAgent`), and where
    the agent keeps the kernel's search made for them. Named here so that the agent may ask
    this module without this module knowing the agent."""

    depth: int
    widths: tuple[int, ...]
    turn_budget: int | None
    beam: int | None
    reply_beam: int | None
    narrow: float | None
    beam_positions: int
    evaluator: Evaluator
    _kernel_search: tuple[dict[str, object], Any, Any] | None


try:
    from funkoverse.rules import _kernel
except ImportError:  # pragma: no cover - a machine where the kernel was not built
    _kernel = None  # type: ignore[assignment]


def same_sum_as_python() -> None:
    """Have the kernel sum floats as this Python's `sum` does: compensated from 3.12 on."""
    if _kernel is not None:
        _kernel.set_compensated_sum(sys.version_info >= (3, 12))


same_sum_as_python()

# the kernel's tables of the evaluator, one a setup's tables
_AI_TABLES: weakref.WeakKeyDictionary[bridge.Tables, Any] = weakref.WeakKeyDictionary()
# piece ids numbered across setups: the knock-out cache is keyed by ids, as the Python one is
_PIECE_NAMES: dict[str, int] = {}


def _strike_row(strike: _Strike) -> tuple[int, int, bool, int, int]:
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
            "card_strikes": [[_strike_row(s) for s in _strikes(card)] for card in tables.cards],
            "item_strikes": [
                None if strike is None else _strike_row(strike)
                for strike in (_item_strike(setup.items[i]) for i in tables.item_ids)
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


def kernel_evaluator(evaluator: Evaluator) -> Any:
    """The kernel's twin of `evaluator` (its weights; its own cache of knock-outs), made once
    and kept on it."""
    made_for = (evaluator.w, evaluator.horizon_turns)  # the weights are frozen
    twin = evaluator._kernel_twin
    if twin is None or twin[0][0] is not made_for[0] or twin[0][1] != made_for[1]:
        weights = dataclasses.asdict(evaluator.w)
        weights["horizon_turns"] = evaluator.horizon_turns
        twin = evaluator._kernel_twin = (made_for, _kernel.Evaluator(weights))
    return twin[1]


@dataclass(frozen=True)
class Loaded:
    """A turn's position in the kernel, as its search reads it."""

    ai: Any  # the evaluator's tables
    kernel: Any  # the position (the search copies it; it is never changed)
    codes: list[int]  # the turn's choices, as codes, in the turn's order
    seat: int  # the deciding seat's index
    turns: int  # turns played so far: a new turn empties the search's tables


def loaded(turn: Turn) -> Loaded | None:
    """The kernel position `turn` is searched on: the position it was handed, when the game
    is played on the kernel; while the seat may not see everything, its view loaded into a
    kernel (a game on the kernel, or a turn made by hand where the kernel was built). None
    where the Python search decides: a game on the Python engine, or a position the kernel
    does not hold."""
    position = turn.position
    choices = turn.choices
    try:
        if isinstance(position, KernelPosition):
            tables, kernel = position.tables, position.kernel
            ai = ai_tables(tables, position.peek)
        elif position is None and (
            turn.engine is KERNEL or (turn.engine is None and bridge.built())
        ):
            view = observe(turn.view, turn.seat)  # a rival's hidden picks sampled
            tables, kernel = bridge.load(view)
            ai = ai_tables(tables, lambda: view)
        else:
            return None
    except Unsupported:
        return None
    if isinstance(choices, Legal) and choices.tables is tables:
        codes = list(choices.codes)
    else:
        found = [tables.code(c) for c in choices]
        if any(c is None for c in found):
            return None
        codes = [c for c in found if c is not None]
    seat = tables.seats.index(turn.seat) if turn.seat in tables.seats else -1
    return Loaded(ai, kernel, codes, seat, int(kernel.turns))


def load(state: GameState, choices: list[Choice]) -> tuple[Any, Any, list[int]] | None:
    """`state` in the kernel, with the tables its evaluator reads and the codes of `choices`;
    None when the kernel was not built or does not play it."""
    found = loaded(Turn.of(state, choices))
    return None if found is None else (found.ai, found.kernel, found.codes)


def values(evaluator: Evaluator, state: GameState) -> tuple[float, ...] | None:
    """`evaluator.values(state)` computed by the kernel; None when it does not play `state`."""
    found = load(state, [])
    if found is None:
        return None
    ai, kernel, _ = found
    return tuple(kernel_evaluator(evaluator).values(ai, kernel))


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
    twin = kernel_evaluator(agent.evaluator)
    held: tuple[dict[str, object], Any, Any] | None = agent._kernel_search
    if held is None or held[0] != params or held[1] is not twin:
        held = (params, twin, _kernel.Search(params, twin))
        agent._kernel_search = held
    return held[2]

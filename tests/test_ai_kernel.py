"""The evaluation and the search, which live in the compiled kernel, held to their goldens.

tests/golden/ai.json (tests/aigoldens.py says what it holds and how it was made) records
what the evaluation and the searches compute on fixed seeded positions: every seat's value
of thousands of positions of random games of every way to play, bit for bit, for every set
of weights the evaluation shipped with and some combinations of their options; the rankings
of hundreds of decisions by greedy, easy, hard and expert (with the settings they had where
the Python search decided), hard and expert on small budgets and in their shapes on the
kernel, and the plain two-turn search: the same order, the same values and the same
positions counted and cut; and whole games of the levels against each other, choice for
choice. They were recorded from the Python reference the kernel followed, and the kernel
matched it as they were.
"""

from __future__ import annotations

import os
import random

import pytest

from aigoldens import (
    CHUNKS,
    GAMES,
    KINDS_PLAYED,
    SAMPLE_EVERY,
    SEARCHES,
    WEIGHTS,
    digest,
    evaluator,
    expert_game_positions,
    flags_game,
    game_record,
    load,
    other_game,
    random_positions,
    rank,
    ranking_positions,
    ranking_record,
    value_positions,
)
from funkoverse.ai import kernel
from funkoverse.ai.agents import AGENTS
from funkoverse.ai.arena import build_setup, play
from funkoverse.ai.expectimax import ExpectimaxAgent
from funkoverse.ai.greedy import GreedyAgent
from funkoverse.ai.kernel import Evaluator
from funkoverse.ai.weights import FITTED
from funkoverse.bench.workloads import flags_spec, midgame
from funkoverse.rules import bridge
from funkoverse.rules.core.choices import Choice
from funkoverse.rules.core.dice import win_probability
from funkoverse.rules.core.state import CHANCE, GameState, Phase
from funkoverse.rules.engines import PYTHON
from funkoverse.rules.game import Game
from funkoverse.rules.play import engine
from funkoverse.rules.session import Session
from funkoverse.rules.turn import Turn
from kernelgames import KINDS, varied_setup

pytestmark = pytest.mark.skipif(
    not bridge.built() and not os.environ.get("CI"), reason="the kernel is not built here"
)

GOLDEN = load()
REDO = "(a deliberate change? record the goldens again: python tools/ai_goldens.py)"


# ------------------------------------------------------------------ pieces of the evaluator


def test_the_kernel_sums_floats_as_python_sums_them() -> None:
    """`sum` of floats is left to right before Python 3.12 and compensated (Neumaier) since;
    the kernel sums either way as that Python's `sum` does (left to right unless told: the
    goldens were recorded so, on any Python)."""
    from funkoverse.rules import _kernel

    rng = random.Random(5)
    lists = [[rng.uniform(-1, 1) * 10 ** rng.randint(-8, 8) for _ in range(n)] for n in range(9)]
    lists += [[0.1] * 10, [1e16, 1.0, -1e16], [-0.0], [0.5, -0.0]]
    for values in lists:
        assert _kernel.py_sum(values) == sum(values)

    def neumaier(values: list[float]) -> float:  # CPython 3.12's builtin_sum_impl for floats
        if not values:
            return 0.0
        total, c = 0 + values[0], 0.0
        for x in values[1:]:
            t = total + x
            c += (total - t) + x if abs(total) >= abs(x) else (x - t) + total
            total = t
        return total + c if c else total

    try:
        for compensated, reference in ((True, neumaier), (False, lambda v: sum(v, 0.0) + 0.0)):
            _kernel.set_compensated_sum(compensated)
            for values in lists:
                assert _kernel.py_sum(values) == reference(values), (compensated, values)
    finally:
        _kernel.set_compensated_sum(False)  # left to right, as the goldens were recorded


def test_the_kernel_counts_the_exact_odds_of_any_pool() -> None:
    """A challenge's odds as the engine's exact fraction, rounded once to a float, for pools
    of standard, Champion and Blood dice, up to pools whose counts pass 2**53 (where one
    division of two floats would no longer be exact)."""
    from funkoverse.rules import _kernel

    setup = build_setup("flags", None, None, 3, 3)
    tables, _ = bridge.load(engine.new_game(setup))
    start = engine.new_game(setup)
    ai = kernel.ai_tables(tables, lambda: start)
    dice = [setup.dice[d] for d in tables.dice_ids]
    rng = random.Random(7)
    pools = [([0] * a, [0] * d) for a in range(8) for d in range(8)]
    pools += [
        ([rng.randrange(len(dice)) for _ in range(a)], [rng.randrange(len(dice)) for _ in range(d)])
        for a, d in ((3, 2), (5, 4), (9, 9), (12, 11), (14, 14), (16, 16))
        for _ in range(4)
    ]
    for attack, defense in pools:
        exact = win_probability([dice[i] for i in attack], [dice[i] for i in defense])
        assert _kernel.win_chance(ai, attack, defense) == (float(exact), float(1 - exact))


def test_position_keys_are_equal_exactly_when_the_python_keys_are() -> None:
    """The search's tables are keyed by the position: two positions share an entry in the
    kernel exactly when `GameState.key()` says they are the same (it leaves out the turn
    count, exhausted, a token's owner; a track space of two things is in any order), else
    table hits, and so the positions counted, would differ. Here, on every position one and
    two choices away from positions of random games, reached in each engine, where choices
    in another order meet (two characters chosen and their turns ended, moves in two steps)."""
    python: dict[object, object] = {}
    kernels: dict[object, object] = {}
    met = 0

    def same(state: GameState, position: object, tables: object) -> None:
        nonlocal met
        mine = (position.key(), id(tables))  # type: ignore[attr-defined]
        theirs = (state.key(), id(tables))
        met += theirs in python
        assert python.setdefault(theirs, mine) == mine
        assert kernels.setdefault(mine, theirs) == theirs

    for state in random_positions(range(KINDS), every=11, per_game=3, decisions_only=True):
        tables, start = bridge.load(state)
        for first in engine.choices(state):
            after, position = state.copy(), start.copy()
            engine.apply_unchecked(after, first)
            position.apply_unchecked(tables.code(first))
            same(after, position, tables)
            for second in engine.choices(after):
                two, twice = after.copy(), position.copy()
                engine.apply_unchecked(two, second)
                twice.apply_unchecked(tables.code(second))
                same(two, twice, tables)
    assert met >= 200  # positions reached twice, whose keys had to agree


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_the_evaluation_gives_the_recorded_values(chunk: int) -> None:
    """Every seat's value of every position, bit for bit, for every set of weights: 840
    positions of random games of every way to play (chance nodes, a round's end and setup
    included) in each of four groups."""
    positions = value_positions(chunk)
    assert len(positions) >= 500
    for name in WEIGHTS:
        want = GOLDEN["values"][f"{chunk}/{name}"]
        assert len(positions) == want["positions"], REDO
        ev = evaluator(name)  # one for all: what it keeps between positions changes no value
        found = [ev.values(state) for state in positions]
        for k, sample in enumerate(want["sample"]):
            assert list(found[k * SAMPLE_EVERY]) == sample, (name, k * SAMPLE_EVERY, REDO)
        assert digest(v for values in found for v in values) == want["digest"], (name, REDO)


@pytest.mark.parametrize("chunk", [1, 3])
def test_a_positions_value_does_not_hang_on_the_positions_valued_before(chunk: int) -> None:
    """The evaluator keeps the effect of a knock-out between positions; it is the same value
    as one worked out afresh. Keyed by the scenario, the two pieces and the points alone, it
    carried a knock-out's points from one position to another where the leaders or the
    characters beside the victim (Leaders; the monsters' first game) made them others:
    34 of these 840 positions in group 1 were valued otherwise than afresh."""
    positions = value_positions(chunk)
    carried = evaluator("FITTED")
    for state in positions:
        assert carried.values(state) == evaluator("FITTED").values(state)


# ------------------------------------------------------------------ the search


def _same_ranking(key: str, name: str, states: list[GameState]) -> None:
    want = GOLDEN["rankings"][key]
    assert len(states) == len(want), REDO
    for i, state in enumerate(states):
        got = ranking_record(*rank(name, state))
        assert got == want[i], (key, i, "best, positions, cuts, digest", REDO)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_the_searches_rank_the_choices_as_recorded(chunk: int) -> None:
    """On 300 decisions of random games of every way to play: the recorded best choice,
    order and values, and the same positions counted (and cut) for greedy, easy, hard and
    expert, hard and expert on small budgets and in their shapes on the kernel (the beam
    narrowed past a number of positions), and the plain two-turn search."""
    states = ranking_positions(chunk)
    assert len(states) == 75
    for name in SEARCHES:
        _same_ranking(f"{chunk}/{name}", name, states)


def test_expert_ranks_the_choices_of_a_game_as_recorded() -> None:
    """Expert's two-turn search on decisions of a Flags game of greedy against greedy (three a
    side, every round), where its two-turn searches run long."""
    _same_ranking("expert-game/expert", "expert", expert_game_positions())


# ------------------------------------------------------------------ whole games


@pytest.mark.parametrize(("a", "b", "seed", "rounds"), GAMES)
def test_games_are_the_recorded_games(a: str, b: str, seed: int, rounds: int) -> None:
    """The levels against each other (Flags, three a side, teams and map drawn from the
    seed): the recorded game, choice for choice (the agents' tables carried from decision to
    decision of a turn, easy's random decisions drawn from its generator)."""
    played = flags_game(a, b, seed, rounds)
    assert game_record(played) == GOLDEN["games"][f"{a}-{b}-{seed}"], REDO


# the kinds of `varied_setup`: the monsters' first game (points to every side beside a
# knock-out), Leaders, Control, free-for-all of four, ultimate mode, a draft, attachments
@pytest.mark.parametrize("seed", KINDS_PLAYED)
def test_games_of_other_ways_to_play_are_the_recorded_games(seed: int) -> None:
    """`hard` and `greedy` in turn at every seat, six rounds: the recorded games (a draft's
    decisions too)."""
    assert game_record(other_game(seed)) == GOLDEN["games"][f"kind-{seed}"], REDO


# ------------------------------------------------------------------ where the kernel searches


def test_the_kernel_search_tables_hold_the_turn_being_decided() -> None:
    """The values a turn's search keeps serve that turn's next decisions and are emptied when
    the agent's next turn begins, so the tables never hold more than the positions of one
    turn."""
    spent: list[tuple[int, int, int]] = []

    class Watched(ExpectimaxAgent):
        def rank_turn(self, turn: Turn) -> list[tuple[Choice, float]]:
            ranked = super().rank_turn(turn)
            assert self._kernel_search is not None
            search = self._kernel_search[2]
            spent.append((self._spent, search.evals_size, search.table_size))
            return ranked

    session = Session(build_setup("flags", None, None, 4, 3), 4)
    agent = Watched(4, depth=2, width=(2, 1), evaluator=Evaluator(FITTED), turn_budget=600)
    play(session, dict(zip(session.seats, (agent, GreedyAgent(5)), strict=True)), max_rounds=3)
    assert len(spent) >= 6 and max(evals for _, evals, _ in spent) > 0
    assert all(evals <= positions and table <= positions for positions, evals, table in spent)


def test_the_kernel_searches_every_game_it_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel searches a game played on the kernel, a turn made by hand, a draft and a
    game played on the Python engine (the seat's view loaded into a kernel). A position past
    what the evaluation's lists hold is decided by the simple agent, and the level's name
    says so from then on."""
    game = Game(build_setup("flags", None, None, 4, 3), 4)
    while game.decider == CHANCE:
        game.play_chance()
    position = game.state

    def searched_on_kernel(agent: ExpectimaxAgent, at: GameState) -> bool:
        agent.rank(at, engine.choices(at))
        return agent._kernel_search is not None and agent.simple is None

    assert searched_on_kernel(GreedyAgent(1), position)
    draft = Game(varied_setup(14), 14)  # Flags with a draft of three
    while draft.decider == CHANCE:
        draft.play_chance()
    assert draft.state.phase is Phase.DRAFT
    assert searched_on_kernel(GreedyAgent(1), draft.state)
    on_python = Session(build_setup("flags", None, None, 4, 3), 4, engine=PYTHON)
    seat = on_python.decider
    assert seat is not None
    agent = GreedyAgent(1)
    agent.decide(on_python.turn(seat))
    assert agent._kernel_search is not None and agent.simple is None
    on_kernel = Session(build_setup("flags", None, None, 4, 3), 4)
    for session in (on_python, on_kernel):  # the same choices, whichever engine plays
        assert session.decider == seat
    assert AGENTS["hard"](1).decide(on_python.turn(seat)) == AGENTS["hard"](1).decide(
        on_kernel.turn(seat)
    )
    later = midgame(flags_spec(7), 7)

    class Full:
        cuts = 0
        positions = 0

        def rank(self, *args: object) -> list[tuple[int, float]]:
            raise RuntimeError("the evaluator's lists are too short for this position")

    with monkeypatch.context() as patched:
        patched.setattr(kernel, "search", lambda agent: Full())
        hard = AGENTS["hard"](1)
        assert isinstance(hard, ExpectimaxAgent)
        ranked = hard.rank(later, engine.choices(later))
    from funkoverse.ai.simple import SimpleAgent

    simple = SimpleAgent(1).explain(Turn.of(later, engine.choices(later)), 99)
    assert ranked == simple
    assert hard.name == "hard (simple: this position is larger than the fast engine's search holds)"

"""The agents search on the compiled kernel exactly as they search in Python.

`evaluate.py` and `expectimax.py` are the reference. The kernel's evaluator gives the same
values, bit for bit, on thousands of positions of random games of every way to play, for
every shipped set of weights and some combinations of their options; the kernel's search
ranks the choices of hundreds of decisions in the same order, with the same values and the
same number of positions counted, for greedy, hard and expert; and whole games of the levels
against each other are the same games, choice for choice, whichever engine searches them.
"""

from __future__ import annotations

import dataclasses
import os
import random
from collections.abc import Callable

import pytest

from funkoverse.ai import kernel
from funkoverse.ai.agents import AGENTS, agent_factory
from funkoverse.ai.arena import build_setup, play
from funkoverse.ai.evaluate import (
    FITTED,
    FLAG_ROUNDS,
    NEXT_TURNS,
    RACE,
    ROUND_END,
    Evaluator,
)
from funkoverse.ai.expectimax import ExpectimaxAgent
from funkoverse.ai.greedy import GreedyAgent
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

SHIPPED = {
    "RACE": RACE,
    "NEXT_TURNS": NEXT_TURNS,
    "ROUND_END": ROUND_END,
    "FLAG_ROUNDS": FLAG_ROUNDS,
    "FITTED": FITTED,
}
# options of the shipped weights put together otherwise than they ship
COMBINED = {
    "race-with-walk-and-abilities": dataclasses.replace(RACE, walk=0.01, abilities=True),
    "round-end-round-race": dataclasses.replace(
        ROUND_END, round_race=True, sure_returns=True, beyond_target=1, material=(0.5, 0.9)
    ),
    "flag-rounds-abilities": dataclasses.replace(
        FLAG_ROUNDS, abilities=True, turn_weights=(0.5, 0.3), win_weights=(0.9,)
    ),
    "fitted-plain": dataclasses.replace(
        FITTED, material=None, beyond_target=0, sure_returns=False, round_race=False, walk=0.0
    ),
}
WEIGHTS = {**SHIPPED, **COMBINED}


def _random_positions(
    seeds: range, every: int, per_game: int, decisions_only: bool = False
) -> list[GameState]:
    """Positions of random games of the setups `varied_setup` draws (every way to play), one
    step in `every`, at most `per_game` a game; with `decisions_only`, only where a side
    decides among several choices."""
    found: list[GameState] = []
    for seed in seeds:
        game = Game(varied_setup(seed), seed, PYTHON)
        rng = random.Random(seed)
        state = game.peek()  # the Python engine's own position, read as it goes on
        steps = taken = 0
        while not game.over and state.round <= 12 and taken < per_game:
            legal = engine.choices(state)
            decides = game.decider not in (CHANCE, None) and len(legal) > 1
            if (
                state.phase is not Phase.DRAFT
                and steps % every == every - 1
                and (decides or not decisions_only)
            ):
                found.append(state.copy())
                taken += 1
            if game.decider == CHANCE:
                game.play_chance()
            else:
                game.play(legal[rng.randrange(len(legal))])
            steps += 1
    return found


# ------------------------------------------------------------------ pieces of the evaluator


def test_the_kernel_sums_floats_as_python_sums_them() -> None:
    """`sum` of floats is left to right before Python 3.12 and compensated (Neumaier) since;
    the kernel sums as the Python it runs in, and each way as that Python's `sum` does."""
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
        kernel.same_sum_as_python()


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

    for state in _random_positions(range(KINDS), every=11, per_game=3, decisions_only=True):
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


@pytest.mark.parametrize("chunk", range(4))
def test_the_evaluator_gives_the_python_values(chunk: int) -> None:
    """`Evaluator.values` on the kernel equals the Python evaluator's, bit for bit, for every
    shipped set of weights and some combinations of their options, on positions of random
    games of every way to play (chance nodes, a round's end and setup included)."""
    positions = _random_positions(range(chunk, 4 * KINDS * 3, 4), every=5, per_game=14)
    assert len(positions) >= 500
    compared = 0
    for name, weights in WEIGHTS.items():
        python, twin = Evaluator(weights), Evaluator(weights)
        for state in positions:
            mine = kernel.values(twin, state)
            assert mine is not None, bridge.unsupported(state)
            assert mine == python.values(state), name
            compared += 1
    assert compared >= 500 * len(WEIGHTS)


# ------------------------------------------------------------------ the search


def _hard_small(seed: int) -> ExpectimaxAgent:
    """Hard held to 300 positions a turn: its budget cuts most searches."""
    return agent_factory("hard:positions=300")(seed)  # type: ignore[return-value]


def _expert_small(seed: int) -> ExpectimaxAgent:
    """Expert held to 1,200 positions a turn: its two-turn searches give way often."""
    return agent_factory("expert:positions=1200")(seed)  # type: ignore[return-value]


def _hard_wide(seed: int) -> ExpectimaxAgent:
    """Hard's shape on the kernel (beam 16), its beam narrowed past 400 positions a turn."""
    return agent_factory("hard:positions=3000,beam=16,beam-positions=400")(seed)  # type: ignore[return-value]


def _expert_wide(seed: int) -> ExpectimaxAgent:
    """Expert's shape on the kernel (3 and 2 wide, the reply 3), held to 4,000 positions."""
    return agent_factory(  # type: ignore[return-value]
        "expert:positions=4000,width=3x2,reply-beam=3,beam-positions=600"
    )(seed)


def _race_search(seed: int) -> ExpectimaxAgent:
    """The plain expectimax agent (the `RACE` evaluation), two turns, two choices wide."""
    return ExpectimaxAgent(seed, depth=2, width=2, turn_budget=500)


SEARCHERS: dict[str, Callable[[int], ExpectimaxAgent]] = {
    "easy": AGENTS["easy"],  # type: ignore[dict-item]
    "greedy": AGENTS["greedy"],  # type: ignore[dict-item]
    "hard": AGENTS["hard"],  # type: ignore[dict-item]
    "expert": AGENTS["expert"],  # type: ignore[dict-item]
    "hard-300": _hard_small,
    "expert-1200": _expert_small,
    "hard-wide": _hard_wide,
    "expert-wide": _expert_wide,
    "race": _race_search,
}


def _same_ranking(name: str, state: GameState, choices: list[Choice]) -> None:
    python, mine = SEARCHERS[name](3), SEARCHERS[name](3)
    mine._settle_in_python()  # a level's settings for a search in Python, on both
    python.kernel = False
    want = python.rank(state, choices)
    got = mine.rank(state, choices)
    assert mine._kernel_search is not None  # the kernel searched
    assert [c for c, _ in got] == [c for c, _ in want], name
    assert all(abs(a - b) <= 1e-9 for (_, a), (_, b) in zip(got, want, strict=True)), name
    assert (mine.positions, mine._cuts) == (python.positions, python._cuts), name


@pytest.mark.parametrize("chunk", range(4))
def test_the_searches_rank_the_choices_as_the_python_searches(chunk: int) -> None:
    """On 300 decisions of random games of every way to play: the same order, the same values
    and the same positions counted (and cut) for greedy, easy, hard and expert (with their
    settings for a search in Python), hard and expert on small budgets and in their shapes on
    the kernel (the beam narrowed past a number of positions), and the plain expectimax
    agent."""
    states = _random_positions(range(chunk, 3 * KINDS, 4), 4, 5, decisions_only=True)
    assert len(states) == 75
    for state in states:
        for name in SEARCHERS:
            _same_ranking(name, state, engine.choices(state))


def test_expert_ranks_the_choices_of_a_game_as_the_python_expert() -> None:
    """The expert level with its whole budget, on decisions of a Flags game of greedy against
    greedy (three a side, every round), where its two-turn searches run long."""
    states: list[GameState] = []

    class Collect(GreedyAgent):
        def decide(self, turn: Turn) -> Choice:
            if len(turn.choices) > 1 and turn.view.phase is Phase.ACT:
                states.append(turn.view.copy())
            return super().decide(turn)

    session = Session(build_setup("flags", None, None, 6, 3), 6)
    play(session, dict(zip(session.seats, (Collect(6), GreedyAgent(7)), strict=True)), 30)
    assert len(states) >= 40
    for state in states[:: len(states) // 16][:16]:
        _same_ranking("expert", state, engine.choices(state))


# ------------------------------------------------------------------ whole games

GAMES = [  # (A, B, seed, rounds): Flags, three a side, teams and map drawn from the seed
    ("hard", "greedy", 1, 30),
    ("hard", "greedy", 2, 30),
    ("expert", "hard", 2, 30),
    ("easy", "normal", 4, 30),
]


@pytest.mark.parametrize(("a", "b", "seed", "rounds"), GAMES)
def test_games_are_the_same_games_on_either_search(a: str, b: str, seed: int, rounds: int) -> None:
    """The levels against each other: the kernel's agents and the Python agents play the same
    game, choice for choice (the agents' tables carried from decision to decision of a turn,
    easy's random decisions drawn from the same generator)."""
    searched: list[bool] = []

    def played(on_kernel: bool) -> list[str]:
        session = Session(build_setup("flags", None, None, seed, 3), seed)
        first = agent_factory(a)(seed)
        second = agent_factory(b)(seed + 1)
        assert isinstance(first, ExpectimaxAgent) and isinstance(second, ExpectimaxAgent)
        first.kernel = second.kernel = on_kernel
        first._settle_in_python()  # the levels' settings for a search in Python, on both
        second._settle_in_python()
        play(session, dict(zip(session.seats, (first, second), strict=True)), rounds)
        searched.append(first._kernel_search is not None and second._kernel_search is not None)
        return [entry.choice for entry in session.entries]

    assert played(True) == played(False)
    assert searched == [True, False]


# the kinds of `varied_setup`: the monsters' first game (points to every side beside a
# knock-out), Leaders, Control, free-for-all of four, ultimate mode, a draft, attachments
KINDS_PLAYED = (1, 4, 8, 9, 10, 14, 19)


@pytest.mark.parametrize("seed", KINDS_PLAYED)
def test_games_of_other_ways_to_play_are_the_same_games(seed: int) -> None:
    """`hard` and `greedy` in turn at every seat, six rounds: the same games on either search
    (a draft's decisions too)."""

    def played(on_kernel: bool) -> list[str]:
        session = Session(varied_setup(seed), seed)
        agents = {}
        for i, seat in enumerate(session.seats):
            agent = agent_factory(("hard", "greedy")[i % 2])(seed + i)
            assert isinstance(agent, ExpectimaxAgent)
            agent.kernel = on_kernel
            agent._settle_in_python()
            agents[seat] = agent
        play(session, agents, 6)
        return [entry.choice for entry in session.entries]

    assert played(True) == played(False)


# ------------------------------------------------------------------ where the kernel searches


def test_the_kernel_search_tables_hold_the_turn_being_decided() -> None:
    """As the Python search's: the values a turn's search keeps serve that turn's next
    decisions and are emptied when the agent's next turn begins, so the tables never hold
    more than the positions of one turn."""
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


def test_the_python_search_decides_where_the_kernel_does_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The Python search is kept for a game on the Python engine, for a position the kernel
    cannot hold, for an agent told so (`kernel=False`) and for a subclass that changes the
    search or the evaluation (its changes are Python's). A draft is searched on the kernel:
    it plays the draft."""
    game = Game(build_setup("flags", None, None, 4, 3), 4)
    while game.decider == CHANCE:
        game.play_chance()
    position = game.state

    class Counted(Evaluator):
        def values(self, state: GameState) -> tuple[float, ...]:
            return super().values(state)

    def searched_on_kernel(agent: ExpectimaxAgent, at: GameState) -> bool:
        agent.rank(at, engine.choices(at))
        return agent._kernel_search is not None

    assert searched_on_kernel(GreedyAgent(1), position)
    assert not searched_on_kernel(GreedyAgent(1, kernel=False), position)
    assert not searched_on_kernel(GreedyAgent(1, evaluator=Counted()), position)

    class Watched(GreedyAgent):
        def _child(self, state: GameState, choice: Choice) -> GameState:
            return super()._child(state, choice)

    assert not searched_on_kernel(Watched(1), position)
    # a position past what the kernel's lists hold: this decision and the agent's next are
    # Python's
    later = midgame(flags_spec(7), 7)

    class Full:
        cuts = 0

        def rank(self, *args: object) -> list[tuple[int, float]]:
            raise RuntimeError("the evaluator's lists are too short for this position")

    with monkeypatch.context() as patched:
        patched.setattr(kernel, "search", lambda agent: Full())
        agent = AGENTS["hard"](1)
        assert isinstance(agent, ExpectimaxAgent)
        python = AGENTS["hard"](1)
        python.kernel = False  # type: ignore[attr-defined]
        assert agent.rank(later, engine.choices(later)) == python.rank(later, engine.choices(later))
        assert agent.positions == python.positions and not agent.kernel
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
    assert agent._kernel_search is None

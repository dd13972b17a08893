"""The agent interface, the simplest agent, and the registry of every agent by name.

An agent is asked at each of its decisions, through the same API a person uses: the game
(as its side may see it: see `funkoverse.ai.view`) and the legal choices; it returns one of
them. `explain` gives its estimate of the best few choices, for a hint or for debugging.
Every agent owns a `random.Random` seeded at creation and never touches the global one, and
search budgets are counted in simulations, not seconds: the same seed, the same choices.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Protocol

from funkoverse.rules.choices import Choice, Move
from funkoverse.rules.frames import ChoiceFrame
from funkoverse.rules.state import GameState


class Agent(Protocol):
    """Given the game as its side may see it and the legal choices, return one of them."""

    name: str

    def choose(self, state: GameState, choices: list[Choice]) -> Choice: ...

    def explain(
        self, state: GameState, choices: list[Choice], top: int = 3
    ) -> list[tuple[Choice, float]]:
        """The `top` best choices with their estimated values (chance to win), best first."""
        ...


def _stay(state: GameState) -> Choice | None:
    """A move of 0 squares for the character acting now (legal, but a pass)."""
    top = state.stack[-1] if state.stack else None
    mover = top.piece if isinstance(top, ChoiceFrame) else state.active
    piece = state.pieces.get(mover or "")
    if piece is None or piece.square is None:
        return None
    return Move(state.board.label(piece.square))


class RandomAgent:
    """Plays at random from its own seeded generator: first a kind of choice (move, challenge,
    assist, end, ...) uniformly, then one choice of that kind uniformly, so that the many
    squares a move can reach do not drown out the one challenge on offer. A move of 0 squares
    is taken only when nothing else is left."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState, choices: list[Choice]) -> Choice:
        kinds: dict[str, list[Choice]] = {}
        stay = _stay(state)
        for choice in choices:
            if choice != stay:
                kinds.setdefault(choice.kind, []).append(choice)
        if not kinds:
            return choices[0]
        groups = list(kinds.values())
        group = groups[self.rng.randrange(len(groups))]
        return group[self.rng.randrange(len(group))]

    def explain(
        self, state: GameState, choices: list[Choice], top: int = 3
    ) -> list[tuple[Choice, float]]:
        """What the evaluator thinks of each choice (the random agent itself does not care)."""
        from funkoverse.ai.greedy import GreedyAgent

        return GreedyAgent(0, depth="decision").explain(state, choices, top)


def _greedy(seed: int) -> Agent:
    from funkoverse.ai.greedy import GreedyAgent

    return GreedyAgent(seed)


def _mcts(seed: int, simulations: int | None = None) -> Agent:
    from funkoverse.ai.mcts import MCTSAgent

    return MCTSAgent(seed, simulations=simulations or MCTS_SIMULATIONS)


def _expectimax(seed: int, positions: int | None = None) -> Agent:
    from funkoverse.ai.evaluate import FITTED, Evaluator
    from funkoverse.ai.expectimax import NARROW_SHARE, ExpectimaxAgent

    return ExpectimaxAgent(
        seed,
        depth=2,
        width=EXPERT_WIDTH,
        evaluator=Evaluator(FITTED),
        beam=HARD_BEAM,
        reply_beam=EXPERT_REPLY_BEAM,
        turn_budget=positions or EXPERT_TURN_POSITIONS,
        narrow=NARROW_SHARE,
    )


def _level(name: str, seed: int, positions: int | None = None) -> Agent:
    """The difficulty levels, mapped onto the agents (docs/ai.md gives the strength of each)."""
    from funkoverse.ai.evaluate import FITTED, Evaluator
    from funkoverse.ai.greedy import GreedyAgent

    agent: Agent
    if name == "easy":
        agent = GreedyAgent(seed, depth="decision", noise=EASY_NOISE)
    elif name == "normal":
        agent = GreedyAgent(seed)
    elif name == "hard":
        agent = GreedyAgent(
            seed,
            evaluator=Evaluator(FITTED),
            beam=HARD_BEAM,
            turn_budget=positions or HARD_TURN_POSITIONS,
        )
    else:
        agent = _expectimax(seed, positions)
    agent.name = name
    return agent


EASY_NOISE = 0.2  # easy: one decision ahead, and one decision in five at random
HARD_BEAM = 6  # hard: its whole turn, 6 choices searched on at each decision, FITTED weights
HARD_TURN_POSITIONS = 2_000  # hard's budget for a whole turn (under 2 s on one core)
EXPERT_WIDTH = (2, 1)  # expert: two whole turns (its own, then the reply), 2 and 1 choices wide
EXPERT_REPLY_BEAM = 2  # expert: the reply searched 2 choices wide at each of its decisions
EXPERT_TURN_POSITIONS = 8_000  # expert's budget for a whole turn (under 5 s at 0.6 ms a position)
MCTS_SIMULATIONS = 200

AGENTS: dict[str, Callable[[int], Agent]] = {
    "random": RandomAgent,
    "greedy": _greedy,
    "expectimax": _expectimax,
    "mcts": _mcts,
    "easy": lambda seed: _level("easy", seed),
    "normal": lambda seed: _level("normal", seed),
    "hard": lambda seed: _level("hard", seed),
    "expert": lambda seed: _level("expert", seed),
}


# The agents that take a budget, and its name: positions valued in a whole turn, or
# simulations of a search.
BUDGETS: dict[str, str] = {
    "hard": "positions",
    "expert": "positions",
    "expectimax": "positions",
    "mcts": "simulations",
}


# An agent as written: a name, then optionally ":key=value" (the value may be malformed;
# agent_factory says what is wrong with it).
_AGENT_SPEC = re.compile(r"(?P<name>[^:]*)(?P<budget>:(?P<key>[^=]*)=?(?P<value>.*))?")


def agent_factory(text: str) -> Callable[[int], Agent]:
    """An agent named as a person writes it: a name of `AGENTS`, or one with a budget,
    `hard:positions=4000`, `mcts:simulations=400`. A bad one is refused naming its fault."""
    from funkoverse.errors import UserError

    spelled = _AGENT_SPEC.fullmatch(text.strip())
    name = spelled["name"] if spelled else text.strip()
    if not spelled or name not in AGENTS:
        raise UserError(f"unknown agent '{name[:40]}'; known: {', '.join(AGENTS)}")
    if spelled["budget"] is None:
        return AGENTS[name]
    key, value = spelled["key"], spelled["value"]
    wanted = BUDGETS.get(name)
    if wanted is None:
        takes = ", ".join(f"{n}:{k}=N" for n, k in BUDGETS.items())
        raise UserError(f"agent '{name}' takes no budget; these do: {takes}")
    if key != wanted or not value.isdigit() or int(value) < 1:
        raise UserError(
            f"agent '{text[:60]}': write {name}:{wanted}=N with N a whole number above 0"
        )
    n = int(value)
    if name == "mcts":
        return lambda seed: _mcts(seed, n)
    if name == "expectimax":
        return lambda seed: _expectimax(seed, n)

    def level(seed: int) -> Agent:
        agent = _level(name, seed, n)
        agent.name = text.strip()
        return agent

    return level

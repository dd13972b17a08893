"""The agent interface, the simplest agent, and the registry of every agent by name.

An agent is asked at each of its decisions, through the same API a person uses: the game
(as its side may see it: see `funkoverse.ai.view`) and the legal choices; it returns one of
them. `explain` gives its estimate of the best few choices, for a hint or for debugging.
Every agent owns a `random.Random` seeded at creation and never touches the global one, and
search budgets are counted in positions, not seconds: the same seed, the same choices.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from funkoverse.rules import Choice, GameState, Move, Turn
from funkoverse.rules.core.stack import acting


class Agent(Protocol):
    """Handed a `Turn` (its side's view, the legal choices, a position to search on),
    return one of the choices."""

    name: str

    def decide(self, turn: Turn) -> Choice: ...

    def explain(self, turn: Turn, top: int = 3) -> list[tuple[Choice, float]]:
        """The `top` best choices with their estimated values (chance to win), best first."""
        ...

    def choose(self, state: GameState, choices: Sequence[Choice]) -> Choice:
        """`decide` from a position a caller holds (a puzzle, a tool): no position to search
        on but the view."""
        ...


def _stay(state: GameState) -> Choice | None:
    """A move of 0 squares for the character acting now (legal, but a pass)."""
    piece = state.pieces.get(acting(state) or "")
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

    def decide(self, turn: Turn) -> Choice:
        choices = list(turn.choices)
        stay = _stay(turn.view) if any(c.kind == "move" for c in choices) else None
        kinds: dict[str, list[Choice]] = {}
        for choice in choices:
            if choice != stay:
                kinds.setdefault(choice.kind, []).append(choice)
        if not kinds:
            return choices[0]
        groups = list(kinds.values())
        group = groups[self.rng.randrange(len(groups))]
        return group[self.rng.randrange(len(group))]

    def choose(self, state: GameState, choices: Sequence[Choice]) -> Choice:
        return self.decide(Turn.of(state, choices))

    def explain(self, turn: Turn, top: int = 3) -> list[tuple[Choice, float]]:
        """What the evaluator thinks of each choice (the random agent itself does not care)."""
        from funkoverse.ai.greedy import GreedyAgent

        return GreedyAgent(0, depth="decision").explain(turn, top)


def _simple(seed: int) -> Agent:
    from funkoverse.ai.simple import SimpleAgent

    return SimpleAgent(seed)


def _greedy(seed: int) -> Agent:
    from funkoverse.ai.greedy import GreedyAgent

    return GreedyAgent(seed)


Settings = dict[str, Any]  # a search's settings, by ExpectimaxAgent's argument names


def _expectimax(seed: int, settings: Settings | None = None) -> Agent:
    from funkoverse.ai.expectimax import NARROW_SHARE, ExpectimaxAgent
    from funkoverse.ai.kernel import Evaluator
    from funkoverse.ai.weights import FITTED

    return ExpectimaxAgent(
        seed, depth=2, evaluator=Evaluator(FITTED), narrow=NARROW_SHARE, **_search(EXPERT, settings)
    )


def _search(own: Settings, settings: Settings | None) -> Settings:
    """A level's search settings: its own, with `settings` written over them."""
    return {**own, **(settings or {})}


def _level(name: str, seed: int, settings: Settings | None = None) -> Agent:
    """The difficulty levels, mapped onto the agents (docs/ai.md gives the strength of each).
    `settings` replace the level's own search settings."""
    from funkoverse.ai.greedy import GreedyAgent
    from funkoverse.ai.kernel import Evaluator
    from funkoverse.ai.weights import FITTED

    agent: Agent
    if name == "easy":
        agent = GreedyAgent(seed, depth="decision", noise=EASY_NOISE)
    elif name == "normal":
        agent = GreedyAgent(seed)
    elif name == "hard":
        agent = GreedyAgent(seed, evaluator=Evaluator(FITTED), **_search(HARD, settings))
    else:
        agent = _expectimax(seed, settings)
    agent.name = name
    return agent


EASY_NOISE = 0.2  # easy: one decision ahead, and one decision in five at random
# hard: its whole turn with the FITTED weights, 16 choices searched on at each decision, at
# most 300,000 positions a turn (under 2 s on one core)
HARD: Settings = {"beam": 16, "beam_positions": 100_000, "turn_budget": 300_000}
# expert: two whole turns (its own, then the reply), 3 and 2 choices wide, its own turn
# searched 6 wide at each decision and the reply 3 wide, at most 500,000 positions a turn
EXPERT: Settings = {
    "width": (3, 2),
    "beam": 6,
    "reply_beam": 3,
    "beam_positions": 30_000,
    "turn_budget": 500_000,
}

AGENTS: dict[str, Callable[[int], Agent]] = {
    "random": RandomAgent,
    "simple": _simple,
    "greedy": _greedy,
    "expectimax": _expectimax,
    "easy": lambda seed: _level("easy", seed),
    "normal": lambda seed: _level("normal", seed),
    "hard": lambda seed: _level("hard", seed),
    "expert": lambda seed: _level("expert", seed),
}


# The settings an agent takes after its name ("hard:positions=4000,beam=10"), as written and
# as ExpectimaxAgent's arguments; the first is its budget: positions valued in a whole turn.
_SEARCH = {
    "positions": "turn_budget",
    "beam": "beam",
    "beam-positions": "beam_positions",
}
_TWO_TURNS = {**_SEARCH, "width": "width", "reply-beam": "reply_beam"}
SETTINGS: dict[str, dict[str, str]] = {
    "hard": _SEARCH,
    "expert": _TWO_TURNS,
    "expectimax": _TWO_TURNS,
}
BUDGETS: dict[str, str] = {name: next(iter(keys)) for name, keys in SETTINGS.items()}
# an agent as written: a name, then optionally ":" and its settings
_AGENT_SPEC = re.compile(r"(?P<name>[^:]*)(?::(?P<settings>.*))?", re.DOTALL)


# the agents that search on the kernel, and so decide by rule of thumb where it cannot play
SEARCHING = ("greedy", "expectimax", "easy", "normal", "hard", "expert")


def base_name(text: str) -> str:
    """The agent's name in `text`, without its settings (`hard` of `hard:positions=4000`)."""
    spelled = _AGENT_SPEC.fullmatch(text.strip())
    assert spelled is not None  # the pattern matches any text
    return spelled["name"]


def playing_name(text: str, state: GameState) -> str:
    """How an agent (as written, `hard:positions=4000`) is named in the game of `state`: its
    name, or, where it searches and the kernel cannot play the game, its name saying that it
    decides by rule of thumb (`hard (simple: this game has a card the fast engine cannot
    play)`)."""
    from funkoverse.ai.simple import simple_name
    from funkoverse.rules import bridge

    if base_name(text) not in SEARCHING:
        return text
    why = bridge.unsupported(state) or (None if state.setup.dice else "a setup without dice")
    return text if why is None else simple_name(text, why)


def _setting(text: str, name: str, key: str, value: str) -> Any:
    """One setting's value: a whole number above 0 (a width: one per turn, as 3x2)."""
    from funkoverse.errors import UserError

    parts = value.split("x") if key == "width" else [value]
    if not all(p.isdigit() and int(p) >= 1 for p in parts):
        form = "N or NxN" if key == "width" else "N"
        raise UserError(
            f"agent '{text[:60]}': write {name}:{key}={form} with N a whole number above 0"
        )
    numbers = tuple(int(p) for p in parts)
    return numbers if key == "width" else numbers[0]


def agent_factory(text: str) -> Callable[[int], Agent]:
    """An agent named as a person writes it: a name of `AGENTS`, or one with settings,
    `hard:positions=4000`, `expert:positions=8000,width=2x1`. A bad one is refused naming
    its fault."""
    from funkoverse.errors import UserError

    spelled = _AGENT_SPEC.fullmatch(text.strip())
    assert spelled is not None  # the pattern matches any text
    name, written = spelled["name"], spelled["settings"]
    if name not in AGENTS:
        raise UserError(f"unknown agent '{name[:40]}'; known: {', '.join(AGENTS)}")
    if written is None:
        return AGENTS[name]
    keys = SETTINGS.get(name)
    if keys is None:
        takes = ", ".join(f"{n}:{k}=N" for n, k in BUDGETS.items())
        raise UserError(f"agent '{name}' takes no budget; these do: {takes}")
    settings: Settings = {}
    for pair in written.split(","):
        key, _, value = pair.strip().partition("=")
        if key not in keys:
            known = ", ".join(f"{k}=NxN" if k == "width" else f"{k}=N" for k in keys)
            raise UserError(
                f"agent '{text[:60]}': {name} takes {known} (as {name}:{BUDGETS[name]}=N)"
            )
        settings[keys[key]] = _setting(text, name, key, value)
    if name == "expectimax":
        return lambda seed: _expectimax(seed, settings)

    def level(seed: int) -> Agent:
        agent = _level(name, seed, settings)
        agent.name = text.strip()
        return agent

    return level

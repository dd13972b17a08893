"""The AI's goldens: what the evaluation and the search compute on fixed seeded positions and
games, recorded in tests/golden/ai.json and held by tests/test_ai_kernel.py.

The positions come from random games of every way to play (`varied_setup`), one step in so
many, on the Python engine; the weights and the searches' settings are written out in the
file, so that a test rebuilds each search from them, not from a level's settings of the day.
What is recorded:

* `values`: every seat's value of every position for every set of weights, as a digest of
  the floats (bit for bit) per set of weights and group of positions, with one position in
  25 written out in full to show where a change begins;
* `rankings`: each search's ranking of the choices of decisions of random games: the best
  choice, the positions counted and cut, and a digest of the order and values;
* `games`: whole games of the levels against each other, choice for choice (a digest, the
  length and the last choices).

The first record was made from the Python evaluation and search that the kernel's followed
function by function, and the kernel matched it bit for bit as it was recorded (the values,
and the searches' values, which the digests hold rounded to 10 decimals). A deliberate change
to the evaluation or the search changes these numbers: record them again with
`python tools/ai_goldens.py` and say why in the commit.
"""

from __future__ import annotations

import hashlib
import json
import random
import struct
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from funkoverse.ai.arena import build_setup, play
from funkoverse.ai.expectimax import ExpectimaxAgent
from funkoverse.ai.greedy import GreedyAgent
from funkoverse.ai.kernel import Evaluator
from funkoverse.ai.weights import Weights
from funkoverse.rules.core.choices import Choice
from funkoverse.rules.core.state import CHANCE, GameState, Phase
from funkoverse.rules.engines import PYTHON
from funkoverse.rules.game import Game
from funkoverse.rules.play import engine
from funkoverse.rules.session import Session
from funkoverse.rules.turn import Turn
from kernelgames import KINDS, varied_setup

GOLDEN = Path(__file__).parent / "golden" / "ai.json"
CHUNKS = 4
SAMPLE_EVERY = 25  # one position in this many written out in full

# the weights recorded: every set the evaluation shipped with, and some combinations of their
# options (by `Weights`' field names; the rest at their defaults)
_RACE: dict[str, Any] = {}
_NEXT_TURNS: dict[str, Any] = {"race": False}
_ROUND_END: dict[str, Any] = {"race": False, "flag_return": (0.7, 0.35, 0.15)}
_FLAG_ROUNDS: dict[str, Any] = {"race": False, "flag_rounds": (0.5, 0.75)}
_FITTED: dict[str, Any] = {
    "race": False,
    "flag_rounds": (0.5, 0.375),
    "abilities": True,
    "flag_scale": 0.6,
    "sure_returns": True,
    "turn_weights": (0.4, 0.35, 0.25),
    "material": (0.3, 0.4),
    "objective": 0.12,
    "pool_token": 0.15,
    "track_token": 0.15,
    "round_race": True,
    "beyond_target": 2,
    "walk": 0.005,
}
WEIGHTS: dict[str, dict[str, Any]] = {
    "RACE": _RACE,
    "NEXT_TURNS": _NEXT_TURNS,
    "ROUND_END": _ROUND_END,
    "FLAG_ROUNDS": _FLAG_ROUNDS,
    "FITTED": _FITTED,
    "race-with-walk-and-abilities": {**_RACE, "walk": 0.01, "abilities": True},
    "round-end-round-race": {
        **_ROUND_END,
        "round_race": True,
        "sure_returns": True,
        "beyond_target": 1,
        "material": (0.5, 0.9),
    },
    "flag-rounds-abilities": {
        **_FLAG_ROUNDS,
        "abilities": True,
        "turn_weights": (0.5, 0.3),
        "win_weights": (0.9,),
    },
    "fitted-plain": {
        **_FITTED,
        "material": None,
        "beyond_target": 0,
        "sure_returns": False,
        "round_race": False,
        "walk": 0.0,
    },
}

# the searches recorded, by their settings: the weights' name, the depth in turns (or
# "decision": one decision deep), the widths, the beams, the budgets, the narrowing share
_ONE_TURN = {"depth": 1, "widths": (5,), "reply_beam": None, "narrow": 0.5}
SEARCHES: dict[str, dict[str, Any]] = {
    # easy and normal (greedy), hard and expert with the settings they took where the Python
    # search decided; hard and expert on small budgets and in their shapes on the kernel
    "easy": {**_ONE_TURN, "weights": "NEXT_TURNS", "depth": "decision", "beam": 4,
             "turn_budget": None, "beam_positions": 3000},
    "greedy": {**_ONE_TURN, "weights": "NEXT_TURNS", "beam": 4, "turn_budget": None,
               "beam_positions": 3000},
    "hard": {**_ONE_TURN, "weights": "FITTED", "beam": 6, "turn_budget": 2000,
             "beam_positions": 3000},
    "expert": {"weights": "FITTED", "depth": 2, "widths": (2, 1), "beam": 6, "reply_beam": 2,
               "turn_budget": 8000, "beam_positions": 3000, "narrow": 0.5},
    "hard-300": {**_ONE_TURN, "weights": "FITTED", "beam": 16, "turn_budget": 300,
                 "beam_positions": 100_000},
    "expert-1200": {"weights": "FITTED", "depth": 2, "widths": (3, 2), "beam": 6,
                    "reply_beam": 3, "turn_budget": 1200, "beam_positions": 30_000,
                    "narrow": 0.5},
    "hard-wide": {**_ONE_TURN, "weights": "FITTED", "beam": 16, "turn_budget": 3000,
                  "beam_positions": 400},
    "expert-wide": {"weights": "FITTED", "depth": 2, "widths": (3, 2), "beam": 6,
                    "reply_beam": 3, "turn_budget": 4000, "beam_positions": 600,
                    "narrow": 0.5},
    # the plain two-turn search with the RACE evaluation, two choices wide
    "race": {"weights": "RACE", "depth": 2, "widths": (2,), "beam": 4, "reply_beam": None,
             "turn_budget": 500, "beam_positions": 3000, "narrow": None},
}  # fmt: skip

# whole games: (A, B, seed, rounds) of Flags with three a side, the levels with the settings
# of SEARCHES; and `hard` and `greedy` in turn at every seat of other ways to play, six rounds
GAMES = [("hard", "greedy", 1, 30), ("hard", "greedy", 2, 30), ("expert", "hard", 2, 30),
         ("easy", "normal", 4, 30)]  # fmt: skip
LEVEL_SEARCH = {"easy": "easy", "normal": "greedy", "greedy": "greedy", "hard": "hard",
                "expert": "expert"}  # fmt: skip
EASY_NOISE = 0.2
KINDS_PLAYED = (1, 4, 8, 9, 10, 14, 19)


def random_positions(
    seeds: Iterable[int], every: int, per_game: int, decisions_only: bool = False
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


def value_positions(chunk: int) -> list[GameState]:
    """The positions whose values are recorded, one group of four."""
    return random_positions(range(chunk, 4 * KINDS * 3, 4), every=5, per_game=14)


def ranking_positions(chunk: int) -> list[GameState]:
    """The decisions whose rankings are recorded, one group of four."""
    return random_positions(range(chunk, 3 * KINDS, 4), 4, 5, decisions_only=True)


def weights(name: str) -> Weights:
    """A recorded set of weights."""
    written = dict(WEIGHTS[name])
    for key, value in written.items():
        if isinstance(value, list):
            written[key] = tuple(value)
    return Weights(**written)


def evaluator(name: str) -> Evaluator:
    return Evaluator(weights(name))


def searcher(name: str, seed: int = 3, noise: float = 0.0) -> ExpectimaxAgent:
    """The agent of a recorded search's settings, seeded."""
    s = SEARCHES[name]
    if s["depth"] in (1, "decision"):
        agent: ExpectimaxAgent = GreedyAgent(
            seed,
            evaluator=evaluator(s["weights"]),
            depth="decision" if s["depth"] == "decision" else "turn",
            noise=noise,
            beam=s["beam"],
            turn_budget=s["turn_budget"],
            beam_positions=s["beam_positions"],
        )
        assert agent.narrow == s["narrow"]
        return agent
    return ExpectimaxAgent(
        seed,
        depth=s["depth"],
        width=tuple(s["widths"]),
        evaluator=evaluator(s["weights"]),
        turn_budget=s["turn_budget"],
        beam=s["beam"],
        reply_beam=s["reply_beam"],
        narrow=s["narrow"],
        beam_positions=s["beam_positions"],
    )


def level(name: str, seed: int) -> ExpectimaxAgent:
    """A level as the games were recorded: its search's recorded settings."""
    return searcher(LEVEL_SEARCH[name], seed, EASY_NOISE if name == "easy" else 0.0)


def rank(name: str, state: GameState) -> tuple[list[tuple[int, float]], int, int]:
    """A fresh search's ranking of the choices of `state` (by their index in the legal
    choices), the positions it counted and the times it cut."""
    agent = searcher(name)
    choices = engine.choices(state)
    ranked = agent.rank(state, choices)
    assert agent.simple is None, agent.simple  # searched on the kernel
    index = {c: i for i, c in enumerate(choices)}
    return [(index[c], v) for c, v in ranked], agent.positions, agent._cuts


def flags_game(a: str, b: str, seed: int, rounds: int) -> list[str]:
    """A recorded Flags game of two levels, choice by choice."""
    session = Session(build_setup("flags", None, None, seed, 3), seed)
    agents = (level(a, seed), level(b, seed + 1))
    play(session, dict(zip(session.seats, agents, strict=True)), rounds)
    assert all(agent.simple is None for agent in agents)
    return [entry.choice for entry in session.entries]


def other_game(seed: int) -> list[str]:
    """A recorded game of another way to play: hard and greedy in turn at every seat."""
    session = Session(varied_setup(seed), seed)
    agents = {
        seat: level(("hard", "greedy")[i % 2], seed + i) for i, seat in enumerate(session.seats)
    }
    play(session, agents, 6)
    return [entry.choice for entry in session.entries]


class _Collect(GreedyAgent):
    """Greedy, keeping the positions of its decisions of the acting phase."""

    def __init__(self, seed: int, into: list[GameState]) -> None:
        super().__init__(seed)
        self.into = into

    def decide(self, turn: Turn) -> Choice:
        if len(turn.choices) > 1 and turn.view.phase is Phase.ACT:
            self.into.append(turn.view.copy())
        return super().decide(turn)


def expert_game_positions() -> list[GameState]:
    """Decisions of a Flags game (three a side, seed 6) of greedy against greedy, where the
    two-turn searches run long: sixteen, spread over the game."""
    states: list[GameState] = []
    session = Session(build_setup("flags", None, None, 6, 3), 6)
    agents = (_Collect(6, states), _Collect(7, []))
    play(session, dict(zip(session.seats, agents, strict=True)), 30)
    return states[:: len(states) // 16][:16]


def values_record(found: list[tuple[float, ...]]) -> dict[str, Any]:
    """What is kept of the values of a group of positions: their number, a digest of every
    float, and one position in `SAMPLE_EVERY` written out."""
    return {
        "positions": len(found),
        "digest": digest(v for values in found for v in values),
        "sample": [list(found[i]) for i in range(0, len(found), SAMPLE_EVERY)],
    }


def digest(values: Iterable[float]) -> str:
    """A digest of floats, bit for bit."""
    packed = b"".join(struct.pack("<d", v) for v in values)
    return hashlib.sha256(packed).hexdigest()[:24]


def ranking_record(ranked: list[tuple[int, float]], positions: int, cuts: int) -> list[Any]:
    """What is kept of a ranking (choices by their index in the legal choices): the best
    choice, the positions counted and cut, a digest of the order and the values (rounded to
    10 decimals)."""
    text = ";".join(f"{i}:{v:.10f}" for i, v in ranked)
    return [ranked[0][0], positions, cuts, hashlib.sha256(text.encode()).hexdigest()[:16]]


def game_record(choices: list[str]) -> dict[str, Any]:
    return {
        "choices": len(choices),
        "digest": hashlib.sha256("\n".join(choices).encode()).hexdigest()[:24],
        "last": choices[-5:],
    }


def load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(GOLDEN.read_text())
    return data


def write(data: dict[str, Any]) -> None:
    """The goldens, one record to a line, so that a change shows as the lines it changes."""
    lines = ["{"]
    keys = list(data)
    for k, key in enumerate(keys):
        value = data[key]
        lines.append(f"  {json.dumps(key)}: {{")
        inner = list(value)
        for j, name in enumerate(inner):
            comma = "," if j < len(inner) - 1 else ""
            lines.append(f"    {json.dumps(name)}: {json.dumps(value[name])}{comma}")
        lines.append("  }" + ("," if k < len(keys) - 1 else ""))
    lines.append("}")
    GOLDEN.write_text("\n".join(lines) + "\n")

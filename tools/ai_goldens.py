"""Record the AI's goldens (tests/golden/ai.json; tests/aigoldens.py says what they hold).

This first record is made from the Python evaluation and search, the reference the kernel
followed, and holds the kernel to them as it records: the same values bit for bit, the same
rankings (order, values within 1e-9, positions and cuts) and the same games.

    PYTHONPATH=src python tools/ai_goldens.py
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from aigoldens import (  # noqa: E402
    CHUNKS,
    EASY_NOISE,
    GAMES,
    KINDS_PLAYED,
    LEVEL_SEARCH,
    SAMPLE_EVERY,
    SEARCHES,
    WEIGHTS,
    digest,
    expert_game_positions,
    game_record,
    ranking_positions,
    ranking_record,
    value_positions,
    write,
)

from funkoverse.ai import kernel  # noqa: E402
from funkoverse.ai.arena import build_setup, play  # noqa: E402
from funkoverse.ai.evaluate import Evaluator, Weights  # noqa: E402
from funkoverse.ai.expectimax import ExpectimaxAgent  # noqa: E402
from funkoverse.ai.greedy import GreedyAgent  # noqa: E402
from funkoverse.rules.core.state import GameState, Phase  # noqa: E402
from funkoverse.rules.play import engine  # noqa: E402
from funkoverse.rules.session import Session  # noqa: E402
from funkoverse.rules.turn import Turn  # noqa: E402
from kernelgames import varied_setup  # noqa: E402


def weights(name: str) -> Weights:
    return Weights(**WEIGHTS[name])


def searcher(name: str, seed: int, on_kernel: bool, noise: float = 0.0) -> ExpectimaxAgent:
    s = SEARCHES[name]
    evaluator = Evaluator(weights(s["weights"]))
    if s["depth"] in (1, "decision"):
        agent: ExpectimaxAgent = GreedyAgent(
            seed,
            evaluator=evaluator,
            depth="decision" if s["depth"] == "decision" else "turn",
            noise=noise,
            beam=s["beam"],
            turn_budget=s["turn_budget"],
            kernel=on_kernel,
            beam_positions=s["beam_positions"],
        )
        assert agent.narrow == s["narrow"]
        return agent
    return ExpectimaxAgent(
        seed,
        depth=s["depth"],
        width=tuple(s["widths"]),
        evaluator=evaluator,
        turn_budget=s["turn_budget"],
        beam=s["beam"],
        reply_beam=s["reply_beam"],
        narrow=s["narrow"],
        kernel=on_kernel,
        beam_positions=s["beam_positions"],
    )


def level(name: str, seed: int, on_kernel: bool) -> ExpectimaxAgent:
    return searcher(LEVEL_SEARCH[name], seed, on_kernel, EASY_NOISE if name == "easy" else 0.0)


def record_values() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for chunk in range(CHUNKS):
        positions = value_positions(chunk)
        for name in WEIGHTS:
            python, twin = Evaluator(weights(name)), Evaluator(weights(name))
            found = []
            for state in positions:
                mine = kernel.values(twin, state)
                theirs = python.values(state)
                assert mine == theirs, (name, chunk)
                found.append(theirs)
            out[f"{chunk}/{name}"] = {
                "positions": len(found),
                "digest": digest(v for values in found for v in values),
                "sample": [list(found[i]) for i in range(0, len(found), SAMPLE_EVERY)],
            }
        print("values", chunk, len(positions), flush=True)
    return out


def rank(name: str, state: GameState, on_kernel: bool) -> tuple[list[tuple[int, float]], int, int]:
    agent = searcher(name, 3, on_kernel)
    choices = engine.choices(state)
    ranked = agent.rank(state, choices)
    assert (agent._kernel_search is not None) == on_kernel
    index = {c: i for i, c in enumerate(choices)}
    return [(index[c], v) for c, v in ranked], agent.positions, agent._cuts


def record_rankings(states: list[GameState], names: list[str]) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {name: [] for name in names}
    for state in states:
        for name in names:
            want, positions, cuts = rank(name, state, False)
            got, kpositions, kcuts = rank(name, state, True)
            assert [i for i, _ in got] == [i for i, _ in want], name
            assert all(a == b for (_, a), (_, b) in zip(got, want, strict=True)), name
            assert (kpositions, kcuts) == (positions, cuts), name
            out[name].append(ranking_record(want, positions, cuts))
    return out


def record_games() -> dict[str, Any]:
    out: dict[str, Any] = {}

    def flags(a: str, b: str, seed: int, rounds: int, on_kernel: bool) -> list[str]:
        session = Session(build_setup("flags", None, None, seed, 3), seed)
        agents = (level(a, seed, on_kernel), level(b, seed + 1, on_kernel))
        play(session, dict(zip(session.seats, agents, strict=True)), rounds)
        assert all((x._kernel_search is not None) == on_kernel for x in agents)
        return [entry.choice for entry in session.entries]

    for a, b, seed, rounds in GAMES:
        played = flags(a, b, seed, rounds, True)
        assert played == flags(a, b, seed, rounds, False), (a, b, seed)
        out[f"{a}-{b}-{seed}"] = game_record(played)
        print("game", a, b, seed, flush=True)

    def other(seed: int, on_kernel: bool) -> list[str]:
        session = Session(varied_setup(seed), seed)
        agents = {
            seat: level(("hard", "greedy")[i % 2], seed + i, on_kernel)
            for i, seat in enumerate(session.seats)
        }
        play(session, agents, 6)
        return [entry.choice for entry in session.entries]

    for seed in KINDS_PLAYED:
        played = other(seed, True)
        assert played == other(seed, False), seed
        out[f"kind-{seed}"] = game_record(played)
        print("kind", seed, flush=True)
    return out


def collect(seed: int, into: list[GameState]) -> GreedyAgent:
    class Collect(GreedyAgent):
        def decide(self, turn: Turn) -> object:  # type: ignore[override]
            if len(turn.choices) > 1 and turn.view.phase is Phase.ACT:
                into.append(turn.view.copy())
            return super().decide(turn)

    return Collect(seed)


def main() -> None:
    data: dict[str, Any] = {"weights": WEIGHTS, "searches": SEARCHES}
    data["values"] = record_values()
    rankings: dict[str, Any] = {}
    for chunk in range(CHUNKS):
        states = ranking_positions(chunk)
        assert len(states) == 75
        for name, found in record_rankings(states, list(SEARCHES)).items():
            rankings[f"{chunk}/{name}"] = found
        print("rankings", chunk, flush=True)
    rankings["expert-game/expert"] = record_rankings(
        expert_game_positions(collect), ["expert"]
    )["expert"]
    data["rankings"] = rankings
    data["games"] = record_games()
    write(data)


if __name__ == "__main__":
    main()

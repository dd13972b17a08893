"""Record the AI's goldens (tests/golden/ai.json; tests/aigoldens.py says what they hold).

The first record was made from the Python evaluation and search that the kernel then
followed, checking the kernel against them as it went (the commit that added this file).
They are recorded again from the kernel, only after a deliberate change to the evaluation
or the search, whose commit says why the numbers moved:

    PYTHONPATH=src python tools/ai_goldens.py
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from aigoldens import (
    CHUNKS,
    GAMES,
    KINDS_PLAYED,
    SEARCHES,
    WEIGHTS,
    evaluator,
    expert_game_positions,
    flags_game,
    game_record,
    other_game,
    rank,
    ranking_positions,
    ranking_record,
    value_positions,
    values_record,
    write,
)


def main() -> None:
    data: dict[str, Any] = {"weights": WEIGHTS, "searches": SEARCHES, "values": {}}
    for chunk in range(CHUNKS):
        positions = value_positions(chunk)
        for name in WEIGHTS:
            ev = evaluator(name)  # one for all: its cache of knock-outs carries over
            found = [ev.values(state) for state in positions]
            data["values"][f"{chunk}/{name}"] = values_record(found)
    rankings: dict[str, Any] = {}
    for chunk in range(CHUNKS):
        states = ranking_positions(chunk)
        for name in SEARCHES:
            rankings[f"{chunk}/{name}"] = [ranking_record(*rank(name, s)) for s in states]
    rankings["expert-game/expert"] = [
        ranking_record(*rank("expert", s)) for s in expert_game_positions()
    ]
    data["rankings"] = rankings
    games: dict[str, Any] = {}
    for a, b, seed, rounds in GAMES:
        games[f"{a}-{b}-{seed}"] = game_record(flags_game(a, b, seed, rounds))
    for seed in KINDS_PLAYED:
        games[f"kind-{seed}"] = game_record(other_game(seed))
    data["games"] = games
    write(data)


if __name__ == "__main__":
    main()

"""Fuzz target: `funkoverse query`, the rules conformance interface (spec/rules-query.md).

The input is what arrives on standard input. The command answers each question with
`{"answer": ...}` or `{"error": "..."}` naming the field, exit status 0 or 1, or refuses
input that is not JSON with exit status 2 and one line; never `internal error` (an
exception the command caught for us), never a traceback.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from contract import MAX_INPUT, Broken, keeps_shared_state

from funkoverse.cli import query

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "conformance"


def query_input(data: bytes) -> None:
    """Standard input of `funkoverse query`, as the command reads it."""
    if len(data) > MAX_INPUT:
        return
    text = data.decode("utf-8", "surrogateescape")  # how Python reads a pipe's bytes
    out, err = io.StringIO(), io.StringIO()
    stdin = sys.stdin
    sys.stdin = io.StringIO(text)
    try:
        with keeps_shared_state(), redirect_stdout(out), redirect_stderr(err):
            status = query.run(argparse.Namespace())
    finally:
        sys.stdin = stdin
    said = err.getvalue()
    if status == 2:
        if said.count("\n") != 1 or not said.startswith("funkoverse query: "):
            raise Broken(f"exit status 2 without one line: {said[:300]!r}")
        return
    if status not in (0, 1) or said:
        raise Broken(f"exit status {status}, standard error {said[:300]!r}")
    answers = json.loads(out.getvalue())
    for a in answers if isinstance(answers, list) else [answers]:
        error = a.get("error")
        if error is None:
            continue
        if not isinstance(error, str) or "\n" in error or error.startswith("internal error"):
            raise Broken(f"not an answer naming a field: {error!r}"[:400])
    if (status == 1) != any(
        "error" in a for a in (answers if isinstance(answers, list) else [answers])
    ):
        raise Broken(f"exit status {status} does not say whether a question failed")


def seeds() -> dict[str, list[bytes]]:
    """Every conformance case (without the checker's `name` and `expect`), and one question
    of each kind on a shipped map and on an inline map."""
    cases: list[object] = []
    for path in sorted(SHARED.glob("*.json")):
        data = json.loads(path.read_text("utf-8"))
        for case in data if isinstance(data, list) else data.get("cases", []):
            if isinstance(case, dict):
                cases.append({k: v for k, v in case.items() if k not in ("name", "expect")})
    grid = "+-+-+-+\n|. .#|\n+ + +-+\n|. . .|\n+-+-+-+"
    pieces = [
        {"id": "A", "team": "x", "at": [0, 0]},
        {"id": "B", "team": "y", "at": [2, 1], "standing": False},
        {"id": "T", "team": "y", "at": [1, 1], "kind": "token", "defense": 1},
    ]
    for board in ("urzari-jungle", {"width": 3, "height": 2, "grid": grid}):
        for op, fields in (
            ("can_see", {"viewer": "A", "square": [2, 1]}),
            ("visible_squares", {"viewer": "A"}),
            ("adjacent_squares", {"viewer": "A"}),
            ("distance", {"from": [0, 0], "to": [2, 1]}),
            ("move_destinations", {"piece": "A", "steps": 2}),
            ("push_destinations", {"piece": "B", "away_from": [-1, 0], "steps": 2}),
            ("pull_destinations", {"piece": "B", "puller": "A", "steps": 2}),
            ("challenge_targets", {"challenger": "A", "range": 3}),
        ):
            cases.append({"map": board, "pieces": pieces, "query": {"op": op, **fields}})
    cases.append(
        {
            "query": {
                "op": "challenge_odds",
                "attack_dice": 3,
                "defense_dice": 2,
                "attack_extra": ["champion"],
            }
        }
    )
    found = [json.dumps(c).encode() for c in cases]
    found.append(json.dumps(cases[:5]).encode())
    return {"query_input": found}

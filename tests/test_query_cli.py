"""`funkoverse query` run as a command (spec/rules-query.md): answers, per-question
errors naming the field (exit 1), malformed JSON (exit 2), never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

OPEN_6x3 = {
    "width": 6,
    "height": 3,
    "grid": "+-+-+-+-+-+-+\n|. . . . . .|\n+           +\n|. . . . . .|\n"
    "+           +\n|. . . . . .|\n+-+-+-+-+-+-+",
}
BLOCKED_3x1 = {"width": 3, "height": 1, "grid": "+-+-+-+\n|.|#|.|\n+-+-+-+"}
PIECES = [
    {"id": "A", "team": "dark", "at": [0, 1]},
    {"id": "X", "team": "light", "kind": "basic", "at": [2, 1]},
    {"id": "B", "team": "dark", "at": [4, 1]},
]


def run(stdin: str) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "funkoverse", "query"],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "Traceback" not in proc.stderr
    return proc


def ask(case: Any) -> tuple[int, Any]:
    proc = run(json.dumps(case))
    return proc.returncode, json.loads(proc.stdout)


def test_one_object_in_one_answer_out() -> None:
    """Rule 2 through the command: the rival basic character blocks A's view of B."""
    code, out = ask(
        {
            "map": OPEN_6x3,
            "pieces": PIECES,
            "query": {"op": "can_see", "viewer": "A", "square": [4, 1]},
        }
    )
    assert (code, out) == (0, {"answer": False})


def test_an_array_in_an_array_out_in_order_errors_in_place() -> None:
    cases = [
        {
            "map": OPEN_6x3,
            "pieces": PIECES,
            "query": {"op": "can_see", "viewer": "A", "square": [2, 1]},
        },
        {"query": {"op": "distance", "from": [0, 0], "to": [3, 5]}},
        {"map": OPEN_6x3, "pieces": PIECES, "query": {"op": "nope"}},
        {
            "map": OPEN_6x3,
            "pieces": PIECES,
            "query": {"op": "move_destinations", "piece": "A", "steps": 1},
        },
        {"map": "proving-grounds", "query": {"op": "distance", "from": [0, 0], "to": [9, 9]}},
    ]
    code, out = ask(cases)
    assert code == 1
    assert out[0] == {"answer": True}
    assert out[1] == {"answer": 5}
    assert "query.op" in out[2]["error"]
    assert out[3] == {"answer": [[0, 0], [0, 2], [1, 0], [1, 1], [1, 2]]}
    assert out[4] == {"answer": 9}


def test_challenge_targets_and_visible_squares_answer_shapes() -> None:
    code, out = ask(
        [
            {
                "map": OPEN_6x3,
                "pieces": PIECES,
                "query": {"op": "challenge_targets", "challenger": "A", "range": 4},
            },
            {"map": OPEN_6x3, "pieces": PIECES, "query": {"op": "visible_squares", "viewer": "X"}},
        ]
    )
    assert code == 0
    assert out[0] == {"answer": ["X"]}
    assert [0, 0] in out[1]["answer"] and out[1]["answer"] == sorted(out[1]["answer"])


def test_malformed_json_is_exit_2_with_one_line() -> None:
    for text in ('{"query": ', "not json", "", "42"):
        proc = run(text)
        assert proc.returncode == 2, text
        assert proc.stdout == ""
        assert len(proc.stderr.strip().splitlines()) == 1
        assert proc.stderr.startswith("funkoverse query: ")


BAD_CASES = [
    ("unknown op", {"map": OPEN_6x3, "pieces": PIECES, "query": {"op": "fly"}}, "query.op"),
    (
        "unknown map",
        {
            "map": "no-such-map",
            "pieces": [],
            "query": {"op": "distance", "from": [0, 0], "to": [1, 1]},
        },
        "map:",
    ),
    (
        "unknown piece id",
        {
            "map": OPEN_6x3,
            "pieces": PIECES,
            "query": {"op": "can_see", "viewer": "Q", "square": [0, 0]},
        },
        "query.viewer",
    ),
    (
        "out-of-board square",
        {
            "map": OPEN_6x3,
            "pieces": PIECES,
            "query": {"op": "can_see", "viewer": "A", "square": [6, 0]},
        },
        "query.square",
    ),
    (
        "piece outside the board",
        {
            "map": OPEN_6x3,
            "pieces": [{"id": "A", "team": "dark", "at": [0, 3]}],
            "query": {"op": "visible_squares", "viewer": "A"},
        },
        "pieces[0].at",
    ),
    (
        "piece on a blocked square",
        {
            "map": BLOCKED_3x1,
            "pieces": [{"id": "A", "team": "dark", "at": [1, 0]}],
            "query": {"op": "distance", "from": [0, 0], "to": [2, 0]},
        },
        "pieces[0].at",
    ),
    (
        "two blocking pieces in one square",
        {
            "map": OPEN_6x3,
            "pieces": [
                {"id": "A", "team": "dark", "at": [0, 1]},
                {"id": "M", "team": "light", "kind": "minion", "at": [0, 1]},
            ],
            "query": {"op": "visible_squares", "viewer": "A"},
        },
        "pieces[1].at",
    ),
    (
        "standing false on a token",
        {
            "map": OPEN_6x3,
            "pieces": [*PIECES, {"id": "T", "kind": "token", "at": [1, 1], "standing": False}],
            "query": {"op": "visible_squares", "viewer": "A"},
        },
        "pieces[3].standing",
    ),
    (
        "broken map frame",
        {
            "map": {
                **OPEN_6x3,
                "grid": OPEN_6x3["grid"].replace("|. . . . . .|\n+ ", "|. . . . . . \n+ "),
            },  # type: ignore[attr-defined]
            "pieces": PIECES,
            "query": {"op": "visible_squares", "viewer": "A"},
        },
        "map.grid:2:13: broken frame",
    ),
    (
        "moving a token",
        {
            "map": OPEN_6x3,
            "pieces": [*PIECES, {"id": "T", "team": "dark", "kind": "token", "at": [1, 1]}],
            "query": {"op": "move_destinations", "piece": "T", "steps": 1},
        },
        "query.piece",
    ),
    (
        "a missing team",
        {
            "map": OPEN_6x3,
            "pieces": [{"id": "A", "at": [0, 0]}],
            "query": {"op": "visible_squares", "viewer": "A"},
        },
        "pieces[0].team",
    ),
    (
        "unknown extra die",
        {
            "query": {
                "op": "challenge_odds",
                "attack_dice": 1,
                "defense_dice": 1,
                "defense_extra": ["gold"],
            }
        },
        "query.defense_extra[0]",
    ),
]


@pytest.fixture(scope="module")
def bad_answers() -> tuple[int, Any]:
    """All the bad cases in one run of the command (an array in, an array out)."""
    return ask([case for _, case, _ in BAD_CASES])


@pytest.mark.parametrize("n", range(len(BAD_CASES)), ids=[c[0] for c in BAD_CASES])
def test_a_question_that_cannot_be_answered_names_the_field(
    n: int, bad_answers: tuple[int, Any]
) -> None:
    code, out = bad_answers
    assert code == 1
    what, _, names = BAD_CASES[n]
    assert set(out[n]) == {"error"}, what
    assert names in out[n]["error"], out[n]["error"]
    assert "\n" not in out[n]["error"]


def test_one_bad_question_alone_is_exit_1() -> None:
    code, out = ask(BAD_CASES[0][1])
    assert code == 1 and "query.op" in out["error"]


def test_every_query_is_validated_whole() -> None:
    """rules-query.md: a bad piece is an error even where the question would not need it."""
    code, out = ask(
        {
            "map": OPEN_6x3,
            "pieces": [
                *PIECES,
                {"id": "M", "team": "light", "kind": "marker", "at": [1, 1], "standing": False},
            ],
            "query": {"op": "distance", "from": [0, 0], "to": [1, 1]},
        }
    )
    assert code == 1 and "pieces[3].standing" in out["error"]


def test_challenge_odds_follow_the_dice_data() -> None:
    """rules-query.md Dice: 1 die against 1 die is 7/18 = 38.9%."""
    code, out = ask({"query": {"op": "challenge_odds", "attack_dice": 1, "defense_dice": 1}})
    assert (code, out) == (0, {"answer": {"p": "7/18", "percent": 38.9}})


def test_a_pieces_unknown_field_is_named_on_one_line() -> None:
    """Found by fuzzing: the unknown field's name was written as it came, newlines and all,
    so the error ran over several lines."""
    case = {
        "map": "urzari-jungle",
        "pieces": [{"id": "A", "team": "x", "at": [0, 0], "kind\n+-+": 1}],
        "query": {"op": "visible_squares", "viewer": "A"},
    }
    assert ask(case) == (
        1,
        {
            "error": 'pieces[0]: unknown field "kind\\n+-+" (a piece has: at, character, '
            "defense, id, kind, standing, team)"
        },
    )


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            {"op": "challenge_odds", "attack_dice": 5, "defense_dice": 2**63},
            "query.defense_dice: at most 20 dice a side, defense_extra included (as funkoverse "
            "odds), not 9223372036854775808",
        ),
        (
            {"op": "challenge_odds", "attack_dice": 500, "defense_dice": 1},
            "query.attack_dice: at most 20 dice a side, attack_extra included (as funkoverse "
            "odds), not 500",
        ),
        (
            {
                "op": "challenge_odds",
                "attack_dice": 1,
                "defense_dice": 1,
                "attack_extra": ["blood"] * 20,
            },
            "query.attack_dice: at most 20 dice a side, attack_extra included (as funkoverse "
            "odds), not 21",
        ),
    ],
)
def test_challenge_odds_takes_as_many_dice_as_funkoverse_odds(
    question: dict[str, Any], said: str
) -> None:
    """Found by fuzzing: 2**63 dice raised OverflowError and 500 a RecursionError ("internal
    error"), and a million would have run the machine out of memory."""
    assert ask({"query": question}) == (1, {"error": said})


def test_a_piece_kind_that_is_not_text_is_refused_naming_the_field() -> None:
    """Found by fuzzing: a piece's kind given as an object raised TypeError ("internal
    error")."""
    case = {
        "map": "urzari-jungle",
        "pieces": [{"id": "A", "team": "x", "at": [0, 0], "kind": {"a": [1] * 40}}],
        "query": {"op": "visible_squares", "viewer": "A"},
    }
    assert ask(case) == (
        1,
        {
            "error": 'pieces[0].kind: unknown kind {"a": [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, '
            "1, 1, 1, 1,... (one of character, basic, minion, companion, bonus_objective, token, "
            "marker)"
        },
    )

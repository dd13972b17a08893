"""Dice: the rulebook's odds, the conformance cases, rolls and the dice data.

Rules checked: "Resolving a Challenge" (every rulebook) and the "Challenger Win
Probabilities" table at the end of the Space Jam: A New Legacy rulebook.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from funkoverse.content.dice import SHIPPED_DICE_DIR, load_dice, load_die_file
from funkoverse.errors import UserError
from funkoverse.rules.core.dice import (
    ChallengeRoll,
    DieSpec,
    Face,
    Role,
    challenger_successes,
    defender_successes,
    fraction_text,
    odds_table,
    percent,
    resolve,
    roll,
    roll_with_outcome,
    success_distribution,
    win_probability,
)

DICE = load_dice()
STD = DICE["standard"]
CHAMPION = DICE["champion"]
BLOOD = DICE["blood"]

SHARED = Path(os.environ.get("FUNKOVERSE_SHARED", Path(__file__).resolve().parents[2] / "shared"))
CONFORMANCE_DICE = SHARED / "conformance" / "dice.json"

# The printed table, whole percent. Its header says "challenger dice (rows)" but
# the rows are the defender's dice and the columns the challenger's (1 against 1
# is 39%, and 2 challenger's dice against 1 defender's die is 66%, not 24%).
# The rulebook prints four rows, the last one cut short after three cells.
RULEBOOK_TABLE: dict[int, list[int]] = {
    1: [39, 66, 81, 89, 94, 97],
    2: [24, 48, 65, 77, 86, 91],
    3: [15, 34, 51, 65, 76, 84],
    4: [10, 24, 39],
}
RULEBOOK_CELLS = [
    (defense, attack, pct)
    for defense, row in RULEBOOK_TABLE.items()
    for attack, pct in enumerate(row, start=1)
]


def brute_force_win(attack: list[DieSpec], defense: list[DieSpec]) -> Fraction:
    """Oracle: enumerate every face of every die."""
    wins = total = 0
    for a_faces in product(*(d.faces for d in attack)):
        a = sum(challenger_successes(f) for f in a_faces)
        for d_faces in product(*(d.faces for d in defense)):
            total += 1
            wins += a > sum(defender_successes(f) for f in d_faces)
    return Fraction(wins, total)


# --- the rulebook's table and the conformance cases ----------------------------------


def test_rulebook_table_has_all_printed_cells() -> None:
    assert len(RULEBOOK_CELLS) == 21


@pytest.mark.parametrize(("defense", "attack", "pct"), RULEBOOK_CELLS)
def test_challenger_win_probabilities_table(defense: int, attack: int, pct: int) -> None:
    p = win_probability([STD] * attack, [STD] * defense)
    assert percent(p, 0) == pct


def _conformance_cases() -> list[dict[str, object]]:
    if not CONFORMANCE_DICE.exists():
        return []
    cases: list[dict[str, object]] = json.loads(CONFORMANCE_DICE.read_text())
    return cases


def test_conformance_file_has_cases() -> None:
    if not CONFORMANCE_DICE.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CONFORMANCE_DICE} not found: ../shared must sit beside this checkout")
        pytest.skip(f"{CONFORMANCE_DICE} not found")
    cases = _conformance_cases()
    assert len(cases) >= 40
    assert all(c["query"]["op"] == "challenge_odds" for c in cases)  # type: ignore[index]


@pytest.mark.parametrize("case", _conformance_cases(), ids=lambda c: str(c.get("name", "case")))
def test_conformance_dice(case: dict[str, object]) -> None:
    query = case["query"]
    assert isinstance(query, dict)
    attack = [STD] * query["attack_dice"] + [DICE[n] for n in query.get("attack_extra", [])]
    defense = [STD] * query["defense_dice"] + [DICE[n] for n in query.get("defense_extra", [])]
    p = win_probability(attack, defense)
    assert {"p": fraction_text(p), "percent": percent(p)} == case["expect"]


def test_one_die_against_defense_zero_is_two_thirds() -> None:
    assert win_probability([STD], []) == Fraction(2, 3)


def test_one_die_against_one_die() -> None:
    assert win_probability([STD], [STD]) == Fraction(7, 18)


def test_tie_goes_to_the_defender() -> None:
    # Nothing against nothing is a 0-0 tie: the challenger never wins.
    assert win_probability([], []) == 0
    assert win_probability([], [STD]) == 0


def test_odds_table_rows_are_defender_dice_columns_challenger_dice() -> None:
    table = odds_table(6, 4, standard=STD)
    assert len(table) == 5  # defender's dice 0..4
    assert all(len(row) == 6 for row in table)  # challenger's dice 1..6
    assert table[0][0] == Fraction(2, 3)  # 1 challenger's die, defense 0
    assert table[1][0] == Fraction(7, 18)
    assert table[1][1] == win_probability([STD] * 2, [STD])  # 66%: 2 against 1
    assert table[2][0] == win_probability([STD], [STD] * 2)  # 24%: 1 against 2


# --- exactness and pools of mixed dice -----------------------------------------------


@pytest.mark.parametrize(
    ("attack", "defense"),
    [
        ([STD], [STD]),
        ([STD, STD], [STD]),
        ([STD, CHAMPION], [STD, STD]),
        ([STD], [STD, CHAMPION]),
        ([CHAMPION], [CHAMPION]),
        ([STD, STD, BLOOD], [STD, CHAMPION]),
        ([STD, STD, STD], []),
    ],
)
def test_win_probability_matches_enumeration(attack: list[DieSpec], defense: list[DieSpec]) -> None:
    assert win_probability(attack, defense) == brute_force_win(attack, defense)


def test_champion_die_on_the_defenders_side_counts_shields_and_triples() -> None:
    assert success_distribution([CHAMPION], "defender") == {
        1: Fraction(4, 6),
        3: Fraction(2, 6),
    }
    assert win_probability([STD] * 2, [STD, CHAMPION]) < win_probability([STD] * 2, [STD])


def test_champion_die_on_the_challengers_side_counts_only_triples() -> None:
    # No bursts on the Champion die: its shields score nothing for a challenger.
    assert success_distribution([CHAMPION], "challenger") == {
        0: Fraction(4, 6),
        3: Fraction(2, 6),
    }
    assert win_probability([STD, CHAMPION], [STD]) > win_probability([STD], [STD])


def test_blood_die_is_a_standard_die_for_now() -> None:
    assert sorted(BLOOD.faces) == sorted(STD.faces)
    assert win_probability([STD, BLOOD], [STD]) == win_probability([STD, STD], [STD])


@pytest.mark.parametrize("role", ["challenger", "defender"])
@pytest.mark.parametrize(
    "pool", [[], [STD], [STD] * 5, [STD, CHAMPION, BLOOD], [CHAMPION] * 3, [STD] * 20]
)
def test_distribution_sums_to_one(pool: list[DieSpec], role: Role) -> None:
    dist = success_distribution(pool, role)
    assert sum(dist.values()) == 1
    assert all(p > 0 for p in dist.values())


def test_order_of_dice_does_not_matter() -> None:
    assert win_probability([CHAMPION, STD], [STD]) == win_probability([STD, CHAMPION], [STD])
    assert success_distribution([CHAMPION, STD], "defender") == success_distribution(
        [STD, CHAMPION], "defender"
    )


def test_win_probability_is_cached() -> None:
    first = win_probability([STD] * 5, [STD] * 6)
    assert win_probability([STD] * 5, [STD] * 6) is first


def test_distribution_is_read_only() -> None:
    dist = success_distribution([STD], "challenger")
    with pytest.raises(TypeError):
        dist[0] = Fraction(1)  # type: ignore[index]


# --- faces and resolving ---------------------------------------------------------------


def test_successes_per_face() -> None:
    assert [challenger_successes(f) for f in Face] == [1, 0, 3, 0]
    assert [defender_successes(f) for f in Face] == [0, 1, 3, 0]


def test_resolve_counts_both_sides() -> None:
    # "Resolving a Challenge", example: challenger 3 successes, defender 2: a win.
    result = resolve([Face.BURST, Face.BURST, Face.BURST], [Face.SHIELD, Face.SHIELD])
    assert result == ChallengeRoll(
        attack=(Face.BURST,) * 3,
        defense=(Face.SHIELD,) * 2,
        attack_successes=3,
        defense_successes=2,
    )
    assert result.challenger_wins


def test_resolve_symbols_score_only_for_their_side() -> None:
    result = resolve([Face.SHIELD, Face.TRIPLE], [Face.BURST, Face.TRIPLE])
    assert (result.attack_successes, result.defense_successes) == (3, 3)
    assert not result.challenger_wins  # a tie loses


def test_die_must_have_six_faces() -> None:
    with pytest.raises(ValueError, match="6 faces"):
        DieSpec(id="x", name="X", faces=(Face.BURST,) * 5, source="test")


# --- rolling ---------------------------------------------------------------------------


def test_roll_is_reproducible_with_a_seed() -> None:
    pool = [STD, STD, CHAMPION]
    first = [roll(pool, random.Random(7)) for _ in range(3)]
    again = [roll(pool, random.Random(7)) for _ in range(3)]
    assert first == again
    rng = random.Random(11)
    sequence = [roll(pool, rng) for _ in range(50)]
    rng = random.Random(11)
    assert [roll(pool, rng) for _ in range(50)] == sequence


def test_roll_faces_come_from_each_die() -> None:
    rng = random.Random(3)
    pool = [STD, CHAMPION, BLOOD]
    for _ in range(200):
        faces = roll(pool, rng)
        assert len(faces) == 3
        assert all(f in die.faces for f, die in zip(faces, pool, strict=True))


@pytest.mark.parametrize("role", ["challenger", "defender"])
def test_roll_frequencies_match_exact_distribution(role: Role) -> None:
    pool = [STD, STD, CHAMPION]
    rng = random.Random(2024)
    n = 20_000
    counts: Counter[int] = Counter()
    for _ in range(n):
        faces = roll(pool, rng)
        if role == "challenger":
            counts[sum(challenger_successes(f) for f in faces)] += 1
        else:
            counts[sum(defender_successes(f) for f in faces)] += 1
    exact = success_distribution(pool, role)
    assert set(counts) <= set(exact)
    for s, p in exact.items():
        assert abs(counts[s] / n - float(p)) < 0.02, (s, counts[s] / n, float(p))


@pytest.mark.parametrize("wins", [True, False])
@pytest.mark.parametrize(
    ("attack", "defense"),
    [([STD], [STD]), ([STD] * 3, [STD, CHAMPION]), ([CHAMPION], [STD] * 4), ([STD], [])],
)
def test_roll_with_outcome_agrees_with_the_outcome(
    attack: list[DieSpec], defense: list[DieSpec], wins: bool
) -> None:
    rng = random.Random(99)
    for _ in range(300):
        result = roll_with_outcome(attack, defense, wins, rng)
        assert result.challenger_wins is wins
        assert result == resolve(result.attack, result.defense)
        assert all(f in d.faces for f, d in zip(result.attack, attack, strict=True))
        assert all(f in d.faces for f, d in zip(result.defense, defense, strict=True))


def test_roll_with_outcome_follows_the_conditional_distribution() -> None:
    # Given a win, the challenger's totals follow P(a | win) = P(a) P(D < a) / P(win).
    attack, defense = [STD, STD], [STD, CHAMPION]
    a_dist = success_distribution(attack, "challenger")
    d_dist = success_distribution(defense, "defender")
    p_win = win_probability(attack, defense)
    expected = {
        a: pa * sum(pd for d, pd in d_dist.items() if d < a) / p_win for a, pa in a_dist.items()
    }
    rng = random.Random(5)
    n = 20_000
    counts = Counter(
        roll_with_outcome(attack, defense, True, rng).attack_successes for _ in range(n)
    )
    for a, p in expected.items():
        assert abs(counts[a] / n - float(p)) < 0.02, (a, counts[a] / n, float(p))
    # And the faces themselves: the first die of a 2-die pool, given a win.
    first = Counter(roll_with_outcome(attack, defense, True, rng).attack[0] for _ in range(n))
    wins_with = {
        face: sum(
            1
            for second in STD.faces
            for d_faces in product(*(d.faces for d in defense))
            if challenger_successes(face) + challenger_successes(second)
            > sum(defender_successes(f) for f in d_faces)
        )
        for face in set(STD.faces)
    }
    per_face_total = {face: STD.faces.count(face) * w for face, w in wins_with.items()}
    total = sum(per_face_total.values())
    for face, w in per_face_total.items():
        assert abs(first[face] / n - w / total) < 0.02


def test_roll_with_outcome_is_reproducible() -> None:
    a = [roll_with_outcome([STD] * 2, [STD], False, random.Random(1)) for _ in range(5)]
    b = [roll_with_outcome([STD] * 2, [STD], False, random.Random(1)) for _ in range(5)]
    assert a == b


def test_roll_with_outcome_refuses_an_impossible_outcome() -> None:
    with pytest.raises(ValueError, match="cannot win"):
        roll_with_outcome([], [STD], True, random.Random(0))


# --- formatting ---------------------------------------------------------------------------


def test_fraction_text_and_percent() -> None:
    assert fraction_text(Fraction(0)) == "0/1"
    assert fraction_text(Fraction(1)) == "1/1"
    assert fraction_text(Fraction(14, 36)) == "7/18"
    assert percent(Fraction(7, 18)) == 38.9
    assert percent(Fraction(1, 16)) == 6.3  # 6.25: half rounds up
    assert percent(Fraction(1, 3), 0) == 33


# --- the dice data and its loader ----------------------------------------------------------


def test_shipped_dice() -> None:
    assert set(DICE) == {"standard", "champion", "blood"}
    assert Counter(STD.faces) == {Face.BURST: 3, Face.SHIELD: 2, Face.TRIPLE: 1}
    assert Counter(CHAMPION.faces) == {Face.SHIELD: 4, Face.TRIPLE: 2}
    for die in DICE.values():
        assert len(die.faces) == 6
        assert die.source  # every die says where its faces come from
    assert load_dice() is DICE  # cached
    assert load_dice(SHIPPED_DICE_DIR) is DICE


def test_standard_faces_are_the_only_mix_reproducing_the_table() -> None:
    from itertools import combinations_with_replacement

    matches = []
    for faces in combinations_with_replacement(list(Face), 6):
        die = DieSpec(id="x", name="x", faces=tuple(faces), source="test")
        if all(
            percent(win_probability([die] * a, [die] * d), 0) == pct for d, a, pct in RULEBOOK_CELLS
        ):
            matches.append(Counter(faces))
    assert matches == [Counter(STD.faces)]


def _write(tmp_path: Path, name: str, body: str) -> Path:
    folder = tmp_path / "dice"
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(body, encoding="utf-8")
    return path


GOOD = """\
id = "test"
name = "Test die"
faces = ["burst", "burst", "shield", "shield", "triple_exclamation", "blank"]
source = "made up for a test"
"""


def _load_error(path: Path) -> str:
    with pytest.raises(UserError) as info:
        load_die_file(path)
    message = str(info.value)
    assert "\n" not in message
    return message


def test_loader_reads_a_good_file(tmp_path: Path) -> None:
    die = load_die_file(_write(tmp_path, "test.toml", GOOD))
    assert die.id == "test"
    assert die.faces[-1] is Face.BLANK
    assert load_dice(tmp_path / "dice") == {"test": die}


def test_loader_five_faces(tmp_path: Path) -> None:
    body = GOOD.replace(', "blank"]', "]")
    message = _load_error(_write(tmp_path, "champion.toml", body))
    assert message.startswith("dice/champion.toml: field 'faces': expected 6 faces, got 5")


def test_loader_unknown_face(tmp_path: Path) -> None:
    body = GOOD.replace('"blank"', '"sword"')
    message = _load_error(_write(tmp_path, "test.toml", body))
    assert message.startswith("dice/test.toml: field 'faces':")
    assert "'sword'" in message
    for name in ("burst", "shield", "triple_exclamation", "blank"):
        assert name in message


@pytest.mark.parametrize("field", ["id", "name", "faces", "source"])
def test_loader_missing_field(tmp_path: Path, field: str) -> None:
    body = "\n".join(line for line in GOOD.splitlines() if not line.startswith(field))
    message = _load_error(_write(tmp_path, "test.toml", body))
    assert message.startswith(f"dice/test.toml: field '{field}': missing")


def test_loader_unknown_field(tmp_path: Path) -> None:
    message = _load_error(_write(tmp_path, "test.toml", GOOD + 'colour = "red"\n'))
    assert message.startswith("dice/test.toml: field 'colour': unknown field")


def test_loader_wrong_type(tmp_path: Path) -> None:
    message = _load_error(_write(tmp_path, "test.toml", GOOD.replace('"Test die"', "3")))
    assert message.startswith("dice/test.toml: field 'name': expected a non-empty string")


def test_loader_bad_toml(tmp_path: Path) -> None:
    message = _load_error(_write(tmp_path, "test.toml", GOOD + "faces = [\n"))
    assert message.startswith("dice/test.toml: not valid TOML")


def test_loader_duplicate_id(tmp_path: Path) -> None:
    _write(tmp_path, "a.toml", GOOD)
    _write(tmp_path, "b.toml", GOOD)
    with pytest.raises(UserError, match=r"dice/b.toml: field 'id': 'test' is already used"):
        load_dice(tmp_path / "dice")

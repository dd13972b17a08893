"""Dice: faces, successes, exact odds and rolls.

Rulebook, "Resolving a Challenge": the challenger gets 1 success for each burst
and 3 for each triple-exclamation; the defender 1 for each shield and 3 for each
triple-exclamation; the challenger wins with strictly more successes.

Which faces a die has is content data (``content/data/dice/*.toml``); this module
only counts. Every probability here is an exact :class:`~fractions.Fraction`.
Distributions are counted as whole numbers of equally likely face sequences, so
the odds are cached once per pool and the conditional rolls are sampled exactly.

Pure: no I/O, no clock, no global random (a :class:`random.Random` is passed in).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from operator import attrgetter
from types import MappingProxyType
from typing import Literal, TypeAlias

__all__ = [
    "FACES_PER_DIE",
    "ChallengeRoll",
    "DieSpec",
    "Face",
    "Role",
    "challenger_successes",
    "defender_successes",
    "fraction_text",
    "odds_table",
    "percent",
    "resolve",
    "roll",
    "roll_with_outcome",
    "success_distribution",
    "successes",
    "win_probability",
]

Role = Literal["challenger", "defender"]

FACES_PER_DIE = 6
"""Every Funkoverse die has six faces."""


class Face(StrEnum):
    """A die face. The rulebooks name three symbols; ``BLANK`` is allowed for data."""

    BURST = "burst"
    SHIELD = "shield"
    TRIPLE = "triple_exclamation"
    BLANK = "blank"


_CHALLENGER_SUCCESSES: Mapping[Face, int] = MappingProxyType(
    {Face.BURST: 1, Face.SHIELD: 0, Face.TRIPLE: 3, Face.BLANK: 0}
)
_DEFENDER_SUCCESSES: Mapping[Face, int] = MappingProxyType(
    {Face.BURST: 0, Face.SHIELD: 1, Face.TRIPLE: 3, Face.BLANK: 0}
)


def challenger_successes(face: Face) -> int:
    """Successes a face scores for the challenger: 1 a burst, 3 a triple-exclamation.

    ("Resolving a Challenge")
    """
    return _CHALLENGER_SUCCESSES[face]


def defender_successes(face: Face) -> int:
    """Successes a face scores for the defender: 1 a shield, 3 a triple-exclamation.

    ("Resolving a Challenge")
    """
    return _DEFENDER_SUCCESSES[face]


def successes(face: Face, role: Role) -> int:
    """Successes a face scores for whichever side rolled it."""
    return challenger_successes(face) if role == "challenger" else defender_successes(face)


# Each distinct way a die scores (for the challenger, for the defender), numbered.
_SCORINGS: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}


@dataclass(frozen=True)
class DieSpec:
    """One kind of die: its six faces and a note of where they come from.

    An extra die (Champion, Blood) scores for whichever side rolls it: on the
    challenger's side its bursts and triple-exclamations count, on the
    defender's side its shields and triple-exclamations.
    """

    id: str
    name: str
    faces: tuple[Face, ...]
    source: str
    # What each face scores for each side, in face order; derived, not compared.
    _challenger_values: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _defender_values: tuple[int, ...] = field(init=False, repr=False, compare=False)
    # One small number per way of scoring: dice that score alike share it (the odds key).
    _scoring: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.faces, tuple):
            raise TypeError(f"die {self.id!r}: faces must be a tuple of Face")
        if len(self.faces) != FACES_PER_DIE:
            raise ValueError(
                f"die {self.id!r}: expected {FACES_PER_DIE} faces, got {len(self.faces)}"
            )
        for face in self.faces:
            if not isinstance(face, Face):
                raise TypeError(f"die {self.id!r}: {face!r} is not a Face")
        object.__setattr__(
            self, "_challenger_values", tuple(challenger_successes(f) for f in self.faces)
        )
        object.__setattr__(
            self, "_defender_values", tuple(defender_successes(f) for f in self.faces)
        )
        scoring = (self._challenger_values, self._defender_values)
        object.__setattr__(self, "_scoring", _SCORINGS.setdefault(scoring, len(_SCORINGS)))

    def values(self, role: Role) -> tuple[int, ...]:
        """Successes of each face, in face order, for the side that rolls it."""
        return self._challenger_values if role == "challenger" else self._defender_values


# --- exact distributions ---------------------------------------------------------
#
# A pool is reduced to its "values key": for each die, the successes of its faces
# for the rolling side. Counting is on whole numbers: counts[s] is how many of the
# equally likely face sequences score s successes (every die's faces are equally
# likely, so every sequence of faces is).

_ValuesKey: TypeAlias = tuple[tuple[int, ...], ...]


_CHALLENGER_VALUES = attrgetter("_challenger_values")
_SCORING = attrgetter("_scoring")
_DEFENDER_VALUES = attrgetter("_defender_values")


def _values_key(pool: Sequence[DieSpec], role: Role) -> _ValuesKey:
    """The pool as an order-free key: dice with the same scoring are the same."""
    values = _CHALLENGER_VALUES if role == "challenger" else _DEFENDER_VALUES
    return tuple(sorted(map(values, pool)))


def _convolve(counts: tuple[int, ...], values: tuple[int, ...]) -> tuple[int, ...]:
    """Add one die (its face values) to a count distribution."""
    out = [0] * (len(counts) + max(values, default=0))
    for s, n in enumerate(counts):
        if n:
            for v in values:
                out[s + v] += n
    return tuple(out)


@lru_cache(maxsize=4096)
def _counts(key: _ValuesKey) -> tuple[int, ...]:
    """Number of face sequences giving each success total, index = successes."""
    if not key:
        return (1,)
    return _convolve(_counts(key[:-1]), key[-1])


@lru_cache(maxsize=4096)
def _distribution(key: _ValuesKey) -> Mapping[int, Fraction]:
    counts = _counts(key)
    total = sum(counts)
    return MappingProxyType({s: Fraction(n, total) for s, n in enumerate(counts) if n})


def success_distribution(pool: Sequence[DieSpec], role: Role) -> Mapping[int, Fraction]:
    """Exact chance of each number of successes when ``role`` rolls ``pool``.

    Only totals that can happen appear; the chances sum to 1. Cached per pool
    (order of dice does not matter); the mapping returned is read-only.
    """
    return _distribution(_values_key(pool, role))


@lru_cache(maxsize=16384)
def _win(attack_key: _ValuesKey, defense_key: _ValuesKey) -> Fraction:
    attack = _counts(attack_key)
    defense = _counts(defense_key)
    below = 0  # defense sequences scoring fewer than s successes
    wins = 0
    for s, n in enumerate(attack):
        if n:
            wins += n * below
        if s < len(defense):
            below += defense[s]
    return Fraction(wins, sum(attack) * sum(defense))


def win_probability(attack: Sequence[DieSpec], defense: Sequence[DieSpec]) -> Fraction:
    """Exact chance that the challenger rolling ``attack`` beats ``defense``.

    "If you have more successes than the opponent, your character wins the
    challenge" ("Resolving a Challenge"): a tie is a loss. Defense may be empty
    (0 dice, 0 successes). Cached per pair of pools.
    """
    key = (tuple(map(_SCORING, attack)), tuple(map(_SCORING, defense)))
    p = _WIN_BY_SCORING.get(key)
    if p is None:
        p = _win(_values_key(attack, "challenger"), _values_key(defense, "defender"))
        if len(_WIN_BY_SCORING) < _WIN_LOOKUPS:
            _WIN_BY_SCORING[key] = p
    return p


# The odds of a pair of pools in the order the dice were given: one dictionary lookup in
# play, where the same pools come back again and again (memoized, so still pure).
_WIN_LOOKUPS = 65_536
_WIN_BY_SCORING: dict[tuple[tuple[int, ...], tuple[int, ...]], Fraction] = {}


def odds_table(
    max_attack: int = 6, max_defense: int = 6, *, standard: DieSpec
) -> list[list[Fraction]]:
    """The "Challenger Win Probabilities" table for standard dice.

    ``table[d][a - 1]`` is the chance that ``a`` challenger's dice beat ``d``
    defender's dice: rows are the defender's dice 0..max_defense, columns the
    challenger's dice 1..max_attack. (The rulebook's rows are the defender's
    dice too, whatever its header says; it starts at 1 defender's die.)
    """
    if max_attack < 1 or max_defense < 0:
        raise ValueError("odds_table needs max_attack >= 1 and max_defense >= 0")
    return [
        [win_probability((standard,) * a, (standard,) * d) for a in range(1, max_attack + 1)]
        for d in range(max_defense + 1)
    ]


# --- formatting helpers shared by the query interface and the command line -------


def fraction_text(p: Fraction) -> str:
    """A probability as a reduced ``n/d`` (certainties as ``0/1`` and ``1/1``)."""
    return f"{p.numerator}/{p.denominator}"


def percent(p: Fraction, decimals: int = 1) -> float:
    """A probability as a percentage rounded half up to ``decimals`` places, exactly."""
    if decimals < 0:
        raise ValueError("decimals must be 0 or more")
    scale: int = 10**decimals
    shifted = p * 100 * scale + Fraction(1, 2)
    return (shifted.numerator // shifted.denominator) / scale


# --- rolling ------------------------------------------------------------------------


def roll(pool: Sequence[DieSpec], rng: random.Random) -> tuple[Face, ...]:
    """Roll each die of the pool once, in order, with the given generator."""
    return tuple(rng.choice(die.faces) for die in pool)


@dataclass(frozen=True)
class ChallengeRoll:
    """Both sides' faces and successes for one challenge ("Resolving a Challenge")."""

    attack: tuple[Face, ...]
    defense: tuple[Face, ...]
    attack_successes: int
    defense_successes: int

    @property
    def challenger_wins(self) -> bool:
        """The challenger wins only with strictly more successes; a tie loses."""
        return self.attack_successes > self.defense_successes


def resolve(attack_faces: Sequence[Face], defense_faces: Sequence[Face]) -> ChallengeRoll:
    """Count successes for rolled faces: challenger's faces first, then defender's."""
    attack = tuple(attack_faces)
    defense = tuple(defense_faces)
    return ChallengeRoll(
        attack=attack,
        defense=defense,
        attack_successes=sum(challenger_successes(f) for f in attack),
        defense_successes=sum(defender_successes(f) for f in defense),
    )


@lru_cache(maxsize=4096)
def _suffix_counts(ordered: _ValuesKey) -> tuple[tuple[int, ...], ...]:
    """``result[i]``: counts for dice ``i..`` of an ordered pool; ``result[n] == (1,)``."""
    suffixes: list[tuple[int, ...]] = [(1,)]
    for values in reversed(ordered):
        suffixes.append(_convolve(suffixes[-1], values))
    suffixes.reverse()
    return tuple(suffixes)


def _pick(weights: Sequence[int], rng: random.Random) -> int:
    """An index drawn with chance proportional to whole-number weights, exactly."""
    r = rng.randrange(sum(weights))
    for i, w in enumerate(weights):
        if r < w:
            return i
        r -= w
    raise AssertionError("unreachable: r < sum(weights)")


def _faces_with_total(
    pool: Sequence[DieSpec], role: Role, total: int, rng: random.Random
) -> tuple[Face, ...]:
    """Faces for the pool drawn uniformly among the face sequences scoring ``total``."""
    ordered = tuple(die.values(role) for die in pool)
    suffix = _suffix_counts(ordered)
    faces: list[Face] = []
    remaining = total
    for i, die in enumerate(pool):
        rest = suffix[i + 1]
        weights = [rest[remaining - v] if 0 <= remaining - v < len(rest) else 0 for v in ordered[i]]
        k = _pick(weights, rng)
        faces.append(die.faces[k])
        remaining -= ordered[i][k]
    return tuple(faces)


def roll_with_outcome(
    attack: Sequence[DieSpec],
    defense: Sequence[DieSpec],
    challenger_wins: bool,
    rng: random.Random,
) -> ChallengeRoll:
    """Faces for a challenge whose outcome is already decided (a chance outcome).

    Drawn exactly from the distribution of rolls given that outcome, so the dice
    shown are as plausible as real ones. Raises ``ValueError`` if the outcome is
    impossible with these pools (e.g. a win with no challenger's dice).
    """
    a_counts = _counts(_values_key(attack, "challenger"))
    d_counts = _counts(_values_key(defense, "defender"))
    # Weight of each challenger's total a: count(a) * number of defender sequences
    # that give this outcome against it (fewer than a to win, at least a to lose).
    d_total = sum(d_counts)
    below = [sum(d_counts[:a]) for a in range(len(a_counts))]
    a_weights = [
        n * (below[a] if challenger_wins else d_total - below[a]) for a, n in enumerate(a_counts)
    ]
    if sum(a_weights) == 0:
        outcome = "win" if challenger_wins else "lose"
        raise ValueError(f"the challenger cannot {outcome} with these dice")
    a_total = _pick(a_weights, rng)
    d_weights = [n if (a_total > d) == challenger_wins else 0 for d, n in enumerate(d_counts)]
    d_total_successes = _pick(d_weights, rng)
    return resolve(
        _faces_with_total(attack, "challenger", a_total, rng),
        _faces_with_total(defense, "defender", d_total_successes, rng),
    )

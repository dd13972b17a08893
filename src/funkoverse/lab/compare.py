"""Two results stores side by side (`funkoverse report A.db --compare B.db`): what changed
from B to A, and whether each change is more than noise.

A rating's change is the difference of the two fits' ratings, each centred on the cards both
stores have, with the two intervals' variances added; a rate's change (the first player's,
unfinished games', each team's) is a difference of proportions. A change is beyond noise
when its p-value, Holm-corrected over the changes of its kind (every card, every team), is
under 0.05.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from funkoverse.lab.model import ELO, KINDS, Fit, holm
from funkoverse.lab.stats import Game, Rate, first_player, team_rates

Z95 = 1.959963984540054
LEVEL = 0.05


@dataclass
class Change:
    """One figure in both stores: `this` (A) against `other` (B)."""

    what: str  # "rating" (Elo), "first player", "unfinished", "team"
    item: str  # the card or team, "" for the first player and unfinished games
    this: float
    other: float
    se: float  # of the difference
    p: float
    p_holm: float = 1.0

    @property
    def change(self) -> float:
        return self.this - self.other

    @property
    def ci(self) -> tuple[float, float]:
        return self.change - Z95 * self.se, self.change + Z95 * self.se

    @property
    def beyond_noise(self) -> bool:
        return self.p_holm < LEVEL


def _p(diff: float, se: float) -> float:
    if se <= 0:
        return 1.0 if diff == 0 else 0.0
    return math.erfc(abs(diff) / se / math.sqrt(2))


def _rate_change(what: str, item: str, a: Rate, b: Rate) -> Change:
    se = math.sqrt(
        a.rate * (1 - a.rate) / max(1, a.games) + b.rate * (1 - b.rate) / max(1, b.games)
    )
    return Change(what, item, a.rate, b.rate, se, _p(a.rate - b.rate, se))


def _common(fit: Fit, cards: Sequence[tuple[str, str]]) -> tuple[list[float], list[float]]:
    """The ratings of `cards` re-centred on them (in Elo), and their variances."""
    import numpy as np

    idx = [fit.columns.index(c) for c in cards]
    centre = np.eye(len(idx)) - 1.0 / len(idx)
    theta = centre @ fit.theta[idx]
    cov = centre @ fit.cov[np.ix_(idx, idx)] @ centre.T
    return [ELO * float(t) for t in theta], [ELO**2 * float(v) for v in np.diag(cov)]


def compare(this: Sequence[Game], other: Sequence[Game], fit_a: Fit, fit_b: Fit) -> list[Change]:
    """Every figure A and B both have, with its change and Holm-corrected p-value."""
    out: list[Change] = []
    ratings: list[Change] = []
    for kind in KINDS:
        both = [c for c in fit_a.columns if c[0] == kind and c in fit_b.columns]
        if len(both) < 2:
            continue
        ta, va = _common(fit_a, both)
        tb, vb = _common(fit_b, both)
        for (_, card), a, b, sa, sb in zip(both, ta, tb, va, vb, strict=True):
            se = math.sqrt(sa + sb)
            ratings.append(Change("rating", card, a, b, se, _p(a - b, se)))
    _correct(ratings)
    out += ratings
    for what, mine, theirs in (
        ("first player", first_player(this), first_player(other)),
        ("unfinished", _unfinished(this), _unfinished(other)),
    ):
        change = _rate_change(what, "", mine, theirs)
        change.p_holm = change.p
        out.append(change)
    rates_a, rates_b = team_rates(this), team_rates(other)
    teams = [
        _rate_change("team", t, rates_a[t], rates_b[t]) for t in sorted(rates_a) if t in rates_b
    ]
    _correct(teams)
    return out + teams


def _unfinished(games: Sequence[Game]) -> Rate:
    out = Rate()
    for g in games:
        out.add(1.0 if g.winner is None else 0.0)
    return out


def _correct(changes: Sequence[Change]) -> None:
    for c, p in zip(changes, holm([c.p for c in changes]), strict=True):
        c.p_holm = p

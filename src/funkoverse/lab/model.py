"""The report's model of teams: a team is the sum of its cards (Bradley-Terry).

A team's strength is the sum of its characters' and items' ratings (and, when the two sides
had different agents, its agent's); the chance that team A beats team B is the logistic of
the difference; a draw counts half a win each way. The fit is maximum likelihood with a
small ridge term, centred on the average card of each kind.

What this module adds to the ratings, and why:

- Intervals from the fit's information (the Hessian), not from resampling, so that what the
  report claims does not change with the bootstrap's seed; widened by the misfit's
  dispersion when the model fits worse than chance allows (quasi-likelihood).
- The misfit test: Pearson's chi-squared of the matchups (each pair of teams, agents, on a
  scenario and map) against the model; if teams are not the sum of their cards, it says so.
- Synergy: each pair of allies' score against what their ratings predict, with a z-score
  and Holm's correction for the number of pairs tested.
- Rank intervals (from bootstrap resamples of games) and the chance that a card beats
  another (the logistic of their difference, with its interval).
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from funkoverse.lab.stats import Game, card_rates

RIDGE = 0.01  # keeps ratings finite when a card always wins or always loses
ELO = 400 / math.log(10)  # log-odds to Elo points
Z95 = 1.959963984540054
KINDS = ("character", "item", "agent")


@dataclass
class Rating:
    """A card's rating in log-odds (0 is the average card of its kind) and in Elo points,
    with its 95% interval, and its rank among its kind with the rank's 95% interval."""

    card: str
    kind: str  # "character", "item" or "agent"
    games: int
    theta: float
    lo: float = 0.0
    hi: float = 0.0
    rank: int = 0
    rank_lo: int = 0
    rank_hi: int = 0

    @property
    def elo(self) -> float:
        return ELO * self.theta


@dataclass
class Misfit:
    """Pearson's chi-squared of the matchups against the model, on `dof` degrees of freedom
    (matchups less the ratings fitted), and its p-value."""

    chi2: float
    dof: int
    p: float

    @property
    def dispersion(self) -> float:
        """How much wider than the model's the intervals are made: chi2/dof, at least 1."""
        return max(1.0, self.chi2 / self.dof) if self.dof > 0 else 1.0

    @property
    def fits(self) -> bool:
        return self.p >= 0.05


@dataclass
class Synergy:
    """A pair of allies: how much more (or less) their sides scored than the sum of their
    ratings predicts, in points of win rate, with its z-score and Holm-corrected p-value."""

    a: str
    b: str
    sides: int
    points: float
    z: float
    p: float
    p_holm: float = 1.0


@dataclass
class HeadToHead:
    """The model's chance that a team with `card` beats the same team with `other` in its
    place, with a 95% interval."""

    card: str
    other: str
    p: float
    lo: float
    hi: float


@dataclass
class Fit:
    """Everything the report shows of the model."""

    ratings: list[Rating]
    misfit: Misfit | None
    synergy: list[Synergy] = field(default_factory=list)
    head_to_head: list[HeadToHead] = field(default_factory=list)
    theta: Any = None  # the centred ratings, in column order
    cov: Any = None  # their covariance (dispersion included)
    columns: list[tuple[str, str]] = field(default_factory=list)  # (kind, card) a column

    def rating(self, card: str) -> Rating | None:
        return next((r for r in self.ratings if r.card == card), None)


# --------------------------------------------------------------------------- the fit


def _sides(g: Game, agents: bool) -> dict[str, list[tuple[str, str]]]:
    """Each side's cards as (kind, id)."""
    out = {}
    for who in "ab":
        chars, items = g.members(who)
        cards = [("character", c) for c in chars] + [("item", i) for i in items]
        if agents:
            cards.append(("agent", g.agent_a if who == "a" else g.agent_b))
        out[who] = cards
    return out


def design(games: Sequence[Game]) -> tuple[list[tuple[str, str]], Any, Any]:
    """The columns (kind, card), the design matrix (+1 team A's cards, -1 team B's) and team
    A's scores. Agents are columns only when some game had two different ones."""
    import numpy as np

    agents = any(g.agent_a != g.agent_b for g in games)
    sides = [_sides(g, agents) for g in games]
    found = {c for s in sides for w in "ab" for c in s[w]}
    columns = sorted(found, key=lambda c: (KINDS.index(c[0]), c[1]))
    col = {c: j for j, c in enumerate(columns)}
    x = np.zeros((len(games), len(columns)))
    y = np.array([g.score_a for g in games], dtype=float)
    for n, s in enumerate(sides):
        for c in s["a"]:
            x[n, col[c]] += 1.0
        for c in s["b"]:
            x[n, col[c]] -= 1.0
    return columns, x, y


def fit(x: Any, y: Any, start: Any = None) -> Any:
    """Maximum likelihood of the logistic model (fractional outcomes for draws) with a ridge
    term."""
    import numpy as np
    from scipy.optimize import minimize  # type: ignore[import-untyped,unused-ignore]

    def loss(theta: Any) -> tuple[float, Any]:
        z = x @ theta
        nll = np.sum(np.logaddexp(0.0, z) - y * z) + RIDGE / 2 * theta @ theta
        p = 1 / (1 + np.exp(-z))
        return float(nll), x.T @ (p - y) + RIDGE * theta

    theta0 = np.zeros(x.shape[1]) if start is None else start
    return minimize(loss, theta0, jac=True, method="L-BFGS-B").x


def _centring(columns: Sequence[tuple[str, str]]) -> Any:
    """The matrix that takes each kind's mean out (team strengths fix only differences)."""
    import numpy as np

    c = np.eye(len(columns))
    for kind in KINDS:
        idx = [j for j, col in enumerate(columns) if col[0] == kind]
        for i in idx:
            c[i, idx] -= 1.0 / len(idx)
    return c


def _free(columns: Sequence[tuple[str, str]]) -> int:
    """Ratings the data can fix: a kind's mean cannot be (every side has as many cards)."""
    return sum(max(0, sum(1 for c in columns if c[0] == k) - 1) for k in KINDS)


def misfit(games: Sequence[Game], x: Any, y: Any, theta: Any, free: int) -> Misfit | None:
    """Pearson's chi-squared over the matchups: each pair of (team, agent) on a scenario and
    map, its observed score against the model's expectation. A draw's variance is taken as a
    game's, p(1-p), which if anything understates the misfit."""
    import numpy as np
    from scipy.stats import chi2 as chi2_dist  # type: ignore[import-untyped,unused-ignore]

    p = 1 / (1 + np.exp(-(x @ theta)))
    cells: dict[tuple[object, ...], list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for n, g in enumerate(games):
        one, two = (g.team_a, g.agent_a), (g.team_b, g.agent_b)
        key = (g.scenario, g.map, *sorted((one, two)))
        flip = one > two
        cell = cells[key]
        cell[0] += 1 - y[n] if flip else y[n]
        cell[1] += 1 - p[n] if flip else p[n]
        cell[2] += p[n] * (1 - p[n])
    chi2 = sum((o - e) ** 2 / v for o, e, v in cells.values() if v > 0)
    dof = len(cells) - free
    if dof <= 0:
        return None
    return Misfit(float(chi2), dof, float(chi2_dist.sf(chi2, dof)))


def covariance(columns: Sequence[tuple[str, str]], x: Any, theta: Any) -> Any:
    """The centred ratings' covariance from the fit's information (the penalised Hessian)."""
    import numpy as np

    p = 1 / (1 + np.exp(-(x @ theta)))
    h = (x * (p * (1 - p))[:, None]).T @ x + RIDGE * np.eye(len(columns))
    c = _centring(columns)
    return c @ np.linalg.inv(h) @ c.T


def synergy(games: Sequence[Game], x: Any, theta: Any) -> list[Synergy]:
    """Each pair of allied characters: observed score less predicted, over the sides they
    were on together; Holm's correction over the pairs tested."""
    import numpy as np
    from scipy.stats import norm  # type: ignore[import-untyped,unused-ignore]

    p_a = 1 / (1 + np.exp(-(x @ theta)))
    sums: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for n, g in enumerate(games):
        for who in "ab":
            chars, _ = g.members(who)
            score = g.score_a if who == "a" else 1 - g.score_a
            p = p_a[n] if who == "a" else 1 - p_a[n]
            for pair in itertools.combinations(sorted(chars), 2):
                s = sums[pair]
                s[0] += 1
                s[1] += score - p
                s[2] += p * (1 - p)
    out = []
    for (a, b), (sides, resid, var) in sums.items():
        z = resid / math.sqrt(var) if var > 0 else 0.0
        out.append(Synergy(a, b, int(sides), 100 * resid / sides, z, float(2 * norm.sf(abs(z)))))
    for found, corrected in zip(out, holm([x.p for x in out]), strict=True):
        found.p_holm = corrected
    return sorted(out, key=lambda s: (-s.z, s.a, s.b))


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm-corrected p-values, in the order given."""
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    out = [1.0] * len(pvalues)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(pvalues) - rank) * pvalues[i]))
        out[i] = running
    return out


def _ranks(theta: Any, columns: Sequence[tuple[str, str]]) -> Any:
    """Each card's rank among its kind (1: the highest rating)."""
    import numpy as np

    ranks = np.zeros(len(columns), dtype=int)
    for kind in KINDS:
        idx = [j for j, c in enumerate(columns) if c[0] == kind]
        order = sorted(idx, key=lambda j: -theta[j])
        for r, j in enumerate(order):
            ranks[j] = r + 1
    return ranks


def head_to_head(fitted: Fit) -> list[HeadToHead]:
    """Every two characters: the chance a team with one beats the same team with the other."""
    out = []
    chars = [(j, c) for j, (k, c) in enumerate(fitted.columns) if k == "character"]
    for (i, a), (j, b) in itertools.permutations(chars, 2):
        d = fitted.theta[i] - fitted.theta[j]
        var = fitted.cov[i, i] + fitted.cov[j, j] - 2 * fitted.cov[i, j]
        sd = math.sqrt(max(0.0, float(var)))
        out.append(HeadToHead(a, b, _logistic(d), _logistic(d - Z95 * sd), _logistic(d + Z95 * sd)))
    return out


def _logistic(v: float) -> float:
    return 1 / (1 + math.exp(-v))


def model(games: Sequence[Game], bootstrap: int = 200, seed: int = 0, pairs: bool = True) -> Fit:
    """The model fitted to `games`: ratings best first (with intervals and ranks), the misfit
    test, and with `pairs` the synergy of allies and the head-to-head chances."""
    import numpy as np

    if not games:
        return Fit([], None)
    columns, x, y = design(games)
    raw = fit(x, y)
    centre = _centring(columns)
    theta = centre @ raw
    test = misfit(games, x, y, raw, _free(columns))
    cov = covariance(columns, x, raw) * (test.dispersion if test else 1.0)
    sd = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    ranks = _ranks(theta, columns)
    rank_lo, rank_hi = ranks, ranks
    if bootstrap > 0:
        rng = np.random.default_rng(seed)
        drawn = []
        for _ in range(bootstrap):
            pick = rng.integers(0, len(games), len(games))
            drawn.append(_ranks(centre @ fit(x[pick], y[pick], raw), columns))
        rank_lo = np.floor(np.percentile(drawn, 2.5, axis=0)).astype(int)
        rank_hi = np.ceil(np.percentile(drawn, 97.5, axis=0)).astype(int)
    counts = _games(games)
    ratings = [
        Rating(
            card,
            kind,
            counts[kind].get(card, 0),
            float(theta[j]),
            float(theta[j] - Z95 * sd[j]),
            float(theta[j] + Z95 * sd[j]),
            int(ranks[j]),
            int(rank_lo[j]),
            int(rank_hi[j]),
        )
        for j, (kind, card) in enumerate(columns)
    ]
    ratings.sort(key=lambda r: (KINDS.index(r.kind), -r.theta, r.card))
    out = Fit(ratings, test, theta=theta, cov=cov, columns=list(columns))
    if pairs:
        out.synergy = synergy(games, x, raw)
        out.head_to_head = head_to_head(out)
    return out


def _games(games: Sequence[Game]) -> dict[str, dict[str, int]]:
    """Games played by each card, by kind."""
    agents: dict[str, int] = defaultdict(int)
    for g in games:
        if g.agent_a != g.agent_b:
            agents[g.agent_a] += 1
            agents[g.agent_b] += 1
    return {
        "character": {c: r.games for c, r in card_rates(games).items()},
        "item": {c: r.games for c, r in card_rates(games, items=True).items()},
        "agent": dict(agents),
    }


def by_group(games: Sequence[Game], key: Callable[[Game], str]) -> dict[str, Fit]:
    """The model fitted apart on each group of games (each scenario, each map)."""
    groups: dict[str, list[Game]] = defaultdict(list)
    for g in games:
        groups[key(g)].append(g)
    return {k: model(v, bootstrap=0, pairs=False) for k, v in sorted(groups.items())}

"""The balance report: one self-contained HTML page (inline CSS and SVG drawn here, no
script, nothing fetched: it opens offline) and the CSV files of every figure on it.

The main figures use the games played without bars; restricted runs (`--bar`) feed the
table of what each barred card is worth. Every figure on the page is also in a CSV file,
and the page's numbers carry their exact values in `data-*` attributes, so a test can
recompute them from the store and compare.
"""

from __future__ import annotations

import contextlib
import csv
import html
import importlib.util
import math
from collections.abc import Sequence
from pathlib import Path

from funkoverse.content.catalog import SHIPPED, Catalog, load_catalog
from funkoverse.errors import UserError
from funkoverse.lab import stats
from funkoverse.lab.bars import parse_bar
from funkoverse.lab.compare import Change, compare
from funkoverse.lab.model import ELO, Fit, Rating, by_group, model
from funkoverse.lab.stats import Game, Rate

PAGE = "index.html"
CSV_FILES = (
    "matrix.csv",
    "teams.csv",
    "ratings.csv",
    "ratings_by_scenario.csv",
    "ratings_by_map.csv",
    "model_fit.csv",
    "synergy.csv",
    "head_to_head.csv",
    "first_player.csv",
    "balance_by_scenario.csv",
    "balance_by_map.csv",
    "lengths.csv",
    "abilities.csv",
    "items.csv",
    "restricted.csv",
    "games.csv",
)
NOTHING_TO_COMPARE = (
    "no game of the same matchups was played without bars, so there is nothing to compare "
    "with; play the same plan without --bar into this store"
)
LATEST = "latest-report.json"


def _pct(r: float) -> str:
    return f"{100 * r:.0f}%"


def _ci(rate: Rate) -> str:
    lo, hi = rate.ci
    return f"{_pct(rate.rate)} [{100 * lo:.0f}-{100 * hi:.0f}]"


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _names(catalog: Catalog) -> dict[str, str]:
    return {cid: card.name for cid, card in catalog.characters.items()}


def _card_names(catalog: Catalog) -> dict[str, str]:
    """Ability and item ids by the names their cards print."""
    named = {a.id: a.name for card in catalog.characters.values() for a in card.abilities}
    named.update({iid: item.name for iid, item in catalog.items.items()})
    return named


def _bar_name(text: str, cards: dict[str, str]) -> str:
    """A bar as a sentence says it: "Savage Hunger", "the Shovel", "Basic Challenge"."""
    try:
        bar = parse_bar(text)
    except UserError:
        return text
    name = cards.get(bar.what, bar.what.replace("-", " ").title())
    return f"the {name}" if bar.kind == "item" else name


def _team_name(label: str, names: dict[str, str]) -> str:
    chars, _, items = label.partition("/")
    text = " + ".join(names.get(c, c) for c in chars.split("+"))
    return text + (f" with {items.replace('+', ', ')}" if items else "")


def write_report(
    results: Path, out: Path, bootstrap: int = 200, seed: int = 0, against: Path | None = None
) -> Path:
    """Write OUT/index.html and OUT/*.csv from the results store `results` (and, `against`
    another store, what changed from it); returns OUT."""
    if any(importlib.util.find_spec(m) is None for m in ("numpy", "scipy")):
        raise UserError("funkoverse report needs numpy and scipy: pip install -e '.[lab]'")
    if bootstrap < 0:
        raise UserError(f"--bootstrap must be 0 or more, not {bootstrap}")
    games_all = stats.load_games(results)
    if not games_all:
        raise UserError(f"{results}: no games stored yet; run funkoverse simulate first")
    # without the fan content folders, fan cards lose their names and owners, not their figures
    catalog = SHIPPED
    with contextlib.suppress(UserError):
        catalog = load_catalog(d for d in stats.content_of(results) if Path(d).is_dir())
    games = [g for g in games_all if not g.bars]
    if not games:
        raise UserError(
            f"{results}: every game was played with bars; the report needs some without"
        )
    other = _free_games(against) if against is not None else None
    out.mkdir(parents=True, exist_ok=True)
    names = _names(catalog)
    owners = {a.id: cid for cid, card in catalog.characters.items() for a in card.abilities}
    figures = _figures(games, games_all, owners, bootstrap, seed)
    figures["catalog"] = catalog  # the cards the figures name
    if against is not None and other is not None:
        fitted: Fit = figures["model"]  # type: ignore[assignment]
        figures["against"] = against
        figures["changes"] = compare(games, other, fitted, model(other, 0, pairs=False))
    _write_csvs(out, figures)
    page = _page(results, figures, names)
    (out / PAGE).write_text(page, encoding="utf-8")
    return out


def _free_games(path: Path) -> list[Game]:
    """The games without bars of another store, to compare with."""
    found = [g for g in stats.load_games(path) if not g.bars]
    if not found:
        raise UserError(f"--compare {path}: no games without bars to compare with")
    return found


def _figures(
    games: Sequence[Game],
    games_all: Sequence[Game],
    owners: dict[str, str],
    bootstrap: int,
    seed: int,
) -> dict[str, object]:
    return {
        "games": games,
        "games_all": games_all,
        "restricted": len(games_all) - len(games),
        "matrix": stats.matrix(games),
        "teams": stats.team_rates(games),
        "model": model(games, bootstrap, seed),
        "model_by_scenario": by_group(games, lambda g: g.scenario),
        "model_by_map": by_group(games, lambda g: g.map),
        "first": stats.first_player(games),
        "scenario": stats.balance(games, "scenario"),
        "map": stats.balance(games, "map"),
        "lengths": stats.lengths(games),
        "abilities": stats.usage(games, owners),
        "items": stats.usage(games, owners, items=True),
        "worth": stats.worth(games_all, owners),
        "characters": stats.card_rates(games),
    }


# --------------------------------------------------------------------------- CSV

# games.csv: what the report reads of a game, less the use of cards (in abilities.csv)
GAME_COLUMNS = tuple(c for c in stats.READ_COLUMNS if c not in ("abilities", "items"))


def _cell(value: object) -> object:
    """A game's field as games.csv writes it: bars space separated, nothing for None."""
    if isinstance(value, tuple):
        return " ".join(value)
    return "" if value is None else value


def _rating_row(r: Rating) -> tuple[object, ...]:
    return (r.kind, r.card, r.games, f"{r.theta:.4f}", f"{r.lo:.4f}", f"{r.hi:.4f}", f"{r.elo:.0f}")


def _write_csvs(out: Path, f: dict[str, object]) -> None:
    def write(name: str, header: Sequence[str], rows: list[Sequence[object]]) -> None:
        with (out / name).open("w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(header)
            w.writerows(rows)

    matrix: dict[tuple[str, str], Rate] = f["matrix"]  # type: ignore[assignment]
    write(
        "matrix.csv",
        ("team", "opponent", "games", "score", "win_rate", "ci_low", "ci_high"),
        [
            (a, b, r.games, r.score, f"{r.rate:.4f}", f"{r.ci[0]:.4f}", f"{r.ci[1]:.4f}")
            for (a, b), r in sorted(matrix.items())
        ],
    )
    teams: dict[str, Rate] = f["teams"]  # type: ignore[assignment]
    write(
        "teams.csv",
        ("team", "games", "score", "win_rate", "ci_low", "ci_high"),
        [
            (t, r.games, r.score, f"{r.rate:.4f}", f"{r.ci[0]:.4f}", f"{r.ci[1]:.4f}")
            for t, r in sorted(teams.items(), key=lambda kv: -kv[1].rate)
        ],
    )
    fitted: Fit = f["model"]  # type: ignore[assignment]
    rating_header = ("kind", "card", "games", "rating", "ci_low", "ci_high", "elo")
    write(
        "ratings.csv",
        (*rating_header, "rank", "rank_low", "rank_high"),
        [(*_rating_row(r), r.rank, r.rank_lo, r.rank_hi) for r in fitted.ratings],
    )
    for by in ("scenario", "map"):
        fits: dict[str, Fit] = f[f"model_by_{by}"]  # type: ignore[assignment]
        write(
            f"ratings_by_{by}.csv",
            (by, *rating_header),
            [(k, *_rating_row(r)) for k, g in fits.items() for r in g.ratings],
        )
    misfit = fitted.misfit
    write(
        "model_fit.csv",
        ("chi2", "dof", "p", "dispersion"),
        [(f"{misfit.chi2:.2f}", misfit.dof, f"{misfit.p:.6f}", f"{misfit.dispersion:.4f}")]
        if misfit
        else [],
    )
    write(
        "synergy.csv",
        ("character", "ally", "sides", "points", "z", "p", "p_holm"),
        [
            (x.a, x.b, x.sides, f"{x.points:.2f}", f"{x.z:.3f}", f"{x.p:.6f}", f"{x.p_holm:.6f}")
            for x in fitted.synergy
        ],
    )
    write(
        "head_to_head.csv",
        ("character", "instead_of", "p_beats", "ci_low", "ci_high"),
        [
            (h.card, h.other, f"{h.p:.4f}", f"{h.lo:.4f}", f"{h.hi:.4f}")
            for h in fitted.head_to_head
        ],
    )
    if "changes" in f:
        changes: list[Change] = f["changes"]  # type: ignore[assignment]
        write(
            "compare.csv",
            ("what", "item", "this", "other", "change", "ci_low", "ci_high", "p", "p_holm"),
            [
                (
                    c.what,
                    c.item,
                    f"{c.this:.4f}",
                    f"{c.other:.4f}",
                    f"{c.change:.4f}",
                    f"{c.ci[0]:.4f}",
                    f"{c.ci[1]:.4f}",
                    f"{c.p:.6f}",
                    f"{c.p_holm:.6f}",
                )
                for c in changes
            ],
        )
    games: Sequence[Game] = f["games_all"]  # type: ignore[assignment]
    write(
        "games.csv",
        GAME_COLUMNS,
        [[_cell(getattr(g, c)) for c in GAME_COLUMNS] for g in games],
    )
    first: Rate = f["first"]  # type: ignore[assignment]
    write(
        "first_player.csv",
        ("games", "score", "win_rate", "ci_low", "ci_high"),
        [
            (
                first.games,
                first.score,
                f"{first.rate:.4f}",
                f"{first.ci[0]:.4f}",
                f"{first.ci[1]:.4f}",
            )
        ],
    )
    for by in ("scenario", "map"):
        groups: dict[str, stats.Balance] = f[by]  # type: ignore[assignment]
        write(
            f"balance_by_{by}.csv",
            (
                by,
                "games",
                "draws",
                "first_player_rate",
                "ci_low",
                "ci_high",
                "mean_rounds",
                "best_team",
                "best_rate",
                "worst_team",
                "worst_rate",
            ),
            [
                (
                    k,
                    b.games,
                    b.draws,
                    f"{b.first.rate:.4f}",
                    f"{b.first.ci[0]:.4f}",
                    f"{b.first.ci[1]:.4f}",
                    f"{b.mean_rounds:.2f}",
                    b.best_team,
                    f"{b.best.rate:.4f}",
                    b.worst_team,
                    f"{b.worst.rate:.4f}",
                )
                for k, b in groups.items()
            ],
        )
    lengths: dict[int, tuple[int, int]] = f["lengths"]  # type: ignore[assignment]
    write(
        "lengths.csv",
        ("rounds", "finished", "stopped"),
        [(r, d, s) for r, (d, s) in lengths.items()],
    )
    for kind in ("abilities", "items"):
        use: dict[str, stats.Usage] = f[kind]  # type: ignore[assignment]
        write(
            f"{kind}.csv",
            (
                "card",
                "owner",
                "side_games",
                "games_used",
                "uses",
                "rate_when_used",
                "rate_when_not",
            ),
            [
                (
                    u.card,
                    u.owner,
                    u.available,
                    u.used_games,
                    u.uses,
                    f"{u.when_used.rate:.4f}",
                    f"{u.when_not.rate:.4f}",
                )
                for u in use.values()
            ],
        )
    worth: list[stats.Worth] = f["worth"]  # type: ignore[assignment]
    write(
        "restricted.csv",
        ("bar", "games_barred", "rate_barred", "games_free", "rate_free", "worth"),
        [
            (
                w.bar,
                w.barred.games,
                f"{w.barred.rate:.4f}",
                w.free.games,
                f"{w.free.rate:.4f}" if w.comparable else "",
                f"{w.worth:.4f}" if w.comparable else "",
            )
            for w in worth
        ],
    )


# --------------------------------------------------------------------------- summary


def stand_out(f: dict[str, object], names: dict[str, str]) -> list[str]:
    """A few sentences on what the figures say most clearly."""
    out: list[str] = []
    games: Sequence[Game] = f["games"]  # type: ignore[assignment]
    catalog: Catalog = f.get("catalog", SHIPPED)  # type: ignore[assignment]
    known = catalog.scenarios
    where = " and ".join(
        known[s].name if s in known else s for s in sorted({g.scenario for g in games})
    )
    chars: dict[str, Rate] = f["characters"]  # type: ignore[assignment]
    ranked = sorted(chars.items(), key=lambda kv: -kv[1].rate)
    if ranked:
        cid, r = ranked[0]
        out.append(
            f"{names.get(cid, cid)}'s teams win {_ci(r)} of their {where} games ({r.games:,} games)."
        )
        cid, r = ranked[-1]
        out.append(f"{names.get(cid, cid)}'s teams win the least: {_ci(r)} ({r.games:,} games).")
    fitted: Fit = f["model"]  # type: ignore[assignment]
    people = [r for r in fitted.ratings if r.kind == "character"]
    if people:
        top = people[0]
        rating = f"({top.elo:+.0f} Elo, 95% [{ELO * top.lo:+.0f}, {ELO * top.hi:+.0f}])"
        who = names.get(top.card, top.card)
        out.append(
            f"By Bradley-Terry rating {who} is the strongest character {rating}, clearly above "
            "the average card."
            if top.lo > 0
            else f"By Bradley-Terry rating {who} rates highest {rating}, not surely above the "
            "average card."
        )
    out.extend(_model_words(fitted, names))
    first: Rate = f["first"]  # type: ignore[assignment]
    lo, hi = first.ci
    verdict = "an advantage" if lo > 0.5 else "a disadvantage" if hi < 0.5 else "no clear advantage"
    out.append(f"Going first wins {_ci(first)} of games: {verdict}.")
    draws = sum(1 for g in games if g.winner is None)
    if draws:
        out.append(
            f"{draws:,} of {len(games):,} games ({_pct(draws / len(games))}) reached the round limit unfinished."
        )
    abilities: dict[str, stats.Usage] = f["abilities"]  # type: ignore[assignment]
    if abilities:
        most = max(abilities.values(), key=lambda u: u.uses / max(1, u.available))
        least = min(abilities.values(), key=lambda u: u.used_games / max(1, u.available))
        cards = _card_names(catalog)
        out.append(
            f"The most used ability is {cards.get(most.card, most.card)} "
            f"({most.uses / max(1, most.available):.1f} uses a game); "
            f"{cards.get(least.card, least.card)} is used in only "
            f"{_pct(least.used_games / max(1, least.available))} "
            "of the games it could be."
        )
    worth: list[stats.Worth] = f["worth"]  # type: ignore[assignment]
    for w in (w for w in worth if not w.comparable):
        out.append(
            f"Barring {_bar_name(w.bar, _card_names(catalog))} is not measured: {NOTHING_TO_COMPARE}"
        )
    if worth and worth[0].comparable:
        w = worth[0]
        out.append(
            f"Barring {_bar_name(w.bar, _card_names(catalog))} moves its side's win rate from {_ci(w.free)} to {_ci(w.barred)}: "
            f"it is worth {100 * w.worth:+.0f} points of win rate"
            + (
                "."
                if w.free.ci[0] > w.barred.ci[1] or w.barred.ci[0] > w.free.ci[1]
                else " (the two intervals overlap: not yet clear at these numbers)."
            )
        )
    if "changes" in f:
        out.append(_compare_words(f["changes"], f["against"], names))  # type: ignore[arg-type]
    return out


def _change_text(c: Change, names: dict[str, str]) -> str:
    """A change as a sentence says it: "Wonder Woman +112 to +95 Elo (-17, ...)"."""
    if c.what == "rating":
        return (
            f"{names.get(c.item, c.item)} {c.other:+.0f} to {c.this:+.0f} Elo "
            f"({c.change:+.0f}, 95% [{c.ci[0]:+.0f}, {c.ci[1]:+.0f}])"
        )
    label = {"first player": "the first player's win rate", "unfinished": "unfinished games"}
    who = label.get(c.what) or _team_name(c.item, names)
    return (
        f"{who} {_pct(c.other)} to {_pct(c.this)} "
        f"({100 * c.change:+.1f} points, 95% [{100 * c.ci[0]:+.1f}, {100 * c.ci[1]:+.1f}])"
    )


def _compare_words(changes: list[Change], against: Path, names: dict[str, str]) -> str:
    """What changed from the other store beyond noise, in one sentence."""
    moved = sorted((c for c in changes if c.beyond_noise), key=lambda c: c.p)
    if not moved:
        return (
            f"Compared with {against.name}: none of the {len(changes)} figures compared "
            "(ratings, the first player, unfinished games, teams) changed beyond noise."
        )
    shown = "; ".join(_change_text(c, names) for c in moved[:5])
    more = f"; and {len(moved) - 5} more" if len(moved) > 5 else ""
    return (
        f"Compared with {against.name}, {len(moved)} of {len(changes)} figures changed beyond "
        f"noise: {shown}{more} (Holm-corrected p under 0.05; the rest is within noise)."
    )


def _compare_section(f: dict[str, object], names: dict[str, str]) -> str:
    """Every figure both stores have, what changed first."""
    if "changes" not in f:
        return ""
    changes: list[Change] = f["changes"]  # type: ignore[assignment]
    against: Path = f["against"]  # type: ignore[assignment]
    rows = sorted(changes, key=lambda c: (not c.beyond_noise, c.p))
    return (
        f"<h2>Compared with {_esc(against.name)}</h2><p class='note'>Each figure both stores "
        f"have, from {_esc(against.name)} to here, the change with its 95% interval, and its "
        "p-value corrected (Holm) over the figures of its kind: beyond noise under 0.05 "
        "(compare.csv).</p>"
        + _table(
            ("figure", "p (Holm)", ""),
            [
                (
                    _esc(_change_text(c, names)),
                    _esc(_p(c.p_holm).removeprefix("p = ").removeprefix("p ")),
                    "beyond noise" if c.beyond_noise else "noise",
                )
                for c in rows
            ],
            [
                f'class="change" data-what="{_esc(c.what)}" data-item="{_esc(c.item)}" '
                f'data-change="{c.change:.4f}" data-beyond="{int(c.beyond_noise)}"'
                for c in rows
            ],
        )
    )


def _model_words(fitted: Fit, names: dict[str, str]) -> list[str]:
    """Whether a team is the sum of its cards, and the pairs of allies that are not, in
    words (every number here is the fit's: none depends on the bootstrap's seed)."""
    out = []
    agents = [r for r in fitted.ratings if r.kind == "agent"]
    if agents:
        out.append(
            "The two sides had different agents: each pair of teams was played both ways and "
            "the fit rates each agent too ("
            + ", ".join(f"{r.card} {r.elo:+.0f} Elo" for r in agents)
            + "), so no card's rating is its agent's."
        )
    m = fitted.misfit
    if m is not None:
        test = f"chi-squared {m.chi2:.0f} on {m.dof} degrees of freedom, {_p(m.p)}"
        if m.fits:
            out.append(
                f"A team is the sum of its cards as far as these games can tell ({test}): no "
                "pair of allies needs more than their ratings to explain how they did."
            )
        else:
            out.append(
                f"A team is not quite the sum of its cards ({test}): some pairs of allies do "
                "better or worse together than their ratings say, and the ratings' intervals "
                f"are widened {math.sqrt(m.dispersion):.2f} times for it."
            )
    pairs = fitted.synergy
    if pairs:
        sure = [x for x in pairs if x.p_holm < 0.05]
        held = (
            f"after Holm's correction for the {len(pairs)} pairs"
            if len(pairs) > 1
            else "the one pair"
        )
        if sure:
            out.append(
                "Allies worth more or less together than apart: "
                + "; ".join(
                    f"{_pair(x.a, x.b, names)} {x.points:+.1f} points of win rate "
                    f"(z = {x.z:+.1f}, {_p(x.p_holm)})"
                    for x in sorted(sure, key=lambda x: -abs(x.z))[:4]
                )
                + f", {held}."
            )
        else:
            x = max(pairs, key=lambda x: abs(x.z))
            out.append(
                f"No pair of allies does better or worse together than their ratings say beyond "
                f"chance: the largest gap, {_pair(x.a, x.b, names)} {x.points:+.1f} points "
                f"(z = {x.z:+.1f}), has {_p(x.p_holm)} {held}."
            )
    return out


def _pair(a: str, b: str, names: dict[str, str]) -> str:
    return f"{names.get(a, a)} + {names.get(b, b)}"


def _p(p: float) -> str:
    """A p-value as a person reads it."""
    return "p < 0.0001" if p < 0.0001 else f"p = {p:.4f}" if p < 0.01 else f"p = {p:.2f}"


# --------------------------------------------------------------------------- HTML

CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#222}
h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.5em 0}td,th{padding:.2em .6em;border-bottom:1px solid #eee;text-align:right}
td:first-child,th:first-child{text-align:left}.summary li{margin:.3em 0}
.note{color:#666;font-size:.9em}svg text{font:10px system-ui,sans-serif}
"""


def _color(rate: float) -> str:
    """Red (loses) through white (even) to blue (wins)."""
    if rate >= 0.5:
        t = (rate - 0.5) * 2
        r, g, b = 255 - int(200 * t), 255 - int(150 * t), 255
    else:
        t = (0.5 - rate) * 2
        r, g, b = 255, 255 - int(170 * t), 255 - int(200 * t)
    return f"#{r:02x}{g:02x}{b:02x}"


def _heatmap(matrix: dict[tuple[str, str], Rate], order: list[str], names: dict[str, str]) -> str:
    """The matchup matrix: a square a pair, coloured and numbered by the row's win rate, with
    its legend; the sizes leave room for the longest label on either edge."""
    cell = 18 if len(order) > 20 else 30
    font = 7 if cell < 20 else 10
    longest = max((len(_team_name(t, names)) for t in order), default=0) * 6  # px, at 10px
    left = longest + 10
    top = 10
    size = cell * len(order)
    # the column labels run down at 60 degrees: they reach right by half their length
    width = left + size + longest // 2 + 20
    legend_y = top + size + int(longest * 0.87) + 30
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{legend_y + 40}" '
        f'viewBox="0 0 {width} {legend_y + 40}" style="max-width:100%;height:auto" '
        'role="img" aria-label="matchup win-rate matrix">'
    ]
    for i, a in enumerate(order):
        y = top + i * cell
        parts.append(
            f'<text x="{left - 4}" y="{y + cell * 0.65:.0f}" text-anchor="end">{_esc(_team_name(a, names))}</text>'
        )
        for j, b in enumerate(order):
            r = matrix.get((a, b))
            x = left + j * cell
            if r is None:
                parts.append(
                    f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="#f4f4f4"/>'
                )
                continue
            lo, hi = r.ci
            tip = f"{_team_name(a, names)} vs {_team_name(b, names)}: {_ci(r)}, {r.games} games"
            parts.append(
                f'<rect class="cell" x="{x}" y="{y}" width="{cell}" height="{cell}" '
                f'fill="{_color(r.rate)}" stroke="#fff" data-team="{_esc(a)}" data-opponent="{_esc(b)}" '
                f'data-games="{r.games}" data-rate="{r.rate:.4f}" data-lo="{lo:.4f}" data-hi="{hi:.4f}">'
                f"<title>{_esc(tip)}</title></rect>"
                f'<text x="{x + cell / 2:.0f}" y="{y + cell / 2 + font / 3:.1f}" text-anchor="middle" '
                f'style="font-size:{font}px" fill="#222" pointer-events="none">{100 * r.rate:.0f}</text>'
            )
    for j, b in enumerate(order):
        tx = left + j * cell + cell * 0.6
        ty = top + size + 4
        parts.append(
            f'<text transform="translate({tx:.0f},{ty}) rotate(60)">{_esc(_team_name(b, names))}</text>'
        )
    parts.append(_legend(left, legend_y))
    parts.append("</svg>")
    return "".join(parts)


def _legend(x: int, y: int) -> str:
    """The heatmap's colour scale: the row team's win rate, 0% to 100%."""
    steps = 20
    parts = [f'<text x="{x}" y="{y - 4}">row team\'s win rate against the column team</text>']
    for k in range(steps):
        rate = (k + 0.5) / steps
        parts.append(
            f'<rect x="{x + 12 * k}" y="{y}" width="12" height="12" fill="{_color(rate)}"/>'
        )
    for rate in (0.0, 0.25, 0.5, 0.75, 1.0):
        tx = x + 12 * steps * rate
        parts.append(
            f'<text x="{tx:.0f}" y="{y + 24}" text-anchor="middle">{100 * rate:.0f}%</text>'
        )
    return "".join(parts)


def _bars(rows: list[tuple[str, float, float, float, str]], lo_v: float, hi_v: float) -> str:
    """Horizontal interval plot: a dot at the value, a line over its interval."""
    width, left, row = 640, 200, 18
    span = (hi_v - lo_v) or 1.0

    def x(v: float) -> float:
        return left + (v - lo_v) / span * (width - left - 20)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{row * len(rows) + 24}">'
    ]
    zero = x(0.0) if lo_v <= 0 <= hi_v else None
    if zero is not None:
        parts.append(
            f'<line x1="{zero:.1f}" y1="0" x2="{zero:.1f}" y2="{row * len(rows)}" stroke="#bbb"/>'
        )
    for i, (label, v, lo, hi, tip) in enumerate(rows):
        y = i * row + row / 2
        parts.append(f'<text x="{left - 6}" y="{y + 4:.0f}" text-anchor="end">{_esc(label)}</text>')
        parts.append(
            f'<line x1="{x(lo):.1f}" y1="{y}" x2="{x(hi):.1f}" y2="{y}" stroke="#469" stroke-width="2"/>'
        )
        parts.append(
            f'<circle cx="{x(v):.1f}" cy="{y}" r="4" fill="#135"><title>{_esc(tip)}</title></circle>'
        )
    parts.append(f'<text x="{left}" y="{row * len(rows) + 16}">{lo_v:+.0f}</text>')
    parts.append(f'<text x="{width - 40}" y="{row * len(rows) + 16}">{hi_v:+.0f}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _histogram(lengths: dict[int, tuple[int, int]]) -> str:
    if not lengths:
        return ""
    top = max(d + s for d, s in lengths.values())
    last = max(lengths)
    w, h, bw = 640, 160, max(4, 600 // (last + 1))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h + 30}">']
    for r, (d, s) in lengths.items():
        x = 20 + r * bw
        hd = h * d / top
        hs = h * s / top
        parts.append(
            f'<rect x="{x}" y="{h - hd:.1f}" width="{bw - 1}" height="{hd:.1f}" fill="#469"><title>{r} rounds: {d} finished</title></rect>'
        )
        if s:
            parts.append(
                f'<rect x="{x}" y="{h - hd - hs:.1f}" width="{bw - 1}" height="{hs:.1f}" fill="#c84"><title>{r} rounds: {s} stopped at the limit</title></rect>'
            )
        if r % 5 == 0:
            parts.append(f'<text x="{x}" y="{h + 14}">{r}</text>')
    parts.append(f'<text x="{w - 120}" y="{h + 28}">rounds played</text></svg>')
    return "".join(parts)


def _table(header: Sequence[str], rows: list[Sequence[str]], attrs: list[str] | None = None) -> str:
    head = "".join(f"<th>{_esc(h)}</th>" for h in header)
    body = []
    for i, row in enumerate(rows):
        extra = f" {attrs[i]}" if attrs else ""
        body.append(f"<tr{extra}>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"


def _ratings_section(kind: str, rows: list[Rating], names: dict[str, str]) -> str:
    """One kind's ratings: an interval plot and a table with ranks."""
    lo_v = min(ELO * r.lo for r in rows) - 10
    hi_v = max(ELO * r.hi for r in rows) + 10
    plot = _bars(
        [
            (names.get(r.card, r.card), r.elo, ELO * r.lo, ELO * r.hi, f"{r.elo:+.0f} Elo")
            for r in rows
        ],
        lo_v,
        hi_v,
    )
    table = _table(
        ("card", "games", "rating (log-odds)", "95%", "Elo", "rank [95%]"),
        [
            (
                _esc(names.get(r.card, r.card)),
                str(r.games),
                f"{r.theta:+.3f}",
                f"[{r.lo:+.2f}, {r.hi:+.2f}]",
                f"{r.elo:+.0f}",
                f"{r.rank} [{r.rank_lo}-{r.rank_hi}]",
            )
            for r in rows
        ],
        [
            f'class="rating" data-kind="{r.kind}" data-card="{_esc(r.card)}" '
            f'data-rating="{r.theta:.4f}" data-rank-lo="{r.rank_lo}" data-rank-hi="{r.rank_hi}"'
            for r in rows
        ],
    )
    return (
        f"<h2>{kind.title()} ratings (Bradley-Terry)</h2><p class='note'>A team's strength is "
        "the sum of its cards' ratings; 0 is the average card; Elo points: +100 beats an "
        "average card 64% of the time. The rank's interval is where the card ranked in 95% of "
        "bootstrap resamples of the games.</p>" + plot + table
    )


def _synergy_section(fitted: Fit, names: dict[str, str]) -> str:
    """Is a team the sum of its cards? The misfit test in words, and the pairs of allies."""
    words = "".join(f"<p>{_esc(w)}</p>" for w in _model_words(fitted, names))
    if not fitted.synergy:
        return "<h2>Synergy: is a team the sum of its cards?</h2>" + words
    shown = [x for x in fitted.synergy if x.p_holm < 0.05]
    extremes = fitted.synergy[:5] + fitted.synergy[-5:]
    rows = sorted({(x.a, x.b): x for x in shown + extremes}.values(), key=lambda x: -x.z)
    table = _table(
        ("allies", "sides", "points above the sum of their ratings", "z", "p (Holm)"),
        [
            (
                _esc(_pair(x.a, x.b, names)),
                str(x.sides),
                f"{x.points:+.1f}",
                f"{x.z:+.1f}",
                _esc(_p(x.p_holm).removeprefix("p = ").removeprefix("p ")),
            )
            for x in rows
        ],
        [
            f'class="synergy" data-a="{_esc(x.a)}" data-b="{_esc(x.b)}" data-z="{x.z:.3f}"'
            for x in rows
        ],
    )
    return (
        "<h2>Synergy: is a team the sum of its cards?</h2>"
        + words
        + "<p class='note'>Each pair of allies: how much more their sides scored than the sum "
        "of their ratings predicts, in points of win rate; the five highest and five lowest "
        "pairs and any beyond chance after Holm's correction (every pair is in synergy.csv). "
        "A pair beyond chance is a team that is more, or less, than its cards.</p>" + table
    )


def _head_to_head(fitted: Fit, names: dict[str, str]) -> str:
    """The chance that a team with the row's character beats the same team with the column's."""
    order = [r.card for r in fitted.ratings if r.kind == "character"]
    if len(order) < 2:
        return ""
    chance = {(h.card, h.other): h for h in fitted.head_to_head}
    head = "".join(f"<th>{_esc(names.get(c, c))}</th>" for c in order)
    body = []
    for a in order:
        cells = []
        for b in order:
            h = chance.get((a, b))
            if h is None:
                cells.append("<td>-</td>")
                continue
            tip = f"{100 * h.lo:.0f}-{100 * h.hi:.0f}%"
            cells.append(
                f'<td style="background:{_color(h.p)}" title="{tip}" data-p="{h.p:.4f}">'
                f"{_pct(h.p)}</td>"
            )
        body.append(f"<tr><th>{_esc(names.get(a, a))}</th>{''.join(cells)}</tr>")
    return (
        "<h2>Who is the better pick</h2><p class='note'>The chance that a team with the row's "
        "character beats the same team with the column's in their place (the model's: the "
        "logistic of the two ratings' difference); hover for the 95% interval.</p>"
        f"<table class='h2h'><tr><th></th>{head}</tr>{''.join(body)}</table>"
    )


def _group_ratings(by: str, groups: dict[str, Fit], names: dict[str, str]) -> str:
    """The character ratings fitted apart on each scenario (or map), side by side."""
    if len(groups) < 2:
        only = next(iter(groups), "")
        return (
            f"<h2>Ratings by {by}</h2><p class='note'>Every game was on one {by} "
            f"({_esc(only)}): its ratings are the ones above (ratings_by_{by}.csv).</p>"
        )
    cards = sorted({r.card for g in groups.values() for r in g.ratings if r.kind == "character"})
    rows: list[Sequence[str]] = []
    for c in cards:
        cells = []
        for g in groups.values():
            r = g.rating(c)
            cells.append(
                "-" if r is None else f"{r.elo:+.0f} [{ELO * r.lo:+.0f}, {ELO * r.hi:+.0f}]"
            )
        rows.append((_esc(names.get(c, c)), *cells))
    return (
        f"<h2>Ratings by {by}</h2><p class='note'>Character ratings in Elo, fitted apart on "
        f"each {by}'s games, with 95% intervals: a card strong on one {by} and weak on another "
        "shows here.</p>" + _table(("character", *(_esc(k) for k in groups)), rows)
    )


def _page(results: Path, f: dict[str, object], names: dict[str, str]) -> str:
    games: Sequence[Game] = f["games"]  # type: ignore[assignment]
    matrix: dict[tuple[str, str], Rate] = f["matrix"]  # type: ignore[assignment]
    teams: dict[str, Rate] = f["teams"]  # type: ignore[assignment]
    order = sorted(teams, key=lambda t: (-teams[t].rate, t))
    first: Rate = f["first"]  # type: ignore[assignment]
    agents = sorted({f"{g.agent_a} vs {g.agent_b}" for g in games})
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width,initial-scale=1'>",
        f"<title>Funkoverse balance report</title><style>{CSS}</style></head><body>",
        "<h1>Funkoverse balance report</h1>",
        f"<p class='note'>From {_esc(results.name)}: {len(games):,} games without bars"
        f" ({f['restricted']:,} more with bars), {len(teams)} teams, agents {_esc(', '.join(agents))}. "
        "A draw (stopped at the round limit) counts half. Intervals are 95%: Wilson for rates; "
        "for ratings, from the fit's information (widened when the model misfits); for ranks, "
        "from bootstrap resamples of the games. The figures are also CSV files beside this "
        f"page: {', '.join(CSV_FILES)}.</p>",
        "<h2>What stands out</h2><ul class='summary'>",
        *(f"<li>{_esc(s)}</li>" for s in stand_out(f, names)),
        "</ul>",
        _compare_section(f, names),
        "<h2>Who beats whom</h2><p class='note'>Row team's win rate against the column team, "
        "in percent (blue: the row wins more; red: it loses more). Hover a square for its "
        "interval and games.</p>",
        _heatmap(matrix, order, names),
        "<h2>Teams</h2>",
        _table(
            ("team", "games", "win rate [95%]"),
            [(_esc(_team_name(t, names)), str(teams[t].games), _ci(teams[t])) for t in order],
            [f'class="team" data-team="{_esc(t)}" data-rate="{teams[t].rate:.4f}"' for t in order],
        ),
    ]
    fitted: Fit = f["model"]  # type: ignore[assignment]
    for kind in ("character", "item", "agent"):
        rows = [r for r in fitted.ratings if r.kind == kind]
        if rows:
            parts.append(_ratings_section(kind, rows, names))
    parts.append(_synergy_section(fitted, names))
    parts.append(_head_to_head(fitted, names))
    for by in ("scenario", "map"):
        parts.append(_group_ratings(by, f[f"model_by_{by}"], names))  # type: ignore[arg-type]
    lo, hi = first.ci
    parts.append(
        f"<h2>First player</h2><p id='first-player' data-games='{first.games}' "
        f"data-rate='{first.rate:.4f}' data-lo='{lo:.4f}' data-hi='{hi:.4f}'>The side that went "
        f"first (the First Player of round 1; the marker then passes every round) wins "
        f"{_ci(first)} of {first.games:,} games.</p>"
    )
    for by in ("scenario", "map"):
        groups: dict[str, stats.Balance] = f[by]  # type: ignore[assignment]
        parts.append(f"<h2>Balance by {by}</h2>")
        parts.append(
            _table(
                (
                    by,
                    "games",
                    "unfinished",
                    "first player wins",
                    "mean rounds",
                    "best team",
                    "worst team",
                ),
                [
                    (
                        _esc(k),
                        str(b.games),
                        _pct(b.draws / b.games),
                        _ci(b.first),
                        f"{b.mean_rounds:.1f}",
                        f"{_esc(_team_name(b.best_team, names))} {_ci(b.best)}",
                        f"{_esc(_team_name(b.worst_team, names))} {_ci(b.worst)}",
                    )
                    for k, b in groups.items()
                ],
            )
        )
    lengths: dict[int, tuple[int, int]] = f["lengths"]  # type: ignore[assignment]
    parts.append(
        "<h2>Game length</h2><p class='note'>Blue: finished; orange: stopped at the round limit.</p>"
    )
    parts.append(_histogram(lengths))
    for kind, title in (("abilities", "Abilities"), ("items", "Items")):
        use: dict[str, stats.Usage] = f[kind]  # type: ignore[assignment]
        if not use:
            continue
        parts.append(f"<h2>{title} in use</h2>")
        parts.append(
            "<p class='note'>Side-games: games where the side had the card. 'When used' and "
            "'when not' are its side's win rates (they show association, not cause: for cause, "
            "see restricted play).</p>"
        )
        parts.append(
            _table(
                (
                    "card",
                    "of",
                    "side-games",
                    "used in",
                    "uses a game",
                    "win rate when used",
                    "when not",
                ),
                [
                    (
                        _esc(u.card),
                        _esc(names.get(u.owner, u.owner)),
                        str(u.available),
                        _pct(u.used_games / max(1, u.available)),
                        f"{u.uses / max(1, u.available):.2f}",
                        _ci(u.when_used) if u.when_used.games else "-",
                        _ci(u.when_not) if u.when_not.games else "-",
                    )
                    for u in sorted(use.values(), key=lambda u: -u.uses / max(1, u.available))
                ],
            )
        )
    worth: list[stats.Worth] = f["worth"]  # type: ignore[assignment]
    parts.append("<h2>Restricted play: what a card is worth</h2>")
    if worth:
        parts.append(
            _table(
                (
                    "barred",
                    "games barred",
                    "win rate barred",
                    "same matchups free",
                    "win rate free",
                    "worth",
                ),
                [
                    (
                        _esc(w.bar),
                        str(w.barred.games),
                        _ci(w.barred),
                        str(w.free.games),
                        _ci(w.free) if w.free.games else "-",
                        f"{100 * w.worth:+.0f} pts" if w.comparable else _esc(NOTHING_TO_COMPARE),
                    )
                    for w in worth
                ],
            )
        )
    else:
        parts.append(
            "<p class='note'>No restricted runs in this store: add some with "
            "<code>funkoverse simulate ... --bar ability:ID</code> into the same store.</p>"
        )
    parts.append(
        "<p class='note'>Written by funkoverse report. Every figure is also in the CSV files beside this page.</p>"
    )
    parts.append("</body></html>")
    return "\n".join(parts)


def latest(folder: Path) -> Path | None:
    """The report page in `folder`, if one was written there."""
    page = folder / PAGE
    return page if page.is_file() else None

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
from collections.abc import Sequence
from pathlib import Path

from funkoverse.content.characters import load_characters
from funkoverse.content.extra import use_content
from funkoverse.content.statuses import load_items
from funkoverse.errors import UserError
from funkoverse.lab import stats
from funkoverse.lab.bars import parse_bar
from funkoverse.lab.stats import Game, Rate, Rating

PAGE = "index.html"
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


def _names() -> dict[str, str]:
    return {cid: card.name for cid, card in load_characters().items()}


def _card_names() -> dict[str, str]:
    """Ability and item ids by the names their cards print."""
    named = {a.id: a.name for card in load_characters().values() for a in card.abilities}
    named.update({iid: item.name for iid, item in load_items().items()})
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


def write_report(results: Path, out: Path, bootstrap: int = 200, seed: int = 0) -> Path:
    """Write OUT/index.html and OUT/*.csv from the results store `results`; returns OUT."""
    if any(importlib.util.find_spec(m) is None for m in ("numpy", "scipy")):
        raise UserError("funkoverse report needs numpy and scipy: pip install -e '.[lab]'")
    if bootstrap < 0:
        raise UserError(f"--bootstrap must be 0 or more, not {bootstrap}")
    games_all = stats.load_games(results)
    if not games_all:
        raise UserError(f"{results}: no games stored yet; run funkoverse simulate first")
    # without the fan content folders, fan cards lose their names and owners, not their figures
    with contextlib.suppress(UserError):
        use_content([d for d in stats.content_of(results) if Path(d).is_dir()])
    games = [g for g in games_all if not g.bars]
    if not games:
        raise UserError(
            f"{results}: every game was played with bars; the report needs some without"
        )
    out.mkdir(parents=True, exist_ok=True)
    names = _names()
    owners = {a.id: cid for cid, card in load_characters().items() for a in card.abilities}
    figures = _figures(games, games_all, owners, bootstrap, seed)
    _write_csvs(out, figures)
    page = _page(results, figures, names)
    (out / PAGE).write_text(page, encoding="utf-8")
    return out


def _figures(
    games: Sequence[Game],
    games_all: Sequence[Game],
    owners: dict[str, str],
    bootstrap: int,
    seed: int,
) -> dict[str, object]:
    return {
        "games": games,
        "restricted": len(games_all) - len(games),
        "matrix": stats.matrix(games),
        "teams": stats.team_rates(games),
        "ratings": stats.ratings(games, bootstrap, seed),
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
    ratings: list[Rating] = f["ratings"]  # type: ignore[assignment]
    write(
        "ratings.csv",
        ("kind", "card", "games", "rating", "ci_low", "ci_high", "elo"),
        [
            (
                r.kind,
                r.card,
                r.games,
                f"{r.theta:.4f}",
                f"{r.lo:.4f}",
                f"{r.hi:.4f}",
                f"{r.elo:.0f}",
            )
            for r in ratings
        ],
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
    from funkoverse.content.scenarios import load_scenarios

    known = load_scenarios()
    where = " and ".join(
        known[s].name if s in known else s for s in sorted({g.scenario for g in games})
    )
    chars: dict[str, Rate] = f["characters"]  # type: ignore[assignment]
    ranked = sorted(chars.items(), key=lambda kv: -kv[1].rate)
    if ranked:
        cid, r = ranked[0]
        out.append(
            f"{names.get(cid, cid)}'s teams win {_ci(r)} of their {where} games ({r.games} games)."
        )
        cid, r = ranked[-1]
        out.append(f"{names.get(cid, cid)}'s teams win the least: {_ci(r)} ({r.games} games).")
    ratings: list[Rating] = f["ratings"]  # type: ignore[assignment]
    people = [r for r in ratings if r.kind == "character"]
    if people:
        top = people[0]
        sure = "clearly above" if top.lo > 0 else "above, though not surely,"
        out.append(
            f"By Bradley-Terry rating {names.get(top.card, top.card)} is the strongest character "
            f"({top.elo:+.0f} Elo, 95% [{stats.ELO * top.lo:+.0f}, {stats.ELO * top.hi:+.0f}]), "
            f"{sure} the average card."
        )
    first: Rate = f["first"]  # type: ignore[assignment]
    lo, hi = first.ci
    verdict = "an advantage" if lo > 0.5 else "a disadvantage" if hi < 0.5 else "no clear advantage"
    out.append(f"Going first wins {_ci(first)} of games: {verdict}.")
    draws = sum(1 for g in games if g.winner is None)
    if draws:
        out.append(
            f"{draws} of {len(games)} games ({_pct(draws / len(games))}) reached the round limit unfinished."
        )
    abilities: dict[str, stats.Usage] = f["abilities"]  # type: ignore[assignment]
    if abilities:
        most = max(abilities.values(), key=lambda u: u.uses / max(1, u.available))
        least = min(abilities.values(), key=lambda u: u.used_games / max(1, u.available))
        cards = _card_names()
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
            f"Barring {_bar_name(w.bar, _card_names())} is not measured: {NOTHING_TO_COMPARE}"
        )
    if worth and worth[0].comparable:
        w = worth[0]
        out.append(
            f"Barring {_bar_name(w.bar, _card_names())} moves its side's win rate from {_ci(w.free)} to {_ci(w.barred)}: "
            f"it is worth {100 * w.worth:+.0f} points of win rate"
            + (
                "."
                if w.free.ci[0] > w.barred.ci[1] or w.barred.ci[0] > w.free.ci[1]
                else " (the two intervals overlap: not yet clear at these numbers)."
            )
        )
    return out


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
    cell = 16 if len(order) > 20 else 28
    left = 230
    top = 10
    size = cell * len(order)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + size + 10}" '
        f'height="{top + size + 230}" role="img" aria-label="matchup win-rate matrix">'
    ]
    for i, a in enumerate(order):
        y = top + i * cell
        parts.append(
            f'<text x="{left - 4}" y="{y + cell * 0.7:.0f}" text-anchor="end">{_esc(_team_name(a, names))}</text>'
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
            )
    for j, b in enumerate(order):
        tx = left + j * cell + cell * 0.7
        ty = top + size + 4
        parts.append(
            f'<text transform="translate({tx:.0f},{ty}) rotate(60)">{_esc(_team_name(b, names))}</text>'
        )
    parts.append("</svg>")
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


def _page(results: Path, f: dict[str, object], names: dict[str, str]) -> str:
    games: Sequence[Game] = f["games"]  # type: ignore[assignment]
    matrix: dict[tuple[str, str], Rate] = f["matrix"]  # type: ignore[assignment]
    teams: dict[str, Rate] = f["teams"]  # type: ignore[assignment]
    order = sorted(teams, key=lambda t: (-teams[t].rate, t))
    ratings: list[Rating] = f["ratings"]  # type: ignore[assignment]
    first: Rate = f["first"]  # type: ignore[assignment]
    agents = sorted({f"{g.agent_a} vs {g.agent_b}" for g in games})
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width,initial-scale=1'>",
        f"<title>Funkoverse balance report</title><style>{CSS}</style></head><body>",
        "<h1>Funkoverse balance report</h1>",
        f"<p class='note'>From {_esc(results.name)}: {len(games)} games without bars"
        f" ({f['restricted']} more with bars), {len(teams)} teams, agents {_esc(', '.join(agents))}. "
        "A draw (stopped at the round limit) counts half. Intervals are 95%: Wilson for rates, "
        "bootstrap for ratings.</p>",
        "<h2>What stands out</h2><ul class='summary'>",
        *(f"<li>{_esc(s)}</li>" for s in stand_out(f, names)),
        "</ul>",
        "<h2>Who beats whom</h2><p class='note'>Row team's win rate against the column team "
        "(blue: the row wins more). Hover a square for its interval.</p>",
        _heatmap(matrix, order, names),
        "<h2>Teams</h2>",
        _table(
            ("team", "games", "win rate [95%]"),
            [(_esc(_team_name(t, names)), str(teams[t].games), _ci(teams[t])) for t in order],
            [f'class="team" data-team="{_esc(t)}" data-rate="{teams[t].rate:.4f}"' for t in order],
        ),
    ]
    for kind in ("character", "item"):
        rows = [r for r in ratings if r.kind == kind]
        if not rows:
            continue
        parts.append(f"<h2>{kind.title()} ratings (Bradley-Terry)</h2>")
        parts.append(
            "<p class='note'>A team's strength is the sum of its cards' ratings; 0 is the "
            "average card; Elo points: +100 beats an average card 64% of the time.</p>"
        )
        lo_v = min(stats.ELO * r.lo for r in rows) - 10
        hi_v = max(stats.ELO * r.hi for r in rows) + 10
        parts.append(
            _bars(
                [
                    (
                        names.get(r.card, r.card),
                        r.elo,
                        stats.ELO * r.lo,
                        stats.ELO * r.hi,
                        f"{r.elo:+.0f} Elo",
                    )
                    for r in rows
                ],
                lo_v,
                hi_v,
            )
        )
        parts.append(
            _table(
                ("card", "games", "rating (log-odds)", "95%", "Elo"),
                [
                    (
                        _esc(names.get(r.card, r.card)),
                        str(r.games),
                        f"{r.theta:+.3f}",
                        f"[{r.lo:+.2f}, {r.hi:+.2f}]",
                        f"{r.elo:+.0f}",
                    )
                    for r in rows
                ],
                [
                    f'class="rating" data-kind="{r.kind}" data-card="{_esc(r.card)}" data-rating="{r.theta:.4f}"'
                    for r in rows
                ],
            )
        )
    lo, hi = first.ci
    parts.append(
        f"<h2>First player</h2><p id='first-player' data-games='{first.games}' "
        f"data-rate='{first.rate:.4f}' data-lo='{lo:.4f}' data-hi='{hi:.4f}'>The first player "
        f"wins {_ci(first)} of {first.games} games.</p>"
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

"""The balance report (issue 22, item 5): its matrix, ratings and first-player figures,
recomputed here from the store's rows, equal what the page and the CSV files say; the page
opens offline (nothing fetched, no script); restricted runs give what a barred card is worth."""

from __future__ import annotations

import csv
import json
import re
import sqlite3
from collections import defaultdict
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import minimize

from funkoverse.ai.arena import wilson
from funkoverse.cli import main
from funkoverse.lab.model import RIDGE

ROSTER = "the-cheetah,wonder-woman,priestess,villager,dracula"
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("report")
    db = tmp / "results.db"
    # greedy games end in 2 to 15 rounds: who went first and who holds the marker at the end
    # differ in about half of them
    common = ["simulate", "--roster", ROSTER, "--agent", "greedy", "--max-rounds", "10"]
    assert main([*common, "--games", "8", "--seed", "3", "--out", str(db)]) == 0
    barred = ["--bar", "ability:savage-hunger", "--games", "8", "--seed", "3"]
    assert main([*common, *barred, "--out", str(db)]) == 0
    out = tmp / "report"
    assert main(["report", str(db), "--out", str(out), "--bootstrap", "30"]) == 0
    return db, out


class _Attrs(HTMLParser):
    """Every element's attributes, by tag."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, dict[str, str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, {k: v or "" for k, v in attrs}))


def _page(out: Path) -> list[tuple[str, dict[str, str]]]:
    parser = _Attrs()
    parser.feed((out / "index.html").read_text(encoding="utf-8"))
    return parser.found


def _csv(out: Path, name: str) -> list[dict[str, str]]:
    with (out / name).open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _rows(db: Path) -> list[sqlite3.Row]:
    con = sqlite3.connect(db)
    con.row_factory = sqlite3.Row
    return con.execute("SELECT * FROM games WHERE bars = '[]'").fetchall()


def test_the_page_opens_offline(report: tuple[Path, Path]) -> None:
    _, out = report
    text = (out / "index.html").read_text(encoding="utf-8")
    assert "<script" not in text.lower()
    assert not re.search(r"(src|href)\s*=", text, re.I)
    assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", text)
    assert "<svg" in text and "What stands out" in text


def test_the_matrix_matches_the_store(report: tuple[Path, Path]) -> None:
    db, out = report
    score: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0.0])
    for r in _rows(db):
        s = 1.0 if r["winner"] == "a" else 0.0 if r["winner"] == "b" else 0.5
        for key, v in (((r["team_a"], r["team_b"]), s), ((r["team_b"], r["team_a"]), 1 - s)):
            score[key][0] += 1
            score[key][1] += v
    cells = {
        (a["data-team"], a["data-opponent"]): a
        for tag, a in _page(out)
        if tag == "rect" and a.get("class") == "cell"
    }
    table = {(r["team"], r["opponent"]): r for r in _csv(out, "matrix.csv")}
    assert set(cells) == set(table) == set(score)
    for key, (n, s) in score.items():
        lo, hi = wilson(s, int(n))
        for shown in (cells[key]["data-rate"], table[key]["win_rate"]):
            assert float(shown) == pytest.approx(s / n, abs=1e-4)
        assert float(cells[key]["data-lo"]) == pytest.approx(lo, abs=1e-4)
        assert float(table[key]["ci_high"]) == pytest.approx(hi, abs=1e-4)
        assert int(cells[key]["data-games"]) == int(table[key]["games"]) == n


def test_the_first_player_figure_matches_the_store(report: tuple[Path, Path]) -> None:
    """Who went first is read from each game's spec (the setup the rules start from), not
    from a column: the First Player marker passes every round (Ending a Round)."""
    db, out = report
    n, s = 0, 0.0
    for r in _rows(db):
        n += 1
        first = json.loads(r["spec"])["first_player"]
        assert first in ("dark", "light")
        if r["winner"] is None:
            s += 0.5
        else:
            side = r["a_side"] if r["winner"] == "a" else ({"dark", "light"} - {r["a_side"]}).pop()
            s += side == first
    shown = next(a for tag, a in _page(out) if a.get("id") == "first-player")
    (row,) = _csv(out, "first_player.csv")
    assert int(shown["data-games"]) == int(row["games"]) == n
    assert float(shown["data-rate"]) == pytest.approx(s / n, abs=1e-4)
    assert float(row["win_rate"]) == pytest.approx(s / n, abs=1e-4)
    assert float(shown["data-lo"]) == pytest.approx(wilson(s, n)[0], abs=1e-4)


def test_the_ratings_match_a_fit_of_the_store(report: tuple[Path, Path]) -> None:
    """Team Bradley-Terry, fitted here on its own: each side's strength is the sum of its
    characters' ratings; P(A wins) is the logistic of the difference; draws count half."""
    db, out = report
    rows = _rows(db)
    chars = sorted({c for r in rows for t in (r["team_a"], r["team_b"]) for c in t.split("+")})
    x = np.zeros((len(rows), len(chars)))
    y = np.zeros(len(rows))
    for n, r in enumerate(rows):
        for c in r["team_a"].split("+"):
            x[n, chars.index(c)] += 1
        for c in r["team_b"].split("+"):
            x[n, chars.index(c)] -= 1
        y[n] = 1.0 if r["winner"] == "a" else 0.0 if r["winner"] == "b" else 0.5

    def nll(t: np.ndarray) -> float:
        z = x @ t
        return float(np.sum(np.logaddexp(0, z) - y * z) + RIDGE / 2 * t @ t)

    theta = minimize(nll, np.zeros(len(chars)), method="BFGS").x
    theta -= theta.mean()
    page = {
        a["data-card"]: float(a["data-rating"])
        for tag, a in _page(out)
        if tag == "tr" and a.get("class") == "rating"
    }
    table = {r["card"]: r for r in _csv(out, "ratings.csv")}
    for c, t in zip(chars, theta, strict=True):
        assert page[c] == pytest.approx(t, abs=2e-3)
        assert float(table[c]["rating"]) == pytest.approx(t, abs=2e-3)
        assert float(table[c]["ci_low"]) <= float(table[c]["rating"]) + 1e-9
        assert float(table[c]["rating"]) <= float(table[c]["ci_high"]) + 1e-9
    shown = [float(r["rating"]) for r in _csv(out, "ratings.csv")]
    assert shown == sorted(shown, reverse=True)  # best first


def test_a_barred_card_is_reported_with_its_worth(report: tuple[Path, Path]) -> None:
    db, out = report
    con = sqlite3.connect(db)
    barred = con.execute("SELECT abilities, team_a, team_b FROM games WHERE bars != '[]'")
    for abilities, team_a, team_b in barred:
        used = json.loads(abilities)
        for who, team in (("a", team_a), ("b", team_b)):
            if "the-cheetah" in team:
                assert "savage-hunger" not in used[who]  # never picked while barred
    (row,) = _csv(out, "restricted.csv")
    assert row["bar"] == "ability:savage-hunger"
    assert int(row["games_barred"]) > 0 and int(row["games_free"]) > 0
    worth = float(row["rate_free"]) - float(row["rate_barred"])
    assert float(row["worth"]) == pytest.approx(worth, abs=1e-4)
    free_uses = con.execute(
        "SELECT COUNT(*) FROM games WHERE bars = '[]' AND abilities LIKE '%savage-hunger%'"
    ).fetchone()[0]
    assert free_uses > 0  # unbarred, the Cheetah does use it


def test_a_bad_bar_or_store_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--bar", "ability", "--out", str(tmp_path / "x.db")]) == 2
    assert "write ability:ID, item:ID or action:NAME" in capsys.readouterr().err
    assert main(["simulate", "--bar", "ability:no-such", "--dry-run"]) == 2
    assert "no character has an ability 'no-such'" in capsys.readouterr().err
    assert main(["report", str(tmp_path / "none.db")]) == 2
    assert "no such results store" in capsys.readouterr().err


def test_the_lobby_links_to_the_report() -> None:
    lobby = (ROOT / "src" / "funkoverse" / "web" / "lobby.js").read_text(encoding="utf-8")
    assert 'href="/report"' in lobby


def test_the_server_shows_the_latest_report(
    report: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fastapi.testclient import TestClient

    from funkoverse.server.app import create_app

    _, out = report
    monkeypatch.delenv("FUNKOVERSE_REPORT", raising=False)
    with TestClient(create_app(tmp_path / "games.db", workers=1, thinking=False)) as client:
        none = client.get("/report")
        assert none.status_code == 404 and "funkoverse report" in none.text
        monkeypatch.setenv("FUNKOVERSE_REPORT", str(out))
        page = client.get("/report")
        assert page.status_code == 200
        assert page.text == (out / "index.html").read_text(encoding="utf-8")
        for name in ("matrix.csv", "ratings.csv", "synergy.csv", "games.csv"):
            served = client.get(f"/report/{name}")
            assert served.status_code == 200, name
            assert served.content == (out / name).read_bytes()
        for bad in ("nothing.csv", "..%2Fresults.db", "index.html"):
            refused = client.get(f"/report/{bad}")
            assert refused.status_code == 404, bad
            assert refused.json()["error"]["code"] == "not_found"


def test_a_bar_with_no_free_games_to_compare_is_not_given_a_worth(tmp_path: Path) -> None:
    """Barred games whose matchups were never played free: no "from 0% to 55%, worth -55
    points", but words saying there is nothing to compare with and how to get it."""
    db = tmp_path / "results.db"
    common = [
        "simulate",
        "--agent",
        "random",
        "--max-rounds",
        "6",
        "--games",
        "4",
        "--out",
        str(db),
    ]
    assert main([*common, "--roster", "priestess,villager,wonder-woman,dracula"]) == 0
    barred = ["--roster", "the-cheetah,villager,priestess,wonder-woman", "--focus", "the-cheetah"]
    assert main([*common, *barred, "--bar", "a=ability:savage-hunger"]) == 0
    out = tmp_path / "report"
    assert main(["report", str(db), "--out", str(out), "--bootstrap", "0"]) == 0
    (row,) = _csv(out, "restricted.csv")
    assert int(row["games_barred"]) > 0 and int(row["games_free"]) == 0
    assert row["worth"] == "" and row["rate_free"] == ""
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "pts" not in page and "worth -" not in page
    assert "nothing to compare with" in page
    assert "Barring Savage Hunger is not measured" in page


def test_the_report_reads_no_log(
    report: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The logs are most of a store (about 330 MB of 63,000 games): the report reads only the
    columns its figures need."""
    db, _ = report
    read: set[str] = set()
    connect = sqlite3.connect

    def watched(*args: object, **kwargs: object) -> sqlite3.Connection:
        con = connect(*args, **kwargs)  # type: ignore[arg-type]

        def note(action: int, table: str | None, column: str | None, *_: object) -> int:
            if action == sqlite3.SQLITE_READ and table == "games" and column:
                read.add(column)
            return sqlite3.SQLITE_OK

        con.set_authorizer(note)
        return con

    monkeypatch.setattr(sqlite3, "connect", watched)
    assert main(["report", str(db), "--out", str(tmp_path / "r"), "--bootstrap", "0"]) == 0
    assert read and "log" not in read and "spec" not in read


def _summary(out: Path) -> list[str]:
    text = (out / "index.html").read_text(encoding="utf-8")
    return re.findall(r"<li>(.*?)</li>", text.split("<ul class='summary'>")[1].split("</ul>")[0])


def test_what_stands_out_does_not_depend_on_the_bootstrap_seed(
    report: tuple[Path, Path], tmp_path: Path
) -> None:
    db, out = report
    other = tmp_path / "other"
    assert main(["report", str(db), "--out", str(other), "--bootstrap", "30", "--seed", "5"]) == 0
    assert _summary(other) == _summary(out)
    assert any("Bradley-Terry" in line for line in _summary(out))
    assert _csv(other, "ratings.csv")[0]["ci_low"] == _csv(out, "ratings.csv")[0]["ci_low"]


def test_the_misfit_test_and_synergy_match_the_fit(report: tuple[Path, Path]) -> None:
    """Pearson's chi-squared of the matchups against the ratings, recomputed here; the page
    says in words whether a team is the sum of its cards."""
    db, out = report
    from scipy.stats import chi2 as chi2_dist

    theta = {r["card"]: float(r["rating"]) for r in _csv(out, "ratings.csv")}
    cells: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    pairs: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0])
    for r in _rows(db):
        y = 1.0 if r["winner"] == "a" else 0.0 if r["winner"] == "b" else 0.5
        z = sum(theta[c] for c in r["team_a"].split("+")) - sum(
            theta[c] for c in r["team_b"].split("+")
        )
        p = 1 / (1 + np.exp(-z))
        flip = r["team_a"] > r["team_b"]
        key = tuple(sorted((r["team_a"], r["team_b"])))
        cells[key][0] += 1 - y if flip else y  # type: ignore[index]
        cells[key][1] += 1 - p if flip else p  # type: ignore[index]
        cells[key][2] += p * (1 - p)  # type: ignore[index]
        for team, score, chance in ((r["team_a"], y, p), (r["team_b"], 1 - y, 1 - p)):
            pairs[tuple(sorted(team.split("+")))][0] += score - chance  # type: ignore[index]
            pairs[tuple(sorted(team.split("+")))][1] += chance * (1 - chance)  # type: ignore[index]
    chi2 = sum((o - e) ** 2 / v for o, e, v in cells.values())
    dof = len(cells) - (len(theta) - 1)
    (row,) = _csv(out, "model_fit.csv")
    assert float(row["chi2"]) == pytest.approx(chi2, rel=2e-3)
    assert int(row["dof"]) == dof
    assert float(row["p"]) == pytest.approx(chi2_dist.sf(chi2, dof), abs=2e-3)
    page = (out / "index.html").read_text(encoding="utf-8")
    words = "A team is the sum of its cards" if float(row["p"]) >= 0.05 else "not quite the sum"
    assert words in page and f"on {dof} degrees of freedom" in page
    for s in _csv(out, "synergy.csv"):
        resid, var = pairs[(s["character"], s["ally"])]
        assert float(s["z"]) == pytest.approx(resid / np.sqrt(var), abs=2e-2)


def test_ranks_and_the_chance_that_one_card_beats_another(report: tuple[Path, Path]) -> None:
    _, out = report
    ratings = _csv(out, "ratings.csv")
    for r in ratings:
        assert 1 <= int(r["rank_low"]) <= int(r["rank"]) <= int(r["rank_high"]) <= len(ratings)
    theta = {r["card"]: float(r["rating"]) for r in ratings}
    chances = _csv(out, "head_to_head.csv")
    assert len(chances) == len(theta) * (len(theta) - 1)
    for h in chances:
        expected = 1 / (1 + np.exp(-(theta[h["character"]] - theta[h["instead_of"]])))
        assert float(h["p_beats"]) == pytest.approx(expected, abs=2e-3)
        assert float(h["ci_low"]) <= float(h["p_beats"]) <= float(h["ci_high"])


def test_the_heatmap_has_a_legend_numbers_and_room_for_its_labels(
    report: tuple[Path, Path],
) -> None:
    _, out = report
    text = (out / "index.html").read_text(encoding="utf-8")
    svg = text[text.index('aria-label="matchup win-rate matrix"') :].split("</svg>")[0]
    width = float(
        re.search(r'width="(\d+)"', text[text.rindex("<svg", 0, text.index(svg)) :]).group(1)
    )
    assert "row team&#x27;s win rate" in svg or "row team's win rate" in svg
    assert all(f">{v}%</text>" in svg for v in (0, 50, 100))
    cells = re.findall(
        r'data-rate="([0-9.]+)"[^>]*><title>[^<]*</title></rect><text[^>]*>(\d+)</text>', svg
    )
    assert cells and all(int(n) == round(100 * float(rate)) for rate, n in cells)
    # the rightmost column's label, 6 px a character at 60 degrees, stays inside the picture
    labels = re.findall(r'translate\((\d+),\d+\) rotate\(60\)">([^<]*)<', svg)
    assert all(int(x) + 0.5 * 6 * len(name) <= width for x, name in labels)


def test_compare_says_what_changed_beyond_noise(report: tuple[Path, Path], tmp_path: Path) -> None:
    db, _ = report
    other = tmp_path / "random.db"
    argv = ["simulate", "--roster", ROSTER, "--agent", "random", "--max-rounds", "10"]
    assert main([*argv, "--games", "8", "--seed", "3", "--out", str(other)]) == 0
    same = tmp_path / "same"
    assert (
        main(["report", str(db), "--out", str(same), "--bootstrap", "0", "--compare", str(db)]) == 0
    )
    assert all(
        float(c["change"]) == 0 and float(c["p_holm"]) == 1 for c in _csv(same, "compare.csv")
    )
    assert "none of the" in (same / "index.html").read_text(encoding="utf-8")
    changed = tmp_path / "changed"
    assert (
        main(
            ["report", str(db), "--out", str(changed), "--bootstrap", "0", "--compare", str(other)]
        )
        == 0
    )
    rows = {(c["what"], c["item"]): c for c in _csv(changed, "compare.csv")}
    # random games stop at the round limit; greedy ones end: beyond noise
    unfinished = rows[("unfinished", "")]
    assert (
        float(unfinished["this"]) < float(unfinished["other"])
        and float(unfinished["p_holm"]) < 0.05
    )
    assert {k[1] for k in rows if k[0] == "rating"} == set(ROSTER.split(","))
    assert "changed beyond noise: " in (changed / "index.html").read_text(encoding="utf-8")


def test_progress_is_logged_in_lines_when_not_on_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from funkoverse.lab import progress

    monkeypatch.setattr(progress, "LOG_SECONDS", 0.0)
    argv = ["simulate", "--roster", "the-cheetah,priestess,villager", "--size", "1"]
    argv += ["--agent", "random", "--games", "2", "--max-rounds", "3", "--json"]
    assert main([*argv, "--out", str(tmp_path / "r.db")]) == 0
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines[0] == "simulate: 0 of 6 games (0%)"
    assert lines[-1].startswith("simulate: 6 of 6 games (100%), ")
    assert len(lines) >= 6


def test_a_store_from_before_the_starting_first_player_is_read_from_its_specs(
    report: tuple[Path, Path], tmp_path: Path
) -> None:
    """Older stores held the last round's First Player under `first_player`: the report reads
    who went first from the specs instead, and simulate's store upgrades it in place."""
    import shutil

    from funkoverse.lab.store import Store

    db, out = report
    old = tmp_path / "old.db"
    shutil.copy(db, old)
    con = sqlite3.connect(old)
    con.execute("ALTER TABLE games DROP COLUMN first_player")
    con.execute("ALTER TABLE games RENAME COLUMN last_first_player TO first_player")
    con.commit()
    con.close()
    again = tmp_path / "again"
    assert main(["report", str(old), "--out", str(again), "--bootstrap", "0"]) == 0
    assert _csv(again, "first_player.csv") == _csv(out, "first_player.csv")
    with Store(old) as store, Store(db) as new:
        assert store.results() == new.results()


def test_two_agents_are_rated_apart_from_the_cards(tmp_path: Path) -> None:
    """Greedy against random, each pair of teams played both ways: the fit gives the agents
    their own ratings, so no card is credited with greedy's wins."""
    db = tmp_path / "mixed.db"
    argv = ["simulate", "--roster", ROSTER, "--agent-a", "greedy", "--agent-b", "random"]
    assert main([*argv, "--games", "4", "--max-rounds", "10", "--out", str(db)]) == 0
    out = tmp_path / "report"
    assert main(["report", str(db), "--out", str(out), "--bootstrap", "0"]) == 0
    ratings = {(r["kind"], r["card"]): float(r["elo"]) for r in _csv(out, "ratings.csv")}
    assert ratings[("agent", "greedy")] > 300 > -300 > ratings[("agent", "random")]
    assert all(abs(v) < 200 for (kind, _), v in ratings.items() if kind == "character")
    teams = {r["team"]: float(r["win_rate"]) for r in _csv(out, "teams.csv")}
    assert all(0.3 < rate < 0.7 for rate in teams.values())  # each team half with each agent
    assert "the fit rates each agent too" in (out / "index.html").read_text(encoding="utf-8")

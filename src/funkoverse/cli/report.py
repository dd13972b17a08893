"""`funkoverse report`: a results store turned into an offline HTML page and CSV files."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser(
        "report",
        help="write the balance report of a results store (HTML and CSV)",
        description=(
            "Read a results store written by 'funkoverse simulate' and write OUT/index.html (one "
            "self-contained page that opens offline) and CSV files: the matchup win-rate matrix "
            "with Wilson 95% intervals, Bradley-Terry ratings of characters and items with "
            "intervals and ranks, whether a team is the sum of its cards (synergy), ratings by "
            "scenario and map, first-player advantage, balance by scenario and map, game "
            "lengths, ability and item use, what each barred card is worth, and with --compare "
            "what changed from another store."
        ),
    )
    p.add_argument("results", help="the results store (a .db file)")
    p.add_argument("--out", default="report", help="folder to write (default: %(default)s)")
    p.add_argument(
        "--bootstrap",
        type=int,
        default=200,
        help="bootstrap resamples for the rating intervals (default: %(default)s)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the bootstrap (default: 0)")
    p.add_argument(
        "--compare",
        default=None,
        metavar="OTHER.db",
        help="another results store: what changed from it, and whether it is more than noise",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from funkoverse.lab.report import write_report

    against = Path(args.compare) if args.compare else None
    out = write_report(Path(args.results), Path(args.out), args.bootstrap, args.seed, against)
    print(f"wrote {out / 'index.html'} and its CSV files")
    return 0

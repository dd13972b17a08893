"""`funkoverse odds`: the exact chance that a challenger wins.

    funkoverse odds ATTACK_DICE DEFENSE_DICE [--attack-extra DIE ...]
                    [--defense-extra DIE ...] [--json]
    funkoverse odds --table [--max N] [--json]

Counts are standard dice; extra dice (e.g. ``champion``, ``blood``) are named by
their id in ``content/data/dice`` and count for whichever side rolls them.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from funkoverse.content.dice import load_dice
from funkoverse.errors import UserError
from funkoverse.rules.core.dice import (
    DieSpec,
    Role,
    fraction_text,
    odds_table,
    percent,
    success_distribution,
    win_probability,
)

MAX_POOL = 20
"""Most dice one side may roll here (standard and extra together)."""

DEFAULT_TABLE_MAX = 6
STANDARD = "standard"


def register(sub: Any) -> None:
    p = sub.add_parser(
        "odds",
        help="exact chance that a challenger wins a challenge",
        description=(
            "Exact chance that the challenger wins: more successes than the defender "
            "(a tie loses). Or, with --table, the rulebook's Challenger Win "
            "Probabilities table (rows: defender's dice; columns: challenger's dice)."
        ),
    )
    p.add_argument(
        "attack_dice",
        metavar="ATTACK_DICE",
        nargs="?",
        help="standard dice the challenger rolls",
    )
    p.add_argument(
        "defense_dice",
        metavar="DEFENSE_DICE",
        nargs="?",
        help="standard dice the defender rolls (the target's defense; may be 0)",
    )
    p.add_argument(
        "--attack-extra",
        metavar="DIE",
        nargs="+",
        action="extend",
        default=[],
        help="extra dice added to the challenger's roll, by id (e.g. champion, blood)",
    )
    p.add_argument(
        "--defense-extra",
        metavar="DIE",
        nargs="+",
        action="extend",
        default=[],
        help="extra dice added to the defender's roll, by id (e.g. champion)",
    )
    p.add_argument(
        "--table",
        action="store_true",
        help="print the Challenger Win Probabilities table for standard dice",
    )
    p.add_argument(
        "--max",
        metavar="N",
        default=None,
        help=f"with --table: dice on each side, 1 to {MAX_POOL} (default {DEFAULT_TABLE_MAX})",
    )
    p.add_argument("--json", action="store_true", help="answer in JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.table:
        if args.attack_dice is not None or args.defense_dice is not None:
            raise UserError("--table takes no dice counts (use --max N for its size)")
        if args.attack_extra or args.defense_extra:
            raise UserError(
                "--table is for standard dice only; drop --attack-extra/--defense-extra"
            )
        size = DEFAULT_TABLE_MAX if args.max is None else _count("--max", args.max, minimum=1)
        return _run_table(size, as_json=args.json)
    if args.max is not None:
        raise UserError("--max goes with --table")
    if args.attack_dice is None or args.defense_dice is None:
        missing = "ATTACK_DICE and DEFENSE_DICE" if args.attack_dice is None else "DEFENSE_DICE"
        raise UserError(f"missing {missing} (e.g. 'funkoverse odds 2 1', or --table)")
    return _run_odds(args)


# --- input ------------------------------------------------------------------------


def _count(what: str, text: str, minimum: int = 0) -> int:
    """A whole number of dice from the command line, checked."""
    try:
        n = int(text)
    except ValueError:
        raise UserError(f"{what}: expected a whole number of dice, got {text!r}") from None
    if n < minimum:
        raise UserError(f"{what}: expected {minimum} or more dice, got {n}")
    if n > MAX_POOL:
        raise UserError(f"{what}: at most {MAX_POOL} dice, got {n}")
    return n


def _extra(names: Sequence[str], dice: Mapping[str, DieSpec], option: str) -> list[DieSpec]:
    pool = []
    for name in names:
        die = dice.get(name.strip().lower())
        if die is None:
            known = ", ".join(sorted(dice))
            raise UserError(f"{option}: unknown die {name!r} (known dice: {known})")
        pool.append(die)
    return pool


def _standard(dice: Mapping[str, DieSpec]) -> DieSpec:
    try:
        return dice[STANDARD]
    except KeyError:
        raise UserError(f"no '{STANDARD}' die in the dice data") from None


def _describe(count: int, extra: Sequence[DieSpec]) -> str:
    parts = [f"{count} standard {'die' if count == 1 else 'dice'}"] if count or not extra else []
    parts += [die.name for die in extra]
    return " + ".join(parts)


def _cell(p: Fraction) -> dict[str, Any]:
    return {"p": fraction_text(p), "percent": percent(p)}


def _percent_text(p: Fraction) -> str:
    """A chance for people, to 0.1%; never '100.0%' or '0.0%' unless it is certain."""
    shown = percent(p)
    if shown >= 100 and p < 1:
        return ">99.9%"
    if shown <= 0 and p > 0:
        return "<0.1%"
    return f"{shown:.1f}%"


def _console(min_width: int = 80) -> Console:
    """A console on standard output, wide enough for a table when output is not a terminal."""
    console = Console(highlight=False)
    if not console.is_terminal and console.width < min_width:
        console = Console(highlight=False, width=min_width)
    return console


# --- one challenge -----------------------------------------------------------------


def _run_odds(args: argparse.Namespace) -> int:
    attack_n = _count("ATTACK_DICE", args.attack_dice)
    defense_n = _count("DEFENSE_DICE", args.defense_dice)
    dice = load_dice()
    standard = _standard(dice)
    attack = [standard] * attack_n + _extra(args.attack_extra, dice, "--attack-extra")
    defense = [standard] * defense_n + _extra(args.defense_extra, dice, "--defense-extra")
    for side, pool in (("challenger", attack), ("defender", defense)):
        if len(pool) > MAX_POOL:
            raise UserError(f"the {side} rolls {len(pool)} dice; at most {MAX_POOL}")

    p = win_probability(attack, defense)
    dists: dict[Role, Mapping[int, Fraction]] = {
        "challenger": success_distribution(attack, "challenger"),
        "defender": success_distribution(defense, "defender"),
    }
    if args.json:
        answer = {
            "attack": {"dice": attack_n, "extra": [d.id for d in attack[attack_n:]]},
            "defense": {"dice": defense_n, "extra": [d.id for d in defense[defense_n:]]},
            **_cell(p),
            "distributions": {
                role: [{"successes": s, **_cell(q)} for s, q in sorted(dist.items())]
                for role, dist in dists.items()
            },
        }
        print(json.dumps(answer, indent=2))
        return 0

    console = _console()
    attack_text = _describe(attack_n, attack[attack_n:])
    defense_text = _describe(defense_n, defense[defense_n:])
    console.print(Text(f"Challenger rolls: {attack_text}"))
    console.print(Text(f"Defender rolls:   {defense_text}"))
    console.print(
        Text.assemble(
            "Chance the challenger wins: ",
            (f"{fraction_text(p)} = {_percent_text(p)}", "bold"),
        )
    )
    console.print(Text("(the challenger needs strictly more successes; a tie loses)"))

    table = Table(title="Chance of each number of successes", title_justify="left")
    table.add_column("successes", justify="right")
    for role in dists:
        table.add_column(role, justify="right")
        table.add_column("exact", justify="left", style="dim")
    top = max(max(dist) for dist in dists.values())
    for s in range(top + 1):
        row = [str(s)]
        for dist in dists.values():
            q = dist.get(s)
            row += ["-", ""] if q is None else [_percent_text(q), fraction_text(q)]
        table.add_row(*row)
    console.print(table)
    return 0


# --- the rulebook's table ----------------------------------------------------------


def _run_table(size: int, *, as_json: bool) -> int:
    standard = _standard(load_dice())
    table = odds_table(size, size, standard=standard)
    defender_dice = list(range(size + 1))
    challenger_dice = list(range(1, size + 1))
    if as_json:
        answer = {
            "rows": "defender_dice",
            "columns": "challenger_dice",
            "defender_dice": defender_dice,
            "challenger_dice": challenger_dice,
            "p": [[fraction_text(q) for q in row] for row in table],
            "percent": [[percent(q) for q in row] for row in table],
        }
        print(json.dumps(answer, indent=2))
        return 0

    corner = "defender \\ challenger"
    console = _console(min_width=max(80, len(corner) + 4 + 9 * size))
    console.print(
        Text("Challenger Win Probabilities (standard dice, exact, to 0.1%)", style="bold")
    )
    console.print(Text("Rows: defender's dice.  Columns: challenger's dice."))
    grid = Table()
    grid.add_column(Text(corner), justify="right", style="bold")
    for a in challenger_dice:
        grid.add_column(Text(str(a)), justify="right")
    for d, row in zip(defender_dice, table, strict=True):
        grid.add_row(str(d), *(_percent_text(q) for q in row))
    console.print(grid)
    console.print(
        Text(
            "The rulebook's table (Space Jam: A New Legacy) says its rows are the\n"
            "challenger's dice; they are in fact the defender's. It starts at 1 die."
        )
    )
    return 0

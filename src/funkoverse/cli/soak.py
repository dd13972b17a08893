"""`funkoverse soak`: many seeded random and AI games over every way to play, each checked
after every choice and replayed from its saved log; a failing game is named so it plays again."""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from funkoverse.cli.engine import engine_of
from funkoverse.errors import UserError

PROGRESS_SECONDS = 10.0
DEFAULT_MAX_ROUNDS = 100


def register(sub: Any) -> None:
    p = sub.add_parser(
        "soak",
        help="play many checked games over every way to play, to find what breaks",
        description=(
            "Play seeded random games and games of the AI levels over every scenario, map, "
            "way to play (standard, two players a side, free-for-all, ultimate, drafts open "
            "and secret, attachments, first games) and character. After every choice the "
            "invariants are checked, every legal choice's id is read back, and while a secret "
            "is kept no seat's view, events or log may show it; at the end each game is saved, "
            "read back and played again to the same position. A failing game is printed on "
            "one line with the id that plays it again (--replay) and the exit status is 1."
        ),
    )
    p.add_argument(
        "--games", type=int, default=1000, help="random games to play (default: %(default)s)"
    )
    p.add_argument(
        "--ai-games",
        type=int,
        default=10,
        help="games of the AI levels, easy to expert, simple, greedy and expectimax, against "
        "each other (default: %(default)s)",
    )
    p.add_argument(
        "--seed",
        type=int,
        default=0,
        help="the first game's seed; the run plays seeds SEED, SEED+1, ... (default: %(default)s)",
    )
    p.add_argument(
        "--workers", type=int, default=1, help="processes to play in (default: %(default)s)"
    )
    p.add_argument(
        "--max-rounds",
        type=int,
        default=DEFAULT_MAX_ROUNDS,
        help="stop a game still going after this many rounds, and check it there "
        "(default: %(default)s)",
    )
    p.add_argument(
        "--time-limit",
        type=float,
        default=600.0,
        metavar="SECONDS",
        help="a game still playing after this long is a failure (default: %(default)g)",
    )
    p.add_argument(
        "--replay",
        metavar="GAME",
        default=None,
        help="play one game again, as a failure names it (random:SEED or ai:SEED)",
    )
    p.add_argument(
        "--failures",
        metavar="DIR",
        default=None,
        help="write each failing game to this folder: GAME.json, a saved game that "
        "`funkoverse replay` and `play --load` read, and GAME.txt, what failed and where",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object at the end")
    p.add_argument("--quiet", action="store_true", help="no progress lines on standard error")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from funkoverse.soak.game import read_game_id
    from funkoverse.soak.run import Totals, game_ids, play_games, setup_of, summary

    _check(args)
    folder = _failures_folder(args.failures)
    engine = engine_of(args).name
    if args.replay is not None:
        read_game_id(args.replay)
        games: Any = [args.replay]
        total = 1
        workers = 0
    else:
        games = game_ids(args.games, args.ai_games, args.seed)
        total = args.games + args.ai_games
        workers = args.workers
    again = _again_options(args)
    progress = _Progress(total, quiet=args.quiet or args.replay is not None)

    def heard(outcome: Any, totals: Any) -> None:
        if outcome.failure is not None:
            sys.stderr.write(_failure_line(outcome, again) + "\n")
            if folder is not None:
                _write_failure(folder, outcome, again)
        progress.tick(totals)

    totals = Totals()
    stopped: str | None = None
    status = 0
    try:
        with _stopped_by_sigterm():
            play_games(games, args.max_rounds, workers, args.time_limit, heard, totals, engine)
    except _Stopped:
        stopped, status = "stopped", 128 + signal.SIGTERM
    except KeyboardInterrupt:
        stopped, status = "interrupted", 130
    if stopped is not None:
        sys.stderr.write(
            f"funkoverse soak: {stopped} after {totals.played:,} of {total:,} games; what they "
            "checked follows\n"
        )
    result = summary(totals, engine, args.ai_games > 0 and args.replay is None)
    if stopped is not None:
        result["stopped"] = stopped
    if args.json:
        sys.stdout.write(json.dumps(result) + "\n")
    else:
        if args.replay is not None:
            print(f"{args.replay}: {setup_of(args.replay)}")
        _print(result, totals, again, args.replay is not None)
    return status or (1 if totals.failures else 0)


def _check(args: argparse.Namespace) -> None:
    if args.games < 0 or args.ai_games < 0:
        raise UserError("--games and --ai-games count games: 0 or more")
    if args.replay is None and args.games + args.ai_games == 0:
        raise UserError("nothing to play: give --games or --ai-games above 0")
    if args.workers < 1:
        raise UserError(f"--workers must be at least 1, not {args.workers}")
    if args.max_rounds < 1:
        raise UserError(f"--max-rounds must be at least 1, not {args.max_rounds}")
    if not args.time_limit > 0:
        raise UserError("--time-limit must be a number of seconds above 0")
    if not 0 <= args.seed < 10**15:
        raise UserError("--seed must be a whole number from 0 to 10^15")


class _Stopped(KeyboardInterrupt):
    """SIGTERM: stop as Ctrl-C does, workers and all."""


@contextmanager
def _stopped_by_sigterm() -> Iterator[None]:
    def stop(signum: int, frame: object) -> None:
        raise _Stopped()

    try:
        before = signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread: SIGTERM stays as it was
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def _failures_folder(given: str | None) -> Path | None:
    if given is None:
        return None
    folder = Path(given)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UserError(f"--failures {given}: cannot make the folder ({e.strerror})") from None
    return folder


def _again_options(args: argparse.Namespace) -> str:
    """The options a game needs to be played again as it was."""
    out = ""
    if args.max_rounds != DEFAULT_MAX_ROUNDS:
        out += f" --max-rounds {args.max_rounds}"
    if args.engine is not None:
        out += f" --engine {args.engine}"
    return out


def _failure_line(outcome: Any, again: str) -> str:
    return (
        f"FAILED {outcome.game} [{outcome.setup}]: {outcome.failure} "
        f"(again: funkoverse soak --replay {outcome.game}{again})"
    )


def _write_failure(folder: Path, outcome: Any, again: str) -> None:
    """GAME.json (the game as saved, up to the failure) and GAME.txt (what failed)."""
    from funkoverse.soak.game import read_game_id

    stem = "-".join(map(str, read_game_id(outcome.game)))
    try:
        if outcome.saved is not None:
            (folder / f"{stem}.json").write_text(
                json.dumps(outcome.saved, indent=1) + "\n", encoding="utf-8"
            )
        (folder / f"{stem}.txt").write_text(
            f"{_failure_line(outcome, again)}\n\n{outcome.detail}", encoding="utf-8"
        )
    except OSError as e:
        sys.stderr.write(f"funkoverse soak: cannot write {folder / stem}: {e.strerror}\n")


class _Progress:
    """A line on standard error every `PROGRESS_SECONDS`: games, checks, failures, rate."""

    def __init__(self, total: int, quiet: bool) -> None:
        self.total = total
        self.quiet = quiet
        self.last = time.monotonic()

    def tick(self, totals: Any) -> None:
        now = time.monotonic()
        if self.quiet or now - self.last < PROGRESS_SECONDS:
            return
        self.last = now
        rate = totals.played / totals.seconds if totals.seconds else 0.0
        left = (self.total - totals.played) / rate if rate else 0.0
        sys.stderr.write(
            f"soak: {totals.played:,} of {self.total:,} games, {totals.choices:,} choices "
            f"checked, {len(totals.failures)} failed, {rate:.1f} games/s, about "
            f"{_duration(left)} left\n"
        )
        sys.stderr.flush()


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _print(result: dict[str, Any], totals: Any, again: str, replay: bool) -> None:
    games = result["games"]
    engine = "the compiled kernel" if result["engine"] == "kernel" else "the Python engine"
    print(
        f"{games['random']:,} random and {games['ai']:,} AI games on {engine} in "
        f"{_duration(result['seconds'])}: {result['finished']:,} played to the end, "
        f"{result['stopped_at_round_limit']:,} stopped at the round limit"
    )
    print(
        f"  {result['choices_checked']:,} choices, each followed by the invariants; "
        f"{result['choice_ids_read_back']:,} legal choice ids read back; "
        f"{result['secrecy_checks']:,} secrecy checks; every log saved and replayed"
    )
    if not replay:
        covered = result["covered"]
        said = ", ".join(f"{len(covered.get(k, {}))} {k}s" for k in ("way", "scenario", "map"))
        said += ", " + ", ".join(
            f"{len(covered.get(k, {}))} {k}s" for k in ("character", "item", "agent")
        )
        print(f"  covered: {said}")
        if result["not_covered"]:
            print(f"  not covered: {', '.join(result['not_covered'])}")
    if totals.failures:
        print(f"{len(totals.failures)} failed:")
        for outcome in totals.failures:
            print(f"  {_failure_line(outcome, again)}")
    else:
        print("no failures")

"""A soak run: which games, played where, and what they add up to.

Random games take seeds `seed, seed+1, ...` and AI games the same, so a run of N games goes
round every way to play, scenario and map (`ways`); AI games are spread among the random
ones so that the work stays even. Totals count what was checked and what the games
covered (ways, scenarios, maps, characters, attachments, agents) and say what was missed.
"""

from __future__ import annotations

import functools
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from funkoverse.content.characters import load_characters
from funkoverse.content.scenarios import load_scenarios
from funkoverse.content.statuses import load_bonus_objectives, load_companions, load_items
from funkoverse.soak import game as soak_game
from funkoverse.soak.game import AI_PLAYERS, Outcome, game_id, read_game_id
from funkoverse.soak.ways import describe, spec_for, ways
from funkoverse.soak.workers import Workers


@dataclass
class Totals:
    """What a run played and checked."""

    games: Counter[str] = field(default_factory=Counter)  # by kind: random, ai
    choices: int = 0
    options: int = 0
    secrecy: int = 0
    finished: int = 0  # games that reached their end (the others stopped at the round limit)
    failures: list[Outcome] = field(default_factory=list)
    covered: Counter[tuple[str, str]] = field(default_factory=Counter)  # (kind, id)
    seconds: float = 0.0

    def add(self, outcome: Outcome) -> None:
        self.games[read_game_id(outcome.game)[0]] += 1
        self.choices += outcome.choices
        self.options += outcome.options
        self.secrecy += outcome.secrecy
        self.finished += outcome.over
        self.covered.update(outcome.covered)
        if outcome.failure is not None:
            self.failures.append(outcome)

    @property
    def played(self) -> int:
        return sum(self.games.values())

    def missed(self, ai: bool) -> list[tuple[str, str]]:
        """What the run was meant to cover and did not: every way, scenario, map each
        scenario allows, character, attachment (and agent, with AI games)."""
        wanted = [("way", w.name) for w in ways()]
        for s in load_scenarios().values():
            wanted.append(("scenario", s.id))
            wanted += [("map", m) for m in s.maps]
        wanted += [("character", c) for c in load_characters()]
        wanted += [("item", i) for i in load_items()]
        wanted += [("companion", c) for c in load_companions()]
        wanted += [("bonus", b) for b in load_bonus_objectives()]
        wanted += [("agent", a) for a in (AI_PLAYERS if ai else ("random",))]
        return [w for w in dict.fromkeys(wanted) if not self.covered[w]]


def game_ids(random_games: int, ai_games: int, seed: int = 0) -> Iterator[str]:
    """The run's games, the AI games spread evenly among the random ones."""
    total = random_games + ai_games
    ai_done = 0
    for n in range(total):
        if ai_done < ai_games and (n + 1) * ai_games >= (ai_done + 1) * total:
            yield game_id("ai", seed + ai_done)
            ai_done += 1
        else:
            yield game_id("random", seed + n - ai_done)


def play_games(
    games: Iterable[str],
    max_rounds: int,
    workers: int = 0,
    time_limit: float | None = None,
    on_outcome: Callable[[Outcome, Totals], None] | None = None,
    totals: Totals | None = None,
    engine: str | None = None,
) -> Totals:
    """Play every game (in `workers` processes; 0: in this one) and add up what they did in
    `totals` (a new one when not given: give one to keep what was done if the run is
    stopped); `on_outcome` hears of each game as it finishes."""
    totals = totals if totals is not None else Totals()
    play = functools.partial(
        soak_game.play, max_rounds=max_rounds, time_limit=time_limit, engine=engine
    )
    t0 = time.perf_counter()
    if workers < 1:
        for game in games:
            _add(totals, play(game), on_outcome, t0)
        return totals
    with Workers(workers, play) as pool:
        for outcome in pool.run(games):
            _add(totals, outcome, on_outcome, t0)
    return totals


def _add(
    totals: Totals,
    outcome: Outcome,
    on_outcome: Callable[[Outcome, Totals], None] | None,
    t0: float,
) -> None:
    if outcome.failure is not None and not outcome.setup:
        outcome.setup = setup_of(outcome.game)
    totals.add(outcome)
    totals.seconds = time.perf_counter() - t0
    if on_outcome is not None:
        on_outcome(outcome, totals)


def setup_of(game: str) -> str:
    """A game's setup in words, as far as it can be drawn."""
    try:
        return describe(*spec_for(read_game_id(game)[1]))
    except Exception as e:  # the setup itself fails to draw: the failure says so
        return f"(its setup could not be drawn: {type(e).__name__})"


def summary(totals: Totals, engine: str, ai: bool) -> dict[str, Any]:
    """The run as JSON-ready data."""
    kinds: dict[str, Counter[str]] = {}
    for (kind, name), n in totals.covered.items():
        kinds.setdefault(kind, Counter())[name] = n
    return {
        "engine": engine,
        "games": {"random": totals.games["random"], "ai": totals.games["ai"]},
        "choices_checked": totals.choices,
        "choice_ids_read_back": totals.options,
        "secrecy_checks": totals.secrecy,
        "finished": totals.finished,
        "stopped_at_round_limit": totals.played - totals.finished - len(totals.failures),
        "failures": [
            {"game": o.game, "setup": o.setup, "failure": o.failure} for o in totals.failures
        ],
        "seconds": round(totals.seconds, 1),
        "covered": {k: dict(sorted(v.items())) for k, v in sorted(kinds.items())},
        "not_covered": [f"{kind} {name}" for kind, name in totals.missed(ai)],
    }

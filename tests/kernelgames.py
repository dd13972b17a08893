"""Seeded games of every kind, played through the Python engine and the compiled kernel side
by side, choice by choice (the differential test of tests/test_kernel.py).

`varied_setup(seed)` draws a setup of one of every way to play: the two first games, Flags,
Leaders and Control with two and three a side, free-for-all with three and four players, two
players a side, ultimate mode, drafts (open and secret), and setups with the house-made
companion, bonus objective and minion item. `compare(setup, seed)` plays it with uniformly
random legal choices and the game's dice, and at every step holds the kernel to the Python
engine: the same legal choices in the same order, `is_legal` equal to membership, the same
events, and the same position.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, fields, replace
from typing import Any

from funkoverse.content.characters import load_characters
from funkoverse.content.scenarios import load_scenarios
from funkoverse.content.setups import SetupRequest, build, draw_spec, make_setup, random_teams, team
from funkoverse.rules import compiled, engine
from funkoverse.rules.engines import PYTHON
from funkoverse.rules.game import Game
from funkoverse.rules.state import CHANCE, GameState, Phase, Piece, Setup, SideState

REQUESTS: tuple[SetupRequest, ...] = (
    SetupRequest(scenario="first-knockout"),
    SetupRequest(scenario="monsters-first-game"),
    SetupRequest(scenario="flags", size=2),
    SetupRequest(scenario="flags", size=3),
    SetupRequest(scenario="leaders", size=2),
    SetupRequest(scenario="leaders", size=3),
    SetupRequest(scenario="control", size=2),
    SetupRequest(scenario="control", size=3),
    SetupRequest(scenario="brawl", players=3),
    SetupRequest(scenario="brawl", players=4),
    SetupRequest(scenario="titans"),
    SetupRequest(scenario="flags", players=4),
    SetupRequest(scenario="control", players=4),
    SetupRequest(scenario="leaders", players=4),
    SetupRequest(scenario="flags", draft=3),
    SetupRequest(scenario="leaders", draft=2),
    SetupRequest(scenario="control", draft=3, secret=False),
)
KINDS = len(REQUESTS) + 3  # and three in a cycle with companions, bonus objectives, minions


def with_attachments(seed: int) -> Setup:
    """Two or three a side with the house-made attachments (the same ones for both sides:
    Play with Attachments), on a scenario drawn from the seed."""
    rng = random.Random(seed)
    cards = load_characters()
    scenario = load_scenarios()[rng.choice(["knockout", "flags", "control", "leaders"])]
    drawn = random_teams(rng, rng.choice([2, 3]))
    companion, bonus, minion = rng.random() < 0.6, rng.random() < 0.5, rng.random() < 0.5
    teams = []
    for side, (ids, items) in drawn.items():
        holders = [c for c in ids if not cards[c].basic]
        extra: dict[str, object] = {}
        if companion:
            extra["companions"] = (("hound", rng.choice(holders)),)
        if bonus:
            extra["bonus"] = ("supply-cache",)
        if minion:
            extra["items"] = (("clockwork-minion", rng.choice(holders)),)
        teams.append(replace(team(side, ids, items), **extra))  # type: ignore[arg-type]
    map_id = rng.choice(scenario.maps) if scenario.maps else "urzari-jungle"
    return make_setup(teams, map_id, scenario)


def varied_setup(seed: int) -> Setup:
    """A setup of the kind `seed` picks (see the module's docstring)."""
    kind = seed % KINDS
    if kind < len(REQUESTS):
        return build(draw_spec(REQUESTS[kind], seed))
    return with_attachments(seed)


@dataclass
class Compared:
    steps: int = 0
    positions: int = 0  # positions where both engines were compared


class Divergence(AssertionError):
    """The kernel and the Python engine disagree."""


def compare(setup: Setup, seed: int, max_rounds: int = 60) -> Compared:
    """Play `setup` with random legal choices through both engines, comparing every step."""
    game = Game(setup, seed, PYTHON)  # the Python engine, the reference
    rng = random.Random(seed)
    state = game.peek()  # the reference's own position, read as it goes on
    while state.phase is Phase.DRAFT or (state.phase is Phase.FLIP and setup.draft is not None):
        # a draft rewrites the setup: it is the Python engine's; the kernel plays from its end
        if game.decider == CHANCE:
            game.play_chance()
        else:
            legal = engine.choices(state)
            game.play(legal[rng.randrange(len(legal))])
    tables, kernel = compiled.load(state)
    done = Compared()
    before: list[int] = []
    while not engine.is_over(state) and state.round <= max_rounds:
        where = f"seed {seed}, step {done.steps}"
        legal = engine.choices(state)
        codes = kernel.legal()
        if tables.choices(codes) != legal:
            raise Divergence(
                f"{where}: legal choices differ\n python: {[c.format() for c in legal]}\n"
                f" kernel: {[c.format() for c in tables.choices(codes)]}"
            )
        for c in {*codes, *before}:  # one choice checked without the list, as the list says
            if kernel.is_legal(c) != (c in codes):
                raise Divergence(f"{where}: is_legal({tables.choice(c).format()}) disagrees")
        before = codes
        if game.decider == CHANCE:
            choice, _ = game.sample_chance()
        else:
            choice = legal[rng.randrange(len(legal))]
        events = game.play(choice)
        code = tables.code(choice)
        if code is None or not kernel.apply(code):
            raise Divergence(f"{where}: the kernel refuses {choice.format()}")
        mine = tables.events(kernel.events())
        if mine != events:
            raise Divergence(
                f"{where}: after {choice.format()} the events differ\n python: {events}\n kernel: {mine}"
            )
        mirrored = tables.state(kernel, state.setup)
        if whole(mirrored) != whole(state):
            differ = [a for a, b in zip(whole(mirrored), whole(state), strict=True) if a != b]
            raise Divergence(f"{where}: after {choice.format()} the positions differ: {differ[:1]}")
        done.steps += 1
        done.positions += 1
    return done


def _plain(value: Any) -> Any:
    """A field's value as compared: a card by its id, an ability pool without its empty
    colors (a count of 0 and no entry are the same pool)."""
    if hasattr(value, "id") and hasattr(value, "abilities"):
        return value.id
    if isinstance(value, dict):
        return tuple(sorted((k, v) for k, v in value.items() if v))
    if isinstance(value, list):
        return tuple(_plain(v) for v in value)
    return value


def whole(state: GameState) -> tuple[Any, ...]:
    """Every field of a position: each piece's every field in the pieces' order, each side's
    every field (pool, track, points, picks, leader...), the stack's frames and the game's own
    fields (phase, round, turns, who acts, actions left, the winner, the turn's marks)."""
    pieces = tuple(
        (pid, tuple((f.name, _plain(getattr(p, f.name))) for f in fields(Piece)))
        for pid, p in state.pieces.items()
    )
    sides = tuple(
        (seat, tuple((f.name, _plain(getattr(side, f.name))) for f in fields(SideState)))
        for seat, side in state.sides.items()
    )
    own = tuple(
        (name, getattr(state, name))
        for name in GameState.__slots__
        if name not in ("board", "pieces", "setup", "sides")
    )
    return pieces, sides, own

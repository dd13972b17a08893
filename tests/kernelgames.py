"""Seeded games of every kind, played through the Python engine and the compiled kernel side
by side, choice by choice (the differential test of tests/test_kernel.py).

`varied_setup(seed)` draws a setup of one of every way to play: the two first games, Flags,
Leaders and Control with two and three a side, free-for-all with three and four players, two
players a side, ultimate mode, drafts (open and secret, with items), and setups with the
house-made companion, bonus objective and minion item; `drafted(seed)` a draft from an odd
pool.
`compare(setup, seed)` plays it from its first choice with uniformly random legal choices and
the game's dice, and at every step holds the kernel to the Python engine: the same legal
choices in the same order, `is_legal` equal to membership, the same events, and the same
position (and, past a draft, the same teams).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, fields, replace
from operator import attrgetter
from typing import Any

from funkoverse.content.characters import load_characters
from funkoverse.content.scenarios import load_scenarios
from funkoverse.content.setups import SetupRequest, build, draw_spec, make_setup, random_teams, team
from funkoverse.content.statuses import load_items
from funkoverse.rules import bridge
from funkoverse.rules.core.spec import DraftSpec, SetupSpec, TeamSpec
from funkoverse.rules.core.state import CHANCE, GameState, Piece, Setup, SideState
from funkoverse.rules.engines import PYTHON
from funkoverse.rules.game import Game
from funkoverse.rules.play import engine

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


def drafted(seed: int) -> Setup:
    """A draft from an odd pool: some of every shipped character (one of them twice, at
    times) and items, the house-made minion item among them; two or three a side, none to
    two items; in secret or in the open; the First Player flipped or given."""
    rng = random.Random(seed)
    scenarios = load_scenarios()
    scenario = scenarios[rng.choice(["knockout", "flags", "control", "leaders"])]
    characters = sorted(load_characters())
    pool = tuple(rng.sample(characters, rng.randint(4, len(characters))))
    if rng.random() < 0.3:
        pool = (*pool, pool[0])
    items = tuple(rng.sample(sorted(load_items()), rng.randint(2, 4)))
    draft = DraftSpec(rng.choice([2, 3]), rng.choice([0, 1, 2]), seed % 2 == 0, pool, items)
    teams = (TeamSpec("dark"), TeamSpec("light"))
    first = rng.choice([None, "dark", "light"])
    return build(SetupSpec(scenario.id, rng.choice(scenario.maps), "standard", teams, draft, first))


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
    tables, kernel = bridge.load(state)
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
        mirrored = tables.state(kernel, setup)  # past a draft, with the teams it chose
        if whole(mirrored) != whole(state):
            differ = [
                a
                for a, b in zip(named(whole(mirrored)), named(whole(state)), strict=True)
                if a != b
            ]
            raise Divergence(f"{where}: after {choice.format()} the positions differ: {differ[:1]}")
        if mirrored.setup.teams != state.setup.teams or mirrored.setup.draft != state.setup.draft:
            raise Divergence(f"{where}: after {choice.format()} the teams differ")
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


PIECE_FIELDS = tuple(f.name for f in fields(Piece))
SIDE_FIELDS = tuple(f.name for f in fields(SideState))
OWN_FIELDS = tuple(n for n in GameState.__slots__ if n not in ("board", "pieces", "setup", "sides"))
_piece_fields = attrgetter(*PIECE_FIELDS)
_side_fields = attrgetter(*SIDE_FIELDS)
_own_fields = attrgetter(*OWN_FIELDS)
_CARD = PIECE_FIELDS.index("card")


def _piece(p: Piece) -> tuple[Any, ...]:
    values = _piece_fields(p)
    card = values[_CARD]
    if card is None:
        return values  # type: ignore[no-any-return]
    return (*values[:_CARD], card.id, *values[_CARD + 1 :])


def whole(state: GameState) -> tuple[Any, ...]:
    """Every field of a position: each piece's every field in the pieces' order, each side's
    every field (pool, track, points, picks, leader...), the stack's frames and the game's own
    fields (phase, round, turns, who acts, actions left, the winner, the turn's marks)."""
    pieces = tuple((pid, _piece(p)) for pid, p in state.pieces.items())
    sides = tuple(
        (seat, tuple(_plain(v) for v in _side_fields(side))) for seat, side in state.sides.items()
    )
    return pieces, sides, _own_fields(state)


def named(part: tuple[Any, ...]) -> tuple[Any, ...]:
    """A part of `whole` with each value beside its field's name (for a message)."""
    pieces, sides, own = part
    return (
        tuple((pid, tuple(zip(PIECE_FIELDS, v, strict=True))) for pid, v in pieces),
        tuple((seat, tuple(zip(SIDE_FIELDS, v, strict=True))) for seat, v in sides),
        tuple(zip(OWN_FIELDS, own, strict=True)),
    )

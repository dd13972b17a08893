"""The reference workloads: what `funkoverse bench` plays and where it measures.

- `flags`: Flags on Themyscira, three characters a side drawn from both boxes with an item
  each side (the standard three-a-side team), random legal choices to the end of the game;
- `first-game`: Your First Game, two characters a side, no items;
- a fixed mid-game Flags position, where the times of single operations and the searches of
  the `hard` and `expert` levels are measured.

A random game here is driven the way any engine is driven from Python: list the legal
choices, apply a uniformly random one; a chance outcome is drawn by its probability. The
compiled kernel plays unless the Python engine is asked for (`funkoverse bench --engine
python`): the same games, choice for choice. `session_game` plays the same games through the
public session API, to measure what the API costs beside the engine's raw loop.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from funkoverse.content.setups import SetupRequest, build, draw_spec, first_game_spec
from funkoverse.errors import UserError
from funkoverse.rules import (
    CHANCE,
    KERNEL,
    PYTHON,
    Engine,
    Game,
    GameState,
    Phase,
    Session,
    Setup,
    SetupSpec,
    Unsupported,
    bridge,
)
from funkoverse.rules.core.dice import resolve, roll
from funkoverse.rules.play import engine

MAX_ROUNDS = 200  # a random game that has not ended by then is stopped (none has, so far)


def flags_spec(seed: int) -> SetupSpec:
    """Flags on Themyscira, three a side with an item, teams drawn from `seed`."""
    return draw_spec(SetupRequest(scenario="flags", map="themyscira", size=3), seed)


def first_spec(seed: int) -> SetupSpec:
    """Your First Game (DC Comics), the same for every seed: the engine's smallest game."""
    return first_game_spec()


WORKLOADS: dict[str, Callable[[int], SetupSpec]] = {
    "flags": flags_spec,
    "first-game": first_spec,
}


@dataclass
class Played:
    """What random games came to: games, steps applied, and the seconds they took."""

    games: int = 0
    steps: int = 0
    seconds: float = 0.0

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds if self.seconds else 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


def random_game(spec: SetupSpec, seed: int, on: Engine = KERNEL) -> int:
    """Play one game of uniformly random legal choices (each checked by `apply`, as a
    client's would be); returns the steps applied, decisions and chance outcomes alike.
    On the kernel it is the raw loop of integer codes (as OpenSpiel's actions are driven);
    where the kernel does not play the setup, or `on` is the Python engine, the Python
    engine's own loop. Both play the same game for the same seed."""
    setup = build(spec)
    state = engine.new_game(setup)
    if on is KERNEL:
        try:
            tables, kernel = bridge.load(state)
        except Unsupported:
            pass
        else:
            return _kernel_game(setup, tables, kernel, seed)
    return _python_game(Game(setup, seed, PYTHON), seed)


def session_game(spec: SetupSpec, seed: int, on: Engine = KERNEL) -> int:
    """The same game through the public session API, as every client plays: the decider,
    its legal choices, a uniformly random one played (checked, logged, its events kept, the
    chance after it drawn). Returns the entries of its log."""
    session = Session(build(spec), seed, engine=on)
    rng = random.Random(seed)
    randrange = rng.randrange
    while not session.over and session.round <= MAX_ROUNDS:
        seat = session.decider
        options = session.choices(seat)
        session.play(seat, options[randrange(len(options))])
    return session.version


def _python_game(game: Game, seed: int) -> int:
    rng = random.Random(seed)
    state = game.peek()  # the Python engine's own state, played on directly
    steps = 0
    while not engine.is_over(state) and state.round <= MAX_ROUNDS:
        if engine.decider(state) == CHANCE:
            choice, _ = game.sample_chance()
        else:
            legal = engine.choices(state)
            choice = legal[rng.randrange(len(legal))]
        engine.apply(state, choice)
        steps += 1
    return steps


def _kernel_game(setup: Setup, tables: bridge.Tables, kernel: Any, seed: int) -> int:
    """The same loop on the kernel: its legal choices are integer codes, as OpenSpiel's
    actions are; a chance outcome is drawn with the dice as `Game.sample_chance` draws it."""
    rng = random.Random(seed)
    chance = random.Random(seed)
    specs = [setup.dice[d] for d in tables.dice_ids]
    seats = len(tables.seats)
    legal, apply = kernel.legal, kernel.apply
    steps = 0
    while not kernel.over and kernel.round <= MAX_ROUNDS:
        if kernel.decider == -1:
            found = kernel.roll()
            if found is None:  # the First Player marker
                r, share, acc, seat = chance.random(), 1.0 / seats, 0.0, seats - 1
                for i in range(seats):
                    acc += share
                    if r < acc:
                        seat = i
                        break
                code = bridge.code(bridge.C_FIRST_PLAYER, seat)
            else:
                attack = roll([specs[d] for d in found[2]], chance)
                defense = roll([specs[d] for d in found[3]], chance)
                code = bridge.code(bridge.C_ROLL_OUTCOME, resolve(attack, defense).challenger_wins)
        else:
            codes = legal()
            code = codes[rng.randrange(len(codes))]
        apply(code)
        steps += 1
    return steps


def midgame(spec: SetupSpec, seed: int, round_: int = 3) -> GameState:
    """A seeded random game of `spec` advanced to an action choice of round `round_` with
    several choices: a position to time single operations and searches in."""
    for attempt in range(100):
        game = Game(build(spec), seed + attempt, PYTHON)
        rng = random.Random(seed + attempt)
        state = game.peek()  # followed as the game goes on (the Python engine's own)
        while not engine.is_over(state):
            if engine.decider(state) == CHANCE:
                game.play_chance()
                continue
            legal = engine.choices(state)
            if (
                state.round >= round_
                and state.phase is Phase.ACT
                and not state.stack
                and len(legal) > 8
            ):
                return state.copy()
            game.play(legal[rng.randrange(len(legal))])
    raise UserError("could not reach a mid-game position to measure")

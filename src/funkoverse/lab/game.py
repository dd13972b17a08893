"""One game of a sweep, played from its task: the same spec and seed give the same game on
any machine, in any process (agents are seeded from the game's seed, budgets count
positions, not seconds)."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from funkoverse.ai.agents import Agent
from funkoverse.ai.arena import make_agent, play
from funkoverse.content.catalog import load_catalog
from funkoverse.content.setups import build
from funkoverse.lab.bars import RestrictedAgent, parse_bar
from funkoverse.lab.plan import GameTask
from funkoverse.rules import CHOICE, Session, SetupSpec, UseAbility, UseItem, named
from funkoverse.rules.core.choices import parse


@dataclass
class GameRecord:
    """What the store keeps of a finished game."""

    game_id: str
    winner_side: str | None  # "dark", "light", or None: stopped at the round limit
    winner: str | None  # "a", "b", or None
    first_player: str | None  # who went first in round 1 (the spec's, the flip's, or ultimate's)
    last_first_player: str | None  # who held the First Player marker in the last round
    points: dict[str, int]  # by side
    rounds: int
    abilities: dict[str, dict[str, int]]  # "a"/"b" -> ability id -> uses
    items: dict[str, dict[str, int]]  # "a"/"b" -> item id -> uses
    forced: int  # decisions where a bar left nothing and the whole menu was offered
    log: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0


def play_task(task: GameTask, engine: str | None = None) -> GameRecord:
    """Play one game of a sweep to the end or the round limit, on the rules engine named
    `engine` (None: the fastest built; the engines play the same games)."""
    t0 = time.perf_counter()
    catalog = load_catalog(task.content)
    spec = SetupSpec.from_json(task.spec)
    session = Session(build(spec, catalog=catalog), task.seed, engine=named(engine))
    # the First Player marker passes every round: who went first is read before any round
    starting = session.state.first_player
    bars = [parse_bar(text) for text in task.bars]
    agents: dict[str, Agent] = {}
    restricted: list[RestrictedAgent] = []
    for i, side in enumerate(spec.sides):
        who = "a" if side == task.a_side else "b"
        name = task.agent_a if who == "a" else task.agent_b
        agent = make_agent(name, task.seed * 8 + 1 + i)
        mine = [b for b in bars if b.applies_to(who)]
        if mine:
            wrapped = RestrictedAgent(agent, mine)
            restricted.append(wrapped)
            agent = wrapped
        agents[side] = agent
    stopped = play(session, agents, task.max_rounds)
    state = session.state
    winner_side = None if stopped else state.winner
    used: dict[str, dict[str, Counter[str]]] = {
        "a": {"abilities": Counter(), "items": Counter()},
        "b": {"abilities": Counter(), "items": Counter()},
    }
    for entry in session.entries:
        if entry.kind != CHOICE or entry.undone or entry.seat is None:
            continue
        who = "a" if entry.seat == task.a_side else "b"
        choice = parse(entry.choice)
        if isinstance(choice, UseAbility):
            used[who]["abilities"][choice.ability] += 1
        elif isinstance(choice, UseItem):
            used[who]["items"][choice.item] += 1
    return GameRecord(
        game_id=task.game_id,
        winner_side=winner_side,
        winner=None if winner_side is None else ("a" if winner_side == task.a_side else "b"),
        first_player=starting,
        last_first_player=state.first_player,
        points={side: s.points for side, s in state.sides.items()},
        rounds=min(state.round, task.max_rounds),
        abilities={w: dict(sorted(u["abilities"].items())) for w, u in used.items()},
        items={w: dict(sorted(u["items"].items())) for w, u in used.items()},
        forced=sum(r.forced for r in restricted),
        log=[e.to_json() for e in session.entries],
        seconds=time.perf_counter() - t0,
    )

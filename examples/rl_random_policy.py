"""A masked random policy playing a few games through the PettingZoo AEC environment.

It trains nothing: it shows the loop a learning agent plugs into (observe, pick a legal
action from the mask, step) and prints each game's result and the environment's speed.

    PYTHONPATH=src python examples/rl_random_policy.py --scenario flags --games 5

`--policy uniform` picks any legal action; `--policy by-kind` (the default) first a kind of
choice (move, challenge, ability, end, ...) uniformly, then one of that kind, as the
engine's random agent does, so that the many squares of a move do not drown out the one
challenge on offer.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from funkoverse.env.aec import FunkoverseEnv
from funkoverse.env.encode import Mask


def by_kind(env: FunkoverseEnv, mask: Mask, rng: np.random.Generator) -> int:
    """A legal action: a kind of choice uniformly, then one action of that kind."""
    kinds: dict[str, list[int]] = {}
    for action, choice in env.legal_choices().items():
        kinds.setdefault(choice.kind, []).append(action)
    group = list(kinds.values())[int(rng.integers(len(kinds)))]
    return group[int(rng.integers(len(group)))]


def uniform(env: FunkoverseEnv, mask: Mask, rng: np.random.Generator) -> int:
    """Any legal action, uniformly: only the mask is read."""
    return int(rng.choice(np.flatnonzero(mask)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="flags", help="a scenario id (default flags)")
    parser.add_argument("--map", default=None, help="a map id (default: the scenario's)")
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--policy", choices=("by-kind", "uniform"), default="by-kind")
    parser.add_argument("--max-rounds", type=int, default=200, help="truncate past this round")
    args = parser.parse_args()
    policy = by_kind if args.policy == "by-kind" else uniform
    env = FunkoverseEnv(
        scenario=args.scenario, map_id=args.map, redraw=True, max_rounds=args.max_rounds
    )
    print(
        f"{env.spec.scenario} on {env.spec.map}: {env.codec.size} actions, "
        f"observation of {env.encoder.size} numbers, seats {', '.join(env.possible_agents)}"
    )
    rng = np.random.default_rng(args.seed)
    steps = 0
    start = time.perf_counter()
    for game in range(args.games):
        env.reset(seed=args.seed + game)
        returns = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            returns[agent] += reward
            if terminated or truncated:
                env.step(None)
                continue
            env.step(policy(env, obs["action_mask"], rng))
            steps += 1
        assert env.session is not None
        state = env.session.state
        teams = "; ".join(
            f"{t.side}: {', '.join(c.id for c in t.characters)}" for t in env.session.setup.teams
        )
        result = f"{env.winner} wins" if env.winner else "no winner (truncated)"
        points = ", ".join(f"{s} {state.sides[s].points}" for s in state.seats)
        print(
            f"game {game}: {result} in round {state.round} ({points}); returns {returns}; {teams}"
        )
    seconds = time.perf_counter() - start
    print(f"{steps} steps in {seconds:.1f} s: {steps / seconds:.0f} steps/s")


if __name__ == "__main__":
    main()

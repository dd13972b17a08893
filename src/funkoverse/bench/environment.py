"""The RL environment against PettingZoo's `connect_four_v3`, driven the same way: PettingZoo's
own loop (`agent_iter`, `last`, a masked random action from the action space, `step`),
whole episodes, alternated on one core. The figure of docs/rl.md and docs/performance.md."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from funkoverse.bench.workloads import Played
from funkoverse.errors import UserError


def connect_four() -> Any:
    """PettingZoo's connect_four_v3 (it needs pygame, as PettingZoo's classic games do)."""
    try:
        from pettingzoo.classic import connect_four_v3
    except ImportError as e:
        raise UserError(
            f"--env compares with PettingZoo's connect_four_v3, which needs {e.name}: "
            "pip install -e '.[rl]'"
        ) from None
    return connect_four_v3.env()


def masked_random(env: Any, seconds: float, seed: int) -> Played:
    """Whole episodes of masked random actions until `seconds` have passed (at least one);
    a step is one `env.step`, the end of an episode's dead steps included."""
    played = Played()
    start = time.perf_counter()
    while played.games < 1 or time.perf_counter() - start < seconds:
        env.reset(seed=seed + played.games)
        for agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                action = None
            else:
                space = env.action_space(agent)
                if played.steps == 0:
                    space.seed(seed)
                action = space.sample(observation["action_mask"])
            env.step(action)
            played.steps += 1
        played.games += 1
    played.seconds = time.perf_counter() - start
    return played


def versus_connect_four(
    seconds: float, rounds: int, seed: int, make: Callable[[], Any]
) -> dict[str, Any]:
    """Our environment (`make()`) and connect_four_v3, alternated `rounds` times for `seconds`
    each: each round's steps a second and ratio, and the median ratio."""
    theirs_env = connect_four()
    ours_env = make()
    per_round = []
    for r in range(rounds):
        ours = masked_random(ours_env, seconds, seed + 1000 * r)
        theirs = masked_random(theirs_env, seconds, seed + r)
        per_round.append(
            {
                "funkoverse_steps_per_second": round(ours.steps_per_second),
                "funkoverse_episodes": ours.games,
                "connect_four_steps_per_second": round(theirs.steps_per_second),
                "connect_four_episodes": theirs.games,
                "ratio": round(ours.steps_per_second / theirs.steps_per_second, 4),
            }
        )
    return {
        "rounds": per_round,
        "ratio_median": round(statistics.median(r["ratio"] for r in per_round), 4),
    }

"""An optional shaped reward: the points difference, for the sparse Flags signal.

The game's own reward comes only at the end (+1, -1, or 0 for a game stopped at the round
limit), and random play mostly reaches the limit, so a learner sees little but zeros. The
shaping adds, after each step, the change of a potential: the seat's points less the best
rival's, over the points the scenario needs to win (Ng, Harada and Russell's potential-based
shaping, `scale * (gamma * phi(s') - phi(s))`). When a game ends the potential is taken as 0,
so over a finished game the shaping adds up to nothing and the +1 or -1 alone decides which
play is best; in a game stopped at the round limit the lead at the limit stays in the
return, a signal where the game gives none.

`PointsReward(gym_env)` wraps the Gymnasium environment; `aec_points_reward(aec_env)` the
PettingZoo one (every seat's reward shaped from its own points).
"""

from __future__ import annotations

from typing import Any

import gymnasium
from pettingzoo.utils.wrappers import BaseWrapper

from funkoverse.rules import Session


def potential(session: Session, seat: str) -> float:
    """The seat's points less the best rival's, over the points needed to win."""
    state = session.state
    own = state.sides[seat].points
    rivals = [state.sides[s].points for s in state.seats if s != seat]
    target = state.setup.scenario.points_to_win(state) or 1
    return (own - max(rivals, default=0)) / target


class PointsReward(gymnasium.Wrapper[dict[str, Any], int, dict[str, Any], int]):
    """The Gymnasium environment with the points difference as a shaped reward."""

    def __init__(
        self, env: gymnasium.Env[dict[str, Any], int], scale: float = 1.0, gamma: float = 1.0
    ) -> None:
        super().__init__(env)
        self.scale = scale
        self.gamma = gamma
        self._phi = 0.0

    def _potential(self) -> float:
        game = self.env.unwrapped.game  # type: ignore[attr-defined]
        return potential(game.session, self.env.unwrapped.seat)  # type: ignore[attr-defined]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        self._phi = self._potential()
        return obs, info

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        phi = 0.0 if terminated else self._potential()
        shaped = self.scale * (self.gamma * phi - self._phi)
        self._phi = phi
        info["shaped_reward"] = shaped
        return obs, float(reward) + shaped, terminated, truncated, info


class _AECPointsReward(BaseWrapper):  # type: ignore[misc]
    """The PettingZoo environment with every seat's reward shaped by its points difference."""

    def __init__(self, env: Any, scale: float, gamma: float) -> None:
        super().__init__(env)
        self.scale = scale
        self.gamma = gamma
        self._phi: dict[str, float] = {}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        super().reset(seed=seed, options=options)
        base = self.env.unwrapped
        self._phi = {a: potential(base.session, a) for a in base.agents}

    def step(self, action: Any) -> None:
        base = self.env.unwrapped
        if base.terminations.get(base.agent_selection) or base.truncations.get(
            base.agent_selection
        ):
            super().step(action)
            return
        super().step(action)
        ended = any(base.terminations.values())
        for a in base.agents:
            phi = 0.0 if ended else potential(base.session, a)
            shaped = self.scale * (self.gamma * phi - self._phi.get(a, 0.0))
            self._phi[a] = phi
            base.rewards[a] += shaped
            base._cumulative_rewards[a] += shaped


def aec_points_reward(env: Any, scale: float = 1.0, gamma: float = 1.0) -> Any:
    """`env` (a `FunkoverseEnv`, wrapped or not) with the points difference as shaping."""
    return _AECPointsReward(env, scale, gamma)

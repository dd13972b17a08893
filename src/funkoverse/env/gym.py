"""The game as a Gymnasium environment: a learner plays one seat against a chosen agent.

The other seats are played by an agent of `funkoverse.ai.agents` (`agent_factory` names:
"random", "greedy", "hard:positions=4000", ...), each seeded from the game's seed and
given the game as its seat may see it, as in `funkoverse match`. The observation is the
AEC environment's `{"observation", "action_mask"}`; the mask is in `info` too. A step's
reward is +1 when the learner's side wins, -1 when it loses, 0 otherwise.

An action the mask forbids ends the episode as a loss (`illegal="lose"`, PettingZoo's
convention for classic games, reported in `info["illegal_action"]`), or is refused with
`IllegalAction` (`illegal="raise"`).

`gymnasium.make("funkoverse.env.gym:Funkoverse-v0", scenario="flags")` makes one.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from funkoverse.ai.agents import Agent, agent_factory
from funkoverse.env.aec import FunkoverseEnv, IllegalAction
from funkoverse.env.encode import Mask, slots_of
from funkoverse.errors import UserError

ILLEGAL = ("lose", "raise")
ENV_ID = "Funkoverse-v0"


class FunkoverseGymEnv(gymnasium.Env[dict[str, Any], int]):
    """One seat (`seat`, the first when None) learns; `opponent` plays the others. The
    other arguments are `FunkoverseEnv`'s (a spec, or a scenario, map and size)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        opponent: str = "random",
        seat: str | None = None,
        illegal: str = "lose",
        render_mode: str | None = None,
        **game: Any,
    ) -> None:
        if illegal not in ILLEGAL:
            raise UserError(f"illegal='{illegal}' is not one of: {', '.join(ILLEGAL)}")
        self.game = FunkoverseEnv(render_mode=render_mode, **game)
        self.seat = seat if seat is not None else self.game.possible_agents[0]
        if self.seat not in self.game.possible_agents:
            raise UserError(
                f"seat '{self.seat}' is not a seat of this game ({', '.join(self.game.possible_agents)})"
            )
        self.make_opponent = agent_factory(opponent)
        self.opponent = opponent
        self.illegal = illegal
        self.render_mode = render_mode
        self.observation_space = self.game.observation_space(self.seat)
        self.action_space = self.game.action_space(self.seat)
        self._opponents: dict[str, Agent] = {}
        self._done = True

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game; `seed` fixes its dice and the opponents' choices."""
        super().reset(seed=seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(2**31))
        self.game.reset(seed=game_seed)
        others = [s for s in self.game.possible_agents if s != self.seat]
        self._opponents = {
            s: self.make_opponent(game_seed * 7 + i + 1) for i, s in enumerate(others)
        }
        self._done = False
        self._play_opponents()
        return self._observe(), self._info()

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """The learner's action, then the opponents' until the learner decides again."""
        if self._done:
            raise UserError("the episode is over: call reset()")
        number = int(action)
        if number not in self.game.legal_choices():
            if self.illegal == "raise":
                raise IllegalAction(
                    f"action {number} ({self.game.codec.describe(number)}) is not legal for "
                    f"{self.seat} now; pick one where action_mask is 1"
                )
            self._done = True
            info = self._info()
            info["illegal_action"] = True
            return self._observe(), -1.0, True, False, info
        self.game.step(number)
        self._play_opponents()
        terminated = any(self.game.terminations.values())
        truncated = any(self.game.truncations.values()) and not terminated
        self._done = terminated or truncated
        reward = 0.0
        if terminated and self.game.winner is not None:
            reward = 1.0 if self.game.winner == self.seat else -1.0
        return self._observe(), reward, terminated, truncated, self._info()

    def _play_opponents(self) -> None:
        """The opponents decide until it is the learner's turn or the game stops."""
        game = self.game
        session = game.session
        assert session is not None
        while not any(game.terminations.values()) and not any(game.truncations.values()):
            seat = game.agent_selection
            if seat == self.seat:
                return
            view = session.view(seat)
            choice = self._opponents[seat].choose(view, session.choices(seat))
            game.step(game.codec.encode(choice, slots_of(view)))

    def _observe(self) -> dict[str, Any]:
        obs = self.game.observe(self.seat)
        obs["action_mask"] = self.action_masks()
        return obs

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks()}

    def action_masks(self) -> Mask:
        """The learner's legal actions now (the name sb3-contrib's MaskablePPO asks for)."""
        if self._done:
            return np.zeros(self.game.codec.size, dtype=np.int8)
        return self.game.codec.mask(self.game.legal_choices())

    def render(self) -> Any:
        return self.game.render()

    def close(self) -> None:
        self.game.close()


gymnasium.register(id=ENV_ID, entry_point="funkoverse.env.gym:FunkoverseGymEnv")

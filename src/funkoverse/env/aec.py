"""The game as a PettingZoo AEC environment, in the shape of PettingZoo's classic games.

The agents are the seats. At each step the agent selected is the session's decider; its
observation is `{"observation": float32 vector, "action_mask": int8 vector}`, built from the
game as that seat may see it. An action is a number of the fixed `Discrete` space of
`ActionCodec`; the session applies it and draws the chance outcomes that follow (dice, the
First Player flip) with the game's generator, seeded by `reset(seed=...)`. Rewards come at
the end: +1 to the winner, -1 to the others, 0 to all in a game without a winner or one
truncated (`max_steps` decisions or past `max_rounds` rounds).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from funkoverse.ai.arena import DEFAULT_MAX_ROUNDS
from funkoverse.content.setups import build
from funkoverse.env.encode import (
    PIECE_SLOTS,
    ActionCodec,
    EncodeError,
    Mask,
    ObservationEncoder,
    slots_of,
)
from funkoverse.env.teams import draw_spec
from funkoverse.errors import UserError
from funkoverse.rules import Choice, Engine, GameState, Session, Setup, SetupSpec, named

DEFAULT_MAX_STEPS = 5_000
DEFAULT_SCENARIO = "flags"


class IllegalAction(UserError):
    """An action number that is not one of the legal choices now."""


class FunkoverseEnv(AECEnv):
    """One game of `spec` (or of `scenario` on `map_id` with teams drawn as `funkoverse
    match` draws them; Flags on the lab's map by default) per episode; `redraw` draws new
    teams at each reset from its seed. `engine` names the rules engine (None: the fastest
    built); the environment copies (`copy.deepcopy`) and pickles on either."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo reads it from the class)
        "name": "funkoverse_v0",
        "render_modes": ["ansi", "rgb_array"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        spec: SetupSpec | None = None,
        scenario: str | None = None,
        map_id: str | None = None,
        size: int | None = None,
        redraw: bool = False,
        max_steps: int | None = DEFAULT_MAX_STEPS,
        max_rounds: int | None = DEFAULT_MAX_ROUNDS,
        piece_slots: int = PIECE_SLOTS,
        render_mode: str | None = None,
        engine: str | None = None,
    ) -> None:
        super().__init__()
        try:
            self.engine: Engine = named(engine)
        except ValueError as e:
            raise UserError(f"engine: {e}") from None
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise UserError(f"render_mode '{render_mode}' is not one of: ansi, rgb_array")
        if spec is not None and (scenario or map_id or size or redraw):
            raise UserError("give a spec, or a scenario, map and size to draw one, not both")
        if spec is None and scenario is None:
            scenario = DEFAULT_SCENARIO  # the lab's game: Flags on its map
        self.spec = spec if spec is not None else draw_spec(scenario, map_id, size, 0)
        # teams drawn anew keep the map: the action space is the map's
        self._draw = (scenario, self.spec.map, size) if spec is None else None
        self.redraw = redraw and spec is None
        self.setup: Setup = build(self.spec)
        self.max_steps = max_steps
        self.max_rounds = max_rounds
        self.render_mode = render_mode
        self.codec = ActionCodec(self.setup, piece_slots)
        self.encoder = ObservationEncoder(self.codec, self.setup)
        self.possible_agents: list[str] = [t.side for t in self.setup.teams]
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.codec.size,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.codec.size) for a in self.possible_agents}
        self._seeds = random.Random()
        self.session: Session | None = None
        self._legal: dict[int, int] = {}  # legal action number -> its place in `_choices`
        self._choices: Sequence[Choice] = ()
        self._numbers: dict[Hashable, int] = {}  # a legal choice's key -> its action number
        self._slots: dict[str, int] = {}
        self._seen: tuple[tuple[str, int], GameState] | None = None
        self._steps = 0

    # -- spaces ---------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the episode ------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; `seed` fixes its dice (and its teams when `redraw`)."""
        if seed is not None:
            self._seeds.seed(seed)
        game_seed = seed if seed is not None else self._seeds.randrange(2**31)
        setup = self.setup
        if self.redraw and self._draw is not None:
            scenario, map_id, size = self._draw
            setup = build(draw_spec(scenario, map_id, size, game_seed))
            if [t.side for t in setup.teams] != self.possible_agents:
                raise UserError(
                    f"seed {game_seed} draws seats {', '.join(t.side for t in setup.teams)}, "
                    f"not this environment's {', '.join(self.possible_agents)}: give a spec"
                )
        self.session = Session(setup, game_seed, engine=self.engine)
        self._seen = None
        self._numbers, self._slots = {}, {}
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._steps = 0
        self._select()

    def _select(self) -> None:
        """Point at the deciding seat and list its legal choices by action number."""
        session = self._live()
        decider = session.decider
        if decider is None:
            self._legal = {}
            return
        self.agent_selection = decider
        choices = session.choices(decider)
        view = self._view(decider)
        if len(view.pieces) != len(self._slots):  # pieces came into the game: slots anew
            self._slots = slots_of(view)
            self._numbers = {}
        # a choice's action number is kept for the episode, by its engine code where the
        # engine has one (the kernel's), else by the choice itself
        keys: Sequence[Hashable] = getattr(choices, "codes", choices)
        numbers = self._numbers
        legal: dict[int, int] = {}
        for i, key in enumerate(keys):
            number = numbers.get(key)
            if number is None:
                number = numbers[key] = self.codec.encode(choices[i], self._slots)
            if number in legal:
                raise EncodeError(
                    f"'{choices[i].format()}' and '{choices[legal[number]].format()}' share "
                    f"action {number}"
                )
            legal[number] = i
        self._legal, self._choices = legal, choices

    def _view(self, seat: str) -> GameState:
        """The game as `seat` may see it now, to read (kept until the next choice)."""
        session = self._live()
        key = (seat, session.version)
        if self._seen is None or self._seen[0] != key:
            self._seen = (key, session.look(seat))
        return self._seen[1]

    def _live(self) -> Session:
        if self.session is None:
            raise UserError("call reset() before using the environment")
        return self.session

    def _mask(self, agent: str) -> Mask:
        if agent != self.agent_selection or self._live().over:
            return np.zeros(self.codec.size, dtype=np.int8)
        return self.codec.mask(self._legal)

    def observe(self, agent: str) -> dict[str, Any]:
        """`agent`'s observation: built from the game as its seat may see it (once a
        version; each call answers its own arrays)."""
        return {
            "observation": self.encoder.encode(
                self._view(agent), agent, agent == self._live().decider
            ),
            "action_mask": self._mask(agent),
        }

    def legal_choices(self) -> dict[int, Choice]:
        """The deciding seat's legal choices by action number."""
        return {number: self._choices[i] for number, i in self._legal.items()}

    def legal_actions(self) -> list[int]:
        """The deciding seat's legal action numbers, ascending (the mask's ones)."""
        return sorted(self._legal)

    def step(self, action: int | None) -> None:
        """The selected agent's action; a terminated agent's step must be None."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction(f"{agent} must act: None is only for a finished game")
        place = self._legal.get(int(action))
        if place is None:
            raise IllegalAction(
                f"action {int(action)} ({self.codec.describe(int(action))}) is not legal for "
                f"{agent} now; pick one where action_mask is 1"
            )
        session = self._live()
        session.play(agent, self._choices[place])
        self._steps += 1
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        if session.over:
            winner = session.winner
            for a in self.agents:
                self.rewards[a] = 0.0 if winner is None else 1.0 if a == winner else -1.0
                self.terminations[a] = True
            self._legal = {}
        elif self._truncated(session):
            for a in self.agents:
                self.truncations[a] = True
            self._legal = {}
        else:
            self._select()
        self._accumulate_rewards()

    def _truncated(self, session: Session) -> bool:
        if self.max_steps is not None and self._steps >= self.max_steps:
            return True
        return self.max_rounds is not None and session.round > self.max_rounds

    @property
    def winner(self) -> str | None:
        """The winning seat once the game is over."""
        return self._live().winner

    def render(self) -> Any:
        """The board for people: as text (render_mode 'ansi'), or as the game page draws it,
        an RGB array (render_mode 'rgb_array', `env/draw.py`)."""
        if self.render_mode is None or self.session is None:
            return None
        if self.render_mode == "rgb_array":
            from funkoverse.env.draw import render

            return render(self.session.view(None))
        from funkoverse.text.board import render_board

        view = self.session.view(None)
        board = render_board(view.board, list(view.pieces.values())).plain
        sides = ", ".join(f"{s} {view.sides[s].points}" for s in view.seats)
        return f"{board}\nround {view.round}, {view.phase.value}; points: {sides}"

    def close(self) -> None:
        self.session = None

    # -- copies -----------------------------------------------------------------------

    def __deepcopy__(self, memo: dict[int, Any]) -> FunkoverseEnv:
        """An independent copy at the same point of the same game (a search's or a vector
        wrapper's): the game is forked on its engine, not played again."""
        other = FunkoverseEnv.__new__(FunkoverseEnv)
        memo[id(self)] = other
        for name, value in self.__dict__.items():
            if name == "session":
                other.session = None if value is None else value.fork()
            elif name in _SHARED:
                setattr(other, name, value)
            elif name in _READ_AGAIN:
                setattr(other, name, _read_again()[name])
            else:
                setattr(other, name, copy.deepcopy(value, memo))
        if other.session is not None and self._legal:
            other._select()  # the choices of its own position
        return other

    def __getstate__(self) -> dict[str, Any]:
        """What a pickle holds: the game as its spec, seed and log (played again on load)."""
        state = dict(self.__dict__)
        session = state.pop("session")
        state["_game"] = None if session is None else session.to_json()
        state.update(_read_again())
        state["engine"] = self.engine.name
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        saved = state.pop("_game")
        state["engine"] = named(state["engine"])
        self.__dict__.update(state)
        self.session = None
        if saved is not None:
            self.session = Session.from_json(saved, build, self.engine)
            if self._legal:
                self._select()


# what a copy of the environment shares with the original: built once per setup, never changed
_SHARED = frozenset(
    {"setup", "codec", "encoder", "observation_spaces", "action_spaces", "spec", "engine"}
)

# what a copy reads again from its own game rather than copy
_READ_AGAIN = frozenset({"_seen", "_choices", "_numbers"})


def _read_again() -> dict[str, Any]:
    return {"_seen": None, "_choices": (), "_numbers": {}}


raw_env = FunkoverseEnv


def env(**kwargs: Any) -> Any:
    """The environment as PettingZoo's classic games offer theirs: wrapped so that a step
    before `reset` or a `last` after the end is refused (`OrderEnforcingWrapper`)."""
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    return OrderEnforcingWrapper(FunkoverseEnv(**kwargs))

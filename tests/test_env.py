"""The RL environment (funkoverse.env): the PettingZoo and Gymnasium checkers, the action codec
over random games, secrecy of the observations, and seeded determinism.

Without the rl extra these tests skip on a developer's machine and fail when `CI` is set: CI
must never pass without having run the checkers."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

try:
    import gymnasium
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test
except ImportError as missing:  # pragma: no cover - depends on the machine
    if os.environ.get("CI"):
        raise ImportError(
            f"{missing}: CI installs the rl extra: pip install -e '.[test,rl]'"
        ) from missing
    pytest.skip(f"{missing}: pip install -e '.[rl]'", allow_module_level=True)

from funkoverse.ai.agents import RandomAgent
from funkoverse.content.setups import SetupRequest, build, draw_spec
from funkoverse.env import teams
from funkoverse.env.aec import FunkoverseEnv, IllegalAction
from funkoverse.env.aec import env as wrapped_env
from funkoverse.env.encode import ActionCodec, Mask, ObservationEncoder, slots_of
from funkoverse.env.gym import FunkoverseGymEnv
from funkoverse.rules.core.choices import Choice
from funkoverse.rules.core.spec import SetupSpec, TeamSpec
from funkoverse.rules.core.state import Phase
from funkoverse.rules.session import Session

# ------------------------------------------------------------------ the checkers


@pytest.mark.parametrize(
    "game",
    [
        {"scenario": "first-knockout"},
        {},
        {"scenario": "control", "size": 3},
        {"scenario": "leaders"},
        {"spec": draw_spec(SetupRequest(scenario="brawl", players=3), 3)},
    ],
    ids=["knockout", "flags-by-default", "control", "leaders", "brawl-3"],
)
def test_pettingzoo_api_test_passes(game: dict[str, Any]) -> None:
    with warnings.catch_warnings():  # advice that does not apply: seats' names, a Dict space
        warnings.simplefilter("ignore")
        api_test(FunkoverseEnv(**game), num_cycles=300, verbose_progress=False)


def test_the_wrapped_env_passes_too() -> None:
    """`funkoverse.env.aec.env()`: the environment behind PettingZoo's order-enforcing wrapper."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(wrapped_env(scenario="flags"), num_cycles=100, verbose_progress=False)


def test_a_whole_game_through_the_aec_loop_ends_with_rewards_that_sum_to_zero() -> None:
    env = FunkoverseEnv(scenario="flags", max_rounds=None, max_steps=None)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    total: dict[str, float] = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        total[agent] = total.get(agent, 0.0) + reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = _balanced(env, obs["action_mask"], rng)
        env.step(legal)
    assert env.winner is not None
    assert total[env.winner] == 1.0 and sum(total.values()) == 0.0


def test_gymnasium_check_env_passes() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(FunkoverseGymEnv(opponent="random"))
        made = gymnasium.make(
            "funkoverse.env.gym:Funkoverse-v0", opponent="greedy", scenario="flags"
        )
        check_env(made.unwrapped)


def test_gymnasium_episode_against_an_agent_and_illegal_actions() -> None:
    env = FunkoverseGymEnv(opponent="random", scenario="flags", seat="light")
    obs, info = env.reset(seed=4)
    assert np.array_equal(obs["action_mask"], info["action_mask"]) and info["action_mask"].any()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info.get("illegal_action")) == (-1.0, True, False, True)
    strict = FunkoverseGymEnv(opponent="random", illegal="raise")
    _, info = strict.reset(seed=4)
    with pytest.raises(IllegalAction, match="not legal"):
        strict.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    rng = np.random.default_rng(0)
    for _ in range(40):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = strict.step(action)
        if terminated or truncated:
            break
        assert strict.game.agent_selection == strict.seat


def test_render_draws_the_board_as_text() -> None:
    env = FunkoverseEnv(scenario="flags", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert text is not None and " a " in text.splitlines()[0] and "points: dark 0" in text
    assert FunkoverseEnv().render() is None


def test_the_aec_env_refuses_an_illegal_action_in_one_line() -> None:
    env = FunkoverseEnv()
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction, match=r"is not legal for .* now"):
        env.step(illegal)


def test_the_example_plays_games_through_the_env() -> None:
    """examples/rl_random_policy.py: a masked random policy, with results and speed."""
    root = Path(__file__).resolve().parent.parent
    result = subprocess.run(
        [sys.executable, str(root / "examples" / "rl_random_policy.py"), "--games", "2"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(root / "src")},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("\ngame ") == 2 and "steps/s" in result.stdout


# ------------------------------------------------------------------ the action codec


def _specs() -> Iterator[SetupSpec]:
    """Setups that between them ask every kind of choice: drafts open and secret, leaders,
    control, flags, ultimate, free-for-all, and the attachments (companions, bonus
    objectives, minion tokens)."""
    for seed in range(3):
        yield draw_spec(SetupRequest(scenario="flags", size=3), seed)
        yield draw_spec(SetupRequest(scenario="leaders", draft=3, secret=bool(seed % 2)), seed)
        yield draw_spec(SetupRequest(scenario="control", draft=2), seed)
        yield draw_spec(SetupRequest(scenario="titans"), seed)
        yield draw_spec(SetupRequest(scenario="brawl", players=4), seed)
    for _ in range(4):
        yield _attachments()


def _attachments() -> SetupSpec:
    attach = [
        ("wonder-woman", "dracula", "villager"),
        ("the-bride", "the-creature", "invisible-man"),
    ]
    return SetupSpec(
        "flags",
        "urzari-jungle",
        teams=(
            TeamSpec(
                "dark",
                attach[0],
                items=(("clockwork-minion", "dracula"),),
                companions=(("hound", "wonder-woman"),),
                bonus=("supply-cache",),
            ),
            TeamSpec(
                "light",
                attach[1],
                items=(("lasso-of-truth", "the-bride"),),
                companions=(("hound", "the-creature"),),
                bonus=("supply-cache",),
            ),
        ),
    )


def test_every_legal_choice_round_trips_and_no_two_share_an_action() -> None:
    """Over random games of every kind of setup, at every decision: each legal choice's action
    number decodes to that choice, and the legal choices have as many numbers as choices."""
    kinds: set[str] = set()
    decisions = 0
    for n, spec in enumerate(_specs()):
        setup = build(spec)
        codec = ActionCodec(setup)
        session = Session(setup, n)
        agent = RandomAgent(n)
        for _ in range(600):
            if session.over:
                break
            seat = session.decider
            assert seat is not None
            view = session.view(seat)
            choices = session.choices(seat)
            slots = slots_of(view)
            pieces = list(view.pieces)
            numbers = [codec.encode(c, slots) for c in choices]
            assert len(set(numbers)) == len(set(choices)), spec
            for c, number in zip(choices, numbers, strict=True):
                assert 0 <= number < codec.size
                assert codec.decode(number, pieces) == c, (c, number)
                kinds.add(type(c).__name__)
            decisions += 1
            session.play(seat, agent.choose(view, choices))
    assert decisions > 3000
    expected = {"Pick", "Give", "Leader", "Place", "Choose", "Move", "Challenge", "End"}
    expected |= {"UseAbility", "Interact", "PlaceControl", "CompanionAction", "CompleteBonus"}
    expected |= {"MinionChallenge", "Target", "Carry", "Put", "GiveStatus", "Option", "Rally"}
    expected |= {"PlaceToken", "Push", "Pull", "Return", "ShiftDown", "Skip", "FlagReturn"}
    expected |= {"Assist", "UseItem"}
    assert expected <= kinds, expected - kinds


@pytest.mark.parametrize(
    ("scenario", "map_id"), [("knockout", "urzari-jungle"), ("control", "funko-factory")]
)
def test_the_codec_is_one_to_one_over_its_whole_space(scenario: str, map_id: str) -> None:
    """Every action number of every block (those random games seldom reach included: the
    Bride's fourth status card's shift-off, a control marker's flip) decodes to a choice that
    encodes back to it."""
    codec = ActionCodec(build(draw_spec(SetupRequest(scenario=scenario, map=map_id), 0)))
    pieces = [f"piece-{i}" for i in range(codec.slots)]
    slots = {p: i for i, p in enumerate(pieces)}
    kinds = set()
    for number in range(codec.size):
        choice = codec.decode(number, pieces)
        assert codec.encode(choice, slots) == number, (number, choice)
        kinds.add(type(choice).__name__)
    assert len(kinds) == len([b for b in codec.blocks if b.size])
    assert {"ShiftOff", "FlipControl", "MinionChallenge", "Option"} <= kinds


def test_the_action_table_has_a_block_for_every_kind_of_choice_a_seat_makes() -> None:
    """The environment's action table and the schema both engines are built from name the
    same kinds of choices: every choice class of the schema has its block of actions, but
    the chance outcomes (the First Player flip, a challenge's roll), which are not actions,
    and no block stands for a kind the schema does not have."""
    from funkoverse.env.encode import SCHEMA
    from funkoverse.rules import FirstPlayer, RollOutcome
    from funkoverse.rules.core import schema

    chance = {FirstPlayer, RollOutcome}
    assert {kind for kind, _ in SCHEMA} == set(schema.CHOICE_CLASSES) - chance
    assert len(SCHEMA) == len(schema.CHOICE_CLASSES) - len(chance)


def test_the_schema_names_every_field_of_every_kind_of_choice() -> None:
    """What a kind of choice holds is declared once (`schema.CHOICE_FIELDS`): the fields it
    names are the choice class's own, by name, and the fields the page taps, moves or shows
    are among them; the action table's parts and the page's piece and square are read from
    it."""
    import dataclasses

    from funkoverse.env.encode import SCHEMA
    from funkoverse.rules.core import schema

    for kind, fields in schema.CHOICE_FIELDS.items():
        own = [f.name for f in dataclasses.fields(kind)]
        declared = [name for names, _ in fields.parts for name in names]
        assert sorted(declared) == sorted(own), kind.__name__
        for used in (fields.tap, fields.card):
            assert not used or used in own, (kind.__name__, used)
        assert fields.actor in ("", "acting", "chosen", *own), kind.__name__
    assert list(SCHEMA) == [(k, f.parts) for k, f in schema.CHOICE_FIELDS.items()]


def test_the_action_space_is_the_same_for_every_team_on_a_map() -> None:
    """The codec's domains are the map's squares and the whole catalog, not the teams drawn."""
    specs = [draw_spec(SetupRequest(scenario="flags", map="urzari-jungle"), s) for s in (1, 2)]
    assert specs[0].teams != specs[1].teams
    assert len({ActionCodec(build(spec)).size for spec in specs}) == 1
    env = FunkoverseEnv(scenario="flags", map_id="urzari-jungle", redraw=True)
    for seed in (1, 2):
        env.reset(seed=seed)
        drawn = teams.draw_spec("flags", "urzari-jungle", None, seed)
        assert env.session is not None and env.session.setup.spec == drawn
        # match's own draw, unless two of its sides share a character
        assert (drawn == specs[seed - 1]) == teams.distinct(specs[seed - 1])


def test_redrawn_teams_share_no_character_and_flags_is_the_labs() -> None:
    """Both sides with the same characters teach nothing about the matchups the lab measures;
    and with no map named, the environment plays Flags where the lab does."""
    from funkoverse.content.scenarios import default_map
    from funkoverse.lab.plan import matchups

    env = FunkoverseEnv(scenario="flags", redraw=True)
    assert env.spec.map == default_map("flags") == matchups("all", 2, ["flags"])[0].map
    for seed in range(40):
        env.reset(seed=seed)
        assert env.session is not None
        sides = [set(t.characters) for t in env.session.setup.spec.teams]
        assert not sides[0] & sides[1], (seed, sides)


# ------------------------------------------------------------------ secrecy


def _first_secret(env: FunkoverseEnv, seed: int, phase: Phase) -> list[int]:
    """The actions up to the first secret pick of `phase`, taken with a fixed policy."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    taken: list[int] = []
    assert env.session is not None
    while env.session.state.phase is not phase:
        mask = env.observe(env.agent_selection)["action_mask"]
        action = int(rng.choice(np.flatnonzero(mask)))
        env.step(action)
        taken.append(action)
    return taken


@pytest.mark.parametrize(
    ("game", "phase"),
    [
        ({"scenario": "leaders", "size": 3}, Phase.SECRET),
        ({"spec": draw_spec(SetupRequest(scenario="flags", draft=3, secret=True), 1)}, Phase.DRAFT),
    ],
    ids=["leader", "draft"],
)
def test_no_observation_shows_a_rivals_secret_pick(game: dict[str, Any], phase: Phase) -> None:
    """Leaders: "Each player secretly picks one of their characters to be a leader"; Scenario
    Setup: "choose characters and items in secret". Whatever the first picker picks, the
    rival's observation is the same until the reveal (and the picker's own is not), and every
    observation is the one the seat's view gives."""
    for seed in range(3):
        env = FunkoverseEnv(**game)
        prefix = _first_secret(env, seed, phase)
        picker = env.agent_selection
        options = sorted(env.legal_choices())
        assert len(options) > 1
        seen: dict[str, set[bytes]] = {}
        for action in options:
            env.reset(seed=seed)
            for a in prefix:
                env.step(a)
            env.step(action)
            assert env.session is not None
            assert env.session.state.phase is phase, "the pick was revealed at once"
            for seat in env.possible_agents:
                obs = env.observe(seat)["observation"]
                view = env.encoder.encode(env.session.view(seat), seat)
                assert np.array_equal(obs, view)
                seen.setdefault(seat, set()).add(obs.tobytes())
        for seat, observations in seen.items():
            if seat == picker:
                assert len(observations) == len(options), "the picker's own pick is not shown"
            else:
                assert len(observations) == 1, f"{seat} sees {picker}'s secret pick"


# ------------------------------------------------------------------ determinism


def _balanced(env: FunkoverseEnv, mask: Mask, rng: np.random.Generator) -> int:
    """A masked random action, first a kind of choice uniformly, then one of that kind."""
    legal = env.legal_choices()
    kinds: dict[str, list[int]] = {}
    for number, choice in sorted(legal.items()):
        assert mask[number] == 1
        kinds.setdefault(choice.kind, []).append(number)
    group = list(kinds.values())[int(rng.integers(len(kinds)))]
    return group[int(rng.integers(len(group)))]


def _trajectory(seed: int) -> list[tuple[str, bytes, float, str]]:
    env = FunkoverseEnv(scenario="flags", max_steps=300)
    env.reset(seed=seed)
    rng = np.random.default_rng(0)
    out = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        choice: Choice | None = None
        if terminated or truncated:
            env.step(None)
        else:
            action = _balanced(env, obs["action_mask"], rng)
            choice = env.legal_choices()[action]
            env.step(action)
        out.append((agent, obs["observation"].tobytes(), reward, str(choice)))
    return out


def test_the_same_seed_plays_the_same_game() -> None:
    assert _trajectory(11) == _trajectory(11)
    assert _trajectory(11) != _trajectory(12)


def test_observations_fit_the_space_and_the_layout() -> None:
    env = FunkoverseEnv(scenario="control", size=3)
    env.reset(seed=1)
    obs = env.observe(env.agent_selection)
    assert env.observation_space(env.agent_selection).contains(obs)
    parts = env.encoder.layout.split(obs["observation"])
    assert parts["planes"].shape == (25, env.setup.board.height, env.setup.board.width)
    assert sum(p.size for p in parts.values()) == env.encoder.size
    assert isinstance(env.encoder, ObservationEncoder)


def test_rgb_array_draws_the_board_as_the_page_does() -> None:
    """The page's colours: the paper squares, each side's starting area tinted in its colour,
    blocked squares filled, walls dark, and each side's pieces in its colour."""
    from funkoverse.env import draw

    env = FunkoverseEnv(scenario="flags", render_mode="rgb_array")
    env.reset(seed=2)
    assert env.session is not None
    while not any(
        p.square is not None for p in env.session.state.pieces.values() if p.is_character
    ):
        env.step(next(iter(env.legal_choices())))
    image = env.render()
    board = env.session.state.board
    square = 40
    assert isinstance(image, np.ndarray) and image.dtype == np.uint8
    assert image.shape == (
        round((board.height + 2 * draw.M) * square),
        round((board.width + 2 * draw.M) * square),
        3,
    )

    def at(i: int, dx: float = 0.15, dy: float = 0.15) -> tuple[int, ...]:
        x, y = board.xy(i)
        px, py = (draw.M + x + dx) * square, (draw.M + y + dy) * square
        return tuple(int(v) for v in image[int(py), int(px)])

    def near(a: tuple[int, ...], b: tuple[int, int, int]) -> bool:
        return max(abs(x - y) for x, y in zip(a, b, strict=True)) <= 6

    occupied = {p.square for p in env.session.state.pieces.values() if p.square is not None}
    for side, squares in board.start_areas.items():
        free = next(s for s in squares if s not in occupied)
        assert near(at(free), draw._mix(draw.side_color(side), draw.PAPER, 0x33 / 255)), side
    for blocked in list(board.blocked)[:3]:
        assert near(at(blocked, 0.5, 0.5), draw._rgb(draw.BLOCKED))
    plain = next(
        s
        for s in board.squares
        if s not in board.blocked
        and s not in board.obscured
        and all(s not in v for v in board.start_areas.values())
        and s not in occupied
    )
    assert near(at(plain), draw._rgb(draw.PAPER))
    for p in env.session.state.pieces.values():
        if p.is_character and p.square is not None and p.standing:
            assert near(at(p.square, 0.5, 0.22), draw._rgb(draw.side_color(p.side)))
    assert FunkoverseGymEnv(scenario="flags", render_mode="rgb_array").metadata["render_modes"] == [
        "ansi",
        "rgb_array",
    ]


def test_the_shaped_reward_is_the_points_difference_and_sums_to_the_result() -> None:
    """Over a finished game the shaping adds up to nothing (the result alone decides); over a
    game stopped at the round limit it leaves the lead at the limit."""
    from funkoverse.env.reward import PointsReward, potential

    env = PointsReward(FunkoverseGymEnv(opponent="random", scenario="flags"))
    rng = np.random.default_rng(4)
    ends = set()
    for seed in range(8):
        obs, _ = env.reset(seed=seed)
        total = shaped = 0.0
        while True:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, reward, terminated, truncated, info = env.step(action)
            total += reward
            shaped += info["shaped_reward"]
            if terminated or truncated:
                break
        game = env.unwrapped.game  # type: ignore[attr-defined]
        if terminated:
            assert shaped == pytest.approx(0.0, abs=1e-9)
            assert total == pytest.approx(
                1.0 if game.winner == "dark" else -1.0 if game.winner else 0.0
            )
        else:
            assert shaped == pytest.approx(potential(game.session, "dark"))
            assert total == pytest.approx(shaped)
        ends.add(terminated)
    assert ends == {True, False}


# ------------------------------------------------------------------ copies, pickles, engines


def _walk(env: FunkoverseEnv, rng: np.random.Generator, steps: int) -> None:
    for _ in range(steps):
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            return
        env.step(int(rng.choice(env.legal_actions())))


def _same_point(a: FunkoverseEnv, b: FunkoverseEnv) -> None:
    assert a.agent_selection == b.agent_selection
    assert a.legal_actions() == b.legal_actions()
    for agent in a.agents:
        left, right = a.observe(agent), b.observe(agent)
        assert np.array_equal(left["observation"], right["observation"])
        assert np.array_equal(left["action_mask"], right["action_mask"])


@pytest.mark.parametrize("engine", ["kernel", "python"])
def test_the_environment_deep_copies_and_pickles_on_either_engine(engine: str) -> None:
    """A copy (`copy.deepcopy`) or an unpickled environment stands at the same point of the
    same game, and goes on as the original does: the same actions give the same
    observations, masks and rewards, while the original is left as it was."""
    import copy
    import pickle

    env = FunkoverseEnv(scenario="flags", engine=engine)
    assert env.session is None or env.engine.name == engine
    env.reset(seed=11)
    assert env.session is not None and env.session.engine.name == engine
    _walk(env, np.random.default_rng(1), 40)
    twin = copy.deepcopy(env)
    thawed = pickle.loads(pickle.dumps(env))
    _same_point(env, twin)
    _same_point(env, thawed)
    before = env.observe(env.agent_selection)["observation"].copy()
    _walk(twin, np.random.default_rng(2), 25)  # the copy plays on alone
    assert np.array_equal(env.observe(env.agent_selection)["observation"], before)
    for other in (twin, thawed):
        other_rng = np.random.default_rng(3)
        mine_rng = np.random.default_rng(3)
        fresh = copy.deepcopy(env)
        _walk(fresh, mine_rng, 30)
        again = copy.deepcopy(env) if other is twin else pickle.loads(pickle.dumps(env))
        _walk(again, other_rng, 30)
        _same_point(fresh, again)
        assert fresh.rewards == again.rewards


def test_the_legal_actions_are_the_masks_ones_and_name_the_legal_choices() -> None:
    """`legal_actions()` lists, ascending, exactly the actions the mask allows, and each is
    the action number of a legal choice of the seat deciding."""
    env = FunkoverseEnv(scenario="flags")
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(120):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        legal = env.legal_actions()
        assert legal == list(np.flatnonzero(env.observe(agent)["action_mask"]))
        session = env.session
        assert session is not None
        choices = list(session.choices(agent))
        assert sorted(env.legal_choices()) == legal
        assert sorted(map(str, env.legal_choices().values())) == sorted(map(str, choices))
        env.step(int(rng.choice(legal)))


def test_both_engines_give_the_same_observations_masks_and_rewards() -> None:
    """The environment on the kernel and on the Python engine: the same game, step by step."""
    envs = [FunkoverseEnv(scenario="flags", engine=e) for e in ("kernel", "python")]
    for env in envs:
        env.reset(seed=21)
    rng = np.random.default_rng(21)
    for _ in range(300):
        _same_point(*envs)
        agent = envs[0].agent_selection
        if envs[0].terminations[agent] or envs[0].truncations[agent]:
            break
        action = int(rng.choice(envs[0].legal_actions()))
        for env in envs:
            env.step(action)
    assert envs[0].rewards == envs[1].rewards


@pytest.mark.parametrize("engine", ["kernel", "python"])
@pytest.mark.parametrize(
    "game",
    [
        {},
        {"scenario": "control", "size": 3},
        {"scenario": "leaders"},
        {"spec": draw_spec(SetupRequest(scenario="brawl", players=3), 3)},
    ],
    ids=["flags", "control", "leaders", "brawl-3"],
)
def test_an_observation_kept_from_the_last_one_is_the_one_built_from_nothing(
    game: dict[str, Any], engine: str
) -> None:
    """Each seat's observation lays anew only the rows of what changed since its last one:
    at every step of seeded games, for every seat, it is the observation an encoder that
    remembers nothing builds from the seat's view."""
    env = FunkoverseEnv(**game, engine=engine)
    rng = np.random.default_rng(5)
    steps = 0
    for seed in range(2):
        env.reset(seed=seed)
        while steps < 400 * (seed + 1):
            assert env.session is not None
            for seat in env.possible_agents:
                kept = env.observe(seat)["observation"]
                anew = ObservationEncoder(env.codec, env.setup).encode(env.session.view(seat), seat)
                assert np.array_equal(kept, anew), (seed, steps, seat)
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                break
            env.step(int(rng.choice(env.legal_actions())))
            steps += 1


def test_the_env_bench_compares_with_connect_four_in_the_same_run() -> None:
    """`funkoverse bench --env`: each round's steps a second of both environments, alternated,
    and their ratio (the figure of docs/rl.md)."""
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "funkoverse",
            "bench",
            "--env",
            "--seconds",
            "0.2",
            "--rounds",
            "2",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"},
    )
    import json

    result = json.loads(out.stdout)
    assert len(result["rounds"]) == 2
    for r in result["rounds"]:
        assert r["funkoverse_steps_per_second"] > 0 and r["connect_four_steps_per_second"] > 0
        assert r["ratio"] == pytest.approx(
            r["funkoverse_steps_per_second"] / r["connect_four_steps_per_second"], rel=0.01
        )
    assert result["engine"] == "kernel"

"""Learning to beat the random agent at Flags, with NumPy alone, in minutes on a CPU.

The learner plays one seat of the Gymnasium environment against `random`, with the points
difference as a shaped reward (`funkoverse.env.reward.PointsReward`). Its policy is a
softmax over the legal actions only (the mask): each action is scored by a linear function
of a few features, so the policy has about two hundred weights, not one per action number:

- the kind of choice (move, challenge, interact, end, ...), one-hot;
- for a choice with a square (where a character moves or is placed, where its target or
  the character chosen stands): the observation's board planes at that square, and how
  near each plane's nearest marked square is (1 / (1 + distance)), in one of three groups
  of weights by what the square is (a destination, a target, one's own piece).

It learns by REINFORCE (the return from each step on, less a running mean of returns, as
the baseline) with Adam. Every `--eval-every` episodes it plays `--eval-games` games against
`random` on seeds it never trains on and prints its score (a win 1, a game stopped at the
round limit 1/2); `--curve FILE` writes those lines as CSV.

    PYTHONPATH=src python examples/rl_train_numpy.py --curve curve.csv

docs/rl.md has the curve of a full run.
"""

from __future__ import annotations

import argparse
import csv
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from funkoverse.env.gym import FunkoverseGymEnv
from funkoverse.env.reward import PointsReward
from funkoverse.rules.core import choices as ch

Vector = npt.NDArray[np.float64]
# What a choice's square is: where a piece goes, whom or what it acts on, or which own piece.
DESTINATION = (
    ch.Move,
    ch.Place,
    ch.Return,
    ch.Push,
    ch.Pull,
    ch.Put,
    ch.PlaceToken,
    ch.PlaceControl,
)
TARGET = (ch.Challenge, ch.Target, ch.Interact, ch.Assist, ch.UseAbility, ch.MinionChallenge)
OWN = (ch.Choose, ch.Leader, ch.Carry, ch.FlagReturn, ch.CompleteBonus)
GROUPS = (DESTINATION, TARGET, OWN)
EVAL_SEED = 10**9  # evaluation games are seeded from here on, training games below it


class Features:
    """Each legal action of the learner's decision as a feature vector."""

    def __init__(self, env: FunkoverseGymEnv) -> None:
        self.env = env
        self.kinds = {b.kind: i for i, b in enumerate(env.game.codec.blocks)}
        self.planes = env.game.encoder.layout.planes[1][0]
        self.per_group = 2 * self.planes
        self.size = len(self.kinds) + len(GROUPS) * self.per_group

    def __call__(self, obs: dict[str, Any]) -> tuple[list[int], Vector]:
        """The legal action numbers and their features, one row each."""
        game = self.env.game
        assert game.session is not None
        planes = game.encoder.layout.split(obs["observation"])["planes"]
        near = _nearness(planes)
        view = game.session.view(self.env.seat)
        board = view.board
        legal = game.legal_choices()
        actions = sorted(legal)
        phi = np.zeros((len(actions), self.size))
        for row, action in enumerate(actions):
            choice = legal[action]
            phi[row, self.kinds[type(choice)]] = 1.0
            square = _square(choice, view)
            group = next((g for g, kinds in enumerate(GROUPS) if isinstance(choice, kinds)), None)
            if square is None or group is None:
                continue
            x, y = board.xy(square)
            start = len(self.kinds) + group * self.per_group
            phi[row, start : start + self.planes] = planes[:, y, x]
            phi[row, start + self.planes : start + self.per_group] = near[:, y, x]
        return actions, phi


def _square(choice: ch.Choice, view: Any) -> int | None:
    """The square a choice is about: its own, or where the piece it names stands."""
    label = getattr(choice, "square", None)
    if isinstance(label, str):
        return view.board.index_of(label)  # type: ignore[no-any-return]
    for name in ("target", "piece", "thing", "ally"):
        pid = getattr(choice, name, None)
        if isinstance(pid, str) and pid in view.pieces:
            return view.pieces[pid].square  # type: ignore[no-any-return]
    return None


def _nearness(planes: Vector) -> Vector:
    """For each plane and square: 1 / (1 + the distance to the plane's nearest marked
    square, counted in king's steps), 0 where the plane marks nothing."""
    n, h, w = planes.shape
    ys, xs = np.mgrid[0:h, 0:w]
    out = np.zeros_like(planes)
    for p in range(n):
        marked = np.argwhere(planes[p] > 0)
        if len(marked) == 0:
            continue
        dy = np.abs(ys[..., None] - marked[:, 0])
        dx = np.abs(xs[..., None] - marked[:, 1])
        out[p] = 1.0 / (1.0 + np.maximum(dx, dy).min(axis=-1))
    return out


@dataclass
class Policy:
    """A softmax over the legal actions of a linear score of their features, learnt with
    Adam."""

    size: int
    lr: float = 0.02
    w: Vector = field(init=False)
    m: Vector = field(init=False)
    v: Vector = field(init=False)
    t: int = 0

    def __post_init__(self) -> None:
        self.w = np.zeros(self.size)
        self.m = np.zeros(self.size)
        self.v = np.zeros(self.size)

    def probabilities(self, phi: Vector) -> Vector:
        z = phi @ self.w
        z -= z.max()
        p = np.exp(z)
        return p / p.sum()  # type: ignore[no-any-return]

    def step(self, gradient: Vector) -> None:
        """One Adam step up `gradient`."""
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * gradient
        self.v = 0.999 * self.v + 0.001 * gradient**2
        m = self.m / (1 - 0.9**self.t)
        v = self.v / (1 - 0.999**self.t)
        self.w += self.lr * m / (np.sqrt(v) + 1e-8)


def episode(
    env: PointsReward, features: Features, policy: Policy, seed: int, rng: np.random.Generator
) -> tuple[float, list[tuple[Vector, int]], list[float]]:
    """One game: the game's own result (1, 0.5, 0 for the learner), and each decision's
    features and pick, and the shaped rewards."""
    obs, _ = env.reset(seed=seed)
    taken: list[tuple[Vector, int]] = []
    rewards: list[float] = []
    while True:
        actions, phi = features(obs)
        pick = int(rng.choice(len(actions), p=policy.probabilities(phi)))
        obs, reward, terminated, truncated, info = env.step(actions[pick])
        taken.append((phi, pick))
        rewards.append(float(reward))
        if terminated or truncated:
            own = reward - info.get("shaped_reward", 0.0)
            return (1.0 if own > 0 else 0.0 if own < 0 else 0.5), taken, rewards


def evaluate(
    env: PointsReward, features: Features, policy: Policy, games: int, rng: np.random.Generator
) -> list[float]:
    return [episode(env, features, policy, EVAL_SEED + g, rng)[0] for g in range(games)]


def main(argv: list[str] | None = None) -> list[dict[str, float]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=2000, help="games to learn from")
    parser.add_argument("--eval-every", type=int, default=200)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--lr", type=float, default=0.02)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--curve", default=None, help="write the evaluations as CSV here")
    args = parser.parse_args(argv)
    env = PointsReward(FunkoverseGymEnv(opponent="random", scenario="flags", redraw=True))
    features = Features(env.unwrapped)  # type: ignore[arg-type]
    policy = Policy(features.size, args.lr)
    rng = np.random.default_rng(args.seed)
    baseline = 0.0
    curve: list[dict[str, float]] = []
    start = time.perf_counter()

    def report(done: int) -> None:
        scores = evaluate(env, features, policy, args.eval_games, rng)
        row = {
            "episodes": done,
            "seconds": round(time.perf_counter() - start, 1),
            "score": float(np.mean(scores)),
            "wins": scores.count(1.0),
            "draws": scores.count(0.5),
            "losses": scores.count(0.0),
        }
        curve.append(row)
        print(
            f"{done:5d} episodes, {row['seconds']:6.1f} s: against random {row['score']:.3f} "
            f"({row['wins']} won, {row['draws']} stopped at the round limit, {row['losses']} lost)",
            flush=True,
        )

    report(0)
    for n in range(1, args.episodes + 1):
        _, taken, rewards = episode(env, features, policy, args.seed * 100_000 + n, rng)
        returns = np.cumsum(rewards[::-1])[::-1]
        gradient = np.zeros(features.size)
        for (phi, pick), g in zip(taken, returns, strict=True):
            p = policy.probabilities(phi)
            gradient += (g - baseline) * (phi[pick] - p @ phi)
        policy.step(gradient / len(taken))
        baseline += 0.05 * (float(returns[0]) - baseline)
        if n % args.eval_every == 0 or n == args.episodes:
            report(n)
    if args.curve:
        with open(args.curve, "w", newline="", encoding="utf-8") as fh:
            out = csv.DictWriter(fh, fieldnames=list(curve[0]))
            out.writeheader()
            out.writerows(curve)
    return curve


if __name__ == "__main__":
    main()

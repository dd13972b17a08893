"""How good a position is for each side: a static estimate of every seat's chance to win.

The agents look some decisions ahead and then ask this module. It reads only what the
generic engine API shows (pieces, squares, standing, exhausted, pools, cooldown tracks,
points and the scenario's target, whose turn it is, the turn order), so it scores any
scenario and any number of sides. It knows the basic actions every character has (move 2,
challenge an adjacent rival with 2 dice, assist, rally, interact) and asks the scenario
what a knock-out is worth; abilities and items are left to the search, which sees them
through `legal_choices` (with `Weights.abilities`, the threats read the first challenge of
challenge abilities and items from their cards).

Every estimate starts from a *score* per side in logit units (the log-odds scale of a win
probability): points and the share of the scenario's target they make, characters knocked
down and knocked out, ability tokens in the pool and on the cooldown track, and how far the
side's nearest character is from an objective (a point marker, a rival's flag, a control
marker not showing its color). Then the *next turns* are looked at: who acts next (the
active character with the actions it has left, then the sides in turn order, across the
end of a round, where the First Player marker passes and a side may take two turns in a
row, which count as one), and what each of those turns can do with its characters' basic
actions: the exact chance to win each challenge it can reach, so the chance to knock a
rival down or out, and to win the game by it; or standing an ally up; or interacting with
a point marker. Two ways to use them:

* `NEXT_TURNS` (the greedy agent's): each of the next three turns' best plan is weighed
  (1, 1/2, 1/4) into the score, and a plan that may win the game outright enters as a race
  of turns in probability space;
* `RACE` (the search agents'): the next six turns are played out on the chances alone, each
  side in turn doing its best plan against every character's chance to be standing,
  knocked down or knocked out, attackers ending beside their targets, so that a knock-down
  followed by a rival's two turns in a row is seen for what it is.

In Flags the points come mostly from returns at the end of a round, which the next turns
do not reach. `ROUND_END` counts a flat share of a return for a character beside the
rival's flag or a move or two from it; `FLAG_ROUNDS` counts each character's return round
by round: this round at the exact chance that no rival still to act knocks it down there,
later rounds discounted. `FITTED` (the hard and expert levels') is `FLAG_ROUNDS` with the
threats read with the characters' challenge abilities and items, with what is not yet in
hand weighed against points in hand as their games suggested, and with a return no rival
is left to act against counted as points in hand; it reads the end of the round as the
rules decide the game (`round_race`: the most points at the end of a round, once at the
target, when what is still possible this round may take a side there; `beyond_target`: a
tie plays on, so points past the target count while a rival is near them). Once a side has
answered the round end's check of who returns, a character it left by the rival's flag
returns a round later at the earliest (`flag_returns_open`).

The agents' searches on the compiled kernel evaluate with its twin, kernel/evaluate.cpp,
which follows this module function by function in the same order of floating-point
operations and gives the same values bit for bit (tests/test_ai_kernel.py): a change here is
a change there too.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from funkoverse.rules import (
    CHANCE,
    Board,
    CharacterCard,
    GameState,
    ItemCard,
    Kind,
    Phase,
    Piece,
    Role,
    TokenColor,
)
from funkoverse.rules.core import numbers
from funkoverse.rules.core.cards import Step
from funkoverse.rules.core.dice import DieSpec, win_probability
from funkoverse.rules.core.frames import RoundEndFrame
from funkoverse.rules.core.numbers import FLAG_POINTS
from funkoverse.rules.core.pieces import KNOCKABLE_KINDS
from funkoverse.rules.core.scenario import flag_returns_open
from funkoverse.rules.play import engine

BASIC_MOVE = numbers.BASIC_MOVE  # squares a basic move covers
BASIC_DICE = numbers.BASIC_CHALLENGE_DICE  # dice a basic challenge rolls
ACTIONS = numbers.ACTIONS_PER_TURN  # actions in a turn
RALLY = numbers.RALLY_ACTIONS  # actions a rally takes


@dataclass(frozen=True)
class Weights:
    """The evaluation's weights, in logit units unless said otherwise."""

    knocked_down: float = 0.7  # a character of ours knocked down
    knocked_out: float = 1.4  # a character of ours on the cooldown track
    pool_token: float = 0.12  # an ability token in the pool
    track_token: float = 0.04  # an ability token on the cooldown track (it will come back)
    points: float = 5.0  # all the points the scenario needs (scaled by the share we have)
    raw_point: float = 0.5  # a point, when the scenario names no target
    win: float = 6.0  # what a turn that wins the game is worth when choosing its plan
    objective: float = 0.08  # per move action between our nearest character and a marker
    # per square between each standing character of ours and its nearest marker (at most 12):
    # a pull toward the objectives where the rest of the evaluation sees no difference
    walk: float = 0.0
    turn_weights: tuple[float, ...] = (1.0, 0.5, 0.25)  # how much the next turns count
    win_weights: tuple[float, ...] = (1.0, 0.55, 0.3)  # same, for a turn that wins the game
    race: bool = True  # play the next turns out as a race (else: weigh each turn's plan)
    race_groups: int = 6  # turns played out (turns of one side in a row count as one)
    decay: float = 0.8  # the chance a plan a turn further ahead still happens
    recover: float = 1.5  # standing an ally up, per knocked-down character
    # Flags: the share of a return's points counted for a standing character that is beside
    # the rival's flag now, one move action from it, two (0: the round end is not looked at)
    flag_return: tuple[float, float, float] = (0.0, 0.0, 0.0)
    # Flags, read round by round: (the share a return still counts per round it is away, the
    # chance a character standing by the rival's flag a round or more ahead is still standing
    # when its round ends); 0 leaves it to `flag_return`
    flag_rounds: tuple[float, float] = (0.0, 0.0)
    # the threats of the next turns count each character's challenge abilities (its first
    # challenge's dice, the squares it moves on the way) when its side has a token to pay,
    # and the challenge items it holds while their cards are off the cooldown track
    abilities: bool = False
    # the characters knocked down and knocked out now, when they weigh otherwise than in the
    # next turns' plans (None: `knocked_down` and `knocked_out`)
    material: tuple[float, float] | None = None
    flag_scale: float = 1.0  # how much the Flags count is trusted, against points in hand
    # Flags: a return no rival can stop any more (none is left to act this round) counts as
    # points in hand, not at `flag_scale`
    sure_returns: bool = False
    # Flags: the returns and points still possible this round decide the game when they take a
    # side to the target with the most points ("Winning a Scenario"), at their chances
    round_race: bool = False
    # past the scenario's target, points still count while a rival is within this many of
    # them: "If there is a tie, play more rounds until one player has more points" (0: the
    # target caps the points worth having)
    beyond_target: int = 0


RACE = Weights()
NEXT_TURNS = Weights(race=False)
ROUND_END = Weights(race=False, flag_return=(0.7, 0.35, 0.15))
FLAG_ROUNDS = Weights(race=False, flag_rounds=(0.5, 0.75))
# The hard and expert levels': FLAG_ROUNDS with the threats read with abilities, and what is
# not yet in hand (the Flags count, the next turns' plans, who is knocked down or out now)
# weighed less against points in hand, nearer to what a fit to self-play suggested: a
# regression on 2,386 positions (41 of hard's games against greedy) of the points each
# side gained in the next two rounds. A fit of who won (6,511 positions of 81 games) then
# split the Flags count: a return still possible this round at 0.6 of its chance, one
# rounds away at 0.6 x 0.375, and one no rival is left to act against as points in hand
# (docs/ai.md). It reads the end of a round as the rules decide the game (`round_race`, and
# points past the target while a rival is near them). Each character is drawn toward its
# nearest objective square by square (`walk`), which decides the moves the rest values alike.
FITTED = Weights(
    race=False,
    flag_rounds=(0.5, 0.375),
    abilities=True,
    flag_scale=0.6,
    sure_returns=True,
    turn_weights=(0.4, 0.35, 0.25),
    material=(0.3, 0.4),
    objective=0.12,
    pool_token=0.15,
    track_token=0.15,
    round_race=True,
    beyond_target=2,
    walk=0.005,
)
DEFAULT_WEIGHTS = RACE


# ------------------------------------------------------------------ static map tables


class _Walks:
    """Per map: how many basic move actions a character needs to stand adjacent to a square,
    walking the map's legal steps (walls, blocked squares, corners) and ignoring pieces."""

    def __init__(self, board: Board) -> None:
        n = board.width * board.height
        inf = 10**6
        walk = [[inf] * n for _ in range(n)]
        for origin in range(n):
            row = walk[origin]
            row[origin] = 0
            frontier = [origin]
            d = 0
            while frontier:
                d += 1
                nxt = []
                for sq in frontier:
                    for to in board.steps(sq):
                        if row[to] > d:
                            row[to] = d
                            nxt.append(to)
                frontier = nxt
        # moves[a][t]: move actions for a character on a to end adjacent to t; squares[a][t]:
        # the squares it walks to get there
        self.moves: list[list[int]] = []
        self.squares: list[list[int]] = []
        for a in range(n):
            row = walk[a]
            out = []
            steps = []
            for t in range(n):
                best = min((row[s] for s in board.adjacent(t) if s != t), default=inf)
                steps.append(0 if best == 0 or t in board.adjacent_set(a) else best)
                out.append(-(-steps[-1] // BASIC_MOVE))
            self.moves.append(out)
            self.squares.append(steps)


# Each board's table lives as long as the board does.
_WALKS: weakref.WeakKeyDictionary[Board, _Walks] = weakref.WeakKeyDictionary()


def walks(board: Board) -> _Walks:
    """The walk table of `board`, built once per board."""
    table = _WALKS.get(board)
    if table is None:
        table = _Walks(board)
        _WALKS[board] = table
    return table


# ------------------------------------------------------------------ dice


def _p_win(state: GameState, dice: int, defense: int) -> float:
    """The chance that `dice` standard dice beat `defense` standard dice."""
    specs = state.setup.dice
    return _p_win_with(specs.get("standard") or next(iter(specs.values())), dice, defense)


@lru_cache(maxsize=1024)
def _p_win_with(die: DieSpec, dice: int, defense: int) -> float:
    return float(win_probability([die] * dice, [die] * defense))


def _knock_chances(p: float, challenges: int, standing: bool) -> tuple[float, float]:
    """(chance of a knock-out, chance of a knock-down only) from `challenges` tries at `p`."""
    if challenges <= 0:
        return 0.0, 0.0
    q = 1.0 - p
    if not standing:
        return 1.0 - q**challenges, 0.0
    none = q**challenges
    one = challenges * p * q ** (challenges - 1)
    return max(0.0, 1.0 - none - one), one


def _knock_odds(tries: list[float], standing: bool) -> tuple[float, float]:
    """(chance of a knock-out, chance of a knock-down only) from challenges won at `tries`."""
    if all(t == tries[0] for t in tries):
        return _knock_chances(tries[0], len(tries), standing)
    none = math.prod(1.0 - t for t in tries)
    if not standing:
        return 1.0 - none, 0.0
    one = sum(t * none / (1.0 - t) if t < 1.0 else 0.0 for t in tries)
    return max(0.0, 1.0 - none - one), one


@dataclass(frozen=True)
class _Strike:
    """A challenge ability or item as the threats read it: its first challenge, paid with a
    token (an ability) or made while the item's card is off the cooldown track."""

    color: TokenColor | None  # the token an ability costs (None: an item)
    dice: int
    plus_defense: bool  # its dice grow by the target's defense (Fight for Justice)
    vs_down: int  # more dice against a knocked-down target
    reach: int  # move actions the squares it covers before the challenge (and its range) save


def _read_strike(steps: Sequence[Step], color: TokenColor | None) -> _Strike | None:
    """The first challenge of a card's steps, with the squares the steps before it cover."""
    squares = 0
    for step in steps:
        if step.op == "challenge":
            squares += max(0, step.int("range", 1) - 1)
            return _Strike(
                color,
                step.int("dice", BASIC_DICE),
                step.get("bonus") == "target_defense",
                step.int("extra_vs_knocked_down"),
                squares // BASIC_MOVE,
            )
        if step.op in ("move", "pull_rival_seen"):
            squares += step.int("squares")
        elif step.op == "place_self_adjacent_to_rival":
            squares += step.int("within")
    return None


def _strikes(card: CharacterCard | None) -> tuple[_Strike, ...]:
    """The challenge abilities printed on `card`, read from their steps."""
    if card is None:
        return ()
    found = (
        _read_strike(ability.steps, ability.color)
        for ability in card.abilities
        if ability.challenge_action
    )
    return tuple(strike for strike in found if strike is not None)


def _item_strike(item: ItemCard) -> _Strike | None:
    """The challenge of a challenge item, read from its steps."""
    return _read_strike(item.steps, None) if item.challenge_action else None


# ------------------------------------------------------------------ the evaluator


@dataclass
class _Turn:
    side: str
    options: list[tuple[Piece, int]]  # the characters that may take it, with their actions
    new_round: bool  # starts a round: pieces exhausted before are fresh again


class _View:
    """What one evaluation needs, gathered once: each side's characters, the rivals' squares."""

    __slots__ = ("_reach", "chars", "moves", "race", "squares", "state", "targets")

    def __init__(self, state: GameState) -> None:
        self.state = state
        table = walks(state.board)
        self.moves = table.moves
        self.squares = table.squares
        self.chars: dict[str, list[Piece]] = {side: [] for side in state.seats}
        self.targets: list[Piece] = []  # knockable pieces on the map
        for p in state.pieces.values():
            kind = p.kind
            if kind in KNOCKABLE_KINDS:
                if p.side in self.chars:
                    self.chars[p.side].append(p)
                if p.square is not None:
                    self.targets.append(p)
        self._reach: dict[tuple[str, str], int] = {}
        # Flags, for the race to the target: what each side may still gain this round, as
        # (points, chance): its returns, and a point its turns' best plans may take
        self.race: dict[str, list[tuple[int, float]]] = {}

    def reach(self, piece: Piece, side: str) -> int:
        """Move actions `piece` (on the map) needs to stand beside the nearest piece on the map
        of a side other than `side` (0 when there is none)."""
        key = (piece.id, side)
        hit = self._reach.get(key)
        if hit is None:
            row = self.moves[piece.square]  # type: ignore[index]
            hit = min([row[t.square] for t in self.targets if t.side != side], default=0)  # type: ignore[index]
            self._reach[key] = hit
        return hit


# (chance to win the game, score changes by side, the best chance the turn has to gain a point)
Plan = tuple[float, dict[str, float], float]


class Evaluator:
    """Estimates each seat's chance to win a position (values sum to 1)."""

    horizon_turns = 8  # turns looked at ahead (consecutive turns of one side are merged)

    def __init__(self, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.w = weights
        self._ko_cache: dict[tuple[Any, ...], tuple[bool, int]] = {}
        # what a card's steps say, read once for this evaluator (cards are immutable)
        self._strikes: dict[int, tuple[CharacterCard | None, tuple[_Strike, ...]]] = {}
        self._items: dict[str, tuple[ItemCard, _Strike | None]] = {}
        # its twin on the compiled kernel, with the weights it was made for (funkoverse.ai.kernel)
        self._kernel_twin: tuple[tuple[Weights, int], Any] | None = None

    def _card_strikes(self, card: CharacterCard | None) -> tuple[_Strike, ...]:
        hit = self._strikes.get(id(card))
        if hit is None or hit[0] is not card:
            hit = (card, _strikes(card))
            self._strikes[id(card)] = hit
        return hit[1]

    def _item_strikes(self, state: GameState, piece: Piece) -> list[_Strike]:
        """The challenges of the items `piece` may use now (`engine.ready_items`)."""
        found = []
        for item_id, item in engine.ready_items(state, piece):
            hit = self._items.get(item_id)
            if hit is None or hit[0] is not item:
                hit = (item, _item_strike(item))
                self._items[item_id] = hit
            if hit[1] is not None:
                found.append(hit[1])
        return found

    # -- public --------------------------------------------------------------

    def values(self, state: GameState) -> tuple[float, ...]:
        """Every seat's estimated chance to win, in `state.seats` order."""
        seats = state.seats
        if state.winner is not None or state.phase is Phase.OVER:
            return tuple(1.0 if s == state.winner else 0.0 for s in seats)
        if engine.decider(state) == CHANCE:
            total = [0.0] * len(seats)
            for choice, prob in engine.chance_outcomes(state):
                child = state.copy()
                engine.apply_unchecked(child, choice)
                for i, v in enumerate(self.values(child)):
                    total[i] += float(prob) * v
            return tuple(total)
        view = _View(state)
        if self.w.race:
            return self._race(view)
        plans = self._plans(view)
        scores = self._scores(view, plans)
        base = _softmax([scores[s] for s in seats])
        if self.w.round_race and state.setup.scenario.flags:
            base = _round_race(state, view.race, base)
        # a race of turns: each may win the game outright; the rest falls to the base estimate
        left = 1.0
        out = [0.0] * len(seats)
        weights = self.w.win_weights
        for index, (side, (win, _, _)) in enumerate(plans):
            if win > 0:
                chance = weights[min(index, len(weights) - 1)] * win
                out[seats.index(side)] += left * chance
                left *= 1.0 - chance
        if left == 1.0:
            return base
        return tuple(o + left * b for o, b in zip(out, base, strict=True))

    def _race(self, view: _View) -> tuple[float, ...]:
        """Play the next turns out on the chances alone: each side in turn does the best of
        its plans (attack a rival with every challenge its characters can bring, stand an
        ally up, interact with a point marker) against each character's chance to be
        standing, knocked down or knocked out; a knock-out that wins the game ends the race."""
        w = self.w
        state = view.state
        seats = state.seats
        moves = view.moves
        stand: dict[str, float] = {}
        down: dict[str, float] = {}
        out: dict[str, float] = {}
        pos: dict[str, int] = {}
        for t in view.targets:
            assert t.square is not None
            stand[t.id] = 1.0 if t.standing else 0.0
            down[t.id] = 0.0 if t.standing else 1.0
            out[t.id] = 0.0
            pos[t.id] = t.square
        won = dict.fromkeys(seats, 0.0)
        gained = dict.fromkeys(seats, 0.0)  # points from interacting, expected
        taken: set[str] = set()
        markers = [
            m
            for m in state.pieces.values()
            if m.kind is Kind.MARKER and m.square is not None and _point(m)
        ]
        groups: list[list[_Turn]] = []
        for turn in self._upcoming(view, w.race_groups):
            if groups and groups[-1][0].side == turn.side:
                groups[-1].append(turn)
            else:
                groups.append([turn])
        live = 1.0
        for j, group in enumerate(groups[: w.race_groups]):
            if live < 1e-4:
                break
            side = group[0].side
            e = w.decay**j
            budgets = [[(pc.id, k) for pc, k in b if pc.id in pos] for b in self._budgets(group)]
            best_value = 0.0
            best_plan: tuple[Any, ...] | None = None
            for d in view.targets:
                if d.side == side or d.defense is None or not state.rivals(side, d.side):
                    continue
                did = d.id
                if out[did] > 0.999:
                    continue
                dsq = pos[did]
                challenges = 0
                attackers: list[str] = []
                for budget in budgets:
                    c = 0
                    used = []
                    for aid, k in budget:
                        if out[aid] > 0.5:
                            continue
                        if stand[aid] < 0.5:
                            k -= RALLY
                        ca = k - moves[pos[aid]][dsq]
                        if ca > 0:
                            c += ca
                            used.append(aid)
                    if c > challenges:
                        challenges, attackers = c, used
                if challenges <= 0:
                    continue
                pw = _p_win(state, BASIC_DICE, d.defense)
                q = 1.0 - pw
                qc = q**challenges
                one = challenges * pw * q ** (challenges - 1)
                ko = e * (down[did] * (1.0 - qc) + stand[did] * (1.0 - qc - one))
                kd = e * stand[did] * one
                wins, points = self._knockout_effect(state, state.pieces[attackers[0]], d)
                if wins:
                    value = ko * w.win
                else:
                    value = ko * (w.knocked_out + self._points_value(state, side, points))
                value += kd * w.knocked_down
                if value > best_value:
                    best_value = value
                    best_plan = ("attack", did, ko, kd, qc, e, wins, attackers)
            for x in view.chars[side]:
                xid = x.id
                if xid not in pos or down[xid] < 0.05:
                    continue
                value = down[xid] * w.recover
                if value <= best_value:
                    continue
                if any(
                    (aid == xid and k >= RALLY)
                    or (aid != xid and stand[aid] > 0.5 and k - moves[pos[aid]][pos[xid]] >= 1)
                    for budget in budgets
                    for aid, k in budget
                ):
                    best_value = value
                    best_plan = ("recover", xid)
            for m in markers:
                if m.id in taken:
                    continue
                value = e * self._points_value(state, side, 1)
                if value <= best_value:
                    break
                assert m.square is not None
                user = next(
                    (
                        aid
                        for budget in budgets
                        for aid, k in budget
                        if stand[aid] > 0.5 and k - moves[pos[aid]][m.square] >= 1
                    ),
                    None,
                )
                if user is not None:
                    best_value = value
                    best_plan = ("interact", m.id, user, e, m.square)
            if best_plan is None:
                continue
            if best_plan[0] == "interact":
                _, mid, user, e, square = best_plan
                taken.add(mid)
                gained[side] += e
                pos[user] = square
            elif best_plan[0] == "attack":
                _, did, ko, kd, qc, e, wins, attackers = best_plan
                hit = e * (1.0 - qc)
                stand_d, down_d = stand[did], down[did]
                stand[did] = stand_d - stand_d * hit
                down[did] = down_d - down_d * hit + kd
                out[did] += ko
                if wins:
                    won[side] += live * ko
                    live -= live * ko
                for aid in attackers:
                    pos[aid] = pos[did]
            else:
                xid = best_plan[1]
                stand[xid] += down[xid]
                down[xid] = 0.0
        scores = dict.fromkeys(seats, 0.0)
        target = state.setup.scenario.points_to_win(state)
        for side in seats:
            s = state.sides[side]
            scores[side] += self._holdings(side, s.points + gained[side], target, state)
            for pc in view.chars[side]:
                if pc.id in pos:
                    scores[side] -= w.knocked_down * down[pc.id] + w.knocked_out * out[pc.id]
                elif pc.placed:
                    scores[side] -= w.knocked_out
        self._objectives(view, scores)
        base = _softmax([scores[s] for s in seats])
        return tuple(won[s] + live * b for s, b in zip(seats, base, strict=True))

    def _holdings(self, side: str, points: float, target: int | None, state: GameState) -> float:
        """A side's points (as a share of the scenario's target) and its ability tokens, in
        the pool and on the cooldown track, in logit units."""
        w = self.w
        s = state.sides[side]
        if target:
            value = w.points * min(points, self._cap(state, side, target)) / target
        else:
            value = w.raw_point * points
        value += w.pool_token * sum(s.pool.values())
        for slot in s.track:
            for kind, _ in slot:
                if kind == "token":
                    value += w.track_token
        return value

    def scores(self, state: GameState) -> dict[str, float]:
        """Each side's score in logit units (material, points, resources, next turns)."""
        view = _View(state)
        return self._scores(view, self._plans(view))

    def _scores(self, view: _View, plans: list[tuple[str, Plan]]) -> dict[str, float]:
        w = self.w
        state = view.state
        scores = {side: 0.0 for side in state.seats}
        target = state.setup.scenario.points_to_win(state)
        down, out = w.material or (w.knocked_down, w.knocked_out)
        for side in state.seats:
            scores[side] += self._holdings(side, state.sides[side].points, target, state)
            for p in view.chars[side]:
                if p.square is None:
                    if p.placed:
                        scores[side] -= out
                elif not p.standing:
                    scores[side] -= down
        self._objectives(view, scores)
        for index, (_, (_, deltas, _)) in enumerate(plans):
            weight = w.turn_weights[min(index, len(w.turn_weights) - 1)]
            for side, g in deltas.items():
                scores[side] += weight * g
        return scores

    # -- objectives ------------------------------------------------------------

    def _objectives(self, view: _View, scores: dict[str, float]) -> None:
        """Markers on the map that are not a side's own (point markers, a rival's flag, a
        control marker showing another color) draw that side's nearest standing character
        (and, with `walk`, each of them a little, square by square)."""
        markers = [
            (p.side, p.square)
            for p in view.state.pieces.values()
            if p.kind is Kind.MARKER and p.square is not None
        ]
        if not markers:
            return
        moves = view.moves
        for side, chars in view.chars.items():
            goals = [sq for owner, sq in markers if owner != side]
            mine = [p.square for p in chars if p.square is not None and p.standing]
            if goals and mine:
                near = min(moves[a][m] for a in mine for m in goals)
                scores[side] -= self.w.objective * min(near, 6)
                if self.w.walk:
                    squares = view.squares
                    far = sum(min(12, min(squares[a][m] for m in goals)) for a in mine)
                    scores[side] -= self.w.walk * far
        if view.state.setup.scenario.flags:
            if self.w.flag_rounds[0]:
                self._flag_rounds(view, scores)
            elif self.w.flag_return[0]:
                self._flag_returns(view, scores)

    def _flag_returns(self, view: _View, scores: dict[str, float]) -> None:
        """Flags: the points a side may expect when the round ends, from its standing
        characters beside the rival's flag, or near enough to get there this round."""
        state = view.state
        flags = _flags(state)
        moves = view.moves
        shares = self.w.flag_return
        for side, chars in view.chars.items():
            goals = [sq for owner, sq in flags.items() if owner != side]
            if not goals or not flag_returns_open(state, side):
                continue
            expected = 0.0
            for p in chars:
                if p.square is None or not p.standing:
                    continue
                near = min(moves[p.square][g] for g in goals)
                if near == 0:
                    expected += shares[0]
                elif near <= 2 and not p.exhausted:
                    expected += shares[near]
            if expected:
                scores[side] += self._points_value(state, side, FLAG_POINTS * expected)

    def _flag_rounds(self, view: _View, scores: dict[str, float]) -> None:
        """Flags, round by round: every character of a side is a return of 2 points some
        round ahead. One that can stand by the rival's flag with the actions it has left this
        round counts at the chance that no rival still to act this round knocks it down there
        (each rival's challenges at their exact odds); one further away counts once per round
        it needs, discounted, and a knocked-down one needs a rally first."""
        state = view.state
        flags = _flags(state)
        if not flags:
            return
        moves = view.moves
        discount, later = self.w.flag_rounds
        ending = _round_ending(state)
        for side, chars in view.chars.items():
            goals = [sq for owner, sq in flags.items() if owner != side]
            if not goals:
                continue
            rivals = [
                (r, _actions_left(state, r, ending))
                for r in view.targets
                if r.side != side and state.rivals(side, r.side) and r.standing
            ]
            unopposed = self.w.sure_returns and not any(k for _, k in rivals)
            settled = not flag_returns_open(state, side)
            expected = certain = 0.0
            # what this side may still gain this round, kept for the race only when it is read
            this_round = view.race.setdefault(side, []) if self.w.round_race else []
            for p in chars:
                if p.square is None:
                    continue
                goal = min(goals, key=lambda g: moves[p.square][g])  # type: ignore[index]
                near = moves[p.square][goal]
                needed = near + (0 if p.standing else RALLY)
                have = _actions_left(state, p, ending)
                if settled:  # this round's returns are decided: the next chance is a round on
                    rounds = 1 - (-max(0, needed - ACTIONS) // ACTIONS)
                    expected += later * discount**rounds
                elif needed > have:
                    rounds = -(-(needed - have) // ACTIONS)
                    expected += later * discount**rounds
                elif unopposed:
                    certain += 1.0  # no rival left to act this round can stop it
                    this_round.append((FLAG_POINTS, 1.0))
                else:
                    survive = self._survive(view, p, p.square if near == 0 else goal, rivals)
                    expected += survive
                    this_round.append((FLAG_POINTS, survive))
            if expected:
                scores[side] += self.w.flag_scale * self._points_value(
                    state, side, FLAG_POINTS * expected
                )
            if certain:
                scores[side] += self._points_value(state, side, FLAG_POINTS * certain)

    def _survive(self, view: _View, p: Piece, spot: int, rivals: list[tuple[Piece, int]]) -> float:
        """The chance that none of `rivals` (with the actions each has left this round) knocks
        `p` down on `spot`."""
        state = view.state
        moves = view.moves
        survive = 1.0
        if p.defense is not None and self.w.abilities:
            for r, k in rivals:
                away = moves[r.square][spot]  # type: ignore[index]
                for t in self._tries(state, r, k, away, p, True):
                    survive *= 1.0 - t
        elif p.defense is not None:
            miss = 1.0 - _p_win(state, BASIC_DICE, p.defense)
            for r, k in rivals:
                tries = k - moves[r.square][spot]  # type: ignore[index]
                if tries > 0:
                    survive *= miss**tries
        return survive

    # -- the next turns ----------------------------------------------------------

    def _upcoming(self, view: _View, groups: int) -> list[_Turn]:
        """The next few turns in order: the current one (the active character with the actions
        it has left), then the sides in turn order, across the end of the round; no further
        than `groups` runs of one side's turns."""
        state = view.state
        if state.phase in (Phase.FLIP, Phase.PLACE, Phase.OVER):
            return []
        seats = state.seats
        exhausted = {p.id for chars in view.chars.values() for p in chars if p.exhausted}
        turns: list[_Turn] = []
        first = state.first_player or seats[0]
        current: str | None = None
        refresh = _round_ending(state)
        if not refresh:
            if state.phase is Phase.ACT and state.active is not None:
                piece = state.pieces[state.active]
                current = piece.side
                exhausted.add(piece.id)
                on_map = piece.square is not None  # not knocked out in its own turn
                turns.append(_Turn(current, [(piece, state.actions_left)] if on_map else [], False))
            elif state.to_act is not None:
                current = state.to_act
                turns.append(_Turn(current, self._fresh(view, current, exhausted), False))
                self._consume(view, turns[-1], exhausted)
        rounds = 0
        runs = 1 if turns else 0
        while len(turns) < self.horizon_turns:
            side = None if refresh else self._next_side(view, current, exhausted)
            starts = False
            if side is None:  # the round ends: refresh, the First Player marker passes
                if rounds:
                    break
                rounds += 1
                refresh = False
                exhausted = set()
                first = _after(seats, first)
                side = first
                starts = True
            if side != current:
                runs += 1
                if runs > groups:
                    break
            turns.append(_Turn(side, self._fresh(view, side, exhausted), starts))
            self._consume(view, turns[-1], exhausted)
            current = side
        return turns

    @staticmethod
    def _fresh(view: _View, side: str, exhausted: set[str]) -> list[tuple[Piece, int]]:
        return [
            (p, ACTIONS) for p in view.chars[side] if p.id not in exhausted and p.square is not None
        ]

    @staticmethod
    def _consume(view: _View, turn: _Turn, exhausted: set[str]) -> None:
        """Mark the character the side will most likely use (the one nearest a rival) as
        exhausted for the turns after this one."""
        if turn.options:
            if len(turn.options) == 1:
                exhausted.add(turn.options[0][0].id)
                return
            best, best_reach = turn.options[0][0], 10**9
            for piece, _ in turn.options:
                reach = view.reach(piece, turn.side)
                if reach < best_reach:
                    best, best_reach = piece, reach
            exhausted.add(best.id)
            return
        for p in view.chars[turn.side]:
            if p.id not in exhausted:
                exhausted.add(p.id)
                return

    @staticmethod
    def _next_side(view: _View, current: str | None, exhausted: set[str]) -> str | None:
        if current is None:
            return None
        seats = view.state.seats
        i = seats.index(current)
        for side in seats[i + 1 :] + seats[: i + 1]:
            for p in view.chars[side]:
                if p.id not in exhausted:
                    return side
        return None

    def _plans(self, view: _View) -> list[tuple[str, Plan]]:
        """The best plan of each of the next super-turns (consecutive turns of one side merged):
        (side, (chance to win the game in it, score changes by side apart from that, chance to
        gain a point)). The turns of this round also leave each side's chances to gain a point
        before it ends in `view.race`."""
        merged: list[list[_Turn]] = []
        for t in self._upcoming(view, len(self.w.turn_weights)):
            if merged and merged[-1][0].side == t.side:
                merged[-1].append(t)
            else:
                merged.append([t])
        plans = []
        this_round = True
        trust = self.w.win_weights
        for index, group in enumerate(merged[: len(self.w.turn_weights)]):
            plan = self._best_plan(view, group)
            this_round = this_round and not group[0].new_round
            if self.w.round_race and this_round and plan[2] > 0.0:
                # a later turn's plan may not survive the turns before it (as a win, below)
                chance = plan[2] * trust[min(index, len(trust) - 1)]
                view.race.setdefault(group[0].side, []).append((1, chance))
            plans.append((group[0].side, plan))
        return plans

    def _best_plan(self, view: _View, group: list[_Turn]) -> Plan:
        """The best thing one side can do in one turn, or two in a row: attack one rival with
        the characters it may use, stand an ally up, or interact with a point marker."""
        w = self.w
        state = view.state
        side = group[0].side
        budgets = self._budgets(group)
        if not budgets:
            return 0.0, {}, 0.0
        moves = view.moves
        best_value = 0.0
        best: Plan = (0.0, {}, 0.0)
        point_chance = 0.0  # the best chance this turn has to gain a point, for the race
        # attack: the challenges every usable character can bring against one rival
        for d in view.targets:
            if d.side == side or d.defense is None or not state.rivals(side, d.side):
                continue
            dsq = d.square
            attacker: Piece | None = None
            if w.abilities:
                best_tries: list[float] = []
                # the same character with the same actions comes back in many budgets
                known: dict[tuple[str, int], list[float]] = {}
                for budget in budgets:
                    tries: list[float] = []
                    for piece, k in budget:
                        if not piece.standing:
                            k -= RALLY
                        t = known.get((piece.id, k))
                        if t is None:
                            away = moves[piece.square][dsq]  # type: ignore[index]
                            t = known[piece.id, k] = self._tries(
                                state, piece, k, away, d, d.standing
                            )
                        if t:
                            tries += t
                            attacker = attacker or piece
                    if sum(tries) > sum(best_tries):
                        best_tries = tries
                if not best_tries or attacker is None:
                    continue
                ko, kd = _knock_odds(best_tries, d.standing)
            else:
                challenges = 0
                for budget in budgets:
                    c = 0
                    for piece, k in budget:
                        if not piece.standing:
                            k -= RALLY
                        c_piece = k - moves[piece.square][dsq]  # type: ignore[index]
                        if c_piece > 0:
                            c += c_piece
                            attacker = attacker or piece
                    challenges = max(challenges, c)
                if challenges <= 0 or attacker is None:
                    continue
                p = _p_win(state, BASIC_DICE, d.defense)
                ko, kd = _knock_chances(p, challenges, d.standing)
            wins, points = self._knockout_effect(state, attacker, d)
            win = ko if wins else 0.0
            loss = kd * w.knocked_down
            gain = 0.0
            if not wins:
                loss += ko * (w.knocked_out - (0.0 if d.standing else w.knocked_down))
                gain = ko * self._points_value(state, side, points)
            value = win * w.win + loss + gain
            if value > best_value:
                deltas = {d.side: -loss}
                if gain:
                    deltas[side] = gain
                best_value, best = value, (win, deltas, 0.0)
            if points and not wins and ko > point_chance:
                point_chance = ko
        # stand up an ally (rally or assist)
        if w.knocked_down > best_value:
            for x in view.chars[side]:
                if x.square is None or x.standing:
                    continue
                if any(
                    (piece.id == x.id and k >= RALLY)
                    or (piece.standing and k - moves[piece.square][x.square] >= 1)  # type: ignore[index]
                    for budget in budgets
                    for piece, k in budget
                ):
                    best_value, best = w.knocked_down, (0.0, {side: w.knocked_down}, 0.0)
                    break
        # interact with a point marker
        if state.setup.scenario.point_markers:
            value = self._points_value(state, side, 1)
            if value > best_value or (w.round_race and value > 0.0):
                for m in state.pieces.values():
                    if m.kind is not Kind.MARKER or m.square is None or not _point(m):
                        continue
                    if any(
                        piece.standing and k - moves[piece.square][m.square] >= 1  # type: ignore[index]
                        for budget in budgets
                        for piece, k in budget
                    ):
                        point_chance = 1.0
                        if value > best_value:
                            best_value, best = value, (0.0, {side: value}, 0.0)
                        break
        return best[0], best[1], point_chance

    def _tries(
        self, state: GameState, piece: Piece, actions: int, away: int, target: Piece, standing: bool
    ) -> list[float]:
        """The chances to win of the challenges `piece`, with `actions` and `away` move actions
        from beside `target`, can make against it: basic challenges, or one of its challenge
        abilities its side has a token for, or a challenge item it may use, and basic
        challenges with the actions left."""
        defense = target.defense or 0
        basic = _p_win(state, BASIC_DICE, defense)
        best = [basic] * (actions - away) if actions > away else []
        if piece.side not in state.sides:
            return best
        pool = state.sides[piece.side].pool
        strikes = self._card_strikes(piece.card)
        if piece.items:
            strikes = (*strikes, *self._item_strikes(state, piece))
        for strike in strikes:
            left = actions - max(0, away - strike.reach)
            if left < 1 or (strike.color is not None and pool.get(strike.color, 0) <= 0):
                continue
            dice = strike.dice + (defense if strike.plus_defense else 0)
            dice += 0 if standing else strike.vs_down
            tries = [_p_win(state, dice, defense), *[basic] * (left - 1)]
            if sum(tries) > sum(best):
                best = tries
        return best

    @staticmethod
    def _budgets(group: list[_Turn]) -> list[list[tuple[Piece, int]]]:
        """The ways to spend a super-turn: one character per turn; the same character may take
        two turns in a row only when the second begins a new round."""
        budgets: list[list[tuple[Piece, int]]] = [[(p, k)] for p, k in group[0].options]
        for t in group[1:]:
            nxt: list[list[tuple[Piece, int]]] = []
            for b in budgets or [[]]:
                for p, k in t.options:
                    same = [i for i, (q, _) in enumerate(b) if q.id == p.id]
                    if same:
                        if not t.new_round:
                            continue
                        i = same[0]
                        nxt.append([*b[:i], (p, b[i][1] + k), *b[i + 1 :]])
                    else:
                        nxt.append([*b, (p, k)])
            budgets = nxt or budgets
            if len(budgets) > 64:
                budgets = budgets[:64]
        return budgets

    def _points_value(self, state: GameState, side: str, points: float) -> float:
        """What `points` more (expected points too) are worth to `side`, up to the points
        worth having (`_cap`)."""
        if points <= 0:
            return 0.0
        target = state.setup.scenario.points_to_win(state)
        if target:
            have = state.sides[side].points
            cap = self._cap(state, side, target)
            return self.w.points * (min(have + points, cap) - min(have, cap)) / target
        return self.w.raw_point * points

    def _cap(self, state: GameState, side: str, target: int) -> int:
        """The points worth having: the target, and past it as many as keep `side` ahead of
        the rival with the most points, while that rival is within `beyond_target` of them
        (the winner is the one with the most points when a round ends, a tie plays on)."""
        if not self.w.beyond_target:
            return target
        rival = max((state.sides[s].points for s in state.seats if s != side), default=0)
        return max(target, rival + self.w.beyond_target)

    def _knockout_effect(self, state: GameState, by: Piece, victim: Piece) -> tuple[bool, int]:
        """What knocking `victim` out would do under this scenario: (wins the game, points for
        `by`'s side). Asked of the scenario's own knock-out rule on a copy, so any scenario
        answers."""
        key = (
            id(state.setup.scenario),
            by.id,
            victim.id,
            tuple(state.sides[s].points for s in state.seats),
        )
        hit = self._ko_cache.get(key)
        if hit is not None:
            return hit
        probe = state.copy()
        before = probe.sides[by.side].points
        try:
            probe.setup.scenario.on_knockout(
                probe, probe.pieces[by.id], probe.pieces[victim.id], []
            )
            result = (probe.winner == by.side, probe.sides[by.side].points - before)
        except Exception:  # a scenario hook that needs more than the bare event
            result = (False, 0)
        if len(self._ko_cache) > 4096:
            self._ko_cache.clear()
        self._ko_cache[key] = result
        return result


def _point(piece: Piece) -> bool:
    """A point marker, the one thing every scenario lets any character interact with."""
    return piece.role is Role.POINT


def _flags(state: GameState) -> dict[str, int]:
    """Flags: each side's flag marker square."""
    return {
        p.side: p.square
        for p in state.pieces.values()
        if p.role is Role.FLAG and p.square is not None
    }


def _actions_left(state: GameState, piece: Piece, ending: bool) -> int:
    """The actions `piece` still has this round (`ending`: the round is ending)."""
    if ending:
        return 0
    if piece.id == state.active:
        return state.actions_left
    return 0 if piece.exhausted else ACTIONS


def _round_ending(state: GameState) -> bool:
    """Whether the round is ending: every character has had its turn this round."""
    return any(isinstance(f, RoundEndFrame) for f in state.stack)


def _round_race(
    state: GameState, race: dict[str, list[tuple[int, float]]], base: tuple[float, ...]
) -> tuple[float, ...]:
    """Flags: each side's chance to win when this round ends ("Winning a Scenario": the most
    points, at the target; a tie plays on), from its points and what it may still gain this
    round (`race`: the points of each return or gain, at its chance); what no side wins this
    round falls to `base`."""
    target = state.setup.scenario.points_to_win(state)
    seats = state.seats
    points = tuple(state.sides[s].points for s in seats)
    if not target or all(
        have + sum(step for step, _ in race.get(side, ())) < target
        for side, have in zip(seats, points, strict=True)
    ):
        return base
    spread = {points: 1.0}
    for i, side in enumerate(seats):
        for step, chance in race.get(side, ()):
            chance = min(chance, 1.0)
            nxt: dict[tuple[int, ...], float] = {}
            for pts, prob in spread.items():
                if chance > 0.0:
                    up = (*pts[:i], pts[i] + step, *pts[i + 1 :])
                    nxt[up] = nxt.get(up, 0.0) + prob * chance
                if chance < 1.0:
                    nxt[pts] = nxt.get(pts, 0.0) + prob * (1.0 - chance)
            spread = nxt
    wins = [0.0] * len(seats)
    for pts, prob in spread.items():
        best = max(pts)
        if best >= target and pts.count(best) == 1:
            wins[pts.index(best)] += prob
    rest = 1.0 - sum(wins)
    return tuple(w + rest * b for w, b in zip(wins, base, strict=True))


def _after(seats: Sequence[str], side: str) -> str:
    i = seats.index(side)
    return seats[(i + 1) % len(seats)]


def _softmax(scores: list[float]) -> tuple[float, ...]:
    if len(scores) == 2:
        d = scores[0] - scores[1]
        d = max(-30.0, min(30.0, d))
        p = 1.0 / (1.0 + math.exp(-d))
        return (p, 1.0 - p)
    top = max(scores)
    exps = [math.exp(max(-30.0, s - top)) for s in scores]
    total = sum(exps)
    return tuple(e / total for e in exps)

"""What a choice can lead to, before it is paid: every challenge it can end in with the
chance to win (and with each die a card may add before the roll), and whether any way on
changes the game at all.

It follows the seat's own decisions on copies of the seat's own view, as `preview` does,
until each way on reaches a roll, ends the action, or passes to another decider; chance is
never drawn. Nothing here is a rule of its own: the engine lists every option and applies
it. A budget bounds the work; a way on not followed is reported (`complete` is False), so
that nobody is told "nothing happens" on a guess.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from funkoverse.rules.core.choices import Choice, Skip
from funkoverse.rules.core.events import Event, EventKind
from funkoverse.rules.core.frames import ChoiceFrame, RollFrame, StepsFrame
from funkoverse.rules.core.state import CHANCE, GameState
from funkoverse.rules.play import engine

# What only pays for an action or says it ended: no change to the game by itself.
_NO_CHANGE = frozenset(
    {
        EventKind.ABILITY,
        EventKind.ITEM_USED,
        EventKind.ABILITY_ENDED,
        EventKind.ABILITY_STOPPED,
        EventKind.DECLINED,
        EventKind.COMPANION_ACTS,
    }
)
_STAYS = frozenset({EventKind.MOVED, EventKind.PUSHED, EventKind.PULLED})


@dataclass(frozen=True)
class DieOption:
    """A die a card may add before the roll: the choice that adds it, who makes it, and the
    chance to win with it."""

    choice: str
    die: str  # the die's name: "Champion die"
    decider: str
    odds: float


@dataclass(frozen=True)
class Outlook:
    """A challenge a choice can lead to: its target and the chance to win without any die a
    card may still add, and with each such die."""

    challenger: str
    target: str
    odds: float
    options: tuple[DieOption, ...] = ()


@dataclass
class Foresight:
    """Every challenge a choice can lead to (the best way to each target), whether some way
    on changes the game, and whether every way on was followed."""

    challenges: list[Outlook] = field(default_factory=list)
    changes: bool = False
    complete: bool = True
    used: int = 0  # engine applications spent


def changes_anything(events: list[Event]) -> bool:
    """Whether `events` change the game, beyond paying for an action or ending it."""
    for e in events:
        if e.kind in _NO_CHANGE or (e.kind in _STAYS and e.origin == e.square):
            continue
        return True
    return False


def _top(state: GameState) -> object:
    return state.stack[-1] if state.stack else None


def _odds(state: GameState, frame: RollFrame) -> float:
    return float(engine.roll_win_probability(state, frame))


class _Walk:
    def __init__(self, seat: str, active: str | None, turns: int, budget: int) -> None:
        self.seat = seat
        self.active = active
        self.turns = turns
        self.left = budget
        self.found = Foresight()
        self.best: dict[str, Outlook] = {}

    def keep(self, outlook: Outlook) -> None:
        self.found.changes = True
        was = self.best.get(outlook.target)
        if was is None or outlook.odds > was.odds:
            self.best[outlook.target] = outlook

    def under_way(self, state: GameState) -> bool:
        """Whether what the choice began is still being done (same turn, a step or a roll
        still on the stack)."""
        if state.turns != self.turns or state.active != self.active:
            return False
        return any(isinstance(f, (StepsFrame, ChoiceFrame, RollFrame)) for f in state.stack)

    def follow(self, state: GameState) -> None:
        top = _top(state)
        if isinstance(top, RollFrame):
            self.keep(Outlook(top.challenger, top.target, _odds(state, top)))
            return
        if not self.under_way(state):
            return
        decider = engine.decider(state)
        if decider is None or decider == CHANCE:
            return
        options = engine.choices(state)
        if self.left < len(options):
            self.found.complete = False
            return
        self.left -= len(options)
        afters: list[tuple[Choice, GameState, list[Event]]] = []
        for option in options:
            after = state.copy()
            afters.append((option, after, engine.apply_unchecked(after, option)))
        if self.before_the_roll(state, decider, afters):
            return
        if decider != self.seat:
            self.found.changes = True  # a rival decides now: something is under way
            return
        for _, after, events in afters:
            if changes_anything(events):
                self.found.changes = True
            self.follow(after)

    def before_the_roll(
        self,
        state: GameState,
        decider: str,
        afters: list[tuple[Choice, GameState, list[Event]]],
    ) -> bool:
        """A say before the dice ("you may add the Champion die"): every option rolls the same
        challenge; the odds of each, declining being the plain one."""
        rolls = [(c, a, _top(a)) for c, a, _ in afters]
        if not rolls or not all(isinstance(r, RollFrame) for _, _, r in rolls):
            return False
        frames = [r for _, _, r in rolls if isinstance(r, RollFrame)]
        if len({(f.challenger, f.target) for f in frames}) != 1:
            return False
        odds = {c.format(): _odds(a, f) for (c, a, _), f in zip(rolls, frames, strict=True)}
        plain_id = Skip().format()
        plain = odds[plain_id] if plain_id in odds else min(odds.values())
        base = next(
            f for (c, _, _), f in zip(rolls, frames, strict=True) if odds[c.format()] == plain
        )
        options = []
        for (choice, _, _), frame in zip(rolls, frames, strict=True):
            added = _added_die(base, frame)
            if added is None:
                continue
            die = state.setup.dice.get(added)
            name = die.name if die is not None else added
            options.append(DieOption(choice.format(), name, decider, odds[choice.format()]))
        self.keep(Outlook(base.challenger, base.target, plain, tuple(options)))
        return True


def _added_die(base: RollFrame, other: RollFrame) -> str | None:
    """The die `other` rolls that `base` does not, on either side."""
    for mine, theirs in ((base.attack, other.attack), (base.defense, other.defense)):
        rest = list(theirs)
        for die in mine:
            if die in rest:
                rest.remove(die)
        if rest:
            return rest[0]
    return None


def foresee(state: GameState, choice: Choice, budget: int = 240) -> Foresight:
    """What `choice` (legal for the seat deciding in `state`) can lead to."""
    seat = engine.decider(state)
    walk = _Walk(seat or "", state.active, state.turns, budget)
    game = state.copy()
    events = engine.apply_unchecked(game, choice)
    walk.found.changes = changes_anything(events)
    walk.follow(game)
    walk.found.challenges = sorted(walk.best.values(), key=lambda o: -o.odds)
    walk.found.used = budget - walk.left + 1
    return walk.found

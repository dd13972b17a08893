"""DC Comics 102: Champion of Themyscira (Wonder Woman), Predatory Senses (The Cheetah)."""

from __future__ import annotations

from collections.abc import Sequence

from funkoverse.rules.core import geometry, track
from funkoverse.rules.core.cards import Step, step
from funkoverse.rules.core.choices import Choice, Option, Skip, register_option
from funkoverse.rules.core.dice import win_probability
from funkoverse.rules.core.events import Event, EventKind
from funkoverse.rules.core.frames import ChoiceFrame, Frame, RollFrame
from funkoverse.rules.core.hooks import Hook
from funkoverse.rules.core.stack import nearest_roll
from funkoverse.rules.core.state import GameState, Piece

CHAMPION_DIE = ("die", "champion")
ADD_CHAMPION = Option("champion", "add")
register_option("champion", frozenset({"add"}))


class ChampionOfThemyscira(Hook):
    """ "When Wonder Woman or an adjacent ally would roll dice, you may add the Champion die to
    their roll. If you do, place the Champion die on the 2 of your cooldown track."

    Ruling: the die joins the roll of whichever side Wonder Woman's team rolls for: the
    challenger's dice when she or an adjacent ally challenges, the defender's dice when she
    or an adjacent ally is challenged (an added die scores for the side that rolls it)."""

    name = "champion-of-themyscira"
    wants = (("champion_slot", "the space of the cooldown track the Champion die is placed on"),)

    def _roller(self, state: GameState, owner: Piece, roll: RollFrame) -> str | None:
        if owner.square is None or track.position(state, owner.side, CHAMPION_DIE) is not None:
            return None
        near = _adjacent_allies(state, owner)
        challenger = state.pieces[roll.challenger]
        target = state.pieces[roll.target]
        if challenger.side == owner.side and (challenger.id == owner.id or challenger.id in near):
            return "attack"
        if (
            target.side == owner.side
            and target.defense is not None
            and roll.defense
            and (target.id == owner.id or target.id in near)
        ):
            return "defense"
        return None

    def before_roll(self, state: GameState, owner: Piece, roll: RollFrame) -> Sequence[Frame]:
        if self._roller(state, owner, roll) is None:
            return ()
        return (ChoiceFrame(owner.side, Step("champion"), owner.id, True, self.name),)

    def choices(self, state: GameState, owner: Piece, purpose: str) -> list[Choice]:
        found = nearest_roll(state)
        if found is None or self._roller(state, owner, found[1]) is None:
            return []
        return [ADD_CHAMPION]

    def label(self, state: GameState, owner: Piece, purpose: str, choice: Choice) -> str | None:
        """The odds with and without the Champion die, before its owner decides."""
        found = nearest_roll(state)
        if found is None:
            return None
        roll = found[1]
        side = self._roller(state, owner, roll)
        dice = state.setup.dice
        before = float(
            win_probability([dice[d] for d in roll.attack], [dice[d] for d in roll.defense])
        )
        attack = (*roll.attack, "champion") if side == "attack" else roll.attack
        defense = (*roll.defense, "champion") if side == "defense" else roll.defense
        after = float(win_probability([dice[d] for d in attack], [dice[d] for d in defense]))
        who = state.pieces[roll.challenger if side == "attack" else roll.target].name
        challenger = state.pieces[roll.challenger].name
        if isinstance(choice, Skip):
            return f"Keep the Champion die: {challenger} wins {before:.1%} of the time"
        return (
            f"Add the Champion die to {who}'s roll (it goes on the 2 of the cooldown track): "
            f"{challenger} wins {before:.1%} without it, {after:.1%} with it"
        )

    def choose(
        self, state: GameState, owner: Piece, purpose: str, choice: Choice, events: list[Event]
    ) -> None:
        found = nearest_roll(state)
        if found is None:
            return
        i, roll = found
        side = self._roller(state, owner, roll)
        if side == "attack":
            roll = RollFrame(
                roll.challenger,
                roll.target,
                (*roll.attack, "champion"),
                roll.defense,
                roll.source,
                roll.asked,
            )
        elif side == "defense":
            roll = RollFrame(
                roll.challenger,
                roll.target,
                roll.attack,
                (*roll.defense, "champion"),
                roll.source,
                roll.asked,
            )
        else:
            return
        state.stack[i] = roll
        track.place(state, owner.side, CHAMPION_DIE, self.number("champion_slot"))
        who = roll.challenger if side == "attack" else roll.target
        events.append(
            Event(
                EventKind.DIE_ADDED,
                piece=who,
                name="Champion die",
                number=self.number("champion_slot"),
                rule="Champion of Themyscira",
            )
        )


def _adjacent_allies(state: GameState, owner: Piece) -> set[str]:
    if owner.square is None:
        return set()
    pieces = state.on_map()
    squares = set(geometry.adjacent_squares(state.board, owner.square))
    return {
        p.id for p in pieces if p.side == owner.side and p.square in squares and p.id != owner.id
    }


class PredatorySenses(Hook):
    """ "While standing, if a rival does an interact action with a point marker or stands up,
    The Cheetah may move 1 square." The choice is The Cheetah's owner's, in any turn."""

    name = "predatory-senses"

    def react(self, state: GameState, owner: Piece, event: str, subject: Piece) -> Sequence[Frame]:
        if event not in ("stood_up", "interacted_point_marker"):
            return ()
        if subject.side == owner.side or owner.square is None or not owner.standing:
            return ()
        return (ChoiceFrame(owner.side, step("move", squares=1), owner.id, True),)


HOOKS: tuple[Hook, ...] = (ChampionOfThemyscira(), PredatorySenses())

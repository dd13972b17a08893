"""A trait's behaviour as data: when it works, for whom, what it asks and what it does.

A character card's trait or a status card says what it changes in words a card file can
hold: triggers (a moment of the game, whom it concerns, the conditions that must hold, and
then a decision to ask or effects to do at once) and standing changes (to defense, to how
far the character assists and interacts, to how it moves, to what rivals may interact
with). Both engines read these values: the Python engine through `vocabulary.traits`, the
compiled kernel through the tables the bridge builds from them. The words of this
vocabulary are declared here once and numbered alike on both sides (`core.schema`).
"""

from __future__ import annotations

from dataclasses import dataclass

from funkoverse.rules.core.cards import Step

# The moments a trigger listens for (its `when`).
WHEN = (
    "turn_start",  # at the start of the owner's turn
    "before_roll",  # a challenge's dice are about to be rolled
    "stood_up",  # a character stands up (the subject)
    "interacted_point_marker",  # a character does an interact action with a point marker
    "given_status",  # the owner is given a status card
    "after_action",  # the owner rallies or does an action
)

# Whom the moment must concern (its `who`), from the owner's point of view.
WHO = (
    "self",  # the owner itself (turn_start, given_status, after_action)
    "rival",  # the subject is a rival of the owner's side
    "ally",  # the subject is another character of the owner's side
    "self_challenging",  # the owner is the challenger of the roll
    "self_or_adjacent_ally_rolls",  # the owner or an adjacent ally rolls dice in the challenge
)

# Conditions on the owner (its `needs`).
NEEDS = (
    "on_map",  # the owner is on the map
    "standing",  # the owner is on the map and standing
    "unseen_by_rivals",  # on the map, and no rival character can see it
)

# What a decision offers (its `offer`): answers in the card's words, or options of the rules.
OFFERS = (
    "answers",  # the card's own answers, each with its effects
    "place_token_here",  # place one of the owner's tokens of `token` in the owner's square
    "shift_off_token",  # shift an ability token off the owner's cooldown track
    "step",  # a step of the effects vocabulary, decided as in an ability (`step`)
)

# What an effect does.
EFFECTS = (
    "add_die",  # add `die` to the roll of the side the trigger found; onto `space` if given
    "place_on_track",  # place `thing` on `space` of the owner's cooldown track
    "shift_down",  # shift `thing` down `by` on the owner's cooldown track
    "extra_action",  # the owner's turn gains `count` actions
    "discard_this_card",  # the status card carrying this trait is discarded
)


@dataclass(frozen=True)
class Effect:
    """One thing a trigger or an answer does at once. `name` names the die or thing in the
    log ("Blood token"). What an answer does is said in the log; what a trigger does at once
    before a roll or at the start of a turn is not (the engine announces an extra action)."""

    op: str
    die: str = ""
    thing: tuple[str, str] | None = None
    space: int = 0
    by: int = 0
    count: int = 0
    name: str = ""


@dataclass(frozen=True)
class Answer:
    """One answer of a decision in the card's own words (`champion:add`), what it does, and
    the words a menu shows for it ({challenger}, {roller}, {before}, {after} filled in)."""

    word: str
    effects: tuple[Effect, ...]
    label: str = ""


@dataclass(frozen=True)
class Trigger:
    """When the moment `when` comes and it concerns `who`, and the owner meets `needs` (and
    the track holds `on_track` / does not hold `off_track`; the owner holds `count` status
    cards of `group`): ask the decision (`ask`, `offer`; `times` over) or do `effects`.
    When only the conditions fail, `otherwise` is done."""

    when: tuple[str, ...]
    who: str = "self"
    needs: tuple[str, ...] = ()
    on_track: tuple[str, str] | None = None
    off_track: tuple[str, str] | None = None
    group: str = ""
    count: int = 0
    optional: bool = False
    ask: Step | None = None  # the decision's purpose (a word of the card's, or a step)
    offer: str = ""
    token: str = ""  # the token role `place_token_here` places
    answers: tuple[Answer, ...] = ()
    skip_label: str = ""
    times: int = 1
    effects: tuple[Effect, ...] = ()
    otherwise: tuple[Effect, ...] = ()


@dataclass(frozen=True)
class Trait:
    """Everything a trait does: its triggers and its standing changes.

    - `defense`: added to the owner's defense (while `defense_while` is on its side's track);
    - `reach` for `reach_for` ("assist", "interact"): how far, in squares it can see;
    - `links`: tokens of this role link as adjacent when the owner moves, `links_within` apart;
    - `rivals_discard`: rivals may interact with the owner's tokens of this role to discard them.
    """

    triggers: tuple[Trigger, ...] = ()
    defense: int = 0
    defense_while: tuple[str, str] | None = None
    reach: int = 1
    reach_for: tuple[str, ...] = ()
    links: str = ""
    links_within: int = 0
    rivals_discard: str = ""

    def asks(self) -> tuple[Step, ...]:
        """The purposes of the decisions this trait asks, in order."""
        return tuple(t.ask for t in self.triggers if t.ask is not None)

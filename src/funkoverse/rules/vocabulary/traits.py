"""The Python engine's reading of a trait written as data (`core.traits`).

`TraitHook` is a hook whose every answer comes from the trait's values: the engine asks it
at the same points it asks any hook, and it does what the card file says. The compiled
kernel reads the same values from its tables (kernel/traits.cpp); the two are held equal by
the card tests, which run on both engines.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from funkoverse.rules.core import geometry, track, world
from funkoverse.rules.core.choices import Choice, Interact, Option, Skip
from funkoverse.rules.core.dice import win_probability
from funkoverse.rules.core.events import Event, EventKind
from funkoverse.rules.core.frames import ChoiceFrame, Frame, RollFrame
from funkoverse.rules.core.hooks import Hook, Modifier
from funkoverse.rules.core.pieces import RIVAL_KINDS, Role
from funkoverse.rules.core.stack import nearest_roll
from funkoverse.rules.core.state import GameState, Piece
from funkoverse.rules.core.traits import Effect, Trait, Trigger
from funkoverse.rules.vocabulary.cooldown import token_off, token_off_options
from funkoverse.rules.vocabulary.tokens import TOKEN_NAMES, place_token, token_place_options


class TraitHook(Hook):
    """A trait or status card whose behaviour its file gives (`trait`). `name` is the hook's
    name in frames and keys, `title` the trait's words in the log, `card` the status card
    that carries it (for `discard_this_card`)."""

    def __init__(
        self,
        name: str,
        title: str,
        trait: Trait,
        card: str = "",
    ) -> None:
        self.name = name
        self.title = title
        self.trait = trait  # the card's numbers are in it already (content.traits)
        self.card = card

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TraitHook) and (self.name, self.title, self.trait, self.card) == (
            other.name,
            other.title,
            other.trait,
            other.card,
        )

    def __hash__(self) -> int:
        return hash((self.name, self.title, self.trait, self.card))

    def __repr__(self) -> str:
        return f"TraitHook({self.name!r})"

    # -- conditions ----------------------------------------------------------------------

    def _holds(self, state: GameState, owner: Piece, trigger: Trigger) -> bool:
        for need in trigger.needs:
            if owner.square is None:
                return False
            if need == "standing" and not owner.standing:
                return False
            if need == "unseen_by_rivals" and _seen_by_a_rival(state, owner):
                return False
        if trigger.on_track and track.position(state, owner.side, trigger.on_track) is None:
            return False
        off = trigger.off_track
        return not (off and track.position(state, owner.side, off) is not None)

    def _when(self, moment: str) -> list[Trigger]:
        return [t for t in self.trait.triggers if moment in t.when]

    def _asking(self, purpose: str) -> Trigger | None:
        for t in self.trait.triggers:
            if t.ask is not None and t.ask.op == purpose:
                return t
        return None

    def _frames(self, owner: Piece, trigger: Trigger) -> list[Frame]:
        if trigger.ask is None:
            return []
        hook = "" if trigger.offer == "step" else self.name
        frame = ChoiceFrame(owner.side, trigger.ask, owner.id, trigger.optional, hook)
        return [frame] * trigger.times

    # -- the moments ---------------------------------------------------------------------

    def before_roll(self, state: GameState, owner: Piece, roll: RollFrame) -> Sequence[Frame]:
        frames: list[Frame] = []
        for trigger in self._when("before_roll"):
            if _roller(state, owner, trigger, roll) is None:
                continue
            if not self._holds(state, owner, trigger):
                self._do(state, owner, trigger.otherwise, None)
                continue
            self._do(state, owner, trigger.effects, None)
            frames.extend(self._frames(owner, trigger))
        return frames

    def react(self, state: GameState, owner: Piece, event: str, subject: Piece) -> Sequence[Frame]:
        frames: list[Frame] = []
        for trigger in self._when(event):
            if not _concerns(owner, trigger.who, subject) or not self._holds(state, owner, trigger):
                continue
            frames.extend(self._frames(owner, trigger))
        return frames

    def turn_start(self, state: GameState, owner: Piece) -> Sequence[Frame]:
        frames: list[Frame] = []
        for trigger in self._when("turn_start"):
            if self._holds(state, owner, trigger):
                frames.extend(self._frames(owner, trigger))
        return frames

    def extra_actions(self, state: GameState, owner: Piece) -> int:
        return sum(
            e.count
            for t in self._when("turn_start")
            if self._holds(state, owner, t)
            for e in t.effects
            if e.op == "extra_action"
        )

    def after_action(self, state: GameState, owner: Piece, events: list[Event]) -> None:
        for trigger in self._when("after_action"):
            if self._holds(state, owner, trigger):
                self._do(state, owner, trigger.effects, events)

    def on_status(self, state: GameState, owner: Piece, card_id: str) -> Sequence[Frame]:
        frames: list[Frame] = []
        group = state.setup.statuses[card_id].group
        for trigger in self._when("given_status"):
            if trigger.group and trigger.group != group:
                continue
            given = [s for s in owner.statuses if state.setup.statuses[s].group == group]
            if trigger.count and len(given) != trigger.count:
                continue
            if self._holds(state, owner, trigger):
                frames.extend(self._frames(owner, trigger))
        return frames

    # -- standing changes ----------------------------------------------------------------

    def defense(self, state: GameState, owner: Piece, piece: Piece) -> Sequence[Modifier]:
        trait = self.trait
        if not trait.defense or piece.id != owner.id:
            return ()
        if trait.defense_while and track.position(state, owner.side, trait.defense_while) is None:
            return ()
        return (Modifier("add", trait.defense),)

    def reach(self, state: GameState, owner: Piece, purpose: str) -> int:
        return self.trait.reach if purpose in self.trait.reach_for else 1

    def move_links(self, state: GameState, owner: Piece) -> Mapping[int, Sequence[int]] | None:
        if not self.trait.links:
            return None
        role = Role(self.trait.links)
        squares = sorted(
            {t.square for t in world.tokens_of(state, owner.side, role) if t.square is not None}
        )
        if len(squares) < 2:
            return None
        distances = state.board.distances
        links: dict[int, list[int]] = {}
        for a in squares:
            row = distances(a)
            links[a] = [b for b in squares if b != a and row[b] <= self.trait.links_within]
        return links

    def interactions(
        self, state: GameState, owner: Piece, actor: Piece, squares: set[int]
    ) -> list[Choice]:
        if not self.trait.rivals_discard or actor.side == owner.side:
            return []
        role = Role(self.trait.rivals_discard)
        return [
            Interact(t.id) for t in world.tokens_of(state, owner.side, role) if t.square in squares
        ]

    def interact(
        self, state: GameState, owner: Piece, actor: Piece, thing: Choice, events: list[Event]
    ) -> bool:
        if not self.trait.rivals_discard or not isinstance(thing, Interact):
            return False
        role = Role(self.trait.rivals_discard)
        if thing.thing not in {t.id for t in world.tokens_of(state, owner.side, role)}:
            return False
        state.pieces[thing.thing].square = None
        events.append(
            Event(
                EventKind.TOKEN_DISCARDED,
                piece=actor.id,
                other=thing.thing,
                name=_token_name(role),
                rule=self.title,
            )
        )
        return True

    # -- the decisions it asks -----------------------------------------------------------

    def choices(self, state: GameState, owner: Piece, purpose: str) -> list[Choice]:
        trigger = self._asking(purpose)
        if trigger is None:
            return []
        if trigger.offer == "shift_off_token":
            return token_off_options(state, owner.side)
        if not self._holds(state, owner, trigger):
            return []
        if trigger.offer == "place_token_here":
            assert owner.square is not None  # every need asks for the map
            return token_place_options(state, owner, Role(trigger.token), [owner.square])
        if "before_roll" in trigger.when:
            found = nearest_roll(state)
            if found is None or _roller(state, owner, trigger, found[1]) is None:
                return []
        return [Option(purpose, a.word) for a in trigger.answers]

    def choose(
        self, state: GameState, owner: Piece, purpose: str, choice: Choice, events: list[Event]
    ) -> None:
        trigger = self._asking(purpose)
        if trigger is None:
            return
        if trigger.offer == "shift_off_token":
            token_off(state, owner.side, choice, events)
            return
        if trigger.offer == "place_token_here":
            place_token(state, owner, choice, events)
            return
        for answer in trigger.answers:
            if choice == Option(purpose, answer.word):
                self._do(state, owner, answer.effects, events, trigger)
                return

    def label(self, state: GameState, owner: Piece, purpose: str, choice: Choice) -> str | None:
        """The answer's words from the card, with the odds of the roll with and without the
        dice it adds."""
        trigger = self._asking(purpose)
        if trigger is None or trigger.offer != "answers":
            return None
        if isinstance(choice, Skip):
            text = trigger.skip_label
            effects: tuple[Effect, ...] = ()
        else:
            answer = next((a for a in trigger.answers if choice == Option(purpose, a.word)), None)
            if answer is None:
                return None
            text, effects = answer.label, answer.effects
        if not text:
            return None
        found = nearest_roll(state)
        if found is None:
            return text
        roll = found[1]
        side = _roller(state, owner, trigger, roll)
        attack, defense = list(roll.attack), list(roll.defense)
        for e in effects:
            if e.op == "add_die":
                (attack if side == "attack" else defense).append(e.die)
        dice = state.setup.dice
        before = float(
            win_probability([dice[d] for d in roll.attack], [dice[d] for d in roll.defense])
        )
        after = float(win_probability([dice[d] for d in attack], [dice[d] for d in defense]))
        roller = state.pieces[roll.challenger if side != "defense" else roll.target].name
        return text.format(
            challenger=state.pieces[roll.challenger].name,
            roller=roller,
            before=f"{before:.1%}",
            after=f"{after:.1%}",
        )

    # -- the effects ---------------------------------------------------------------------

    def _do(
        self,
        state: GameState,
        owner: Piece,
        effects: Sequence[Effect],
        events: list[Event] | None,
        trigger: Trigger | None = None,
    ) -> None:
        """Do `effects` in order; `events` None does them without a word in the log."""
        said = events if events is not None else []
        for e in effects:
            if e.op == "place_on_track" and e.thing is not None:
                track.place(state, owner.side, e.thing, e.space)
                said.append(
                    Event(
                        EventKind.DIE_PLACED,
                        piece=owner.id,
                        name=e.name,
                        number=e.space,
                        rule=self.title,
                    )
                )
            elif e.op == "shift_down" and e.thing is not None:
                track.shift_down(state, owner.side, e.thing, e.by, said)
            elif e.op == "add_die":
                self._add_die(state, owner, e, trigger, said)
            elif e.op == "discard_this_card" and self.card in owner.statuses:
                statuses = list(owner.statuses)
                statuses.remove(self.card)
                owner.statuses = tuple(statuses)
                card = state.setup.statuses.get(self.card)
                said.append(
                    Event(
                        EventKind.STATUS_DISCARDED,
                        piece=owner.id,
                        card=self.card,
                        name=card.name if card else self.title,
                        rule=self.title,
                    )
                )

    def _add_die(
        self,
        state: GameState,
        owner: Piece,
        effect: Effect,
        trigger: Trigger | None,
        events: list[Event],
    ) -> None:
        found = nearest_roll(state)
        if found is None or trigger is None:
            return
        i, roll = found
        side = _roller(state, owner, trigger, roll)
        if side == "attack":
            attack, defense, who = (*roll.attack, effect.die), roll.defense, roll.challenger
        elif side == "defense":
            attack, defense, who = roll.attack, (*roll.defense, effect.die), roll.target
        else:
            return
        state.stack[i] = RollFrame(
            roll.challenger, roll.target, attack, defense, roll.source, roll.asked
        )
        if effect.space:
            track.place(state, owner.side, ("die", effect.die), effect.space)
        events.append(
            Event(
                EventKind.DIE_ADDED,
                piece=who,
                name=effect.name,
                number=effect.space,
                rule=self.title,
            )
        )


def _roller(state: GameState, owner: Piece, trigger: Trigger, roll: RollFrame) -> str | None:
    """Whose dice of `roll` the trigger concerns ("attack", "defense"), or None."""
    if trigger.who == "self_challenging":
        return "attack" if roll.challenger == owner.id else None
    if trigger.who != "self_or_adjacent_ally_rolls" or owner.square is None:
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


def _concerns(owner: Piece, who: str, subject: Piece) -> bool:
    if who == "rival":
        return subject.side != owner.side
    if who == "ally":
        return subject.side == owner.side and subject.id != owner.id
    return subject.id == owner.id


def _adjacent_allies(state: GameState, owner: Piece) -> set[str]:
    squares = world.adjacent_set(state, owner)
    return {
        p.id
        for p in state.on_map()
        if p.side == owner.side and p.square in squares and p.id != owner.id
    }


def _seen_by_a_rival(state: GameState, owner: Piece) -> bool:
    pieces = state.on_map()
    return any(
        p.side != owner.side
        and p.kind in RIVAL_KINDS
        and geometry.can_see_piece(state.board, p, owner, pieces)
        for p in pieces
    )


def _token_name(role: Role) -> str:
    return TOKEN_NAMES.get(role, role.value)

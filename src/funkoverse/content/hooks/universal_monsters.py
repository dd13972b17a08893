"""Universal Monsters 100: Dracula's Blood token and die, The Creature's Tunnels, The Bride's
status cards, the Invisible Man's Sneaking."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from funkoverse.rules.core import geometry, track, world
from funkoverse.rules.core.cards import Step
from funkoverse.rules.core.choices import Choice, Interact, Option, register_option
from funkoverse.rules.core.dice import win_probability
from funkoverse.rules.core.events import Event, EventKind
from funkoverse.rules.core.frames import ChoiceFrame, Frame, RollFrame
from funkoverse.rules.core.hooks import Hook, Modifier
from funkoverse.rules.core.pieces import RIVAL_KINDS, Role
from funkoverse.rules.core.stack import nearest_roll
from funkoverse.rules.core.state import GameState, Piece
from funkoverse.rules.vocabulary.cooldown import token_off, token_off_options
from funkoverse.rules.vocabulary.tokens import place_token, token_place_options

BLOOD_TOKEN = ("component", "blood")
BLOOD_DIE = Option("blood", "die")
BLOOD_PLACE = Option("blood", "place")
register_option("blood", frozenset({"die", "place"}))


class BloodyTerror(Hook):
    """The Bloody Terror of Transylvania: "Dracula has +1 defense while the Blood token is on
    your cooldown track. When Dracula does a challenge, you may shift the Blood token down 1 to
    add the Blood die to the roll. If you don't, place the Blood token on the 3 of your
    cooldown track." FAQ: the Blood die only once the token is on the track; the token may be
    placed on the 3 again while it is on the track."""

    name = "bloody-terror"
    wants = (("blood_slot", "the space of the cooldown track the Blood token is placed on"),)

    def defense(self, state: GameState, owner: Piece, piece: Piece) -> Sequence[Modifier]:
        if piece.id == owner.id and track.position(state, owner.side, BLOOD_TOKEN) is not None:
            return (Modifier("add", 1),)
        return ()

    def before_roll(self, state: GameState, owner: Piece, roll: RollFrame) -> Sequence[Frame]:
        if roll.challenger != owner.id:
            return ()
        if track.position(state, owner.side, BLOOD_TOKEN) is None:
            track.place(state, owner.side, BLOOD_TOKEN, self.number("blood_slot"))
            return ()
        return (ChoiceFrame(owner.side, Step("blood"), owner.id, False, self.name),)

    def choices(self, state: GameState, owner: Piece, purpose: str) -> list[Choice]:
        if track.position(state, owner.side, BLOOD_TOKEN) is None:
            return []
        return [BLOOD_DIE, BLOOD_PLACE]

    def label(self, state: GameState, owner: Piece, purpose: str, choice: Choice) -> str | None:
        """The odds with and without the Blood die, before Dracula's owner decides."""
        found = nearest_roll(state)
        if found is None:
            return None
        roll = found[1]
        dice = state.setup.dice
        defense = [dice[d] for d in roll.defense]
        before = float(win_probability([dice[d] for d in roll.attack], defense))
        after = float(win_probability([dice[d] for d in (*roll.attack, "blood")], defense))
        if choice == BLOOD_PLACE:
            return f"Place the Blood token on the 3 again, no Blood die: Dracula wins {before:.1%}"
        return f"Shift the Blood token down 1 and add the Blood die: Dracula wins {after:.1%} (not {before:.1%})"

    def choose(
        self, state: GameState, owner: Piece, purpose: str, choice: Choice, events: list[Event]
    ) -> None:
        if choice == BLOOD_PLACE:
            track.place(state, owner.side, BLOOD_TOKEN, self.number("blood_slot"))
            events.append(
                Event(
                    EventKind.DIE_PLACED,
                    piece=owner.id,
                    name="Blood token",
                    number=self.number("blood_slot"),
                    rule="The Bloody Terror of Transylvania",
                )
            )
            return
        track.shift_down(state, owner.side, BLOOD_TOKEN, 1, events)
        found = nearest_roll(state)
        if found is not None:
            i, roll = found
            state.stack[i] = RollFrame(
                roll.challenger,
                roll.target,
                (*roll.attack, "blood"),
                roll.defense,
                roll.source,
                roll.asked,
            )
            events.append(
                Event(
                    EventKind.DIE_ADDED,
                    piece=owner.id,
                    name="Blood die",
                    number=0,
                    rule="The Bloody Terror of Transylvania",
                )
            )


class ForbiddenDepths(Hook):
    """Forbidden Depths: "At the start of The Creature's turn, you may place a Tunnel token in
    its square. When it moves, squares with Tunnels are considered adjacent to other squares
    with Tunnels within 5 squares. Rivals may interact with Tunnels to discard them." """

    name = "forbidden-depths"
    wants = (("tunnel_reach", "how many squares apart two Tunnels may be and still link"),)

    def turn_start(self, state: GameState, owner: Piece) -> Sequence[Frame]:
        if owner.square is None:
            return ()
        return (ChoiceFrame(owner.side, Step("tunnel"), owner.id, True, self.name),)

    def choices(self, state: GameState, owner: Piece, purpose: str) -> list[Choice]:
        if owner.square is None:
            return []
        return token_place_options(state, owner, Role.TUNNEL, [owner.square])

    def choose(
        self, state: GameState, owner: Piece, purpose: str, choice: Choice, events: list[Event]
    ) -> None:
        place_token(state, owner, choice, events)

    def move_links(self, state: GameState, owner: Piece) -> Mapping[int, Sequence[int]] | None:
        squares = sorted(
            {
                t.square
                for t in world.tokens_of(state, owner.side, Role.TUNNEL)
                if t.square is not None
            }
        )
        if len(squares) < 2:
            return None
        distances = state.board.distances
        reach = self.number("tunnel_reach")
        links: dict[int, list[int]] = {}
        for a in squares:
            row = distances(a)
            links[a] = [b for b in squares if b != a and row[b] <= reach]
        return links

    def interactions(
        self, state: GameState, owner: Piece, actor: Piece, squares: set[int]
    ) -> list[Choice]:
        if actor.side == owner.side:
            return []
        return [
            Interact(t.id)
            for t in world.tokens_of(state, owner.side, Role.TUNNEL)
            if t.square in squares
        ]

    def interact(
        self, state: GameState, owner: Piece, actor: Piece, thing: Choice, events: list[Event]
    ) -> bool:
        tunnels = {t.id for t in world.tokens_of(state, owner.side, Role.TUNNEL)}
        if not isinstance(thing, Interact) or thing.thing not in tunnels:
            return False
        state.pieces[thing.thing].square = None
        events.append(
            Event(
                EventKind.TOKEN_DISCARDED,
                piece=actor.id,
                other=thing.thing,
                name="Tunnel",
                rule="Forbidden Depths",
            )
        )
        return True


class MadeMeFromDead(Hook):
    """Made Me From Dead: "The Bride of Frankenstein gains the traits and abilities printed on
    Bride status cards she has been given. When the Bride of Frankenstein is given the fourth
    Bride status card, shift two ability tokens off your cooldown track." (Her abilities come
    from her status cards through the engine; this hook does the fourth card.)"""

    name = "made-me-from-dead"

    def on_status(self, state: GameState, owner: Piece, card_id: str) -> Sequence[Frame]:
        group = state.setup.statuses[card_id].group
        given = [s for s in owner.statuses if state.setup.statuses[s].group == group]
        if group != "bride" or len(given) != 4:
            return ()
        frame = ChoiceFrame(owner.side, Step("shift_off_token"), owner.id, False, self.name)
        return (frame, frame)

    def choices(self, state: GameState, owner: Piece, purpose: str) -> list[Choice]:
        return token_off_options(state, owner.side)

    def choose(
        self, state: GameState, owner: Piece, purpose: str, choice: Choice, events: list[Event]
    ) -> None:
        token_off(state, owner.side, choice, events)


class SheSees(Hook):
    """She Sees: "The Bride of Frankenstein can assist allies and interact with things she can
    see within 2 squares." """

    name = "she-sees"

    def reach(self, state: GameState, owner: Piece, purpose: str) -> int:
        return 2 if purpose in ("assist", "interact") else 1


class Sneaking(Hook):
    """Sneaking status card: "At the start of Invisible Man's turn, if no rivals can see him he
    may do an action. After the Invisible Man rallies or does an action, discard this card."
    Ruling: the extra action is added to his turn; the card is discarded at his first action
    or rally."""

    name = "sneaking"
    title = "Sneaking"

    def extra_actions(self, state: GameState, owner: Piece) -> int:
        if owner.square is None:
            return 0
        pieces = state.on_map()
        seen = any(
            p.side != owner.side
            and p.kind in RIVAL_KINDS
            and geometry.can_see_piece(state.board, p, owner, pieces)
            for p in pieces
        )
        return 0 if seen else 1

    def after_action(self, state: GameState, owner: Piece, events: list[Event]) -> None:
        if "sneaking" in owner.statuses:
            statuses = list(owner.statuses)
            statuses.remove("sneaking")
            owner.statuses = tuple(statuses)
            card = state.setup.statuses.get("sneaking")
            events.append(
                Event(
                    EventKind.STATUS_DISCARDED,
                    piece=owner.id,
                    card="sneaking",
                    name=card.name if card else "Sneaking",
                    rule="Sneaking",
                )
            )


HOOKS: tuple[Hook, ...] = (
    BloodyTerror(),
    ForbiddenDepths(),
    MadeMeFromDead(),
    SheSees(),
    Sneaking(),
)

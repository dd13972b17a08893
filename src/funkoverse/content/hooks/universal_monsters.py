"""Universal Monsters 100: Dracula's Blood token and die, The Creature's Tunnels, The Bride's
status cards, the Invisible Man's Sneaking."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from funkoverse.rules import geometry, steps, track, world
from funkoverse.rules.cards import Step, TokenColor
from funkoverse.rules.frames import ChoiceFrame, Frame, RollFrame
from funkoverse.rules.hooks import Hook, Modifier
from funkoverse.rules.state import GameState, Piece

BLOOD_TOKEN = ("component", "blood")
BLOOD_SLOT = 3


class BloodyTerror(Hook):
    """The Bloody Terror of Transylvania: "Dracula has +1 defense while the Blood token is on
    your cooldown track. When Dracula does a challenge, you may shift the Blood token down 1 to
    add the Blood die to the roll. If you don't, place the Blood token on the 3 of your
    cooldown track." FAQ: the Blood die only once the token is on the track; the token may be
    placed on the 3 again while it is on the track."""

    name = "bloody-terror"

    def defense(self, state: GameState, owner: Piece, piece: Piece) -> Sequence[Modifier]:
        if piece.id == owner.id and track.position(state, owner.side, BLOOD_TOKEN) is not None:
            return (Modifier("add", 1),)
        return ()

    def before_roll(self, state: GameState, owner: Piece, roll: RollFrame) -> Sequence[Frame]:
        if roll.challenger != owner.id:
            return ()
        if track.position(state, owner.side, BLOOD_TOKEN) is None:
            track.place(state, owner.side, BLOOD_TOKEN, BLOOD_SLOT)
            return ()
        return (ChoiceFrame(owner.side, Step("blood"), owner.id, False, self.name),)

    def choices(self, state: GameState, owner: Piece, purpose: str) -> list[str]:
        if track.position(state, owner.side, BLOOD_TOKEN) is None:
            return []
        return ["blood:die", "blood:place"]

    def choose(self, state: GameState, owner: Piece, purpose: str, choice: str) -> list[str]:
        events: list[str] = []
        if choice == "blood:place":
            track.place(state, owner.side, BLOOD_TOKEN, BLOOD_SLOT)
            return ["The Blood token goes on the 3 of the cooldown track."]
        track.shift_down(state, owner.side, BLOOD_TOKEN, 1, events)
        found = steps.nearest_roll(state)
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
            events.append("The Blood die joins Dracula's roll.")
        return events


class ForbiddenDepths(Hook):
    """Forbidden Depths: "At the start of The Creature's turn, you may place a Tunnel token in
    its square. When it moves, squares with Tunnels are considered adjacent to other squares
    with Tunnels within 5 squares. Rivals may interact with Tunnels to discard them." """

    name = "forbidden-depths"
    tunnel_reach = 5

    def turn_start(self, state: GameState, owner: Piece) -> Sequence[Frame]:
        if owner.square is None:
            return ()
        return (ChoiceFrame(owner.side, Step("tunnel"), owner.id, True, self.name),)

    def choices(self, state: GameState, owner: Piece, purpose: str) -> list[str]:
        if owner.square is None:
            return []
        return steps.token_place_options(state, owner, "tunnel", [owner.square])

    def choose(self, state: GameState, owner: Piece, purpose: str, choice: str) -> list[str]:
        events: list[str] = []
        steps.place_token(state, owner, choice, events)
        return events

    def move_links(self, state: GameState, owner: Piece) -> Mapping[int, Sequence[int]] | None:
        squares = sorted(
            {t.square for t in world.tokens_of(state, owner.side, "tunnel") if t.square is not None}
        )
        if len(squares) < 2:
            return None
        distance = state.board.distance
        return {
            a: [b for b in squares if b != a and distance(a, b) <= self.tunnel_reach]
            for a in squares
        }

    def interactions(
        self, state: GameState, owner: Piece, actor: Piece, squares: set[int]
    ) -> list[str]:
        if actor.side == owner.side:
            return []
        return [t.id for t in world.tokens_of(state, owner.side, "tunnel") if t.square in squares]

    def interact(
        self, state: GameState, owner: Piece, actor: Piece, thing: str, events: list[str]
    ) -> bool:
        if thing not in {t.id for t in world.tokens_of(state, owner.side, "tunnel")}:
            return False
        state.pieces[thing].square = None
        events.append(f"{actor.name} discards a Tunnel token (Forbidden Depths).")
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

    def choices(self, state: GameState, owner: Piece, purpose: str) -> list[str]:
        found: list[str] = []
        for number, slot in enumerate(state.sides[owner.side].track, 1):
            for kind, ref in slot:
                option = f"shiftoff:{ref}:{number}"
                if kind == "token" and option not in found:
                    found.append(option)
        return found

    def choose(self, state: GameState, owner: Piece, purpose: str, choice: str) -> list[str]:
        _, color, number = choice.split(":")
        events: list[str] = []
        state.sides[owner.side].track[int(number) - 1].remove(("token", color))
        track.returned(state, owner.side, ("token", TokenColor(color).value), events)
        return events


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

    def extra_actions(self, state: GameState, owner: Piece) -> int:
        if owner.square is None:
            return 0
        pieces = state.on_map()
        seen = any(
            p.side != owner.side
            and p.is_character
            and geometry.can_see_piece(state.board, p, owner, pieces)
            for p in pieces
        )
        return 0 if seen else 1

    def after_action(self, state: GameState, owner: Piece) -> None:
        if "sneaking" in owner.statuses:
            statuses = list(owner.statuses)
            statuses.remove("sneaking")
            owner.statuses = tuple(statuses)


HOOKS: tuple[Hook, ...] = (
    BloodyTerror(),
    ForbiddenDepths(),
    MadeMeFromDead(),
    SheSees(),
    Sneaking(),
)

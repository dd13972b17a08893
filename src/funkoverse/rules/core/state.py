"""The state of one game: pieces, each side's pool and cooldown track, whose turn it is.

Kept small and flat so that search can copy it cheaply; everything static lives
in the setup and the board.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from funkoverse.rules.core.cards import (
    BonusObjective,
    CharacterCard,
    CompanionCard,
    ItemCard,
    ScenarioCard,
    StatusCard,
    TokenColor,
)
from funkoverse.rules.core.numbers import TRACK_LENGTH
from funkoverse.rules.core.pieces import Kind, Role

if TYPE_CHECKING:
    from funkoverse.rules.core.board import Board
    from funkoverse.rules.core.dice import DieSpec
    from funkoverse.rules.core.frames import Frame
    from funkoverse.rules.core.spec import SetupSpec

if TYPE_CHECKING:
    from funkoverse.rules.core.choices import Choice
    from funkoverse.rules.core.events import Event

CHANCE = "chance"


class Phase(StrEnum):
    """Where the game is: setup steps, the turn steps, or over."""

    FLIP = "flip"  # Setup: flip the First Player marker
    DRAFT = "draft"  # Setup: choose characters and items (in secret when each has a collection)
    SECRET = "secret"  # Scenario setup: secret picks (Leaders: "secretly picks ... a leader")
    PLACE = "place"  # Setup: place characters in starting areas, first player first
    CHOOSE = "choose"  # Taking a Turn, step 1: choose a character
    ACT = "act"  # Taking a Turn, steps 2-3: up to two actions, or rally
    OVER = "over"


@dataclass(frozen=True)
class TeamSetup:
    """One side at setup: its base color (or free-for-all seat) and its characters."""

    side: str
    characters: tuple[CharacterCard, ...]
    start_area: str = ""  # legend value of the start layer; defaults to the side
    items: tuple[tuple[str, str], ...] = ()  # (item id, holder character id), given at setup
    ultimate: bool = False  # Ultimate Mode: one ultimate character with three exhausted markers
    extra_dots: tuple[TokenColor, ...] = ()  # the ultimate card's extra ability tokens
    players: tuple[tuple[str, tuple[str, ...]], ...] = ()  # More Players: (player, characters)
    companions: tuple[tuple[str, str], ...] = ()  # (companion card id, character id)
    bonus: tuple[str, ...] = ()  # bonus objective card ids this side uses

    @property
    def area(self) -> str:
        return self.start_area or self.side


class ScenarioRules(ScenarioCard):
    """A scenario card and the rules the game asks of it at fixed points: what `Setup` holds.
    `scenario.Scenario` plays the rules of every scenario card (a scenario with rules of its
    own is a subclass of it); they are named here so that the state need not know them."""

    def points_to_win(self, state: GameState) -> int | None:
        """Points a side needs to win, or None when points do not decide the game."""
        raise NotImplementedError

    def gain(self, state: GameState, side: str, points: int, why: str, events: list[Event]) -> None:
        """`side` gains `points` (for `why`)."""
        raise NotImplementedError

    def on_knockout(
        self, state: GameState, by: Piece | None, victim: Piece, events: list[Event]
    ) -> None:
        """`victim` is knocked out, by `by`."""
        raise NotImplementedError

    def setup_pieces(self, state: GameState) -> None:
        """Scenario setup: the markers the scenario puts on the map or keeps aside."""
        raise NotImplementedError

    def placement_squares(self, state: GameState, piece: Piece) -> list[int] | None:
        """Where `piece` starts; None: its starting area."""
        raise NotImplementedError

    def round_end_frames(self, state: GameState) -> Sequence[Frame]:
        """Decisions when a round ends, before the cooldown."""
        raise NotImplementedError

    def round_end_notes(self, state: GameState) -> list[Event]:
        """What the end of a round tells the players beside its decisions."""
        raise NotImplementedError

    def on_round_end(self, state: GameState, events: list[Event]) -> None:
        """After the cooldown: the scenario's points, then the winner check."""
        raise NotImplementedError

    def check_winner(self, state: GameState) -> None:
        """Winning a Scenario."""
        raise NotImplementedError

    def choices(self, state: GameState, decider: str, purpose: str) -> list[Choice]:
        """Options of a decision the scenario asked for."""
        raise NotImplementedError

    def choose(
        self, state: GameState, decider: str, purpose: str, choice: Choice, events: list[Event]
    ) -> None:
        """Apply one of those options."""
        raise NotImplementedError

    def interactions(self, state: GameState, actor: Piece, squares: set[int]) -> list[Choice]:
        """What `actor` may interact with in `squares`."""
        raise NotImplementedError

    def interact(self, state: GameState, actor: Piece, thing: Choice, events: list[Event]) -> bool:
        """Do an interaction the scenario offered; True when `thing` was the scenario's."""
        raise NotImplementedError


@dataclass(frozen=True)
class Setup:
    """Everything fixed before the first choice: map, teams in turn order, scenario, dice."""

    board: Board
    teams: tuple[TeamSetup, ...]
    scenario: ScenarioRules
    dice: dict[str, DieSpec]
    first_player: str | None = None  # None: flip the First Player marker (a chance node)
    items: Mapping[str, ItemCard] = field(default_factory=dict)
    statuses: Mapping[str, StatusCard] = field(default_factory=dict)
    draft: Draft | None = None  # choose characters and items as decisions of the game
    companions: Mapping[str, CompanionCard] = field(default_factory=dict)
    bonus_objectives: Mapping[str, BonusObjective] = field(default_factory=dict)
    spec: SetupSpec | None = None  # the setup as data, when it was built from one


@dataclass(frozen=True)
class Draft:
    """Setup, step 5, as decisions: each side chooses `size` characters and `items` items.

    `secret`: both sides choose from their own collections, in secret: both commit, then
    both are revealed. Otherwise they share one collection and take turns choosing, and a
    character chosen by one side is gone for the other."""

    characters: tuple[CharacterCard, ...]
    item_ids: tuple[str, ...] = ()
    size: int = 3
    items: int = 1
    secret: bool = True


@dataclass(slots=True)
class Piece:
    """A character, basic character, token or marker; satisfies `PieceLike`."""

    id: str
    kind: Kind
    side: str
    card: CharacterCard | None = None
    square: int | None = None
    standing: bool = True
    exhausted: bool = False
    defense: int | None = None
    elusive: bool = False
    placed: bool = False  # has been on the map since setup (off the map means on a track)
    statuses: tuple[
        str, ...
    ] = ()  # status cards given to it ("Status Cards"), kept when knocked out
    items: tuple[str, ...] = ()  # items it holds ("Items")
    owner: str = ""  # for a token: the character that put it into play (credit for knock-outs)
    markers: int = 0  # exhausted markers on it this round
    needed: int = 1  # markers that exhaust it (Ultimate Mode: three)
    role: Role = Role.NONE  # what a marker or token stands for (a point marker, a flag, ...)
    ref: str = ""  # what it refers to: a point marker's letter, a bonus objective's card id

    def copy(self) -> Piece:
        return Piece(
            self.id,
            self.kind,
            self.side,
            self.card,
            self.square,
            self.standing,
            self.exhausted,
            self.defense,
            self.elusive,
            self.placed,
            self.statuses,
            self.items,
            self.owner,
            self.markers,
            self.needed,
            self.role,
            self.ref,
        )

    @property
    def name(self) -> str:
        return self.card.name if self.card is not None else self.id

    @property
    def is_character(self) -> bool:
        return self.kind in (Kind.CHARACTER, Kind.BASIC)

    def key(self) -> tuple[Any, ...]:
        return (
            self.id,
            self.side,
            self.square,
            self.standing,
            self.markers,
            self.placed,
            self.statuses,
            self.items,
        )


TrackItem = tuple[str, str]  # (kind, ref): ("token", "red"), ("character", id), ("point", "A")


@dataclass(slots=True)
class SideState:
    """A side's ability token pool, cooldown track and points (shared by players of one
    side), and what it has picked: characters and items chosen in the game, its leader,
    the characters it has returned from the rival's flag at this round's end."""

    pool: dict[TokenColor, int] = field(default_factory=dict)
    track: list[list[TrackItem]] = field(default_factory=lambda: [[] for _ in range(TRACK_LENGTH)])
    points: int = 0
    picks: tuple[str, ...] = ()  # Scenario Setup, step 5: character card ids chosen
    gifts: tuple[tuple[str, str], ...] = ()  # Item Setup: (item id, holder card id) chosen
    leader: str | None = None  # Leaders: the piece picked as leader
    returned: tuple[str, ...] = ()  # Flags: pieces returned at this round's end

    def copy(self) -> SideState:
        return SideState(
            dict(self.pool),
            [list(slot) for slot in self.track],
            self.points,
            self.picks,
            self.gifts,
            self.leader,
            self.returned,
        )

    def track_position(self, item: TrackItem) -> int | None:
        """The number (1-4) of the track space holding `item`, or None."""
        for index, slot in enumerate(self.track):
            if item in slot:
                return index + 1
        return None

    def key(self) -> tuple[Any, ...]:
        # a token color is a str: sorted as is, without reading the enum's value
        return (
            tuple(sorted([(c, n) for c, n in self.pool.items() if n])),
            tuple(tuple(slot) if len(slot) < 2 else tuple(sorted(slot)) for slot in self.track),
            self.points,
            self.picks,
            self.gifts,
            self.leader,
            self.returned,
        )


class GameState:
    """One game in progress. Mutated in place by the engine; `copy()` for search."""

    __slots__ = (
        "acting",
        "actions_left",
        "active",
        "board",
        "companion_used",
        "first_player",
        "gone",
        "leaders_revealed",
        "phase",
        "pieces",
        "round",
        "seats",
        "setup",
        "sides",
        "stack",
        "to_act",
        "turns",
        "winner",
    )

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.board: Board = setup.board
        self.seats: tuple[str, ...] = tuple(team.side for team in setup.teams)
        self.pieces: dict[str, Piece] = {}
        self.sides: dict[str, SideState] = {side: SideState() for side in self.seats}
        self.first_player: str | None = None
        self.to_act: str | None = None
        self.phase = Phase.FLIP
        self.active: str | None = None
        self.actions_left = 0
        self.stack: list[Frame] = []
        self.round = 0
        self.turns = 0
        self.winner: str | None = None
        self.leaders_revealed = False  # Leaders: both sides' picks are revealed
        # the marks of a turn: whose companion has done its free action ("Companions"), and
        # the character whose action is under way with the status cards it had when the
        # action began (what listens "after he rallies or does an action")
        self.companion_used: str | None = None
        self.acting: tuple[str, tuple[str, ...]] | None = None
        # Free-for-All: the seats that have left the game (resigned, out of time), in the
        # order they left; their characters are off the map for good (rules/play/leaving.py)
        self.gone: tuple[str, ...] = ()

    def copy(self) -> GameState:
        other = GameState.__new__(GameState)
        other.setup = self.setup
        other.board = self.board
        other.seats = self.seats
        other.pieces = {pid: p.copy() for pid, p in self.pieces.items()}
        other.sides = {side: s.copy() for side, s in self.sides.items()}
        other.first_player = self.first_player
        other.to_act = self.to_act
        other.phase = self.phase
        other.active = self.active
        other.actions_left = self.actions_left
        other.stack = list(self.stack)
        other.round = self.round
        other.turns = self.turns
        other.winner = self.winner
        other.leaders_revealed = self.leaders_revealed
        other.companion_used = self.companion_used
        other.acting = self.acting
        other.gone = self.gone
        return other

    def key(self) -> tuple[Any, ...]:
        """Everything that makes two states the same position (for replay checks and search)."""
        return (
            tuple(p.key() for p in self.pieces.values()),
            tuple(self.sides[s].key() for s in self.seats),
            self.first_player,
            self.to_act,
            self.phase,
            self.active,
            self.actions_left,
            tuple(self.stack),
            self.round,
            self.winner,
            self.leaders_revealed,
            self.companion_used,
            self.acting,
            self.gone,
        )

    # -- questions every part of the engine asks ------------------------------------

    def on_map(self) -> list[Piece]:
        return [p for p in self.pieces.values() if p.square is not None]

    def characters(self, side: str) -> list[Piece]:
        return [p for p in self.pieces.values() if p.side == side and p.is_character]

    def playing(self) -> tuple[str, ...]:
        """The seats still in the game, in turn order (Free-for-All: a seat may leave)."""
        gone = self.gone
        return tuple(s for s in self.seats if s not in gone) if gone else self.seats

    def rivals(self, a: str, b: str) -> bool:
        """Every other side is a rival side (Free-for-All: every other player is your opponent)."""
        return a != b

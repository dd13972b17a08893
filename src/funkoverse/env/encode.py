"""What a network reads and writes: observations as arrays, choices as action numbers.

Two halves, both built once per setup (one map, one scenario, the whole catalog of cards):

- `ActionCodec`: a fixed `Discrete` action space. Every kind of choice an agent can make is
  a block of action numbers, one for each combination of its parts (squares of the map,
  piece slots, abilities, items, ...); chance outcomes (the First Player flip, a challenge's
  roll) are not actions. A legal choice maps to one number and back; two legal choices
  never share one (the tests check both over random games).
- `ObservationEncoder`: one float32 vector per seat, built from the game as that seat may
  see it (`Session.view`), never from the real state: board planes, a table of piece slots,
  a table of sides (the observing side first) and a few numbers about the turn.

A piece is named by its slot: its place in the order pieces were put into the game (the
order of `GameState.pieces`, which only ever grows), so a slot names the same piece for the
whole game and in every seat's view. The piece table of the observation says what each
slot holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, NamedTuple, TypeAlias

import numpy as np
import numpy.typing as npt

from funkoverse.content.characters import load_characters
from funkoverse.errors import UserError
from funkoverse.rules import (
    Choice,
    CompanionAction,
    GameState,
    Kind,
    Phase,
    Piece,
    Role,
    Setup,
    TokenColor,
)
from funkoverse.rules.core.frames import ChoiceFrame
from funkoverse.rules.core.numbers import CONTROL_MARKERS, TRACK_LENGTH
from funkoverse.rules.core.scenario import control_areas
from funkoverse.rules.core.schema import CHOICE_FIELDS, Part
from funkoverse.rules.play import engine
from funkoverse.rules.vocabulary.traits import TraitHook

PIECE_SLOTS = 32  # pieces a game may hold: 19 in the largest shipped games (four players)
MAX_SIDES = 4  # Free-for-All and More Players: at most four sides
COLORS: tuple[TokenColor, ...] = tuple(TokenColor)
# Track things whose reference is a piece (Cooldown Tracks: characters, companions and
# point markers go on the track by their piece).
PIECE_TRACKED = ("character", "companion", "point")

Vector: TypeAlias = npt.NDArray[np.float32]
Mask: TypeAlias = npt.NDArray[np.int8]


class EncodeError(UserError):
    """A choice or position the codec was not built for (a bigger game than its slots)."""


# --------------------------------------------------------------------------- piece slots


def slots_of(view: GameState) -> dict[str, int]:
    """Each piece's slot: its place in the order pieces were put into the game."""
    return {pid: i for i, pid in enumerate(view.pieces)}


# --------------------------------------------------------------------------- the action codec

# Every kind of choice an agent makes, with its parts, as the schema declares them
# (rules/core/schema.py: CHOICE_FIELDS). Chance outcomes (FirstPlayer, RollOutcome) are drawn
# by the session, never chosen.
SCHEMA: tuple[tuple[type[Choice], tuple[Part, ...]], ...] = tuple(
    (kind, fields.parts) for kind, fields in CHOICE_FIELDS.items()
)


@dataclass(frozen=True)
class Block:
    """The action numbers of one kind of choice: `offset` up to `offset + size`."""

    kind: type[Choice]
    parts: tuple[Part, ...]
    sizes: tuple[int, ...]
    offset: int

    @property
    def size(self) -> int:
        n = 1
        for s in self.sizes:
            n *= s
        return n


def _sorted(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(set(values)))


def _sorted_pairs(values: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(set(values)))


class ActionCodec:
    """Every choice a game of `setup`'s map and scenario can ask of a seat, as one number.

    The domains are the map's squares, `piece_slots` slots, and the whole catalog of cards
    (so a drafted team or a team drawn anew each game never needs a bigger space)."""

    def __init__(self, setup: Setup, piece_slots: int = PIECE_SLOTS) -> None:
        board = setup.board
        cards = {**load_characters(), **{c.id: c for t in setup.teams for c in t.characters}}
        if setup.draft is not None:
            cards.update({c.id: c for c in setup.draft.characters})
        abilities = {a.id for c in cards.values() for a in c.abilities}
        abilities |= {a.id for s in setup.statuses.values() for a in s.abilities}
        self.slots = piece_slots
        self.squares = tuple(board.label(i) for i in range(board.width * board.height))
        self.characters = _sorted(cards)
        self.items = _sorted(setup.items)
        self.abilities = _sorted(abilities)
        self.statuses = _sorted(setup.statuses)
        self.companion_actions = _sorted(a.id for c in setup.companions.values() for a in c.actions)
        self.areas = _sorted(control_areas(GameState(setup)))
        self.controls = tuple(str(n) for n in range(1, CONTROL_MARKERS + 1))
        self.colors = tuple(c.value for c in COLORS)
        hooks = [h for c in cards.values() for h in c.hooks]
        hooks += [h for s in setup.statuses.values() for h in s.hooks]
        self.options = _sorted_pairs(
            (trigger.ask.op, answer.word)
            for hook in hooks
            if isinstance(hook, TraitHook)
            for trigger in hook.trait.triggers
            if trigger.ask is not None
            for answer in trigger.answers
        )
        # things on a cooldown track named by id (the others by piece slot: PIECE_TRACKED)
        self.tracked: tuple[tuple[str, str], ...] = (
            *(("token", c) for c in self.colors),
            *(("die", d) for d in sorted(setup.dice)),
            *(("component", d) for d in sorted(setup.dice)),
            *(("item", i) for i in self.items),
        )
        self._static: dict[str, tuple[Any, ...]] = {
            "square": self.squares,
            "character": self.characters,
            "item": self.items,
            "ability": self.abilities,
            "status": self.statuses,
            "companion": self.companion_actions,
            "area": self.areas,
            "control": self.controls,
            "color": self.colors,
            "number": tuple(range(1, TRACK_LENGTH + 1)),
            "bool": (False, True),
            "option": self.options,
        }
        self._index = {name: {v: i for i, v in enumerate(vs)} for name, vs in self._static.items()}
        self._tracked_index = {v: i for i, v in enumerate(self.tracked)}
        blocks: list[Block] = []
        offset = 0
        for kind, parts in SCHEMA:
            block = Block(kind, parts, tuple(self._domain_size(d) for _, d in parts), offset)
            blocks.append(block)
            offset += block.size
        self.blocks = tuple(blocks)
        self._by_kind = {b.kind: b for b in blocks}
        self.size = offset

    def _domain_size(self, domain: str) -> int:
        if domain == "piece":
            return self.slots
        if domain == "piece?":
            return self.slots + 1
        if domain == "tracked":
            return len(self.tracked) + len(PIECE_TRACKED) * self.slots
        return len(self._static[domain])

    # -- one part ---------------------------------------------------------------

    def _part(self, domain: str, values: tuple[Any, ...], slots: dict[str, int]) -> int | None:
        """The index of a part's value in its domain (None: not in it)."""
        if domain == "piece":
            return slots.get(values[0])
        if domain == "piece?":
            if values[0] is None:
                return 0
            slot = slots.get(values[0])
            return None if slot is None else slot + 1
        if domain == "tracked":
            pair = (values[0], values[1])
            found = self._tracked_index.get(pair)
            if found is not None:
                return found
            if values[0] in PIECE_TRACKED and values[1] in slots:
                kind = PIECE_TRACKED.index(values[0])
                return len(self.tracked) + kind * self.slots + slots[values[1]]
            return None
        key = values[0] if len(values) == 1 else tuple(values)
        return self._index[domain].get(key)

    def _value(self, domain: str, index: int, pieces: Sequence[str]) -> tuple[Any, ...]:
        """A part's value(s) from its index (the inverse of `_part`)."""
        if domain == "piece":
            return (self._piece(index, pieces),)
        if domain == "piece?":
            return (None,) if index == 0 else (self._piece(index - 1, pieces),)
        if domain == "tracked":
            if index < len(self.tracked):
                return self.tracked[index]
            kind, slot = divmod(index - len(self.tracked), self.slots)
            return (PIECE_TRACKED[kind], self._piece(slot, pieces))
        value = self._static[domain][index]
        return tuple(value) if isinstance(value, tuple) else (value,)

    @staticmethod
    def _piece(slot: int, pieces: Sequence[str]) -> str:
        if slot >= len(pieces):
            raise EncodeError(f"piece slot {slot} is empty in this game ({len(pieces)} pieces)")
        return pieces[slot]

    # -- whole choices ------------------------------------------------------------

    def encode(self, choice: Choice, slots: dict[str, int]) -> int:
        """The action number of `choice` (`slots`: `slots_of` the deciding seat's view)."""
        block = self._by_kind.get(type(choice))
        if block is None:
            raise EncodeError(f"'{choice.format()}' is not a choice an agent makes")
        if len(slots) > self.slots:
            raise EncodeError(
                f"this game has {len(slots)} pieces; the codec was built for {self.slots} "
                "(give a larger piece_slots)"
            )
        fields = choice.fields()
        number = 0
        for (names, domain), size in zip(block.parts, block.sizes, strict=True):
            index = self._part(domain, tuple(fields[n] for n in names), slots)
            if index is None:
                raise EncodeError(
                    f"'{choice.format()}': its {'/'.join(names)} is not in the codec's "
                    f"{domain} domain"
                )
            number = number * size + index
        return block.offset + number

    def decode(self, action: int, pieces: Sequence[str]) -> Choice:
        """The choice action number `action` stands for (`pieces`: piece ids by slot)."""
        if not 0 <= action < self.size:
            raise EncodeError(f"action {action} is outside the action space (0-{self.size - 1})")
        block = self._block(action)
        rest = action - block.offset
        indices: list[int] = []
        for size in reversed(block.sizes):
            rest, index = divmod(rest, size)
            indices.append(index)
        indices.reverse()
        values: dict[str, Any] = {}
        for (names, domain), index in zip(block.parts, indices, strict=True):
            values.update(zip(names, self._value(domain, index, pieces), strict=True))
        if block.kind is CompanionAction:
            return CompanionAction(values["action"], free=values["free"])
        return block.kind(**values)

    def legal(self, choices: Sequence[Choice], slots: dict[str, int]) -> dict[int, Choice]:
        """The legal choices by action number; two that share a number are refused."""
        out: dict[int, Choice] = {}
        for choice in choices:
            number = self.encode(choice, slots)
            if number in out and out[number] != choice:
                raise EncodeError(
                    f"'{choice.format()}' and '{out[number].format()}' share action {number}"
                )
            out[number] = choice
        return out

    def mask(self, numbers: Iterable[int]) -> Mask:
        """The action mask: 1 at each legal action number."""
        mask = np.zeros(self.size, dtype=np.int8)
        mask[list(numbers)] = 1
        return mask

    def describe(self, action: int) -> str:
        """Which kind of choice an action number is, for people ("Move #37")."""
        block = self._block(action)
        return f"{block.kind.__name__} #{action - block.offset}"

    def _block(self, action: int) -> Block:
        return next(b for b in self.blocks if b.offset <= action < b.offset + b.size)


# --------------------------------------------------------------------------- observations

PLANES = (
    "own standing character",
    "own knocked-down character",
    "rival standing character",
    "rival knocked-down character",
    "own exhausted character",
    "rival exhausted character",
    "own other piece",  # minion tokens, companions, Tunnel tokens
    "rival other piece",
    "point marker",
    "own flag marker",
    "rival flag marker",
    "own control marker",
    "rival control marker",
    "own bonus objective marker",
    "rival bonus objective marker",
    "active character",
    "leader",
    "blocked square",
    "obscured square",
    "own starting area",
    "rival starting area",
    "wall on the right",
    "wall below",
    "control area",
    "point marker setup square",
)
_P = {name: i for i, name in enumerate(PLANES)}
KINDS: tuple[Kind, ...] = tuple(Kind)
ROLES: tuple[Role, ...] = tuple(Role)
PHASES: tuple[Phase, ...] = tuple(Phase)
_KIND = {k: i for i, k in enumerate(KINDS)}
_ROLE = {r: i for i, r in enumerate(ROLES)}
_PHASE = {p: i for i, p in enumerate(PHASES)}
_WHOSE = {True: "own", False: "rival"}
# the planes a piece marks, by whose it is (the observer's: True) and how it stands
_CHARACTER_PLANE = {
    (mine, standing): _P[f"{_WHOSE[mine]} {'standing' if standing else 'knocked-down'} character"]
    for mine in (True, False)
    for standing in (True, False)
}
_EXHAUSTED_PLANE = {mine: _P[f"{_WHOSE[mine]} exhausted character"] for mine in (True, False)}
_MARKER_PLANE = {
    role: {mine: _P[f"{_WHOSE[mine]} {role.value} marker"] for mine in (True, False)}
    for role in (Role.FLAG, Role.CONTROL)
}
_BONUS_PLANE = {mine: _P[f"{_WHOSE[mine]} bonus objective marker"] for mine in (True, False)}
_OTHER_PLANE = {mine: _P[f"{_WHOSE[mine]} other piece"] for mine in (True, False)}
ROWS_KEPT = 50_000  # rows an encoder keeps before it starts again
# what a piece's row and marks read of it (all of it but its card, which its id names)
_PIECE_READ = attrgetter(
    "id",
    "side",
    "kind",
    "role",
    "square",
    "standing",
    "exhausted",
    "markers",
    "needed",
    "defense",
    "items",
    "statuses",
    "elusive",
)
PIECE_BASE = (
    "present",
    "on the map",
    "x",
    "y",
    "standing",
    "exhausted",
    "exhausted markers",
    "defense",
    "items held",
    "status cards",
    "active",
    "doing the step decided now",  # the piece of the decision on top of the stack
    "leader",
    "elusive",
)
SIDE_BASE = (
    "present",
    "points",
    "first player",
    "to act",
    "characters picked",
    "items chosen",
    "leader picked",
    "returned from the flag",
)
GLOBALS = ("round", "turns", "actions left", "in an ability", "leaders revealed", "deciding")
POINT_SCALE = 20.0
ROUND_SCALE = 30.0
TURN_SCALE = 200.0


@dataclass(frozen=True)
class Layout:
    """Where each part of the observation vector lies: (start, shape)."""

    planes: tuple[int, tuple[int, int, int]]
    pieces: tuple[int, tuple[int, int]]
    sides: tuple[int, tuple[int, int]]
    globals: tuple[int, tuple[int]]
    size: int

    def split(self, obs: Vector) -> dict[str, Vector]:
        """The observation vector cut into its parts, each in its shape."""
        out = {}
        for name in ("planes", "pieces", "sides", "globals"):
            start, shape = getattr(self, name)
            n = int(np.prod(shape))
            out[name] = obs[start : start + n].reshape(shape)
        return out


class _Seen(NamedTuple):
    """What a seat's last observation held: the map's planes with its rows of pieces and
    sides (no marks, no globals), what each piece's row read, the active and deciding pieces
    and the leaders, each side's row's key, each piece's row and marks, and the places on the
    planes the pieces marked."""

    base: Vector
    reads: list[Any]
    marked: tuple[Any, ...]
    sides: list[Any]
    founds: list[Any]
    marks: npt.NDArray[np.intp]


class ObservationEncoder:
    """The observation of one seat, from the game as that seat may see it."""

    def __init__(self, codec: ActionCodec, setup: Setup) -> None:
        board = setup.board
        self.codec = codec
        self.width, self.height = board.width, board.height
        self.n = board.width * board.height
        self.piece_features = (
            len(PIECE_BASE) + MAX_SIDES + len(KINDS) + len(ROLES) + len(codec.characters)
        )
        self.side_features = (
            len(SIDE_BASE)
            + len(COLORS)
            + len(COLORS) * TRACK_LENGTH
            + 2 * TRACK_LENGTH
            + len(codec.characters)
            + len(codec.items)
        )
        planes = len(PLANES) * self.n
        pieces = codec.slots * self.piece_features
        sides = MAX_SIDES * self.side_features
        globals_ = len(GLOBALS) + len(PHASES)
        self.layout = Layout(
            (0, (len(PLANES), self.height, self.width)),
            (planes, (codec.slots, self.piece_features)),
            (planes + pieces, (MAX_SIDES, self.side_features)),
            (planes + pieces + sides, (globals_,)),
            planes + pieces + sides + globals_,
        )
        self._static = self._map_planes(setup)
        self._blank: dict[str, Vector] = {}  # per seat: the map's planes, zeros elsewhere
        for side, laid in self._static.items():
            blank = np.zeros(self.size, dtype=np.float32)
            blank[: laid.size] = laid
            self._blank[side] = blank
        # piece and side rows by what they read (`encode`), shared by every game of the setup
        self._rows: dict[tuple[Any, ...], Any] = {}
        # per seat: the rows of its last observation (pieces', then sides') and their keys:
        # the next observation starts from them and lays anew only the rows that changed
        self._last: dict[str, _Seen] = {}
        self._char_index = {c: i for i, c in enumerate(codec.characters)}
        self._item_index = {c: i for i, c in enumerate(codec.items)}
        # where a piece row's one-hot parts begin: its side, kind, role and character
        side_at = len(PIECE_BASE)
        self._features = (
            side_at,
            side_at + MAX_SIDES,
            side_at + MAX_SIDES + len(KINDS),
            side_at + MAX_SIDES + len(KINDS) + len(ROLES),
        )

    @property
    def size(self) -> int:
        return self.layout.size

    def _map_planes(self, setup: Setup) -> dict[str, Vector]:
        """The planes the map alone decides, per observing side (own and rival areas)."""
        board = setup.board
        base = np.zeros((len(PLANES), self.n), dtype=np.float32)
        base[_P["blocked square"], list(board.blocked)] = 1
        base[_P["obscured square"], list(board.obscured)] = 1
        for a, b in board.walls:
            plane = "wall on the right" if b == a + 1 else "wall below"
            base[_P[plane], a] = 1
        probe = GameState(setup)
        for area_squares in control_areas(probe).values():
            base[_P["control area"], area_squares] = 1
        base[_P["point marker setup square"], list(board.point_squares.values())] = 1
        out = {}
        for team in setup.teams:
            planes = base.copy()
            for area, start in board.start_areas.items():
                plane = "own starting area" if area == team.area else "rival starting area"
                planes[_P[plane], list(start)] = 1
            out[team.side] = planes.reshape(-1)
        return out

    def encode(self, view: GameState, seat: str, deciding: bool | None = None) -> Vector:
        """The observation of `seat` from `view`, the game as `seat` may see it (`deciding`:
        whether `seat` decides now, when the caller knows).

        The map's planes are laid once per seat (`_map_planes`); each piece's row and marks
        and each side's row are kept by what they read, so that a step pays for the pieces
        and sides it changed, not for the size of the vector."""
        last = self._last.get(seat)
        if last is not None and len(last.reads) != len(view.pieces):
            last = None
        # the map's planes and the rows of the seat's last observation (laid again where they
        # still hold: a piece's row is looked at anew only when what it reads changed, or
        # whether it is the active piece, the one deciding or a leader)
        obs = (self._blank[seat] if last is None else last.base).copy()
        order = self._sides(view, seat)
        leaders = frozenset(s.leader for s in view.sides.values() if s.leader in view.pieces)
        top = view.stack[-1] if view.stack else None
        doer = top.piece if isinstance(top, ChoiceFrame) else None
        start, (slots, width) = self.layout.pieces
        pieces = list(view.pieces.values())
        if len(pieces) > slots:
            raise EncodeError(
                f"this game has {len(pieces)} pieces; the encoder was built for {slots}"
            )
        active = view.active
        rows = self._rows
        if len(rows) > ROWS_KEPT:
            rows.clear()
        reads = list(map(_PIECE_READ, pieces))
        marked = (active, doer, leaders)
        if last is None:
            founds: list[Any] = [None] * len(reads)
            last_reads: list[Any] = [None] * len(reads)
            touched: frozenset[Any] | set[Any] = frozenset()
        else:
            founds = list(last.founds)
            last_reads = last.reads
            was_active, was_doer, was_leaders = last.marked
            touched = (
                frozenset()
                if last.marked == marked
                else {was_active, active, was_doer, doer} | (was_leaders ^ leaders)
            )
        changed = last is None
        for slot, read in enumerate(reads):
            if read == last_reads[slot] and read[0] not in touched:
                continue
            pid = read[0]
            key = (seat, read, pid == active, pid == doer, pid in leaders)
            found = rows.get(key)
            if found is None:
                found = rows[key] = self._piece_row(view, pieces[slot], seat, order, key[2:])
            if found is not founds[slot]:
                at = start + slot * width
                obs[at : at + width] = found[0]
                founds[slot] = found
                changed = True
        marks = (
            last.marks
            if last is not None and not changed
            else np.array([m for f in founds for m in f[1]], dtype=np.intp)
        )
        start, (_, width) = self.layout.sides
        side_keys: list[Any] = []
        for i, side in enumerate(order):
            mine = view.sides[side]
            side_key: tuple[Any, ...] = (
                side,
                mine.points,
                view.first_player == side,
                view.to_act == side,
                tuple(mine.picks),
                tuple(mine.gifts),
                mine.leader is not None,
                len(mine.returned),
                tuple(mine.pool.items()),
                tuple(map(tuple, mine.track)),
            )
            side_keys.append(side_key)
            if last is not None and last.sides[i] == side_key:
                continue
            found_side = rows.get(side_key)
            if found_side is None:
                found_side = rows[side_key] = self._side_row(side_key)
            at = start + i * width
            obs[at : at + width] = found_side
        base = obs.copy()  # what the seat's next observation starts from
        if deciding is None:
            deciding = engine.decider(view) == seat
        at = self.layout.globals[0]  # the turn's numbers, in GLOBALS' order
        obs[at] = min(1.0, view.round / ROUND_SCALE)
        obs[at + 1] = min(1.0, view.turns / TURN_SCALE)
        obs[at + 2] = min(1.0, view.actions_left / 2)
        obs[at + 3] = bool(view.stack)
        obs[at + 4] = view.leaders_revealed
        obs[at + 5] = deciding
        obs[at + len(GLOBALS) + _PHASE[view.phase]] = 1.0
        obs[marks] = 1.0
        self._last[seat] = _Seen(base, reads, marked, side_keys, founds, marks)
        return obs

    def _piece_row(
        self,
        view: GameState,
        piece: Piece,
        seat: str,
        order: list[str],
        flags: tuple[bool, ...],
    ) -> tuple[Vector, tuple[int, ...]]:
        """A piece's row of the pieces table, and the places it marks on the planes."""
        active, doing, leader = flags
        n = self.n
        sq = piece.square
        marks: list[int] = []
        x = y = 0
        if sq is not None:
            marks.extend(plane * n + sq for plane in _piece_planes(piece, piece.side == seat))
            if active:
                marks.append(_P["active character"] * n + sq)
            if leader:
                marks.append(_P["leader"] * n + sq)
            x, y = view.board.xy(sq)
        row = np.zeros(self.layout.pieces[1][1], dtype=np.float32)
        row[: len(PIECE_BASE)] = (
            1,
            sq is not None,
            x / max(1, self.width - 1),
            y / max(1, self.height - 1),
            piece.standing,
            piece.exhausted,
            min(1.0, piece.markers / max(1, piece.needed)),
            min(1.0, (piece.defense or 0) / 6),
            min(1.0, len(piece.items) / 2),
            min(1.0, len(piece.statuses) / 4),
            active,
            doing,
            leader,
            piece.elusive,
        )
        side_at, kind_at, role_at, char_at = self._features
        if piece.side in order:
            row[side_at + order.index(piece.side)] = 1
        row[kind_at + _KIND[piece.kind]] = 1
        row[role_at + _ROLE[piece.role]] = 1
        if piece.card is not None and piece.card.id in self._char_index:
            row[char_at + self._char_index[piece.card.id]] = 1
        np.clip(row, 0.0, 1.0, out=row)
        return row, tuple(marks)

    @staticmethod
    def _sides(view: GameState, seat: str) -> list[str]:
        """The sides from `seat`'s place: itself first, then the others in turn order."""
        seats = list(view.seats)
        i = seats.index(seat) if seat in seats else 0
        return (seats[i:] + seats[:i])[:MAX_SIDES]

    def _side_row(self, key: tuple[Any, ...]) -> Vector:
        """A side's row of the sides table, from what `encode` read of it."""
        _, points, first, to_act, picks, gifts, leader, returned, pool, track = key
        row = np.zeros(self.layout.sides[1][1], dtype=np.float32)
        row[: len(SIDE_BASE)] = (
            1,
            min(1.0, points / POINT_SCALE),
            first,
            to_act,
            min(1.0, len(picks) / 3),
            min(1.0, len(gifts) / 3),
            leader,
            min(1.0, returned / 3),
        )
        at = len(SIDE_BASE)
        counts = dict(pool)
        for c, color in enumerate(COLORS):
            row[at + c] = min(1.0, counts.get(color, 0) / 6)
        at += len(COLORS)
        for number, slot in enumerate(track):
            for kind, ref in slot:
                if kind == "token" and ref in self.codec.colors:
                    c = self.codec.colors.index(ref)
                    row[at + c * TRACK_LENGTH + number] += 1 / 3
                elif kind in PIECE_TRACKED:
                    row[at + len(COLORS) * TRACK_LENGTH + number] += 1 / 3
                else:
                    row[at + (len(COLORS) + 1) * TRACK_LENGTH + number] += 1 / 3
        end = at + (len(COLORS) + 2) * TRACK_LENGTH
        np.minimum(row[at:end], 1.0, out=row[at:end])
        at = end
        # picks and gifts the view shows (another side's secret picks are hidden in it)
        for pick in picks:
            if pick in self._char_index:
                row[at + self._char_index[pick]] = 1
        at += len(self.codec.characters)
        for item, _ in gifts:
            if item in self._item_index:
                row[at + self._item_index[item]] = 1
        return row


def _piece_planes(piece: Piece, mine: bool) -> tuple[int, ...]:
    """The planes a piece on the map marks at its square (`mine`: the observer's)."""
    if piece.is_character:
        first = _CHARACTER_PLANE[mine, piece.standing]
        return (first, _EXHAUSTED_PLANE[mine]) if piece.exhausted else (first,)
    role = piece.role
    if role is Role.POINT:
        return (_P["point marker"],)
    if role in _MARKER_PLANE:
        return (_MARKER_PLANE[role][mine],)
    if piece.kind is Kind.BONUS_OBJECTIVE:
        return (_BONUS_PLANE[mine],)
    return (_OTHER_PLANE[mine],)

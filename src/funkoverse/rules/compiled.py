"""The compiled kernel (`funkoverse.rules._kernel`) as a twin of the Python engine.

The kernel plays the same game as `engine`, `menus`, `steps`, `vocabulary`, `scenario` and
the hooks of the shipped cards, on a flat state of integers: its legal choices are integer
codes, `apply` checks one code without listing the others, and a copy is one memcpy. This
module builds the kernel's tables from a `Setup` (`tables_for`), moves a position into the
kernel (`load`) and back (`Tables.state`), and reads its codes and events as the Python
values they stand for (`Tables.choice`, `Tables.code`, `Tables.events`).

The Python engine is the reference: `tests/test_kernel.py` plays thousands of seeded games
through both, choice by choice, comparing the legal choices, the events and the states.
`rules.engines` puts it behind the engine interface; whoever starts a game chooses the engine
(`funkoverse ... --engine python` selects the Python engine), and a machine where the kernel
could not be built plays on the Python engine. A setup the kernel cannot play (a hook or a
word it does not know, a map larger than 256 squares) is played by the Python engine too
(`unsupported` says why).

A draft (Scenario Setup, step 5, as decisions) is played by the kernel too: its tables hold
the pool, and every piece a pick could make is numbered among the game's pieces; the kernel
makes the chosen teams' pieces at the reveal, in the order picked, and the codes it hands
out name pieces by those numbers (`Tables.piece_ids`), not by their place in the position.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from funkoverse.rules.core import frames as fr
from funkoverse.rules.core import schema
from funkoverse.rules.core import track as track_module
from funkoverse.rules.core.board import Board
from funkoverse.rules.core.cards import (
    TOKEN_KINDS,
    Ability,
    CardHook,
    CharacterCard,
    Step,
    TokenColor,
    step,
)
from funkoverse.rules.core.choices import (
    Assist,
    Carry,
    Challenge,
    Choice,
    Choose,
    CompanionAction,
    CompleteBonus,
    End,
    FirstPlayer,
    FlagReturn,
    FlipControl,
    Give,
    GiveStatus,
    Interact,
    Leader,
    MinionChallenge,
    Move,
    Option,
    Pick,
    Place,
    PlaceControl,
    PlaceToken,
    Pull,
    Push,
    Put,
    Rally,
    Return,
    RollOutcome,
    ShiftDown,
    ShiftOff,
    Skip,
    Target,
    UseAbility,
    UseItem,
)
from funkoverse.rules.core.errors import Unsupported
from funkoverse.rules.core.events import Event, EventKind
from funkoverse.rules.core.hooks import Hook, shipped_hooks
from funkoverse.rules.core.pieces import Kind, Role
from funkoverse.rules.core.scenario import Scenario, control_areas, leader_squares
from funkoverse.rules.core.state import GameState, Phase, Piece, Setup, SideState
from funkoverse.rules.play import setup_phase
from funkoverse.rules.vocabulary.cooldown import SHIFTABLE
from funkoverse.rules.vocabulary.tokens import TOKEN_NAMES

try:
    from funkoverse.rules import _kernel
except ImportError:  # pragma: no cover - a machine where the kernel was not built
    _kernel = None  # type: ignore[assignment]


def limit_error() -> type[Exception]:
    """What the kernel raises at a position past its fixed limits (the Python engine plays
    such a position on)."""
    return _kernel.KernelLimit if _kernel is not None else RuntimeError


def built() -> bool:
    """Whether the kernel was built on this machine."""
    return _kernel is not None


# --------------------------------------------------------------------------- the kernel's numbering

# The kernel's numbering, from the schema both sides are built from (core/schema.py; a test holds
# the built kernel's names to it)
KINDS: tuple[Kind, ...] = schema.BY_NAME["Kind"].values
ROLES: tuple[Role, ...] = schema.BY_NAME["Role"].values
PHASES: tuple[Phase, ...] = schema.BY_NAME["Phase"].values
COLORS: tuple[TokenColor, ...] = schema.BY_NAME["Color"].values
TRACK_KINDS = schema.TRACK_KINDS
OPS = schema.OPS
HOOKS = schema.HOOKS
H_SCENARIO = schema.H_SCENARIO
H_NONE = schema.H_NONE
_frame = schema.BY_NAME["FrameType"].number
F_STEPS = _frame("F_STEPS")
F_CHOICE = _frame("F_CHOICE")
F_ROLL = _frame("F_ROLL")
F_RETURN = _frame("F_RETURN")
F_TURN_START = _frame("F_TURN_START")
F_ROUND_END = _frame("F_ROUND_END")
_choice = schema.BY_NAME["ChoiceKind"].number
C_FIRST_PLAYER = _choice("C_FIRST_PLAYER")
C_ROLL_OUTCOME = _choice("C_ROLL_OUTCOME")
C_LEADER = _choice("C_LEADER")
C_PLACE = _choice("C_PLACE")
C_RETURN = _choice("C_RETURN")
C_CHOOSE = _choice("C_CHOOSE")
C_MOVE = _choice("C_MOVE")
C_CHALLENGE = _choice("C_CHALLENGE")
C_ASSIST = _choice("C_ASSIST")
C_INTERACT = _choice("C_INTERACT")
C_COMPLETE_BONUS = _choice("C_COMPLETE_BONUS")
C_PLACE_CONTROL = _choice("C_PLACE_CONTROL")
C_FLIP_CONTROL = _choice("C_FLIP_CONTROL")
C_USE_ABILITY = _choice("C_USE_ABILITY")
C_USE_ITEM = _choice("C_USE_ITEM")
C_COMPANION_ACTION = _choice("C_COMPANION_ACTION")
C_RALLY = _choice("C_RALLY")
C_END = _choice("C_END")
C_SKIP = _choice("C_SKIP")
C_TARGET = _choice("C_TARGET")
C_PUSH = _choice("C_PUSH")
C_PULL = _choice("C_PULL")
C_CARRY = _choice("C_CARRY")
C_PUT = _choice("C_PUT")
C_PLACE_TOKEN = _choice("C_PLACE_TOKEN")
C_GIVE_STATUS = _choice("C_GIVE_STATUS")
C_SHIFT_DOWN = _choice("C_SHIFT_DOWN")
C_SHIFT_OFF = _choice("C_SHIFT_OFF")
C_MINION_CHALLENGE = _choice("C_MINION_CHALLENGE")
C_FLAG_RETURN = _choice("C_FLAG_RETURN")
C_OPTION = _choice("C_OPTION")
C_PICK = _choice("C_PICK")
C_GIVE = _choice("C_GIVE")
OPTIONS = schema.OPTIONS
EVENT_KINDS: tuple[EventKind, ...] = schema.BY_NAME["EventKind"].values
NIL = -(2**31)
NIL16 = -(2**15)
DRAFTING = PHASES.index(Phase.DRAFT)  # a phase up to this one has the draft still to come
MAX_NUMBER = 2047  # pieces a code's field of 11 bits numbers (an ability's target: 1 + number)
# What the kernel holds of one position
MAX_PIECES = schema.LIMIT["MAX_PIECES"]
SLOT_CAP = schema.LIMIT["SLOT_CAP"]
TARGETS_CAP = schema.LIMIT["TARGETS_CAP"]
RETURN_CAP = schema.LIMIT["RETURN_CAP"]
PICK_CAP = schema.LIMIT["PICK_CAP"]
GIFT_CAP = schema.LIMIT["GIFT_CAP"]
# one event of the kernel as its struct's bytes (kernel.hpp `Event`, in the machine's own
# layout): kind, secret, piece, other, side, card, name, source, rule, square, origin,
# number, total, then how many names and the names (a team revealed)
EVENT_ROW = struct.Struct(f"@B?9hiiB{PICK_CAP}h0i")
MISC = tuple(text for _, text in schema.MISC)


def code(kind: int, a: int = 0, b: int = 0) -> int:
    return kind | (a << 8) | (b << 19)


def _shipped_hook_types() -> dict[str, type[Hook]]:
    return {name: kind for name, kind in shipped_hooks().items() if name in HOOKS}


# --------------------------------------------------------------------------- boards

_BOARDS: dict[int, tuple[Board, Any]] = {}


def board_tables(board: Board) -> Any:
    """The kernel's tables of a map (steps, adjacency, distances, sight), built once."""
    found = _BOARDS.get(id(board))
    if found is not None and found[0] is board:
        return found[1]
    if board.width * board.height > 256:
        raise Unsupported(
            f"the map has {board.width * board.height} squares; the kernel plays at most 256"
        )
    kb = _kernel.Board(
        {
            "width": board.width,
            "height": board.height,
            "blocked": sorted(board.blocked),
            "obscured": sorted(board.obscured),
            "walls": sorted(board.walls),
            "points": sorted(board.obstructed_points),
            "steps": [list(board.steps(i)) for i in board.squares],
            "adjacent": [list(board.adjacent(i)) for i in board.squares],
        }
    )
    _BOARDS[id(board)] = (board, kb)
    return kb


# --------------------------------------------------------------------------- tables


@dataclass
class _Seq:
    steps: tuple[Step, ...]


class Seen:
    """What a mirror of a kernel's position last read of it: the kernel's copy of the state
    then (`Kernel.changes` compares with it) and whether the draft was still on."""

    __slots__ = ("drafting", "shadow")

    def __init__(self) -> None:
        self.shadow = _kernel.Shadow()
        self.drafting = False


class Tables:
    """Everything static of one setup, numbered for the kernel, and the way back: the
    strings, steps, cards, track items and pieces the kernel's integers stand for."""

    def __init__(self, state: GameState) -> None:
        setup = state.setup
        if type(setup.scenario) is not Scenario:
            raise Unsupported("a scenario with rules of its own")
        self.setup = setup
        self.draft = setup.draft
        self.board = setup.board
        self.kboard = board_tables(setup.board)
        self.strings: list[str] = []
        self._index: dict[str, int] = {}
        self.seats = state.seats
        self.seat_index = {s: i for i, s in enumerate(self.seats)}
        self.labels = [setup.board.label(i) for i in setup.board.squares]
        self.hook_types = _shipped_hook_types()
        self.hook_numbers: dict[
            int, tuple[tuple[str, int], ...]
        ] = {}  # by hook: its card's numbers
        s = self._s
        s("")
        # pieces, in the game's order; with a draft, then every piece a pick could make
        self.game_pieces: tuple[str, ...] = tuple(state.pieces)
        drafted = [p for p in self._draft_pieces() if p not in state.pieces]
        self.piece_ids: tuple[str, ...] = self.game_pieces + tuple(drafted)
        if len(self.piece_ids) > MAX_NUMBER:
            raise Unsupported(f"{len(self.piece_ids)} pieces; the kernel numbers {MAX_NUMBER}")
        self.piece_index = {pid: i for i, pid in enumerate(self.piece_ids)}
        ranks = {pid: r for r, pid in enumerate(sorted(self.piece_ids))}
        self.piece_rank = [ranks[p] for p in self.piece_ids]
        self.control_refs = {
            i: p.ref for i, p in enumerate(state.pieces.values()) if p.role is Role.CONTROL
        }
        for pid in self.piece_ids:
            s(pid)
        for side in self.seats:
            s(side)
        # steps and sequences
        self.steps: list[Step] = []
        self._step_index: dict[Step, int] = {}
        self.seqs: list[tuple[Step, ...]] = []
        self._seq_index: dict[tuple[Step, ...], int] = {}
        self.abilities: list[Ability] = []
        self._ability_index: dict[Ability, int] = {}
        self.ability_ids: list[str] = []
        self.cards: list[CharacterCard] = []
        self._card_index: dict[CharacterCard, int] = {}
        self.status_ids: list[str] = list(setup.statuses)
        self.status_index = {sid: i for i, sid in enumerate(self.status_ids)}
        self.item_ids: list[str] = list(setup.items)
        self.item_index = {iid: i for i, iid in enumerate(self.item_ids)}
        self.action_ids: list[str] = []
        self.track_items: list[tuple[str, str]] = []
        self._track_index: dict[tuple[str, str], int] = {}
        self.dice_ids: list[str] = list(setup.dice)
        self.dice_index = {d: i for i, d in enumerate(self.dice_ids)}
        for color in COLORS:
            self._track(("token", color.value))
        self.piece_track = [self._track(self._track_item(state, pid)) for pid in self.piece_ids]
        for iid in self.item_ids:
            self._track(("item", iid))
        self._track(("die", "champion"))
        self._track(("component", "blood"))
        self._reveals: dict[tuple[Any, ...], tuple[Setup, Setup]] = {}
        spec = self._build(state)
        self._check_limits(state)
        self.rules = _kernel.Rules(spec, self.kboard)
        self._choices: dict[int, Choice] = {}
        self._codes: dict[Choice, int] = {}

    # -- the draft -----------------------------------------------------------------

    def _draft_tokens(self) -> list[tuple[str, int]]:
        """The tokens the draft's characters and items bring (kind, how many)."""
        draft = self.draft
        if draft is None:
            return []
        found = [t for card in draft.characters for t in card.tokens]
        for iid in draft.item_ids:
            item = self.setup.items.get(iid)
            if item is None:
                raise Unsupported(f"the draft names an item the setup does not hold ({iid})")
            found.extend(item.tokens)
        return found

    def _draft_pieces(self) -> list[str]:
        """Every piece a draft's picks could make (setup_phase.create_pieces): each character
        of the pool, as itself or, when two sides pick it, as "id-side"; each side's tokens."""
        draft = self.draft
        if draft is None:
            return []
        ids = []
        for card in draft.characters:
            ids.append(card.id)
            ids.extend(f"{card.id}-{side}" for side in self.seats)
        for side in self.seats:
            for kind, count in self._draft_tokens():
                ids.extend(f"{kind}-{side}-{n}" for n in range(1, count + 1))
        return list(dict.fromkeys(ids))

    def _draft_rules(self) -> dict[str, Any] | None:
        """The draft as the kernel's tables: the pool, and the pieces each pick makes."""
        draft = self.draft
        if draft is None:
            return None
        if draft.size > PICK_CAP or draft.items > GIFT_CAP:
            raise Unsupported(
                f"a draft of {draft.size} characters and {draft.items} items; the kernel "
                f"holds {PICK_CAP} and {GIFT_CAP}"
            )
        s, number = self._s, self.piece_index

        def tokens(pairs: Sequence[tuple[str, int]], side: str) -> list[tuple[int, ...]]:
            out: list[tuple[int, ...]] = []
            for token_kind, count in pairs:
                kind_name, defense = TOKEN_KINDS.get(token_kind, ("token", None))
                try:
                    kind, role = KINDS.index(Kind(kind_name)), ROLES.index(Role(token_kind))
                except ValueError:
                    raise Unsupported(f"an unknown token '{token_kind}'") from None
                for n in range(1, count + 1):
                    tid = f"{token_kind}-{side}-{n}"
                    out.append((number[tid], kind, role, -1 if defense is None else defense))
            return out

        pool = [
            (
                self._card(c),
                s(c.id),
                s(c.name),
                c.basic,
                [COLORS.index(TokenColor(d)) for d in c.dots],
                number[c.id],
                [number[f"{c.id}-{side}"] for side in self.seats],
                [tokens(c.tokens, side) for side in self.seats],
            )
            for c in draft.characters
        ]
        item_pool = [
            (self.item_index[i], [tokens(self.setup.items[i].tokens, side) for side in self.seats])
            for i in draft.item_ids
        ]
        item_tokens = [-1] * len(self.item_ids)
        for j, iid in enumerate(draft.item_ids):
            if item_tokens[self.item_index[iid]] < 0:
                item_tokens[self.item_index[iid]] = j
        return {
            "secret": draft.secret,
            "size": draft.size,
            "items": draft.items,
            "pool": pool,
            "first": [self._first[c.id] for c in draft.characters],
            "item_pool": item_pool,
            "item_tokens": item_tokens,
        }

    # -- the kernel's limits ----------------------------------------------------------

    def _check_limits(self, state: GameState) -> None:
        """The most this setup can put where the kernel holds a fixed number of things: past
        one, the Python engine plays the game from its start, rather than leave the kernel in
        the middle of it. No shipped setup `build` accepts comes near (docs/performance.md)."""
        points = sum(1 for p in state.pieces.values() if p.role is Role.POINT)
        rivals = {}
        for seat in self.seats:
            characters, companions, minions, tokens, items = self._side_most(state, seat)
            # every ability token, character, companion, point marker, item card, the
            # Champion die and the Blood token on one space
            most = tokens + characters + companions + points + items + 2
            if most > SLOT_CAP:
                raise Unsupported(
                    f"{seat} may put {most} things on one space of its cooldown track; the "
                    f"kernel holds {SLOT_CAP}"
                )
            if characters + companions > RETURN_CAP:
                raise Unsupported(f"{seat} may return {characters + companions} at once")
            rivals[seat] = characters + companions + minions
        challenges = max(
            (sum(1 for st in seq if st.op in CHALLENGES) for seq in self.seqs), default=0
        )
        for seat in self.seats:
            most = sum(n for other, n in rivals.items() if other != seat) + challenges
            if most > TARGETS_CAP:
                raise Unsupported(
                    f"one ability of {seat} may challenge {most} times; the kernel holds "
                    f"{TARGETS_CAP}"
                )
        trial = max((_placements(st) for st in self.steps), default=0)
        pieces = len(state.pieces)
        if self.draft is not None and state.setup.draft is not None:
            pieces += len(self.piece_ids) - len(self.game_pieces)  # all a pick could make
        if pieces + trial > MAX_PIECES:
            raise Unsupported(f"{pieces + trial} pieces; the kernel holds {MAX_PIECES}")

    def _side_most(self, state: GameState, seat: str) -> tuple[int, int, int, int, int]:
        """The most of a side's: characters, companions, minion tokens, ability tokens and
        item cards (its drafted team's, before the draft)."""
        draft = self.draft
        if draft is not None and state.setup.draft is not None:
            dots = sorted((len(c.dots) for c in draft.characters), reverse=True)
            minions = sum(
                count
                for kind, count in self._draft_tokens()
                if TOKEN_KINDS.get(kind, ("token", None))[0] == Kind.MINION.value
            )
            items = min(draft.items, len(set(draft.item_ids)))
            return draft.size, 0, minions, sum(dots[: draft.size]), items
        mine = [p for p in state.pieces.values() if p.side == seat]
        side = state.sides[seat]
        tokens = sum(side.pool.values()) + sum(
            1 for slot in side.track for kind, _ in slot if kind == "token"
        )
        return (
            sum(1 for p in mine if p.is_character),
            sum(1 for p in mine if p.kind is Kind.COMPANION),
            sum(1 for p in mine if p.kind is Kind.MINION),
            tokens,
            len({i for p in mine for i in p.items}),
        )

    def _track_item(self, state: GameState, pid: str) -> tuple[str, str]:
        """What stands for a piece on a cooldown track."""
        piece = state.pieces.get(pid)
        if piece is not None and piece.kind is Kind.COMPANION:
            return ("companion", pid)
        if piece is not None and piece.role is Role.POINT:
            return ("point", pid)
        return ("character", pid)

    # -- interning -----------------------------------------------------------------

    def _s(self, text: str) -> int:
        found = self._index.get(text)
        if found is None:
            found = len(self.strings)
            self.strings.append(text)
            self._index[text] = found
        return found

    def _track(self, item: tuple[str, str]) -> int:
        found = self._track_index.get(item)
        if found is None:
            found = len(self.track_items)
            self.track_items.append(item)
            self._track_index[item] = found
        return found

    def _step(self, st: Step) -> int:
        found = self._step_index.get(st)
        if found is None:
            if st.op not in OPS:
                raise Unsupported(f"the kernel does not know the word '{st.op}'")
            found = len(self.steps)
            self.steps.append(st)
            self._step_index[st] = found
            if st.op == "shift_off":
                kind = "die" if st.get("die") else "component"
                self._track((kind, str(st.get(kind, ""))))
            if st.op in ("give_status", "_status"):
                self._s(str(st.get("group", "")))
                self._s(str(st.get("card", "")))
        return found

    def _seq(self, steps: tuple[Step, ...]) -> int:
        found = self._seq_index.get(steps)
        if found is None:
            for st in steps:
                self._step(st)
            found = len(self.seqs)
            self.seqs.append(steps)
            self._seq_index[steps] = found
        return found

    def _ability(self, a: Ability) -> int:
        found = self._ability_index.get(a)
        if found is None:
            self._seq(a.steps)
            found = len(self.abilities)
            self.abilities.append(a)
            self._ability_index[a] = found
            if a.id not in self.ability_ids:
                self.ability_ids.append(a.id)
        return found

    def _hooks(self, hooks: Iterable[CardHook]) -> list[int]:
        out = []
        for hook in hooks:
            kind = self.hook_types.get(hook.name)
            if kind is None or type(hook) is not kind:
                raise Unsupported(f"the kernel does not know the hook '{hook.name}'")
            index = HOOKS.index(hook.name)
            known = self.hook_numbers.setdefault(index, hook.numbers)
            if known != hook.numbers:
                raise Unsupported(
                    f"two cards of the game play the hook '{hook.name}' by different numbers"
                )
            out.append(index)
        return out

    def _card(self, card: CharacterCard) -> int:
        found = self._card_index.get(card)
        if found is None:
            for a in card.abilities:
                self._ability(a)
            self._hooks(card.hooks)
            found = len(self.cards)
            self.cards.append(card)
            self._card_index[card] = found
        return found

    # -- the kernel's rules ------------------------------------------------------------

    def _ints(self, st: Step) -> tuple[int, ...]:
        def plain(name: str) -> int:
            v = st.get(name)
            return (
                v
                if isinstance(v, int) and not isinstance(v, bool) and -30000 < v < 30000
                else NIL16
            )

        reach = st.get("range")
        rng = int(reach) if isinstance(reach, int) and -30000 < reach < 30000 else NIL16
        return (
            plain("squares"),
            rng,
            plain("dice"),
            plain("within"),
            plain("amount"),
            plain("extra_vs_knocked_down"),
        )

    def _step_row(self, st: Step) -> tuple[Any, ...]:
        target = st.get("target")
        bonus = st.get("bonus")
        token_role = 0
        if st.op == "place_token":
            try:
                token_role = ROLES.index(Role(str(st.get("token", ""))))
            except ValueError:
                raise Unsupported(f"an unknown token '{st.get('token')}'") from None
        card = str(st.get("card", ""))
        kinds = 0
        if st.op == "shift_down":
            for word in str(st.get("kinds", "")).split(","):
                for k in SHIFTABLE.get(word.strip(), ()):
                    kinds |= 1 << TRACK_KINDS.index(k)
        shift_item = -1
        if st.op == "shift_off":
            kind = "die" if st.get("die") else "component"
            shift_item = self._track_index[(kind, str(st.get(kind, "")))]
        return (
            OPS.index(st.op),
            *self._ints(st),
            {None: 0, "different": 1, "same": 2}.get(target, 3)
            if isinstance(target, str) or target is None
            else 3,
            {None: 0, "target_defense": 1, "highest_point_marker": 2}.get(bonus, 3)
            if isinstance(bonus, str) or bonus is None
            else 3,
            bool(st.get("optional", False)),
            bool(st.get("if_won")),
            str(st.get("only", "")) == "point_marker",
            token_role,
            self.status_index.get(card, -1) if card else -1,
            self._s(card) if card else -1,
            self._s(str(st.get("group", ""))),
            kinds,
            shift_item,
        )

    def _build(self, state: GameState) -> dict[str, Any]:
        setup = self.setup
        s = self._s
        # cards in play (or to draft), the setup's status cards, items and companions
        for piece in state.pieces.values():
            if piece.card is not None:
                self._card(piece.card)
        self._first: dict[str, int] = {}  # each card of the draft's pool: its first entry
        for i, drafted in enumerate(self.draft.characters if self.draft is not None else ()):
            self._card(drafted)
            self._first.setdefault(drafted.id, i)
        statuses = []
        groups: list[str] = []
        for card in setup.statuses.values():
            own = [self._ability(a) for a in card.abilities]
            statuses.append((s(card.id), s(card.name), s(card.group), own, self._hooks(card.hooks)))
            if card.group not in groups:
                groups.append(card.group)
        items = []
        for i, (iid, item) in enumerate(setup.items.items()):
            items.append(
                (
                    s(iid),
                    s(item.name),
                    i,
                    item.cost,
                    item.challenge_action,
                    item.basic_action,
                    self._seq(item.steps),
                )
            )
        actions: list[tuple[Any, ...]] = []
        companions = []
        self.companion_ids = list(setup.companions)
        for cid, comp in setup.companions.items():
            own = []
            for action in comp.actions:
                if action.id not in self.action_ids:
                    self.action_ids.append(action.id)
                own.append(len(actions))
                actions.append(
                    (
                        s(action.id),
                        s(action.name),
                        self.action_ids.index(action.id),
                        action.cost,
                        action.challenge_action,
                        action.basic_action,
                        self._seq(action.steps),
                    )
                )
            companions.append((s(cid), own))
        self.bonus_ids = list(setup.bonus_objectives)
        bonuses = [(s(b.id), s(b.name), b.points) for b in setup.bonus_objectives.values()]
        # the steps hooks and the scenario ask with
        specials = {
            "step_move1": self._step(step("move", squares=1)),
            "step_champion": self._step(Step("champion")),
            "step_blood": self._step(Step("blood")),
            "step_tunnel": self._step(Step("tunnel")),
            "step_shift_off_token": self._step(Step("shift_off_token")),
            "step_flag_return": self._step(Step("flag_return")),
        }
        for st in list(self.steps):
            if st.op == "give_status":
                g = str(st.get("group", ""))
                if g not in groups:
                    groups.append(g)
        status_steps = {g: self._step(Step("_status", (("group", g),))) for g in groups}
        # frames already on the stack name their steps too
        for frame in state.stack:
            if isinstance(frame, fr.StepsFrame):
                self._seq(frame.steps)
            elif isinstance(frame, fr.ChoiceFrame):
                self._step(frame.step)
        # the words events and choices use
        for a in self.abilities:
            s(a.id)
            s(a.name)
        cards = []
        for c in self.cards:
            cards.append(
                (
                    s(c.id),
                    s(c.name),
                    c.defense,
                    c.basic,
                    c.elusive,
                    [self._ability_index[a] for a in c.abilities],
                    self._hooks(c.hooks),
                )
            )
        abilities = [
            (
                s(a.id),
                s(a.name),
                self.ability_ids.index(a.id),
                COLORS.index(TokenColor(a.color)),
                a.cost,
                a.cost_vs_knocked_down,
                a.challenge_action,
                a.while_knocked_down,
                a.while_knocked_out,
                a.declare_target,
                self._seq_index[a.steps],
            )
            for a in self.abilities
        ]
        steps_rows = [self._step_row(st) for st in self.steps]
        for color in COLORS:
            s(color.value)
        words = []
        draft_names = {
            pid: c.name
            for c in (self.draft.characters if self.draft is not None else ())
            for pid in (c.id, *(f"{c.id}-{side}" for side in self.seats))
        }
        for kind, ref in self.track_items:
            if kind == "character" and ref not in state.pieces and ref in draft_names:
                words.append(s(draft_names[ref]))  # a piece the draft may make: its card's name
            else:
                words.append(s(track_module.describe(state, (kind, ref))))
        track_items = []
        for (thing, ref), w in zip(self.track_items, words, strict=True):
            holder = (
                self.piece_index.get(ref, -1)
                if thing in ("character", "companion", "point")
                else -1
            )
            hue = COLORS.index(TokenColor(ref)) if thing == "token" else 0
            track_items.append((TRACK_KINDS.index(thing), s(ref), w, holder, hue))
        sc = setup.scenario
        target = sc.points_to_win(state)
        per_side = max((len(t.characters) for t in setup.teams), default=0)
        sneaking = setup.statuses.get("sneaking")
        misc = [s(m if m is not None else sneaking.name if sneaking else "Sneaking") for m in MISC]
        hook_title = []
        hook_name = []
        for name in HOOKS:
            shipped = self.hook_types.get(name)
            hook_name.append(s(name))
            hook_title.append(s((shipped.title or shipped.name) if shipped is not None else name))
        leader_why = []
        for who in ("ally", "leader"):
            for whom in ("rival", "leader"):
                why = {"leader": "your leader", "ally": "your leader's ally"}[who]
                words_ = {"leader": "a rival leader", "rival": "a rival"}[whom]
                leader_why.append(s(f"{why} knocks out {words_}"))
        status_in_play = [
            s(f"the {setup.statuses[sid].name} status card is in play") for sid in self.status_ids
        ]
        group_every = {g: s(f"every {g} status card is in play") for g in groups}
        point_why = {}
        for pid, piece in state.pieces.items():
            if piece.role is Role.POINT:
                point_why[pid] = s(f"point marker {piece.ref}")
        for piece in state.pieces.values():
            if piece.ref:
                s(piece.ref)
            if piece.owner:
                s(piece.owner)
        for letter in setup.board.point_squares:
            s(letter)
        areas = sorted(control_areas(state).items())
        control = [(s(name), list(squares)) for name, squares in areas]
        self.control_names = [name for name, _ in areas]
        role_name = [s(TOKEN_NAMES.get(r, r.value)) for r in ROLES]
        for d in self.dice_ids:
            s(d)
        s("?")
        draft = self._draft_rules()
        # every string is in; now the maps from strings
        n = len(self.strings)

        def by_string(mapping: dict[str, int]) -> list[int]:
            out = [-1] * n
            for text, value in mapping.items():
                if text in self._index:
                    out[self._index[text]] = value
            return out

        leaders = leader_squares(state)
        board = setup.board
        spec = {
            "strings": self.strings,
            "nsides": len(self.seats),
            "side_str": [s(x) for x in self.seats],
            "side_rank": [sorted(self.seats).index(x) for x in self.seats],
            "start_area": [
                list(
                    next(
                        (board.start_areas.get(t.area, ()) for t in setup.teams if t.side == side),
                        (),
                    )
                )
                for side in self.seats
            ],
            "ultimate": [
                any(t.ultimate for t in setup.teams if t.side == side) for side in self.seats
            ],
            "steps": steps_rows,
            "seqs": [[self._step_index[st] for st in seq] for seq in self.seqs],
            "abilities": abilities,
            "cards": cards,
            "statuses": statuses,
            "items": items,
            "actions": actions,
            "companions": companions,
            "bonuses": bonuses,
            "track_items": track_items,
            "dice_ids": [s(d) for d in self.dice_ids],
            "die_standard": self.dice_index.get("standard", -1),
            "die_champion": self.dice_index.get("champion", -1),
            "die_blood": self.dice_index.get("blood", -1),
            "scenario": (
                sc.point_markers,
                sc.adjacent_knockout_points,
                sc.first_knockout_wins,
                sc.immediate_target,
                sc.flags,
                sc.leaders,
                sc.control,
                sc.knockout_points,
                NIL if sc.target_two is None else sc.target_two,
                NIL if sc.target_three is None else sc.target_three,
            ),
            "target_points": target if target is not None else NIL,
            "per_side": per_side,
            "npieces": len(self.piece_ids),
            "piece_id": [s(p) for p in self.piece_ids],
            "piece_rank": self.piece_rank,
            "piece_of_string": by_string(self.piece_index),
            "companion_of_string": by_string({c: i for i, c in enumerate(self.companion_ids)}),
            "bonus_of_string": by_string({b: i for i, b in enumerate(self.bonus_ids)}),
            "status_of_string": by_string(self.status_index),
            "item_of_string": by_string(self.item_index),
            "point_square_of_string": by_string(dict(board.point_squares)),
            "flag_square": [-1] * len(self.seats),
            "leader_square": [leaders.get(side, -1) for side in self.seats],
            "control_areas": control,
            "s_empty": s(""),
            "hook_name": hook_name,
            "hook_numbers": [
                [value for _, value in self.hook_numbers.get(i, ())] for i in range(len(HOOKS))
            ],
            "hook_title": hook_title,
            "color_str": [s(c.value) for c in COLORS],
            "status_in_play_why": status_in_play,
            "group_every_why": by_string(group_every),
            "point_marker_why": [point_why.get(p, -1) for p in self.piece_ids],
            "leader_why": leader_why,
            "misc": misc,
            "role_name": role_name,
            **specials,
            "status_step_of_group": by_string(status_steps),
            "champion_item": self._track_index[("die", "champion")],
            "blood_item": self._track_index[("component", "blood")],
            "token_item": [self._track_index[("token", c.value)] for c in COLORS],
            "item_track_item": [self._track_index[("item", i)] for i in self.item_ids],
            "piece_track_item": self.piece_track,
            "draft": draft,
        }
        if len(self.strings) != n:  # pragma: no cover - a string interned too late
            raise AssertionError("the kernel's strings changed after they were numbered")
        return spec

    # -- positions -----------------------------------------------------------------------

    def _sid(self, text: str | None) -> int:
        """A string the kernel knows, -1 for None and ""."""
        if not text:
            return -1
        found = self._index.get(text)
        if found is None:
            raise Unsupported(f"the kernel's tables do not name '{text}'")
        return found

    def _seat(self, side: str | None) -> int:
        if side is None or side == "":
            return -1
        found = self.seat_index.get(side)
        if found is None:
            raise Unsupported(f"'{side}' is not a seat of the tables' setup")
        return found

    def _places(self, state: GameState) -> dict[str, int]:
        """Each piece's place in `state` (the kernel's index of it): the tables' numbering, or,
        once a draft has made the teams' pieces in the order picked, the position's own."""
        ids = tuple(state.pieces)
        if ids == self.piece_ids:
            return self.piece_index
        known = self.piece_index
        if (
            self.draft is None
            or ids[: len(self.game_pieces)] != self.game_pieces
            or any(pid not in known for pid in ids)
        ):
            raise Unsupported("the position's pieces are not the setup's")
        return {pid: i for i, pid in enumerate(ids)}

    def _ids(self, pieces: Sequence[tuple[Any, ...]]) -> tuple[str, ...]:
        """The ids of a dump's pieces, in the position's order."""
        if self.draft is None:
            return self.piece_ids
        st = self.strings
        return tuple([st[row[4]] for row in pieces])

    def _chosen(self, state: GameState, seat: str) -> tuple[list[int], list[tuple[int, int]]]:
        """A side's picks and gifts as the kernel's (pool entries; item, holder's entry): the
        draft's until the reveal, then its team's."""
        side = state.sides[seat]
        if self.draft is None:
            if side.picks or side.gifts:
                raise Unsupported("picks of a draft the tables do not hold")
            return [], []
        picks, gifts = side.picks, side.gifts
        if state.setup.draft is None:  # revealed: the team is what the side chose
            team = next((t for t in state.setup.teams if t.side == seat), None)
            picks = tuple(c.id for c in team.characters) if team is not None else ()
            gifts = team.items if team is not None else ()
        first, items = self._first, self.item_index
        if any(c not in first for c in picks) or any(
            i not in items or h not in first for i, h in gifts
        ):
            raise Unsupported("a pick that is not in the draft's pool")
        return [first[c] for c in picks], [(items[i], first[h]) for i, h in gifts]

    def dump_state(self, state: GameState) -> tuple[Any, ...]:
        """`state` as the kernel's tuples (`Kernel.load`); `Unsupported` for a position the
        tables cannot hold (a piece, card, item, track item or frame they do not name)."""
        if state.gone:
            # Free-for-All: a seat that left is the Python engine's alone (rules/play/leaving.py)
            raise Unsupported(f"{', '.join(state.gone)} left the free-for-all")
        index = self._places(state)
        card_index = self._card_index
        status_index = self.status_index
        item_index = self.item_index
        pieces = []
        for pid, p in state.pieces.items():
            card = -1
            if p.card is not None:
                card = card_index.get(p.card, -1)
                if card < 0:
                    raise Unsupported(f"a card the tables do not hold ({p.card.id})")
            pieces.append(
                (
                    -1 if p.square is None else p.square,
                    card,
                    self._sid(p.owner),
                    self._sid(p.ref),
                    self._index[pid],
                    self.piece_rank[self.piece_index[pid]],
                    self._seat(p.side),
                    KINDS.index(p.kind),
                    ROLES.index(p.role),
                    -1 if p.defense is None else p.defense,
                    p.markers,
                    p.needed,
                    p.standing,
                    p.exhausted,
                    p.elusive,
                    p.placed,
                    [_known(status_index, x, "status card") for x in p.statuses],
                    [_known(item_index, x, "item") for x in p.items],
                )
            )
        sides = []
        for seat in self.seats:
            side = state.sides[seat]
            picks, gifts = self._chosen(state, seat)
            pool = [side.pool.get(c, 0) for c in COLORS]
            order = [COLORS.index(TokenColor(c)) for c in side.pool]
            slots = [
                [_known(self._track_index, item, "track item") for item in slot]
                for slot in side.track
            ]
            sides.append(
                (
                    pool,
                    order,
                    slots,
                    side.points,
                    -1 if side.leader is None else self._s_known(side.leader),
                    [_known(index, p, "piece") for p in side.returned],
                    picks,
                    gifts,
                )
            )
        stack = [self._frame(f, index) for f in state.stack]
        acting = state.acting
        header = (
            self._seat(state.first_player),
            self._seat(state.to_act),
            self._seat(state.winner),
            PHASES.index(state.phase),
            _known(index, state.active, "piece") if state.active else -1,
            state.actions_left,
            state.round,
            state.turns,
            state.leaders_revealed,
            _known(index, state.companion_used, "piece") if state.companion_used else -1,
            -1 if acting is None else _known(index, acting[0], "piece"),
            [] if acting is None else [_known(status_index, x, "status card") for x in acting[1]],
        )
        return (header, pieces, sides, stack)

    def _s_known(self, text: str) -> int:
        found = self._index.get(text)
        if found is None:
            raise Unsupported(f"the kernel's tables do not name '{text}'")
        return found

    def _frame(self, f: fr.Frame, index: dict[str, int]) -> tuple[Any, ...]:
        blank = dict(
            piece=-1,
            source=-1,
            seq=-1,
            pc=0,
            target=-1,
            started=True,
            won=-1,
            targets=[],
            chosen=-1,
            side=-1,
            step=-1,
            optional=False,
            hook=H_NONE,
            stage=0,
            attack=[],
            defense=[],
            asked=[],
            pieces=[],
        )
        if isinstance(f, fr.StepsFrame):
            seq = self._seq_index.get(f.steps)
            if seq is None:
                raise Unsupported("an ability the tables do not hold")
            blank.update(
                type=F_STEPS,
                piece=_known(index, f.piece, "piece"),
                source=self._s_known(f.source) if f.source else self._index[""],
                seq=seq,
                pc=f.pc,
                target=-1 if f.target is None else self._s_known(f.target),
                started=f.started_standing,
                won=-1 if f.won is None else int(f.won),
                targets=[self._s_known(t) for t in f.targets],
                chosen=-1 if f.chosen is None else self._s_known(f.chosen),
            )
        elif isinstance(f, fr.ChoiceFrame):
            step_index = self._step_index.get(f.step)
            if step_index is None:
                raise Unsupported(f"a decision the tables do not hold ({f.step.op})")
            if f.hook and f.hook != "scenario" and f.hook not in HOOKS:
                raise Unsupported(f"a decision of a hook the kernel does not know ({f.hook})")
            hook = (
                H_NONE
                if not f.hook
                else H_SCENARIO
                if f.hook == "scenario"
                else HOOKS.index(f.hook)
            )
            blank.update(
                type=F_CHOICE,
                side=self._seat(f.decider),
                step=step_index,
                piece=_known(index, f.piece, "piece") if f.piece else -1,
                optional=f.optional,
                hook=hook,
            )
        elif isinstance(f, fr.RollFrame):
            asked = []
            for key in f.asked:
                owner, _, name = key.rpartition("/")
                if name not in HOOKS:
                    raise Unsupported(f"a hook the kernel does not know ({name})")
                asked.append(_known(index, owner, "piece") * len(HOOKS) + HOOKS.index(name))
            blank.update(
                type=F_ROLL,
                piece=_known(index, f.challenger, "piece"),
                target=_known(index, f.target, "piece"),
                attack=[_known(self.dice_index, d, "die") for d in f.attack],
                defense=[_known(self.dice_index, d, "die") for d in f.defense],
                source=self._s_known(f.source),
                asked=asked,
            )
        elif isinstance(f, fr.ReturnFrame):
            blank.update(
                type=F_RETURN,
                side=self._seat(f.side),
                pieces=[_known(index, p, "piece") for p in f.pieces],
            )
        elif isinstance(f, fr.TurnStartFrame):
            blank.update(type=F_TURN_START, piece=_known(index, f.piece, "piece"))
        else:
            blank.update(type=F_ROUND_END, stage=f.stage)
        b = blank
        return (
            b["type"],
            b["piece"],
            b["source"],
            b["seq"],
            b["pc"],
            b["target"],
            b["started"],
            b["won"],
            b["targets"],
            b["chosen"],
            b["side"],
            b["step"],
            b["optional"],
            b["hook"],
            b["stage"],
            b["attack"],
            b["defense"],
            b["asked"],
            b["pieces"],
        )

    def state(self, kernel: Any, setup: Setup | None = None) -> GameState:
        """The kernel's position as the Python engine's `GameState` (of `setup`, or the one
        the tables were built for)."""
        return self.mirror(kernel, setup or self.setup)[0]

    def mirror(self, kernel: Any, setup: Setup) -> tuple[GameState, Seen]:
        """`state`, with what it was read from (for `refresh`). Past a draft's reveal, the
        position's setup is `setup` with the chosen teams."""
        seen = Seen()
        header, pieces, sides, stack = kernel.changes(seen.shadow)  # all of it, the first time
        rows = [row for _, row in pieces]
        ids = self._ids(rows)
        drafting = seen.drafting = header[3] <= DRAFTING
        side_rows = [row for _, row in sides]
        game = GameState.__new__(GameState)
        game.setup = setup if drafting else self._revealed(setup, side_rows)
        game.board = setup.board
        game.seats = self.seats
        game.gone = ()  # the kernel holds no seat that left (`dump_state` refuses one)
        game.pieces = {}
        for row in rows:
            piece = Piece.__new__(Piece)
            self._fill_piece(piece, row)
            game.pieces[piece.id] = piece
        game.sides = {
            seat: self._side(row, ids, drafting)
            for seat, row in zip(self.seats, side_rows, strict=True)
        }
        self._fill_header(game, header, ids)
        game.stack = [self._py_frame(f, ids) for f in stack]
        return game, seen

    def refresh(self, kernel: Any, state: GameState, seen: Seen) -> None:
        """Bring `state` (read from the kernel as `seen` says) up to the kernel's position in
        place: the same piece and side objects, as the Python engine keeps them, so whoever
        holds one sees the game go on. Only what changed is read (`Kernel.changes`)."""
        header, pieces, sides, stack = kernel.changes(seen.shadow)
        by_id = state.pieces
        if pieces:
            order = list(by_id)
            for i, row in pieces:
                if i < len(order):
                    self._fill_piece(by_id[order[i]], row)
                else:
                    piece = Piece.__new__(Piece)
                    self._fill_piece(piece, row)
                    by_id[piece.id] = piece
        ids = self.piece_ids if self.draft is None else tuple(by_id)
        was_drafting = seen.drafting
        drafting = was_drafting if header is None else header[3] <= DRAFTING
        seen.drafting = drafting
        if drafting != was_drafting or (not drafting and state.setup.draft is not None):
            # the reveal: every side is read again, and the teams are the ones chosen
            sides = list(enumerate(kernel.dump()[2]))
            if not drafting and state.setup.draft is not None:
                state.setup = self._revealed(state.setup, [row for _, row in sides])
        for i, row in sides:
            fresh = self._side(row, ids, drafting)
            side = state.sides[self.seats[i]]
            side.pool.clear()
            side.pool.update(fresh.pool)
            side.track[:] = fresh.track
            side.points = fresh.points
            side.picks = fresh.picks
            side.gifts = fresh.gifts
            side.leader = fresh.leader
            side.returned = fresh.returned
        if header is not None:
            self._fill_header(state, header, ids)
        if stack is not None:
            state.stack[:] = [self._py_frame(f, ids) for f in stack]

    def _revealed(self, setup: Setup, sides: Sequence[tuple[Any, ...]]) -> Setup:
        """`setup` once its draft is revealed, the teams as the kernel's sides chose them (one
        object for one outcome, as the Python engine keeps one)."""
        if setup.draft is None:
            return setup
        chosen = {seat: self._picks(row) for seat, row in zip(self.seats, sides, strict=True)}
        key = (id(setup), tuple(chosen.items()))
        found = self._reveals.get(key)
        if found is None or found[0] is not setup:
            found = (setup, setup_phase.revealed(setup, self.seats, chosen))
            self._reveals[key] = found
        return found[1]

    def _picks(self, row: tuple[Any, ...]) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
        """A side's picks and gifts in the kernel's dump, as card and item ids."""
        draft = self.draft
        if draft is None:
            return (), ()
        pool = draft.characters
        picks, gifts = row[6], row[7]
        return (
            tuple([pool[e].id for e in picks]),
            tuple([(self.item_ids[i], pool[h].id) for i, h in gifts]),
        )

    def _fill_piece(self, piece: Piece, row: tuple[Any, ...]) -> None:
        (square, card, owner, ref, pid, _rank, side, kind, role, defense, markers, needed, standing,
         exhausted, elusive, placed, statuses, items) = row  # fmt: skip
        st = self.strings
        piece.id = st[pid]
        piece.kind = KINDS[kind]
        piece.side = self.seats[side] if side >= 0 else ""
        piece.card = self.cards[card] if card >= 0 else None
        piece.square = square if square >= 0 else None
        piece.standing = standing
        piece.exhausted = exhausted
        piece.defense = defense if defense >= 0 else None
        piece.elusive = elusive
        piece.placed = placed
        piece.statuses = tuple([self.status_ids[x] for x in statuses]) if statuses else ()
        piece.items = tuple([self.item_ids[x] for x in items]) if items else ()
        piece.owner = st[owner] if owner >= 0 else ""
        piece.markers = markers
        piece.needed = needed
        piece.role = ROLES[role]
        piece.ref = st[ref] if ref >= 0 else ""

    def _side(self, row: tuple[Any, ...], ids: tuple[str, ...], drafting: bool) -> SideState:
        pool, order, slots, points, leader, returned, _, _ = row
        items = self.track_items
        picks, gifts = self._picks(row) if drafting else ((), ())  # the teams hold them after
        return SideState(
            {COLORS[c]: pool[c] for c in order},
            [[items[i] for i in slot] for slot in slots],
            points,
            picks,
            gifts,
            self.strings[leader] if leader >= 0 else None,
            tuple([ids[p] for p in returned]) if returned else (),
        )

    def _fill_header(self, game: GameState, header: tuple[Any, ...], ids: tuple[str, ...]) -> None:
        (first, to_act, winner, phase, active, actions_left, rnd, turns, revealed, companion_used,
         acting, acting_statuses) = header  # fmt: skip
        seats = self.seats
        game.first_player = seats[first] if first >= 0 else None
        game.to_act = seats[to_act] if to_act >= 0 else None
        game.winner = seats[winner] if winner >= 0 else None
        game.phase = PHASES[phase]
        game.active = ids[active] if active >= 0 else None
        game.actions_left = actions_left
        game.round = rnd
        game.turns = turns
        game.leaders_revealed = revealed
        game.companion_used = ids[companion_used] if companion_used >= 0 else None
        game.acting = (
            (ids[acting], tuple([self.status_ids[x] for x in acting_statuses]))
            if acting >= 0
            else None
        )

    def _py_frame(self, f: tuple[Any, ...], ids: tuple[str, ...]) -> fr.Frame:
        (kind, piece, source, seq, pc, target, started, won, targets, chosen, side, step_index, optional,
         hook, stage, attack, defense, asked, pieces) = f  # fmt: skip
        st = self.strings
        if kind == F_STEPS:
            return fr.StepsFrame(
                ids[piece],
                st[source] if source >= 0 else "",
                self.seqs[seq],
                pc,
                st[target] if target >= 0 else None,
                started,
                None if won < 0 else bool(won),
                tuple(st[t] for t in targets),
                st[chosen] if chosen >= 0 else None,
            )
        if kind == F_CHOICE:
            return fr.ChoiceFrame(
                self.seats[side],
                self.steps[step_index],
                ids[piece] if piece >= 0 else "",
                optional,
                "" if hook == H_NONE else "scenario" if hook == H_SCENARIO else HOOKS[hook],
            )
        if kind == F_ROLL:
            return fr.RollFrame(
                ids[piece],
                ids[target],
                tuple(self.dice_ids[d] for d in attack),
                tuple(self.dice_ids[d] for d in defense),
                st[source],
                tuple(f"{ids[k // len(HOOKS)]}/{HOOKS[k % len(HOOKS)]}" for k in asked),
            )
        if kind == F_RETURN:
            return fr.ReturnFrame(self.seats[side], tuple(ids[p] for p in pieces))
        if kind == F_TURN_START:
            return fr.TurnStartFrame(ids[piece])
        return fr.RoundEndFrame(stage)

    # -- choices and events --------------------------------------------------------------

    def choice(self, c: int) -> Choice:
        """The choice a code stands for."""
        found = self._choices.get(c)
        if found is None:
            found = self._decode(c)
            self._choices[c] = found
            self._codes.setdefault(found, c)
        return found

    def choices(self, codes: Sequence[int]) -> list[Choice]:
        get = self._choices.get
        out = []
        for c in codes:
            found = get(c)
            out.append(found if found is not None else self.choice(c))
        return out

    def _decode(self, c: int) -> Choice:
        kind, a, b = c & 0xFF, (c >> 8) & 0x7FF, (c >> 19) & 0x7FF
        pid, label = self.piece_ids, self.labels
        if kind == C_FIRST_PLAYER:
            return FirstPlayer(self.seats[a])
        if kind == C_ROLL_OUTCOME:
            return RollOutcome(bool(a))
        if kind == C_LEADER:
            return Leader(pid[a])
        if kind == C_PLACE:
            return Place(pid[a], label[b])
        if kind == C_RETURN:
            return Return(pid[a], label[b])
        if kind == C_CHOOSE:
            return Choose(pid[a])
        if kind == C_MOVE:
            return Move(label[a])
        if kind == C_CHALLENGE:
            return Challenge(pid[a])
        if kind == C_ASSIST:
            return Assist(pid[a])
        if kind == C_INTERACT:
            return Interact(pid[a])
        if kind == C_COMPLETE_BONUS:
            return CompleteBonus(pid[a])
        if kind == C_PLACE_CONTROL:
            return PlaceControl(self.control_names[a], label[b])
        if kind == C_FLIP_CONTROL:
            return FlipControl(self.control_refs[a])
        if kind == C_USE_ABILITY:
            return UseAbility(self.ability_ids[a], pid[b - 1] if b else None)
        if kind == C_USE_ITEM:
            return UseItem(self.item_ids[a])
        if kind == C_COMPANION_ACTION:
            return CompanionAction(self.action_ids[a], free=bool(b))
        if kind == C_RALLY:
            return Rally()
        if kind == C_END:
            return End()
        if kind == C_SKIP:
            return Skip()
        if kind == C_TARGET:
            return Target(pid[a])
        if kind == C_PUSH:
            return Push(pid[a], label[b])
        if kind == C_PULL:
            return Pull(pid[a], label[b])
        if kind == C_CARRY:
            return Carry(pid[a])
        if kind == C_PUT:
            return Put(label[a])
        if kind == C_PLACE_TOKEN:
            return PlaceToken(pid[a], label[b])
        if kind == C_GIVE_STATUS:
            return GiveStatus(self.status_ids[a])
        if kind == C_SHIFT_DOWN:
            thing, what = self.track_items[a]
            return ShiftDown(thing, what, b)
        if kind == C_SHIFT_OFF:
            return ShiftOff(COLORS[a].value, b)
        if kind == C_MINION_CHALLENGE:
            return MinionChallenge(pid[a], pid[b])
        if kind == C_FLAG_RETURN:
            return FlagReturn(pid[a])
        if kind == C_OPTION:
            return OPTIONS[a]
        if kind == C_PICK and self.draft is not None:
            return Pick(self.draft.characters[a].id)
        if kind == C_GIVE and self.draft is not None:
            return Give(self.item_ids[a], self.draft.characters[b].id)
        raise ValueError(f"no choice has the code {c}")

    def code(self, choice: Choice) -> int | None:
        """The code of a choice; None when nothing in this game could be it."""
        found = self._codes.get(choice)
        if found is not None:
            return found
        try:
            found = self._encode(choice)
        except (KeyError, ValueError, IndexError):
            return None
        if found is not None:
            self._codes[choice] = found
        return found

    def _encode(self, c: Choice) -> int | None:
        pi = self.piece_index
        sq = self.board.index_of
        if isinstance(c, Move):
            return _two(C_MOVE, sq(c.square))
        if isinstance(c, Target):
            return code(C_TARGET, pi[c.piece])
        if isinstance(c, End):
            return code(C_END)
        if isinstance(c, Choose):
            return code(C_CHOOSE, pi[c.piece])
        if isinstance(c, RollOutcome):
            return code(C_ROLL_OUTCOME, int(c.won))
        if isinstance(c, Challenge):
            return code(C_CHALLENGE, pi[c.target])
        if isinstance(c, Place):
            return _two(C_PLACE, pi[c.piece], sq(c.square))
        if isinstance(c, Return):
            return _two(C_RETURN, pi[c.piece], sq(c.square))
        if isinstance(c, FirstPlayer):
            return code(C_FIRST_PLAYER, self.seat_index[c.side])
        if isinstance(c, Leader):
            return code(C_LEADER, pi[c.piece])
        if isinstance(c, Assist):
            return code(C_ASSIST, pi[c.ally])
        if isinstance(c, Interact):
            return code(C_INTERACT, pi[c.thing])
        if isinstance(c, CompleteBonus):
            return code(C_COMPLETE_BONUS, pi[c.piece])
        if isinstance(c, PlaceControl):
            return _two(C_PLACE_CONTROL, self.control_names.index(c.area), sq(c.square))
        if isinstance(c, FlipControl):
            for p, ref in self.control_refs.items():
                if ref == c.number:
                    return code(C_FLIP_CONTROL, p)
            return None
        if isinstance(c, UseAbility):
            target = 0 if c.target is None else pi[c.target] + 1
            return code(C_USE_ABILITY, self.ability_ids.index(c.ability), target)
        if isinstance(c, UseItem):
            return code(C_USE_ITEM, self.item_index[c.item])
        if isinstance(c, CompanionAction):
            return code(C_COMPANION_ACTION, self.action_ids.index(c.action), int(c.free))
        if isinstance(c, Rally):
            return code(C_RALLY)
        if isinstance(c, Skip):
            return code(C_SKIP)
        if isinstance(c, Push):
            return _two(C_PUSH, pi[c.piece], sq(c.square))
        if isinstance(c, Pull):
            return _two(C_PULL, pi[c.piece], sq(c.square))
        if isinstance(c, Carry):
            return code(C_CARRY, pi[c.piece])
        if isinstance(c, Put):
            return _two(C_PUT, sq(c.square))
        if isinstance(c, PlaceToken):
            return _two(C_PLACE_TOKEN, pi[c.token], sq(c.square))
        if isinstance(c, GiveStatus):
            return code(C_GIVE_STATUS, self.status_index[c.card])
        if isinstance(c, ShiftDown):
            return (
                code(C_SHIFT_DOWN, self._track_index[(c.thing, c.what)], c.at)
                if 0 < c.at < 2048
                else None
            )
        if isinstance(c, ShiftOff):
            return (
                code(C_SHIFT_OFF, COLORS.index(TokenColor(c.color)), c.at)
                if 0 < c.at < 2048
                else None
            )
        if isinstance(c, MinionChallenge):
            return code(C_MINION_CHALLENGE, pi[c.minion], pi[c.target])
        if isinstance(c, FlagReturn):
            return code(C_FLAG_RETURN, pi[c.piece])
        if isinstance(c, Option):
            return code(C_OPTION, OPTIONS.index(c)) if c in OPTIONS else None
        if isinstance(c, Pick):
            return code(C_PICK, self._first[c.character])
        if isinstance(c, Give):
            return code(C_GIVE, self.item_index[c.item], self._first[c.holder])
        return None

    def decode(self, raw: bytes) -> tuple[Event, ...]:
        """The kernel's record of one choice (its events' bytes) as `Event` values."""
        return tuple(self.events(raw)) if raw else ()

    def events(self, raw: bytes) -> list[Event]:
        """The kernel's events (`Kernel.events`: their structs' bytes) as the engine's
        `Event` values."""
        st = self.strings
        label = self.labels
        out = []
        for (
            kind,
            secret,
            piece,
            other,
            side,
            card,
            name,
            source,
            rule,
            square,
            origin,
            number,
            total,
            count,
            *picked,
        ) in EVENT_ROW.iter_unpack(raw):
            names = picked[:count]
            out.append(
                Event(
                    EVENT_KINDS[kind],
                    piece=st[piece] if piece >= 0 else None,
                    other=st[other] if other >= 0 else None,
                    side=st[side] if side >= 0 else None,
                    square=label[square] if square >= 0 else None,
                    origin=label[origin] if origin >= 0 else None,
                    number=None if number == NIL else number,
                    total=None if total == NIL else total,
                    card=st[card] if card >= 0 else None,
                    name=st[name] if name >= 0 else None,
                    source=st[source] if source >= 0 else None,
                    secret=secret,
                    rule=st[rule] if rule >= 0 else None,
                    names=tuple([st[n] for n in names]) if names else (),
                )
            )
        return out


CHALLENGES = ("challenge", "challenge_each", "minion_challenge")


def _placements(st: Step) -> int:
    """The squares a step may place a token on: the pre-check tries a token on each."""
    if st.op == "place_token":
        reach = st.get("within")
        return (2 * reach + 1) ** 2 if isinstance(reach, int) and reach >= 0 else 1
    if st.op == "place_minion":
        return 9
    return 0


def _known(table: dict[Any, int], key: Any, what: str) -> int:
    """`table[key]`, or `Unsupported` naming what the tables do not hold."""
    found = table.get(key)
    if found is None:
        raise Unsupported(f"a {what} the kernel's tables do not hold ({key})")
    return found


def _two(kind: int, a: int | None, b: int | None = 0) -> int | None:
    if a is None or b is None:
        return None
    return code(kind, a, b)


# --------------------------------------------------------------------------- the tables of a setup

_TABLES: dict[tuple[Any, ...], Tables] = {}
_CACHE_SIZE = 512


def _signature(state: GameState) -> tuple[Any, ...]:
    """What the tables depend on: the map, the scenario, the teams, the setup's cards and
    dice (by identity: they come from the content's caches), and the pieces."""
    setup = state.setup
    draft = setup.draft
    return (
        id(setup.board),
        id(setup.scenario),
        tuple(
            (
                t.side,
                t.area,
                t.items,
                t.ultimate,
                t.companions,
                t.bonus,
                tuple(map(id, t.characters)),
            )
            for t in setup.teams
        ),
        tuple(map(id, setup.items.values())),
        tuple(setup.items),
        tuple(map(id, setup.statuses.values())),
        tuple(map(id, setup.companions.values())),
        tuple(map(id, setup.bonus_objectives.values())),
        tuple(map(id, setup.dice.values())),
        tuple(state.pieces),
        tuple(id(p.card) for p in state.pieces.values() if p.kind is not Kind.COMPANION),
        None
        if draft is None
        else (
            tuple(map(id, draft.characters)),
            draft.item_ids,
            draft.size,
            draft.items,
            draft.secret,
        ),
    )


def tables_for(state: GameState) -> Tables:
    """The kernel's tables for `state`'s setup and pieces (cached). `Unsupported` when the
    kernel does not play it."""
    if _kernel is None:
        raise Unsupported("the kernel was not built on this machine")
    key = _signature(state)
    tables = _TABLES.get(key)
    if tables is None:
        tables = Tables(state)  # it keeps the setup, so the identities in `key` stay its own
        if len(_TABLES) >= _CACHE_SIZE:
            _TABLES.pop(next(iter(_TABLES)))
        _TABLES[key] = tables
    return tables


def load(state: GameState) -> tuple[Tables, Any]:
    """A kernel holding `state` (a copy: the Python state is left as it is)."""
    tables = tables_for(state)
    kernel = _kernel.Kernel(tables.rules)
    try:
        kernel.load(tables.dump_state(state))
    except (ValueError, RuntimeError) as why:  # past one of the kernel's fixed limits
        raise Unsupported(str(why)) from None
    return tables, kernel


def unsupported(state: GameState) -> str | None:
    """Why the kernel cannot play `state`, or None when it can."""
    try:
        load(state)
    except Unsupported as why:
        return str(why)
    return None

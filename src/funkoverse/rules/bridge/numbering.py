"""The kernel's numbering: the orders, limits and strings both sides share (read from the
schema both are built from, `rules/core/schema.py`), what a choice's code is, and whether
the kernel was built on this machine."""

from __future__ import annotations

import struct

from funkoverse.rules.core import schema
from funkoverse.rules.core.cards import (
    TokenColor,
)
from funkoverse.rules.core.events import EventKind
from funkoverse.rules.core.pieces import Kind, Role
from funkoverse.rules.core.state import Phase

try:
    from funkoverse.rules import _kernel as _kernel
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

"""The compiled kernel (`funkoverse.rules._kernel`) as a twin of the Python engine.

The kernel plays the same game as `engine`, `menus`, `steps`, `vocabulary`, `scenario` and
the hooks of the shipped cards, on a flat state of integers: its legal choices are integer
codes, `apply` checks one code without listing the others, and a copy is one memcpy. The
bridge builds the kernel's tables from a `Setup` (`tables_for`; `building`), moves a
position into the kernel (`load`) and back (`Tables.state`, `Tables.refresh`; `positions`),
and reads its codes and events as the Python values they stand for (`Tables.choice`,
`Tables.code`, `Tables.events`; `codes`, `events`). What both sides number alike is read
from the schema both are built from (`numbering`, from `rules/core/schema.py`).

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

from funkoverse.rules.bridge.boards import board_tables
from funkoverse.rules.bridge.numbering import (
    C_ASSIST,
    C_CARRY,
    C_CHALLENGE,
    C_CHOOSE,
    C_COMPANION_ACTION,
    C_COMPLETE_BONUS,
    C_END,
    C_FIRST_PLAYER,
    C_FLAG_RETURN,
    C_FLIP_CONTROL,
    C_GIVE,
    C_GIVE_STATUS,
    C_INTERACT,
    C_LEADER,
    C_MINION_CHALLENGE,
    C_MOVE,
    C_OPTION,
    C_PICK,
    C_PLACE,
    C_PLACE_CONTROL,
    C_PLACE_TOKEN,
    C_PULL,
    C_PUSH,
    C_PUT,
    C_RALLY,
    C_RETURN,
    C_ROLL_OUTCOME,
    C_SHIFT_DOWN,
    C_SHIFT_OFF,
    C_SKIP,
    C_TARGET,
    C_USE_ABILITY,
    C_USE_ITEM,
    COLORS,
    DRAFTING,
    EVENT_KINDS,
    EVENT_ROW,
    F_CHOICE,
    F_RETURN,
    F_ROLL,
    F_ROUND_END,
    F_STEPS,
    F_TURN_START,
    GIFT_CAP,
    H_NONE,
    H_SCENARIO,
    KINDS,
    MAX_NUMBER,
    MAX_PIECES,
    MISC,
    NIL,
    NIL16,
    OPS,
    PHASES,
    PICK_CAP,
    RETURN_CAP,
    ROLES,
    SLOT_CAP,
    TARGETS_CAP,
    TRACK_KINDS,
    built,
    code,
    limit_error,
)
from funkoverse.rules.bridge.positions import Seen
from funkoverse.rules.bridge.tables import Tables, load, tables_for, unsupported
from funkoverse.rules.core.errors import Unsupported  # raised for what the bridge cannot hold

__all__ = [
    "COLORS",
    "C_ASSIST",
    "C_CARRY",
    "C_CHALLENGE",
    "C_CHOOSE",
    "C_COMPANION_ACTION",
    "C_COMPLETE_BONUS",
    "C_END",
    "C_FIRST_PLAYER",
    "C_FLAG_RETURN",
    "C_FLIP_CONTROL",
    "C_GIVE",
    "C_GIVE_STATUS",
    "C_INTERACT",
    "C_LEADER",
    "C_MINION_CHALLENGE",
    "C_MOVE",
    "C_OPTION",
    "C_PICK",
    "C_PLACE",
    "C_PLACE_CONTROL",
    "C_PLACE_TOKEN",
    "C_PULL",
    "C_PUSH",
    "C_PUT",
    "C_RALLY",
    "C_RETURN",
    "C_ROLL_OUTCOME",
    "C_SHIFT_DOWN",
    "C_SHIFT_OFF",
    "C_SKIP",
    "C_TARGET",
    "C_USE_ABILITY",
    "C_USE_ITEM",
    "DRAFTING",
    "EVENT_KINDS",
    "EVENT_ROW",
    "F_CHOICE",
    "F_RETURN",
    "F_ROLL",
    "F_ROUND_END",
    "F_STEPS",
    "F_TURN_START",
    "GIFT_CAP",
    "H_NONE",
    "H_SCENARIO",
    "KINDS",
    "MAX_NUMBER",
    "MAX_PIECES",
    "MISC",
    "NIL",
    "NIL16",
    "OPS",
    "PHASES",
    "PICK_CAP",
    "RETURN_CAP",
    "ROLES",
    "SLOT_CAP",
    "TARGETS_CAP",
    "TRACK_KINDS",
    "Seen",
    "Tables",
    "Unsupported",
    "board_tables",
    "built",
    "code",
    "limit_error",
    "load",
    "tables_for",
    "unsupported",
]

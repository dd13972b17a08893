"""What the Python rules and the compiled kernel number alike, declared once.

Each enum here is a list of Python values (the kinds of pieces, the phases, the choice
classes, the event kinds, the words of the effects vocabulary...) in the order the kernel
numbers them; each member's C++ name is made from its Python name. The kernel's header
`kernel/schema.hpp` is written from these declarations when the kernel is built
(`setup.py` calls `write_header`), the bridge (`rules/bridge/`) reads the same declarations,
and the built kernel answers the names it was built with (`_kernel.schema()`), so a test
compares both sides member by member, by name. The limits of what one kernel position
holds and the rulebook's numbers cross the line the same way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from funkoverse.rules.core import choices as ch
from funkoverse.rules.core import numbers, traits
from funkoverse.rules.core.cards import TokenColor
from funkoverse.rules.core.events import EventKind
from funkoverse.rules.core.pieces import Kind, Role
from funkoverse.rules.core.state import Phase


def _upper(word: str) -> str:
    """A Python name as a C++ constant's: `push_adjacent_rival`, `PlaceToken`,
    `champion-of-themyscira` -> PUSH_ADJACENT_RIVAL, PLACE_TOKEN, CHAMPION_OF_THEMYSCIRA."""
    word = re.sub(r"(?<=[a-z])(?=[A-Z])", "_", word)
    return re.sub(r"[^A-Za-z0-9]+", "_", word).strip("_").upper()


@dataclass(frozen=True)
class Shared:
    """One enum both sides number alike: its C++ name and underlying type, the prefix of
    its members' names, the Python value each member stands for (in the kernel's order),
    and members the kernel adds after them with fixed numbers (`H_NONE = 255`)."""

    name: str
    ctype: str
    prefix: str
    values: tuple[Any, ...]
    words: tuple[str, ...]  # each value's Python name, made a C++ name with the prefix
    count: str = ""  # a last member counting the others (`C_KINDS`), if the kernel uses one
    fixed: tuple[tuple[str, int], ...] = ()

    @property
    def members(self) -> tuple[str, ...]:
        """The C++ names, in order."""
        return tuple(self.prefix + _upper(w) for w in self.words)

    def number(self, member: str) -> int:
        """The number of the member named `member` (its C++ name)."""
        return self.members.index(member)

    def cpp(self) -> str:
        typed = f" : {self.ctype}" if self.ctype else ""
        lines = [f"enum {self.name}{typed} {{"]
        lines += [f"    {m},  // {w}" for m, w in zip(self.members, self.words, strict=True)]
        if self.count:
            lines.append(f"    {self.count},")
        lines += [f"    {m} = {n}," for m, n in self.fixed]
        lines.append("};")
        names = ", ".join(f'"{m}"' for m in self.members)
        lines.append(f"inline const char* const {_upper(self.name)}_NAMES[] = {{{names}}};")
        lines.append(f"constexpr int {_upper(self.name)}_SIZE = {len(self.members)};")
        return "\n".join(lines)


def _enum(name: str, ctype: str, prefix: str, values: tuple[Any, ...], **more: Any) -> Shared:
    words = tuple(v.__name__ if isinstance(v, type) else getattr(v, "name", v) for v in values)
    return Shared(name, ctype, prefix, values, words, **more)


# The kinds of choices, by class: the first field of a choice's code.
CHOICE_CLASSES: tuple[type[ch.Choice], ...] = (
    ch.FirstPlayer,
    ch.RollOutcome,
    ch.Leader,
    ch.Place,
    ch.Return,
    ch.Choose,
    ch.Move,
    ch.Challenge,
    ch.Assist,
    ch.Interact,
    ch.CompleteBonus,
    ch.PlaceControl,
    ch.FlipControl,
    ch.UseAbility,
    ch.UseItem,
    ch.CompanionAction,
    ch.Rally,
    ch.End,
    ch.Skip,
    ch.Target,
    ch.Push,
    ch.Pull,
    ch.Carry,
    ch.Put,
    ch.PlaceToken,
    ch.GiveStatus,
    ch.ShiftDown,
    ch.ShiftOff,
    ch.MinionChallenge,
    ch.FlagReturn,
    ch.Option,
    ch.Pick,  # a: the draft's pool entry (the first with that card)
    ch.Give,  # a: the item, b: the holder's pool entry
)

# A part of a choice: the fields it reads (one, or two read together) and what they name:
# a piece, a piece or none ("piece?"), a square, a card of the catalog ("character",
# "item", "ability", "status", "companion"), a control area or marker number, a token
# color, a thing on a cooldown track ("tracked"), a space of it ("number"), yes or no
# ("bool"), a trait's word and answer ("option").
Part = tuple[tuple[str, ...], str]


@dataclass(frozen=True)
class Fields:
    """What a kind of choice holds, and what the page shows of it: `tap`, the field naming
    the piece or square a player taps (`located`: the page is told the tapped piece's square
    too); `actor`, the field naming the piece it moves or places ("acting": the piece deciding
    now; "chosen": the one its ability chose); `card`, the field naming the card it shows."""

    parts: tuple[Part, ...] = ()
    tap: str = ""
    located: bool = False
    actor: str = ""
    card: str = ""


_PIECE: Part = (("piece",), "piece")
_SQUARE: Part = (("square",), "square")

# Every kind of choice a seat makes (chance outcomes are drawn, never chosen: none here),
# with its fields, in the order of the RL environment's action table (env/encode.py: a
# trained policy's actions keep their numbers), which is read from this, as is what the
# server tells the page a choice taps (rules/words/present.py).
CHOICE_FIELDS: dict[type[ch.Choice], Fields] = {
    ch.End: Fields(),
    ch.Rally: Fields(),
    ch.Skip: Fields(),
    ch.Pick: Fields(((("character",), "character"),), card="character"),
    ch.Give: Fields(((("item",), "item"), (("holder",), "character")), card="item"),
    ch.Leader: Fields((_PIECE,), tap="piece"),
    ch.Choose: Fields((_PIECE,), tap="piece"),
    ch.Move: Fields((_SQUARE,), tap="square", actor="acting"),
    ch.Challenge: Fields(((("target",), "piece"),), tap="target"),
    ch.Assist: Fields(((("ally",), "piece"),), tap="ally"),
    ch.Interact: Fields(((("thing",), "piece"),), tap="thing", located=True),
    ch.CompleteBonus: Fields((_PIECE,), tap="piece", located=True),
    ch.PlaceControl: Fields(((("area",), "area"), _SQUARE), tap="square"),
    ch.FlipControl: Fields(((("number",), "control"),), tap="number", located=True),
    ch.UseAbility: Fields(((("ability",), "ability"), (("target",), "piece?")), tap="target"),
    ch.UseItem: Fields(((("item",), "item"),), card="item"),
    ch.CompanionAction: Fields(((("action",), "companion"), (("free",), "bool"))),
    ch.Target: Fields((_PIECE,), tap="piece"),
    ch.Carry: Fields((_PIECE,), tap="piece"),
    ch.Put: Fields((_SQUARE,), tap="square", actor="chosen"),
    ch.FlagReturn: Fields((_PIECE,), tap="piece"),
    ch.GiveStatus: Fields(((("card",), "status"),), card="card"),
    ch.ShiftDown: Fields(((("thing", "what"), "tracked"), (("at",), "number"))),
    ch.ShiftOff: Fields(((("color",), "color"), (("at",), "number"))),
    ch.Option: Fields(((("word", "value"), "option"),)),
    ch.Place: Fields((_PIECE, _SQUARE), tap="square", actor="piece"),
    ch.Return: Fields((_PIECE, _SQUARE), tap="square", actor="piece"),
    ch.Push: Fields((_PIECE, _SQUARE), tap="square", actor="piece"),
    ch.Pull: Fields((_PIECE, _SQUARE), tap="square", actor="piece"),
    ch.PlaceToken: Fields(((("token",), "piece"), _SQUARE), tap="square", actor="token"),
    ch.MinionChallenge: Fields(
        ((("minion",), "piece"), (("target",), "piece")), tap="target", actor="minion"
    ),
}

# The words of the effects vocabulary (vocabulary.OPS), and the purposes hooks and the
# scenario ask decisions for.
OPS = (
    "stand_up",
    "stand_up_or_shift_off",
    "move",
    "challenge",
    "challenge_each",
    "assist",
    "interact",
    "push_adjacent_rival",
    "push_each_adjacent_rival",
    "pull_rival_seen",
    "pull_target",
    "place_self_adjacent_to_rival",
    "choose_adjacent_character",
    "place_chosen_adjacent",
    "place_token",
    "place_minion",
    "minion_challenge",
    "give_status",
    "_status",
    "shift_off",
    "shift_down",
    "shift_off_token",
    "ask",  # a decision a trait asks in a word of its own card ("champion", "tunnel")
    "flag_return",
)

# What a thing on a cooldown track is (its TrackItem's first word).
TRACK_KINDS = ("token", "character", "companion", "point", "item", "die", "component")

# The frames of work in progress (frames.py): steps of a card, a decision, a roll, a return
# to the starting area, the start of a turn, the end of a round.
FRAMES = ("steps", "choice", "roll", "return", "turn_start", "round_end")

# Strings the kernel's events and choices name that no card holds (Rules::str_misc).
MISC: tuple[tuple[str, str | None], ...] = (
    ("ultimate_turn", "the ultimate character's turn"),
    ("ultimate_rule", "Ultimate Mode Rules"),
    ("decrease_rule", "Glossary: Decreasing an Ability Cost"),
    ("first_game_rule", "Winning Your First Game"),
    ("rally_why", "Rally: both actions to stand up"),
    ("assist", "Assist"),
    ("basic_challenge", "basic challenge"),
    ("minion_token", "minion token"),
    ("challenge", "challenge"),
    ("target_gone", "its target cannot be challenged"),
    ("knock_out", "knock-out"),
    ("control_showing", "control markers showing its color"),
    ("control_most", "the most control markers"),
    ("flag_why", "a return from the rival flag"),
    ("minion", "minion"),
    ("hidden", "?"),
)

H_SCENARIO = 254  # a decision the scenario asks, not a trait's
H_NONE = 255  # a decision of the effects vocabulary, no trait's

ENUMS: tuple[Shared, ...] = (
    _enum("Kind", "uint8_t", "K_", tuple(Kind)),
    _enum("Role", "uint8_t", "R_", tuple(Role)),
    _enum("Phase", "uint8_t", "P_", tuple(Phase)),
    _enum("Color", "uint8_t", "", tuple(TokenColor)),
    _enum("TrackKind", "uint8_t", "T_", TRACK_KINDS),
    _enum("Op", "uint8_t", "OP_", OPS, count="OP_COUNT"),
    _enum("ChoiceKind", "uint8_t", "C_", CHOICE_CLASSES, count="C_KINDS"),
    _enum("When", "uint8_t", "W_", traits.WHEN, count="W_COUNT"),
    _enum("Who", "uint8_t", "WHO_", traits.WHO),
    _enum("Need", "uint8_t", "N_", traits.NEEDS),
    _enum("Offer", "uint8_t", "OF_", traits.OFFERS),
    _enum("EffectOp", "uint8_t", "EF_", traits.EFFECTS),
    _enum("EventKind", "uint8_t", "E_", tuple(EventKind), count="E_KINDS"),
    _enum("FrameType", "uint8_t", "F_", FRAMES),
    Shared("Misc", "", "S_", tuple(s for _, s in MISC), tuple(n for n, _ in MISC), "S_MISC_COUNT"),
)
BY_NAME = {e.name: e for e in ENUMS}

# What one kernel position holds: past these, a game goes on in the Python engine.
LIMITS: tuple[tuple[str, int, str], ...] = (
    ("MAX_SQUARES", 256, "4 x 64 bits; a larger map is played by the Python engine"),
    ("MAX_PIECES", 160, "the game's pieces plus the pre-check's trial tokens"),
    ("MAX_SIDES", 4, "Free-for-All and More Players"),
    ("SLOT_CAP", 24, "things on one space of a cooldown track"),
    ("STACK_CAP", 40, "frames of work in progress"),
    ("STATUS_CAP", 8, "status cards by one character"),
    ("ITEM_CAP", 4, "items held by one character"),
    ("TARGETS_CAP", 24, "what one ability challenges (18 rivals in a free-for-all)"),
    ("DICE_CAP", 16, "dice of one side of a roll"),
    ("ASKED_CAP", 24, "traits asked before one roll"),
    ("RETURN_CAP", 16, "characters of one return frame"),
    ("PICK_CAP", 6, "characters one side drafts (a scenario's largest team)"),
    ("GIFT_CAP", 4, "items one side drafts"),
)
LIMIT = {name: value for name, value, _ in LIMITS}

# The rulebook's numbers (numbers.py) the kernel plays by.
RULEBOOK = (
    "ACTIONS_PER_TURN",
    "RALLY_ACTIONS",
    "BASIC_MOVE",
    "BASIC_CHALLENGE_DICE",
    "KNOCKED_OUT_SLOT",
    "COMPANION_SLOT",
    "POINT_MARKER_SLOT",
    "POINT_MARKER_POINTS",
    "FLAG_POINTS",
    "CONTROL_MARKERS",
)

HEADER = "schema.hpp"


def header() -> str:
    """The C++ header of the kernel, written from the declarations above."""
    parts = [
        "// Written from funkoverse/rules/core/schema.py when the kernel is built: edit that, not this.",
        "#pragma once",
        "#include <cstdint>",
        "",
        "namespace fk {",
        "",
        "// What one kernel position holds",
        *(f"constexpr int {n} = {v};  // {why}" for n, v, why in LIMITS),
        "inline const char* const LIMIT_NAMES[] = {"
        + ", ".join(f'"{n}"' for n, _, _ in LIMITS)
        + "};",
        "inline const int LIMIT_VALUES[] = {" + ", ".join(n for n, _, _ in LIMITS) + "};",
        f"constexpr int LIMIT_SIZE = {len(LIMITS)};",
        f"constexpr int TRACK = {numbers.TRACK_LENGTH};  // Cooldown Tracks: numbered 1 to 4",
        "",
        "// The rulebook's numbers (funkoverse.rules.numbers)",
        *(f"constexpr int {n} = {getattr(numbers, n)};" for n in RULEBOOK),
        "",
        *(e.cpp() + "\n" for e in ENUMS),
        "// Every enum by its name, for the kernel to answer the names it was built with",
        "struct SchemaEnum { const char* name; const char* const* names; int size; };",
        "inline const SchemaEnum SCHEMA_ENUMS[] = {",
        *(f'    {{"{e.name}", {_upper(e.name)}_NAMES, {_upper(e.name)}_SIZE}},' for e in ENUMS),
        "};",
        f"constexpr int SCHEMA_ENUM_COUNT = {len(ENUMS)};",
        "",
        "// What a decision frame's trait is when it is no trait's",
        f"constexpr uint8_t H_SCENARIO = {H_SCENARIO};",
        f"constexpr uint8_t H_NONE = {H_NONE};",
        "",
        "}  // namespace fk",
        "",
    ]
    return "\n".join(parts)


def write_header(folder: Path) -> Path:
    """Write the header into the kernel's source folder (only when it changed, so that a
    build does not compile every file again for nothing)."""
    path = folder / HEADER
    text = header()
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
    return path

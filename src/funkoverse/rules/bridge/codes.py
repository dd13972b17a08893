"""Choices across the language line: a kernel's integer code as the engine's `Choice` value
and back."""

from __future__ import annotations

from collections.abc import Sequence

from funkoverse.rules.bridge.building import Building, code_of_two
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
    code,
)
from funkoverse.rules.core.cards import (
    TokenColor,
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


class Codes(Building):
    """A choice's code and the choice it stands for."""

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
            return self.options[a]
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
            return code_of_two(C_MOVE, sq(c.square))
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
            return code_of_two(C_PLACE, pi[c.piece], sq(c.square))
        if isinstance(c, Return):
            return code_of_two(C_RETURN, pi[c.piece], sq(c.square))
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
            return code_of_two(C_PLACE_CONTROL, self.control_names.index(c.area), sq(c.square))
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
            return code_of_two(C_PUSH, pi[c.piece], sq(c.square))
        if isinstance(c, Pull):
            return code_of_two(C_PULL, pi[c.piece], sq(c.square))
        if isinstance(c, Carry):
            return code(C_CARRY, pi[c.piece])
        if isinstance(c, Put):
            return code_of_two(C_PUT, sq(c.square))
        if isinstance(c, PlaceToken):
            return code_of_two(C_PLACE_TOKEN, pi[c.token], sq(c.square))
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
            return code(C_OPTION, self.options.index(c)) if c in self.options else None
        if isinstance(c, Pick):
            return code(C_PICK, self._first[c.character])
        if isinstance(c, Give):
            return code(C_GIVE, self.item_index[c.item], self._first[c.holder])
        return None

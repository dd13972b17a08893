"""A trait's behaviour from its card file: triggers and standing changes, validated into
`rules.core.traits` values, each error naming the file, the field and the fix.

A whole-number field may name one of the card's `numbers` instead ("space =
'champion_slot'" with `numbers = { champion_slot = 2 }`), so that the card's numbers stand
at the top of its file, named as the card text uses them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from funkoverse.content.fields import only_fields, shown
from funkoverse.errors import UserError
from funkoverse.rules.core.cards import Step
from funkoverse.rules.core.choices import register_option
from funkoverse.rules.core.pieces import Role
from funkoverse.rules.core.traits import (
    EFFECTS,
    NEEDS,
    OFFERS,
    WHEN,
    WHO,
    Answer,
    Effect,
    Trait,
    Trigger,
)
from funkoverse.rules.vocabulary.traits import TraitHook

# the fields of a trait that give it behaviour (beside its name and text)
BEHAVIOUR = ("triggers", "defense", "defense_while", "reach", "reach_for", "links",
             "links_within", "rivals_discard")  # fmt: skip
TRIGGER_FIELDS = {"when", "who", "needs", "on_track", "off_track", "group", "count", "optional",
                  "ask", "offer", "token", "answers", "skip_label", "times", "step", "do",
                  "otherwise"}  # fmt: skip
EFFECT_FIELDS = {"op", "die", "thing", "space", "by", "count", "name"}
TOKEN_ROLES = tuple(r.value for r in Role)
# the parameters of a step that count (squares, dice...): one may name a number of the card
COUNTED = frozenset({"squares", "range", "dice", "within", "amount", "extra_vs_knocked_down"})


class _Reader:
    """Reads one card's trait: its file name for errors, its numbers, and which it used."""

    def __init__(self, name: str, numbers: Mapping[str, int], ident: str) -> None:
        self.name = name
        self.ident = ident
        self.numbers = numbers
        self.used: set[str] = set()

    def fail(self, field: str, what: str) -> UserError:
        return UserError(f"{self.name}: field '{field}': {what}")

    def whole(self, raw: Any, field: str, low: int = 0, high: int = 99) -> int:
        if isinstance(raw, str) and raw in self.numbers:
            self.used.add(raw)
            return self.numbers[raw]
        if isinstance(raw, str) and re.fullmatch(r"[a-z_]+", raw):
            raise UserError(
                f"{self.name}: field 'numbers': the hook '{self.ident}' needs {shown(raw)} "
                f"({field}); "
                f"add numbers = {{ {raw} = ... }}"
            )
        if not isinstance(raw, int) or isinstance(raw, bool) or not low <= raw <= high:
            raise self.fail(
                field,
                f"expected a whole number from {low} to {high} or a name of the card's numbers, not {shown(raw)}",
            )
        return raw

    def word(self, raw: Any, field: str, words: tuple[str, ...]) -> str:
        if not isinstance(raw, str) or raw not in words:
            raise self.fail(field, f"expected one of {', '.join(words)}, not {shown(raw)}")
        return raw

    def words(self, raw: Any, field: str, words: tuple[str, ...]) -> tuple[str, ...]:
        items = [raw] if isinstance(raw, str) else raw
        if not isinstance(items, list):
            raise self.fail(field, f"expected a word or a list of: {', '.join(words)}")
        return tuple(self.word(w, f"{field}[{i}]", words) for i, w in enumerate(items))

    def text(self, raw: Any, field: str) -> str:
        if not isinstance(raw, str):
            raise self.fail(field, f"expected text, not {shown(raw)}")
        return raw

    def thing(self, raw: Any, field: str) -> tuple[str, str]:
        """A thing on a cooldown track, as a step names it: `{ die = "champion" }` or
        `{ component = "blood" }`."""
        pairs = list(raw.items()) if isinstance(raw, dict) else []
        if len(pairs) != 1 or pairs[0][0] not in ("die", "component"):
            raise self.fail(
                field, f"expected {{ die = '<id>' }} or {{ component = '<id>' }}, not {shown(raw)}"
            )
        kind, ref = pairs[0]
        if not isinstance(ref, str) or not re.fullmatch(r"[a-z0-9-]+", ref):
            raise self.fail(f"{field}.{kind}", f"expected a lowercase id, not {shown(ref)}")
        return (kind, ref)

    def table(self, raw: Any, field: str, allowed: set[str]) -> Mapping[str, Any]:
        if not isinstance(raw, dict):
            raise self.fail(field, f"expected a table, not {shown(raw)}")
        only_fields(raw, allowed, self.name, f"{field}.")
        return raw

    def effect(self, raw: Any, field: str) -> Effect:
        t = self.table(raw, field, EFFECT_FIELDS)
        op = self.word(t.get("op"), f"{field}.op", EFFECTS)
        die = self.text(t.get("die", ""), f"{field}.die")
        thing = self.thing(t["thing"], f"{field}.thing") if "thing" in t else None
        if op == "add_die" and not die:
            raise self.fail(f"{field}.die", "add_die needs the die it adds, e.g. die = 'champion'")
        if op in ("place_on_track", "shift_down") and thing is None:
            raise self.fail(
                f"{field}.thing", f"{op} needs the thing, e.g. thing = {{ component = 'blood' }}"
            )
        effect = Effect(
            op,
            die=die,
            thing=thing,
            space=self.whole(t.get("space", 0), f"{field}.space", 0, 4),
            by=self.whole(t.get("by", 0), f"{field}.by"),
            count=self.whole(t.get("count", 0), f"{field}.count"),
            name=self.text(t.get("name", ""), f"{field}.name"),
        )
        if op == "place_on_track" and not effect.space:
            raise self.fail(f"{field}.space", "place_on_track needs the space, 1 to 4")
        return effect

    def effects(self, raw: Any, field: str) -> tuple[Effect, ...]:
        if not isinstance(raw, list):
            raise self.fail(
                field, "expected a list of effects, e.g. [{ op = 'extra_action', count = 1 }]"
            )
        return tuple(self.effect(e, f"{field}[{i}]") for i, e in enumerate(raw))

    def label(self, raw: Any, field: str) -> str:
        text = self.text(raw, field)
        for key in set(re.findall(r"\{([a-z_]+)\}", text)) & set(self.numbers):
            self.used.add(key)
            text = text.replace("{" + key + "}", str(self.numbers[key]))
        return text

    def trigger(self, raw: Any, field: str) -> Trigger:
        from funkoverse.content.fields import parse_step

        t = self.table(raw, field, TRIGGER_FIELDS)
        when = self.words(t.get("when"), f"{field}.when", WHEN)
        if not when:
            raise self.fail(f"{field}.when", f"expected one of {', '.join(WHEN)}")
        ask: Step | None = None
        offer = ""
        answers: tuple[Answer, ...] = ()
        if "step" in t:
            raw_step = t["step"]
            if isinstance(raw_step, dict):
                raw_step = {
                    k: self.whole(v, f"{field}.step.{k}")
                    if isinstance(v, str) and (v in self.numbers or k in COUNTED)
                    else v
                    for k, v in raw_step.items()
                }
            ask = parse_step(raw_step, self.name, f"{field}.step")
            offer = "step"
        elif "ask" in t:
            word = self.text(t["ask"], f"{field}.ask")
            if not re.fullmatch(r"[a-z_]+", word):
                raise self.fail(f"{field}.ask", "expected a lowercase word such as 'champion'")
            ask = Step(word)
            offer = self.word(t.get("offer", "answers"), f"{field}.offer", OFFERS[:3])
            if offer == "answers":
                rows = t.get("answers")
                if not isinstance(rows, list) or not rows:
                    raise self.fail(f"{field}.answers", "expected a list of { word, do, label }")
                answers = tuple(
                    self._answer(a, f"{field}.answers[{i}]") for i, a in enumerate(rows)
                )
                try:
                    register_option(word, frozenset(a.word for a in answers))
                except ValueError:
                    raise self.fail(
                        f"{field}.ask",
                        f"'{word}' is a kind of choice of the rules; choose another word",
                    ) from None
        token = ""
        if offer == "place_token_here":
            token = self.word(t.get("token"), f"{field}.token", TOKEN_ROLES)
        return Trigger(
            when=when,
            who=self.word(t.get("who", "self"), f"{field}.who", WHO),
            needs=self.words(t.get("needs", []), f"{field}.needs", NEEDS),
            on_track=self.thing(t["on_track"], f"{field}.on_track") if "on_track" in t else None,
            off_track=self.thing(t["off_track"], f"{field}.off_track")
            if "off_track" in t
            else None,
            group=self.text(t.get("group", ""), f"{field}.group"),
            count=self.whole(t.get("count", 0), f"{field}.count"),
            optional=self._flag(t.get("optional", False), f"{field}.optional"),
            ask=ask,
            offer=offer,
            token=token,
            answers=answers,
            skip_label=self.label(t.get("skip_label", ""), f"{field}.skip_label"),
            times=self.whole(t.get("times", 1), f"{field}.times", 1, 9),
            effects=self.effects(t.get("do", []), f"{field}.do"),
            otherwise=self.effects(t.get("otherwise", []), f"{field}.otherwise"),
        )

    def _answer(self, raw: Any, field: str) -> Answer:
        t = self.table(raw, field, {"word", "do", "label"})
        word = self.text(t.get("word"), f"{field}.word")
        if not re.fullmatch(r"[a-z_]+", word):
            raise self.fail(f"{field}.word", "expected a lowercase word such as 'add'")
        return Answer(
            word,
            self.effects(t.get("do", []), f"{field}.do"),
            self.label(t.get("label", ""), f"{field}.label"),
        )

    def _flag(self, raw: Any, field: str) -> bool:
        if not isinstance(raw, bool):
            raise self.fail(field, f"expected true or false, not {shown(raw)}")
        return raw


def parse_trait(
    raw: Mapping[str, Any], name: str, field: str, numbers: Mapping[str, int], ident: str = ""
) -> tuple[Trait | None, set[str]]:
    """The behaviour a trait table gives (None when it gives none), and the card's numbers
    it used. `field` is where the table sits in the file ("trait", or "" at the top)."""
    if not any(k in raw for k in BEHAVIOUR):
        return None, set()
    read = _Reader(name, numbers, ident)
    at = f"{field}." if field else ""
    rows = raw.get("triggers", [])
    if not isinstance(rows, list):
        raise read.fail(f"{at}triggers", "expected a list of triggers ([[trait.triggers]])")
    triggers = tuple(read.trigger(t, f"{at}triggers[{i}]") for i, t in enumerate(rows))
    asks = [t.ask.op for t in triggers if t.ask is not None and t.offer != "step"]
    if len(asks) != len(set(asks)):
        raise read.fail(
            f"{at}triggers", "two decisions ask by the same word; give each its own 'ask'"
        )
    reach_for = read.words(raw.get("reach_for", []), f"{at}reach_for", ("assist", "interact"))
    trait = Trait(
        triggers=triggers,
        defense=read.whole(raw.get("defense", 0), f"{at}defense", 0, 6),
        defense_while=(
            read.thing(raw["defense_while"], f"{at}defense_while")
            if "defense_while" in raw
            else None
        ),
        reach=read.whole(raw.get("reach", 1), f"{at}reach", 1, 9),
        reach_for=reach_for,
        links=read.word(raw["links"], f"{at}links", TOKEN_ROLES) if "links" in raw else "",
        links_within=read.whole(raw.get("links_within", 0), f"{at}links_within"),
        rivals_discard=(
            read.word(raw["rivals_discard"], f"{at}rivals_discard", TOKEN_ROLES)
            if "rivals_discard" in raw
            else ""
        ),
    )
    return trait, read.used


def trait_hook(
    raw: Mapping[str, Any],
    name: str,
    field: str,
    title: str,
    numbers: Mapping[str, int],
    card: str = "",
) -> tuple[TraitHook | None, set[str]]:
    """The hook that plays a trait written as data, named by the table's `id` or its title."""
    if not any(k in raw for k in BEHAVIOUR):
        return None, set()
    ident = raw.get("id") or re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    if not isinstance(ident, str) or not re.fullmatch(r"[a-z0-9-]+", ident):
        at = f"{field}.id" if field else "id"
        raise UserError(f"{name}: field '{at}': expected a lowercase id such as 'bloody-terror'")
    trait, used = parse_trait(raw, name, field, numbers, ident)
    if trait is None:
        return None, used
    return TraitHook(ident, title, trait, card), used

"""Reading content tables: every field checked, every error naming the file, the field and
what was expected."""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from funkoverse.content.hooks import HOOKS
from funkoverse.errors import UserError
from funkoverse.rules.core.cards import COLOR_ALIASES, Ability, Param, Step, TokenColor
from funkoverse.rules.vocabulary.ops import vocabulary

DATA = Path(__file__).parent / "data"
COMMON_PARAMS = frozenset({"if_won"})  # any step may happen only "if you win"


def where(path: Path) -> str:
    """A file's name as people see it: relative to the shipped data when it is shipped."""
    try:
        return str(path.relative_to(DATA))
    except ValueError:
        return str(path)


def read_toml(path: Path) -> dict[str, Any]:
    name = where(path)
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise UserError(f"{name}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise UserError(f"{name}: not UTF-8 text (byte {e.start + 1} is not)") from None
    except tomllib.TOMLDecodeError as e:
        raise UserError(f"{name}: not valid TOML: {e}") from None
    except RecursionError:
        raise UserError(f"{name}: not valid TOML: its values are nested too deeply") from None


def need(table: Mapping[str, Any], key: str, kind: type, name: str, what: str) -> Any:
    """The field `key` of `table`, of type `kind`, or an error saying what was expected."""
    if key not in table:
        raise UserError(f"{name}: field '{key}' is missing; expected {what}")
    value = table[key]
    if (kind is int and isinstance(value, bool)) or not isinstance(value, kind):
        raise UserError(f"{name}: field '{key}': expected {what}, got {value!r}")
    return value


def listed(table: Mapping[str, Any], key: str, name: str, what: str) -> list[Any]:
    """The field `key` of `table` as a list (empty when it is not given), or an error saying
    what was expected."""
    value = table.get(key, [])
    if not isinstance(value, list):
        raise UserError(f"{name}: field '{key}': expected {what}, got {shown(value)}")
    return value


def whole(table: Mapping[str, Any], key: str, name: str, what: str, default: int = 0) -> int:
    """The field `key` of `table` as a whole number (`default` when it is not given)."""
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise UserError(f"{name}: field '{key}': expected {what}, got {shown(value)}")
    return value


def shown(value: Any) -> str:
    """A value from a file as an error quotes it: its repr, cut short."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def only_fields(table: Mapping[str, Any], allowed: set[str], name: str, prefix: str = "") -> None:
    for key in table:
        if key not in allowed:
            known = ", ".join(sorted(allowed))
            raise UserError(
                f"{name}: field '{prefix}{key}' is not known here; the fields are {known}"
            )


def color(value: Any, name: str, field: str) -> TokenColor:
    if not isinstance(value, str) or value.lower() not in COLOR_ALIASES:
        names = ", ".join(sorted(COLOR_ALIASES))
        raise UserError(
            f"{name}: field '{field}': unknown ability type {value!r}; use one of {names}"
        )
    return COLOR_ALIASES[value.lower()]


def parse_step(raw: Any, name: str, field: str) -> Step:
    """One step in the effects vocabulary, e.g. {op = "move", squares = 2}."""
    if not isinstance(raw, dict) or "op" not in raw:
        raise UserError(
            f"{name}: field '{field}': expected a table with an 'op', e.g. {{op = \"move\", squares = 2}}"
        )
    op = raw["op"]
    VOCABULARY = vocabulary()
    if not isinstance(op, str) or op not in VOCABULARY:
        words = ", ".join(sorted(VOCABULARY))
        raise UserError(
            f"{name}: field '{field}.op': {shown(op)} is not in the effects vocabulary ({words}); "
            "behaviour beyond it needs a named hook"
        )
    params: dict[str, Param] = {}
    for key, value in raw.items():
        if key == "op":
            continue
        if key not in VOCABULARY[op] and key not in COMMON_PARAMS:
            allowed = ", ".join(sorted(VOCABULARY[op] | COMMON_PARAMS))
            raise UserError(
                f"{name}: field '{field}.{key}': '{op}' takes no '{key}' (it takes: {allowed})"
            )
        if not isinstance(value, int | str | bool):
            raise UserError(
                f"{name}: field '{field}.{key}': expected a number, a word or true/false"
            )
        params[key] = value
    return Step(op, tuple(sorted(params.items())))


def parse_steps(raw: Any, name: str, field: str) -> tuple[Step, ...]:
    if not isinstance(raw, list):
        raise UserError(f"{name}: field '{field}': expected a list of steps")
    return tuple(parse_step(s, name, f"{field}[{j}]") for j, s in enumerate(raw))


ABILITY_FIELDS = {
    "id",
    "name",
    "type",
    "cost",
    "challenge_action",
    "steps",
    "text",
    "while_knocked_down",
    "while_knocked_out",
    "declare_target",
    "cost_vs_knocked_down",
}


def parse_ability(raw: Any, name: str, field: str) -> Ability:
    if not isinstance(raw, dict):
        raise UserError(f"{name}: field '{field}': expected a table")
    only_fields(raw, ABILITY_FIELDS, name, f"{field}.")
    aid = need(raw, "id", str, name, f"{field}: an ability id")
    cost = need(raw, "cost", int, name, f"{field}: a cost from 1 to 4")
    if not 1 <= cost <= 4:
        raise UserError(
            f"{name}: field '{field}.cost': expected a cost from 1 to 4 (the numbers of the "
            f"cooldown track), got {cost}"
        )
    return Ability(
        id=aid,
        name=need(raw, "name", str, name, f"{field}: the ability's name"),
        color=color(raw.get("type"), name, f"{field}.type"),
        cost=cost,
        challenge_action=bool(raw.get("challenge_action", False)),
        steps=parse_steps(raw.get("steps", []), name, f"{field}.steps"),
        text=str(raw.get("text", "")),
        while_knocked_down=bool(raw.get("while_knocked_down", False)),
        while_knocked_out=bool(raw.get("while_knocked_out", False)),
        declare_target=bool(raw.get("declare_target", False)),
        cost_vs_knocked_down=whole(
            raw, "cost_vs_knocked_down", name, f"{field}.cost_vs_knocked_down: a cost"
        ),
    )


def numbers_of(data: Mapping[str, Any], name: str) -> dict[str, int]:
    """A card's `numbers` table (the numbers its trait plays by, named as its text uses
    them), each a whole number from 1 to 99."""
    given = data.get("numbers", {})
    if not isinstance(given, Mapping):
        raise UserError(f"{name}: field 'numbers': expected a table of names and whole numbers")
    for key, value in given.items():
        if not isinstance(value, int) or isinstance(value, bool) or not 0 < value < 100:
            raise UserError(
                f"{name}: field 'numbers.{key}': expected a whole number from 1 to 99, "
                f"not {shown(value)}"
            )
    return dict(given)


def hooks(
    raw: Any, name: str, numbers: Mapping[str, int], used: set[str] | None = None
) -> tuple[Any, ...]:
    """Named Python hooks, looked up in the hook registry, each with the numbers it plays by
    as the card's `numbers` table gives them. Every number of the table must be played by a
    hook or by the trait's data (`used`)."""
    if not isinstance(raw, list):
        raise UserError(f"{name}: field 'hooks': expected a list of hook names")
    found = []
    wanted: set[str] = set(used or ())
    for h in raw:
        if not isinstance(h, str) or h not in HOOKS:
            known = ", ".join(sorted(HOOKS)) or "none: a trait says what it does in its file"
            raise UserError(
                f"{name}: field 'hooks': no hook named {shown(h)}; the hooks are {known}"
            )
        hook = HOOKS[h]
        values = []
        for key, what in hook.wants:
            value = numbers.get(key)
            if value is None:
                raise UserError(
                    f"{name}: field 'numbers': the hook '{h}' needs '{key}' ({what}); "
                    f"add numbers = {{ {key} = ... }}"
                )
            values.append((key, value))
            wanted.add(key)
        found.append(_configured(hook, tuple(values)))
    extra = sorted(set(numbers) - wanted)
    if extra:
        raise UserError(
            f"{name}: field 'numbers': no hook of this card plays by {', '.join(map(shown, extra))}"
        )
    return tuple(found)


_CONFIGURED: dict[tuple[str, tuple[tuple[str, int], ...]], Any] = {}


def _configured(hook: Any, numbers: tuple[tuple[str, int], ...]) -> Any:
    """The shipped hook playing by `numbers`: one object for one hook and its numbers, of the
    hook's own class (the kernel plays only the shipped classes)."""
    if not numbers:
        return hook
    key = (hook.name, numbers)
    found = _CONFIGURED.get(key)
    if found is None:
        found = copy.copy(hook)
        found.numbers = numbers
        _CONFIGURED[key] = found
    return found

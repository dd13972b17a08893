"""Mutations that know the shape of the input: a TOML file's `key = value` lines and a JSON
document's values, each replaced with a value of another kind, dropped, doubled or nested
thousands deep.

Bytes flipped at random rarely get past a TOML or JSON reader to the checks behind it; a
value of the wrong kind does. The atheris targets mix these with libFuzzer's own mutations
(`custom_mutator`); the Hypothesis tests draw them with a generator Hypothesis controls.
"""

from __future__ import annotations

import json
import random
from typing import Any

# a TOML value in place of a line's own: other kinds, out of range, odd text
ODD_TOML = (
    "0",
    "-1",
    "7",
    "99999999999999999999",
    "-9223372036854775808",
    "1.5",
    "nan",
    "inf",
    "true",
    '""',
    '"x"',
    '"\\n"',
    '"\\u0000"',
    '"../../etc/hostname"',
    "[]",
    "[1, 2]",
    '["a", "b"]',
    "[[1]]",
    "[{}]",
    '[{op = "move"}]',
    "{}",
    '{op = "move"}',
    "{ a = 1 }",
    "1979-05-27",
    "07:32:00",
    '"""\n"""',
    '["red", "red", "red", "red", "red", "red", "red"]',
)
# a JSON value in place of a document's own
ODD_JSON: tuple[Any, ...] = (
    None,
    True,
    False,
    0,
    -1,
    1,
    7,
    64,
    65,
    10**6,
    2**63,
    -(2**70),
    1.5,
    "",
    "x",
    "\n",
    "../../etc/hostname",
    "/dev/null",
    "🐍",
    "\x00",
    "a" * 300,
    [],
    [0],
    [1, 2],
    [[]],
    {},
    {"a": 1},
)
HOW = ("value", "value", "drop", "double", "char", "cut")
DEPTHS = (64, 1000, 20_000)  # a value nested this deep, one time in ten
NESTED = "\x00nested\x00"  # where a deeply nested value goes in a document's text


def toml_text(text: str, rng: random.Random) -> str:
    """`text` with one to three of its lines changed: a value replaced, a line dropped or
    doubled, one character changed, or the text cut short after a line."""
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        if not lines:
            break
        how = rng.choice(HOW)
        keyed = [n for n, line in enumerate(lines) if " = " in line and not line.startswith("#")]
        i = rng.choice(keyed) if how == "value" and keyed else rng.randrange(len(lines))
        line = lines[i]
        if how == "value" and " = " in line:
            depth = rng.choice(DEPTHS)
            nested = "[" * depth + "1" + "]" * depth
            odd = nested if rng.random() < 0.1 else rng.choice(ODD_TOML)
            lines[i] = line.split(" = ", 1)[0] + " = " + odd
        elif how == "drop":
            del lines[i]
        elif how == "double":
            lines.insert(i, line)
        elif how == "char" and line:
            j = rng.randrange(len(line))
            lines[i] = (
                line[:j]
                + chr(rng.choice((0, 10, 0x7F, 0xE9, 0x1F40D, rng.randrange(32, 127))))
                + line[j + 1 :]
            )
        elif how == "cut":
            lines = lines[: i + 1]
    return "\n".join(lines)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            found += _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found += _paths(v, (*path, i))
    return found


def _replace(value: Any, path: tuple[Any, ...], new: Any, drop: bool) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    out = dict(value) if isinstance(value, dict) else list(value)
    if drop and not rest:
        del out[head]
    else:
        out[head] = _replace(value[head], rest, new, drop)
    return out


def json_value(value: Any, rng: random.Random) -> Any:
    """`value` with one to three of its values (or itself) replaced by odd ones, dropped or
    doubled into a list."""
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(_paths(value))
        how = rng.choice(("value", "value", "drop", "double"))
        if how == "double":
            value = _replace(value, path, [_at(value, path)] * 2, drop=False)
        else:
            value = _replace(value, path, rng.choice(ODD_JSON), drop=how == "drop" and bool(path))
    return value


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def structured(data: bytes, rng: random.Random, head: int = 0) -> bytes:
    """`data` mutated as what it is: JSON as a document (one time in ten with a value nested
    thousands deep), anything else as TOML lines; the first `head` bytes (a target's choice
    of kind) kept as they are."""
    kept, body = data[:head], data[head:]
    text = body.decode("utf-8", "replace")
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return kept + toml_text(text, rng).encode("utf-8", "surrogatepass")
    if rng.random() < 0.1:
        path = rng.choice(_paths(value))
        depth = rng.choice(DEPTHS)
        written = json.dumps(_replace(value, path, NESTED, drop=False))
        deep = "[" * depth + "1" + "]" * depth
        return kept + written.replace(json.dumps(NESTED), deep, 1).encode()
    return kept + json.dumps(json_value(value, rng)).encode()


def custom_mutator(head: int = 0) -> Any:
    """An atheris custom mutator: libFuzzer's own mutation half the time, `structured` the
    other half."""
    import atheris

    def mutate(data: bytes, max_size: int, seed: int) -> bytes:
        rng = random.Random(seed)
        if rng.random() < 0.5 or not data:
            out: bytes = atheris.Mutate(data, max_size)
            return out
        return structured(data, rng, head)[:max_size]

    return mutate

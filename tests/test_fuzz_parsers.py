"""Every parser of outside input keeps its contract (fuzz/contract.py) on inputs Hypothesis
makes from the shipped files: map files and inline maps, content files and fan content
folders, `funkoverse query` input, saved games and setups as JSON. Bad input is refused in
one line naming the file or the field, never another exception, nothing shared changed.

The same targets run under atheris for as long as one likes (`python fuzz/run.py`,
docs/reliability.md); here a slice of them runs in CI in seconds, and each input that once
broke a parser is kept below as a test named after what it was."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fuzz"))  # the fuzz targets

import fuzz_content
import fuzz_games
import fuzz_maps
import fuzz_query

from funkoverse.content.extra import use_content

EXAMPLES = 60  # inputs a target is given in CI
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.fixture(autouse=True)
def _shipped_only() -> Iterator[None]:
    """Each test starts and ends with the shipped content alone."""
    use_content([])
    fuzz_content._BASELINE.clear()
    yield
    use_content([])
    fuzz_content._BASELINE.clear()


@cache
def _seeds(target: str) -> tuple[bytes, ...]:
    for module in (fuzz_maps, fuzz_content, fuzz_query, fuzz_games):
        found = module.seeds()
        if target in found:
            return tuple(found[target])
    raise KeyError(target)


# ------------------------------------------------------------------ inputs made from the seeds

# values a field may be given in place of its own: the wrong type, out of range, odd text
ODD_JSON = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, -1, 1, 7, 64, 65, 10**6, 1.5, float("inf")]),
    st.text(max_size=12),
    st.sampled_from(["", "\n", "../../etc/hostname", "/dev/null", "🐍", "\x00", "a" * 300]),
    st.lists(st.integers(-3, 70), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)
ODD_TOML = st.sampled_from(
    [
        "0",
        "-1",
        "7",
        "99999999999999999999",
        "1.5",
        "nan",
        "inf",
        "true",
        '""',
        '"x"',
        '"\\n"',
        '"\\u0000"',
        "[]",
        "[1, 2]",
        '["a", "b"]',
        "[[1]]",
        "{}",
        '{op = "move"}',
        "{ a = 1 }",
        "1979-05-27",
        '"""\n"""',
        '["red", "red", "red", "red", "red", "red", "red"]',
    ]
)


def _json_paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _json_paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _json_paths(v, (*path, i))


def _replace(value: Any, path: tuple[Any, ...], new: Any, drop: bool) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        out = dict(value)
        if drop and not rest:
            out.pop(head, None)
        else:
            out[head] = _replace(value[head], rest, new, drop)
        return out
    out_list = list(value)
    if drop and not rest:
        del out_list[head]
    else:
        out_list[head] = _replace(value[head], rest, new, drop)
    return out_list


@st.composite
def json_mutants(draw: Callable[..., Any], target: str) -> bytes:
    """A seed of `target` (JSON) with one to three of its values replaced or dropped."""
    value = json.loads(draw(st.sampled_from(_seeds(target))))
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_json_paths(value))
        path = draw(st.sampled_from(paths))
        value = _replace(value, path, draw(ODD_JSON), drop=bool(path) and draw(st.booleans()))
    return json.dumps(value).encode()


@st.composite
def text_mutants(draw: Callable[..., Any], target: str) -> bytes:
    """A seed of `target` (text: TOML, or JSON as text) with lines changed: a value
    replaced, a line dropped or doubled, a character changed, the text cut short."""
    data: bytes = draw(st.sampled_from(_seeds(target)))
    head, body = data[:1], data[1:]
    if target not in ("content_file", "content_folder"):
        head, body = b"", data
    lines = body.decode("utf-8").split("\n")
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, max(0, len(lines) - 1)))
        how = draw(st.sampled_from(["value", "drop", "double", "char", "cut"]))
        line = lines[i] if lines else ""
        if how == "value" and " = " in line:
            lines[i] = line.split(" = ", 1)[0] + " = " + draw(ODD_TOML)
        elif how == "drop" and lines:
            del lines[i]
        elif how == "double":
            lines.insert(i, line)
        elif how == "char" and line:
            j = draw(st.integers(0, len(line) - 1))
            lines[i] = line[:j] + draw(st.characters(codec="utf-8")) + line[j + 1 :]
        elif how == "cut":
            lines = lines[: i + 1]
    return head + "\n".join(lines).encode("utf-8", "surrogatepass")


# ------------------------------------------------------------------ the targets


@FUZZ
@given(st.one_of(text_mutants("map_file"), st.binary(max_size=200)))
def test_map_files(data: bytes) -> None:
    fuzz_maps.map_file(data)


@FUZZ
@given(json_mutants("map_json"))
def test_inline_maps(data: bytes) -> None:
    fuzz_maps.map_json(data)


@FUZZ
@given(st.one_of(text_mutants("content_file"), st.binary(min_size=1, max_size=200)))
def test_content_files(data: bytes) -> None:
    fuzz_content.content_file(data)


@settings(FUZZ, max_examples=EXAMPLES // 2)
@given(text_mutants("content_folder"))
def test_fan_content_folders(data: bytes) -> None:
    fuzz_content.content_folder(data)


@FUZZ
@given(st.one_of(json_mutants("query_input"), st.binary(max_size=100)))
def test_query_input(data: bytes) -> None:
    fuzz_query.query_input(data)


@settings(FUZZ, max_examples=EXAMPLES // 2)
@given(st.one_of(json_mutants("saved_game"), text_mutants("saved_game")))
def test_saved_games(data: bytes) -> None:
    fuzz_games.saved_game(data)


@FUZZ
@given(st.one_of(json_mutants("setup_spec"), st.binary(max_size=100)))
def test_setup_specs(data: bytes) -> None:
    fuzz_games.setup_spec(data)


# ------------------------------------------------------------------ inputs that once broke a parser

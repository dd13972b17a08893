"""Every parser of outside input keeps its contract (fuzz/contract.py) on inputs Hypothesis
makes from the shipped files: map files and inline maps, content files and fan content
folders, `funkoverse query` input, saved games and setups as JSON, and the server's HTTP
bodies and WebSocket messages. Bad input is refused in
one line naming the file or the field, never another exception, nothing shared changed.

The same targets run under atheris for as long as one likes (`python fuzz/run.py`,
docs/reliability.md); here a slice of them runs in CI in seconds, and each input that once
broke a parser is kept below as a test named after what it was."""

from __future__ import annotations

import os
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
import fuzz_server
from mutate import structured

# inputs a target is given: 60 in CI; FUNKOVERSE_FUZZ_EXAMPLES=5000 for a longer look
EXAMPLES = int(os.environ.get("FUNKOVERSE_FUZZ_EXAMPLES", "60"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.fixture(autouse=True)
def _shipped_only() -> Iterator[None]:
    """Each test starts with the fuzzed folder's baseline read anew."""
    fuzz_content._BASELINE.clear()
    yield
    fuzz_content._BASELINE.clear()


@cache
def _seeds(target: str) -> tuple[bytes, ...]:
    for module in (fuzz_maps, fuzz_content, fuzz_query, fuzz_games, fuzz_server):
        found = module.seeds()
        if target in found:
            return tuple(found[target])
    raise KeyError(target)


# ------------------------------------------------------------------ inputs made from the seeds


@st.composite
def mutants(draw: Callable[..., Any], target: str, head: int = 0) -> bytes:
    """A seed of `target` with its values changed as `fuzz/mutate.py` changes them (the
    first `head` bytes, the kind of file, kept)."""
    data: bytes = draw(st.sampled_from(_seeds(target)))
    return structured(data, draw(st.randoms(use_true_random=False)), head)


# ------------------------------------------------------------------ the targets


@FUZZ
@given(st.one_of(mutants("map_file"), st.binary(max_size=200)))
def test_map_files(data: bytes) -> None:
    fuzz_maps.map_file(data)


@FUZZ
@given(mutants("map_json"))
def test_inline_maps(data: bytes) -> None:
    fuzz_maps.map_json(data)


@FUZZ
@given(st.one_of(mutants("content_file", 1), st.binary(min_size=1, max_size=200)))
def test_content_files(data: bytes) -> None:
    fuzz_content.content_file(data)


@settings(FUZZ, max_examples=EXAMPLES // 2)
@given(mutants("content_folder", 1))
def test_fan_content_folders(data: bytes) -> None:
    fuzz_content.content_folder(data)


@FUZZ
@given(st.one_of(mutants("query_input"), st.binary(max_size=100)))
def test_query_input(data: bytes) -> None:
    fuzz_query.query_input(data)


@settings(FUZZ, max_examples=EXAMPLES // 2)
@given(mutants("saved_game"))
def test_saved_games(data: bytes) -> None:
    fuzz_games.saved_game(data)


@FUZZ
@given(st.one_of(mutants("setup_spec"), st.binary(max_size=100)))
def test_setup_specs(data: bytes) -> None:
    fuzz_games.setup_spec(data)


@FUZZ
@given(st.one_of(mutants("http_body", 1), st.binary(min_size=1, max_size=200)))
def test_server_http_bodies(data: bytes) -> None:
    fuzz_server.http_body(data)


@FUZZ
@given(st.one_of(mutants("ws_message"), st.binary(max_size=200)))
def test_server_websocket_messages(data: bytes) -> None:
    fuzz_server.ws_message(data)


# ------------------------------------------------------------------ inputs that once broke a parser


DEEP = "[" * 20_000 + "1" + "]" * 20_000


@pytest.mark.parametrize(
    ("command", "name", "text", "said"),
    [
        (["replay"], "game.json", DEEP, "not a game file: its JSON is nested too deeply"),
        (["content", "check"], "characters/fan.toml", f"id = {DEEP}", "nested too deeply"),
        (["content", "check"], "dice/fan.toml", f"faces = {DEEP}", "nested too deeply"),
        (["map", "show"], "fan.toml", f"width = {DEEP}", "1:1: bad TOML: its values are nested"),
    ],
)
def test_input_nested_thousands_deep_is_refused_naming_the_file(
    command: list[str], name: str, text: str, said: str, tmp_path: Path, capsys: Any
) -> None:
    """Found by fuzzing with values nested thousands deep: JSON and TOML readers raised
    RecursionError, which named no file ("internal error")."""
    from funkoverse.cli import main

    path = tmp_path / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    assert main([*command, str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path.name) in err and said in err, err


def test_a_spec_nested_thousands_deep_is_refused_as_a_spec_error() -> None:
    """Found by fuzzing: `SetupSpec.from_json` raised RecursionError on such text."""
    from funkoverse.rules.core.spec import SetupSpec, SpecError

    with pytest.raises(SpecError, match=r"^spec: not JSON that can be read: nested too deeply$"):
        SetupSpec.from_json(DEEP)

"""Every body and WebSocket message a client can send is read into data or refused with the
spec's answer (a 400 or 413 naming what is wrong), never anything else: arbitrary bytes,
arbitrary text, deeply nested and oddly typed JSON (server-api.md, hardening). The
coverage-guided run of the same contract is `fuzz/fuzz_server.py` (docs/reliability.md)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from funkoverse.content.catalog import listing
from funkoverse.server.errors import ApiError
from funkoverse.server.inputs import MAX_DEPTH, fields, nesting, read_json
from funkoverse.server.models import ChoiceIn, NewGame, UndoIn, check_ids

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=30,
)
KEYS = st.sampled_from(
    [
        "scenario",
        "map",
        "size",
        "mode",
        "seats",
        "teams",
        "items",
        "seed",
        "choice",
        "version",
        "tokens",
        "draft",
        "secret",
        "first_player",
        "players",
    ]
)
BODIES = st.dictionaries(KEYS, JSON, max_size=6)
BOX = listing()


def _read(data: bytes | str) -> Any:
    try:
        return read_json(data)
    except ApiError as e:
        assert e.status in (400, 413), e.status
        assert e.message and "\n" not in e.message
        return e


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_are_read_or_refused_with_400(data: bytes) -> None:
    _read(data)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400))
def test_any_text_is_read_or_refused_with_400(text: str) -> None:
    _read(text)


@settings(max_examples=300, deadline=None)
@given(BODIES, st.sampled_from([NewGame, ChoiceIn, UndoIn]))
def test_any_body_is_taken_or_refused_naming_a_field(body: dict[str, Any], model: Any) -> None:
    read = _read(json.dumps(body))
    if isinstance(read, ApiError):
        return
    try:
        taken = fields(model, read)
        if isinstance(taken, NewGame):
            check_ids(taken, BOX)
    except ApiError as e:
        assert e.status == 400 and e.code == "bad_request"
        assert "'" in e.message or "field" in e.message, e.message


@given(st.integers(0, 200), st.sampled_from(["[", '{"a":']))
def test_nesting_past_the_limit_is_refused_before_parsing(depth: int, opener: str) -> None:
    closer = "]" if opener == "[" else "}"
    text = opener * depth + "1" + closer * depth
    assert nesting(text) == depth
    read = _read(text)
    assert isinstance(read, ApiError) == (depth > MAX_DEPTH)


def test_a_lone_surrogate_is_refused_as_not_text() -> None:
    read = _read('{"choice": "\\ud800", "version": 1}')
    assert isinstance(read, ApiError) and "surrogate" in read.message


def _refusal(body: dict[str, Any]) -> str:
    """The message `POST /api/games` refuses `body` with, as the route reads it."""
    from funkoverse.content.setups import draw_spec
    from funkoverse.errors import UserError

    try:
        game = fields(NewGame, body)
        check_ids(game, BOX)
        try:
            draw_spec(game.request(), 0)
        except UserError as e:
            raise ApiError(400, "bad_request", str(e)) from None
    except ApiError as e:
        assert e.status == 400
        return e.message
    raise AssertionError(f"taken: {body}")


LONG = "x\n" * 2000


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"scenario": "flags", "seats": {"dark": {"play\r": "human"}}}, "'seats.dark.play\\r'"),
        ({"scenario": "flags", "seats": {"dark": {"level": "\n"}}}, "unknown level '\\n'"),
        ({"scenario": "flags", LONG: 1}, "field 'x\\nx\\n"),
        ({"scenario": "flags", "seats": {LONG: {"player": "robot"}}}, "'seats.x\\nx\\n"),
        ({"scenario": "flags", "teams": {LONG: ["nobody"]}}, "unknown character 'nobody'"),
        ({"scenario": "flags", "items": {LONG: {"dracula": "none"}}}, "unknown item 'none'"),
        ({"scenario": "flags", "items": {LONG: {"dracula": "shovel"}}}, "need that side's"),
        ({"scenario": "flags", "seats": {LONG: {}}}, "no seat 'x\\nx\\n"),
    ],
)
def test_a_refusal_quoting_a_field_name_or_value_stays_one_short_line(
    body: dict[str, Any], said: str
) -> None:
    """Found by fuzzing the server's bodies (fuzz/fuzz_server.py): a newline or a carriage
    return in a field's name or a level broke the refusal's line, and a seat's or a side's
    name thousands of characters long was quoted whole."""
    message = _refusal(body)
    assert said in message, message
    assert "\n" not in message and "\r" not in message and len(message) < 300, message

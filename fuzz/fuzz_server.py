"""Fuzz targets: what a client sends the server, read as `server/inputs.py` reads it (an HTTP
body or a WebSocket message: `read_json`, then the strict models' `fields`).

An HTTP body's first byte picks its route (a new game, a choice, an undo), the rest is the
body's bytes. A WebSocket message is text (a frame's bytes as UTF-8, as the socket hands
it on); `{"type": "choice", ...}` is read as a choice. Refused: an `ApiError` 400
`bad_request` or 413 `too_large` whose message is one line; never another exception, which
the server would answer with 500. A new game's body that is taken is then made as
`POST /api/games` makes it (its ids checked against the catalog, the rest drawn from its
seed, the game built and its first position played), and what is read is JSON that a
database and a page can hold.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from contract import MAX_INPUT, MAX_MESSAGE, Broken, keeps_shared_state

from funkoverse.content.catalog import listing
from funkoverse.content.setups import build, draw_spec
from funkoverse.errors import UserError
from funkoverse.rules.session import Session
from funkoverse.server.errors import ApiError
from funkoverse.server.inputs import fields, read_json
from funkoverse.server.models import ChoiceIn, NewGame, UndoIn, check_ids

# a body's route by the input's first byte
ROUTES: tuple[type[Any], ...] = (NewGame, ChoiceIn, UndoIn)
REFUSALS = {400: "bad_request", 413: "too_large"}


@cache
def _box() -> dict[str, Any]:
    return dict(listing())


def _refused(error: ApiError) -> None:
    """`error` is a refusal as the spec wants it for a client's input."""
    if REFUSALS.get(error.status) != error.code:
        raise Broken(f"refused with {error.status} {error.code}: {error.message[:300]!r}")
    text = error.message
    if not text or "\n" in text or "\r" in text or len(text) > MAX_MESSAGE:
        raise Broken(f"a refusal that is not one short line: {text[:300]!r}")


def _read(data: bytes | str) -> tuple[bool, Any]:
    """(True, the data) or (False, None) when refused as the contract wants."""
    try:
        value = read_json(data)
    except ApiError as e:
        _refused(e)
        return False, None
    # what is read can be written to the database and sent to a page as it is
    json.dumps(value, ensure_ascii=False).encode("utf-8")
    return True, value


def http_body(data: bytes) -> None:
    """A POST body of `/api/games`, `/choices` or `/undo`."""
    if not data or len(data) > MAX_INPUT:
        return
    model, body = ROUTES[data[0] % len(ROUTES)], data[1:]
    with keeps_shared_state():
        read, value = _read(body)
        if not read:
            return
        try:
            taken = fields(model, value)
            if isinstance(taken, NewGame):
                check_ids(taken, _box())
                try:
                    spec = draw_spec(taken.request(), taken.seed or 0)
                except UserError as e:
                    raise ApiError(400, "bad_request", str(e)) from None
        except ApiError as e:
            _refused(e)
            return
        if isinstance(taken, NewGame):  # made as the server makes it: no refusal is left
            session = Session(build(spec), taken.seed or 0)
            json.dumps(spec.to_json())
            session.view(None)


def ws_message(data: bytes) -> None:
    """A WebSocket text frame; a choice in it read as the server reads one."""
    if len(data) > MAX_INPUT:
        return
    text = data.decode("utf-8", "replace")  # a text frame is UTF-8 by the protocol
    with keeps_shared_state():
        read, value = _read(text)
        if not read or not isinstance(value, dict) or value.get("type") != "choice":
            return
        try:
            fields(ChoiceIn, {k: v for k, v in value.items() if k != "type"})
        except ApiError as e:
            _refused(e)


def seeds() -> dict[str, list[bytes]]:
    """The spec's bodies and messages (server-api.md), and a new game of every scenario,
    way to play and kind of seat."""
    box = _box()
    games: list[dict[str, Any]] = [
        {
            "scenario": "flags",
            "map": "themyscira",
            "size": 3,
            "mode": "standard",
            "seats": {"dark": {"player": "human"}, "light": {"player": "ai", "level": "hard"}},
            "teams": {"dark": ["wonder-woman", "the-cheetah", "priestess"]},
            "items": {"dark": {"wonder-woman": "lasso-of-truth"}},
            "seed": 7,
        },
        {"scenario": "flags", "draft": 3, "secret": True, "first_player": "light", "seed": 1},
        {"scenario": "brawl", "mode": "free-for-all", "players": 4, "seed": 2},
    ]
    games += [{"scenario": s["id"], "seed": i} for i, s in enumerate(box["scenarios"])]
    games += [{"scenario": "flags", "mode": m["id"], "seed": 3} for m in box["modes"]]
    choices = [{"choice": "move:c3", "version": 41}, {"choice": "pass", "version": 0}]
    undos = [{"version": 5}, {"version": 12, "tokens": ["a" * 32, "b" * 32]}]
    bodies = [
        bytes([ROUTES.index(model)]) + json.dumps(body).encode()
        for model, group in ((NewGame, games), (ChoiceIn, choices), (UndoIn, undos))
        for body in group
    ]
    messages = [
        {"token": "a" * 32},
        {"type": "token", "token": "a" * 32},
        {"type": "view"},
        {"type": "view", "since": 40},
        {"type": "choice", "choice": "move:c3", "version": 41},
    ]
    return {"http_body": bodies, "ws_message": [json.dumps(m).encode() for m in messages]}

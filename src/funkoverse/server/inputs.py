"""Reading what a client sends: a body or a WebSocket message, as the spec allows it.

Every input is read the same way, whether it came over HTTP or a WebSocket: at most
`MAX_BODY` bytes, nesting at most `MAX_DEPTH` levels deep (checked before parsing, so a
deep document costs nothing), JSON that parses, and text that is Unicode a database and a
page can hold (no lone surrogates from `\\ud800` escapes). A refusal is an `ApiError` with
one line that names what is wrong; nothing has changed when it is raised.
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from funkoverse.server.errors import ApiError

MAX_BODY = 64 * 1024
MAX_DEPTH = 32


def too_large() -> ApiError:
    return ApiError(413, "too_large", f"a body is at most {MAX_BODY // 1024} KiB")


def nesting(text: str) -> int:
    """How deep arrays and objects nest in `text` (JSON or not), strings skipped."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _check_text(value: Any) -> None:
    """Refuse a string that is not Unicode text (a lone surrogate), wherever it sits."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise ApiError(
                    400, "bad_request", "malformed JSON: a string holds a lone surrogate"
                ) from None
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def read_json(data: bytes | str) -> Any:
    """A body or message as JSON data (None when empty), or the spec's refusal: 413 when
    too large, 400 when malformed, too deep or not Unicode text."""
    if len(data) > MAX_BODY:
        raise too_large()
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise ApiError(400, "bad_request", "malformed JSON: the body is not UTF-8") from None
    else:
        text = data
    if not text.strip():
        return None
    if nesting(text) > MAX_DEPTH:
        raise ApiError(400, "bad_request", f"JSON nests deeper than {MAX_DEPTH} levels")
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as e:
        first = str(e).splitlines()[0] if str(e) else "cannot be read"
        raise ApiError(400, "bad_request", f"malformed JSON: {first}") from None
    _check_text(value)
    return value


M = TypeVar("M", bound=BaseModel)


def fields(model: type[M], data: Any) -> M:
    """`data` checked against `model` (strict types): a bad field is 400 naming it."""
    if data is not None and not isinstance(data, dict):
        raise ApiError(400, "bad_request", "the body is a JSON object")
    try:
        return model.model_validate(data if data is not None else {})
    except ValidationError as e:
        raise ApiError(400, "bad_request", first_error(e)) from None


def cut(name: str) -> str:
    """A field's name from the body (a seat, a side: any key a client sends) as a refusal
    quotes it: forty characters at most."""
    return name if len(name) <= 40 else name[:40] + "..."


def first_error(e: ValidationError) -> str:
    """A validation error in one line naming the field."""
    error = e.errors()[0]
    where = ".".join(cut(str(p)) for p in error["loc"]) or "body"
    message = str(error["msg"]).removeprefix("Value error, ")
    if error["type"] == "missing":
        return f"field '{where}' is missing"
    if error["type"] == "extra_forbidden":
        return f"field '{where}' is not known here"
    return f"field '{where}': {message}"

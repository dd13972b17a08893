"""What stands between the network and the server: headers, origins, limits, last resorts.

- Every page and answer carries a Content-Security-Policy, `X-Content-Type-Options:
  nosniff` and `X-Frame-Options: DENY`, so the page runs only its own scripts and is never
  framed by another site.
- A state-changing request (or a WebSocket) whose `Origin` names another site is refused
  with `403 bad_origin`: a page elsewhere cannot act with a visitor's browser. A request
  with no `Origin` (a bot, a script) is a client of the API like any other.
- Creating games and asking for hints are limited per client address (token buckets), so
  one client cannot fill the database or the computer's workers.
- An error nobody foresaw is answered `500 internal` in one line that names no exception
  class and no path, and the connection stays usable; what went wrong is logged.
"""

from __future__ import annotations

import json
import logging
import math
import secrets
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from funkoverse.server.errors import ApiError

log = logging.getLogger("funkoverse.server")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; font-src 'self'; worker-src 'self' blob:; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
HEADERS = [
    (b"content-security-policy", PAGE_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
]
CHANGES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def same_site(headers: dict[bytes, bytes], allowed: frozenset[str]) -> bool:
    """Whether a request's `Origin` (if it has one) is this server or one it allows."""
    origin = headers.get(b"origin")
    if origin is None:
        return True
    text = origin.decode("latin-1").strip()
    if text in allowed:
        return True
    host = headers.get(b"host", b"").decode("latin-1").strip().lower()
    parts = urlsplit(text)
    return bool(parts.scheme in ("http", "https") and parts.netloc.lower() == host and host)


def bad_origin() -> ApiError:
    return ApiError(403, "bad_origin", "this request comes from a page of another site")


class Guard:
    """The outermost layer of the server (an ASGI middleware): headers on every answer, the
    origin check, and a last answer for an error nobody foresaw."""

    def __init__(self, app: Any, allowed_origins: frozenset[str] = frozenset()) -> None:
        self.app = app
        self.allowed = allowed_origins

    @property
    def state(self) -> Any:
        """The application's state (its games and store), for the tests and the bench."""
        return self.app.state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        if scope.get("method") in CHANGES and not same_site(headers, self.allowed):
            await _answer(send, bad_origin())
            return
        started = False

        async def with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                have = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = list(message.get("headers", [])) + [
                    (k, v) for k, v in HEADERS if k not in have
                ]
            await send(message)

        try:
            await self.app(scope, receive, with_headers)
        except Exception as e:  # answered (and logged) by the app's handler when it could be
            if not started:
                await _answer(
                    with_headers, internal_error(e, scope.get("method"), scope.get("path"))
                )


def internal_error(error: BaseException, method: object, path: object) -> ApiError:
    """What went wrong, logged with an incident number; the answer names only the number."""
    incident = secrets.token_hex(4)
    log.error(
        "internal error %s on %s %s",
        incident,
        method,
        path,
        exc_info=(type(error), error, error.__traceback__),
    )
    return ApiError(500, "internal", f"internal error (incident {incident}); nothing changed")


async def _answer(send: Send, error: ApiError) -> None:
    body = json.dumps(error.body()).encode()
    await send(
        {
            "type": "http.response.start",
            "status": error.status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


@dataclass
class Bucket:
    tokens: float
    stamp: float


@dataclass
class Limit:
    """At most `burst` at once, refilled at `per_minute` a minute, for each client address."""

    what: str
    per_minute: float
    burst: int
    clock: Callable[[], float] = time.monotonic
    _buckets: dict[str, Bucket] = field(default_factory=dict)

    def take(self, address: str) -> None:
        """One more for `address`, or `429 rate_limited` saying when to try again."""
        if self.per_minute <= 0:
            return
        now = self.clock()
        rate = self.per_minute / 60.0
        bucket = self._buckets.get(address)
        if bucket is None:
            bucket = self._buckets[address] = Bucket(float(self.burst), now)
        bucket.tokens = min(float(self.burst), bucket.tokens + (now - bucket.stamp) * rate)
        bucket.stamp = now
        if bucket.tokens < 1.0:
            wait = math.ceil((1.0 - bucket.tokens) / rate)
            raise ApiError(
                429,
                "rate_limited",
                f"too many {self.what} from this address; try again in {wait} s",
            )
        bucket.tokens -= 1.0
        if len(self._buckets) > 10_000:  # forget the full buckets of addresses long quiet
            full = [a for a, b in self._buckets.items() if now - b.stamp > 600]
            for a in full:
                del self._buckets[a]


@dataclass(frozen=True)
class Limits:
    """The server's limits per client address (`funkoverse serve --limit-games/--limit-hints`):
    games created and hints asked a minute (0: no limit)."""

    games: float = 30.0
    hints: float = 60.0
    burst: int = 20

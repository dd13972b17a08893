"""What every route reads out of a request: its JSON body within the size limit, the seat
token it carries and the seat that token holds, and the client's address."""

from __future__ import annotations

from typing import Any

from fastapi import Request

from funkoverse.server.errors import ApiError
from funkoverse.server.games import Room
from funkoverse.server.inputs import MAX_BODY, read_json, too_large


async def read_body(request: Request, empty: bool = False) -> Any:
    """The request's JSON: refused as too large (413) or malformed (400) before anything else
    (an empty body is None where `empty` allows one)."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > MAX_BODY:
        raise too_large()
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise too_large()
    if empty and not data.strip():
        return None
    return read_json(data)


def bearer_token(request: Request) -> str | None:
    """The seat token a request carries (`Authorization: Bearer <token>`), if any."""
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return None


def seat_of_token(room: Room, token: str | None, required: bool) -> str | None:
    """The seat a token holds: 401 without one (when acting), 403 for one of no seat."""
    if token is None:
        if required:
            raise ApiError(
                401, "no_token", "acting needs a seat token: Authorization: Bearer <token>"
            )
        return None
    seat = room.seat_of(token)
    if seat is None:
        raise ApiError(403, "wrong_seat", "this token is not one of this game's seats")
    return seat


def client_address(request: Request) -> str:
    """The address a request came from (what the limits on new games count by)."""
    return request.client.host if request.client is not None else "unknown"

"""Live updates: a game's WebSocket (server-api.md, "Live updates").

A socket is sent its seat's view at once (from `?since=`, when given), then, after every
change, a view whose log holds only what that view adds (`log_from` says where it starts).
Everything it is sent goes through its own queue (`watchers.Watcher`), so a socket that
does not read is dropped without delaying anyone. Every message it sends is answered: a
choice with the next view or an error, a frame that cannot be read (binary, malformed,
not Unicode text, too deep) with `{"type": "error", ...}`, and the socket stays open. A
`{"type": "ping"}` (the page's heartbeat) is answered `{"type": "pong"}` with what changes
with time alone (presence, the clocks). A seat's open socket makes it present at the
table; its last one closing makes it away from then.
"""

from __future__ import annotations

import json
from collections.abc import MutableMapping
from typing import Any

from fastapi import WebSocket
from fastapi.responses import JSONResponse
from starlette.websockets import WebSocketState

from funkoverse.server.errors import ApiError
from funkoverse.server.games import Games, Room
from funkoverse.server.guard import bad_origin, same_site
from funkoverse.server.inputs import MAX_BODY, fields, read_json
from funkoverse.server.models import ChoiceIn
from funkoverse.server.watchers import Watcher


def _error(e: ApiError) -> str:
    return json.dumps({"type": "error", **e.body()})


class Live:
    """The WebSocket endpoint of every game."""

    def __init__(self, games: Games, allowed_origins: frozenset[str]) -> None:
        self.games = games
        self.allowed = allowed_origins

    async def serve(
        self, websocket: WebSocket, game: str, token: str | None, since_text: str | None
    ) -> None:
        headers = dict(websocket.scope.get("headers") or [])
        if not same_site(headers, self.allowed):
            await _deny(websocket, bad_origin())
            return
        await websocket.accept()
        try:
            room = await self.games.room(game)
            seat = None
            if token is not None:
                seat = room.seat_of(token)
                if seat is None:
                    raise ApiError(403, "wrong_seat", "this token is not one of this game's seats")
            since = _since(since_text, room)
        except ApiError as e:
            await websocket.send_text(_error(e))
            await websocket.close()
            return
        watcher = Watcher(seat, room.session.version, websocket.send_text, _closer(websocket))
        try:
            self.games.watch(room, watcher)
        except ApiError as e:
            await websocket.send_text(_error(e))
            await websocket.close()
            return
        watcher.start()
        try:
            watcher.since = room.session.version
            watcher.offer(_view(self.games, room, seat, since))
            self.games.opened(room, seat)
            while not watcher.dropped:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                await self._message(room, watcher, message)
        finally:
            watcher.stop()
            room.watchers.discard(watcher)
            self.games.closed(room, watcher.seat)

    async def _message(
        self, room: Room, watcher: Watcher, message: MutableMapping[str, Any]
    ) -> None:
        """Answer one frame (on the watcher's own queue, in order with its views)."""
        try:
            text = message.get("text")
            if text is None:
                raise ApiError(400, "bad_request", "a message is JSON text, not a binary frame")
            if len(text) > MAX_BODY:
                raise ApiError(413, "too_large", f"a message is at most {MAX_BODY // 1024} KiB")
            data = read_json(text)
            if not isinstance(data, dict):
                raise ApiError(400, "bad_request", "a message is a JSON object")
            await self._act(room, watcher, data)
        except ApiError as e:
            watcher.offer(_error(e))

    async def _act(self, room: Room, watcher: Watcher, data: dict[str, Any]) -> None:
        kind = data.get("type")
        if (kind is None and "token" in data) or kind == "token":
            token = data.get("token")
            seat = room.seat_of(token if isinstance(token, str) else None)
            if seat is None:
                raise ApiError(403, "wrong_seat", "this token is not one of this game's seats")
            if watcher.seat != seat:
                self.games.closed(room, watcher.seat)
                watcher.seat = seat
                self.games.opened(room, seat)
            watcher.since = room.session.version
            watcher.offer(_view(self.games, room, seat, None))
            return
        if kind == "ping":  # the page's heartbeat: the connection is alive both ways
            if watcher.seat is not None:
                self.games.touch(room, watcher.seat)
            at = data.get("at")
            pong = {"type": "pong", "at": at if isinstance(at, int | float) else None}
            watcher.offer(json.dumps({**pong, **self.games.table_now(room)}))
            return
        if kind == "view":
            since = data.get("since")
            if since is not None and (not isinstance(since, int) or isinstance(since, bool)):
                raise ApiError(400, "bad_request", "field 'since': a whole number")
            watcher.since = room.session.version
            watcher.offer(_view(self.games, room, watcher.seat, since))
            return
        if kind != "choice":
            raise ApiError(400, "bad_request", "type: 'choice', 'view', 'token' or 'ping'")
        if watcher.seat is None:
            raise ApiError(401, "no_token", 'acting needs a seat token: send {"token": ...} first')
        body = fields(ChoiceIn, {k: v for k, v in data.items() if k != "type"})
        changed = await self.games.play(room, watcher.seat, body.choice, body.version)
        if not changed:  # a resend: no change, so no broadcast; the view again
            watcher.since = room.session.version
            watcher.offer(_view(self.games, room, watcher.seat, None))


def _view(games: Games, room: Room, seat: str | None, since: int | None) -> str:
    if since is not None:
        since = min(since, room.session.version)
    return json.dumps({"type": "view", "view": games.view(room, seat, since)})


def _since(text: str | None, room: Room) -> int | None:
    if text is None:
        return None
    if not text.isdigit() or len(text) > 10:
        raise ApiError(400, "bad_request", "since: a whole number from 0")
    return min(int(text), room.session.version)


def _closer(websocket: WebSocket) -> Any:
    async def close(code: int, reason: str) -> None:
        if websocket.application_state != WebSocketState.DISCONNECTED:
            await websocket.close(code, reason)

    return close


async def _deny(websocket: WebSocket, error: ApiError) -> None:
    """Refuse a socket before it opens: an HTTP answer where the server can send one."""
    try:
        await websocket.send_denial_response(JSONResponse(error.body(), status_code=error.status))
    except RuntimeError:  # a server without the denial extension: a plain refusal
        await websocket.close(code=1008)

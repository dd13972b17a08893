"""The web server: the API of ../shared/spec/server-api.md, the game page, the lobby.

Requests are checked in the order the spec gives (413, malformed JSON, 404, 401, 403, a
bad field, a resend, 409 stale, 409 finished, 409 not_your_turn, 422), so a body is read
and parsed by hand before its fields are validated by the pydantic models; every refusal
is `{"error": {"code", "message"}}` and changes nothing.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from funkoverse.content.catalog import cards, catalog
from funkoverse.content.maps import load_map
from funkoverse.content.setups import draw_spec
from funkoverse.errors import UserError
from funkoverse.rules.preview import preview
from funkoverse.rules.serialize import board_to_json
from funkoverse.server.ai import Thinkers
from funkoverse.server.games import ApiError, Games, Room, Watcher
from funkoverse.server.models import ChoiceIn, NewGame, UndoIn, first_error
from funkoverse.server.store import Store

MAX_BODY = 64 * 1024
WEB = Path(str(resources.files("funkoverse") / "web"))


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


async def _body(request: Request) -> Any:
    """The request's JSON: refused as too large (413) or malformed (400) before anything else."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > MAX_BODY:
        raise ApiError(413, "too_large", f"a body is at most {MAX_BODY // 1024} KiB")
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise ApiError(413, "too_large", f"a body is at most {MAX_BODY // 1024} KiB")
    try:
        return json.loads(data) if data else None
    except (ValueError, UnicodeDecodeError) as e:
        raise ApiError(400, "bad_request", f"malformed JSON: {str(e).splitlines()[0]}") from None


def _token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return None


def _seat(room: Room, token: str | None, required: bool) -> str | None:
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


def _fields(model: type[BaseModel], data: Any) -> Any:
    try:
        return model.model_validate(data if data is not None else {})
    except ValidationError as e:
        raise ApiError(400, "bad_request", first_error(e)) from None


def latest_report(db: Path) -> Path | None:
    """The balance report page to show: the folder FUNKOVERSE_REPORT names, else `report/`
    beside the server's database; None when neither holds one."""
    import os

    from funkoverse.lab.report import latest

    named = os.environ.get("FUNKOVERSE_REPORT")
    return latest(Path(named) if named else db.parent / "report")


def create_app(db: Path, workers: int = 2, thinking: bool = True) -> FastAPI:
    """The server's application, its games kept in the SQLite database `db`."""
    store = Store(db)
    thinkers = Thinkers(workers) if thinking else None
    games = Games(store, thinkers)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        games.resume()
        yield
        if thinkers is not None:
            thinkers.close()
        store.close()

    app = FastAPI(
        title="Funkoverse",
        summary="The Funkoverse Strategy Game: play against the computer or a friend.",
        version="1",
        lifespan=lifespan,
        docs_url="/docs",
    )
    app.state.games = games

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return _error(exc.status, exc.code, exc.message)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        where = ".".join(str(p) for p in errors[0]["loc"][1:]) if errors else "request"
        return _error(
            400, "bad_request", f"{where}: {errors[0]['msg'] if errors else 'bad request'}"
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "bad_request"}.get(exc.status_code, "bad_request")
        return _error(exc.status_code, code, str(exc.detail))

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception) -> JSONResponse:
        return _error(500, "internal", f"internal error: {type(exc).__name__}")

    # -- the API -----------------------------------------------------------------

    @app.get("/api/health")
    async def health() -> dict[str, bool]:
        return {"ok": True}

    @app.get("/api/content")
    async def content() -> dict[str, Any]:
        """What a game can be made of, by box (the ids of `funkoverse content list --json`),
        the AI levels, and every card's text."""
        found: dict[str, Any] = dict(catalog())
        found["levels"] = ["easy", "normal", "hard", "expert"]
        found["cards"] = cards()
        return found

    @app.get("/api/maps/{map_id}")
    async def map_data(map_id: str) -> dict[str, Any]:
        """A map's squares, walls, areas and layers, to draw it."""
        try:
            board = load_map(map_id)
        except UserError as e:
            raise ApiError(404, "not_found", str(e)) from None
        return board_to_json(board)

    @app.post(
        "/api/games",
        status_code=201,
        openapi_extra={
            "requestBody": {
                "content": {"application/json": {"schema": NewGame.model_json_schema()}},
                "required": True,
            }
        },
    )
    async def create(request: Request) -> JSONResponse:
        """A new game; what is left out is drawn from the seed."""
        body = _fields(NewGame, await _body(request))
        seed = body.seed if body.seed is not None else secrets.randbelow(2**31)
        try:
            spec = draw_spec(body.request(), seed)
        except UserError as e:
            raise ApiError(400, "bad_request", str(e)) from None
        room, tokens = games.create(spec, seed)
        return JSONResponse(
            {
                "game": room.id,
                "seats": {seat: {"token": token} for seat, token in tokens.items()},
                "spectate": f"/games/{room.id}",
                "links": {
                    seat: f"/games/{room.id}#seat={seat}&token={token}"
                    for seat, token in tokens.items()
                },
            },
            status_code=201,
        )

    @app.get("/api/games")
    async def listing() -> dict[str, Any]:
        return {"games": games.listing()}

    @app.get("/api/games/{game}")
    async def view(game: str, request: Request) -> dict[str, Any]:
        room = games.room(game)
        seat = _seat(room, _token(request), required=False)
        return games.view(room, seat)

    @app.post(
        "/api/games/{game}/choices",
        openapi_extra={
            "requestBody": {
                "content": {"application/json": {"schema": ChoiceIn.model_json_schema()}},
                "required": True,
            }
        },
    )
    async def choose(game: str, request: Request) -> dict[str, Any]:
        data = await _body(request)
        room = games.room(game)
        seat = _seat(room, _token(request), required=True)
        assert seat is not None
        body = _fields(ChoiceIn, data)
        return await games.play(room, seat, body.choice, body.version)

    @app.post(
        "/api/games/{game}/undo",
        openapi_extra={
            "requestBody": {
                "content": {"application/json": {"schema": UndoIn.model_json_schema()}},
                "required": True,
            }
        },
    )
    async def undo(game: str, request: Request) -> dict[str, Any]:
        data = await _body(request)
        room = games.room(game)
        seat = _seat(room, _token(request), required=True)
        assert seat is not None
        body = _fields(UndoIn, data)
        return await games.undo(room, seat, body.version, body.tokens)

    @app.get("/api/games/{game}/hint")
    async def hint(game: str, request: Request) -> dict[str, Any]:
        """The search's best three choices for the seat that decides, with their estimated
        chance to win (the same search as the hard level)."""
        room = games.room(game)
        seat = _seat(room, _token(request), required=True)
        assert seat is not None
        return {"version": room.session.version, "hint": await games.hint(room, seat)}

    @app.get("/api/games/{game}/preview")
    async def preview_piece(game: str, piece: str, request: Request) -> dict[str, Any]:
        """Where a character of the seat could move, what it sees, and the odds of each
        challenge it could make, before the player commits to it."""
        room = games.room(game)
        seat = _seat(room, _token(request), required=True)
        view = room.session.view(seat)
        found = view.pieces.get(piece)
        if found is None or found.side != seat:
            raise ApiError(
                400, "bad_request", f"piece: {piece[:40]} is not one of {seat}'s characters"
            )
        seen = preview(view, piece) if seat == room.session.decider else None
        if seen is None:
            return {"piece": piece, "moves": [], "sees": [], "targets": []}
        return {
            "piece": piece,
            "moves": list(seen.moves),
            "sees": list(seen.sees),
            "targets": [
                {
                    "piece": t.piece,
                    "odds": round(t.odds, 4),
                    "with": {k: round(v, 4) for k, v in t.options.items()},
                }
                for t in seen.targets
            ],
        }

    @app.get("/api/games/{game}/replay")
    async def replay(game: str) -> dict[str, Any]:
        return games.replay(games.room(game))

    @app.get("/api/games/{game}/at/{version}")
    async def at(game: str, version: int) -> dict[str, Any]:
        return games.at(games.room(game), version)

    @app.websocket("/api/games/{game}/ws")
    async def live(websocket: WebSocket, game: str, token: str | None = None) -> None:
        await websocket.accept()
        try:
            room = games.room(game)
        except ApiError as e:
            await websocket.send_json({"type": "error", **e.body()})
            await websocket.close()
            return
        seat: str | None = None
        if token is not None:
            seat = room.seat_of(token)
            if seat is None:
                await websocket.send_json(
                    {
                        "type": "error",
                        **ApiError(
                            403, "wrong_seat", "this token is not one of this game's seats"
                        ).body(),
                    }
                )
                await websocket.close()
                return
        watcher = Watcher(seat, websocket.send_json)
        room.watchers.add(watcher)
        try:
            await websocket.send_json({"type": "view", "view": games.view(room, seat)})
            while True:
                text = await websocket.receive_text()
                await _message(room, watcher, text, websocket)
        except WebSocketDisconnect:
            pass
        finally:
            room.watchers.discard(watcher)

    async def _message(room: Room, watcher: Watcher, text: str, websocket: WebSocket) -> None:
        async def refuse(e: ApiError) -> None:
            await websocket.send_json({"type": "error", **e.body()})

        if len(text.encode("utf-8", "replace")) > MAX_BODY:
            await refuse(ApiError(413, "too_large", f"a message is at most {MAX_BODY // 1024} KiB"))
            return
        try:
            data = json.loads(text)
        except ValueError:
            await refuse(ApiError(400, "bad_request", "malformed JSON"))
            return
        if not isinstance(data, dict):
            await refuse(ApiError(400, "bad_request", "a message is a JSON object"))
            return
        kind = data.get("type")
        if (kind is None and "token" in data) or kind == "token":
            seat = room.seat_of(data.get("token") if isinstance(data.get("token"), str) else None)
            if seat is None:
                await refuse(
                    ApiError(403, "wrong_seat", "this token is not one of this game's seats")
                )
                return
            watcher.seat = seat
            await websocket.send_json({"type": "view", "view": games.view(room, seat)})
            return
        if kind == "view":
            await websocket.send_json({"type": "view", "view": games.view(room, watcher.seat)})
            return
        if kind != "choice":
            await refuse(ApiError(400, "bad_request", "type: 'choice', 'view' or 'token'"))
            return
        if watcher.seat is None:
            await refuse(
                ApiError(401, "no_token", 'acting needs a seat token: send {"token": ...} first')
            )
            return
        try:
            body = _fields(ChoiceIn, {k: v for k, v in data.items() if k != "type"})
            before = room.session.version
            seen = await games.play(room, watcher.seat, body.choice, body.version)
            if room.session.version == before:  # a resend: no change, so no broadcast
                await websocket.send_json({"type": "view", "view": seen})
        except ApiError as e:
            await refuse(e)

    # -- the page ----------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return FileResponse(WEB / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/games/{game}", include_in_schema=False)
    async def game_page(game: str) -> FileResponse:
        return FileResponse(WEB / "game.html", headers={"Cache-Control": "no-cache"})

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return FileResponse(WEB / "icon.svg", media_type="image/svg+xml")

    @app.get("/report", include_in_schema=False)
    async def report_page() -> Response:
        """The latest balance report (`funkoverse report`), when one has been written."""
        page = latest_report(db)
        if page is None:
            return Response(
                "<!doctype html><title>No report</title><p>No balance report yet: run "
                "<code>funkoverse simulate</code>, then <code>funkoverse report RESULTS.db "
                f"--out {db.parent / 'report'}</code> (or set FUNKOVERSE_REPORT to a report "
                "folder).</p>",
                status_code=404,
                media_type="text/html",
            )
        return FileResponse(page, headers={"Cache-Control": "no-cache"})

    @app.get("/report/{name}", include_in_schema=False)
    async def report_file(name: str) -> Response:
        """A CSV file of the latest report, found by its name in the report folder's listing
        (a name, never a path)."""
        page = latest_report(db)
        files = {p.name: p for p in page.parent.glob("*.csv")} if page is not None else {}
        if name not in files:
            known = ", ".join(sorted(files)) or "none: no report yet"
            return _error(404, "not_found", f"no report file '{name[:80]}'; the files: {known}")
        return FileResponse(
            files[name], media_type="text/csv", headers={"Cache-Control": "no-cache"}
        )

    app.mount("/static", StaticFiles(directory=WEB), name="static")
    return app

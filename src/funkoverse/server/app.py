"""The web server: the API of ../shared/spec/server-api.md, the game page, the lobby.

Requests are checked in the order the spec gives (413, malformed JSON, 404, 401, 403, a
bad field, a resend, 409 stale, 409 finished, 409 not_your_turn, 422), so a body is read
and parsed by hand (`inputs.read_json`) before its fields are validated by the strict
pydantic models; every refusal is `{"error": {"code", "message"}}` and changes nothing.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from funkoverse.content.catalog import SHIPPED, Catalog, cards
from funkoverse.content.catalog import listing as content_listing
from funkoverse.content.rulebooks import rule_text, rulebooks
from funkoverse.content.setups import draw_spec
from funkoverse.errors import UserError
from funkoverse.rules import Engine, board_to_json
from funkoverse.rules.words.preview import preview
from funkoverse.server.ai import Thinkers
from funkoverse.server.database import Database
from funkoverse.server.errors import ApiError
from funkoverse.server.games import Games, Room
from funkoverse.server.guard import Guard, Limit, Limits, internal_error
from funkoverse.server.guided import add_routes as add_tutorial_routes
from funkoverse.server.inputs import fields
from funkoverse.server.live import Live
from funkoverse.server.models import (
    ChoiceIn,
    ClaimIn,
    NewGame,
    RematchIn,
    ResignIn,
    UndoIn,
    check_ids,
    refusals,
)
from funkoverse.server.online import PRESENCE, Clock, Table
from funkoverse.server.requests import bearer_token, client_address, read_body, seat_of_token
from funkoverse.server.store import Store
from funkoverse.server.views import chapters

WEB = Path(str(resources.files("funkoverse") / "web"))
SEED_BITS = 128


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def latest_report(db: Path) -> Path | None:
    """The balance report page to show: the folder FUNKOVERSE_REPORT names, else `report/`
    beside the server's database; None when neither holds one."""
    import os

    from funkoverse.lab.report import latest

    named = os.environ.get("FUNKOVERSE_REPORT")
    return latest(Path(named) if named else db.parent / "report")


SINCE = Query(default=None, ge=0, description="only the log's events from this entry on")


def create_app(
    db: Path,
    workers: int = 2,
    thinking: bool = True,
    limits: Limits | None = None,
    allowed_origins: frozenset[str] = frozenset(),
    store: Store | None = None,
    engine: Engine | None = None,
    clock: Clock | None = None,
    presence: float = PRESENCE,
    catalog: Catalog = SHIPPED,
) -> Any:
    """The server's application, its games kept in the SQLite database `db` and played on
    `engine` (None: the fastest built), the computer's seats too; `clock` is the time its
    clocks and presence read (the time of day unless a test gives its own), and a seat
    without an open socket counts as here `presence` seconds after a request. Its games are
    made of `catalog`: the shipped boxes, or with fan content folders."""
    store = store if store is not None else Store(db)
    database = Database(store)
    games = Games(database, None, engine=engine, clock=clock, presence=presence, catalog=catalog)
    limits = limits or Limits()
    making = Limit("new games", limits.games, limits.burst)
    hints = Limit("hints", limits.hints, limits.burst)
    box: dict[str, Any] = dict(content_listing(catalog))
    box["levels"] = ["easy", "normal", "hard", "expert"]
    box["cards"] = cards(catalog)
    map_ids = {m["id"] for m in box["maps"]}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        games.thinkers = Thinkers(workers, games.engine.name, catalog) if thinking else None
        await games.resume()
        yield
        if games.thinkers is not None:
            games.thinkers.close()
            games.thinkers = None
        database.close()

    app = FastAPI(
        title="Funkoverse",
        summary="The Funkoverse Strategy Game: play against the computer or a friend.",
        version="1",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    app.state.games = games
    app.state.store = store

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        headers = {"Retry-After": "5"} if exc.status in (429, 503) else None
        response = _error(exc.status, exc.code, exc.message)
        if headers:
            response.headers.update(headers)
        return response

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception) -> JSONResponse:
        error = internal_error(exc, request.method, request.url.path)
        return _error(error.status, error.code, error.message)

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
        message = {404: "no such page", 405: "this method is not allowed here"}.get(
            exc.status_code, "bad request"
        )
        response = _error(exc.status_code, code, message)
        response.headers.update(exc.headers or {})
        if exc.status_code == 405:  # every method the path takes, from each route it matches
            response.headers["Allow"] = ", ".join(sorted(_methods(app, request.scope)))
        return response

    # -- the API -----------------------------------------------------------------

    @app.get("/api/health")
    async def health() -> dict[str, bool]:
        return {"ok": True}

    @app.get("/api/content")
    async def content() -> dict[str, Any]:
        """What a game can be made of, by box (the ids of `funkoverse content list --json`),
        the AI levels, and every card's text."""
        return box

    @app.get("/api/maps/{map_id}", responses=refusals(404))
    async def map_data(map_id: str) -> dict[str, Any]:
        """A map's squares, walls, areas and layers, to draw it (a map id of `/api/content`)."""
        if map_id not in map_ids:
            shown = map_id if len(map_id) <= 40 else map_id[:40] + "..."
            raise ApiError(404, "not_found", f"no map {shown!r}; the maps are in /api/content")
        return board_to_json(catalog.board(map_id))

    @app.post(
        "/api/games",
        status_code=201,
        responses=refusals(400, 403, 413, 429, 503),
        openapi_extra=body_of(NewGame),
    )
    async def create(request: Request) -> JSONResponse:
        """A new game; what is left out is drawn from the seed."""
        body = fields(NewGame, await read_body(request))
        check_ids(body, box)
        making.take(client_address(request))
        seed = body.seed if body.seed is not None else secrets.randbits(SEED_BITS)
        try:
            spec = draw_spec(body.request(), seed, catalog)
        except UserError as e:
            raise ApiError(400, "bad_request", str(e)) from None
        table = _table(body, spec)
        room, tokens = await games.create(spec, seed, table)
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

    @app.post(
        "/api/games/{game}/resign",
        responses=refusals(400, 401, 403, 404, 409, 413, 503),
        openapi_extra=body_of(ResignIn),
    )
    async def resign(game: str, request: Request) -> dict[str, Any]:
        """The seat resigns: the game ends and the other side wins (in a free-for-all the
        seat leaves and the rest play on)."""
        data = await read_body(request)
        room = await games.room(game)
        seat = seat_of_token(room, bearer_token(request), required=True)
        assert seat is not None
        games.touch(room, seat)
        body = fields(ResignIn, data)
        await games.resign(room, seat, body.version)
        return games.view(room, seat)

    @app.post(
        "/api/games/{game}/claim",
        responses=refusals(400, 401, 403, 404, 409, 413, 503),
        openapi_extra=body_of(ClaimIn),
    )
    async def claim(game: str, request: Request) -> dict[str, Any]:
        """The deciding seat has been away longer than the game's grace period: the computer
        plays it from now on (`ai`), or the claimer's side wins (`win`)."""
        data = await read_body(request)
        room = await games.room(game)
        seat = seat_of_token(room, bearer_token(request), required=True)
        assert seat is not None
        games.touch(room, seat)
        body = fields(ClaimIn, data)
        await games.claim(room, seat, body.version, body.claim)
        return games.view(room, seat)

    @app.post(
        "/api/games/{game}/rematch",
        status_code=201,
        responses=refusals(400, 401, 403, 404, 409, 413, 503),
        openapi_extra=body_of(RematchIn),
    )
    async def rematch(game: str, request: Request) -> JSONResponse:
        """A new game of the same setup, sides swapped, once this one is over: the asking
        seat's token for it (every other seat's open socket is sent its own)."""
        data = await read_body(request, empty=True)
        room = await games.room(game)
        seat = seat_of_token(room, bearer_token(request), required=True)
        assert seat is not None
        games.touch(room, seat)
        fields(RematchIn, data if data is not None else {})
        other, token, new_seat = await games.rematch(room, seat)
        seats = {new_seat: {"token": token}} if token is not None else {}
        return JSONResponse(
            {
                "game": other.id,
                "seat": new_seat,
                "token": token,
                "seats": seats,
                "spectate": f"/games/{other.id}",
                "links": {
                    s: f"/games/{other.id}#seat={s}&token={t['token']}" for s, t in seats.items()
                },
            },
            status_code=201,
        )

    @app.get("/api/games", responses=refusals(503))
    async def listing() -> dict[str, Any]:
        return {"games": await games.listing()}

    @app.get("/api/games/{game}", responses=refusals(400, 403, 404, 503))
    async def view(game: str, request: Request, since: int | None = SINCE) -> dict[str, Any]:
        room = await games.room(game)
        seat = seat_of_token(room, bearer_token(request), required=False)
        games.touch(room, seat)
        return games.view(room, seat, since)

    @app.post(
        "/api/games/{game}/choices",
        responses=refusals(400, 401, 403, 404, 409, 413, 422, 503),
        openapi_extra=body_of(ChoiceIn),
    )
    async def choose(game: str, request: Request, since: int | None = SINCE) -> dict[str, Any]:
        data = await read_body(request)
        room = await games.room(game)
        seat = seat_of_token(room, bearer_token(request), required=True)
        assert seat is not None
        games.touch(room, seat)
        body = fields(ChoiceIn, data)
        await games.play(room, seat, body.choice, body.version)
        return games.view(room, seat, _clamped(since, room))

    @app.post(
        "/api/games/{game}/undo",
        responses=refusals(400, 401, 403, 404, 409, 413, 503),
        openapi_extra=body_of(UndoIn),
    )
    async def undo(game: str, request: Request, since: int | None = SINCE) -> dict[str, Any]:
        data = await read_body(request)
        room = await games.room(game)
        seat = seat_of_token(room, bearer_token(request), required=True)
        assert seat is not None
        games.touch(room, seat)
        body = fields(UndoIn, data)
        await games.undo(room, seat, body.version, body.tokens)
        return games.view(room, seat, _clamped(since, room))

    @app.get("/api/games/{game}/hint", responses=refusals(400, 401, 403, 404, 409, 429, 503))
    async def hint(game: str, request: Request) -> dict[str, Any]:
        """The search's best three choices for the seat that decides, with their estimated
        chance to win (the same search as the hard level)."""
        room = await games.room(game)
        seat = seat_of_token(room, bearer_token(request), required=True)
        assert seat is not None
        hints.take(client_address(request))
        version = room.session.version
        return {"version": version, "hint": await games.hint(room, seat)}

    @app.get("/api/games/{game}/preview", responses=refusals(400, 401, 403, 404, 503))
    async def preview_piece(
        game: str, request: Request, piece: str = Query(max_length=60)
    ) -> dict[str, Any]:
        """Where a character of the seat could move, what it sees, and the odds of each
        challenge it could make, before the player commits to it."""
        room = await games.room(game)
        seat = seat_of_token(room, bearer_token(request), required=True)
        side = room.side_of(seat)
        view = room.session.view(side)
        found = view.pieces.get(piece)
        if found is None or found.side != side:
            raise ApiError(
                400, "bad_request", f"piece: {piece[:40]} is not one of {seat}'s characters"
            )
        seen = preview(view, piece) if seat in room.deciders() else None
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

    @app.get("/api/games/{game}/replay", responses=refusals(404, 409, 503))
    async def replay(game: str) -> dict[str, Any]:
        return games.replay(await games.room(game))

    @app.get("/api/games/{game}/at/{version}", responses=refusals(400, 404, 409, 503))
    async def at(game: str, version: int) -> dict[str, Any]:
        return games.at(await games.room(game), version)

    @app.get("/api/games/{game}/result", responses=refusals(404, 409, 503))
    async def result(game: str) -> dict[str, Any]:
        """A finished game's winner, each side's points and the rounds played (the lobby's
        list of results)."""
        room = await games.room(game)
        session = room.session
        if not session.over:
            raise ApiError(409, "not_finished", "the game is still being played")
        seen = session.view(None)
        return {
            "game": room.id,
            "winner": session.winner,
            "points": {side: seen.sides[side].points for side in seen.seats},
            "round": seen.round,
        }

    @app.get("/api/games/{game}/rounds", responses=refusals(404, 409, 503))
    async def rounds(game: str) -> dict[str, Any]:
        """Where each round of a finished game begins in its log, and which entries an undo
        took back (a replay's chapters)."""
        room = await games.room(game)
        if not room.session.over:
            raise ApiError(409, "not_finished", "the game is still being played")
        return chapters(room.session)

    @app.get("/api/rules")
    async def rules() -> dict[str, Any]:
        """The rulebooks' text, section by section (the "How to play" page)."""
        return {
            "books": [
                {
                    "id": b.id,
                    "box": b.box,
                    "title": b.title,
                    "sections": [s.to_json() for s in b.sections],
                }
                for b in rulebooks()
            ]
        }

    @app.get("/api/rules/find", responses=refusals(400, 404))
    async def rule(cite: str = Query(max_length=120)) -> dict[str, Any]:
        """The text of a rule a log line cites (its `rule`): the rulebook's section, or the
        card of a trait or status card."""
        found = rule_text(cite)
        if found is None:
            raise ApiError(404, "not_found", f"no rulebook section or card for '{cite[:60]}'")
        return found

    add_tutorial_routes(app, games, making)

    live = Live(games, allowed_origins)

    @app.websocket("/api/games/{game}/ws")
    async def socket(
        websocket: WebSocket, game: str, token: str | None = None, since: str | None = None
    ) -> None:
        await live.serve(websocket, game, token, since)

    # -- the page ----------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return FileResponse(WEB / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/learn", include_in_schema=False)
    async def learn_page() -> FileResponse:
        return FileResponse(WEB / "learn.html", headers={"Cache-Control": "no-cache"})

    @app.get("/games/{game}", include_in_schema=False)
    async def game_page(game: str) -> FileResponse:
        return FileResponse(WEB / "game.html", headers={"Cache-Control": "no-cache"})

    @app.get("/rules", include_in_schema=False)
    async def how_to_play() -> FileResponse:
        """How to play: the rulebooks' sections."""
        return FileResponse(WEB / "rules.html", headers={"Cache-Control": "no-cache"})

    @app.get("/docs", include_in_schema=False)
    async def docs() -> FileResponse:
        """The API's documentation, every script served from here (it works offline)."""
        return FileResponse(WEB / "docs.html", headers={"Cache-Control": "no-cache"})

    @app.get("/redoc", include_in_schema=False)
    async def redoc() -> FileResponse:
        return FileResponse(WEB / "redoc.html", headers={"Cache-Control": "no-cache"})

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
                "--out DIR</code> with DIR the folder <code>report</code> beside the games "
                "database (or set FUNKOVERSE_REPORT to a report folder).</p>",
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

    def openapi() -> dict[str, Any]:
        """FastAPI's document, with the bodies read by hand described by their models."""
        if app.openapi_schema is None:
            from fastapi.openapi.utils import get_openapi

            document = get_openapi(
                title=app.title, version=app.version, summary=app.summary, routes=app.routes
            )
            found = document.setdefault("components", {}).setdefault("schemas", {})
            for model in (NewGame, ChoiceIn, UndoIn, ResignIn, ClaimIn, RematchIn):
                schema = model.model_json_schema(ref_template=REF + "{model}")
                found.update(schema.pop("$defs", {}))
                found[model.__name__] = schema
            app.openapi_schema = document
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return Guard(app, allowed_origins)


REF = "#/components/schemas/"


def body_of(model: type[Any]) -> dict[str, Any]:
    """A route's JSON body in the OpenAPI document (read by `inputs.read_json`, then checked
    against `model`, so that the spec's order of refusals holds)."""
    return {
        "requestBody": {
            "content": {"application/json": {"schema": {"$ref": REF + model.__name__}}},
            "required": True,
        }
    }


def _methods(app: FastAPI, scope: Any) -> set[str]:
    from starlette.routing import Match

    methods: set[str] = set()
    for route in app.router.routes:
        match, _ = route.matches({**scope, "method": "GET"})
        if match != Match.NONE:
            methods |= set(getattr(route, "methods", None) or ())
    return methods


def _table(body: NewGame, spec: Any) -> Table:
    """A new game's online table: its grace period, clock and seating (400 for seats per
    player in a game whose sides are not shared, or a seat named for no player)."""
    table = Table(clock=body.clock.to_json() if body.clock is not None else None)
    if body.grace is not None:
        table.grace = float(body.grace)
    if body.seating == "per-player":
        players = {p for t in spec.teams for p, _ in t.players}
        if not players:
            raise ApiError(
                400,
                "bad_request",
                "seating: 'per-player' is for two players a side (mode 'teams')",
            )
        for seat, held in body.player_seats().items():
            if seat not in players:
                raise ApiError(
                    400,
                    "bad_request",
                    f"no seat '{seat[:40]}' in this game; its players are {', '.join(sorted(players))}",
                )
            kind: dict[str, str] = {"player": held.player}
            if held.player == "ai":
                kind["level"] = held.level or "normal"
            table.holders[seat] = kind
        table.seating = "per-player"
    return table


def _clamped(since: int | None, room: Room) -> int | None:
    """A `since` past what an answer holds shows what is new from there."""
    if since is None:
        return None
    return min(since, room.session.version)

"""The routes of the guided first game (`tutorial.py` holds its script).

`GET /api/tutorial` (the script's steps), `POST /api/tutorial` (a new guided game: its id
and the player's token), `POST /api/games/<id>/tutorial/next` with the player's token and
`{"version": n}` (the rival plays the step it is at), `GET /api/games/<id>/tutorial` (the
step the game is at).
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request

from funkoverse.server.errors import ApiError
from funkoverse.server.games import Games
from funkoverse.server.guard import Limit
from funkoverse.server.inputs import fields
from funkoverse.server.models import ResignIn, refusals
from funkoverse.server.online import Table
from funkoverse.server.requests import bearer_token, client_address, read_body, seat_of_token
from funkoverse.server.tutorial import NAME, of, script


def add_routes(app: FastAPI, games: Games, making: Limit) -> None:
    """The guided game's routes (see the module's docstring); a new guided game counts
    against `making`, the limit on new games per client address."""

    @app.get("/api/tutorial")
    async def tutorial_script() -> dict[str, Any]:
        """The guided first game's steps: the guide's words, the rulebook's, the choices."""
        return script().to_json()

    @app.post("/api/tutorial", status_code=201, responses=refusals(403, 429, 503))
    async def tutorial_new(request: Request) -> dict[str, Any]:
        """A new guided first game: its id and the player's seat and token."""
        making.take(client_address(request))
        found = script()
        room, tokens = await games.create(found.spec, found.seed, Table(script=NAME))
        token = tokens[found.player]
        return {
            "game": room.id,
            "seat": found.player,
            "token": token,
            "seats": {found.player: {"token": token}},
            "page": f"/learn#game={room.id}&token={token}",
        }

    @app.get("/api/games/{game}/tutorial", responses=refusals(404, 503))
    async def tutorial_at(game: str) -> dict[str, Any]:
        """The step the guided game is at, and the rival's choices it would play next."""
        room = await games.room(game)
        found = of(room.table.script)
        if found is None:
            raise ApiError(404, "not_found", f"game '{game[:40]}' is not a guided game")
        return {"step": found.step_at(room.session), "rival": found.rival_moves(room.session)}

    @app.post(
        "/api/games/{game}/tutorial/next",
        responses=refusals(400, 401, 403, 404, 409, 413, 422, 503),
    )
    async def tutorial_next(game: str, request: Request) -> dict[str, Any]:
        """The rival plays the step the game is at (its scripted choices, each checked by
        the engine as any choice is); answers the player's view."""
        data = await read_body(request)
        room = await games.room(game)
        seat = seat_of_token(room, bearer_token(request), required=True)
        found = of(room.table.script)
        if found is None:
            raise ApiError(404, "not_found", f"game '{game[:40]}' is not a guided game")
        assert seat is not None
        games.touch(room, seat)
        body = fields(ResignIn, data)
        await games.scripted(room, found, body.version)
        return games.view(room, seat)

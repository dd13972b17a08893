"""The bodies the API takes, as pydantic models with strict types: a bad field is refused
naming it. A `version` sent as `"5"`, `5.0` or `true` is not a version.

Every content field of a new game is an id of `/api/content` (`check_ids`): a client names
what the box holds, never a file, so nothing a client sends is read from disk.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from funkoverse.ai.agents import AGENTS
from funkoverse.content.setups import SetupRequest
from funkoverse.rules import SeatSpec
from funkoverse.server.errors import ApiError
from funkoverse.server.inputs import cut

Id = str  # a content id, checked against the catalog by `check_ids`
STRICT = ConfigDict(extra="forbid", strict=True)


class SeatIn(BaseModel):
    """Who holds a seat: a person, or the computer at a level (normal when not given)."""

    model_config = STRICT
    player: Literal["human", "ai"] = "human"
    level: str | None = Field(default=None, max_length=40)

    @field_validator("level")
    @classmethod
    def _known_level(cls, value: str | None) -> str | None:
        if value is not None and value not in AGENTS:
            raise ValueError(f"unknown level '{value[:30]}'; the levels are {', '.join(AGENTS)}")
        return value


class ClockIn(BaseModel):
    """A game's clock: real time (`initial` seconds a seat, `increment` seconds added after
    each of its decisions: a Fischer clock) or correspondence (at most `days` a decision)."""

    model_config = STRICT
    initial: int | None = Field(default=None, ge=1, le=7 * 86400)
    increment: int | None = Field(default=None, ge=0, le=3600)
    days: int | None = Field(default=None, ge=1, le=60)

    @model_validator(mode="after")
    def _one_kind(self) -> ClockIn:
        if self.days is not None and (self.initial is not None or self.increment is not None):
            raise ValueError("a clock is either {initial, increment} or {days}, not both")
        if self.days is None and self.initial is None:
            raise ValueError("a clock needs 'initial' seconds (with 'increment') or 'days'")
        return self

    def to_json(self) -> dict[str, float]:
        if self.days is not None:
            return {"days": self.days}
        return {"initial": self.initial or 0, "increment": self.increment or 0}


class NewGame(BaseModel):
    """`POST /api/games`: only the scenario is needed; the rest is drawn from the seed."""

    model_config = STRICT
    scenario: Id = Field(max_length=60)
    map: Id | None = Field(default=None, max_length=60)
    size: int | None = Field(default=None, ge=1, le=6)
    mode: Id | None = Field(default=None, max_length=20)
    players: int | None = Field(default=None, ge=2, le=4)
    seats: dict[str, SeatIn] = Field(default_factory=dict, max_length=8)
    teams: dict[str, list[Id]] = Field(default_factory=dict, max_length=8)
    items: dict[str, dict[Id, Id]] = Field(default_factory=dict, max_length=8)
    draft: Literal[2, 3] | None = None
    secret: bool = True
    first_player: str | None = Field(default=None, max_length=20)
    seed: int | None = Field(default=None, ge=0, le=2**63 - 1)
    grace: int | None = Field(default=None, ge=1, le=30 * 86400)
    clock: ClockIn | None = None
    seating: Literal["per-side", "per-player"] | None = None

    def request(self) -> SetupRequest:
        return SetupRequest(
            scenario=self.scenario,
            map=self.map,
            mode=self.mode,
            players=self.players,
            size=self.size,
            teams={side: tuple(ids) for side, ids in self.teams.items()},
            items=self.items,
            draft=self.draft,
            secret=self.secret,
            first_player=self.first_player,
            seats={
                seat: SeatSpec(seat, s.player, (s.level or "normal") if s.player == "ai" else None)
                for seat, s in self.seats.items()
                if seat not in self.player_seats()
            },
        )

    def player_seats(self) -> dict[str, SeatIn]:
        """The seats named for one player of a side (`dark-1`), with per-player seating."""
        if self.seating != "per-player":
            return {}
        return {seat: s for seat, s in self.seats.items() if "-" in seat}


class ChoiceIn(BaseModel):
    """`POST /api/games/<id>/choices`: a choice id answering the view of `version`."""

    model_config = STRICT
    choice: str = Field(min_length=1, max_length=200)
    version: int = Field(ge=0, le=2**31)


class UndoIn(BaseModel):
    """`POST /api/games/<id>/undo`: the version it answers, and the other human seats'
    tokens (hot-seat)."""

    model_config = STRICT
    version: int = Field(ge=0, le=2**31)
    tokens: list[str] = Field(default_factory=list, max_length=8)


class ResignIn(BaseModel):
    """`POST /api/games/<id>/resign`: the version the resignation answers."""

    model_config = STRICT
    version: int = Field(ge=0, le=2**31)


class ClaimIn(BaseModel):
    """`POST /api/games/<id>/claim`: the deciding seat, gone longer than the grace period,
    to the computer (`ai`) or the win to the claimer's side (`win`)."""

    model_config = STRICT
    version: int = Field(ge=0, le=2**31)
    claim: Literal["ai", "win"]


class RematchIn(BaseModel):
    """`POST /api/games/<id>/rematch`: nothing more than the seat's token."""

    model_config = STRICT


class ErrorDetail(BaseModel):
    code: str = Field(description="a word of server-api.md's table (bad_request, stale, ...)")
    message: str = Field(description="one line for a person")


class ErrorOut(BaseModel):
    """Every refusal of the API (server-api.md): it changed nothing."""

    error: ErrorDetail


_WHEN = {
    400: "a malformed body, a missing or mistyped field, an unknown content id",
    401: "acting without a seat token",
    403: "a token of no seat of this game, or a request from a page of another site",
    404: "no such game (or map)",
    409: "stale, not your turn, finished, not finished, nothing to undo, too early to claim",
    413: "a body over 64 KiB",
    422: "a choice that is not legal, citing the rule",
    429: "too many requests of this kind from one address",
    503: "the database cannot take the write now: nothing changed, try again",
}


def refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI answers of a route's refusals."""
    return {status: {"model": ErrorOut, "description": _WHEN[status]} for status in statuses}


def _ids(catalog: Mapping[str, Any], box: str) -> set[str]:
    return {entry["id"] for entry in catalog.get(box, [])}


def _unknown(field: str, what: str, value: str, known: set[str]) -> ApiError:
    shown = value if len(value) <= 40 else value[:40] + "..."
    listed = ", ".join(sorted(known)[:12]) + (", ..." if len(known) > 12 else "")
    return ApiError(
        400, "bad_request", f"field '{field}': unknown {what} {shown!r}; the {what}s are {listed}"
    )


def check_ids(game: NewGame, catalog: Mapping[str, Any]) -> None:
    """Every content field of `game` names an id of the catalog (400 naming the field)."""
    scenarios = _ids(catalog, "scenarios")
    if game.scenario not in scenarios:
        raise _unknown("scenario", "scenario", game.scenario, scenarios)
    maps = _ids(catalog, "maps")
    if game.map is not None and game.map not in maps:
        raise _unknown("map", "map", game.map, maps)
    modes = _ids(catalog, "modes")
    if game.mode is not None and game.mode not in modes:
        raise _unknown("mode", "way to play", game.mode, modes)
    characters = _ids(catalog, "characters")
    for side, team in game.teams.items():
        for i, character in enumerate(team):
            if character not in characters:
                raise _unknown(f"teams.{cut(side)}.{i}", "character", character, characters)
    items = _ids(catalog, "items")
    for side, held in game.items.items():
        for character, item in held.items():
            if character not in characters:
                raise _unknown(f"items.{cut(side)}", "character", character, characters)
            if item not in items:
                raise _unknown(f"items.{cut(side)}.{cut(character)}", "item", item, items)

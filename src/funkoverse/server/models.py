"""The bodies the API takes, as pydantic models: a bad field is refused naming it."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from funkoverse.ai.agents import AGENTS
from funkoverse.content.setups import SetupRequest
from funkoverse.rules.spec import SeatSpec


class SeatIn(BaseModel):
    """Who holds a seat: a person, or the computer at a level (normal when not given)."""

    model_config = ConfigDict(extra="forbid")
    player: Literal["human", "ai"] = "human"
    level: str | None = None

    @field_validator("level")
    @classmethod
    def _known_level(cls, value: str | None) -> str | None:
        if value is not None and value not in AGENTS:
            raise ValueError(f"unknown level '{value[:30]}'; the levels are {', '.join(AGENTS)}")
        return value


class NewGame(BaseModel):
    """`POST /api/games`: only the scenario is needed; the rest is drawn from the seed."""

    model_config = ConfigDict(extra="forbid")
    scenario: str = Field(max_length=60)
    map: str | None = Field(default=None, max_length=60)
    size: int | None = Field(default=None, ge=1, le=6)
    mode: str | None = Field(default=None, max_length=20)
    players: int | None = Field(default=None, ge=2, le=4)
    seats: dict[str, SeatIn] = Field(default_factory=dict)
    teams: dict[str, list[str]] = Field(default_factory=dict)
    items: dict[str, dict[str, str]] = Field(default_factory=dict)
    draft: Literal[2, 3] | None = None
    secret: bool = True
    first_player: str | None = Field(default=None, max_length=20)
    seed: int | None = Field(default=None, ge=0, le=2**63 - 1)

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
            },
        )


class ChoiceIn(BaseModel):
    """`POST /api/games/<id>/choices`: a choice id answering the view of `version`."""

    model_config = ConfigDict(extra="forbid")
    choice: str = Field(min_length=1, max_length=200)
    version: int = Field(ge=0)


class UndoIn(BaseModel):
    """`POST /api/games/<id>/undo`: the version it answers, and the other human seats'
    tokens (hot-seat)."""

    model_config = ConfigDict(extra="forbid")
    version: int = Field(ge=0)
    tokens: list[str] = Field(default_factory=list, max_length=8)


def first_error(e: ValidationError) -> str:
    """A validation error in one line naming the field."""
    error = e.errors()[0]
    where = ".".join(str(p) for p in error["loc"]) or "body"
    message = str(error["msg"]).removeprefix("Value error, ")
    if error["type"] == "missing":
        return f"field '{where}' is missing"
    if error["type"] == "extra_forbidden":
        return f"field '{where}' is not known here"
    return f"field '{where}': {message}"

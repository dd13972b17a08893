"""A setup as data: what a game is made of, written with ids and numbers only.

A `SetupSpec` names the scenario, the map, the way to play, each side's characters,
items, players and attachments (or the draft they are chosen in), the first player when
it is not flipped, and who holds each seat. It is frozen, it goes to JSON and back, and it
is what a saved game, a database row, a replay and a lab result keep: a game is its spec,
its seed and its log. `content.setups.build` turns a spec into the engine's `Setup`.

`from_json` checks the shape of every field and refuses a malformed one with one line
naming it (`SpecError`); whether an id names real content is for `build` to say.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

SPEC_VERSION = 1
PLAYERS = ("human", "ai")


class SpecError(ValueError):
    """A spec that is not well formed; the message names the field."""


@dataclass(frozen=True)
class TeamSpec:
    """One side: its characters (card ids, in order), the items it gives ((item, holder)),
    its players when two share it (More Players), and its attachments."""

    side: str
    characters: tuple[str, ...] = ()
    items: tuple[tuple[str, str], ...] = ()
    players: tuple[tuple[str, tuple[str, ...]], ...] = ()
    ultimate: bool = False
    companions: tuple[tuple[str, str], ...] = ()  # (companion id, character id)
    bonus: tuple[str, ...] = ()  # bonus objective ids


@dataclass(frozen=True)
class DraftSpec:
    """Scenario Setup, step 5, played in the game: each side chooses `size` characters and
    `items` items from the collection (`characters`, `item_ids`), in secret or not."""

    size: int = 3
    items: int = 1
    secret: bool = True
    characters: tuple[str, ...] = ()
    item_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class SeatSpec:
    """Who holds a seat: a person, or the computer at a level (an agent name, with a budget
    where it takes one: "hard", "expert", "greedy")."""

    seat: str
    player: str = "human"
    level: str | None = None


@dataclass(frozen=True)
class SetupSpec:
    """Everything fixed before the first choice, as ids and numbers."""

    scenario: str
    map: str
    mode: str = "standard"
    teams: tuple[TeamSpec, ...] = ()
    draft: DraftSpec | None = None
    first_player: str | None = None  # None: the First Player marker is flipped
    seats: tuple[SeatSpec, ...] = field(default=())
    version: int = SPEC_VERSION

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(t.side for t in self.teams)

    def seat(self, name: str) -> SeatSpec:
        """Who holds seat `name` (a person when the spec does not say)."""
        return next((s for s in self.seats if s.seat == name), SeatSpec(name))

    def to_json(self) -> dict[str, Any]:
        """The spec as JSON-ready data (`from_json` reads it back to an equal spec)."""
        out: dict[str, Any] = {
            "version": self.version,
            "scenario": self.scenario,
            "map": self.map,
            "mode": self.mode,
            "first_player": self.first_player,
            "teams": [_team_json(t) for t in self.teams],
            "seats": {s.seat: _seat_json(s) for s in self.seats},
        }
        if self.draft is not None:
            d = self.draft
            out["draft"] = {
                "size": d.size,
                "items": d.items,
                "secret": d.secret,
                "characters": list(d.characters),
                "item_ids": list(d.item_ids),
            }
        return out

    def dumps(self) -> str:
        """The spec as one line of JSON."""
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | str) -> SetupSpec:
        """Read a spec written by `to_json` (or its text); a malformed field is refused with
        `SpecError` naming it."""
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except ValueError as e:
                raise SpecError(f"spec: not JSON ({e})") from None
            except RecursionError:
                raise SpecError("spec: not JSON that can be read: nested too deeply") from None
        if not isinstance(data, Mapping):
            raise SpecError("spec: expected a JSON object")
        known = {"version", "scenario", "map", "mode", "first_player", "teams", "seats", "draft"}
        for key in data:
            if key not in known:
                raise SpecError(
                    f"spec field '{_field(key)}' is not known; the fields are {', '.join(sorted(known))}"
                )
        version = _int(data.get("version", SPEC_VERSION), "version")
        if version != SPEC_VERSION:
            raise SpecError(
                f"spec field 'version': {version} is not a version this program reads ({SPEC_VERSION})"
            )
        teams = data.get("teams", [])
        if not isinstance(teams, list):
            raise SpecError("spec field 'teams': expected a list of teams")
        seats = data.get("seats", {})
        if not isinstance(seats, Mapping):
            raise SpecError("spec field 'seats': expected an object of seats")
        draft = data.get("draft")
        first = data.get("first_player")
        if first is not None:
            first = _word(first, "first_player")
        return cls(
            scenario=_word(_need(data, "scenario"), "scenario"),
            map=_word(_need(data, "map"), "map"),
            mode=_word(data.get("mode", "standard"), "mode"),
            teams=tuple(_team(t, f"teams[{i}]") for i, t in enumerate(teams)),
            draft=None if draft is None else _draft(draft),
            first_player=first,
            seats=tuple(_seat(name, s) for name, s in seats.items()),
            version=version,
        )


# --------------------------------------------------------------------------- reading fields


def _field(name: object) -> str:
    """A field's name as the input wrote it, for a message: control characters escaped, cut
    to forty characters."""
    text = repr(str(name))[1:-1]
    return text if len(text) <= 40 else text[:37] + "..."


def _need(data: Mapping[str, Any], key: str, where: str = "") -> Any:
    if key not in data:
        raise SpecError(f"spec field '{where}{key}' is missing")
    return data[key]


def _word(value: Any, name: str) -> str:
    if not isinstance(value, str) or not value or len(value) > 200:
        raise SpecError(f"spec field '{name}': expected an id (text), got {json.dumps(value)[:60]}")
    return value


def _int(value: Any, name: str, low: int = 0, high: int = 10_000) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise SpecError(f"spec field '{name}': expected a whole number from {low} to {high}")
    return value


def _bool(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise SpecError(f"spec field '{name}': expected true or false")
    return value


def _words(value: Any, name: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise SpecError(f"spec field '{name}': expected a list of ids")
    return tuple(_word(v, f"{name}[{i}]") for i, v in enumerate(value))


def _pairs(value: Any, name: str, first: str, second: str) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, list):
        raise SpecError(f'spec field \'{name}\': expected a list of {{"{first}", "{second}"}}')
    out = []
    for i, pair in enumerate(value):
        where = f"{name}[{i}]"
        if not isinstance(pair, Mapping) or set(pair) != {first, second}:
            raise SpecError(f'spec field \'{where}\': expected {{"{first}": ..., "{second}": ...}}')
        out.append(
            (_word(pair[first], f"{where}.{first}"), _word(pair[second], f"{where}.{second}"))
        )
    return tuple(out)


def _team(value: Any, name: str) -> TeamSpec:
    if not isinstance(value, Mapping):
        raise SpecError(f"spec field '{name}': expected a team object")
    known = {"side", "characters", "items", "players", "ultimate", "companions", "bonus"}
    for key in value:
        if key not in known:
            raise SpecError(
                f"spec field '{name}.{_field(key)}' is not known; a team has {', '.join(sorted(known))}"
            )
    players = value.get("players", [])
    if not isinstance(players, list):
        raise SpecError(f"spec field '{name}.players': expected a list of players")
    read_players = []
    for i, p in enumerate(players):
        where = f"{name}.players[{i}]"
        if not isinstance(p, Mapping) or set(p) != {"player", "characters"}:
            raise SpecError(
                f'spec field \'{where}\': expected {{"player": ..., "characters": [...]}}'
            )
        read_players.append(
            (_word(p["player"], f"{where}.player"), _words(p["characters"], f"{where}.characters"))
        )
    return TeamSpec(
        side=_word(_need(value, "side", f"{name}."), f"{name}.side"),
        characters=_words(value.get("characters", []), f"{name}.characters"),
        items=tuple(
            (i, h) for h, i in _pairs(value.get("items", []), f"{name}.items", "holder", "item")
        ),
        players=tuple(read_players),
        ultimate=_bool(value.get("ultimate", False), f"{name}.ultimate"),
        companions=tuple(
            (c, h)
            for h, c in _pairs(
                value.get("companions", []), f"{name}.companions", "holder", "companion"
            )
        ),
        bonus=_words(value.get("bonus", []), f"{name}.bonus"),
    )


def _draft(value: Any) -> DraftSpec:
    if not isinstance(value, Mapping):
        raise SpecError("spec field 'draft': expected a draft object or null")
    known = {"size", "items", "secret", "characters", "item_ids"}
    for key in value:
        if key not in known:
            raise SpecError(
                f"spec field 'draft.{_field(key)}' is not known; a draft has {', '.join(sorted(known))}"
            )
    return DraftSpec(
        size=_int(value.get("size", 3), "draft.size", 1, 10),
        items=_int(value.get("items", 1), "draft.items", 0, 10),
        secret=_bool(value.get("secret", True), "draft.secret"),
        characters=_words(value.get("characters", []), "draft.characters"),
        item_ids=_words(value.get("item_ids", []), "draft.item_ids"),
    )


def _seat(name: Any, value: Any) -> SeatSpec:
    seat = _word(name, "seats")
    where = f"seats.{_field(seat)}"
    if not isinstance(value, Mapping):
        raise SpecError(f'spec field \'{where}\': expected {{"player": "human" or "ai"}}')
    for key in value:
        if key not in ("player", "level"):
            raise SpecError(
                f"spec field '{where}.{_field(key)}' is not known; a seat has player and level"
            )
    player = value.get("player", "human")
    if player not in PLAYERS:
        raise SpecError(f'spec field \'{where}.player\': expected "human" or "ai"')
    level = value.get("level")
    if level is not None:
        level = _word(level, f"{where}.level")
    return SeatSpec(seat, player, level)


def _team_json(t: TeamSpec) -> dict[str, Any]:
    out: dict[str, Any] = {"side": t.side, "characters": list(t.characters)}
    if t.items:
        out["items"] = [{"holder": h, "item": i} for i, h in t.items]
    if t.players:
        out["players"] = [{"player": p, "characters": list(c)} for p, c in t.players]
    if t.ultimate:
        out["ultimate"] = True
    if t.companions:
        out["companions"] = [{"holder": h, "companion": c} for c, h in t.companions]
    if t.bonus:
        out["bonus"] = list(t.bonus)
    return out


def _seat_json(s: SeatSpec) -> dict[str, Any]:
    out: dict[str, Any] = {"player": s.player}
    if s.level is not None:
        out["level"] = s.level
    return out

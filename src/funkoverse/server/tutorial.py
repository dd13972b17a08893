"""Learn to play: a guided first game against a scripted rival ("Your First Game", DC
Comics 102).

The game is a real one: the setup and seed of `tutorial.toml`, played by the engine, the
rival's moves legal choices that the server plays when the player asks for them. The
script holds every choice of the game in order, the player's and the rival's, so the
server keeps the game on it: the player's seat may make only the script's next choice (the
page points at it), and the rival's seat plays nothing of its own. Each step also carries
what the page shows beside the board: the guide's words and the rulebook's.

The routes that serve it are `guided.py`'s.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from funkoverse.rules import CHOICE, SeatSpec, Session, SetupSpec, TeamSpec

NAME = "first-game"  # the script's name, as a game's table records it


@dataclass(frozen=True)
class Step:
    """One step of the guided game."""

    title: str
    say: str
    section: str
    quote: str
    choice: str | None = None  # the player's choice, which the page points at
    rival: tuple[str, ...] = ()  # the rival's choices, played at the player's click
    point: str | None = None  # what the page marks beside the step

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "title": self.title,
            "say": self.say,
            "section": self.section,
            "quote": self.quote,
            "kind": "choice" if self.choice else "rival" if self.rival else "read",
        }
        if self.choice:
            out["choice"] = self.choice
        if self.rival:
            out["rival"] = list(self.rival)
        if self.point:
            out["point"] = self.point
        return out


@dataclass(frozen=True)
class Script:
    """The guided game: its setup, seed, sides and steps."""

    spec: SetupSpec
    seed: int
    player: str
    rival: str
    steps: tuple[Step, ...]

    @property
    def moves(self) -> list[tuple[str, str, int]]:
        """Every choice of the game in order: (seat, choice, the step that makes it)."""
        out: list[tuple[str, str, int]] = []
        for i, step in enumerate(self.steps):
            if step.choice:
                out.append((self.player, step.choice, i))
            out.extend((self.rival, c, i) for c in step.rival)
        return out

    def made(self, session: Session) -> int:
        """How many of the script's choices the game has made (its live choice entries)."""
        return sum(1 for e in session.entries if e.kind == CHOICE and not e.undone)

    def step_at(self, session: Session) -> int:
        """The step the game is at: the first after the last step whose choices are made."""
        made = self.made(session)
        if made == 0:
            return 0
        return self.moves[made - 1][2] + 1

    def refusal(self, session: Session, seat: str, choice: str) -> str | None:
        """Why the player may not make `choice` now (None: it is the script's next one)."""
        made = self.made(session)
        moves = self.moves
        if made >= len(moves):
            return "Learn to play: the guided game is over"
        who, wanted, _ = moves[made]
        if who != seat:
            return "Learn to play: it is the rival's move now; ask for it with Next"
        if choice != wanted:
            return f"Learn to play: this step asks for '{wanted}', not '{choice}'"
        return None

    def rival_moves(self, session: Session) -> list[str]:
        """The rival's choices of the step the game is at (empty when the player is next)."""
        made = self.made(session)
        moves = self.moves
        if made >= len(moves) or moves[made][0] != self.rival:
            return []
        step = moves[made][2]
        return [c for who, c, at in moves[made:] if at == step and who == self.rival]

    def to_json(self) -> dict[str, Any]:
        return {
            "name": NAME,
            "player": self.player,
            "rival": self.rival,
            "book": "DC Comics 102",
            "steps": [s.to_json() for s in self.steps],
        }


@cache
def script() -> Script:
    """The guided first game, read from `tutorial.toml` (shipped with the package)."""
    text = (resources.files("funkoverse.server") / "tutorial.toml").read_text("utf-8")
    data = tomllib.loads(text)
    player = str(data["player"])
    rival = next(s for s in data["teams"] if s != player)
    spec = SetupSpec(
        data["scenario"],
        data["map"],
        "standard",
        tuple(TeamSpec(side, tuple(ids)) for side, ids in data["teams"].items()),
        None,
        data["first_player"],
        seats=(
            SeatSpec(player, "human", None),
            SeatSpec(rival, "ai", str(data.get("rival_level", "easy"))),
        ),
    )
    steps = tuple(
        Step(
            s["title"],
            s["say"],
            s["section"],
            s["quote"],
            s.get("choice"),
            tuple(s.get("rival", ())),
            s.get("point"),
        )
        for s in data["steps"]
    )
    return Script(spec, int(data["seed"]), player, rival, steps)


def of(table_script: str | None) -> Script | None:
    """The script a game's table names (None for a game that is not a guided one)."""
    return script() if table_script == NAME else None

"""One authority loop for every game, whoever plays it.

A `Session` owns a game: its setup (and spec), its seed, its generator and its log. It
gives each seat the game as that seat may see it (`view`) and only that seat's legal
choices, refuses a choice from a seat that is not the decider or that answers an older
version of the game, applies the choice, logs it, draws the chance outcomes that follow
with the game's generator, and keeps the events each entry caused. The terminal game,
the arena, the server and the lab all drive games through it; an agent is handed the
observed game, never the real one.

The log is a list of entries: choices, chance outcomes and undos. Its length is the
game's version. An undo takes back the entries since the last chance outcome or secret
reveal; they stay in the log, marked undone, so versions are never reused.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from funkoverse.rules.choices import Choice, parse
from funkoverse.rules.errors import (
    GameOver,
    IllegalChoice,
    NothingToUndo,
    NotYourTurn,
    StaleVersion,
)
from funkoverse.rules.events import Event, EventKind
from funkoverse.rules.game import Game
from funkoverse.rules.spec import SetupSpec, SpecError
from funkoverse.rules.state import CHANCE, GameState, Phase, Setup
from funkoverse.rules.view import may_see_choice, observe, observe_event, secret_decision
from funkoverse.rules.world import display_names

CHOICE = "choice"
CHANCE_ENTRY = "chance"
UNDO = "undo"
KINDS = (CHOICE, CHANCE_ENTRY, UNDO)
REVEALS = frozenset({EventKind.TEAM_REVEALED, EventKind.LEADER_REVEALED})

# A seat's decider: given the game as the seat may see it and its legal choices, one of them.
Decide = Callable[[GameState, list[Choice]], Choice]


@dataclass(frozen=True)
class Entry:
    """One entry of the log: a choice (by `seat`), a chance outcome, or an undo."""

    kind: str
    choice: str = ""
    seat: str | None = None
    secret: bool = False  # a secret pick: its seat's alone until the game is over
    undone: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.choice:
            out["choice"] = self.choice
        if self.seat is not None:
            out["seat"] = self.seat
        if self.secret:
            out["secret"] = True
        if self.undone:
            out["undone"] = True
        return out

    @classmethod
    def from_json(cls, data: object, where: str = "log entry") -> Entry:
        """An entry written by `to_json`; a malformed one is refused with `ValueError`."""
        if isinstance(data, str):
            return cls(CHOICE, data)  # a bare choice id
        if not isinstance(data, Mapping):
            raise ValueError(f"{where}: expected an object with a kind and a choice")
        kind = data.get("kind", CHOICE)
        if kind not in KINDS:
            raise ValueError(f"{where}: kind '{kind}' is not one of {', '.join(KINDS)}")
        choice = data.get("choice", "")
        seat = data.get("seat")
        if not isinstance(choice, str) or (kind != UNDO and not choice):
            raise ValueError(f"{where}: expected a choice id")
        if seat is not None and not isinstance(seat, str):
            raise ValueError(f"{where}: seat: expected a seat name")
        for key in ("secret", "undone"):
            if not isinstance(data.get(key, False), bool):
                raise ValueError(f"{where}: {key}: expected true or false")
        return cls(kind, choice, seat, bool(data.get("secret")), bool(data.get("undone")))


class Session:
    """The authority over one game. `entries` replays a log (a saved game, a database);
    a log entry that the game refuses stops the replay with `IllegalChoice` naming it."""

    def __init__(
        self,
        setup: Setup,
        seed: int,
        entries: Iterable[Entry] = (),
        settle: bool = True,
        strict: bool = True,
    ) -> None:
        self.setup = setup
        self.seed = seed
        self.entries: list[Entry] = []
        self.records: list[tuple[Event, ...]] = []  # the events each entry caused
        self._game = Game(setup, seed)
        self._names = display_names(self._game.peek())
        entries = list(entries)
        if entries:
            self._replay(entries, strict)
        if settle:
            self._settle()

    # -- what anyone may ask ----------------------------------------------------

    def fork(self) -> Session:
        """An independent copy of the session: a choice played on it leaves this one as it was
        (the server keeps the copy only once the choice is written to its database)."""
        other = Session.__new__(Session)
        other.setup = self.setup
        other.seed = self.seed
        other.entries = list(self.entries)
        other.records = list(self.records)
        other._game = self._game.fork()
        other._names = self._names
        return other

    @property
    def version(self) -> int:
        """How many entries the log holds."""
        return len(self.entries)

    @property
    def decider(self) -> str | None:
        """The seat that decides now (chance is drawn at once, so never `CHANCE` after a
        choice), or None when the game is over."""
        return self._game.decider

    @property
    def over(self) -> bool:
        return self._game.over

    @property
    def winner(self) -> str | None:
        return self._game.winner

    @property
    def seats(self) -> tuple[str, ...]:
        return self._game.seats

    @property
    def phase(self) -> Phase:
        """The phase of the game (setup's flip, draft, secret picks and placing, or play)."""
        return self._game.peek().phase

    @property
    def state(self) -> GameState:
        """The real position: for the authority itself and for tests, never for a seat."""
        return self._game.state

    def names(self) -> dict[str, str]:
        """The name each piece goes by in words (see `world.display_names`)."""
        state = self._game.peek()
        if len(self._names) != len(state.pieces):  # teams chosen in the game
            self._names = display_names(state)
        return self._names

    def view(self, seat: str | None) -> GameState:
        """The game as `seat` may see it (`None`: a spectator): always a copy."""
        state = self._game.peek()
        seen = observe(state, seat)
        return seen.copy() if seen is state else seen

    def choices(self, seat: str | None) -> list[Choice]:
        """The legal choices of `seat`: empty unless it is the decider."""
        if seat is None or seat != self.decider:
            return []
        return self._game.legal()

    def events(self, seat: str | None, since: int = 0) -> list[tuple[int, Event]]:
        """Every event from entry `since` on, as `seat` may see it, with its entry's index."""
        out: list[tuple[int, Event]] = []
        for i in range(since, len(self.records)):
            out.extend((i, observe_event(e, seat)) for e in self.records[i])
        return out

    def log(self, seat: str | None) -> list[Entry]:
        """The log as `seat` may read it: another seat's secret picks hidden until the game is
        over (the choice id replaced by '?')."""
        if self.over:
            return list(self.entries)
        return [
            e if may_see_choice(seat, e.seat, e.secret) else replace(e, choice="?")
            for e in self.entries
        ]

    # -- making choices ---------------------------------------------------------

    def play(
        self, seat: str | None, choice: Choice | str, version: int | None = None
    ) -> list[Event]:
        """`seat` makes `choice` answering `version` (None: the current one); returns what
        happened, the chance drawn after it included. Refused, with nothing changed: a game
        over (`GameOver`), another version (`StaleVersion`), a seat that is not the decider
        (`NotYourTurn`), a choice that is not legal (`IllegalChoice`, citing the rule)."""
        if self.over:
            raise GameOver("the game is over")
        if version is not None and version != self.version:
            raise StaleVersion(
                f"this choice answers version {version}; the game is at version {self.version}"
            )
        decider = self.decider
        if seat != decider:
            raise NotYourTurn(f"{decider} decides now, not {seat}")
        value = parse(choice) if isinstance(choice, str) else choice
        secret = secret_decision(self._game.peek())
        events = self._game.play(value)
        self._add(Entry(CHOICE, value.format(), seat, secret), events)
        before = len(self.records) - 1
        self._settle()
        return [e for record in self.records[before:] for e in record]

    def undoable(self) -> int:
        """How many live entries an undo would take back: those since the last chance
        outcome, secret reveal or undo (0: nothing to undo)."""
        count = 0
        for entry, events in zip(reversed(self.entries), reversed(self.records), strict=True):
            if entry.kind != CHOICE or entry.undone:
                break
            if any(e.kind in REVEALS for e in events):
                break
            count += 1
        return count

    def undo_seats(self) -> set[str]:
        """The seats whose choices an undo would take back."""
        n = self.undoable()
        return {e.seat for e in self.entries[len(self.entries) - n :] if e.seat is not None}

    def undo(self) -> list[Event]:
        """Take back every choice since the last chance outcome or secret reveal (whoever made
        it: a reply of the computer included); the undo is an entry of its own."""
        if self.over:
            raise GameOver("the game is over")
        n = self.undoable()
        if n == 0:
            raise NothingToUndo("nothing to undo since the last roll or reveal")
        start = len(self.entries) - n
        for i in range(start, len(self.entries)):
            self.entries[i] = replace(self.entries[i], undone=True)
        self._rebuild()
        self.entries.append(Entry(UNDO))
        self.records.append(())
        return []

    def play_out(
        self,
        deciders: Mapping[str, Decide],
        max_rounds: int | None = None,
        after: Callable[[str, list[Event]], None] | None = None,
    ) -> bool:
        """Play to the end, each seat's choices from its decider (given the observed game);
        True when stopped past `max_rounds`. `after` is told each seat's choice's events."""
        while not self.over:
            if max_rounds is not None and self._game.round > max_rounds:
                return True
            seat = self.decider
            assert seat is not None and seat != CHANCE
            options = self.choices(seat)
            choice = deciders[seat](self.view(seat), options)
            if choice not in options:
                raise IllegalChoice(
                    f"{seat}'s decider chose '{choice.format()}', not one of the legal choices"
                )
            events = self.play(seat, choice)
            if after is not None:
                after(seat, events)
        return False

    # -- the log ----------------------------------------------------------------

    def _add(self, entry: Entry, events: Sequence[Event]) -> None:
        self.entries.append(entry)
        self.records.append(tuple(events))

    def _settle(self) -> None:
        """Draw chance outcomes until a seat decides or the game ends."""
        while not self._game.over and self._game.decider == CHANCE:
            events = self._game.play_chance()
            self._add(Entry(CHANCE_ENTRY, self._game.log[-1].format()), events)

    @classmethod
    def prefix(cls, session: Session, version: int) -> Session:
        """The game after the first `version` entries of `session`'s log, as it stood then
        (its undos' marks as they were, chance not drawn beyond them): a step of a replay."""
        entries = [replace(e, undone=False) for e in session.entries[:version]]
        return cls(session.setup, session.seed, entries, settle=False, strict=False)

    def extend(self, entries: Sequence[Entry]) -> None:
        """Play on from here with entries of the same game's log (an authority's entries from
        this session's version on: chance outcomes as logged, undos taken again); refused
        with `IllegalChoice` naming the entry, as a replay is."""
        self._replay(entries, strict=True)

    def _replay(self, entries: Sequence[Entry], strict: bool = True) -> None:
        first = len(self.entries)
        for i, entry in enumerate(entries, start=first):
            where = f"log entry {i + 1} ('{entry.choice or entry.kind}')"
            if entry.kind == UNDO:
                n = self.undoable()
                if n == 0:
                    raise IllegalChoice(f"{where}: nothing to undo there")
                self.undo()
                continue
            decider = self.decider
            if self.over:
                raise IllegalChoice(f"{where}: the game was already over")
            if entry.kind == CHANCE_ENTRY and decider != CHANCE:
                raise IllegalChoice(f"{where}: a chance outcome where {decider} decides")
            if entry.kind == CHOICE and (decider == CHANCE or (entry.seat not in (None, decider))):
                raise IllegalChoice(f"{where}: {decider} decides there, not {entry.seat}")
            try:
                events = self._game.replay_one(entry.choice)
            except IllegalChoice as e:
                raise IllegalChoice(f"{where}: {e}") from None
            seat = None if entry.kind == CHANCE_ENTRY else decider
            self._add(Entry(entry.kind, entry.choice, seat, entry.secret), events)
        for i, (read, made) in enumerate(zip(entries, self.entries[first:], strict=True), first):
            if not strict:
                break
            if read.undone != made.undone:
                said = (
                    "marked undone, but no undo takes it back"
                    if read.undone
                    else "taken back by an undo but not marked undone"
                )
                raise IllegalChoice(f"log entry {i + 1} ('{read.choice or read.kind}'): {said}")

    def _rebuild(self) -> None:
        """Replay the live entries from the start (after an undo): the same seed draws the
        same dice."""
        self._game = Game(self.setup, self.seed)
        for entry in self.entries:
            if entry.kind == UNDO or entry.undone:
                continue
            self._game.replay_one(entry.choice)

    # -- a saved game -------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The game as a file holds it: its spec, seed and log."""
        spec = self.setup.spec
        if spec is None:
            raise ValueError("this game was not set up from a spec, so it cannot be saved")
        return {
            "format": "funkoverse-game",
            "version": 1,
            "spec": spec.to_json(),
            "seed": self.seed,
            "log": [e.to_json() for e in self.entries],
        }

    @classmethod
    def from_json(cls, data: object, build: Callable[[SetupSpec], Setup]) -> Session:
        """A saved game (`to_json`) played again to where it stopped; `build` turns its spec
        into a setup. A damaged file is refused with `ValueError` naming what is wrong; a log
        with an illegal choice is replayed up to it and refused there (`IllegalChoice`)."""
        if not isinstance(data, Mapping):
            raise ValueError("not a saved game: expected a JSON object")
        if data.get("format") != "funkoverse-game":
            raise ValueError("not a saved game: its 'format' is not 'funkoverse-game'")
        if data.get("version") != 1:
            raise ValueError(
                f"saved game version {data.get('version')!r} is not one this program reads (1)"
            )
        for key in ("spec", "seed", "log"):
            if key not in data:
                raise ValueError(f"saved game: field '{key}' is missing")
        seed = data["seed"]
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError("saved game: field 'seed': expected a whole number")
        log = data["log"]
        if not isinstance(log, list):
            raise ValueError("saved game: field 'log': expected a list of entries")
        try:
            spec = SetupSpec.from_json(data["spec"])
        except SpecError as e:
            raise ValueError(f"saved game: {e}") from None
        entries = [Entry.from_json(e, f"log entry {i + 1}") for i, e in enumerate(log)]
        return cls(build(spec), seed, entries)

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

A game can also end, or change hands, outside the rules of play, by what players do at
the table: a player resigns, claims the win from an opponent who has left, or runs out
of time. These are entries of their own (kinds `resign`, `claim`, `timeout`): an ending
names the winning side (`end`), a claim that hands a seat to the computer changes no
piece (`note`), and in a free-for-all a player who resigns or runs out of time leaves while
the others play on (`leave`: its characters leave the map for good, `rules.play.leaving`; the
last player left wins). None is a choice of the game, so no undo reaches back past one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from funkoverse.rules.core.choices import Choice, parse
from funkoverse.rules.core.errors import (
    GameOver,
    IllegalChoice,
    NothingToUndo,
    NotYourTurn,
    StaleVersion,
    Unsupported,
)
from funkoverse.rules.core.events import Event, EventKind
from funkoverse.rules.core.spec import SetupSpec, SpecError
from funkoverse.rules.core.state import CHANCE, GameState, Phase, Setup
from funkoverse.rules.core.view import may_see_choice, observe, observe_event, secret_decision
from funkoverse.rules.core.world import display_names
from funkoverse.rules.engines import CHANCE_AT, OVER_AT, Engine, Position
from funkoverse.rules.engines.base import AS_IS
from funkoverse.rules.game import Game, Record, ShownFirst
from funkoverse.rules.turn import Decide, Turn

CHOICE = "choice"
CHANCE_ENTRY = "chance"
UNDO = "undo"
RESIGN = "resign"
CLAIM = "claim"
TIMEOUT = "timeout"
OUTSIDE = (RESIGN, CLAIM, TIMEOUT)  # what players do at the table, not a move of the game
KINDS = (CHOICE, CHANCE_ENTRY, UNDO, *OUTSIDE)
WINS = "win:"  # an outside entry's choice that ends the game: "win:<side>"
HANDED = "ai:"  # a claim's choice that hands a seat to the computer: "ai:<seat>"
LEAVES = "leave:"  # a free-for-all player leaves and the rest play on: "leave:<side>"
REVEALS = frozenset({EventKind.TEAM_REVEALED, EventKind.LEADER_REVEALED})
SECRET_PHASES = frozenset({Phase.DRAFT, Phase.SECRET})  # where a pick may be a secret


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
    """The authority over one game, played on `engine` (the fastest this machine has when
    none is given). `entries` replays a log (a saved game, a database); a log entry that the
    game refuses stops the replay with `IllegalChoice` naming it.

    The log is kept compact (each entry's kind, choice value, seat and whether it is a
    secret) and each entry's events as the engine recorded them: `entries` and `records`
    read them out as `Entry` and `Event` values when asked, once."""

    def __init__(
        self,
        setup: Setup,
        seed: int,
        entries: Iterable[Entry] = (),
        settle: bool = True,
        strict: bool = True,
        engine: Engine | None = None,
    ) -> None:
        self.setup = setup
        self.seed = seed
        self._log: list[tuple[str, Choice | None, str | None, bool]] = []
        self._undone: set[int] = set()
        self._records: list[Record] = []
        self._entries: list[Entry] = []  # `entries` read out so far
        self._decoded: list[tuple[Event, ...]] = []  # `records` read out so far
        self._seen: dict[str, int] = {}  # the version after each seat's last choice
        # whether any pick of this game can be a secret (a draft in secret, Leaders)
        self._secretive = (setup.draft is not None and setup.draft.secret) or (
            setup.scenario.leaders
        )
        self._ended: str | None = None  # the side that won by an ending outside play
        self._outside: dict[int, str] = {}  # the outside entries' choices, by index
        self._game = Game(setup, seed, engine)
        self._at = self._game.position.at()  # the decider's index, read after each change
        self._names = display_names(self._game.peek())
        entries = list(entries)
        if entries:
            self._replay(entries, strict)
        if settle:
            self._settle()

    def fork(self) -> Session:
        """An independent copy of the session: a choice played on it leaves this one as it was
        (the server keeps the copy only once the choice is written to its database)."""
        other = Session.__new__(Session)
        other.setup = self.setup
        other.seed = self.seed
        other._log = list(self._log)
        other._undone = set(self._undone)
        other._records = list(self._records)
        other._entries = list(self._entries)
        other._decoded = list(self._decoded)
        other._seen = dict(self._seen)
        other._secretive = self._secretive
        other._ended = self._ended
        other._outside = dict(self._outside)
        other._game = self._game.fork()
        other._at = self._at
        other._names = self._names
        return other

    # -- what anyone may ask ----------------------------------------------------

    @property
    def engine(self) -> Engine:
        """The engine the game is played on now."""
        return self._game.engine

    @property
    def fallback(self) -> str | None:
        """Why the game is not played on the engine it was given, if it is not."""
        return self._game.fallback

    @property
    def version(self) -> int:
        """How many entries the log holds."""
        return len(self._log)

    @property
    def entries(self) -> list[Entry]:
        """The log as `Entry` values (read out once each; do not change the list)."""
        out = self._entries
        log = self._log
        for i in range(len(out), len(log)):
            kind, choice, seat, secret = log[i]
            out.append(
                Entry(
                    kind,
                    choice.format() if choice is not None else self._outside.get(i, ""),
                    seat,
                    secret,
                    i in self._undone,
                )
            )
        return out

    @property
    def records(self) -> list[tuple[Event, ...]]:
        """The events each entry caused (read out once each; do not change the list)."""
        out = self._decoded
        records = self._records
        for i in range(len(out), len(records)):
            decoder, raw = records[i]
            out.append(decoder.decode(raw))
        return out

    @property
    def decider(self) -> str | None:
        """The seat that decides now (chance is drawn at once, so never `CHANCE` after a
        choice), or None when the game is over."""
        at = self._at
        if at >= 0:
            return self._game.position.seats[at]
        return CHANCE if at == CHANCE_AT else None

    @property
    def over(self) -> bool:
        return self._at == OVER_AT

    @property
    def winner(self) -> str | None:
        if self._ended is not None:
            return self._ended
        return self._game.position.winner

    @property
    def ended_outside(self) -> bool:
        """Whether the game ended by a resignation, a claim or a clock, not by its rules (a
        free-for-all's last rival leaving included)."""
        log = self._log
        return self._ended is not None or (self.over and bool(log) and log[-1][0] in OUTSIDE)

    @property
    def gone(self) -> tuple[str, ...]:
        """The seats that have left a free-for-all, in the order they left."""
        return self._game.peek().gone

    @property
    def seats(self) -> tuple[str, ...]:
        return self._game.seats

    @property
    def round(self) -> int:
        return self._game.position.round

    @property
    def phase(self) -> Phase:
        """The phase of the game (setup's flip, draft, secret picks and placing, or play)."""
        return self._game.position.phase

    @property
    def state(self) -> GameState:
        """The real position, as a copy: for the authority itself and for tests, never for a
        seat."""
        return self._game.state

    def peek(self) -> GameState:
        """The real position, to read and never to change: for the authority itself."""
        return self._game.peek()

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

    def look(self, seat: str | None) -> GameState:
        """The game as `seat` may see it, to read and never to change (no copy where the
        seat may see everything): for a reader that keeps nothing past the next choice."""
        return observe(self._game.peek(), seat)

    def choices(self, seat: str | None) -> Sequence[Choice]:
        """The legal choices of `seat`: empty unless it is the decider."""
        at = self._at
        position = self._game.position
        if at < 0 or seat != position.seats[at]:
            return []
        try:
            return position.legal()
        except Unsupported:  # past what the engine holds: the game goes on without it
            return self._game.legal()

    def turn(self, seat: str) -> Turn:
        """What `seat` is handed to decide now (it must be the decider): its view, its legal
        choices, what it has not seen, and a position to search on."""
        if seat != self.decider:
            raise NotYourTurn(f"{self.decider} decides now, not {seat}")
        game = self._game
        return Turn(
            seat,
            len(self._log),
            game.legal(),
            self,
            self._seen.get(seat, 0),
            turns=game.position.turns,
        )

    def searchable(self, seat: str) -> Position | None:
        """A fork of the game's position for `seat`'s search, or None while it holds what the
        seat may not see (a rival's secret pick)."""
        position = self._game.position
        if position.phase in SECRET_PHASES or self.setup.scenario.leaders:
            state = position.peek()
            if observe(state, seat) is not state:
                return None
        return position.fork()

    def events(self, seat: str | None, since: int = 0) -> list[tuple[int, Event]]:
        """Every event from entry `since` on, as `seat` may see it, with its entry's index."""
        records = self.records
        out: list[tuple[int, Event]] = []
        for i in range(since, len(records)):
            out.extend((i, observe_event(e, seat)) for e in records[i])
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
    ) -> Sequence[Event]:
        """`seat` makes `choice` answering `version` (None: the current one); returns what
        happened, the chance drawn after it included (read out when looked at). Refused, with
        nothing changed: a game over (`GameOver`), another version (`StaleVersion`), a seat
        that is not the decider (`NotYourTurn`), a choice that is not legal (`IllegalChoice`,
        citing the rule)."""
        game = self._game
        position = game.position
        at = self._at
        log = self._log
        if at < 0:
            if at == OVER_AT:
                raise GameOver("the game is over")
            if seat != CHANCE:
                raise NotYourTurn(f"{CHANCE} decides now, not {seat}")
        if version is not None and version != len(log):
            raise StaleVersion(
                f"this choice answers version {version}; the game is at version {len(log)}"
            )
        if at >= 0 and seat != position.seats[at]:
            raise NotYourTurn(f"{position.seats[at]} decides now, not {seat}")
        value: Choice = parse(choice) if choice.__class__ is str else choice  # type: ignore[assignment]
        secret = (
            self._secretive and position.phase in SECRET_PHASES and secret_decision(position.peek())
        )
        if game.fallback is None:  # the fast way: the position as it is, nothing to watch
            try:
                record: Record = (position.decoder, position.apply(value))
            except (Unsupported, RuntimeError):
                record = game.play_record(value)  # leaves the engine and plays it again
            else:
                game.log.append(value)
        else:
            record = game.play_record(value)
        before = len(log)
        log.append((CHOICE, value, seat, secret))
        self._records.append(record)
        at = self._at = game.position.at()
        if at == CHANCE_AT:
            self._settle()
        if seat is not None:
            self._seen[seat] = len(log)
        return Happened((self, before))

    def undoable(self) -> int:
        """How many live entries an undo would take back: those since the last chance
        outcome, secret reveal or undo (0: nothing to undo)."""
        count = 0
        log = self._log
        for i in range(len(log) - 1, -1, -1):
            kind = log[i][0]
            if kind != CHOICE or i in self._undone:
                break
            if any(e.kind in REVEALS for e in self._events_of(i)):
                break
            count += 1
        return count

    def _events_of(self, i: int) -> tuple[Event, ...]:
        if i < len(self._decoded):
            return self._decoded[i]
        decoder, raw = self._records[i]
        return decoder.decode(raw)

    def undo_seats(self) -> set[str]:
        """The seats whose choices an undo would take back."""
        n = self.undoable()
        return {e[2] for e in self._log[len(self._log) - n :] if e[2] is not None}

    def undo(self) -> list[Event]:
        """Take back every choice since the last chance outcome or secret reveal (whoever made
        it: a reply of the computer included); the undo is an entry of its own."""
        if self.over:
            raise GameOver("the game is over")
        n = self.undoable()
        if n == 0:
            raise NothingToUndo("nothing to undo since the last roll or reveal")
        start = len(self._log) - n
        for i in range(start, len(self._log)):
            self._undone.add(i)
            if i < len(self._entries):
                self._entries[i] = replace(self._entries[i], undone=True)
        self._rebuild()
        self._log.append((UNDO, None, None, False))
        self._records.append((AS_IS, ()))
        return []

    def end(self, kind: str, seat: str | None, winner: str) -> None:
        """End the game outside its rules of play: `seat` resigned (`resign`), a seat claimed
        the win from an opponent gone for too long (`claim`), or `seat` ran out of time
        (`timeout`); `winner` is the side that wins. Logged as an entry of that kind."""
        if kind not in OUTSIDE:
            raise ValueError(f"an ending is one of {', '.join(OUTSIDE)}, not '{kind}'")
        if self.over:
            raise GameOver("the game is over")
        self._outside[len(self._log)] = WINS + winner
        self._log.append((kind, None, seat, False))
        self._records.append((AS_IS, ()))
        self._ended = winner
        self._at = OVER_AT

    def leave(self, kind: str, seat: str | None, side: str) -> Sequence[Event]:
        """Free-for-All: `side` leaves the game and the others play on (`seat` resigned, or
        ran out of time): its characters leave the map for good, it decides no more, and
        when one player is left that player wins (`rules.play.leaving`). Logged as an entry of
        `kind` whose events are the leaving's; refused with `IllegalChoice` (two sides, a
        seat gone already, the setup's flip or draft) and `GameOver`, nothing changed."""
        if kind not in OUTSIDE:
            raise ValueError(f"a leaving is one of {', '.join(OUTSIDE)}, not '{kind}'")
        if self.over:
            raise GameOver("the game is over")
        before = len(self._log)
        record = self._game.depart(side)
        self._outside[before] = LEAVES + side
        self._log.append((kind, None, seat, False))
        self._records.append(record)
        self._at = self._game.position.at()
        if self._at == CHANCE_AT:
            self._settle()
        return Happened((self, before))

    def note(self, kind: str, seat: str | None, what: str) -> None:
        """Log what players did at the table that changes no piece (a claim that hands an
        absent seat to the computer: `what` is "ai:<seat>"), as an entry of `kind`."""
        if kind not in OUTSIDE or what.startswith((WINS, LEAVES)) or not what:
            raise ValueError(f"a note is one of {', '.join(OUTSIDE)} that ends nothing")
        if self.over:
            raise GameOver("the game is over")
        self._outside[len(self._log)] = what
        self._log.append((kind, None, seat, False))
        self._records.append((AS_IS, ()))

    def play_out(
        self,
        deciders: Mapping[str, Decide],
        max_rounds: int | None = None,
        after: Callable[[str, Sequence[Event]], None] | None = None,
    ) -> bool:
        """Play to the end, each seat's choices from its decider (handed the seat's `Turn`);
        True when stopped past `max_rounds`. `after` is told each seat's choice's events."""
        while not self.over:
            if max_rounds is not None and self.round > max_rounds:
                return True
            seat = self.decider
            assert seat is not None and seat != CHANCE
            turn = self.turn(seat)
            options = turn.choices
            choice = deciders[seat](turn)
            if choice not in options:
                raise IllegalChoice(
                    f"{seat}'s decider chose '{choice.format()}', not one of the legal choices"
                )
            events = self.play(seat, choice)
            if after is not None:
                after(seat, events)
        return False

    # -- the log ----------------------------------------------------------------

    def _settle(self) -> None:
        """Draw chance outcomes until a seat decides or the game ends."""
        if self._ended is not None:
            return
        game = self._game
        while game.position.at() == CHANCE_AT:
            choice, record = game.chance_record()
            self._log.append((CHANCE_ENTRY, choice, None, False))
            self._records.append(record)
        self._at = game.position.at()

    @classmethod
    def prefix(cls, session: Session, version: int) -> Session:
        """The game after the first `version` entries of `session`'s log, as it stood then
        (its undos' marks as they were, chance not drawn beyond them): a step of a replay."""
        entries = [replace(e, undone=False) for e in session.entries[:version]]
        return cls(
            session.setup,
            session.seed,
            entries,
            settle=False,
            strict=False,
            engine=session._game.wanted,
        )

    def extend(self, entries: Sequence[Entry]) -> None:
        """Play on from here with entries of the same game's log (an authority's entries from
        this session's version on: chance outcomes as logged, undos taken again); refused
        with `IllegalChoice` naming the entry, as a replay is."""
        self._replay(entries, strict=True)

    def _replay(self, entries: Sequence[Entry], strict: bool = True) -> None:
        first = len(self._log)
        for i, entry in enumerate(entries, start=first):
            game = self._game  # an undo plays the game again: a new one
            where = f"log entry {i + 1} ('{entry.choice or entry.kind}')"
            if entry.kind == UNDO:
                if self.undoable() == 0:
                    raise IllegalChoice(f"{where}: nothing to undo there")
                self.undo()
                continue
            if self._ended is not None:
                raise IllegalChoice(f"{where}: the game was already over")
            if entry.kind in OUTSIDE:
                try:
                    if entry.choice.startswith(WINS):
                        self.end(entry.kind, entry.seat, entry.choice[len(WINS) :])
                    elif entry.choice.startswith(LEAVES):
                        self.leave(entry.kind, entry.seat, entry.choice[len(LEAVES) :])
                    else:
                        self.note(entry.kind, entry.seat, entry.choice)
                except (GameOver, ValueError, IllegalChoice) as e:
                    raise IllegalChoice(f"{where}: {e}") from None
                continue
            at = game.position.at()
            if at == OVER_AT:
                raise IllegalChoice(f"{where}: the game was already over")
            decider = game.position.seats[at] if at >= 0 else CHANCE
            if entry.kind == CHANCE_ENTRY and at != CHANCE_AT:
                raise IllegalChoice(f"{where}: a chance outcome where {decider} decides")
            if entry.kind == CHOICE and (at == CHANCE_AT or entry.seat not in (None, decider)):
                raise IllegalChoice(f"{where}: {decider} decides there, not {entry.seat}")
            try:
                value = parse(entry.choice)
                if at == CHANCE_AT:
                    drawn, shown = game.sample_chance()
                    if drawn != value:
                        raise IllegalChoice(
                            f"'{value.format()}': the dice of this seed give "
                            f"'{drawn.format()}' here"
                        )
                    decoder, raw = game.play_record(value)
                    record: Record = (ShownFirst(shown, decoder), raw) if shown else (decoder, raw)
                else:
                    record = game.play_record(value)
            except IllegalChoice as e:
                raise IllegalChoice(f"{where}: {e}") from None
            seat = None if entry.kind == CHANCE_ENTRY else decider
            self._log.append((entry.kind, value, seat, entry.secret))
            self._records.append(record)
            self._at = game.position.at()
        made = self.entries
        for i, read in enumerate(entries, start=first):
            if not strict:
                break
            if read.undone != made[i].undone:
                said = (
                    "marked undone, but no undo takes it back"
                    if read.undone
                    else "taken back by an undo but not marked undone"
                )
                raise IllegalChoice(f"log entry {i + 1} ('{read.choice or read.kind}'): {said}")

    def _rebuild(self) -> None:
        """Replay the live entries from the start (after an undo): the same seed draws the
        same dice."""
        game = Game(self.setup, self.seed, self._game.wanted)
        for i, (kind, choice, _, _) in enumerate(self._log):
            if kind in OUTSIDE and self._outside.get(i, "").startswith(LEAVES):
                game.depart(self._outside[i][len(LEAVES) :])  # a free-for-all player left
                continue
            if kind == UNDO or kind in OUTSIDE or i in self._undone:
                continue
            assert choice is not None
            game.replay_one(choice)
        self._game = game
        self._at = game.position.at()

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
    def from_json(
        cls, data: object, build: Callable[[SetupSpec], Setup], engine: Engine | None = None
    ) -> Session:
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
        return cls(build(spec), seed, entries, engine=engine)


class Happened(tuple):  # type: ignore[type-arg]
    """What one `Session.play` caused (the choice's events and the chance's after it), read
    out of the session's records when looked at: a pair (session, first entry) that reads as
    the sequence of those events."""

    def _read(self) -> list[Event]:
        session, start = tuple.__getitem__(self, 0), tuple.__getitem__(self, 1)
        return [e for record in session.records[start:] for e in record]

    def __len__(self) -> int:
        return len(self._read())

    def __getitem__(self, i: Any) -> Any:
        return self._read()[i]

    def __iter__(self) -> Iterator[Event]:
        return iter(self._read())

    def __contains__(self, event: object) -> bool:
        return event in self._read()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return self._read() == list(other)
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment]

    def __bool__(self) -> bool:
        return bool(self._read())

    def __repr__(self) -> str:
        return repr(self._read())

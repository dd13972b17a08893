"""How a game is won and scored: the scenarios of the rulebooks, as data plus their rules.

A scenario file (content/data/scenarios) switches on the rules its card prints:
points for knock-outs, point markers, Flags, Leaders, Control, and the target.
Winning is checked at the end of a round ("Winning a Scenario"): the side with
the most points, at or past the target, wins; a tie plays more rounds. The first
games win at once instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from funkoverse.rules.core import geometry
from funkoverse.rules.core.cards import Step
from funkoverse.rules.core.choices import (
    Choice,
    CompleteBonus,
    FlagReturn,
    FlipControl,
    Interact,
    PlaceControl,
)
from funkoverse.rules.core.events import Event, EventKind, Events
from funkoverse.rules.core.frames import ChoiceFrame, Frame, ReturnFrame, RoundEndFrame
from funkoverse.rules.core.numbers import (
    CONTROL_MARKERS,
    FLAG_POINTS,
    LEADER_POINTS,
    POINT_MARKER_POINTS,
    POINT_MARKER_SLOT,
)
from funkoverse.rules.core.pieces import KNOCKABLE_KINDS, Kind, Role
from funkoverse.rules.core.state import GameState, Piece, ScenarioRules


@dataclass(frozen=True)
class Scenario(ScenarioRules):
    """A scenario card's rules. The base values are a plain game with no objective."""

    # -- targets -----------------------------------------------------------------

    def points_to_win(self, state: GameState) -> int | None:
        """Points a side needs to win, or None when points do not decide the game."""
        if self.first_knockout_wins:
            return 1
        per_side = max((len(t.characters) for t in state.setup.teams), default=0)
        if per_side <= 2 and self.target_two is not None:
            return self.target_two
        return self.target_three if self.target_three is not None else self.target_two

    def gain(self, state: GameState, side: str, points: int, why: str, events: Events) -> None:
        """`side` gains `points` (for `why`); the first games end the moment one reaches the
        target, the others say so and go on to the end of the round ("Winning a Scenario")."""
        if points <= 0 or side not in state.sides or side in state.gone:
            return  # a player who left a free-for-all gains nothing (rules/play/leaving.py)
        before = state.sides[side].points
        state.sides[side].points += points
        total = state.sides[side].points
        events.append(Event(EventKind.POINTS, side=side, number=points, total=total, source=why))
        target = self.points_to_win(state)
        if target is None or total < target:
            return
        if self.immediate_target:
            state.winner = side
        elif before < target:
            events.append(Event(EventKind.TARGET_REACHED, side=side, total=total, number=target))

    # -- knock-outs ----------------------------------------------------------------

    def on_knockout(
        self, state: GameState, by: Piece | None, victim: Piece, events: Events
    ) -> None:
        """Called when `victim` is knocked out, while it is still in its square; `by` is who
        gets the credit (if anyone)."""
        if victim.kind not in KNOCKABLE_KINDS:
            return  # Companions: "Players do not gain points from challenging companions."
        if self.first_knockout_wins:
            if by is not None and by.side != victim.side and by.side not in state.gone:
                state.sides[by.side].points += 1
                events.append(
                    Event(
                        EventKind.POINTS,
                        side=by.side,
                        number=1,
                        total=state.sides[by.side].points,
                        source="knock-out",
                        rule="Winning Your First Game",
                    )
                )
                state.winner = by.side
            return
        if self.leaders:
            self._leader_points(state, by, victim, events)
        scored: set[str] = set()
        if by is not None and by.side != victim.side and self.knockout_points:
            scored.add(by.side)
        if self.adjacent_knockout_points and victim.square is not None:
            for p in state.on_map():
                if p.side != victim.side and p.is_character and p.square is not None:
                    near = geometry.adjacent_squares(state.board, p.square)
                    if victim.square in near:
                        scored.add(p.side)
        for side in sorted(scored):
            self.gain(state, side, max(self.knockout_points, 1), "knock-out", events)

    def _leader_points(
        self, state: GameState, by: Piece | None, victim: Piece, events: Events
    ) -> None:
        if by is None or by.side == victim.side:
            return
        leader = state.sides[by.side].leader
        rival_leader = state.sides[victim.side].leader
        who = "leader" if by.id == leader else "ally"
        whom = "leader" if victim.id == rival_leader else "rival"
        why = {"leader": "your leader", "ally": "your leader's ally"}[who]
        whom_words = {"leader": "a rival leader", "rival": "a rival"}[whom]
        self.gain(
            state, by.side, LEADER_POINTS[(who, whom)], f"{why} knocks out {whom_words}", events
        )

    # -- setup -----------------------------------------------------------------------

    def setup_pieces(self, state: GameState) -> None:
        """Scenario setup: point markers on their setup squares; flag markers on theirs;
        control markers kept aside."""
        if self.point_markers:
            for letter, square in sorted(state.board.point_squares.items()):
                pid = f"point-{letter}"
                state.pieces[pid] = Piece(
                    pid, Kind.MARKER, "", None, square, placed=True, role=Role.POINT, ref=letter
                )
        if self.flags:
            for side, square in flag_squares(state).items():
                pid = f"flag-{side}"
                state.pieces[pid] = Piece(
                    pid, Kind.MARKER, side, None, square, placed=True, role=Role.FLAG, ref=side
                )
        if self.control:
            for n in range(1, CONTROL_MARKERS + 1):
                pid = f"control-{n}"
                state.pieces[pid] = Piece(
                    pid, Kind.MARKER, "", None, None, role=Role.CONTROL, ref=str(n)
                )

    def placement_squares(self, state: GameState, piece: Piece) -> list[int] | None:
        """Leaders: the leader starts on its leader starting square; None: the starting area."""
        if not self.leaders or state.sides[piece.side].leader != piece.id:
            return None
        square = leader_squares(state).get(piece.side)
        return [square] if square is not None else None

    # -- the end of a round ------------------------------------------------------------

    def round_end_frames(self, state: GameState) -> Sequence[Frame]:
        """Decisions when a round ends, before the cooldown (Flags: return characters)."""
        if not self.flags:
            return ()
        first = state.first_player or state.seats[0]
        index = state.seats.index(first)
        order = state.seats[index:] + state.seats[:index]
        frames = [
            ChoiceFrame(side, Step("flag_return"), "", True, "scenario")
            for side in order
            if flag_returners(state, side)
        ]
        return list(reversed(frames))

    def round_end_notes(self, state: GameState) -> list[Event]:
        """Flags: a standing character beside the rival's flag with a wall corner between them
        is not adjacent to it ("Obstructions and Adjacency"), so it cannot return: said, not
        left silent."""
        if not self.flags:
            return []
        notes = []
        for side in state.seats:
            for p, flag in flag_near_misses(state, side):
                notes.append(Event(EventKind.NO_RETURN, piece=p.id, other=flag.id, side=side))
        return notes

    def on_round_end(self, state: GameState, events: Events) -> None:
        """After the cooldown: Control's points, then the winner check."""
        if self.control:
            self._control_points(state, events)
        self.check_winner(state)

    def check_winner(self, state: GameState) -> None:
        """Winning a Scenario: the most points at the end of a round, if at the target; a tie
        plays more rounds."""
        target = self.points_to_win(state)
        if target is None or self.first_knockout_wins or state.winner is not None:
            return
        sides = state.sides
        playing = state.playing()  # a player who left a free-for-all cannot win
        best = max(sides[side].points for side in playing)
        leaders = [side for side in playing if sides[side].points == best]
        if best >= target and len(leaders) == 1:
            state.winner = leaders[0]

    def _control_points(self, state: GameState, events: Events) -> None:
        """Control: "If any control markers show your color at the end of a round, gain 1 point.
        Ignore this when playing with two characters per side. If you have the most control
        markers showing your color at the end of a round, gain an extra point." """
        shown: dict[str, int] = {side: 0 for side in state.seats}
        for p in state.pieces.values():
            if p.role is Role.CONTROL and p.square is not None and p.side in shown:
                shown[p.side] += 1
        per_side = max(len(t.characters) for t in state.setup.teams)
        most = max(shown.values(), default=0)
        leaders = [side for side, n in shown.items() if n == most]
        for side, n in shown.items():
            if n and per_side > 2:
                self.gain(state, side, 1, "control markers showing its color", events)
        if most and len(leaders) == 1:
            self.gain(state, leaders[0], 1, "the most control markers", events)

    # -- decisions the scenario asks -------------------------------------------------------

    def choices(self, state: GameState, decider: str, purpose: str) -> list[Choice]:
        if purpose == "flag_return":
            done = state.sides[decider].returned
            return [FlagReturn(p.id) for p in flag_returners(state, decider) if p.id not in done]
        return []

    def choose(
        self, state: GameState, decider: str, purpose: str, choice: Choice, events: Events
    ) -> None:
        """Flags: a returned character goes to its starting area and scores 2 points."""
        if purpose != "flag_return" or not isinstance(choice, FlagReturn):
            return
        piece = state.pieces[choice.piece]
        side = state.sides[decider]
        side.returned = (*side.returned, piece.id)  # each returns at most once a round end
        piece.square = None
        events.append(
            Event(EventKind.FLAG_RETURN, piece=piece.id, side=decider, number=FLAG_POINTS)
        )
        self.gain(state, decider, FLAG_POINTS, "a return from the rival flag", events)
        # more of the side's characters may still return; then the chosen one is placed
        state.stack.append(ChoiceFrame(decider, Step("flag_return"), "", True, "scenario"))
        state.stack.append(ReturnFrame(decider, (piece.id,)))

    # -- interactions ----------------------------------------------------------------------

    def interactions(self, state: GameState, actor: Piece, squares: set[int]) -> list[Choice]:
        """What `actor` may interact with in `squares` (Point Markers: on or adjacent; Control;
        its side's bonus objective marker)."""
        found: list[Choice] = []
        if self.point_markers:
            found.extend(
                Interact(p.id)
                for p in state.pieces.values()
                if p.role is Role.POINT and p.square is not None and p.square in squares
            )
        if self.control and actor.square is not None:
            found.extend(self._control_interactions(state, actor, squares))
        found.extend(
            CompleteBonus(p.id)
            for p in state.pieces.values()
            if p.kind is Kind.BONUS_OBJECTIVE and p.side == actor.side and p.square in squares
        )
        return found

    def _control_interactions(
        self, state: GameState, actor: Piece, squares: set[int]
    ) -> list[Choice]:
        """Control: in a control area, place a marker in any square of that area (not where the
        area already has one); on or adjacent to a control marker, flip it."""
        found: list[Choice] = []
        areas = control_areas(state)
        markers = [p for p in state.pieces.values() if p.role is Role.CONTROL]
        free = [m for m in markers if m.square is None]
        for area, area_squares in sorted(areas.items()):
            if actor.square not in area_squares or not free:
                continue
            if any(m.square in area_squares for m in markers):
                continue
            found.extend(PlaceControl(area, state.board.label(sq)) for sq in area_squares)
        for m in markers:
            if m.square is not None and m.square in squares and m.side != actor.side:
                found.append(FlipControl(m.ref))
        return found

    def interact(self, state: GameState, actor: Piece, thing: Choice, events: Events) -> bool:
        """Do an interaction this scenario offered; True when `thing` was the scenario's."""
        if isinstance(thing, CompleteBonus):
            marker = state.pieces[thing.piece]
            card = state.setup.bonus_objectives[marker.ref]
            marker.square = None
            events.append(
                Event(
                    EventKind.BONUS_COMPLETED,
                    piece=actor.id,
                    side=actor.side,
                    name=card.name,
                    number=card.points,
                )
            )
            self.gain(state, actor.side, card.points, card.name, events)
            return True
        if isinstance(thing, Interact):
            point = state.pieces.get(thing.thing)
            if not self.point_markers or point is None or point.role is not Role.POINT:
                return False
            marker = point
            side = state.sides[actor.side]
            marker.square = None
            for slot in side.track:
                if ("point", marker.id) in slot:
                    slot.remove(("point", marker.id))
            side.track[POINT_MARKER_SLOT - 1].append(("point", marker.id))
            events.append(
                Event(
                    EventKind.POINT_MARKER,
                    piece=actor.id,
                    other=marker.id,
                    side=actor.side,
                    number=POINT_MARKER_POINTS,
                )
            )
            self.gain(state, actor.side, POINT_MARKER_POINTS, f"point marker {marker.ref}", events)
            return True
        if self.control and isinstance(thing, PlaceControl):
            marker = next(
                p for p in state.pieces.values() if p.role is Role.CONTROL and p.square is None
            )
            marker.square = state.board.parse_label(thing.square)
            marker.side = actor.side
            marker.placed = True
            events.append(
                Event(
                    EventKind.CONTROL_PLACED,
                    piece=actor.id,
                    other=marker.id,
                    side=actor.side,
                    square=thing.square,
                )
            )
            return True
        if self.control and isinstance(thing, FlipControl):
            marker = next(
                p for p in state.pieces.values() if p.role is Role.CONTROL and p.ref == thing.number
            )
            marker.side = actor.side if len(state.seats) > 2 else _other(state, marker.side)
            events.append(
                Event(EventKind.CONTROL_FLIPPED, piece=actor.id, other=marker.id, side=marker.side)
            )
            return True
        return False


def _other(state: GameState, side: str) -> str:
    others = [s for s in state.seats if s != side]
    return others[0] if others else side


def _layer_squares(state: GameState, layer: str) -> dict[str, list[int]]:
    rows = state.board.layers.get(layer, ())
    found: dict[str, list[int]] = {}
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch != ".":
                found.setdefault(ch, []).append(state.board.square(x, y))
    return found


_SIDE_LETTERS = {"D": "dark", "L": "light"}


def flag_squares(state: GameState) -> dict[str, int]:
    """Flags: each side's flag marker square, from the map's `flags` layer (D, L)."""
    return {
        _SIDE_LETTERS[ch]: squares[0]
        for ch, squares in _layer_squares(state, "flags").items()
        if ch in _SIDE_LETTERS and _SIDE_LETTERS[ch] in state.sides
    }


def leader_squares(state: GameState) -> dict[str, int]:
    """Leaders: each side's leader starting square, from the map's `leaders` layer (D, L)."""
    return {
        _SIDE_LETTERS[ch]: squares[0]
        for ch, squares in _layer_squares(state, "leaders").items()
        if ch in _SIDE_LETTERS
    }


def control_areas(state: GameState) -> dict[str, list[int]]:
    """Control: the control areas, from the map's `control` layer (1, 2, 3)."""
    return _layer_squares(state, "control")


def flag_returners(state: GameState, side: str) -> list[Piece]:
    """Flags: "your standing characters ... on or adjacent to your opponent's flag marker"."""
    flags = [
        p.square
        for p in state.pieces.values()
        if p.role is Role.FLAG and p.side != side and p.square is not None
    ]
    if not flags:
        return []
    found = []
    for p in state.characters(side):
        if p.square is None or not p.standing:
            continue
        near = geometry.adjacent_squares(state.board, p.square)
        if any(f in near for f in flags):
            found.append(p)
    return found


def flag_near_misses(state: GameState, side: str) -> list[tuple[Piece, Piece]]:
    """Flags: `side`'s standing characters beside a rival flag (diagonally, across a wall
    corner) without being adjacent to it: they cannot return."""
    flags = [
        p
        for p in state.pieces.values()
        if p.role is Role.FLAG and p.side != side and p.square is not None
    ]
    found = []
    for p in state.characters(side):
        if p.square is None or not p.standing:
            continue
        near = state.board.adjacent_set(p.square)
        for f in flags:
            assert f.square is not None
            if state.board.distance(p.square, f.square) <= 1 and f.square not in near:
                found.append((p, f))
    return found


def flag_returns_open(state: GameState, side: str) -> bool:
    """Flags: whether `side` may still return characters when this round ends. Once "Ending a
    Round" has asked every side about its returns, a side whose decision is not pending has
    returned what it chose: a character it left by the rival's flag returns a round later at
    the earliest."""
    ending = next((f for f in state.stack if isinstance(f, RoundEndFrame)), None)
    if ending is None or ending.stage == 0:
        return True
    return any(
        isinstance(f, ChoiceFrame) and f.decider == side and f.step.op == "flag_return"
        for f in state.stack
    )


def first_game_dc() -> Scenario:
    """DC Comics 102, Winning Your First Game: the first knock-out wins."""
    return Scenario(
        id="first-knockout",
        name="First game: knock out a rival",
        box="DC Comics 102",
        first_knockout_wins=True,
    )


FirstKnockout = first_game_dc

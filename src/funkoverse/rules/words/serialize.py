"""A seat's view, its events and its choices as JSON-ready data (docs/view-json.md).

`view_to_json` writes a position that has already been through `view.observe`: it
decides nothing about secrets, and it never writes a seed, a generator's state or
anything that is not in the observed state.
"""

from __future__ import annotations

from typing import Any

from funkoverse.rules.core.board import Board
from funkoverse.rules.core.choices import Choice
from funkoverse.rules.core.dice import Face, successes
from funkoverse.rules.core.events import Event, EventKind, Names, words
from funkoverse.rules.core.frames import ChoiceFrame, ReturnFrame, RollFrame, RoundEndFrame
from funkoverse.rules.core.pieces import KNOCKABLE_KINDS, Kind
from funkoverse.rules.core.state import GameState, Piece
from funkoverse.rules.core.world import display_names

VIEW_FORMAT = 1


def _label(state: GameState, square: int | None) -> str | None:
    return state.board.label(square) if square is not None else None


def _character(state: GameState, p: Piece, names: Names) -> dict[str, Any]:
    on_track = (
        state.sides[p.side].track_position(("character", p.id)) if p.side in state.sides else None
    )
    return {
        "id": p.id,
        "name": names.get(p.id, p.name),
        "card": p.card.id if p.card is not None else None,
        "kind": p.kind.value,
        "side": p.side,
        "square": _label(state, p.square),
        "placed": p.placed,
        "standing": p.standing,
        "knocked_out": p.placed and p.square is None,
        "on_track": on_track,
        "exhausted": p.exhausted,
        "markers": p.markers,
        "needed": p.needed,
        "defense": p.defense,
        "items": list(p.items),
        "statuses": list(p.statuses),
        "owner": p.owner or None,
    }


def _thing(state: GameState, p: Piece, names: Names) -> dict[str, Any]:
    return {
        "id": p.id,
        "name": names.get(p.id, p.id),
        "kind": p.kind.value,
        "role": p.role.value or None,
        "ref": p.ref or None,
        "side": p.side or None,
        "square": _label(state, p.square),
        "owner": p.owner or None,
        "defense": p.defense,
    }


def _decision(state: GameState) -> dict[str, Any]:
    """What is being decided now, in a few words a client can draw."""
    top = state.stack[-1] if state.stack else None
    if isinstance(top, RollFrame):
        return {
            "kind": "roll",
            "challenger": top.challenger,
            "target": top.target,
            "attack": list(top.attack),
            "defense": list(top.defense),
            "source": top.source,
        }
    if isinstance(top, ChoiceFrame):
        return {
            "kind": "step",
            "purpose": top.purpose,
            "piece": top.piece or None,
            "optional": top.optional,
        }
    if isinstance(top, ReturnFrame):
        return {"kind": "return", "side": top.side, "pieces": list(top.pieces)}
    if isinstance(top, RoundEndFrame):
        return {"kind": "round_end"}
    return {"kind": state.phase.value}


def view_to_json(state: GameState) -> dict[str, Any]:
    """The position as its seat may see it: map and round, whose turn, every character,
    each side's points, ability pool and cooldown track, the markers and tokens."""
    names = display_names(state)
    scenario = state.setup.scenario
    characters = []
    things = []
    for p in state.pieces.values():
        if p.kind in KNOCKABLE_KINDS or p.kind is Kind.COMPANION:
            characters.append(_character(state, p, names))
        else:
            things.append(_thing(state, p, names))
    sides: dict[str, Any] = {}
    for side in state.seats:
        s = state.sides[side]
        own = [p for p in state.pieces.values() if p.side == side and p.is_character]
        team = next((t for t in state.setup.teams if t.side == side), None)
        sides[side] = {
            "points": s.points,
            "pool": {str(color): n for color, n in sorted(s.pool.items()) if n},
            "track": [[{"kind": kind, "ref": ref} for kind, ref in slot] for slot in s.track],
            "exhausted_markers": {
                "placed": sum(p.markers for p in own),
                "total": sum(p.needed for p in own),
            },
            "players": [p for p, _ in team.players]
            if team is not None and team.players
            else [side],
            "ultimate": bool(team and team.ultimate),
            "picks": list(s.picks),
            "items_chosen": [list(g) for g in s.gifts],
            "leader": s.leader,
            "returned": list(s.returned),
        }
    return {
        "format": VIEW_FORMAT,
        "map": state.board.id or state.board.name,
        "scenario": scenario.id,
        "scenario_name": scenario.name,
        "target": scenario.points_to_win(state),
        "round": state.round,
        "turns": state.turns,
        "phase": state.phase.value,
        "first_player": state.first_player,
        "to_act": state.to_act,
        "active": state.active,
        "actions_left": state.actions_left if state.active else 0,
        "winner": state.winner,
        "seats": list(state.seats),
        "left": list(state.gone),  # Free-for-All: seats that left the game, in that order
        "characters": characters,
        "things": things,
        "sides": sides,
        "decision": _decision(state),
    }


# What a client marks on the board where an event happens (its words, whether it is a gain
# or a loss, and whose square: the piece's or the other's), and the events that change the
# score or the game (a log shows them weightier).
_MARKS: dict[EventKind, tuple[str, str, str]] = {
    EventKind.KNOCKED_DOWN: ("knocked down", "loss", "piece"),
    EventKind.KNOCKED_OUT: ("knocked out!", "loss", "piece"),
    EventKind.RETURNED: ("returns", "gain", "piece"),
    EventKind.CHALLENGE_LOST: ("missed", "none", "other"),
}
_SCORED = frozenset({EventKind.POINT_MARKER, EventKind.BONUS_COMPLETED, EventKind.FLAG_RETURN})
_WEIGHTY = frozenset(
    {EventKind.KNOCKED_OUT, EventKind.WINNER, EventKind.POINTS, EventKind.TARGET_REACHED} | _SCORED
)


def _mark(event: Event) -> dict[str, str] | None:
    if event.kind in _SCORED and event.number:
        return {"text": f"+{event.number}", "tone": "gain", "on": "piece"}
    found = _MARKS.get(event.kind)
    return {"text": found[0], "tone": found[1], "on": found[2]} if found else None


def event_to_json(event: Event, names: Names) -> dict[str, Any]:
    """An event as data, with its words and the rule it applies."""
    out: dict[str, Any] = {
        "kind": event.kind.value,
        "text": words(event, names),
        "rule": event.cites,
    }
    for key in (
        "piece",
        "other",
        "side",
        "square",
        "origin",
        "number",
        "total",
        "card",
        "name",
        "source",
    ):
        value = getattr(event, key)
        if value is not None:
            out[key] = value
    if event.attack or event.defense:
        out["attack"] = list(event.attack)
        out["defense"] = list(event.defense)
        # what each face scored ("Resolving a Challenge"), so that a client shows what counted
        out["counted"] = {
            "attack": [successes(Face(f), "challenger") for f in event.attack],
            "defense": [successes(Face(f), "defender") for f in event.defense],
        }
    if event.names:
        out["names"] = list(event.names)
    mark = _mark(event)
    if mark is not None:
        out["mark"] = mark
    if event.kind in _WEIGHTY:
        out["weighty"] = True
    return out


def choice_to_json(choice: Choice, label: str, odds: float | None = None) -> dict[str, Any]:
    """A legal choice: its id, its label, its kind and its parts (squares as labels, pieces
    as ids), and for a challenge the chance to win."""
    out = {"id": choice.format(), "label": label, "kind": choice.kind, **choice.fields()}
    if odds is not None:
        out["odds"] = round(odds, 4)
    return out


def board_to_json(board: Board) -> dict[str, Any]:
    """A map as data a page draws: its squares, walls (each as the two squares it
    separates), the grid points a wall ends at or a post stands on, blocked and obscured
    squares, starting areas, point marker setup squares, and the scenario layers (flags,
    leader squares, control areas), squares written as labels."""
    label = board.label
    layers: dict[str, dict[str, list[str]]] = {}
    for name, rows in board.layers.items():
        if name == "start":
            continue
        found: dict[str, list[str]] = {}
        for y, row in enumerate(rows):
            for x, ch in enumerate(row):
                if ch != ".":
                    found.setdefault(ch, []).append(label(board.square(x, y)))
        layers[name] = found
    return {
        "id": board.id,
        "name": board.name,
        "box": board.box,
        "note": board.note,
        "width": board.width,
        "height": board.height,
        "walls": sorted([label(a), label(b)] for a, b in board.walls),
        "points": sorted([cx, cy] for cx, cy in board.obstructed_points),
        "blocked": sorted(label(s) for s in board.blocked),
        "obscured": sorted(label(s) for s in board.obscured),
        "start_areas": {side: [label(s) for s in sqs] for side, sqs in board.start_areas.items()},
        "point_squares": {letter: label(s) for letter, s in board.point_squares.items()},
        "layers": layers,
    }

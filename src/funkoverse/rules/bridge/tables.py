"""The tables of a setup, by job (`building`, `positions`, `codes`, `events`), kept per
setup; loading a position into a new kernel; and whether the kernel plays a setup at all."""

from __future__ import annotations

from typing import Any

from funkoverse.rules.bridge.codes import Codes
from funkoverse.rules.bridge.events import Events
from funkoverse.rules.bridge.numbering import _kernel
from funkoverse.rules.bridge.positions import Positions
from funkoverse.rules.core.errors import Unsupported
from funkoverse.rules.core.pieces import Kind
from funkoverse.rules.core.state import GameState


class Tables(Positions, Codes, Events):
    """Everything static of one setup, numbered for the kernel, and the way back: the
    strings, steps, cards, track items and pieces the kernel's integers stand for, a position
    into the kernel and back, a choice's code and the kernel's events."""


# --------------------------------------------------------------------------- the tables of a setup

_TABLES: dict[tuple[Any, ...], Tables] = {}
_CACHE_SIZE = 512


def _signature(state: GameState) -> tuple[Any, ...]:
    """What the tables depend on: the map, the scenario, the teams, the setup's cards and
    dice (by identity: they come from the content's caches), and the pieces."""
    setup = state.setup
    draft = setup.draft
    return (
        id(setup.board),
        id(setup.scenario),
        tuple(
            (
                t.side,
                t.area,
                t.items,
                t.ultimate,
                t.companions,
                t.bonus,
                tuple(map(id, t.characters)),
            )
            for t in setup.teams
        ),
        tuple(map(id, setup.items.values())),
        tuple(setup.items),
        tuple(map(id, setup.statuses.values())),
        tuple(map(id, setup.companions.values())),
        tuple(map(id, setup.bonus_objectives.values())),
        tuple(map(id, setup.dice.values())),
        tuple(state.pieces),
        tuple(id(p.card) for p in state.pieces.values() if p.kind is not Kind.COMPANION),
        None
        if draft is None
        else (
            tuple(map(id, draft.characters)),
            draft.item_ids,
            draft.size,
            draft.items,
            draft.secret,
        ),
    )


def tables_for(state: GameState) -> Tables:
    """The kernel's tables for `state`'s setup and pieces (cached). `Unsupported` when the
    kernel does not play it."""
    if _kernel is None:
        raise Unsupported("the kernel was not built on this machine")
    key = _signature(state)
    tables = _TABLES.get(key)
    if tables is None:
        tables = Tables(state)  # it keeps the setup, so the identities in `key` stay its own
        if len(_TABLES) >= _CACHE_SIZE:
            _TABLES.pop(next(iter(_TABLES)))
        _TABLES[key] = tables
    return tables


def load(state: GameState) -> tuple[Tables, Any]:
    """A kernel holding `state` (a copy: the Python state is left as it is)."""
    tables = tables_for(state)
    kernel = _kernel.Kernel(tables.rules)
    try:
        kernel.load(tables.dump_state(state))
    except (ValueError, RuntimeError) as why:  # past one of the kernel's fixed limits
        raise Unsupported(str(why)) from None
    return tables, kernel


def unsupported(state: GameState) -> str | None:
    """Why the kernel cannot play `state`, or None when it can."""
    try:
        load(state)
    except Unsupported as why:
        return str(why)
    return None

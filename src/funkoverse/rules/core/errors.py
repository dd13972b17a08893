"""Typed errors of the rules core."""

from __future__ import annotations


class IllegalChoice(ValueError):
    """A choice that is not among the legal ones; the message cites the rule that forbids it."""


class InvalidChoice(IllegalChoice):
    """Text that names no choice at all (a typo, not a rules question); the message says why."""


class NotYourTurn(ValueError):
    """A choice from a seat that is not the one deciding now."""


class StaleVersion(ValueError):
    """A choice that answers a version of the game that is no longer the current one."""


class GameOver(ValueError):
    """A choice or an undo for a game that is over."""


class NothingToUndo(ValueError):
    """An undo with nothing it may take back."""


class Unsupported(Exception):
    """A setup or position an engine does not play (the reason says why)."""

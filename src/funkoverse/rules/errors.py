"""Typed errors of the rules core."""

from __future__ import annotations


class IllegalChoice(ValueError):
    """A choice that is not among the legal ones; the message cites the rule that forbids it."""


class UnknownChoice(IllegalChoice):
    """A choice id that does not name anything in this game (a typo, not a rules question)."""

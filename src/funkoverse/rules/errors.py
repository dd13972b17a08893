"""Typed errors of the rules core."""

from __future__ import annotations


class IllegalChoice(ValueError):
    """A choice that is not among the legal ones; the message cites the rule that forbids it."""


class InvalidChoice(IllegalChoice):
    """Text that names no choice at all (a typo, not a rules question); the message says why."""

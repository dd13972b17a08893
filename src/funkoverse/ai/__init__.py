"""Agents that play through the same decision API as a person."""

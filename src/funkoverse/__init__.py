"""Funkoverse Strategy Game: a rules engine, its command line, and the tools around it."""

__version__ = "0.1.0"

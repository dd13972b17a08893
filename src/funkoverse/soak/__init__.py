"""The soak: many seeded games over every scenario, map, way to play and character, each
checked after every choice and replayed from its saved log at the end (`funkoverse soak`).

`ways` turns a game's id into its setup, `secrecy` says what a seat's payloads must not
hold, `game` plays one game under the checks, `run` plays many in worker processes.
"""

"""The rulebook's numbers, each written once, with the words that give it."""

from __future__ import annotations

ACTIONS_PER_TURN = 2  # Taking a Turn, step 2: "Do up to two actions"
RALLY_ACTIONS = 2  # Taking a Turn, step 3: "they may use both of their actions to stand up"
BASIC_MOVE = 2  # Basic Moves: "the character can move up to 2 squares"
BASIC_CHALLENGE_DICE = 2  # Basic Challenge: "rolls 2 dice"
TRACK_LENGTH = 4  # Cooldown Tracks: "numbered 1 to 4"
KNOCKED_OUT_SLOT = 1  # Knocked Out: "place the character on the 1 of their player's cooldown track"
COMPANION_SLOT = 1  # Companions: "place it on the 1 of its owner's cooldown track"
POINT_MARKER_SLOT = (
    4  # Point Markers: "Place the point marker ... on the 4 of their cooldown track"
)
POINT_MARKER_POINTS = (
    1  # Point Markers: "the character may do the interact action to immediately gain a point"
)
ULTIMATE_MARKERS = 3  # Ultimate Mode: "The ultimate character takes three exhausted markers"
FLAG_POINTS = (
    2  # Flags: "If a character returns to your starting area using the rule above, gain 2 points."
)
CONTROL_MARKERS = 3  # Components: "3 control markers"
LEADER_POINTS = {  # Leaders, "Gaining points": (who knocks out, whom)
    ("leader", "leader"): 4,
    ("ally", "leader"): 3,
    ("leader", "rival"): 2,
    ("ally", "rival"): 1,
}

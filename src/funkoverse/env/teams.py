"""The games the RL environment draws: `funkoverse match`'s draw, on the lab's map when none
is named (so that the environment and the balance lab play the same Flags), and with two
teams that share no character, as the lab's matchups never do."""

from __future__ import annotations

from funkoverse.ai.arena import match_spec
from funkoverse.content.scenarios import default_map
from funkoverse.errors import UserError
from funkoverse.rules import SetupSpec

ATTEMPTS = 100  # draws tried for teams that share no character


def game_map(scenario: str | None, map_id: str | None) -> str | None:
    """The map played: the one named, else the scenario's map in the lab (its first that
    this program has), else the knock-out game's own."""
    if map_id is not None or scenario is None:
        return map_id
    return default_map(scenario)


def distinct(spec: SetupSpec) -> bool:
    """No character on two sides (a draft's teams are chosen in the game: always true)."""
    chars = [c for t in spec.teams for c in set(t.characters)]
    return len(chars) == len(set(chars))


def draw_spec(scenario: str | None, map_id: str | None, size: int | None, seed: int) -> SetupSpec:
    """The setup of game `seed`: `match_spec`'s draw, drawn again (from seeds that follow from
    `seed`) while two sides share a character. The knock-out game's teams are the rulebook's,
    never drawn."""
    map_id = game_map(scenario, map_id)
    spec = match_spec(scenario, map_id, None, seed, size)
    if scenario is None:
        return spec
    for attempt in range(1, ATTEMPTS):
        if distinct(spec):
            return spec
        spec = match_spec(scenario, map_id, None, (seed * 1_000_003 + attempt) % 2**62, size)
    if distinct(spec):
        return spec
    raise UserError(f"no two teams without a character in common drawn for seed {seed}")

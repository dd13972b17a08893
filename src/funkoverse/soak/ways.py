"""Which game a soak seed plays: its way to play, scenario, map and teams, all from the seed.

Seed `s` plays way `WAYS[s % len(WAYS)]`, on that way's `(s // len(WAYS))`-th scenario and
map (in turn), with teams, sizes and attachments drawn from a generator seeded with `s`.
So consecutive seeds go round every way first and then every scenario and map each way
allows, and any seed names its whole game: `funkoverse soak --replay random:SEED` plays it
again.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from funkoverse.content.characters import load_characters
from funkoverse.content.scenarios import load_scenarios
from funkoverse.content.setups import (
    FIRST_GAME_MAP,
    SetupRequest,
    draw_spec,
    first_game_spec,
)
from funkoverse.content.statuses import load_bonus_objectives, load_companions, load_items
from funkoverse.rules import SetupSpec, TeamSpec
from funkoverse.rules.core.scenario import Scenario

# how a way draws a spec: (generator, seed, scenario, map) -> spec
Draw = Callable[[random.Random, int, Scenario, str], SetupSpec]


@dataclass(frozen=True)
class Way:
    """A way to play, the scenarios and maps it is played on, and how it draws a setup."""

    name: str
    options: tuple[tuple[str, str], ...]  # (scenario id, map id), taken in turn
    draw: Draw


def _two_sides(s: Scenario) -> bool:
    """A scenario of the full experience for two sides (not a first game, a free-for-all or
    ultimate mode)."""
    return not (s.first_game or s.free_for_all or s.ultimate)


def _options(keep: Callable[[Scenario], bool]) -> tuple[tuple[str, str], ...]:
    """Every (scenario, map) the kept scenarios are played on, the scenarios in turn (each
    one's first map, then each one's second, ...), so that a short run meets them all."""
    kept = [s for s in sorted(load_scenarios().values(), key=lambda s: s.id) if keep(s)]
    most = max((len(s.maps) for s in kept), default=0)
    return tuple((s.id, s.maps[i]) for i in range(most) for s in kept if i < len(s.maps))


def _standard(rng: random.Random, seed: int, s: Scenario, map_id: str) -> SetupSpec:
    size = rng.choice(s.sizes)
    return draw_spec(SetupRequest(s.id, map_id, "standard", size=size), seed)


def _teams(players: int) -> Draw:
    """More Players: two players a side (four), or two on the dark side and one on the light
    (three)."""

    def draw(rng: random.Random, seed: int, s: Scenario, map_id: str) -> SetupSpec:
        size = rng.choice([n for n in s.sizes if n >= 2])
        return draw_spec(SetupRequest(s.id, map_id, "teams", players, size), seed)

    return draw


def _draft(secret: bool) -> Draw:
    """Scenario Setup, step 5, in the game: each side chooses two or three characters."""

    def draw(rng: random.Random, seed: int, s: Scenario, map_id: str) -> SetupSpec:
        size = rng.choice([n for n in s.sizes if n in (2, 3)])
        return draw_spec(SetupRequest(s.id, map_id, draft=size, secret=secret), seed)

    return draw


def _attachments(rng: random.Random, seed: int, s: Scenario, map_id: str) -> SetupSpec:
    """Two or three characters a side with one to three attachments each (as many a side):
    an item (the house-made ones too), a companion, a bonus objective."""
    cards = load_characters()
    named = sorted(c for c, card in cards.items() if not card.basic)
    others = sorted(cards)
    kinds = {
        "item": sorted(load_items()),
        "companion": sorted(load_companions()),
        "bonus": sorted(load_bonus_objectives()),
    }
    size = rng.choice([n for n in s.sizes if n in (2, 3)])
    count = rng.randint(1, len(kinds))
    teams = []
    for side in ("dark", "light"):
        first = rng.choice(named)
        chosen = (first, *rng.sample([c for c in others if c != first], size - 1))
        holders = [c for c in chosen if not cards[c].basic]
        items: list[tuple[str, str]] = []
        companions: list[tuple[str, str]] = []
        bonus: list[str] = []
        for kind in rng.sample(sorted(kinds), count):
            card = rng.choice(kinds[kind])
            if kind == "item":
                items.append((card, rng.choice(holders)))
            elif kind == "companion":
                companions.append((card, rng.choice(holders)))
            else:
                bonus.append(card)
        teams.append(
            TeamSpec(side, chosen, tuple(items), (), False, tuple(companions), tuple(bonus))
        )
    return SetupSpec(s.id, map_id, "standard", tuple(teams))


def _first_game(rng: random.Random, seed: int, s: Scenario, map_id: str) -> SetupSpec:
    """Your First Game (both boxes); on knock-out, the game of basic characters."""
    if not s.first_game:
        return first_game_spec(map_id=map_id)
    return draw_spec(SetupRequest(s.id, map_id), seed)


def _free_for_all(players: int) -> Draw:
    def draw(rng: random.Random, seed: int, s: Scenario, map_id: str) -> SetupSpec:
        return draw_spec(SetupRequest(s.id, map_id, "free-for-all", players), seed)

    return draw


def _ultimate(rng: random.Random, seed: int, s: Scenario, map_id: str) -> SetupSpec:
    return draw_spec(SetupRequest(s.id, map_id, "ultimate"), seed)


@cache
def ways() -> tuple[Way, ...]:
    """Every way to play, each with the scenarios and maps it is played on."""
    two = _options(_two_sides)
    first = (*_options(lambda s: s.first_game), ("knockout", FIRST_GAME_MAP))
    brawl = _options(lambda s: s.free_for_all)
    return (
        Way("standard", two, _standard),
        Way("teams-4", two, _teams(4)),
        Way("teams-3", two, _teams(3)),
        Way("draft", two, _draft(False)),
        Way("secret-draft", two, _draft(True)),
        Way("attachments", two, _attachments),
        Way("first-game", first, _first_game),
        Way("free-for-all-3", brawl, _free_for_all(3)),
        Way("free-for-all-4", brawl, _free_for_all(4)),
        Way("ultimate", _options(lambda s: s.ultimate), _ultimate),
    )


def way_of(seed: int) -> tuple[Way, str, str]:
    """The way, scenario and map seed `seed` plays."""
    found = ways()
    way = found[seed % len(found)]
    scenario, map_id = way.options[(seed // len(found)) % len(way.options)]
    return way, scenario, map_id


def spec_for(seed: int) -> tuple[str, SetupSpec]:
    """The name of the way seed `seed` plays, and its whole setup."""
    way, scenario, map_id = way_of(seed)
    return way.name, way.draw(random.Random(seed), seed, load_scenarios()[scenario], map_id)


def describe(way: str, spec: SetupSpec) -> str:
    """A setup in a few words: the way, scenario, map and teams."""
    draft = spec.draft
    if draft is not None:
        teams = f"{draft.size} a side chosen {'in secret' if draft.secret else 'in the open'}"
    else:
        teams = " v ".join("+".join(t.characters) for t in spec.teams)
    return f"{way}: {spec.scenario} on {spec.map}, {teams}"

"""Fuzz targets: content files (`funkoverse content check FILE`: characters, items, statuses,
companions, bonus objectives, scenarios, maps, dice, tokens, ultimates, ways to play) and
folders of fan content (`--content DIR`, `content.catalog.load_catalog`).

The first byte of an input picks the kind of file, the rest is the file. Refused: a
`UserError` naming the file first; a folder that is refused leaves every catalog already
made as it was. A fan card that is accepted is then played: a short
game with it, where a crash means the loader let through what the rules cannot play.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from contract import MAX_INPUT, Broken, keeps_shared_state, refused, scratch

from funkoverse.ai.agents import RandomAgent
from funkoverse.cli.content import check_file
from funkoverse.content import fan as fan_folders
from funkoverse.content.catalog import Catalog, load_catalog
from funkoverse.content.fields import DATA
from funkoverse.content.setups import build
from funkoverse.errors import UserError
from funkoverse.rules.core.spec import SetupSpec, TeamSpec
from funkoverse.rules.session import Session

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "fan-content"
# a content file's folder (or, for the ways to play, its name) by the input's first byte
FILE_KINDS = (
    "characters",
    "items",
    "statuses",
    "companions",
    "bonus_objectives",
    "scenarios",
    "maps",
    "dice",
    "tokens",
    "ultimates",
    "modes",
)
FAN_ID = "fan"
PLAYED_CHOICES = 40  # choices of the short game an accepted fan card is played in


def _split(data: bytes, kinds: tuple[str, ...]) -> tuple[str, bytes]:
    return kinds[data[0] % len(kinds)], data[1:]


def content_file(data: bytes) -> None:
    """One content file, checked on its own as `funkoverse content check FILE` does."""
    if not data or len(data) > MAX_INPUT:
        return
    kind, body = _split(data, FILE_KINDS)
    folder = scratch() / "check" / kind
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / ("modes.toml" if kind == "modes" else f"{FAN_ID}.toml")
    path.write_bytes(body)
    with keeps_shared_state():
        try:
            check_file(path, None)
        except Exception as e:
            # a die's own checks name its file by folder and name, as the shipped dice's do
            refused(e, str(path), f"dice/{path.name}")


def _loaded() -> tuple[Any, ...]:
    """The content of the shipped catalog and of the example folder's, by value: what they
    hold must be what they held, whatever folder was refused beside them."""
    from contract import shared_state

    from funkoverse.content.maps import shipped_maps

    shared_state()  # every loader read, in the order the checks read them
    example = load_catalog([EXAMPLE])
    return (
        dict(example.characters),
        dict(example.items),
        dict(example.statuses),
        dict(example.companions),
        dict(example.bonus_objectives),
        dict(example.scenarios),
        shipped_maps(),
    )


_BASELINE: list[tuple[Any, ...]] = []


def content_folder(data: bytes) -> None:
    """A fan content folder with one fuzzed file, added beside the example folder already in
    use (`--content examples/fan-content --content DIR`)."""
    if not data or len(data) > MAX_INPUT:
        return
    if not _BASELINE:
        load_catalog([EXAMPLE])
        _BASELINE.append(_loaded())
    kind, body = _split(data, fan_folders.FOLDERS)
    fan = scratch() / "fan-content"
    for old in fan.glob("*/*.toml"):
        old.unlink()
    (fan / kind).mkdir(parents=True, exist_ok=True)
    path = fan / kind / f"{FAN_ID}.toml"
    path.write_bytes(body)
    try:
        catalog = load_catalog([EXAMPLE, fan])
    except Exception as e:
        refused(e, str(path))
        if _loaded() != _BASELINE[0]:
            raise Broken("a refused content folder changed the content in use") from None
        return
    _play(kind, catalog)


def _play(kind: str, catalog: Catalog) -> None:
    """A short random game with the accepted fan card (a knock-out duel, the fan card in
    it); a setup rule may refuse it, nothing may crash."""
    dark = TeamSpec("dark", ("wonder-woman",))
    light = TeamSpec("light", ("dracula",))
    scenario, map_id = "knockout", "proving-grounds"
    if kind == "characters":
        dark = TeamSpec("dark", (FAN_ID,))
    elif kind == "items":
        dark = TeamSpec("dark", ("wonder-woman",), ((FAN_ID, "wonder-woman"),))
        light = TeamSpec("light", ("dracula",), (("shovel", "dracula"),))
    elif kind == "companions":
        dark = TeamSpec("dark", ("wonder-woman",), companions=((FAN_ID, "wonder-woman"),))
        light = TeamSpec("light", ("dracula",), companions=(("hound", "dracula"),))
    elif kind == "bonus_objectives":
        dark = TeamSpec("dark", ("wonder-woman",), bonus=(FAN_ID,))
        light = TeamSpec("light", ("dracula",), bonus=("supply-cache",))
    elif kind == "maps":
        map_id = FAN_ID
    elif kind == "scenarios":
        scenario = FAN_ID
        maps = catalog.scenarios[FAN_ID].maps
        map_id = maps[0] if maps else map_id
    else:
        return  # a status card plays only through the hooks of the card that deals it
    try:
        spec = SetupSpec(scenario, map_id, "standard", (dark, light))
        session = Session(build(spec, catalog=catalog), 0)
    except UserError:
        return
    agent = RandomAgent(0)
    rng = random.Random(0)
    for _ in range(PLAYED_CHOICES):
        if session.over:
            return
        seat = session.decider
        assert seat is not None
        options = session.choices(seat)
        choice = agent.choose(session.view(seat), options) if rng.random() < 0.9 else options[0]
        session.play(seat, choice)


def seeds() -> dict[str, list[bytes]]:
    """Every shipped content file and the example fan files, each behind the byte that picks
    its kind, its id renamed to the fuzzed file's."""
    import re

    found: dict[str, list[bytes]] = {"content_file": [], "content_folder": []}
    files = sorted(DATA.rglob("*.toml")) + sorted(EXAMPLE.rglob("*.toml"))
    for path in files:
        kind = "modes" if path.name == "modes.toml" else path.parent.name
        if kind not in FILE_KINDS:
            continue  # the rulebooks' sections ship beside the content, not as content
        text = re.sub(r'(?m)^id = "[^"]*"', f'id = "{FAN_ID}"', path.read_text("utf-8"))
        body = text.encode()
        found["content_file"].append(bytes([FILE_KINDS.index(kind)]) + body)
        if kind in fan_folders.FOLDERS:
            found["content_folder"].append(bytes([fan_folders.FOLDERS.index(kind)]) + body)
    return found

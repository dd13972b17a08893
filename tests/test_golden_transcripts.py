"""Golden transcripts: whole seeded games, their choices and worded events, pinned as text.

Set FUNKOVERSE_UPDATE_GOLDEN=1 to write them again after a change meant to change games
(then read the diff before committing it)."""

from __future__ import annotations

import difflib
import os

import pytest

from funkoverse.rules.engines import named
from transcripts import GAMES, GOLDEN, play, transcript


@pytest.mark.parametrize("engine", ["kernel", "python"])
@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_seeded_game_plays_exactly_as_its_golden_transcript(name: str, engine: str) -> None:
    """On both engines: the kernel's game is the Python engine's, word for word."""
    request, seed = GAMES[name]
    session = play(request, seed, named(engine))
    assert session.over, f"{name}: the game did not finish"
    assert session.fallback is None, f"{name}: played on the Python engine: {session.fallback}"
    text = transcript(session)
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("FUNKOVERSE_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    golden = path.read_text(encoding="utf-8")
    if text != golden:
        diff = difflib.unified_diff(
            golden.splitlines(), text.splitlines(), "golden", "now", n=2, lineterm=""
        )
        pytest.fail(f"{name} no longer plays as its transcript:\n" + "\n".join(list(diff)[:40]))

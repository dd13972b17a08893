"""Restricted play (issue 22, item 3): a barred side's agent never picks the barred choice,
read from the choice's type; the other side is free; bars are kept with the game."""

from __future__ import annotations

import pytest

from funkoverse.errors import UserError
from funkoverse.lab.bars import Bar, parse_bar
from funkoverse.lab.game import play_task
from funkoverse.lab.plan import matchups, plan
from funkoverse.rules.core.choices import Challenge, Move, UseAbility, parse
from funkoverse.rules.session import CHOICE


def test_bars_are_written_as_on_the_command_line() -> None:
    assert parse_bar("ability:savage-hunger") == Bar("ability", "savage-hunger")
    assert parse_bar("b=action:challenge") == Bar("action", "challenge", "b")
    assert parse_bar("a=item:lasso-of-truth").text() == "a=item:lasso-of-truth"
    assert Bar("action", "move").bars(Move("c3"))
    assert Bar("ability", "savage-hunger").bars(UseAbility("savage-hunger"))
    assert not Bar("ability", "savage-hunger").bars(UseAbility("quick-swipe"))
    for bad in ("ability", "spell:x", "c=ability:x", "action:fly"):
        with pytest.raises(UserError):
            parse_bar(bad)


def test_a_side_barred_from_challenging_never_challenges() -> None:
    found = matchups(
        ["the-cheetah", "wonder-woman", "priestess", "villager"],
        2,
        ["flags"],
        agent_a="random",
        bars=[parse_bar("a=action:challenge")],
        max_rounds=30,
    )
    free = matchups(
        ["the-cheetah", "wonder-woman", "priestess", "villager"],
        2,
        ["flags"],
        agent_a="random",
        max_rounds=30,
    )
    a_challenges = b_challenges = free_a = 0
    for task, free_task in zip(plan(found, 6, 1), plan(free, 6, 1), strict=True):
        assert task.bars == ("a=action:challenge",)
        for t, record in ((task, play_task(task)), (free_task, play_task(free_task))):
            for entry in record.log:
                if entry.get("kind", CHOICE) != CHOICE:
                    continue
                if isinstance(parse(entry["choice"]), Challenge):
                    if t is task and entry["seat"] == t.a_side:
                        a_challenges += 1
                    elif t is task:
                        b_challenges += 1
                    elif entry["seat"] == t.a_side:
                        free_a += 1
    assert a_challenges == 0
    assert b_challenges > 0 and free_a > 0  # the other side, and A unbarred, do challenge

"""Scenarios and ways to play: what can be chosen at setup."""

from __future__ import annotations

from typing import Any

from funkoverse.errors import UserError
from funkoverse.rules.scenario import FirstKnockout, Scenario

SCENARIOS: dict[str, tuple[Scenario, str]] = {
    "first-knockout": (FirstKnockout(), "DC Comics 102"),
}


def scenario(scenario_id: str) -> Scenario:
    if scenario_id not in SCENARIOS:
        raise UserError(f"unknown scenario '{scenario_id}'; known: {', '.join(sorted(SCENARIOS))}")
    return SCENARIOS[scenario_id][0]


def scenarios() -> list[dict[str, Any]]:
    return [{"id": sid, "name": s.name, "box": box} for sid, (s, box) in SCENARIOS.items()]


def modes() -> list[dict[str, Any]]:
    return [
        {"id": "standard", "name": "One player a side", "box": "DC Comics 102"},
    ]

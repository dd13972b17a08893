"""The HTTP API fuzzed from its own OpenAPI document (Schemathesis): no request, however
made, gets a server error or an answer the document does not describe (status codes,
bodies, content types, `Allow` on a 405), and a malformed request is refused. Half the cases
aim at a real game with a real seat's token, so that choices, undos, hints, previews and
views are reached, not only the 404 of an unknown id.

Not checked: that every schema-valid body is accepted, since what the box holds (a map of
the scenario, a size the scenario takes) is not a schema's to say.

`FUNKOVERSE_SCHEMA_EXAMPLES=1000 python -m pytest tests/test_server_schema.py -n 0` is the
long run of docs/reliability.md; CI runs 40 examples an operation.
"""

from __future__ import annotations

import os
import tempfile
import zlib
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings

from funkoverse.server.app import create_app
from funkoverse.server.guard import Limits

EXAMPLES = int(os.environ.get("FUNKOVERSE_SCHEMA_EXAMPLES", "40"))

_folder = tempfile.mkdtemp(prefix="funkoverse-schema-")
app = create_app(Path(_folder) / "games.db", thinking=False, limits=Limits(games=0, hints=0))
schema = schemathesis.openapi.from_asgi("/openapi.json", app)


def _real_game() -> tuple[str, dict[str, str]]:
    with TestClient(app) as client:
        made = client.post(
            "/api/games",
            json={"scenario": "flags", "map": "themyscira", "size": 2, "seed": 3},
        ).json()
    return made["game"], {s: t["token"] for s, t in made["seats"].items()}


GAME, TOKENS = _real_game()


@pytest.mark.xdist_group("schema")
@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
def test_no_request_gets_a_server_error_or_an_answer_the_document_does_not_describe(
    case: Any,
) -> None:
    headers = dict(case.headers or {})
    params = case.path_parameters or {}
    if "game" in params and zlib.crc32(repr(case.body).encode()) % 2 == 0:
        params["game"] = GAME
        seat = ("dark", "light")[zlib.crc32(repr(case.query).encode()) % 2]
        headers["Authorization"] = f"Bearer {TOKENS[seat]}"
    case.headers = headers
    case.call_and_validate(excluded_checks=[schemathesis.checks.positive_data_acceptance])

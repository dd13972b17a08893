"""The shared conformance cases (perft for this game) through `funkoverse query`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "conformance"
CASE_FILES = sorted(SHARED.glob("*.json"))


def test_every_conformance_case_passes() -> None:
    """`../shared/conformance/check.py` over every case file, through `funkoverse query`. In CI
    the cases must be there and run."""
    if not CASE_FILES:
        if os.environ.get("CI"):
            pytest.fail(f"no case files in {SHARED}: ../shared must sit beside this checkout in CI")
        pytest.skip("../shared/conformance is not beside this checkout")
    env_cmd = f"{sys.executable} -m funkoverse query"
    result = subprocess.run(
        [sys.executable, str(SHARED / "check.py"), *map(str, CASE_FILES)],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "FUNKOVERSE_QUERY": env_cmd},
    )
    last = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
    assert result.returncode == 0 and last.endswith(" 0 failed"), result.stdout[-3000:]


@pytest.mark.xdist_group("live-server")
def test_the_server_passes_the_shared_server_check() -> None:
    """`../shared/conformance/server_check.py`: the server's protocol as an outside client
    sees it (server-api.md). In CI the check must be there and run."""
    check = SHARED / "server_check.py"
    if not check.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{check} is missing: ../shared must sit beside this checkout in CI")
        pytest.skip("../shared/conformance is not beside this checkout")
    from liveserver import free_port

    bin_dir = str(Path(sys.executable).parent)
    result = subprocess.run(
        [sys.executable, str(check), "--port", str(free_port())],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")},
    )
    last = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
    assert result.returncode == 0 and last.endswith(" 0 failed"), result.stdout[-3000:]

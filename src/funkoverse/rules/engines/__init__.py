"""One engine interface, two engines: the Python engine (the reference) and the compiled
kernel. See `base` for the interface; `named` picks one by name at the edge."""

from __future__ import annotations

from funkoverse.rules.core.errors import Unsupported
from funkoverse.rules.engines.base import CHANCE_AT, OVER_AT, Engine, Position
from funkoverse.rules.engines.kernel import KERNEL, KernelEngine
from funkoverse.rules.engines.python import PYTHON, PythonEngine

ENGINES: dict[str, Engine] = {"kernel": KERNEL, "python": PYTHON}


def best() -> Engine:
    """The fastest engine this machine has: the kernel when it was built."""
    return KERNEL if KERNEL.available else PYTHON


def named(name: str | None) -> Engine:
    """The engine called `name` ("kernel" or "python"; None: `best`). Asking for the kernel
    where it was not built gives the Python engine (`Engine.why_not` says why)."""
    if name is None:
        return best()
    found = ENGINES.get(name.lower())
    if found is None:
        raise ValueError(f"no engine '{name}': the engines are kernel and python")
    return found


__all__ = [
    "CHANCE_AT",
    "ENGINES",
    "KERNEL",
    "OVER_AT",
    "PYTHON",
    "Engine",
    "KernelEngine",
    "Position",
    "PythonEngine",
    "Unsupported",
    "best",
    "named",
]

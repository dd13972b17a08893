"""The engine a command plays on: `--engine kernel|python`, or FUNKOVERSE_ENGINE.

This is the one place the environment variable is read: every command that plays games
takes the option, and hands the engine it names to the core (a session, the server, the
lab's workers, the environment). Where the kernel was not built, asking for it gives the
Python engine, and the command says why on standard error.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from funkoverse.errors import UserError
from funkoverse.rules import engines

VARIABLE = "FUNKOVERSE_ENGINE"


def add_engine_option(parser: Any) -> None:
    parser.add_argument(
        "--engine",
        choices=sorted(engines.ENGINES),
        default=None,
        help="the rules engine to play on: the compiled kernel (the default where it is "
        "built) or the Python engine, the reference ($FUNKOVERSE_ENGINE sets the default)",
    )


def engine_of(args: argparse.Namespace) -> engines.Engine:
    """The engine `args` asks for (--engine, else $FUNKOVERSE_ENGINE, else the best built)."""
    name = getattr(args, "engine", None) or os.environ.get(VARIABLE) or None
    try:
        chosen = engines.named(name)
    except ValueError as e:
        raise UserError(
            f"{'--engine' if getattr(args, 'engine', None) else VARIABLE}: {e}"
        ) from None
    if not chosen.available:
        sys.stderr.write(f"funkoverse: {chosen.why_not}; playing on the Python engine\n")
        return engines.PYTHON
    return chosen

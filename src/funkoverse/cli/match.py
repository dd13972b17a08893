"""Placeholder for the 'match' subcommand while it is being built."""

from __future__ import annotations

import argparse
from typing import Any

from funkoverse.errors import UserError


def register(sub: Any) -> None:
    p = sub.add_parser("match", help="(being built)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    raise UserError("match is being built")

"""Placeholder for the 'query' subcommand while it is being built."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser("query", help="(being built)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return 1

"""The `--content DIR` option that play, match, simulate and serve share: fan-made content
folders added to the box before anything is set up."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def add_content_option(p: Any) -> None:
    """Add `--content DIR` (may be given more than once) to a subcommand's parser."""
    p.add_argument(
        "--content",
        action="append",
        default=[],
        metavar="DIR",
        help="a folder of fan-made content to add (as examples/fan-content); checked first",
    )


def apply_content(args: argparse.Namespace) -> list[str]:
    """Check and add the folders given with --content; returns them as absolute paths."""
    from funkoverse.content.extra import use_content

    dirs = [str(Path(d).resolve()) for d in getattr(args, "content", [])]
    if dirs:
        use_content(dirs)
    return dirs

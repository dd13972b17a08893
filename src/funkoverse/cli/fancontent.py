"""The `--content DIR` option that play, match, simulate and serve share: fan-made content
folders added to the box, as the catalog the command's games are made of."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from funkoverse.content.catalog import Catalog


def add_content_option(p: Any) -> None:
    """Add `--content DIR` (may be given more than once) to a subcommand's parser."""
    p.add_argument(
        "--content",
        action="append",
        default=[],
        metavar="DIR",
        help="a folder of fan-made content to add (as examples/fan-content); checked first",
    )


def content_catalog(args: argparse.Namespace) -> Catalog:
    """The catalog of the shipped content and the folders given with --content (as absolute
    paths), every file in them checked first."""
    from funkoverse.content.catalog import load_catalog

    return load_catalog(str(Path(d).resolve()) for d in getattr(args, "content", []))

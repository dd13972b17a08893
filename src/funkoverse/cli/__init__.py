"""The `funkoverse` command: a thin shell that parses words and calls the core.

Each subcommand lives in its own module with `register(subparsers)`; the module
sets `func` on its parser to a callable taking the parsed namespace and
returning an exit status. Errors reach people as one line, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

from funkoverse.errors import UserError

# subcommand name -> module under funkoverse.cli that registers it
COMMANDS: dict[str, str] = {
    "serve": "serve",
    "play": "play",
    "replay": "replay",
    "query": "query",
    "map": "mapcmd",
    "odds": "odds",
    "bench": "bench",
    "perft": "perft",
    "match": "match",
    "content": "content",
    "simulate": "simulate",
    "report": "report",
    "soak": "soak",
}

# the commands that play games take `--engine` (cli/engine.py)
PLAYING = ("serve", "play", "replay", "bench", "match", "simulate", "soak")


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on standard error."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: {message} (see '{self.prog} --help')\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    from funkoverse import __version__

    parser = _Parser(prog="funkoverse", description="The Funkoverse Strategy Game.")
    parser.add_argument("--version", action="version", version=f"funkoverse {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for module_name in COMMANDS.values():
        module = importlib.import_module(f"funkoverse.cli.{module_name}")
        module.register(sub)
    from funkoverse.cli.engine import add_engine_option

    for name in PLAYING:
        command = sub.choices[name]
        if not any("--engine" in a.option_strings for a in command._actions):
            add_engine_option(command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args)
        return status
    except UserError as e:
        sys.stderr.write(f"funkoverse {args.command}: {e}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("funkoverse: interrupted\n")
        return 130
    except BrokenPipeError:
        return 1
    except Exception as e:  # a bug of ours: still one line, never a traceback
        detail = str(e).splitlines()[0] if str(e) else ""
        sys.stderr.write(
            f"funkoverse {args.command}: internal error: {type(e).__name__}: {detail}\n"
        )
        return 3

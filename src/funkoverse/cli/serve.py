"""`funkoverse serve`: the game in the browser, against the computer, hot-seat or online."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from funkoverse.cli.engine import engine_of
from funkoverse.cli.fancontent import add_content_option, content_catalog
from funkoverse.errors import UserError


def register(sub: Any) -> None:
    p = sub.add_parser(
        "serve",
        help="play in the browser: start the game server and open the page",
        description=(
            "Serve the game page and its API (http://127.0.0.1:8000 by default). Games are kept "
            "in an SQLite database in your data folder (--db to choose one): stop the server at "
            "any moment and every game carries on when it starts again."
        ),
    )
    p.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: %(default)s)"
    )
    p.add_argument("--port", type=int, default=8000, help="port (default: %(default)s)")
    p.add_argument("--db", help="the games database (default: in your user data folder)")
    p.add_argument(
        "--workers",
        type=int,
        default=2,
        help="processes the computer thinks in (default: %(default)s)",
    )
    p.add_argument(
        "--limit-games",
        type=float,
        default=30.0,
        metavar="N",
        help="games one address may create a minute (0: no limit; default: %(default)g)",
    )
    p.add_argument(
        "--limit-hints",
        type=float,
        default=60.0,
        metavar="N",
        help="hints one address may ask for a minute (0: no limit; default: %(default)g)",
    )
    p.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="another site whose pages may act on this server (https://example.org); "
        "by default only this server's own pages may",
    )
    p.add_argument(
        "--presence",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="how long a seat without an open connection counts as here after its last "
        "request (default: %(default)g)",
    )
    p.add_argument("--open", action="store_true", help="open the page in a browser")
    add_content_option(p)
    p.set_defaults(func=run)


def default_db() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("funkoverse", appauthor=False)) / "games.db"


def _check_free(host: str, port: int) -> None:
    """Refuse, in one line, an address this server could not listen on."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as e:
        raise UserError(f"--host {host}: {e.strerror or e}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as e:
            raise UserError(
                f"cannot listen on {host}:{port}: {e.strerror or e} (another server? try --port)"
            ) from None


def run(args: argparse.Namespace) -> int:
    catalog = content_catalog(args)
    if not 0 < args.port < 65536:
        raise UserError(f"--port must be from 1 to 65535, not {args.port}")
    if args.workers < 1:
        raise UserError("--workers must be at least 1")
    if args.presence <= 0:
        raise UserError("--presence must be more than 0 seconds")
    for name in ("limit_games", "limit_hints"):
        if getattr(args, name) < 0:
            raise UserError(f"--{name.replace('_', '-')} must be 0 (no limit) or more")
    for origin in args.allow_origin:
        if not origin.startswith(("http://", "https://")) or origin.count("/") != 2:
            raise UserError(f"--allow-origin {origin}: an origin is https://host[:port]")
    try:
        import uvicorn

        from funkoverse.server.app import create_app
    except ImportError as e:  # pragma: no cover - a broken install
        raise UserError(f"the server needs its packages ({e.name}): pip install -e .") from None
    db = Path(args.db) if args.db else default_db()
    import sqlite3

    try:
        from funkoverse.server.guard import Limits

        app = create_app(
            db,
            workers=args.workers,
            limits=Limits(games=args.limit_games, hints=args.limit_hints),
            allowed_origins=frozenset(args.allow_origin),
            engine=engine_of(args),
            presence=args.presence,
            catalog=catalog,
        )
    except OSError as e:
        raise UserError(f"{db}: cannot open the games database: {e.strerror or e}") from None
    except sqlite3.DatabaseError as e:
        raise UserError(f"{db}: not a games database ({e}); choose another with --db") from None
    _check_free(args.host, args.port)
    url = f"http://{args.host}:{args.port}/"
    sys.stderr.write(f"funkoverse: serving the game at {url} (games in {db}); Ctrl-C stops it\n")
    if args.open:
        import threading
        import webbrowser

        threading.Timer(1.0, lambda: webbrowser.open(url)).start()
    import logging

    logging.basicConfig(level=logging.WARNING, format="funkoverse serve: %(message)s")
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        ws="auto",
        ws_ping_interval=15.0,
        ws_ping_timeout=15.0,
        # a view is compressed once per socket with per-message deflate: with many watchers
        # that is most of a change's cost, and views after the first are small
        ws_per_message_deflate=False,
    )
    server = uvicorn.Server(config)
    try:
        server.run()
    except OSError as e:
        raise UserError(f"cannot listen on {args.host}:{args.port}: {e.strerror or e}") from None
    return 0

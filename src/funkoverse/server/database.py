"""The store, called from a thread of its own: the event loop never waits on SQLite.

SQLite's busy wait and a slow disk block the thread that called it; the server's
database calls all run, one at a time, on one thread kept for them, so requests for other
games (and every socket) go on meanwhile.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from funkoverse.server.store import Store

T = TypeVar("T")


class Database:
    """A `Store` and the one thread that calls it."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._thread: ThreadPoolExecutor | None = None

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` on the database thread; its exception (`Unavailable`) is raised here."""
        if self._thread is None:
            self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="games-db")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, functools.partial(fn, *args))

    def close(self) -> None:
        """Finish what was asked, and close the database (the next call opens it again)."""
        if self._thread is not None:
            self._thread.shutdown(wait=True)
            self._thread = None
        self.store.close()

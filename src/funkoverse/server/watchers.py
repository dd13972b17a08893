"""The sockets watching a game, each with its own bounded queue and writer.

Nobody waits for a slow watcher: what a game tells its watchers is put on each socket's
queue without waiting, and each socket's own writer task sends it. A watcher whose queue is
full, or whose send does not finish within `SEND_TIMEOUT`, is dropped (its socket closed);
it comes back with `?since=` and carries on from the version it had. Everything a socket is
sent goes through its queue, so its views arrive in version order.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

log = logging.getLogger("funkoverse.server")

QUEUE = 64  # messages a socket may have waiting before it is dropped as too slow
SEND_TIMEOUT = 10.0  # seconds one send may take before the socket is dropped as too slow
TOO_SLOW = 4008  # the close code of a dropped watcher (it may reconnect with ?since=)

SendText = Callable[[str], Awaitable[None]]
Close = Callable[[int, str], Awaitable[None]]


@dataclass(eq=False)
class Watcher:
    """One socket of one game: the seat it speaks for (None: a spectator), the version its
    log is complete to, and its queue."""

    seat: str | None
    since: int
    send_text: SendText
    close: Close
    queue: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(QUEUE))
    dropped: bool = False
    on_drop: Callable[[Watcher], None] | None = None
    _writer: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._writer = asyncio.get_running_loop().create_task(self._write())

    def offer(self, text: str) -> bool:
        """Queue `text` for the socket without waiting; a full queue drops the watcher."""
        if self.dropped:
            return False
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.drop("too slow: its messages were not read")
            return False
        return True

    async def _write(self) -> None:
        while True:
            text = await self.queue.get()
            try:
                async with asyncio.timeout(SEND_TIMEOUT):
                    await self.send_text(text)
            except asyncio.CancelledError:
                raise
            except TimeoutError:
                self.drop("too slow: a message took too long to send")
                return
            except Exception:  # the connection is gone
                self.drop(None)
                return

    def drop(self, why: str | None) -> None:
        """Stop sending to this socket and close it (why: said in the close frame)."""
        if self.dropped:
            return
        self.dropped = True
        if why is not None:
            log.warning("dropped a watcher of a game: %s", why)
        if self.on_drop is not None:
            self.on_drop(self)
        writer = self._writer
        if writer is not None and writer is not asyncio.current_task():
            writer.cancel()
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().create_task(self._close(why))

    async def _close(self, why: str | None) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.close(TOO_SLOW, (why or "gone")[:120]), 2.0)

    def stop(self) -> None:
        """The socket ended on its own: stop its writer."""
        self.dropped = True
        if self._writer is not None:
            self._writer.cancel()

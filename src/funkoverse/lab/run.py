"""Playing a plan: in this process, in local worker processes, or as Ray tasks, each game
stored the moment its result comes back.

Whatever the backend, a game is played from its task alone (spec, seed, agents, bars), so
the same master seed gives the same rows. Ray work goes out in batches of at least
`BATCH_SECONDS` of play (Ray's overhead per task is around a millisecond), with a bounded
number of batches in flight, collected with `ray.wait` as they finish.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib
import importlib.util
import math
import os
import re
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from funkoverse.errors import UserError
from funkoverse.lab.game import GameRecord, play_task
from funkoverse.lab.plan import GameTask
from funkoverse.lab.progress import Progress
from funkoverse.lab.store import Store

BACKENDS = ("local", "ray")
BATCH_SECONDS = 0.1  # the least work a Ray task carries
RAY_INSTALL = "--backend ray needs Ray: pip install -e '.[lab]' (or pip install 'ray>=2.9')"
# A first guess of one game's seconds by agent, before any game of the run has finished.
GUESS_SECONDS = {"random": 0.04, "greedy": 0.5, "easy": 0.3, "normal": 0.5}
PROBE_SECONDS = 5.0  # how long a Ray address may take to answer before the run is refused
WATCH_SECONDS = 1.0  # how often a worker looks for its parent
PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies
_ADDRESS = re.compile(r"(?:ray://)?\[?(?P<host>[^\[\]]+?)\]?[:](?P<port>\d+)")  # HOST:PORT


@dataclass
class RunStats:
    """What a run did."""

    planned: int
    already: int  # stored before this run
    played: int = 0
    seconds: float = 0.0  # playing, from the first game sent out to the last stored
    startup: float = 0.0  # starting or joining Ray, before that

    @property
    def rate(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else 0.0


def run(
    tasks: Sequence[GameTask],
    store: Store,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: str | None = None,
    on_game: Callable[[GameTask, GameRecord], None] | None = None,
) -> RunStats:
    """Play every task of the plan that the store lacks, storing each as it finishes;
    `progress` "bar" (a terminal's) or "lines" (a log's) shows how far it is."""
    check_backend(backend, workers)
    store.add_plan(tasks)
    todo = store.pending(tasks)
    stats = RunStats(planned=len(tasks), already=len(tasks) - len(todo))
    ray: Any = None
    started = False
    t0 = time.perf_counter()
    if backend == "ray" and todo:
        ray, started = _ray_start(workers, address)
        stats.startup = time.perf_counter() - t0
        results = _ray(todo, ray, workers)
    elif workers == 1 or len(todo) <= 1:
        results = ((t, play_task(t)) for t in todo)
    else:
        results = _local(todo, workers)
    t0 = time.perf_counter()
    try:
        with Progress(progress, len(tasks), stats.already) as advance:
            for task, record in results:
                if store.add(task, record):
                    stats.played += 1
                stats.seconds = time.perf_counter() - t0
                advance(stats.rate)
                if on_game is not None:
                    on_game(task, record)
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()  # cancels what is in flight
        if started:
            ray.shutdown()
    stats.seconds = time.perf_counter() - t0
    return stats


# --------------------------------------------------------------------------- local


def _worker(parent: int) -> None:
    """A worker process leaves Ctrl-C to its parent, which stops the run, and dies with it:
    a parent-death signal where Linux offers one, and a watchdog everywhere (a parent killed
    with SIGKILL cannot stop its pool)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the signal was asked for
        os._exit(1)
    threading.Thread(target=_watch, args=(parent,), daemon=True).start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(1)


def _local(todo: Sequence[GameTask], workers: int) -> Iterator[tuple[GameTask, GameRecord]]:
    """Tasks played in `workers` processes, a bounded number submitted at a time, results
    yielded as they finish."""
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_worker, initargs=(os.getpid(),))
    pending: dict[Future[GameRecord], GameTask] = {}
    queue = iter(todo)
    try:
        while True:
            while len(pending) < 2 * workers:
                task = next(queue, None)
                if task is None:
                    break
                pending[pool.submit(play_task, task)] = task
            if not pending:
                break
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=lambda f: pending[f].game_id):
                yield pending.pop(future), future.result()
    finally:
        pool.shutdown(wait=not pending, cancel_futures=True)


# --------------------------------------------------------------------------- Ray


def play_batch(tasks: list[GameTask]) -> list[GameRecord]:
    """A Ray task's work: several games, one after the other."""
    return [play_task(t) for t in tasks]


def batches(todo: Sequence[GameTask], seconds_a_game: float) -> Iterator[list[GameTask]]:
    """The tasks in batches of at least `BATCH_SECONDS` of expected play."""
    size = max(1, math.ceil(BATCH_SECONDS / max(seconds_a_game, 1e-3)))
    for i in range(0, len(todo), size):
        yield list(todo[i : i + size])


def guess_seconds(task: GameTask) -> float:
    """A first guess of how long one game of this task takes (its slower agent)."""
    return max(GUESS_SECONDS.get(a, 2.0) for a in (task.agent_a, task.agent_b))


def check_backend(backend: str, workers: int, address: str | None = None) -> None:
    """Refuse in one line, before anything is written, a run that cannot start: an unknown
    backend, no workers, Ray missing, a Ray address where nothing answers."""
    if backend not in BACKENDS:
        raise UserError(f"--backend {backend}: the backends are {', '.join(BACKENDS)}")
    if workers < 1:
        raise UserError(f"--workers must be at least 1, not {workers}")
    if backend == "ray" and importlib.util.find_spec("ray") is None:
        raise UserError(RAY_INSTALL)
    if address:
        probe_address(address)


def probe_address(address: str) -> None:
    """Refuse at once, in one line, a Ray address where nothing answers (Ray itself retries
    for minutes). Only a HOST:PORT address (or ray://HOST:PORT) is probed; 'auto' and the
    like are Ray's to find."""
    found = _ADDRESS.fullmatch(address.strip())
    if found is None:
        return
    try:
        with socket.create_connection((found["host"], int(found["port"])), timeout=PROBE_SECONDS):
            pass
    except OSError as e:
        reason = e.strerror or type(e).__name__
        raise UserError(
            f"--address {address}: no Ray cluster answers there ({reason.lower()}); start one "
            "with 'ray start --head' or give the address it prints"
        ) from None


def _ray_start(workers: int, address: str | None) -> tuple[Any, bool]:
    """Ray, connected to `address` or to a local instance of `workers` CPUs started here
    (then True: this run shuts it down)."""
    try:
        ray: Any = importlib.import_module("ray")
    except ImportError:
        raise UserError(RAY_INSTALL) from None
    started = not ray.is_initialized()
    if started:
        if address:
            import funkoverse

            # the cluster's workers get this package's code with the job (its pure-Python
            # dependencies are the standard library's)
            code = str(Path(funkoverse.__file__).parent)
            try:
                ray.init(address=address, log_to_driver=False, runtime_env={"py_modules": [code]})
            except Exception as e:  # Ray raises several kinds; a person needs one line
                detail = str(e).splitlines()[0] if str(e) else type(e).__name__
                raise UserError(
                    f"--address {address}: cannot join a Ray cluster ({detail})"
                ) from None
        else:
            ray.init(
                num_cpus=workers,
                include_dashboard=False,
                log_to_driver=False,
                configure_logging=False,
            )
    return ray, started


def _ray(todo: Sequence[GameTask], ray: Any, workers: int) -> Iterator[tuple[GameTask, GameRecord]]:
    """Tasks played as Ray tasks in batches, at most two a CPU in flight, yielded as each
    batch finishes (`ray.wait`)."""
    cpus = max(1, int(ray.cluster_resources().get("CPU", workers)))
    remote: Any = ray.remote(num_cpus=1, max_retries=3)(play_batch)
    queue = batches(todo, guess_seconds(todo[0]))
    in_flight: dict[Any, list[GameTask]] = {}
    try:
        while True:
            while len(in_flight) < 2 * cpus:
                batch = next(queue, None)
                if batch is None:
                    break
                in_flight[remote.remote(batch)] = batch
            if not in_flight:
                break
            ready, _ = ray.wait(list(in_flight), num_returns=1)
            for ref in ready:
                batch = in_flight.pop(ref)
                yield from zip(batch, ray.get(ref), strict=True)
    finally:
        for ref in in_flight:
            ray.cancel(ref, force=True)

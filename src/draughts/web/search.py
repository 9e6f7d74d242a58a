"""Engine searches in threads, each bounded in time, a few at once (deprecated).

The web app no longer uses this: its searches run in worker processes
(:mod:`draughts.web.workers`), which a search that overruns its time cannot hold, unlike a
thread. :class:`SearchRunner` stays for code that used it, with a :class:`DeprecationWarning`.

A search runs in a worker thread with the level's limit plus a time limit; the event loop only
awaits it, so other requests are answered meanwhile. Should the search overrun its time (a slow
machine, a queue of searches), the runner sets the search's stop flag and the engine returns the
best move it has. More searches than ``workers + queue`` at once are refused (503) rather than
queued without end.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import warnings

import attrs

from draughts.board import Board
from draughts.engine import Level, SearchResult
from draughts.web.views import RequestError

__all__ = ["SearchRunner"]

_GRACE = 1.0
"""Seconds a search may overrun its limit before the runner stops it."""


class SearchRunner:
    """Runs engine searches in a small thread pool.

    Args:
        workers: Searches that run at once.
        queue: Searches that may wait for a worker; beyond that, requests get a 503.
        max_time: The longest time a request may ask for, in seconds.
    """

    def __init__(self, workers: int = 2, queue: int = 8, max_time: float = 10.0) -> None:
        warnings.warn(
            "draughts.web.search.SearchRunner is deprecated: the web app searches in worker processes "
            "(draughts.web.workers.WorkerPool)",
            DeprecationWarning,
            stacklevel=2,
        )
        if workers < 1 or queue < 0 or not max_time > 0:
            raise ValueError(f"workers {workers!r}, queue {queue!r}, max_time {max_time!r} out of range")
        self.workers = workers
        self.queue = queue
        self.max_time = max_time
        self._pool = concurrent.futures.ThreadPoolExecutor(workers, thread_name_prefix="draughts-search")
        self._running = 0

    @property
    def busy(self) -> int:
        """Searches running or waiting."""
        return self._running

    async def search(self, board: Board, level: Level, seconds: float) -> SearchResult:
        """The level's move for ``board`` (a copy is searched), thinking at most about ``seconds``.

        Raises:
            RequestError: (503) too many searches already; (400) a time above ``max_time``.
        """
        if not 0 < seconds <= self.max_time:
            raise RequestError(f"time {seconds!r} must be more than 0 and at most {self.max_time:g} seconds")
        if self._running >= self.workers + self.queue:
            raise RequestError(f"the engine is busy with {self._running} searches; try again shortly", 503)
        limit = attrs.evolve(level.limit, time=seconds)
        engine = level.engine(seed=None)
        stop = threading.Event()
        copy = board.copy()
        loop = asyncio.get_running_loop()
        self._running += 1
        try:
            future = loop.run_in_executor(self._pool, lambda: engine.search(copy, limit, stop=stop))
            try:
                return await asyncio.wait_for(asyncio.shield(future), seconds + _GRACE)
            except asyncio.TimeoutError:
                stop.set()  # the engine answers with its best move so far
                return await future
            except asyncio.CancelledError:
                stop.set()  # the client went away: free the worker
                raise
        finally:
            self._running -= 1

    def shutdown(self) -> None:
        """Stop taking searches and wait for the running ones (each is bounded in time)."""
        self._pool.shutdown(wait=True, cancel_futures=True)

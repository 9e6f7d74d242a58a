"""Inside a worker process: a job's life, and the stop signal a running job may read.

This is the worker's side of :mod:`draughts.web.workers` (which keeps the pool, the nursery and
their bookkeeping). It lives apart so that jobs (:mod:`draughts.web.tasks`) can ask for their stop
signal without importing the pool: the pool imports the jobs' module into its nursery once, and
the jobs import only this, so the two import one way.
"""

from __future__ import annotations

import multiprocessing.connection
import signal
import threading
import traceback
from collections.abc import Callable, Sequence
from typing import Any

from draughts.errors import DraughtsError

__all__ = ["stop_requested"]

Connection = multiprocessing.connection.Connection
_STOP = "stop"  # the message that asks a running job to finish early


# --- inside a worker ---------------------------------------------------------------------------


class _PipeStop:
    """The stop signal of a worker's running job: set once the pool writes :data:`_STOP` on the pipe.

    It has ``is_set()`` like :class:`threading.Event`, so an engine search takes it as its ``stop``;
    the search looks every few hundred nodes, and each look costs one ``poll`` of the pipe.
    """

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.stopped = False

    def is_set(self) -> bool:
        if not self.stopped and self.conn.poll():
            self.stopped = self.conn.recv() == _STOP
        return self.stopped


_stop: _PipeStop | None = None


def stop_requested() -> Any:
    """The stop signal of the running job (an engine search's ``stop``); outside a worker, a flag never set."""
    return _stop if _stop is not None else threading.Event()


def _serve(conn: Connection, memory: int | None, setup: Callable[..., None] | None, setup_args: Sequence[Any]) -> None:
    """A worker's life: answer jobs one at a time until the pool closes the pipe."""
    global _stop
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the server's to handle: it stops the workers
    if memory is not None:
        _limit_memory(memory)
    if setup is not None:
        setup(*setup_args)
    conn.send("ready")
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        if job == _STOP:  # asked to stop a job that had already answered
            continue
        _stop = _PipeStop(conn)
        function, args = job
        try:
            answer: tuple[Any, ...] = ("ok", function(*args))
        except DraughtsError as error:
            answer = ("refused", str(error), getattr(error, "status", 400))
        except MemoryError:
            answer = ("refused", "the request needs more memory than the server allows one request", 422)
        except Exception as error:  # a bug in the job: reported, the worker goes on
            answer = ("failed", f"{type(error).__name__}: {error}"[:300], traceback.format_exc())
        try:
            conn.send(answer)
        except (EOFError, OSError):
            return
        except Exception as error:  # an answer that does not pickle
            conn.send(("failed", f"unpicklable answer: {type(error).__name__}", traceback.format_exc()))


def _limit_memory(limit: int) -> None:
    try:
        import resource
    except ImportError:  # pragma: no cover - not on this platform (Windows): no limit
        return
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard == resource.RLIM_INFINITY or hard > limit:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))

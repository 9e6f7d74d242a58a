"""Where a command's independent jobs run: :func:`executor`, the one helper of every command with
``--workers`` and ``--scheduler`` (``draughts pdn``, ``lab``, ``match``, ``endgame build``).

Every command has the same default: one worker process per CPU, never more than there are jobs;
one worker runs the jobs in the command's own process. ``--scheduler ADDRESS`` runs them on the
workers of a Dask cluster instead (the distributed extra), and excludes ``--workers``.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from draughts._text import excerpt
from draughts.errors import DraughtsError

__all__ = ["WORKERS_HELP", "dask_client", "default_workers", "executor"]

WORKERS_HELP = "worker processes (default: one per CPU, at most one per job; 1: none)"
"""The help of every command's ``--workers``."""


def default_workers() -> int:
    """The worker processes a command starts when ``--workers`` is not given: one per CPU."""
    return os.cpu_count() or 1


@contextlib.contextmanager
def executor(
    workers: int | None = None, scheduler: str | None = None, *, jobs: int | None = None
) -> Iterator[Executor | None]:
    """The executor of ``workers`` processes (default :func:`default_workers`, at most ``jobs``), or
    of the Dask scheduler at ``scheduler``; None when one worker is asked for (the caller runs the
    jobs itself). Closed at the end.

    Raises:
        ~draughts.DraughtsError: ``workers`` below 1, both ``workers`` and ``scheduler``, Dask's
            distributed not installed or the scheduler out of reach.
    """
    if workers is not None and scheduler is not None:
        raise DraughtsError("--workers and --scheduler exclude each other: the scheduler's workers do the work")
    if workers is not None and (isinstance(workers, bool) or workers < 1):
        raise DraughtsError(f"--workers {workers} must be at least 1")
    if scheduler is not None:
        with _dask(scheduler) as remote:
            yield remote
        return
    count = default_workers() if workers is None else workers
    if jobs is not None:
        count = min(count, jobs)
    if count <= 1:
        yield None
        return
    with ProcessPoolExecutor(count) as pool:
        yield pool


@contextlib.contextmanager
def _dask(address: str) -> Iterator[Executor]:
    """``Client(address).get_executor()``, the client closed at the end.

    Tasks are submitted impure: every job runs again, no result of an earlier run is reused.
    """
    with dask_client(address) as client:
        yield client.get_executor(pure=False)


@contextlib.contextmanager
def dask_client(address: str) -> Iterator[Any]:
    """A Dask client of the scheduler at ``address``, closed at the end (``--scheduler``).

    Raises:
        ~draughts.DraughtsError: Dask's distributed not installed or the scheduler out of reach.
    """
    try:
        from distributed import Client
    except ModuleNotFoundError as error:
        extra = 'pip install "polydraughts[distributed]"'
        raise DraughtsError(f"--scheduler needs Dask's distributed: {extra} ({error})") from None
    try:
        client: Any = Client(address)  # type: ignore[no-untyped-call, unused-ignore]
    except (OSError, TimeoutError, ValueError, TypeError) as error:
        raise DraughtsError(f"cannot reach the Dask scheduler {excerpt(address)}: {error}") from None
    try:
        yield client
    finally:
        client.close()

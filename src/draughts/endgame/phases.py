"""Where a build's time goes: the wall clock and CPU time of each phase of each material.

A build is mostly the native solve, but not only: the tables of the smaller materials are read
and checked, the values converted, counted, packed and written. ``benchmarks/endgame.py``
turns recording on (:func:`record`) and reports, per phase, the wall clock, the CPU time and
their ratio (the threads kept busy), so that time outside the two solving threads is seen.
Recording is off unless asked for; it counts the process's CPU time (every thread's), so it
measures builds run in this process (not a pool's workers), and while it records, a build writes
each table before it solves the next (else the writing runs beside the next solve, and each
phase's CPU time would hold the other's).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator

__all__ = ["Phase", "phase", "record", "recorded", "recording"]

Phase = tuple[str, str, float, float]
"""``(material, phase, wall seconds, CPU seconds)``."""

_log: list[Phase] | None = None


def record(on: bool = True) -> None:
    """Start recording phases afresh (``on``), or stop and forget them."""
    global _log
    _log = [] if on else None


def recording() -> bool:
    """Whether phases are being recorded (a build then runs its phases one after another)."""
    return _log is not None


def recorded() -> list[Phase]:
    """The phases recorded since :func:`record`, in the order they ended."""
    return list(_log or [])


@contextlib.contextmanager
def phase(material: str, name: str) -> Iterator[None]:
    """Time the block as phase ``name`` of ``material`` (nothing while recording is off)."""
    log = _log
    if log is None:
        yield
        return
    wall, cpu = time.monotonic(), time.process_time()
    try:
        yield
    finally:
        log.append((material, name, time.monotonic() - wall, time.process_time() - cpu))

"""How one web app behaves: :class:`Settings`, the fields :func:`~draughts.web.app.create_app`
takes (``draughts serve`` sets them from its options)."""

from __future__ import annotations

import os
from collections.abc import Callable

import attrs

from draughts.rules import Ruleset
from draughts.web.rulesets import rulesets_tuple

__all__ = ["Settings", "host_name", "loopback_hosts"]

_LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")


def _directory(path: str | os.PathLike[str]) -> str:
    """A directory setting as an absolute path (the worker processes read it as the app did)."""
    return os.path.abspath(os.fspath(path))


@attrs.frozen
class Settings:
    """How one web app behaves.

    Attributes:
        default_variant: The ruleset ``/`` opens without ``?variant=``.
        custom: The user's rulesets (from the command line), offered next to the named ones.
        allowed_hosts: Host names the ``Host`` header may carry; None accepts any (a server bound
            to a loopback address passes the loopback names).
        max_body: Largest request body, in bytes.
        session_ttl: Seconds a game lives after its last request.
        max_sessions: Most games kept at once.
        session_memory: Most bytes the kept games may hold together (the oldest go first).
        workers: Worker processes for the rules work of requests (legal moves, moves, PDN ...).
        extra_workers: More of them started while every worker is busy, so that a quick request
            does not wait behind slow ones (they end once nothing waits).
        work_time: Seconds of work one request may take; past it the worker is killed and the
            request answered 422.
        work_queue: Requests that may wait for a worker; beyond that, 503.
        worker_memory: Bytes of memory one worker process may use (None: no limit).
        engine_workers: Searches that run at once (each in a process of its own).
        engine_queue: Searches that may wait for a worker.
        max_engine_time: Longest search a request may ask for, in seconds.
        default_engine_time: The search time when a request does not say.
        clock: The monotonic clock in seconds that games' clocks and expiry read (None:
            ``time.monotonic``; tests pass a fake one).
        tablebases: A directory of endgame tables (:mod:`draughts.endgame`, ``draughts endgame
            build``): the board shows the verdict and best moves of a position inside a built
            table, and ``GET /api/endgame`` answers them (None: no tables, the endpoint answers 404).
        database: A game database (:mod:`draughts.db`, ``draughts db import``): the board shows the
            moves played from the position in its games, and ``GET /api/explorer`` answers them
            (None: no database, the endpoint answers 404).
        lab_workers: Worker processes that play the compare page's lab games (:mod:`draughts.web.lab`),
            apart from those answering moves.
        lab_jobs: Lab runs at once; another start is answered 429.
        lab_ttl: Seconds a finished lab run's result is kept.
        lab_idle: Seconds a running lab goes on while nobody asks for its progress (then it is cancelled).
    """

    default_variant: Ruleset | str = "international"
    custom: tuple[Ruleset, ...] = attrs.field(default=(), converter=rulesets_tuple)
    allowed_hosts: tuple[str, ...] | None = None
    max_body: int = 128 * 1024
    session_ttl: float = 3600.0
    max_sessions: int = 1000
    session_memory: int = 32 * 2**20
    workers: int = 2
    extra_workers: int = 2
    work_time: float = 2.0
    work_queue: int = 64
    worker_memory: int | None = 2**30
    engine_workers: int = 2
    engine_queue: int = 8
    max_engine_time: float = 10.0
    default_engine_time: float = 1.5
    clock: Callable[[], float] | None = None
    tablebases: str | None = attrs.field(default=None, converter=attrs.converters.optional(_directory))
    database: str | None = None
    lab_workers: int = 1
    lab_jobs: int = 2
    lab_ttl: float = 600.0
    lab_idle: float = 60.0


def host_name(header: str) -> str:
    """The host of a Host header, without port or IPv6 brackets."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def loopback_hosts(host: str) -> tuple[str, ...] | None:
    """The Host names to accept for a server bound to ``host``: the loopback names, or any for others."""
    if host in _LOOPBACK_HOSTS or host.startswith("127."):
        return (*_LOOPBACK_HOSTS, host)
    return None

"""Rules work off the event loop: a pool of worker processes, each job bounded in time and memory.

Why processes and not threads: move generation, the engine and PDN reading are CPU-bound, and
the compiled build (mypyc) can hold the interpreter lock through a whole generation, so a thread
neither lets the event loop answer other clients meanwhile nor can be stopped. A worker process
runs one job at a time; the event loop only waits for its answer. A job that overruns its time
budget is ended the only sure way, by killing its process, and the request is answered with a
422 that says so; a job that needs more memory than a worker may take fails the same way. More
jobs than ``size + queue`` at once are refused with a 503 rather than queued without end.

One client cannot take the whole pool: a job is counted against its client (the address the
request came from, ``REQUEST_CLIENT``, which the app sets per request), and one client's jobs
hold at most ``per_client`` workers at once (one fewer than the pool may have, so a worker is
always left for another client's quick request) and wait at most ``client_queue`` deep; its
next job is answered 429 at once, without touching the queue everyone shares. A freed worker goes
to the first waiting job whose client is under its share.

Workers are forked from a *nursery*: one small process, started with the server, that imports
the library once and forks a worker whenever the pool needs one, so a killed worker is replaced
in milliseconds and nothing of the server's own state (its threads, its event loop, the user's
``__main__`` script) is copied into it. Where the platform cannot fork, workers are started
with the ``spawn`` method of ``multiprocessing`` instead.

A job is a function and its arguments, both pickled: module-level functions of the library
(:mod:`draughts.web.tasks`), plain data in and out. A :class:`~draughts.DraughtsError` raised by
the job reaches the caller as a :class:`~draughts.errors.RequestError` with the same message
and status (400 unless the error carries another), so bad input reads the same as it would in
the server itself; any other exception is logged with the worker's traceback and answered as a
500 for that request only.
"""

from __future__ import annotations

import asyncio
import atexit
import collections
import contextlib
import contextvars
import logging
import multiprocessing
import multiprocessing.connection
import os
import pickle
import select
import signal
import socket
import struct
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any

from draughts.web.job import _STOP, _serve, stop_requested
from draughts.web.views import RequestError

__all__ = ["WorkerPool", "stop_requested"]

log = logging.getLogger("draughts.web")

Connection = multiprocessing.connection.Connection

REQUEST_CLIENT: contextvars.ContextVar[str | None] = contextvars.ContextVar("draughts_web_client", default=None)
"""Who the job being submitted is for (the web app sets the request's client address); None: nobody's."""
_DEMOTED = 10  # the niceness of a worker whose job has run long
_START_TIME = 120.0  # seconds a new worker may take to start (spawned ones import the library)


# --- inside a worker ----------------------------------------------------------------------------

_BOOT = (
    "import pickle, socket, sys\n"
    "control = socket.socket(fileno=int(sys.argv[1]))\n"
    "size = int.from_bytes(control.recv(4, socket.MSG_WAITALL), 'big')\n"
    "sys.path[:] = pickle.loads(control.recv(size, socket.MSG_WAITALL))\n"
    "from draughts.web.workers import _nursery\n"
    "_nursery(control)\n"
)


def _send_message(sock: socket.socket, value: Any, fds: Sequence[int] = ()) -> None:
    data = pickle.dumps(value)
    header = struct.pack(">I", len(data))
    if fds:
        socket.send_fds(sock, [header], list(fds))
        sock.sendall(data)
    else:
        sock.sendall(header + data)


def _receive_message(sock: socket.socket, max_fds: int = 0) -> tuple[Any, list[int]]:
    """A message and the descriptors sent with it; EOFError when the other end has closed."""
    fds: list[int] = []
    if max_fds:
        header, fds, _, _ = socket.recv_fds(sock, 4, max_fds, socket.MSG_WAITALL)
    else:
        header = sock.recv(4, socket.MSG_WAITALL)
    if len(header) < 4:
        raise EOFError
    (size,) = struct.unpack(">I", header)
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return pickle.loads(data), fds


def _nursery(control: socket.socket) -> None:
    """The nursery's loop: fork a worker per request, kill one on request, reap the dead."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    import draughts.web.tasks  # noqa: F401  (imported once here, every worker has it)

    children: set[int] = set()
    _send_message(control, "ready")
    while True:
        readable, _, _ = select.select([control], [], [], 1.0)
        _reap(children)
        if not readable:
            continue
        try:
            (command, *details), fds = _receive_message(control, max_fds=1)
        except (EOFError, OSError):
            return  # the server has gone: so does the nursery (workers end when their pipe closes)
        if command == "fork":
            pid = os.fork()
            if pid == 0:
                control.close()
                try:
                    _serve(Connection(fds[0]), *details)
                finally:
                    os._exit(0)
            os.close(fds[0])
            children.add(pid)
            _send_message(control, pid)
        elif command == "kill" and details[0] in children:
            os.kill(details[0], signal.SIGKILL)
            os.waitpid(details[0], 0)
            children.discard(details[0])


def _reap(children: set[int]) -> None:
    for pid in list(children):
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            children.discard(pid)


class _Nursery:
    """The server's end of the nursery."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair()
        self.process = subprocess.Popen(
            [sys.executable, "-c", _BOOT, str(theirs.fileno())],
            pass_fds=[theirs.fileno()],
            stdin=subprocess.DEVNULL,
        )
        theirs.close()
        self.control = ours
        self.lock = threading.Lock()
        _send_message(ours, sys.path)
        ours.settimeout(120)
        try:
            ready, _ = _receive_message(ours)
        except (EOFError, OSError) as error:
            raise RuntimeError(f"the worker nursery did not start ({error or 'it exited'})") from None
        ours.settimeout(None)
        assert ready == "ready"

    def fork(
        self, memory: int | None, setup: Callable[..., None] | None, setup_args: Sequence[Any]
    ) -> tuple[int, Connection]:
        ours, theirs = socket.socketpair()
        with self.lock:
            _send_message(self.control, ("fork", memory, setup, setup_args), [theirs.fileno()])
            pid, _ = _receive_message(self.control)
        theirs.close()
        return pid, Connection(ours.detach())

    def kill(self, pid: int) -> None:
        with self.lock, contextlib.suppress(OSError):
            _send_message(self.control, ("kill", pid))

    def close(self) -> None:
        self.control.close()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


_nursery_lock = threading.Lock()
_the_nursery: _Nursery | None = None


def _shared_nursery() -> _Nursery:
    """The process's one nursery, started on first use (its worker pools share it)."""
    global _the_nursery
    with _nursery_lock:
        if _the_nursery is None or _the_nursery.process.poll() is not None:
            if _the_nursery is None:
                atexit.register(_close_nursery)
            _the_nursery = _Nursery()
        return _the_nursery


def _close_nursery() -> None:
    with _nursery_lock:
        if _the_nursery is not None:
            _the_nursery.close()


# --- the server's end of a worker ---------------------------------------------------------------


class _Worker:
    """One worker process and the server's end of its pipe."""

    def __init__(self, pool: WorkerPool) -> None:
        self.jobs = 0
        self.ready = False
        self.demoted = False
        self._process: Any = None
        if pool.fork:
            self.nursery: _Nursery | None = _shared_nursery()
            self.pid, self.conn = self.nursery.fork(pool.memory, pool.setup, pool.setup_args)
        else:
            self.nursery = None
            context = multiprocessing.get_context("spawn")
            self.conn, child = context.Pipe(duplex=True)
            self._process = context.Process(
                target=_serve, args=(child, pool.memory, pool.setup, pool.setup_args), daemon=True
            )
            self._process.start()
            child.close()
            self.pid = self._process.pid

    def demote(self) -> None:
        """Lower the process's scheduling priority: its long job yields the processors to quick ones.

        An unprivileged process cannot raise its priority again: the pool replaces a demoted
        worker once its job is done."""
        self.demoted = True
        with contextlib.suppress(AttributeError, OSError):  # no setpriority (Windows), or not allowed
            os.setpriority(os.PRIO_PROCESS, self.pid, _DEMOTED)

    def kill(self) -> None:
        """End the process now, whatever it is doing."""
        self.conn.close()
        if self.nursery is not None:
            self.nursery.kill(self.pid)
        else:
            self._process.kill()
            self._process.join(1)

    def end(self) -> None:
        """End the process now, keeping our end of its pipe: a job waiting on the pipe sees it
        close at once (and its request is answered), instead of waiting out its budget."""
        if self.nursery is not None:
            self.nursery.kill(self.pid)
        else:
            self._process.kill()

    def retire(self) -> None:
        """End the process (it is idle)."""
        with contextlib.suppress(OSError, ValueError):
            self.conn.send(None)
        self.conn.close()
        if self._process is not None:
            self._process.join(1)


# --- the pool -----------------------------------------------------------------------------------


class WorkerPool:
    """Worker processes running jobs, one each at a time: ``size`` always there, up to ``extra``
    more while every worker is busy.

    A job that finds every worker busy waits ``patience`` seconds for one; if none comes free, an
    extra worker is forked for it (while there are fewer than ``size + extra``), so a quick
    request does not queue behind slow ones; an extra worker ends as soon as nothing waits.

    Args:
        size: Worker processes always running.
        queue: Jobs that may wait for a free worker; beyond that :meth:`run` answers 503.
        budget: Default seconds a job may take before its worker is killed (422).
        wait: Most seconds a job waits for a free worker (then 503).
        extra: Workers started beyond ``size`` while all are busy.
        patience: Seconds a job waits before an extra worker is started for it.
        demote_after: Seconds after which a running job's worker gets a lower scheduling priority
            (None: never), so that quick jobs get the processors first; it is replaced afterwards.
        memory: Bytes of address space a worker may use (None: no limit; Unix only).
        max_jobs: Jobs a worker runs before it is replaced (bounds what caches and leaks may hold).
        setup: A module-level function each new worker calls first, with ``setup_args``.
        name: For the messages.
        fork: Fork workers from the nursery (the default where the platform can), else spawn them.
        per_client: Most jobs of one client running at once (default: one fewer than
            ``size + extra``, at least 1), so one client never holds every worker.
        client_queue: Most jobs of one client waiting at once (default: a quarter of ``queue``,
            at least 1); beyond it the client's next job is answered 429.
    """

    def __init__(
        self,
        size: int = 2,
        *,
        queue: int = 64,
        budget: float = 2.0,
        wait: float = 10.0,
        extra: int = 0,
        patience: float = 0.05,
        demote_after: float | None = 0.2,
        memory: int | None = None,
        max_jobs: int = 5000,
        setup: Callable[..., None] | None = None,
        setup_args: Sequence[Any] = (),
        name: str = "work",
        fork: bool | None = None,
        per_client: int | None = None,
        client_queue: int | None = None,
    ) -> None:
        if size < 1 or queue < 0 or not budget > 0 or not wait > 0 or extra < 0 or max_jobs < 1:
            raise ValueError(f"size {size!r}, queue {queue!r}, budget {budget!r}, wait {wait!r} out of range")
        self.per_client = max(1, size + extra - 1) if per_client is None else per_client
        self.client_queue = max(1, queue // 4) if client_queue is None else client_queue
        if self.per_client < 1 or self.client_queue < 0:
            raise ValueError(f"per_client {per_client!r} and client_queue {client_queue!r} out of range")
        self.size = size
        self.queue = queue
        self.budget = budget
        self.wait = wait
        self.extra = extra
        self.patience = patience
        self.demote_after = demote_after
        self.memory = memory
        self.max_jobs = max_jobs
        self.setup = setup
        self.setup_args = tuple(setup_args)
        self.name = name
        self.fork = hasattr(os, "fork") and hasattr(socket, "send_fds") if fork is None else fork
        self._workers: list[_Worker] = []  # the first ``size`` are the permanent ones, by slot
        self._idle: list[_Worker] = []
        self._waiting: collections.deque[tuple[asyncio.Future[_Worker], str | None]] = collections.deque()
        self._running: collections.Counter[str | None] = collections.Counter()  # jobs at work, by client
        self._queued: collections.Counter[str | None] = collections.Counter()  # jobs waiting, by client
        self._started = False
        self._closed = False
        self.killed = 0
        """Workers killed so far for overrunning their budget, dying, or an abandoned job."""
        self.extras_started = 0
        """Extra workers started so far."""

    # --- workers ---

    def start(self) -> None:
        """Start the workers now (otherwise the first job does)."""
        if self._closed:
            raise RuntimeError(f"the {self.name} pool is closed")
        if not self._started:
            self._started = True
            self._workers = [_Worker(self) for _ in range(self.size)]
            self._idle = list(self._workers)

    def close(self) -> None:
        """End every worker (a running job is abandoned) and refuse new jobs."""
        self._closed = True
        for worker in self._workers:
            if worker in self._idle:
                worker.retire()
            else:
                worker.end()  # its job's request is answered 503 and closes the pipe
        self._workers, self._idle = [], []
        stopping = f"the server is stopping: the {self.name} pool takes no more work"
        for waiter, _ in self._waiting:  # answered, not cancelled: their requests get a 503 at once
            if not waiter.done():
                waiter.set_exception(RequestError(stopping, 503))

    @property
    def busy(self) -> int:
        """Jobs running or waiting."""
        return len(self._workers) - len(self._idle) + len(self._waiting)

    def client_jobs(self, client: str | None) -> tuple[int, int]:
        """``(running, waiting)``: the jobs of ``client`` at work and waiting for a worker."""
        return self._running[client], self._queued[client]

    def pids(self) -> list[int]:
        """The workers' process ids (the permanent ones first)."""
        return [worker.pid for worker in self._workers]

    # --- jobs ---

    async def run(
        self,
        function: Callable[..., Any],
        *args: Any,
        budget: float | None = None,
        soft: float | None = None,
        affinity: str | None = None,
    ) -> Any:
        """``function(*args)`` in a worker: its answer, or its error as a
        :class:`~draughts.errors.RequestError`.

        Args:
            function: A module-level function (it is pickled by name).
            args: Its arguments (pickled).
            budget: Seconds the job may take (default: the pool's); then its worker is killed.
            soft: Seconds after which the job is asked to answer with what it has (:func:`stop_requested`).
            affinity: Jobs with the same key go to the same worker when it is free (its caches).

        Raises:
            RequestError: the job's own error (with its status), 422 past the budget, 503 when the
                pool is full or a worker died, 500 for a bug in the job.
        """
        if self._closed:
            raise RequestError(f"the server is stopping: the {self.name} pool takes no more work", 503)
        self.start()
        client = REQUEST_CLIENT.get()
        worker = await self._acquire(affinity, client)
        try:
            answer = await self._ask(worker, (function, args), self.budget if budget is None else budget, soft)
        except BaseException:
            self._running[client] -= 1
            self._replace(worker)
            raise
        self._running[client] -= 1
        worker.jobs += 1
        if worker.jobs >= self.max_jobs or worker.demoted:
            worker = self._renew(worker)
        self._release(worker)
        return _unwrap(answer)

    def _may_start(self, client: str | None) -> bool:
        """Whether ``client`` may have one more job at work (jobs of nobody always may)."""
        return client is None or self._running[client] < self.per_client

    async def _acquire(self, affinity: str | None, client: str | None) -> _Worker:
        """A worker for a job of ``client``, counted as running for it (the caller uncounts it)."""
        if self._idle and self._may_start(client):
            home = None if affinity is None else self._workers[_slot_of(affinity, self.size)]
            worker = home if home in self._idle else self._idle[-1]
            self._idle.remove(worker)
            self._running[client] += 1
            return worker
        self._check_room(client)
        waiter: asyncio.Future[_Worker] = asyncio.get_running_loop().create_future()
        entry = (waiter, client)
        self._waiting.append(entry)
        self._queued[client] += 1
        try:
            if self.extra:
                try:
                    return await asyncio.wait_for(asyncio.shield(waiter), self.patience)
                except asyncio.TimeoutError:
                    extra = self._extra_for(waiter, client)
                    if extra is not None:
                        return extra
            return await asyncio.wait_for(asyncio.shield(waiter), self.wait)
        except BaseException as error:
            if waiter.done() and not waiter.cancelled() and waiter.exception() is None:
                self._running[client] -= 1
                self._release(waiter.result())  # a worker came free just as the request gave up
            else:
                waiter.cancel()
            if isinstance(error, asyncio.TimeoutError):
                raise RequestError(
                    f"the server is busy: no worker came free within {self.wait:g} s; try again shortly", 503
                ) from None
            raise
        finally:
            if entry in self._waiting:
                self._waiting.remove(entry)
            self._queued[client] -= 1

    def _check_room(self, client: str | None) -> None:
        """Refuse a job that may not wait: its client's own queue is full (429), or everyone's (503)."""
        if client is not None and self._queued[client] >= self.client_queue:
            running, waiting = self.client_jobs(client)
            raise RequestError(
                f"you have {running} requests at work and {waiting} waiting, the most one client may have; "
                "wait for their answers",
                429,
            )
        if len(self._waiting) >= self.queue:
            raise RequestError(f"the server is busy ({self.busy} requests at work or waiting); try again shortly", 503)

    def _extra_for(self, waiter: asyncio.Future[_Worker], client: str | None) -> _Worker | None:
        """An extra worker for a job that waited ``patience`` (None: the pool is at its most, the
        job was served meanwhile, or its client already has its share at work)."""
        if len(self._workers) >= self.size + self.extra or waiter.done() or not self._may_start(client):
            return None
        self._waiting.remove((waiter, client))
        waiter.cancel()
        self.extras_started += 1
        extra = _Worker(self)
        self._workers.append(extra)
        self._running[client] += 1
        return extra

    def _release(self, worker: _Worker) -> None:
        """``worker`` is free: it goes to the first waiting job whose client may start one, else
        idles (an extra worker that nothing takes ends)."""
        if self._closed or worker not in self._workers:
            worker.retire()
            return
        self._idle.append(worker)
        self._dispatch()
        if worker in self._idle and self._workers.index(worker) >= self.size:
            self._idle.remove(worker)
            self._workers.remove(worker)
            worker.retire()

    def _dispatch(self) -> None:
        """Hand idle workers to waiting jobs, in order, skipping those whose client has its share."""
        for entry in list(self._waiting):
            if not self._idle:
                return
            waiter, client = entry
            if waiter.done():
                self._waiting.remove(entry)
            elif self._may_start(client):
                self._waiting.remove(entry)
                self._running[client] += 1
                waiter.set_result(self._idle.pop())

    def _renew(self, worker: _Worker) -> _Worker:
        """A fresh worker in ``worker``'s place (``worker``, idle, ends)."""
        worker.retire()
        fresh = _Worker(self)
        self._workers[self._workers.index(worker)] = fresh
        return fresh

    def _replace(self, worker: _Worker) -> None:
        """Kill ``worker`` (it overran, died or its job was abandoned) and put a fresh one in its place."""
        worker.kill()
        self.killed += 1
        if self._closed or worker not in self._workers:
            return
        if self._workers.index(worker) >= self.size:
            self._workers.remove(worker)
            self._dispatch()  # its client's share went down: a job of it may take an idle worker
            return
        fresh = _Worker(self)
        self._workers[self._workers.index(worker)] = fresh
        self._release(fresh)

    async def _await_start(self, worker: _Worker) -> None:
        """Wait for a new worker's word that it is ready (its start is not counted in a job's budget)."""
        watch = _Readable(worker.conn)
        try:
            await asyncio.wait_for(asyncio.shield(watch.future), _START_TIME)
            message = worker.conn.recv()
        except (asyncio.TimeoutError, EOFError, OSError):
            raise RequestError("a worker process did not start; the server goes on", 503) from None
        finally:
            watch.close()
        if message != "ready":
            raise RequestError(f"a worker process started wrongly ({str(message)[:80]}); the server goes on", 503)
        worker.ready = True

    async def _ask(self, worker: _Worker, job: tuple[Any, ...], budget: float, soft: float | None) -> tuple[Any, ...]:
        if not worker.ready:
            await self._await_start(worker)
        # What happens while the job runs: demoted (quick jobs first), asked to stop, killed.
        steps: list[tuple[float, Callable[[], None] | None]] = []
        if self.demote_after is not None and self.demote_after < budget:
            steps.append((self.demote_after, worker.demote))
        if soft is not None and soft < budget:
            steps.append((soft, lambda: worker.conn.send(_STOP)))  # an engine search answers with what it has
        steps.sort(key=lambda step: step[0])
        steps.append((budget, None))
        worker.conn.send(job)
        watch = _Readable(worker.conn)
        try:
            waited = 0.0
            for at, act in steps:
                try:
                    await asyncio.wait_for(asyncio.shield(watch.future), at - waited)
                    break
                except asyncio.TimeoutError:
                    if act is None:
                        raise
                    act()
                    waited = at
        except asyncio.TimeoutError:
            raise RequestError(
                f"the request needs more than {budget:g} s of work, the most the server gives one request; "
                "it was stopped (the server goes on)",
                422,
            ) from None
        finally:
            watch.close()
        try:
            answer: tuple[Any, ...] = worker.conn.recv()
        except (EOFError, OSError):
            raise RequestError("the worker answering this request died; the server goes on", 503) from None
        if answer[0] == "failed":
            name = getattr(job[0], "__name__", job[0])
            log.error("%s failed in worker %s: %s\n%s", name, worker.pid, answer[1], answer[2])
        return answer

    def __repr__(self) -> str:
        return f"WorkerPool({self.name!r}, size={self.size}, busy={self.busy})"


def _slot_of(key: str, size: int) -> int:
    """A stable slot for ``key`` (``hash`` of a str changes between runs, which is fine, and is cheap)."""
    return hash(key) % size


def _unwrap(answer: tuple[Any, ...]) -> Any:
    kind = answer[0]
    if kind == "ok":
        return answer[1]
    if kind == "refused":
        raise RequestError(answer[1], answer[2])
    raise RequestError(f"internal error ({answer[1].split(':')[0]}); the server goes on", 500)


class _Readable:
    """Waits on the event loop until a pipe has data (or is closed)."""

    def __init__(self, conn: Connection) -> None:
        self.loop = asyncio.get_running_loop()
        self.future: asyncio.Future[None] = self.loop.create_future()
        self.descriptor = conn.fileno()
        self.watching = True
        try:
            self.loop.add_reader(self.descriptor, self._wake)
        except NotImplementedError:  # pragma: no cover - an event loop without add_reader (Windows' proactor)
            self.watching = False
            watcher = self.loop.run_in_executor(None, conn.poll, None)
            watcher.add_done_callback(lambda _: self.loop.call_soon_threadsafe(self._wake))

    def _wake(self) -> None:
        self.close()
        if not self.future.done():
            self.future.set_result(None)

    def close(self) -> None:
        """Stop watching, at once (the descriptor may be reused right after)."""
        if self.watching:
            self.watching = False
            self.loop.remove_reader(self.descriptor)

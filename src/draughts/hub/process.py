"""An engine program run as a child process: lines to its input, lines from its output, its error output kept.

Two daemon threads drain the engine's output and error output all the time, so a chatty engine
never blocks on a full pipe; the client waits for lines with a deadline and never blocks for
ever. The last lines of the error output are kept to explain an exit.

What an engine can hold is bounded: a line longer than :data:`MAX_LINE` characters is an engine
error (the engine is stopped; an endless line would otherwise grow without end), and at most
:data:`MAX_QUEUED` lines wait to be read (then the reader waits, and so, once the pipe is full,
does the engine). The engine runs in a process group of its own (POSIX), and the group is
killed when the engine has exited or is closed: a child it left holding the output pipe would
otherwise keep the pipe open, the reader blocked and :meth:`EngineProcess.close` waiting for it.
"""

from __future__ import annotations

import collections
import contextlib
import os
import queue
import signal
import subprocess
import threading
import time
from collections.abc import Sequence

from draughts.errors import LineTooLongError

__all__ = ["LineTooLongError"]

_END = object()
"""Put on the line queue when the engine's output ends."""

_TOO_LONG = object()
"""Put on the line queue when the engine printed a line longer than :data:`MAX_LINE`."""

MAX_LINE = 65_536
"""Longest line (characters) an engine may print; a Hub line is a few hundred."""

MAX_QUEUED = 1_000
"""Most lines read from the engine and not yet taken by the client."""

_SLICE = 0.25  # seconds between checks, while waiting for a line, that the engine is still there
_JOIN = 2.0  # seconds close() waits for a reader thread


class EngineProcess:
    """The process of an engine program and the threads reading it.

    Raises:
        OSError: the program cannot be started.
    """

    STDERR_LINES = 20
    """Lines of the error output kept."""

    def __init__(self, command: Sequence[str], cwd: str | None) -> None:
        self.popen = subprocess.Popen(
            list(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
            bufsize=1,
            cwd=cwd,
            start_new_session=os.name == "posix",  # a group of its own, killed with what it leaves behind
        )
        self._closing = threading.Event()
        self._group_killed = False
        self._lines: queue.Queue[object] = queue.Queue(MAX_QUEUED)
        self._stderr: collections.deque[str] = collections.deque(maxlen=self.STDERR_LINES)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_reader.start()

    def _read(self) -> None:
        stream = self.popen.stdout
        assert stream is not None
        end = _END
        with contextlib.suppress(OSError, ValueError):  # the stream closed under us by close()
            while line := stream.readline(MAX_LINE + 1):
                if len(line) > MAX_LINE and not line.endswith("\n"):
                    end = _TOO_LONG
                    self._kill_group()
                    break
                if not self._put(line.rstrip("\r\n")):
                    return
        self._put(end)

    def _put(self, item: object) -> bool:
        """Queue ``item``, waiting while the queue is full; False once the process is being closed."""
        while not self._closing.is_set():
            with contextlib.suppress(queue.Full):
                self._lines.put(item, timeout=_SLICE)
                return True
        return False

    def _kill_group(self) -> None:
        """Kill the engine's process group: the engine and any child still holding its pipes."""
        if os.name != "posix" or self._group_killed:
            return
        self._group_killed = True
        with contextlib.suppress(OSError):
            os.killpg(self.popen.pid, signal.SIGKILL)

    def _read_stderr(self) -> None:
        stream = self.popen.stderr
        assert stream is not None
        with contextlib.suppress(OSError, ValueError):
            while line := stream.readline(MAX_LINE + 1):  # an endless line comes in bounded pieces
                text = line.rstrip("\r\n")
                if text.strip():
                    self._stderr.append(text if len(text) <= 200 else text[:200] + "...")

    def write(self, line: str) -> bool:
        """Send ``line``; False when the engine has gone (it exited, or its input is closed)."""
        stream = self.popen.stdin
        if stream is None or self.popen.poll() is not None:
            return False
        try:
            stream.write(line + "\n")
            stream.flush()
        except (OSError, ValueError):  # a broken pipe, or the stream closed by close()
            return False
        return True

    def read(self, deadline: float) -> str | None:
        """The next line of output, or None at ``deadline`` (a :func:`time.monotonic` time).

        Once the engine has exited, what it left behind in its group is killed, so the output
        ends even where a child of the engine held it open.

        Raises:
            EOFError: the output has ended (the engine exited or closed it);
                :class:`LineTooLongError` if it ended with a line too long.
        """
        while True:
            left = deadline - time.monotonic()
            try:
                item = self._lines.get(timeout=min(max(left, 0.0), _SLICE))
                break
            except queue.Empty:
                if left <= _SLICE:
                    return None
                if self.popen.poll() is not None:
                    self._kill_group()
        if item is _END or item is _TOO_LONG:
            with contextlib.suppress(queue.Full):
                self._lines.put_nowait(item)  # every later read ends the same way
            if item is _TOO_LONG:
                raise LineTooLongError(f"a line longer than {MAX_LINE:,} characters")
            raise EOFError
        assert isinstance(item, str)
        return item

    def exit_code(self) -> int | None:
        """The exit code of a process that has gone (waiting for it up to 2 s), or None."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            return self.popen.wait(2.0)
        return None

    def error_output(self) -> str:
        """The last lines of the error output, joined by `` | `` (at most about 600 characters)."""
        self._stderr_reader.join(2.0)  # the rest of it, once the process has gone
        tail = " | ".join(self._stderr)
        return tail if len(tail) <= 600 else "..." + tail[-600:]

    def close(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for the process to end, kill it if it has not, kill what
        it left in its group, close the pipes.

        A pipe whose reader thread is still blocked in a read (a process outside the group holds
        it) is left open rather than closed: closing it would wait for that read.
        """
        self._closing.set()
        if self.popen.poll() is None:
            try:
                self.popen.wait(timeout)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait()
        self._kill_group()
        with contextlib.suppress(OSError, ValueError):
            if self.popen.stdin is not None:
                self.popen.stdin.close()
        for reader, stream in ((self._reader, self.popen.stdout), (self._stderr_reader, self.popen.stderr)):
            reader.join(_JOIN)
            if stream is not None and not reader.is_alive():
                with contextlib.suppress(OSError):
                    stream.close()

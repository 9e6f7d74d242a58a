"""An engine program run as a child process: lines to its input, lines from its output, its error output kept.

Two daemon threads drain the engine's output and error output all the time, so a chatty engine
never blocks on a full pipe; the client waits for lines with a deadline and never blocks for
ever. The last lines of the error output are kept to explain an exit.
"""

from __future__ import annotations

import collections
import contextlib
import queue
import subprocess
import threading
import time
from collections.abc import Sequence

__all__: list[str] = []

_END = object()
"""Put on the line queue when the engine's output ends."""


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
        )
        self._lines: queue.Queue[object] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=self.STDERR_LINES)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_reader.start()

    def _read(self) -> None:
        stream = self.popen.stdout
        assert stream is not None
        with contextlib.suppress(OSError, ValueError):  # the stream closed under us by close()
            for line in stream:
                self._lines.put(line.rstrip("\r\n"))
        self._lines.put(_END)

    def _read_stderr(self) -> None:
        stream = self.popen.stderr
        assert stream is not None
        with contextlib.suppress(OSError, ValueError):
            for line in stream:
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

        Raises:
            EOFError: the output has ended (the engine exited or closed it).
        """
        try:
            item = self._lines.get(timeout=max(deadline - time.monotonic(), 0.0))
        except queue.Empty:
            return None
        if item is _END:
            self._lines.put(_END)  # every later read ends the same way
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
        """Wait up to ``timeout`` seconds for the process to end, kill it if it has not, close the pipes."""
        if self.popen.poll() is None:
            try:
                self.popen.wait(timeout)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait()
        for stream in (self.popen.stdin, self.popen.stdout, self.popen.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

"""Slow and surplus connections: the HTTP protocol the server runs, with a read deadline and a cap.

uvicorn times out only idle keep-alive connections (``timeout_keep_alive``, armed after a
response): a client that opens a connection and sends half a request line, some headers, or a
body slower than a byte a minute holds its connection, and the server's memory and file
descriptors, forever. :func:`guarded_protocol` makes uvicorn's own h11 protocol class with two
bounds added:

* **a read deadline**: each request must arrive whole -- request line, headers and body -- within
  ``read_timeout`` seconds of the connection opening or of the previous response; otherwise the
  client gets a 408 (JSON, like every error of the API) and the connection is closed. A handler
  still reading that body sees the client gone and stops;
* **a connection cap**: past ``max_connections`` open connections, a new one gets a 503 and is
  closed at once, so slow clients cannot exhaust the process's file descriptors.

uvicorn's ``limit_concurrency`` does not replace the cap: it counts connections only when a
request has been read, so half-sent requests never reach it. Header size is bounded by h11
(``h11_max_incomplete_event_size``, 16 KiB), body size by the app (``max_body``).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["guarded_protocol"]


def _raw_response(status: int, reason: str, message: str) -> bytes:
    body = json.dumps({"error": message, "status": status}).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
        "connection: close\r\ncache-control: no-store\r\n\r\n"
    )
    return head.encode() + body


class _Guarded(H11Protocol):
    """uvicorn's h11 protocol with a deadline on reading each request and a cap on connections."""

    read_timeout: float = 10.0
    max_connections: int = 500

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._read_timer: asyncio.TimerHandle | None = None
        if len(self.connections) > self.max_connections:
            message = f"the server has {self.max_connections} connections open, the most it takes; try again shortly"
            self._refuse(503, "Service Unavailable", message)
            return
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()
            self._watch()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _watch(self) -> None:
        """Once the whole request is in, its deadline is lifted (the app answers in its own time)."""
        if self.transport.is_closing() or self.conn.their_state in (h11.DONE, h11.MUST_CLOSE, h11.CLOSED):
            self._disarm()

    def _arm(self) -> None:
        self._disarm()
        self._read_timer = self.loop.call_later(self.read_timeout, self._too_slow)

    def _disarm(self) -> None:
        timer = getattr(self, "_read_timer", None)
        if timer is not None:
            timer.cancel()
            self._read_timer = None

    def _too_slow(self) -> None:
        self._read_timer = None
        if self.transport.is_closing():
            return
        started = self.cycle is not None and not self.cycle.response_complete and self.cycle.response_started
        message = f"the request did not arrive whole within {self.read_timeout:g} s; the connection is closed"
        if started:
            self.transport.close()
        else:
            self._refuse(408, "Request Timeout", message)

    def _refuse(self, status: int, reason: str, message: str) -> None:
        self.transport.write(_raw_response(status, reason, message))
        self.transport.close()


def guarded_protocol(read_timeout: float = 10.0, max_connections: int = 500) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol class with a read deadline of ``read_timeout`` seconds per request
    and at most ``max_connections`` open connections (pass it as ``uvicorn.Config(http=...)``)."""
    if not read_timeout > 0 or max_connections < 1:
        raise ValueError(f"read_timeout {read_timeout!r} and max_connections {max_connections!r} must be positive")
    attributes: dict[str, Any] = {"read_timeout": read_timeout, "max_connections": max_connections}
    return type("GuardedH11Protocol", (_Guarded,), attributes)

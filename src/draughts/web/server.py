"""Running the web board: :func:`serve`, what ``draughts serve`` calls, and :func:`running`.

The socket is bound before uvicorn starts, so a busy port is a one-line error and ``port=0``
(any free port) works; the address is printed once the server listens. Both run uvicorn with
the settings of :func:`server_config`: uvicorn's h11 protocol with a read deadline per request
and a cap on open connections (:mod:`draughts.web.connections`), keep-alive connections closed
after 5 idle seconds, headers of at most 16 KiB.
"""

from __future__ import annotations

import contextlib
import socket
import sys
import threading
import time
import webbrowser
from collections.abc import Iterator
from typing import Any, TextIO

import uvicorn

from draughts.errors import ServeError
from draughts.rules import Ruleset
from draughts.rules.files import resolve_ruleset
from draughts.web.app import create_app
from draughts.web.connections import guarded_protocol
from draughts.web.rulesets import RulesetRegistry
from draughts.web.settings import loopback_hosts

__all__ = ["ServeError", "listen", "running", "serve", "server_config"]

READ_TIMEOUT = 10.0
"""Seconds a client has to send a whole request (line, headers, body)."""

MAX_CONNECTIONS = 500
"""Most connections open at once; more are answered 503 and closed."""

KEEP_ALIVE = 5
"""Seconds an idle keep-alive connection stays open."""

MAX_HEADERS = 16 * 1024
"""Most bytes of a request's line and headers."""


def listen(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (0 = any free port).

    Raises:
        ServeError: the address is not valid here or is in use.
    """
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise ServeError(f"port {port!r} must be a number from 0 to 65535")
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
    except (OSError, UnicodeError) as error:
        raise ServeError(f"cannot listen on {host!r}: {error}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as error:
        sock.close()
        raise ServeError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    return sock


def url_of(sock: socket.socket) -> str:
    """The address a browser on this machine opens for ``sock``."""
    host, port = sock.getsockname()[:2]
    if host in ("0.0.0.0", "::"):
        host = "127.0.0.1"
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def serve(
    variant: str | Ruleset = "international",
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    open_browser: bool = False,
    stdout: TextIO | None = None,
    **settings: Any,
) -> None:
    """Serve the web board until interrupted (Ctrl+C, which returns normally).

    Args:
        variant: The ruleset the board opens with: a name, a ruleset file, or ``module:attribute`` (see
            :func:`draughts.resolve_ruleset`); a custom ruleset is offered on every page.
        host: The address to listen on; the default, the loopback address, keeps the board private
            to this machine.
        port: The TCP port (0 = any free port; the address is printed).
        open_browser: Open the board in the default browser once the server listens.
        stdout: Where the address is printed (default: standard output).
        settings: More :class:`~draughts.web.settings.Settings` fields.

    Raises:
        UnknownVariantError: ``variant`` names no ruleset (or a ruleset file that cannot be read).
        InvalidRulesetError: ``variant``'s ruleset file describes no valid ruleset.
        ServeError: the address cannot be bound.
    """
    out = sys.stdout if stdout is None else stdout
    rules = resolve_ruleset(variant)
    custom = (rules,) if RulesetRegistry().is_custom(rules) else ()
    app = create_app(default_variant=rules, custom=custom, allowed_hosts=loopback_hosts(host), **settings)
    sock = listen(host, port)
    url = url_of(sock)
    server = uvicorn.Server(server_config(app))
    where = "" if loopback_hosts(host) else f" (listening on {host}: other machines can reach it)"
    print(f"polydraughts web board ({rules.name}): {url}{where}  - Ctrl+C stops it", file=out, flush=True)
    if open_browser:
        threading.Thread(target=_open_when_ready, args=(server, url), daemon=True).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn shut down cleanly, then passed Ctrl+C on: the normal way to stop
        pass
    finally:
        sock.close()
    print("polydraughts web board stopped", file=out, flush=True)


def server_config(
    app: Any,
    *,
    read_timeout: float = READ_TIMEOUT,
    max_connections: int = MAX_CONNECTIONS,
    keep_alive: int = KEEP_ALIVE,
    log_level: str = "warning",
) -> uvicorn.Config:
    """The uvicorn configuration :func:`serve` and :func:`running` use for ``app``.

    Args:
        app: The ASGI app (:func:`~draughts.web.app.create_app`).
        read_timeout: Seconds a client has to send a whole request; then 408 and the connection closes.
        max_connections: Most open connections; a connection beyond them gets 503 and is closed.
        keep_alive: Seconds an idle keep-alive connection stays open.
        log_level: uvicorn's log level.
    """
    return uvicorn.Config(
        app,
        http=guarded_protocol(read_timeout, max_connections),
        timeout_keep_alive=keep_alive,
        h11_max_incomplete_event_size=MAX_HEADERS,
        log_level=log_level,
        access_log=False,
        server_header=False,
        timeout_graceful_shutdown=5,
        lifespan="on",
    )


@contextlib.contextmanager
def running(app: Any, host: str = "127.0.0.1", **options: Any) -> Iterator[str]:
    """Serve ``app`` in a background thread on a free port of ``host`` while the block runs.

    Gives the server's address (``"http://127.0.0.1:PORT/"``); the server stops when the block
    ends. For tests and examples: only the ``web`` extra is needed, no HTTP client library.

    >>> import json, urllib.request
    >>> from draughts.web import create_app
    >>> with running(create_app(default_variant="russian")) as url:
    ...     with urllib.request.urlopen(url + "api/legal-moves?fen=W:Wc3:Bf6") as answer:
    ...         [move["text"] for move in json.load(answer)["moves"]]
    ['c3-b4', 'c3-d4']

    Args:
        app: The ASGI app.
        host: The address to listen on.
        options: More :func:`server_config` arguments (``read_timeout``, ``max_connections`` ...).
    """
    sock = listen(host, 0)
    server = uvicorn.Server(server_config(app, **options))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True, name="draughts-web")
    thread.start()
    deadline = time.monotonic() + 60
    try:
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise ServeError(f"the web server on {url_of(sock)} did not start")
            time.sleep(0.01)
        yield url_of(sock)
    finally:
        server.should_exit = True
        thread.join(30)
        sock.close()


def _open_when_ready(server: uvicorn.Server, url: str) -> None:
    deadline = time.monotonic() + 30
    while not server.started and not server.should_exit and time.monotonic() < deadline:
        time.sleep(0.05)
    if server.started:
        webbrowser.open(url)

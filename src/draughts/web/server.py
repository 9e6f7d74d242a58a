"""Running the web board: :func:`serve`, what ``draughts serve`` calls.

The socket is bound before uvicorn starts, so a busy port is a one-line error and ``port=0``
(any free port) works; the address is printed once the server listens.
"""

from __future__ import annotations

import socket
import sys
import threading
import time
import webbrowser
from typing import Any, TextIO

import uvicorn

from draughts.errors import DraughtsError
from draughts.rules import Ruleset
from draughts.web.app import create_app, loopback_hosts
from draughts.web.rulesets import RulesetRegistry, resolve_ruleset

__all__ = ["ServeError", "listen", "serve"]


class ServeError(DraughtsError):
    """The server cannot start: the address cannot be bound."""


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
            :func:`~draughts.web.rulesets.resolve_ruleset`); a custom ruleset is offered on every page.
        host: The address to listen on; the default, the loopback address, keeps the board private
            to this machine.
        port: The TCP port (0 = any free port; the address is printed).
        open_browser: Open the board in the default browser once the server listens.
        stdout: Where the address is printed (default: standard output).
        settings: More :class:`~draughts.web.app.Settings` fields.

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
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        server_header=False,
        timeout_graceful_shutdown=5,
        lifespan="on",
    )
    server = uvicorn.Server(config)
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


def _open_when_ready(server: uvicorn.Server, url: str) -> None:
    deadline = time.monotonic() + 30
    while not server.started and not server.should_exit and time.monotonic() < deadline:
        time.sleep(0.05)
    if server.started:
        webbrowser.open(url)

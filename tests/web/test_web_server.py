"""The web board through a real uvicorn server on 127.0.0.1 (a free port), as an attacker meets it:
heavy requests while other clients are served, bad input on a kept-alive connection, slow
clients, too many connections, a hostile ruleset title, the memory of long games."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import attrs
import pytest

import draughts
from draughts.web.app import create_app
from draughts.web.server import running

HOSTILE_FRISIAN = "W:WK9,K50:B3,K7,11,12,K15,K16,K18,K20,23,27,30,31,K32,34,36,K38,39,K43,K48"
WORK_TIME = 1.0


APPS: dict[str, Any] = {}  # the app behind each test server's URL (the servers run in this process)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    app = create_app(default_variant="russian", work_time=WORK_TIME, max_engine_time=2.0)
    with running(app, read_timeout=1.0, max_connections=60) as url:
        APPS[url] = app
        yield url


def connect(url: str, timeout: float = 30) -> http.client.HTTPConnection:
    parts = urlsplit(url)
    return http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=timeout)


def call(
    connection: http.client.HTTPConnection, method: str, path: str, body: bytes | dict[str, Any] | None = None
) -> tuple[int, Any]:
    data = json.dumps(body).encode() if isinstance(body, dict) else body
    headers = {"content-type": "application/json"} if data is not None else {}
    connection.request(method, path, body=data, headers=headers)
    response = connection.getresponse()
    payload = response.read()
    kind = response.getheader("content-type") or ""
    return response.status, json.loads(payload) if "json" in kind else payload.decode()


def timed_calls(url: str, stop: threading.Event, latencies: list[tuple[float, float]]) -> None:
    """A normal client: legal moves of the Italian start, again and again, on one connection."""
    connection = connect(url)
    while not stop.is_set():
        started = time.monotonic()
        status, body = call(connection, "GET", "/api/legal-moves?variant=italian")
        assert status == 200, body
        latencies.append((started, time.monotonic()))
    connection.close()


def heavy_while_served(url: str, method: str, path: str, body: dict[str, Any] | None) -> tuple[float, int, list[float]]:
    """Run one heavy request while a normal client is served: its time, its status, and the
    latencies of the normal requests made while it ran."""
    stop = threading.Event()
    latencies: list[tuple[float, float]] = []
    other = threading.Thread(target=timed_calls, args=(url, stop, latencies))
    other.start()
    time.sleep(0.2)
    started = time.monotonic()
    status, _ = call(connect(url), method, path, body)
    ended = time.monotonic()
    time.sleep(0.1)
    stop.set()
    other.join(30)
    during = [done - begun for begun, done in latencies if begun >= started and done <= ended]
    return ended - started, status, during


@pytest.mark.parametrize(
    ("method", "path", "body", "bound"),
    [
        ("GET", "/api/legal-moves?" + urlencode({"variant": "frisian", "fen": HOSTILE_FRISIAN}), None, WORK_TIME),
        (
            "POST",
            "/api/compare",
            {"variants": ["frisian", "frisian-nfc", "frisian-losing", "international"], "fen": HOSTILE_FRISIAN},
            WORK_TIME,
        ),
        ("POST", "/api/engine-move", {"variant": "frisian", "fen": HOSTILE_FRISIAN, "time": 0.1}, 0.1 + 3.0),
    ],
    ids=["legal-moves", "compare", "engine-move"],
)
def test_a_heavy_request_does_not_hold_up_other_clients(
    server: str, method: str, path: str, body: dict[str, Any] | None, bound: float
) -> None:
    """The Frisian position that took 5 s on the event loop (and 24 s in a comparison, 10.5 s in a
    0.1 s search) is answered within its budget, 200 or 422, while another client is answered
    as usual."""
    took, status, during = heavy_while_served(server, method, path, body)
    assert status in (200, 422)
    assert took < bound + 1.5
    assert all(latency < 1.0 for latency in during), during
    if took > 0.5:
        assert len(during) >= 3, during  # the other client went on being answered meanwhile


def test_errors_keep_the_connection(server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """After a 4xx, and even after a 500, the client's next request on the same connection is answered."""
    connection = connect(server)
    huge = b'{"fen": "W:Wc3:Bf6", "time": 1' + b"0" * 5000 + b"}"
    status, body = call(connection, "POST", "/api/engine-move", huge)
    assert (status, "5,001 digits" in body["error"]) == (400, True)
    status, body = call(connection, "POST", "/api/engine-move", {"fen": "W:Wc3:Bf6", "time": 10**400})
    assert status == 400
    status, body = call(connection, "POST", "/api/games", {})
    game = body["id"]
    for bad in ({"ply": "²"}, {"ply": 1, "version": "²"}):
        assert call(connection, "POST", f"/api/games/{game}/goto", bad)[0] == 400
    assert call(connection, "POST", f"/api/games/{game}/goto?ply=%C2%B2")[0] == 400
    assert call(connection, "GET", "/api/variants")[0] == 200

    class Broken:
        def get(self, name: object) -> None:
            raise RuntimeError("a bug")

    # The server runs in this process (a thread): make its ruleset lookup fail to get a 500.
    monkeypatch.setattr(APPS[server].state.web, "registry", Broken())
    status, body = call(connection, "GET", "/api/rules?variant=italian")
    assert (status, body["status"]) == (500, 500)
    monkeypatch.undo()
    status, body = call(connection, "GET", "/api/rules?variant=italian")
    assert status == 200
    assert body["name"] == "italian"
    connection.close()


def test_hostile_ruleset_title_is_escaped_on_every_page() -> None:
    """A custom ruleset's title reaches the page's <title>, heading, menus and the compare page as text."""
    hostile = "<img src=x onerror=alert(1)>"
    rules = attrs.evolve(draughts.get_variant("brazilian"), name="pool-x", title=hostile)
    with running(create_app(default_variant=rules, custom=[rules], workers=1, engine_workers=1)) as url:
        for path in ("", "?variant=pool-x-nfc", "compare?variants=pool-x,russian"):
            with urllib.request.urlopen(url + path, timeout=30) as answer:
                page = answer.read().decode()
            assert "<img" not in page, path
            assert "onerror=alert(1)&gt;" in page or "\\u003cimg src=x onerror=alert(1)\\u003e" in page, path
        with urllib.request.urlopen(url, timeout=30) as answer:
            page = answer.read().decode()
        escaped = "&lt;img src=x onerror=alert(1)&gt;"
        assert f"<title>{escaped} — polydraughts</title>" in page
        assert f'<h1 id="title">{escaped}</h1>' in page
        assert f'<option value="pool-x" selected>{escaped}</option>' in page


def test_slow_clients_are_timed_out_while_others_are_served(server: str) -> None:
    """Connections that send half a request -- the request line, some headers, part of a body --
    get a 408 and are closed once the read deadline (1 s here) passes; meanwhile a normal client
    is answered at once."""
    host, port = _address(server)
    partial = []
    for index in range(20):
        sock = socket.create_connection((host, port), timeout=10)
        sock.sendall(b"GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + str(index).encode())
        partial.append(sock)
    for _ in range(10):
        sock = socket.create_connection((host, port), timeout=10)
        head = b"POST /api/play HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        sock.sendall(head + b"Content-Length: 100\r\n\r\n" + b'{"fen": ')
        partial.append(sock)
    silent = [socket.create_connection((host, port), timeout=10) for _ in range(5)]
    opened = time.monotonic()
    connection = connect(server)
    for _ in range(10):
        started = time.monotonic()
        assert call(connection, "GET", "/api/legal-moves?variant=italian")[0] == 200
        assert time.monotonic() - started < 1.0
    for sock in [*partial, *silent]:
        received = _read_all(sock)
        assert received.startswith(b"HTTP/1.1 408"), received[:80]
        assert b"did not arrive whole within 1 s" in received
        sock.close()
    assert time.monotonic() - opened < 4.0
    assert call(connection, "GET", "/api/variants")[0] == 200  # the normal client kept its connection
    connection.close()


def test_connections_beyond_the_cap_are_refused() -> None:
    app = create_app(workers=1, engine_workers=1)
    with running(app, read_timeout=30, max_connections=10) as url:
        host, port = _address(url)
        held = [socket.create_connection((host, port), timeout=10) for _ in range(10)]
        time.sleep(0.2)
        extra = socket.create_connection((host, port), timeout=10)
        started = time.monotonic()
        received = _read_all(extra)
        assert received.startswith(b"HTTP/1.1 503"), received[:80]
        assert b"10 connections open" in received
        assert time.monotonic() - started < 2
        for sock in [*held, extra]:
            sock.close()
        time.sleep(0.2)
        with urllib.request.urlopen(url + "api/variants", timeout=30) as answer:
            assert answer.status == 200


def _address(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    return parts.hostname or "", parts.port or 80


def _read_all(sock: socket.socket) -> bytes:
    data = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return data
        if not chunk:
            return data
        data += chunk


def _rss(pid: int | str = "self") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


@pytest.mark.slow
def test_memory_of_long_games_is_bounded() -> None:
    """Sessions each holding a 2,000-ply game cost tens of kilobytes in the server (they were
    2.35 MB each), and the workers' caches stay bounded however many such games there are."""
    board = draughts.Board("american", "B:WK29,K32:BK1,K4")
    texts = ["1-5", "29-25", "5-1", "25-29"]
    for ply in range(2000):
        board.push_text(texts[ply % 4])
    game_pdn = draughts.pdn.write_game(draughts.pdn.Game("american", {}, board.root(), board.move_stack, "*"))
    app = create_app(workers=1, engine_workers=1, work_time=30)
    web = app.state.web
    with running(app) as url:
        connection = connect(url)
        games = [call(connection, "POST", "/api/games", {"variant": "american"})[1]["id"] for _ in range(41)]
        status, body = call(connection, "POST", f"/api/games/{games[0]}/pdn", {"pdn": game_pdn})
        assert (status, body["plies"]) == (200, 2000)
        before = _rss()
        for game in games[1:]:
            status, body = call(connection, "POST", f"/api/games/{game}/pdn", {"pdn": game_pdn})
            assert (status, body["plies"]) == (200, 2000), body
        per_session = (_rss() - before) / 40
        worker = web.work.pids()[0]
        worker_rss = _rss(worker)
        connection.close()
    print(f"RSS per 2,000-ply session: {per_session / 1024:.0f} KiB; the rules worker: {worker_rss / 2**20:.0f} MiB")
    assert per_session < 200 * 1024
    assert all(session.nbytes < 40_000 for session in web.sessions._sessions.values())
    assert worker_rss < 400 * 2**20

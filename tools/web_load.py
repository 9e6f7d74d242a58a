"""Load test of the web board's API against a server on this machine, with attackers mixed in.

Starts ``draughts serve`` on a free loopback port (or uses ``--url``, which must be a loopback
address), then runs ``--clients`` concurrent normal clients, each making ``--requests``
requests: it plays a random game, asking for the legal moves of the current position (``GET
/api/legal-moves``) and then playing one of them. Half the clients play through the stateless
``POST /api/play``, half through a game kept on the server (``POST /api/games/{id}/move``, whose
answer carries the whole page state, SVG included). A finished game starts again. Every answer
to a normal client must be a 2xx; the latency of each request is measured from sending it to
reading the whole answer.

Meanwhile (unless ``--no-hostile``) the attackers of issue 23 run:

* ``--slow`` slow clients, half sending part of a request's headers, half part of a body, then
  nothing: the server must close each of them (408) within its read deadline;
* ``--hostile`` clients sending, in turn, oversized bodies (413), hostile bodies (numbers of
  5,000 digits, Unicode digits, lone surrogates, JSON nested 50,000 deep, unknown fields: 4xx),
  and heavy requests (the Frisian position that took 5 s of move generation, a comparison of
  four Frisian forms of it, a 0.1 s search in it: 200, or 422 past the server's work budget).

    python tools/web_load.py                     # 50 clients x 100 requests, the attackers too
    python tools/web_load.py --clients 10 --requests 20
    python tools/web_load.py --no-hostile        # normal clients only

Prints the counts, the latency percentiles of the normal requests and the count of 5xx answers
(to anyone: it must be 0), and exits with status 1 if a normal request failed, any answer was a
5xx, or a slow client was not closed in time. Each client keeps one HTTP/1.1 connection; the
run stops by itself (bounded request count, a 30-second timeout per request, a deadline).
"""

from __future__ import annotations

import argparse
import collections
import http.client
import json
import random
import selectors
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from typing import Any
from urllib.parse import urlencode, urlsplit

VARIANTS = ("russian", "international", "italian", "american", "brazilian", "czech", "spanish", "russian-nfc")
FRISIAN = "W:WK9,K50:B3,K7,11,12,K15,K16,K18,K20,23,27,30,31,K32,34,36,K38,39,K43,K48"
READ_DEADLINE = 10.0  # the server's read deadline (draughts.web.server.READ_TIMEOUT)


class Client:
    """One simulated player with its own keep-alive connection."""

    def __init__(self, host: str, port: int, index: int, seed: int) -> None:
        self.connection = http.client.HTTPConnection(host, port, timeout=30)
        self.random = random.Random(seed + index)
        self.variant = VARIANTS[index % len(VARIANTS)]
        self.session = index % 2 == 1
        self.latencies: dict[str, list[float]] = {"legal-moves": [], "play": []}
        self.errors: list[str] = []
        self.statuses: list[int] = []
        self.fen = ""
        self.game = ""

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any] | None:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"} if data is not None else {}
        try:
            self.connection.request(method, path, body=data, headers=headers)
            response = self.connection.getresponse()
            payload = response.read()
        except (OSError, http.client.HTTPException) as error:
            self.errors.append(f"{method} {path}: {type(error).__name__}: {error}")
            self.connection.close()
            return None
        self.statuses.append(response.status)
        if not 200 <= response.status < 300:
            self.errors.append(f"{method} {path}: {response.status} {payload[:200]!r}")
            return None
        parsed: dict[str, Any] = json.loads(payload)
        return parsed

    def timed(self, kind: str, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any] | None:
        started = time.perf_counter()
        answer = self.call(method, path, body)
        self.latencies[kind].append(time.perf_counter() - started)
        return answer

    def restart(self) -> bool:
        if self.session:
            state = self.call("POST", "/api/games", {"variant": self.variant})
            if state is None:
                return False
            self.game, self.fen = state["id"], state["fen"]
        else:
            answer = self.call("GET", "/api/legal-moves?" + urlencode({"variant": self.variant}))
            if answer is None:
                return False
            self.fen = answer["fen"]
        return True

    def run(self, requests: int, start: threading.Barrier, deadline: float) -> None:
        if not self.restart():
            return
        start.wait()
        done = 0
        while done < requests and time.monotonic() < deadline:
            query = urlencode({"variant": self.variant, "fen": self.fen})
            answer = self.timed("legal-moves", "GET", f"/api/legal-moves?{query}")
            done += 1
            if answer is None:
                continue
            if not answer["moves"]:
                if not self.restart():
                    return
                continue
            if done >= requests:
                break
            path = self.random.choice(answer["moves"])["path"]
            if self.session:
                state = self.timed("play", "POST", f"/api/games/{self.game}/move", {"path": path})
                done += 1
                if state is not None:
                    self.fen = state["fen"]
                    if state["outcome"] is not None and not self.restart():
                        return
            else:
                played = self.timed(
                    "play", "POST", "/api/play", {"variant": self.variant, "fen": self.fen, "path": path}
                )
                done += 1
                if played is not None:
                    self.fen = played["fen"]
        self.connection.close()


class Statuses:
    """Every status answered to anyone, counted (thread-safe)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.counts: collections.Counter[int] = collections.Counter()
        self.server_errors: list[str] = []

    def add(self, status: int, what: str, payload: bytes) -> None:
        with self.lock:
            self.counts[status] += 1
            if status >= 500:
                self.server_errors.append(f"{what}: {status} {payload[:200]!r}")


def _hostile_requests() -> list[tuple[str, str, bytes | None, tuple[int, ...]]]:
    """(method, path, body, the statuses expected) of each attack."""
    heavy = urlencode({"variant": "frisian", "fen": FRISIAN})
    compare = {"variants": ["frisian", "frisian-nfc", "frisian-losing", "international"], "fen": FRISIAN}
    search = {"variant": "frisian", "fen": FRISIAN, "time": 0.1}
    return [
        ("POST", "/api/play", b'{"fen": "' + b"W" * 200_000 + b'"}', (413,)),
        ("POST", "/api/play", b'{"fen": "W:Wc3:Bf6", "move": ' + b"1" * 5000 + b"}", (400,)),
        ("POST", "/api/engine-move", b'{"fen": "W:Wc3:Bf6", "time": 1' + b"0" * 400 + b"}", (400,)),
        ("POST", "/api/games", b'{"variant": "russian", "fen": "W:W\\ud800"}', (400,)),
        ("POST", "/api/legal-moves", b"[" * 50_000 + b"]" * 50_000, (400,)),
        ("POST", "/api/play", b'{"fen": "W:Wc3:Bf6", "move": "c3-d4", "ply": "\xc2\xb2"}', (400,)),
        ("GET", "/api/legal-moves?varient=russian", None, (400,)),
        ("GET", f"/api/legal-moves?{heavy}", None, (200, 422)),
        ("POST", "/api/compare", json.dumps(compare).encode(), (200, 422)),
        ("POST", "/api/engine-move", json.dumps(search).encode(), (200, 422)),
    ]


class Attacker:
    """Sends the hostile requests in turn until told to stop; every answer must be a 4xx or expected."""

    def __init__(self, host: str, port: int, index: int, statuses: Statuses) -> None:
        self.host, self.port, self.index, self.statuses = host, port, index, statuses
        self.errors: list[str] = []
        self.sent = 0

    def run(self, stop: threading.Event) -> None:
        attacks = _hostile_requests()
        connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
        turn = self.index
        while not stop.is_set():
            method, path, body, expected = attacks[turn % len(attacks)]
            turn += 1
            headers = {"Content-Type": "application/json"} if body is not None else {}
            try:
                connection.request(method, path, body=body, headers=headers)
                response = connection.getresponse()
                payload = response.read()
            except (OSError, http.client.HTTPException) as error:
                self.errors.append(f"{method} {path[:60]}: {type(error).__name__}: {error}")
                connection.close()
                connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
                continue
            self.sent += 1
            self.statuses.add(response.status, f"{method} {path[:60]}", payload)
            if response.status not in expected:
                self.errors.append(f"{method} {path[:60]}: {response.status}, expected {expected}")
            if response.getheader("connection", "").lower() == "close":
                connection.close()
                connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
        connection.close()


def slow_clients(host: str, port: int, count: int) -> list[tuple[socket.socket, float]]:
    """``count`` connections that send part of a request and then nothing."""
    opened = []
    for index in range(count):
        sock = socket.create_connection((host, port), timeout=READ_DEADLINE + 10)
        if index % 2:
            head = b"POST /api/play HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            sock.sendall(head + b"Content-Length: 1000\r\n\r\n" + b'{"fen": ')
        else:
            sock.sendall(b"GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + str(index).encode())
        opened.append((sock, time.monotonic()))
    return opened


def watch_closing(opened: list[tuple[socket.socket, float]], statuses: Statuses, waited: list[float]) -> None:
    """Record, as it happens, how long the server takes to close each slow connection (its 408)."""
    selector = selectors.DefaultSelector()
    received: dict[socket.socket, bytes] = {}
    for sock, since in opened:
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ, since)
        received[sock] = b""
    deadline = time.monotonic() + READ_DEADLINE + 15
    while selector.get_map() and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=0.5):
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            try:
                chunk = sock.recv(65536)
            except OSError:
                chunk = b""
            if chunk:
                received[sock] += chunk
                continue
            waited.append(time.monotonic() - key.data)
            selector.unregister(sock)
            data = received[sock]
            if data.startswith(b"HTTP/1.1 "):
                statuses.add(int(data[9:12]), "slow client", data)
            sock.close()
    for key in list(selector.get_map().values()):
        waited.append(float("inf"))
        key.fileobj.close()  # type: ignore[union-attr]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def start_server() -> tuple[subprocess.Popen[str], str]:
    server = subprocess.Popen(
        [sys.executable, "-m", "draughts", "serve", "russian", "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert server.stdout is not None
    line = server.stdout.readline()
    if "http://" not in line:
        server.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return server, line.split(": ", 1)[1].split()[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--requests", type=int, default=100, help="requests per client")
    parser.add_argument("--url", help="a running server on this machine (default: start one)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deadline", type=float, default=600, help="seconds before the run gives up")
    parser.add_argument("--no-hostile", dest="attack", action="store_false", help="normal clients only")
    parser.add_argument("--slow", type=int, default=20, help="slow clients (half headers, half bodies)")
    parser.add_argument("--hostile", type=int, default=3, help="clients sending hostile and heavy requests")
    args = parser.parse_args()

    server = None
    if args.url is None:
        server, url = start_server()
    else:
        url = args.url
    parts = urlsplit(url)
    host, port = parts.hostname or "", parts.port or 80
    if host not in ("127.0.0.1", "localhost", "::1") and not host.startswith("127."):
        raise SystemExit(f"refusing to load {host!r}: only servers on this machine (loopback) are tested")
    statuses = Statuses()
    attackers: list[Attacker] = []
    waited: list[float] = []
    try:
        clients = [Client(host, port, index, args.seed) for index in range(args.clients)]
        barrier = threading.Barrier(args.clients + 1)
        deadline = time.monotonic() + args.deadline
        threads = [threading.Thread(target=c.run, args=(args.requests, barrier, deadline)) for c in clients]
        stop = threading.Event()
        if args.attack:
            attackers = [Attacker(host, port, index, statuses) for index in range(args.hostile)]
            attacking = [threading.Thread(target=attacker.run, args=(stop,)) for attacker in attackers]
        for thread in threads:
            thread.start()
        barrier.wait(timeout=120)
        opened = slow_clients(host, port, args.slow) if args.attack else []
        watcher = threading.Thread(target=watch_closing, args=(opened, statuses, waited))
        watcher.start()
        if args.attack:
            for thread in attacking:
                thread.start()
        started = time.perf_counter()
        for thread in threads:
            thread.join()
        wall = time.perf_counter() - started
        stop.set()
        if args.attack:
            for thread in attacking:
                thread.join(60)
        watcher.join(READ_DEADLINE + 30)
    finally:
        if server is not None:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()

    for client in clients:
        for status in client.statuses:
            statuses.add(status, "normal client", b"")
    errors = [error for client in clients for error in client.errors]
    every = [latency for client in clients for values in client.latencies.values() for latency in values]
    print(
        f"{args.clients} clients x {args.requests} requests against {url}: {len(every)} timed requests in {wall:.1f} s"
    )
    print(f"throughput {len(every) / wall:.0f} requests/s; errors {len(errors)}")
    late = [seconds for seconds in waited if seconds > READ_DEADLINE + 5]
    if args.attack:
        sent = sum(attacker.sent for attacker in attackers)
        print(
            f"attackers: {sent} hostile or heavy requests from {args.hostile} clients, {args.slow} slow clients "
            f"(closed by the server after {min(waited, default=0):.1f}-{max(waited, default=0):.1f} s)"
        )
        errors += [error for attacker in attackers for error in attacker.errors]
        errors += [f"a slow client was still open after {seconds:.1f} s" for seconds in late]
    answered = ", ".join(f"{status}: {count}" for status, count in sorted(statuses.counts.items()))
    print(f"answers by status: {answered}")
    print(f"5xx answers: {len(statuses.server_errors)}")
    errors += statuses.server_errors
    print("latency of the normal requests:")
    for kind in ("legal-moves", "play", "all"):
        values = every if kind == "all" else [v for c in clients for v in c.latencies[kind]]
        if not values:
            continue
        ms = [1000 * v for v in values]
        print(
            f"{kind:>12}: n={len(ms):5d}  mean {statistics.fmean(ms):7.1f} ms  p50 {percentile(ms, 0.5):7.1f}  "
            f"p95 {percentile(ms, 0.95):7.1f}  p99 {percentile(ms, 0.99):7.1f}  max {max(ms):7.1f}"
        )
    for error in errors[:10]:
        print("error:", error)
    expected = args.clients * args.requests
    if len(every) < expected:
        print(f"only {len(every)} of {expected} requests were made")
        return 1
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

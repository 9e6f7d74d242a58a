"""Load test of the web board's API against a server on this machine.

Starts ``draughts serve`` on a free loopback port (or uses ``--url``, which must be a loopback
address), then runs ``--clients`` concurrent clients, each making ``--requests`` requests: it
plays a random game, asking for the legal moves of the current position (``GET
/api/legal-moves``) and then playing one of them. Half the clients play through the stateless
``POST /api/play``, half through a game kept on the server (``POST /api/games/{id}/move``, whose
answer carries the whole page state, SVG included). A finished game starts again. Every answer
must be a 2xx; the latency of each request is measured from sending it to reading the whole
answer.

    python tools/web_load.py                     # 50 clients x 100 requests
    python tools/web_load.py --clients 5 --requests 20

Prints the counts and the latency percentiles, and exits with status 1 if any request failed.
Each client keeps one HTTP/1.1 connection; the run stops by itself (bounded request count, a
30-second timeout per request and an overall deadline).
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
from typing import Any
from urllib.parse import urlencode, urlsplit

VARIANTS = ("russian", "international", "italian", "american", "brazilian", "czech", "spanish", "russian-nfc")


class Client:
    """One simulated player with its own keep-alive connection."""

    def __init__(self, host: str, port: int, index: int, seed: int) -> None:
        self.connection = http.client.HTTPConnection(host, port, timeout=30)
        self.random = random.Random(seed + index)
        self.variant = VARIANTS[index % len(VARIANTS)]
        self.session = index % 2 == 1
        self.latencies: dict[str, list[float]] = {"legal-moves": [], "play": []}
        self.errors: list[str] = []
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
    try:
        clients = [Client(host, port, index, args.seed) for index in range(args.clients)]
        barrier = threading.Barrier(args.clients + 1)
        deadline = time.monotonic() + args.deadline
        threads = [threading.Thread(target=c.run, args=(args.requests, barrier, deadline)) for c in clients]
        for thread in threads:
            thread.start()
        barrier.wait(timeout=120)
        started = time.perf_counter()
        for thread in threads:
            thread.join()
        wall = time.perf_counter() - started
    finally:
        if server is not None:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()

    errors = [error for client in clients for error in client.errors]
    every = [latency for client in clients for values in client.latencies.values() for latency in values]
    print(
        f"{args.clients} clients x {args.requests} requests against {url}: {len(every)} timed requests in {wall:.1f} s"
    )
    print(f"throughput {len(every) / wall:.0f} requests/s; errors {len(errors)}")
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

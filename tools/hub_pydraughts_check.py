"""Drive ``draughts hub`` with pydraughts' ``HubEngine``, an independent Hub client (not a CI test).

pydraughts also imports as ``draughts``, so it lives in a virtual environment of its own; this
script runs there and starts the server with a Python that has polydraughts::

    python3 -m venv /tmp/pyd && /tmp/pyd/bin/pip install pydraughts==0.6.7
    /tmp/pyd/bin/python tools/hub_pydraughts_check.py /path/to/polydraughts-venv/bin/python

It plays a few moves under each kind of level pydraughts sends (move time, depth, nodes, clock
with increment, clock with moves to go), a position that is a third repetition by pydraughts'
``moves=`` (the server must still move), two ``go`` in a row during an infinite search followed
by ``stop`` (the server must answer both and not hang), and ``ping``. A watchdog kills the server
after a minute, so a hang is reported instead of waiting for ever. Exit status 0 when all went well.
"""

from __future__ import annotations

import importlib
import os
import stat
import sys
import tempfile
import threading
import time

import draughts  # pydraughts
from draughts.engine import Limit

# pydraughts' draughts.engines.hub imported before draughts itself is an import cycle (ImportError).
HubEngine = importlib.import_module("draughts.engines.hub").HubEngine

WATCHDOG = 60.0


def wrapper(python: str, directory: str) -> str:
    # pydraughts resolves the program's real path (a venv's python becomes the system one, without
    # polydraughts) and runs it through the shell: a small script keeps the venv.
    path = os.path.join(directory, "polydraughts-hub")
    with open(path, "w", encoding="utf-8") as file:
        file.write(f'#!/bin/sh\nexec "{python}" -m draughts hub "$@"\n')
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return path


def main() -> int:
    python = sys.argv[1] if len(sys.argv) > 1 else "python3"
    failures: list[str] = []
    with tempfile.TemporaryDirectory() as directory:
        engine = HubEngine([wrapper(python, directory)])
        watchdog = threading.Timer(WATCHDOG, engine.kill_process)
        watchdog.start()
        try:
            print("id:", engine.id)
            print("variants declared:", len(engine.variants))
            engine.init()
            board = draughts.Board(variant="standard")
            limits = [
                ("move-time 0.2", Limit(movetime=0.2)),
                ("depth 2", Limit(depth=2)),
                ("nodes 2000", Limit(nodes=2000)),
                ("clock 3 s + 0.1", Limit(time=3, inc=0.1)),
                ("sudden death 2 s", Limit(time=2)),
            ]
            for name, limit in limits:
                started = time.monotonic()
                result = engine.play(board, limit, ponder=False)
                board.push(result.move)
                print(f"{name}: {result.move.hub_move} in {time.monotonic() - started:.2f} s, info {engine.info}")
            # A third repetition sent in moves=: pydraughts sends the whole game from its start.
            kings = draughts.Board(variant="standard", fen="W:WK50,45:BK1,6")
            for hub_move in ["50-44", "1-7", "44-50", "7-1"] * 2:
                kings.push(draughts.Move(kings, hub_move=hub_move))
            result = engine.play(kings, Limit(depth=2), ponder=False)
            print("third repetition: the server moved", result.move.hub_move)
            # Two go in a row during an infinite search, then stop: two done, no hang.
            engine.send("pos pos=" + draughts.Board(variant="standard")._game.initial_hub_fen)
            engine.send("level infinite")
            engine.send("go analyze")
            engine.send("go analyze")
            engine.send("stop")
            dones = 0
            while dones < 2:
                command, arg = engine.recv_hub()
                if command == "done":
                    dones += 1
                    print("done", arg)
                elif command == "error":
                    failures.append(f"error during the infinite-search check: {arg}")
            engine.ping()
            print("ping: pong")
            engine.quit()
            engine.p.wait(10)
        except Exception as error:  # report, whatever went wrong
            failures.append(f"{type(error).__name__}: {error}")
        finally:
            watchdog.cancel()
            if engine.p.poll() is None:
                engine.kill_process()
            for stream in (engine.p.stdin, engine.p.stdout):
                if stream is not None:
                    stream.close()
    for failure in failures:
        print("FAILED:", failure)
    print("all went well" if not failures else f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

"""Hostile engines and files for the match runner (issue 40 item 15): an engine that leaves a child
holding its output, an engine printing one endless line, results files of another match or cut
short, SPRT bounds and ply caps that cannot work; and the lab's results file never glues a record
to a cut line."""

from __future__ import annotations

import json
import shlex
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import draughts
from draughts.engine import Limit
from draughts.errors import DraughtsError, HubEngineError, HubEngineTerminatedError
from draughts.hub import HubEngine
from draughts.hub.process import MAX_LINE, MAX_QUEUED
from draughts.lab import run_lab
from draughts.match import EngineSpec, GameTask, play_task, run_match
from draughts.match.elo import SPRT
from draughts.match.results import MatchResultsError

SCRIPT = Path(sys.executable).parent / "draughts"

# A Hub engine that starts a child holding its output (``sleep``, which inherits the pipes) and
# writes the child's pid to argv[1]; with argv[2] == "crash" it exits at its first "go", leaving
# the child behind holding the pipe.
LEAVER = """
import os, subprocess, sys
child = subprocess.Popen(["sleep", "600"])
open(sys.argv[1], "w").write(str(child.pid))
from draughts.hub import serve
if sys.argv[2] == "crash":
    class Lines:
        def __iter__(self):
            for line in sys.stdin:
                if line.startswith("go"):
                    os._exit(3)
                yield line
    serve(stdin=Lines())
else:
    serve()
"""

# A Hub engine that answers "hub" with one line that never ends.
ENDLESS = """
import sys
sys.stdin.readline()
chunk = "x" * 65536
while True:
    sys.stdout.write(chunk)
    sys.stdout.flush()
"""


def _script(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def _ended(pid: int) -> bool:
    """Whether ``pid`` has ended (a zombie waiting for its parent to reap it counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in "ZX"
    except FileNotFoundError:
        return True


def _gone(pid: int) -> bool:
    """Whether ``pid`` ends: a killed process closes its pipes before the kernel marks it ended,
    so its state is looked at until it shows (a watchdog: ``sleep 600`` left alone never ends)."""
    deadline = time.monotonic() + 30
    while not _ended(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def _within_watchdog(work: Callable[[], Any]) -> Any:
    """``work()`` in a thread; a call still blocked after the watchdog fails the test (on main it
    waited for the child, 600 s). The test asserts what happened, not how long it took."""
    out: list[Any] = []

    def run() -> None:
        try:
            out.append(("ok", work()))
        except BaseException as error:  # handed to the test
            out.append(("error", error))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(90)
    assert out, "blocked: a child of the engine held its output"
    return out[0]


def test_quitting_an_engine_whose_child_holds_its_output_kills_the_child(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    script = _script(tmp_path, "leaver.py", LEAVER)
    engine = HubEngine([sys.executable, str(script), str(pid_file), "play"])
    engine.init("international")
    child = int(pid_file.read_text())
    assert not _ended(child)
    kind, _ = _within_watchdog(engine.quit)
    assert kind == "ok"
    assert _gone(child)


def test_an_engine_that_crashes_and_leaves_a_child_ends_its_search_at_once(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    script = _script(tmp_path, "leaver.py", LEAVER)
    engine = HubEngine([sys.executable, str(script), str(pid_file), "crash"], timeout=600)
    engine.init("international")
    kind, error = _within_watchdog(lambda: engine.go(draughts.Board("international"), Limit(time=600)))
    assert kind == "error"
    assert isinstance(error, HubEngineTerminatedError)
    assert "exit code 3" in str(error)
    assert _within_watchdog(engine.quit)[0] == "ok"
    assert _gone(int(pid_file.read_text()))


def test_a_match_game_against_such_an_engine_is_a_forfeit_not_a_hang(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    script = _script(tmp_path, "leaver.py", LEAVER)
    crasher = EngineSpec(f"hub:{shlex.join([sys.executable, str(script), str(pid_file), 'crash'])}")
    kind, match = _within_watchdog(
        lambda: run_match(EngineSpec("level:beginner"), crasher, games=2, workers=1, limit=Limit(time=300))
    )
    assert kind == "ok", match
    assert [game["termination"].split(":")[0] for game in match.games] == ["forfeit", "forfeit"]
    assert all("exited" in game["termination"] for game in match.games)
    assert match.wdl() == (2, 0, 0)


def test_an_endless_line_is_an_engine_error_with_bounded_memory(tmp_path: Path) -> None:
    script = _script(tmp_path, "endless.py", ENDLESS)
    engine = HubEngine([sys.executable, str(script)], timeout=60)
    with pytest.raises(HubEngineError, match=f"printed a line longer than {MAX_LINE:,} characters"):
        engine.init("international")
    assert engine.process.wait(30) is not None  # stopped
    assert engine._process._lines.maxsize == MAX_QUEUED
    engine.quit()


# --- the results file ---------------------------------------------------------------------------------

A, B = EngineSpec("level:beginner"), EngineSpec("level:beginner", {"seed": "2"})
QUICK: dict[str, Any] = {"max_plies": 4, "workers": 1, "limit": Limit(depth=1)}


def test_a_results_file_of_another_match_is_refused(tmp_path: Path) -> None:
    results = tmp_path / "r.jsonl"
    run_match(A, B, games=2, results=results, **QUICK)
    before = results.read_bytes()
    other = EngineSpec("level:intermediate")
    with pytest.raises(MatchResultsError, match="holds games of another match") as caught:
        run_match(A, other, games=2, results=results, **QUICK)
    assert "level:intermediate" in str(caught.value)
    with pytest.raises(MatchResultsError, match="max_plies 4 there, 6 here"):
        run_match(A, B, games=2, results=results, **{**QUICK, "max_plies": 6})
    assert results.read_bytes() == before  # a refused match leaves the file as it was


def test_a_results_file_with_more_games_than_asked_is_refused(tmp_path: Path) -> None:
    results = tmp_path / "r.jsonl"
    run_match(A, B, games=4, results=results, **QUICK)
    with pytest.raises(MatchResultsError, match="holds game 3, past the 2 games asked for"):
        run_match(A, B, games=2, results=results, **QUICK)
    assert len(run_match(A, B, games=4, results=results, **QUICK).games) == 4  # the same match reads it whole


def test_a_results_file_without_a_header_is_refused(tmp_path: Path) -> None:
    results = tmp_path / "r.jsonl"
    game = {"index": 0, "white": A.label, "black": B.label, "result": "2-0", "winner": "white"}
    results.write_text(json.dumps(game) + "\n")
    with pytest.raises(MatchResultsError, match="does not start with a match header"):
        run_match(A, B, games=2, results=results, **QUICK)


def test_a_cut_last_line_is_removed_and_its_game_played_again(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    results = tmp_path / "r.jsonl"
    first = run_match(A, B, games=2, results=results, **QUICK)
    lines = results.read_text().splitlines()
    results.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:25])  # killed while writing the last game
    again = run_match(A, B, games=2, results=results, **QUICK)
    assert "cut short" in caplog.text
    assert [g["index"] for g in again.games] == [0, 1]
    assert again.wdl() == first.wdl()  # depth-limited built-in engines: the same games again
    rows = results.read_text().splitlines()
    assert len(rows) == 3
    assert all(isinstance(json.loads(row), dict) for row in rows)


def test_a_bad_line_is_named(tmp_path: Path) -> None:
    results = tmp_path / "r.jsonl"
    run_match(A, B, games=2, results=results, **QUICK)
    lines = results.read_text().splitlines()
    results.write_text("\n".join([lines[0], "not json", *lines[1:]]) + "\n")
    with pytest.raises(MatchResultsError, match="line 2, is not JSON"):
        run_match(A, B, games=2, results=results, **QUICK)


def _cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SCRIPT), *argv], capture_output=True, text=True, timeout=300, check=False)


def test_the_command_line_says_what_is_wrong_with_a_results_file(tmp_path: Path) -> None:
    results = str(tmp_path / "r.jsonl")
    common = ["match", "level:beginner", "level:beginner", "--depth", "1", "--workers", "1", "--results", results]
    assert _cli(*common, "--games", "2", "--max-plies", "4").returncode == 0
    refused = _cli(*common, "--games", "2", "--max-plies", "6")
    assert refused.returncode == 2
    assert "holds games of another match" in refused.stderr
    assert "Traceback" not in refused.stderr
    past = _cli(*common, "--games", "1", "--max-plies", "4")
    assert past.returncode == 2
    assert "past the 1 games asked for" in past.stderr


@pytest.mark.parametrize(
    "bounds",
    [
        (-1_000_000, 0),
        (0, 1_000_000),
        (float("nan"), 10),
        (10, float("inf")),
        (10, 10),
        (10, 0),
    ],
)
def test_sprt_elo_bounds_are_checked(bounds: tuple[float, float]) -> None:
    with pytest.raises(DraughtsError, match="SPRT Elo bounds"):
        SPRT(*bounds)


@pytest.mark.parametrize(("alpha", "beta"), [(0, 0.05), (0.05, 1), (-0.1, 0.05), (float("nan"), 0.05), (0.6, 0.5)])
def test_sprt_error_rates_are_checked(alpha: float, beta: float) -> None:
    with pytest.raises(DraughtsError, match="SPRT alpha"):
        SPRT(0, 10, alpha, beta)


def test_the_command_line_refuses_bad_sprt_and_ply_caps_before_a_game(tmp_path: Path) -> None:
    results = tmp_path / "r.jsonl"
    common = ["match", "level:beginner", "level:beginner", "--games", "4", "--results", str(results)]
    sprt = _cli(*common, "--sprt", "-1000000", "0")
    assert sprt.returncode == 2
    assert "SPRT Elo bounds -1000000.0 and 0.0" in sprt.stderr
    assert "Traceback" not in sprt.stderr
    plies = _cli(*common, "--max-plies", "0")
    assert plies.returncode == 2
    assert "--max-plies must be at least 1" in plies.stderr
    assert not results.exists()  # refused before any game


def test_run_match_refuses_a_ply_cap_of_zero() -> None:
    with pytest.raises(DraughtsError, match="max_plies 0 must be a whole number from 1"):
        run_match(A, B, games=2, max_plies=0)


# --- the lab's results file ------------------------------------------------------------------------


def test_the_lab_never_glues_a_record_to_a_cut_line(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    run_lab(["russian"], 1, seed=3, max_plies=20, results=path)
    (line,) = path.read_text().splitlines()
    path.write_text(line + "\n" + line[:40])  # a second record cut by an interruption
    seen: list[tuple[int, int]] = []
    run_lab(["russian"], 2, seed=3, max_plies=20, results=path)
    rows = path.read_text().splitlines()
    assert rows[1] == line[:40]  # the cut line stays as it was, skipped when read
    assert json.loads(rows[2])["index"] == 1  # the new record on a line of its own
    run_lab(["russian"], 2, seed=3, max_plies=20, results=path, progress=lambda d, t: seen.append((d, t)))
    assert seen[0] == (2, 2)  # both games read back: nothing played again


# --- a DXP engine's long chat (item 19) -------------------------------------------------------------


def _read_frame(sock: socket.socket) -> str:
    data = b""
    while not data.endswith(b"\0"):
        chunk = sock.recv(1)
        if not chunk:
            break
        data += chunk
    return data[:-1].decode("ascii")


def test_a_long_chat_from_a_dxp_engine_does_not_forfeit_its_game() -> None:
    """The follower greets with 6,000 characters of chat, then resigns: the game ends by its
    resignation (on main the chat was a garbled frame and the follower forfeited)."""
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    def follower() -> None:
        with server:
            sock, _ = server.accept()
            with sock:
                assert _read_frame(sock).startswith("R01")
                sock.sendall(b"A" + b"Chatty".ljust(32) + b"0\0")
                assert _read_frame(sock).startswith("M")  # White's first move
                sock.sendall(b"C" + b"hello " * 1000 + b"\0")
                sock.sendall(b"E10\0")  # I lose
                _read_frame(sock)

    thread = threading.Thread(target=follower, daemon=True)
    thread.start()
    game = play_task(GameTask(0, EngineSpec("level:beginner"), EngineSpec(f"dxp:127.0.0.1:{port}"), "international"))
    thread.join(30)
    assert game["termination"].startswith("resigned: Chatty resigned")
    assert game["winner"] == "white"


class _FakeTime:
    def __init__(self) -> None:
        self.now = 50.0

    def monotonic(self) -> float:
        return self.now


def test_chat_does_not_restart_a_dxp_engines_move_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """The match's DXP player waits one deadline per move, however much the follower chats."""
    from draughts import dxp
    from draughts.dxp import roles as players
    from draughts.errors import DXPConnectionError

    clock = _FakeTime()
    monkeypatch.setattr(players, "time", clock)
    waits: list[float] = []

    class Chatty:
        def receive(self, timeout: float) -> dxp.Message:
            waits.append(timeout)
            assert len(waits) < 100, "the follower held the match with chat"
            clock.now += 4.0
            return dxp.Chat("thinking")

        def send(self, message: dxp.Message) -> None:
            pass

    player = object.__new__(players.DXPFollower)
    player.conn, player.timeout, player.name, player.sent = Chatty(), 10.0, "Chatty", 0  # type: ignore[assignment]
    with pytest.raises(DXPConnectionError, match="Chatty sent no move within 10 s"):
        player.choose(draughts.Board("international"), None)
    assert waits == [10.0, 6.0, 2.0]

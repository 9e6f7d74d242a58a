"""dxp:HOST:PORT engines in a match: our own ``draughts dxp --listen`` over real sockets, and a
follower written in the test from the protocol text that resigns, or answers an illegal move."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from draughts.match import EngineSpec, GameTask, play_task, run_match
from draughts.pdn import read_games
from draughts.players import TimeControl


@pytest.fixture
def follower(tmp_path: Path) -> Iterator[tuple[str, Path, subprocess.Popen[str]]]:
    """``draughts dxp --listen`` on a free port for two games: its address, its PDN file, the process."""
    pdn = tmp_path / "follower.pdn"
    command = [sys.executable, "-m", "draughts", "dxp", "--listen", "--port", "0", "--games", "2"]
    process = subprocess.Popen(
        [*command, "--level", "beginner", "--pdn", str(pdn)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("listening on "), line
        yield line.split()[-1], pdn, process
    finally:
        process.kill()
        process.wait()


def test_a_dxp_follower_plays_a_match_over_real_sockets(
    tmp_path: Path, follower: tuple[str, Path, subprocess.Popen[str]]
) -> None:
    address, their_pdn, process = follower
    pdn = tmp_path / "m.pdn"
    match = run_match(
        EngineSpec(f"dxp:{address}"), EngineSpec("level:beginner"), games=2, workers=1, max_plies=400, pdn=pdn
    )
    assert process.wait(30) == 0  # it answered its two game requests and exited
    ours = sorted(read_games(pdn), key=lambda g: int(g.headers["Round"]))
    theirs = list(read_games(their_pdn))
    assert len(ours) == len(theirs) == 2
    for game, peer in zip(ours, theirs, strict=True):
        assert game.moves == peer.moves  # every move went across and was legal on both boards
        assert game.headers["Termination"].startswith("rules: ")
        assert game.result == peer.result != "*"
    assert ours[0].headers["White"] == f"dxp:{address}"
    assert ours[1].headers["Black"] == f"dxp:{address}"
    assert sum(match.wdl()) == 2


def test_a_dxp_follower_gets_the_opening_position_and_the_clock(
    tmp_path: Path, follower: tuple[str, Path, subprocess.Popen[str]]
) -> None:
    address, their_pdn, _ = follower
    run_match(
        EngineSpec("level:beginner"),
        EngineSpec(f"dxp:{address}"),
        games=2,
        workers=1,
        max_plies=12,
        openings=[["32-28", "19-23"]],
        clock=TimeControl(90, 1),
        pdn=tmp_path / "m.pdn",
    )
    ours = sorted(read_games(tmp_path / "m.pdn"), key=lambda g: int(g.headers["Round"]))
    theirs = list(read_games(their_pdn))
    for game, peer in zip(ours, theirs, strict=True):
        assert game.headers["Termination"] == "adjudicated: draw after 12 plies"
        assert game.moves[2:] == peer.moves[:10]  # the follower started after the opening (setup B)
    # game 1: the follower (Black) made the 12th ply; game 2: it got our 12th and answered it
    # before it read our GAMEEND, a move its own record keeps
    assert [len(peer.moves) for peer in theirs] == [10, 11]


# --- a follower written from the protocol text -------------------------------------------------------


def _serve_once(answer: Callable[[socket.socket, str], None]) -> tuple[str, threading.Thread]:
    """A one-game follower on a free port: accepts the request, then ``answer(sock, colour)``."""
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    def run() -> None:
        with server:
            sock, _ = server.accept()
            with sock:
                request = _read(sock)
                assert request.startswith("R01")
                sock.sendall(b"A" + b"Hand written".ljust(32) + b"0\0")
                answer(sock, request[35])

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return f"127.0.0.1:{port}", thread


def _read(sock: socket.socket) -> str:
    data = b""
    while not data.endswith(b"\0"):
        chunk = sock.recv(1)
        if not chunk:
            break
        data += chunk
    return data[:-1].decode("ascii")


def test_a_dxp_follower_that_resigns_loses_by_resignation() -> None:
    def resign(sock: socket.socket, colour: str) -> None:
        assert colour == "Z"  # it plays Black: White's first move comes first
        assert _read(sock).startswith("M")
        sock.sendall(b"E10\0")  # I lose, next game welcome
        _read(sock)

    address, thread = _serve_once(resign)
    game = play_task(GameTask(0, EngineSpec("level:beginner"), EngineSpec(f"dxp:{address}"), "international"))
    thread.join(10)
    assert game["termination"].startswith("resigned: Hand written resigned")
    assert game["winner"] == "white"
    assert game["plies"] == 1


def test_an_illegal_dxp_move_forfeits_and_the_line_is_closed() -> None:
    seen: list[str] = []

    def illegal(sock: socket.socket, colour: str) -> None:
        assert colour == "W"
        sock.sendall(b"M0000322200\0")  # 32-22: no White first move has that identity
        seen.append(_read(sock))

    address, thread = _serve_once(illegal)
    game = play_task(GameTask(0, EngineSpec(f"dxp:{address}"), EngineSpec("level:beginner"), "international"))
    thread.join(10)
    assert game["termination"].startswith("forfeit: dxp:")
    assert "illegal" in game["termination"]
    assert game["winner"] == "black"
    assert seen == ["E01"]  # the referee's GAMEEND (reason unknown, no next game), then the close


def test_an_unreachable_dxp_follower_forfeits() -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
    game = play_task(GameTask(0, EngineSpec("level:beginner"), EngineSpec(f"dxp:127.0.0.1:{port}"), "international"))
    assert game["termination"].startswith(f"forfeit: dxp:127.0.0.1:{port} did not start: cannot reach")
    assert game["winner"] == "white"


def test_a_dxp_engine_on_another_board_is_refused_before_any_game() -> None:
    from draughts.errors import DXPError

    with pytest.raises(DXPError, match="10x10"):
        run_match(EngineSpec("dxp:127.0.0.1:27531"), EngineSpec("level:beginner"), ruleset="russian", workers=1)

"""DXP: codec, a full game over real sockets both ways, a follower written from the protocol text, faults."""

from __future__ import annotations

import random
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import draughts
from draughts import dxp
from draughts.pdn import read_games


def test_codec_round_trip_and_widths() -> None:
    messages: list[dxp.Message] = [
        dxp.GameRequest("Tester", "Z", 10, 50),
        dxp.GameRequest("Tester", "W", 0, 0, dxp.position_field(draughts.Position.initial("international"))),
        dxp.GameAccept("Scan", 0),
        dxp.MoveMessage(12, 27, 18, (22,)),
        dxp.GameEnd(3, 1),
        dxp.Chat("hello"),
        dxp.BackRequest(12, "W"),
        dxp.BackAccept(1),
    ]
    for message in messages:
        assert dxp.decode(dxp.encode(message)[:-1]) == message
    assert dxp.encode(dxp.GameRequest("Tester", "Z", 10, 50)) == b"R01" + b"Tester".ljust(32) + b"Z010050A\0"
    assert len(dxp.encode(messages[1])) == 95


@pytest.mark.parametrize(
    "frame",
    [
        "",
        "X12",
        "M00012718",
        "M0001271801",
        "M000127180122x",
        "E4",
        "E41",
        "A" + "x" * 32 + "9",
        "R02" + " " * 32 + "Z010050A",
        "M\x0001",
        "M0001002800",
    ],
)
def test_garbled_frames_raise_dxp_errors(frame: str) -> None:
    with pytest.raises(dxp.DXPError, match="garbled"):
        dxp.decode(frame)


def test_other_boards_refused_up_front() -> None:
    with pytest.raises(dxp.DXPError, match="10x10"):
        dxp.listen(dxp.level_player("beginner"), port=0, ruleset="russian")


def test_find_move_maps_identity() -> None:
    pos = draughts.Position.from_fen("international", "W:WK47:B14,19,29,31,42")
    move = dxp.find_move(pos, dxp.MoveMessage(0, 47, 36, (42, 29, 14, 31)))
    assert move.captured
    assert move.end == 36
    with pytest.raises(dxp.DXPError, match="illegal"):
        dxp.find_move(pos, dxp.MoveMessage(0, 47, 36, (42,)))


def _follower_thread(**kwargs: object) -> tuple[threading.Thread, tuple[str, int], list[list[dxp.DXPRecord]]]:
    ready = threading.Event()
    where: list[tuple[str, int]] = []
    out: list[list[dxp.DXPRecord]] = []

    def run() -> None:
        out.append(dxp.listen(ready=lambda a: (where.append(a), ready.set()), port=0, timeout=30, **kwargs))  # type: ignore[arg-type]

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(10)
    return thread, where[0], out


def test_full_games_between_our_initiator_and_follower(tmp_path: Path) -> None:
    thread, address, out = _follower_thread(
        player=dxp.level_player("beginner", seed=1), games=2, pdn=tmp_path / "f.pdn"
    )
    records = dxp.connect(dxp.level_player("beginner", seed=2), address, games=2, pdn=tmp_path / "i.pdn", timeout=30)
    thread.join(30)
    theirs = out[0]
    assert [r.color for r in records] == [draughts.WHITE, draughts.BLACK]
    for ours, peer in zip(records, theirs, strict=False):
        assert ours.error is None
        assert peer.error is None
        assert ours.board.move_stack == peer.board.move_stack
        assert ours.board.outcome() is not None
        assert ours.result == peer.result != "*"
    games = list(read_games(tmp_path / "i.pdn"))
    assert len(games) == 2
    assert games[0].moves == records[0].board.move_stack
    assert games[0].headers["Termination"].startswith("rules:")
    assert len(list(read_games(tmp_path / "f.pdn"))) == 2


# --- an independent follower, written from the protocol text (mesander.nl/damexchange) ---------------


def _frames(sock: socket.socket) -> object:
    buffer = b""
    while True:
        while b"\0" not in buffer:
            data = sock.recv(1024)
            if not data:
                return
            buffer += data
        frame, buffer = buffer.split(b"\0", 1)
        yield frame.decode("ascii")


def _text_follower(server: socket.socket, fault: str | None, log: list[str]) -> None:
    """Plays random legal moves, its framing written here; ``fault`` makes it misbehave on its first move."""
    sock, _ = server.accept()
    frames = _frames(sock)
    request = next(frames)  # type: ignore[call-overload]
    assert request[0] == "R"
    assert request[1:3] == "01"
    mine = "W" if request[35] == "W" else "Z"
    sock.sendall(b"A" + b"TextFollower".ljust(32) + b"0\0")
    board = draughts.Board("international")
    chooser = random.Random(5)
    ours = draughts.WHITE if mine == "W" else draughts.BLACK
    while True:
        if board.outcome() is not None:
            for frame in frames:  # type: ignore[attr-defined]
                log.append(frame)
                if frame[0] == "E":
                    break
            sock.sendall(b"E01\0")
            break
        if board.turn is ours:
            if fault == "garbled":
                sock.sendall(b"M00zz\0")
            elif fault == "illegal":
                sock.sendall(b"M0000" + b"0140" + b"00\0")
            elif fault == "drop":
                sock.close()
                return
            if fault:
                log.extend(frames)  # type: ignore[arg-type]
                sock.close()
                return
            move = chooser.choice(list(board.legal_moves()))
            caps = "".join(f"{c:02d}" for c in sorted(move.captured))
            sock.sendall(f"M0000{move.start:02d}{move.end:02d}{len(move.captured):02d}{caps}\0".encode())
            board.push(move)
        else:
            frame = next(frames)  # type: ignore[call-overload]
            log.append(frame)
            assert frame[0] == "M", frame
            start, end, count = int(frame[5:7]), int(frame[7:9]), int(frame[9:11])
            caps = frozenset(int(frame[11 + 2 * i : 13 + 2 * i]) for i in range(count))
            (move,) = [m for m in board.legal_moves() if m.identity == (start, end, caps)]
            board.push(move)
    log.append("done " + board.result())
    sock.close()


def _against_text_follower(fault: str | None) -> tuple[dxp.DXPRecord, list[str]]:
    server = socket.create_server(("127.0.0.1", 0))
    log: list[str] = []
    thread = threading.Thread(target=_text_follower, args=(server, fault, log), daemon=True)
    thread.start()
    (record,) = dxp.connect(dxp.level_player("beginner"), server.getsockname()[:2], games=1, timeout=20)
    thread.join(20)
    server.close()
    return record, log


def test_our_initiator_against_a_follower_written_from_the_protocol_text() -> None:
    record, log = _against_text_follower(None)
    assert record.error is None
    assert record.result != "*"
    assert log[-1] == "done " + record.result
    assert any(frame[0] == "E" for frame in log)


@pytest.mark.parametrize(("fault", "words"), [("garbled", "garbled"), ("illegal", "illegal"), ("drop", "closed")])
def test_faults_end_the_game_cleanly(fault: str, words: str) -> None:
    record, log = _against_text_follower(fault)
    assert record.result == "*"
    assert record.error is not None
    assert words in record.error
    assert record.termination.startswith("error:")
    if fault != "drop":
        assert log
        assert log[-1].startswith("E0")


def test_our_follower_survives_an_illegal_move_from_the_initiator() -> None:
    thread, address, out = _follower_thread(player=dxp.level_player("beginner"), games=1)
    with socket.create_connection(address) as sock:
        sock.sendall(b"R01" + b"Rogue".ljust(32) + b"W000000A\0")  # follower plays White: it moves first
        frames = _frames(sock)
        assert next(frames)[0] == "A"  # type: ignore[call-overload]
        assert next(frames)[0] == "M"  # type: ignore[call-overload]
        sock.sendall(b"M0000501000\0")
        assert next(frames) == "E01"  # type: ignore[call-overload]
    thread.join(20)
    (record,) = out[0]
    assert "illegal" in (record.error or "")


def test_cli_contract_both_ways(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    follower = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "draughts",
            "dxp",
            "--listen",
            "--port",
            str(port),
            "--games",
            "2",
            "--level",
            "beginner",
            "--pdn",
            str(tmp_path / "f.pdn"),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert follower.stdout is not None
    assert follower.stdout.readline().startswith("listening on")
    initiator = subprocess.run(
        [
            sys.executable,
            "-m",
            "draughts",
            "dxp",
            "--connect",
            f"127.0.0.1:{port}",
            "--games",
            "2",
            "--time",
            "5",
            "--moves",
            "75",
            "--level",
            "beginner",
            "--pdn",
            str(tmp_path / "i.pdn"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert initiator.returncode == 0, initiator.stderr
    assert follower.wait(60) == 0
    # the log names our colour in words (issue 40 §10), not DXP's W/Z
    assert "DXP game: we play white against" in initiator.stderr
    assert "DXP game: we play black against" in initiator.stderr
    assert "we play W " not in initiator.stderr
    assert "we play Z " not in initiator.stderr
    for name in ("f.pdn", "i.pdn"):
        games = list(read_games(tmp_path / name))
        assert len(games) == 2
        assert all(g.result != "*" for g in games)


def test_time_control_budgets() -> None:
    from draughts.dxp.session import time_control
    from draughts.players import Clock

    # 0 minutes: no clock
    assert time_control(0, 0) is None
    # 10 minutes for 50 moves, repeating: the player gets what is left of the control and the moves to go
    control = time_control(10, 50)
    assert control is not None
    assert control.clock(used=0.0, played=0) == Clock(600.0, 0.0, 50)
    assert control.clock(used=0.0, played=0).budget() == pytest.approx(600 / 50)
    assert control.clock(used=500.0, played=50) == Clock(700.0, 0.0, 50)  # a new control's 10 minutes added
    assert control.clock(used=10.0, played=1) == Clock(590.0, 0.0, 49)
    # no move count: sudden death, the minutes are never topped up, shared over 30 moves to go
    control = time_control(2, 0)
    assert control is not None
    assert control.clock(used=0.0, played=0) == Clock(120.0)
    assert control.clock(used=0.0, played=0).budget() == pytest.approx(120 / 30)
    assert control.clock(used=100.0, played=20).budget() == pytest.approx(20 / 30)
    assert control.clock(used=125.0, played=25).budget() == 0.01  # overdrawn: the least time, not a negative one

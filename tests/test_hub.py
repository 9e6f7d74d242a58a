"""The Hub protocol: the client against the project's own server, and the formats on their own."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import draughts
from draughts import Board, Position, hub
from draughts.engine import Limit
from draughts.hub import HubEngine, HubError, format_line, parse_line
from draughts.notation import parse_move
from strategies import positions, rulesets

SERVER = [sys.executable, "-m", "draughts.hub"]


@pytest.fixture
def engine() -> Iterator[HubEngine]:
    client = HubEngine(SERVER, timeout=30)
    try:
        yield client
    finally:
        client.quit()
        assert client.process.poll() is not None


# --- round trips: client <-> own server ---------------------------------------------------------


@pytest.mark.parametrize("variant", ["international", "russian", "italian", "american", "brazilian", "czech"])
def test_round_trip_from_the_start(engine: HubEngine, variant: str) -> None:
    engine.init(variant)
    assert engine.id["name"] == "polydraughts"
    assert set(engine.params) >= {"variant", "level", "seed"}
    board = Board(variant)
    for _ in range(4):  # a few moves each way: the server gets the position after each
        result = engine.go(board, Limit(depth=2))
        assert result.move in board.legal_moves
        assert result.info["depth"] == "2"
        assert result.text == hub.move_text(board.position, result.move)
        board.push(result.move)


def test_round_trip_finds_a_shot(engine: HubEngine) -> None:
    engine.init("international")
    position = Position.from_fen("international", "W:W23,28,29,31,45,48:B9,11,13,25,30")
    result = engine.go(position, Limit(depth=4))
    assert result.move == parse_move(position, "29-24")
    assert float(result.info["score"]) >= 1.0
    assert result.ponder is not None
    assert result.ponder.captured  # Black must take the sacrificed man


def test_round_trip_with_king_moves_and_captures(engine: HubEngine) -> None:
    engine.init("russian-nfc")
    board = Board(draughts.no_forced_capture(draughts.get_variant("russian")), "W:WKa1,Kc1:BKh2,e7")
    for text in ("c1-d2", "h2-g1", "d2-c1", "g1-h2"):
        board.push_text(text)
    start, moves = hub._reversible_tail(board)
    assert start == board.root()
    assert len(moves) == 4
    result = engine.go(board, Limit(depth=3))
    assert result.move in board.legal_moves


def test_time_limit_and_stop(engine: HubEngine) -> None:
    engine.init("international")
    started = time.monotonic()
    result = engine.go(Board("international"), Limit(time=0.5))
    assert time.monotonic() - started < 10
    assert result.move in Board("international").legal_moves
    # an infinite search ends with "stop", and the engine still answers "done"
    engine.send(format_line("pos", pos=hub.position_text(Position.initial("international"))))
    engine.send("level infinite")
    engine.send("go analyze")
    engine.ping()  # answered during the search
    time.sleep(0.3)
    engine.stop()
    while True:
        command, args = engine.receive(10)
        if command == "done":
            break
    assert parse_move(Position.initial("international"), args["move"])


def test_server_reports_errors(engine: HubEngine) -> None:
    engine.init("russian")
    engine.send("pos pos=Wxyz")
    command, args = engine.receive()
    assert command == "error"
    assert "33" in args["message"]
    engine.send("set-param name=level value=godlike")
    command, args = engine.receive()
    assert command == "error"
    assert "godlike" in args["message"]
    engine.send("go think")
    command, args = engine.receive()
    assert command == "error"
    assert "no position" in args["message"]
    engine.send("some-future-command x=1")  # ignored, as the protocol asks
    engine.ping()


def test_client_refuses_a_variant_the_engine_does_not_play(engine: HubEngine) -> None:
    custom = attrs.evolve(draughts.get_variant("russian"), name="mine")
    with pytest.raises(HubError, match="does not play mine"):
        engine.init(custom)


def test_client_sets_parameters(engine: HubEngine) -> None:
    engine.init("spanish", {"level": "beginner", "seed": 5})
    board = Board("spanish")
    result = engine.go(board)  # no limit: the engine's level decides (beginner: depth 1)
    assert result.move in board.legal_moves
    assert result.info["depth"] == "1"


# --- a foreign engine: scripted answers ---------------------------------------------------------

FAKE = textwrap.dedent(
    """
    import sys
    for line in sys.stdin:
        command = line.split()[0] if line.split() else ""
        if command == "hub":
            print('id name=fake version=1 author="Some One"')
            print("param name=variant value=normal type=enum values=\\"normal killer bt\\"")
            print("wait", flush=True)
        elif command == "init":
            print("ready", flush=True)
        elif command == "go":
            print("info depth=1 score=0.5")
            print("done move=MOVE ponder=", flush=True)
        elif command == "quit":
            break
    """
)


def fake(move: str) -> HubEngine:
    return HubEngine([sys.executable, "-c", FAKE.replace("MOVE", move)], timeout=20)


def test_foreign_engine_with_captured_squares_in_any_order() -> None:
    position = Position.from_fen("international", "W:WK47:B14,19,29,31,42")
    with fake("47x36x31x14x29x42") as client:
        client.init("international")  # Scan's "normal"
        assert client.id == {"name": "fake", "version": "1", "author": "Some One"}
        assert client.params["variant"].values == ("normal", "killer", "bt")
        result = client.go(position, Limit(time=1))
    assert set(result.move.captured) == {14, 29, 31, 42}
    assert result.ponder is None
    with fake("47x36x42x19x29x31") as client:
        client.init("international")
        assert set(client.go(position).move.captured) == {19, 29, 31, 42}
    with fake("47x36x42x19x29x30") as client:
        client.init("international")
        with pytest.raises(HubError, match="not legal"):
            client.go(position)
    with fake("11-15") as client, pytest.raises(HubError, match="does not play russian"):
        client.init("russian")


def test_silent_engine_times_out() -> None:
    client = HubEngine([sys.executable, "-c", "import time; time.sleep(60)"], timeout=0.5)
    started = time.monotonic()
    with pytest.raises(HubError, match="did not answer"):
        client.init("international")
    client.quit(timeout=1)
    assert time.monotonic() - started < 10


def test_missing_engine() -> None:
    with pytest.raises(HubError, match="cannot start"):
        HubEngine(["/nonexistent/engine", "hub"])


def test_engine_that_exits() -> None:
    client = HubEngine([sys.executable, "-c", "print('id name=gone')"], timeout=5)
    with pytest.raises(HubError, match=r"exited|did not answer"):
        client.init()
    client.quit()


def test_cli_hub_subcommand() -> None:
    script = "".join(
        line + "\n"
        for line in (
            "hub",
            "set-param name=variant value=dama",
            "init",
            "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
            "level depth=2",
            "go think",
            "quit",
        )
    )
    script_path = sys.executable.rsplit("/", 1)[0] + "/draughts"
    done = subprocess.run([script_path, "hub"], input=script, capture_output=True, text=True, timeout=60, check=True)
    replies = [parse_line(line) for line in done.stdout.splitlines()]
    commands = [command for command, _ in replies]
    assert commands[:4] == ["id", "param", "param", "param"]
    assert "ready" in commands
    done_args = dict(replies)["done"]
    position = Position.initial("italian")
    assert hub.parse_move(position, done_args["move"]) in position.legal_moves()


# --- the formats --------------------------------------------------------------------------------


def test_line_syntax() -> None:
    line = format_line("info", depth=3, pv="32-28 19-23", empty="", move_time=1.5)
    assert line == 'info depth=3 pv="32-28 19-23" empty="" move-time=1.5'
    assert parse_line(line) == ("info", {"depth": "3", "pv": "32-28 19-23", "empty": "", "move-time": "1.5"})
    assert parse_line("go think") == ("go", {"think": ""})
    assert parse_line("   ") == ("", {})
    assert parse_line('id name=Scan version=3.1 author="Fabien Letouzey" country=France')[1]["author"] == (
        "Fabien Letouzey"
    )


def test_scan_start_position() -> None:
    text = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"
    assert hub.parse_position("international", text) == Position.initial("international")
    assert hub.position_text(Position.initial("international")) == text
    # Scan's example with kings: the side to move, then squares 1..50
    kings = hub.parse_position("international", "BeeeWWeeeeeeeeeeeeeeeeeeeweeeeeeeeewweBeeeeeeeeeBee")
    assert kings.turn is draughts.BLACK
    assert kings.fen() == "B:WK4,K5,25,35,36:BK38,K48"
    for text in ["38-15", "5-41", "48-26"]:  # the moves of Scan's example are legal in turn
        kings = kings.play(hub.parse_move(kings, text))
    assert kings.fen() == "W:WK4,25,35,36,K41:BK15,K26"


@pytest.mark.parametrize(
    "text",
    [
        "W",
        "Xbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
        "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwwz",
        "Wwbbbbbbbbbbbeeeeeeeewwwwwwwwwwwb",
    ],
)
def test_bad_positions(text: str) -> None:
    with pytest.raises(draughts.InvalidPositionError):
        hub.parse_position("russian", text)


@settings(max_examples=150, deadline=None)
@given(positions(rulesets))
def test_position_round_trip(position: Position) -> None:
    text = hub.position_text(position)
    assert len(text) == position.ruleset.squares + 1
    assert hub.parse_position(position.ruleset, text) == position


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_move_round_trip_in_any_capture_order(data: st.DataObject) -> None:
    position = data.draw(positions(rulesets))
    legal = position.legal_moves()
    if not legal:
        return
    move = data.draw(st.sampled_from(legal))
    text = hub.move_text(position, move)
    assert hub.parse_move(position, text) == move
    if move.captured:
        order = data.draw(st.permutations(list(move.captured)))
        shuffled = "x".join(str(square) for square in (move.start, move.end, *order))
        assert hub.parse_move(position, shuffled) == move

"""The Hub protocol: the client against the project's own server, and the formats on their own."""

from __future__ import annotations

import contextlib
import io
import math
import pathlib
import queue
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator

import attrs
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import draughts
from draughts import Board, Position, hub
from draughts.engine import Limit, SearchResult
from draughts.hub import (
    HubEngine,
    HubEngineError,
    HubEngineTerminatedError,
    HubEngineTimeoutError,
    HubError,
    format_line,
    parse_line,
)
from draughts.hub.client import reversible_tail
from draughts.hub.server import _Server
from draughts.notation import parse_move
from draughts.players import Clock
from strategies import positions, rulesets

SERVER = [sys.executable, "-m", "draughts", "hub"]
COMMAND = [str(pathlib.Path(sys.executable).with_name("draughts")), "hub"]
"""The ``draughts hub`` console script a user (or a GUI) starts, installed beside this Python."""
ALIAS = [sys.executable, "-m", "draughts.hub"]
"""The older spelling, kept: a thin call into the same command."""


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
        assert result.text == hub.hub_move_text(board.position, result.move)
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
    start, moves = reversible_tail(board)
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
    engine.send("some-future-command x=1")  # ignored, as the protocol asks
    engine.ping()
    assert len(engine.errors) == 2  # one error line each, nothing for the unknown command


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


# --- the server, line by line through the real command, with deadlines -------------------------

DEADLINE = 20.0
"""Seconds a step may take before the test fails: a hung server fails the test, it never blocks CI."""

START = hub.position_text(Position.initial("international"))


class Session:
    """``python -m draughts hub`` with a reader thread: every wait has a deadline."""

    def __init__(self, *args: str, command: list[str] = SERVER) -> None:
        self.process = subprocess.Popen(
            [*command, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, *lines: str | bytes) -> None:
        assert self.process.stdin is not None
        for line in lines:
            data = line if isinstance(line, bytes) else line.encode()
            self.process.stdin.write(data + b"\n")
        self.process.stdin.flush()

    def next(self, deadline: float = DEADLINE) -> tuple[str, dict[str, str]]:
        try:
            item = self.lines.get(timeout=deadline)
        except queue.Empty:
            pytest.fail(f"the server said nothing for {deadline} s (hung?); it said before: {self.seen[-5:]}")
        if item is None:
            self.process.wait(5)
            assert self.process.stderr is not None
            pytest.fail(f"the server exited; it said {self.seen[-5:]}; stderr: {self.process.stderr.read()[-2000:]!r}")
        text = item.decode()
        self.seen.append(text.rstrip())
        return parse_line(text)

    def until(self, wanted: str) -> list[tuple[str, dict[str, str]]]:
        """The lines up to and including the next ``wanted`` one."""
        replies = []
        while True:
            replies.append(self.next())
            if replies[-1][0] == wanted:
                return replies

    def close(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(OSError):
                self.send("quit")
            try:
                self.process.wait(DEADLINE)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                pytest.fail("the server did not end on quit")


@pytest.fixture
def session() -> Iterator[Session]:
    server = Session()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture(params=[ALIAS, COMMAND], ids=["python -m draughts.hub", "draughts hub"])
def either_session(request: pytest.FixtureRequest) -> Iterator[Session]:
    """The server started by the old module spelling and through the real ``draughts hub`` command."""
    server = Session(command=request.param)
    try:
        yield server
    finally:
        server.close()


def errors_and_done(replies: list[tuple[str, dict[str, str]]]) -> tuple[list[str], dict[str, str]]:
    return [args["message"] for command, args in replies if command == "error"], replies[-1][1]


def test_server_answers_a_long_number_with_an_error_line(session: Session) -> None:
    # 4,301 digits are past CPython's int-conversion limit: the server used to die with a traceback.
    digits = "9" * 4301
    session.send(f'pos pos={START} moves="{digits}-1"', "ping")
    command, args = session.next()
    assert command == "error"
    assert args["message"].startswith("pos: move 1 of moves=")
    assert len(args["message"]) < 400  # a bounded excerpt, not the 4,303 characters
    assert session.next()[0] == "pong"
    session.send(f"level depth={digits}", f"set-param name=seed value={digits}", "ping")
    for _ in range(2):
        command, args = session.next()
        assert command == "error"
        assert len(args["message"]) < 400
    assert session.next()[0] == "pong"


BAD_LINES = [
    b'pos pos="Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww',  # the quote is not closed
    b"=junk",
    b"pos pos=" + b"W" * 100_000,
    b"pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwww\xff",  # not UTF-8
    b"level depth=abc",
    b"level depth=0",
    b"level move-time=nan",
    b"level move-time=-1",
    b"level moves=40",  # moves= without time=
    b"level time=60 inc=1e999",
    b"set-param name=level value=godlike",
    b"set-param name=seed value=-3",
    b"set-param name=nonsense value=1",
    b"set-param value=1",
    b"set-param name=variant value=" + b"x" * 10_000,
    b"set-param name=level value=" + b"9" * 5000,  # the level's own message quoted all of it
    b"set-param name=threads value=0",
    b"set-param name=threads value=many",
]


def test_server_answers_every_bad_line_with_one_error_and_goes_on(session: Session) -> None:
    for line in BAD_LINES:
        session.send(line, "ping")
        command, args = session.next()
        assert command == "error", line[:60]
        assert len(args["message"]) < 1000, line[:60]  # the input quoted in a bounded excerpt
        assert session.next()[0] == "pong", line[:60]  # exactly one error line, and still serving
    # none of them changed the position or the level: go searches the start position at the level's limit
    session.send("level depth=1", "go think")
    done = session.until("done")[-1][1]
    assert hub.parse_hub_move(Position.initial("international"), done["move"])


def test_server_never_hangs_on_go_or_pos_during_an_infinite_search(either_session: Session) -> None:
    session = either_session
    # A second go during "level infinite": the first search ends with done, as on "stop" (Scan does
    # the same), and the second one starts; the stop after it is read and answered.
    session.send(f"pos pos={START}", "level infinite", "go analyze")
    session.send("go analyze")
    first = session.until("done")
    session.send("stop")
    second = session.until("done")
    for replies in (first, second):
        errors, done = errors_and_done(replies)
        assert errors == []
        assert hub.parse_hub_move(Position.initial("international"), done["move"])
    # a pos during an infinite search: the search answers done, then the new position is taken
    other = Position.from_fen("international", "W:W31,K46:B5,K10")
    session.send("level infinite", "go think", f"pos pos={hub.position_text(other)}")
    assert errors_and_done(session.until("done"))[0] == []
    session.send("stop", "level depth=1", "go think")  # stop while idle is ignored
    errors, done = errors_and_done(session.until("done"))
    assert errors == []
    assert hub.parse_hub_move(other, done["move"]) in other.legal_moves()
    session.send("ping")
    assert session.next()[0] == "pong"


def test_server_ends_an_infinite_search_at_the_end_of_input() -> None:
    server = Session()
    server.send(f"pos pos={START}", "level infinite", "go think")
    time.sleep(0.2)
    assert server.process.stdin is not None
    server.process.stdin.close()  # the GUI has gone: quit as directly as possible
    try:
        assert server.process.wait(DEADLINE) == 0
    finally:
        server.close()


def drawn_by_repetition() -> tuple[Position, str]:
    """A position and king moves from it after which it stands for the third time."""
    start = Position.from_fen("international", "W:WK50,45:BK1,6")
    board = Board.from_position(start)
    for text in ["50-44", "1-7", "44-50", "7-1"] * 2:
        board.push(hub.parse_hub_move(board.position, text))
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.termination is draughts.Termination.REPETITION
    assert board.legal_moves
    return start, " ".join(["50-44", "1-7", "44-50", "7-1"] * 2)


def test_server_answers_go_with_a_move_in_a_position_it_calls_drawn(either_session: Session) -> None:
    session = either_session
    start, moves = drawn_by_repetition()
    session.send(f'pos pos={hub.position_text(start)} moves="{moves}"', "level depth=2", "go think")
    errors, done = errors_and_done(session.until("done"))
    assert errors == []
    assert hub.parse_hub_move(start, done["move"]) in start.legal_moves()  # the third repetition is the start


def test_server_go_before_any_position_searches_the_start_position(either_session: Session) -> None:
    session = either_session
    session.send("hub", "set-param name=variant value=russian", "init")
    session.until("ready")
    session.send("level depth=1", "go think")
    errors, done = errors_and_done(session.until("done"))
    assert errors == []
    russian = Position.initial("russian")
    assert hub.parse_hub_move(russian, done["move"]) in russian.legal_moves()
    # a refused pos leaves the position as it was
    other = Position.from_fen("russian", "W:Wa1,c1:Bh8")
    session.send(f"pos pos={hub.position_text(other)}", "pos pos=Wxyz", "level depth=1", "go")
    errors, done = errors_and_done(session.until("done"))
    assert len(errors) == 1
    assert "33" in errors[0]
    assert hub.parse_hub_move(other, done["move"]) in other.legal_moves()
    # and so does a pos with a move that is not legal in turn (all or nothing)
    session.send(f'pos pos={hub.position_text(russian)} moves="22-18 22-18"', "level depth=1", "go")
    errors, done = errors_and_done(session.until("done"))
    assert len(errors) == 1
    assert "move 2" in errors[0]
    assert hub.parse_hub_move(other, done["move"]) in other.legal_moves()


def test_server_go_without_a_legal_move_still_answers_done(either_session: Session) -> None:
    session = either_session
    # The GUI should never ask; if it does, an error line and a done without a move, as Scan answers.
    blocked = Position.from_fen("russian", "W:Wa1:Bb2,c3")
    assert not blocked.legal_moves()
    session.send("set-param name=variant value=russian", f"pos pos={hub.position_text(blocked)}", "go think")
    errors, done = errors_and_done(session.until("done"))
    assert len(errors) == 1
    assert "no legal move" in errors[0]
    assert done == {}


def test_server_level_lines_and_clocks(session: Session) -> None:
    # The clock forms are read (no error), a level line belongs to one search, and lines add up.
    for level in ("level time=3", "level moves=40 time=4 inc=0.05", "level time=0.5 inc=0.1", "level time=-1"):
        session.send(f"pos pos={START}", level, "go think")
        errors, done = errors_and_done(session.until("done"))
        assert errors == [], level
        assert hub.parse_hub_move(Position.initial("international"), done["move"])
    session.send(f"pos pos={START}", "level depth=2", "level nodes=100000", "go think")
    replies = session.until("done")
    assert replies[-2][0] == "info"
    assert replies[-2][1]["depth"] == "2"  # depth=2 kept when nodes= came
    session.send("set-param name=level value=beginner", "go think")  # no level line: the level's (depth 1)
    replies = session.until("done")
    assert replies[-2][1]["depth"] == "1"


def test_server_declares_threads_and_searches_with_them(session: Session) -> None:
    session.send("hub")
    params = {args["name"]: args for command, args in session.until("wait") if command == "param"}
    assert params["threads"]["value"] == "1"
    assert params["threads"]["type"] == "int"
    session.send("set-param name=threads value=2", f"pos pos={START}", "level depth=5", "go think")
    replies = session.until("done")
    assert [command for command, _ in replies if command == "error"] == []
    assert replies[-2][1]["depth"] == "5"
    start = Position.initial("international")
    assert hub.parse_hub_move(start, replies[-1][1]["move"]) in start.legal_moves()
    session.send("set-param name=threads value=257", "ping")
    command, args = session.next()
    assert command == "error"
    assert "257" in args["message"]


def test_cli_hub_survives_a_long_number() -> None:
    script = f'pos pos={START} moves="{"9" * 4301}-1"\nping\nquit\n'
    script_path = sys.executable.rsplit("/", 1)[0] + "/draughts"
    run = subprocess.run([script_path, "hub"], input=script, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stderr == ""
    commands = [parse_line(line)[0] for line in run.stdout.splitlines()]
    assert commands == ["error", "pong"]


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
        with pytest.raises(HubEngineError, match="not legal"):
            client.go(position)
    with fake("11-15") as client, pytest.raises(HubError, match="does not play russian"):
        client.init("russian")


def test_silent_engine_times_out() -> None:
    client = HubEngine([sys.executable, "-c", "import time; time.sleep(60)"], timeout=0.5)
    started = time.monotonic()
    with pytest.raises(HubEngineTimeoutError, match="did not answer"):
        client.init("international")
    client.quit(timeout=1)
    assert time.monotonic() - started < 10


def test_missing_engine() -> None:
    with pytest.raises(HubEngineError, match="cannot start"):
        HubEngine(["/nonexistent/engine", "hub"])


def test_engine_that_exits() -> None:
    client = HubEngine([sys.executable, "-c", "print('id name=gone')"], timeout=5)
    with pytest.raises(HubEngineError, match=r"exited|did not answer"):
        client.init()
    client.quit()


# --- the client: errors surfaced, clock levels, pondering -----------------------------------------

SCRIPTED = textwrap.dedent(
    """
    import sys
    mode = sys.argv[1]
    record = open(sys.argv[2], "a", encoding="utf-8") if len(sys.argv) > 2 else None
    def say(*lines):
        print(*lines, sep="\\n", flush=True)
    for line in sys.stdin:
        if record:
            record.write(line)
            record.flush()
        words = line.split()
        command = words[0] if words else ""
        if command == "hub":
            say("id name=scripted", "wait")
        elif command == "init":
            say("ready")
        elif command == "pos" and mode == "refuse":
            say('error message="bad position"')
        elif command == "go":
            if mode in ("error", "error-then-silence"):
                say('error message="evaluation table missing"')  # and no done until stop (or never)
            elif "ponder" not in words:
                say("info depth=1", "done move=32-28")
        elif command == "stop" and mode in ("error", "record"):
            say("done move=32-28")
        elif command == "ponder-hit":
            say("done move=32-28 ponder=19-23")
        elif command == "quit":
            break
    """
)


def scripted(mode: str, *extra: str, timeout: float = 5) -> HubEngine:
    return HubEngine([sys.executable, "-c", SCRIPTED, mode, *extra], timeout=timeout)


def test_client_stops_at_once_on_an_error_during_the_search() -> None:
    with scripted("error", timeout=5) as client:
        client.init("international")
        started = time.monotonic()
        with pytest.raises(HubEngineError, match="evaluation table missing"):
            client.go(Board("international"), Limit(time=3))  # it used to wait 8 s, then take the move
        assert time.monotonic() - started < 2.5
    with scripted("error-then-silence", timeout=1) as client:
        client.init("international")
        with pytest.raises(HubEngineTimeoutError, match=r"did not answer 'stop'.*evaluation table missing"):
            client.go(Board("international"), Limit(time=0.5))


def test_client_says_the_engine_refused_the_position() -> None:
    position = Position.from_fen("international", "W:W31:B20")  # 32-28, the scripted answer, is not legal here
    with scripted("refuse") as client:
        client.init("international")
        with pytest.raises(HubEngineError, match=r"refused the search of W:W31:B20.*pos pos=.*bad position") as raised:
            client.go(position, Limit(depth=1))
    assert "not legal" not in str(raised.value)


def test_client_surfaces_the_refusal_of_the_real_server(engine: HubEngine) -> None:
    engine.init("russian")
    engine.send("set-param name=variant value=international")  # now the server reads 51-character positions
    with pytest.raises(HubEngineError, match=r"refused the search.*33 characters; international needs 51"):
        engine.go(Board("russian"), Limit(depth=1))


def test_client_quotes_the_error_output_of_an_engine_that_exits_at_start_up() -> None:
    code = "import sys; sys.stderr.write('scripted: cannot open data/eval\\n'); sys.exit(3)"
    client = HubEngine([sys.executable, "-c", code], timeout=5)
    with pytest.raises(
        HubEngineTerminatedError, match=r"has exited \(exit code 3\); its error output ends: scripted: cannot open"
    ):
        client.init("international")
    client.quit()


def test_client_sends_each_level_form_and_ponders(tmp_path: pathlib.Path) -> None:
    record = tmp_path / "sent.txt"
    board = Board("international")
    with scripted("record", str(record)) as client:
        client.init("international")
        client.go(board, Limit(depth=3, nodes=1000, time=0.5))
        client.go(board, Limit())
        client.go(board, clock=Clock(time=60, inc=1, moves=40))
        client.go(board, clock=Clock(time=90.25))
        client.ponder(board, Limit(depth=5))  # returns at once: the scripted engine waits for ponder-hit
        result = client.ponder_hit()
        assert result.text == "32-28"
        assert result.ponder == parse_move(board.position.play(result.move), "19-23")
        client.ponder(board)
        missed = client.stop()  # the opponent played something else
        assert missed is not None
        assert missed.text == "32-28"
        assert client.go(board, Limit(depth=1)).text == "32-28"  # no stale done in between
        with pytest.raises(HubError, match="ponder"):
            client.ponder_hit()
    sent = [
        line for line in record.read_text().splitlines() if line.split()[0] in ("level", "go", "ponder-hit", "stop")
    ]
    assert sent == [
        "level depth=3",
        "level nodes=1000",
        "level move-time=0.5",
        "go think",
        "level infinite",
        "go think",
        "level moves=40 time=60 inc=1",
        "go think",
        "level time=90.25",
        "go think",
        "level depth=5",
        "go ponder",
        "ponder-hit",
        "go ponder",
        "stop",
        "level depth=1",
        "go think",
    ]


def test_clock_is_checked() -> None:
    assert Clock(time=0) == Clock(0.0, 0.0, None)
    for bad in ({"time": -1}, {"time": math.nan}, {"time": 1, "inc": -1}, {"time": 1, "moves": 0}):
        with pytest.raises(draughts.DraughtsError):
            Clock(**bad)


def test_client_ponders_and_uses_clocks_with_the_real_server(engine: HubEngine) -> None:
    engine.init("international")
    board = Board("international")
    first = engine.go(board, clock=Clock(time=1.5, inc=0.05))
    assert first.move in board.legal_moves
    assert first.ponder is not None
    board.push(first.move)
    board.push(first.ponder)
    engine.ponder(board, Limit(depth=2))
    hit = engine.ponder_hit()
    assert hit.move in board.legal_moves
    engine.ponder(board, Limit())  # an infinite ponder search, then the opponent plays another move
    missed = engine.stop()
    assert missed is not None
    assert missed.move in board.legal_moves
    other = Board("international")
    assert engine.go(other, Limit(depth=1)).move in other.legal_moves


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
    assert hub.parse_hub_move(position, done_args["move"]) in position.legal_moves()


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
        kings = kings.play(hub.parse_hub_move(kings, text))
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
    text = hub.hub_move_text(position, move)
    assert hub.parse_hub_move(position, text) == move
    if move.captured:
        order = data.draw(st.permutations(list(move.captured)))
        shuffled = "x".join(str(square) for square in (move.start, move.end, *order))
        assert hub.parse_hub_move(position, shuffled) == move


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ('pos pos="Wbbb', "not closed"),
        ("=junk", "does not start with a command"),
        ('go "think"', "starts no argument"),
        ('info pv="32-28"x', "follows"),
        ('level a=b"c', "follows"),
    ],
)
def test_malformed_lines(line: str, problem: str) -> None:
    with pytest.raises(HubError, match=problem):
        parse_line(line)
    parse_line(line, strict=False)  # a lenient reader takes what it can


def test_lenient_reading_keeps_what_parses() -> None:
    assert parse_line('done move=32-28 ponder="19-23', strict=False) == ("done", {"move": "32-28"})
    assert parse_line("done move=32-28 ponder=", strict=False) == ("done", {"move": "32-28", "ponder": ""})


def test_formatted_lines_stay_one_line() -> None:
    line = format_line("error", message='a "quoted"\nsecond line\r\x00end')
    assert "\n" not in line
    assert "\r" not in line
    assert parse_line(line) == ("error", {"message": "a 'quoted' second line  end"})


def test_long_numbers_and_long_text_give_bounded_draughts_errors() -> None:
    start = Position.initial("international")
    for text in ("9" * 4301 + "-1", "1-" + "0" * 5000 + "5", "32-28x" + "7" * 10_000):
        with pytest.raises(draughts.DraughtsError) as raised:
            hub.parse_hub_move(start, text)
        assert len(str(raised.value)) < 400
    assert hub.parse_hub_move(start, "0032-0028") == parse_move(start, "32-28")  # leading zeros are harmless
    with pytest.raises(draughts.InvalidPositionError) as raised:
        hub.parse_position("international", "W" + "e" * 100_000)
    assert len(str(raised.value)) < 400


_COMMANDS = ["pos", "level", "set-param", "go", "hub", "init", "new-game", "ping", "stop", "ponder-hit", "xyz"]
_ARGS = ["pos", "moves", "depth", "nodes", "move-time", "time", "inc", "infinite", "name", "value", "start"]
_VALUES = st.one_of(
    st.text(max_size=60),
    st.from_regex(r"[0-9]{1,6000}", fullmatch=True),
    st.from_regex(r"[WBwbe]{30,52}", fullmatch=True),
    st.from_regex(r"[0-9]{1,3}([-x][0-9]{1,3}){1,4}( [0-9]{1,3}-[0-9]{1,3}){0,3}", fullmatch=True),
    st.sampled_from(["variant", "level", "seed", "russian", "beginner", "nan", "-1", "1e999", "0", ""]),
)


@st.composite
def server_lines(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        return draw(st.text(max_size=80))
    words = [draw(st.sampled_from(_COMMANDS))]
    for _ in range(draw(st.integers(0, 4))):
        name = draw(st.sampled_from(_ARGS))
        value = draw(_VALUES)
        words.append(draw(st.sampled_from([f"{name}={value}", f'{name}="{value}"', name])))
    return " ".join(words)


@settings(max_examples=200, deadline=None)
@given(st.lists(server_lines(), min_size=1, max_size=6))
def test_server_answers_any_lines_with_well_formed_lines(lines: list[str]) -> None:
    out = io.StringIO()
    server = _Server("international", out)
    server.handle("set-param name=level value=beginner")  # keeps each go short
    goes = 0
    for line in lines:
        for part in line.splitlines() or [""]:
            assert server.handle(part)
            server.finish_search()
            with contextlib.suppress(HubError):  # a malformed line is refused whole
                goes += parse_line(part)[0] == "go"
    answers = [parse_line(text) for text in out.getvalue().splitlines()]  # strict: each one well-formed
    assert sum(command == "done" for command, _ in answers) == goes
    for command, args in answers:
        assert command in {"id", "param", "wait", "ready", "pong", "info", "done", "error"}
        if command == "error":
            assert len(args["message"]) < 1000


# --- the package: one module per concern, one command, the old names kept ---------------------

HUB_PACKAGE = pathlib.Path(hub.__file__).parent
OLD_PUBLIC_NAMES = [  # draughts.hub.__all__ when it was one module (move_text and parse_move, never released, renamed;
    # Clock: every player's, in draughts.players)
    *("HubEngine", "HubError", "HubParam", "HubResult", "format_line", "hub_move_text", "parse_line"),
    *("parse_hub_move", "parse_position", "position_text", "serve"),
]


def test_hub_is_a_package_of_small_modules_with_the_old_names() -> None:
    import ast

    assert hasattr(hub, "__path__")  # a package, no longer the 1,145-line module
    modules = {path.stem for path in HUB_PACKAGE.glob("*.py")}
    assert {"protocol", "text", "client", "server"} <= modules
    too_long = []
    for path in sorted(HUB_PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and (node.end_lineno or 0) - node.lineno >= 60:
                too_long.append(f"{path.name}:{node.name}")
            if isinstance(node, ast.ClassDef):
                assert node.name != "_Search", path.name  # two _Search classes in the library
    assert too_long == []
    assert [name for name in OLD_PUBLIC_NAMES if not hasattr(hub, name)] == []
    assert set(OLD_PUBLIC_NAMES) <= set(hub.__all__)


def test_python_m_draughts_hub_is_the_one_cli_command() -> None:
    assert not hasattr(hub, "main")  # its own argparse parser duplicated "draughts hub"
    for command in (ALIAS, SERVER, COMMAND):
        shown = subprocess.run([*command, "--help"], capture_output=True, text=True, timeout=60, check=True)
        assert shown.stdout.startswith("usage: draughts hub "), command
    refused = subprocess.run([*ALIAS, "--variant", "nonsense"], capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2
    assert refused.stderr.startswith("draughts hub: error: unknown variant 'nonsense'")


def test_hub_move_functions_say_they_are_hub_notation() -> None:
    position = Position.from_fen("russian", "W:Wc3,e3:Bd4")
    move = position.legal_moves()[0]
    assert hub.hub_move_text(position, move) == "22x15x18"
    assert parse_move(position, "c3:e5") == move  # draughts.notation's own notation, not Hub's
    assert hub.parse_hub_move(position, "22x15x18") == move
    assert not hasattr(hub, "move_text")
    assert not hasattr(hub, "parse_move")


# --- errors: bad input is a HubError (ValueError), a failed engine a HubEngineError (RuntimeError)


def test_engine_failures_are_runtime_errors_and_input_errors_value_errors() -> None:
    from draughts import errors

    for cls in (HubError, HubEngineError, HubEngineTerminatedError, HubEngineTimeoutError):
        assert cls.__module__ == "draughts.errors"
        assert getattr(errors, cls.__name__) is cls
    assert issubclass(HubError, draughts.DraughtsError)
    assert issubclass(HubEngineError, RuntimeError)
    assert not issubclass(HubEngineError, ValueError)  # an engine that died is no bad value
    assert issubclass(HubEngineTerminatedError, HubEngineError)
    assert issubclass(HubEngineTimeoutError, HubEngineError)
    with pytest.raises(HubError) as bad_line:
        parse_line('pos pos="W')
    assert isinstance(bad_line.value, ValueError)
    client = HubEngine([sys.executable, "-c", "import sys; sys.exit(4)"], timeout=5)
    with pytest.raises(HubEngineTerminatedError, match=r"exit code 4") as died:
        client.init("international")
    assert isinstance(died.value, RuntimeError)
    assert not isinstance(died.value, ValueError)
    with pytest.raises(HubError, match="search mode"):  # the caller's mistake, on a live engine
        client.go(Board("international"), mode="dream")
    client.quit()
    with pytest.raises(HubError, match="timeout"):
        HubEngine(SERVER, timeout=math.nan)


# --- the server: every bad request answered with a clear error, never "internal error" ---------

LONG_VARIANT = "russian" + "-nfc" * 330
"""A transform name deep enough to exhaust the recursion of a name resolver that recurses per suffix."""


def test_server_answers_a_huge_variant_name_clearly_and_goes_on(session: Session) -> None:
    session.send(f"set-param name=variant value={LONG_VARIANT}", "ping")
    replies = session.until("pong")
    errors = [args["message"] for command, args in replies if command == "error"]
    assert len(errors) <= 1  # refused with one error line, or (a resolver that reads it) taken
    if errors:
        assert "internal error" not in errors[0]
        assert "russian-nfc-nfc" in errors[0]  # it quotes the input ...
        assert len(errors[0]) < 1000  # ... in a bounded excerpt
        expected = Position.initial("international")
    else:
        expected = Position.initial(draughts.get_variant(LONG_VARIANT))
    session.send("level depth=1", "go think")
    errors, done = errors_and_done(session.until("done"))
    assert errors == []
    assert hub.parse_hub_move(expected, done["move"]) in expected.legal_moves()


def test_server_takes_only_names_for_the_variant(session: Session, tmp_path: pathlib.Path) -> None:
    # A GUI's line must not make the server read files or import modules.
    ruleset_file = tmp_path / "mine.json"
    draughts.save_ruleset(attrs.evolve(draughts.get_variant("russian"), name="mine"), ruleset_file)
    for value in (str(ruleset_file), "os:getcwd", "draughts.rules.variants:ITALIAN"):
        session.send(f"set-param name=variant value={value}", "ping")
        command, args = session.next()
        assert command == "error", value
        assert "unknown variant" in args["message"], value
        assert session.next()[0] == "pong"
    session.send("set-param name=variant value=normal", "set-param name=variant value=russian-nfc", "ping")
    assert session.next()[0] == "pong"  # Scan's name and a declared house rule are taken


_FUZZ_VALUES = st.one_of(
    _VALUES,
    st.builds(
        lambda n, suffix: "russian" + suffix * n,
        st.one_of(st.integers(0, 5), st.integers(330, 5000)),  # deeper than hypothesis raises the recursion limit
        st.sampled_from(["-nfc", "-losing"]),
    ),
    st.sampled_from(["²", "٣", "inf", "-inf", "1e308", "9" * 5000, "0x10", "1_000", " 1", "+1"]),
)
_READS = {  # the arguments each command reads, so that the fuzz reaches the code behind them
    "pos": ["pos", "moves", "start"],
    "level": ["depth", "nodes", "move-time", "time", "inc", "moves", "infinite"],
    "set-param": ["name", "value"],
    "go": ["think", "ponder", "analyze"],
}


@st.composite
def shaped_lines(draw: st.DrawFn) -> str:
    """A command with the arguments it reads, each written as ``name=value``, ``name="value"`` or a flag."""
    command = draw(st.sampled_from(_COMMANDS))
    words = [command]
    for _ in range(draw(st.integers(0, 4))):
        name = draw(st.sampled_from(_READS.get(command, _ARGS)))
        value = draw(_FUZZ_VALUES)
        words.append(draw(st.sampled_from([f"{name}={value}", f'{name}="{value}"', name])))
    return " ".join(words)


hostile_lines = st.one_of(
    st.text(max_size=80),
    shaped_lines(),
    st.builds("set-param name={} value={}".format, st.sampled_from(["variant", "level", "seed", "x"]), _FUZZ_VALUES),
    st.builds("level {}={}".format, st.sampled_from(_READS["level"]), _FUZZ_VALUES),
    st.builds('pos moves="{}"'.format, _FUZZ_VALUES),
)
"""Lines that reach every command with every kind of value (a name 1,300 characters long included)."""


@settings(max_examples=200, deadline=None)
@given(st.lists(hostile_lines, min_size=1, max_size=6))
@example([f"set-param name=variant value={LONG_VARIANT}", "set-param name=variant value=russian" + "-nfc" * 3000])
@example(["set-param name=level value=" + "9" * 5000, 'level time="1e308" inc=1e308 moves=1', "go"])
def test_fuzz_every_line_is_answered_and_the_server_keeps_serving(lines: list[str]) -> None:
    out = io.StringIO()
    server = _Server("international", out)
    server.handle("set-param name=level value=beginner")  # keeps each go short
    for line in lines:
        for part in line.splitlines() or [""]:
            if parse_line(part, strict=False)[0] == "quit":
                continue
            before = len(out.getvalue().splitlines())
            assert server.handle(part)
            server.finish_search()
            assert server.handle("ping")
            answers = [parse_line(text) for text in out.getvalue().splitlines()[before:]]  # strict: well-formed
            assert answers[-1] == ("pong", {}), part[:80]  # read, answered, and still serving
            errors = [args["message"] for command, args in answers if command == "error"]
            assert [message for message in errors if "internal error" in message] == [], part[:80]
            assert all(len(message) < 1000 for message in errors)
            if parse_line(part, strict=False)[0] == "go" and not errors:
                assert answers[-2][0] == "done"
                assert "move" in answers[-2][1]


@pytest.fixture(scope="module")
def shared_session() -> Iterator[Session]:
    server = Session()
    server.send("set-param name=level value=beginner", "ping")
    assert server.next()[0] == "pong"
    try:
        yield server
    finally:
        server.close()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.binary(max_size=120).map(lambda data: data.replace(b"\n", b" ").replace(b"\r", b" ")), max_size=5))
def test_fuzz_the_real_server_with_bytes(shared_session: Session, lines: list[bytes]) -> None:
    session = shared_session
    for line in lines:
        if parse_line(line.decode("utf-8", "replace"), strict=False)[0] == "quit":
            continue
        session.send(line, "ping")
        replies = session.until("pong")  # fails if the server dies or hangs
        assert all(command != "error" or "internal error" not in args["message"] for command, args in replies)


# --- the server's time: done close to the budget ------------------------------------------------


class StopOnlyEngine:
    """An engine whose search ignores its time limit and ends only when its stop flag is set.

    It stands for a search stuck where it cannot look at the clock (one long move generation):
    then only the server's alarm at the deadline ends it.
    """

    def __init__(self) -> None:
        self.limits: list[Limit] = []

    def search(self, game: Board | Position, limit: Limit, *, stop: threading.Event) -> SearchResult:
        self.limits.append(limit)
        stop.wait(60)
        position = game.position if isinstance(game, Board) else game
        best = position.legal_moves()[-1]  # "the best move found so far"
        return SearchResult(best, 0, (best,), 1, 1)

    def clear(self) -> None:
        pass


def wait_for_done(out: io.StringIO, deadline: float) -> dict[str, str]:
    ends = time.monotonic() + deadline
    while time.monotonic() < ends:
        for command, args in (parse_line(text) for text in out.getvalue().splitlines()):
            if command == "done":
                return args
        time.sleep(0.01)
    pytest.fail(f"no done within {deadline} s; the server said {out.getvalue()[-500:]!r}")


def test_server_sets_the_stop_flag_at_the_deadline_and_answers_the_best_move() -> None:
    out = io.StringIO()
    server = _Server("international", out)
    server.engine = engine = StopOnlyEngine()  # type: ignore[assignment]
    server.handle("level move-time=0.3")
    started = time.monotonic()
    server.handle("go think")
    done = wait_for_done(out, 30)  # without the alarm: 60 s, when the engine gives up waiting
    elapsed = time.monotonic() - started
    server.finish_search()
    start = Position.initial("international")
    assert done["move"] == hub.hub_move_text(start, start.legal_moves()[-1])
    assert elapsed < 0.3 + 10  # sleeping threads: a loaded machine delays them little, 10 s is generous
    (limit,) = engine.limits
    assert limit.time is not None
    assert limit.time <= 0.3  # the engine gets what is left of the budget counted from "go"


def test_server_alarm_survives_the_largest_times() -> None:
    out = io.StringIO()
    server = _Server("international", out)
    server.engine = StopOnlyEngine()  # type: ignore[assignment]
    for level in ("level move-time=1e39", "level moves=1 time=1.7e308 inc=1.7e308", "level time=9e307"):
        assert server.handle(level)
        assert server.handle("go")  # an alarm in 1e39 s would overflow the timer
        assert server.handle("stop")
        assert wait_for_done(out, 30)
        server.finish_search()
        assert "error" not in out.getvalue()
        out.seek(0)
        out.truncate()


HARD_FRISIAN = "W:WK9,K50:B3,K7,11,12,K15,K16,K18,K20,23,27,30,31,K32,34,36,K38,39,K43,K48"
"""Issue 23's position where ``level move-time=0.01`` then ``go`` took 3.8 s: a flying king's
captures over a crowd of kings, seconds of move generation."""


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) process ``pid`` has used: a measure a loaded machine does not inflate."""
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    import os

    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not pathlib.Path("/proc/self/stat").exists(), reason="reads CPU time from /proc (Linux)")
def test_server_answers_done_close_to_a_tiny_budget_on_a_hard_position(session: Session) -> None:
    """``go`` with 0.01 s costs the server one generation of the root's moves and little more.

    No legal move can be answered before the root's captures are known, and in this position they
    are 46 flying-king captures of up to 19 pieces, found among some 180,000 maximal sequences
    (Frisian's "most value" needs every one weighed): seconds of CPU that no deadline can cut short.
    What the server controls is everything else: it must not generate the root twice nor search
    past its budget once the root is known. Both measured in CPU time, which a loaded machine does
    not inflate.
    """
    position = Position.from_fen("frisian", HARD_FRISIAN)
    started = time.process_time()
    Position.from_fen("frisian", HARD_FRISIAN).legal_moves()
    root = time.process_time() - started
    session.send("set-param name=variant value=frisian", f"pos pos={hub.position_text(position)}")
    session.send("level move-time=0.01", "ping")
    assert session.next()[0] == "pong"
    before = cpu_seconds(session.process.pid)
    session.send("go think")
    replies: list[tuple[str, dict[str, str]]] = []
    while not replies or replies[-1][0] != "done":
        replies.append(session.next(deadline=300))  # wall time: only a hang fails here
    used = cpu_seconds(session.process.pid) - before
    errors, done = errors_and_done(replies)
    assert errors == []
    assert hub.parse_hub_move(position, done["move"]) in position.legal_moves()
    assert used < 1.5 * root + 0.5, f"go to done took {used:.2f} s of CPU; the root's moves alone take {root:.2f} s"


# --- numbers from the wire and the clock: huge, negative, NaN, infinite, non-ASCII digits ------

HOSTILE_NUMBERS = ["9" * 5000, "-5", "nan", "inf", "-inf", "1e999", "²", "٣", "１", "0x10", "1_0", ""]


@pytest.mark.parametrize(
    "template",
    [
        "level depth={}",
        "level nodes={}",
        "level move-time={}",
        "level time={}",
        "level time=10 inc={}",
        "level time=10 moves={}",
        "set-param name=seed value={}",
        'pos pos={start} moves="{}-28"',
    ],
)
def test_every_number_the_server_reads_refuses_hostile_values(template: str) -> None:
    out = io.StringIO()
    server = _Server("international", out)
    start = hub.position_text(Position.initial("international"))
    accepted = {"level time={}": {"-5"}}  # an overrun clock still gets a move
    for value in HOSTILE_NUMBERS:
        out.seek(0)
        out.truncate()
        assert server.handle(template.format(value, start=start))
        assert server.handle("ping")
        answers = [parse_line(text) for text in out.getvalue().splitlines()]
        assert answers[-1] == ("pong", {})
        if value in accepted.get(template, ()):
            assert len(answers) == 1, (template, value)
            continue
        assert [command for command, _ in answers] == ["error", "pong"], (template, value)
        message = answers[0][1]["message"]
        assert "internal error" not in message
        assert len(message) < 400, (template, value)


def test_clock_refuses_what_is_no_number_of_seconds_with_a_draughts_error() -> None:
    for bad in (
        {"time": 10**5000},  # OverflowError: int too large to convert to float
        {"time": 10**400},
        {"time": math.inf},
        {"time": -0.5},
        {"time": True},
        {"time": "60"},
        {"time": 60, "inc": math.nan},
        {"time": 60, "moves": 10**5000},  # accepted, then no line could carry it
        {"time": 60, "moves": -1},
    ):
        with pytest.raises(draughts.DraughtsError) as raised:
            Clock(**bad)
        assert len(str(raised.value)) < 200
    with pytest.raises(draughts.DraughtsError, match="integer of about 5,000 digits"):
        Clock(time=10**5000)
    assert Clock(time=10**9, inc=0.5, moves=40).time == 10**9


def test_client_writes_only_numbers_a_hub_reader_takes(tmp_path: pathlib.Path) -> None:
    record = tmp_path / "sent.txt"
    board = Board("international")
    with scripted("record", str(record)) as client:
        client.init("international")
        client.go(board, Limit(depth=10**5000, nodes=10**30))  # str() of the first is a ValueError
    sent = [line for line in record.read_text().splitlines() if line.startswith("level")]
    assert sent == ["level depth=999999999999999999", "level nodes=999999999999999999"]
    out = io.StringIO()
    server = _Server("international", out)
    for line in sent:
        assert server.handle(line)
    assert out.getvalue() == ""  # our own server reads them

"""The Hub protocol: drive external draughts engines, and serve the polydraughts engine to Hub GUIs.

Hub (version 2, as Scan 3 and the Hub GUI speak it) is a line protocol over an engine's standard
input and output. Every line is ``<command> <arg>=<value> ...``; a value is quoted with double
quotes when it holds a space or ``=`` or is empty, and an argument without ``=`` is a flag. Both
sides ignore commands and arguments they do not know. A session::

    GUI                                   engine
    hub                                   id name=... version=...
                                          param name=variant value=international type=enum values="..."
                                          wait
    set-param name=variant value=russian
    init                                  ready
    pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww
    level depth=6                         (or move-time=<s>, time=<s> [moves=<n>] [inc=<s>], infinite)
    go think                              info depth=6 score=0.12 nodes=5230 time=0.31 pv="..."
                                          done move=22-18 ponder=11-15
    quit

``stop`` ends a search early (the engine still answers ``done``), ``ping`` is answered ``pong``
(also during a search), ``new-game`` clears the engine's tables, ``error message="..."`` reports a
problem.

**Positions** (``pos pos=...``): the side to move (``W`` or ``B``), then one character per square
in the ruleset's square numbering, square 1 first: ``w``/``b`` for men, ``W``/``B`` for kings,
``e`` for an empty square. For International draughts that is Scan's 51 characters; on 8x8 boards
it is 33 characters, in the numbering FEN uses (Russian, Brazilian and Czech: 1 = b8 as seen from
White, 32 = g1). An optional ``moves="..."`` lists moves played from that position (for repetition
detection).

**Moves** are written with square numbers in the same numbering: ``32-28`` for a quiet move; a
capture as its start, its end and then every captured square in any order, joined by ``x``
(``28x19x23``: from 28 to 19, taking 23). :func:`move_text` writes them and :func:`parse_move`
reads them.

**Variants** travel in the engine parameter ``variant`` (Scan calls International ``normal``):
:class:`HubEngine` sets it before ``init`` when the engine declares it, and the server declares
every named variant and its no-forced-capture house rule.

>>> import draughts
>>> from draughts import hub
>>> hub.position_text(draughts.Position.initial("international"))
'Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww'
>>> pos = draughts.Position.from_fen("russian", "W:Wc3,e3:Bd4")  # c3 = 22, d4 = 18, e3 = 23
>>> hub.position_text(pos)
'Weeeeeeeeeeeeeeeeebeeewweeeeeeeee'
>>> [hub.move_text(pos, m) for m in pos.legal_moves()]
['22x15x18', '23x14x18']
>>> hub.parse_move(draughts.Position.from_fen("international", "W:WK47:B14,19,29,31,42"), "47x36x31x14x29x42")
Move(start=47, end=36, captured=(42, 29, 14, 31), path=(47, 38, 20, 9, 36))
"""

from __future__ import annotations

import argparse
import contextlib
import queue
import re
import shlex
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from typing import IO, TextIO

import attrs

from draughts import __version__
from draughts.board import Board
from draughts.color import Color
from draughts.engine import LEVELS, Engine, Limit, SearchResult, get_level
from draughts.errors import DraughtsError, IllegalMoveError, InvalidPositionError
from draughts.move import Move
from draughts.notation import matching_moves
from draughts.position import Piece, Position
from draughts.rules import Ruleset
from draughts.variants import VARIANTS, get_variant, no_forced_capture

__all__ = [
    "HubEngine",
    "HubError",
    "HubParam",
    "HubResult",
    "format_line",
    "move_text",
    "parse_line",
    "parse_move",
    "parse_position",
    "position_text",
    "serve",
]


class HubError(DraughtsError):
    """A Hub engine that misbehaves: it does not start, answers nonsense, times out or plays an illegal move."""


# --- line syntax --------------------------------------------------------------------------------

_TOKEN = re.compile(r'\s*([^\s=]+)(?:=("(?:[^"]*)"|[^\s"]*))?')


def parse_line(line: str) -> tuple[str, dict[str, str]]:
    """``(command, {argument: value})`` of a Hub line; a flag's value is ``""``.

    >>> parse_line('info depth=3 score=0.1 pv="32-28 19-23" stop')
    ('info', {'depth': '3', 'score': '0.1', 'pv': '32-28 19-23', 'stop': ''})
    """
    text = line.strip()
    if not text:
        return "", {}
    command, _, rest = text.partition(" ")
    args: dict[str, str] = {}
    position = 0
    rest = rest.strip()
    while position < len(rest):
        match = _TOKEN.match(rest, position)
        if match is None or match.end() == position:
            break
        name, value = match.group(1), match.group(2)
        if value is None:
            value = ""
        elif value.startswith('"') and value.endswith('"') and len(value) >= 2:
            value = value[1:-1]
        args[name] = value
        position = match.end()
    return command, args


def _quote(value: object) -> str:
    text = str(value)
    if not text or any(c.isspace() or c in '="' for c in text):
        return '"' + text.replace('"', "'") + '"'
    return text


def format_line(command: str, *flags: str, **args: object) -> str:
    """A Hub line; argument names are written with ``-`` for ``_`` (``move_time`` -> ``move-time``).

    >>> format_line("level", move_time=1.5)
    'level move-time=1.5'
    >>> format_line("error", message="bad pos")
    'error message="bad pos"'
    """
    parts = [command, *flags]
    parts.extend(f"{name.replace('_', '-')}={_quote(value)}" for name, value in args.items() if value is not None)
    return " ".join(parts)


# --- positions and moves ------------------------------------------------------------------------

_PIECE_CHARS = {
    (Color.WHITE, False): "w",
    (Color.BLACK, False): "b",
    (Color.WHITE, True): "W",
    (Color.BLACK, True): "B",
}
_CHAR_PIECES = {char: Piece(color, king) for (color, king), char in _PIECE_CHARS.items()}


def position_text(position: Position) -> str:
    """``position`` in Hub's format: the side to move, then one character per square (1 first)."""
    pieces = position.pieces()
    squares = []
    for square in range(1, position.ruleset.squares + 1):
        piece = pieces.get(square)
        squares.append("e" if piece is None else _PIECE_CHARS[piece.color, piece.king])
    return position.turn.letter + "".join(squares)


def parse_position(ruleset: Ruleset | str, text: str) -> Position:
    """The position a Hub ``pos`` value describes under ``ruleset``.

    Raises:
        InvalidPositionError: wrong length, an unknown character, or an impossible position.
    """
    rules = get_variant(ruleset)
    text = text.strip()
    if len(text) != rules.squares + 1:
        raise InvalidPositionError(
            f"Hub position {text!r} has {len(text)} characters; {rules.name} needs {rules.squares + 1} "
            "(the side to move, then one per square)"
        )
    if text[0] not in "WB":
        raise InvalidPositionError(f"Hub position {text!r} must start with the side to move, 'W' or 'B'")
    pieces = {}
    for square, char in enumerate(text[1:], 1):
        if char == "e":
            continue
        piece = _CHAR_PIECES.get(char)
        if piece is None:
            raise InvalidPositionError(f"Hub position {text!r}: square {square} is {char!r}, not one of w b W B e")
        pieces[square] = piece
    return Position.from_pieces(rules, pieces, Color.WHITE if text[0] == "W" else Color.BLACK)


def move_text(position: Position, move: Move) -> str:
    """``move`` (legal in ``position``) in Hub notation: numbers, captured squares after the end.

    Raises:
        IllegalMoveError: ``move`` is not legal in ``position``.
    """
    if not position.is_legal(move):
        raise IllegalMoveError(f"{move!r} is not legal in {position.fen()} ({position.ruleset.name})")
    if not move.captured:
        return f"{move.start}-{move.end}"
    return "x".join(str(square) for square in (move.start, move.end, *move.captured))


_HUB_MOVE = re.compile(r"[0-9]+(?:[-x][0-9]+)+")


def parse_move(position: Position, text: str) -> Move:
    """The legal move of ``position`` a Hub move names (start, end, captured squares in any order).

    Text in another notation the library reads (:func:`draughts.notation.matching_moves`) is
    accepted when it names exactly one legal move.

    Raises:
        InvalidMoveError: ``text`` is no move text.
        IllegalMoveError: no legal move matches.
    """
    cleaned = text.strip()
    if _HUB_MOVE.fullmatch(cleaned):
        squares = [int(part) for part in re.split(r"[-x]", cleaned)]
        start, end, captured = squares[0], squares[1], sorted(squares[2:])
        for move in position.legal_moves():
            if move.start == start and move.end == end and sorted(move.captured) == captured:
                return move
    found = matching_moves(position, cleaned)
    if len(found) == 1:
        return found[0]
    raise IllegalMoveError(f"Hub move {text!r} is not legal in {position.fen()} ({position.ruleset.name})")


def _variant_value(rules: Ruleset) -> str:
    return rules.name


def _hub_variants() -> list[str]:
    names = list(VARIANTS)
    return names + [no_forced_capture(VARIANTS[name]).name for name in names]


def _ruleset_of(value: str) -> Ruleset:
    return get_variant(value)


def _engine_name(rules: Ruleset, choices: Sequence[str]) -> str | None:
    """The name among an engine's ``choices`` that means ``rules`` (its own name or an alias)."""
    for choice in choices:
        try:
            if get_variant(choice) == rules:
                return choice
        except DraughtsError:
            continue
    return None


# --- the client ---------------------------------------------------------------------------------


@attrs.frozen
class HubParam:
    """A parameter an engine declares (``param name=... value=... type=...``)."""

    name: str
    value: str
    type: str = "string"
    values: tuple[str, ...] = ()
    """The choices of an ``enum`` parameter."""
    min: str | None = None
    max: str | None = None


@attrs.frozen
class HubResult:
    """An external engine's answer to ``go``.

    Attributes:
        move: The move, legal in the searched position.
        ponder: The reply the engine expects, if it gave one (and it is legal).
        info: The last ``info`` line's arguments (``depth``, ``score``, ``pv`` ...).
        text: The move as the engine wrote it.
    """

    move: Move
    ponder: Move | None
    info: Mapping[str, str]
    text: str


_EOF = object()


class HubEngine:
    """An external Hub engine, started as a process.

    >>> # engine = HubEngine(["./scan", "hub"]); engine.init("international")
    >>> # result = engine.go(board, Limit(time=1)); board.push(result.move); engine.quit()

    Args:
        command: The program and its arguments (a list, or a string split like a shell would).
        timeout: Seconds to wait for any answer beyond the search's own time.
        cwd: The engine's working directory (Scan reads its data files from there).
    """

    def __init__(self, command: Sequence[str] | str, *, timeout: float = 10.0, cwd: str | None = None) -> None:
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        self.timeout = timeout
        try:
            self.process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                encoding="utf-8",
                bufsize=1,
                cwd=cwd,
            )
        except OSError as error:
            raise HubError(f"cannot start Hub engine {self.command!r}: {error.strerror}") from None
        self._lines: queue.Queue[object] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.id: dict[str, str] = {}
        """What the engine said about itself (``name``, ``version``, ``author`` ...)."""
        self.params: dict[str, HubParam] = {}
        """The parameters the engine declared, by name."""
        self.errors: list[str] = []
        """Messages of the engine's ``error`` lines."""
        self.ruleset: Ruleset | None = None

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        for line in stream:
            self._lines.put(line.rstrip("\r\n"))
        self._lines.put(_EOF)

    def send(self, line: str) -> None:
        """Send one line to the engine."""
        stream = self.process.stdin
        if stream is None or self.process.poll() is not None:
            raise HubError(f"Hub engine {self.command[0]!r} has exited")
        try:
            stream.write(line + "\n")
            stream.flush()
        except (BrokenPipeError, OSError):
            raise HubError(f"Hub engine {self.command[0]!r} has exited") from None

    def receive(self, timeout: float | None = None) -> tuple[str, dict[str, str]]:
        """The next line from the engine, parsed; :class:`HubError` after ``timeout`` seconds or at exit."""
        wait = self.timeout if timeout is None else timeout
        try:
            item = self._lines.get(timeout=max(wait, 0.0))
        except queue.Empty:
            raise HubError(f"Hub engine {self.command[0]!r} did not answer within {wait:g} s") from None
        if item is _EOF:
            self._lines.put(_EOF)
            raise HubError(f"Hub engine {self.command[0]!r} has exited")
        assert isinstance(item, str)
        command, args = parse_line(item)
        if command == "error":
            self.errors.append(args.get("message", ""))
        return command, args

    def _expect(self, wanted: str, timeout: float | None = None) -> dict[str, str]:
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            command, args = self.receive(deadline - time.monotonic())
            if command == wanted:
                return args
            if command == "id":
                self.id.update(args)
            elif command == "param" and "name" in args:
                self.params[args["name"]] = HubParam(
                    args["name"],
                    args.get("value", ""),
                    args.get("type", "string"),
                    tuple(args.get("values", "").split()),
                    args.get("min"),
                    args.get("max"),
                )

    def init(self, variant: Ruleset | str | None = None, params: Mapping[str, object] | None = None) -> None:
        """The initialisation: ``hub``, the parameters (``variant`` first), ``init``, until ``ready``.

        Raises:
            HubError: the engine declares a ``variant`` parameter whose choices do not include the
                ruleset, or does not answer.
        """
        self.send("hub")
        self._expect("wait")
        settings: dict[str, object] = {}
        if variant is not None:
            rules = get_variant(variant)
            self.ruleset = rules
            declared = self.params.get("variant")
            if declared is not None:
                value = _variant_value(rules)
                choices = declared.values
                if choices and value not in choices:
                    alias = _engine_name(rules, choices)
                    if alias is not None:
                        value = alias
                    else:
                        raise HubError(
                            f"Hub engine {self.id.get('name', self.command[0])!r} does not play {rules.name}; "
                            f"its variants: {', '.join(choices)}"
                        )
                if value != declared.value:
                    settings["variant"] = value
        settings.update(params or {})
        for name, setting in settings.items():
            self.send(format_line("set-param", name=name, value=setting))
        self.send("init")
        self._expect("ready")

    def new_game(self) -> None:
        """Tell the engine the next search is unrelated to the previous ones."""
        self.send("new-game")

    def ping(self) -> None:
        """``ping``, waiting for ``pong``."""
        self.send("ping")
        self._expect("pong")

    def go(self, game: Board | Position, limit: Limit | None = None, *, mode: str = "think") -> HubResult:
        """Search ``game`` and return the engine's move.

        The position is sent as Hub does: from the last capture or man move, with the king moves
        played since as ``moves`` (for repetition detection). ``limit`` becomes a ``level`` line
        (``depth=``, ``move-time=``, and the non-standard ``nodes=`` that some engines read); with
        no limit the engine uses its own settings. Without an answer ``timeout`` seconds after the
        time limit, ``stop`` is sent; without an answer to that, :class:`HubError`.

        Raises:
            HubError: no answer, or an illegal move.
        """
        board = game if isinstance(game, Board) else Board.from_position(game)
        position = board.position
        if not position.legal_moves():
            raise HubError(f"no legal move to search for in {position.fen()}")
        rules = position.ruleset
        if self.ruleset is not None and rules != self.ruleset:
            raise HubError(f"the engine was initialised for {self.ruleset.name}, not {rules.name}")
        start, moves = _reversible_tail(board)
        args: dict[str, object] = {"pos": position_text(start)}
        if moves:
            texts = []
            for move in moves:
                texts.append(move_text(start, move))
                start = start.play(move)
            args["moves"] = " ".join(texts)
        self.send(format_line("pos", **args))
        if limit is not None:
            self.send(format_line("level", depth=limit.depth, move_time=limit.time, nodes=limit.nodes))
        self.send(format_line("go", mode))
        budget = (limit.time if limit is not None and limit.time is not None else 0.0) + self.timeout
        deadline = time.monotonic() + budget
        info: dict[str, str] = {}
        stopped = False
        while True:
            try:
                command, reply = self.receive(deadline - time.monotonic())
            except HubError:
                if stopped or self.process.poll() is not None:
                    raise
                self.send("stop")
                stopped = True
                deadline = time.monotonic() + self.timeout
                continue
            if command == "info":
                info = reply
            elif command == "done":
                break
        text = reply.get("move", "")
        try:
            move = parse_move(position, text)
        except DraughtsError:
            raise HubError(f"Hub engine played {text!r}, which is not legal in {position.fen()}") from None
        ponder = None
        if reply.get("ponder"):
            try:
                ponder = parse_move(position.play(move), reply["ponder"])
            except DraughtsError:
                ponder = None
        return HubResult(move, ponder, info, text)

    def stop(self) -> None:
        """Ask the engine to end its search (it still answers ``done``)."""
        self.send("stop")

    def quit(self, timeout: float = 5.0) -> None:
        """``quit``, then wait for the process to end (killing it after ``timeout`` seconds)."""
        if self.process.poll() is None:
            with contextlib.suppress(HubError):
                self.send("quit")
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def __enter__(self) -> HubEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.quit()


def _reversible_tail(board: Board) -> tuple[Position, list[Move]]:
    """The position after the last capture or man move, and the king moves played since."""
    positions = board.positions()
    moves = board.move_stack
    index = len(moves)
    while index > 0:
        move = moves[index - 1]
        piece = positions[index - 1].piece_at(move.start)
        if move.captured or piece is None or not piece.king:
            break
        index -= 1
    return positions[index], moves[index:]


# --- the server ---------------------------------------------------------------------------------


class _Server:
    """The polydraughts engine behind the Hub protocol."""

    def __init__(self, variant: Ruleset | str, stdout: TextIO) -> None:
        self.rules = get_variant(variant)
        self.out = stdout
        self.lock = threading.Lock()
        self.level = "strong"
        self.seed = 0
        self.engine = self._engine()
        self.board: Board | None = None
        self.limit: Limit | None = None
        self.search: threading.Thread | None = None
        self.stop_event = threading.Event()

    def _engine(self) -> Engine:
        return get_level(self.level).engine(self.seed)

    def say(self, line: str) -> None:
        with self.lock:
            self.out.write(line + "\n")
            self.out.flush()

    def error(self, message: str) -> None:
        self.say(format_line("error", message=message))

    def handle(self, line: str) -> bool:
        """Act on one line; False to quit."""
        command, args = parse_line(line)
        if command not in ("ping", "stop", "ponder-hit", "quit") and self.search is not None:
            self.search.join()  # only those may come during a search; others wait for its "done"
            self.search = None
        if command == "quit":
            self.stop_event.set()
            if self.search is not None:
                self.search.join()
            return False
        if command == "ping":
            self.say("pong")
        elif command == "stop":
            self.stop_event.set()
        elif command == "ponder-hit":
            pass  # a ponder search is an ordinary search here
        elif command == "hub":
            self.say(format_line("id", name="polydraughts", version=__version__, author="polydraughts developers"))
            self.say(
                format_line(
                    "param", name="variant", value=self.rules.name, type="enum", values=" ".join(_hub_variants())
                )
            )
            self.say(format_line("param", name="level", value=self.level, type="enum", values=" ".join(LEVELS)))
            self.say(format_line("param", name="seed", value=self.seed, type="int", min=0, max=2**31 - 1))
            self.say("wait")
        elif command == "set-param":
            self._set_param(args.get("name", ""), args.get("value", ""))
        elif command == "init":
            self.engine = self._engine()
            self.say("ready")
        elif command == "new-game":
            self.engine.clear()
        elif command == "pos":
            self._pos(args)
        elif command == "level":
            self._level(args)
        elif command == "go":
            self._go()
        elif command:
            pass  # unknown commands are ignored, as the protocol asks
        return True

    def _set_param(self, name: str, value: str) -> None:
        try:
            if name == "variant":
                self.rules = _ruleset_of(value)
            elif name == "level":
                self.level = get_level(value).name
            elif name == "seed":
                self.seed = int(value)
        except (DraughtsError, ValueError) as error:
            self.error(f"set-param {name}={value}: {error}")

    def _pos(self, args: Mapping[str, str]) -> None:
        try:
            position = parse_position(self.rules, args.get("pos", ""))
            board = Board.from_position(position)
            for text in args.get("moves", "").split():
                board.push(parse_move(board.position, text))
        except DraughtsError as error:
            self.board = None
            self.error(f"pos: {error}")
            return
        self.board = board

    def _level(self, args: Mapping[str, str]) -> None:
        try:
            depth = int(args["depth"]) if "depth" in args else None
            nodes = int(args["nodes"]) if "nodes" in args else None
            seconds: float | None = None
            if "move-time" in args:
                seconds = float(args["move-time"])
            elif "time" in args:
                remaining = float(args["time"])
                moves = int(args.get("moves") or 30)
                seconds = min(remaining / max(moves, 1) + float(args.get("inc") or 0), remaining / 2)
            if "infinite" in args:
                self.limit = Limit()
            else:
                self.limit = Limit(depth=depth, nodes=nodes, time=seconds if seconds and seconds > 0 else None)
        except (DraughtsError, ValueError) as error:
            self.error(f"level: {error}")

    def _go(self) -> None:
        if self.board is None:
            self.error("go: no position (send pos first)")
            return
        board = self.board
        limit = self.limit if self.limit is not None else get_level(self.level).limit
        self.stop_event = threading.Event()
        stop = self.stop_event
        self.search = threading.Thread(target=self._think, args=(board, limit, stop), daemon=True)
        self.search.start()

    def _think(self, board: Board, limit: Limit, stop: threading.Event) -> None:
        started = time.perf_counter()
        try:
            result = self.engine.search(board, limit, stop=stop)
        except Exception as error:  # an engine failure must still answer the GUI
            self.error(f"search failed: {error}")
            return
        if result.move is None:
            self.error("go: the game is over in this position")
            return
        seconds = time.perf_counter() - started
        position = board.position
        self.say(_info_line(position, result, seconds))
        ponder = None
        if len(result.pv) > 1:
            ponder = move_text(position.play(result.move), result.pv[1])
        self.say(format_line("done", move=move_text(position, result.move), ponder=ponder))


def _info_line(position: Position, result: SearchResult, seconds: float) -> str:
    pv = []
    current = position
    for move in result.pv:
        pv.append(move_text(current, move))
        current = current.play(move)
    mate = result.mate_in
    if mate is not None:  # like Scan's +/-99.xx "the game ends soon": 99.99 less a hundredth per ply
        score = f"{(99.99 - min(abs(mate), 99) / 100) * (1 if mate > 0 else -1):.2f}"
    else:
        score = f"{result.score / 100:.2f}"
    return format_line(
        "info",
        depth=result.depth,
        score=score,
        nodes=result.nodes,
        time=f"{seconds:.3f}",
        nps=f"{result.nodes / max(seconds, 1e-6) / 1e6:.3f}",
        pv=" ".join(pv),
    )


def serve(
    *, variant: Ruleset | str = "international", stdin: IO[str] | None = None, stdout: TextIO | None = None
) -> None:
    """Run the polydraughts engine as a Hub engine until ``quit`` or the end of input.

    The engine declares the parameters ``variant`` (any named variant or ``<name>-nfc``; ``normal``
    is read as International), ``level`` (the :data:`~draughts.engine.LEVELS`: the default search
    limit and style) and ``seed``. ``level`` lines set the limit of the next searches; besides the
    standard forms they may give ``nodes=``.
    """
    source = sys.stdin if stdin is None else stdin
    server = _Server(variant, sys.stdout if stdout is None else stdout)
    for line in source:
        if not server.handle(line):
            return
    server.stop_event.set()
    if server.search is not None:
        server.search.join()


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m draughts.hub [--variant NAME]``: the Hub engine on standard input and output."""
    parser = argparse.ArgumentParser(prog="python -m draughts.hub", description=main.__doc__)
    parser.add_argument("--variant", default="international", help="variant until a GUI sets one")
    args = parser.parse_args(argv)
    try:
        serve(variant=args.variant)
    except DraughtsError as error:
        print(f"draughts hub: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())

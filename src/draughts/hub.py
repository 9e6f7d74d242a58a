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
    level depth=6                         (or nodes=<n>, move-time=<s>, [moves=<n>] time=<s> [inc=<s>], infinite)
    go think                              info depth=6 score=0.12 nodes=5230 time=0.31 pv="..."
                                          done move=22-18 ponder=11-15
    quit

A search always ends with ``done``; ``stop`` ends it early, ``ponder-hit`` turns a ``go ponder``
search into an ordinary one, and ``ping`` is answered ``pong`` (also during a search).
``new-game`` clears the engine's tables and ``error message="..."`` reports a problem.

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
import collections
import contextlib
import math
import queue
import re
import shlex
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import IO, TextIO

import attrs

from draughts import __version__
from draughts._text import excerpt, number
from draughts.board import Board
from draughts.color import Color
from draughts.engine import LEVELS, Engine, InvalidLimitError, Limit, SearchResult, get_level
from draughts.errors import AmbiguousMoveError, DraughtsError, IllegalMoveError, InvalidPositionError
from draughts.move import Move
from draughts.notation import matching_moves
from draughts.position import Piece, Position
from draughts.rules import Ruleset
from draughts.variants import VARIANTS, get_variant, no_forced_capture

__all__ = [
    "Clock",
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
    """A Hub line that does not parse, or a Hub engine that misbehaves.

    An engine that does not start, exits, answers nonsense or ``error``, times out or plays an
    illegal move; the message quotes what the engine said (its ``error`` lines, and the end of its
    error output when it exited).
    """


# --- line syntax --------------------------------------------------------------------------------

_NAME = re.compile(r'[^\s="]+')
_UNQUOTED = re.compile(r'[^\s"]*')


def _skip_blank(text: str, position: int) -> int:
    while position < len(text) and text[position].isspace():
        position += 1
    return position


def parse_line(line: str, *, strict: bool = True) -> tuple[str, dict[str, str]]:
    """``(command, {argument: value})`` of a Hub line; a flag's value is ``""``.

    >>> parse_line('info depth=3 score=0.1 pv="32-28 19-23" stop')
    ('info', {'depth': '3', 'score': '0.1', 'pv': '32-28 19-23', 'stop': ''})

    Args:
        line: The line (surrounding white space, a line end included, is ignored).
        strict: Raise on a malformed line. With False, what parses is returned and the rest is
            dropped, as a reader that ignores what it does not understand may prefer.

    Raises:
        HubError: (``strict`` only) a quoted value is not closed, or something other than
            ``name`` or ``name=value`` stands where an argument should.
    """
    text = line.strip()
    if not text:
        return "", {}
    command = _NAME.match(text)
    if command is None:
        if strict:
            raise HubError(f"Hub line {excerpt(line)} does not start with a command")
        return "", {}
    args: dict[str, str] = {}
    position = _skip_blank(text, command.end())
    while position < len(text):
        problem = None
        name = _NAME.match(text, position)
        if name is None:
            problem = f"{text[position]!r} at character {position + 1} starts no argument"
        else:
            position = name.end()
            value = ""
            if text.startswith("=", position):
                position += 1
                if text.startswith('"', position):
                    closing = text.find('"', position + 1)
                    if closing < 0:
                        problem = f"the quoted value of {excerpt(name.group())} is not closed"
                    else:
                        value = text[position + 1 : closing]
                        position = closing + 1
                else:
                    unquoted = _UNQUOTED.match(text, position)
                    assert unquoted is not None  # [^...]* matches everywhere
                    value = unquoted.group()
                    position = unquoted.end()
            if problem is None:
                args[name.group()] = value
                if position < len(text) and not text[position].isspace():
                    problem = f"{text[position]!r} at character {position + 1} follows {excerpt(name.group())}"
        if problem is not None:
            if strict:
                raise HubError(f"Hub line {excerpt(line)} is malformed: {problem}")
            break
        position = _skip_blank(text, position)
    return command.group(), args


def _quote(value: object) -> str:
    # A line end or other control character inside a value would split or corrupt the line.
    text = "".join(" " if (ord(c) < 32 or ord(c) == 127) else c for c in str(value)).replace('"', "'")
    if not text or any(c.isspace() or c == "=" for c in text):
        return '"' + text + '"'
    return text


def format_line(command: str, *flags: str, **args: object) -> str:
    """A Hub line; argument names are written with ``-`` for ``_`` (``move_time`` -> ``move-time``).

    Arguments whose value is None are left out. A value with a space, ``=`` or nothing is quoted;
    a double quote inside a value becomes ``'`` and a control character (a line end) a space, so
    the result is always one well-formed line.

    >>> format_line("level", move_time=1.5)
    'level move-time=1.5'
    >>> print(format_line("error", message='bad "pos"'))
    error message="bad 'pos'"
    """
    parts = [command, *flags]
    parts.extend(f"{name.replace('_', '-')}={_quote(value)}" for name, value in args.items() if value is not None)
    return " ".join(parts)


def _seconds_text(seconds: float) -> str:
    """Seconds as plain decimals (``1.5``, ``291.587``): every engine reads those, not all read ``1e-05``."""
    return f"{seconds:.3f}".rstrip("0").rstrip(".") or "0"


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
    if not isinstance(text, str):
        raise TypeError(f"a Hub position is text, not {type(text).__name__}")
    text = text.strip()
    if len(text) != rules.squares + 1:
        raise InvalidPositionError(
            f"Hub position {excerpt(text)} has {len(text):,} characters; {rules.name} needs {rules.squares + 1} "
            "(the side to move, then one per square)"
        )
    if text[0] not in "WB":
        raise InvalidPositionError(f"Hub position {excerpt(text)} must start with the side to move, 'W' or 'B'")
    pieces = {}
    for square, char in enumerate(text[1:], 1):
        if char == "e":
            continue
        piece = _CHAR_PIECES.get(char)
        if piece is None:
            raise InvalidPositionError(
                f"Hub position {excerpt(text)}: square {square} is {char!r}, not one of w b W B e"
            )
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
        AmbiguousMoveError: text in another notation matches several legal moves.
    """
    if not isinstance(text, str):
        raise TypeError(f"a Hub move is text, not {type(text).__name__}")
    cleaned = text.strip()
    if _HUB_MOVE.fullmatch(cleaned):
        squares = []
        for part in re.split(r"[-x]", cleaned):
            square = number(part)  # not int(): past CPython's 4,300-digit limit that is a plain ValueError
            if square is None or square > position.ruleset.squares:
                raise IllegalMoveError(
                    f"Hub move {excerpt(text)} names a square {position.ruleset.name} does not have "
                    f"(1 to {position.ruleset.squares})"
                )
            squares.append(square)
        start, end, captured = squares[0], squares[1], sorted(squares[2:])
        for move in position.legal_moves():
            if move.start == start and move.end == end and sorted(move.captured) == captured:
                return move
    found = matching_moves(position, cleaned)
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        raise AmbiguousMoveError(
            f"Hub move {excerpt(text)} matches {len(found)} legal moves in {position.fen()} ({position.ruleset.name})"
        )
    raise IllegalMoveError(f"Hub move {excerpt(text)} is not legal in {position.fen()} ({position.ruleset.name})")


def _variant_value(rules: Ruleset) -> str:
    return rules.name


def _hub_variants(custom: Mapping[str, Ruleset] | None = None) -> list[str]:
    names = list(VARIANTS)
    return names + [no_forced_capture(VARIANTS[name]).name for name in names] + list(custom or ())


def _custom_variants(rules: Ruleset) -> dict[str, Ruleset]:
    """A ruleset the server starts with that no name finds (a ruleset file), and its house rule, by name."""
    try:
        if get_variant(rules.name) == rules:
            return {}
    except DraughtsError:
        pass
    return {item.name: item for item in (rules, no_forced_capture(rules))}


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


def _check_seconds(instance: object, attribute: attrs.Attribute[float], value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (math.isfinite(value) and value >= 0):
        raise InvalidLimitError(f"clock {attribute.name} {value!r} must be a finite number of seconds, 0 or more")


def _check_moves(instance: object, attribute: attrs.Attribute[int | None], value: object) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise InvalidLimitError(f"clock moves {value!r} must be a positive whole number or None")


@attrs.frozen
class Clock:
    """The engine's game clock, sent as ``level [moves=...] time=... [inc=...]``: the engine shares its time out.

    Attributes:
        time: Seconds left on the engine's clock, without this move's increment (the engine adds
            it before the move, as the protocol says).
        inc: Seconds added to the clock before each move (Fischer time control).
        moves: Moves left to play before the next time control, or None for sudden death.
    """

    time: float = attrs.field(validator=_check_seconds)
    inc: float = attrs.field(default=0.0, validator=_check_seconds)
    moves: int | None = attrs.field(default=None, validator=_check_moves)


_EOF = object()
_MODES = ("think", "ponder", "analyze")


@attrs.define
class _Pending:
    """A search sent to the engine whose ``done`` has not been read yet."""

    position: Position
    pos_line: str
    errors_before: int
    """How many ``error`` lines had been read when the search was sent: later ones belong to it."""
    budget: float
    """Seconds the engine may think, by the limit and clock sent (0 when they set no time)."""


class HubEngine:
    """An external Hub engine, started as a process.

    >>> # engine = HubEngine(["./scan", "hub"]); engine.init("international")
    >>> # result = engine.go(board, Limit(time=1)); board.push(result.move); engine.quit()

    Args:
        command: The program and its arguments (a list, or a string split like a shell would).
        timeout: Seconds to wait for any answer beyond the search's own time.
        cwd: The engine's working directory (Scan reads its data files from there).

    Raises:
        HubError: the program cannot be started.
    """

    _STDERR_LINES = 20

    def __init__(self, command: Sequence[str] | str, *, timeout: float = 10.0, cwd: str | None = None) -> None:
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.command:
            raise HubError("no Hub engine command given")
        self.timeout = timeout
        try:
            self.process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                cwd=cwd,
            )
        except OSError as error:
            raise HubError(f"cannot start Hub engine {self.command!r}: {error.strerror}") from None
        self._lines: queue.Queue[object] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=self._STDERR_LINES)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_reader.start()
        self._pending: _Pending | None = None
        self.id: dict[str, str] = {}
        """What the engine said about itself (``name``, ``version``, ``author`` ...)."""
        self.params: dict[str, HubParam] = {}
        """The parameters the engine declared, by name."""
        self.errors: list[str] = []
        """Messages of the engine's ``error`` lines, oldest first."""
        self.ruleset: Ruleset | None = None

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        with contextlib.suppress(OSError, ValueError):  # the stream closed under us by quit()
            for line in stream:
                self._lines.put(line.rstrip("\r\n"))
        self._lines.put(_EOF)

    def _read_stderr(self) -> None:
        # Drained all the time, so a chatty engine never blocks on a full pipe; the last lines are
        # kept to explain an exit.
        stream = self.process.stderr
        assert stream is not None
        with contextlib.suppress(OSError, ValueError):
            for line in stream:
                text = line.rstrip("\r\n")
                if text.strip():
                    self._stderr.append(text if len(text) <= 200 else text[:200] + "...")

    @property
    def _name(self) -> str:
        return self.id.get("name") or self.command[0]

    def _failure(self, what: str, errors_before: int | None = None) -> HubError:
        """A HubError saying ``what`` happened, with the engine's ``error`` lines since ``errors_before``."""
        message = f"Hub engine {self._name!r} {what}"
        if errors_before is not None:
            reported = self.errors[errors_before:]
            if reported:
                shown = "; ".join(excerpt(text, 300) for text in reported[-3:])
                more = f" (and {len(reported) - 3} more)" if len(reported) > 3 else ""
                message += f"; it reported error {shown}{more}"
        return HubError(message)

    def _exited(self, errors_before: int | None = None) -> HubError:
        """The HubError for an engine that has gone: its exit code and the end of its error output."""
        code = None
        with contextlib.suppress(subprocess.TimeoutExpired):
            code = self.process.wait(2.0)
        self._stderr_reader.join(2.0)  # the rest of its error output
        error = self._failure("has exited" + ("" if code is None else f" (exit code {code})"), errors_before)
        if self._stderr:
            tail = " | ".join(self._stderr)
            if len(tail) > 600:
                tail = "..." + tail[-600:]
            error = HubError(f"{error}; its error output ends: {tail}")
        return error

    def send(self, line: str) -> None:
        """Send one line to the engine.

        Raises:
            HubError: the engine has exited.
        """
        stream = self.process.stdin
        if stream is None or self.process.poll() is not None:
            raise self._exited()
        try:
            stream.write(line + "\n")
            stream.flush()
        except (OSError, ValueError):  # a broken pipe, or the stream closed by quit()
            raise self._exited() from None

    def _next(self, deadline: float, errors_before: int | None = None) -> tuple[str, dict[str, str]] | None:
        """The next line (parsed leniently, ``error`` lines recorded), or None at ``deadline``."""
        try:
            item = self._lines.get(timeout=max(deadline - time.monotonic(), 0.0))
        except queue.Empty:
            return None
        if item is _EOF:
            self._lines.put(_EOF)
            raise self._exited(errors_before)
        assert isinstance(item, str)
        command, args = parse_line(item, strict=False)
        if command == "error":
            self.errors.append(args.get("message", item))
        return command, args

    def receive(self, timeout: float | None = None) -> tuple[str, dict[str, str]]:
        """The next line from the engine, parsed; ``error`` lines are also added to :attr:`errors`.

        Raises:
            HubError: no line within ``timeout`` seconds (default: the engine's), or the engine exited.
        """
        wait = self.timeout if timeout is None else timeout
        reply = self._next(time.monotonic() + wait)
        if reply is None:
            raise self._failure(f"did not answer within {wait:g} s")
        return reply

    def _expect(self, wanted: str, errors_before: int) -> dict[str, str]:
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._next(deadline, errors_before)
            if reply is None:
                raise self._failure(f"did not answer {wanted!r} within {self.timeout:g} s", errors_before)
            command, args = reply
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
                ruleset, does not answer, or exits (the message then ends with its error output).
        """
        errors_before = len(self.errors)
        self.send("hub")
        self._expect("wait", errors_before)
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
                            f"Hub engine {self._name!r} does not play {rules.name}; its variants: {', '.join(choices)}"
                        )
                if value != declared.value:
                    settings["variant"] = value
        settings.update(params or {})
        for name, setting in settings.items():
            self.send(format_line("set-param", name=name, value=setting))
        self.send("init")
        self._expect("ready", errors_before)

    def new_game(self) -> None:
        """Tell the engine the next search is unrelated to the previous ones."""
        self.send("new-game")

    def ping(self) -> None:
        """``ping``, waiting for ``pong``."""
        self.send("ping")
        self._expect("pong", len(self.errors))

    def go(
        self, game: Board | Position, limit: Limit | None = None, *, mode: str = "think", clock: Clock | None = None
    ) -> HubResult:
        """Search ``game`` and return the engine's move.

        The position is sent as Hub does: from the last capture or man move, with the king moves
        played since as ``moves`` (for repetition detection). ``limit`` becomes ``level`` lines
        (``depth=``, ``nodes=``, ``move-time=``; an empty :class:`~draughts.engine.Limit` is
        ``level infinite``), and ``clock`` the line ``level [moves=] time= [inc=]``; with neither the
        engine uses its own settings. A search started by :meth:`ponder` is stopped first.

        Without an answer ``timeout`` seconds after the time the limit or clock allows, ``stop``
        is sent. An ``error`` line during the search also sends ``stop``; the engine's answer is then
        not used.

        Raises:
            HubError: no answer, an illegal move, an engine that refused the position or reported
                an error during the search (the message quotes it), or an engine that exited (the
                message ends with its error output).
        """
        self._abandon()
        return self._finish(self._start(game, limit, clock, mode))

    def ponder(self, game: Board | Position, limit: Limit | None = None, *, clock: Clock | None = None) -> None:
        """Start a ``go ponder`` search of ``game`` (usually with the expected reply pushed) and return at once.

        Then :meth:`ponder_hit` if the opponent played the expected move, else :meth:`stop`
        (and a new :meth:`go`, which also stops it).
        """
        self._abandon()
        self._pending = self._start(game, limit, clock, "ponder")

    def ponder_hit(self) -> HubResult:
        """``ponder-hit``: the ponder search goes on as an ordinary one; its move.

        Raises:
            HubError: no :meth:`ponder` search is under way, or as for :meth:`go`.
        """
        pending = self._pending
        if pending is None:
            raise HubError("ponder_hit() without a ponder search: call ponder() first")
        self._pending = None
        self.send("ponder-hit")
        return self._finish(pending)

    def stop(self) -> HubResult | None:
        """Ask the engine to end its search (it still answers ``done``).

        Returns:
            The answer of the :meth:`ponder` search under way, if any (else None: the ``done`` of a
            search started by hand with :meth:`send` is left to read).
        """
        self.send("stop")
        pending = self._pending
        if pending is None:
            return None
        self._pending = None
        return self._finish(pending, stopped=True)

    def _abandon(self) -> None:
        """Stop a ponder search still under way and drop its answer, so it is not read as the next one's."""
        if self._pending is not None:
            with contextlib.suppress(HubError):
                self.stop()
            self._pending = None

    def _start(self, game: Board | Position, limit: Limit | None, clock: Clock | None, mode: str) -> _Pending:
        if mode not in _MODES:
            raise HubError(f"search mode {excerpt(mode)} is not one of {', '.join(_MODES)}")
        if limit is not None and not isinstance(limit, Limit):
            raise TypeError(f"limit must be a draughts.engine.Limit, not {type(limit).__name__}")
        if clock is not None and not isinstance(clock, Clock):
            raise TypeError(f"clock must be a draughts.hub.Clock, not {type(clock).__name__}")
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
        pos_line = format_line("pos", **args)
        lines = [pos_line]
        budget = 0.0
        if limit is not None:
            if limit.depth is not None:
                lines.append(format_line("level", depth=limit.depth))
            if limit.nodes is not None:
                lines.append(format_line("level", nodes=limit.nodes))
            if limit.time is not None:
                lines.append(format_line("level", move_time=_seconds_text(limit.time)))
                budget = limit.time
            if limit == Limit():
                lines.append("level infinite")
        if clock is not None:
            inc = _seconds_text(clock.inc) if clock.inc else None
            lines.append(format_line("level", moves=clock.moves, time=_seconds_text(clock.time), inc=inc))
            budget = max(budget, clock.time + clock.inc)
        lines.append(format_line("go", mode))
        pending = _Pending(position, pos_line, len(self.errors), budget)
        for line in lines:
            self.send(line)
        return pending

    def _finish(self, pending: _Pending, *, stopped: bool = False) -> HubResult:
        """Read the engine's lines up to ``done`` and check its move."""
        before = pending.errors_before
        deadline = time.monotonic() + (self.timeout if stopped else pending.budget + self.timeout)
        info: dict[str, str] = {}
        while True:
            reply = self._next(deadline, before)
            if reply is None:
                if stopped:
                    raise self._failure(f"did not answer 'stop' with 'done' within {self.timeout:g} s", before)
                self.send("stop")
                stopped = True
                deadline = time.monotonic() + self.timeout
                continue
            command, args = reply
            if command == "info":
                info = args
            elif command == "error" and not stopped:
                # Its answer cannot be trusted now: end the search at once instead of waiting it out.
                self.send("stop")
                stopped = True
                deadline = time.monotonic() + self.timeout
            elif command == "done":
                break
        position = pending.position
        text = args.get("move", "")
        move = None
        with contextlib.suppress(DraughtsError):
            move = parse_move(position, text)
        if len(self.errors) > before:
            if move is None:
                raise self._failure(
                    f"refused the search of {position.fen()} it was sent ({excerpt(pending.pos_line)})", before
                )
            raise self._failure(f"answered an error to the search of {position.fen()}", before)
        if move is None:
            if not text:
                raise self._failure(f"answered 'done' without a move in {position.fen()}")
            raise self._failure(f"played {excerpt(text)}, which is not legal in {position.fen()}")
        ponder = None
        if args.get("ponder"):
            with contextlib.suppress(DraughtsError):
                ponder = parse_move(position.play(move), args["ponder"])
        return HubResult(move, ponder, info, text)

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
        self._pending = None
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
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

_MIN_SECONDS = 0.01
"""The least time a search gets: ``move-time=0`` or an empty clock still gets a move played."""
_MOVES_TO_GO = 30
"""The moves a clock without ``moves=`` is shared over (sudden death)."""
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?")


def _count(name: str, text: str) -> int:
    value = number(text)
    if value is None or value < 1:
        raise InvalidLimitError(f"{name}={excerpt(text)} is not a positive whole number")
    return value


def _seconds(name: str, text: str, *, negative: bool = False) -> float:
    value = float(text) if len(text) <= 40 and _NUMBER.fullmatch(text) else math.nan
    if not math.isfinite(value) or (value < 0 and not negative):
        raise InvalidLimitError(f"{name}={excerpt(text)} is not a number of seconds")
    return value


def _clock_seconds(args: Mapping[str, str]) -> float:
    """The time one move gets from ``time=`` (without this move's increment), ``moves=`` and ``inc=``.

    The clock is shared over the moves to go (30 without ``moves=``), plus the increment, never
    more than nine tenths of what is on the clock once the increment is added.
    """
    left = max(_seconds("time", args["time"], negative=True), 0.0)  # a GUI may send an overrun clock
    inc = _seconds("inc", args["inc"]) if "inc" in args else 0.0
    to_go = _MOVES_TO_GO
    if "moves" in args:
        moves = number(args["moves"])
        if moves is None:
            raise InvalidLimitError(f"moves={excerpt(args['moves'])} is not a whole number")
        to_go = moves or _MOVES_TO_GO  # moves=0: not given, as Scan reads it
    return max(min(left / to_go + inc, 0.9 * (left + inc)), _MIN_SECONDS)


@attrs.define
class _Search:
    """The server's search under way."""

    thread: threading.Thread
    stop: threading.Event


class _Server:
    """The polydraughts engine behind the Hub protocol.

    The reading thread never waits for a search: only this class's ``handle`` reads input, and a
    search runs in its own thread that always ends by writing ``done``.
    """

    def __init__(self, variant: Ruleset | str, stdout: TextIO) -> None:
        self.rules = get_variant(variant)
        self.custom = _custom_variants(self.rules)
        """The starting ruleset and its house rule when no name finds them, declared by their names."""
        self.out = stdout
        self.lock = threading.Lock()
        self.closed = False
        self.level = "strong"
        self.seed = 0
        self.engine = self._engine()
        self.board = Board(self.rules)
        """What ``go`` searches: the start position until a ``pos`` is accepted."""
        self.limit: dict[str, float] | None = None
        """The ``level`` lines' limits for the next search; None: the ``level`` parameter's."""
        self.search: _Search | None = None

    def _engine(self) -> Engine:
        return get_level(self.level).engine(self.seed)

    def say(self, line: str) -> None:
        with self.lock:
            if self.closed:
                return
            try:
                self.out.write(line + "\n")
                self.out.flush()
            except (OSError, ValueError):  # the GUI has gone (a broken pipe, a closed stream)
                self.closed = True

    def error(self, message: str) -> None:
        self.say(format_line("error", message=message))

    def handle(self, line: str) -> bool:
        """Act on one line, answering ``error`` to anything wrong in it; False to quit."""
        try:
            command, args = parse_line(line)
        except HubError as error:
            self.error(str(error))
            return not self.closed
        try:
            keep_going = self._dispatch(command, args)
        except DraughtsError as error:
            self.error(f"{command}: {error}")
        except Exception as error:  # an unforeseen failure must not end the session
            self.error(f"{command}: internal error, {type(error).__name__}: {excerpt(str(error), 200)}")
        else:
            if not keep_going:
                return False
        return not self.closed

    def _dispatch(self, command: str, args: Mapping[str, str]) -> bool:
        # During a search the protocol allows only ping, ponder-hit and stop. Any other command
        # ends the search as "stop" would (its "done" comes first), then is carried out, as Scan does.
        if command == "ping":
            self.say("pong")
        elif command == "stop":
            if self.search is not None:
                self.search.stop.set()  # the search thread answers "done"
        elif command == "ponder-hit":
            pass  # a ponder search is an ordinary search here, already timed from its start
        elif not command:
            pass  # an empty line
        else:
            self.finish_search()
            if command == "quit":
                return False
            if command == "hub":
                self._hub()
            elif command == "set-param":
                self._set_param(args)
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
            # other commands are ignored, as the protocol asks
        return True

    def finish_search(self) -> None:
        """End the search under way, if any, once it has answered ``done``."""
        search = self.search
        if search is not None:
            search.stop.set()
            search.thread.join()
            self.search = None

    def _hub(self) -> None:
        self.say(format_line("id", name="polydraughts", version=__version__, author="polydraughts developers"))
        variants = " ".join(_hub_variants(self.custom))
        self.say(format_line("param", name="variant", value=self.rules.name, type="enum", values=variants))
        self.say(format_line("param", name="level", value=self.level, type="enum", values=" ".join(LEVELS)))
        self.say(format_line("param", name="seed", value=self.seed, type="int", min=0, max=2**31 - 1))
        self.say("wait")

    def _set_param(self, args: Mapping[str, str]) -> None:
        name = args.get("name", "")
        value = args.get("value", "")
        if name == "variant":
            rules = self.custom.get(value) or get_variant(value)
            if rules != self.rules:
                self.rules = rules
                self.board = Board(rules)  # the old position is of another variant
                self.limit = None
        elif name == "level":
            self.level = get_level(value).name
            self.engine = self._engine()
        elif name == "seed":
            seed = number(value)
            if seed is None or seed > 2**31 - 1:
                raise InvalidLimitError(f"seed {excerpt(value)} is not a whole number from 0 to {2**31 - 1}")
            self.seed = seed
            self.engine = self._engine()
        elif not name:
            raise HubError("set-param needs name= (variant, level or seed)")
        else:
            raise HubError(f"no parameter {excerpt(name)}; the parameters are variant, level and seed")

    def _pos(self, args: Mapping[str, str]) -> None:
        # All or nothing: a refused line leaves the position (and the level) as they were.
        text = args.get("pos")
        position = Position.initial(self.rules) if text is None or "start" in args else parse_position(self.rules, text)
        board = Board.from_position(position)
        for index, text in enumerate(args.get("moves", "").split(), 1):
            try:
                board.push(parse_move(board.position, text))
            except DraughtsError as error:
                raise type(error)(f"move {index} of moves=: {error}") from None
        self.board = board
        self.limit = None  # a level line belongs to one search: the next one sends its own

    def _level(self, args: Mapping[str, str]) -> None:
        limit = {} if self.limit is None or "infinite" in args else dict(self.limit)
        given = "infinite" in args
        if "depth" in args:
            limit["depth"] = _count("depth", args["depth"])
            given = True
        if "nodes" in args:
            limit["nodes"] = _count("nodes", args["nodes"])
            given = True
        if "move-time" in args:
            limit["time"] = max(_seconds("move-time", args["move-time"]), _MIN_SECONDS)
            given = True
        if "time" in args:
            limit["time"] = _clock_seconds(args)
            given = True
        elif "moves" in args or "inc" in args:
            raise InvalidLimitError("moves= and inc= need time= (the time left on the clock)")
        if given:
            self.limit = limit

    def _go(self) -> None:
        if self.limit is None:
            limit = get_level(self.level).limit
        else:
            limit = Limit(
                depth=int(self.limit["depth"]) if "depth" in self.limit else None,
                nodes=int(self.limit["nodes"]) if "nodes" in self.limit else None,
                time=self.limit.get("time"),
            )
        self.limit = None
        stop = threading.Event()
        thread = threading.Thread(target=self._think, args=(self.board, limit, stop), daemon=True)
        self.search = _Search(thread, stop)
        thread.start()

    def _think(self, board: Board, limit: Limit, stop: threading.Event) -> None:
        """Search and answer ``done`` whatever happens: a position with a legal move gets one."""
        position = board.position
        legal = position.legal_moves()
        if not legal:
            self.error(f"go: no legal move in {position.fen()}: the game is over")
            self.say("done")
            return
        # Board.outcome() may call the game drawn (a third repetition sent in moves=, a move-count
        # rule) while moves remain; the GUI decides about draws, so search the bare position then.
        game: Board | Position = board if board.outcome() is None else position
        started = time.perf_counter()
        try:
            result = self.engine.search(game, limit, stop=stop)
            if result.move is None:
                raise RuntimeError(f"the search gave no move in {position.fen()}")
            info = _info_line(position, result, time.perf_counter() - started)
            ponder = move_text(position.play(result.move), result.pv[1]) if len(result.pv) > 1 else None
            done = format_line("done", move=move_text(position, result.move), ponder=ponder)
        except Exception as error:  # an engine failure must still answer the GUI with a move
            failure = f"{type(error).__name__}: {excerpt(str(error), 200)}"
            self.error(f"go: the search failed ({failure}); playing a legal move")
            self.say(format_line("done", move=move_text(position, legal[0])))
            return
        self.say(info)
        self.say(done)


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


def _input_lines(stream: IO[str] | None) -> Iterator[str]:
    """The lines of ``stream`` (standard input by default); bytes that are not UTF-8 read as U+FFFD."""
    source = sys.stdin if stream is None else stream
    binary = getattr(source, "buffer", None)
    if binary is None:
        yield from source
        return
    lines: Iterable[bytes] = binary
    for raw in lines:
        yield raw.decode("utf-8", "replace")


def serve(
    *, variant: Ruleset | str = "international", stdin: IO[str] | None = None, stdout: TextIO | None = None
) -> None:
    """Run the polydraughts engine as a Hub engine until ``quit`` or the end of input.

    The engine declares the parameters ``variant`` (any named variant or ``<name>-nfc``; ``normal``
    is read as International; a ``variant`` ruleset no name finds, such as one read from a file, is
    declared too, by its name), ``level`` (the :data:`~draughts.engine.LEVELS`: the default search
    limit and style) and ``seed``. Every line is answered: a bad one with ``error``, after which the
    server goes on; every ``go`` with ``done``. See the Hub section of the engine guide for what it
    does before any ``pos``, with ``level`` lines and with commands sent during a search.

    Raises:
        UnknownVariantError: ``variant`` names no variant.
    """
    server = _Server(variant, sys.stdout if stdout is None else stdout)
    try:
        for line in _input_lines(stdin):
            if not server.handle(line):
                break
    finally:
        server.finish_search()  # at "quit" or the end of input (the GUI has gone): stop at once


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

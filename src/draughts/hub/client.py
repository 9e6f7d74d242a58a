"""Driving an external Hub engine (Scan, Kingsrow's Hub build ...) as a process: :class:`HubEngine`.

The client sends the position from the last capture or man move with the king moves played since
(for the engine's repetition detection), one ``level`` line per form of the limit, and ``go``;
it reads the engine's lines up to ``done`` with deadlines, and checks the move it answers.
Errors say whose fault they are: :class:`~draughts.errors.HubError` (a :class:`ValueError`) for
what the caller asked wrong, :class:`~draughts.errors.HubEngineError` (a :class:`RuntimeError`)
for an engine that failed.
"""

from __future__ import annotations

import contextlib
import math
import shlex
import time
from collections.abc import Callable, Mapping, Sequence

import attrs

from draughts._text import excerpt
from draughts.board import Board
from draughts.engine import AnalysisLine, InvalidLimitError, Limit
from draughts.engine.score import Score
from draughts.errors import (
    DraughtsError,
    HubEngineError,
    HubEngineTerminatedError,
    HubEngineTimeoutError,
    HubError,
)
from draughts.hub.info import HubInfo, parse_info
from draughts.hub.process import MAX_LINE, EngineProcess, LineTooLongError
from draughts.hub.protocol import MAX_SECONDS, count_text, format_line, parse_line, seconds_text
from draughts.hub.text import hub_move_text, parse_hub_move, position_text
from draughts.hub.variant_names import engine_name
from draughts.move import Move
from draughts.players.base import Choice, Clock
from draughts.position import Position
from draughts.rules import Ruleset
from draughts.rules.files import resolve_ruleset

__all__ = ["HubEngine", "HubParam", "HubPlayer", "HubResult"]


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
        infos: Every ``info`` line of the search, typed, in the order they came.
    """

    move: Move
    ponder: Move | None
    info: Mapping[str, str]
    text: str
    infos: tuple[HubInfo, ...] = ()


def _number_text(value: object) -> str:
    """``value`` quoted for a message, even an int too long for :func:`repr` (past 4,300 digits)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 1000:
        return f"an integer of about {int(value.bit_length() * math.log10(2)):,} digits"
    return excerpt(value)


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
    on_info: Callable[[HubInfo], object] | None = None
    """Called with each ``info`` line as it arrives (:meth:`HubEngine.analyse`)."""
    infos: list[HubInfo] = attrs.field(factory=list)


def reversible_tail(board: Board) -> tuple[Position, list[Move]]:
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


def _pos_line(board: Board) -> str:
    """The ``pos`` line of ``board``: its reversible tail, the king moves as ``moves=``."""
    start, moves = reversible_tail(board)
    args: dict[str, object] = {"pos": position_text(start)}
    if moves:
        texts = []
        for move in moves:
            texts.append(hub_move_text(start, move))
            start = start.play(move)
        args["moves"] = " ".join(texts)
    return format_line("pos", **args)


def _level_lines(limit: Limit | None, clock: Clock | None) -> tuple[list[str], float]:
    """The ``level`` lines of ``limit`` and ``clock``, and the seconds they let the engine think."""
    lines = []
    budget = 0.0
    if limit is not None:
        if limit.depth is not None:
            lines.append(format_line("level", depth=count_text(limit.depth)))
        if limit.nodes is not None:
            lines.append(format_line("level", nodes=count_text(limit.nodes)))
        if limit.time is not None:
            lines.append(format_line("level", move_time=seconds_text(limit.time)))
            budget = min(limit.time, MAX_SECONDS)
        if (limit.depth, limit.nodes, limit.time) == (None, None, None):  # threads are no limit
            lines.append("level infinite")
    if clock is not None:
        inc = seconds_text(clock.inc) if clock.inc else None
        moves = None if clock.moves is None else count_text(clock.moves)
        lines.append(format_line("level", moves=moves, time=seconds_text(clock.time), inc=inc))
        budget = max(budget, clock.time + clock.inc)
    return lines, budget


def _analysis_lines(result: HubResult, multipv: int, position: Position | None = None) -> list[AnalysisLine]:
    """The last scored line of each rank among ``result``'s ``info`` lines, best first (``position``:
    the one analysed, which the lines carry for their ``pv_text``).

    A best line given without a ``pv`` is the engine's move (and its ponder move, if any).
    """
    latest: dict[int, tuple[Score, tuple[Move, ...], HubInfo]] = {}
    for info in result.infos:
        if info.score is None or info.multipv > multipv:
            continue
        pv = info.pv
        if not pv and info.multipv == 1:
            pv = (result.move,) if result.ponder is None else (result.move, result.ponder)
        if pv:
            latest[info.multipv] = (info.score, pv, info)
    lines = [
        AnalysisLine(pv[0], score, pv, info.depth or 0, info.nodes or 0, rank, position=position)
        for rank, (score, pv, info) in sorted(latest.items())
    ]
    lines.sort(key=lambda line: line.score, reverse=True)
    return [attrs.evolve(line, multipv=rank) for rank, line in enumerate(lines, 1)]


class HubEngine:
    """An external Hub engine, started as a process.

    >>> # engine = HubEngine(["./scan", "hub"]); engine.init("international")
    >>> # result = engine.go(board, Limit(time=1)); board.push(result.move); engine.quit()

    Args:
        command: The program and its arguments (a list, or a string split like a shell would).
        timeout: Seconds to wait for any answer beyond the search's own time.
        cwd: The engine's working directory (Scan reads its data files from there).

    Raises:
        HubError: no command, or a timeout that is not a positive number of seconds.
        HubEngineError: the program cannot be started.
    """

    def __init__(self, command: Sequence[str] | str, *, timeout: float = 10.0, cwd: str | None = None) -> None:
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.command:
            raise HubError("no Hub engine command given")
        number = isinstance(timeout, (int, float)) and not isinstance(timeout, bool)
        if not (number and 0 < timeout <= MAX_SECONDS):
            raise HubError(f"timeout {_number_text(timeout)} must be a number of seconds above 0, at most 10**9")
        self.timeout = float(timeout)
        try:
            self._process = EngineProcess(self.command, cwd)
        except OSError as error:
            raise HubEngineError(f"cannot start Hub engine {self.command!r}: {error.strerror}") from None
        self.process = self._process.popen
        """The engine's process (a ``subprocess.Popen``)."""
        self._pending: _Pending | None = None
        self.id: dict[str, str] = {}
        """What the engine said about itself (``name``, ``version``, ``author`` ...)."""
        self.params: dict[str, HubParam] = {}
        """The parameters the engine declared, by name."""
        self.errors: list[str] = []
        """Messages of the engine's ``error`` lines, oldest first."""
        self.ruleset: Ruleset | None = None

    # --- failures ---

    @property
    def _name(self) -> str:
        return self.id.get("name") or self.command[0]

    def _message(self, what: str, errors_before: int | None) -> str:
        """``Hub engine 'name' <what>``, with the engine's ``error`` lines since ``errors_before``."""
        message = f"Hub engine {self._name!r} {what}"
        if errors_before is not None:
            reported = self.errors[errors_before:]
            if reported:
                shown = "; ".join(excerpt(text, 300) for text in reported[-3:])
                more = f" (and {len(reported) - 3} more)" if len(reported) > 3 else ""
                message += f"; it reported error {shown}{more}"
        return message

    def _failure(self, what: str, errors_before: int | None = None) -> HubEngineError:
        return HubEngineError(self._message(what, errors_before))

    def _timed_out(self, what: str, errors_before: int | None = None) -> HubEngineTimeoutError:
        return HubEngineTimeoutError(self._message(what, errors_before))

    def _exited(self, errors_before: int | None = None) -> HubEngineTerminatedError:
        """The error for an engine that has gone: its exit code and the end of its error output."""
        code = self._process.exit_code()
        message = self._message("has exited" + ("" if code is None else f" (exit code {code})"), errors_before)
        output = self._process.error_output()
        if output:
            message += f"; its error output ends: {output}"
        return HubEngineTerminatedError(message)

    # --- lines ---

    def send(self, line: str) -> None:
        """Send one line to the engine.

        Raises:
            HubEngineTerminatedError: the engine has exited.
        """
        if not self._process.write(line):
            raise self._exited()

    def _next(self, deadline: float, errors_before: int | None = None) -> tuple[str, dict[str, str]] | None:
        """The next line (parsed leniently, ``error`` lines recorded), or None at ``deadline``."""
        try:
            item = self._process.read(deadline)
        except LineTooLongError:
            raise self._failure(f"printed a line longer than {MAX_LINE:,} characters; it was stopped") from None
        except EOFError:
            raise self._exited(errors_before) from None
        if item is None:
            return None
        command, args = parse_line(item, strict=False)
        if command == "error":
            self.errors.append(args.get("message", item))
        return command, args

    def receive(self, timeout: float | None = None) -> tuple[str, dict[str, str]]:
        """The next line from the engine, parsed; ``error`` lines are also added to :attr:`errors`.

        Raises:
            HubEngineTimeoutError: no line within ``timeout`` seconds (default: the engine's).
            HubEngineTerminatedError: the engine exited.
        """
        wait = self.timeout if timeout is None else timeout
        reply = self._next(time.monotonic() + wait)
        if reply is None:
            raise self._timed_out(f"did not answer within {wait:g} s")
        return reply

    def _expect(self, wanted: str, errors_before: int) -> dict[str, str]:
        """The arguments of the next ``wanted`` line; ``id`` and ``param`` lines before it are recorded."""
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._next(deadline, errors_before)
            if reply is None:
                raise self._timed_out(f"did not answer {wanted!r} within {self.timeout:g} s", errors_before)
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

    # --- the session ---

    def init(self, ruleset: Ruleset | str | None = None, params: Mapping[str, object] | None = None) -> None:
        """The initialisation: ``hub``, the parameters (``variant`` first), ``init``, until ``ready``.

        Raises:
            HubError: the engine declares a ``variant`` parameter whose choices do not include the ruleset.
            HubEngineError: the engine does not answer, or exits (the message then ends with its
                error output).
        """
        errors_before = len(self.errors)
        self.send("hub")
        self._expect("wait", errors_before)
        settings: dict[str, object] = {}
        if ruleset is not None:
            self.ruleset = rules = resolve_ruleset(ruleset)
            value = self._variant_setting(rules)
            if value is not None:
                settings["variant"] = value
        settings.update(params or {})
        for name, setting in settings.items():
            self.send(format_line("set-param", name=name, value=setting))
        self.send("init")
        self._expect("ready", errors_before)

    def _variant_setting(self, rules: Ruleset) -> str | None:
        """The ``variant`` value to set for ``rules``, or None when the engine has no such parameter or is set."""
        declared = self.params.get("variant")
        if declared is None:
            return None
        value = rules.name
        if declared.values and value not in declared.values:
            alias = engine_name(rules, declared.values)
            if alias is None:
                raise HubError(
                    f"Hub engine {self._name!r} does not play {rules.name}; its variants: {', '.join(declared.values)}"
                )
            value = alias
        return None if value == declared.value else value

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
        engine uses its own settings. Limits beyond what an engine reads (10**18 plies or nodes,
        10**9 seconds) are sent as those: no search reaches them. A search started by
        :meth:`ponder` is stopped first.

        Without an answer ``timeout`` seconds after the time the limit or clock allows, ``stop``
        is sent. An ``error`` line during the search also sends ``stop``; the engine's answer is then
        not used.

        Raises:
            HubError: a bad ``mode``, a position without a legal move, or one of another ruleset
                than the engine was initialised for.
            HubEngineError: the engine played an illegal move or none, refused the position or
                reported an error during the search (the message quotes it); its subclasses: no
                answer in time, or an engine that exited (the message ends with its error output).
        """
        self._abandon()
        return self._finish(self._start(game, limit, clock, mode))

    def analyse(
        self,
        game: Board | Position,
        limit: Limit | None = None,
        *,
        multipv: int = 1,
        on_info: Callable[[HubInfo], object] | None = None,
    ) -> list[AnalysisLine]:
        """Search ``game`` in ``analyze`` mode and return the engine's lines, best first, with typed scores.

        The ``info`` lines are read as they come (``on_info`` is called with each, typed, while
        the engine thinks); the last scored line of each rank makes an
        :class:`~draughts.engine.AnalysisLine` (see ``draughts.hub.info`` for how scores and
        principal variations are read). Where the engine declares a ``multipv`` parameter it is
        set to ``multipv`` first; an engine without one (Scan) shows one line, so fewer lines than
        asked come back, and an engine that writes no scored ``info`` line gives none.

        Raises:
            ~draughts.errors.InvalidLimitError: ``multipv`` is not a positive whole number.
            HubError, HubEngineError: as for :meth:`go`.
        """
        if isinstance(multipv, bool) or not isinstance(multipv, int) or multipv < 1:
            raise InvalidLimitError(f"multipv {excerpt(multipv)} must be a positive whole number")
        if "multipv" in self.params:
            self.send(format_line("set-param", name="multipv", value=multipv))
        self._abandon()
        pending = self._start(game, limit, None, "analyze")
        pending.on_info = on_info
        result = self._finish(pending)
        return _analysis_lines(result, multipv, game.position if isinstance(game, Board) else game)

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
            HubError: no :meth:`ponder` search is under way.
            HubEngineError: as for :meth:`go`.
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
            with contextlib.suppress(HubError, HubEngineError):
                self.stop()
            self._pending = None

    def _start(self, game: Board | Position, limit: Limit | None, clock: Clock | None, mode: str) -> _Pending:
        if mode not in _MODES:
            raise HubError(f"search mode {excerpt(mode)} is not one of {', '.join(_MODES)}")
        if limit is not None and not isinstance(limit, Limit):
            raise TypeError(f"limit must be a draughts.engine.Limit, not {type(limit).__name__}")
        if clock is not None and not isinstance(clock, Clock):
            raise TypeError(f"clock must be a draughts.players.Clock, not {type(clock).__name__}")
        board = game if isinstance(game, Board) else Board.from_position(game)
        position = board.position
        if not position.legal_moves():
            raise HubError(f"no legal move to search for in {position.fen()}")
        rules = position.ruleset
        if self.ruleset is not None and rules != self.ruleset:
            raise HubError(f"the engine was initialised for {self.ruleset.name}, not {rules.name}")
        pos_line = _pos_line(board)
        levels, budget = _level_lines(limit, clock)
        pending = _Pending(position, pos_line, len(self.errors), budget)
        for line in [pos_line, *levels, format_line("go", mode)]:
            self.send(line)
        return pending

    def _read_done(self, pending: _Pending, stopped: bool) -> tuple[dict[str, str], dict[str, str]]:
        """The arguments of ``done`` and of the last ``info`` line before it; ``stop`` sent when it is time."""
        before = pending.errors_before
        deadline = time.monotonic() + (self.timeout if stopped else pending.budget + self.timeout)
        info: dict[str, str] = {}
        while True:
            reply = self._next(deadline, before)
            if reply is None:
                if stopped:
                    raise self._timed_out(f"did not answer 'stop' with 'done' within {self.timeout:g} s", before)
                self.send("stop")
                stopped = True
                deadline = time.monotonic() + self.timeout
                continue
            command, args = reply
            if command == "info":
                info = args
                typed = parse_info(pending.position, args)
                pending.infos.append(typed)
                if pending.on_info is not None:
                    pending.on_info(typed)
            elif command == "error" and not stopped:
                # Its answer cannot be trusted now: end the search at once instead of waiting it out.
                self.send("stop")
                stopped = True
                deadline = time.monotonic() + self.timeout
            elif command == "done":
                return args, info

    def _finish(self, pending: _Pending, *, stopped: bool = False) -> HubResult:
        """Read the engine's lines up to ``done`` and check its move."""
        args, info = self._read_done(pending, stopped)
        before = pending.errors_before
        position = pending.position
        text = args.get("move", "")
        move = None
        with contextlib.suppress(DraughtsError):
            move = parse_hub_move(position, text)
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
                ponder = parse_hub_move(position.play(move), args["ponder"])
        return HubResult(move, ponder, info, text, tuple(pending.infos))

    def quit(self, timeout: float = 5.0) -> None:
        """``quit``, then wait for the process to end (killing it after ``timeout`` seconds)."""
        self._process.write("quit")
        self._process.close(timeout)
        self._pending = None

    def __enter__(self) -> HubEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.quit()


class HubPlayer:
    """An external Hub engine as a :class:`~draughts.players.Player`, one process per game: a
    clock goes to it as ``level time= inc=``, its score is that of its last ``info`` line with one.

    Under a clock the client waits for the move ``grace`` seconds past the time on the clock (the
    referee's margin and a second), not its usual ``timeout``: a hung engine loses on time promptly.

    Raises:
        ~draughts.errors.HubEngineError: the engine does not start or refuses the ruleset.
    """

    def __init__(
        self,
        command: Sequence[str],
        ruleset: Ruleset | str,
        params: Mapping[str, str] | None = None,
        limit: Limit | None = None,
        grace: float = 1.0,
        *,
        name: str = "hub",
        timeout: float = 30.0,
    ) -> None:
        self.name = name
        self.hub = HubEngine(list(command), timeout=timeout)
        try:
            self.hub.init(ruleset, dict(params or {}))
        except BaseException:
            self.hub.process.kill()
            raise
        self.limit = None if limit is None or not (limit.depth or limit.nodes or limit.time) else limit
        self.grace = grace

    def choose(self, board: Board, clock: Clock | None = None) -> Choice:
        if clock is None:
            return _scored(self.hub.go(board, self.limit))
        usual, self.hub.timeout = self.hub.timeout, self.grace
        try:
            return _scored(self.hub.go(board, self.limit, clock=clock))
        finally:
            self.hub.timeout = usual

    def close(self, board: Board) -> None:
        try:
            self.hub.quit(timeout=2.0)
        except Exception:
            self.hub.process.kill()


def _scored(result: HubResult) -> Choice:
    """The move of a Hub answer and the score of its last ``info`` line that has one."""
    scores = [info.score for info in result.infos if info.score is not None]
    return result.move, scores[-1] if scores else None

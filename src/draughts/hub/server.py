"""The polydraughts engine behind the Hub protocol, for Hub GUIs: :func:`serve` (``draughts hub``).

One thread reads the input and answers each line at once; a ``go`` searches in a thread of its
own, so ``ping`` and ``stop`` are answered during the search. A search always ends by writing
``done``: with the best move found when its time is up (an alarm sets the stop flag at the
deadline, which counts from the ``go``), and with a legal move even when the engine fails.
"""

from __future__ import annotations

import os
import random
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import IO, TextIO

import attrs

from draughts import __version__
from draughts._text import excerpt, number
from draughts.board import Board
from draughts.db.book import Book
from draughts.engine import LEVELS, Engine, InvalidLimitError, Limit, SearchResult, get_level
from draughts.engine.limits import MAX_THREADS
from draughts.errors import DraughtsError, HubError
from draughts.hub.levels import LevelLimits, read_level
from draughts.hub.protocol import MAX_SECONDS, format_line, parse_line
from draughts.hub.text import move_squares_text, parse_hub_move, parse_position
from draughts.hub.variant_names import custom_variants, declared_variants, variant_named
from draughts.position import Position
from draughts.rules import Ruleset
from draughts.rules.files import resolve_ruleset

__all__ = ["serve"]

_MAX_SEED = 2**31 - 1
_LONGEST_MESSAGE = 600
"""The longest ``error`` message written: the library's messages quote bounded excerpts, and this
bounds one that does not."""
_LEAST_SECONDS = 0.001
"""The time the engine gets when the work before its start has used up the budget: it answers at once."""


@attrs.define
class _BackgroundSearch:
    """A ``go`` under way: the thread searching, its stop flag, and the alarm that sets the flag at the deadline."""

    thread: threading.Thread
    stop: threading.Event
    alarm: threading.Timer | None

    def end(self) -> None:
        """Stop the search and wait until it has answered ``done``."""
        self.stop.set()
        if self.alarm is not None:
            self.alarm.cancel()
        self.thread.join()


class _Server:
    """The polydraughts engine behind the Hub protocol.

    Only :meth:`handle` reads input, and it never waits for a search except to end one (when a
    command other than ``ping``, ``ponder-hit`` and ``stop`` arrives during it).
    """

    def __init__(
        self,
        variant: Ruleset | str,
        stdout: TextIO,
        tablebases: str | os.PathLike[str] | None = None,
        book: Book | None = None,
    ) -> None:
        self.book = book
        """The opening book ``go`` answers from while the position is in it (None: none)."""
        self._book_random = random.Random(0)
        self.tablebases = tablebases
        """The directory of endgame tables the engine probes (None: none)."""
        self.rules = resolve_ruleset(variant)
        self.declared = declared_variants(custom_variants(self.rules))
        """The rulesets the ``variant`` parameter offers, by name: the starting one too when no name finds it."""
        self.out = stdout
        self.lock = threading.Lock()
        self.closed = False
        self.level = "strong"
        self.seed = 0
        self.threads = 1
        """Threads each search uses (the ``threads`` parameter, as Scan's)."""
        self.engine = self._engine()
        self.board = Board(self.rules)
        """What ``go`` searches: the start position until a ``pos`` is accepted."""
        self.limits: LevelLimits | None = None
        """The ``level`` lines' limits for the next search; None: the ``level`` parameter's."""
        self.search: _BackgroundSearch | None = None
        self._commands: dict[str, Callable[[Mapping[str, str]], None]] = {
            "hub": self._hub,
            "set-param": self._set_param,
            "init": self._init,
            "new-game": self._new_game,
            "pos": self._pos,
            "level": self._level,
            "go": self._go,
        }

    def _engine(self) -> Engine:
        engine = get_level(self.level).engine(self.seed)
        if self.tablebases is not None:
            from draughts.endgame import Tablebase  # only when asked: the tables are an optional part

            engine.tablebase = Tablebase(self.rules, self.tablebases)
        return engine

    # --- output ---

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
        """An ``error`` line; a message longer than :data:`_LONGEST_MESSAGE` is cut (it quoted too much input)."""
        if len(message) > _LONGEST_MESSAGE:
            message = f"{message[: _LONGEST_MESSAGE - 60]}... ({len(message):,} characters)"
        self.say(format_line("error", message=message))

    # --- input ---

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
        elif command in ("ponder-hit", ""):
            pass  # a ponder search is an ordinary search here, already timed from its start; an empty line
        else:
            self.finish_search()
            if command == "quit":
                return False
            action = self._commands.get(command)
            if action is not None:  # other commands are ignored, as the protocol asks
                action(args)
        return True

    def finish_search(self) -> None:
        """End the search under way, if any, once it has answered ``done``."""
        search = self.search
        if search is not None:
            search.end()
            self.search = None

    # --- commands ---

    def _hub(self, args: Mapping[str, str]) -> None:
        self.say(format_line("id", name="polydraughts", version=__version__, author="polydraughts developers"))
        variants = " ".join(self.declared)
        self.say(format_line("param", name="variant", value=self.rules.name, type="enum", values=variants))
        self.say(format_line("param", name="level", value=self.level, type="enum", values=" ".join(LEVELS)))
        self.say(format_line("param", name="seed", value=self.seed, type="int", min=0, max=_MAX_SEED))
        self.say(format_line("param", name="threads", value=self.threads, type="int", min=1, max=MAX_THREADS))
        self.say("wait")

    def _init(self, args: Mapping[str, str]) -> None:
        self.engine = self._engine()
        self.say("ready")

    def _new_game(self, args: Mapping[str, str]) -> None:
        self.engine.clear()

    def _set_param(self, args: Mapping[str, str]) -> None:
        name = args.get("name", "")
        setters = {
            "variant": self._set_variant,
            "level": self._set_level,
            "seed": self._set_seed,
            "threads": self._set_threads,
        }
        setter = setters.get(name)
        if setter is None:
            if not name:
                raise HubError("set-param needs name= (variant, level, seed or threads)")
            raise HubError(f"no parameter {excerpt(name)}; the parameters are variant, level, seed and threads")
        setter(args.get("value", ""))

    def _set_variant(self, value: str) -> None:
        rules = variant_named(value, self.declared)
        if rules != self.rules:
            self.rules = rules
            self.board = Board(rules)  # the old position is of another variant
            self.limits = None
            self.engine = self._engine()  # its tables are the variant's

    def _set_level(self, value: str) -> None:
        self.level = get_level(value).name
        self.engine = self._engine()

    def _set_seed(self, value: str) -> None:
        seed = number(value)
        if seed is None or seed > _MAX_SEED:
            raise InvalidLimitError(f"seed {excerpt(value)} is not a whole number from 0 to {_MAX_SEED}")
        self.seed = seed
        self.engine = self._engine()

    def _set_threads(self, value: str) -> None:
        threads = number(value)
        if threads is None or not 1 <= threads <= MAX_THREADS:
            raise InvalidLimitError(f"threads {excerpt(value)} is not a whole number from 1 to {MAX_THREADS}")
        self.threads = threads

    def _pos(self, args: Mapping[str, str]) -> None:
        # All or nothing: a refused line leaves the position (and the level) as they were.
        text = args.get("pos")
        position = Position.initial(self.rules) if text is None or "start" in args else parse_position(self.rules, text)
        board = Board.from_position(position)
        for index, move_text in enumerate(args.get("moves", "").split(), 1):
            try:
                board.push(parse_hub_move(board.position, move_text))
            except DraughtsError as error:
                raise type(error)(f"move {index} of moves=: {error}") from None
        self.board = board
        self.limits = None  # a level line belongs to one search: the next one sends its own

    def _level(self, args: Mapping[str, str]) -> None:
        self.limits = read_level(args, self.limits)

    def _go(self, args: Mapping[str, str]) -> None:
        if self._book_move():
            return
        started = time.monotonic()  # the budget counts from here: the GUI's clock runs from "go"
        limit = get_level(self.level).limit if self.limits is None else self.limits.limit()
        limit = attrs.evolve(limit, threads=self.threads)
        self.limits = None
        stop = threading.Event()
        alarm = None
        if limit.time is not None:
            alarm = threading.Timer(min(limit.time, MAX_SECONDS), stop.set)
            alarm.daemon = True
        thread = threading.Thread(target=self._think, args=(self.board, limit, stop, started), daemon=True)
        self.search = _BackgroundSearch(thread, stop, alarm)
        thread.start()
        if alarm is not None:
            alarm.start()

    def _book_move(self) -> bool:
        """Answer ``go`` with a book move, drawn by weight, when the book is of the position's rules and has it."""
        position = self.board.position
        if self.book is None or self.book.name != position.ruleset.name:
            return False
        move = self.book.choose(position, self._book_random)
        if move is None:
            return False
        self.say(format_line("done", move=move_squares_text(move)))
        return True

    # --- the search thread ---

    def _think(self, board: Board, limit: Limit, stop: threading.Event, started: float) -> None:
        """Search and answer ``done`` whatever happens: a position with a legal move gets one."""
        position = board.position
        try:
            # Board.outcome() may call the game drawn (a third repetition sent in moves=, a move-count
            # rule) while moves remain; the GUI decides about draws, so search the bare position then.
            game: Board | Position = board if board.outcome() is None else position
            result = self.engine.search(game, _time_left(limit, started), stop=stop)
        except Exception as error:  # an engine failure must still answer the GUI with a move
            self._answer_anyway(position, error)
            return
        if result.move is None:
            reason = "no legal move" if not position.legal_moves() else "the game is over by the rules of play"
            self.error(f"go: {reason} in {position.fen()}: nothing to search")
            self.say("done")
            return
        self.say(_info_line(result, time.monotonic() - started))
        ponder = move_squares_text(result.pv[1]) if len(result.pv) > 1 else None
        self.say(format_line("done", move=move_squares_text(result.move), ponder=ponder))

    def _answer_anyway(self, position: Position, error: Exception) -> None:
        """After a failed search: an ``error`` line, then ``done`` with a legal move if there is one."""
        failure = f"{type(error).__name__}: {excerpt(str(error), 200)}"
        try:
            legal = position.legal_moves()
        except Exception:  # the move generator itself failed: there is no move to offer
            legal = ()
        if legal:
            self.error(f"go: the search failed ({failure}); playing a legal move")
            self.say(format_line("done", move=move_squares_text(legal[0])))
        else:
            self.error(f"go: the search failed ({failure})")
            self.say("done")


def _time_left(limit: Limit, started: float) -> Limit:
    """``limit`` with its time counted from ``started`` (the ``go``), not from the engine's own start."""
    if limit.time is None:
        return limit
    return attrs.evolve(limit, time=max(limit.time - (time.monotonic() - started), _LEAST_SECONDS))


def _info_line(result: SearchResult, seconds: float) -> str:
    """The ``info`` line of a finished search (its moves are the engine's own: legal, not checked again)."""
    mate = result.mate_in
    if mate is not None:  # like Scan's +/-99.xx "the game ends soon": 99.99 less a hundredth per ply
        score = f"{(99.99 - min(abs(mate), 99) / 100) * (1 if mate > 0 else -1):.2f}"
    else:
        score = f"{result.value / 100:.2f}"
    return format_line(
        "info",
        depth=result.depth,
        score=score,
        nodes=result.nodes,
        time=f"{seconds:.3f}",
        nps=f"{result.nodes / max(seconds, 1e-6) / 1e6:.3f}",
        pv=" ".join(move_squares_text(move) for move in result.pv),
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
    *,
    ruleset: Ruleset | str = "international",
    stdin: IO[str] | None = None,
    stdout: TextIO | None = None,
    tablebases: str | os.PathLike[str] | None = None,
    book: str | os.PathLike[str] | None = None,
) -> None:
    """Run the polydraughts engine as a Hub engine until ``quit`` or the end of input.

    The engine declares the parameters ``variant`` (any named variant or ``<name>-nfc``; ``normal``
    is read as International; a ``ruleset`` no name finds, such as one read from a file, is
    declared too, by its name), ``level`` (the :data:`~draughts.engine.levels.LEVELS`: the default search
    limit and style), ``seed`` and ``threads`` (each search's
    :attr:`Limit.threads <draughts.engine.Limit.threads>`, 1 by default; Scan's parameter of that
    name). Every line is answered: a bad one with ``error``, after which the server goes on; every
    ``go`` with ``done``, close to its time when it has one. See the Hub section of the engine
    guide for what it does before any ``pos``, with ``level`` lines and with commands sent during
    a search.

    With ``tablebases`` (a directory of :mod:`draughts.endgame` tables), the engine probes the
    tables built there for the current variant: positions inside them are played perfectly and
    scored exactly, at the root and inside the search.

    With ``book`` (an opening book file, :mod:`draughts.db.book`), ``go`` answers with a book move,
    drawn by weight, while the position is in the book and the book is of the current variant.

    Raises:
        UnknownVariantError: ``ruleset`` names no variant.
        ~draughts.errors.BookError: ``book`` is not an opening book.
    """
    opened = None if book is None else Book(book)
    server = _Server(ruleset, sys.stdout if stdout is None else stdout, tablebases, opened)
    try:
        for line in _input_lines(stdin):
            if not server.handle(line):
                break
    finally:
        server.finish_search()  # at "quit" or the end of input (the GUI has gone): stop at once

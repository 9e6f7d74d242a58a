"""Move text per variant: writing the short or long form, and reading what players write.

Writing follows PDN 3.0: the short form ``32-28`` / ``19x28`` (``c3-d4`` / ``c3:e5`` in Russian)
unless another legal move has the same start and end, then the long form with exactly the squares
restriction 9 names: ``47x38x24x13x36``.

Reading is strict about rules and lenient about layout. It accepts the short and the long form,
either separator (``-``, ``x``, ``:``, and ``X`` for a forced series), numbers or algebraic names
in any variant, algebraic moves without separator (``c3d4``), Russian short notation (start file
and destination, ``ed4``), zero-padded or space-padded squares (``06-11``, ``1- 6``), trailing
``!``/``?`` marks, long forms naming any squares the piece passes (in order), and Hub-style
captures (start, end, then the captured squares in any order).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from draughts._text import excerpt
from draughts.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, InvalidSquareError
from draughts.move import Move
from draughts.rules import Ruleset

__all__ = ["Notatable", "matching_moves", "move_text", "parse_move"]


@runtime_checkable
class Notatable(Protocol):
    """What notation reads of a position (a :class:`~draughts.Position` is one): its ruleset, its
    legal moves, its FEN for messages, and its capture paths (:meth:`Position.capture_paths
    <draughts.Position.capture_paths>`). Positions write their moves with this module (their
    :class:`~draughts.LegalMoves`' repr), so it names the shape it reads instead of importing them."""

    @property
    def ruleset(self) -> Ruleset: ...
    @property
    def legal_moves(self) -> Callable[[], tuple[Move, ...]]: ...
    def fen(self) -> str: ...
    def capture_paths(self) -> tuple[Move, ...]: ...


_SEPARATORS = re.compile(r"[-:]|(?<=[0-9])x")
"""Separators in cleaned (lower-case, × read as x) move text: an x only after a square's digits, so
that the file x of a 24- or 26-file board starts a square instead."""
_MARKS = re.compile(r"[!?+#*]+$")
_GLUED = re.compile(r"([a-z][0-9]{1,2})([a-z][0-9]{1,2})")
_FILE_AND_SQUARE = re.compile(r"([a-z])([a-z][0-9]{1,2})")


def _joined(rules: Ruleset, squares: Sequence[int], separator: str, numeric: bool) -> str:
    name = str if numeric else rules.square_name
    return separator.join(name(square) for square in squares)


def _written(rules: Ruleset, move: object) -> str:
    """A move that may not be legal (or not a move) as ``rules`` would write its squares, for messages."""
    if not isinstance(move, Move) or not all(1 <= square <= rules.geometry.squares for square in move.path):
        return excerpt(move)
    separator = rules.capture_separator if move.captured else rules.move_separator
    return f"{_joined(rules, move.path, separator, False)} ({excerpt(move)})"


def move_text(position: Notatable, move: Move, *, long: bool | None = None, numeric: bool = False) -> str:
    """The text of a legal ``move`` in ``position``: short unless ambiguous (or ``long`` says).

    >>> import draughts
    >>> pos = draughts.Position.from_fen("international", "W:WK47:B14,19,29,31,42")
    >>> sorted(move_text(pos, m) for m in pos.legal_moves())
    ['47x38x20x9x36', '47x38x24x13x36']
    >>> move_text(draughts.Position.initial("russian"), draughts.Move(22, 17))
    'c3-b4'

    Args:
        position: The position the move is played in.
        move: A legal move of ``position``.
        long: Force the long form (True) or the short form (False); None picks per PDN 3.0.
        numeric: Write square numbers even in algebraic variants.

    Raises:
        IllegalMoveError: ``move`` is not legal in ``position``.
    """
    rules = position.ruleset
    legal = position.legal_moves()
    if move not in legal:
        raise IllegalMoveError(f"{_written(rules, move)} is not legal in {position.fen()} ({rules.name})")
    move = legal[legal.index(move)]
    separator = rules.capture_separator if move.captured else rules.move_separator
    if long is None:
        long = any(other.start == move.start and other.end == move.end and other != move for other in legal)
    squares = move.path if long else (move.start, move.end)
    return _joined(rules, squares, separator, numeric)


def _squares(rules: Ruleset, text: str, parts: Sequence[str]) -> list[int]:
    squares = []
    for part in parts:
        try:
            squares.append(rules.parse_square(part))
        except InvalidSquareError as error:
            raise InvalidMoveError(f"move {excerpt(text)}: {error}") from None
    return squares


def _trajectory(rules: Ruleset, path: Sequence[int]) -> list[int]:
    """Every square the moving piece passes over or stops on after its start, in order (along
    diagonals, rows or columns; on a board of dark squares a row or column skips the light ones)."""
    geometry = rules.geometry
    squares = []
    for frm, to in itertools.pairwise(path):
        (x0, y0), (x1, y1) = geometry.coords[frm], geometry.coords[to]
        dx = (x1 > x0) - (x1 < x0)
        dy = (y1 > y0) - (y1 < y0)
        for step in range(1, max(abs(x1 - x0), abs(y1 - y0)) + 1):
            x, y = x0 + dx * step, y0 + dy * step
            if geometry.is_playable(x, y):
                squares.append(geometry.square_at(x, y))
    return squares


def _follows(trajectory: list[int], waypoints: Sequence[int]) -> bool:
    """Whether ``waypoints`` appear along ``trajectory`` in order."""
    index = 0
    for square in waypoints:
        try:
            index = trajectory.index(square, index) + 1
        except ValueError:
            return False
    return True


def matching_moves(position: Notatable, text: str, *, every_reading: bool = False) -> list[Move]:
    """The legal moves of ``position`` that ``text`` denotes (one per identity).

    Readings are tried from the strictest to the most lenient and the first that matches
    decides: the exact path (so ``14x27`` is the one-piece capture when another capture from 14
    to 27 exists and, as PDN 3.0 requires, would be written long), then squares the piece passes
    in order (a from-to capture matches every capture with that start and end), then Hub order
    (start, end, captured squares in any order). With ``every_reading`` all readings are pooled,
    as a lenient reader of sloppy files may want before later moves settle the choice.

    Raises:
        InvalidMoveError: ``text`` is not move text.
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"move {excerpt(text)} is not text")
    rules = position.ruleset
    cleaned = _MARKS.sub("", re.sub(r"\s+", "", text)).lower().replace("×", "x")
    legal = position.legal_moves()
    glued = _GLUED.fullmatch(cleaned)
    file_and_square = _FILE_AND_SQUARE.fullmatch(cleaned)
    if glued:
        parts = [glued.group(1), glued.group(2)]
    elif file_and_square:
        file = file_and_square.group(1)
        end = _squares(rules, text, [file_and_square.group(2)])[0]
        return [m for m in legal if m.end == end and rules.geometry.algebraic(m.start)[0] == file]
    else:
        parts = _SEPARATORS.split(cleaned)
        if len(parts) < 2 or not all(parts):
            raise InvalidMoveError(f"move {excerpt(text)} is not of the form '32-28', '19x28', 'c3-d4' or 'c3:e5:g3'")
    squares = _squares(rules, text, parts)
    start, end = squares[0], squares[-1]
    # From the strictest reading to the most lenient; the first that matches anything decides.
    readings: tuple[Callable[[Move], bool], ...] = (
        lambda m: m.path == tuple(squares),
        lambda m: m.end == end and _follows(_trajectory(rules, m.path), squares[1:-1]),
        lambda m: len(squares) > 2 and m.end == squares[1] and sorted(m.captured) == sorted(squares[2:]),
    )
    # Every path of every legal move is read, so that any path of a move names it; what is found
    # is the legal move itself (equal by identity: start, end and captured set).
    paths = position.capture_paths() if any(m.captured for m in legal) else legal
    found: list[Move] = []
    for reading in readings:
        for m in paths:
            if m.start == start and reading(m) and m not in found:
                found.append(legal[legal.index(m)])
        if found and not every_reading:
            break
    return found


def parse_move(position: Notatable, text: str) -> Move:
    """The legal move of ``position`` that ``text`` denotes.

    >>> import draughts
    >>> pos = draughts.Position.from_fen("russian", "W:WKd2:Bc5,e5,c3,e3")
    >>> parse_move(pos, "d2:b4:d6:f4:c1").captured == parse_move(pos, "d2xc1").captured
    True

    Raises:
        InvalidMoveError: ``text`` is not move text (a square off the board, no separator ...).
        IllegalMoveError: no legal move matches.
        AmbiguousMoveError: several legal moves match; the message lists them in long form.
    """
    found = matching_moves(position, text)
    if len(found) == 1:
        return found[0]
    if not found:
        legal = ", ".join(move_text(position, m) for m in position.legal_moves()) or "none"
        raise IllegalMoveError(
            f"move {excerpt(text)} is not legal in {position.fen()} ({position.ruleset.name}); legal moves: {legal}"
        )
    candidates = ", ".join(move_text(position, m, long=True) for m in found)
    raise AmbiguousMoveError(f"move {excerpt(text)} is ambiguous in {position.fen()}: it may be {candidates}")

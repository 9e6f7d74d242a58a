"""Reading: the public functions that turn a path, a stream or text into replayed games."""

from __future__ import annotations

import codecs
import io
import os
import warnings
from collections.abc import Iterator

from draughts._text import excerpt
from draughts.errors import DraughtsError, PDNError
from draughts.pdn.decode import Source, source_lines
from draughts.pdn.errors import PDNWarning
from draughts.pdn.game import Game
from draughts.pdn.guess import candidates, untagged
from draughts.pdn.lexer import tokenize
from draughts.pdn.replay import Builder
from draughts.pdn.split import RawGame, raw_games
from draughts.pdn.tags import INTERNATIONAL
from draughts.pdn.text import lone_surrogate
from draughts.rules import Ruleset
from draughts.rules.files import resolve_ruleset

__all__ = ["check_options", "outcome", "outcomes", "parse_game", "parse_games", "read_game", "read_games"]


def read_games(
    source: Source,
    ruleset: Ruleset | str | os.PathLike[str] | None = None,
    errors: str = "raise",
    *,
    encoding: str | None = None,
    ambiguous_end: str = "first",
) -> Iterator[Game]:
    """The games of a PDN file or stream, one at a time, each replayed move by move.

    Args:
        source: A path, or a text or binary stream (read once, so a pipe works).
        ruleset: The rules the games are played under (a ruleset, a name or a rule file), for games without a
            GameType tag; a game whose GameType tag is not this ruleset's is an error. None (the
            default): each game's GameType tag, else its Variant tag, else International draughts,
            what PDN readers assume without a GameType; a game no tag names that is not legal
            International draughts is read under the PDN variant its moves fit (see the module
            notes: :attr:`Game.guessed`).
        errors: ``"raise"`` to stop at the first bad game with a :class:`~draughts.PDNError`;
            ``"skip"`` to skip it with a :class:`PDNWarning` and go on with the next game.
        encoding: Decode a path or a binary stream with this encoding (default: detected, see the
            module notes).
        ambiguous_end: What to do when the *last* move of a game fits several legal moves, so no
            later move can settle it: ``"first"`` takes the first (and notes it in
            :attr:`Game.warnings`), ``"raise"`` makes it a :class:`PDNAmbiguousMoveError`. An
            ambiguity that later moves leave open is always an error.

    Raises:
        PDNError: a game cannot be read (its subclasses :class:`PDNIllegalMoveError`,
            :class:`PDNAmbiguousMoveError` and :class:`PDNUnknownVariantError` say why), with
            ``errors="raise"``. The message names the game, the line, and the ply and move. Also,
            whatever ``errors`` says, bytes that ``encoding`` (or a byte-order mark) cannot decode.
        UnknownVariantError: ``ruleset`` names no ruleset.
        DraughtsError: ``errors``, ``encoding`` or ``ambiguous_end`` is not a value it can be.
        OSError: the path cannot be read.
    """
    check_options(errors, encoding, ambiguous_end)
    if not isinstance(source, (str, os.PathLike)) and not callable(getattr(source, "read", None)):
        raise TypeError(f"read_games needs a path or a text or binary stream, not {type(source).__name__}")
    rules = None if ruleset is None else resolve_ruleset(ruleset)
    return _read(source, rules, errors, encoding, ambiguous_end == "raise")


def check_options(errors: str, encoding: str | None, ambiguous_end: str) -> None:
    """Raise for a value of ``errors``, ``encoding`` or ``ambiguous_end`` that :func:`read_games` cannot take."""
    if errors not in ("raise", "skip"):
        raise DraughtsError(f"errors={excerpt(errors)}: use 'raise' or 'skip'")
    if ambiguous_end not in ("first", "raise"):
        raise DraughtsError(f"ambiguous_end={excerpt(ambiguous_end)}: use 'first' or 'raise'")
    if encoding is not None:
        if not isinstance(encoding, str):
            raise TypeError(f"encoding must be a str or None, not {type(encoding).__name__}")
        try:
            text = isinstance(codecs.getincrementaldecoder(encoding)().decode(b"", final=True), str)
        except (LookupError, TypeError):
            text = False
        if not text:  # unknown, or a codec that does not turn bytes into text (base64, rot13)
            raise DraughtsError(f"encoding={excerpt(encoding)} is not a text encoding Python knows")


def outcomes(source: Source, variant: Ruleset | None, encoding: str | None, strict: bool) -> Iterator[Game | PDNError]:
    """Each game of ``source`` in turn, or the PDNError that says why it cannot be read.

    Failures are values, not warnings, so that callers in threads (a Dask worker's) can collect
    them without the process-wide warning filters.
    """
    for index, raw in enumerate(raw_games(tokenize(source_lines(source, encoding))), 1):
        yield outcome(raw, index, variant, strict)


def outcome(raw: RawGame, index: int, variant: Ruleset | None, strict: bool) -> Game | PDNError:
    """The ``index``-th game of a file replayed from its raw tokens, or the PDNError that says why it cannot be."""
    try:
        return _built(raw, index, variant, strict)
    except PDNError as error:
        return error
    except DraughtsError as error:  # not phrased by the builder, but still this game's fault
        return _wrapped(error, index, raw, str(error))
    except (RecursionError, OverflowError, ValueError) as error:  # a checker below that did not phrase it
        return _wrapped(error, index, raw, f"the game cannot be read ({type(error).__name__}: {excerpt(str(error))})")


def _wrapped(error: Exception, index: int, raw: RawGame, reason: str) -> PDNError:
    """A PDNError for a game that failed below the builder, which names the game and keeps the cause."""
    headers = {name: value for name, value in raw.headers().items() if lone_surrogate(name + value) is None}
    wrapped = PDNError(f"game {index}, line {raw.line}: {reason}", game=index, line=raw.line, headers=headers)
    wrapped.__cause__ = error
    return wrapped


def _built(raw: RawGame, index: int, variant: Ruleset | None, strict: bool) -> Game:
    """The game, under the rules its tags or ``variant`` name; for a game no tag names that does not read
    under International draughts, under the first PDN variant its notation fits that it replays in."""
    try:
        return Builder(raw, index, variant, strict).build()
    except PDNError as error:
        if variant is not None or not untagged(raw):
            raise
        failures = [(INTERNATIONAL, error)]
    guesses = candidates(raw, INTERNATIONAL)
    names = ", ".join(rules.name for rules in guesses)
    for rules in guesses:
        try:
            game = Builder(raw, index, rules, strict).build()
        except PDNError as error:
            failures.append((rules, error))
            continue
        game.guessed = True
        game.warnings.append(
            f"no GameType or Variant tag, and the moves are not legal in international: read as {rules.name}, "
            f"the first of {names} (the variants whose notation fits) where every move is legal; "
            "pass ruleset= to say which"
        )
        return game
    raise _unguessed(failures, names)


def _unguessed(failures: list[tuple[Ruleset, PDNError]], names: str) -> PDNError:
    """The error of a game no tag names and no guess reads: the one of the rules its moves went furthest in."""
    rules, failure = max(failures, key=lambda item: item[1].ply or 0)  # the first (international) on a tie
    tried = f"neither as international (the default) nor as {names}" if names else "not as international"
    where = "" if rules is INTERNATIONAL else f" (its moves go furthest as {rules.name})"
    hint = (
        f"; the game has no GameType or Variant tag and reads {tried}{where}: "
        "pass its rules as ruleset= (draughts pdn --variant NAME)"
    )
    error = type(failure)(
        str(failure) + hint,
        game=failure.game,
        line=failure.line,
        ply=failure.ply,
        move=failure.move,
        headers=failure.headers,
    )
    error.__cause__ = failure
    return error


def _read(source: Source, variant: Ruleset | None, errors: str, encoding: str | None, strict: bool) -> Iterator[Game]:
    for outcome in outcomes(source, variant, encoding, strict):
        if isinstance(outcome, Game):
            yield outcome
        elif errors == "raise":
            raise outcome
        else:
            warnings.warn(f"skipped {outcome}", PDNWarning, stacklevel=3)


def read_game(
    source: Source,
    ruleset: Ruleset | str | os.PathLike[str] | None = None,
    *,
    encoding: str | None = None,
    ambiguous_end: str = "first",
) -> Game:
    """The first game of a PDN file or stream: :func:`read_games`, stopped after one game.

    ``source`` is what :func:`read_games` takes: a path, or a text or binary stream; a ``str`` is
    always a path. PDN text in a string reads with :func:`parse_game`. The game is the root of its
    tree (:class:`~draughts.pdn.Game`): main line, side lines, comments, NAGs and ``%`` commands.

    Raises:
        PDNError: the source holds no game, or its first game cannot be read.
        OSError: the path cannot be read.
    """
    return _first(read_games(source, ruleset, encoding=encoding, ambiguous_end=ambiguous_end), "the input")


def parse_games(
    text: str,
    ruleset: Ruleset | str | os.PathLike[str] | None = None,
    errors: str = "raise",
    *,
    ambiguous_end: str = "first",
) -> Iterator[Game]:
    """The games of PDN ``text`` (a string), one at a time: :func:`read_games` for text in memory.

    >>> [len(game.mainline_moves()) for game in parse_games('1. 32-28 19-23 2-0 [Event "B"] 1. 33-29 *')]
    [2, 1]
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_games needs PDN text (a str), not {type(text).__name__}; paths read with read_games")
    return read_games(io.StringIO(text), ruleset, errors, ambiguous_end=ambiguous_end)


def parse_game(
    text: str, ruleset: Ruleset | str | os.PathLike[str] | None = None, *, ambiguous_end: str = "first"
) -> Game:
    """The first game of PDN ``text`` (a string; see :func:`read_games` for the options).

    Raises:
        PDNError: the text holds no game, or its first game cannot be read.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_game needs PDN text (a str), not {type(text).__name__}; paths read with read_game")
    return _first(read_games(io.StringIO(text), ruleset, ambiguous_end=ambiguous_end), "the text")


def _first(games: Iterator[Game], where: str) -> Game:
    """The first of ``games``, the rest left unread (a large file is not read to its end)."""
    try:
        for game in games:
            return game
    finally:
        close = getattr(games, "close", None)
        if close is not None:
            close()
    raise PDNError(f"no game in {where}", game=1, line=1)

"""Writing: a :class:`~draughts.pdn.Game` as PDN 3.0 text, and games to a path or a stream."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterable
from typing import IO

from draughts.errors import IllegalMoveError, PDNError
from draughts.notation import move_text
from draughts.pdn.errors import PDNTextError
from draughts.pdn.game import Game
from draughts.pdn.lexer import collapse, tokenize
from draughts.pdn.text import unwritable
from draughts.pdn.words import MARKS, NAG
from draughts.results import STANDARD_RESULTS, normalise_result


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _comment_pieces(text: str) -> list[str]:
    words = collapse(text.replace("}", ")")).split()
    if not words:
        return ["{}"]
    words[0] = "{" + words[0]
    words[-1] += "}"
    return words


def _variation_pieces(text: str) -> list[str]:
    tokens = list(tokenize([f"({text})"]))
    if len(tokens) != 1 or tokens[0].kind != "variation" or tokens[0].text != collapse(text):
        raise PDNError(f"variation {text!r} is not balanced text; it cannot be written inside parentheses")
    words = collapse(text).split() or [""]
    words[0] = "(" + words[0]
    words[-1] += ")"
    return words


def _wrap(pieces: list[str], width: int) -> list[str]:
    lines: list[str] = []
    current = ""
    for piece in pieces:
        if current and len(current) + 1 + len(piece) > width and piece[0] not in "%[":
            lines.append(current)
            current = piece
        else:
            current = f"{current} {piece}" if current else piece
    if current:
        lines.append(current)
    return lines


def write_game(game: Game, *, width: int = 80, variations: bool = True, numeric: bool = False) -> str:
    """``game`` as PDN 3.0 text, ending with a newline (see the module notes for the layout).

    Args:
        game: The game; its moves must be legal in turn from its start.
        width: Wrap the movetext at this many characters (a longer single token stays whole).
        variations: Write the game's variations back (verbatim), or drop them.
        numeric: Write square numbers even in algebraic variants.

    Raises:
        IllegalMoveError: a move of the game is not legal in turn.
        PDNError: a variation's text is not balanced.
        PDNTextError: a tag, comment, variation, annotation or result holds text no file can hold (a
            lone surrogate).
    """
    headers = game.export_headers()
    _check_text(game, headers)
    lines: list[str] = []
    pieces: list[str] = []
    for text in game.preamble:
        if headers:
            lines.extend(_wrap(_comment_pieces(text), width))
        else:  # a game without tags: before its first move
            pieces.extend(_comment_pieces(text))
    lines.extend(f'[{name} "{_escape(value)}"]' for name, value in headers.items())
    if headers:
        lines.append("")
    first = game.ruleset.first_to_move
    position = game.start
    offset = 0 if position.turn is first else 1
    need_number = True

    def notes(count: int) -> bool:
        written = False
        for text in game.comments.get(count, []):
            pieces.extend(_comment_pieces(text))
            written = True
        if variations:
            for text in game.variations.get(count, []):
                pieces.extend(_variation_pieces(text))
                written = True
        return written

    notes(0)
    for ply, move in enumerate(game.moves, 1):
        try:
            text = move_text(position, move, numeric=numeric)
        except IllegalMoveError as error:
            raise IllegalMoveError(f"ply {ply} of the game: {error}") from None
        notes_of_move = game.annotations.get(ply, [])
        glued = bool(notes_of_move) and MARKS.fullmatch(notes_of_move[0]) is not None
        text += notes_of_move[0] if glued else ""
        number = (ply - 1 + offset) // 2 + 1
        if position.turn is first:
            text = f"{number}. {text}"
        elif need_number:
            text = f"{number}... {text}"
        pieces.append(text)
        pieces.extend(
            note for note in notes_of_move[1 if glued else 0 :] if MARKS.fullmatch(note) or NAG.fullmatch(note)
        )
        position = position.play(move)
        need_number = notes(ply)
    result = normalise_result(game.result) or game.result
    pieces.append(result if result in STANDARD_RESULTS else "*")
    lines.extend(_wrap(pieces, width))
    return "\n".join(lines) + "\n"


def _check_text(game: Game, headers: dict[str, str]) -> None:
    """Raise :class:`PDNTextError` for any text of ``game`` that UTF-8 cannot encode, before anything is written."""
    items: list[tuple[str, str]] = [("the result", game.result)]
    items += [item for name, value in headers.items() for item in (("the tag name", name), (f"the tag {name}", value))]
    items += [("the comment", text) for text in game.preamble]
    for what, notes in (("comment", game.comments), ("variation", game.variations), ("annotation", game.annotations)):
        items += [(f"the {what} at ply {ply}", text) for ply, texts in notes.items() for text in texts]
    problem = unwritable(items)
    if problem is not None:
        raise PDNTextError(f"cannot write the game: {problem}", game=game.index, headers=headers)


def write_games(
    games: Iterable[Game],
    target: str | os.PathLike[str] | IO[str],
    *,
    width: int = 80,
    variations: bool = True,
    numeric: bool = False,
) -> int:
    """Write ``games`` to a path (UTF-8) or a text stream, separated by blank lines; return how many.

    The keyword arguments are those of :func:`write_game`. A path is written all or nothing: the
    games go to a temporary file in the same directory, which replaces the path (atomically, keeping
    an existing file's permissions; through a symbolic link, its target) only once every game is
    written; when a game cannot be written the existing file is left as it was. On a stream each
    game is written whole or not at all, so the games before a failing one are there.

    Raises:
        IllegalMoveError: a move of a game is not legal in turn.
        PDNError: a game cannot be written (:class:`PDNTextError`: text no file can hold).
        OSError: the path cannot be written.
    """
    if isinstance(target, (str, os.PathLike)):
        return _write_file(games, os.fspath(target), width=width, variations=variations, numeric=numeric)
    count = 0
    for game in games:
        text = write_game(game, width=width, variations=variations, numeric=numeric)
        target.write(f"\n{text}" if count else text)
        count += 1
    return count


def _write_file(games: Iterable[Game], path: str, *, width: int, variations: bool, numeric: bool) -> int:
    """:func:`write_games` to a path through a temporary file that replaces it once all is written."""
    final = os.path.realpath(path)
    folder = os.path.dirname(final) or "."
    handle, temporary = tempfile.mkstemp(prefix=f".{os.path.basename(final)}.", suffix=".tmp", dir=folder)
    try:
        with open(handle, "w", encoding="utf-8", newline="\n") as stream:
            count = write_games(games, stream, width=width, variations=variations, numeric=numeric)
            stream.flush()
            os.fsync(stream.fileno())
        try:
            os.chmod(temporary, stat.S_IMODE(os.stat(final).st_mode))
        except FileNotFoundError:
            os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, final)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
    return count


def _umask() -> int:
    """The process's umask, for a new file's permissions: from /proc where Linux has it (setting and
    restoring the umask, the fallback, is not safe while other threads create files)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask

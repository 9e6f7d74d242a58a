"""Writing: a :class:`~draughts.pdn.Game` as PDN 3.0 text, and games to a path or a stream."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterable
from typing import IO

from draughts._text import excerpt
from draughts.errors import DraughtsError
from draughts.pdn.errors import PDNTextError
from draughts.pdn.game import Game, descendants
from draughts.pdn.text import unwritable
from draughts.pdn.visitor import StringExporter, comment_pieces, wrap
from draughts.pdn.words import check_nag

__all__ = ["write_game", "write_games"]


def write_game(game: Game, *, width: int = 80, variations: bool = True, numeric: bool = False) -> str:
    """``game`` and its whole tree as PDN 3.0 text, ending with a newline (see the package notes for the layout).

    The one writer: ``game.accept(StringExporter(...))``, after the preamble's comments, with every
    text checked first so that a game that cannot be written raises before anything is.

    Args:
        game: The game (the root of its tree).
        width: Wrap the movetext at this many characters (a longer single token stays whole).
        variations: Write the side lines too, or the main line only.
        numeric: Write square numbers even in algebraic variants.

    Raises:
        IllegalMoveError: a move of the tree is not legal in its position.
        PDNError: a NAG is neither a NAG (``$1``) nor a mark (``!?``); a ``%`` command's value
            cannot be written (not finite).
        PDNTextError: a tag, comment, NAG or result holds text no file can hold (a lone surrogate).
    """
    headers = game.export_headers()
    _check_text(game, headers)
    lines: list[str] = []
    for text in game.preamble:
        lines.extend(wrap(comment_pieces(text, width), width))
    exporter = StringExporter(width=width, numeric=numeric, variations=variations)
    return "\n".join(lines) + ("\n" if lines else "") + game.accept(exporter)


def _check_text(game: Game, headers: dict[str, str]) -> None:
    """Raise for any text of ``game`` no file can hold, or a NAG PDN cannot hold, before anything is written."""
    items: list[tuple[str, str]] = [("the result", game.result)]
    items += [item for name, value in headers.items() for item in (("the tag name", name), (f"the tag {name}", value))]
    items += [("the comment", text) for text in game.preamble]
    for node in descendants(game):
        items += [(f"the comment at ply {node.ply}", node.comment)]
        if node.parent is not None:
            items += [(f"the comment before ply {node.ply}", node.starting_comment)]
            items += [(f"the NAG at ply {node.ply}", check_nag(nag)) for nag in node.nags]
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
    text of every game is made before the path is touched, so a game that cannot be written leaves
    an existing file as it was. A regular file (or a new path) is then replaced atomically: the
    text goes to a temporary file in the same directory, which replaces it (keeping an existing
    file's permissions; through a symbolic link, its target). Anything else that is not a directory
    (``/dev/null``, a FIFO, a terminal) is written to directly, never replaced by a file. On a
    stream each game is written whole or not at all, so the games before a failing one are there.

    Raises:
        IllegalMoveError: a move of a game is not legal in turn.
        PDNError: a game cannot be written (:class:`PDNTextError`: text no file can hold).
        DraughtsError: the path is a directory, or its name holds a lone surrogate (no file can
            have such a name).
        OSError: the path cannot be written.
    """
    if isinstance(target, (str, os.PathLike)):
        path = _checked_path(target)
        texts = [write_game(game, width=width, variations=variations, numeric=numeric) for game in games]
        _write_file("\n".join(texts), path)
        return len(texts)
    count = 0
    for game in games:
        text = write_game(game, width=width, variations=variations, numeric=numeric)
        target.write(f"\n{text}" if count else text)
        count += 1
    return count


def _checked_path(target: str | os.PathLike[str]) -> str:
    """``target`` as a str path, refused when no file can have its name (a lone surrogate)."""
    path = os.fspath(target)
    if not isinstance(path, str):
        raise TypeError(f"write_games needs a str path, not {type(path).__name__}")
    try:
        os.fsencode(path)
    except UnicodeEncodeError as error:
        raise DraughtsError(
            f"cannot write to {excerpt(path)}: its name holds a lone surrogate "
            f"(U+{ord(path[error.start]):04X}), which no file name can hold"
        ) from None
    return path


def _write_file(text: str, path: str) -> None:
    """Write ``text`` to ``path``: directly into what is not a regular file, else through a temporary
    file that replaces it once all is written."""
    final = os.path.realpath(path)
    try:
        mode: int | None = os.stat(final).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and stat.S_ISDIR(mode):
        raise DraughtsError(f"cannot write the games to {excerpt(path)}: it is a directory")
    if mode is not None and not stat.S_ISREG(mode):  # a device, a FIFO, a socket: write into it, never replace it
        with open(final, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
        return
    folder = os.path.dirname(final) or "."
    handle, temporary = tempfile.mkstemp(prefix=f".{os.path.basename(final)}.", suffix=".tmp", dir=folder)
    try:
        with open(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, 0o666 & ~_umask() if mode is None else stat.S_IMODE(mode))
        os.replace(temporary, final)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


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

"""Reading headers only, and writing a game tree back (python-chess's ``read_headers`` and ``StringExporter``)."""

from __future__ import annotations

from collections.abc import Iterator

from draughts.pdn.decode import Source, source_lines
from draughts.pdn.game import Game
from draughts.pdn.lexer import tokenize
from draughts.pdn.split import raw_games
from draughts.pdn.tree import movetext
from draughts.results import STANDARD_RESULTS, normalise_result


def read_headers(source: Source, *, encoding: str | None = None) -> Iterator[dict[str, str]]:
    """The tags of each game of a PDN file or stream, in file order, without replaying a move.

    Streams: one game's tokens at a time (at most 100,000 movetext tokens), so
    memory stays bounded however large the file. Tag names and values are as written.

    >>> import io
    >>> list(read_headers(io.StringIO('[White "A"] 1. 32-28 * [White "B"] 1. 33-29 *')))
    [{'White': 'A'}, {'White': 'B'}]
    """
    for raw in raw_games(tokenize(source_lines(source, encoding))):
        yield raw.headers()


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def export(game: Game, *, width: int = 80, numeric: bool = False) -> str:
    """``game``'s tree (:meth:`Game.tree() <draughts.pdn.Game.tree>`) as PDN text, every variation nested.

    Comments are written with their ``%`` commands (:func:`draughts.pdn.commands.command_text`);
    reading the text back gives an equal tree (:meth:`~draughts.pdn.tree.GameNode.same_tree`).
    """
    headers = game.export_headers()
    lines = [f'[{name} "{_escape(value)}"]' for name, value in headers.items()]
    if headers:
        lines.append("")
    pieces = movetext(game.tree(), numeric=numeric)
    result = normalise_result(game.result) or game.result
    pieces.append(result if result in STANDARD_RESULTS else "*")
    current = ""
    for piece in pieces:
        if current and len(current) + 1 + len(piece) > width and piece[0] not in "%[":
            lines.append(current)
            current = piece
        else:
            current = f"{current} {piece}" if current else piece
    lines.append(current)
    return "\n".join(lines) + "\n"

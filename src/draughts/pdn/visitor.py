"""Visitors: reading and writing games as a stream of events, as python-chess's ``chess.pgn`` visitors do.

A visitor (:class:`~draughts.pdn.events.BaseVisitor`) is told about a game piece by piece:
``begin_game``, each tag (``visit_header``), ``end_headers``, the start position, then the moves,
comments, NAGs and variations in the order PDN writes them, the result and ``end_game``;
``result()`` is what the visitor made of it. :func:`read_with` drives a visitor over every game of
a PDN file, :meth:`Game.accept() <draughts.pdn.Game.accept>` and
:func:`~draughts.pdn.game.walk` over a game or tree in memory.

* :class:`HeadersBuilder` keeps the tags and skips the movetext (``end_headers`` returns
  :data:`~draughts.pdn.events.SKIP`), so no move is replayed: :func:`read_headers` is
  ``read_with(source, HeadersBuilder())``.
* :class:`SkipVisitor` skips every game (to count games, or to get past them quickly).
* :class:`GameBuilder` builds a :class:`~draughts.pdn.Game`, the root of its tree of
  :class:`~draughts.pdn.GameNode` (what :func:`~draughts.pdn.read_game` gives).
* :class:`StringExporter` writes PDN text: :func:`~draughts.pdn.write_game` is
  ``game.accept(StringExporter())``.

>>> import io
>>> from draughts import pdn
>>> text = '[White "A"] [GameType "20"] 1. 32-28 (1. 33-29 {also}) 19-23 *'
>>> list(read_with(io.StringIO(text), HeadersBuilder()))
[{'White': 'A', 'GameType': '20'}]
>>> game = next(read_with(io.StringIO(text), GameBuilder()))
>>> [node.san() for node in game.variations]
['32-28', '33-29']
>>> print(game.accept(StringExporter(headers=False)), end="")
1. 32-28 (1. 33-29 {also}) 1... 19-23 *
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator

from draughts.errors import PDNError
from draughts.move import Move
from draughts.notation import move_text
from draughts.pdn.decode import Source, source_lines
from draughts.pdn.errors import PDNWarning
from draughts.pdn.events import SKIP, BaseVisitor, ResultT, SkipType, begin_headers
from draughts.pdn.game import Game, GameNode, visit_movetext, walk, walk_line
from draughts.pdn.lexer import tokenize
from draughts.pdn.reader import check_options, outcome
from draughts.pdn.split import raw_games
from draughts.pdn.words import MARKS, check_nag
from draughts.position import Position
from draughts.results import STANDARD_RESULTS, normalise_result
from draughts.rules import Ruleset
from draughts.rules.files import resolve_ruleset

__all__ = [
    "SKIP",
    "BaseVisitor",
    "GameBuilder",
    "HeadersBuilder",
    "ResultT",
    "SkipType",
    "SkipVisitor",
    "StringExporter",
    "comment_pieces",
    "read_headers",
    "read_with",
    "walk",
    "walk_line",
    "wrap",
]


def read_with(
    source: Source,
    visitor: BaseVisitor[ResultT],
    ruleset: Ruleset | str | os.PathLike[str] | None = None,
    errors: str = "raise",
    *,
    encoding: str | None = None,
    ambiguous_end: str = "first",
) -> Iterator[ResultT]:
    """``visitor.result()`` for each game of a PDN file or stream, in file order.

    The tags are visited as written, before any move is replayed; when
    :meth:`~draughts.pdn.events.BaseVisitor.end_headers` returns :data:`~draughts.pdn.events.SKIP`
    the game's moves are not replayed at all. Otherwise the game is read as
    :func:`~draughts.pdn.read_games` reads it (``ruleset``, ``errors``, ``encoding`` and
    ``ambiguous_end`` mean what they mean there) and its tree is walked. A game that cannot be read
    raises its :class:`~draughts.PDNError` (``errors="raise"``) or is skipped with a
    :class:`~draughts.pdn.PDNWarning` (``errors="skip"``: nothing is yielded for it). One game's
    tokens are held at a time, so memory stays bounded however large the file.
    """
    check_options(errors, encoding, ambiguous_end)
    rules = None if ruleset is None else resolve_ruleset(ruleset)
    for index, raw in enumerate(raw_games(tokenize(source_lines(source, encoding))), 1):
        if not begin_headers(visitor, ((name, value) for name, value, _ in raw.tags)):
            visitor.end_game()
            yield visitor.result()
            continue
        game = outcome(raw, index, rules, ambiguous_end == "raise")
        if isinstance(game, PDNError):
            if errors == "raise":
                raise game
            warnings.warn(f"skipped {game}", PDNWarning, stacklevel=2)
            continue
        visit_movetext(game, game.result, visitor)
        visitor.end_game()
        yield visitor.result()


class HeadersBuilder(BaseVisitor[dict[str, str]]):
    """The tags of a game, as written; the movetext is skipped, so no move is replayed."""

    def __init__(self) -> None:
        self.headers: dict[str, str] = {}

    def begin_game(self) -> None:
        self.headers = {}

    def visit_header(self, name: str, value: str) -> None:
        self.headers[name] = value

    def end_headers(self) -> SkipType:
        return SKIP

    def result(self) -> dict[str, str]:
        return self.headers


class SkipVisitor(BaseVisitor[bool]):
    """Skips every game (its moves are not replayed); the result is True for each game passed."""

    def end_headers(self) -> SkipType:
        return SKIP

    def begin_variation(self) -> SkipType:
        return SKIP

    def result(self) -> bool:
        return True


def read_headers(source: Source, *, encoding: str | None = None) -> Iterator[dict[str, str]]:
    """The tags of each game of a PDN file or stream, in file order, without replaying a move.

    ``read_with(source, HeadersBuilder())``: one game's tokens at a time (at most 100,000 movetext
    tokens), so memory stays bounded however large the file. Tag names and values are as written.

    >>> import io
    >>> list(read_headers(io.StringIO('[White "A"] 1. 32-28 * [White "B"] 1. 33-29 *')))
    [{'White': 'A'}, {'White': 'B'}]
    """
    return read_with(source, HeadersBuilder(), encoding=encoding)


class GameBuilder(BaseVisitor[Game]):
    """Builds a :class:`~draughts.pdn.Game`, the root of its tree, from the events.

    The moves are taken as legal (as :func:`~draughts.pdn.visitor.read_with` and
    :func:`~draughts.pdn.game.walk` give them); the tags as visited. A node's comments are gathered
    and joined once at the end of the game, so any number of them costs linear time.
    """

    def __init__(self) -> None:
        self.begin_game()

    def begin_game(self) -> None:
        self.headers: dict[str, str] = {}
        self.game: Game | None = None
        self.current: GameNode | None = None
        self.stack: list[tuple[GameNode, bool, list[str]]] = []  # (node to go back to, started, pending comments)
        self.started = False  # the current line has a move
        self.pending: list[str] = []  # comments before the current variation's first move
        self.comments: dict[int, tuple[GameNode, list[str]]] = {}
        self.game_result = "*"

    def visit_header(self, name: str, value: str) -> None:
        self.headers[name] = value

    def visit_start(self, position: Position) -> None:
        self.game = self.current = Game(start=position)
        self.started = True  # a comment before the first move belongs to the root

    def visit_move(self, position: Position, move: Move) -> None:
        parent = self._current()
        node = GameNode(parent.position.play(move), parent, move)
        parent.variations.append(node)
        if not self.started or self.pending:
            node.starting_comment, self.pending = " ".join(self.pending), []
        self.started = True
        self.current = node

    def visit_nag(self, nag: str) -> None:
        current = self._current()
        if current.parent is not None:
            current.nags.append(nag)

    def visit_comment(self, comment: str) -> None:
        current = self._current()
        if not self.started:
            self.pending.append(comment)
        else:
            self.comments.setdefault(id(current), (current, []))[1].append(comment)

    def begin_variation(self) -> None:
        current = self._current()
        self.stack.append((current, self.started, self.pending))
        self.current = current.parent if current.parent is not None else current
        self.started, self.pending = False, []

    def end_variation(self) -> None:
        if self.stack:
            self.current, self.started, self.pending = self.stack.pop()

    def visit_result(self, result: str) -> None:
        self.game_result = result

    def _current(self) -> GameNode:
        if self.current is None:
            raise PDNError("GameBuilder: a move or comment came before visit_start gave the start position")
        return self.current

    def result(self) -> Game:
        if self.game is None:
            raise PDNError("GameBuilder: the game had no start position (its movetext was skipped)")
        for node, texts in self.comments.values():
            node.set_comment(" ".join(texts))
        self.comments = {}
        self.game.headers, self.game.result = dict(self.headers), self.game_result
        return self.game


def _number(position: Position, ply: int) -> tuple[int, bool]:
    """The move number of the move played at ``ply`` from ``position``, and whether it is the first player's."""
    first = position.turn is position.ruleset.first_to_move
    offset = 0 if first == ((ply - 1) % 2 == 0) else 1
    return (ply - 1 + offset) // 2 + 1, first


class StringExporter(BaseVisitor[str]):
    """Writes the events as PDN text: tags, then the movetext wrapped at ``width`` characters.

    Move numbers as PDN writes them (``1.``, and ``1...`` for the second player's move when it opens
    a line or follows a comment or a variation), each move in its variant's notation (``numeric``:
    square numbers in algebraic variants too), a move's first mark glued to it, ``}`` in a comment
    written as ``)``, NAGs checked (``words.check_nag``); ``variations=False`` leaves the side lines
    out. Writing a tree and reading it back gives an equal tree, and writing that again gives the
    same text. The text is gathered in lists and joined once, so its cost is linear in its length.
    """

    def __init__(
        self, *, headers: bool = True, width: int = 80, numeric: bool = False, variations: bool = True
    ) -> None:
        self.with_headers = headers
        self.width = width
        self.numeric = numeric
        self.variations = variations
        self.begin_game()

    def begin_game(self) -> None:
        self.lines: list[str] = []
        self.pieces: list[str] = []
        self.ply = 0
        self.plies: list[int] = []
        self.number = True  # the next second-player move needs its number
        self.glue = False  # a mark may be glued to the last piece (the move just written)
        self.open = False  # a "(" waits for the next piece

    def visit_header(self, name: str, value: str) -> None:
        if self.with_headers:
            escaped = value.replace("\\", "\\\\").replace('"', '\\"')
            self.lines.append(f'[{name} "{escaped}"]')

    def end_headers(self) -> None:
        if self.lines:
            self.lines.append("")

    def visit_start(self, position: Position) -> None:
        self.ply = 0

    def _piece(self, text: str) -> None:
        if self.open:
            text, self.open = "(" + text, False
        self.pieces.append(text)

    def visit_move(self, position: Position, move: Move) -> None:
        self.ply += 1
        text = move_text(position, move, numeric=self.numeric)
        number, first = _number(position, self.ply)
        if first:
            text = f"{number}. {text}"
        elif self.number:
            text = f"{number}... {text}"
        self._piece(text)
        self.number = False
        self.glue = True

    def visit_nag(self, nag: str) -> None:
        check_nag(nag)
        if self.glue and MARKS.fullmatch(nag) and self.pieces:
            self.pieces[-1] += nag
        else:
            self._piece(nag)
        self.glue = False

    def visit_comment(self, comment: str) -> None:
        for piece in comment_pieces(comment, self.width):
            self._piece(piece)
        self.number = True
        self.glue = False

    def begin_variation(self) -> SkipType | None:
        if not self.variations:
            return SKIP
        self.plies.append(self.ply)
        self.ply -= 1
        self.open = True
        self.number = True
        self.glue = False
        return None

    def end_variation(self) -> None:
        if self.open:  # an empty variation
            self._piece("")
        self.pieces[-1] += ")"
        self.ply = self.plies.pop() if self.plies else self.ply
        self.number = True
        self.glue = False

    def visit_result(self, result: str) -> None:
        normal = normalise_result(result) or result
        self._piece(normal if normal in STANDARD_RESULTS else "*")

    def end_game(self) -> None:
        self.lines.extend(wrap(self.pieces, self.width))
        self.pieces = []

    def result(self) -> str:
        return "\n".join(self.lines) + "\n" if self.lines else ""


def comment_pieces(comment: str, width: int) -> list[str]:
    """A comment as pieces to wrap: whole when it fits on a line, else word by word; ``}`` written as ``)``."""
    text = " ".join(comment.replace("}", ")").split())
    if len(text) + 2 <= width:
        return ["{" + text + "}"]
    words = text.split()
    words[0] = "{" + words[0]
    words[-1] += "}"
    return words


def wrap(pieces: list[str], width: int) -> list[str]:
    """``pieces`` joined by spaces into lines of at most ``width`` characters (a longer piece stays whole).

    No line starts with ``%`` or ``[`` (a line comment, a tag). Each line is joined once, so the
    cost is linear however wide the lines.
    """
    lines: list[str] = []
    current: list[str] = []
    length = 0
    for piece in pieces:
        if current and length + 1 + len(piece) > width and piece[:1] not in ("%", "["):
            lines.append(" ".join(current))
            current = []
        length = length + 1 + len(piece) if current else len(piece)
        current.append(piece)
    if current:
        lines.append(" ".join(current))
    return lines

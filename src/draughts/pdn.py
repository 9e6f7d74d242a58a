"""PDN 3.0 game files: a streaming reader that is strict about rules and lenient about layout, and a writer.

>>> from draughts import pdn
>>> game = pdn.read_game('[White "A"] [Black "B"] [GameType "20"] 1. 32-28 19-23 2. 28x19 {forced} 14x23 2-0')
>>> len(game.moves), game.result, game.comments
(4, '2-0', {3: ['forced']})
>>> print(pdn.write_game(game), end="")
[White "A"]
[Black "B"]
[GameType "20,W,10,10,N2,0"]
<BLANKLINE>
1. 32-28 19-23 2. 28x19 {forced} 2... 14x23 2-0

Reading
-------
:func:`read_games` reads a path or a stream line by line and yields one :class:`Game` at a time, so a
large collection is never loaded at once. Every move is replayed: ``game.moves`` holds legal
:class:`~draughts.Move` objects from ``game.start``. What the reader accepts, beyond PDN 3.0:

* **Layout.** CRLF, a byte-order mark, ``%`` line comments, comments before the first tag (kept
  in :attr:`Game.preamble`), padded tag names, unquoted tag values (``[Round 17]``), raw
  backslashes in tag values, move numbers glued to moves (``1.33-28``), zero-padded numbers
  (``01.``), ``1...`` and ``1. ...``, moves after the last move number, no move numbers at all.
* **Moves** are read by :func:`draughts.notation.matching_moves`: short and long forms, either
  separator (plain moves written with ``x``, captures with ``-``), padded squares (``1- 6``,
  ``06-11``), Russian short notation (``ed4``), upper-case algebraic squares, Hub-style captures,
  and ``!``/``?``/``(?)`` marks glued to the move. A from-to capture that several legal moves fit is
  kept open: the reader follows every candidate until later moves rule all but one out (a
  breadth-first search over the candidates, merging lines that reach the same position). If
  several lines with different positions survive to the end of the game, that is an
  :class:`PDNAmbiguousMoveError`.
* **Multi-jumps split into one ply per jump** (playstrategy.org writes ``6. c3xa5 e5xc3 7. c3xa1``
  for the one black move e5xc3xa1) are merged, but only when the split capture matches no legal
  move as written; :attr:`Game.warnings` records each merge.
* **Algebraic squares in American checkers** (PDN numbers the squares; playstrategy.org writes
  ``c3-d4``) are read from the side of the player who moves first (Black), whose men start on
  ranks 1-3: ``a1`` is Black's near-left corner, as the PDN GameType notation attribute places the
  first square "from the perspective of the starting player". For every other named variant the
  first player is White, so this is the usual a1 at White's near left.
* **Results**: see below. ``0-0`` and ``*`` too. A match score in the place of the result
  (``4-6``, ``1-9``, which look like moves) is taken as the result when it is the last token of
  the movetext and equals the Result tag.
* **Encodings.** A path is read as UTF-8 when the whole file is valid UTF-8. Otherwise each line
  that is valid UTF-8 is still read as UTF-8, and the other lines with one 8-bit code page chosen
  for the whole file: cp1251 (Cyrillic) when most bytes above 127 come in runs, as Cyrillic words
  do, else cp1252/Latin-1. Pass ``encoding=`` to force one. Text streams are used as they are.

Not accepted, each an error for that game: a move that is illegal in its position (the message
names the ply and lists the legal moves), unknown moves written ``-`` (``1. - -``: the game cannot
be replayed), an unknown GameType, a bad FEN, text in the movetext that is neither a move, a move
number, a mark, a NAG nor a result, unbalanced braces or parentheses, and ``/FEN "..."/`` setup
commands inside the movetext. With ``errors="skip"`` such a game is skipped with a
:class:`PDNWarning` that names it and reading goes on; with ``errors="raise"`` (the default) the
:class:`~draughts.PDNError` propagates.

Decisions
---------
* **Variations are skipped**: they are not replayed or checked, so prose in parentheses (as
  some annotated files have) reads fine. Their text is kept verbatim (whitespace collapsed) in
  :attr:`Game.variations` and written back as it was; ``write_game(game, variations=False)``
  drops them.
* **Comments** are kept with whitespace collapsed. :attr:`Game.comments`, :attr:`Game.variations`
  and :attr:`Game.annotations` (NAGs ``$1`` and marks ``!?``) map *the number of plies played when
  the item appears* to a list, so ``comments[0]`` comes before the first move and ``comments[3]``
  after the third. A NAG or mark before the first move is dropped.
* **Move numbers** are checked for syntax only; the side to move comes from the position.
* **Result.** :attr:`Game.result` is normalised (``1:0`` -> ``1-0``, ``1/2:1/2`` -> ``1/2-1/2``,
  spaces removed, ``½`` -> ``1/2``) and keeps its scoring system (``2-0`` on 8x8 stays ``2-0``).
  When the Result tag and the movetext's result disagree, **the tag wins**, unless the tag is
  missing, unreadable or ``*``: movetexts that stop early end in ``*`` while the tag has the real
  result, and in the collections checked, where both give a decisive result that differ, the tag
  fits the final position. The disagreement is noted in :attr:`Game.warnings`.
* **Who "1-0" means.** The first score belongs to the player who moves first in the variant:
  White everywhere except American checkers, where it is Black. Worked out from the files: in the
  20 playstrategy.org American games that end with the loser to move and no legal move, ``1-0``
  always goes with a Black win and ``0-1`` with a White win; in the CheckerBoard (Tinsley) and
  Open Checkers Archive files, which list ``[Black "..."]`` first, the ``1-0`` games end with Black
  ahead in material in 30 of the 34 where material differs, the ``0-1`` games with White ahead in
  65 of 81. :attr:`Game.winner`, :func:`winner_of` and :func:`result_for` follow this.

Writing
-------
:func:`write_game` writes the tags Event, Site, Date, Round, White, Black, Result (those the game
has), then GameType (the ruleset's full ``pdn_gametype_tag``), then SetUp ``"1"`` and FEN when the
game does not start from the initial position, then the other tags; then the movetext: move
numbers (``1.``, and ``1...`` when the second player's move opens the movetext or follows a
comment or variation), each move in the variant's notation (short unless ambiguous, then the long
form PDN 3.0 prescribes), marks, NAGs, comments, variations, and the result, wrapped at 80
characters. :meth:`Game.export_headers` gives the tags exactly as written; ``read_game(write_game(g))``
has those headers and the same start, moves, result, comments, annotations and variations. A
result that cannot stand as a PDN game terminator (a match score such as ``4-6``) is written in
the Result tag, and the movetext ends with ``*``. A ``}`` in a comment is written as ``)``. A
move's first mark is glued to it, its other marks and its NAGs follow. A game without tags has
its preamble comments read back as comments before the first move.
"""

from __future__ import annotations

import codecs
import io
import os
import re
import warnings
from collections.abc import Iterable, Iterator
from typing import IO, NamedTuple, NoReturn

import attrs

from draughts.board import Board, result_text
from draughts.color import Color
from draughts.errors import (
    AmbiguousMoveError,
    DraughtsError,
    IllegalMoveError,
    InvalidMoveError,
    PDNError,
    UnknownVariantError,
)
from draughts.geometry import SquareNames
from draughts.move import Move
from draughts.notation import matching_moves, move_text
from draughts.position import Position
from draughts.rules import Ruleset
from draughts.variants import from_gametype, get_variant

__all__ = [
    "Game",
    "PDNAmbiguousMoveError",
    "PDNIllegalMoveError",
    "PDNUnknownVariantError",
    "PDNWarning",
    "normalise_result",
    "read_game",
    "read_games",
    "result_for",
    "winner_of",
    "write_game",
    "write_games",
]


class PDNIllegalMoveError(PDNError, IllegalMoveError):
    """A move in a PDN game that is not legal in its position, or an unknown move (``-``)."""


class PDNAmbiguousMoveError(PDNError, AmbiguousMoveError):
    """A move in a PDN game that several legal moves fit, and no later move settles."""


class PDNUnknownVariantError(PDNError, UnknownVariantError):
    """A PDN GameType tag that names no supported variant."""


class PDNWarning(UserWarning):
    """A game skipped by ``read_games(..., errors="skip")``; the message names the game and the line."""


# --- results ---------------------------------------------------------------------------------

_STANDARD_RESULTS = frozenset({"1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"})
"""Normal forms of the results that end a game's movetext (``1:0`` and ``½-½`` normalise into them)."""

_SIDE = r"(?:[0-9]{1,3}(?:\.[0-9]{1,3})?(?:[ \t]*(?:1/2|½))?|1/2|½)"
_SCORE = re.compile(rf"[ \t]*({_SIDE})[ \t]*[-:][ \t]*({_SIDE})[ \t]*")
_ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
_ITALIAN_TAGS = {
    "Bianco": "White",
    "Nero": "Black",
    "Risultato": "Result",
    "Evento": "Event",
    "Luogo": "Site",
    "Data": "Date",
    "Turno": "Round",
}


def normalise_result(text: str) -> str | None:
    """The result ``text`` in its normal form, or None if it is no result.

    >>> [normalise_result(t) for t in ("1:0", " 1/2 : 1/2 ", "½-½", "2-0", "4-6", "*", "Bianco vince")]
    ['1-0', '1/2-1/2', '1/2-1/2', '2-0', '4-6', '*', None]
    """
    stripped = text.strip()
    if stripped == "*":
        return "*"
    match = _SCORE.fullmatch(stripped)
    if match is None:
        return None
    sides = [re.sub(r"[ \t]+", " ", side).replace("½", "1/2") for side in match.groups()]
    sides = [re.sub(r"(?<=[0-9]) ?1/2$", " 1/2", side) if side != "1/2" else side for side in sides]
    return f"{sides[0]}-{sides[1]}"


def _score(side: str) -> float:
    total = 0.0
    for part in side.split():
        total += 0.5 if part == "1/2" else float(part)
    return total


def winner_of(ruleset: Ruleset | str, result: str) -> Color | None:
    """The winner a PDN result names: the first score is the first player's (Black in American checkers).

    None for a draw, an unfinished game (``*``), a double loss (``0-0``) or text that is no result.

    >>> winner_of("international", "2-0"), winner_of("american", "1-0"), winner_of("russian", "1/2:1/2")
    (<Color.WHITE: 0>, <Color.BLACK: 1>, None)
    """
    rules = get_variant(ruleset)
    normal = normalise_result(result)
    if normal is None or normal in ("*", "0-0"):
        return None
    first, second = (_score(side) for side in normal.split("-"))
    if first == second:
        return None
    return rules.first_to_move if first > second else rules.first_to_move.opponent


def result_for(ruleset: Ruleset | str, winner: Color | None) -> str:
    """The PDN result for ``winner`` (None: a draw) in the ruleset's result notation.

    >>> result_for("international", None), result_for("american", Color.BLACK)
    ('1-1', '1-0')
    """
    return result_text(get_variant(ruleset), winner)


# --- the game --------------------------------------------------------------------------------


def _initial_of(game: Game) -> Position:
    return Position.initial(game.ruleset)


@attrs.define
class Game:
    """One game of a PDN file: tags, start position, main line, result and annotations.

    Attributes:
        ruleset: The rules the game is played under (a variant name is converted).
        headers: The tags, in file order. Italian tag names (``Bianco``, ``Nero``, ``Risultato`` ...)
            are renamed to the standard ones; values are as written.
        start: The start position (from the FEN tag, else the variant's initial position).
        moves: The main line, each move legal in turn from ``start``.
        result: The result, normalised (see the module notes): ``"1-0"``, ``"2-0"``, ``"*"`` ...
        comments: Comments by the number of plies played when they appear.
        annotations: NAGs (``$1``) and marks (``!?``) by the number of plies played, so a move's own
            annotations are under its ply number (1 = first move).
        variations: Variation text (without the outer parentheses) by the number of plies played.
        preamble: Comments before the game's first tag.
        index: The game's number in the file it was read from (not part of equality).
        line: The first line of the game in that file (not part of equality).
        warnings: What the reader noticed and worked around (not part of equality).
    """

    ruleset: Ruleset = attrs.field(converter=get_variant)
    headers: dict[str, str] = attrs.field(factory=dict)
    start: Position = attrs.field(default=attrs.Factory(_initial_of, takes_self=True))
    moves: list[Move] = attrs.field(factory=list)
    result: str = "*"
    comments: dict[int, list[str]] = attrs.field(factory=dict)
    annotations: dict[int, list[str]] = attrs.field(factory=dict)
    variations: dict[int, list[str]] = attrs.field(factory=dict)
    preamble: list[str] = attrs.field(factory=list)
    index: int | None = attrs.field(default=None, eq=False)
    line: int | None = attrs.field(default=None, eq=False)
    warnings: list[str] = attrs.field(factory=list, eq=False)

    @classmethod
    def from_board(cls, board: Board, headers: dict[str, str] | None = None, result: str | None = None) -> Game:
        """A game of ``board``'s moves from its root position.

        Without ``result`` the result is the board's outcome in PDN terms (see :func:`result_for`),
        or ``*`` while the game goes on. The Result tag, when ``headers`` has one, is set to match.
        """
        if result is None:
            outcome = board.outcome()
            result = "*" if outcome is None else result_for(board.ruleset, outcome.winner)
        tags = dict(headers or {})
        if "Result" in tags:
            tags["Result"] = result
        return cls(board.ruleset, tags, board.root(), board.move_stack, result)

    def board(self) -> Board:
        """A :class:`~draughts.Board` with the main line played from ``start``.

        Raises:
            IllegalMoveError: a move of :attr:`moves` is not legal in turn.
        """
        board = Board.from_position(self.start)
        for move in self.moves:
            board.push(move)
        return board

    def positions(self) -> list[Position]:
        """The start position and the position after each move."""
        positions = [self.start]
        for move in self.moves:
            positions.append(positions[-1].play(move))
        return positions

    @property
    def end(self) -> Position:
        """The position after the last move."""
        return self.positions()[-1]

    @property
    def winner(self) -> Color | None:
        """The winner :attr:`result` names (see :func:`winner_of`); None for a draw or no result."""
        return winner_of(self.ruleset, self.result)

    def export_headers(self) -> dict[str, str]:
        """The tags :func:`write_game` writes, in its order (see the module notes)."""
        out: dict[str, str] = {}
        tags: dict[str, str] = {}
        for name, value in self.headers.items():
            name = _tag_name(name)
            if name:
                tags[name] = re.sub(r"[\r\n]+", " ", value)
        for name in [name for name in tags if name in _ITALIAN_TAGS and _ITALIAN_TAGS[name] not in tags]:
            tags = {(_ITALIAN_TAGS[name] if key == name else key): value for key, value in tags.items()}
        for name in _ROSTER[:-1]:
            if name in tags:
                out[name] = tags[name]
        result = normalise_result(self.result) or re.sub(r"[\r\n]+", " ", self.result)
        if "Result" in tags or result not in _STANDARD_RESULTS:
            out["Result"] = result
        gametype = self.ruleset.pdn_gametype_tag
        if gametype is not None:
            out["GameType"] = gametype
        if self.start != Position.initial(self.ruleset):
            out["SetUp"] = "1"
            # Numbers on boards with a k-file: Position.from_fen reads "k11" as a king on 11.
            out["FEN"] = self.start.fen(numeric=self.ruleset.board_size > 10)
        for name, value in tags.items():
            if name not in _ROSTER and name not in ("GameType", "SetUp", "FEN"):
                out[name] = value
        return out


def _tag_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]", "_", name.strip())


# --- input: lines from paths and streams -------------------------------------------------------

Source = str | os.PathLike[str] | IO[str] | IO[bytes]


_HIGH = re.compile(rb"[\x80-\xff]")
_LETTER_RUN = re.compile(rb"[\xa8\xb8\xc0-\xff]{2,}")  # cp1251 letters: Cyrillic words are runs of them


def _cyrillic_like(data: bytes) -> bool:
    """Whether the bytes above 127 mostly come in runs of letters, as cp1251 Cyrillic words do."""
    high = len(_HIGH.findall(data))
    return bool(high) and sum(len(run) for run in _LETTER_RUN.findall(data)) > 0.6 * high


def _fallback_codec(path: str | os.PathLike[str]) -> str | None:
    """None when the whole file is UTF-8, else the 8-bit code page for its other lines."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    with open(path, "rb") as handle:
        try:
            for chunk in iter(lambda: handle.read(1 << 16), b""):
                decoder.decode(chunk)
            decoder.decode(b"", final=True)
            return None
        except UnicodeDecodeError:
            pass
        handle.seek(0)
        high = runs = 0
        for chunk in iter(lambda: handle.read(1 << 16), b""):
            high += len(_HIGH.findall(chunk))
            runs += sum(len(run) for run in _LETTER_RUN.findall(chunk))
    return "cp1251" if runs > 0.6 * high else "cp1252"


def _decode(raw: bytes, fallback: str | None) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    codec = fallback or ("cp1251" if _cyrillic_like(raw) else "cp1252")
    try:
        return raw.decode(codec)
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _binary_lines(handle: IO[bytes], fallback: str | None, first: bytes = b"") -> Iterator[str]:
    lines: Iterable[bytes] = handle
    if first:
        lines = _chain(first, handle)
    for raw in lines:
        for part in raw.rstrip(b"\r\n").split(b"\r"):  # a lone CR ends a line too
            yield _decode(part, fallback)


def _chain(first: bytes, rest: Iterable[bytes]) -> Iterator[bytes]:
    yield first
    yield from rest


def _lines(source: Source, encoding: str | None) -> Iterator[str]:
    """The lines of ``source``, decoded, without line ends."""
    if isinstance(source, (str, os.PathLike)):
        if encoding is not None:
            with open(source, encoding=encoding) as text:
                for line in text:
                    yield line.rstrip("\n")
            return
        fallback = _fallback_codec(source)
        with open(source, "rb") as handle:
            yield from _binary_lines(handle, fallback)
        return
    first = source.readline()
    if isinstance(first, bytes):
        binary: IO[bytes] = source  # type: ignore[assignment]
        if encoding is not None:
            for raw in _chain(first, binary):
                yield from raw.decode(encoding).rstrip("\r\n").split("\r")
            return
        yield from _binary_lines(binary, None, first)
        return
    if not isinstance(first, str):
        raise TypeError(f"read_games needs a path or a text or binary stream, not {type(source).__name__}")
    yield from first.rstrip("\r\n").split("\r")
    for rest in source:
        yield from str(rest).rstrip("\r\n").split("\r")


# --- lexing: tokens with line numbers ----------------------------------------------------------


class _Token(NamedTuple):
    kind: str  # "tag", "comment", "variation", "word", "error"
    text: str  # tag name, comment or variation text, word, error message
    line: int
    value: str = ""  # tag value


_TOP, _COMMENT, _VARIATION = range(3)
_SPECIAL = re.compile(r"[{}()\[\]]")
_VARIATION_SPECIAL = re.compile(r"[{()]")
_PADDED = re.compile(r"([0-9][-x:×X])[ \t]+(?=[0-9])")
_PAREN_MARK = re.compile(r"\([!?]{1,3}\)")
_TAG_NAME = re.compile(r"[ \t]*([A-Za-z0-9_]+)[ \t]*")
_TAG_LINE = re.compile(r"[ \t]*\[[ \t]*[A-Za-z][A-Za-z0-9_]*[ \t]+\"[^\"]*\"[ \t]*\][ \t]*")
_LOOSE_TAG = re.compile(r"\[[ \t]*([A-Za-z0-9_]+)[ \t]*\"(.*)\"[ \t]*\]")
_BARE_TAG = re.compile(r"\[[ \t]*([A-Za-z0-9_]+)[ \t]*([^\]]*)\]")


def _unescape(text: str) -> str:
    return re.sub(r"\\([\\\"])", r"\1", text)


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _parse_tag(line: str, start: int) -> tuple[str, str, int] | None:
    """``(name, value, end)`` for the tag opening at ``line[start] == "["``, or None."""
    name = _TAG_NAME.match(line, start + 1)
    if name is not None and name.end() < len(line) and line[name.end()] == '"':
        index = name.end() + 1
        chars = []
        while index < len(line):
            char = line[index]
            if char == "\\" and index + 1 < len(line) and line[index + 1] in '\\"':
                chars.append(line[index + 1])
                index += 2
                continue
            if char == '"':
                close = re.compile(r"[ \t]*\]").match(line, index + 1)
                if close is not None:
                    return name.group(1), "".join(chars), close.end()
                break
            chars.append(char)
            index += 1
    loose = _LOOSE_TAG.match(line, start)
    if loose is not None:
        return loose.group(1), _unescape(loose.group(2)), loose.end()
    bare = _BARE_TAG.match(line, start)
    if bare is not None:
        return bare.group(1), bare.group(2).strip().strip('"'), bare.end()
    return None


class _Lexer:
    """Tokens of PDN text fed line by line; comments and variations may span lines."""

    def __init__(self) -> None:
        self.mode = _TOP
        self.buffer: list[str] = []
        self.start = 0
        self.depth = 0
        self.in_comment = False
        self.previous_blank = True

    def feed(self, line: str, number: int) -> list[_Token]:
        tokens: list[_Token] = []
        blank = not line.strip()
        if self.mode != _TOP and self.previous_blank and _TAG_LINE.fullmatch(line):
            what = "comment" if self.mode == _COMMENT else "variation"
            tokens.append(_Token("error", f"unterminated {what} opened on line {self.start}", self.start))
            self.mode = _TOP
        self.previous_blank = blank
        if self.mode == _TOP and line.startswith("%"):
            return tokens
        position = 0
        while position < len(line):
            if self.mode == _COMMENT:
                close = line.find("}", position)
                if close < 0:
                    self.buffer.append(line[position:] + "\n")
                    return tokens
                self.buffer.append(line[position:close])
                tokens.append(_Token("comment", _collapse("".join(self.buffer)), self.start))
                self.mode = _TOP
                position = close + 1
            elif self.mode == _VARIATION:
                position = self._variation(line, position, tokens)
            else:
                position = self._top(line, position, number, tokens)
        if self.mode != _TOP:
            self.buffer.append("\n")
        return tokens

    def _variation(self, line: str, position: int, tokens: list[_Token]) -> int:
        while position < len(line):
            if self.in_comment:
                close = line.find("}", position)
                if close < 0:
                    self.buffer.append(line[position:])
                    return len(line)
                self.buffer.append(line[position : close + 1])
                self.in_comment = False
                position = close + 1
                continue
            special = _VARIATION_SPECIAL.search(line, position)
            if special is None:
                self.buffer.append(line[position:])
                return len(line)
            self.buffer.append(line[position : special.start()])
            char = special.group()
            position = special.end()
            if char == "{":
                self.in_comment = True
            elif char == "(":
                self.depth += 1
            else:
                self.depth -= 1
                if self.depth == 0:
                    tokens.append(_Token("variation", _collapse("".join(self.buffer)), self.start))
                    self.mode = _TOP
                    return position
            self.buffer.append(char)
        return position

    def _top(self, line: str, position: int, number: int, tokens: list[_Token]) -> int:
        special = _SPECIAL.search(line, position)
        end = len(line) if special is None else special.start()
        if end > position:
            chunk = _PADDED.sub(r"\1", line[position:end].replace("\x1a", " "))
            tokens.extend(_Token("word", word, number) for word in chunk.split())
        if special is None:
            return len(line)
        char = special.group()
        if char == "{":
            self.mode, self.start, self.buffer = _COMMENT, number, []
            return end + 1
        if char == "(":
            mark = _PAREN_MARK.match(line, end)
            if mark is not None:
                tokens.append(_Token("word", mark.group(), number))
                return mark.end()
            self.mode, self.start, self.buffer, self.depth, self.in_comment = _VARIATION, number, [], 1, False
            return end + 1
        if char == "[":
            tag = _parse_tag(line, end)
            if tag is None:
                tokens.append(_Token("error", f"malformed tag {line[end:].strip()!r}", number))
                return len(line)
            tokens.append(_Token("tag", tag[0], number, tag[1]))
            return tag[2]
        tokens.append(_Token("error", f"unmatched {char!r}", number))
        return end + 1

    def finish(self) -> list[_Token]:
        if self.mode == _TOP:
            return []
        what = "comment" if self.mode == _COMMENT else "variation"
        self.mode = _TOP
        return [_Token("error", f"unterminated {what} opened on line {self.start}", self.start)]


def _tokens(lines: Iterable[str]) -> Iterator[_Token]:
    lexer = _Lexer()
    number = 0
    for number, line in enumerate(lines, 1):
        text = line[1:] if number == 1 and line.startswith("\ufeff") else line
        yield from lexer.feed(text, number)
    yield from lexer.finish()


# --- games: splitting the token stream ---------------------------------------------------------


@attrs.define
class _RawGame:
    tags: list[tuple[str, str, int]] = attrs.field(factory=list)
    body: list[_Token] = attrs.field(factory=list)
    preamble: list[str] = attrs.field(factory=list)
    terminator: _Token | None = None
    error: _Token | None = None
    line: int = 0
    has_words: bool = False

    def headers(self) -> dict[str, str]:
        return {name: value for name, value, _ in self.tags}


def _is_terminator(word: str) -> bool:
    if word == "*":
        return True
    if not re.fullmatch(r"[0-9/½:-]+", word):
        return False
    return normalise_result(word) in _STANDARD_RESULTS


def _raw_games(tokens: Iterable[_Token]) -> Iterator[_RawGame]:
    current = _RawGame()
    for token in tokens:
        if token.kind == "tag":
            if current.has_words or current.error or (current.tags and current.body):
                yield current
                current = _RawGame()
            elif not current.tags and current.body:
                current.preamble = [t.text for t in current.body if t.kind == "comment"]
                current.body = []
            if not current.tags:
                current.line = token.line
            current.tags.append((token.text, token.value, token.line))
            continue
        if not current.line:
            current.line = token.line
        if token.kind == "error":
            if current.error is None:
                current.error = token
            continue
        if token.kind == "word" and _is_terminator(token.text):
            current.terminator = token
            yield current
            current = _RawGame()
            continue
        current.body.append(token)
        if token.kind == "word":
            current.has_words = True
    if current.tags or current.has_words or current.error:
        yield current


# --- games: from tokens to a replayed Game -----------------------------------------------------


_MOVE_NUMBER = re.compile(r"[0-9]{1,4}(?:\.{1,3}|…)")
_NAG = re.compile(r"\$[0-9]{1,3}")
_MARKS = re.compile(r"[!?]{1,3}|\([!?]{1,3}\)")
_TRAILING_MARKS = re.compile(r"(?:[!?]{1,3}|\([!?]{1,3}\))$")
_NUMERIC_MOVE = r"[0-9]{1,3}(?:[-x:×X][0-9]{1,3})+"
_ALGEBRAIC_MOVE = r"[a-zA-Z][0-9]{1,2}(?:[-x:×X]?[a-zA-Z][0-9]{1,2})+"  # any board size: j10, l12
_SHORT_RUSSIAN = r"[a-zA-Z][a-zA-Z][0-9]{1,2}"
_MOVE_SHAPE = re.compile(rf"{_NUMERIC_MOVE}|{_ALGEBRAIC_MOVE}|{_SHORT_RUSSIAN}")
_ALGEBRAIC_SQUARE = re.compile(r"([a-zA-Z])([0-9]{1,2})")
_CAPTURE_SEPARATOR = re.compile(r"[x:×X]")
_ANY_SEPARATOR = re.compile(r"[-x:×X]")
_MAX_BRANCHES = 64
_MAX_MERGE = 12


class _Ply(NamedTuple):
    text: str  # as written, marks removed
    match: str  # what is matched against the legal moves
    line: int
    unknown: bool = False


@attrs.frozen(eq=False)
class _Node:
    """One move of a replay line; the line is the chain of parents."""

    move: Move
    parent: _Node | None
    first: int  # index of the first ply token the move consumed
    count: int  # ply tokens consumed (more than one for a merged split jump)
    depth: int  # moves up to and including this one


def _rotated(ruleset: Ruleset, text: str) -> str:
    """Algebraic squares of ``text`` seen from the other side of the board."""
    size = ruleset.board_size

    def turn(match: re.Match[str]) -> str:
        file, rank = ord(match.group(1).lower()) - ord("a"), int(match.group(2))
        if not (0 <= file < size and 1 <= rank <= size):
            return match.group()  # not a square: left for the move parser to report
        return f"{chr(ord('a') + size - 1 - file)}{size + 1 - rank}"

    return _ALGEBRAIC_SQUARE.sub(turn, text)


def _first_player_frame(ruleset: Ruleset) -> bool:
    """Whether algebraic squares are read from Black's side (a numbered variant where Black starts)."""
    return ruleset.first_to_move is Color.BLACK and ruleset.square_names is SquareNames.NUMERIC


class _Builder:
    """Turns one raw game into a :class:`Game`, raising :class:`PDNError` with the game named."""

    def __init__(self, raw: _RawGame, index: int, default: Ruleset, strict: bool = False) -> None:
        self.raw = raw
        self.strict = strict
        self.index = index
        self.default = default
        self.headers: dict[str, str] = {}
        self.tag_lines: dict[str, int] = {}
        names = {name for name, _, _ in raw.tags}
        for name, value, line in raw.tags:
            standard = _ITALIAN_TAGS.get(name)
            if standard is not None and standard not in names:
                name = standard
            self.headers[name] = value
            self.tag_lines.setdefault(name, line)
        self.warnings: list[str] = []
        if raw.error is not None:
            self.fail(f"syntax error: {raw.error.text}", raw.error.line)
        self.rules = self.ruleset()
        self.start_position = self.start(self.rules)

    def describe(self) -> str:
        named = ", ".join(f"{tag} {self.headers[tag]!r}" for tag in ("White", "Black", "Event") if tag in self.headers)
        return f"game {self.index}" + (f" ({named})" if named else "")

    def fail(
        self,
        message: str,
        line: int,
        kind: type[PDNError] = PDNError,
        ply: int | None = None,
        move: str | None = None,
    ) -> NoReturn:
        raise kind(
            f"{self.describe()}, line {line}: {message}",
            game=self.index,
            line=line,
            ply=ply,
            move=move,
            headers=self.headers,
        )

    # --- tags ---

    def ruleset(self) -> Ruleset:
        gametype = self.headers.get("GameType")
        if gametype is None or not gametype.strip():
            return self.default
        try:
            return from_gametype(gametype.strip())
        except UnknownVariantError as error:
            self.fail(f"unknown GameType: {error}", self.tag_lines["GameType"], PDNUnknownVariantError)

    def start(self, ruleset: Ruleset) -> Position:
        fen = self.headers.get("FEN")
        if fen is None or not fen.strip() or self.headers.get("SetUp", "").strip() == "0":
            return Position.initial(ruleset)
        try:
            return Position.from_fen(ruleset, fen)
        except DraughtsError as error:
            self.fail(f"bad FEN tag: {error}", self.tag_lines["FEN"])

    # --- movetext ---

    def plies(
        self, ruleset: Ruleset
    ) -> tuple[list[_Ply], dict[int, list[str]], dict[int, list[str]], dict[int, list[str]]]:
        plies: list[_Ply] = []
        comments: dict[int, list[str]] = {}
        variations: dict[int, list[str]] = {}
        annotations: dict[int, list[str]] = {}
        rotate = _first_player_frame(ruleset)
        for token in self.raw.body:
            count = len(plies)
            if token.kind == "comment":
                comments.setdefault(count, []).append(token.text)
                continue
            if token.kind == "variation":
                variations.setdefault(count, []).append(token.text)
                continue
            word = token.text
            number = _MOVE_NUMBER.match(word)
            if number is not None:
                word = word[number.end() :]
                if not word:
                    continue
            if re.fullmatch(r"\.+|…", word):
                continue
            if _NAG.fullmatch(word) or _MARKS.fullmatch(word):
                if count:
                    annotations.setdefault(count, []).append(word)
                continue
            if re.fullmatch(r"-{1,2}|—", word):
                plies.append(_Ply(word, word, token.line, unknown=True))
                continue
            mark = _TRAILING_MARKS.search(word)
            core = word[: mark.start()] if mark else word
            if not _MOVE_SHAPE.fullmatch(core):
                self.fail(f"unexpected text {token.text!r} in the movetext", token.line)
            plies.append(_Ply(core, _rotated(ruleset, core) if rotate else core, token.line))
            if mark:
                annotations.setdefault(len(plies), []).append(mark.group())
        return plies, comments, variations, annotations

    def result(self, plies: list[_Ply]) -> str:
        terminator = self.raw.terminator
        written = None if terminator is None else normalise_result(terminator.text)
        tag_text = self.headers.get("Result")
        tag = None if tag_text is None else normalise_result(tag_text)
        if terminator is None and plies and tag not in (None, "*") and normalise_result(plies[-1].text) == tag:
            plies.pop()  # a match score in the place of the result (4-6)
            written = tag
        if tag is not None and tag != "*":
            if written not in (None, "*", tag):
                self.warnings.append(f"the Result tag says {tag} and the movetext {written}; the tag is taken")
            return tag
        return written or tag or "*"

    def label(self, position: Position, ply: int, text: str) -> str:
        first = position.ruleset.first_to_move
        offset = 0 if self.start_position.turn is first else 1
        number = (ply - 1 + offset) // 2 + 1
        return f"ply {ply} ({number}{'.' if position.turn is first else '...'} {text})"

    def options(self, plies: list[_Ply], index: int, position: Position, node: _Node | None) -> list[tuple[Move, int]]:
        ply = plies[index]
        depth = 1 + (node.depth if node else 0)
        if ply.unknown:
            self.fail(
                f"{self.label(position, depth, ply.text)}: the move is unknown ('{ply.text}'), so the game cannot be"
                " replayed",
                ply.line,
                PDNIllegalMoveError,
                depth,
                ply.text,
            )
        try:
            found = matching_moves(position, ply.match)
        except InvalidMoveError as error:
            self.fail(f"{self.label(position, depth, ply.text)}: {error}", ply.line, PDNError, depth, ply.text)
        if found:
            return [(move, 1) for move in found]
        return self.merged(plies, index, position)

    def merged(self, plies: list[_Ply], index: int, position: Position) -> list[tuple[Move, int]]:
        """A capture split into one ply per jump, joined again (only when it matches as written)."""
        if not _CAPTURE_SEPARATOR.search(plies[index].match):
            return []
        rules = position.ruleset
        try:
            squares = [rules.parse_square(part) for part in _ANY_SEPARATOR.split(plies[index].match.lower())]
            for later in range(index + 1, min(len(plies), index + _MAX_MERGE)):
                ply = plies[later]
                if ply.unknown or not _CAPTURE_SEPARATOR.search(ply.match):
                    return []
                parts = [rules.parse_square(part) for part in _ANY_SEPARATOR.split(ply.match.lower())]
                if parts[0] != squares[-1]:
                    return []
                squares += parts[1:]
                found = matching_moves(position, "x".join(str(square) for square in squares))
                if found:
                    return [(move, later - index + 1) for move in found]
        except DraughtsError:
            return []
        return []

    def replay(self, start: Position, plies: list[_Ply]) -> list[_Node]:
        """Every ply in turn, keeping each candidate of an ambiguous ply until later plies decide."""
        # buckets[i]: the lines that have consumed i ply tokens, by position (kept in the order found).
        buckets: dict[int, dict[tuple[int, int, int, int, int], tuple[Position, _Node | None]]] = {
            0: {_key(start): (start, None)}
        }
        failure: tuple[int, Position, _Node | None] | None = None
        for index in range(len(plies)):
            branches = buckets.pop(index, None)
            if not branches:
                continue
            for position, node in branches.values():
                options = self.options(plies, index, position, node)
                if not options and (failure is None or failure[0] < index):
                    failure = (index, position, node)
                for move, count in options:
                    after = position.play(move)
                    bucket = buckets.setdefault(index + count, {})
                    key = _key(after)
                    if key in bucket:
                        continue  # another candidate already reached this position: keep the first
                    depth = 1 + (node.depth if node else 0)
                    bucket[key] = (after, _Node(move, node, index, count, depth))
                    if len(bucket) > _MAX_BRANCHES:
                        self.ambiguous(plies, [line for _, line in bucket.values()])
        finals = [line for _, line in buckets.get(len(plies), {}).values()]
        if not finals:
            assert failure is not None
            self.illegal(plies, *failure)
        if len(finals) > 1:
            chains = [_chain_of(node) for node in finals]
            settled = all([n.move for n in chain[:-1]] == [n.move for n in chains[0][:-1]] for chain in chains)
            if self.strict or not settled:
                self.ambiguous(plies, finals)
            ply = plies[chains[0][-1].first]
            self.warnings.append(
                f"ply {chains[0][-1].depth}: the last move {ply.text!r} fits {len(chains)} legal moves and no later "
                "move can settle it; the first is taken"
            )
        return _chain_of(finals[0])

    def illegal(self, plies: list[_Ply], index: int, position: Position, node: _Node | None) -> NoReturn:
        ply = plies[index]
        depth = 1 + (node.depth if node else 0)
        legal = ", ".join(move_text(position, move) for move in position.legal_moves()) or "none"
        self.fail(
            f"{self.label(position, depth, ply.text)}: move {ply.text!r} is not legal in {position.fen()} "
            f"({position.ruleset.name}); legal moves: {legal}",
            ply.line,
            PDNIllegalMoveError,
            depth,
            ply.text,
        )

    def ambiguous(self, plies: list[_Ply], lines: list[_Node | None]) -> NoReturn:
        chains = [_chain_of(node) for node in lines]
        position = self.start_position
        for depth, nodes in enumerate(zip(*chains, strict=False), 1):
            if any(node.move != nodes[0].move for node in nodes):
                ply = plies[nodes[0].first]
                candidates = ", ".join(dict.fromkeys(move_text(position, node.move, long=True) for node in nodes))
                self.fail(
                    f"{self.label(position, depth, ply.text)}: move {ply.text!r} is ambiguous in {position.fen()}: "
                    f"it may be {candidates}, and no later move settles it",
                    ply.line,
                    PDNAmbiguousMoveError,
                    depth,
                    ply.text,
                )
            position = position.play(nodes[0].move)
        self.fail("the moves are ambiguous", self.raw.line, PDNAmbiguousMoveError)  # pragma: no cover

    def build(self) -> Game:
        ruleset, start = self.rules, self.start_position
        plies, comments, variations, annotations = self.plies(ruleset)
        result = self.result(plies)
        chain = self.replay(start, plies)
        # Map ply-token counts to move counts (they differ only after a merged split jump).
        moves_at = [0] * (len(plies) + 2)
        for node in chain:
            for index in range(node.first + 1, node.first + node.count + 1):
                moves_at[index] = node.depth
            if node.count > 1:
                texts = " ".join(ply.text for ply in plies[node.first : node.first + node.count])
                self.warnings.append(f"ply {node.depth}: the split multi-jump {texts!r} is read as one move")
        last = len(moves_at) - 1
        moves_at[last] = moves_at[last - 1]

        def rekey(items: dict[int, list[str]]) -> dict[int, list[str]]:
            out: dict[int, list[str]] = {}
            for count, texts in items.items():
                out.setdefault(moves_at[min(count, last)], []).extend(texts)
            return out

        return Game(
            ruleset,
            self.headers,
            start,
            [node.move for node in chain],
            result,
            rekey(comments),
            rekey(annotations),
            rekey(variations),
            list(self.raw.preamble),
            self.index,
            self.raw.line,
            self.warnings,
        )


def _key(position: Position) -> tuple[int, int, int, int, int]:
    """A cheap hash key for positions under one ruleset."""
    return position._node()


def _chain_of(node: _Node | None) -> list[_Node]:
    chain = []
    while node is not None:
        chain.append(node)
        node = node.parent
    chain.reverse()
    return chain


# --- reading: the public functions -------------------------------------------------------------


def read_games(
    source: Source,
    variant: Ruleset | str | None = "international",
    errors: str = "raise",
    *,
    encoding: str | None = None,
    ambiguous_end: str = "first",
) -> Iterator[Game]:
    """The games of a PDN file or stream, one at a time, each replayed move by move.

    Args:
        source: A path, or a text or binary stream (read line by line).
        variant: The ruleset (or variant name) of games without a GameType tag; None means
            International draughts, what PDN readers assume without a GameType.
        errors: ``"raise"`` to stop at the first bad game with a :class:`~draughts.PDNError`;
            ``"skip"`` to skip it with a :class:`PDNWarning` and go on.
        encoding: Force this encoding for a path or a binary stream (default: detected, see the
            module notes).
        ambiguous_end: What to do when the *last* move of a game fits several legal moves, so no
            later move can settle it: ``"first"`` takes the first (and notes it in
            :attr:`Game.warnings`), ``"raise"`` makes it a :class:`PDNAmbiguousMoveError`. An
            ambiguity that later moves leave open is always an error.

    Raises:
        PDNError: a game cannot be read (its subclasses :class:`PDNIllegalMoveError`,
            :class:`PDNAmbiguousMoveError` and :class:`PDNUnknownVariantError` say why), with
            ``errors="raise"``. The message names the game, the line, and the ply and move.
        UnknownVariantError: ``variant`` names no ruleset.
        OSError: the path cannot be read.
    """
    if errors not in ("raise", "skip"):
        raise ValueError(f"errors={errors!r}: use 'raise' or 'skip'")
    if ambiguous_end not in ("first", "raise"):
        raise ValueError(f"ambiguous_end={ambiguous_end!r}: use 'first' or 'raise'")
    default = get_variant("international" if variant is None else variant)
    return _read(source, default, errors, encoding, ambiguous_end == "raise")


def _read(source: Source, default: Ruleset, errors: str, encoding: str | None, strict: bool) -> Iterator[Game]:
    for index, raw in enumerate(_raw_games(_tokens(_lines(source, encoding))), 1):
        try:
            yield _Builder(raw, index, default, strict).build()
        except PDNError as error:
            if errors == "raise":
                raise
            warnings.warn(f"skipped {error}", PDNWarning, stacklevel=3)


def read_game(text: str, variant: Ruleset | str | None = "international", *, ambiguous_end: str = "first") -> Game:
    """The first game of PDN ``text`` (see :func:`read_games`).

    Raises:
        PDNError: the text holds no game, or its first game cannot be read.
    """
    for game in read_games(io.StringIO(text), variant, ambiguous_end=ambiguous_end):
        return game
    raise PDNError("no game in the text", game=1, line=1)


# --- writing -----------------------------------------------------------------------------------


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _comment_pieces(text: str) -> list[str]:
    words = _collapse(text.replace("}", ")")).split()
    if not words:
        return ["{}"]
    words[0] = "{" + words[0]
    words[-1] += "}"
    return words


def _variation_pieces(text: str) -> list[str]:
    tokens = list(_tokens([f"({text})"]))
    if len(tokens) != 1 or tokens[0].kind != "variation" or tokens[0].text != _collapse(text):
        raise PDNError(f"variation {text!r} is not balanced text; it cannot be written inside parentheses")
    words = _collapse(text).split() or [""]
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
    """
    headers = game.export_headers()
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
        marks = [mark for mark in game.annotations.get(ply, []) if _MARKS.fullmatch(mark)]
        text += marks[0] if marks else ""
        number = (ply - 1 + offset) // 2 + 1
        if position.turn is first:
            text = f"{number}. {text}"
        elif need_number:
            text = f"{number}... {text}"
        pieces.append(text)
        pieces.extend(marks[1:])
        pieces.extend(nag for nag in game.annotations.get(ply, []) if _NAG.fullmatch(nag))
        position = position.play(move)
        need_number = notes(ply)
    result = normalise_result(game.result) or game.result
    pieces.append(result if result in _STANDARD_RESULTS else "*")
    lines.extend(_wrap(pieces, width))
    return "\n".join(lines) + "\n"


def write_games(
    games: Iterable[Game],
    target: str | os.PathLike[str] | IO[str],
    *,
    width: int = 80,
    variations: bool = True,
    numeric: bool = False,
) -> int:
    """Write ``games`` to a path (UTF-8) or a text stream, separated by blank lines; return how many.

    The keyword arguments are those of :func:`write_game`.
    """
    if isinstance(target, (str, os.PathLike)):
        with open(target, "w", encoding="utf-8", newline="\n") as stream:
            return write_games(games, stream, width=width, variations=variations, numeric=numeric)
    count = 0
    for game in games:
        if count:
            target.write("\n")
        target.write(write_game(game, width=width, variations=variations, numeric=numeric))
        count += 1
    return count

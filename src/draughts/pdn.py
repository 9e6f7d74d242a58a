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
* **Encodings.** A path or a binary stream is read once, from its start to its end, so a pipe,
  ``/dev/stdin`` or a process substitution read the same as a file. A byte-order mark of UTF-16
  or UTF-32 selects that encoding, and so does UTF-16 without a mark (text whose every other byte
  is NUL). Otherwise each line that is valid UTF-8 is read as UTF-8 (a UTF-8 mark is dropped),
  and the other lines with one 8-bit code page chosen from all of them: cp1251 (Cyrillic) when
  most of their bytes above 127 make up whole words of such bytes, as Cyrillic words do, else
  cp1252/Latin-1, where accented letters sit among ASCII letters (``Müünchen``). Pass
  ``encoding=`` to force one; bytes it cannot decode are then a :class:`~draughts.PDNError`. Text
  streams are used as they are.
* **Games without movetext.** A tag section that is followed by another tag section is a game of
  its own, with no moves: a new game starts at a tag after a blank line that ends a tag section,
  or at a tag its section already has (``[Event "A"] [Event "B"]`` are two games).

Not accepted, each an error for that game: a move that is illegal in its position (the message
names the ply and lists the legal moves), unknown moves written ``-`` (``1. - -``: the game cannot
be replayed), an unknown or contradictory GameType (see below), a bad FEN, text in the movetext
that is neither a move, a move number, a mark, a NAG nor a result, unbalanced braces or
parentheses, and ``/FEN "..."/`` setup commands inside the movetext. A ``{`` or ``(`` left open
ends at the next line that starts with a tag, so it spoils its own game only. With
``errors="skip"`` such a game is skipped with a :class:`PDNWarning` that names it and reading goes
on with the next game; with ``errors="raise"`` (the default) the :class:`~draughts.PDNError`
propagates. Messages quote at most a short excerpt of long input.

Which rules a game follows
--------------------------
* **GameType.** The tag's number names the variant (:func:`~draughts.from_gametype`). Its other
  fields must agree with that variant where they change the rules: ``26,B,8,8,A0,0`` (Brazilian
  numbers, Black first) is an error, not Brazilian draughts. The notation field is not checked
  (International files write ``20,W,10,10,N1,0``). A bare number outside PDN 3.0 that is an
  alias (:data:`~draughts.ALIASES`) names that ruleset: lidraughts writes 96 for Breakthrough,
  97 for Frysk! and 98 for Antidraughts.
* **variant=** is the ruleset the caller says the games follow. It is used for games without a
  GameType tag, and a game's GameType tag must be its own (the number of its ``pdn_gametype``,
  fields agreeing): a game tagged ``25`` read with ``variant="international"`` is an error that
  names both. So a ruleset of your own with a GameType number of its own (``pool`` with 23) reads
  its own files back.
* Without ``variant=`` (None), a game without a GameType tag follows its **Variant** tag if that
  names a ruleset (``russian``, ``american-nfc``, ``American/English`` as playstrategy.org writes),
  else International draughts. A Variant tag that names nothing known is an error saying to pass
  the ruleset as ``variant=``.

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
has), then the tags that name the rules, then SetUp ``"1"`` and FEN when the game does not start
from the initial position, then the other tags. The rules are named so that reading the text back
gives the game's ruleset: the ruleset's full ``pdn_gametype_tag`` when reading that tag gives this
very ruleset (the named variants); else a ``Variant`` tag with the ruleset's name when the name
gives it back (``american-nfc``); else, for a ruleset of the caller's own, which must then be read
back with ``variant=``, a ``Variant`` tag that no name resolves (its name, with ``" (custom rules)"``
after it if the name is a named variant's) and its GameType if no named variant has that number.
So a ruleset evolved from Brazilian never claims GameType 26. Then the movetext: move
numbers (``1.``, and ``1...`` when the second player's move opens the movetext or follows a
comment or variation), each move in the variant's notation (short unless ambiguous, then the long
form PDN 3.0 prescribes), marks, NAGs, comments, variations, and the result, wrapped at 80
characters. :meth:`Game.export_headers` gives the tags exactly as written;
``read_game(write_game(g), variant=g.ruleset)`` (for a named variant or a house rule, without
``variant=`` too) has those headers and the same ruleset, start, moves, result, comments,
annotations and variations, however long the game. A
result that cannot stand as a PDN game terminator (a match score such as ``4-6``) is written in
the Result tag, and the movetext ends with ``*``. A ``}`` in a comment is written as ``)``. A
move's first mark is glued to it, its other marks and its NAGs follow. A game without tags has
its preamble comments read back as comments before the first move.
"""

from __future__ import annotations

import codecs
import io
import itertools
import os
import re
import tempfile
import warnings
from collections.abc import Callable, Iterable, Iterator
from typing import IO, NamedTuple, NoReturn, TypeVar, cast

import attrs

from draughts._text import excerpt
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
from draughts.variants import ALIASES, VARIANTS, from_gametype, get_variant

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
    """A game whose rules cannot be told: an unknown GameType, one that contradicts its variant or
    ``variant=``, or a Variant tag naming no known ruleset."""


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
        out.update(_variant_tags(self.ruleset))
        if self.start != Position.initial(self.ruleset):
            out["SetUp"] = "1"
            # Numbers on boards with a k-file: Position.from_fen reads "k11" as a king on 11.
            out["FEN"] = self.start.fen(numeric=self.ruleset.board_size > 10)
        for name, value in tags.items():
            if name not in _ROSTER and name not in ("GameType", "SetUp", "FEN") and name not in out:
                out[name] = value
        return out


_INTERNATIONAL = get_variant("international")
_CUSTOM = " (custom rules)"
_OWN = "that ruleset"


def _named_ruleset(value: str) -> Ruleset | None:
    """The ruleset a Variant tag names (``russian``, ``american-nfc``, ``American/English``), or None."""
    names = [value, *value.split("/")] if "/" in value else [value]
    found: list[Ruleset] = []
    for name in names:
        try:
            found.append(get_variant(name))
        except UnknownVariantError:
            if name is value and len(names) > 1:
                continue  # "American/English": each part names the same ruleset
            return None
    return found[0] if found and all(rules == found[0] for rules in found) else None


def _variant_tags(rules: Ruleset) -> dict[str, str]:
    """The tags that say which rules a written game follows, so that reading it back gives ``rules``.

    A GameType tag only when reading it gives ``rules`` (so a ruleset evolved from a named
    variant never claims that variant's GameType); otherwise a Variant tag that gives ``rules``
    back by name, or, for a ruleset of the caller's own, one that no name gives (read such a game
    with ``variant=``), and the ruleset's own GameType if no named variant has its number.
    """
    tag = rules.pdn_gametype_tag
    if tag is not None:
        try:
            if from_gametype(tag) == rules:
                return {"GameType": tag}
        except UnknownVariantError:
            pass
    tags = {}
    if tag is not None and all(named.pdn_gametype != rules.pdn_gametype for named in VARIANTS.values()):
        tags["GameType"] = tag
    named = _named_ruleset(rules.name)
    tags["Variant"] = rules.name if named is None or named == rules else rules.name + _CUSTOM
    return tags


def _gametype_alias(value: str) -> Ruleset | None:
    """The ruleset a GameType number outside PDN 3.0 names through an alias (lidraughts' 96-98), or None."""
    number = value.strip()
    name = ALIASES.get(number) if number.isdigit() else None  # not "10x10", an alias that is no number
    return None if name is None else VARIANTS[name]


def _tag_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]", "_", name.strip())


# --- input: lines from paths and streams -------------------------------------------------------

Source = str | os.PathLike[str] | IO[str] | IO[bytes]

_CHUNK = 1 << 16
_SPOOL = 1 << 24
"""Bytes of a file's rest held in memory while its code page is chosen, before a temporary file takes over."""

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),  # before UTF-16: it starts with the UTF-16 little-endian mark
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_LETTERS = re.compile(rb"[A-Za-z\x8a\x8c\x8e\x9a\x9c\x9e\x9f\xa8\xb8\xc0-\xff]+")
"""Words in an 8-bit code page: ASCII letters and the bytes that are letters in cp1251 or cp1252."""

_TEXT_LINE_END = re.compile(r"\r\n|\r|\n")
_BYTES_LINE_END = re.compile(rb"\r\n|\r|\n")
_AnyText = TypeVar("_AnyText", str, bytes)


def _split_lines(chunks: Iterable[_AnyText], end: re.Pattern[_AnyText], cr: _AnyText) -> Iterator[_AnyText]:
    """The lines of text arriving in chunks, without their ends (CRLF, LF, or a lone CR as old Macs wrote)."""
    pending = cr[:0]
    for chunk in chunks:
        data = pending + chunk
        held = data.endswith(cr)  # perhaps the first half of a CRLF split between chunks
        parts = end.split(data[:-1] if held else data)
        pending = parts.pop() + (cr if held else cr[:0])
        yield from parts
    if pending:
        parts = end.split(pending)
        if not parts[-1]:
            parts.pop()
        yield from parts


def _chunks(read: Callable[[int], _AnyText]) -> Iterator[_AnyText]:
    while chunk := read(_CHUNK):
        yield chunk


def _sniff(head: bytes) -> str | None:
    """The encoding a byte-order mark names, or UTF-16 recognised by its NUL bytes; None for ASCII-based text."""
    for bom, codec in _BOMS:
        if head.startswith(bom):
            return codec
    sample = head[: 64 if len(head) >= 64 else len(head) & ~1]
    if len(sample) >= 8:
        for zeros, codec in ((sample[1::2], "utf-16-le"), (sample[0::2], "utf-16-be")):
            others = sample[0::2] if codec == "utf-16-le" else sample[1::2]
            if zeros.count(0) * 4 >= len(zeros) * 3 and 0 not in others:
                return codec
    return None


def _binary_lines(read: Callable[[int], bytes], encoding: str | None) -> Iterator[str]:
    """The decoded lines of a binary source, read once (a pipe cannot be read twice)."""
    chunks = _chunks(read)
    head = b""
    for chunk in chunks:
        head += chunk
        if len(head) >= 64:
            break
    stream = itertools.chain([head], chunks)
    if encoding is not None:
        yield from _split_lines(_decoded(stream, encoding, "strict"), _TEXT_LINE_END, "\r")
        return
    sniffed = _sniff(head)
    if sniffed is None:
        yield from _detected_lines(stream)
    else:  # a guess, not the caller's word: a broken character becomes U+FFFD
        yield from _split_lines(_decoded(stream, sniffed, "replace"), _TEXT_LINE_END, "\r")


def _decoded(chunks: Iterable[bytes], codec: str, errors: str) -> Iterator[str]:
    decoder = codecs.getincrementaldecoder(codec)(errors)
    offset = 0
    for chunk in itertools.chain(chunks, [None]):
        try:
            yield decoder.decode(b"", final=True) if chunk is None else decoder.decode(chunk)
        except UnicodeError as error:  # UnicodeDecodeError, or UTF-16's "does not start with BOM"
            where = offset + max(0, getattr(error, "start", 0))
            reason = getattr(error, "reason", str(error))
            raise PDNError(
                f"the input is not valid {codec} near byte {where:,} ({excerpt(reason)}); is the file"
                " in another encoding?"
            ) from None
        offset += len(chunk or b"")


def _code_page(lines: Iterable[bytes]) -> str:
    """cp1251 when the bytes above 127 mostly make up whole words, as Cyrillic words do, else cp1252.

    In Latin-1 text the accented letters sit inside words of ASCII letters (``Müünchen``,
    ``François``); in cp1251 Cyrillic every letter of a word is above 127. A one-letter word says
    nothing (Italian ``è``, Russian ``и``).
    """
    whole = inside = 0
    for line in lines:
        for word in _LETTERS.findall(line):
            high = sum(byte > 127 for byte in word)
            if high == len(word) > 1:
                whole += high
            elif high < len(word):
                inside += high
    return "cp1251" if whole > inside else "cp1252"


def _utf8(raw: bytes) -> str | None:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _detected_lines(chunks: Iterable[bytes]) -> Iterator[str]:
    """UTF-8 lines while the text is UTF-8; then one code page for every other line, chosen from all of them.

    Lines are yielded as they come while they are valid UTF-8. At the first line that is not, the
    rest of the input is read once into a spool file to choose the code page, then read from there.
    """
    lines = _split_lines(chunks, _BYTES_LINE_END, b"\r")
    first_other = None
    for raw in lines:
        text = _utf8(raw)
        if text is None:
            first_other = raw
            break
        yield text
    if first_other is None:
        return
    with tempfile.SpooledTemporaryFile(max_size=_SPOOL) as spool:
        others = []
        for raw in itertools.chain([first_other], lines):
            spool.write(raw + b"\n")
            if _utf8(raw) is None:
                others.append(raw)
        codec = _code_page(others)
        del others
        spool.seek(0)
        for line in spool:
            raw = line[:-1]
            text = _utf8(raw)
            if text is None:
                try:
                    text = raw.decode(codec)
                except UnicodeDecodeError:  # a byte the code page leaves undefined
                    text = raw.decode("latin-1")
            yield text


def _lines(source: Source, encoding: str | None) -> Iterator[str]:
    """The lines of ``source``, decoded, without line ends; each byte of the source is read once."""
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as handle:
            yield from _binary_lines(handle.read, encoding)
        return
    read = source.read
    empty = read(0)
    if isinstance(empty, bytes):
        yield from _binary_lines(cast(Callable[[int], bytes], read), encoding)
    elif isinstance(empty, str):
        yield from _split_lines(_chunks(cast(Callable[[int], str], read)), _TEXT_LINE_END, "\r")
    else:
        raise TypeError(f"read_games needs a path or a text or binary stream, not {type(source).__name__}")


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
_TAG_START = re.compile(r"[ \t]*\[[ \t]*[A-Za-z][A-Za-z0-9_]*[ \t]+\"[^\"]*\"[ \t]*\]")
"""A line that opens with a complete tag starts a tag section, even inside a comment left open."""
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

    def feed(self, line: str, number: int) -> list[_Token]:
        tokens: list[_Token] = []
        if self.mode != _TOP and _TAG_START.match(line):
            # An unclosed { or ( ends at the next tag section, so that it spoils one game, not the file.
            what = "comment" if self.mode == _COMMENT else "variation"
            tokens.append(_Token("error", f"unterminated {what} opened on line {self.start}", self.start))
            self.mode = _TOP
        if self.mode == _TOP and not line.strip():
            return [*tokens, _Token("blank", "", number)]
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
                tokens.append(_Token("error", f"malformed tag {excerpt(line[end:].strip())}", number))
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
    tags_closed: bool = False

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
        if token.kind == "blank":
            current.tags_closed = bool(current.tags)
            continue
        if token.kind == "tag":
            # A new game starts at a tag after the movetext, after a blank line that ended a tag
            # section, or at a tag the section already has: a game with tags only is a game.
            repeated = any(name == token.text for name, _, _ in current.tags)
            if current.has_words or current.error or (current.tags and current.body) or current.tags_closed:
                repeated = True
            if repeated:
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


_MOVE_NUMBER = re.compile(r"[0-9]+(?:\.{1,3}|…)")
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

    def __init__(self, raw: _RawGame, index: int, variant: Ruleset | None, strict: bool = False) -> None:
        self.raw = raw
        self.strict = strict
        self.index = index
        self.variant = variant
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
        named = ", ".join(
            f"{tag} {excerpt(self.headers[tag])}" for tag in ("White", "Black", "Event") if tag in self.headers
        )
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
        """The rules: the GameType tag, checked against ``variant=``; else ``variant=``; else the Variant tag."""
        gametype = self.headers.get("GameType", "").strip()
        explicit = self.variant
        if gametype:
            try:
                return from_gametype(gametype, explicit)
            except UnknownVariantError as error:
                aliased = _gametype_alias(gametype)
                if aliased is not None and (explicit is None or explicit == aliased):
                    return aliased
                reason = str(error)
                if aliased is not None and explicit is not None:
                    reason = (
                        f"GameType {excerpt(gametype)} is lidraughts' number of {aliased.name}, not {explicit.name}"
                    )
                if explicit is None:
                    message = f"unknown GameType: {reason}; a game of a ruleset of your own reads with variant={_OWN}"
                else:
                    message = f"the GameType tag contradicts variant={explicit.name!r}: {reason}"
                self.fail(message, self.tag_lines["GameType"], PDNUnknownVariantError)
        if explicit is not None:
            return explicit
        variant = self.headers.get("Variant", "").strip()
        if not variant:
            return _INTERNATIONAL
        rules = _named_ruleset(variant)
        if rules is None:
            self.fail(
                f"the Variant tag {excerpt(variant)} names no known ruleset (and there is no GameType tag); "
                f"a game of a ruleset of your own reads with variant={_OWN}",
                self.tag_lines["Variant"],
                PDNUnknownVariantError,
            )
        return rules

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
                self.fail(f"unexpected text {excerpt(token.text)} in the movetext", token.line)
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
        shown = text if len(text) <= 40 else excerpt(text, 40)
        return f"ply {ply} ({number}{'.' if position.turn is first else '...'} {shown})"

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
                f"ply {chains[0][-1].depth}: the last move {excerpt(ply.text, 40)} fits {len(chains)} legal moves "
                "and no later move can settle it; the first is taken"
            )
        return _chain_of(finals[0])

    def illegal(self, plies: list[_Ply], index: int, position: Position, node: _Node | None) -> NoReturn:
        ply = plies[index]
        depth = 1 + (node.depth if node else 0)
        legal = ", ".join(move_text(position, move) for move in position.legal_moves()) or "none"
        self.fail(
            f"{self.label(position, depth, ply.text)}: move {excerpt(ply.text, 40)} is not legal in {position.fen()} "
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
                    f"{self.label(position, depth, ply.text)}: move {excerpt(ply.text, 40)} is ambiguous in "
                    f"{position.fen()}: it may be {candidates}, and no later move settles it",
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
        if not self.raw.body and self.raw.terminator is None:
            self.warnings.append("the game has tags only: no movetext and no result")
        chain = self.replay(start, plies)
        # Map ply-token counts to move counts (they differ only after a merged split jump).
        moves_at = [0] * (len(plies) + 2)
        for node in chain:
            for index in range(node.first + 1, node.first + node.count + 1):
                moves_at[index] = node.depth
            if node.count > 1:
                texts = " ".join(ply.text for ply in plies[node.first : node.first + node.count])
                self.warnings.append(f"ply {node.depth}: the split multi-jump {excerpt(texts)} is read as one move")
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
    variant: Ruleset | str | None = None,
    errors: str = "raise",
    *,
    encoding: str | None = None,
    ambiguous_end: str = "first",
) -> Iterator[Game]:
    """The games of a PDN file or stream, one at a time, each replayed move by move.

    Args:
        source: A path, or a text or binary stream (read once, so a pipe works).
        variant: The rules the games are played under (a ruleset or a name), for games without a
            GameType tag; a game whose GameType tag is not this ruleset's is an error. None (the
            default): each game's GameType tag, else its Variant tag, else International draughts,
            what PDN readers assume without a GameType.
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
        UnknownVariantError: ``variant`` names no ruleset.
        DraughtsError: ``errors``, ``encoding`` or ``ambiguous_end`` is not a value it can be.
        OSError: the path cannot be read.
    """
    _check_options(errors, encoding, ambiguous_end)
    if not isinstance(source, (str, os.PathLike)) and not callable(getattr(source, "read", None)):
        raise TypeError(f"read_games needs a path or a text or binary stream, not {type(source).__name__}")
    rules = None if variant is None else get_variant(variant)
    return _read(source, rules, errors, encoding, ambiguous_end == "raise")


def _check_options(errors: str, encoding: str | None, ambiguous_end: str) -> None:
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


def _outcomes(source: Source, variant: Ruleset | None, encoding: str | None, strict: bool) -> Iterator[Game | PDNError]:
    """Each game of ``source`` in turn, or the PDNError that says why it cannot be read.

    Failures are values, not warnings, so that callers in threads (a Dask worker's) can collect
    them without the process-wide warning filters.
    """
    for index, raw in enumerate(_raw_games(_tokens(_lines(source, encoding))), 1):
        try:
            yield _Builder(raw, index, variant, strict).build()
        except PDNError as error:
            yield error
        except DraughtsError as error:  # not phrased by the builder, but still this game's fault
            wrapped = PDNError(
                f"game {index}, line {raw.line}: {error}", game=index, line=raw.line, headers=raw.headers()
            )
            wrapped.__cause__ = error
            yield wrapped


def _read(source: Source, variant: Ruleset | None, errors: str, encoding: str | None, strict: bool) -> Iterator[Game]:
    for outcome in _outcomes(source, variant, encoding, strict):
        if isinstance(outcome, Game):
            yield outcome
        elif errors == "raise":
            raise outcome
        else:
            warnings.warn(f"skipped {outcome}", PDNWarning, stacklevel=3)


def read_game(text: str, variant: Ruleset | str | None = None, *, ambiguous_end: str = "first") -> Game:
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

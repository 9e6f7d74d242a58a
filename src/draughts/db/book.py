"""Opening books: a documented binary format for any ruleset, built from a game database, probed by players.

The format (version 1)
----------------------
A book is one file, all numbers unsigned and big-endian (as polyglot's)::

    offset  size  field
    0       8     magic: the bytes b"DRBOOK\\r\\n"
    8       2     version: 1
    10      2     entry size: 40
    12      4     n: length of the ruleset name in bytes
    16      8     number of entries
    24      n     the ruleset's name, UTF-8 (the rules the keys and moves are of)
    24+n    ...   zero bytes up to the next multiple of 8: the entries start there

Then the entries, 40 bytes each, **sorted by key, then by weight from high to low, then by move**,
so a position's moves are consecutive and found by binary search::

    0   8  key: the position's key (draughts.keys, Position.key())
    8   8  move: the move's code (draughts.db.moves: start * 2**48 + end * 2**32 + tag of captures)
    16  4  weight: how much to play it (see build_book's weighting)
    20  4  games: games that played it
    24  4  white: of which White won
    28  4  draws: drawn
    32  4  black: Black won
    36  4  reserved: 0

A reader checks the magic, the version and the entry size, and that the file's size is the header
plus the entries; a book of other rules is refused by :meth:`Book.probe` (the name must match).

>>> import io, tempfile, os
>>> from draughts import pdn
>>> from draughts.db import Database
>>> from draughts.db.book import Book, build_book
>>> db = Database(":memory:")
>>> _ = db.add_games(pdn.parse_games('[GameType "20"] 1. 32-28 19-23 2-0 [GameType "20"] 1. 32-28 18-23 1-1 '
...                                  '[GameType "20"] 1. 33-28 0-2'))
>>> path = os.path.join(tempfile.mkdtemp(), "international.book")
>>> build_book(db, "international", path)
4
>>> [(entry.text, entry.weight, entry.games) for entry in Book(path).probe("international")]
[('32-28', 2, 2), ('33-28', 1, 1)]
"""

from __future__ import annotations

import bisect
import os
import random
import struct
from collections.abc import Iterator, Sequence
from typing import Final

import attrs

from draughts.db.database import Database
from draughts.db.moves import move_code
from draughts.db.schema import unsigned
from draughts.errors import BookError
from draughts.move import Move
from draughts.notation import move_text
from draughts.position import Position
from draughts.rules import Ruleset
from draughts.rules.files import resolve_ruleset

__all__ = [
    "ENTRY",
    "MAGIC",
    "VERSION",
    "Book",
    "BookEntry",
    "BookExit",
    "BookOpenings",
    "build_book",
    "merge_books",
    "write_book",
]

MAGIC: Final = b"DRBOOK\r\n"
VERSION: Final = 1
ENTRY: Final = struct.Struct(">QQIIIIII")
"""One entry: key, move, weight, games, white, draws, black, reserved."""
_HEADER: Final = struct.Struct(">8sHHIQ")
_LIMIT: Final = 0xFFFFFFFF


_COUNTS = attrs.filters.include("weight", "games", "white", "draws", "black")
"""The fields of a :class:`BookEntry` its JSON form gives beside the move's text."""


@attrs.frozen
class BookEntry:
    """A move of a position in a book, with its weight and the games behind it.

    ``move`` and ``text`` are the legal move of the probed position the code stands for (None and
    the code in hex if none is: a key collision), in the variant's notation.
    """

    key: int
    code: int
    weight: int
    games: int
    white: int
    draws: int
    black: int
    move: Move | None = None
    text: str = ""

    def to_dict(self) -> dict[str, object]:
        """``{"move", "weight", "games", "white", "draws", "black"}``."""
        return {"move": self.text, **attrs.asdict(self, recurse=False, filter=_COUNTS)}


def _padded(name: bytes) -> int:
    return (_HEADER.size + len(name) + 7) // 8 * 8


def write_book(path: str | os.PathLike[str], ruleset: Ruleset | str, entries: Sequence[BookEntry]) -> int:
    """Write a book of ``entries`` (sorted here) through a temporary file; returns the entries written."""
    return _write(path, resolve_ruleset(ruleset).name, entries)


def _write(path: str | os.PathLike[str], rules: str, entries: Sequence[BookEntry]) -> int:
    name = rules.encode("utf-8")
    ordered = sorted(entries, key=lambda e: (e.key, -e.weight, e.code))
    target = os.fspath(path)
    temporary = f"{target}.tmp{os.getpid()}"
    with open(temporary, "wb") as stream:
        stream.write(_HEADER.pack(MAGIC, VERSION, ENTRY.size, len(name), len(ordered)))
        stream.write(name.ljust(_padded(name) - _HEADER.size, b"\0"))
        for e in ordered:
            counts = (min(value, _LIMIT) for value in (e.weight, e.games, e.white, e.draws, e.black))
            stream.write(ENTRY.pack(e.key, e.code, *counts, 0))
    os.replace(temporary, target)
    return len(ordered)


def build_book(
    database: Database,
    ruleset: Ruleset | str,
    path: str | os.PathLike[str],
    *,
    min_games: int = 1,
    weighting: str = "games",
) -> int:
    """Build a book of every move played at least ``min_games`` times in ``database``'s games of ``ruleset``.

    Args:
        weighting: ``"games"``: a move's weight is its number of games; ``"score"``: two points a
            game it won for the side that played it, one a draw, as polyglot books weigh (a move
            that only lost gets weight 0 and is never chosen).

    Returns:
        The number of entries written.
    """
    rules = resolve_ruleset(ruleset)
    if weighting not in ("games", "score"):
        raise BookError(f"weighting {weighting!r} must be 'games' or 'score'")
    variant = database.connection.execute("SELECT id FROM variants WHERE name = ?", (rules.name,)).fetchone()
    entries = []
    if variant is not None:
        rows = database.connection.execute(
            "SELECT key, move, turn, games, white, draws, black FROM moves WHERE variant = ? AND games >= ?",
            (variant[0], min_games),
        )
        for key, code, turn, games, white, draws, black in rows:
            won = white if turn == 0 else black
            weight = games if weighting == "games" else 2 * won + draws
            entries.append(BookEntry(unsigned(key), unsigned(code), weight, games, white, draws, black))
    return write_book(path, rules, entries)


class Book:
    """An opening book file, read whole into memory (40 bytes an entry), probed by binary search.

    Raises:
        ~draughts.errors.BookError: the file is not a book of this format.
        OSError: it cannot be read.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        with open(self.path, "rb") as stream:
            data = stream.read()
        if len(data) < _HEADER.size:
            raise BookError(f"{self.path!r} is not an opening book: {len(data)} bytes")
        magic, version, size, length, count = _HEADER.unpack_from(data)
        if magic != MAGIC or version != VERSION or size != ENTRY.size:
            raise BookError(f"{self.path!r} is not an opening book of format {VERSION} (magic {magic!r})")
        name = data[_HEADER.size : _HEADER.size + length]
        start = _padded(name)
        if len(data) != start + count * ENTRY.size:
            raise BookError(f"{self.path!r} is cut or padded: {len(data)} bytes for {count} entries")
        self.name = name.decode("utf-8", "replace")
        """The name of the book's rules."""
        self._data = data
        self._start = start
        self._count = count
        self._keys = [ENTRY.unpack_from(data, start + i * ENTRY.size)[0] for i in range(count)]

    def __len__(self) -> int:
        return int(self._count)

    def __iter__(self) -> Iterator[BookEntry]:
        """Every entry in the file's order (by key, heaviest first), without the move's text."""
        for index in range(self._count):
            yield BookEntry(*ENTRY.unpack_from(self._data, self._start + index * ENTRY.size)[:7])

    def _entries(self, key: int) -> Iterator[BookEntry]:
        index = bisect.bisect_left(self._keys, key)
        while index < self._count and self._keys[index] == key:
            fields = ENTRY.unpack_from(self._data, self._start + index * ENTRY.size)
            yield BookEntry(*fields[:7])
            index += 1

    def probe(self, position: Position | Ruleset | str, fen: str | None = None) -> list[BookEntry]:
        """The book's moves of ``position`` (or of a ruleset's start, or FEN), heaviest first.

        Raises:
            ~draughts.errors.BookError: the position's rules are not the book's.
        """
        where = position if isinstance(position, Position) else _position(position, fen)
        if where.ruleset.name != self.name:
            raise BookError(f"{self.path!r} is a book of {self.name}, not of {where.ruleset.name}")
        legal = {move_code(move): move for move in where.legal_moves}
        found = []
        for entry in self._entries(where.key()):
            move = legal.get(entry.code)
            text = move_text(where, move) if move is not None else f"?{entry.code:x}"
            found.append(attrs.evolve(entry, move=move, text=text))
        return found

    def choose(self, position: Position, rng: random.Random) -> Move | None:
        """A legal book move of ``position`` drawn at random by weight, or None (out of book)."""
        entries = [entry for entry in self.probe(position) if entry.move is not None and entry.weight > 0]
        if not entries:
            return None
        pick = rng.choices(entries, weights=[entry.weight for entry in entries])[0]
        return pick.move


def _position(ruleset: Ruleset | str, fen: str | None) -> Position:
    rules = resolve_ruleset(ruleset)
    return Position.initial(rules) if fen is None else Position.from_fen(rules, fen)


def merge_books(books: Sequence[Book | str | os.PathLike[str]], path: str | os.PathLike[str]) -> int:
    """Write the union of ``books`` (all of one ruleset) to ``path``: a position in several books
    takes all its moves from the first that has it (polyglot's rule for ``merge-book``), so a
    database book first and an engine book (:mod:`draughts.db.engine_book`) after keeps the moves
    of real games and lets the engine fill the positions the games never reached.

    Returns:
        The number of entries written.

    Raises:
        ~draughts.errors.BookError: no book, or books of different rules.
    """
    opened = [book if isinstance(book, Book) else Book(book) for book in books]
    if not opened:
        raise BookError("no books to merge")
    names = sorted({book.name for book in opened})
    if len(names) > 1:
        raise BookError(f"cannot merge books of different rules: {', '.join(map(repr, names))}")
    taken: set[int] = set()
    entries: list[BookEntry] = []
    for book in opened:
        own = [entry for entry in book if entry.key not in taken]
        taken.update(entry.key for entry in own)
        entries.extend(own)
    return _write(path, names[0], entries)


@attrs.frozen
class BookExit:
    """An opening drawn from a book: its moves from the start position, in the variant's notation,
    and its name; the lab reads it as an opening (its ``moves`` and ``name``), as a ballot's."""

    moves: tuple[str, ...]
    name: str = ""


@attrs.frozen
class BookOpenings:
    """Openings drawn from a book: ``count`` distinct book exits per ruleset, each a walk from the
    start by weighted random book moves (:meth:`Book.choose`) until the book has no move for the
    position or ``plies`` moves were played; the same for one ``seed``. A source of openings for
    the lab and the match runner (:func:`draughts.lab.runner.resolve_openings`), as
    :class:`~draughts.lab.runner.RandomOpenings` is: cutechess-cli's random book exits.

    Attributes:
        book: The book's path.
        count: How many distinct exits (fewer when the book holds fewer lines).
        seed: Seed of the draws.
        plies: At most this many book moves an opening (None: until out of book).
    """

    book: str | os.PathLike[str]
    count: int
    seed: int = 0
    plies: int | None = None

    def openings(self, ruleset: Ruleset | str) -> tuple[BookExit, ...]:
        """The exits for ``ruleset``, named ``book 1``, ``book 2`` ...

        Raises:
            ~draughts.errors.BookError: ``count`` or ``plies`` below 1, the book of other rules, or
                no book move from the start position.
        """
        if self.count < 1 or (self.plies is not None and self.plies < 1):
            raise BookError(f"book openings need a count and plies from 1, not {self.count} and {self.plies}")
        book = Book(self.book)
        start = _position(ruleset, None)
        rng = random.Random(f"{self.seed}/{start.ruleset.name}/{book.name}")
        found: dict[tuple[str, ...], None] = {}
        for _ in range(self.count * 20):  # a small book may hold fewer distinct lines than asked
            line = _exit(book, start, rng, self.plies)
            if line:
                found.setdefault(line)
            if len(found) == self.count:
                break
        if not found:
            raise BookError(f"the book {book.path!r} has no move from the start of {start.ruleset.name}")
        return tuple(BookExit(moves, f"book {n + 1}") for n, moves in enumerate(found))


def _exit(book: Book, start: Position, rng: random.Random, plies: int | None) -> tuple[str, ...]:
    """One weighted walk through ``book`` from ``start``: the moves' texts (empty if the walk ends
    in a finished game, where no game can start)."""
    position = start
    line: list[str] = []
    while plies is None or len(line) < plies:
        move = book.choose(position, rng)
        if move is None:
            break
        line.append(move_text(position, move))
        position = position.play(move)
    return tuple(line) if position.legal_moves() else ()

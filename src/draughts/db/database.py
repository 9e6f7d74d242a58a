"""The game database: :class:`Database`, one SQLite file of games and every position they reached."""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import attrs

from draughts.db.importer import FileBatch, FileImport, ImportReport, run_jobs
from draughts.db.moves import move_code
from draughts.db.records import GameRecord, record_of
from draughts.db.schema import connect, signed
from draughts.db.writer import BatchCounts, write_batch
from draughts.errors import DatabaseError, DraughtsError
from draughts.move import Move
from draughts.notation import move_text, parse_move
from draughts.pdn import Game
from draughts.position import Position
from draughts.rules import Ruleset
from draughts.rules.files import resolve_ruleset, ruleset_from_text, ruleset_to_text

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from draughts.db.pattern import Pattern

__all__ = ["Database", "Exploration", "ExplorerMove", "GameHit", "Occurrences"]


_NOT_HEADERS = attrs.filters.exclude("headers")
"""A :class:`GameHit`'s JSON form gives its tags first, then every other field (id, result, ...)."""


@attrs.frozen
class GameHit:
    """A game that reached a position: its id, tags, result, and the first ply the position occurred at."""

    id: int
    headers: dict[str, str]
    result: str
    ply: int
    source: str | None
    line: int | None

    def to_dict(self) -> dict[str, Any]:
        """The hit as JSON-ready data: the tags, then ``id``, ``result``, ``ply``, ``source`` and ``line``."""
        return {**self.headers, **attrs.asdict(self, recurse=False, filter=_NOT_HEADERS)}


@attrs.frozen
class ExplorerMove:
    """A move played from the explored position: how many games played it and how they ended."""

    move: Move | None
    text: str
    games: int
    white: int
    draws: int
    black: int

    def to_dict(self) -> dict[str, Any]:
        """``{"move", "games", "white", "draws", "black"}``."""
        return {"move": self.text, "games": self.games, "white": self.white, "draws": self.draws, "black": self.black}


@attrs.frozen
class Exploration:
    """What the explorer answers for a position: the moves played from it, most played first, and
    the first games that reached it (``count`` of them in all)."""

    position: Position
    moves: tuple[ExplorerMove, ...]
    count: int
    games: tuple[GameHit, ...]

    def to_dict(self) -> dict[str, Any]:
        """``{"fen", "moves": [...], "count", "games": [...]}`` for ``--format json``."""
        return {
            "fen": self.position.fen(),
            "moves": [move.to_dict() for move in self.moves],
            "count": self.count,
            "games": [game.to_dict() for game in self.games],
        }


@attrs.frozen
class Occurrences:
    """The games in which a position (or a pattern) occurred: ``count`` in all, ``games`` the ones asked for."""

    count: int
    games: tuple[GameHit, ...]

    def to_dict(self) -> dict[str, Any]:
        """``{"count", "games": [...]}`` for ``--format json``."""
        return {"count": self.count, "games": [game.to_dict() for game in self.games]}


class Database:
    """A game database in one SQLite file: import PDN, explore openings, find positions and patterns.

    Args:
        path: The file (created if missing; ``":memory:"`` for one that lives in memory).
        readonly: Open an existing file for reading only (it is never written; importing fails).

    Raises:
        ~draughts.errors.DatabaseError: the file exists but is not a game database of this format, or
            ``readonly`` and there is no such database.

    >>> from draughts import pdn
    >>> from draughts.db import Database
    >>> db = Database(":memory:")
    >>> games = pdn.parse_games('[GameType "20"] 1. 32-28 19-23 2. 28x19 14x23 2-0 '
    ...                         '[GameType "20"] 1. 32-28 18-23 0-2 [GameType "20"] 1. 33-28 1-1')
    >>> db.add_games(games).games
    3
    >>> [(m.text, m.games, m.white, m.draws, m.black) for m in db.explore("international").moves]
    [('32-28', 2, 1, 0, 1), ('33-28', 1, 0, 1, 0)]
    """

    def __init__(self, path: str | os.PathLike[str], *, readonly: bool = False) -> None:
        self.path = os.fspath(path)
        self.readonly = readonly
        self._connection = connect(self.path, readonly=readonly)
        self._variants: dict[str, int] = {}
        self._rules: dict[int, Ruleset] = {}
        for variant_id, name, text in self._connection.execute("SELECT id, name, ruleset FROM variants"):
            self._variants[name] = variant_id
            self._rules[variant_id] = ruleset_from_text(text, "json", source=f"{self.path} ({name})")

    def close(self) -> None:
        """Close the file."""
        self._connection.close()

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def connection(self) -> sqlite3.Connection:
        """Low-level: the SQLite connection, for queries of your own (see :mod:`draughts.db.schema` for the tables)."""
        return self._connection

    # --- writing ---

    def _variant_id(self, rules: Ruleset) -> int:
        """The id of ``rules``' variant row, made if it is new (inside the caller's transaction)."""
        known = self._variants.get(rules.name)
        if known is not None:
            return known
        cursor = self._connection.execute(
            "INSERT INTO variants(name, ruleset) VALUES (?, ?)", (rules.name, ruleset_to_text(rules, "json"))
        )
        variant_id = cursor.lastrowid
        assert variant_id is not None
        self._variants[rules.name] = variant_id
        self._rules[variant_id] = rules
        return variant_id

    def _writable(self) -> None:
        if self.readonly:
            raise DatabaseError(f"{self.path!r} was opened read-only: nothing can be imported")

    def _register(self, records: Iterable[GameRecord], rulesets: dict[str, Ruleset]) -> None:
        with self._connection:
            for record in records:
                if record.variant not in self._variants:
                    self._variant_id(rulesets[record.variant])

    def add_games(self, games: Iterable[Game]) -> ImportReport:
        """Store games read or made in Python (one transaction); duplicates are recognised and not stored again."""
        self._writable()
        listed = list(games)
        records = [record_of(game) for game in listed]
        self._register(records, {game.ruleset.name: game.ruleset for game in listed})
        counts = write_batch(self._connection, self._variants, records, (), None)
        item = FileImport("<games>", counts.games, (), counts.duplicates, counts.plies)
        return ImportReport((item,), 0.0)

    def import_files(
        self,
        paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
        ruleset: Ruleset | str | os.PathLike[str] | None = None,
        *,
        executor: Executor | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> ImportReport:
        """Import PDN files (a directory stands for its ``*.pdn`` files), each file in one transaction.

        A file already imported, unchanged since (same size and modification time), is not read
        again, so an import that was stopped goes on where it stopped. A game that cannot be read
        is skipped, its reason recorded; a game already stored is counted as a duplicate.

        Args:
            paths: Files and directories.
            ruleset: The games' rules when their tags do not say (default: each game's tags).
            executor: Reads the files in parallel (a ``ProcessPoolExecutor``, Dask's
                ``Client.get_executor()``); None reads them here. Only this process writes.
            progress: Called with ``(files done, files to do)`` after each file.

        Raises:
            FileNotFoundError: a path does not exist (before anything is read).
            UnknownVariantError: ``ruleset`` names no ruleset.
            ~draughts.errors.DatabaseError: the database was opened read-only.
        """
        self._writable()
        rules = None if ruleset is None else resolve_ruleset(ruleset)
        return run_jobs(paths, rules, self._done, self._write_file, executor, progress)

    def _done(self, path: str, size_time: tuple[int, int]) -> bool:
        row = self._connection.execute("SELECT size, mtime FROM sources WHERE path = ?", (path,)).fetchone()
        return row is not None and tuple(row) == size_time

    def _write_file(self, batch: FileBatch, size_time: tuple[int, int]) -> FileImport:
        if batch.error is not None:
            return FileImport(batch.path, seconds=batch.seconds, error=batch.error)
        rulesets = {name: resolve_ruleset(name) for name in {r.variant for r in batch.records} - set(self._variants)}
        self._register(batch.records, rulesets)
        counts: BatchCounts = write_batch(
            self._connection, self._variants, batch.records, batch.skips, (batch.path, *size_time)
        )
        skipped = tuple((skip.number, skip.line, skip.reason) for skip in batch.skips)
        return FileImport(batch.path, counts.games, skipped, counts.duplicates, counts.plies, batch.seconds)

    # --- reading ---

    def _variant_of(self, rules: Ruleset) -> int | None:
        return self._variants.get(rules.name)

    def _position(self, position: Position | Ruleset | str, fen: str | None = None) -> Position:
        if isinstance(position, Position):
            return position
        rules = resolve_ruleset(position)
        return Position.initial(rules) if fen is None else Position.from_fen(rules, fen)

    def explore(self, position: Position | Ruleset | str, fen: str | None = None, *, games: int = 10) -> Exploration:
        """The moves played from ``position`` (a position, or a ruleset and an optional FEN: the
        start by default), with their games and results, and the first ``games`` games that reached it."""
        where = self._position(position, fen)
        variant = self._variant_of(where.ruleset)
        if variant is None:
            return Exploration(where, (), 0, ())
        rows = self._connection.execute(
            "SELECT move, games, white, draws, black FROM moves WHERE key = ? AND variant = ?",
            (signed(where.key()), variant),
        ).fetchall()
        legal = {move_code(move): move for move in where.legal_moves}
        moves = []
        for code, count, white, draws, black in rows:
            move = legal.get(code)
            text = move_text(where, move) if move is not None else f"?{code:x}"  # a key collision: no such move here
            moves.append(ExplorerMove(move, text, count, white, draws, black))
        moves.sort(key=lambda item: (-item.games, item.text))
        found = self.find(where, limit=games)
        return Exploration(where, tuple(moves), found.count, found.games)

    def find(
        self, position: Position | Ruleset | str, fen: str | None = None, *, limit: int | None = 100, offset: int = 0
    ) -> Occurrences:
        """Every game in which ``position`` occurred (its count, and ``limit`` of them from ``offset``, by id)."""
        where = self._position(position, fen)
        variant = self._variant_of(where.ruleset)
        if variant is None:
            return Occurrences(0, ())
        key = signed(where.key())
        (count,) = self._connection.execute(
            "SELECT COUNT(DISTINCT game) FROM positions WHERE key = ? AND variant = ?", (key, variant)
        ).fetchone()
        rows = self._connection.execute(
            "SELECT game, MIN(ply) FROM positions WHERE key = ? AND variant = ? GROUP BY game ORDER BY game "
            "LIMIT ? OFFSET ?",
            (key, variant, -1 if limit is None else limit, offset),
        ).fetchall()
        return Occurrences(count, tuple(self._hits(rows)))

    def _hits(self, rows: Iterable[tuple[int, int]]) -> list[GameHit]:
        hits = []
        for game_id, ply in rows:
            row = self._connection.execute(
                "SELECT g.headers, g.result, s.path, g.line FROM games g LEFT JOIN sources s ON s.id = g.source "
                "WHERE g.id = ?",
                (game_id,),
            ).fetchone()
            hits.append(GameHit(game_id, json.loads(row[0]), row[1], ply, row[2], row[3]))
        return hits

    def search(self, pattern: Pattern, *, limit: int | None = 100) -> Occurrences:
        """The games in which a position matching ``pattern`` occurred (the first ply it did), a
        scan over the games of the pattern's ruleset: see :class:`~draughts.db.pattern.Pattern`."""
        variant = self._variant_of(pattern.ruleset)
        if variant is None:
            return Occurrences(0, ())
        rows: list[tuple[int, int]] = []
        count = 0
        for game_id, start, moves in self._connection.execute(
            "SELECT id, start, moves FROM games WHERE variant = ? ORDER BY id", (variant,)
        ):
            ply = pattern.first_match(_replay(pattern.ruleset, start, moves))
            if ply is not None:
                count += 1
                if limit is None or len(rows) < limit:
                    rows.append((game_id, ply))
        return Occurrences(count, tuple(self._hits(rows)))

    def game(self, game_id: int) -> Game:
        """The stored game ``game_id`` as a PDN game (its tags, start, main line and result).

        Raises:
            ~draughts.errors.DatabaseError: no game has that id.
        """
        row = self._connection.execute(
            "SELECT variant, headers, result, start, moves FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if row is None:
            raise DatabaseError(f"no game {game_id!r} in {self.path!r}")
        rules = self._rules[row[0]]
        positions = list(_replay(rules, row[3], row[4]))
        moves = [move for _, move in positions if move is not None]
        return Game(rules, json.loads(row[1]), positions[0][0], moves, row[2])

    def count(self, ruleset: Ruleset | str | None = None) -> int:
        """Games stored (of one ruleset, or all)."""
        if ruleset is None:
            return int(self._connection.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        variant = self._variant_of(resolve_ruleset(ruleset))
        if variant is None:
            return 0
        return int(self._connection.execute("SELECT COUNT(*) FROM games WHERE variant = ?", (variant,)).fetchone()[0])

    def variants(self) -> dict[str, int]:
        """Games per ruleset name."""
        rows = self._connection.execute(
            "SELECT v.name, COUNT(g.id) FROM variants v LEFT JOIN games g ON g.variant = v.id "
            "GROUP BY v.id ORDER BY v.name"
        )
        return dict(rows.fetchall())

    def skipped(self) -> list[tuple[str | None, int, int, str]]:
        """Every game not stored: ``(file, number, line, reason)``."""
        rows = self._connection.execute(
            "SELECT s.path, k.number, k.line, k.reason FROM skipped k LEFT JOIN sources s ON s.id = k.source "
            "ORDER BY k.id"
        )
        return [tuple(row) for row in rows]

    def games_of(self, ruleset: Ruleset | str) -> Iterable[tuple[int, Game]]:
        """Every stored game of a ruleset, by id, as PDN games (replayed one at a time)."""
        variant = self._variant_of(resolve_ruleset(ruleset))
        if variant is None:
            return
        ids = [
            row[0] for row in self._connection.execute("SELECT id FROM games WHERE variant = ? ORDER BY id", (variant,))
        ]
        for game_id in ids:
            yield game_id, self.game(game_id)


def _replay(rules: Ruleset, start: str, moves: str) -> Iterable[tuple[Position, Move | None]]:
    """Each position of a stored game and the move played from it (None after the last)."""
    position = Position.from_fen(rules, start)
    for text in moves.split():
        try:
            move = parse_move(position, text)
        except DraughtsError as error:  # the file was written by this module: not a user's error
            raise DatabaseError(f"stored move {text!r} does not read in {position.fen()!r}: {error}") from None
        yield position, move
        position = position.play(move)
    yield position, None

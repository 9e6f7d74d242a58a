"""Writing game records into the database: one transaction per batch (a file, or a list of games).

A batch's games, their positions, the explorer's counts, its skipped games and its source row
are written together or not at all, so an import that stops (an error, a crash, Ctrl-C) leaves
the file as it was before that batch, and the next run starts again with it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence

import attrs

from draughts.db.records import NONE, GameRecord
from draughts.db.schema import signed

__all__ = ["BatchCounts", "Skip", "write_batch"]


@attrs.frozen
class Skip:
    """A game not stored: its number in its file, a line (the game's first, or where reading it
    failed), and why."""

    number: int
    line: int
    reason: str


@attrs.define
class BatchCounts:
    """What one batch added: games stored, games skipped (unreadable) and duplicates recognised."""

    games: int = 0
    skipped: int = 0
    duplicates: int = 0
    plies: int = 0


_UPSERT = (
    "INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(key, variant, move) DO UPDATE SET "
    "games = games + excluded.games, white = white + excluded.white, draws = draws + excluded.draws, "
    "black = black + excluded.black"
)


def write_batch(
    connection: sqlite3.Connection,
    variant_ids: dict[str, int],
    records: Iterable[GameRecord],
    skips: Sequence[Skip],
    source: tuple[str, int, int] | None,
) -> BatchCounts:
    """Write one batch in one transaction; ``variant_ids`` maps each record's variant to its id
    (the caller has made the rows). ``source``: ``(path, size, mtime)`` of the file, or None."""
    counts = BatchCounts(skipped=len(skips))
    with connection:
        source_id = _source_row(connection, source)
        stats: dict[tuple[int, int, int], list[int]] = {}
        for record in records:
            variant = variant_ids[record.variant]
            game = _game_row(connection, record, variant, source_id)
            if isinstance(game, Skip):
                counts.duplicates += 1
                _skip_row(connection, source_id, game)
                continue
            counts.games += 1
            counts.plies += len(record.moves)
            _positions(connection, record, variant, game)
            _count(stats, record, variant)
        connection.executemany(
            _UPSERT, [(key, variant, move, *values) for (key, variant, move), values in stats.items()]
        )
        for skip in skips:
            _skip_row(connection, source_id, skip)
        if source_id is not None:
            connection.execute(
                "UPDATE sources SET games = ?, skipped = ?, duplicates = ? WHERE id = ?",
                (counts.games, counts.skipped, counts.duplicates, source_id),
            )
    return counts


def _source_row(connection: sqlite3.Connection, source: tuple[str, int, int] | None) -> int | None:
    if source is None:
        return None
    path, size, mtime = source
    connection.execute(
        "INSERT INTO sources(path, size, mtime, games, skipped, duplicates) VALUES (?, ?, ?, 0, 0, 0) "
        "ON CONFLICT(path) DO UPDATE SET size = excluded.size, mtime = excluded.mtime",
        (path, size, mtime),
    )
    row = connection.execute("SELECT id FROM sources WHERE path = ?", (path,)).fetchone()
    source_id: int = row[0]
    connection.execute("DELETE FROM skipped WHERE source = ?", (source_id,))
    return source_id


def _game_row(connection: sqlite3.Connection, record: GameRecord, variant: int, source: int | None) -> int | Skip:
    cursor = connection.execute(
        "INSERT OR IGNORE INTO games(variant, source, number, line, headers, result, outcome, start, moves, plies, "
        "digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            variant,
            source,
            record.index,
            record.line,
            json.dumps(dict(record.headers), ensure_ascii=False),
            record.result,
            record.outcome,
            record.start_fen,
            " ".join(record.moves),
            len(record.moves),
            record.digest,
        ),
    )
    if cursor.rowcount == 1 and cursor.lastrowid is not None:
        return cursor.lastrowid
    row = connection.execute("SELECT id FROM games WHERE digest = ?", (record.digest,)).fetchone()
    return Skip(record.index, record.line, f"duplicate of game {row[0]}")


def _skip_row(connection: sqlite3.Connection, source: int | None, skip: Skip) -> None:
    connection.execute(
        "INSERT INTO skipped(source, number, line, reason) VALUES (?, ?, ?, ?)",
        (source, skip.number, skip.line, skip.reason),
    )


def _positions(connection: sqlite3.Connection, record: GameRecord, variant: int, game: int) -> None:
    connection.executemany(
        "INSERT OR IGNORE INTO positions VALUES (?, ?, ?, ?)",
        [(signed(key), variant, game, ply) for ply, key in enumerate(record.keys)],
    )


def _count(stats: dict[tuple[int, int, int], list[int]], record: GameRecord, variant: int) -> None:
    """Add the game's moves to the batch's explorer counts (each (position, move) once per game)."""
    seen: set[tuple[int, int]] = set()
    outcome = record.outcome
    for key, code, turn in zip(record.keys, record.codes, record.turns, strict=False):
        pair = (key, code)
        if pair in seen:
            continue
        seen.add(pair)
        entry = stats.get((signed(key), variant, signed(code)))
        if entry is None:
            entry = stats[(signed(key), variant, signed(code))] = [turn, 0, 0, 0, 0]
        entry[1] += 1
        if outcome != NONE:
            entry[2 + outcome] += 1

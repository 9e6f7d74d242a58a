"""The database file: its tables, its format version, and the conversions its columns need.

Tables (SQLite, one file):

``meta(name, value)``
    ``format`` (:data:`FORMAT`) and ``keys`` (the position-key definition, :data:`KEYS`).
``variants(id, name, ruleset)``
    Each ruleset that has games, with its rule file text (JSON), so custom rules read back.
``sources(id, path, size, mtime, games, skipped, duplicates)``
    Each file imported, written in the transaction of its games: an import that stops leaves no
    file half-imported, and the next run skips the files already done (same size and time).
``games(id, variant, source, number, line, headers, result, outcome, start, moves, plies, digest)``
    Each game: its tags (JSON), result, outcome (0 White won, 1 draw, 2 Black won, 3 none), start
    FEN, main-line moves in the variant's notation separated by spaces, its number and first line
    in its file, and a digest that equal games share (duplicates are not stored twice).
``positions(key, variant, game, ply)``
    Every position of every game (ply 0 is the start), by its 64-bit key (:mod:`draughts.keys`).
``moves(key, variant, move, turn, games, white, draws, black)``
    The explorer's table: for each position and each move played from it (its code,
    :mod:`draughts.db.moves`), the games and their outcomes (a game counts once however often it
    played the move there). Kept up to date by every import.
``skipped(id, source, number, line, reason)``
    Each game that was not stored and why (a reading error, or a duplicate of game N).

Keys and codes are unsigned 64-bit numbers; SQLite's integers are signed, so they are stored
minus ``2**64`` when they are ``2**63`` or more (:func:`signed`, :func:`unsigned`).
"""

from __future__ import annotations

import os
import sqlite3
import urllib.parse
from typing import Final

from draughts.errors import DatabaseError

__all__ = ["FORMAT", "KEYS", "connect", "signed", "unsigned"]

FORMAT: Final = "1"
"""The version of the tables' layout."""
KEYS: Final = "splitmix64:0x6472617567687473:v1"
"""The position-key definition the file's keys follow (:mod:`draughts.keys`)."""

_TABLES: Final = """
CREATE TABLE IF NOT EXISTS meta(name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS variants(id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL, ruleset TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sources(
    id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, size INTEGER, mtime INTEGER,
    games INTEGER NOT NULL, skipped INTEGER NOT NULL, duplicates INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS games(
    id INTEGER PRIMARY KEY, variant INTEGER NOT NULL, source INTEGER, number INTEGER, line INTEGER,
    headers TEXT NOT NULL, result TEXT NOT NULL, outcome INTEGER NOT NULL, start TEXT NOT NULL,
    moves TEXT NOT NULL, plies INTEGER NOT NULL, digest BLOB UNIQUE NOT NULL);
CREATE TABLE IF NOT EXISTS positions(
    key INTEGER NOT NULL, variant INTEGER NOT NULL, game INTEGER NOT NULL, ply INTEGER NOT NULL,
    PRIMARY KEY (key, variant, game, ply)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS moves(
    key INTEGER NOT NULL, variant INTEGER NOT NULL, move INTEGER NOT NULL, turn INTEGER NOT NULL,
    games INTEGER NOT NULL, white INTEGER NOT NULL, draws INTEGER NOT NULL, black INTEGER NOT NULL,
    PRIMARY KEY (key, variant, move)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS skipped(
    id INTEGER PRIMARY KEY, source INTEGER, number INTEGER, line INTEGER, reason TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS games_by_variant ON games(variant, id);
"""

_TOP: Final = 1 << 63
_WRAP: Final = 1 << 64


def signed(value: int) -> int:
    """An unsigned 64-bit number as SQLite stores it (signed)."""
    return value - _WRAP if value >= _TOP else value


def unsigned(value: int) -> int:
    """A stored (signed) number back to unsigned 64 bits."""
    return value + _WRAP if value < 0 else value


def connect(path: str, *, readonly: bool = False) -> sqlite3.Connection:
    """Open the database at ``path`` and check its format: created if needed, or ``readonly``
    (an existing file, never written: what the explorer of a web server opens).

    Raises:
        ~draughts.errors.DatabaseError: the file is not an SQLite database, or one of another format or key
            definition, or (``readonly``) there is no such file.
    """
    try:
        if readonly:
            uri = "file:" + urllib.parse.quote(os.path.abspath(path)) + "?mode=ro"
            connection = sqlite3.connect(uri, uri=True)
        else:
            connection = sqlite3.connect(path)
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=NORMAL")
            connection.executescript(_TABLES)
        _check_meta(connection, path, readonly)
    except sqlite3.DatabaseError as error:
        raise DatabaseError(f"{path!r} is not a game database: {error}") from None
    return connection


def _check_meta(connection: sqlite3.Connection, path: str, readonly: bool) -> None:
    expected = {"format": FORMAT, "keys": KEYS}
    with connection:
        for name, value in expected.items():
            row = connection.execute("SELECT value FROM meta WHERE name = ?", (name,)).fetchone()
            if row is None and not readonly:
                connection.execute("INSERT INTO meta VALUES (?, ?)", (name, value))
            elif row is None or row[0] != value:
                found = "no " + name if row is None else f"{name} {row[0]!r}"
                raise DatabaseError(f"{path!r} has {found}; this version reads {value!r}")

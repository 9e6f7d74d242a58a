"""Importing PDN files: each file read into records in a worker, written by the process that owns the file.

:meth:`Database.import_files <draughts.db.Database.import_files>` is the entry point; this module
holds the job a worker runs (:func:`read_file`, a plain function of picklable arguments, so any
``concurrent.futures`` executor runs it: a process pool, or Dask's ``Client.get_executor()``) and
the report.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import attrs

from draughts.db.records import GameRecord, record_of
from draughts.db.writer import Skip
from draughts.errors import DraughtsError, PDNError
from draughts.pdn.collection import expand_paths
from draughts.pdn.reader import outcomes
from draughts.rules import Ruleset

if TYPE_CHECKING:
    from concurrent.futures import Executor

__all__ = ["FileBatch", "FileImport", "ImportReport", "read_file", "run_jobs"]


@attrs.frozen
class FileBatch:
    """What a worker read from one file: the records of its games and the games it skipped."""

    path: str
    records: tuple[GameRecord, ...]
    skips: tuple[Skip, ...]
    error: str | None
    seconds: float


@attrs.frozen
class FileImport:
    """One file's part of an import.

    Attributes:
        path: The file.
        games: Games stored.
        skipped: Games that could not be read, each ``(number, line, reason)``.
        duplicates: Games already in the database (not stored again).
        plies: Moves of the games stored.
        seconds: CPU seconds the worker spent reading it.
        done_before: True when an earlier import had already read this file, unchanged (nothing read).
        error: Why the file could not be read at all, or None.
    """

    path: str
    games: int = 0
    skipped: tuple[tuple[int, int, str], ...] = ()
    duplicates: int = 0
    plies: int = 0
    seconds: float = 0.0
    done_before: bool = False
    error: str | None = None


@attrs.frozen
class ImportReport:
    """An import's figures: one :class:`FileImport` per file, and their sums."""

    files: tuple[FileImport, ...]
    seconds: float

    @property
    def games(self) -> int:
        """Games stored."""
        return sum(item.games for item in self.files)

    @property
    def skipped(self) -> int:
        """Games that could not be read."""
        return sum(len(item.skipped) for item in self.files)

    @property
    def duplicates(self) -> int:
        """Games recognised as already stored."""
        return sum(item.duplicates for item in self.files)

    @property
    def plies(self) -> int:
        """Moves of the games stored."""
        return sum(item.plies for item in self.files)

    def to_dict(self) -> dict[str, object]:
        """The report as JSON-ready data."""
        return {
            "games": self.games,
            "skipped": self.skipped,
            "duplicates": self.duplicates,
            "plies": self.plies,
            "seconds": round(self.seconds, 3),
            "files": [attrs.asdict(item) for item in self.files],
        }


def stamp(path: str) -> tuple[int, int]:
    """The size and modification time (ns) of a file."""
    status = os.stat(path)
    return status.st_size, status.st_mtime_ns


def read_file(path: str, ruleset: Ruleset | None) -> FileBatch:
    """Read every game of one PDN file into records (the job a worker runs); unreadable games become skips."""
    started = time.process_time()
    records: list[GameRecord] = []
    skips: list[Skip] = []
    error: str | None = None
    try:
        for item in outcomes(path, ruleset, None, False):
            if isinstance(item, PDNError):
                skips.append(Skip(item.game or 0, item.line or 0, str(item)))
                continue
            try:
                records.append(record_of(item))
            except DraughtsError as problem:  # a position the key cannot take: recorded, not fatal
                skips.append(Skip(item.index or 0, item.line or 0, str(problem)))
    except (OSError, PDNError) as problem:
        error = f"cannot read: {getattr(problem, 'strerror', None) or problem}"
    return FileBatch(path, tuple(records), tuple(skips), error, time.process_time() - started)


def run_jobs(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    ruleset: Ruleset | None,
    done: Callable[[str, tuple[int, int]], bool],
    write: Callable[[FileBatch, tuple[int, int]], FileImport],
    executor: Executor | None,
    progress: Callable[[int, int], None] | None,
) -> ImportReport:
    """Read the files not ``done`` (in parallel over ``executor``), handing each batch to ``write`` in file order."""
    started = time.perf_counter()
    files = [os.path.abspath(path) for path in expand_paths(paths)]
    stamps = {path: stamp(path) for path in files}
    todo = [path for path in files if not done(path, stamps[path])]
    results: dict[str, FileImport] = {path: FileImport(path, done_before=True) for path in files if path not in todo}
    if executor is None:
        batches: Iterable[FileBatch] = (read_file(path, ruleset) for path in todo)
    else:
        futures = [executor.submit(read_file, path, ruleset) for path in todo]
        batches = (future.result() for future in futures)
    try:
        for count, batch in enumerate(batches, 1):
            results[batch.path] = write(batch, stamps[batch.path])
            if progress is not None:
                progress(count, len(todo))
    finally:
        if executor is not None:
            for future in futures:
                future.cancel()
    return ImportReport(tuple(results[path] for path in files), time.perf_counter() - started)

"""Replay a collection of PDN files, one job per file, over any ``concurrent.futures.Executor``.

:func:`replay_files` reads every game of many files (or of every ``*.pdn`` under a directory) with
:func:`draughts.pdn.read_games`, checks every move, and returns per-file figures and their sums:
games read, moves, games per ruleset, results per ruleset, and every game that could not be read
with its message. Each file is one job; with ``executor=`` the jobs run in parallel, in a
``ProcessPoolExecutor`` on one machine or on a Dask cluster (``Client.get_executor()``), and the
report is the same as a serial run's, in the same order.

>>> import io, tempfile, pathlib
>>> from draughts.pdn.collection import replay_files
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "a.pdn").write_text('[GameType "25"] 1. c3-d4 f6-e5 2. d4:f6 g7:e5 1-0')
>>> _ = (folder / "b.pdn").write_text('[GameType "20"] 1. 32-28 19-23 2. 28x19 14x23 1-1 1. 99-98 *')
>>> report = replay_files(folder)
>>> report.games, report.moves, report.variants
(2, 8, {'international': 1, 'russian': 1})
>>> report.results["russian"]
{'white': 1, 'black': 0, 'draw': 0, 'none': 0}
>>> [(file.path.name, file.games, len(file.skipped)) for file in report.files]
[('a.pdn', 1, 0), ('b.pdn', 1, 1)]
>>> report.ok
False

Workers read the files themselves, so on a cluster every worker must see the paths (a shared
file system); paths are made absolute before they are sent. The unit of work is a file: one very
large file is read by one worker.
"""

from __future__ import annotations

import errno
import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from draughts import pdn
from draughts._text import excerpt
from draughts.errors import PDNError
from draughts.pdn.reader import check_options, outcomes
from draughts.rules import Ruleset
from draughts.rules.files import resolve_ruleset

if TYPE_CHECKING:
    from concurrent.futures import Executor

__all__ = ["OUTCOMES", "CollectionReport", "FileReport", "pdn_files", "replay_files"]

OUTCOMES = ("white", "black", "draw", "none")
"""How a game's result is counted: a win for White or Black (:attr:`draughts.pdn.Game.winner`), a draw,
or none (``*``, a double loss ``0-0``, or a result that is not a score)."""

RulesetChoice = Ruleset | str | os.PathLike[str] | None | Callable[[Path], Ruleset | str | os.PathLike[str] | None]
"""The rules of a file's games: a ruleset, a name, a rule file, None (each game's tags), or a function of the path."""


def _empty_results() -> dict[str, int]:
    return dict.fromkeys(OUTCOMES, 0)


@attrs.frozen
class FileReport:
    """What one file gave.

    Attributes:
        path: The file, as found (under the directory given, or as given).
        games: Games read, each replayed with every move legal.
        moves: Moves of those games.
        variants: Games read per ruleset name.
        results: Per ruleset name, games per outcome (see :data:`OUTCOMES`).
        skipped: The message of each game that could not be read (its number, line and reason).
        error: Why the file could not be read to its end (it cannot be opened, or holds bytes its
            encoding cannot decode), else None.
        seconds: CPU time of the job in the process that ran it (not part of equality).
        guessed: Games read whose rules no tag named, chosen from their moves (:attr:`draughts.pdn.Game.guessed`).
    """

    path: Path
    games: int = 0
    moves: int = 0
    variants: dict[str, int] = attrs.field(factory=dict)
    results: dict[str, dict[str, int]] = attrs.field(factory=dict)
    skipped: tuple[str, ...] = ()
    error: str | None = None
    seconds: float = attrs.field(default=0.0, eq=False)
    guessed: int = 0

    @property
    def ok(self) -> bool:
        """True when the file held games and every one was read."""
        return self.games > 0 and not self.skipped and self.error is None


@attrs.frozen
class CollectionReport:
    """The reports of every file, in the order of the paths, and their sums."""

    files: tuple[FileReport, ...]

    @property
    def games(self) -> int:
        """Games read in all the files."""
        return sum(file.games for file in self.files)

    @property
    def moves(self) -> int:
        """Moves of the games read."""
        return sum(file.moves for file in self.files)

    @property
    def guessed(self) -> int:
        """Games read whose rules were guessed from their moves (no tag named them)."""
        return sum(file.guessed for file in self.files)

    @property
    def variants(self) -> dict[str, int]:
        """Games read per ruleset name, names in alphabetical order."""
        total: dict[str, int] = {}
        for file in self.files:
            for name, count in file.variants.items():
                total[name] = total.get(name, 0) + count
        return dict(sorted(total.items()))

    @property
    def results(self) -> dict[str, dict[str, int]]:
        """Per ruleset name (alphabetical), games per outcome (see :data:`OUTCOMES`)."""
        total: dict[str, dict[str, int]] = {}
        for file in self.files:
            for name, counts in file.results.items():
                into = total.setdefault(name, _empty_results())
                for outcome, count in counts.items():
                    into[outcome] += count
        return dict(sorted(total.items()))

    @property
    def failures(self) -> list[tuple[Path, str]]:
        """Each game that could not be read and each file that could not be read to its end, with
        its message, in file order."""
        out: list[tuple[Path, str]] = []
        for file in self.files:
            out.extend((file.path, message) for message in file.skipped)
            if file.error is not None:
                out.append((file.path, file.error))
        return out

    @property
    def ok(self) -> bool:
        """True when there were files and every one held games that were all read."""
        return bool(self.files) and all(file.ok for file in self.files)


def pdn_files(path: str | os.PathLike[str]) -> list[Path]:
    """The ``*.pdn`` files (any case) under a directory and its subdirectories, in sorted order.

    Hidden files and directories (names starting with ``.``) are left out; symbolic links to
    directories are not followed.

    Raises:
        NotADirectoryError: ``path`` is not a directory.
    """
    root = Path(path)
    if not root.is_dir():
        raise NotADirectoryError(f"{excerpt(str(root))} is not a directory")
    found: list[Path] = []
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = [name for name in subfolders if not name.startswith(".")]
        base = Path(folder)
        found.extend(base / name for name in names if name.lower().endswith(".pdn") and not name.startswith("."))
    return sorted(found, key=lambda file: file.relative_to(root).parts)


def expand_paths(paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]]) -> list[Path]:
    """The PDN files ``paths`` name (files as given, directories searched), as :func:`replay_files`
    reads them (the ``draughts pdn`` command lists them the same way; not in ``__all__``)."""
    items = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    files = []
    for item in items:
        if not isinstance(item, (str, os.PathLike)):
            raise TypeError(f"replay_files needs paths (str or os.PathLike), not {type(item).__name__}")
        path = Path(item)
        if path.is_dir():
            files.extend(pdn_files(path))
        elif os.path.lexists(path):  # a file, or a link that its job will report it cannot open
            files.append(path)
        else:
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(path))
    return files


def _rules(ruleset: RulesetChoice, path: Path) -> Ruleset | None:
    choice = ruleset(path) if callable(ruleset) else ruleset
    return None if choice is None else resolve_ruleset(choice)


def _outcome(game: pdn.Game) -> str:
    normal = pdn.normalise_result(game.result)
    if normal is None or normal in ("*", "0-0"):
        return "none"
    winner = game.winner
    if winner is None:
        return "draw"
    return str(winner)


def _named(error: PDNError, path: Path) -> PDNError:
    """``error`` (of the same class) with the file named in front of its message."""
    named = type(error)(
        f"{path}: {error}", game=error.game, line=error.line, ply=error.ply, move=error.move, headers=error.headers
    )
    named.__cause__ = error
    return named


def _stamp(path: Path) -> tuple[int, int]:
    """The size and modification time of a file ((-1, -1) if it cannot be looked at)."""
    try:
        status = os.stat(path)
    except OSError:
        return (-1, -1)
    return (status.st_size, status.st_mtime_ns)


def _replay_one(
    path: Path, where: str, variant: Ruleset | None, errors: str, encoding: str | None, stamp: tuple[int, int]
) -> FileReport:
    """Read every game of one file (the job sent to executors; ``where`` is the absolute path).

    ``stamp`` (:func:`_stamp`) is not used here: it makes the job's arguments change when the file
    does, for executors that reuse the result of a call with the same arguments (Dask's
    ``client.submit`` is ``pure`` by default).
    """
    started = time.process_time()
    games = moves = guessed = 0
    variants: dict[str, int] = {}
    results: dict[str, dict[str, int]] = {}
    skipped: list[str] = []
    error: str | None = None
    failure: PDNError | None = None
    try:
        for item in outcomes(where, variant, encoding, False):
            if isinstance(item, PDNError):
                if errors == "raise":
                    failure = item
                    break
                skipped.append(str(item))
                continue
            games += 1
            moves += len(item.mainline_moves())
            guessed += item.guessed
            name = item.ruleset.name
            variants[name] = variants.get(name, 0) + 1
            results.setdefault(name, _empty_results())[_outcome(item)] += 1
    except OSError as problem:
        if errors == "raise":
            raise
        error = f"cannot read: {problem.strerror or problem}"
    except PDNError as problem:  # bytes that the forced encoding (or a byte-order mark) cannot decode
        if errors == "raise":
            failure = problem
        else:
            error = str(problem)
    if failure is not None:
        raise _named(failure, path)
    return FileReport(
        path,
        games,
        moves,
        dict(sorted(variants.items())),
        dict(sorted(results.items())),
        tuple(skipped),
        error,
        time.process_time() - started,
        guessed,
    )


def replay_files(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    ruleset: RulesetChoice = None,
    *,
    errors: str = "skip",
    encoding: str | None = None,
    executor: Executor | None = None,
) -> CollectionReport:
    """Read and check every game of many PDN files, one job per file; per-file reports and their sums.

    Args:
        paths: A file or directory, or several. A directory stands for the ``*.pdn`` files under
            it (:func:`pdn_files`); a file is read whatever its name.
        ruleset: The rules of the games, as in :func:`draughts.pdn.read_games`: a ruleset, a
            name or a rule file, or None (the default) for each game's GameType or Variant tag. A function of
            the file's path gives each file its own (called here, before any job is sent).
        errors: ``"skip"`` (the default) to record each game that cannot be read and go on;
            ``"raise"`` to stop at the first one, in file order, and raise it.
        encoding: Decode every file with this encoding (default: detected per file).
        executor: A ``concurrent.futures.Executor`` (a ``ProcessPoolExecutor``, Dask's
            ``Client.get_executor()``, ...) to read the files in parallel; None reads them here,
            one after another. The report is the same either way. Each job's arguments include
            the file's size and modification time, so an executor that reuses the results of
            equal calls (Dask's, unless ``get_executor(pure=False)``) reads a changed file again.

    Returns:
        A :class:`CollectionReport` with one :class:`FileReport` per file, in the order of
        ``paths`` (each directory's files in sorted order).

    Raises:
        FileNotFoundError: a path does not exist (before any file is read).
        PDNError: with ``errors="raise"``, the first game that cannot be read (the message
            starts with its file), or bytes a file's encoding cannot decode.
        OSError: with ``errors="raise"``, a file that cannot be opened. With ``"skip"`` both are
            recorded in the file's :attr:`FileReport.error`.
        UnknownVariantError: ``ruleset`` (or what it returns for a file) names no ruleset.
        DraughtsError: ``errors`` or ``encoding`` is not a value it can be.
    """
    check_options(errors, encoding, "first")
    files = expand_paths(paths)
    jobs = [(path, os.path.abspath(path), _rules(ruleset, path), errors, encoding, _stamp(path)) for path in files]
    if executor is None:
        return CollectionReport(tuple(_replay_one(*job) for job in jobs))
    futures = [executor.submit(_replay_one, *job) for job in jobs]
    try:
        return CollectionReport(tuple(future.result() for future in futures))
    finally:
        for future in futures:
            future.cancel()  # after a failure, the files not started yet are not read

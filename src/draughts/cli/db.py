"""``draughts db import | explore | find | shots`` and ``draughts book build | merge | probe``: the game database.

:mod:`draughts.cli` registers both commands with one call to :func:`add_parsers`.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from collections.abc import Callable
from typing import Any, TextIO

from draughts._text import plural
from draughts.cli.executor import WORKERS_HELP, executor
from draughts.cli.progress import Bar
from draughts.errors import DraughtsError
from draughts.rules import Ruleset

__all__ = ["add_parsers", "open_book"]

RulesetOf = Callable[[str], Ruleset]


def add_parsers(commands: Any, ruleset: RulesetOf, variant_help: str) -> None:
    """Add ``db`` and ``book`` to the ``draughts`` command's subparsers; ``ruleset`` reads ``VARIANT``."""
    _add_db(commands, ruleset, variant_help)
    _add_book(commands, ruleset, variant_help)


def _add_db(commands: Any, ruleset: RulesetOf, variant_help: str) -> None:
    sub = commands.add_parser("db", help="game database: import PDN, explore openings, find positions, find shots")
    actions = sub.add_subparsers(dest="action", metavar="ACTION", required=True)

    load = actions.add_parser("import", help="import PDN files (resumable; bad games skipped with their reason)")
    load.add_argument("db", metavar="DB", help="the database file (created if missing)")
    load.add_argument("files", nargs="+", metavar="FILE|DIR", help="PDN files, or directories of *.pdn files")
    load.add_argument("--variant", metavar="VARIANT", help="rules of games without tags naming them: " + variant_help)
    load.add_argument("--workers", type=int, metavar="N", help=WORKERS_HELP)
    load.add_argument("--scheduler", metavar="ADDRESS", help="read the files on a Dask cluster")
    load.add_argument("--format", choices=("text", "json"), default="text")
    load.set_defaults(run=lambda args, out: _import(args, out, ruleset))

    explore = actions.add_parser("explore", help="the moves played from a position, with games and results")
    _add_position(explore, "DB", variant_help, "the position (default: the start)")
    explore.add_argument("--games", type=int, default=10, metavar="N", help="games reached to list (default 10)")
    explore.set_defaults(run=lambda args, out: _explore(args, out, ruleset))

    find = actions.add_parser("find", help="the games in which a position, or a pattern, occurred")
    _add_position(find, "DB", variant_help, "the position (or give a pattern)")
    find.add_argument("--pattern", default="", metavar="PIECES", help="pieces on squares, e.g. 'w28,32 b19 e23'")
    find.add_argument("--material", default="", metavar="COUNTS", help="exact counts, e.g. 'w12 b11 W0 B0'")
    find.add_argument("--turn", choices=("white", "black"), help="the side to move (pattern search)")
    find.add_argument("--limit", type=int, default=100, metavar="N", help="games to list (default 100)")
    find.set_defaults(run=lambda args, out: _find(args, out, ruleset))

    shots = actions.add_parser("shots", help="tactical shots in the games, verified by search, as PDN puzzles")
    shots.add_argument("db", metavar="DB")
    shots.add_argument("--variant", metavar="VARIANT", help="only games of these rules: " + variant_help)
    shots.add_argument("--depth", type=int, default=6, help="search depth that verifies a shot (default 6)")
    shots.add_argument("--gain", type=int, default=1, help="men a shot must win, net (default 1)")
    shots.add_argument("--limit", type=int, metavar="N", help="stop after N shots")
    shots.add_argument("--games", type=int, metavar="N", help="look at the first N games only")
    shots.add_argument("--output", metavar="FILE", help="write the puzzles here (default: standard output)")
    shots.set_defaults(run=lambda args, out: _shots(args, out, ruleset))


def _add_book(commands: Any, ruleset: RulesetOf, variant_help: str) -> None:
    sub = commands.add_parser("book", help="opening books: build one from a game database or by the engine, probe it")
    actions = sub.add_subparsers(dest="action", metavar="ACTION", required=True)

    build = actions.add_parser(
        "build",
        help="build a book of the moves played in a database's games (DB BOOK), by the engine (--engine, BOOK), "
        "or both merged (DB BOOK --engine)",
    )
    build.add_argument("files", nargs="+", metavar="[DB] BOOK", help="the database (unless --engine alone), the book")
    build.add_argument("--variant", metavar="VARIANT", required=True, help=variant_help)
    build.add_argument("--min-games", type=int, default=1, metavar="N", help="moves played at least N times")
    build.add_argument("--weighting", choices=("games", "score"), default="games")
    _add_engine_options(build)
    build.set_defaults(run=lambda args, out: _book_build(args, out, ruleset))

    merge = actions.add_parser("merge", help="merge books: a position takes its moves from the first book that has it")
    merge.add_argument("book", metavar="BOOK", help="the book file to write")
    merge.add_argument("books", nargs="+", metavar="INPUT", help="the books to merge, first preferred")
    merge.set_defaults(run=_book_merge)

    probe = actions.add_parser("probe", help="the book moves of a position")
    _add_position(probe, "BOOK", variant_help, "the position (default: the start)")
    probe.set_defaults(run=lambda args, out: _book_probe(args, out, ruleset))


def _add_engine_options(build: argparse.ArgumentParser) -> None:
    """The options of a book built by the engine (:func:`draughts.db.engine_book.build_engine_book`)."""
    engine = build.add_argument_group("built by the engine")
    engine.add_argument(
        "--engine", metavar="PLAYER", help="score every move by this engine: depth:N, nodes:N, time:S or level:NAME"
    )
    engine.add_argument("--plies", type=int, metavar="N", help="plies of the tree (default 4)")
    engine.add_argument("--fen", metavar="FEN", help="the root position (default: the start)")
    engine.add_argument("--margin", type=int, metavar="CENTI", help="moves this much worse left out (50)")
    engine.add_argument("--halving", type=int, metavar="CENTI", help="this much worse halves a weight (25)")
    engine.add_argument("--width", type=int, metavar="K", help="expand at most the K heaviest moves of a position")
    engine.add_argument("--seed", type=int, help="seed of the engines' tie-breaks (default 0)")
    engine.add_argument("--workers", type=int, metavar="N", help=WORKERS_HELP)


def _add_position(parser: argparse.ArgumentParser, file: str, variant_help: str, fen_help: str) -> None:
    """The arguments of a look-up of one position in a file: ``FILE VARIANT [FEN] [--format]``."""
    parser.add_argument(file.lower(), metavar=file)
    parser.add_argument("variant", metavar="VARIANT", help=variant_help)
    parser.add_argument("fen", metavar="FEN", nargs="?", help=fen_help)
    parser.add_argument("--format", choices=("text", "json"), default="text")


def _open(path: str, *, create: bool = False) -> Any:
    from draughts.db import Database

    if not create and not os.path.exists(path):
        raise DraughtsError(f"no database {path!r} (make one with: draughts db import {path} FILE...)")
    return Database(path, readonly=not create)


def open_book(path: str) -> Any:
    """The book at ``path``, a missing or unreadable file as a :class:`~draughts.DraughtsError`."""
    from draughts.db.book import Book

    try:
        return Book(path)
    except OSError as error:
        raise DraughtsError(f"cannot read the book {path!r}: {error.strerror or error}") from None


def _import(args: argparse.Namespace, out: TextIO, ruleset: RulesetOf) -> int:
    for path in args.files:
        if not os.path.exists(path):
            raise DraughtsError(f"no such file or directory: {path!r}")
    rules = None if args.variant is None else ruleset(args.variant)
    bar = Bar("files")
    with _open(args.db, create=True) as database:
        try:
            with executor(args.workers, args.scheduler, jobs=None) as pool:
                report = database.import_files(args.files, rules, executor=pool, progress=bar)
        finally:
            bar.clear()
        if args.format == "json":
            print(json.dumps({**report.to_dict(), "variants": database.variants()}, indent=2), file=out)
            return 0
        _print_import(report, database.variants(), out)
    return 1 if any(item.error for item in report.files) else 0


def _print_import(report: Any, variants: dict[str, int], out: TextIO) -> None:
    again = sum(item.done_before for item in report.files)
    print(
        f"{plural(report.games, 'game')} imported ({plural(report.plies, 'move')}), "
        f"{report.skipped} skipped, {plural(report.duplicates, 'duplicate')}"
        + (f", {plural(again, 'file')} already imported" if again else ""),
        file=out,
    )
    print(
        "in the database: " + (", ".join(f"{name} {count}" for name, count in variants.items()) or "no games"), file=out
    )
    for item in report.files:
        if item.error:
            print(f"{item.path}: {item.error}", file=out)
        for _number, _line, reason in item.skipped:
            print(f"skipped: {item.path}: {reason}", file=out)


def _explore(args: argparse.Namespace, out: TextIO, ruleset: RulesetOf) -> int:
    rules = ruleset(args.variant)
    with _open(args.db) as database:
        found = database.explore(rules, args.fen, games=args.games)
    if args.format == "json":
        print(json.dumps(found.to_dict(), indent=2, ensure_ascii=False), file=out)
        return 0
    print(f"{found.position.fen()}: {plural(found.count, 'game')}", file=out)
    if found.moves:
        print(f"{'move':<12}{'games':>7}{'white':>7}{'draws':>7}{'black':>7}", file=out)
    for move in found.moves:
        print(f"{move.text:<12}{move.games:>7}{move.white:>7}{move.draws:>7}{move.black:>7}", file=out)
    _print_games(found.games, out)
    return 0


def _print_games(games: Any, out: TextIO) -> None:
    for hit in games:
        who = f"{hit.headers.get('White', '?')} - {hit.headers.get('Black', '?')}"
        where = hit.headers.get("Event", "")
        print(f"  #{hit.id} {who} {hit.result} ({where}) ply {hit.ply}", file=out)


def _find(args: argparse.Namespace, out: TextIO, ruleset: RulesetOf) -> int:
    from draughts.db import Pattern

    rules = ruleset(args.variant)
    pattern_given = bool(args.pattern or args.material or args.turn)
    if args.fen is None and not pattern_given:
        raise DraughtsError("give a FEN, or a pattern with --pattern, --material or --turn")
    if args.fen is not None and pattern_given:
        raise DraughtsError("give a FEN or a pattern, not both")
    with _open(args.db) as database:
        if args.fen is not None:
            found = database.find(rules, args.fen, limit=args.limit)
        else:
            pattern = Pattern.parse(rules, args.pattern, material=args.material, turn=args.turn)
            found = database.search(pattern, limit=args.limit)
    if args.format == "json":
        print(json.dumps(found.to_dict(), indent=2, ensure_ascii=False), file=out)
        return 0
    print(plural(found.count, "game"), file=out)
    _print_games(found.games, out)
    return 0


def _shots(args: argparse.Namespace, out: TextIO, ruleset: RulesetOf) -> int:
    from draughts.db.shots import find_shots, write_puzzles

    rules = None if args.variant is None else ruleset(args.variant)
    with _open(args.db) as database:
        shots = find_shots(database, rules, depth=args.depth, gain=args.gain, limit=args.limit, games=args.games)
    text = write_puzzles(shots)
    if args.output is None:
        print(text, end="", file=out)
    else:
        with open(args.output, "w", encoding="utf-8") as stream:
            stream.write(text)
        print(f"{plural(len(shots), 'shot')} written to {args.output}", file=out)
    return 0


def _book_build(args: argparse.Namespace, out: TextIO, ruleset: RulesetOf) -> int:
    from draughts.db.book import build_book, merge_books

    rules = ruleset(args.variant)
    wanted = 1 if args.engine is not None else 2
    given = [f"--{name}" for name in (*_ENGINE_BOOK_OPTIONS, "workers") if getattr(args, name) is not None]
    if args.engine is None and given:
        raise DraughtsError(f"{', '.join(given)} shape a book built by the engine: add --engine PLAYER")
    if len(args.files) not in (wanted, 2):
        raise DraughtsError("book build takes DB BOOK, or BOOK with --engine (DB BOOK --engine merges both)")
    *database_path, book = args.files
    if not database_path:
        count = _engine_book(args, rules, book)
    elif args.engine is None:
        with _open(database_path[0]) as database:
            count = build_book(database, rules, book, min_games=args.min_games, weighting=args.weighting)
    else:
        with tempfile.TemporaryDirectory() as scratch:
            games, engine = os.path.join(scratch, "games.book"), os.path.join(scratch, "engine.book")
            with _open(database_path[0]) as database:
                build_book(database, rules, games, min_games=args.min_games, weighting=args.weighting)
            _engine_book(args, rules, engine)
            count = merge_books([games, engine], book)
    print(f"{plural(count, 'entry', 'entries')} ({rules.name}) written to {book}", file=out)
    return 0


# The command's options that build_engine_book takes under the same names (None when not given).
_ENGINE_BOOK_OPTIONS = ("plies", "fen", "seed", "halving", "margin", "width")


def _engine_book(args: argparse.Namespace, rules: Ruleset, path: str) -> int:
    from draughts.db.engine_book import build_engine_book

    bar = Bar("positions")
    try:
        with executor(args.workers, None, jobs=None) as pool:
            given = {name: getattr(args, name) for name in _ENGINE_BOOK_OPTIONS}  # None: the default
            options = {name: value for name, value in given.items() if value is not None}
            return build_engine_book(rules, path, player=args.engine, executor=pool, progress=bar, **options)
    finally:
        bar.clear()


def _book_merge(args: argparse.Namespace, out: TextIO) -> int:
    from draughts.db.book import merge_books

    for path in args.books:
        open_book(path)  # a missing file is an error line, not a traceback
    count = merge_books(args.books, args.book)
    print(f"{plural(count, 'entry', 'entries')} written to {args.book}", file=out)
    return 0


def _book_probe(args: argparse.Namespace, out: TextIO, ruleset: RulesetOf) -> int:
    book = open_book(args.book)
    entries = book.probe(ruleset(args.variant), args.fen)
    if args.format == "json":
        print(json.dumps({"moves": [entry.to_dict() for entry in entries]}, indent=2), file=out)
        return 0
    if not entries:
        print("no book moves", file=out)
    for entry in entries:
        print(f"{entry.text:<12} weight {entry.weight:>6}  games {entry.games:>6}", file=out)
    return 0

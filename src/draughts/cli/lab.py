"""``draughts lab RULESET...``: play seeded games per ruleset and print what they measure.

:mod:`draughts.cli` registers the subcommand with one call to :func:`add_parser`; the report
options (tables, CSV, plots) hook in through :func:`emit`.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from draughts._text import excerpt
from draughts.cli.executor import WORKERS_HELP, executor
from draughts.cli.progress import Bar
from draughts.errors import DraughtsError
from draughts.lab.metrics import RulesetMetrics

__all__ = ["add_parser", "emit", "openings_argument", "run"]


def add_parser(commands: Any) -> None:
    """Add ``lab`` to the ``draughts`` command's subparsers (``commands``)."""
    sub = commands.add_parser("lab", help="play seeded games per ruleset and measure what the rules do")
    sub.add_argument(
        "rulesets", nargs="+", metavar="RULESET", help="variant names or rule files (.toml, .json) or module:attribute"
    )
    sub.add_argument("--games", type=int, default=100, help="games per ruleset (default 100)")
    sub.add_argument(
        "--players",
        default="random",
        metavar="PLAYER",
        help="who plays: random, level:NAME, depth:N, nodes:N, time:S or hub:CMD (default random)",
    )
    sub.add_argument(
        "--opponent", metavar="PLAYER", help="the second player of a pairing (default: the same as --players)"
    )
    sub.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    sub.add_argument("--workers", type=int, metavar="N", help=WORKERS_HELP)
    sub.add_argument("--scheduler", metavar="ADDRESS", help="play on a Dask cluster (the distributed extra)")
    sub.add_argument("--max-plies", type=int, default=300, help="ply cap (default 300)")
    sub.add_argument("--openings", metavar="FILE", help="openings, one a line: a FEN or moves separated by spaces")
    sub.add_argument("--ballot", help="a named opening ballot of draughts.openings")
    sub.add_argument(
        "--random-openings",
        type=int,
        metavar="PLIES",
        help=(
            "start each pair of games after PLIES random legal moves (0: the start position; default with "
            "engine players: 4 random plies per game)"
        ),
    )
    sub.add_argument(
        "--book",
        metavar="BOOK",
        help="start each pair of games from a random exit of this opening book (draughts book build), seeded",
    )
    sub.add_argument("--book-plies", type=int, metavar="N", help="at most N book moves an opening (default: all)")
    sub.add_argument(
        "--results", metavar="FILE", help="stream each game's record to this JSON-lines file; resume from it"
    )
    sub.add_argument("--tablebases", metavar="DIR", help="endgame tables for the tablebase metrics")
    sub.add_argument("--format", choices=("text", "json"), default="text", help="text: one table, a column per ruleset")
    sub.add_argument("--csv", metavar="FILE", help="also write the table as CSV (a line per metric and ruleset)")
    sub.add_argument("--plots", metavar="DIR", help="also draw SVG plots into DIR (game lengths, branching, score)")
    sub.set_defaults(run=run)


def openings_argument(args: argparse.Namespace) -> Any:
    """What ``--openings FILE``, ``--ballot NAME``, ``--random-openings PLIES`` or ``--book BOOK`` ask
    for, as :func:`~draughts.lab.runner.resolve_openings` takes it."""
    plies = getattr(args, "random_openings", None)
    book = getattr(args, "book", None)
    if sum(1 for given in (args.openings, args.ballot, plies, book) if given is not None) > 1:
        options = "--openings, --ballot, --random-openings and --book" if hasattr(args, "book") else None
        raise DraughtsError(f"{options or '--openings, --ballot and --random-openings'} exclude each other")
    if book is not None:
        from draughts.cli.db import open_book
        from draughts.db.book import BookOpenings

        open_book(book)  # a missing file is an error line, not a traceback
        return BookOpenings(book, max(1, (args.games + 1) // 2), getattr(args, "seed", 0), args.book_plies)
    if plies == 0:  # the start position, whoever plays
        from draughts.lab.runner import Opening

        return [Opening(name="start")]
    if plies is not None:
        from draughts.lab.runner import RandomOpenings

        return RandomOpenings(plies, max(1, (args.games + 1) // 2), getattr(args, "seed", 0))
    if args.ballot:
        return args.ballot
    if not args.openings:
        return None
    try:
        text = Path(args.openings).read_text(encoding="utf-8")
    except OSError as error:
        raise DraughtsError(f"cannot read {excerpt(str(args.openings))}: {error.strerror or error}") from None
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


def run(args: argparse.Namespace, out: TextIO) -> None:
    """Run the lab as the arguments say and print its figures."""
    from draughts.lab.runner import run_lab

    players = (args.players, args.opponent or args.players)
    openings = openings_argument(args)
    bar = Bar("games")
    try:
        with executor(args.workers, args.scheduler, jobs=len(args.rulesets) * max(args.games, 1)) as pool:
            figures = run_lab(
                args.rulesets,
                args.games,
                players=players,
                seed=args.seed,
                max_plies=args.max_plies,
                openings=openings,
                executor=pool,
                results=args.results,
                progress=bar,
                tablebases=args.tablebases,
            )
    finally:
        bar.clear()
    emit(figures, args, out)
    if args.format != "json":
        from draughts.lab.runner import openings_note

        print(openings_note(players, openings), file=out)


def emit(figures: Mapping[str, RulesetMetrics], args: argparse.Namespace, out: TextIO) -> None:
    """Print ``figures``: JSON (one object per ruleset, keyed by the name given) or the side-by-side
    table (:mod:`draughts.lab.report`); write the CSV and the plots where asked."""
    from draughts.lab.report import compare, table_csv, table_text

    comparison = compare(figures)
    if getattr(args, "csv", None):
        _write(Path(args.csv), table_csv(comparison))
    if getattr(args, "plots", None):
        from draughts.lab.plots import write_plots

        try:
            write_plots(figures, args.plots)
        except OSError as error:
            reason = error.strerror or error
            raise DraughtsError(f"cannot write plots to {excerpt(str(args.plots))}: {reason}") from None
    if args.format == "json":
        print(json.dumps({name: m.to_dict() for name, m in figures.items()}, indent=2, sort_keys=True), file=out)
        return
    print(table_text(comparison), end="", file=out)


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise DraughtsError(f"cannot write {excerpt(str(path))}: {error.strerror or error}") from None

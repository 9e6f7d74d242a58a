"""``draughts match``: two engines, N games, the table with the Elo interval.

:mod:`draughts.cli` registers the subcommand with one call to :func:`add_parser`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

from draughts.cli.executor import WORKERS_HELP, executor
from draughts.cli.progress import Bar
from draughts.engine import Limit
from draughts.errors import DraughtsError
from draughts.match.elo import SPRT
from draughts.match.runner import Adjudication, EngineSpec, MatchResult, run_match
from draughts.players import TimeControl
from draughts.rules import Ruleset

if TYPE_CHECKING:
    from concurrent.futures import Executor

__all__ = ["add_parser"]


def _params(pairs: list[str]) -> dict[str, str]:
    params = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise DraughtsError(f"engine option {pair!r} must be NAME=VALUE")
        params[name] = value
    return params


def add_parser(commands: Any, ruleset: Callable[[str], Ruleset], variant_help: str) -> None:
    """Add ``match`` to the ``draughts`` command's subparsers."""
    sub = commands.add_parser(
        "match", help="play two engines against each other: PDN, W-D-L, Elo with its 95%% interval"
    )
    kinds = "a player: level:NAME, depth:N, nodes:N, time:S, random, hub:CMD or dxp:HOST:PORT"
    sub.add_argument("a", metavar="ENGINE_A", help=kinds)
    sub.add_argument("b", metavar="ENGINE_B", help="the same for the second engine")
    sub.add_argument("--a-option", action="append", default=[], metavar="NAME=VALUE", help="Hub parameter of A")
    sub.add_argument("--b-option", action="append", default=[], metavar="NAME=VALUE", help="Hub parameter of B")
    sub.add_argument("--a-book", metavar="BOOK", help="opening book A plays from while in it (draughts book build)")
    sub.add_argument("--b-book", metavar="BOOK", help="opening book B plays from while in it")
    sub.add_argument("--games", type=int, default=2, help="games (default 2; colours alternate)")
    sub.add_argument("--variant", default="international", help=variant_help)
    sub.add_argument("--depth", type=int, help="plies per move")
    sub.add_argument("--move-time", type=float, help="seconds per move")
    clock = sub.add_mutually_exclusive_group()
    clock.add_argument("--time", metavar="MIN[+INC]", help="time per game in minutes, increment in seconds")
    clock.add_argument("--tc", metavar="SECONDS[+INC]", help="time per game in seconds, increment in seconds")
    sub.add_argument(
        "--time-margin", type=float, default=0.0, metavar="S", help="seconds of grace before a flag falls (default 0)"
    )
    sub.add_argument(
        "--resign",
        nargs=2,
        type=int,
        metavar=("MOVES", "SCORE"),
        help="adjudicate a win when both engines' scores agree one side is down SCORE (1/100 man) for MOVES moves each",
    )
    sub.add_argument(
        "--draw",
        nargs=3,
        type=int,
        metavar=("PLY", "MOVES", "SCORE"),
        help="from PLY on, adjudicate a draw when both engines' scores stay within SCORE for MOVES moves each",
    )
    sub.add_argument("--tablebases", metavar="DIR", help="adjudicate positions inside these built endgame tables")
    sub.add_argument("--openings", metavar="FILE", help="openings, one a line: a FEN or moves separated by spaces")
    sub.add_argument("--ballot", metavar="NAME", help="a named opening ballot of draughts.openings")
    sub.add_argument(
        "--random-openings", type=int, metavar="PLIES", help="start each pair of games after PLIES random legal moves"
    )
    sub.add_argument("--seed", type=int, default=0, help="the random openings' seed (default 0)")
    sub.add_argument("--scheduler", metavar="ADDRESS", help="play on a Dask cluster (the distributed extra)")
    sub.add_argument("--max-plies", type=int, default=300, help="adjudicate a draw after this many plies")
    sub.add_argument("--workers", type=int, metavar="N", help="games at once: " + WORKERS_HELP)
    sub.add_argument("--pdn", metavar="FILE", help="append every game to FILE")
    sub.add_argument("--results", metavar="FILE", help="JSON lines of finished games (resume)")
    sub.add_argument("--sprt", nargs=2, type=float, metavar=("ELO0", "ELO1"), help="stop when the SPRT decides")
    sub.set_defaults(run=lambda args, out: _run(args, out, ruleset))


def _run(args: argparse.Namespace, out: TextIO, ruleset: Callable[[str], Ruleset]) -> int:
    if args.games < 1 or args.max_plies < 1:
        raise DraughtsError(f"--games and --max-plies must be at least 1 (got {args.games}, {args.max_plies})")
    rules = ruleset(args.variant)
    for book in (args.a_book, args.b_book):
        if book is not None:
            from draughts.cli.db import open_book

            open_book(book).probe(rules)  # a missing file, or a book of other rules, before any game
    clock = None
    if args.time or args.tc:
        clock = TimeControl.parse(args.time or args.tc, minutes=bool(args.time), margin=args.time_margin)
    bar = Bar("games")
    try:
        with executor(args.workers, args.scheduler, jobs=args.games) as pool:
            match = _match(args, rules, clock, pool, bar)
    finally:
        bar.clear()
    print(match.table(), file=out)
    return _report_unstarted(match)


def _progress(bar: Bar) -> Callable[[MatchResult, int], None]:
    """The match's progress: games done and the score so far, from A's side."""

    def show(match: MatchResult, total: int) -> None:
        wins, draws, losses = match.wdl()
        bar(len(match.games), total, f"{match.a} {wins + draws / 2:g} - {losses + draws / 2:g} {match.b}")

    return show


def _report_unstarted(match: MatchResult) -> int:
    """Say on standard error why engines could not start; 1 when no game could be played at all.

    A forfeit is in the table and the PDN's Termination tag, but an engine that never started is
    a mistake in the command, not a result: said on the terminal, and the exit status says so.
    """
    for why, count in match.unstarted().items():
        print(f"draughts match: {why} ({count} game{'' if count == 1 else 's'})", file=sys.stderr)
    if match.games and not match.played():
        print("draughts match: no game could be played", file=sys.stderr)
        return 1
    return 0


def _adjudication(args: argparse.Namespace) -> Adjudication | None:
    if args.resign is None and args.draw is None:
        return None
    resign_moves, resign_score = args.resign or (0, 1000)
    draw_ply, draw_moves, draw_score = args.draw or (0, 0, 0)
    if min(resign_moves, resign_score, draw_ply, draw_moves, draw_score) < 0 or (args.resign and resign_moves < 1):
        raise DraughtsError(
            f"--resign {args.resign} and --draw {args.draw} take counts and scores from 0 (MOVES from 1)"
        )
    return Adjudication(resign_moves, max(resign_score, 1), draw_ply, draw_moves, draw_score)


def _match(
    args: argparse.Namespace, rules: Ruleset, clock: TimeControl | None, pool: Executor | None, bar: Bar
) -> MatchResult:
    from draughts.cli.lab import openings_argument

    return run_match(
        EngineSpec(args.a, _params(args.a_option), args.a_book),
        EngineSpec(args.b, _params(args.b_option), args.b_book),
        games=args.games,
        ruleset=rules,
        openings=openings_argument(args),
        limit=Limit(depth=args.depth, time=args.move_time),
        clock=clock,
        max_plies=args.max_plies,
        tablebases=args.tablebases,
        adjudication=_adjudication(args),
        executor=pool,
        workers=1,
        pdn=args.pdn,
        results=args.results,
        sprt=None if args.sprt is None else SPRT(*args.sprt),
        progress=_progress(bar),
    )

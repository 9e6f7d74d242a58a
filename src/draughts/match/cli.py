"""``draughts match``: two engines, N games, the table with the Elo interval.

:mod:`draughts.cli` registers the subcommand with one call to :func:`add_parser`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, TextIO

from draughts.engine import Limit
from draughts.errors import DraughtsError
from draughts.match.elo import SPRT
from draughts.match.runner import EngineSpec, run_match
from draughts.rules import Ruleset


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
    sub.add_argument("a", metavar="ENGINE_A", help="level:<name> or hub:<command>")
    sub.add_argument("b", metavar="ENGINE_B", help="level:<name> or hub:<command>")
    sub.add_argument("--a-option", action="append", default=[], metavar="NAME=VALUE", help="Hub parameter of A")
    sub.add_argument("--b-option", action="append", default=[], metavar="NAME=VALUE", help="Hub parameter of B")
    sub.add_argument("--games", type=int, default=2, help="games (default 2; colours alternate)")
    sub.add_argument("--variant", default="international", help=variant_help)
    sub.add_argument("--depth", type=int, help="plies per move")
    sub.add_argument("--move-time", type=float, help="seconds per move")
    sub.add_argument("--max-plies", type=int, default=300, help="adjudicate a draw after this many plies")
    sub.add_argument("--workers", type=int, default=2, help="games at once (processes)")
    sub.add_argument("--pdn", metavar="FILE", help="append every game to FILE")
    sub.add_argument("--results", metavar="FILE", help="JSON lines of finished games (resume)")
    sub.add_argument("--sprt", nargs=2, type=float, metavar=("ELO0", "ELO1"), help="stop when the SPRT decides")
    sub.set_defaults(run=lambda args, out: _run(args, out, ruleset))


def _run(args: argparse.Namespace, out: TextIO, ruleset: Callable[[str], Ruleset]) -> int:
    if args.games < 1 or args.workers < 1:
        raise DraughtsError(f"--games and --workers must be at least 1 (got {args.games}, {args.workers})")
    rules = ruleset(args.variant)
    match = run_match(
        EngineSpec(args.a, _params(args.a_option)),
        EngineSpec(args.b, _params(args.b_option)),
        games=args.games,
        ruleset=rules.name,
        limit=Limit(depth=args.depth, time=args.move_time),
        max_plies=args.max_plies,
        workers=args.workers,
        pdn=args.pdn,
        results=args.results,
        sprt=None if args.sprt is None else SPRT(*args.sprt),
    )
    print(match.table(), file=out)
    return 0

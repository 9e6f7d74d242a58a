"""``draughts annotate GAME.pdn``: the command line of :mod:`draughts.engine.analysis`."""

from __future__ import annotations

import argparse
import functools
import math
from collections.abc import Callable
from typing import Any, TextIO

from draughts.errors import DraughtsError
from draughts.rules import Ruleset

__all__ = ["RulesetOf", "add_parser"]

RulesetOf = Callable[[str], Ruleset]


def _positive(kind: Callable[[str], Any], what: str) -> Callable[[str], Any]:
    def read(text: str) -> Any:
        try:
            value = kind(text) if len(text) <= 20 else None
        except ValueError:
            value = None
        if value is None or not (value > 0 and math.isfinite(value)):
            raise argparse.ArgumentTypeError(f"{what} {text[:20]!r} must be a positive number")
        return value

    return read


class _HubAnalyser:
    """An external Hub engine started on the first position, initialised for its ruleset (picklable until then)."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.engine: Any = None

    def analyse(self, game: Any, limit: Any = None, *, multipv: int = 1) -> Any:
        from draughts.hub import HubEngine

        rules = game.ruleset
        if self.engine is not None and self.engine.ruleset != rules:
            self.quit()
        if self.engine is None:
            self.engine = HubEngine(self.command, timeout=30)
            self.engine.init(rules)
        return self.engine.analyse(game, limit, multipv=multipv)

    def quit(self) -> None:
        if self.engine is not None:
            self.engine.quit()
            self.engine = None


def add_parser(commands: Any, ruleset: RulesetOf, variant_help: str) -> None:
    """Add ``annotate`` to the ``draughts`` command's subparsers (``commands``)."""
    sub = commands.add_parser(
        "annotate",
        help="annotate the games of a PDN file: %%eval on every move, marks, better lines, accuracy",
        description="Analyse every position of each game's main line with the polydraughts engine and write\n"
        "the games back with [%eval] comments (White's side), ?!/?/?? marks by the drop in winning\n"
        "chances (lidraughts' thresholds 0.075, 0.15, 0.3), the engine's line after mistakes and\n"
        "blunders, and per-side accuracy tags.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub.add_argument("file", help="a PDN file")
    sub.add_argument("--variant", help=variant_help + " (default: each game's GameType tag)")
    sub.add_argument("--time", type=_positive(float, "--time"), metavar="T", help="seconds per position (default 0.3)")
    sub.add_argument(
        "--depth", type=_positive(int, "--depth"), metavar="D", help="plies per position instead (reproducible)"
    )
    sub.add_argument(
        "--engine",
        metavar="COMMAND",
        help='an external Hub engine to analyse with, e.g. "./scan hub" (default: the polydraughts engine)',
    )
    sub.add_argument("--workers", type=_positive(int, "--workers"), metavar="K", help="annotate games in K processes")
    sub.add_argument("--output", "-o", metavar="FILE", help="write the annotated games here (default: standard output)")
    sub.set_defaults(run=lambda args, out: _annotate(args, out, ruleset))


def _annotate(args: argparse.Namespace, out: TextIO, ruleset: RulesetOf) -> int:
    from concurrent.futures import ProcessPoolExecutor

    from draughts import pdn
    from draughts.cli.progress import Bar
    from draughts.engine import Engine, Limit
    from draughts.engine.analysis import annotate_games

    variant = None if args.variant is None else ruleset(args.variant)
    if args.depth is not None:
        limit = Limit(depth=args.depth, time=args.time)
    else:
        limit = Limit(time=0.3 if args.time is None else args.time)
    try:
        games = list(pdn.read_games(args.file, variant=variant))
    except OSError as error:
        raise DraughtsError(f"cannot read {args.file!r}: {error.strerror}") from None
    factory: Any = Engine if args.engine is None else functools.partial(_HubAnalyser, args.engine)
    bar = Bar("positions")
    try:
        if args.workers is not None and args.workers > 1 and len(games) > 1:
            with ProcessPoolExecutor(min(args.workers, len(games))) as pool:
                annotated = annotate_games(games, limit, executor=pool, engine_factory=factory, progress=bar)
        else:
            annotated = annotate_games(games, limit, engine_factory=factory, progress=bar)
    finally:
        bar.clear()
    try:
        pdn.write_games(annotated, out if args.output is None else args.output)
    except BrokenPipeError:
        raise  # the reader has gone (| head): the command line ends quietly
    except OSError as error:
        raise DraughtsError(f"cannot write {args.output!r}: {error.strerror}") from None
    return 0

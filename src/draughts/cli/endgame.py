"""``draughts endgame build | probe | stats | compare``: the tablebases on the command line.

:mod:`draughts.cli` registers the subcommand with one call to :func:`add_parser`; everything
else lives here.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path
from typing import Any, TextIO

from draughts._text import plural
from draughts.endgame.material import Material
from draughts.endgame.table import fen_of
from draughts.endgame.tablebase import Tablebase
from draughts.errors import DraughtsError
from draughts.position import Piece, Position
from draughts.rules import Ruleset

__all__ = ["RulesetOf", "add_parser", "differing"]

RulesetOf = Callable[[str], Ruleset]


def add_parser(commands: Any, ruleset: RulesetOf, variant_help: str) -> None:
    """Add ``endgame`` to the ``draughts`` command's subparsers (``commands``); ``ruleset`` reads a
    variant argument as the other commands do (names and ruleset files)."""
    sub = commands.add_parser("endgame", help="endgame tablebases of any ruleset: build, probe, stats, compare")
    actions = sub.add_subparsers(dest="action", metavar="ACTION", required=True)

    def common(parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--tablebases",
            "--dir",  # its first name, kept: the other commands call the directory --tablebases
            dest="tablebases",
            metavar="DIR",
            help="directory of the table files (default: the user's cache)",
        )

    build = actions.add_parser("build", help="build the tables of materials (and every smaller one they need)")
    build.add_argument("variant", help=variant_help)
    build.add_argument("materials", nargs="*", metavar="MATERIAL", help="e.g. KKKvK (first player's side first)")
    build.add_argument("--pieces", type=int, help="every material with at most this many pieces")
    build.add_argument("--workers", type=int, default=1, help="build independent materials in N processes")
    common(build)
    build.set_defaults(run=lambda args, out: _build(args, out, ruleset))

    probe = actions.add_parser("probe", help="the verdict and best moves of a position")
    probe.add_argument("variant", help=variant_help)
    probe.add_argument("fen", help="PDN FEN")
    probe.add_argument("--format", choices=("text", "json"), default="text")
    common(probe)
    probe.set_defaults(run=lambda args, out: _probe(args, out, ruleset))

    stats = actions.add_parser("stats", help="wins, losses and draws of a material per side to move")
    stats.add_argument("variant", help=variant_help)
    stats.add_argument("material")
    stats.add_argument("--format", choices=("text", "json"), default="text")
    common(stats)
    stats.set_defaults(run=lambda args, out: _stats(args, out, ruleset))

    compare = actions.add_parser(
        "compare", help="one material under several rulesets: counts side by side, positions whose verdict differs"
    )
    compare.add_argument("variants", nargs="+", metavar="VARIANT", help="two or more variants, then the material")
    compare.add_argument("--examples", type=int, default=3, help="positions with different verdicts to show")
    common(compare)
    compare.set_defaults(run=lambda args, out: _compare(args, out, ruleset))


def _tablebase(args: argparse.Namespace, rules: Ruleset) -> Tablebase:
    return Tablebase(rules, None if args.tablebases is None else Path(args.tablebases))


def _build(args: argparse.Namespace, out: TextIO, ruleset: RulesetOf) -> None:
    tb = _tablebase(args, ruleset(args.variant))
    if not args.materials and args.pieces is None:
        raise DraughtsError("endgame build needs materials (KKKvK ...) or --pieces N")
    executor: Executor | None = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    try:
        built = tb.build(args.materials or None, pieces=args.pieces, executor=executor)
    finally:
        if executor is not None:
            executor.shutdown()
    for material in built:
        print(f"{material.name}: {tb.path(material)} ({tb.path(material).stat().st_size:,} bytes)", file=out)
    if built:
        print(f"{plural(len(built), 'table')} built for {tb.rules.name} in {tb.directory}", file=out)
    else:  # every table asked for was there: say so rather than "0 tables built"
        print(f"already built: every table asked for is in {tb.directory} ({tb.rules.name})", file=out)


def _probe(args: argparse.Namespace, out: TextIO, ruleset: RulesetOf) -> None:
    from draughts.notation import move_text

    rules = ruleset(args.variant)
    tb = _tablebase(args, rules)
    position = Position.from_fen(rules, args.fen)
    verdict = tb.probe(position)
    best = [move_text(position, move) for move in tb.best_moves(position)]
    if args.format == "json":
        print(json.dumps({**verdict.to_dict(), "best_moves": best}), file=out)
        return
    plies = "" if verdict.plies is None else f" in {plural(verdict.plies, 'ply', 'plies')}"
    print(f"{position.turn} to move: {verdict.result}{plies}; within the rules: {verdict.within_rules}", file=out)
    print(f"best moves: {' '.join(best) or '(none: the game is over)'}", file=out)


def _stats(args: argparse.Namespace, out: TextIO, ruleset: RulesetOf) -> None:
    tb = _tablebase(args, ruleset(args.variant))
    stats = tb.stats(args.material)
    if args.format == "json":
        print(json.dumps(stats, sort_keys=True), file=out)
        return
    for line in _stats_lines(tb.rules, Material.parse(args.material), stats):
        print(line, file=out)


def _stats_lines(rules: Ruleset, material: Material, stats: dict[str, Any]) -> Iterator[str]:
    yield f"{material.name} in {rules.name} (first player: {rules.first_to_move})"
    for side, counts in stats.items():
        longest = counts["longest_win"]
        yield (
            f"  {side} to move: {plural(counts['positions'], 'position')}, {plural(counts['win'], 'win')}, "
            f"{plural(counts['draw'], 'draw')}, {plural(counts['loss'], 'loss', 'losses')}"
            + (f"; longest win {plural(longest, 'ply', 'plies')} ({counts['longest_win_fen']})" if longest else "")
        )
        within = counts.get("within_rules")
        if within:
            yield (
                f"    within the draw rules: {plural(within['win'], 'win')}, {plural(within['draw'], 'draw')}, "
                f"{plural(within['loss'], 'loss', 'losses')}"
            )


def _compare(args: argparse.Namespace, out: TextIO, ruleset: RulesetOf) -> None:
    *names, material_name = args.variants
    if len(names) < 2:
        raise DraughtsError(
            "endgame compare needs two or more variants and a material: compare russian brazilian KKKvK"
        )
    material = Material.parse(material_name)
    bases = [_tablebase(args, ruleset(name)) for name in names]
    for tb in bases:
        tb.build(material)
    width = max(len(tb.rules.name) for tb in bases) + 2
    print(
        f"{material.name}, first player to move".ljust(width + 2)
        + "   positions      wins     draws    losses  longest",
        file=out,
    )
    for tb in bases:
        side = tb.stats(material)[tb.rules.first_to_move.name.lower()]
        counts = "".join(f"{side[key]:>10,}" for key in ("positions", "win", "draw", "loss"))
        print(f"  {tb.rules.name:<{width}}{counts}{side['longest_win'] or 0:>9}", file=out)
    shown = 0
    for positions in differing(bases, material):
        if shown >= args.examples:
            break
        shown += 1
        print("", file=out)
        print(str(positions[0]), file=out)
        for tb, position in zip(bases, positions, strict=True):
            verdict = tb.probe(position)
            plies = "" if verdict.plies is None else f" in {verdict.plies}"
            print(f"  {tb.rules.name}: {position.fen()} -> {verdict.result}{plies}", file=out)
    if not shown and len({(tb.rules.board_size, tb.rules.squares) for tb in bases}) > 1:
        print("(the boards differ: no position to compare square by square)", file=out)


def differing(bases: list[Tablebase], material: Material) -> Iterator[list[Position]]:
    """Positions of ``material`` (first player to move, pieces on the same board squares; turned
    round with the colours swapped where the other ruleset's first player has the other colour)
    whose result differs between the tablebases' rulesets; nothing where the boards differ."""
    first = bases[0]
    rules = [tb.rules for tb in bases]
    if len({(r.board_size, r.squares, r.bottom_left_playable) for r in rules}) > 1:
        return
    indexer = first.table(material).indexer
    turn = int(first.rules.first_to_move)
    for white, black, kings in indexer.placements_of():
        base = Position.from_fen(first.rules, fen_of(first.rules, white, black, kings, turn))
        positions = [base] + [_same_squares(base, other) for other in rules[1:]]
        try:
            results = {tb.probe(position).result for tb, position in zip(bases, positions, strict=True)}
        except DraughtsError:
            continue  # a men's placement another ruleset cannot have
        if len(results) > 1:
            yield positions


def _same_squares(position: Position, rules: Ruleset) -> Position:
    """The same pieces on the same board squares under other rules (their numbering), seen from
    the first player: colours swapped and the board turned where the first players differ."""
    source, target = position.ruleset.geometry, rules.geometry
    pieces: dict[int, Piece] = {}
    for square, piece in position.pieces().items():
        pieces[target.square_at(*source.coords[square])] = piece
    same = Position.from_pieces(rules, pieces, position.turn)
    return same if rules.first_to_move is position.ruleset.first_to_move else same.mirror()

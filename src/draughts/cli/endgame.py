"""``draughts endgame build | probe | stats | compare | verify``: the tablebases on the command line.

:mod:`draughts.cli` registers the subcommand with one call to :func:`add_parser`; everything
else lives here.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

import attrs

from draughts._text import plural
from draughts.cli.executor import dask_client, executor
from draughts.compare.table import Row, Table
from draughts.endgame.cluster import build_on_dask
from draughts.endgame.facts import material_counts
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
    build.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="build independent materials in N processes (default 1: each build holds its tables in memory)",
    )
    build.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="build on a Dask cluster, the materials as one task graph (the distributed extra; excludes --workers)",
    )
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
        "compare",
        help="one material under several rulesets: shares won, drawn, lost, within the rules too, and the difference",
        description="Build (where missing) and compare one material's table under two or more rulesets, the first\n"
        "player to move: positions won, drawn and lost by play alone and within the draw rules, with their\n"
        "shares, a row of the differences from the first ruleset, and positions whose verdict differs.\n"
        "Example: draughts endgame compare russian international KKKvK",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    compare.add_argument("variants", nargs="+", metavar="VARIANT", help="two or more variants (names or rule files)")
    compare.add_argument("material", metavar="MATERIAL", help="the material, first player's side first, e.g. KKKvK")
    compare.add_argument("--examples", type=int, default=3, help="positions with different verdicts to show")
    compare.add_argument("--format", choices=("text", "json"), default="text")
    common(compare)
    compare.set_defaults(run=lambda args, out: _compare(args, out, ruleset))

    verify = actions.add_parser(
        "verify",
        help="check built tables: a random sample of positions against one ply of minimax over their children",
    )
    verify.add_argument("variant", help=variant_help)
    verify.add_argument("materials", nargs="*", metavar="MATERIAL", help="the materials (default: every table built)")
    verify.add_argument(
        "--sample", type=int, default=1000, help="placements per material (each with both sides to move)"
    )
    verify.add_argument("--seed", type=int, default=0, help="seed of the sample")
    verify.add_argument("--min-pieces", type=int, default=0, help="only materials of at least this many pieces")
    verify.add_argument("--format", choices=("text", "json"), default="text")
    common(verify)
    verify.set_defaults(run=lambda args, out: _verify(args, out, ruleset))


def _tablebase(args: argparse.Namespace, rules: Ruleset) -> Tablebase:
    return Tablebase(rules, None if args.tablebases is None else Path(args.tablebases))


def _build(args: argparse.Namespace, out: TextIO, ruleset: RulesetOf) -> None:
    tb = _tablebase(args, ruleset(args.variant))
    if not args.materials and args.pieces is None:
        raise DraughtsError("endgame build needs materials (KKKvK ...) or --pieces N")
    if args.scheduler is not None:
        if args.workers != 1:
            raise DraughtsError("--workers and --scheduler exclude each other: the scheduler's workers do the work")
        with dask_client(args.scheduler) as client:
            built = build_on_dask(tb, client, args.materials or None, pieces=args.pieces)
    else:
        with executor(args.workers) as pool:  # default 1, not one per CPU: each build holds its tables in memory
            built = tb.build(args.materials or None, pieces=args.pieces, executor=pool)
    for material in built:
        print(f"{material.name}: {tb.path(material)} ({tb.path(material).stat().st_size:,} bytes)", file=out)
    if built:
        print(f"{plural(len(built), 'table')} built for {tb.rules.name} in {tb.directory}", file=out)
    else:  # every table asked for was there: say so rather than "0 tables built"
        print(f"already built: every table asked for is in {tb.directory} ({tb.rules.name})", file=out)


def _verify(args: argparse.Namespace, out: TextIO, ruleset: RulesetOf) -> int:
    """Each material's check; exit status 1 if a position disagrees."""
    from draughts.endgame.probe import built_materials
    from draughts.endgame.verify import verify

    tb = _tablebase(args, ruleset(args.variant))
    if args.materials:
        materials = [Material.parse(name) for name in args.materials]
    else:
        materials = sorted(built_materials(tb), key=lambda m: (m.pieces, m.name))
    materials = [m for m in materials if m.pieces >= args.min_pieces]
    if not materials:
        raise DraughtsError(f"no table to verify in {tb.directory} ({tb.rules.name})")
    results = [verify(tb, material, args.sample, args.seed) for material in materials]
    if args.format == "json":
        print(json.dumps([attrs.asdict(result) for result in results], indent=1), file=out)
    else:
        for r in results:
            print(
                f"{r.material}: {r.agree:,} of {plural(r.positions, 'position')} agree with their children "
                f"({r.wins:,} won, {r.draws:,} drawn, {r.losses:,} lost)",
                file=out,
            )
            for line in r.disagree:
                print(f"  disagrees: {line}", file=out)
        total, agree = sum(r.positions for r in results), sum(r.agree for r in results)
        print(f"{plural(len(results), 'material')}: {agree:,} of {total:,} positions agree", file=out)
    return 0 if all(r.agree == r.positions for r in results) else 1


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
    if len(args.variants) < 2:
        raise DraughtsError(
            "endgame compare needs two or more variants and a material: compare russian international KKKvK"
        )
    material = Material.parse(args.material)
    bases = [_tablebase(args, ruleset(name)) for name in args.variants]
    for tb in bases:
        tb.build(material)
    names = [tb.rules.name for tb in bases]
    if len(set(names)) < len(names):  # two spellings of one ruleset, or two files of one name
        names = list(args.variants)
    figures = {name: material_counts(tb, material.name) for name, tb in zip(names, bases, strict=True)}
    examples: list[list[dict[str, Any]]] = []
    diagrams = []
    for positions in differing(bases, material):
        if len(examples) >= args.examples:
            break
        examples.append([_example(tb, position) for tb, position in zip(bases, positions, strict=True)])
        diagrams.append(str(positions[0]))
    if args.format == "json":
        print(json.dumps({"material": material.name, "rulesets": figures, "differing": examples}, indent=2), file=out)
        return
    print(compare_table(material, figures).to_text(), file=out)
    for example, diagram in zip(examples, diagrams, strict=True):
        print("", file=out)
        print(diagram, file=out)
        for line in example:
            plies = "" if line["plies"] is None else f" in {line['plies']}"
            print(f"  {line['ruleset']}: {line['fen']} -> {line['result']}{plies}", file=out)
    if not examples and len({(tb.rules.board_size, tb.rules.squares) for tb in bases}) > 1:
        print("(the boards differ: no position to compare square by square)", file=out)


def _example(tb: Tablebase, position: Position) -> dict[str, Any]:
    verdict = tb.probe(position)
    return {
        "ruleset": tb.rules.name,
        "fen": position.fen(),
        "result": verdict.result,
        "plies": verdict.plies,
        "within_rules": verdict.within_rules,
    }


def _count(count: int, positions: int) -> str:
    return f"{count:,} ({count / positions:.1%})"


def compare_table(material: Material, figures: dict[str, dict[str, Any]]) -> Table:
    """The text table of ``endgame compare``: a column per ruleset, the counts with their shares by
    play alone and within the draw rules, and a row of differences from the first ruleset.

    Counts alone (``132,240`` wins against ``486,444``) hid the answer to "is KKKvK a win?" behind
    different board sizes; shares and the difference in points say it (issue 40 §3).
    """
    names = list(figures)
    rows = [Row("positions", [f"{f['positions']:,}" for f in figures.values()])]
    for key, label in (("win", "won"), ("draw", "drawn"), ("loss", "lost")):
        rows.append(Row(f"{label} by play alone", [_count(f[key], f["positions"]) for f in figures.values()]))
    rows.append(
        Row("longest win", [f"{f['longest_win']} plies" if f["longest_win"] else "-" for f in figures.values()])
    )
    for key, label in (("win", "won"), ("draw", "drawn"), ("loss", "lost")):
        cells = [
            "not known" if f["within_rules"] is None else _count(f["within_rules"][key], f["positions"])
            for f in figures.values()
        ]
        rows.append(Row(f"{label} within the draw rules", cells))
    rows.append(
        Row(
            f"difference from {names[0]}",
            ["-", *(_difference(figures[names[0]], f) for f in list(figures.values())[1:])],
        )
    )
    title = f"{material.name}, the first player's side first, the first player to move"
    notes = (
        "By play alone: the game played to its end, no draw rule. Within the draw rules: as "
        "Board.outcome ends it (move-count and endgame rules), the counts just reset.",
    )
    return Table(names, rows, corner="", title=title, notes=notes)


def _difference(first: dict[str, Any], other: dict[str, Any]) -> str:
    """``won -39.1 points; within the rules -12.4 points``: ``other``'s won shares less ``first``'s."""

    def points(a: int, b: int, an: int, bn: int) -> str:
        return f"{100 * (b / bn - a / an):+.1f} points"

    text = "won " + points(first["win"], other["win"], first["positions"], other["positions"])
    if first["within_rules"] is not None and other["within_rules"] is not None:
        within = points(
            first["within_rules"]["win"], other["within_rules"]["win"], first["positions"], other["positions"]
        )
        text += f"; within the rules {within}"
    return text


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

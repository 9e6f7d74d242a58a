"""Benchmark the engine's search: nodes per second at a fixed depth on new positions every round.

What a user of :class:`draughts.engine.Engine` gets from each build: every round takes
``--positions`` new positions (seeded random games of 10 to 30 plies, a new seed each round) and
each side searches each of them to ``--depth`` with a new ``Engine(seed=0)`` (an empty
transposition table), in a process of its own; the figure is the nodes of all those searches over
their CPU time (``time.process_time``). The sides are ``source`` (this checkout, with the native
core its install built: the per-node search and the evaluation run natively), ``baseline``
(another source tree, an A/B), ``compiled`` (``--compiled-python PYTHON``: the polydraughts
installed in that interpreter's environment, such as the turn-3 mypyc build of commit 8041631)
and, with ``--compare``, py-draughts 1.10.1's ``SimpleEngine(depth_limit=depth)`` on the same
positions. The rounds are interleaved; the table gives the median and the range over the rounds
of each side's nodes per second and of its ratio to the source build's in the same round, then
each polydraughts side's CPU time to the depth and how many times the source build's it is (the
figure for another version, whose search may visit other nodes).

py-draughts' engine counts its nodes its own way and searches differently (its own evaluation,
move ordering and quiescence), so its row is information on throughput, not a comparison of
strength or a goal.

Usage::

    python benchmarks/engine.py --variant russian --depth 7 --rounds 7
    python benchmarks/engine.py --compare                                         # and py-draughts
    python benchmarks/engine.py --depth 9 --compiled-python OLD/bin/python        # vs another install
    python benchmarks/engine.py --quick                                           # CI: runs at all
    python benchmarks/engine.py --instructions --baseline ../old/src --rounds 1   # A/B on a loaded machine

``--instructions`` counts instead of timing: each polydraughts side runs the searches of all the
rounds' positions once under ``valgrind --tool=callgrind``, and once more without searching (the
same imports, tables and positions); the difference over the nodes is the instructions per node.
The count does not change with the machine's load, so two versions compare to a fraction of a
percent where nodes per second on a shared machine move by ten; it counts work, not time (the
cache and branch predictor are not in it), so a time figure is still the one a user gets.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import rounds  # the shared method: sides, processes, interleaved rounds

import draughts

PEER_BOARDS = {"international": "StandardBoard", "russian": "RussianBoard", "brazilian": "BrazilianBoard"}

OURS = r"""
import json, sys, time
import draughts
from draughts.engine import Engine, Limit
job = json.loads(sys.stdin.read())
rules = draughts.get_variant(job["variant"])
positions = [draughts.Position.from_fen(rules, fen) for fen in job["fens"]]
Engine(seed=0).search(draughts.Position.initial(rules), Limit(depth=2))  # tables, untimed
nodes, critical, moves = 0, 0, []
limit = Limit(depth=job["depth"], **({"threads": job["threads"]} if "threads" in job else {}))
began, wall = time.process_time(), time.perf_counter()
for position in positions if job.get("search", True) else ():  # not: the set-up alone (--instructions)
    engine = Engine(seed=0)
    result = engine.search(position, limit)
    nodes += result.nodes
    if "threads" in job:  # the nodes of the longest thread's path (--threads)
        critical += engine._tables[rules].critical_nodes()
    moves.append(str(result.move))
seconds, wall = time.process_time() - began, time.perf_counter() - wall
print(json.dumps({"nodes": nodes, "critical": critical, "seconds": seconds, "wall": wall, "moves": moves,
                  "native": getattr(draughts, "NATIVE", None),
                  "compiled": getattr(draughts, "COMPILED", None), "file": draughts.__file__,
                  "library": "polydraughts", "version": draughts.__version__}))
"""

PEER = r"""
import importlib.metadata, json, logging, sys, time
import draughts
from draughts.engines.simple import SimpleEngine
logging.disable(logging.CRITICAL)
job = json.loads(sys.stdin.read())
board_class = getattr(draughts, job["board"])
boards = [board_class.from_fen(fen) for fen in job["fens"]]
SimpleEngine(depth_limit=2).get_best_move(board_class())  # tables, untimed
nodes = 0
began = time.process_time()
for board in boards:
    engine = SimpleEngine(depth_limit=job["depth"])
    engine.get_best_move(board)
    nodes += engine.inspected_nodes
seconds = time.process_time() - began
print(json.dumps({"nodes": nodes, "seconds": seconds, "library": "py-draughts",
                  "version": importlib.metadata.version("py-draughts")}))
"""


def round_positions(rules: draughts.Ruleset, seed: int, count: int, choice: bool = False) -> list[str]:
    """``count`` distinct positions of a round, from random games of 10 to 30 plies, as numeric FENs
    (with ``choice``, only positions with more than one legal move)."""
    rng = random.Random(seed)
    fens: list[str] = []
    while len(fens) < count:
        position = draughts.Position.initial(rules)
        for _ in range(rng.randint(10, 30)):
            moves = position.legal_moves()
            if not moves:
                break
            position = position.play(rng.choice(moves))
        fen = position.fen(numeric=True)
        if len(position.legal_moves()) > (1 if choice else 0) and fen not in fens:
            fens.append(fen)
    return fens


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="benchmarks/engine.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variant", default="international", help="the ruleset (default international)")
    parser.add_argument("--depth", type=int, default=6, help="search depth in plies (default 6)")
    parser.add_argument("--positions", type=int, default=8, help="new positions per round (default 8)")
    parser.add_argument("--compare", action="store_true", help="also run py-draughts' SimpleEngine (information)")
    parser.add_argument("--quick", action="store_true", help="depth 3, 2 positions, 1 round (CI)")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="instructions per node under valgrind's callgrind, each side once over every round's positions",
    )
    parser.add_argument(
        "--choice",
        action="store_true",
        help="only positions with more than one legal move (a forced root is searched a ply deeper since "
        "issue 38, so its depth means one ply more than in older builds)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=1,
        help="N > 1: this checkout's Limit(threads=N) against one thread, in wall-clock seconds",
    )
    rounds.add_options(parser, rounds=5)
    args = parser.parse_args(argv)
    rounds.check_options(parser, args)
    for name in ("depth", "positions", "threads"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} {getattr(args, name)} must be at least 1")
    if args.quick:
        args.depth, args.positions, args.rounds, args.compare = 3, 2, 1, False
    return args


def print_instructions(
    args: argparse.Namespace, rules: draughts.Ruleset, sides: Sequence[rounds.Side], fens: list[list[str]]
) -> int:
    """The ``--instructions`` table: each side's searches counted by callgrind, less its set-up."""
    job = {"depth": args.depth, "fens": [fen for round_fens in fens for fen in round_fens], "variant": rules.name}
    print(
        f"engine search of {rules.name} to depth {args.depth}: {len(job['fens'])} positions (seed {args.seed}), "
        "each side once under valgrind --tool=callgrind, less a run without the searches; instructions per node"
    )
    counted = {}
    for side in sides:
        found, total = rounds.count_instructions(side, OURS, job)
        _, setup = rounds.count_instructions(side, OURS, {**job, "search": False})
        counted[side.name] = (found, (total - setup) / found["nodes"])
    first = counted[sides[0].name]
    for name, (found, per_node) in counted.items():
        line = f"  {name:<12}{found['nodes']:>10,} nodes {per_node:>12,.0f} instructions/node"
        if name != sides[0].name:
            line += f"   {per_node / first[1]:.4f}x the {sides[0].name}'s"
        print(line)
    if any(found["moves"] != first[0]["moves"] for found, _ in counted.values()):
        print("note: the sides chose different moves (they searched different trees)")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        rules = draughts.get_variant(args.variant)
    except draughts.UnknownVariantError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    peers = ["py-draughts"] if rules.name in PEER_BOARDS else []
    if args.compare and not peers:
        print(f"note: py-draughts has no {rules.name} engine; its row is left out", file=sys.stderr)
    sides = rounds.find_sides(rounds.wanted_sides(args, peers=peers), args)
    by_name = {side.name: side for side in sides}
    fens = [round_positions(rules, args.seed + number, args.positions, args.choice) for number in range(args.rounds)]
    if args.threads > 1:
        return print_threads(args, rules, by_name["source"], fens)

    def run(name: str, number: int) -> dict[str, Any]:
        job = {"depth": args.depth, "fens": fens[number]}
        if by_name[name].polydraughts:
            return rounds.run_worker(by_name[name], OURS, {**job, "variant": rules.name})
        return rounds.run_worker(by_name[name], PEER, {**job, "board": PEER_BOARDS[rules.name]})

    if args.instructions:
        return print_instructions(args, rules, [side for side in sides if side.polydraughts], fens)
    print(
        f"engine search of {rules.name} to depth {args.depth}: {args.positions} new positions per round, "
        f"{args.rounds} interleaved round(s) from seed {args.seed}, a new Engine per position, every side its own "
        "process, CPU time; nodes/s and ratios: median (range) over the rounds"
    )
    results = rounds.interleave(args.rounds, list(by_name), run, progress=args.rounds > 1)
    print(rounds.build_text(sides, results))
    rates = {name: [found["nodes"] / found["seconds"] for found in found_all] for name, found_all in results.items()}
    ours = [side.name for side in sides if side.name in ("source", "baseline")]
    moves = {name: [found["moves"] for found in results[name]] for name in ours}
    if any(found != moves["source"] for found in moves.values()):
        print("error: the polydraughts sides chose different moves on the same positions")
        return 1
    for name, values in rates.items():
        line = f"  {name:<12}{rounds.Spread.of(values).text('', 0):>32} nodes/s"
        if name != "source":
            line += f"   {rounds.ratios(values, rates['source']).text()} the source build"
        if name == "py-draughts":
            line += " (its own node count and search: information)"
        print(line)
    print_times(results, [side.name for side in sides if side.polydraughts], args.positions, args.depth)
    return 0


def print_threads(args: argparse.Namespace, rules: draughts.Ruleset, side: rounds.Side, fens: list[list[str]]) -> int:
    """``--threads N``: this checkout's wall-clock seconds to the depth with N threads and with one,
    interleaved, and the load average the machine had (the threads share its cores with the load);
    then the same in nodes, which no load changes: all the nodes, and the nodes of the longest path
    (each iteration, the most one thread searched: the time when every thread has a core)."""
    names = ["1 thread", f"{args.threads} threads"]

    def run(name: str, number: int) -> dict[str, Any]:
        job = {"depth": args.depth, "fens": fens[number], "variant": rules.name}
        return rounds.run_worker(side, OURS, {**job, "threads": 1 if name == names[0] else args.threads})

    loads = [os.getloadavg()[0]]
    results = rounds.interleave(args.rounds, names, run, progress=args.rounds > 1)
    loads.append(os.getloadavg()[0])
    print(
        f"engine search of {rules.name} to depth {args.depth}: {args.positions} positions per round, "
        f"{args.rounds} interleaved round(s) from seed {args.seed}, wall-clock seconds, median (range) over "
        f"the rounds; load average {min(loads):.1f}-{max(loads):.1f} on {os.cpu_count()} cores"
    )
    walls = {name: [found["wall"] for found in results[name]] for name in names}
    for name in names:
        nodes = sum(found["nodes"] for found in results[name])
        line = f"  {name:<12}{rounds.Spread.of(walls[name]).text(' s', 3):>32}  {nodes:,} nodes"
        if name != names[0]:
            line += f"   {rounds.ratios(walls[names[0]], walls[name]).text()} as fast as one thread"
            same = sum(
                a == b
                for ours, theirs in zip(results[name], results[names[0]], strict=True)
                for a, b in zip(ours["moves"], theirs["moves"], strict=True)
            )
            line += f"; the same move in {same} of {len(fens) * args.positions} positions"
        print(line)
    ones = [found["nodes"] for found in results[names[0]]]
    paths = [found["critical"] for found in results[names[1]]]
    alls = [found["nodes"] for found in results[names[1]]]
    print(
        f"  nodes of the longest path with {args.threads} threads: {rounds.ratios(ones, paths).text()} fewer than "
        f"one thread's (the speed-up with a core each); all their nodes {rounds.ratios(alls, ones).text()} one "
        "thread's"
    )
    return 0


def print_times(results: dict[str, list[dict[str, Any]]], names: Sequence[str], positions: int, depth: int) -> None:
    """Each polydraughts side's CPU seconds to search a round's positions to ``depth``, and how many
    times as long another side took as the source build (per round, then median and range): the
    figure for another version of the engine, whose search (and so node count) may differ."""
    times = {name: [found["seconds"] for found in results[name]] for name in names}
    print(f"time to depth {depth} on a round's {positions} positions (CPU seconds, median (range) over the rounds):")
    for name, values in times.items():
        line = f"  {name:<12}{rounds.Spread.of(values).text(' s', 3):>32}"
        if name != "source":
            nodes = [found["nodes"] for found in results[name]]
            line += f"   {rounds.ratios(values, times['source']).text()} the source build's time"
            line += f" ({sum(nodes):,} nodes in all vs {sum(found['nodes'] for found in results['source']):,})"
            if any(
                found["moves"] != ours["moves"] for found, ours in zip(results[name], results["source"], strict=True)
            ):
                line += "; other moves on some positions (another search)"
        if results[name][0].get("compiled"):
            line += " [mypyc-compiled build]"
        print(line)


if __name__ == "__main__":
    sys.exit(main())

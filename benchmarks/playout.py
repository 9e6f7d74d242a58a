"""Benchmark the per-move API: random playouts through Board and Position, against py-draughts.

Applications (GUIs, bots, servers, replayers, learning agents) call the legal moves and play one
of them once per move; this measures that path, not perft. Each measurement is one new process
that plays ``--games`` distinct seeded random games (up to 150 plies each, or until the side to
move has no legal move) one way:

* ``board``: ``moves = list(board.legal_moves)`` then ``board.push(random.choice(moves))``, the
  python-chess habit (a Board keeps the move stack and the draw counts);
* ``position``: ``moves = position.legal_moves()`` then ``position = position.play(choice)``;
* ``py-draughts``: py-draughts 1.10.1's ``list(board.legal_moves)`` then ``board.push(choice)``.

Both paths run on each polydraughts side (``source``: this checkout, with the native core its
install built; ``baseline``: another tree, for an A/B), py-draughts in its own virtual environment
(``--py-draughts-python``).
Every (side, path) is its own process; the rounds are interleaved and round *r* plays the games
of seed ``--seed + r - 1`` (new games every round: no repetition replays another). The ruleset's
tables are built before the clock starts (one ``legal_moves`` of the start position, untimed, in
every library). Figures are plies per second of CPU time (``time.process_time``), and each
round's ratio to py-draughts' rate in the same round: the median and the range over the rounds.
The goals printed are issue 37's for the native core (the Board path at least 5x py-draughts and
the Position path at least 8x, International and Russian; issue 23's were 1.5x and 2x), and a
line says each goal missed (``docs/performance.rst``).

``--compiled-python`` names the interpreter of another install of polydraughts (its side is
``compiled``): how a fresh ``pip install .`` is measured beside this checkout.

Usage::

    python benchmarks/playout.py                            # every variant, source build, 1 round
    python benchmarks/playout.py --compare --install-peers
    python benchmarks/playout.py --compare --rounds 7 --games 600 --variant international
    python benchmarks/playout.py --quick                    # a few games, to check it runs (CI)

``--baseline`` may also name the ``site-packages`` of another install (an A/B of two native
builds: it runs with this interpreter, so it must be the same Python version).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import rounds  # the shared method: sides, processes, interleaved rounds

MAX_PLIES = 150
GOALS = {"board": 5.0, "position": 8.0}
PEER_VARIANTS = {
    "international": "StandardBoard",
    "russian": "RussianBoard",
    "brazilian": "BrazilianBoard",
    "american": "AmericanBoard",
    "frisian": "FrisianBoard",
    "antidraughts": "AntidraughtsBoard",
    "breakthrough": "BreakthroughBoard",
}

# Run by a polydraughts side: one path, the job's games, CPU time.
OURS = r"""
import json, random, sys, time
import draughts
job = json.loads(sys.stdin.read())
rules = draughts.get_variant(job["variant"])
draughts.Position.initial(rules).legal_moves()  # the ruleset's tables, untimed
rng = random.Random(job["seed"])
plies = 0
began = time.process_time()
if job["path"] == "board":
    for _ in range(job["games"]):
        board = draughts.Board(rules)
        for _ in range(job["max_plies"]):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            plies += 1
else:
    start = draughts.Position.initial(rules)
    for _ in range(job["games"]):
        position = start
        for _ in range(job["max_plies"]):
            moves = position.legal_moves()
            if not moves:
                break
            position = position.play(rng.choice(moves))
            plies += 1
seconds = time.process_time() - began
print(json.dumps({"plies": plies, "seconds": seconds, "native": draughts.NATIVE, "file": draughts.__file__,
                  "library": "polydraughts", "version": draughts.__version__}))
"""

# Run by py-draughts' interpreter: the same loop through its Board.
PEER = r"""
import importlib.metadata, json, random, sys, time
import draughts
job = json.loads(sys.stdin.read())
board_class = getattr(draughts, job["board"])
list(board_class().legal_moves)  # its tables, untimed
rng = random.Random(job["seed"])
plies = 0
began = time.process_time()
for _ in range(job["games"]):
    board = board_class()
    for _ in range(job["max_plies"]):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
        plies += 1
seconds = time.process_time() - began
print(json.dumps({"plies": plies, "seconds": seconds, "library": "py-draughts",
                  "version": importlib.metadata.version("py-draughts")}))
"""


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="benchmarks/playout.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variant", action="append", metavar="NAME", help="a variant (repeatable; default: all named)")
    parser.add_argument("--games", type=int, default=400, help="distinct random games per process (default 400)")
    parser.add_argument("--compare", action="store_true", help="also run py-draughts and print the ratios")
    parser.add_argument("--quick", action="store_true", help="3 games, 1 round, source only (CI)")
    rounds.add_options(parser, rounds=5)
    args = parser.parse_args(argv)
    rounds.check_options(parser, args)
    if args.games < 1:
        parser.error(f"--games {args.games} must be at least 1")
    if args.quick:
        args.games, args.rounds, args.compare = 3, 1, False
    return args


def measure(variant: str, sides: list[rounds.Side], args: argparse.Namespace) -> dict[str, list[float]]:
    """Plies per second of every (side, path) of ``variant``, one per round."""
    by_name = {side.name: side for side in sides}
    jobs = [f"{side.name} {path}" for side in sides if side.polydraughts for path in ("board", "position")]
    if "py-draughts" in by_name and variant in PEER_VARIANTS:
        jobs.append("py-draughts")

    def run(job: str, number: int) -> dict[str, Any]:
        name, _, path = job.partition(" ")
        work = {"games": args.games, "seed": args.seed + number, "max_plies": MAX_PLIES}
        if name == "py-draughts":
            return rounds.run_worker(by_name[name], PEER, {**work, "board": PEER_VARIANTS[variant]})
        return rounds.run_worker(by_name[name], OURS, {**work, "variant": variant, "path": path})

    results = rounds.interleave(args.rounds, jobs, run, progress=args.rounds > 1)
    if not getattr(args, "builds_said", False):
        print(rounds.build_text(sides, results))
        args.builds_said = True
    return {job: [found["plies"] / found["seconds"] for found in found_all] for job, found_all in results.items()}


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    import draughts  # only for the names of the variants

    names = args.variant or (["international", "russian"] if args.compare else list(draughts.VARIANTS))
    sides = rounds.find_sides(rounds.wanted_sides(args, peers=["py-draughts"]), args)
    print(
        f"random playouts: {args.games} distinct games of at most {MAX_PLIES} plies per process, "
        f"{args.rounds} interleaved round(s) from seed {args.seed}, every (side, path) its own process, "
        "CPU time; plies/s and ratio to py-draughts: median (range) over the rounds"
    )
    missed = []
    for name in names:
        rates = measure(name, sides, args)
        peer = rates.get("py-draughts")
        print(f"{name}:")
        for job, values in rates.items():
            line = f"  {job:<20}{rounds.Spread.of(values).text('', 0):>32} plies/s"
            if peer is not None and job != "py-draughts":
                spread = rounds.ratios(values, peer)
                path = job.split(" ")[1]
                line += f"   {spread.text()} py-draughts (goal {GOALS[path]}x)"
                if name in ("international", "russian") and spread.median < GOALS[path]:
                    missed.append(f"{name} {job}: median {spread.median:.2f}x < {GOALS[path]}x")
            side, _, path = job.partition(" ")
            if side in ("compiled", "baseline") and f"source {path}" in rates:
                line += f"   {rounds.ratios(values, rates[f'source {path}']).text()} the source build"
            if side == "compiled" and f"baseline {path}" in rates:  # an A/B of two compiled builds
                line += f"   {rounds.ratios(values, rates[f'baseline {path}']).text()} the baseline"
            print(line, flush=True)
    for text in missed:
        print(f"goal missed: {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

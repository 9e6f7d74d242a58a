"""Benchmark what a Board's draw counters cost: push/pop loops and the draw-rule queries.

A board keeps, besides its positions, the draw rules' counts (move-count and endgame rules) and
what the repetition rule compares. Each measurement is one new process that plays ``--games``
distinct seeded random games (up to 150 plies each) and times three loops, CPU time each:

* ``game``: the application's loop, ``board.outcome()`` then ``board.push(choice)`` every ply, and
  every move popped again at the end (``outcome`` asks every draw rule, repetition included);
* ``pushpop``: at every ply of those games, each legal move pushed and popped again (the
  search habit: the positions' moves are listed once, so push/pop itself is what is timed);
* ``draws``: at every ply, ``board.is_repetition()`` and ``board.can_claim_draw()`` (the
  queries alone).

Figures are operations per second (plies for ``game``, push+pop pairs for ``pushpop``, ply
queries for ``draws``): median and range over interleaved rounds (new games every round). With
``--baseline SRC`` another source tree (its ``src`` folder, with its ``draughts/_native*.so``) runs
beside this checkout's, each in its own process, for an A/B of two versions.

With ``--instructions`` each side instead runs a fixed workload under valgrind's callgrind
(``PYTHONHASHSEED=0``): the same seeded games listing their moves, then the same plus each loop
repeated 5 times per ply; the difference over the operations is instructions per push+pop and per
ply's draw queries, the same from run to run whatever the machine's load.

Usage::

    python benchmarks/board_pushpop.py --variant international --rounds 5 --baseline /tmp/base/src
    python benchmarks/board_pushpop.py --variant russian --instructions --baseline /tmp/base/src
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent / "src"
LOOPS = ("game", "pushpop", "draws")

WORKER = r"""
import json, random, sys, time
import draughts
job = json.loads(sys.stdin.read())
rules = draughts.get_variant(job["variant"])
draughts.Board(rules).outcome()  # the ruleset's tables, untimed
rng = random.Random(job["seed"])
count = {"game": 0, "pushpop": 0, "draws": 0}
clock = {"game": 0.0, "pushpop": 0.0, "draws": 0.0}
lines = []
began = time.process_time()
for _ in range(job["games"]):
    board = draughts.Board(rules)
    for _ in range(job["max_plies"]):
        if board.outcome() is not None:
            break
        board.push(rng.choice(list(board.legal_moves)))
        count["game"] += 1
    lines.append(board.move_stack)
    while board.move_stack:
        board.pop()
clock["game"] = time.process_time() - began
tick = time.process_time
for line in lines:
    board = draughts.Board(rules)
    for played in line:
        moves = list(board.legal_moves)  # listed before the clock starts
        began = tick()
        for _ in range(job["repeat"]):
            for move in moves:
                board.push(move)
                board.pop()
        clock["pushpop"] += tick() - began
        count["pushpop"] += job["repeat"] * len(moves)
        board.push(played)
        began = tick()
        for _ in range(job["repeat"]):
            board.is_repetition()
            board.can_claim_draw()
        clock["draws"] += tick() - began
        count["draws"] += job["repeat"]
print(json.dumps({loop: count[loop] / clock[loop] for loop in count}))
"""


# The --instructions workload: argv mode (base, pushpop, draws), variant, games, plies, repeat.
COUNTED = r"""
import random, sys
import draughts
mode, variant, games, plies, repeat = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6])
rules = draughts.get_variant(variant)
rng = random.Random(11)
ops = 0
for _ in range(games):
    board = draughts.Board(rules)
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        for _ in range(repeat if mode != "base" else 0):
            if mode == "pushpop":
                for move in moves:
                    board.push(move)
                    board.pop()
                    ops += 1
            else:
                board.outcome()
                board.is_repetition()
                board.can_claim_draw()
                ops += 1
        board.push(rng.choice(moves))
print(ops)
"""


def instructions(source: Path, mode: str, variant: str, games: int) -> tuple[int, int]:
    """``(instructions, operations)`` of one workload under callgrind."""
    env = {**os.environ, "PYTHONPATH": str(source), "PYTHONHASHSEED": "0"}
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", COUNTED]
    done = subprocess.run(
        [*command, mode, variant, str(games), "100", "5"], capture_output=True, text=True, env=env, check=True
    )
    collected = [line for line in done.stderr.splitlines() if "Collected :" in line]
    return int(collected[-1].split(":")[-1]), int(done.stdout)


def count_instructions(sides: dict[str, Path], variant: str, games: int) -> None:
    print(f"{variant}: {games} games of up to 100 plies, each loop 5 times a ply, instructions per operation")
    for mode in ("pushpop", "draws"):
        line = f"  {mode:<8}"
        for side, source in sides.items():
            base, _ = instructions(source, "base", variant, games)
            total, ops = instructions(source, mode, variant, games)
            line += f"  {side} {(total - base) / ops:>9,.0f}"
        print(line, flush=True)


def run(source: Path, variant: str, games: int, seed: int) -> dict[str, float]:
    """One measurement in a process of its own, with ``source`` first on the path."""
    env = {**os.environ, "PYTHONPATH": str(source)}
    job = json.dumps({"variant": variant, "games": games, "seed": seed, "max_plies": 150, "repeat": 5})
    done = subprocess.run(
        [sys.executable, "-c", WORKER], input=job, capture_output=True, text=True, env=env, check=True
    )
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", action="append", metavar="NAME", help="a variant (repeatable)")
    parser.add_argument("--games", type=int, default=40, help="distinct random games per process (default 40)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", type=Path, help="another source tree's src folder, for an A/B")
    parser.add_argument("--instructions", action="store_true", help="count instructions under callgrind")
    args = parser.parse_args(argv)
    sides = {"this": SOURCE} | ({"baseline": args.baseline} if args.baseline else {})
    for variant in args.variant or ["international", "russian", "frisian"]:
        if args.instructions:
            count_instructions(sides, variant, min(args.games, 4))
            continue
        rates: dict[str, dict[str, list[float]]] = {side: {loop: [] for loop in LOOPS} for side in sides}
        for number in range(args.rounds):
            order = list(sides) if number % 2 == 0 else list(reversed(sides))
            for side in order:
                for loop, rate in run(sides[side], variant, args.games, args.seed + number).items():
                    rates[side][loop].append(rate)
        print(f"{variant}: {args.games} games x {args.rounds} rounds, ops/s of CPU time, median (range)")
        for loop in LOOPS:
            line = f"  {loop:<8}"
            for side in sides:
                values = rates[side][loop]
                line += f"  {side} {statistics.median(values):>10,.0f} ({min(values):,.0f}-{max(values):,.0f})"
            if args.baseline:
                ratios = [a / b for a, b in zip(rates["this"][loop], rates["baseline"][loop], strict=True)]
                line += f"  ratio {statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f})"
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

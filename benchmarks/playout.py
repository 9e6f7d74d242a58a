"""Benchmark the per-move API: random playouts through Board and Position, against py-draughts.

Applications (GUIs, bots, servers, replayers, learning agents) call the legal moves and play one
of them once per move; this measures that path, not perft. Each run plays the same seeded random
games (up to 150 plies each, or until the side to move has no legal move) three ways:

* ``board``: ``moves = list(board.legal_moves)`` then ``board.push(random.choice(moves))``, the
  python-chess habit (a Board keeps the move stack and the draw counts);
* ``position``: ``moves = position.legal_moves()`` then ``position = position.play(choice)``;
* ``py-draughts`` (with ``--compare``): py-draughts 1.10.1's ``list(board.legal_moves)`` then
  ``board.push(choice)``, run in a virtual environment of its own (built on first use, as
  ``benchmarks/perft.py --compare`` does) because it also imports as ``draughts``.

Figures are plies per second of CPU time (``time.process_time``), the best of ``--repeat`` runs.
The goals (the speed issue): the Board path at least 1.5x py-draughts and the Position path at
least 2x, in International and Russian.

Usage::

    python benchmarks/playout.py                       # every variant, our two paths
    python benchmarks/playout.py --compare --repeat 3  # and the ratios against py-draughts
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import draughts

sys.path.insert(0, str(Path(__file__).resolve().parent))
from perft import peer_python  # the peers' virtual environments, built the same way

MAX_PLIES = 150
GOALS = {"board": 1.5, "position": 2.0}
PEER_VARIANTS = {
    "international": "StandardBoard",
    "russian": "RussianBoard",
    "brazilian": "BrazilianBoard",
    "american": "AmericanBoard",
    "frisian": "FrisianBoard",
    "antidraughts": "AntidraughtsBoard",
    "breakthrough": "BreakthroughBoard",
}

PEER_SCRIPT = r"""
import json, random, sys, time
import draughts
board_class = getattr(draughts, sys.argv[1])
games, seed, repeat, max_plies = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
best, plies = float("inf"), 0
for _ in range(repeat):
    rng = random.Random(seed)
    plies = 0
    began = time.process_time()
    for _ in range(games):
        board = board_class()
        for _ in range(max_plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            plies += 1
    best = min(best, time.process_time() - began)
print(json.dumps({"plies": plies, "seconds": best}))
"""


def board_playouts(rules: draughts.Ruleset, games: int, seed: int) -> int:
    rng = random.Random(seed)
    plies = 0
    for _ in range(games):
        board = draughts.Board(rules)
        for _ in range(MAX_PLIES):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            plies += 1
    return plies


def position_playouts(rules: draughts.Ruleset, games: int, seed: int) -> int:
    rng = random.Random(seed)
    plies = 0
    for _ in range(games):
        position = draughts.Position.initial(rules)
        for _ in range(MAX_PLIES):
            moves = position.legal_moves()
            if not moves:
                break
            position = position.play(rng.choice(moves))
            plies += 1
    return plies


PATHS: dict[str, Callable[[draughts.Ruleset, int, int], int]] = {
    "board": board_playouts,
    "position": position_playouts,
}


def timed(
    path: Callable[[draughts.Ruleset, int, int], int], rules: draughts.Ruleset, games: int, seed: int, repeat: int
) -> tuple[int, float]:
    """``(plies, best CPU seconds)`` of ``repeat`` runs."""
    best, plies = float("inf"), 0
    for _ in range(repeat):
        began = time.process_time()
        plies = path(rules, games, seed)
        best = min(best, time.process_time() - began)
    return plies, best


def peer(python: Path, variant: str, games: int, seed: int, repeat: int) -> tuple[int, float]:
    with tempfile.TemporaryDirectory() as cwd:
        script = Path(cwd) / "playout_peer.py"
        script.write_text(PEER_SCRIPT, encoding="utf-8")
        done = subprocess.run(
            [str(python), str(script), PEER_VARIANTS[variant], str(games), str(seed), str(repeat), str(MAX_PLIES)],
            capture_output=True,
            text=True,
            cwd=cwd,
            check=True,
        )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return int(result["plies"]), float(result["seconds"])


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="benchmarks/playout.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variant", action="append", metavar="NAME", help="a variant (repeatable; default: all named)")
    parser.add_argument("--games", type=int, default=60, help="random games per run (default 60)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1, help="runs per figure, the best kept")
    parser.add_argument("--compare", action="store_true", help="also time py-draughts 1.10.1 and print the ratios")
    parser.add_argument("--venv-dir", type=Path, default=Path.home() / ".cache" / "polydraughts-bench")
    parser.add_argument("--quick", action="store_true", help="a few games, to check the script works (CI)")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    games = 3 if args.quick else args.games
    names = args.variant or (["international", "russian"] if args.compare else list(draughts.VARIANTS))
    python = peer_python(args.venv_dir, "py-draughts") if args.compare else None
    header = f"{'variant':<14}{'plies':>8}{'board/s':>11}{'position/s':>12}"
    if python is not None:
        header += f"{'py-draughts/s':>15}{'board x':>9}{'position x':>12}"
    print(
        f"random playouts: {games} games of at most {MAX_PLIES} plies, seed {args.seed}, CPU time, "
        f"best of {args.repeat}; generator: {'compiled (mypyc)' if draughts.COMPILED else 'Python source'}"
    )
    print(header)
    print("-" * len(header))
    missed = []
    for name in names:
        rules = draughts.get_variant(name)
        plies, board_seconds = timed(board_playouts, rules, games, args.seed, args.repeat)
        _, position_seconds = timed(position_playouts, rules, games, args.seed, args.repeat)
        board_rate, position_rate = plies / board_seconds, plies / position_seconds
        line = f"{name:<14}{plies:>8,}{board_rate:>11,.0f}{position_rate:>12,.0f}"
        if python is not None and name in PEER_VARIANTS:
            their_plies, their_seconds = peer(python, name, games, args.seed, args.repeat)
            their_rate = their_plies / their_seconds
            ratios = {"board": board_rate / their_rate, "position": position_rate / their_rate}
            line += f"{their_rate:>15,.0f}{ratios['board']:>8.2f}x{ratios['position']:>11.2f}x"
            if name in ("international", "russian"):
                missed += [
                    f"{name} {path} {ratio:.2f}x < {GOALS[path]}x"
                    for path, ratio in ratios.items()
                    if ratio < GOALS[path]
                ]
        print(line, flush=True)
    for text in missed:
        print(f"goal missed: {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

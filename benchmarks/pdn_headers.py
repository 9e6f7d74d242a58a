"""Benchmark ``pdn.read_headers`` against full reading: the test corpus concatenated N times.

Every game file of ``tests/data/games`` is decoded (as the reader decodes it) and written once as
UTF-8 into one temporary file, ``--copies`` times over (issue 27 asks for 100: 38,200 games). Then
each way of reading runs in a process of its own, which reports its CPU time, wall time, the number
of games and its peak resident memory (``ru_maxrss``); a process that only imports polydraughts
gives the baseline that the peaks include:

* ``headers``: ``pdn.read_headers`` (a HeadersBuilder through ``read_with``: tags only, no move replayed);
* ``skip``: ``read_with`` with a SkipVisitor (counts games);
* ``games``: ``pdn.read_games(errors="skip")``, every main line replayed (what listing the tags cost before);
* ``trees``: ``read_with`` with a GameBuilder (main line and every variation replayed into a tree).

Usage::

    python benchmarks/pdn_headers.py                 # 100 copies, every mode
    python benchmarks/pdn_headers.py --copies 10 --modes headers games
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "games"
MODES = ("baseline", "headers", "skip", "games", "trees")


def build(path: Path, copies: int) -> int:
    """Write the corpus ``copies`` times into ``path`` as UTF-8; return its size in bytes."""
    from draughts.pdn.decode import source_lines

    text = "".join("\n".join(source_lines(file, None)) + "\n\n" for file in sorted(CORPUS.glob("*/*.pdn")))
    with open(path, "w", encoding="utf-8") as out:
        for _ in range(copies):
            out.write(text)
    return path.stat().st_size


def run(mode: str, path: str) -> dict[str, float | int | str]:
    """One mode in this process: what it read, its times and its peak memory."""
    from draughts import pdn
    from draughts.pdn.visitor import GameBuilder, SkipVisitor, read_with

    wall, cpu = time.perf_counter(), time.process_time()
    count = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if mode == "headers":
            count = sum(1 for _ in pdn.read_headers(path))
        elif mode == "skip":
            count = sum(1 for _ in read_with(path, SkipVisitor()))
        elif mode == "games":
            count = sum(1 for _ in pdn.read_games(path, errors="skip"))
        elif mode == "trees":
            count = sum(1 for _ in read_with(path, GameBuilder(), errors="skip"))
    return {
        "mode": mode,
        "games": count,
        "cpu_s": round(time.process_time() - cpu, 2),
        "wall_s": round(time.perf_counter() - wall, 2),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=100)
    parser.add_argument("--modes", nargs="+", choices=MODES[1:], default=list(MODES[1:]))
    parser.add_argument("--child", nargs=2, metavar=("MODE", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(run(*args.child)))
        return 0
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "corpus.pdn"
        size = build(path, args.copies)
        print(f"{args.copies} copies of {CORPUS}: {size / 1e6:.1f} MB")
        for mode in ["baseline", *args.modes]:
            answer = subprocess.run(
                [sys.executable, __file__, "--child", mode, str(path)], capture_output=True, text=True, check=True
            )
            print(answer.stdout.strip(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

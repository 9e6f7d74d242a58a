"""The game database at scale: import rate per worker, size per game, explorer and search latency.

Two parts, each optional:

* **Self-play scale** (``--games N``, default 100,000): N seeded random games of ``--variant``
  (default Russian; random players are cheap, and the shared corpus has far fewer real games) are
  written as PDN files of ``--per-file`` games, in worker processes, then imported with
  ``Database.import_files`` over a process pool of ``--workers``. It prints the import's wall time,
  games per second per worker (the workers' CPU seconds reading and replaying the files: the part
  that scales with workers) and of the writing process, the file's size per game, then the
  latency of ``explore`` and ``find`` (``limit=100``) on ``--queries`` positions: the start
  position, then positions drawn from stored games at random plies (seeded), each query timed on
  its own, median, 95th percentile and maximum. The goal is a p95 under 50 ms at 100,000 games.
* **Real corpus** (``--corpus DIR``): every PDN file under DIR imported into a database of its own;
  games per variant, skipped games with their reasons, duplicates; the explorer's counts from each
  start position checked against the first moves counted by reading the files with the PDN reader
  alone; and one position from the middle of each variant's first game found in that game.

    python benchmarks/database.py                                    # 100,000 Russian self-play games
    python benchmarks/database.py --games 0 --corpus ../shared/games # the real corpus only
    python benchmarks/database.py --quick                            # CI: 300 games, checks it runs
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from draughts import Board, Position, pdn
from draughts.db import Database
from draughts.notation import move_text


def write_chunk(path: str, variant: str, first: int, count: int, seed: int, max_plies: int) -> int:
    """Write ``count`` seeded random games (numbered from ``first``) to ``path``; returns their plies."""
    plies = 0
    games = []
    for number in range(first, first + count):
        rng = random.Random(f"{seed}:{number}")
        board = Board(variant)
        while board.outcome() is None and len(board) < max_plies:
            moves = board.legal_moves()
            board.push(moves[rng.randrange(len(moves))])
        plies += len(board)
        result = board.result() if board.outcome() is not None else "*"
        headers = {"Event": "self-play", "Round": str(number), "White": f"random-{seed}", "Black": f"random-{seed}"}
        games.append(pdn.Game.from_board(board, headers, result))
    pdn.write_games(games, path)
    return plies


def generate(folder: Path, args: argparse.Namespace) -> int:
    chunks = [(i, min(args.per_file, args.games - i)) for i in range(0, args.games, args.per_file)]
    with ProcessPoolExecutor(args.workers) as pool:
        futures = [
            pool.submit(write_chunk, str(folder / f"games-{i:07d}.pdn"), args.variant, i, n, args.seed, args.max_plies)
            for i, n in chunks
        ]
        return sum(future.result() for future in futures)


def quantiles(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"median {statistics.median(ordered):.2f} ms, p95 {p95:.2f} ms, max {ordered[-1]:.2f} ms"


def sample_positions(db: Database, variant: str, count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    total = db.count(variant)
    row = db.connection.execute("SELECT MIN(id) FROM games").fetchone()
    first = int(row[0] or 1)
    positions = [Position.initial(variant)]
    while len(positions) < count and total:
        game = db.game(first + rng.randrange(total))
        nodes = [game, *game.mainline()]
        positions.append(nodes[rng.randrange(len(nodes))].position)
    return positions


def latency(db: Database, positions: list[Position]) -> tuple[list[float], list[float]]:
    explore, find = [], []
    for position in positions:
        start = time.perf_counter()
        db.explore(position)
        middle = time.perf_counter()
        db.find(position, limit=100)
        end = time.perf_counter()
        explore.append(1000 * (middle - start))
        find.append(1000 * (end - middle))
    return explore, find


def self_play(args: argparse.Namespace, folder: Path) -> None:
    games_dir = folder / "games"
    games_dir.mkdir()
    started = time.perf_counter()
    plies = generate(games_dir, args)
    print(f"generated {args.games:,} {args.variant} games ({plies:,} plies) in {time.perf_counter() - started:.0f} s")
    path = folder / "selfplay.db"
    db = Database(path)
    started = time.process_time()
    with ProcessPoolExecutor(args.workers) as pool:
        report = db.import_files(games_dir, executor=pool)
    writer = time.process_time() - started
    reading = sum(item.seconds for item in report.files)
    print(
        f"import: {report.games:,} games, {report.plies:,} plies in {report.seconds:.0f} s wall "
        f"on {args.workers} workers; "
        f"{report.games / reading:.0f} games/s per worker (CPU {reading:.0f} s), "
        f"the writer {report.games / writer:.0f} games/s (CPU {writer:.0f} s)"
    )
    db.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    size = os.path.getsize(path)
    print(f"size: {size / 2**20:.0f} MiB, {size / report.games:.0f} bytes per game, {size / report.plies:.1f} per ply")
    positions = sample_positions(db, args.variant, args.queries, args.seed)
    explore, find = latency(db, positions)
    print(f"explore over {len(positions)} positions: {quantiles(explore)} (the start: {explore[0]:.2f} ms)")
    print(f"find    over {len(positions)} positions: {quantiles(find)} (the start: {find[0]:.2f} ms)")
    db.close()


def first_moves(files: list[Path], duplicates: set[tuple[str, int]]) -> dict[str, Counter[str]]:
    """First moves of the games from the start, read with the PDN reader alone, less the games the
    import recognised as duplicates (by file and number: the database stores each game once)."""
    counts: dict[str, Counter[str]] = {}
    for path in files:
        for game in pdn.read_games(str(path), errors="skip"):
            if (os.path.abspath(path), game.index) in duplicates:
                continue
            moves = game.mainline_moves()
            start = Position.initial(game.ruleset)
            if moves and game.position == start:
                counts.setdefault(game.ruleset.name, Counter())[move_text(start, moves[0])] += 1
    return counts


def corpus(args: argparse.Namespace, folder: Path) -> None:
    import warnings

    db = Database(folder / "corpus.db")
    with ProcessPoolExecutor(args.workers) as pool:
        report = db.import_files(args.corpus, executor=pool)
    reading = sum(item.seconds for item in report.files)
    print(
        f"corpus: {report.games:,} games ({report.plies:,} plies), {report.skipped} skipped, "
        f"{report.duplicates} duplicates, {report.games / reading:.0f} games/s per worker"
    )
    print("games per variant: " + ", ".join(f"{name} {count}" for name, count in db.variants().items()))
    duplicates = set()
    for path, number, line, reason in db.skipped():
        print(f"  skipped {Path(path or '?').name} game {number} (line {line}): {reason[:160]}")
        if reason.startswith("duplicate of game"):
            duplicates.add((path or "", number))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        files = sorted(p for p in Path(args.corpus).rglob("*.pdn"))
        direct = first_moves(files, duplicates)
    for name, counts in sorted(direct.items()):
        explored = {move.text: move.games for move in db.explore(name).moves}
        verdict = "equal" if explored == dict(counts) else f"differ: files {dict(counts)} database {explored}"
        total = sum(counts.values())
        print(f"  {name}: first moves from the files ({total} games) and the explorer's counts {verdict}")
        game_id, game = next((i, g) for i, g in db.games_of(name) if len(g.mainline_moves()) > 2)
        nodes = list(game.mainline())
        node = nodes[len(nodes) // 2]
        hits = [hit for hit in db.find(node.position, limit=None).games if hit.id == game_id]
        print(f"  {name}: ply {len(nodes) // 2 + 1} of game {game_id} found in it: {bool(hits)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000, help="self-play games (0: none)")
    parser.add_argument("--variant", default="russian")
    parser.add_argument("--per-file", type=int, default=1000)
    parser.add_argument("--max-plies", type=int, default=200, help="a self-play game stops here, result *")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--corpus", help="a directory of real PDN files to import and check")
    parser.add_argument("--dir", help="where the files go (default: a temporary directory)")
    parser.add_argument("--quick", action="store_true", help="300 games, 50 queries: checks it runs")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.per_file, args.queries = 300, 100, 50
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs", file=sys.stderr)
        if args.games:
            self_play(args, Path(folder))
        if args.corpus:
            corpus(args, Path(folder))
    return 0


if __name__ == "__main__":
    sys.exit(main())

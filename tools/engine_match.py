"""Play polydraughts' engine against py-draughts' engines, each in its own process, and print a score table.

Each side is a separate process speaking a small line protocol on its standard input and output
(see ``PLAYER`` below); the referee is polydraughts' :class:`~draughts.Board`: it checks every
move of both sides against its own legal moves, and ends a game by the variant's rules (no move
left, repetition, move-count and endgame draws) or, after ``--max-plies`` plies, adjudicates a
draw. ``--games`` games per variant (default 20): ``games / 2`` openings of ``--opening-plies``
random legal plies (seeded: candidate ``i`` uses ``random.Random(seed + i)``), each played twice
with colours swapped. Both sides get the same time per move (``--time``).

Openings (``--openings``): ``balanced`` (the default) keeps a random candidate only where its
position is new (not reached by an opening kept before: four random plies often repeat), the
material is equal (the same number of men and of kings on each side) and **every polydraughts
player, as judge**, searching it to ``--judge-depth`` plies (default 8) with its ``strong`` weights
and a new engine, scores it within ``--judge-margin`` hundredths of a man (default 30) of level, for
the side to move; candidates are tried in seed order until ``games / 2`` are kept, and the kept
seeds and the judges' scores are printed before the first game. Both players judge, so that
neither side's evaluation alone decides which openings are played (against py-draughts, only the
polydraughts player judges). The rule is fixed before any game is played and reads nothing of the
games, so a filtered match measures the engines from openings neither side has already won or
lost; four random plies decide many Russian games (13 of 48 unfiltered openings were won by the
same colour both times). ``random`` plays every candidate, as before.

Players (``--first`` and ``--second``):

* ``polydraughts``: the engine of the polydraughts this interpreter imports (its directory is put
  on the player process's ``PYTHONPATH``, so that ``PYTHONPATH=src`` plays the checkout's engine
  and not an installed one), with the ``strong`` level's weights and margin and
  ``Limit(time=...)``; ``polydraughts@SRC`` imports it from the source directory ``SRC`` instead
  (e.g. an older checkout, for before/after matches); ``polydraughts:PYTHON`` is the polydraughts
  installed in the environment of the interpreter ``PYTHON`` (e.g. the turn-3 mypyc-compiled build,
  commit 8041631, installed with ``HATCH_BUILD_HOOK_ENABLE_MYPYC=1 pip install .`` in a venv of its own);
* ``turbo`` and ``simple``: py-draughts 1.10.1's ``TurboEngine`` (International only, its
  strongest) and ``SimpleEngine`` (every variant). py-draughts also imports as ``draughts``, so
  it lives in a virtual environment of its own (under ``--venv-dir``, made and filled with pip on
  first use, as ``benchmarks/perft.py`` does) and never in the one polydraughts runs in.

Clocks: py-draughts' engines read the wall clock. With ``--clock cpu`` (the default) each player
process replaces the clock its engine reads with its own CPU time (``time.process_time``), so
that on a busy machine both sides still get the same thinking per move; ``--clock wall`` leaves
the clocks alone. Each move's wall and CPU seconds are measured in the player process around the
search, and reported with the nodes per second and the average depth of completed iterations
(both over the moves where the engine searched, i.e. had more than one legal move).

Usage::

    python tools/engine_match.py --variants international --first polydraughts --second turbo
    python tools/engine_match.py --variants russian --second simple --games 20 --time 0.5
    python tools/engine_match.py --first polydraughts@/tmp/old/src --second polydraughts --games 10
    python tools/engine_match.py --second polydraughts:/work/venv-old/bin/python --time 0.1 --games 24
    python tools/engine_match.py --variants russian --openings random --games 96   # unfiltered
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
import venv
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

import draughts
from draughts.board import Board
from draughts.color import Color
from draughts.rules.names import get_variant

PY_DRAUGHTS = "py-draughts==1.10.1"
PY_DRAUGHTS_ENGINES = ("turbo", "simple")

# The player: run by either library's interpreter (each imports as ``draughts``). Commands, one a
# line, each answered by one line:
#   new VARIANT ENGINE SECONDS CLOCK SEED FEN   -> ok NAME        (a new game from FEN, numeric)
#   push MOVE                                  -> ok             (the opponent's move)
#   go                                         -> move MOVE NODES DEPTH WALL CPU
#   speed VARIANT SECONDS CLOCK FEN            -> speed NODES DEPTH CPU (polydraughts only: a fresh
#                                                 engine searches FEN, for --speed)
#   judge VARIANT DEPTH FEN                    -> judge SCORE (polydraughts only: a fresh engine with
#                                                 the strong weights searches FEN to DEPTH; SCORE in
#                                                 hundredths of a man for the side to move, +-1000000
#                                                 for a win or loss; for --openings balanced)
#   quit
# A MOVE is ``start:end:c1.c2...`` in square numbers (1 = square 1), the captured squares sorted.
PLAYER = r'''
import sys, time, types

def shim(module, names):
    """Let ``module`` read CPU time where it reads the wall clock."""
    fake = types.SimpleNamespace(**{n: getattr(time, n) for n in dir(time) if not n.startswith("_")})
    for name in names:
        setattr(fake, name, time.process_time)
    module.time = fake

def token(start, end, captured):
    return f"{start}:{end}:" + ".".join(str(c) for c in sorted(captured))

class Polydraughts:
    def __init__(self, variant, engine, seconds, clock, seed, fen):
        import draughts
        import draughts.engine as module
        if clock == "cpu":  # the module whose clock the root search reads (draughts.engine.root since the package)
            try:
                import draughts.engine.root as clocked
            except ImportError:
                clocked = module
            shim(clocked, ("perf_counter", "monotonic", "time"))
        level = module.LEVELS["strong"]
        self.limit = module.Limit(time=seconds)
        self.engine = module.Engine(seed=seed, weights=level.weights, margin=level.margin)
        self.board = draughts.Board(variant, fen)
        compiled = " compiled" if getattr(draughts, "COMPILED", 0) else ""
        build = " native" if getattr(draughts, "NATIVE", None) else compiled
        self.name = "polydraughts " + getattr(draughts, "__version__", "?") + build

    def find(self, text):
        for move in self.board.legal_moves:
            if token(move.start, move.end, move.captured) == text:
                return move
        raise ValueError(f"no legal move {text} in {self.board.fen()}")

    def push(self, text):
        self.board.push(self.find(text))

    def go(self):
        legal = list(self.board.legal_moves)
        result = self.engine.search(self.board, self.limit)
        move = result.move
        self.board.push(move)
        searched = len(legal) > 1
        return token(move.start, move.end, move.captured), result.nodes, result.depth, searched

class PyDraughts:
    def __init__(self, variant, engine, seconds, clock, seed, fen):
        import random
        import draughts
        from loguru import logger
        boards = {"international": draughts.StandardBoard, "russian": draughts.RussianBoard,
                  "brazilian": draughts.BrazilianBoard, "american": draughts.AmericanBoard}
        self.board = boards[variant].from_fen(fen)
        random.seed(seed)
        self.depth = 0
        if engine == "turbo":
            import draughts.engines.turbo as module
            if clock == "cpu":
                shim(module, ("perf_counter", "monotonic", "time"))
            self.engine = draughts.TurboEngine(depth_limit=None, time_limit=seconds)
        else:
            import draughts.engines.simple as module
            if clock == "cpu":
                shim(module, ("perf_counter", "monotonic", "time"))
            self.engine = draughts.SimpleEngine(depth_limit=64, time_limit=seconds)
            # SimpleEngine logs each iteration it ends; one that ran out of time is not complete.
            def sink(message):
                if message.record["message"].startswith("Depth ") and not self.engine.stop_search:
                    self.depth = int(message.record["message"].split()[1].rstrip(":"))
            logger.add(sink, level="DEBUG", filter=lambda record: record["name"].startswith("draughts.engines"))
        self.name = f"py-draughts {draughts.__version__} {type(self.engine).__name__}"

    def find(self, text):
        for move in self.board.legal_moves:
            if token(move.square_list[0] + 1, move.square_list[-1] + 1, [c + 1 for c in move.captured_list]) == text:
                return move
        raise ValueError(f"no legal move {text} in {self.board.fen}")

    def push(self, text):
        self.board.push(self.find(text))

    def go(self):
        legal = list(self.board.legal_moves)
        self.depth = 0
        move = self.engine.get_best_move(self.board)
        depth = getattr(self.engine, "completed_depth", self.depth)
        text = token(move.square_list[0] + 1, move.square_list[-1] + 1, [c + 1 for c in move.captured_list])
        self.board.push(self.find(text))  # the board's own copy of the move
        return text, self.engine.nodes, depth, len(legal) > 1

kind = sys.argv[1]
player = None
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    try:
        if words[0] == "new":
            variant, engine, seconds, clock, seed = words[1], words[2], float(words[3]), words[4], int(words[5])
            fen = " ".join(words[6:])
            make = Polydraughts if kind == "polydraughts" else PyDraughts
            player = make(variant, engine, seconds, clock, seed, fen)
            print("ok", player.name, flush=True)
        elif words[0] == "push":
            player.push(words[1])
            print("ok", flush=True)
        elif words[0] == "go":
            wall, cpu = time.perf_counter(), time.process_time()
            text, nodes, depth, searched = player.go()
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            print("move", text, nodes, depth, int(searched), f"{wall:.4f}", f"{cpu:.4f}", flush=True)
        elif words[0] == "speed":  # a fresh engine on one position: nodes and CPU seconds
            variant, seconds, clock = words[1], float(words[2]), words[3]
            fen = " ".join(words[4:])
            speed = Polydraughts(variant, "strong", seconds, clock, 0, fen)
            cpu = time.process_time()
            result = speed.engine.search(speed.board.position, speed.limit)
            print("speed", result.nodes, result.depth, f"{time.process_time() - cpu:.4f}", flush=True)
        elif words[0] == "judge":  # a fixed-depth search of a fresh strong engine: the opening filter
            variant, depth = words[1], int(words[2])
            import draughts
            import draughts.engine as module
            level = module.LEVELS["strong"]
            judge = module.Engine(seed=0, weights=level.weights, margin=0)
            score = judge.search(draughts.Board(variant, " ".join(words[3:])), module.Limit(depth=depth)).score
            if hasattr(score, "plies"):  # a Score (since issue 40): a win or loss in plies, or centi
                value = score.centi if score.plies is None else (1000000 if score.plies > 0 else -1000000)
            else:  # an int (the turn-3 build): a win or loss beyond the bound
                value = score if abs(score) < 990000 else (1000000 if score > 0 else -1000000)
            print("judge", value, flush=True)
        elif words[0] == "quit":
            break
        else:
            print("error unknown command", words[0], flush=True)
    except Exception as error:  # reported to the referee, which stops the match
        print("error", type(error).__name__, str(error).replace("\n", " "), flush=True)
'''


def peer_python(venv_dir: Path) -> Path:
    """The interpreter of py-draughts' virtual environment, creating and filling it on first use."""
    home = venv_dir / "py-draughts"
    python = home / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    wanted = PY_DRAUGHTS.split("==")[1]
    check = [str(python), "-c", "import importlib.metadata as m; print(m.version('py-draughts'))"]
    if python.exists():
        found = subprocess.run(check, capture_output=True, text=True)
        if found.returncode == 0 and found.stdout.strip() == wanted:
            return python
    print(f"creating {home} with {PY_DRAUGHTS} ...", file=sys.stderr, flush=True)
    venv.EnvBuilder(with_pip=True, clear=True).create(home)
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", PY_DRAUGHTS], check=True)
    return python


class Player:
    """One engine in a process of its own."""

    def __init__(self, spec: str, script: Path, venv_dir: Path, workdir: str) -> None:
        self.spec = spec
        env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
        if spec.startswith("polydraughts"):
            kind, python, self.engine = "polydraughts", Path(sys.executable), "strong"
            if "@" in spec:
                env["PYTHONPATH"] = str(Path(spec.split("@", 1)[1]).resolve())
            elif spec.startswith("polydraughts:"):  # another install: its interpreter, its own site-packages
                python = Path(spec.split(":", 1)[1])
            else:  # the polydraughts the referee imports (not whatever the interpreter would find)
                env["PYTHONPATH"] = str(Path(draughts.__file__).resolve().parent.parent)
        elif spec in PY_DRAUGHTS_ENGINES:
            kind, python, self.engine = "py-draughts", peer_python(venv_dir), spec
        else:
            raise SystemExit(
                f"unknown player {spec!r}: polydraughts, polydraughts@SRC, polydraughts:PYTHON, turbo or simple"
            )
        # An empty working directory: no 'draughts' package but the player's own can be imported.
        self.process = subprocess.Popen(
            [str(python), str(script), kind],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=workdir,
            env=env,
            bufsize=1,
        )
        self.name = spec

    def ask(self, line: str) -> list[str]:
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline().split()
        if not answer or answer[0] == "error":
            raise RuntimeError(f"{self.spec} answered {' '.join(answer) or 'nothing'} to {line!r}")
        return answer

    def judge(self, variant: str, depth: int, fen: str) -> int:
        """This player's score of ``fen`` for the side to move, by a fresh engine searching ``depth`` plies."""
        return int(self.ask(f"judge {variant} {depth} {fen}")[1])

    def close(self) -> None:
        try:
            assert self.process.stdin is not None
            self.process.stdin.write("quit\n")
            self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(120)  # freeing a large transposition table takes a while on a busy machine
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def token(move: Any) -> str:
    return f"{move.start}:{move.end}:" + ".".join(str(c) for c in sorted(move.captured))


def play_game(
    players: dict[Color, Player],
    variant: str,
    opening: list[str],
    seconds: float,
    clock: str,
    seed: int,
    max_plies: int,
) -> dict[str, Any]:
    """One game; ``opening`` holds move tokens already played from the start position."""
    board = Board(variant)
    start = board.fen(numeric=True)
    for color, player in players.items():
        engine_seed = seed + int(color is Color.BLACK)
        answer = player.ask(f"new {variant} {player.engine} {seconds} {clock} {engine_seed} {start}")
        player.name = " ".join(answer[1:])
    by_token = {}
    for text in opening:
        by_token = {token(move): move for move in board.legal_moves}
        board.push(by_token[text])
        for player in players.values():
            player.ask(f"push {text}")
    stats: dict[Color, list[tuple[int, int, float, float]]] = {Color.WHITE: [], Color.BLACK: []}
    while True:
        outcome = board.outcome()
        if outcome is not None:
            winner, reason = outcome.winner, outcome.rule
            break
        if len(board) >= max_plies:
            winner, reason = None, f"adjudicated at {max_plies} plies"
            break
        mover = players[board.turn]
        answer = mover.ask("go")
        text, nodes, depth, searched, wall, cpu = answer[1], int(answer[2]), int(answer[3]), *answer[4:7]
        by_token = {token(move): move for move in board.legal_moves}
        if text not in by_token:
            raise RuntimeError(f"{mover.spec} played {text}, not legal in {board.fen()}")
        if searched == "1":
            stats[board.turn].append((nodes, depth, float(wall), float(cpu)))
        board.push(by_token[text])
        for color, player in players.items():
            if color is not board.turn.opponent:
                player.ask(f"push {text}")
    return {
        "winner": None if winner is None else str(winner),
        "reason": reason,
        "plies": len(board),
        "moves": board.history_text(),
        "stats": {str(color): moves for color, moves in stats.items()},
    }


def summary(games: list[dict[str, Any]], side: str) -> dict[str, float]:
    """Totals of one player (``first`` or ``second``) over ``games``."""
    nodes = depth = wall = cpu = 0.0
    moves = 0
    for game in games:
        for entry in game["stats"][game[side + "_color"]]:
            nodes += entry[0]
            depth += entry[1]
            wall += entry[2]
            cpu += entry[3]
            moves += 1
    moves = max(moves, 1)
    return {
        "nps": nodes / max(cpu, 1e-9),
        "depth": depth / moves,
        "wall": wall / moves,
        "cpu": cpu / moves,
    }


def opening_of(variant: str, seed: int, plies: int) -> list[str]:
    """``plies`` random legal moves from the start position, chosen with ``random.Random(seed)``."""
    board = Board(variant)
    rng = random.Random(seed)
    opening = []
    for _ in range(plies):
        if board.outcome() is not None:
            break
        move = rng.choice(list(board.legal_moves))
        opening.append(token(move))
        board.push(move)
    return opening


class Opening(NamedTuple):
    """A kept opening: its candidate seed, its moves and each judge's score (side to move)."""

    seed: int
    moves: list[str]
    scores: tuple[int, ...]


def balanced_openings(
    variant: str,
    first_seed: int,
    count: int,
    plies: int,
    judges: Sequence[Callable[[str], int]],
    margin: int,
    tries: int = 50,
) -> tuple[list[Opening], int]:
    """The first ``count`` random openings from ``first_seed`` on that the filter keeps, and the candidates tried.

    A candidate (``opening_of(variant, seed, plies)``) is kept where the game goes on, its position
    is not one an opening kept before reached (four random plies often repeat: the same pair of
    games twice would count one opening double), each side has as many men and as many kings as
    the other, and every judge (a function of a numeric FEN giving its score for the side to
    move) scores it within ``margin`` of 0. The judges are asked only about new openings of equal
    material, in seed order; the rule reads nothing of any game.

    Raises:
        SystemExit: when ``tries * count`` candidates do not give ``count`` openings.
    """
    kept: list[Opening] = []
    seen: set[str] = set()  # the positions of the openings kept
    seed = first_seed
    while len(kept) < count:
        if seed - first_seed >= tries * max(count, 1):
            raise SystemExit(
                f"only {len(kept)} of {count} openings within +-{margin} in {seed - first_seed} candidates "
                f"from seed {first_seed}: widen --judge-margin or use --openings random"
            )
        moves = opening_of(variant, seed, plies)
        board = Board(variant)
        for text in moves:
            board.push({token(move): move for move in board.legal_moves}[text])
        position = board.position
        fen = board.fen(numeric=True)
        if (
            board.outcome() is None
            and fen not in seen
            and position.material(Color.WHITE) == position.material(Color.BLACK)
        ):
            scores = tuple(judge(fen) for judge in judges)
            if all(abs(score) <= margin for score in scores):
                kept.append(Opening(seed, moves, scores))
                seen.add(fen)
        seed += 1
    return kept, seed - first_seed


def choose_openings(
    args: argparse.Namespace, variant: str, second: str, script: Path, workdir: str
) -> dict[int, list[str]]:
    """The openings of ``variant``'s games by their seeds, by ``--openings``; the balanced ones printed."""
    count = args.games // 2
    if args.openings == "random":
        return {seed: opening_of(variant, seed, args.opening_plies) for seed in range(args.seed, args.seed + count)}
    specs = [spec for spec in (args.first, second) if spec.startswith("polydraughts")]
    players = [Player(spec, script, args.venv_dir, workdir) for spec in specs]
    try:
        judges = [functools.partial(player.judge, variant, args.judge_depth) for player in players]
        kept, tried = balanced_openings(variant, args.seed, count, args.opening_plies, judges, args.judge_margin)
    finally:
        for player in players:
            player.close()
    print(
        f"{variant}: {len(kept)} balanced openings of {tried} candidates (seeds {args.seed}-{args.seed + tried - 1}): "
        f"new positions, equal material and |score| <= {args.judge_margin} at depth {args.judge_depth} "
        f"by {' and '.join(specs)}",
        flush=True,
    )
    for opening in kept:
        scores = " ".join(f"{score:+d}" for score in opening.scores)
        print(f"    seed {opening.seed}: {' '.join(opening.moves)}  ({scores})", flush=True)
    return {opening.seed: opening.moves for opening in kept}


def run_games(
    args: argparse.Namespace,
    variant: str,
    second: str,
    script: Path,
    workdir: str,
    jobs: list[tuple[int, Color]],
    openings: dict[int, list[str]],
) -> list[dict[str, Any]]:
    """Play ``jobs`` (opening seed, colour of the first player) with one pair of player processes."""
    first_player = Player(args.first, script, args.venv_dir, workdir)
    second_player = Player(second, script, args.venv_dir, workdir)
    games = []
    try:
        for seed, first_color in jobs:
            opening = openings[seed]
            players = {first_color: first_player, first_color.opponent: second_player}
            game = play_game(players, variant, opening, args.time, args.clock, 2 * seed, args.max_plies)
            game.update(
                variant=variant,
                seed=seed,
                first_color=str(first_color),
                second_color=str(first_color.opponent),
                first=first_player.name,
                second=second_player.name,
                first_spec=args.first,
                second_spec=second,
                time=args.time,
                clock=args.clock,
                openings=args.openings,
            )
            games.append(game)
            won = "draw" if game["winner"] is None else "first" if game["winner"] == str(first_color) else "second"
            print(
                f"{variant} opening {seed} first={first_color}: {won} ({game['reason']}, {game['plies']} plies)",
                file=sys.stderr,
                flush=True,
            )
            if args.log:
                with LOG_LOCK, args.log.open("a", encoding="utf-8") as log:
                    log.write(json.dumps(game) + "\n")
    finally:
        first_player.close()
        second_player.close()
    return games


LOG_LOCK = threading.Lock()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", nargs="+", default=["international", "russian"])
    parser.add_argument("--first", default="polydraughts", help="the player the score is given for")
    parser.add_argument(
        "--second", default=None, help="the opponent (default: turbo in International, simple elsewhere)"
    )
    parser.add_argument("--games", type=int, default=20, help="games per variant (even)")
    parser.add_argument("--time", type=float, default=0.5, help="seconds per move, both sides")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--opening-plies", type=int, default=4)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1, help="first opening seed")
    parser.add_argument(
        "--openings",
        choices=("balanced", "random"),
        default="balanced",
        help="balanced: random openings kept only where the position is new, the material equal and every "
        "polydraughts player's fixed-depth score within the margin (see above); random: every random opening",
    )
    parser.add_argument("--judge-depth", type=int, default=8, help="plies of the judges' searches (balanced)")
    parser.add_argument(
        "--judge-margin", type=int, default=30, help="largest |score| kept, hundredths of a man (balanced)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (a pair of processes each)")
    parser.add_argument("--venv-dir", type=Path, default=Path.home() / ".cache" / "polydraughts-bench")
    parser.add_argument("--log", type=Path, help="append each game as a JSON line to this file")
    parser.add_argument("--report", type=Path, nargs="+", help="print the table of logged games and stop")
    parser.add_argument("--speed", action="store_true", help="nodes per second of two polydraughts players")
    parser.add_argument("--repeat", type=int, default=3, help="runs of --speed (the best counts)")
    args = parser.parse_args(argv)
    if args.report:
        return report(args.report)

    with tempfile.TemporaryDirectory() as workdir:
        script = Path(workdir) / "player.py"
        script.write_text(PLAYER, encoding="utf-8")
        if args.speed:
            return speed(args, script, workdir)
        rows = []
        for variant in args.variants:
            get_variant(variant)
            second = args.second or ("turbo" if variant == "international" else "simple")
            if second in PY_DRAUGHTS_ENGINES:
                peer_python(args.venv_dir)  # made once, before the workers start
            openings = choose_openings(args, variant, second, script, workdir)
            load_before = os.getloadavg()[0]
            started = time.perf_counter()
            jobs = [(seed, color) for seed in openings for color in (Color.WHITE, Color.BLACK)]
            workers = max(1, min(args.jobs, len(jobs)))
            with ThreadPoolExecutor(workers) as pool:
                shares = [jobs[index::workers] for index in range(workers)]
                play = functools.partial(run_games, args, variant, second, script, workdir, openings=openings)
                parts = pool.map(play, shares)
                games = [game for part in parts for game in part]
            seconds = time.perf_counter() - started
            rows.append(row_of(variant, games, seconds, (load_before, os.getloadavg()[0])))
    print(
        f"\n{args.games} games per variant, {args.time:g} s per move ({args.clock} clock), "
        f"{args.opening_plies}-ply seeded openings from seed {args.seed}, both colours, {opening_rule(args)}"
    )
    print_table(rows)
    return 0


def opening_rule(args: argparse.Namespace) -> str:
    """How the openings were chosen, in words, for the output."""
    if args.openings == "random":
        return "every random opening (unfiltered)"
    return (
        f"balanced openings (new positions, equal material, every polydraughts player's depth-{args.judge_depth} "
        f"score within +-{args.judge_margin})"
    )


def row_of(variant: str, games: list[dict[str, Any]], seconds: float, load: tuple[float, float]) -> dict[str, Any]:
    """The summary of one variant's games."""
    wins = sum(g["winner"] == g["first_color"] for g in games)
    losses = sum(g["winner"] == g["second_color"] for g in games)
    draws = len(games) - wins - losses
    return {
        "variant": variant,
        "first": games[0]["first"],
        "second": games[0]["second"],
        "games": len(games),
        "wdl": f"{wins}-{draws}-{losses}",
        "score": 100 * (wins + draws / 2) / max(1, len(games)),
        "ours": summary(games, "first"),
        "theirs": summary(games, "second"),
        "seconds": seconds,
        "load": load,
    }


def print_table(rows: list[dict[str, Any]]) -> None:
    header = ("variant", "first vs second", "W-D-L", "score", "avg depth", "nodes/s", "s/move cpu", "s/move wall")
    print(" | ".join(header))
    for row in rows:
        ours, theirs = row["ours"], row["theirs"]
        cells = (
            row["variant"],
            f"{row['first']} vs {row['second']}",
            row["wdl"],
            f"{row['score']:.1f}%",
            f"{ours['depth']:.1f} / {theirs['depth']:.1f}",
            f"{ours['nps']:,.0f} / {theirs['nps']:,.0f}",
            f"{ours['cpu']:.3f} / {theirs['cpu']:.3f}",
            f"{ours['wall']:.3f} / {theirs['wall']:.3f}",
        )
        print(" | ".join(cells))
        if row["seconds"]:
            print(
                f"    {row['games']} games, {row['seconds'] / 60:.0f} min, load average {row['load'][0]:.2f} at start, "
                f"{row['load'][1]:.2f} at end"
            )


def speed(args: argparse.Namespace, script: Path, workdir: str) -> int:
    """Nodes per second of the polydraughts players ``--first`` and ``--second`` on the same positions.

    The positions: for each variant and seed, the position after ``10 + 4 * i`` plies (i = 0..4)
    of a random game (``random.Random(seed)``); each player searches each of them with a fresh
    engine for ``--time`` seconds, the players taking turns, and the best of ``--repeat`` runs
    counts.
    """
    specs = [args.first, args.second or "polydraughts"]
    players = [Player(spec, script, args.venv_dir, workdir) for spec in specs]
    try:
        for variant in args.variants:
            fens = []
            for index in range(args.games // 2):
                board = Board(variant)
                rng = random.Random(args.seed + index)
                for ply in range(30):
                    if board.outcome() is not None:
                        break
                    if ply >= 10 and ply % 4 == 2:
                        fens.append(board.fen(numeric=True))
                    board.push(rng.choice(list(board.legal_moves)))
            for spec, player in zip(specs, players, strict=True):
                best = 0.0
                for _ in range(args.repeat):
                    nodes = depth = 0
                    cpu = 0.0
                    for fen in fens:
                        answer = player.ask(f"speed {variant} {args.time} {args.clock} {fen}")
                        nodes += int(answer[1])
                        depth += int(answer[2])
                        cpu += float(answer[3])
                    best = max(best, nodes / max(cpu, 1e-9))
                print(
                    f"{variant}: {spec}: {best:,.0f} nodes/s (best of {args.repeat}), average depth "
                    f"{depth / max(1, len(fens)):.1f} on {len(fens)} positions, load average {os.getloadavg()[0]:.2f}"
                )
    finally:
        for player in players:
            player.close()
    return 0


def report(paths: Sequence[Path]) -> int:
    """Print the table of the games logged in ``paths`` (``--log`` files), per variant and pairing."""
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            game = json.loads(line)
            key = (game["variant"], str(path), game.get("first_spec", ""), game.get("second_spec", ""))
            groups.setdefault(key, []).append(game)
    for (_, path, *_), games in groups.items():
        print(f"{path}: {games[0].get('first_spec', '')} vs {games[0].get('second_spec', '')}")
        print_table([row_of(games[0]["variant"], games, 0, (0, 0))])
    return 0


if __name__ == "__main__":
    sys.exit(main())

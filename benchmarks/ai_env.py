"""Benchmark random play through the PettingZoo environment: plies per second, and what it costs.

Every measurement is a process of its own that plays ``--games`` random games of a round (a new
seed each round, so no repetition replays another's games), each game cut at ``--max-plies``, and
reports plies (moves) and steps (actions) per second of CPU time. The rounds are interleaved (every
harness once per round, in a rotating order); the figures are the median and the range over the
rounds.

First the overhead: in each round, the round's random games (a random agent in the environment,
recorded untimed in the measuring process) are replayed one way per process, so each does exactly
the same work of the rules:

* ``Position.legal_moves()`` and ``Position.play``, nothing else: the floor;
* ``Board.push`` and ``Board.outcome()`` (and the claim check the environment makes): the
  game-end bookkeeping every environment needs (draw counts, repetitions);
* the AEC environment of :mod:`draughts.ai`: ``last()`` (the observation and the action mask)
  and ``step`` with the recorded action.

The ratios of the last two to the floor are taken round by round. Then random play: a random agent
(uniform among the legal actions of each mask) in the environment, driven as PettingZoo's examples
drive it (``agent_iter``, ``last``, ``step``). Each polydraughts side runs all four: the checkout
(its source with the native extension its install built) always, and another tree with
``--baseline`` for an A/B. ``--compiled-python`` named the former mypyc build, which is gone (the
rules run natively in every install): it is kept only so that old command lines still parse.

Then batched random self-play through :class:`draughts.ai.VectorEnv` (every side whose tree has it):
``--batches`` steps of ``--num-envs`` games (1,024) at once, the arrays not copied, a random agent
drawing uniformly among each game's legal actions either from ``info["action_mask"]`` with numpy
or with the environment's native sampler (``sample_legal_actions``); a ply is a step that
completes a move (a step that restarts a finished game counts as neither).

``--compare`` also times OpenSpiel's ``checkers`` (American checkers with OpenSpiel's own
simplifications) with the same kind of random player, each round in a new process: the raw game
state (``legal_actions`` and ``apply_action``) and its ``rl_environment.Environment`` (which
computes observation tensors and legal actions at each step, as ours does). As on our side, its
set-up is not timed: the game loaded and the environment made, then 1,000 games played first
(its first few hundred games run up to a fifth slower than its steady rate). OpenSpiel also installs
a top-level package of its own and needs no polydraughts, so the script creates a virtual
environment for it (``--openspiel-venv``, default ``~/.cache/polydraughts-bench/open-spiel``),
pip-installs ``open_spiel`` there on first use and runs it in a subprocess.

OpenSpiel's checkers takes one action per jump, ours one per move unless captures must be told
apart, so steps and plies are both reported; the ratios compare plies per second.

Usage::

    python benchmarks/ai_env.py                  # American checkers, ours only
    python benchmarks/ai_env.py --compare        # and OpenSpiel
    python benchmarks/ai_env.py --variant international --games 50 --rounds 7
    python benchmarks/ai_env.py --quick          # a few games, one round, to check it runs (CI)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
import venv
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

import draughts
import draughts.ai

sys.path.insert(0, str(Path(__file__).resolve().parent))
import rounds  # the shared method: sides, processes, interleaved rounds


class Rate(NamedTuple):
    """One timed harness: plies and steps played, CPU seconds (best run)."""

    name: str
    games: int
    plies: int
    steps: int
    seconds: float

    @property
    def plies_per_second(self) -> float:
        return self.plies / self.seconds if self.seconds > 0 else float("inf")

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds if self.seconds > 0 else float("inf")


class Game(NamedTuple):
    """A recorded random game: the index of each move among the legal moves, and the env's actions."""

    choices: list[int]
    actions: list[int]


def random_games(rules: draughts.Ruleset, games: int, max_plies: int, seed: int) -> list[Game]:
    """Random games through the environment (uniform among the legal actions), recorded (untimed)."""
    rng = random.Random(seed)
    game = draughts.ai.env(rules, max_plies=max_plies)
    recorded = []
    for _ in range(games):
        game.reset()
        actions = []
        for _ in game.agent_iter():
            observation, _, terminated, truncated, _ = game.last()
            if terminated or truncated:
                game.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            action = int(legal[rng.randrange(len(legal))])
            actions.append(action)
            game.step(action)
        board = draughts.Board(rules)
        choices = []
        for move in game.board.move_stack:
            choices.append(board.legal_moves().index(move))
            board.push(move)
        recorded.append(Game(choices, actions))
    return recorded


def replay_positions(rules: draughts.Ruleset, games: list[Game]) -> tuple[int, int]:
    """The games with ``Position.legal_moves()`` and ``play`` only; (plies, steps)."""
    plies = 0
    start = draughts.Position.initial(rules)
    for game in games:
        position = start
        for choice in game.choices:
            moves = position.legal_moves()
            position = position.play(moves[choice])
        position.legal_moves()  # the last position's moves: the game-end test
        plies += len(game.choices)
    return plies, plies


def replay_boards(rules: draughts.Ruleset, games: list[Game]) -> tuple[int, int]:
    """The games on a ``Board``, asking ``outcome()`` and the claim check after each move; (plies, steps)."""
    plies = 0
    claims = rules.draw_rules.repetition_claim or any(rule.claim for rule in rules.draw_rules.move_counts)
    for game in games:
        board = draughts.Board(rules)
        for choice in game.choices:
            board.push(board.legal_moves()[choice])
            if board.outcome() is None and claims:
                board.can_claim_draw()
        plies += len(game.choices)
    return plies, plies


def replay_env(rules: draughts.Ruleset, games: list[Game]) -> tuple[int, int]:
    """The games through the AEC environment: ``last()`` (observation and mask), then ``step``; (plies, steps)."""
    plies = steps = 0
    env = draughts.ai.env(rules, max_plies=max(len(game.choices) for game in games) + 1)
    for game in games:
        env.reset()
        for action in game.actions:
            env.last()
            env.step(action)
        env.last()
        plies += len(game.choices)
        steps += len(game.actions)
    return plies, steps


def play_env(rules: draughts.Ruleset, games: int, max_plies: int, seed: int) -> tuple[int, int]:
    """Random games through the AEC environment, a random agent choosing from each mask; (plies, steps)."""
    rng = random.Random(seed)
    env = draughts.ai.env(rules, max_plies=max_plies)
    plies = steps = 0
    for _ in range(games):
        env.reset()
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        plies += len(env.board)
    return plies, steps


def play_vector(
    rules: draughts.Ruleset, num_envs: int, batches: int, max_plies: int, seed: int, *, native: bool
) -> tuple[int, int]:
    """Random self-play through :class:`draughts.ai.VectorEnv`: ``batches`` steps of ``num_envs``
    games at once (no copies of the arrays); (plies, steps).

    The random agent draws uniformly among the legal actions of each game: from
    ``info["action_mask"]`` with numpy (``native=False``: the mask's nonzero entries, one random
    pick per row), or with the environment's own sampler (``native=True``). A step that restarts a
    game (next-step autoreset) is neither a step nor a ply; a ply is a step after which the other
    side is to move (the move is complete).
    """
    envs = draughts.ai.VectorEnv(rules, num_envs, max_plies=max_plies, copy=False)
    rng = np.random.default_rng(seed)
    _, info = envs.reset(seed=seed)
    mask, player = info["action_mask"], info["player"]
    n_actions = mask.shape[1]
    rows = np.arange(num_envs) * n_actions
    plies = steps = 0
    restart = np.zeros(num_envs, dtype=np.bool_)
    before = player.copy()
    for _ in range(batches):
        if native:
            actions = envs.sample_legal_actions()
        else:
            legal = np.flatnonzero(mask)
            starts = np.searchsorted(legal, rows)
            counts = np.diff(starts, append=legal.size)
            picks = starts + (rng.random(num_envs) * counts).astype(np.int64)
            actions = np.where(counts > 0, legal[np.minimum(picks, legal.size - 1)] - rows, 0)
        _, _, terminated, truncated, _ = envs.step(actions)
        moved = ~restart
        steps += int(moved.sum())
        plies += int((moved & (player != before)).sum())
        before[:] = player
        restart = terminated | truncated
    return plies, steps


REPLAYS: dict[str, Callable[[draughts.Ruleset, list[Game]], tuple[int, int]]] = {
    "Position.legal_moves() + play": replay_positions,
    "Board push + outcome": replay_boards,
    "AEC env last() + step": replay_env,
}


HARNESSES = (*REPLAYS, "random agent")

GOAL = 10.0
"""Issue 38 §4: VectorEnv random self-play at this many times OpenSpiel's C++ checkers state (plies per CPU second)."""

VECTOR = ("VectorEnv random agent (mask, numpy)", "VectorEnv random agent (native sampler)")
"""The batched harnesses, run by every side (a tree without VectorEnv reports none)."""


def worker() -> None:
    """One measurement, in a process of its own: the job (JSON on stdin) timed once; JSON on stdout."""
    job = json.loads(sys.stdin.read())
    rules = draughts.get_variant(job["variant"])
    harness = job["harness"]
    if harness in VECTOR and not hasattr(draughts.ai, "VectorEnv"):
        print(json.dumps({"plies": 0, "steps": 0, "seconds": 0.0, "missing": True}))
        return
    if harness in VECTOR:
        native = harness == VECTOR[1]
        play_vector(rules, job["num_envs"], 2, job["max_plies"], job["seed"], native=native)  # set-up, untimed
        began = time.process_time()
        plies, steps = play_vector(rules, job["num_envs"], job["batches"], job["max_plies"], job["seed"], native=native)
    elif harness == "random agent":
        play_env(rules, 1, 2, job["seed"])  # the tables and the environment's set-up, untimed
        began = time.process_time()
        plies, steps = play_env(rules, job["games"], job["max_plies"], job["seed"])
    else:
        games = random_games(rules, job["games"], job["max_plies"], job["seed"])  # untimed
        began = time.process_time()
        plies, steps = REPLAYS[harness](rules, games)
    seconds = time.process_time() - began
    found = {"plies": plies, "steps": steps, "seconds": seconds, "native": draughts.NATIVE}
    found |= {"file": draughts.__file__, "library": "polydraughts", "version": draughts.__version__}
    print(json.dumps(found))


# Run by each polydraughts side: this module's worker(), from the benchmarks folder.
WORKER = f"""
import sys
sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})
import ai_env
ai_env.worker()
"""


# --- OpenSpiel, in a virtual environment of its own ---

OPENSPIEL = "open_spiel"

# Run by OpenSpiel's interpreter: prints {"state": {...}, "env": {...}} as JSON.
OPENSPIEL_SCRIPT = r"""
import json, random, sys, time
import pyspiel
from open_spiel.python import rl_environment

games, max_plies, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])

# Set-up untimed, as on our side: the game loaded, the environment made, and games played first
# until it runs at its steady rate (its first few hundred games run up to a fifth slower).
GAME = pyspiel.load_game("checkers")
ENVIRONMENT = rl_environment.Environment("checkers")
WARM_UP = 1000

def raw(seed, games):
    rng = random.Random(seed)
    plies = steps = 0
    for _ in range(games):
        state = GAME.new_initial_state()
        player = state.current_player()
        moves = 0
        while not state.is_terminal() and moves < max_plies:
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
            steps += 1
            now = state.current_player()
            if now != player:
                moves += 1
                player = now
        plies += moves
    return plies, steps

def env(seed, games):
    rng = random.Random(seed)
    plies = steps = 0
    for _ in range(games):
        step = ENVIRONMENT.reset()
        player = step.observations["current_player"]
        moves = 0
        while not step.last() and moves < max_plies:
            legal = step.observations["legal_actions"][player]
            step = ENVIRONMENT.step([legal[rng.randrange(len(legal))]])
            steps += 1
            now = step.observations["current_player"]
            if now != player:
                moves += 1
                player = now
        plies += moves
    return plies, steps

out = {}
for name, run in (("state", raw), ("env", env)):
    run(seed + 1_000_000, WARM_UP)
    began = time.process_time()
    result = run(seed, games)
    out[name] = {"plies": result[0], "steps": result[1], "seconds": time.process_time() - began}
import importlib.metadata
out["version"] = importlib.metadata.version("open_spiel")
print(json.dumps(out))
"""


def openspiel_python(home: Path) -> Path:
    """The interpreter of OpenSpiel's virtual environment, creating and filling it on first use."""
    python = home / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    if python.exists():
        found = subprocess.run([str(python), "-c", "import pyspiel"], capture_output=True)
        if found.returncode == 0:
            return python
    print(f"creating {home} with {OPENSPIEL} ...", file=sys.stderr, flush=True)
    venv.EnvBuilder(with_pip=True, clear=True).create(home)
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", OPENSPIEL], check=True)
    return python


def run_openspiel(python: Path, games: int, max_plies: int, seed: int) -> dict[str, dict[str, float] | str]:
    """Time OpenSpiel's checkers in its own environment (from an empty directory, without PYTHONPATH)."""
    with tempfile.TemporaryDirectory() as scratch:
        script = Path(scratch) / "openspiel_random.py"
        script.write_text(OPENSPIEL_SCRIPT, encoding="utf-8")
        env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
        done = subprocess.run(
            [str(python), str(script), str(games), str(max_plies), str(seed)],
            capture_output=True,
            text=True,
            cwd=scratch,
            env=env,
            check=True,
        )
    result: dict[str, dict[str, float] | str] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="benchmarks/ai_env.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variant", default="american", help="the ruleset to play (default: american)")
    parser.add_argument("--games", type=int, default=100, help="random games per process (default 100)")
    parser.add_argument("--max-plies", type=int, default=300, help="cut each game after this many plies (300)")
    parser.add_argument("--num-envs", type=int, default=1024, help="games of the VectorEnv harnesses (1,024)")
    parser.add_argument(
        "--batches", type=int, default=400, help="VectorEnv steps per process, each of --num-envs games (400)"
    )
    parser.add_argument(
        "--openspiel-games",
        type=int,
        default=1000,
        help="OpenSpiel's random games per process (1,000: a few tenths of a second, as long as a VectorEnv run)",
    )
    parser.add_argument("--quick", action="store_true", help="5 games, one round, no comparison (for CI)")
    parser.add_argument("--compare", action="store_true", help="also time OpenSpiel's checkers (own venv)")
    parser.add_argument(
        "--openspiel-venv",
        type=Path,
        default=Path.home() / ".cache" / "polydraughts-bench" / "open-spiel",
        help="OpenSpiel's virtual environment (created on first use)",
    )
    rounds.add_options(parser, rounds=5)
    args = parser.parse_args(argv)
    rounds.check_options(parser, args)
    for name in ("games", "max_plies", "num_envs", "batches", "openspiel_games"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} {getattr(args, name)} must be at least 1")
    if args.quick:
        args.games, args.rounds, args.compare, args.num_envs, args.batches = 5, 1, False, 16, 20
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        rules = draughts.get_variant(args.variant)
    except draughts.UnknownVariantError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    sides = rounds.find_sides(rounds.wanted_sides(args, peers=[]), args)
    by_name = {side.name: side for side in sides}
    jobs = [f"{side.name}: {harness}" for side in sides for harness in HARNESSES]
    jobs += [f"{side.name}: {harness}" for side in sides for harness in VECTOR]
    openspiel = None
    if args.compare:
        if rules.name != "american":
            print("note: OpenSpiel's checkers is American checkers; the comparison is with another ruleset")
        openspiel = openspiel_python(args.openspiel_venv)
        jobs.append("openspiel")

    def run(job: str, number: int) -> dict[str, Any]:
        seed = args.seed + number
        if job == "openspiel":
            assert openspiel is not None
            return dict(run_openspiel(openspiel, args.openspiel_games, args.max_plies, seed))
        name, _, harness = job.partition(": ")
        work = {"variant": rules.name, "harness": harness, "games": args.games, "max_plies": args.max_plies}
        work |= {"num_envs": args.num_envs, "batches": args.batches}
        return rounds.run_worker(by_name[name], WORKER, {**work, "seed": seed})

    print(
        f"polydraughts {draughts.__version__}, {platform.python_implementation()} {platform.python_version()}, "
        f"{platform.system()} {platform.machine()}; {rules.name}, {args.games} random games of at most "
        f"{args.max_plies} plies per process, new games every round, {args.rounds} interleaved round(s) from seed "
        f"{args.seed}, every measurement its own process, CPU time; median (range) over the rounds"
    )
    if openspiel is not None:
        print(f"OpenSpiel: {args.openspiel_games:,} random games per process, after its untimed set-up and 1,000 games")
    load_before = _load()
    results = rounds.interleave(args.rounds, jobs, run, progress=args.rounds > 1)
    print(rounds.build_text(sides, results))
    print(f"load average (1 min) {load_before} at the start, {_load()} at the end, on {os.cpu_count()} CPUs")
    print("| side | harness | plies per process | plies/s | steps/s | us per ply | x the Position floor |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for side in sides:
        floor = plies_per_second(results[f"{side.name}: {HARNESSES[0]}"])
        for harness in HARNESSES + VECTOR:
            found = results[f"{side.name}: {harness}"]
            if found[0].get("missing"):
                continue
            rate = plies_per_second(found)
            steps = rounds.Spread.of([item["steps"] / item["seconds"] for item in found])
            slower = rounds.ratios(floor, rate).text() if harness in REPLAYS else "-"
            print(
                f"| {side.name} | {harness} | {found[0]['plies']:,} | {rounds.Spread.of(rate).text('', 0)} | "
                f"{steps.text('', 0)} | {1e6 / rounds.Spread.of(rate).median:.1f} | {slower} |"
            )
    if openspiel is not None:
        ours = plies_per_second(results[f"{sides[0].name}: random agent"])
        for name, label in (("state", "game state (legal_actions, apply_action)"), ("env", "rl_environment")):
            found = [item[name] for item in results["openspiel"]]
            theirs = plies_per_second(found)  # type: ignore[arg-type]
            version = results["openspiel"][0]["version"]
            print(
                f"| OpenSpiel {version} | checkers {label} | {found[0]['plies']:,} | "  # type: ignore[index]
                f"{rounds.Spread.of(theirs).text('', 0)} | - | {1e6 / rounds.Spread.of(theirs).median:.1f} | - |"
            )
            print(
                f"polydraughts AEC env random agent / OpenSpiel {label}: {rounds.ratios(ours, theirs).text()} plies/s"
            )
            for side in sides:
                for harness in VECTOR:
                    found = results[f"{side.name}: {harness}"]
                    if found[0].get("missing"):
                        continue
                    ratio = rounds.ratios(plies_per_second(found), theirs)
                    print(
                        f"polydraughts ({side.name}) {harness}, {args.num_envs:,} games / OpenSpiel {label}: "
                        f"{ratio.text()} plies/s"
                    )
                    if name == "state" and side is sides[0]:
                        goal = "met" if ratio.median >= GOAL else "NOT met"
                        print(f"  issue 38 §4 goal, {GOAL:g}x OpenSpiel's game state with this agent: {goal}")
    return 0


def _load() -> str:
    """The 1-minute load average, or "?" where the system does not tell."""
    try:
        return f"{os.getloadavg()[0]:.1f}"
    except OSError:  # pragma: no cover - platforms without getloadavg
        return "?"


def plies_per_second(found: Sequence[dict[str, Any]]) -> list[float]:
    """Plies per second of each round's result."""
    return [item["plies"] / item["seconds"] for item in found]


if __name__ == "__main__":
    sys.exit(main())

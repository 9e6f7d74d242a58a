"""Benchmark random play through the PettingZoo environment: steps per second, and what it costs.

Plays random games (uniform among the legal actions, or among the legal moves) and reports plies
(moves) and steps (actions) per second of CPU time, best of ``--repeat`` runs of ``--games`` games,
each game cut at ``--max-plies``:

First the overhead: the same random games (a random agent in the environment, recorded untimed)
are replayed three ways, so each does exactly the same work of the rules:

* ``Position.legal_moves()`` and ``Position.play``, nothing else: the floor;
* ``Board.push`` and ``Board.outcome()`` (and the claim check the environment makes): the
  game-end bookkeeping every environment needs (draw counts, repetitions);
* the AEC environment of :mod:`draughts.ai`: ``last()`` (the observation and the action mask)
  and ``step`` with the recorded action.

Then random play: a random agent (uniform among the legal actions of each mask) in the
environment, driven as PettingZoo's examples drive it (``agent_iter``, ``last``, ``step``).

``--compare`` also times OpenSpiel's ``checkers`` (American checkers with OpenSpiel's own
simplifications) with the same kind of random player: the raw game state (``legal_actions`` and
``apply_action``) and its ``rl_environment.Environment`` (which computes observation tensors and
legal actions at each step, as ours does). OpenSpiel also installs a top-level package of its own
and needs no polydraughts, so the script creates a virtual environment for it (``--openspiel-venv``,
default ``~/.cache/polydraughts-bench/open-spiel``), pip-installs ``open_spiel`` there on first use
and runs it in a subprocess.

OpenSpiel's checkers takes one action per jump, ours one per move unless captures must be told
apart, so steps and plies are both reported; the ratios compare plies per second.

Usage::

    PYTHONPATH=src python benchmarks/ai_env.py                  # American checkers, ours only
    PYTHONPATH=src python benchmarks/ai_env.py --compare        # and OpenSpiel
    PYTHONPATH=src python benchmarks/ai_env.py --variant international --games 50
    PYTHONPATH=src python benchmarks/ai_env.py --quick          # a few games, to check it runs (CI)
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
from typing import NamedTuple

import numpy as np

import draughts
import draughts.ai


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


REPLAYS: dict[str, Callable[[draughts.Ruleset, list[Game]], tuple[int, int]]] = {
    "Position.legal_moves() + play": replay_positions,
    "Board push + outcome": replay_boards,
    "AEC env last() + step": replay_env,
}


def best_of(repeat: int, run: Callable[[], tuple[int, int]]) -> tuple[int, int, float]:
    """(plies, steps, CPU seconds) of the fastest of ``repeat`` runs."""
    best = float("inf")
    plies = steps = 0
    for _ in range(repeat):
        began = time.process_time()
        plies, steps = run()
        best = min(best, time.process_time() - began)
    return plies, steps, best


# --- OpenSpiel, in a virtual environment of its own ---

OPENSPIEL = "open_spiel"

# Run by OpenSpiel's interpreter: prints {"state": {...}, "env": {...}} as JSON.
OPENSPIEL_SCRIPT = r"""
import json, random, sys, time
import pyspiel
from open_spiel.python import rl_environment

games, max_plies, repeat = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])

def raw(seed):
    rng = random.Random(seed)
    game = pyspiel.load_game("checkers")
    plies = steps = 0
    for _ in range(games):
        state = game.new_initial_state()
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

def env(seed):
    rng = random.Random(seed)
    environment = rl_environment.Environment("checkers")
    plies = steps = 0
    for _ in range(games):
        step = environment.reset()
        player = step.observations["current_player"]
        moves = 0
        while not step.last() and moves < max_plies:
            legal = step.observations["legal_actions"][player]
            step = environment.step([legal[rng.randrange(len(legal))]])
            steps += 1
            now = step.observations["current_player"]
            if now != player:
                moves += 1
                player = now
        plies += moves
    return plies, steps

out = {}
for name, run in (("state", raw), ("env", env)):
    best, result = float("inf"), (0, 0)
    for _ in range(repeat):
        began = time.process_time()
        result = run(0)
        best = min(best, time.process_time() - began)
    out[name] = {"plies": result[0], "steps": result[1], "seconds": best}
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


def run_openspiel(python: Path, games: int, max_plies: int, repeat: int) -> dict[str, dict[str, float] | str]:
    """Time OpenSpiel's checkers in its own environment (from an empty directory, without PYTHONPATH)."""
    with tempfile.TemporaryDirectory() as scratch:
        script = Path(scratch) / "openspiel_random.py"
        script.write_text(OPENSPIEL_SCRIPT, encoding="utf-8")
        env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
        done = subprocess.run(
            [str(python), str(script), str(games), str(max_plies), str(repeat)],
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
    parser.add_argument("--games", type=int, default=200, help="random games per run (default 200)")
    parser.add_argument("--max-plies", type=int, default=300, help="cut each game after this many plies (300)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each harness; the best counts (3)")
    parser.add_argument("--quick", action="store_true", help="5 games, one run, no comparison (for CI)")
    parser.add_argument("--compare", action="store_true", help="also time OpenSpiel's checkers (own venv)")
    parser.add_argument(
        "--openspiel-venv",
        type=Path,
        default=Path.home() / ".cache" / "polydraughts-bench" / "open-spiel",
        help="OpenSpiel's virtual environment (created on first use)",
    )
    args = parser.parse_args(argv)
    for name in ("games", "max_plies", "repeat"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} {getattr(args, name)} must be at least 1")
    if args.quick:
        args.games, args.repeat, args.compare = 5, 1, False
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        rules = draughts.get_variant(args.variant)
    except draughts.UnknownVariantError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(
        f"polydraughts {draughts.__version__}, {platform.python_implementation()} {platform.python_version()}, "
        f"{platform.system()} {platform.machine()}; {rules.name}, {args.games} random games of at most "
        f"{args.max_plies} plies, CPU time, best of {args.repeat}"
    )
    games = random_games(rules, args.games, args.max_plies, seed=0)
    print(f"the same {len(games)} random games (a random agent in the environment) replayed three ways:")
    print("| harness | plies | steps | seconds | plies/s | steps/s | us per ply |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    replays = []
    for name, replay in REPLAYS.items():
        rate = Rate(name, len(games), *best_of(args.repeat, lambda replay=replay: replay(rules, games)))
        replays.append(rate)
        print(
            f"| {name} | {rate.plies:,} | {rate.steps:,} | {rate.seconds:.3f} | {rate.plies_per_second:,.0f} | "
            f"{rate.steps_per_second:,.0f} | {1e6 / rate.plies_per_second:.1f} |"
        )
    position_us, board_us, env_us = (1e6 / rate.plies_per_second for rate in replays)
    print(
        f"per ply: the Board's bookkeeping adds {board_us - position_us:.1f} us to Position.legal_moves()+play "
        f"({position_us:.1f} us), the environment (observation, mask, agents) {env_us - board_us:.1f} us more: "
        f"{env_us / position_us:.2f}x the bare position loop, {env_us / board_us:.2f}x the Board loop"
    )
    env = Rate(
        "random agent", args.games, *best_of(args.repeat, lambda: play_env(rules, args.games, args.max_plies, 1))
    )
    print()
    print("random play (each program plays its own random games):")
    print("| program | plies | steps | seconds | plies/s | steps/s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    print(
        f"| polydraughts {draughts.__version__} AEC env, {rules.name} | {env.plies:,} | {env.steps:,} | "
        f"{env.seconds:.3f} | {env.plies_per_second:,.0f} | {env.steps_per_second:,.0f} |"
    )
    if args.compare:
        if rules.name != "american":
            print("note: OpenSpiel's checkers is American checkers; the comparison is with another ruleset")
        python = openspiel_python(args.openspiel_venv)
        result = run_openspiel(python, args.games, args.max_plies, args.repeat)
        version = result.pop("version")
        ratios = []
        for name, figures in result.items():
            assert isinstance(figures, dict)
            rate = Rate(name, args.games, int(figures["plies"]), int(figures["steps"]), figures["seconds"])
            label = {"state": "game state (legal_actions, apply_action)", "env": "rl_environment"}[name]
            print(
                f"| OpenSpiel {version} checkers {label} | {rate.plies:,} | {rate.steps:,} | {rate.seconds:.3f} | "
                f"{rate.plies_per_second:,.0f} | {rate.steps_per_second:,.0f} |"
            )
            ratios.append(
                f"polydraughts AEC env / OpenSpiel {label}: {env.plies_per_second / rate.plies_per_second:.2f}x "
                f"plies/s, {env.steps_per_second / rate.steps_per_second:.2f}x steps/s"
            )
        print("\n".join(ratios))
    return 0


if __name__ == "__main__":
    sys.exit(main())

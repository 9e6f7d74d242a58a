"""Check the compiled build against the Python source it is compiled from.

The compiled build (``HATCH_BUILD_HOOK_ENABLE_MYPYC=1``, see ``docs/performance.rst``) turns the
modules of ``src/draughts/_core`` that run per move or per node (the generator, its capture search, the resolver, the
engine's search and evaluation: ``COMPILED_MODULES``) into C extensions with mypyc. It is the same
source, but mypyc checks types at run time and runs some constructs its own way, so this script
checks it in use:

1. builds a wheel with the hook on (from a copy of the checkout, so no extension is left beside the
   source), or takes the release's compiled wheel (``--wheel``, from ``tools/build_release.py``),
   installs it into a virtual environment of its own, and checks that the wheel holds every
   extension and that ``draughts.COMPILED`` is true there;
2. plays the same seeded random games of every variant (and the no-forced-capture and losing forms
   of International) through both builds and compares a hash of every position's FEN, legal moves
   in order and the FEN after each (``--games`` per variant), perft of every start position to
   ``--depth``, and the engine's move, score, principal variation and node count at a fixed depth
   on positions of those games;
3. runs the rules' tests (published perft, rule-book examples, the naive oracle, the property
   tests, precedence, rule state, positions, boards and the engine) against the compiled install;
4. with ``--speed``, prints the per-move playouts' plies and the engine's nodes per second of
   both builds, measured by ``benchmarks/playout.py`` and ``benchmarks/engine.py`` (new games and
   positions every round, each build in its own process, the rounds interleaved, median and range).

Usage::

    python tools/compiled_check.py                 # build, compare, run the rules' tests
    python tools/compiled_check.py --speed         # and the speed of both builds
    python tools/compiled_check.py --wheel dist/polydraughts-*-manylinux*.whl   # a release's wheel

Exit status 1 on any difference or test failure. It needs a C compiler (mypyc's extension is
built like any other).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# What pyproject.toml's mypyc hook compiles (each must be an extension in the wheel).
COMPILED_MODULES = (
    "_core/movegen",
    "_core/capture",
    "_core/state",
    "_core/resolver",
    "engine/search",
    "engine/evaluation",
)
"""The compiled modules, as paths under ``draughts/`` (the generator in ``_core``, the engine's per-node search)."""

# The tests that exercise the generator: the rules, their published numbers and the oracle.
RULES_TESTS = [
    "tests/oracle/test_reference.py",
    "tests/oracle/test_oracle.py",
    "tests/oracle/test_oracle_family.py",
    "tests/oracle/test_properties.py",
    "tests/core/test_precedence.py",
    "tests/core/test_capture_floods.py",
    "tests/oracle/test_family.py",
    "tests/core/test_rule_state.py",
    "tests/model/test_position.py",
    "tests/model/test_board.py",
    "tests/engine/test_engine.py",
    "tests/core/test_build.py",
]

# Run by each build's Python: prints whether it is compiled, then one line per check.
_PROBE = r"""
import hashlib, random, sys
import draughts
from draughts.engine import Engine, Limit
from draughts.perft import perft

games, depth = int(sys.argv[1]), int(sys.argv[2])
names = sorted(draughts.VARIANTS) + ["international-nfc", "international-losing"]
print("compiled", draughts.COMPILED, draughts.__file__)
for name in names:
    rules = draughts.get_variant(name)
    digest = hashlib.sha256()
    rng = random.Random(name)
    count = 0
    for _ in range(games):
        position = draughts.Position.initial(rules)
        for _ in range(200):
            moves = position.legal_moves()
            children = [position.play(move) for move in moves]
            digest.update(position.fen().encode())
            digest.update(repr(moves).encode())
            digest.update("|".join(child.fen() for child in children).encode())
            count += 1
            if not moves:
                break
            position = children[rng.randrange(len(children))]
    start = draughts.Position.initial(rules)
    counts = [perft(start, d) for d in range(1, depth + 1)]
    print(name, count, digest.hexdigest()[:16], counts)
    # The engine: same moves, scores, lines and node counts at a fixed depth (a seeded opening).
    engine = Engine(seed=0)
    position = start
    for ply in range(12):
        moves = position.legal_moves()
        if not moves:
            break
        result = engine.search(position, Limit(depth=4))
        print(name, "engine", ply, result.move, result.score, result.nodes, " ".join(map(str, result.pv)))
        position = position.play(moves[rng.randrange(len(moves))])
"""

# ``--speed``: the benchmarks, by their method (distinct work every round, each build in its own
# process, interleaved rounds, median and range), with this install as the compiled side.
_BENCHMARKS = ROOT / "benchmarks"
_SPEED_RUNS = (
    ["playout.py", "--rounds", "3", "--games", "100", "--variant", "international", "--variant", "russian"],
    ["engine.py", "--rounds", "3", "--positions", "4"],
    ["engine.py", "--rounds", "3", "--positions", "4", "--variant", "russian"],
)


def speed(python: Path) -> None:
    """Print the per-move path's and the engine's speed of both builds (the source: this checkout)."""
    for script, *options in _SPEED_RUNS:
        run([sys.executable, str(_BENCHMARKS / script), *options, "--compiled-python", str(python)])


def run(command: list[str], env: dict[str, str] | None = None) -> None:
    print("$", " ".join(command), flush=True)
    subprocess.run(command, check=True, env=env)


def build(work: Path) -> Path:
    """The compiled wheel, built from a copy of the checkout (so no extension is left beside the source)."""
    copy = work / "checkout"
    shutil.copytree(ROOT / "src", copy / "src", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        if (ROOT / name).exists():
            shutil.copy(ROOT / name, copy / name)
    environment = {**os.environ, "HATCH_BUILD_HOOK_ENABLE_MYPYC": "1"}
    run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(work / "dist"), str(copy)], environment)
    (wheel,) = (work / "dist").glob("polydraughts-*.whl")
    return wheel


def extensions(wheel: Path) -> list[str]:
    """The compiled extensions a wheel holds."""
    with zipfile.ZipFile(wheel) as archive:
        return [name for name in archive.namelist() if name.endswith((".so", ".pyd"))]


def require_compiled(wheel: Path) -> list[str]:
    """The wheel's extensions; ``SystemExit`` unless it holds every module of ``COMPILED_MODULES``."""
    found = extensions(wheel)
    for module in COMPILED_MODULES:
        if not any(name.startswith(f"draughts/{module}.") for name in found):
            raise SystemExit(f"the wheel {wheel.name} holds no compiled {module}")
    return found


def install(wheel: Path, work: Path) -> Path:
    """A virtual environment with ``wheel`` (checked to hold every compiled module) and the test tools; its Python."""
    print(f"{wheel.name}: {', '.join(require_compiled(wheel))}")
    venv = work / "venv"
    run([sys.executable, "-m", "venv", str(venv)])
    python = venv / "bin" / "python"
    run([str(python), "-m", "pip", "install", "--quiet", "--upgrade", "pip"])
    tools = ["pytest>=7.4", "pytest-timeout>=2.1", "pytest-xdist>=3.5", "hypothesis>=6.80"]
    run([str(python), "-m", "pip", "install", "--quiet", str(wheel), *tools])
    return python


def environment_of(source: Path | None) -> dict[str, str]:
    """This process's environment, with ``source`` (a ``src`` directory) alone on ``PYTHONPATH``."""
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    if source is not None:
        environment["PYTHONPATH"] = str(source)
    return environment


def probe(python: Path | str, games: int, depth: int, source: Path | None) -> list[str]:
    """The probe's lines from one build (``source``: a ``src`` directory to import instead)."""
    environment = environment_of(source)
    out = subprocess.run(
        [str(python), "-c", _PROBE, str(games), str(depth)],
        check=True,
        text=True,
        capture_output=True,
        env=environment,
        cwd=tempfile.gettempdir(),  # not the checkout, whose src must not shadow the install
    ).stdout
    return out.splitlines()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10, help="random games per variant (default 10)")
    parser.add_argument("--depth", type=int, default=4, help="perft depth of every start position (default 4)")
    parser.add_argument("--speed", action="store_true", help="also print playout and engine speed of both builds")
    parser.add_argument("--no-tests", action="store_true", help="skip the rules' tests")
    parser.add_argument(
        "--wheel", type=Path, help="check this compiled wheel (as tools/build_release.py makes) instead of building one"
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="polydraughts-compiled-") as directory:
        wheel = args.wheel.resolve() if args.wheel else build(Path(directory))
        python = install(wheel, Path(directory))
        # The source run imports a copy of its own (the build leaves its extensions in the copy it
        # builds from, and an earlier compiled build may have left some in this checkout).
        copy = Path(directory) / "source"
        shutil.copytree(ROOT / "src", copy, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
        compiled = probe(python, args.games, args.depth, source=None)
        source = probe(sys.executable, args.games, args.depth, source=copy)
        if not compiled[0].startswith("compiled True"):
            print(f"the compiled install does not use its extension: {compiled[0]}")
            return 1
        if not source[0].startswith("compiled False"):
            print(f"the source run uses an extension: {source[0]}")
            return 1
        differences = [(a, b) for a, b in zip(compiled[1:], source[1:], strict=True) if a != b]
        games = [line for line in source[1:] if line.split()[1] != "engine"]
        searches = len(source) - 1 - len(games)
        positions = sum(int(line.split()[1]) for line in games)
        digest = hashlib.sha256("\n".join(source[1:]).encode()).hexdigest()[:16]
        for compiled_line, source_line in differences:
            print(f"DIFFERENT\n  compiled: {compiled_line}\n  source:   {source_line}")
        if differences:
            return 1
        print(
            f"same legal moves, order and children on {positions:,} positions of {len(games)} rulesets, "
            f"the same perft to depth {args.depth} and the same {searches} engine searches (digest {digest})"
        )
        if args.speed:
            speed(python)
        if not args.no_tests:
            # ``-o pythonpath=tests``: the tests' helpers, but not ``src``, so they import the install.
            command = [str(python), "-m", "pytest", "-q", "-n", "auto", "-p", "no:cacheprovider"]
            command += ["-o", "pythonpath=tests"]
            code = subprocess.run([*command, *RULES_TESTS], cwd=ROOT).returncode
            if code:
                print(f"the rules' tests failed against the compiled build (pytest exit {code})")
                return 1
            check = [str(python), "-c", "import draughts, sys; sys.exit(0 if draughts.COMPILED else 1)"]
            subprocess.run(check, check=True, cwd=ROOT)
    print("the compiled build agrees with the source")
    return 0


if __name__ == "__main__":
    sys.exit(main())

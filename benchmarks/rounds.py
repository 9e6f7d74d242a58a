"""What every speed benchmark shares: sides in processes of their own, interleaved rounds, ratios.

A speed figure on a shared machine means something only if it measures what a user gets, so each
benchmark here follows one method (``docs/performance.rst`` describes it):

* **Fresh, distinct work in each repetition.** Every round plays new seeded games (or counts new
  positions); nothing is replayed, so no table or cache built by an earlier repetition serves a
  later one.
* **Each side in its own process.** A side is one build or library run by one interpreter: the
  polydraughts Python source (``source``), the compiled build (``compiled``, an interpreter
  whose environment has the mypyc wheel installed), py-draughts and pydraughts (each in a virtual
  environment of its own, since all of them import as ``draughts``), dame-rs (a Rust International
  engine, in its own environment too), and, for an A/B of two
  versions, another source tree (``baseline``). Each measurement starts a new process, so one
  side's warm tables never serve another's, nor the next round's.
* **Interleaved rounds.** Round after round, every side runs once (in an order that rotates), so a
  burst of load from other work meets all sides alike; the figures are the **median and the
  range** over the rounds of each round's ratio (or rate), never the best of a few.

The peers' interpreters come from an option or an environment variable (``--py-draughts-python`` or
``PY_DRAUGHTS_PYTHON``, ``--pydraughts-python`` or ``PYDRAUGHTS_PYTHON``, ``--dame-rs-python`` or
``DAME_RS_PYTHON``, ``--compiled-python`` or ``POLYDRAUGHTS_COMPILED_PYTHON``); without either,
``~/.cache/polydraughts-bench/<name>`` is used if it holds an environment (``--install-peers``
creates the peers' there). A side asked for but
missing is said so, loudly, and left out of the table.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import venv
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "src"
CACHE = Path.home() / ".cache" / "polydraughts-bench"

# What the peers' environments install (``--install-peers``).
PEERS = {"py-draughts": "py-draughts==1.10.1", "pydraughts": "pydraughts==0.6.7", "dame-rs": "dame-rs==0.2.0"}
# The option and the environment variable naming each side's interpreter.
VARIABLES = {
    "compiled": "POLYDRAUGHTS_COMPILED_PYTHON",
    "py-draughts": "PY_DRAUGHTS_PYTHON",
    "pydraughts": "PYDRAUGHTS_PYTHON",
    "dame-rs": "DAME_RS_PYTHON",
}


class Side(NamedTuple):
    """One build or library, run by ``python`` with ``pythonpath`` (None: the environment's own install)."""

    name: str
    python: Path
    pythonpath: Path | None = None

    @property
    def polydraughts(self) -> bool:
        """Whether this side is a build of polydraughts (rather than a peer library)."""
        return self.name in ("source", "compiled", "baseline")


def add_options(parser: argparse.ArgumentParser, *, rounds: int = 5) -> None:
    """The options every benchmark takes: rounds and where each side's interpreter is."""
    parser.add_argument("--rounds", type=int, default=rounds, help=f"interleaved rounds (default {rounds})")
    parser.add_argument("--seed", type=int, default=1, help="seed of round 1; round r uses seed + r - 1")
    parser.add_argument(
        "--compiled-python",
        type=Path,
        help=f"an interpreter with the compiled wheel installed (or ${VARIABLES['compiled']})",
    )
    parser.add_argument(
        "--py-draughts-python", type=Path, help=f"py-draughts 1.10.1's interpreter (or ${VARIABLES['py-draughts']})"
    )
    parser.add_argument(
        "--pydraughts-python", type=Path, help=f"pydraughts 0.6.7's interpreter (or ${VARIABLES['pydraughts']})"
    )
    parser.add_argument("--dame-rs-python", type=Path, help=f"dame-rs 0.2.0's interpreter (or ${VARIABLES['dame-rs']})")
    parser.add_argument(
        "--install-peers",
        action="store_true",
        help=f"create the peers' virtual environments under {CACHE} when missing (pip install)",
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        metavar="SRC",
        help="also run another polydraughts source tree (its src folder) as the side 'baseline' (an A/B)",
    )


def check_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse option values no run can use."""
    if args.rounds < 1:
        parser.error(f"--rounds {args.rounds} must be at least 1")


def _python_in(home: Path) -> Path:
    return home / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")


def _install_peer(name: str) -> Path:
    home = CACHE / name
    print(f"creating {home} with {PEERS[name]} ...", file=sys.stderr, flush=True)
    venv.EnvBuilder(with_pip=True, clear=True).create(home)
    python = _python_in(home)
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", PEERS[name]], check=True)
    return python


def find_side(name: str, args: argparse.Namespace) -> Side | None:
    """The side ``name`` as the options, the environment or the cache name it; None (said) if missing."""
    if name == "source":
        return Side("source", Path(sys.executable), SOURCE)
    if name == "baseline":
        return Side("baseline", Path(sys.executable), args.baseline.resolve()) if args.baseline else None
    option = getattr(args, f"{name.replace('-', '_')}_python")
    given = option or os.environ.get(VARIABLES[name])
    python = Path(given) if given else _python_in(CACHE / name)
    if not python.exists() and given is None and name in PEERS and args.install_peers:
        python = _install_peer(name)
    if python.exists():
        return Side(name, python)
    where = f"{python} does not exist" if given else f"no {python}"
    how = f"--{name}-python PATH or ${VARIABLES[name]}"
    if name in PEERS:
        how += f" (a venv with pip install {PEERS[name]}), or --install-peers"
    else:
        how += " (a venv with HATCH_BUILD_HOOK_ENABLE_MYPYC=1 pip install .)"
    print(f"MISSING side {name!r}: {where}; pass {how}. Its columns are left out.", file=sys.stderr, flush=True)
    return None


def wanted_sides(args: argparse.Namespace, peers: Sequence[str]) -> list[str]:
    """The sides a run asks for: the source always; another install of polydraughts (``compiled``,
    named for the former mypyc build) only when its interpreter is named; the baseline when given;
    ``peers`` with ``--compare``."""
    names = ["source"]
    if args.compiled_python or os.environ.get(VARIABLES["compiled"]):
        names.append("compiled")
    if args.baseline:
        names.append("baseline")
    return names + (list(peers) if args.compare else [])


def find_sides(names: Iterable[str], args: argparse.Namespace) -> list[Side]:
    """The sides among ``names`` that can run (each missing one said on stderr)."""
    return [side for side in (find_side(name, args) for name in names) if side is not None]


def run_worker(side: Side, script: str, job: dict[str, Any]) -> dict[str, Any]:
    """Run ``script`` in a new process of ``side``, ``job`` on its stdin; its last stdout line, as JSON.

    The process starts in an empty directory with only ``side``'s ``PYTHONPATH``, so no other
    ``draughts`` package can be imported. A polydraughts side's answer must say which build ran
    (``"compiled"``), and it must be the side's.
    """
    return _run(side, script, job, ())[0]


def count_instructions(side: Side, script: str, job: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """:func:`run_worker` under ``valgrind --tool=callgrind``: the answer and the instructions the
    whole process ran (Python's start and imports included). The count is the same from one run to
    the next whatever the machine's load, so two versions compare on a loaded machine where a time
    cannot; it counts work, not time (caches and branch prediction are not in it)."""
    with tempfile.TemporaryDirectory() as scratch:
        prefix = ("valgrind", "--tool=callgrind", f"--callgrind-out-file={Path(scratch) / 'callgrind.out'}")
        result, stderr = _run(side, script, job, prefix, {"PYTHONHASHSEED": "0"})
    counts = [line.rpartition(":")[2] for line in stderr.splitlines() if "Collected :" in line]
    if not counts:
        raise RuntimeError(f"side {side.name}: no instruction count from valgrind:\n{stderr[-2000:]}")
    return result, int(counts[-1].replace(",", ""))


def _run(
    side: Side, script: str, job: dict[str, Any], prefix: Sequence[str], extra: dict[str, str] | None = None
) -> tuple[dict[str, Any], str]:
    """:func:`run_worker`'s process, its command after ``prefix`` (a wrapper such as valgrind) and
    with ``extra`` in its environment: the answer and the process's standard error."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"} | (extra or {})
    if side.pythonpath is not None:
        env["PYTHONPATH"] = str(side.pythonpath)
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "worker.py"
        path.write_text(script, encoding="utf-8")
        done = subprocess.run(
            [*prefix, str(side.python), str(path)],
            input=json.dumps(job),
            capture_output=True,
            text=True,
            cwd=scratch,
            env=env,
        )
    if done.returncode != 0:
        raise RuntimeError(f"side {side.name} ({side.python}) failed:\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result, done.stderr


def interleave(
    rounds: int, jobs: Sequence[str], run: Callable[[str, int], dict[str, Any]], *, progress: bool = True
) -> dict[str, list[dict[str, Any]]]:
    """Run every job once per round, rounds one after the other, the jobs' order rotating each round.

    ``run(job, round)`` measures one job in round ``round`` (from 0); the answer maps each job to
    its results, one per round in round order.
    """
    results: dict[str, list[dict[str, Any]]] = {job: [] for job in jobs}
    for number in range(rounds):
        shift = number % len(jobs)
        for job in (*jobs[shift:], *jobs[:shift]):
            results[job].append(run(job, number))
        if progress:
            print(f"  round {number + 1}/{rounds} done", file=sys.stderr, flush=True)
    return results


class Spread(NamedTuple):
    """The median and the range of some figures (one per round)."""

    median: float
    low: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        return cls(statistics.median(values), min(values), max(values))

    def text(self, unit: str = "x", digits: int = 2) -> str:
        """``1.62x (1.51-1.70x)``, or with ``unit=""`` and ``digits=0`` a rate ``61,000 (58,000-63,000)``."""
        if digits == 0:
            return f"{self.median:,.0f} ({self.low:,.0f}-{self.high:,.0f})"
        return f"{self.median:.{digits}f}{unit} ({self.low:.{digits}f}-{self.high:.{digits}f}{unit})"


def ratios(ours: Sequence[float], theirs: Sequence[float]) -> Spread:
    """The spread of the per-round ratios ``ours[r] / theirs[r]`` (the same round's figures)."""
    return Spread.of([a / b for a, b in zip(ours, theirs, strict=True)])


def build_text(sides: Sequence[Side], results: dict[str, list[dict[str, Any]]]) -> str:
    """One line per side saying what ran: build, version, interpreter."""
    lines = []
    for side in sides:
        first = next((found[0] for job, found in results.items() if job.startswith(side.name) and found), None)
        if first is None:
            continue
        what = f"{first.get('library', side.name)} {first.get('version', '?')}"
        if side.polydraughts:
            what += f", native core {(first.get('native') or {}).get('profile', 'not built')}"
        lines.append(
            f"  {side.name}: {what}; {side.python}" + (f" with PYTHONPATH={side.pythonpath}" if side.pythonpath else "")
        )
    return "\n".join(lines)

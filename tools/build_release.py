"""Build the release files, the sdist and one abi3 wheel, each installed and checked.

The wheel holds the native core (``draughts._native``, the binding crate ``native/python`` built by
maturin in release mode) beside the Python source; it is an abi3 wheel, so the one file serves
every CPython from 3.10 on its platform (``cp310-abi3``), tagged ``manylinux`` on Linux by
maturin's own check of the symbols it links. This script makes both from the checkout:

1. the sdist (``maturin sdist``), checked to hold the Python source, both crates with
   ``Cargo.lock``, the tests' data and no built extension;
2. the wheel, built by ``maturin build --release`` from that sdist unpacked (so a file the sdist
   lacks fails here rather than for a user), checked to be ``abi3`` and to hold the extension.

Then it installs the wheel, and the sdist (pip builds it, as a user without a matching wheel
would), each into a new virtual environment, and checks there that ``draughts._native`` imports
and is a release build of the package's version, that perft of the International start position
through the binding and through ``draughts.perft`` matches the published counts, and that the
command line's main job runs. It needs a Rust toolchain (rustc, cargo); maturin comes from PyPI.

Usage::

    python tools/build_release.py --out dist    # the two files into dist/

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
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Published International perft from the start position, depths 1-5 (tests/data/perft.json: Aart Bik).
INTERNATIONAL_PERFT = [9, 81, 658, 4265, 27117]

_CHECK = r"""
import sys
import draughts
from draughts import _native
from draughts._core.native import native_rules
from draughts.perft import perft
expected = [int(count) for count in sys.argv[2].split(",")]
start = draughts.Position.initial("international")
native = native_rules(start.ruleset)
counts = [native.perft(native.start(), depth) for depth in range(1, len(expected) + 1)]
python = [perft(start, depth) for depth in range(1, len(expected) + 1)]
if counts != expected or python != expected:
    raise SystemExit(f"perft native {counts}, Python {python} != published {expected}")
info = _native.build_info()
if info["profile"] != "release" or info["version"] != draughts.__version__ or draughts.NATIVE != info:
    raise SystemExit(f"the {sys.argv[1]} install runs {info} (draughts {draughts.__version__})")
print(f"  {sys.argv[1]}: {info}, perft 1-{len(counts)} as published, {_native.__file__}")
"""


def run(command: list[str], env: dict[str, str] | None = None, cwd: Path | None = None) -> None:
    print("$", " ".join(command), flush=True)
    subprocess.run(command, check=True, env=env, cwd=cwd)


def venv_python(directory: Path) -> Path:
    run([sys.executable, "-m", "venv", str(directory)])
    return directory / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def check_sdist(sdist: Path) -> None:
    with tarfile.open(sdist) as archive:
        names = archive.getnames()
    root = names[0].split("/")[0]
    needed = (
        "pyproject.toml",
        "src/draughts/__init__.py",
        "native/python/Cargo.toml",
        "native/core/src/lib.rs",
        "native/Cargo.lock",
    )
    for name in needed:
        if not any(found == f"{root}/{name}" or found.startswith(f"{root}/{name}/") for found in names):
            raise SystemExit(f"the sdist {sdist.name} holds no {name}")
    if any(name.endswith((".so", ".pyd")) for name in names):
        raise SystemExit(f"the sdist {sdist.name} holds a built extension")


def check_wheel_file(wheel: Path) -> None:
    if "-abi3-" not in wheel.name:
        raise SystemExit(f"the wheel {wheel.name} is not an abi3 wheel")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    if not any(name.startswith("draughts/_native.") for name in names):
        raise SystemExit(f"the wheel {wheel.name} holds no draughts/_native extension")


def build_wheel(builder: Path, sdist: Path, dist: Path, work: Path) -> Path:
    """The release wheel, built by maturin from ``sdist`` unpacked."""
    with tarfile.open(sdist) as archive:
        archive.extractall(work / "unpacked", filter="data")
    (source,) = (work / "unpacked").iterdir()
    maturin = builder.parent / ("maturin.exe" if os.name == "nt" else "maturin")
    run([str(maturin), "build", "--release", "--out", str(dist)], cwd=source)
    (wheel,) = dist.glob("polydraughts-*.whl")
    check_wheel_file(wheel)
    return wheel


def check_install(target: Path, kind: str, work: Path) -> None:
    python = venv_python(work / f"venv-{kind}")
    run([str(python), "-m", "pip", "install", "--quiet", str(target)])
    perft = ",".join(map(str, INTERNATIONAL_PERFT))
    subprocess.run([str(python), "-c", _CHECK, kind, perft], check=True, cwd=work)
    draughts = python.parent / ("draughts.exe" if os.name == "nt" else "draughts")
    done = subprocess.run([str(draughts), "compare", "italian", "american"], capture_output=True, text=True)
    if done.returncode or "italian" not in done.stdout:
        raise SystemExit(f"'draughts compare italian american' failed from the {kind}:\n{done.stderr}")


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
        run([str(builder), "-m", "pip", "install", "--quiet", "maturin>=1.9,<2.0"])
        maturin = builder.parent / ("maturin.exe" if os.name == "nt" else "maturin")
        run([str(maturin), "sdist", "--out", str(dist)], cwd=ROOT)
        (sdist,) = dist.glob("polydraughts-*.tar.gz")
        check_sdist(sdist)
        wheel = build_wheel(builder, sdist, dist, work)
        print(f"{sdist.name}\n{wheel.name}")
        check_install(wheel, "wheel", work)
        check_install(sdist, "sdist", work)
        for path in (sdist, wheel):
            shutil.copy(path, out)
    print(f"release files in {out}, each checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())

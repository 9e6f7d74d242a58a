"""The package as built: its one runtime dependency, the native extension and the release tools."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import draughts

ROOT = Path(__file__).resolve().parents[2]


def test_the_native_extension_is_a_release_build_of_this_version() -> None:
    """``pip install .`` and ``pip install -e .`` build ``draughts._native`` in release mode (a
    debug build runs the suite and the benchmarks many times slower), from the crate whose version
    is the package's."""
    native = pytest.importorskip("draughts._native", reason="the native extension is not built")
    info = native.build_info()
    assert info == draughts.NATIVE
    assert info["profile"] == "release"
    assert info["version"] == native.__version__ == draughts.__version__
    cargo = (ROOT / "native" / "python" / "Cargo.toml").read_text(encoding="utf-8")
    assert re.search(r'^version = "([^"]+)"', cargo, re.MULTILINE)[1] == draughts.__version__  # type: ignore[index]
    start = draughts.Position.initial("international")
    from draughts._core.native import native_rules

    assert native_rules(start.ruleset).perft(native_rules(start.ruleset).start(), 5) == 27117


def test_maturin_builds_the_package_which_depends_on_attrs_alone() -> None:
    """The build backend is maturin with the binding crate, the Python source beside it, one abi3
    wheel for every Python from 3.10; no mypyc hook is left; the package still depends on attrs
    alone."""
    tomllib = pytest.importorskip("tomllib")  # the standard library's from Python 3.11 (CI's)
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert [dependency.split(">")[0] for dependency in config["project"]["dependencies"]] == ["attrs"]
    assert config["build-system"]["build-backend"] == "maturin"
    maturin = config["tool"]["maturin"]
    assert maturin["manifest-path"] == "native/python/Cargo.toml"
    assert maturin["python-source"] == "src"
    assert maturin["module-name"] == "draughts._native"
    assert maturin["profile"] == "release"
    assert "hatch" not in config.get("tool", {})
    assert 'features = ["abi3-py310"]' in (ROOT / "native" / "python" / "Cargo.toml").read_text(encoding="utf-8")


def test_the_release_tools_check_against_the_published_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """``tools/build_release.py``'s perft check uses the published International counts."""
    monkeypatch.syspath_prepend(str(ROOT / "tools"))
    import build_release

    published = json.loads((ROOT / "tests" / "data" / "perft.json").read_text(encoding="utf-8"))
    dedup = published["variants"]["international"]["dedup"]
    assert [dedup[str(depth)] for depth in range(1, 6)] == build_release.INTERNATIONAL_PERFT

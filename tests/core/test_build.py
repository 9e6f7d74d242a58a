"""The package as built: its one runtime dependency, the compiled build, and the release tools."""

from __future__ import annotations

import json
import types
from pathlib import Path

import pytest

import draughts

ROOT = Path(__file__).resolve().parents[2]


def test_compiled_says_whether_the_generator_is_an_extension() -> None:
    """``draughts.COMPILED`` agrees with what the generator's functions are: Python functions from
    the source, builtins from mypyc's extension (the compiled-build check runs this too)."""
    from draughts._core import build_move_generator as generator

    assert isinstance(draughts.COMPILED, bool)
    assert draughts.COMPILED is not isinstance(generator, types.FunctionType)


def test_the_engine_runs_the_same_build_as_the_generator() -> None:
    """The engine's search and evaluation come from the same build as the generator (both builds
    run the one evaluation: nothing is generated for the interpreter)."""
    import draughts.engine
    from draughts.engine.evaluation import Evaluation
    from draughts.engine.search import Searcher

    assert draughts.COMPILED is not isinstance(Searcher.search, types.FunctionType)
    assert draughts.COMPILED is not isinstance(Evaluation.evaluate, types.FunctionType)
    evaluation = draughts.engine.weights._evaluation(draughts.get_variant("russian"), draughts.engine.Weights())
    assert isinstance(evaluation, Evaluation)


def test_the_compiled_build_is_opt_in_and_compiles_only_the_core() -> None:
    """The mypyc hook is off unless asked for, compiles only ``draughts._core`` modules and the
    engine's per-node search beside them, and the package still depends on attrs alone."""
    tomllib = pytest.importorskip("tomllib")  # the standard library's from Python 3.11 (CI's)
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert [dependency.split(">")[0] for dependency in config["project"]["dependencies"]] == ["attrs"]
    hook = config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["mypyc"]
    assert hook["enable-by-default"] is False
    assert hook["include"]
    for path in hook["include"]:
        assert path.startswith("src/draughts/_core/") or path in (
            "src/draughts/engine/search.py",
            "src/draughts/engine/evaluation.py",
        )
        assert (ROOT / path).is_file()


def test_the_release_tools_check_what_the_build_compiles_against_the_published_counts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``tools/build_release.py`` and ``tools/compiled_check.py`` look for every module the hook
    compiles, and the release's perft check uses the published International counts."""
    tomllib = pytest.importorskip("tomllib")
    monkeypatch.syspath_prepend(str(ROOT / "tools"))
    import build_release
    import compiled_check

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    hook = config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["mypyc"]
    included = [path.removeprefix("src/draughts/").removesuffix(".py") for path in hook["include"]]
    assert sorted(included) == sorted(compiled_check.COMPILED_MODULES)
    published = json.loads((ROOT / "tests" / "data" / "perft.json").read_text(encoding="utf-8"))
    dedup = published["variants"]["international"]["dedup"]
    assert [dedup[str(depth)] for depth in range(1, 6)] == build_release.INTERNATIONAL_PERFT

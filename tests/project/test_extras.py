"""The ``test`` extra installs everything the tests import or run, under every marker.

``pip install -e ".[test]"`` then ``pytest -m browser`` (or ``-m slow``) must not stop on a missing
module: a test that needs a package either gets it from the extra or says why it skips. This checks
the first, from the source: every third-party module the test files import (at the top or inside a
function) and every module they run with ``python -m`` belongs to a distribution the extra asks for.
"""

from __future__ import annotations

import ast
import importlib.metadata
import itertools
import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TESTS = REPO / "tests"
PROJECT = "polydraughts"


def _name(requirement: str) -> str:
    """The normalized distribution name of a requirement string (``"httpx2>=2.0; ..."`` gives ``httpx2``)."""
    return re.split(r"[\s<>=!~;\[]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def extra_distributions(extra: str) -> set[str]:
    """The distributions ``polydraughts[extra]`` asks for, its ``polydraughts[...]`` entries followed."""
    tomllib = pytest.importorskip("tomllib")  # the standard library's from Python 3.11 (CI's)
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras: dict[str, list[str]] = project["optional-dependencies"]
    found = {_name(requirement) for requirement in project["dependencies"]}
    todo, seen = [extra], set()
    while todo:
        name = todo.pop()
        seen.add(name)
        for requirement in extras[name]:
            if _name(requirement) == PROJECT:
                inner = requirement[requirement.index("[") + 1 : requirement.index("]")]
                todo += [item.strip() for item in inner.split(",") if item.strip() not in seen]
            else:
                found.add(_name(requirement))
    return found


def used_modules(source: str) -> set[str]:
    """The top-level modules a test file imports (anywhere in it) or runs as ``python -m module``."""
    tree = ast.parse(source)
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.add(node.module.split(".")[0])
        elif isinstance(node, ast.List | ast.Tuple):
            items = [item.value for item in node.elts if isinstance(item, ast.Constant)]
            modules |= {str(after).split(".")[0] for before, after in itertools.pairwise(items) if before == "-m"}
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "importorskip":
            return modules | {"<importorskip>"}  # a file that skips with its reason is allowed to
    return modules


def test_used_modules_finds_imports_and_dash_m_runs() -> None:
    source = "import os, selenium.webdriver\nfrom hypothesis import given\ndef f():\n    import numpy\n"
    source += "cmd = [sys.executable, '-m', 'sphinx', '-b', 'html']\n"
    assert used_modules(source) == {"os", "selenium", "hypothesis", "numpy", "sphinx"}


def test_extra_distributions_follow_self_references() -> None:
    found = extra_distributions("test")
    assert {"pytest", "hypothesis", "selenium", "numpy", "gymnasium", "pettingzoo", "attrs"} <= found


def test_the_test_extra_installs_every_module_the_tests_use() -> None:
    wanted = extra_distributions("test")
    local = {path.stem for path in TESTS.rglob("*.py")} | {"draughts", "conftest"}
    owners = importlib.metadata.packages_distributions()
    missing = []
    for path in sorted(TESTS.rglob("*.py")):
        modules = used_modules(path.read_text(encoding="utf-8"))
        if "<importorskip>" in modules:
            continue
        for module in sorted(modules - local - set(sys.stdlib_module_names) - {"__future__"}):
            distributions = {name.lower().replace("_", "-") for name in owners.get(module, [module])}
            if not distributions & wanted:
                missing.append(f"{path.relative_to(REPO)}: {module} (from {', '.join(sorted(distributions))})")
    assert missing == [], "add these to the test extra in pyproject.toml"

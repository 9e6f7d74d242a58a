"""The repository's own texts: what they cite exists, and the API reference is split per module."""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

PUBLIC_MODULES = (
    "draughts",
    "draughts.board",
    "draughts.engine",
    "draughts.hub",
    "draughts.notation",
    "draughts.pdn",
    "draughts.perft",
    "draughts.position",
    "draughts.rules",
    "draughts.svg",
    "draughts.rules.variants",
)


def test_no_source_or_test_cites_a_markdown_file_that_is_not_in_the_repository() -> None:
    """Rules are cited from their texts (FMJD, FID, WCDF...), never from notes a reader cannot open."""
    cited = re.compile(r"\b([A-Z][A-Z_]+\.md)\b")
    dangling = []
    for path in sorted([*(REPO / "src").rglob("*.py"), *(REPO / "tests").rglob("*.py")]):
        if path.resolve() == Path(__file__).resolve():
            continue  # this test names the pattern
        for name in set(cited.findall(path.read_text(encoding="utf-8"))):
            if not (REPO / name).exists() and not (path.parent / name).exists():
                dangling.append(f"{path.relative_to(REPO)}: {name}")
    assert dangling == []


@pytest.mark.slow
def test_api_reference_has_a_page_per_public_module_and_no_giant_page(tmp_path: Path) -> None:
    """The API reference was once one 590 KB page whose sidebar listed only ``draughts``."""
    subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-b", "html", str(REPO / "docs"), str(tmp_path)], check=True, timeout=900
    )
    missing = [name for name in PUBLIC_MODULES if not (tmp_path / "api" / f"{name}.html").exists()]
    assert missing == []
    index = (tmp_path / "api.html").read_text(encoding="utf-8")
    assert [name for name in PUBLIC_MODULES if f'href="api/{name}.html"' not in index] == []
    assert [page.name for page in (tmp_path / "api").glob("*._*.html")] == []  # no private module pages
    sizes = {page.relative_to(tmp_path).as_posix(): page.stat().st_size for page in tmp_path.rglob("*.html")}
    assert {name: size for name, size in sizes.items() if size > 400_000} == {}


def test_no_text_cites_a_rules_document_that_is_not_in_the_repository() -> None:
    """``RULES §10`` once cited the notes of a session, a file no reader of the repository has."""
    cited = re.compile(r"\bRULES §\s*\d+")
    texts = [*(REPO / "src").rglob("*.py"), *(REPO / "docs").rglob("*.rst"), REPO / "README.md"]
    found = [f"{path.relative_to(REPO)}" for path in texts if cited.search(path.read_text(encoding="utf-8"))]
    assert found == []


def _subcommands() -> argparse._SubParsersAction[argparse.ArgumentParser]:
    from draughts import cli

    (subparsers,) = [action for action in cli._parser()._actions if isinstance(action, argparse._SubParsersAction)]
    return subparsers


def test_the_readme_lists_every_command() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    (line,) = [line for line in readme.splitlines() if line.startswith("* **Command line:**")]
    listed = re.findall(r"[a-z]+", line.split("`draughts", 1)[1].split("`", 1)[0])
    assert sorted(listed) == sorted(_subcommands().choices), "README.md's command list must name every command"


_NUMBERS = {
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}


def test_counts_of_variants_in_words_are_the_real_counts() -> None:
    """``draughts overview --help`` said "the eight variants" while it printed eighteen rows."""
    import draughts
    from draughts.rules import variants

    said = re.search(r"The (\w+) named variants", (variants.__doc__ or "").splitlines()[0])
    assert said is not None
    assert _NUMBERS[said.group(1)] == len(draughts.VARIANTS)
    (overview,) = [str(choice.help) for choice in _subcommands()._choices_actions if choice.dest == "overview"]
    wrong = [word for word, number in _NUMBERS.items() if re.search(rf"\b{word} variants\b", overview)]
    assert [word for word in wrong if _NUMBERS[word] != len(draughts.VARIANTS)] == []


# --- the internal interface: private names stay in their module ----------------------------------

SRC = REPO / "src" / "draughts"


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _defined_names(tree: ast.Module) -> set[str]:
    """The private names a module defines: at module level, in its classes, and as ``self._x``."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isidentifier():
            names.add(node.value)  # slots and attributes named in strings (__slots__, setattr)
    return {name for name in names if _is_private(name)}


def _family(module: str) -> str:
    """The subpackage a module belongs to (its modules may share private names), or the module itself."""
    package = module.rpartition(".")[0]
    return package if package not in ("", "draughts") else module


def _foreign_modules(tree: ast.Module) -> set[str]:
    """Names bound by ``import x`` of modules outside the package (``os._exit`` is not ours)."""
    return {
        (alias.asname or alias.name).partition(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
        if not alias.name.startswith("draughts")
    }


def _crossings() -> list[str]:
    """Each use of a private name defined in another module of the package (outside the bridge)."""
    trees = {_module_name(path): ast.parse(path.read_text(encoding="utf-8")) for path in sorted(SRC.rglob("*.py"))}
    owners: dict[str, set[str]] = {}
    for module, tree in trees.items():
        for name in _defined_names(tree):
            owners.setdefault(name, set()).add(_family(module))
    found = []
    for module, tree in trees.items():
        foreign = _foreign_modules(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _is_private(node.attr) and node.attr in owners:
                base = node.value.id if isinstance(node.value, ast.Name) else None
                if base in ("self", "cls") or base in foreign or _family(module) in owners[node.attr]:
                    continue
                found.append(f"{module}:{node.lineno} uses .{node.attr}")
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("draughts"):
                source = str(node.module)
                for alias in node.names:
                    if not _is_private(alias.name) or f"{source}.{alias.name}" in trees:
                        continue  # a private module (draughts._core) is imported whole
                    if _family(source) != _family(module):
                        found.append(f"{module}:{node.lineno} imports {source}.{alias.name}")
    return sorted(found)


def test_private_names_are_used_only_in_their_module() -> None:
    """What other modules use of a position's bitboards and of the generator goes through the
    position's documented low-level members (issue 39 §4; once a module, ``_bridge``, with a
    registration hook): no module reaches into another's private names."""
    assert _crossings() == []


def test_the_private_name_scan_sees_what_it_checks() -> None:
    """The scan knows the names a position keeps private."""
    position = _defined_names(ast.parse((SRC / "position.py").read_text(encoding="utf-8")))
    assert {"_white", "_black", "_kings", "_state", "_gen", "_key", "_legal_moves"} <= position
    assert _family("draughts.pdn.replay") == "draughts.pdn"
    assert _family("draughts.board") == "draughts.board"

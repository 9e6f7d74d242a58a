"""The repository's own texts: what they cite exists, and the API reference is split per module."""

from __future__ import annotations

import argparse
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
    "draughts.variants",
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


_NUMBERS = {"seven": 7, "eight": 8, "nine": 9, "ten": 10, "sixteen": 16, "seventeen": 17, "eighteen": 18}


def test_counts_of_variants_in_words_are_the_real_counts() -> None:
    """``draughts overview --help`` said "the eight variants" while it printed eighteen rows."""
    import draughts
    from draughts import variants

    said = re.search(r"The (\w+) named variants", (variants.__doc__ or "").splitlines()[0])
    assert said is not None
    assert _NUMBERS[said.group(1)] == len(draughts.VARIANTS)
    (overview,) = [str(choice.help) for choice in _subcommands()._choices_actions if choice.dest == "overview"]
    wrong = [word for word, number in _NUMBERS.items() if re.search(rf"\b{word} variants\b", overview)]
    assert [word for word in wrong if _NUMBERS[word] != len(draughts.VARIANTS)] == []

"""The repository's own texts: what they cite exists, and the API reference is split per module."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

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

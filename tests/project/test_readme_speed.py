"""README's speed claims are those of what ``pip install .`` gives, and docs/performance.rst says
the same (issue 40 §12): one truth, measured as a user installs it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def section(text: str, start: str, end: str) -> str:
    return text[text.index(start) : text.index(end, text.index(start))]


def test_readme_speed_is_the_default_installs_and_the_docs_agree() -> None:
    readme = section((ROOT / "README.md").read_text(encoding="utf-8"), "## Speed", "\n## ")
    assert "What `pip install .` gives runs the native core (`draughts.NATIVE`" in readme
    assert "short of the" not in readme  # the per-move sentence once contradicted docs/performance.rst
    docs = (ROOT / "docs" / "performance.rst").read_text(encoding="utf-8")
    default = section(docs, "What ``pip install .`` gives", "How the benchmarks measure").replace("**", "")
    assert "``draughts.NATIVE`` names that build" in default
    table = [line for line in readme.splitlines() if line.startswith("| ") and "py" in line]
    ratios = [cell for line in table for cell in re.findall(r"[\d,.]+x(?: \([\d,.]+-[\d,.]+x\))?", line)]
    assert len(ratios) >= 9, table
    for ratio in ratios:
        assert ratio in default, f"README's {ratio} is not in docs/performance.rst's default-install table"
    date = re.search(r"Measured on (\d{4}-\d{2}-\d{2}) as a user installs it", readme)
    assert date is not None
    assert f"Measured on {date.group(1)}" in default

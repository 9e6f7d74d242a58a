"""The README's two set-up commands are exactly the ones CI runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_readme_starts_with_the_two_commands_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```bash\n(.*?)```", readme, re.S)
    assert block is not None
    assert readme.index("```bash") < readme.index("\n## ")  # the first section
    commands = block.group(1).strip().splitlines()
    assert len(commands) == 2
    assert "[test]" in commands[1]
    assert "pytest" in commands[1]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    for command in commands:
        assert command in ci


def test_readme_example_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's Python example runs as written from a clone, on the PDN file it names (issue 23 §14)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    code = re.findall(r"```python\n(.*?)```", readme, re.S)[0]
    named = re.findall(r'"([^"]+\.pdn)"', code)
    assert named, "the example reads a PDN file"
    for path in named:
        assert (ROOT / path).is_file(), f"README names {path}, which does not ship"
    monkeypatch.chdir(ROOT)
    exec(compile(code, "README.md", "exec"), {})

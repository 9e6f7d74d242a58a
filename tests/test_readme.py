"""The README's two set-up commands are exactly the ones CI runs."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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


def test_readme_example_runs(tmp_path: Path) -> None:
    """The README's Python example runs as written (its PDN file is a sample game here)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    code = re.findall(r"```python\n(.*?)```", readme, re.S)[0]
    sample = ROOT / "tests" / "data" / "games" / "czech"
    games = tmp_path / "games.pdn"
    games.write_bytes(sorted(sample.iterdir())[0].read_bytes())
    code = code.replace('"games.pdn"', repr(str(games)))
    exec(compile(code, "README.md", "exec"), {})

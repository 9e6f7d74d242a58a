"""``draughts serve``: the real command in a subprocess, naming rulesets, and the missing extra."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import urllib.request
from pathlib import Path

import pytest

import draughts
from draughts.cli import main
from draughts.rules.files import resolve_ruleset
from draughts.web.rulesets import RulesetRegistry

SCRIPT = Path(sys.executable).parent / "draughts"


def test_resolve_ruleset() -> None:
    assert resolve_ruleset("shashki") is draughts.get_variant("russian")
    assert resolve_ruleset("english-nfc").name == "american-nfc"
    assert resolve_ruleset("25").name == "russian"
    assert resolve_ruleset("draughts.rules.variants:ITALIAN") is draughts.get_variant("italian")
    assert resolve_ruleset("draughts.rules:variants.ITALIAN") is draughts.get_variant("italian")  # a dotted attribute
    italian = draughts.get_variant("italian")
    assert resolve_ruleset(italian) is italian
    for spec, quoted in (
        ("nowhere", "nowhere"),
        ("no_such_module_xyz:RULES", "no_such_module_xyz"),
        ("draughts.rules.variants:NOPE", "NOPE"),
        ("draughts:VARIANTS", "mappingproxy"),
        ("draughts.rules.variants:ITALIAN:x", "module:attribute"),
        ("os.path:join()", "module:attribute"),
    ):
        with pytest.raises(draughts.UnknownVariantError) as caught:
            resolve_ruleset(spec)
        assert quoted in str(caught.value)


def test_registry_names() -> None:
    pool = draughts.Ruleset(name="my-pool", title="Pool", first_to_move=draughts.BLACK)
    registry = RulesetRegistry([pool])
    assert registry.get("MY-POOL") is pool
    assert registry.get("my-pool-nfc") == draughts.no_forced_capture(pool)
    assert registry.get("dama") is draughts.get_variant("italian")
    assert registry.is_custom(pool)
    assert not registry.is_custom(draughts.get_variant("czech-nfc"))
    assert [rules.name for rules in registry.menu()][-2:] == ["my-pool", "my-pool-nfc"]
    with pytest.raises(draughts.UnknownVariantError, match="my-spool"):
        registry.get("my-spool")
    with pytest.raises(draughts.UnknownVariantError, match="cannot import"):
        registry.get("draughts.rules.variants:ITALIAN")
    with pytest.raises(draughts.UnknownVariantError, match="not a name"):
        registry.get(7)
    with pytest.raises(draughts.UnknownVariantError, match="takes the name"):
        RulesetRegistry([pool, draughts.Ruleset(name="my-pool", title="Another pool")])


def test_import_draughts_loads_no_web_code() -> None:
    code = (
        "import sys, draughts; print(sorted(m for m in sys.modules"
        " if m.split('.')[0] in ('starlette', 'uvicorn') or m.startswith('draughts.web')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_serve_without_the_extra(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    for name in [name for name in sys.modules if name.startswith("draughts.web.") and name != "draughts.web.rulesets"]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert 'pip install "polydraughts[web]"' in err


def test_serve_help_and_bad_arguments() -> None:
    assert SCRIPT.exists(), f"the console script {SCRIPT} is not installed (pip install -e .)"
    help_text = subprocess.run([str(SCRIPT), "serve", "--help"], capture_output=True, text=True, check=True).stdout
    for option in ("--host", "--port", "--open", "VARIANT"):
        assert option in help_text.replace("variant", "VARIANT")
    bad = subprocess.run([str(SCRIPT), "serve", "checkerz"], capture_output=True, text=True, timeout=60, check=False)
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1
    assert "checkerz" in bad.stderr
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = str(taken.getsockname()[1])
        busy = subprocess.run(
            [str(SCRIPT), "serve", "--port", port], capture_output=True, text=True, timeout=60, check=False
        )
    assert busy.returncode == 2
    assert busy.stderr.count("\n") == 1
    assert f"127.0.0.1:{port}" in busy.stderr


def test_serve_a_custom_ruleset(tmp_path: Path) -> None:
    """``draughts serve module:attribute`` on any free port: the board opens that ruleset; Ctrl+C stops it."""
    (tmp_path / "my_rules.py").write_text(
        textwrap.dedent(
            """
            import attrs
            import draughts

            POOL = attrs.evolve(draughts.get_variant("brazilian"), name="my-pool", title="Pool checkers", precedence=())
            """
        ),
        encoding="utf-8",
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    server = subprocess.Popen(
        [str(SCRIPT), "serve", "my_rules:POOL", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert "http://127.0.0.1:" in line, line
        url = line.split(": ", 1)[1].split()[0]
        with urllib.request.urlopen(url + "api/variants", timeout=30) as response:
            listing = json.load(response)
        assert listing["default"] == "my-pool"
        assert {"my-pool": True, "my-pool-nfc": True}.items() <= {
            v["name"]: v["custom"] for v in listing["variants"]
        }.items()
        with urllib.request.urlopen(url, timeout=30) as response:
            page = response.read().decode()
        assert "<title>Pool checkers — polydraughts</title>" in page
        assert page.count('data-piece="black-man"') == 12
        server.send_signal(signal.SIGINT)
        assert server.wait(timeout=30) == 0
        assert "stopped" in server.stdout.read()
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def test_the_docs_example_needs_only_the_web_extra() -> None:
    """docs/web.rst's example runs without httpx (the web extra does not install it): run its
    ``>>>`` examples with httpx and httpx2 made unimportable."""
    page = Path(__file__).resolve().parents[2] / "docs" / "web.rst"
    code = (
        "import doctest, sys\n"
        "sys.modules['httpx'] = sys.modules['httpx2'] = None  # not installed, as with only the web extra\n"
        f"failed, tried = doctest.testfile({str(page)!r}, module_relative=False, optionflags=doctest.ELLIPSIS)\n"
        "print(failed, tried)\n"
        "sys.exit(1 if failed or not tried else 0)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert done.stdout.split()[-2:][0] == "0"

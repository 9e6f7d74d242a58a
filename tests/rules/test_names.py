"""The one resolver of "which ruleset?" (draughts.resolve_ruleset) through every entry point.

Each form a user may name a ruleset by -- a Ruleset, a name, an alias, transform suffixes, a PDN
GameType, a ruleset file and ``module:attribute`` (a module in the current directory too) -- is
tried through the library, the ``draughts`` commands, the web board and the Hub; and hostile
names (hundreds of transform suffixes) end in a clear error, never a RecursionError.
"""

from __future__ import annotations

import io
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import draughts
from draughts import UnknownVariantError, get_variant, pdn, resolve_ruleset
from draughts.hub.server import _Server
from draughts.web.rulesets import RulesetRegistry

SCRIPT = Path(sys.executable).parent / "draughts"
HOSTILE = "russian" + "-nfc" * 330  # 1,327 characters: a RecursionError in get_variant before


def run(*args: str, expect: int = 0, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The real console script (its sys.path does not hold the current directory)."""
    done = subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, timeout=120, check=False, cwd=cwd)
    assert done.returncode == expect, (done.returncode, done.stdout, done.stderr)
    return done


@pytest.fixture
def module_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A module ``my_rules_here`` in the current directory, which is not on sys.path."""
    (tmp_path / "my_rules_here.py").write_text(
        textwrap.dedent(
            """
            import attrs
            import draughts
            RULES = attrs.evolve(draughts.get_variant("brazilian"), name="my-pool-here", title="Mine", precedence=())
            """
        ),
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [entry for entry in sys.path if entry not in ("", str(tmp_path))])
    yield tmp_path
    sys.modules.pop("my_rules_here", None)


@pytest.fixture
def ruleset_file(tmp_path: Path) -> Path:
    path = tmp_path / "italian-copy.toml"
    draughts.save_ruleset(get_variant("italian"), path)
    return path


FORMS = [
    ("shashki", "russian"),  # alias
    ("Russian", "russian"),  # name
    ("english-nfc", "american-nfc"),  # suffix on an alias
    ("russian-nfc-losing", "russian-nfc-losing"),  # two suffixes
    ("no forced capture russian", "russian-nfc"),  # the prefix form
    ("25", "russian"),  # GameType number
    ("20,W,10,10,N2,0", "international"),  # full GameType
    ("25-nfc", "russian-nfc"),  # a GameType with a suffix
    ("draughts.rules.variants:ITALIAN", "italian"),  # module:attribute
    ("draughts.rules:variants.CZECH", "czech"),  # a dotted attribute
]


@pytest.mark.parametrize(("spec", "name"), FORMS)
def test_resolve_ruleset_accepts_every_form(spec: str, name: str) -> None:
    assert resolve_ruleset(spec).name == name


def test_resolve_ruleset_files_rulesets_and_the_current_directory(ruleset_file: Path, module_here: Path) -> None:
    italian = get_variant("italian")
    assert resolve_ruleset(italian) is italian
    assert resolve_ruleset(str(ruleset_file)) == italian
    assert resolve_ruleset(ruleset_file) == italian  # a PathLike
    assert resolve_ruleset("my_rules_here:RULES").name == "my-pool-here"
    assert str(module_here) not in sys.path  # the directory was on the path for that import only
    with pytest.raises(UnknownVariantError, match="cannot read the file"):
        resolve_ruleset(module_here / "missing.json")
    with pytest.raises(UnknownVariantError, match=r"not a draughts\.Ruleset"):
        resolve_ruleset("my_rules_here:attrs")


def test_the_web_and_hub_names_go_through_the_one_resolver(monkeypatch: pytest.MonkeyPatch) -> None:
    """The web's registry and the Hub's declared names add only their own names, and ask the one
    resolver for every other (it once re-exported it under its own module path too)."""
    from draughts.hub import variant_names
    from draughts.rules import files
    from draughts.web import rulesets

    assert "resolve_ruleset" not in rulesets.__all__
    asked = []

    def counting(spec: object, *, trusted: bool = True) -> draughts.Ruleset:
        asked.append((spec, trusted))
        return draughts.get_variant("russian")

    monkeypatch.setattr(rulesets, "resolve_ruleset", counting)
    monkeypatch.setattr(variant_names, "resolve_ruleset", counting)
    assert rulesets.RulesetRegistry().get("shashki").name == "russian"
    assert variant_names.variant_named("shashki", {}).name == "russian"
    assert asked == [("shashki", False), ("shashki", False)]
    assert files.resolve_ruleset is draughts.resolve_ruleset


@pytest.mark.parametrize("spec", ["draughts.rules.variants:ITALIAN", "rules.toml", "/etc/passwd.json", "os:system"])
def test_untrusted_text_is_names_only(spec: str) -> None:
    with pytest.raises(UnknownVariantError, match="only names are accepted"):
        resolve_ruleset(spec, trusted=False)
    assert resolve_ruleset("russian-nfc", trusted=False).name == "russian-nfc"
    with pytest.raises(UnknownVariantError, match="cannot import"):
        RulesetRegistry().get(spec if ":" in spec else "x:y")
    with pytest.raises(UnknownVariantError):
        RulesetRegistry().get(spec)


def test_untrusted_never_imports(monkeypatch: pytest.MonkeyPatch) -> None:
    imported: list[str] = []
    real = __import__("importlib").import_module
    monkeypatch.setattr("importlib.import_module", lambda name, *a: imported.append(name) or real(name, *a))
    for spec in ("draughts.rules.variants:ITALIAN", "json:loads"):
        with pytest.raises(UnknownVariantError):
            RulesetRegistry().get(spec)
    assert imported == []


def test_every_command_takes_module_attribute_and_a_module_here(module_here: Path, ruleset_file: Path) -> None:
    # perft refused module:attribute before (24 §5): `draughts perft draughts.rules.variants:ITALIAN 2`.
    assert "perft(2) = 49" in run("perft", "draughts.rules.variants:ITALIAN", "2").stdout
    assert "perft(2) = 49" in run("perft", str(ruleset_file), "2").stdout
    assert "perft(2) = 49" in run("perft", "22", "2").stdout
    # A module in the current directory: the console script does not put it on sys.path.
    out = run("rules", "my_rules_here:RULES", cwd=module_here).stdout
    assert "Mine" in out or "my-pool-here" in out
    assert run("moves", "my_rules_here:RULES", cwd=module_here).stdout.split()  # the opening moves
    assert run("show", "my_rules_here:RULES", cwd=module_here).stdout
    compared = run("compare", "my_rules_here:RULES", "draughts.rules.variants:ITALIAN", cwd=module_here).stdout
    assert "Mine" in compared or "my-pool-here" in compared
    failed = run("perft", "no_such_module_here:RULES", "2", expect=2, cwd=module_here)
    assert "cannot import" in failed.stderr
    assert "Traceback" not in failed.stderr


def test_hub_takes_every_form_from_its_command_line_and_names_from_the_wire(module_here: Path) -> None:
    done = subprocess.run(
        [str(SCRIPT), "hub", "--variant", "my_rules_here:RULES"],
        input="hub\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        cwd=module_here,
    )
    assert "my-pool-here" in done.stdout
    out = io.StringIO()
    server = _Server("draughts.rules.variants:ITALIAN", out)  # the Python API is a trusted caller
    assert server.rules is get_variant("italian")
    for value in ("draughts.rules.variants:RUSSIAN", "rules.toml", "russian-nfc-losing"):
        server.handle(f"set-param name=variant value={value}")
    errors = [line for line in out.getvalue().splitlines() if line.startswith("error")]
    assert len(errors) == 2, errors
    assert all("only names are accepted" in line for line in errors), errors
    assert server.rules.name == "russian-nfc-losing"


# --- 23 §23: names are taken apart in a loop, and bounded ---


def test_get_variant_never_recurses_on_a_long_name() -> None:
    with pytest.raises(UnknownVariantError, match="at most 100 characters"):
        get_variant(HOSTILE)
    with pytest.raises(UnknownVariantError, match="more than 6 transforms"):
        get_variant("russian" + "-nfc" * 7)
    assert get_variant("russian" + "-nfc" * 6).name == "russian-nfc"  # the transforms are idempotent
    with pytest.raises(UnknownVariantError, match="at most 100 characters"):
        resolve_ruleset(HOSTILE, trusted=False)


def test_the_recursion_limit_is_not_what_stops_a_name() -> None:
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(120)  # far below what 330 recursive suffixes needed
    try:
        assert get_variant("nfc-" + "russian-nfc-losing-breakthrough").name == "russian-nfc-losing-breakthrough"
    finally:
        sys.setrecursionlimit(limit)


def test_hostile_names_through_the_commands() -> None:
    for args in (("rules", HOSTILE), ("moves", HOSTILE), ("perft", HOSTILE, "2")):
        failed = run(*args, expect=2)
        assert "at most 100 characters" in failed.stderr
        assert "Traceback" not in failed.stderr
    done = subprocess.run(
        [str(SCRIPT), "hub", "--variant", HOSTILE], input="", capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2
    assert "at most 100 characters" in done.stderr
    assert "Traceback" not in done.stderr


def test_hostile_name_through_hub_set_param() -> None:
    out = io.StringIO()
    server = _Server("international", out)
    assert server.handle(f"set-param name=variant value={HOSTILE}")
    assert server.handle("ping")
    lines = out.getvalue().splitlines()
    assert "internal error" not in out.getvalue()
    assert any(line.startswith("error") and "at most 100 characters" in line for line in lines), lines
    assert lines[-1] == "pong"


def test_hostile_base_of_a_ruleset_file(tmp_path: Path) -> None:
    path = tmp_path / "hostile.toml"
    path.write_text(f'base = "{HOSTILE}"\nname = "mine"\n', encoding="utf-8")
    with pytest.raises(UnknownVariantError, match="at most 100 characters"):
        draughts.load_ruleset(path)


def test_hostile_variant_tag_in_pdn() -> None:
    with pytest.raises(draughts.PDNError, match="names no known ruleset"):
        pdn.parse_game(f'[Variant "{HOSTILE}"]\n1. c3-d4 *')


def test_perft_depth_is_bounded() -> None:
    position = draughts.Position.from_fen("russian", "W:Wc3:Bf6")
    with pytest.raises(draughts.DraughtsError, match="deeper than 200"):
        draughts.perft(position, 2000)
    with pytest.raises(draughts.DraughtsError, match="deeper than 200"):
        draughts.divide(position, 2000)
    with pytest.raises(draughts.DraughtsError, match="must be a non-negative"):
        draughts.perft(position, -(10**5000))  # quoted without converting 5,000 digits
    failed = run("perft", "russian", "2000", "--fen", "W:Wc3:Bf6", expect=2)
    assert "deeper than 200" in failed.stderr
    assert "Traceback" not in failed.stderr

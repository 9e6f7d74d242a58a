"""``draughts pdn`` run as a user runs it: pipes, ``-``, and exit statuses that say when games failed.

Before the hardening issue (its items 4 and 9) a pipe read 0 games and every run exited 0, even
for a README, a binary file or a file of illegal moves.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import DATA

SCRIPT = Path(sys.executable).parent / "draughts"
GAMES = DATA / "games"
INTERNATIONAL = GAMES / "international" / "pdn-standard-kurnik.pdn"  # 4 games, GameType 20
ENGLISH = GAMES / "english" / "checkerboard-tinsley-excerpt.pdn"  # no GameType: American checkers


def run(*args: str, stdin: bytes | None = None, module: bool = False) -> subprocess.CompletedProcess[str]:
    assert SCRIPT.exists(), f"the console script {SCRIPT} is not installed (pip install -e .)"
    command = [sys.executable, "-m", "draughts"] if module else [str(SCRIPT)]
    done = subprocess.run([*command, *args], input=stdin, capture_output=True, timeout=120, check=False)
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(), done.stderr.decode())


def test_a_good_file_exits_0() -> None:
    done = run("pdn", str(INTERNATIONAL))
    assert done.returncode == 0, done
    assert done.stdout == f"{INTERNATIONAL}: 4 games read, every move legal (535 moves; international: 4)\n"
    assert done.stderr == ""


@pytest.mark.parametrize("module", [False, True], ids=["script", "python -m"])
def test_dash_reads_standard_input(module: bool) -> None:
    done = run("pdn", "-", stdin=INTERNATIONAL.read_bytes(), module=module)
    assert done.returncode == 0, done
    assert done.stdout.startswith("standard input: 4 games read, every move legal (535 moves")


def test_dev_stdin_from_a_pipe() -> None:
    if not Path("/dev/stdin").exists():
        pytest.skip("no /dev/stdin")
    done = run("pdn", "/dev/stdin", stdin=INTERNATIONAL.read_bytes())
    assert done.returncode == 0, done
    assert "4 games read" in done.stdout  # was: 0 games read, every move legal, exit 0


def test_cat_into_a_pipe_and_process_substitution() -> None:
    bash = shutil.which("bash")
    if bash is None or not Path("/dev/fd").exists():
        pytest.skip("needs bash and /dev/fd")
    script = f'cat "{INTERNATIONAL}" | "{SCRIPT}" pdn /dev/stdin && "{SCRIPT}" pdn <(cat "{INTERNATIONAL}")'
    done = subprocess.run([bash, "-c", script], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done
    assert done.stdout.count(": 4 games read, every move legal (535 moves") == 2


def test_latin1_through_a_pipe() -> None:
    text = '[White "François Müller"]\n[GameType "20"]\n1. 32-28 *\n'
    done = run("pdn", "-", stdin=text.encode("latin-1"))
    assert done.returncode == 0, done


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (lambda tmp: Path(__file__).resolve().parents[2] / "README.md", "games skipped:"),
        (lambda tmp: _binary(tmp), "skipped"),
        (lambda tmp: _illegal(tmp), "move '19-93'"),
        (lambda tmp: ENGLISH, "3 games skipped:"),  # no GameType: American guessed, 3 games have illegal moves
        (lambda tmp: _empty(tmp), "no game found"),
    ],
    ids=["readme", "binary", "illegal", "english-guessed", "empty"],
)
def test_games_that_fail_exit_1(tmp_path: Path, make: object, says: str) -> None:
    path = make(tmp_path)  # type: ignore[operator]
    done = run("pdn", str(path))
    assert done.returncode == 1, done
    assert says in done.stdout
    assert "Traceback" not in done.stderr


def test_errors_raise_stops_at_the_first_bad_game_with_status_1() -> None:
    done = run("pdn", str(ENGLISH), "--errors", "raise")
    assert done.returncode == 1, done
    assert done.stdout.startswith(f"{ENGLISH}: 5 games read, every move legal (251 moves; american: 5)\n")
    assert done.stderr.startswith("draughts pdn: error: game 6 (White 'M Tinsley'")
    assert "ply 123" in done.stderr  # the error of American, where the moves go furthest
    assert done.stderr.count("\n") == 1


def test_the_right_variant_passes_and_a_contradicting_one_fails() -> None:
    assert run("pdn", str(ENGLISH), "--variant", "american").returncode == 1  # games 6, 9, 12 are bad
    english = run("pdn", str(GAMES / "english" / "pdn-standard-principles-of-strategy.pdn"), "--variant", "american")
    assert english.returncode == 0, english
    contradicting = run("pdn", str(INTERNATIONAL), "--variant", "russian")
    assert contradicting.returncode == 1
    assert "the GameType tag contradicts ruleset='russian'" in contradicting.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("pdn", "/no/such/file.pdn"),
        ("pdn", str(INTERNATIONAL), "--variant", "chess"),
        ("pdn", str(INTERNATIONAL), "--encoding", "no-such-codec"),
        ("pdn", str(INTERNATIONAL), "--errors", "ignore"),
    ],
    ids=["missing", "variant", "encoding", "errors"],
)
def test_a_check_that_cannot_run_exits_2(args: tuple[str, ...]) -> None:
    done = run(*args)
    assert done.returncode == 2, done
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr


def test_help_says_the_default_is_to_skip_and_what_each_status_means() -> None:
    out = run("pdn", "--help").stdout
    assert "skip (the default)" in out
    assert "- reads standard input" in out
    for line in ("0  every game was read", "1  a game could not be read", "2  the check could not run"):
        assert line in out


def _binary(tmp: Path) -> Path:
    path = tmp / "noise.bin"
    path.write_bytes(bytes(random.Random(7).randrange(256) for _ in range(20_000)))
    return path


def _illegal(tmp: Path) -> Path:
    path = tmp / "illegal.pdn"
    path.write_text('[Event "x"]\n1. 32-28 19-93 *\n\n[Event "y"]\n1. 32-28 *\n', encoding="utf-8")
    return path


def _empty(tmp: Path) -> Path:
    path = tmp / "empty.pdn"
    path.write_text("", encoding="utf-8")
    return path


RUSSIAN = GAMES / "russian"


def test_files_without_gametype_read_under_the_variant_their_moves_fit() -> None:
    """Issue 23 §8: ``draughts pdn tests/data/games/russian/*.pdn`` said "no game read" for 4 of 5 files."""
    files = sorted(str(path) for path in RUSSIAN.glob("*.pdn"))
    done = run("pdn", *files)
    lines = done.stdout.splitlines()
    assert [line for line in lines if "no game read" in line] == []
    assert "total: 5 files, 36 games read, every move legal (2,038 moves; russian: 36)" in lines
    assert any(line.endswith("guessed from the moves (pass --variant to say which)") for line in lines)
    assert done.returncode == 1  # the one game with unknown moves ("1. -") is still skipped, with the hint
    assert "pass its rules as ruleset= (draughts pdn --variant NAME)" in done.stdout


def test_one_file_says_its_variant_was_guessed() -> None:
    done = run("pdn", str(RUSSIAN / "games-checkers-russian-test.pdn"))
    assert done.returncode == 0, done
    assert done.stdout.splitlines() == [
        f"{RUSSIAN / 'games-checkers-russian-test.pdn'}: 3 games read, every move legal (210 moves; russian: 3)",
        "3 games without a GameType tag did not read as international: their rules were guessed from the moves "
        "(pass --variant to say which)",
    ]


def test_counts_are_singular_for_one() -> None:
    """Issue 23 §12: "1 games read", "1 games skipped:"."""
    text = '[GameType "20"]\n1. 32-28 *\n\n[GameType "20"]\n1. 32-99 *\n'
    done = run("pdn", "-", stdin=text.encode())
    lines = done.stdout.splitlines()
    assert lines[0] == "standard input: 1 game read, every move legal (1 move; international: 1)"
    assert lines[1] == "1 game skipped:"

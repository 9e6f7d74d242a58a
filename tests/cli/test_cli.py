"""The real ``draughts`` console script, run as a user runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(sys.executable).parent / "draughts"


def run(*args: str, expect: int = 0) -> subprocess.CompletedProcess[str]:
    assert SCRIPT.exists(), f"the console script {SCRIPT} is not installed (pip install -e .)"
    done = subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == expect, (done.returncode, done.stdout, done.stderr)
    return done


def test_help_everywhere() -> None:
    assert "compare" in run("--help").stdout
    for command in ("overview", "variants", "rules", "compare", "moves", "show", "perft", "pdn", "play", "hub"):
        assert "usage: draughts " + command in run(command, "--help").stdout


def test_python_dash_m_is_the_same_tool() -> None:
    done = subprocess.run([sys.executable, "-m", "draughts", "variants"], capture_output=True, text=True, check=True)
    assert done.stdout == run("variants").stdout


def test_variants_lists_names_aliases_and_gametypes() -> None:
    out = run("variants").stdout
    for text in ("italian", "22,W,8,8,N2,1", "shashki", "21,B,8,8,N1,0", "international", "-nfc"):
        assert text in out


def test_overview_counts_perft() -> None:
    out = run("overview", "--depth", "3").stdout
    assert "international" in out
    assert "658" in out
    assert "302" in out


def test_moves_in_the_variant_notation() -> None:
    fen = "W:WKd2:Bc5,e5,c3,e3"  # a cyclic capture: three distinct moves, one of them back to d2
    assert run("moves", "russian", fen).stdout.split() == ["d2:d2", "d2:c1", "d2:e1"]
    long = run("moves", "russian", fen, "--long").stdout.split()
    assert long == ["d2:b4:d6:f4:d2", "d2:b4:d6:f4:c1", "d2:f4:d6:b4:e1"]
    assert run("moves", "italian", "W:WK30:B10,12,18,K20,K26,27").stdout.split() == ["30x5"]


def test_show_text_and_svg(tmp_path: Path) -> None:
    target = tmp_path / "board.svg"
    out = run("show", "american", "--numbers", "--svg", str(target)).stdout
    assert "black to move" in out
    assert target.read_text(encoding="utf-8").startswith("<svg")


def test_perft_plain_divide_and_paths() -> None:
    assert "perft(4) = 4265" in run("perft", "international", "4").stdout
    divided = run("perft", "russian", "3", "--divide").stdout
    assert "c3-d4: " in divided
    assert "perft(3) = 302" in divided
    keep = run("perft", "international", "1", "--fen", "W:WK38:B18,19,32,33", "--paths").stdout
    assert "perft(1) = 6" in keep


def test_errors_are_one_line_and_exit_2() -> None:
    for args in (
        ("moves", "chess"),
        ("moves", "russian", "W:Wz9:B1"),
        ("perft", "american", "-1"),
        ("rules", "shogi"),
        ("pdn", "/no/such/file.pdn"),
    ):
        done = run(*args, expect=2)
        assert done.stdout == ""
        assert done.stderr.count("\n") == 1, done.stderr
        assert "Traceback" not in done.stderr
        assert "error:" in done.stderr


def test_perft_depth_0_counts_one_leaf_as_the_library_does() -> None:
    """Issue 23 §10: ``draughts perft russian 0`` agrees with ``draughts.perft(position, 0)``."""
    import draughts

    expected = draughts.perft(draughts.Position.initial("russian"), 0)
    for extra in ((), ("--divide",), ("--paths",)):
        out = run("perft", "russian", "0", *extra).stdout
        assert out.startswith(f"perft(0) = {expected}   [russian"), out
    assert "must be 0 or more" in run("perft", "russian", "-1", expect=2).stderr


def test_usage_errors_exit_2() -> None:
    done = run("perft", "russian", "deep", expect=2)
    assert "invalid int value" in done.stderr


@pytest.mark.parametrize("fmt", ["text", "markdown", "html"])
def test_compare_formats(fmt: str) -> None:
    out = run("compare", "italian", "american", "--diff", "--format", fmt).stdout
    for row in ("Men may capture kings", "Who starts", "Capture precedence"):
        assert row in out
    assert "Kings move" not in out  # short kings in both: not a difference
    assert {"text": "------", "markdown": "| --- |", "html": "<table"}[fmt].replace(" ", "") in out.replace(" ", "")


def test_compare_moves_side_by_side() -> None:
    """Italian must take with the king, American may choose, Russian's man also captures backward."""
    fen = "W:W18,K20:BK14,15,16,22"
    out = run("compare", "italian", "american", "russian", "--fen", fen, "--fen-variant", "american").stdout
    rows = {line.split()[1]: line.split()[2:] for line in out.splitlines() if line.startswith("* ")}
    assert rows["18x9"] == ["18x9", "d4:b6", "american,", "russian"]
    assert rows["20x11"] == ["17x10", "20x11", "italian,", "american"]
    assert rows["18x25"] == ["d4:b2", "russian"]
    assert "italian plays on an inverted board" in " ".join(out.split())


def test_rules_of_one_variant() -> None:
    out = run("rules", "dama").stdout
    assert "kings met earliest" in out


def test_pdn_summary(tmp_path: Path) -> None:
    game = tmp_path / "game.pdn"
    game.write_text('[GameType "20"]\n[Result "*"]\n1. 32-28 19-23 2. 28x19 14x23 *\n', encoding="utf-8")
    out = run("pdn", str(game)).stdout
    assert "1 game read, every move legal (4 moves; international: 1)" in out  # was: "1 games read"


def test_version() -> None:
    import draughts

    assert run("--version").stdout.strip() == f"draughts (polydraughts {draughts.__version__})"


def test_usage_errors_are_one_line() -> None:
    for args in (["compare"], ["perft", "russian", "x"], ["nosuchcommand"], ["show", "russian", "a", "b"]):
        done = run(*args, expect=2)
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert "error:" in done.stderr
        assert "--help" in done.stderr


def test_compare_needs_two_variants() -> None:
    done = run("compare", "italian", expect=2)
    assert "two or more" in done.stderr
    assert done.stdout == ""


def test_overview_checks_its_depth_before_printing() -> None:
    done = run("overview", "--depth", "-1", expect=2)
    assert done.stdout == ""
    assert "depth -1" in done.stderr


def test_divide_progress_stays_out_of_pipes() -> None:
    done = run("perft", "russian", "3", "--divide")
    assert done.stderr == ""
    assert done.stdout.splitlines()[0] == "a3-b4: 47"


def test_divide_progress_in_a_terminal_is_cleared() -> None:
    import os
    import pty

    primary, secondary = pty.openpty()
    try:
        done = subprocess.run(
            [str(SCRIPT), "perft", "russian", "3", "--divide"],
            stderr=secondary,
            stdout=subprocess.PIPE,
            text=True,
            timeout=60,
            check=True,
        )
        os.close(secondary)
        seen = b""
        while True:
            try:
                chunk = os.read(primary, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(primary)
    assert b"[1/7]" in seen
    assert seen.endswith(b"\r\x1b[K")  # the progress line is wiped, not left behind
    assert done.stdout.splitlines()[0] == "a3-b4: 47"


def test_compare_explains_a_mirrored_diagram() -> None:
    """Issue 23 §6: the note calls Italian's board the inverted one, whichever variant comes first."""
    for first, second in (("italian", "american"), ("american", "italian")):
        out = " ".join(run("compare", first, second, "--fen", "W:W21,22:B9,10").stdout.split())
        assert "italian plays on an inverted board (its near-left corner is a light square" in out
        assert "american plays on an inverted board" not in out
        assert f"the {first} diagram is set up mirrored left to right in {second}" in out


def test_compare_says_whose_start_diagram_has_the_other_side_to_move() -> None:
    """Issue 23 §6: Italian's start diagram, set up in American with White to move, is not American's start."""
    start = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    out = " ".join(run("compare", "italian", "american", "--fen", start).stdout.split())
    assert "american: this is its start diagram, but there black moves first; the moves shown are white's" in out
    assert "italian: this is its start diagram" not in out


def test_compare_fits_the_terminal_width() -> None:
    """Issue 23 §7: COLUMNS=80 gives lines of at most 80 characters, and no blank lines between rows."""
    for args in (
        ("compare", "frisian", "turkish", "killer", "--diff"),
        ("rules", "russian"),
        ("compare", "italian", "american", "russian", "--fen", "W:W18,K20:BK14,15,16,22"),
        ("variants",),
        ("overview", "--depth", "1"),
    ):
        for columns in ("80", "44"):
            done = subprocess.run(
                [str(SCRIPT), *args],
                capture_output=True,
                text=True,
                timeout=120,
                check=True,
                env={**os.environ, "COLUMNS": columns},
            )
            lines = done.stdout.rstrip("\n").splitlines()
            assert max(map(len, lines)) <= int(columns), (args, columns, done.stdout)
            table = lines[: lines.index("")] if "" in lines else lines
            assert "" not in table, (args, columns)
    wide = run("compare", "frisian", "turkish", "killer", "--diff").stdout.splitlines()  # not a terminal: 120
    assert max(map(len, wide)) <= 120


def test_pdn_collection_counts_one_move_in_the_singular(tmp_path: Path) -> None:
    """Issue 23 §12: a file of one game of one move reads "1 game read ... (1 move; ...)"."""
    (tmp_path / "a.pdn").write_text('[GameType "20"]\n\n1. 32-28 *\n', encoding="utf-8")
    (tmp_path / "b.pdn").write_text('[GameType "20"]\n\n1. 32-28 *\n', encoding="utf-8")
    out = run("pdn", str(tmp_path), "--workers", "1").stdout
    assert "a.pdn: 1 game read, every move legal (1 move; international: 1)" in out
    assert "total: 2 files, 2 games read, every move legal (2 moves; international: 2)" in out

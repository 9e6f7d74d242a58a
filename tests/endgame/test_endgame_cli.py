"""``draughts endgame build | probe | stats | compare``."""

from __future__ import annotations

import io
import json
from pathlib import Path

from draughts.cli import main


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(list(argv), out)
    return status, out.getvalue()


def test_build_probe_stats(tmp_path: Path) -> None:
    status, text = run("endgame", "build", "american", "KvK", "--tablebases", str(tmp_path))
    assert status == 0
    assert "1 table built for american" in text
    status, text = run("endgame", "probe", "american", "B:WK29:BK28", "--format", "json", "--tablebases", str(tmp_path))
    assert status == 0
    assert json.loads(text) == {"result": "win", "plies": 11, "within_rules": "win", "best_moves": ["28-24", "28-32"]}
    status, text = run("endgame", "probe", "american", "B:WK1:BK32", "--tablebases", str(tmp_path))
    assert "black to move: draw; within the rules: draw" in text
    status, text = run("endgame", "stats", "american", "KvK", "--tablebases", str(tmp_path))
    assert "black to move: 992 positions, 230 wins, 654 draws, 108 losses; longest win 11 plies" in text
    status, text = run("endgame", "stats", "american", "KvK", "--format", "json", "--tablebases", str(tmp_path))
    assert json.loads(text)["black"]["loss"] == 108


def test_compare_lists_counts_and_differing_positions(tmp_path: Path) -> None:
    status, text = run(
        "endgame", "compare", "russian", "american", "MvK", "--tablebases", str(tmp_path), "--examples", "1"
    )
    assert status == 0
    lines = text.splitlines()
    assert lines[1].split() == ["russian", "868", "67", "262", "539", "3"]
    assert lines[2].split() == ["american", "868", "53", "574", "241", "11"]
    assert "russian: W:Wa1:BKd2 -> loss in 6" in text
    assert "american: B:WK7:B4 -> draw" in text


def test_errors_are_one_line(tmp_path: Path, capsys: object) -> None:
    status, _ = run("endgame", "probe", "american", "B:WK1:BK5,K9", "--tablebases", str(tmp_path))
    assert status == 2
    status, _ = run("endgame", "build", "frisian", "MMvK", "--tablebases", str(tmp_path))
    assert status == 2
    status, _ = run("endgame", "build", "american", "--tablebases", str(tmp_path))
    assert status == 2
    status, _ = run("endgame", "compare", "american", "KvK", "--tablebases", str(tmp_path))
    assert status == 2


def test_directory_option_is_tablebases_as_elsewhere_and_dir_still_works(tmp_path: Path) -> None:
    """The directory is ``--tablebases`` as in ``draughts match``, ``overview`` and ``play``;
    ``--dir``, its first name, names the same directory."""
    status, text = run("endgame", "build", "american", "KvK", "--tablebases", str(tmp_path / "a"))
    assert status == 0
    assert str(tmp_path / "a") in text
    status, text = run("endgame", "stats", "american", "KvK", "--dir", str(tmp_path / "a"))
    assert status == 0
    assert "992 positions, 230 wins" in text
    status, _ = run("endgame", "stats", "american", "KvK", "--dir", str(tmp_path / "b"))
    assert status != 0  # nothing built there: the option is read, not ignored

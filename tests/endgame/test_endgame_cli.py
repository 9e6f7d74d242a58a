"""``draughts endgame build | probe | stats | compare``."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

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
    rows = {line[:29].strip(): line[29:].split() for line in text.splitlines()}
    assert rows["positions"] == ["868", "868"]
    assert rows["won by play alone"] == ["67", "(7.7%)", "53", "(6.1%)"]
    assert rows["lost by play alone"] == ["539", "(62.1%)", "241", "(27.8%)"]
    assert rows["longest win"] == ["3", "plies", "11", "plies"]
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


def test_compare_gives_shares_within_the_rules_and_the_difference(tmp_path: Path) -> None:
    # Issue 40 §3: "three kings against one: a win in Russian, a draw in International?" got raw
    # counts only. Here KKvK, quick to build (KKKvK of International takes minutes).
    from draughts.endgame import Tablebase

    status, text = run("endgame", "compare", "russian", "american", "KKvK", "--tablebases", str(tmp_path))
    assert status == 0
    rows = {line[:29].strip(): line[29:].strip() for line in text.splitlines()}
    figures = {}
    for name in ("russian", "american"):
        tb = Tablebase(name, tmp_path)
        figures[name] = tb.stats("KKvK")[tb.rules.first_to_move.name.lower()]
    rus, ame = figures["russian"], figures["american"]
    won = [f"{f['win']:,} ({f['win'] / f['positions']:.1%})" for f in (rus, ame)]
    assert rows["won by play alone"].split() == " ".join(won).split()
    within = [f"{f['within_rules']['win']:,} ({f['within_rules']['win'] / f['positions']:.1%})" for f in (rus, ame)]
    assert rows["won within the draw rules"].split() == " ".join(within).split()
    points = 100 * (ame["win"] / ame["positions"] - rus["win"] / rus["positions"])
    inner = 100 * (ame["within_rules"]["win"] / ame["positions"] - rus["within_rules"]["win"] / rus["positions"])
    assert (
        rows["difference from russian"].split()
        == f"- won {points:+.1f} points; within the rules {inner:+.1f} points".split()
    )
    status, text = run(
        "endgame", "compare", "russian", "american", "KKvK", "--tablebases", str(tmp_path), "--format", "json"
    )
    data = json.loads(text)
    assert data["material"] == "KKvK"
    assert data["rulesets"]["russian"]["within_rules"] == rus["within_rules"]
    assert data["rulesets"]["american"]["win"] == ame["win"]
    assert all(line["result"] for example in data["differing"] for line in example)


def test_a_missing_table_says_how_to_build_it(tmp_path: Path, capsys: object) -> None:
    # Issue 40 §3: "no table of KKKKvK" did not say what to do.
    status, _ = run("endgame", "stats", "russian", "KKKKvK", "--tablebases", str(tmp_path))
    assert status == 2
    err = capsys.readouterr().err  # type: ignore[attr-defined]
    assert f"draughts endgame build russian KKKKvK --tablebases {tmp_path}" in err


def test_verify_checks_a_sample_against_one_ply_of_minimax(tmp_path: Path, monkeypatch: Any) -> None:
    """``endgame verify``: every built table's sample agrees with its children; a table whose
    values are wrong (one material's wins read as draws) is caught, named and exits 1."""
    from draughts.endgame.codes import DRAW, WIN
    from draughts.endgame.table import Table

    assert run("endgame", "build", "russian", "MKvK", "--tablebases", str(tmp_path))[0] == 0
    status, text = run("endgame", "verify", "russian", "--tablebases", str(tmp_path), "--sample", "40")
    assert status == 0
    lines = text.splitlines()
    assert lines[-1] == "4 materials: 320 of 320 positions agree"  # MKvK and the 3 tables it needs
    assert any(line.startswith("MKvK: 80 of 80 positions agree") for line in lines), text
    status, text = run(
        "endgame", "verify", "russian", "MKvK", "--tablebases", str(tmp_path), "--sample", "40", "--format", "json"
    )
    (checked,) = json.loads(text)
    assert (checked["positions"], checked["agree"]) == (80, 80)
    assert checked["wins"]  # a mix, not a sample of one kind
    assert checked["draws"]

    value = Table.value

    def wrong(self: Table, white: int, black: int, kings: int, turn: int) -> tuple[int, int]:
        code, plies = value(self, white, black, kings, turn)
        return (DRAW, 0) if self.material.name == "MKvK" and code == WIN else (code, plies)

    monkeypatch.setattr(Table, "value", wrong)
    status, text = run("endgame", "verify", "russian", "MKvK", "--tablebases", str(tmp_path), "--sample", "40")
    assert status == 1
    assert "disagrees: " in text
    assert "MKvK: 80 of 80" not in text
    assert run("endgame", "verify", "russian", "--tablebases", str(tmp_path / "empty"))[0] == 2
    assert run("endgame", "verify", "russian", "MKvK", "--tablebases", str(tmp_path), "--sample", "0")[0] == 2

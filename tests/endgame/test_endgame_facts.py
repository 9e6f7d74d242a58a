"""Comparison rows from the tables: kings needed to beat a lone king, won shares (``draughts compare --tablebases``)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from draughts.cli import main
from draughts.compare import rules_table
from draughts.endgame import Tablebase
from draughts.endgame.facts import NO_KINGS, kings_needed


def test_comparison_rows_come_from_the_built_tables(tmp_path: Path) -> None:
    american, russian = Tablebase("american", tmp_path), Tablebase("russian", tmp_path)
    american.build("KKvK")
    russian.build("KvK")
    table = rules_table(["american", "russian"], tablebases=tmp_path)
    stats = american.stats("KKvK")["black"]  # Black moves first in American checkers
    share = stats["win"] / stats["positions"]
    assert share > 0.5
    assert table.row("tablebase_kings_needed").cells == (f"2 ({share:.1%} of KKvK won)", "not built (KKvK)")
    kvk = american.stats("KvK")["black"]
    assert table.row("tablebase_won_KvK").cells == (
        f"{kvk['win'] / kvk['positions']:.1%}",
        f"{russian.stats('KvK')['white']['win'] / russian.stats('KvK')['white']['positions']:.1%}",
    )
    assert table.row("tablebase_won_KKKvK").cells == ("not built", "not built")
    assert "tablebase_kings_needed" not in rules_table(["american", "russian"])  # no directory: rules only


def test_draughts_compare_prints_the_table_rows(tmp_path: Path) -> None:
    Tablebase("american", tmp_path).build("KvK")
    out = io.StringIO()
    assert main(["compare", "american", "russian", "--tablebases", str(tmp_path)], out=out) == 0
    text = out.getvalue()
    assert "Kings needed to beat a lone king (tables)" in text
    assert "KvK won, first player to move (tables)" in text


def test_overview_gains_columns_from_the_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    american, russian = Tablebase("american", tmp_path), Tablebase("russian", tmp_path)
    american.build("KKvK")
    russian.build("KvK")
    monkeypatch.setenv("COLUMNS", "400")  # one line per variant
    out = io.StringIO()
    assert main(["overview", "--depth", "1", "--tablebases", str(tmp_path)], out=out) == 0
    lines = out.getvalue().splitlines()

    def cells(line: str) -> list[str]:
        return re.split(r"\s{2,}", line.strip())

    assert cells(lines[0])[-5:] == ["kings to beat K", "KvK won", "KKvK won", "KKKvK won", "MvK won"]
    rows = {cells(line)[0]: cells(line) for line in lines[2:20]}

    def share(tb: Tablebase, material: str) -> str:
        side = tb.stats(material)[tb.rules.first_to_move.name.lower()]
        return f"{side['win'] / side['positions']:.1%}"

    assert kings_needed(american) == f"2 ({share(american, 'KKvK')} of KKvK won)"
    assert rows["american"][-5:] == [
        f"2 ({share(american, 'KKvK')} of KKvK won)",
        share(american, "KvK"),
        share(american, "KKvK"),
        "not built",
        "not built",
    ]
    assert rows["russian"][-5:] == ["not built (KKvK)", share(russian, "KvK"), "not built", "not built", "not built"]
    assert rows["international"][-5:] == ["not built"] * 5
    assert rows["breakthrough"][-5:] == [NO_KINGS] * 5  # the first king ends the game: no table of kings
    assert f"Tables: {tmp_path}" in out.getvalue().replace("\n", " ")
    plain = io.StringIO()
    assert main(["overview", "--depth", "1"], out=plain) == 0
    assert "kings to beat K" not in plain.getvalue()


def test_overview_refuses_a_missing_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["overview", "--depth", "1", "--tablebases", str(tmp_path / "nowhere")]) == 2
    assert "nowhere" in capsys.readouterr().err

"""Comparison rows from the tables: kings needed to beat a lone king, won shares (``draughts compare --tablebases``)."""

from __future__ import annotations

import io
from pathlib import Path

from draughts.cli import main
from draughts.compare import rules_table
from draughts.endgame import Tablebase


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

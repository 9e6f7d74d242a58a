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
    kvk_russian = russian.stats("KvK")["white"]
    short = f"more than 1 (KvK: {kvk_russian['win'] / kvk_russian['positions']:.1%} won); KKvK not built"
    assert table.row("tablebase_kings_needed").cells == (f"2 (KKvK: {share:.1%} won)", short)
    kvk = american.stats("KvK")["black"]
    assert table.row("tablebase_won_KvK").cells == (
        f"{kvk['win'] / kvk['positions']:.1%}",
        f"{russian.stats('KvK')['white']['win'] / russian.stats('KvK')['white']['positions']:.1%}",
    )
    assert table.row("tablebase_won_KKKvK").cells == ("not built", "not built")
    assert "tablebase_kings_needed" not in rules_table(["american", "russian"])  # no directory: rules only


def test_draughts_compare_prints_the_table_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "400")  # one line per row: the labels are read whole below
    Tablebase("american", tmp_path).build("KvK")
    out = io.StringIO()
    assert main(["compare", "american", "russian", "--tablebases", str(tmp_path)], out=out) == 0
    text = out.getvalue()
    assert "Fewest kings that win from 90% of positions against a lone king (tables)" in text
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

    assert cells(lines[0])[-6:] == [
        "kings to win 90% vs K",
        "kings to win all vs K",
        "KvK won",
        "KKvK won",
        "KKKvK won",
        "MvK won",
    ]
    rows = {cells(line)[0]: cells(line) for line in lines[2:20]}

    def share(tb: Tablebase, material: str) -> str:
        side = tb.stats(material)[tb.rules.first_to_move.name.lower()]
        return f"{side['win'] / side['positions']:.1%}"

    assert kings_needed(american) == f"2 (KKvK: {share(american, 'KKvK')} won)"
    assert rows["american"][-6:] == [
        f"2 (KKvK: {share(american, 'KKvK')} won)",
        f"more than 2 (KKvK: {share(american, 'KKvK')} won); KKKvK not built",
        share(american, "KvK"),
        share(american, "KKvK"),
        "not built",
        "not built",
    ]
    short = f"more than 1 (KvK: {share(russian, 'KvK')} won); KKvK not built"
    assert rows["russian"][-6:] == [
        short,
        short,
        share(russian, "KvK"),
        "not built",
        "not built",
        "not built",
    ]
    assert rows["international"][-6:] == ["not built"] * 6
    assert rows["breakthrough"][-6:] == [NO_KINGS] * 6  # the first king ends the game: no table of kings
    assert f"Tables: {tmp_path}" in out.getvalue().replace("\n", " ")
    plain = io.StringIO()
    assert main(["overview", "--depth", "1"], out=plain) == 0
    assert "kings to win" not in plain.getvalue()


def test_overview_refuses_a_missing_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["overview", "--depth", "1", "--tablebases", str(tmp_path / "nowhere")]) == 2
    assert "nowhere" in capsys.readouterr().err


class _Tables:
    """Tables whose KvK, KKvK and KKKvK first-player won shares are given (the issue's figures)."""

    def __init__(self, name: str, shares: dict[str, tuple[int, int]]) -> None:
        from draughts.rules.names import get_variant

        self.rules = get_variant(name)
        self.shares = shares

    def stats(self, material: str) -> dict[str, dict[str, int]]:
        from draughts.endgame import TablebaseError

        if material not in self.shares:
            raise TablebaseError(f"no table of {material}")
        wins, positions = self.shares[material]
        side = {"positions": positions, "win": wins, "draw": positions - wins, "loss": 0, "longest_win": 9}
        return {self.rules.first_to_move.name.lower(): side}


def test_kings_needed_does_not_call_91_and_53_percent_alike() -> None:
    # Issue 40 §3: "kings needed to beat a lone king: 3 / 3" for 91.9% of Russian KKKvK won
    # against 52.8% of International's: the threshold was "more than half".
    russian = _Tables("russian", {"KvK": (2, 10), "KKvK": (378, 1000), "KKKvK": (132_240, 143_840)})
    international = _Tables("international", {"KvK": (2, 10), "KKvK": (330, 1000), "KKKvK": (486_444, 921_200)})
    assert kings_needed(russian) == "3 (KKKvK: 91.9% won)"  # type: ignore[arg-type]
    assert kings_needed(international) == "more than 3 (KKKvK: 52.8% won); KKKKvK not built"  # type: ignore[arg-type]
    assert kings_needed(russian, 1.0) == "more than 3 (KKKvK: 91.9% won); KKKKvK not built"  # type: ignore[arg-type]


def test_compare_tablebases_defaults_to_the_cache_and_a_missing_one_warns_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 40 §3: --tablebases had no default, and a missing directory printed "not built" in
    # every cell.
    cache = tmp_path / "cache"
    monkeypatch.setenv("DRAUGHTS_TABLEBASES", str(cache))
    monkeypatch.setenv("COLUMNS", "400")  # one line per row: the labels are read whole below
    out = io.StringIO()
    assert main(["compare", "american", "russian", "--tablebases"], out=out) == 0
    err = capsys.readouterr().err
    assert err.count("no endgame tables") == 1
    assert "draughts endgame build american KKKvK" in err
    assert "not built" not in out.getvalue()
    assert "(tables)" not in out.getvalue()  # the rules only
    Tablebase("american", cache).build("KKvK")  # what `draughts endgame build` fills by default
    out = io.StringIO()
    assert main(["compare", "american", "russian", "--tablebases"], out=out) == 0
    assert "no endgame tables" not in capsys.readouterr().err
    assert "KKvK won, first player to move (tables)" in out.getvalue()
    out = io.StringIO()
    assert main(["compare", "american", "russian", "--tablebases", str(tmp_path / "nowhere")], out=out) == 0
    assert capsys.readouterr().err.count("is not a directory") == 1

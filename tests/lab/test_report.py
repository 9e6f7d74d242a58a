"""The side-by-side report: one table with tests against the first ruleset, CSV, and SVG plots
whose content (bars, curves, intervals) is read back with xml.etree."""

from __future__ import annotations

import csv
import io
import json
import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from draughts.errors import DraughtsError
from draughts.lab import RulesetMetrics, run_lab
from draughts.lab.plots import (
    FILES,
    branching_curves,
    curve_points,
    histogram,
    length_histograms,
    nice_ticks,
    score_plot,
    write_plots,
)
from draughts.lab.report import compare, holm, normal_p, table_csv, table_text
from draughts.lab.stats import Estimate

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def figures() -> dict[str, RulesetMetrics]:
    return run_lab(["russian", "russian-nfc"], 60, seed=4, max_plies=200)


def test_holm_matches_the_step_down_by_hand() -> None:
    # p sorted: 0.01 (x3 = 0.03), 0.02 (x2 = 0.04), 0.04 (x1 = 0.04, monotone)
    assert holm([0.04, 0.01, 0.02]) == pytest.approx([0.04, 0.03, 0.04])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])  # capped at 1
    assert holm([]) == []


def test_normal_p_reads_the_standard_error_from_the_interval() -> None:
    a = Estimate(1.0, 1.0 - 1.959963984540054, 1.0 + 1.959963984540054, 10)  # se 1
    b = Estimate(0.0, 0.0, 0.0, 10)  # se 0
    assert normal_p(a, b) == pytest.approx(math.erfc(1 / math.sqrt(2)))  # z = 1: p = 0.3173
    clipped = Estimate(1.0, a.low, 1.0, 10)  # clipped at its upper bound: the wider half counts
    assert normal_p(clipped, b) == pytest.approx(normal_p(a, b))
    assert normal_p(b, b) is None


def test_no_forced_capture_differs_and_the_table_marks_it(figures: dict[str, RulesetMetrics]) -> None:
    comparison = compare(figures)
    assert comparison.rulesets == ("russian", "russian-nfc")
    plies = comparison.row("plies_mean")
    assert plies.test == "Welch (normal)"
    assert plies.cells[0].p is None
    assert not plies.cells[0].significant
    assert plies.cells[1].significant
    assert plies.cells[1].p_holm is not None
    assert plies.cells[1].p_holm < 0.05
    draws = comparison.row("draw_rate")
    assert draws.test == "two-proportion z"
    assert draws.cells[1].value == figures["russian-nfc"].draw_rate.value
    assert comparison.tests == sum(row.cells[1].p is not None for row in comparison.rows)
    with pytest.raises(DraughtsError, match="drama"):
        comparison.row("drama")  # random players: no evaluation rows
    text = table_text(comparison)
    header, games = text.splitlines()[:2]
    assert header.split() == ["metric", "russian", "russian-nfc"]
    assert games.split() == ["games", "60", "60"]
    line = next(line for line in text.splitlines() if line.startswith("plies_mean"))
    assert line.rstrip().endswith("*")
    assert line.count("[") == 2
    assert "Holm-corrected" in text
    assert f"{comparison.tests} tests" in text


def test_the_same_rules_twice_show_no_significant_difference() -> None:
    a = run_lab(["russian"], 60, seed=1, max_plies=200)["russian"]
    b = run_lab(["russian"], 60, seed=2, max_plies=200)["russian"]
    comparison = compare({"one": a, "two": b})
    assert comparison.tests > 10
    assert not any(cell.significant for row in comparison.rows for cell in row.cells)


def test_csv_has_a_line_per_metric_and_ruleset(figures: dict[str, RulesetMetrics]) -> None:
    comparison = compare(figures)
    rows = list(csv.DictReader(io.StringIO(table_csv(comparison))))
    assert len(rows) == 2 * len(comparison.rows)
    by = {(r["metric"], r["ruleset"]): r for r in rows}
    nfc = by[("plies_mean", "russian-nfc")]
    assert float(nfc["value"]) == pytest.approx(figures["russian-nfc"].plies_mean.value)
    assert float(nfc["low"]) == pytest.approx(figures["russian-nfc"].plies_mean.low)
    assert nfc["significant"] == "true"
    assert float(nfc["p_holm"]) < 0.05
    assert by[("plies_mean", "russian")]["p"] == ""  # the reference
    assert by[("plies_median", "russian")]["low"] == ""  # not an estimate


def _svg(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == SVG + "svg"
    return root


def _per_ruleset(
    text: str, path: str, figures: dict[str, RulesetMetrics]
) -> tuple[ET.Element, list[tuple[ET.Element, RulesetMetrics]]]:
    """A plot's root and its elements at ``path``, one per ruleset in the figures' order, each with
    the metrics its ``data-ruleset`` names."""
    root = _svg(text)
    found = root.findall(path)
    assert [e.get("data-ruleset") for e in found] == ["russian", "russian-nfc"]
    return root, [(e, figures[str(e.get("data-ruleset"))]) for e in found]


def test_length_histograms_count_every_game(figures: dict[str, RulesetMetrics]) -> None:
    for panel, metrics in _per_ruleset(length_histograms(figures), f"{SVG}g[@class='panel']", figures)[1]:
        plies = metrics.plies
        bars = panel.findall(f"{SVG}rect[@class='bar']")
        assert sum(int(str(b.get("data-count"))) for b in bars) == len(plies) == 60
        lows = [float(str(b.get("data-low"))) for b in bars]
        assert lows == sorted(lows)
        assert lows[0] <= min(plies)
        assert float(str(bars[-1].get("data-high"))) > max(plies)
        for bar in bars:  # each count is the games in its bin
            low, high = float(str(bar.get("data-low"))), float(str(bar.get("data-high")))
            assert int(str(bar.get("data-count"))) == sum(low <= p < high for p in plies)
    assert histogram([1, 2, 2, 5], [1, 2, 5]) == [1, 3]  # the last bin closed


def test_branching_curves_follow_the_metrics(figures: dict[str, RulesetMetrics]) -> None:
    curves = _per_ruleset(branching_curves(figures), f"{SVG}polyline[@class='curve']", figures)[1]
    for curve, metrics in curves:
        points = [tuple(map(float, p.split(","))) for p in str(curve.get("points")).split()]
        expected = curve_points(metrics)
        assert len(points) == int(str(curve.get("data-points"))) == len(expected) > 10
        assert all(metrics.curve_games[i] >= 6 for i, _ in expected)  # a tenth of 60 games
        xs = [x for x, _ in points]
        assert xs == sorted(xs)
    # The no-forced-capture curve lies higher (more legal moves) at the same ply on average.
    ys = {c.get("data-ruleset"): [float(p.split(",")[1]) for p in str(c.get("points")).split()] for c, _ in curves}
    assert sum(ys["russian-nfc"][:20]) < sum(ys["russian"][:20])  # SVG's y grows downwards


def test_score_plot_shows_each_interval(figures: dict[str, RulesetMetrics]) -> None:
    root, marks = _per_ruleset(score_plot(figures), f"{SVG}g[@class='estimate']", figures)
    for mark, metrics in marks:
        e = metrics.first_player_score
        assert float(str(mark.get("data-value"))) == pytest.approx(e.value, rel=1e-5)
        line = mark.find(f"{SVG}line[@class='interval']")
        dot = mark.find(f"{SVG}circle[@class='value']")
        assert line is not None
        assert dot is not None
        assert float(str(line.get("x1"))) <= float(str(dot.get("cx"))) <= float(str(line.get("x2")))
    reference = root.find(f"{SVG}line[@class='reference']")
    assert reference is not None
    assert reference.get("data-value") == "0.5"


def test_nice_ticks() -> None:
    assert nice_ticks(0, 1, 5) == [0, 0.2, 0.4, 0.6, 0.8, 1.0]
    assert nice_ticks(23, 230, 8) == [50, 100, 150, 200]  # a step of 20 would give 11 ticks
    assert nice_ticks(3, 3) == [3]


def test_cli_table_csv_and_plots(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from draughts.cli import main

    argv = ["lab", "russian", "brazilian", "russian-nfc", "--games", "6", "--seed", "2", "--max-plies", "60"]
    assert main([*argv, "--format", "json"]) == 0
    plain = capsys.readouterr().out
    out_csv, plots = tmp_path / "lab.csv", tmp_path / "plots"
    assert main([*argv, "--format", "json", "--csv", str(out_csv), "--plots", str(plots)]) == 0
    assert capsys.readouterr().out == plain  # the JSON contract does not change with the extras
    assert set(json.loads(plain)) == {"russian", "brazilian", "russian-nfc"}
    assert {r["ruleset"] for r in csv.DictReader(out_csv.open())} == {"russian", "brazilian", "russian-nfc"}
    assert sorted(p.name for p in plots.iterdir()) == sorted(FILES.values())
    for path in plots.iterdir():
        _svg(path.read_text())
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[0].split() == ["metric", "russian", "brazilian", "russian-nfc"]
    assert main([*argv, "--csv", str(tmp_path / "no" / "such" / "dir.csv")]) == 2
    assert "dir.csv" in capsys.readouterr().err


def test_write_plots_makes_the_directory(tmp_path: Path, figures: dict[str, RulesetMetrics]) -> None:
    written = write_plots(figures, tmp_path / "a" / "b")
    assert [p.name for p in written] == list(FILES.values())


def test_endings_are_said_in_plain_words_and_never_cut_mid_word(tmp_path: Path) -> None:
    # Issue 40 §7: a draw by the endgame rule showed as "ending: FMJD 6.4" (a rule-book code
    # alone), and a long ending was cut at 40 characters, mid-word.
    from draughts.cli import main

    openings = tmp_path / "kings.txt"
    openings.write_text("W:WK1:BK50\n", encoding="utf-8")  # a king each: drawn after 5 moves each
    out = io.StringIO()
    assert main(["lab", "international", "--games", "10", "--openings", str(openings)], out) == 0
    text = out.getvalue()
    words = "draw: 2 kings or a king + a man or a king against a king: drawn after 5 moves each (FMJD 6.4)"
    table = text.split("\n\n")[0].splitlines()
    column = table[0].index("international")  # where the figures start: the labels are before
    labels = " ".join(line[:column].strip() for line in table if "ending" in line or line.startswith("  "))
    assert words in labels  # over several lines, broken between words
    assert "ending: FMJD" not in text
    assert "…" not in text
    json_out = io.StringIO()
    assert (
        main(["lab", "international", "--games", "10", "--openings", str(openings), "--format", "json"], json_out) == 0
    )
    assert words in json.loads(json_out.getvalue())["international"]["endings"]

"""Rulesets side by side: one table, a column per ruleset and a row per metric, with tests.

:func:`compare` lays out every ruleset's :class:`~draughts.lab.metrics.RulesetMetrics` and tests
each estimate of every ruleset after the first against the first's:

* shares of games (win, draw, completion and crowning rates) with the pooled two-proportion
  z-test (:func:`~draughts.lab.stats.two_proportion_p`) on the games' counts;
* means over games and ratios pooled over positions or plies with a normal (Welch) test on the
  difference of the two estimates, each one's standard error read back from its interval:
  ``se = half-width / z`` (the interval's wider side, so that a mean's interval clipped at 0 or 1
  still gives its full standard error). For a mean over games that is Welch's test on the per-game
  values (``s/sqrt(n)`` each side, unequal variances) in its large-sample form; for a pooled ratio
  it is the same test on the delta-method standard error.

The p-values of the whole table are Holm-corrected together (one family: every tested row of
every ruleset against the first), and a difference is marked when its corrected p-value is below
``alpha`` (0.05). Balance, the median and the counts of endings are shown but not tested.
:func:`table_text` prints the table, :func:`table_csv` writes it as CSV, one line per metric and
ruleset.
"""

from __future__ import annotations

import csv
import io
import math
import textwrap
from collections.abc import Mapping, Sequence

import attrs

from draughts.errors import DraughtsError
from draughts.lab.metrics import RulesetMetrics
from draughts.lab.stats import Z95, Estimate, two_proportion_p

__all__ = [
    "NORMAL",
    "PROPORTION",
    "ROWS",
    "Cell",
    "Comparison",
    "Row",
    "compare",
    "holm",
    "normal_p",
    "table_csv",
    "table_text",
]

PROPORTION = "two-proportion z"
"""The test of a share of games."""
NORMAL = "Welch (normal)"
"""The test of a mean over games or a pooled ratio."""

ROWS: tuple[tuple[str, str | None], ...] = (
    ("first_player_score", NORMAL),
    ("first_win_rate", PROPORTION),
    ("second_win_rate", PROPORTION),
    ("draw_rate", PROPORTION),
    ("drawishness", PROPORTION),
    ("balance", None),
    ("completion", PROPORTION),
    ("plies_mean", NORMAL),
    ("plies_median", None),
    ("branching_factor", NORMAL),
    ("decision_share", NORMAL),
    ("capture_share", NORMAL),
    ("pieces_per_capture", NORMAL),
    ("crowning_share", PROPORTION),
    ("first_crowning_ply", NORMAL),
    ("board_coverage", NORMAL),
    ("lead_change_rate", NORMAL),
    ("lead_changes", NORMAL),
    ("drama", NORMAL),
    ("drama_share", NORMAL),
    ("decisiveness", NORMAL),
    ("decisiveness_ply", NORMAL),
)
"""The table's metric rows in order, each with its test (None: shown, not tested). Rows that no
ruleset has (the evaluation metrics of random players) are left out."""


@attrs.frozen
class Cell:
    """One ruleset's figure for one metric.

    Attributes:
        value: The figure (NaN where there is none).
        low: Its interval's lower end (None: not an estimate).
        high: Its interval's upper end.
        p: The test's raw two-sided p-value against the first ruleset (None: not tested).
        p_holm: The Holm-corrected p-value (None: not tested).
        significant: Whether ``p_holm`` is below the comparison's ``alpha``.
    """

    value: float
    low: float | None = None
    high: float | None = None
    p: float | None = None
    p_holm: float | None = None
    significant: bool = False

    def text(self) -> str:
        """The figure with its interval and a ``*`` when it differs significantly."""
        if math.isnan(self.value):
            return "-"
        out = _g(self.value)
        if self.low is not None and self.high is not None:
            out += f" [{_g(self.low)}, {_g(self.high)}]"
        return out + (" *" if self.significant else "")


@attrs.frozen
class Row:
    """A metric's row: its name, its test (None: not tested) and a cell per ruleset."""

    metric: str
    test: str | None
    cells: tuple[Cell, ...]


@attrs.frozen
class Comparison:
    """Rulesets side by side (see the module): the rows, the first ruleset being the reference."""

    rulesets: tuple[str, ...]
    games: tuple[int, ...]
    players: tuple[str, ...]
    rows: tuple[Row, ...]
    tests: int
    alpha: float

    def row(self, metric: str) -> Row:
        """The row of ``metric``."""
        for row in self.rows:
            if row.metric == metric:
                return row
        raise DraughtsError(f"no row {metric!r:.80} in the comparison")

    def legend(self) -> str:
        """What the marks mean."""
        if len(self.rulesets) < 2:
            return "95% intervals in brackets."
        return (
            f"95% intervals in brackets; * differs from {self.rulesets[0]} (two-proportion z-test for shares "
            f"of games, normal Welch test on the estimates' standard errors for means and pooled ratios; "
            f"Holm-corrected over the table's {self.tests} tests, alpha {self.alpha:g})."
        )


def _g(value: float) -> str:
    return f"{value:.4g}"


def _se(estimate: Estimate) -> float:
    """The standard error behind a normal interval: its wider half over ``z``."""
    return max(estimate.value - estimate.low, estimate.high - estimate.value) / Z95


def normal_p(a: Estimate, b: Estimate) -> float | None:
    """The two-sided p-value of ``a - b`` under the normal approximation with standard errors from
    the intervals (each one's wider half over z); None when either has no value or both standard errors are 0."""
    if any(math.isnan(v) for v in (a.value, b.value, a.low, b.low, a.high, b.high)):
        return None
    se = math.hypot(_se(a), _se(b))
    if se == 0:
        return None if a.value == b.value else 0.0
    return math.erfc(abs(a.value - b.value) / se / math.sqrt(2))


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given: with ``p_(1) <= ... <= p_(m)``,
    ``adj_(i) = max_{j <= i} min(1, (m - j + 1) p_(j))``."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def _test(kind: str, a: Estimate, b: Estimate) -> float | None:
    if kind == PROPORTION:
        if a.n == 0 or b.n == 0 or math.isnan(a.value) or math.isnan(b.value):
            return None
        return two_proportion_p(round(a.value * a.n), a.n, round(b.value * b.n), b.n)
    return normal_p(a, b)


def compare(figures: Mapping[str, RulesetMetrics], *, alpha: float = 0.05) -> Comparison:
    """The side-by-side table of ``figures`` (in their order; the first is the reference)."""
    if not figures:
        raise DraughtsError("nothing to compare: give at least one ruleset's figures")
    names = tuple(figures)
    metrics = [figures[name] for name in names]
    raw: list[tuple[str, str | None, list[Estimate | float | None]]] = []
    for key, kind in ROWS:
        values: list[Estimate | float | None] = [getattr(m, key) for m in metrics]
        if all(v is None for v in values):
            continue
        raw.append((key, kind, values))
    tested: list[tuple[int, int, float]] = []
    for r, (_, kind, values) in enumerate(raw):
        first = values[0]
        if kind is None or not isinstance(first, Estimate):
            continue
        for c, other in enumerate(values[1:], start=1):
            if isinstance(other, Estimate):
                p = _test(kind, other, first)
                if p is not None:
                    tested.append((r, c, p))
    adjusted = holm([p for _, _, p in tested])
    marks = {(r, c): (p, q) for (r, c, p), q in zip(tested, adjusted, strict=True)}
    rows = []
    for r, (key, kind, values) in enumerate(raw):
        cells = []
        for c, value in enumerate(values):
            p, q = marks.get((r, c), (None, None))
            if isinstance(value, Estimate):
                cells.append(Cell(value.value, value.low, value.high, p, q, q is not None and q < alpha))
            else:
                cells.append(Cell(math.nan if value is None else float(value)))
        rows.append(Row(key, kind, tuple(cells)))
    rows.extend(_count_rows(metrics))
    return Comparison(
        names,
        tuple(m.games for m in metrics),
        tuple(sorted({p for m in metrics for p in m.players})),
        tuple(rows),
        len(tested),
        alpha,
    )


def _count_rows(metrics: Sequence[RulesetMetrics]) -> list[Row]:
    """Rows of games per ending (``ending: RULE``), not tested."""
    endings = sorted({e for m in metrics for e in m.endings})
    return [Row(f"ending: {e}", None, tuple(Cell(float(m.endings.get(e, 0))) for m in metrics)) for e in endings]


def table_text(comparison: Comparison) -> str:
    """The table as aligned text, its legend underneath."""
    header = ["metric", *comparison.rulesets]
    lines = [header, ["games", *(str(n) for n in comparison.games)]]
    for row in comparison.rows:
        first, *more = _wrapped(row.metric)
        lines.append([first, *(cell.text() for cell in row.cells)])
        lines.extend([part, *("" for _ in row.cells)] for part in more)
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    text = "\n".join("  ".join(part.ljust(w) for part, w in zip(line, widths, strict=True)).rstrip() for line in lines)
    players = ", ".join(comparison.players)
    return f"{text}\n\nplayers: {players}. {comparison.legend()}\n"


def _wrapped(label: str, width: int = 40) -> list[str]:
    """A row's label over lines of at most ``width`` characters, broken between words (an ending's
    rule can be a sentence; cut at a fixed width it lost its end mid-word, issue 40 §7)."""
    head, paren, article = label.rpartition(" (")
    if paren and article.endswith(")") and len(article) < width // 2:  # keep "(RUS64 7.2.4)" whole
        label = f"{head} ({article.replace(' ', NBSP)}"
    lines = textwrap.wrap(label, width, break_on_hyphens=False, subsequent_indent="  ") or [label]
    return [line.replace(NBSP, " ") for line in lines]


NBSP = "\u00a0"


def table_csv(comparison: Comparison) -> str:
    """The table as CSV, one line per metric and ruleset: ``metric, ruleset, games, value, low,
    high, test, p, p_holm, significant`` (empty fields where a figure has no interval or test)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["metric", "ruleset", "games", "value", "low", "high", "test", "p", "p_holm", "significant"])
    for row in comparison.rows:
        for name, games, cell in zip(comparison.rulesets, comparison.games, row.cells, strict=True):
            tested = cell.p is not None
            writer.writerow(
                [
                    row.metric,
                    name,
                    games,
                    _csv(cell.value),
                    _csv(cell.low),
                    _csv(cell.high),
                    row.test if tested else "",
                    _csv(cell.p),
                    _csv(cell.p_holm),
                    str(cell.significant).lower() if tested else "",
                ]
            )
    return out.getvalue()


def _csv(value: float | None) -> str:
    return "" if value is None or math.isnan(value) else f"{value:.10g}"

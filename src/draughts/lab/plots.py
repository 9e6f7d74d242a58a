"""The lab's plots as standalone SVG documents, written by hand (no plotting dependency).

* :func:`length_histograms`: a histogram of game lengths (plies) per ruleset, one panel each, on
  shared bins and axes;
* :func:`branching_curves`: the branching factor over the game, ``branching_curve[i]`` (mean legal
  moves before ply ``i + 1``) per ruleset, drawn while at least a tenth of the games (and at least
  five) are still going, so the tail of a few long games does not dominate;
* :func:`score_plot`: the first player's score per ruleset with its 95% interval, against the
  line of an even game (½).

Like :mod:`draughts.svg`, everything a program may want to read carries a class and data
attributes: ``<g class="panel" data-ruleset>`` holding ``<rect class="bar" data-low data-high
data-count>`` (bins are ``[low, high)``, the last one closed); ``<polyline class="curve"
data-ruleset data-points>``; ``<g class="estimate" data-ruleset data-value data-low data-high>``;
``<line class="reference" data-value>``. :func:`write_plots` writes the three files.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from draughts.errors import DraughtsError
from draughts.lab.metrics import RulesetMetrics
from draughts.svg import escape, number, quoteattr

__all__ = [
    "BOTTOM",
    "FILES",
    "LEFT",
    "PALETTE",
    "RIGHT",
    "TOP",
    "WIDTH",
    "branching_curves",
    "curve_points",
    "histogram",
    "length_histograms",
    "nice_ticks",
    "score_plot",
    "write_plots",
]

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", "#7f7f7f")
"""Series colours, in ruleset order (repeating after nine)."""
FILES = {"lengths": "game_lengths.svg", "branching": "branching.svg", "score": "first_player_score.svg"}
"""What :func:`write_plots` names each plot."""

WIDTH = 640.0
LEFT, RIGHT, TOP, BOTTOM = 60.0, 20.0, 36.0, 44.0


def _attrs(**values: object) -> str:
    parts = []
    for key, value in values.items():
        text = number(value) if isinstance(value, float) else str(value)
        parts.append(f"{key.rstrip('_').replace('_', '-')}={quoteattr(text)}")
    return " ".join(parts)


def _colour(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering ``[low, high]``, about ``count`` of them (steps of 1, 2 or 5
    times a power of ten)."""
    if not high > low:
        return [low]
    raw = (high - low) / max(count, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.floor(low / step) * step
    ticks = []
    value = first
    while value <= high + step * 1e-9:
        if value >= low - step * 1e-9:
            ticks.append(round(value, 10))
        value += step
    return ticks


class _Axes:
    """A plot area mapping data ``(x, y)`` to picture coordinates."""

    def __init__(self, top: float, height: float, x: tuple[float, float], y: tuple[float, float]) -> None:
        self.top, self.height = top, height
        self.x0, self.x1 = x
        self.y0, self.y1 = y
        self.width = WIDTH - LEFT - RIGHT

    def px(self, x: float) -> float:
        span = self.x1 - self.x0 or 1.0
        return LEFT + (x - self.x0) / span * self.width

    def py(self, y: float) -> float:
        span = self.y1 - self.y0 or 1.0
        return self.top + self.height - (y - self.y0) / span * self.height

    def frame(self, *, x_ticks: Sequence[float] | None, y_ticks: Sequence[float], x_labels: bool = True) -> list[str]:
        bottom = self.top + self.height
        out = [
            f'<rect class="frame" {_attrs(x=LEFT, y=self.top, width=self.width, height=self.height)} '
            'fill="none" stroke="#444"/>'
        ]
        for t in y_ticks:
            y = self.py(t)
            out.append(f'<line class="grid" {_attrs(x1=LEFT, y1=y, x2=LEFT + self.width, y2=y)} stroke="#ddd"/>')
            out.append(
                f'<text class="tick y" {_attrs(x=LEFT - 6, y=y + 4)} text-anchor="end" font-size="11">{_g(t)}</text>'
            )
        for t in x_ticks or ():
            x = self.px(t)
            out.append(f'<line class="tick x" {_attrs(x1=x, y1=bottom, x2=x, y2=bottom + 4)} stroke="#444"/>')
            if x_labels:
                out.append(
                    f'<text class="tick x" {_attrs(x=x, y=bottom + 16)} text-anchor="middle" '
                    f'font-size="11">{_g(t)}</text>'
                )
        return out


def _g(value: float) -> str:
    return f"{value:.6g}"


def _document(height: float, title: str, body: list[str], x_label: str, y_label: str) -> str:
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" {_attrs(width=WIDTH, height=height)} '
        f'viewBox="0 0 {number(WIDTH)} {number(height)}" font-family="sans-serif">'
    )
    return "\n".join(
        [
            head,
            f"<title>{escape(title)}</title>",
            '<rect width="100%" height="100%" fill="white"/>',
            f'<text class="title" {_attrs(x=WIDTH / 2, y=20.0)} text-anchor="middle" font-size="14">'
            f"{escape(title)}</text>",
            *body,
            f'<text class="label x" {_attrs(x=LEFT + (WIDTH - LEFT - RIGHT) / 2, y=height - 8)} '
            f'text-anchor="middle" font-size="12">{escape(x_label)}</text>',
            f'<text class="label y" {_attrs(x=14.0, y=height / 2)} text-anchor="middle" font-size="12" '
            f'transform="rotate(-90 14 {number(height / 2)})">{escape(y_label)}</text>',
            "</svg>",
            "",
        ]
    )


def _check(figures: Mapping[str, RulesetMetrics]) -> None:
    if not figures:
        raise DraughtsError("nothing to plot: give at least one ruleset's figures")


def histogram(values: Sequence[int], edges: Sequence[float]) -> list[int]:
    """Counts of ``values`` in the bins ``[edges[i], edges[i+1])``, the last bin closed."""
    counts = [0] * (len(edges) - 1)
    for v in values:
        for i in range(len(counts)):
            last = i == len(counts) - 1
            if edges[i] <= v < edges[i + 1] or (last and v == edges[i + 1]):
                counts[i] += 1
                break
    return counts


def _edges(low: int, high: int, bins: int) -> list[float]:
    """Bin edges of a whole number of plies each, at most ``bins`` bins, covering ``[low, high]``."""
    width = max(1, math.ceil((high - low + 1) / bins))
    return [float(low + i * width) for i in range(math.ceil((high - low + 1) / width) + 1)]


def length_histograms(figures: Mapping[str, RulesetMetrics], bins: int = 24) -> str:
    """Game lengths per ruleset: a panel each, shared bins (the whole plies from the shortest game
    to the longest of every ruleset) and a shared count axis."""
    _check(figures)
    every = [p for m in figures.values() for p in m.plies]
    low, high = min(every), max(every)
    edges = _edges(low, high, bins)
    counts = {name: histogram(m.plies, edges) for name, m in figures.items()}
    top_count = max(max(c) for c in counts.values()) or 1
    panel, gap = 110.0, 26.0
    body: list[str] = []
    y_top = nice_ticks(0, top_count, 3)
    y_max = max(top_count, y_top[-1])
    for index, (name, m) in enumerate(figures.items()):
        top = TOP + index * (panel + gap)
        axes = _Axes(top, panel, (edges[0], edges[-1]), (0, y_max))
        last = index == len(figures) - 1
        body.append(f'<g class="panel" {_attrs(data_ruleset=name, data_games=m.games)}>')
        body.extend(axes.frame(x_ticks=nice_ticks(edges[0], edges[-1], 8), y_ticks=y_top, x_labels=last))
        body.append(
            f'<text class="series-name" {_attrs(x=WIDTH - RIGHT - 8, y=top + 16)} text-anchor="end" font-size="12" '
            f'fill="{_colour(index)}">{escape(name)} (median {_g(m.plies_median)})</text>'
        )
        for i, count in enumerate(counts[name]):
            x0, x1 = axes.px(edges[i]), axes.px(edges[i + 1])
            y = axes.py(count)
            body.append(
                f'<rect class="bar" {_attrs(x=x0, y=y, width=max(x1 - x0 - 1, 0.5), height=top + panel - y)} '
                f"{_attrs(data_low=_g(edges[i]), data_high=_g(edges[i + 1]), data_count=count)} "
                f'fill="{_colour(index)}"/>'
            )
        body.append("</g>")
    height = TOP + len(figures) * (panel + gap) - gap + BOTTOM
    return _document(height, "Game length", body, "plies per game", "games")


def curve_points(metrics: RulesetMetrics, min_share: float = 0.1, min_games: int = 5) -> list[tuple[int, float]]:
    """``(i, branching_curve[i])`` for the positions ``i`` that at least ``min_share`` of the games
    (and ``min_games``) reached."""
    floor = max(min_games, math.ceil(min_share * metrics.games))
    return [
        (i, v) for i, (v, k) in enumerate(zip(metrics.branching_curve, metrics.curve_games, strict=True)) if k >= floor
    ]


def branching_curves(figures: Mapping[str, RulesetMetrics]) -> str:
    """The branching factor over the game per ruleset (see :func:`curve_points`)."""
    _check(figures)
    points = {name: curve_points(m) for name, m in figures.items()}
    xs = [i for ps in points.values() for i, _ in ps] or [0]
    ys = [v for ps in points.values() for _, v in ps] or [0.0]
    y_ticks = nice_ticks(0, max(ys), 5)
    height, legend = 360.0, 18.0
    axes = _Axes(TOP + legend, height - TOP - legend - BOTTOM, (0, max(max(xs), 1)), (0, max(max(ys), y_ticks[-1], 1)))
    body = axes.frame(x_ticks=nice_ticks(0, max(max(xs), 1), 8), y_ticks=y_ticks)
    for index, (name, ps) in enumerate(points.items()):
        coords = " ".join(f"{number(axes.px(i))},{number(axes.py(v))}" for i, v in ps)
        body.append(
            f'<polyline class="curve" {_attrs(data_ruleset=name, data_points=len(ps), points=coords)} '
            f'fill="none" stroke="{_colour(index)}" stroke-width="1.5"/>'
        )
    x = LEFT
    for index, name in enumerate(points):
        body.append(
            f'<rect class="legend-key" {_attrs(x=x, y=TOP + 2, width=14.0, height=3.0)} fill="{_colour(index)}"/>'
        )
        body.append(
            f'<text class="legend" {_attrs(x=x + 18, y=TOP + 8)} font-size="12" fill="{_colour(index)}">'
            f"{escape(name)}</text>"
        )
        x += 30 + 7 * len(name)
    return _document(height, "Branching factor over the game", body, "ply", "legal moves per position")


def score_plot(figures: Mapping[str, RulesetMetrics]) -> str:
    """The first player's score per ruleset, a dot with its 95% interval, and the even line ½."""
    _check(figures)
    row = 32.0
    height = TOP + row * len(figures) + BOTTOM
    axes = _Axes(TOP, row * len(figures), (0.0, 1.0), (0.0, float(len(figures))))
    body = axes.frame(x_ticks=nice_ticks(0, 1, 5), y_ticks=())
    x = axes.px(0.5)
    body.append(
        f'<line class="reference" {_attrs(data_value=0.5, x1=x, y1=TOP, x2=x, y2=TOP + row * len(figures))} '
        'stroke="#888" stroke-dasharray="4 3"/>'
    )
    for index, (name, m) in enumerate(figures.items()):
        e = m.first_player_score
        y = TOP + row * (index + 0.5)
        colour = _colour(index)
        body.append(
            f'<g class="estimate" {_attrs(data_ruleset=name, data_value=_g(e.value), data_low=_g(e.low))} '
            f"{_attrs(data_high=_g(e.high), data_games=m.games)}>"
        )
        body.append(
            f'<line class="interval" {_attrs(x1=axes.px(e.low), y1=y, x2=axes.px(e.high), y2=y)} '
            f'stroke="{colour}" stroke-width="2"/>'
        )
        body.append(f'<circle class="value" {_attrs(cx=axes.px(e.value), cy=y, r=4.0)} fill="{colour}"/>')
        body.append(
            f'<text class="series-name" {_attrs(x=LEFT + 4, y=y - 5)} font-size="11">'
            f"{escape(name)} {e.value:.3f} [{e.low:.3f}, {e.high:.3f}]</text>"
        )
        body.append("</g>")
    return _document(height, "First player's score (95% interval)", body, "score (win 1, draw 1/2)", "")


def write_plots(figures: Mapping[str, RulesetMetrics], directory: str | os.PathLike[str]) -> list[Path]:
    """Write the three plots into ``directory`` (made if missing) as :data:`FILES` names them;
    the paths written."""
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for key, draw in (("lengths", length_histograms), ("branching", branching_curves), ("score", score_plot)):
        path = folder / FILES[key]
        path.write_text(draw(figures), encoding="utf-8")
        written.append(path)
    return written

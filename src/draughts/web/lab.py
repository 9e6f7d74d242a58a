"""Small lab runs in the background, for the compare page's "play statistics" panel (issue 26 §2).

A lab run (:func:`draughts.lab.run_lab`) plays many games; a request must not wait for them, and
the event loop must not play them. So ``POST /api/lab`` starts a :class:`LabJob` and answers at
once with its id; the job, an asyncio task of the server, sends its games one at a time to a
worker process of a pool of its own (:class:`~draughts.web.workers.WorkerPool`: each game
bounded in time, the worker killed past it), then has a worker measure them and draw the table
and plots. ``GET /api/lab/{id}`` reports the games done and, at the end, the result; ``DELETE``
cancels it.

The bounds that keep one server's lab work small:

* a run's size: at most :data:`MAX_RULESETS` rulesets, :data:`MAX_GAMES` games per ruleset and
  :data:`MAX_TOTAL` in all, for the player (random games are cheap, engine games at depth 1 or 2
  cost more), plies capped at :data:`MAX_PLIES`;
* at most ``running`` jobs at once per server; another start is refused with a 429;
* a running job that nobody has asked about for ``idle`` seconds (the page was closed) is
  cancelled; a finished job is kept ``ttl`` seconds, and at most ``kept`` jobs are kept at all.

The games are :func:`~draughts.lab.runner.lab_tasks`' and are played by
:func:`~draughts.lab.runner.play_task` and measured by :func:`~draughts.lab.metrics.measure`,
exactly as :func:`~draughts.lab.run_lab` plays and measures them, so the panel's figures for a
seed are those of ``draughts lab ... --seed S --format json``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import attrs

from draughts.lab.metrics import GameRecord
from draughts.lab.runner import GameTask, lab_tasks, play_task
from draughts.web.fields import LAB_PLAYERS
from draughts.web.views import Json, RequestError
from draughts.web.workers import WorkerPool

log = logging.getLogger("draughts.web")

__all__ = [
    "MAX_GAMES",
    "MAX_PLIES",
    "MAX_RULESETS",
    "MAX_TOTAL",
    "METRIC_WORDS",
    "PLAYERS",
    "LabJob",
    "LabJobs",
    "LabSettings",
    "metric_words",
]

PLAYERS = LAB_PLAYERS
"""Who may play a web lab: uniformly random moves, or the engine searching 1 or 2 plies."""
MAX_GAMES = {"random": 200, "depth:1": 20, "depth:2": 20}
"""Most games per ruleset, by player."""
MAX_TOTAL = {"random": 600, "depth:1": 60, "depth:2": 60}
"""Most games of one run over all its rulesets, by player."""
MAX_RULESETS = 6
"""Most rulesets of one run."""
MAX_PLIES = 300
"""The highest ply cap a run may ask for (the lab's default cap)."""


METRIC_WORDS = {
    "first_player_score": "first player's score",
    "first_win_rate": "games won by the first player",
    "second_win_rate": "games won by the second player",
    "draw_rate": "draws, capped games included",
    "drawishness": "draws by a rule",
    "balance": "balance of wins",
    "completion": "games ended by the rules",
    "plies_mean": "game length (mean plies)",
    "plies_median": "game length (median plies)",
    "branching_factor": "legal moves per position",
    "decision_share": "positions with a choice",
    "capture_share": "plies that capture",
    "pieces_per_capture": "pieces taken per capture",
    "crowning_share": "games with a crowning",
    "first_crowning_ply": "ply of the first crowning",
    "board_coverage": "squares a piece stood on",
    "lead_change_rate": "lead changes per ply",
    "lead_changes": "lead changes per game",
    "drama": "winner's deepest trail",
    "drama_share": "plies the winner trailed",
    "decisiveness": "plies after the game was decided",
    "decisiveness_ply": "ply the game was decided",
}
"""The lab table's metrics in words, for the panel's row labels (the key stays in each row's
``metric`` and in the label's title, as ``draughts lab`` and docs/lab.rst name it)."""


def metric_words(metric: str) -> str:
    """``metric`` in words: :data:`METRIC_WORDS`, an ending row as it reads ("ending: ..."), and
    any other key with its underscores as spaces (a metric added later is never shown raw)."""
    return METRIC_WORDS.get(metric) or metric.replace("_", " ")


@attrs.frozen
class LabSettings:
    """What a web lab plays: ``games`` per ruleset between two ``players`` of one kind, from the
    start position, with ``seed`` and a ply cap (the arguments of :func:`~draughts.lab.run_lab`)."""

    rulesets: tuple[str, ...]
    games: int
    players: str
    seed: int
    max_plies: int

    def check(self) -> None:
        """Refuse a run larger than the bounds (400, quoting the numbers)."""
        if self.players not in PLAYERS:
            raise RequestError(f"players {self.players[:40]!r} must be one of {', '.join(PLAYERS)}")
        if not 1 <= len(self.rulesets) <= MAX_RULESETS:
            raise RequestError(f"a lab compares 1 to {MAX_RULESETS} rulesets, not {len(self.rulesets)}")
        most, total = MAX_GAMES[self.players], MAX_TOTAL[self.players]
        if not 1 <= self.games <= most:
            raise RequestError(f"games {self.games} must be from 1 to {most} per ruleset with {self.players} players")
        if self.games * len(self.rulesets) > total:
            raise RequestError(
                f"{self.games} games for each of {len(self.rulesets)} rulesets make "
                f"{self.games * len(self.rulesets)} games; a web lab plays at most {total} with {self.players} players"
            )
        if not 1 <= self.max_plies <= MAX_PLIES:
            raise RequestError(f"max_plies {self.max_plies} must be from 1 to {MAX_PLIES}")

    def json(self) -> Json:
        return {
            "variants": list(self.rulesets),
            "games": self.games,
            "players": self.players,
            "seed": self.seed,
            "max_plies": self.max_plies,
        }


# --- in a worker process ------------------------------------------------------------------------


def plan(settings: LabSettings) -> list[GameTask]:
    """The run's games, as :func:`~draughts.lab.run_lab` would play them."""
    return lab_tasks(
        settings.rulesets,
        settings.games,
        players=(settings.players, settings.players),
        seed=settings.seed,
        max_plies=settings.max_plies,
    )


def play_games(tasks: Sequence[GameTask]) -> list[GameRecord]:
    """A few of the run's games, played (one worker job: fewer round trips for quick games)."""
    return [play_task(task) for task in tasks]


def _number(value: float | None) -> float | None:
    return None if value is None or math.isnan(value) else value


def report(rulesets: Sequence[str], records: Sequence[GameRecord]) -> Json:
    """The finished run: the figures per ruleset (as ``draughts lab --format json`` prints them),
    the side-by-side table with its marks and legend (:mod:`draughts.lab.report`), its text, and
    the three plots (:mod:`draughts.lab.plots`, SVG whose texts are escaped)."""
    from draughts.lab.metrics import measure
    from draughts.lab.plots import branching_curves, length_histograms, score_plot
    from draughts.lab.report import compare, table_text

    figures = {name: measure([r for r in records if r.ruleset == name]) for name in dict.fromkeys(rulesets)}
    comparison = compare(figures)
    rows = [
        {
            "metric": row.metric,
            "label": metric_words(row.metric),
            "test": row.test,
            "cells": [
                {
                    "text": cell.text(),
                    "value": _number(cell.value),
                    "low": _number(cell.low),
                    "high": _number(cell.high),
                    "p_holm": _number(cell.p_holm),
                    "significant": cell.significant,
                }
                for cell in row.cells
            ],
        }
        for row in comparison.rows
    ]
    return {
        "figures": {name: metrics.to_dict() for name, metrics in figures.items()},
        "table": {
            "rulesets": list(comparison.rulesets),
            "games": list(comparison.games),
            "players": list(comparison.players),
            "rows": rows,
            "legend": comparison.legend(),
            "text": table_text(comparison),
        },
        "plots": {
            "lengths": length_histograms(figures),
            "branching": branching_curves(figures),
            "score": score_plot(figures),
        },
    }


# --- in the server ------------------------------------------------------------------------------


@attrs.define(eq=False)
class LabJob:
    """One run in the background: its settings, the games done, and its end (a result or an error)."""

    id: str
    settings: LabSettings
    seen: float
    state: str = "starting"  # starting, playing, measuring, done, failed, cancelled
    done: int = 0
    total: int = 0
    ended: float | None = None
    result: Json | None = None
    error: str | None = None
    task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self.ended is None

    def json(self) -> Json:
        """What ``GET /api/lab/{id}`` answers: progress, and the result or error at the end."""
        out: Json = {
            "id": self.id,
            "state": self.state,
            "done": self.done,
            "total": self.total,
            "settings": self.settings.json(),
        }
        if self.result is not None:
            out["result"] = self.result
        if self.error is not None:
            out["error"] = self.error
        return out


@attrs.define(eq=False)
class LabJobs:
    """The server's lab jobs: started, run in the background over ``pool``, expired.

    Args:
        pool: The worker processes the games run in (a pool of their own, so that labs never hold
            the workers that answer moves).
        clock: Monotonic seconds (tests pass a fake clock).
        running: Jobs that may run at once; another start is refused (429).
        ttl: Seconds a finished job is kept.
        idle: Seconds a running job goes on without anyone asking for its progress; then it is cancelled.
        kept: Most jobs kept, running or finished (the oldest finished go first).
        game_time: Seconds one game may take in a worker (then the job fails, the worker killed).
    """

    BATCH: ClassVar[int] = 25
    """Most games sent to a worker in one job: quick games go a few at a time (fewer round trips),
    the batch doubling while a batch takes under a fifth of a second."""

    pool: WorkerPool
    clock: Callable[[], float]
    max_running: int = attrs.field(default=2, kw_only=True, alias="running")
    ttl: float = attrs.field(default=600.0, kw_only=True)
    idle: float = attrs.field(default=60.0, kw_only=True)
    kept: int = attrs.field(default=32, kw_only=True)
    game_time: float = attrs.field(default=10.0, kw_only=True)
    _jobs: OrderedDict[str, LabJob] = attrs.field(init=False, factory=OrderedDict)

    def running(self) -> int:
        """Jobs not yet ended."""
        return sum(1 for job in self._jobs.values() if job.running)

    def sweep(self) -> None:
        """Cancel running jobs nobody watches; forget finished jobs past their time."""
        now = self.clock()
        for job in list(self._jobs.values()):
            if job.running and now - job.seen > self.idle:
                self._end(job, "cancelled", error=f"nobody asked for its progress for {self.idle:g} seconds")
            elif job.ended is not None and now - job.ended > self.ttl:
                del self._jobs[job.id]

    def start(self, settings: LabSettings) -> LabJob:
        """A new job playing ``settings``, started on the running event loop.

        Raises:
            RequestError: (429) ``running`` jobs run already, or the server keeps ``kept`` jobs.
        """
        settings.check()
        self.sweep()
        if self.running() >= self.max_running:
            raise RequestError(
                f"the server runs {self.max_running} lab jobs already (its most at once); "
                "try again when one has finished",
                429,
            )
        while len(self._jobs) >= self.kept:
            finished = next((job for job in self._jobs.values() if not job.running), None)
            if finished is None:
                raise RequestError(f"the server keeps {self.kept} lab jobs already; try again later", 429)
            del self._jobs[finished.id]
        job = LabJob(secrets.token_urlsafe(12), settings, self.clock())
        self._jobs[job.id] = job
        job.task = asyncio.get_running_loop().create_task(self._run(job))
        return job

    def get(self, job_id: str) -> LabJob:
        """The job ``job_id``, seen now (so it is not cancelled as idle).

        Raises:
            RequestError: (404) no such job, or it expired.
        """
        self.sweep()
        job = self._jobs.get(job_id)
        if job is None:
            raise RequestError(
                f"no lab job {job_id[:40]!r}: it never was, was cancelled, or ended more than {self.ttl:g} seconds ago",
                404,
            )
        job.seen = self.clock()
        return job

    def cancel(self, job_id: str) -> None:
        """Stop the job ``job_id`` (its worker's game is abandoned) and forget it."""
        job = self.get(job_id)
        if job.running:
            self._end(job, "cancelled", error="cancelled")
        del self._jobs[job.id]

    def close(self) -> None:
        """Cancel every running job (the server stops)."""
        for job in list(self._jobs.values()):
            if job.running:
                self._end(job, "cancelled", error="the server stopped")

    def _end(self, job: LabJob, state: str, *, result: Json | None = None, error: str | None = None) -> None:
        job.state, job.result, job.error, job.ended = state, result, error, self.clock()
        task = job.task
        if task is not None and not task.done() and task is not _current_task():
            task.cancel()

    async def _run(self, job: LabJob) -> None:
        """Play the job's games a batch at a time, then measure them; record how it ended."""
        try:
            tasks = await self.pool.run(plan, job.settings)
            job.total, job.state = len(tasks), "playing"
            records: list[GameRecord] = []
            size = 1
            while len(records) < len(tasks):
                batch = tasks[len(records) : len(records) + size]
                started = self.clock()
                budget = self.game_time * len(batch)
                records += await self.pool.run(play_games, batch, budget=budget)
                job.done = len(records)
                size = self._next_size(size, self.clock() - started)
                self.sweep()
                if not job.running:
                    return
            job.state = "measuring"
            result = await self.pool.run(report, job.settings.rulesets, records, budget=30.0)
        except asyncio.CancelledError:
            return
        except RequestError as error:
            self._end(job, "failed", error=str(error))
            return
        except Exception as error:  # a bug: the job fails, the server goes on
            log.exception("lab job %s failed", job.id)
            self._end(job, "failed", error=f"internal error ({type(error).__name__})")
            return
        self._end(job, "done", result=result)

    def _next_size(self, size: int, seconds: float) -> int:
        """The next batch's size: doubled while batches take under a fifth of a second."""
        return min(self.BATCH, size * 2) if seconds < 0.2 else max(1, size // 2) if seconds > 1.0 else size


def _current_task() -> asyncio.Task[Any] | None:
    with contextlib.suppress(RuntimeError):
        return asyncio.current_task()
    return None

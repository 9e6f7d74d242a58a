"""The match runner: two engines, both colours per opening, games in parallel, a referee Board.

Engines are players in the one player syntax (:mod:`draughts.players`): ``level:NAME`` (the
built-in engine at a level: beginner, intermediate, strong), ``depth:N``, ``nodes:N``, ``time:S``,
``random``, ``hub:CMD`` (an external Hub engine, started per game; ``params`` set its Hub
parameters, such as ``level`` of ``draughts hub``) or ``dxp:HOST:PORT`` (a DXP follower, one
connection per game: :class:`~draughts.dxp.DXPFollower`). Each game is one job on an executor
(processes by default); the referee is polydraughts' own :class:`~draughts.Board` (its outcome,
with the ruleset's draw rules), it keeps both clocks of a :class:`TimeControl` (a side out of time
loses: ``time forfeit``), and a game still going after ``max_plies`` is adjudicated a draw. An
engine that fails (a Hub engine that exits, hangs or answers an illegal move; a DXP follower that
drops the line or sends an illegal move; a built-in one that raises) loses that game by forfeit,
and the match goes on. Every finished game is appended to the results file (one JSON line) and the
PDN file as it comes, so a match started again with the same results file plays only the games
still missing.
"""

from __future__ import annotations

import contextlib
import math
import os
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from draughts._text import excerpt
from draughts.board import Board
from draughts.color import WHITE, Color
from draughts.engine import Limit
from draughts.engine.score import Score
from draughts.errors import DraughtsError
from draughts.lab.runner import Opening, RandomOpenings, resolve_openings, ruleset_label
from draughts.match.elo import SPRT, EloEstimate, elo_estimate
from draughts.match.results import ResultsFile, settings_of
from draughts.players import Clock, Player, Resigned, TimeControl, parse_player
from draughts.rules import Ruleset

if TYPE_CHECKING:
    from concurrent.futures import Executor

__all__ = [
    "Adjudication",
    "EngineSpec",
    "GameTask",
    "MatchResult",
    "TimeControl",
    "play_task",
    "run_match",
]


MATCH_KINDS = ("random", "level", "depth", "nodes", "time", "hub", "dxp")
"""The players a match plays (every kind but ``human``)."""


def _engine_text(text: str) -> str:
    return parse_player(text, accepted=MATCH_KINDS, command="draughts match").text


@attrs.frozen
class EngineSpec:
    """An engine of a match: a player in the one player syntax (:func:`~draughts.players.parse_player`:
    ``level:NAME``, ``depth:N``, ``nodes:N``, ``time:S``, ``random``, ``hub:CMD``, ``dxp:HOST:PORT``),
    with Hub parameters. ``text`` is kept in the one spelling (``strong`` becomes ``level:strong``)."""

    text: str = attrs.field(converter=_engine_text)
    params: Mapping[str, str] = attrs.field(factory=dict)
    book: str | None = None
    """An opening book (:mod:`draughts.db.book`) the engine plays from while the game is in it."""

    @property
    def label(self) -> str:
        """The engine's name in tables and PDN: its text, then its parameters (and its book)."""
        book = [] if self.book is None else [f"book={os.path.basename(self.book)}"]
        return " ".join([self.text, *(f"{k}={v}" for k, v in self.params.items()), *book])

    def player(
        self, board: Board, color: Color, limit: Limit, clock: TimeControl | None, seed: int | None = 0
    ) -> Player:
        """This engine as the player of ``color`` in a game starting at ``board``, its random choices
        (a level's margin, a random mover) from ``seed``."""
        from draughts.players.factory import make_player

        player = make_player(
            self.text,
            board.ruleset,
            seed=seed,
            limit=limit,
            params=self.params,
            control=clock,
            board=board,
            color=color,
        )
        if self.book is None:
            return player
        from draughts.players.book import BookPlayer

        return BookPlayer(player, self.book, seed=seed)


def _centi(score: Score) -> float:
    """A score as hundredths of a man, a win or loss in N plies as an infinity."""
    if score.plies is not None:
        return math.inf if score.plies > 0 else -math.inf
    return float(score.centi)


@attrs.frozen
class Adjudication:
    """Ending games by the engines' scores (each for the side to move, in hundredths of a man), both engines agreeing.

    Attributes:
        resign_moves: A game is won when, for this many moves of each side in a row, one engine's
            score has been at most ``-resign_score`` and the other's at least ``+resign_score``
            (a win or loss in N plies counts as beyond every score). 0: never.
        resign_score: The score of a lost game, hundredths of a man.
        draw_ply: Draw adjudication starts at this ply.
        draw_moves: A game is drawn when, from ``draw_ply`` on, both engines' scores have stayed
            within ``draw_score`` of 0 for this many moves of each side in a row. 0: never.
        draw_score: The score of a drawn game, hundredths of a man.

    A side whose engine gives no score (a DXP follower) is never adjudicated this way.

    >>> Adjudication(resign_moves=3, resign_score=400)
    Adjudication(resign_moves=3, resign_score=400, draw_ply=0, draw_moves=0, draw_score=0)
    """

    resign_moves: int = attrs.field(default=0, validator=attrs.validators.ge(0))
    resign_score: int = attrs.field(default=1000, validator=attrs.validators.ge(1))
    draw_ply: int = attrs.field(default=0, validator=attrs.validators.ge(0))
    draw_moves: int = attrs.field(default=0, validator=attrs.validators.ge(0))
    draw_score: int = attrs.field(default=0, validator=attrs.validators.ge(0))

    def verdict(self, board: Board, scores: Mapping[Color, Sequence[float | None]]) -> tuple[Color | None, str] | None:
        """``(winner, termination)`` (winner None: a draw) when the scores so far end the game, else None.

        ``scores`` holds each side's scores of its moves, in order (None where it gave none).
        """
        if self.resign_moves:
            n = self.resign_moves
            for loser in scores:
                lost = _last(scores[loser], n)
                won = _last(scores[loser.opponent], n)
                if lost and won and max(lost) <= -self.resign_score and min(won) >= self.resign_score:
                    why = f"adjudicated: resign by scores ({self.resign_score} for {n} moves each)"
                    return loser.opponent, why
        if self.draw_moves and board.ply() >= self.draw_ply:
            n = self.draw_moves
            recent = [_last(scores[color], n) for color in scores]
            if all(r is not None and max(abs(v) for v in r) <= self.draw_score for r in recent):
                return (None, f"adjudicated: draw by scores (within {self.draw_score} for {n} moves each)")
        return None


def _last(values: Sequence[float | None], n: int) -> list[float] | None:
    """The last ``n`` values, or None when there are fewer or one of them is missing."""
    tail = list(values[-n:])
    if len(tail) < n or any(v is None for v in tail):
        return None
    return [v for v in tail if v is not None]


@attrs.frozen
class GameTask:
    """One game of a match: its number, the engines as White and Black, the opening, the limits.

    Attributes:
        limit: The search limit per move (``depth``, ``time``), for engines without a clock.
        clock: Time per game with increment, tracked by the referee (None: no clock).
        tablebases: A directory of endgame tables: a position inside a built table ends the game
            with its theoretical result.
        adjudication: Ending games by the engines' scores (None: never).
    """

    index: int
    white: EngineSpec
    black: EngineSpec
    ruleset: Ruleset | str
    opening: Opening | None = None
    limit: Limit = attrs.field(factory=Limit)
    max_plies: int = 300
    clock: TimeControl | None = None
    tablebases: str | None = None
    adjudication: Adjudication | None = None


class _Forfeit(Exception):
    """``color`` loses the game: ``why`` (its termination is ``forfeit: why``, or ``why`` when ``plain``)."""

    def __init__(self, color: Color, why: str, *, plain: bool = False, unstarted: str | None = None) -> None:
        super().__init__(why)
        self.color = color
        self.why = why
        self.plain = plain
        self.unstarted = unstarted
        """The engine's text when it could not start (no game was played)."""


def _start(task: GameTask) -> Board:
    from draughts.lab.runner import GameTask as LabTask
    from draughts.lab.runner import start_board as lab_start

    if isinstance(task.ruleset, str):
        return lab_start(LabTask(task.ruleset, 0, 0, 0, opening=task.opening))
    return lab_start(LabTask(task.ruleset.name, 0, 0, 0, opening=task.opening, rules=task.ruleset))


class _Tables:
    """Tablebase adjudication: the verdict of a position inside a built table, under the rules."""

    def __init__(self, ruleset: Ruleset | str, directory: str | None) -> None:
        self.base = None
        if directory is not None:
            from draughts.endgame.tablebase import Tablebase

            self.base = Tablebase(ruleset, directory)

    def result(self, board: Board) -> tuple[Color | None, str] | None:
        """``(winner, termination)`` (winner None: a draw) when the tables know the position's result, else None."""
        if self.base is None:
            return None
        from draughts.endgame.errors import TablebaseError

        try:
            verdict = self.base.probe(board.position)
        except TablebaseError:
            return None
        value = verdict.within_rules
        if value is None:  # the tables do not know the rules' verdict here: play on
            return None
        if value == "draw":
            return None, "adjudicated by tablebase"
        return (board.turn if value == "win" else board.turn.opponent), "adjudicated by tablebase"


def _native(task: GameTask) -> bool:
    """Whether the native game loop plays ``task``: built-in players only (random, the engine), no
    book, clock, tablebase or adjudication (what only the Python loop referees)."""
    from draughts.lab.native import is_native

    plain = task.clock is None and task.tablebases is None and task.adjudication is None
    specs = (task.white, task.black)
    return plain and all(s.book is None and not s.params for s in specs) and is_native([s.text for s in specs])


def _play_native(task: GameTask, board: Board) -> None:
    """Play ``task``'s game on ``board`` with the native loop: the same moves as the Python loop
    (:mod:`draughts.lab.native`), replayed on the referee board for the outcome and the PDN."""
    from draughts.lab.native import play_native

    left = max(task.max_plies - board.ply(), 0)
    game = play_native(
        board, (task.white.text, task.black.text), (task.index, task.index), left, first=WHITE, limit=task.limit
    )
    for index in game.moves:
        board.push(board.legal_moves()[index])


def play_task(task: GameTask) -> dict[str, Any]:
    """Play one game (in a worker process); the result as a JSON-able dict with its PDN text.

    Between built-in players without a clock, book, tablebase or adjudication the game is played
    by the native loop (:mod:`draughts.lab.native`, the same moves); else by the Python loop.
    """
    board = _start(task)
    if _native(task):
        _play_native(task, board)
        return _finish(task, board)
    return _play_python(task, board)


def _play_python(task: GameTask, board: Board) -> dict[str, Any]:
    """:func:`play_task`'s game played by the Python loop (any player, clocks, adjudication)."""
    from draughts.results import result_for

    termination = ""
    result = "*"
    unstarted = None
    specs = {WHITE: task.white, WHITE.opponent: task.black}
    left = dict.fromkeys(specs, task.clock.base) if task.clock else {}
    tables = _Tables(task.ruleset, task.tablebases)
    players: dict[Color, Player] = {}
    try:
        for color, spec in specs.items():
            try:
                players[color] = spec.player(board.copy(), color, task.limit, task.clock, seed=task.index)
            except Exception as error:
                raise _Forfeit(color, f"{spec.text} did not start: {error}", unstarted=spec.text) from None
        known = tables.result(board)
        scores: dict[Color, list[float | None]] = {color: [] for color in specs}
        while board.outcome() is None and board.ply() < task.max_plies and known is None:
            color = board.turn
            clock = None if task.clock is None else Clock(max(left[color], 0.0), task.clock.inc)
            started = time.monotonic()
            try:
                move, score = players[color].choose(board.copy(), clock)
            except Resigned as resigned:
                raise _Forfeit(color, f"resigned: {resigned}", plain=True) from None
            except Exception as error:
                if task.clock is not None and _flagged(task.clock, left[color], time.monotonic() - started):
                    why = f"time forfeit: {specs[color].text} lost on time ({error})"
                    raise _Forfeit(color, why, plain=True) from None
                raise _Forfeit(color, f"{specs[color].text}: {error}") from None
            if task.clock is not None:
                used = time.monotonic() - started
                if _flagged(task.clock, left[color], used):
                    have = left[color] + task.clock.inc
                    why = f"time forfeit: {specs[color].text} took {used:.2f} s with {have:.2f} s left"
                    raise _Forfeit(color, why, plain=True)
                left[color] += task.clock.inc - used
            if not board.is_legal(move):
                raise _Forfeit(color, f"illegal move {move}")
            board.push(move)
            scores[color].append(None if score is None else _centi(score))
            known = tables.result(board)
            if known is None and task.adjudication is not None:
                known = task.adjudication.verdict(board, scores)
        result, termination = _end(board, known)
    except _Forfeit as forfeit:
        result = result_for(board.ruleset, forfeit.color.opponent)
        termination = forfeit.why if forfeit.plain else f"forfeit: {forfeit.why}"
        termination = termination[:300]
        unstarted = forfeit.unstarted
    finally:
        for player in players.values():
            with contextlib.suppress(Exception):
                player.close(board.copy())
    return _finish(task, board, result, termination, unstarted, left)


def _end(board: Board, known: tuple[Color | None, str] | None) -> tuple[str, str]:
    """The result and termination of a game that ended on ``board`` (``known``: an adjudication)."""
    from draughts.results import result_for

    outcome = board.outcome()
    if outcome is not None:
        return outcome.result, f"rules: {outcome.termination.value}"
    if known is not None:
        return result_for(board.ruleset, known[0]), known[1]
    return result_for(board.ruleset, None), f"adjudicated: draw after {board.ply()} plies"


def _finish(
    task: GameTask,
    board: Board,
    result: str | None = None,
    termination: str = "",
    unstarted: str | None = None,
    left: Mapping[Color, float] | None = None,
) -> dict[str, Any]:
    """The game's JSON-able dict with its PDN text (``result`` None: read off ``board``)."""
    from draughts.pdn.game import Game
    from draughts.pdn.writer import write_game

    if result is None:
        result, termination = _end(board, None)
    headers = {
        "Event": "polydraughts match",
        "Round": str(task.index + 1),
        "White": task.white.label,
        "Black": task.black.label,
        "Result": result,
        "Termination": termination,
    }
    if task.clock is not None:
        headers["TimeControl"] = task.clock.text
    pdn = write_game(Game.from_board(board, headers, result))
    game: dict[str, Any] = {
        "index": task.index,
        "white": task.white.label,
        "black": task.black.label,
        "result": result,
        "winner": _winner(board, result),
        "termination": termination,
        "plies": len(board.move_stack),
        "pdn": pdn,
    }
    if unstarted is not None:
        game["did_not_start"] = unstarted
    if task.clock is not None and left is not None:
        game["clock"] = {"white": round(left[WHITE], 3), "black": round(left[WHITE.opponent], 3)}
    return game


def _flagged(clock: TimeControl, left: float, used: float) -> bool:
    """Whether a move that took ``used`` seconds with ``left`` on the clock (before the increment) lost on time."""
    return used > left + clock.inc + clock.margin


def _winner(board: Board, result: str) -> str | None:
    from draughts.results import result_for

    for color, name in ((WHITE, "white"), (WHITE.opponent, "black")):
        if result == result_for(board.ruleset, color):
            return name
    return None


@attrs.define
class MatchResult:
    """Results of a match from engine A's side."""

    a: str
    b: str
    games: list[dict[str, Any]] = attrs.field(factory=list)

    def wdl(self) -> tuple[int, int, int]:
        """A's wins, draws and losses."""
        wins = draws = losses = 0
        for game in self.games:
            a_color = "white" if game["index"] % 2 == 0 else "black"  # A is White in even games
            if game["winner"] is None:
                draws += 1
            elif game["winner"] == a_color:
                wins += 1
            else:
                losses += 1
        return wins, draws, losses

    def elo(self) -> EloEstimate:
        """A's Elo difference over B with its 95% interval."""
        return elo_estimate(*self.wdl())

    def table(self) -> str:
        """The results table: score, W-D-L and the Elo difference with its interval."""
        wins, draws, losses = self.wdl()
        games = wins + draws + losses
        score = wins + draws / 2
        lines = [
            f"{'engine':<40} {'score':>9} {'W-D-L':>11}",
            f"{self.a:<40} {score:>4g}/{games:<4} {wins}-{draws}-{losses:<5}",
            f"{self.b:<40} {games - score:>4g}/{games:<4} {losses}-{draws}-{wins:<5}",
        ]
        if games:
            lines.append(f"Elo difference: {self.elo()}")
        return "\n".join(lines)

    def unstarted(self) -> dict[str, int]:
        """Why engines could not start: each reason (a game's termination) with its number of games."""
        reasons: dict[str, int] = {}
        for game in self.games:
            if game.get("did_not_start"):
                reasons[game["termination"]] = reasons.get(game["termination"], 0) + 1
        return reasons

    def played(self) -> int:
        """Games in which both engines started (whatever their end)."""
        return sum(1 for game in self.games if not game.get("did_not_start"))


def _check_engines(ruleset: Ruleset | str, specs: Sequence[EngineSpec]) -> None:
    """Refuse, before any game, what no game could play: a DXP engine on a board DXP cannot describe."""
    if any(parse_player(spec.text).kind == "dxp" for spec in specs):
        from draughts.dxp.board_text import check_board
        from draughts.rules.names import get_variant

        check_board(get_variant(ruleset))


def _check_counts(games: object, max_plies: object) -> None:
    """Refuse a match of no game, or whose games would be adjudicated before a move."""
    for name, value in (("games", games), ("max_plies", max_plies)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise DraughtsError(f"{name} {excerpt(value)} must be a whole number from 1")


def run_match(
    a: EngineSpec,
    b: EngineSpec,
    *,
    games: int = 2,
    ruleset: Ruleset | str | os.PathLike[str] = "international",
    openings: str | Sequence[Any] | RandomOpenings | None = None,
    limit: Limit | None = None,
    clock: TimeControl | None = None,
    max_plies: int = 300,
    tablebases: str | Path | None = None,
    adjudication: Adjudication | None = None,
    executor: Executor | None = None,
    workers: int = 2,
    results: str | Path | None = None,
    pdn: str | Path | None = None,
    sprt: SPRT | None = None,
    progress: Callable[[MatchResult, int], None] | None = None,
) -> MatchResult:
    """Play ``games`` games of ``a`` against ``b``: each opening twice (colours swapped), A White first.

    Args:
        ruleset: The rules: a name, a rule file, ``module:attribute`` or a
            :class:`~draughts.rules.Ruleset` (:func:`~draughts.rules.files.resolve_ruleset`).
        openings: Where games start, each opening twice in turn: a ballot's name (``draughts.openings``),
            or FENs, move texts joined by spaces, sequences of move texts
            (:func:`draughts.lab.runner.resolve_openings` reads them); none: the initial position.
        limit: The search limit per move (``depth``, ``time``).
        clock: Time per game with increment; the referee keeps each side's clock, and a side out
            of time loses (``time forfeit``).
        max_plies: A game still going after this many plies is adjudicated a draw.
        tablebases: A directory of endgame tables (``draughts endgame build``): a position inside
            a built table ends the game with its result under the rules (``adjudicated by tablebase``).
        adjudication: Ending games by the engines' scores (resign and draw), see :class:`Adjudication`.
        executor: Where games run (default: ``workers`` processes).
        results: JSON-lines file of finished games, after a header naming the match's settings;
            games already in it are not played again (a file of another match is refused: see
            ``draughts.match.results``).
        pdn: PDN file every finished game is appended to.
        sprt: Stop once the test decides (games already started still finish).
        progress: Called with the match so far and the number of games asked for, after each
            game (the command line's progress bar and score).

    Raises:
        ~draughts.errors.DXPError: a ``dxp:`` engine in a match of a ruleset that is not 10x10.
        ~draughts.match.MatchResultsError: ``results`` is of another match, or damaged.
        DraughtsError: ``games`` or ``max_plies`` below 1.
    """
    name, rules = ruleset_label(ruleset)
    ruleset = name if rules is None else rules  # a name travels as it is, a rule file's ruleset whole
    _check_engines(ruleset, (a, b))
    _check_counts(games, max_plies)
    match = MatchResult(a.label, b.label)
    tables = None if tablebases is None else str(tablebases)
    starts = resolve_openings(ruleset, openings) if openings else ()
    stored = None
    if results is not None:
        settings = settings_of(
            a=a,
            b=b,
            ruleset=ruleset,
            openings=openings,
            limit=limit or Limit(),
            clock=clock,
            max_plies=max_plies,
            tablebases=tables,
            adjudication=adjudication,
        )
        stored = ResultsFile(Path(results), settings, games, (a.label, b.label))
        match.games.extend(stored.read())
    done = {game["index"] for game in match.games}
    tasks = []
    for index in range(games):
        if index in done:
            continue
        opening = starts[(index // 2) % len(starts)] if starts else None
        white, black = (a, b) if index % 2 == 0 else (b, a)
        tasks.append(
            GameTask(index, white, black, ruleset, opening, limit or Limit(), max_plies, clock, tables, adjudication)
        )
    own = executor is None
    pool = ProcessPoolExecutor(workers) if executor is None else executor
    try:
        futures = [pool.submit(play_task, task) for task in tasks]
        for future in as_completed(futures):
            game = future.result()
            match.games.append(game)
            if stored is not None:
                stored.append(game)
            if pdn is not None:
                with open(pdn, "a", encoding="utf-8") as handle:
                    handle.write(game["pdn"] + "\n")
            if progress is not None:
                progress(match, games)
            if sprt is not None and sprt.decision(*match.wdl()) is not None:
                for other in futures:
                    other.cancel()
                break
    finally:
        if own:
            pool.shutdown(wait=True, cancel_futures=True)
    match.games.sort(key=lambda g: g["index"])
    return match

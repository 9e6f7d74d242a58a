"""Annotated games: an engine's evaluation on every move, its better move where a move loses much, and marks.

:func:`annotate` analyses every position of a game's main line and returns a copy of the game with

* a ``[%eval ...]`` comment after every move: the score of the position after it, **from White's
  side** (as PGN's ``%eval`` is), in men with two decimals, or ``#N`` / ``#-N`` for a win or loss in
  ``N`` plies (see :class:`~draughts.engine.score.Score`);
* a mark on every move that lowers its player's winning chances by a threshold or more:
  ``?!`` (inaccuracy), ``?`` (mistake), ``??`` (blunder), measured on lidraughts' scale
  ``2 / (1 + exp(-0.004 * cp)) - 1`` with lidraughts' thresholds 0.075, 0.15 and 0.3
  (:data:`LIDRAUGHTS`; one documented choice: pass your own :class:`Thresholds`);
* the engine's line from the position before such a move as a variation, for mistakes and blunders;
* per side, the tags ``WhiteAccuracy`` / ``BlackAccuracy`` (lichess's accuracy formula, the mean of
  the side's moves, from 0 to 100) and ``WhiteInaccuracies``, ``WhiteMistakes``, ``WhiteBlunders``
  (and Black's).

>>> import draughts
>>> from draughts import pdn
>>> from draughts.engine.analysis import annotate
>>> from draughts.engine import Engine, Limit
>>> game = pdn.parse_game("1. c3-d4 f6-g5 2. d4-e5 d6xf4 3. g3xe5 *", "russian")
>>> marked = annotate(game, Engine(), Limit(depth=3))
>>> marked.comments[1]
['[%eval -0.13]']
>>> sorted(tag for tag in marked.headers if tag.endswith("Accuracy"))
['BlackAccuracy', 'WhiteAccuracy']

Over a collection, :func:`annotate_games` runs one job per game on an executor (a
``concurrent.futures`` pool), each with its own engine. ``draughts annotate GAME.pdn`` is the
command line of the same.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from typing import Protocol

import attrs

from draughts.board import Board
from draughts.color import Color
from draughts.engine import AnalysisLine, Engine, Limit
from draughts.engine.score import Score
from draughts.move import Move
from draughts.notation import move_text
from draughts.pdn.game import Game
from draughts.position import Position

__all__ = ["LIDRAUGHTS", "Analyser", "Judgement", "Thresholds", "accuracy", "annotate", "annotate_games", "judge"]

_EVAL = re.compile(r"\s*\[%eval [^\]]*\]\s*")
_MARK = re.compile(r"[!?]{1,3}|\([!?]{1,3}\)")


class Analyser(Protocol):
    """What :func:`annotate` needs of an engine: :meth:`draughts.engine.Engine.analyse`'s signature.

    :class:`~draughts.engine.Engine` and :class:`~draughts.hub.HubEngine` both are.
    """

    def analyse(self, game: Board | Position, limit: Limit | None = None, *, multipv: int = 1) -> list[AnalysisLine]:
        """The best ``multipv`` lines of ``game``."""
        ...  # pragma: no cover


@attrs.frozen
class Thresholds:
    """Drops in winning chances (on the -1 to 1 scale) from which a move is marked.

    Attributes:
        inaccuracy: ``?!`` from this drop.
        mistake: ``?`` from this drop; the engine's better line is added as a variation.
        blunder: ``??`` from this drop.
    """

    inaccuracy: float = 0.075
    mistake: float = 0.15
    blunder: float = 0.3

    def mark(self, drop: float) -> str | None:
        """The mark of a move that drops its player's winning chances by ``drop`` (None under the thresholds)."""
        if drop >= self.blunder:
            return "??"
        if drop >= self.mistake:
            return "?"
        if drop >= self.inaccuracy:
            return "?!"
        return None


LIDRAUGHTS = Thresholds()
"""lidraughts' thresholds: inaccuracy 0.075, mistake 0.15, blunder 0.3."""


@attrs.frozen
class Judgement:
    """What the analysis says about one move of the main line.

    Attributes:
        ply: The move's ply number (1 = the first move).
        mover: The side that played it.
        best: The engine's best line in the position before the move (its score for ``mover``).
        after: The score of the position after the move, for ``mover``.
        drop: How much the move lowered ``mover``'s winning chances (0 for the engine's own move
            and for a move the engine finds better than its choice).
        mark: ``?!``, ``?``, ``??`` or None.
    """

    ply: int
    mover: Color
    best: AnalysisLine
    after: Score
    drop: float
    mark: str | None


def accuracy(drop: float) -> float:
    """lichess's accuracy of a move, 0 to 100, from its drop in winning chances (-1 to 1 scale).

    ``103.1668 * exp(-0.04354 * d) - 3.1669`` where ``d`` is the drop in win percent (50 per unit of
    winning chances): a perfect move is 100, a drop of 0.3 about 50.

    >>> accuracy(0), round(accuracy(0.3), 1)
    (100, 50.5)
    """
    value = 103.1668 * math.exp(-0.04354 * 50 * max(drop, 0.0)) - 3.1669
    return 100 if drop <= 0 else max(0.0, min(100.0, value))


def _end_score(board: Board) -> Score | None:
    """The score of a finished game for the side to move (None while it goes on)."""
    outcome = board.outcome()
    if outcome is None:
        return None
    if outcome.winner is None:
        return Score(0, None, True)
    return Score.win(1) if outcome.winner is board.turn else Score.loss(1)


_FORCED_CHAIN = 64
"""Most forced moves followed from one position before its own analysis is trusted."""


def _score_of(board: Board, engine: Analyser, limit: Limit | None) -> AnalysisLine | Score | None:
    """The engine's best line of ``board`` (its outcome's score when finished, None with no line).

    A position with a single legal move is not analysed itself: an engine may answer a forced move
    at once, with a near-static score (one node), which compared with its neighbours' searched
    scores marks good moves as mistakes (issue 40 §1). The position after the forced move (or
    after a chain of them) is analysed instead, and its line is taken one ply back.
    """
    forced: list[Move] = []
    start = board.position
    board = board.copy()
    while True:
        end = _end_score(board)
        if end is not None:
            return _back(end, forced, start)
        legal = list(board.legal_moves)
        if len(legal) != 1 or len(forced) >= _FORCED_CHAIN:
            break
        forced.append(legal[0])
        board.push(legal[0])
    lines = engine.analyse(board, limit, multipv=1)
    return _back(lines[0], forced, start) if lines else None


def _back(line: AnalysisLine | Score, forced: Sequence[Move], start: Position) -> AnalysisLine | Score:
    """``line`` of the position after the ``forced`` moves, seen from the position before them."""
    if not forced:
        return line
    score = line.score if isinstance(line, AnalysisLine) else line
    for _move in forced:
        score = -score
        if score.plies is not None:
            score = Score(0, score.plies + (1 if score.plies > 0 else -1), score.exact)
    pv = (*forced, *line.pv) if isinstance(line, AnalysisLine) else tuple(forced)
    depth, nodes = (line.depth, line.nodes) if isinstance(line, AnalysisLine) else (0, 0)
    return AnalysisLine(forced[0], score, pv, depth, nodes, position=start)


def judge(
    game: Game,
    engine: Analyser,
    limit: Limit | None = None,
    *,
    thresholds: Thresholds = LIDRAUGHTS,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[Judgement], Score | None]:
    """Analyse every position of ``game``'s main line: a :class:`Judgement` per move.

    A position with a single legal move is scored by the analysis of the position after it (after
    the whole chain of forced moves), never by the engine's own answer there, which may be one
    node deep. ``progress(done, total)`` is called after each position (``total`` is the number of moves
    plus one, the final position).

    Returns:
        The judgements, one per move, and the score of the final position for its side to move
        (None when the engine gives no line there).
    """
    board = Board.from_position(game.start)
    scores: list[AnalysisLine | Score | None] = []
    for move in [*game.moves, None]:
        scores.append(_score_of(board, engine, limit))
        if progress is not None:
            progress(len(scores), len(game.moves) + 1)
        if move is not None:
            board.push(move)
    judgements = []
    position = game.start
    for ply, move in enumerate(game.moves, 1):
        before, after = scores[ply - 1], scores[ply]
        after_score = after.score if isinstance(after, AnalysisLine) else after
        if isinstance(before, AnalysisLine) and after_score is not None:
            mover_after = -after_score
            drop = 0.0
            if before.move != move:
                drop = max(0.0, before.score.winning_chances() - mover_after.winning_chances())
            judgements.append(Judgement(ply, position.turn, before, mover_after, drop, thresholds.mark(drop)))
        position = position.play(move)
    last = scores[-1]
    return judgements, last.score if isinstance(last, AnalysisLine) else last


def _white_view(score: Score, side: Color) -> Score:
    return score if side is Color.WHITE else -score


def _line_text(position: Position, moves: Sequence[Move], ply: int, first: Color, offset: int) -> str:
    """``moves`` from ``position`` as PDN movetext with move numbers, the first being ply ``ply``."""
    pieces = []
    for index, move in enumerate(moves):
        number = (ply + index - 1 + offset) // 2 + 1
        text = move_text(position, move)
        if position.turn is first:
            text = f"{number}. {text}"
        elif index == 0:
            text = f"{number}... {text}"
        pieces.append(text)
        position = position.play(move)
    return " ".join(pieces)


def annotate(
    game: Game,
    engine: Analyser | None = None,
    limit: Limit | None = None,
    *,
    thresholds: Thresholds = LIDRAUGHTS,
    variation_plies: int = 6,
    progress: Callable[[int, int], None] | None = None,
) -> Game:
    """A copy of ``game`` with the engine's evaluations, marks, better lines and accuracy tags.

    ``game`` itself is left as it was. Comments already there are kept (an old ``[%eval]`` is
    replaced), a move already marked keeps its mark, variations already there are kept and the
    engine's come after them. A finished game's last position is scored by its outcome, not
    searched; a move next to a position the engine gives no line for (an external engine that
    wrote no scored ``info`` line) gets no ``%eval`` and no mark, rather than an invented score.

    Args:
        game: The game (its main line is analysed).
        engine: Anything with :meth:`~draughts.engine.Engine.analyse` (default: a new
            :class:`~draughts.engine.Engine`).
        limit: The search of each position (default: the engine's own).
        thresholds: When a move is marked (default: lidraughts').
        variation_plies: At most this many plies of the engine's better line are written.
        progress: Called with the positions analysed so far and their number, after each.
    """
    engine = Engine() if engine is None else engine
    judgements, _ = judge(game, engine, limit, thresholds=thresholds, progress=progress)
    comments = {ply: list(texts) for ply, texts in game.comments.items()}
    annotations = {ply: list(marks) for ply, marks in game.annotations.items()}
    variations = {ply: list(texts) for ply, texts in game.variations.items()}
    first = game.ruleset.first_to_move
    offset = 0 if game.start.turn is first else 1
    positions = game.positions()
    for judgement in judgements:
        ply = judgement.ply
        kept = [text for text in (_EVAL.sub(" ", text).strip() for text in comments.get(ply, [])) if text]
        evaluation = _white_view(judgement.after, judgement.mover)
        comments[ply] = [f"[%eval {evaluation.text()}]", *kept]
        marks = annotations.setdefault(ply, [])
        if judgement.mark is not None and not any(_MARK.fullmatch(mark) for mark in marks):
            marks.insert(0, judgement.mark)
        if not marks:
            del annotations[ply]
        if judgement.mark in ("?", "??") and judgement.best.move != game.moves[ply - 1]:
            pv = judgement.best.pv[: max(variation_plies, 1)]
            before = positions[ply - 1]
            head = _line_text(before, pv[:1], ply, first, offset)
            rest = _line_text(before.play(pv[0]), pv[1:], ply + 1, first, offset)
            best = _white_view(judgement.best.score, judgement.mover)  # the comment: the line's score
            variations.setdefault(ply, []).append(f"{head} {{[%eval {best.text()}]}} {rest}".strip())
    headers = dict(game.headers)
    headers.update(_summary(judgements))
    return attrs.evolve(game, headers=headers, comments=comments, annotations=annotations, variations=variations)


def _summary(judgements: Iterable[Judgement]) -> dict[str, str]:
    """The accuracy tags of both sides."""
    tags: dict[str, str] = {}
    for side in (Color.WHITE, Color.BLACK):
        name = side.name.capitalize()
        own = [judgement for judgement in judgements if judgement.mover is side]
        if own:
            tags[f"{name}Accuracy"] = f"{sum(accuracy(j.drop) for j in own) / len(own):.1f}"
        for mark, label in (("?!", "Inaccuracies"), ("?", "Mistakes"), ("??", "Blunders")):
            tags[f"{name}{label}"] = str(sum(judgement.mark == mark for judgement in own))
    return tags


def _annotate_one(
    game: Game,
    limit: Limit | None,
    thresholds: Thresholds,
    engine_factory: Callable[[], Analyser],
    progress: Callable[[int, int], None] | None = None,
) -> Game:
    engine = engine_factory()
    try:
        return annotate(game, engine, limit, thresholds=thresholds, progress=progress)
    finally:
        close = getattr(engine, "quit", None)  # an external engine's process ends with its job
        if callable(close):
            close()


def annotate_games(
    games: Iterable[Game],
    limit: Limit | None = None,
    *,
    executor: Executor | None = None,
    engine_factory: Callable[[], Analyser] = Engine,
    thresholds: Thresholds = LIDRAUGHTS,
    progress: Callable[[int, int], None] | None = None,
) -> list[Game]:
    """:func:`annotate` every game, one job per game, in the order given.

    Args:
        games: The games.
        limit: The search of each position.
        executor: Where the jobs run (a ``ProcessPoolExecutor`` spreads games over processes; the
            games, the limit and ``engine_factory`` are then pickled). None: here, one after another.
        engine_factory: Makes each job's engine (a class or a module-level function, so that it
            pickles); an engine with a ``quit`` method (a Hub engine) is quit when its job ends.
        thresholds: When a move is marked.
        progress: Called with the positions analysed so far and their number in all the games:
            after each position here, after each game (in order) on an executor.
    """
    games = list(games)
    total = sum(len(game.moves) + 1 for game in games)
    job = functools.partial(_annotate_one, limit=limit, thresholds=thresholds, engine_factory=engine_factory)
    done: list[Game] = []
    offset = 0
    if executor is not None:
        for game in executor.map(job, games):
            done.append(game)
            offset += len(game.moves) + 1
            if progress is not None:
                progress(offset, total)
        return done
    for game in games:
        step = None if progress is None else functools.partial(_step, progress, offset, total)
        done.append(job(game, progress=step))
        offset += len(game.moves) + 1
    return done


def _step(progress: Callable[[int, int], None], offset: int, total: int, done: int, _: int) -> None:
    """One game's progress as the collection's."""
    progress(offset + done, total)

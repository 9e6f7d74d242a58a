"""What a search is asked and what it answers: limits, results, analysis lines, the mate score."""

from __future__ import annotations

from typing import Any, Protocol

import attrs

from draughts._text import excerpt
from draughts.engine import search as _core_search
from draughts.engine.score import Score
from draughts.errors import DraughtsError, InvalidLimitError
from draughts.move import Move
from draughts.notation import move_text
from draughts.position import Position

__all__ = ["MATE", "AnalysisLine", "Limit", "SearchResult", "StopSignal"]

MATE = _core_search.MATE
"""The score of a won game; a win in ``n`` plies scores ``MATE - n``."""

_MATE_BOUND = _core_search.MATE_BOUND


def _positive_or_none(kind: type) -> Any:
    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if value is None:
            return
        # ``not value > 0`` also refuses NaN, which compares false with everything and would never stop.
        if isinstance(value, bool) or not isinstance(value, (int, float) if kind is float else int) or not value > 0:
            raise InvalidLimitError(f"{attribute.name} {excerpt(value)} must be a positive number or None")

    return check


MAX_THREADS = 256
"""The most threads a :class:`Limit` may ask for."""


def _threads(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_THREADS:
        raise InvalidLimitError(f"threads {excerpt(value)} must be a whole number from 1 to {MAX_THREADS}")


class StopSignal(Protocol):
    """What :meth:`~draughts.engine.Engine.search` accepts as ``stop``: anything with ``is_set()``, like
    ``threading.Event``."""

    def is_set(self) -> bool:
        """Whether the search should stop."""
        ...  # pragma: no cover


@attrs.frozen
class Limit:
    """When a search stops: after ``depth`` plies, ``nodes`` nodes or ``time`` seconds.

    Whichever comes first ends the search; with none of them the search goes to depth 64 (or until
    :meth:`~draughts.engine.Engine.stop`). Depth and node limits give reproducible results; time limits depend on the
    machine.

    Attributes:
        depth: Full-width plies of the deepest iteration (captures are followed beyond it).
        nodes: Most nodes (positions visited, quiescence included) the search may visit.
        time: Seconds of thinking (wall-clock). The search uses them all and stops just before
            they are up (a twentieth early, at most 0.02 s), answering with the deepest iteration
            and the moves its unfinished successor has already searched; a single legal move is
            answered after a short search (5 plies, or sooner when the time is up) that scores it.
        threads: Threads searching at once (default 1). Above 1, the root's moves are split
            between that many searchers, each with its own transposition table (so the engine
            keeps that many tables): legal answers to the limit, but which thread searches which
            move depends on timing, so the score, node count and sometimes the move vary from
            run to run and from one thread's. One thread is used anyway with a node limit (so
            that the count is exact), a Python evaluation function (it holds the interpreter's
            lock), multi-PV analysis, and a root with one move.
    """

    depth: int | None = attrs.field(default=None, validator=_positive_or_none(int))
    nodes: int | None = attrs.field(default=None, validator=_positive_or_none(int))
    time: float | None = attrs.field(default=None, validator=_positive_or_none(float))
    threads: int = attrs.field(default=1, validator=_threads, kw_only=True)


def _pv_text(position: Position | None, pv: tuple[Move, ...]) -> str:
    """``pv`` from ``position`` as the variant writes it (see :attr:`SearchResult.pv_text`)."""
    if not pv:
        return ""
    if position is None:
        raise DraughtsError("this line carries no position to write its moves from: pass position= when making it")
    texts = []
    for move in pv:
        texts.append(move_text(position, move))
        position = position.play(move)
    return " ".join(texts)


@attrs.frozen
class SearchResult:
    """The answer of a search.

    Attributes:
        move: The chosen move (a legal move of the searched position), or None when the game is
            over (no legal move, or a finished :class:`~draughts.Board`).
        value: The engine's integer score of ``move`` for the side to move: hundredths of a man,
            ``MATE - n`` for a forced win in ``n`` plies, ``-(MATE - n)`` for a forced loss
            (:attr:`score` is the same as a :class:`~draughts.engine.score.Score`).
        pv: The principal variation, starting with ``move``.
        depth: The depth of the last completed iteration (0 if none completed).
        nodes: Nodes visited.
        position: The position searched (the engine sets it; :attr:`pv_text` writes the line
            from it). Not part of equality.
    """

    move: Move | None
    value: int
    pv: tuple[Move, ...]
    depth: int
    nodes: int
    position: Position | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)

    @property
    def score(self) -> Score:
        """The score as :meth:`Engine.analyse` gives it: ``Score.cp(35)``, ``Score.win(7)`` (issue 40 §5)."""
        return Score.from_search(self.value)

    @property
    def pv_text(self) -> str:
        """The principal variation as the variant writes it, moves separated by spaces (``c3-d4 f6-g5``
        in Russian, ``32-28 19-23`` in International); ``str(Move)`` cannot, as a move does not
        know its variant.

        Raises:
            DraughtsError: the result carries no position (one made by hand without ``position=``).
        """
        return _pv_text(self.position, self.pv)

    @property
    def mate_in(self) -> int | None:
        """Plies to a forced end of the game: positive when the side to move wins, negative when it loses."""
        if self.value >= _MATE_BOUND:
            return MATE - self.value
        if self.value <= -_MATE_BOUND:
            return -(MATE + self.value)
        return None


@attrs.frozen
class AnalysisLine:
    """One line of :meth:`~draughts.engine.Engine.analyse`: a first move, its score and what the engine
    expects after it.

    Attributes:
        move: The line's first move.
        score: Its :class:`~draughts.engine.score.Score` for the side to move (exact from a tablebase).
        pv: The principal variation, starting with ``move``.
        depth: The depth of the iteration that scored it (0 for a tablebase's answer).
        nodes: Nodes the whole analysis visited (the same for every line of one call).
        multipv: The line's rank, 1 for the best.
        position: The position analysed (the engine sets it; :attr:`pv_text` writes the line
            from it). Not part of equality.
    """

    move: Move
    score: Score
    pv: tuple[Move, ...]
    depth: int
    nodes: int
    multipv: int = 1
    position: Position | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)

    @property
    def pv_text(self) -> str:
        """The line as the variant writes it, moves separated by spaces (see :attr:`SearchResult.pv_text`)."""
        return _pv_text(self.position, self.pv)

"""The :class:`Engine`: search and analysis for any ruleset (the package's docstring says how it works)."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable
from typing import Any

import attrs

from draughts import _caches
from draughts._native import Rng
from draughts._text import excerpt
from draughts.board import Board
from draughts.engine.limits import MATE, AnalysisLine, Limit, SearchResult, StopSignal
from draughts.engine.root import _from_tablebase, _lines_from_tablebase, _RootSearch
from draughts.engine.search import Searcher, searcher
from draughts.engine.weights import Weights
from draughts.errors import InvalidLimitError, InvalidWeightsError
from draughts.position import Position
from draughts.rules import Ruleset

__all__ = ["Engine"]

# --- search -------------------------------------------------------------------------------------
#
# The search works on the native generator's nodes and xor-mask moves (``draughts._native``),
# never on Position and Move objects per node. A node is ``(own, opp, kings, color, state)``; a
# move's key is its xor masks. tests/engine/test_engine.py checks the search's moves and children against
# Position.legal_moves and Position.play.


def _check_weights(_instance: object, _attribute: attrs.Attribute[Any], value: object) -> None:
    """Refuse weights that are not :class:`Weights` at construction, not at the first search.

    The evaluation reads the weights' fields only when a search starts; anything else (a string, a
    dict) would then fail deep inside with an AttributeError that does not name the bad argument.
    """
    if not isinstance(value, Weights):
        raise InvalidWeightsError(
            f"Engine weights {excerpt(value)} must be a draughts.engine.Weights, e.g. Weights(contact=5)"
        )


def _counts(board: Board) -> tuple[tuple[int, ...], int]:
    """The draw counts a search of ``board`` starts from: each move-count rule's, then the plies
    since the last capture or crowning."""
    counters = board.counters
    return counters.move_counts, counters.since_material_change


def _rng(seed: int | None) -> Rng:
    """The engine's generator of ``seed`` (None: a seed from the operating system)."""
    return Rng(secrets.randbits(64) if seed is None else seed)


@attrs.define(eq=False)
class Engine:
    """A searching opponent for any ruleset.

    Args:
        seed: Seed of the engine's :class:`draughts._native.Rng` (splitmix64, the generator the native
            game loop and the random player share), used only to choose among equally good moves;
            None: a seed from the operating system.
        evaluate: Your evaluation, ``f(position) -> int`` for the side to move (replaces the
            built-in one and its weights).
        weights: Weights of the built-in evaluation.
        margin: Root moves scoring within ``margin`` of the best count as equally good (0 = only
            equal scores); levels use it to play weaker, varied moves.
        limit: The default limit of :meth:`search`.
        hash_size: Most transposition-table entries kept (when full, the quarter written first goes).
        tablebase: A :class:`draughts.endgame.Tablebase` of the ruleset: a root position inside
            a built table is answered from it, with no search (the fastest win from a won
            position, so a win is converted in at most its distance; a drawing move from a drawn
            one; the longest defence from a lost one), and inside the search every node whose
            material is built scores its exact value (a win or loss in ``n`` plies as a mate in
            ``n``, a draw 0). None: search only.

    >>> import draughts
    >>> from draughts.engine import Engine, Limit, line_text
    >>> pos = draughts.Position.from_fen("russian", "W:Wd4,h4,c3,b2:Bf6,h6")
    >>> result = Engine().search(pos, Limit(depth=4))
    >>> line_text(pos, result.pv)
    'd4-e5 f6:d4 c3:e5 h6-g5 h4:f6'
    >>> result.mate_in  # plies until Black has no piece left
    5
    """

    seed: int | None = 0
    evaluate: Callable[[Position], int] | None = None
    weights: Weights = attrs.field(factory=Weights, validator=_check_weights)
    margin: int = 0
    limit: Limit = attrs.field(factory=lambda: Limit(depth=6))
    hash_size: int = 500_000
    tablebase: Any = None
    _random: Rng = attrs.field(init=False)
    _tables: dict[Ruleset, Searcher] = attrs.field(init=False, factory=dict)
    _stop_event: threading.Event = attrs.field(init=False, factory=threading.Event)

    def __attrs_post_init__(self) -> None:
        self._random = _rng(self.seed)
        if isinstance(self.margin, bool) or not isinstance(self.margin, int) or self.margin < 0:
            raise InvalidLimitError(f"margin {excerpt(self.margin)} must be a non-negative number")

    def clear(self) -> None:
        """Forget the transposition tables (a new game) and reseed the random choices."""
        self._tables.clear()
        self._random = _rng(self.seed)

    def _table_of(self, rules: Ruleset) -> Searcher:
        """The native searcher of ``rules`` with its transposition table: the same bitboards score
        differently under other rules.

        Tables of the rulesets searched last are kept (:data:`draughts._caches.ENGINE_TABLES`).
        """
        table = self._tables.pop(rules, None)
        if table is None:
            table = searcher(rules, self.hash_size)
            while len(self._tables) >= _caches.ENGINE_TABLES:
                del self._tables[next(iter(self._tables))]
        self._tables[rules] = table  # most recent last
        return table

    def stop(self) -> None:
        """Ask a running :meth:`search` (in another thread) to stop soon and return its best move."""
        self._stop_event.set()

    def search(
        self, game: Board | Position, limit: Limit | None = None, *, stop: StopSignal | None = None
    ) -> SearchResult:
        """Search ``game`` (a board, whose history counts for repetitions and whose draw counts the
        search carries along its lines, or a position, searched as a game's first position).

        A finished game (:meth:`~draughts.Board.outcome` is not None) or a position without a legal
        move gives a result with ``move=None``, the score of the end (0 for a draw) and no nodes.

        Args:
            game: What to search.
            limit: When to stop (default: the engine's ``limit``).
            stop: A flag another thread may set to end the search early, such as a
                ``threading.Event`` (default: the one :meth:`stop` sets, cleared when the search starts).
        """
        limit = self.limit if limit is None else limit
        if not isinstance(limit, Limit):
            raise TypeError(f"search limit {limit!r:.80} must be a draughts.engine.Limit, e.g. Limit(depth=6)")
        if isinstance(game, Board):
            position = game.position
            outcome = game.outcome()
            if outcome is not None:
                score = 0 if outcome.winner is None else (MATE if outcome.winner is position.turn else -MATE)
                return SearchResult(None, score, (), 0, 0, position=position)
            history = [p.node for p in game.positions()[:-1]]
            counts = _counts(game)
        elif isinstance(game, Position):
            position = game
            history = []
            counts = None
        else:
            raise TypeError(f"cannot search {game!r}: pass a Board or a Position")
        if self.tablebase is not None and not position.is_over():
            known = _from_tablebase(self.tablebase, position, self._random)
            if known is not None:
                return known
        if stop is None:
            stop = self._stop_event
            stop.clear()
        run = _RootSearch(self, position, limit, history, stop, counts=counts)
        return run.run()

    def analyse(
        self, game: Board | Position, limit: Limit | None = None, *, multipv: int = 1, stop: StopSignal | None = None
    ) -> list[AnalysisLine]:
        """The best ``multipv`` lines of ``game``: distinct first moves, best first, each scored exactly.

        Like :meth:`search`, but every one of the best ``multipv`` root moves is searched with an open
        window (not only the best), so their scores are exact and comparable; the others are
        bounds and left out. A position inside the engine's tablebase is answered from it: every
        legal move with its exact :class:`~draughts.engine.score.Score` (a win or loss in N plies, or a
        draw). A finished game gives no lines.

        >>> import draughts
        >>> lines = Engine().analyse(draughts.Board("russian"), Limit(depth=3), multipv=3)
        >>> len({line.move for line in lines}), lines[0].score >= lines[1].score >= lines[2].score
        (3, True)

        Args:
            game: What to analyse (a board's history counts for repetitions).
            limit: When to stop (default: the engine's ``limit``); the lines are those of the last
                iteration that scored them all.
            multipv: How many lines (fewer when there are fewer legal moves).
            stop: As for :meth:`search`.

        Raises:
            draughts.errors.InvalidLimitError: ``multipv`` is not a positive whole number.
        """
        if isinstance(multipv, bool) or not isinstance(multipv, int) or multipv < 1:
            raise InvalidLimitError(f"multipv {excerpt(multipv)} must be a positive whole number")
        limit = self.limit if limit is None else limit
        if not isinstance(limit, Limit):
            raise TypeError(f"analysis limit {limit!r:.80} must be a draughts.engine.Limit, e.g. Limit(depth=6)")
        board = game if isinstance(game, Board) else Board.from_position(game) if isinstance(game, Position) else None
        if board is None:
            raise TypeError(f"cannot analyse {game!r}: pass a Board or a Position")
        position = board.position
        if board.outcome() is not None or not position.legal_moves():
            return []
        if self.tablebase is not None:
            known = _lines_from_tablebase(self.tablebase, position, multipv)
            if known is not None:
                return known
        if stop is None:
            stop = self._stop_event
            stop.clear()
        history = [p.node for p in board.positions()[:-1]]
        run = _RootSearch(self, position, limit, history, stop, multipv, _counts(board))
        best = run.run()
        return run.lines(best, multipv)

"""A computer opponent for every ruleset: alpha-beta search and a generic evaluation.

>>> import draughts
>>> from draughts.engine import Engine, Limit
>>> board = draughts.Board("russian")
>>> result = Engine(seed=1).search(board, Limit(depth=3))
>>> result.move in board.legal_moves, result.depth
(True, 3)

Search
------
:meth:`Engine.search` is a negamax alpha-beta search with principal-variation (null-window)
re-searches, iterative deepening, a transposition table keyed by the exact position
``(white, black, kings, turn)``, move ordering (the transposition-table move and the previous
iteration's best move first, then captures by size, crowning moves, two killer moves per ply and
the history heuristic) and a quiescence search that follows captures: where the side to move has
a capture the search goes on through it, so no score is taken in the middle of an exchange. It
stops at a :class:`Limit` of depth, nodes or time, whichever comes first; the last completed
iteration gives the answer. Depth and node limits are reproducible: with the same seed the same
calls give the same results. A position repeated on the search path or in the game history of a
:class:`~draughts.Board` counts as a draw (where the ruleset has a repetition rule); the
move-count and endgame draw rules are left to :meth:`~draughts.Board.outcome` and not searched.

Randomness
----------
The only random choice is among root moves whose scores are equal, or within the engine's
``margin`` of the best (a level's way to play weaker, more varied moves). It uses ``random.Random(seed)``,
owned by the engine, so an engine built with the same seed makes the same choices.

Evaluation
----------
:func:`evaluate` scores a position for the side to move in hundredths of a man, from the
ruleset's fields only (no variant names):

* **material**: 100 per man, and a king worth :func:`king_value`: 250 for a short king; a flying
  king ``250 + 15 * board_size`` (370 on 8x8, 400 on 10x10), since it controls whole diagonals;
  30 more where men cannot capture kings;
* **advancement** of men towards their crowning row (more in the endgame, when crowning decides);
* **back-rank guard**: men still on their own first row, while the opponent has men to crown;
* **centre control**: pieces on the central squares;
* **mobility**: quiet moves available to each side (one step per direction for kings).

:class:`Weights` sets each term; pass your own evaluation to ``Engine(evaluate=...)``, a function
of a :class:`~draughts.Position` returning an ``int`` for the side to move.

Levels
------
:data:`LEVELS` names three strengths, ``beginner``, ``intermediate`` and ``strong``
(see ``docs/engine.rst`` for the match results that separate them).
"""

from __future__ import annotations

import functools
import random
import threading
import time
import types
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple, Protocol

import attrs

from draughts._core import generator
from draughts.board import Board
from draughts.color import Color
from draughts.errors import DraughtsError
from draughts.move import Move
from draughts.position import Position
from draughts.rules import Ruleset

__all__ = [
    "LEVELS",
    "MATE",
    "Engine",
    "Level",
    "Limit",
    "SearchResult",
    "StopSignal",
    "Weights",
    "evaluate",
    "get_level",
    "king_value",
    "line_text",
]

MATE = 1_000_000
"""The score of a won game; a win in ``n`` plies scores ``MATE - n``."""

_MATE_BOUND = MATE - 10_000
_INF = MATE + 1
_MAX_DEPTH = 64


class InvalidLimitError(DraughtsError):
    """A search limit that is not a positive number."""


def _positive_or_none(kind: type) -> Any:
    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if value is None:
            return
        # ``not value > 0`` also refuses NaN, which compares false with everything and would never stop.
        if isinstance(value, bool) or not isinstance(value, (int, float) if kind is float else int) or not value > 0:
            raise InvalidLimitError(f"{attribute.name} {value!r} must be a positive number or None")

    return check


class StopSignal(Protocol):
    """What :meth:`Engine.search` accepts as ``stop``: anything with ``is_set()``, like ``threading.Event``."""

    def is_set(self) -> bool:
        """Whether the search should stop."""
        ...  # pragma: no cover


@attrs.frozen
class Limit:
    """When a search stops: after ``depth`` plies, ``nodes`` nodes or ``time`` seconds.

    Whichever comes first ends the search; with none of them the search goes to depth 64 (or until
    :meth:`Engine.stop`). Depth and node limits give reproducible results; time limits depend on the
    machine.

    Attributes:
        depth: Full-width plies of the deepest iteration (captures are followed beyond it).
        nodes: Most nodes (positions visited, quiescence included) the search may visit.
        time: Seconds of thinking. A new iteration is not started after half of it has passed.
    """

    depth: int | None = attrs.field(default=None, validator=_positive_or_none(int))
    nodes: int | None = attrs.field(default=None, validator=_positive_or_none(int))
    time: float | None = attrs.field(default=None, validator=_positive_or_none(float))


@attrs.frozen
class SearchResult:
    """The answer of a search.

    Attributes:
        move: The chosen move (a legal move of the searched position), or None when the game is
            over (no legal move, or a finished :class:`~draughts.Board`).
        score: The score of ``move`` for the side to move, in hundredths of a man; ``MATE - n``
            for a forced win in ``n`` plies, ``-(MATE - n)`` for a forced loss.
        pv: The principal variation, starting with ``move``.
        depth: The depth of the last completed iteration (0 if none completed).
        nodes: Nodes visited.
    """

    move: Move | None
    score: int
    pv: tuple[Move, ...]
    depth: int
    nodes: int

    @property
    def mate_in(self) -> int | None:
        """Plies to a forced end of the game: positive when the side to move wins, negative when it loses."""
        if self.score >= _MATE_BOUND:
            return MATE - self.score
        if self.score <= -_MATE_BOUND:
            return -(MATE + self.score)
        return None


# --- evaluation ---------------------------------------------------------------------------------


def king_value(ruleset: Ruleset) -> int:
    """What a king is worth in hundredths of a man under ``ruleset`` (a man is 100).

    250 for a short king; ``250 + 15 * board_size`` for a flying king (370 on 8x8, 400 on 10x10);
    30 more where men may not capture kings.
    """
    value = 250
    if ruleset.flying_kings:
        value += 15 * ruleset.board_size
    if not ruleset.men_capture_kings:
        value += 30
    return value


@attrs.frozen
class Weights:
    """The terms of the built-in evaluation, in hundredths of a man.

    Attributes:
        man: A man.
        king: A king; None derives it from the ruleset (:func:`king_value`).
        advancement: Per row a man has advanced (doubled when few men are left).
        back_rank: Per man on its own first row, while the opponent still has men.
        centre: Per piece on the central squares.
        mobility: Per quiet move available.
    """

    man: int = 100
    king: int | None = None
    advancement: int = 3
    back_rank: int = 8
    centre: int = 6
    mobility: int = 2


MATERIAL_ONLY = Weights(advancement=0, back_rank=0, centre=0, mobility=0)
"""Weights that count material only."""


class _EvalTables(NamedTuple):
    board: int
    man: int
    king: int
    rows: tuple[tuple[int, ...], tuple[int, ...]]
    """Per colour, the bits of each row counted from that colour's side (index 0 = own first row)."""
    centre: int
    forward: tuple[tuple[tuple[int, bool], ...], tuple[tuple[int, bool], ...]]
    """Per colour, a man's quiet steps as ``(amount, up)`` shifts."""
    king_steps: tuple[tuple[tuple[int, bool], ...], tuple[tuple[int, bool], ...]]
    """Per colour, a king's one-square quiet steps."""
    men_total: int
    weights: Weights
    sign: int
    """+1, or -1 where a player with no move wins (material and mobility are then a burden)."""


@functools.lru_cache(maxsize=32)
def _eval_tables(ruleset: Ruleset, weights: Weights) -> _EvalTables:
    """Masks for the evaluation, from the generator's tables (cached)."""
    tables = generator(ruleset).tables
    geo = ruleset.geometry
    size = ruleset.board_size
    rows = [[0] * size, [0] * size]
    centre = 0
    low, high = size // 4, size - 1 - size // 4
    for square in range(1, geo.squares + 1):
        x, y = geo.coords[square]
        bit = 1 << tables.bit_of_square[square]
        rows[Color.WHITE][y] |= bit
        rows[Color.BLACK][size - 1 - y] |= bit
        if low <= x <= high and low <= y <= high:
            centre |= bit
    return _EvalTables(
        board=tables.board,
        man=weights.man,
        king=king_value(ruleset) if weights.king is None else weights.king,
        rows=(tuple(rows[0]), tuple(rows[1])),
        centre=centre,
        forward=tuple(tuple((a, up) for _, a, up in tables.man_moves[color]) for color in (0, 1)),  # type: ignore[arg-type]
        king_steps=tuple(tuple((a, up) for _, a, up in tables.king_moves[color]) for color in (0, 1)),  # type: ignore[arg-type]
        men_total=2 * ruleset.men_per_side,
        weights=weights,
        sign=-1 if ruleset.no_move_wins else 1,
    )


def _side_score(t: _EvalTables, color: int, own: int, opponents: int, kings: int, empty: int, late: bool) -> int:
    w = t.weights
    men = own & ~kings
    own_kings = own & kings
    score = men.bit_count() * t.man + own_kings.bit_count() * t.king
    if w.advancement and men:
        rows = t.rows[color]
        advance = 0
        for index in range(1, len(rows) - 1):
            advance += index * (men & rows[index]).bit_count()
        score += advance * w.advancement * (2 if late else 1)
    if w.back_rank and opponents & ~kings:
        score += w.back_rank * (men & t.rows[color][0]).bit_count()
    if w.centre:
        score += w.centre * (own & t.centre).bit_count()
    if w.mobility:
        moves = 0
        for a, up in t.forward[color]:
            moves += ((men << a if up else men >> a) & empty).bit_count()
        if own_kings:
            for a, up in t.king_steps[color]:
                moves += ((own_kings << a if up else own_kings >> a) & empty).bit_count()
        score += w.mobility * moves
    return score


def _evaluate_bits(t: _EvalTables, white: int, black: int, kings: int, turn: int) -> int:
    empty = t.board & ~(white | black)
    late = 3 * (white | black).bit_count() < t.men_total
    score = _side_score(t, 0, white, black, kings, empty, late) - _side_score(t, 1, black, white, kings, empty, late)
    score *= t.sign
    return score if turn == 0 else -score


def evaluate(position: Position, weights: Weights | None = None) -> int:
    """The built-in evaluation of ``position`` for the side to move, in hundredths of a man.

    It does not search: a position with a pending capture is scored as it stands.

    >>> import draughts
    >>> from draughts.engine import evaluate
    >>> evaluate(draughts.Position.initial("international"))
    0
    >>> evaluate(draughts.Position.from_fen("international", "W:WK46:B5"))  # a king against a man
    300
    """
    t = _eval_tables(position.ruleset, Weights() if weights is None else weights)
    own, opp, kings, color, _ = position._node()
    white, black = (own, opp) if color == 0 else (opp, own)
    return _evaluate_bits(t, white, black, kings, color)


# --- the generator adapter ----------------------------------------------------------------------
#
# The search works on the generator's nodes and xor-mask moves (``draughts._core``), never on
# Position and Move objects per node. A node is ``(own, opp, kings, color, state)``; a move's key
# is its xor masks. tests/test_engine.py checks the children against Position.legal_moves.


MoveKey = tuple[int, int, int]
"""A move as the generator plays it: ``(moved, captured, crowned)`` xor masks."""

Key = tuple[int, int, int, int, int]
"""A position in the transposition table: the generator's node (rule state included)."""


class _Child(NamedTuple):
    key: MoveKey
    taken: int
    """Number of captured pieces."""
    promotes: bool
    node: Key
    """The node after the move (the opponent to move)."""


def _generator(ruleset: Ruleset) -> Callable[[int, int, int, int, int], list[_Child]]:
    """``children(own, opp, kings, color, state)``: each legal move and the node after it."""
    gen = generator(ruleset)  # once: hashing a ruleset per node would cost a tenth of the search
    moves = gen.moves
    play = gen.play
    make = tuple.__new__  # builds the NamedTuple without its Python-level __new__

    def children(own: int, opp: int, kings: int, color: int, state: int) -> list[_Child]:
        out = []
        for move in moves(own, opp, kings, color, state):
            moved, captured, crowned = move
            promotes = bool(crowned & ~(kings & captured)) and not moved & own & kings
            out.append(make(_Child, (move, captured.bit_count(), promotes, play(own, opp, kings, color, state, move))))
        return out

    return children


def _terminal_score(rules: Ruleset, own: int, kings: int, ply: int) -> int:
    """The score, for the side to move, of a node where the game is over by the rules of play."""
    if rules.crowning_wins and kings:
        return MATE - ply if own & kings else -MATE + ply
    return MATE - ply if rules.no_move_wins else -MATE + ply


# --- search -------------------------------------------------------------------------------------


class _Stop(Exception):
    """A limit was reached inside the search."""


_EXACT, _LOWER, _UPPER = 0, 1, 2


@attrs.define(eq=False)
class Engine:
    """A searching opponent for any ruleset.

    Args:
        seed: Seed of the engine's ``random.Random``, used only to choose among equally good moves.
        evaluate: Your evaluation, ``f(position) -> int`` for the side to move (replaces the
            built-in one and its weights).
        weights: Weights of the built-in evaluation.
        margin: Root moves scoring within ``margin`` of the best count as equally good (0 = only
            equal scores); levels use it to play weaker, varied moves.
        limit: The default limit of :meth:`search`.
        hash_size: Most transposition-table entries kept (the table is cleared when full).

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
    weights: Weights = attrs.field(factory=Weights)
    margin: int = 0
    limit: Limit = attrs.field(factory=lambda: Limit(depth=6))
    hash_size: int = 500_000
    _random: random.Random = attrs.field(init=False)
    _tables: dict[Ruleset, dict[Key, tuple[int, int, int, MoveKey | None]]] = attrs.field(init=False, factory=dict)
    _stop_event: threading.Event = attrs.field(init=False, factory=threading.Event)

    def __attrs_post_init__(self) -> None:
        self._random = random.Random(self.seed)
        if isinstance(self.margin, bool) or not isinstance(self.margin, int) or self.margin < 0:
            raise InvalidLimitError(f"margin {self.margin!r} must be a non-negative number")

    def clear(self) -> None:
        """Forget the transposition tables (a new game) and reseed the random choices."""
        self._tables.clear()
        self._random = random.Random(self.seed)

    def _table_of(self, rules: Ruleset) -> dict[Key, tuple[int, int, int, MoveKey | None]]:
        """The transposition table of ``rules``: the same bitboards score differently under other rules.

        Tables of the four rulesets searched last are kept.
        """
        table = self._tables.pop(rules, None)
        if table is None:
            table = {}
            while len(self._tables) >= 4:
                del self._tables[next(iter(self._tables))]
        self._tables[rules] = table  # most recent last
        return table

    def stop(self) -> None:
        """Ask a running :meth:`search` (in another thread) to stop soon and return its best move."""
        self._stop_event.set()

    def search(
        self, game: Board | Position, limit: Limit | None = None, *, stop: StopSignal | None = None
    ) -> SearchResult:
        """Search ``game`` (a board, whose history counts for repetitions, or a position).

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
                return SearchResult(None, score, (), 0, 0)
            history = [p._node() for p in game.positions()[:-1]]
        elif isinstance(game, Position):
            position = game
            history = []
        else:
            raise TypeError(f"cannot search {game!r}: pass a Board or a Position")
        if position.is_over():
            own, _, kings, _, _ = position._node()
            return SearchResult(None, _terminal_score(position.ruleset, own, kings, 0), (), 0, 0)
        if stop is None:
            stop = self._stop_event
            stop.clear()
        run = _Search(self, position, limit, history, stop)
        return run.run()


def line_text(position: Position, moves: Sequence[Move], *, long: bool | None = None, numeric: bool = False) -> str:
    """``moves`` played in turn from ``position``, as the variant writes them, separated by spaces.

    Raises:
        IllegalMoveError: a move is not legal in turn.
    """
    from draughts.notation import move_text

    texts = []
    for move in moves:
        texts.append(move_text(position, move, long=long, numeric=numeric))
        position = position.play(move)
    return " ".join(texts)


@attrs.define
class _Iteration:
    """The root scores of one iteration of the deepening."""

    depth: int
    scores: dict[MoveKey, int] = attrs.field(factory=dict)
    pvs: dict[MoveKey, list[MoveKey]] = attrs.field(factory=dict)


class _Search:
    """One call of :meth:`Engine.search`: the state the recursion shares."""

    def __init__(self, engine: Engine, position: Position, limit: Limit, history: list[Key], stop: StopSignal) -> None:
        self.engine = engine
        self.root = position
        self.rules = position.ruleset
        self.limit = limit
        self.nodes = 0
        self.max_nodes = limit.nodes if limit.nodes is not None else 1 << 62
        self.deadline = None if limit.time is None else time.perf_counter() + limit.time
        self.started = time.perf_counter()
        self.table = engine._table_of(self.rules)
        self.stop_event = stop
        self.children = _generator(self.rules)
        self.mandatory = self.rules.capture_mandatory
        self.repetitions = self.rules.draw_rules.repetitions is not None
        self.seen: dict[Key, int] = {}
        for key in history:
            self.seen[key] = self.seen.get(key, 0) + 1
        self.killers: list[list[MoveKey]] = [[] for _ in range(_MAX_DEPTH + 2)]
        self.history: dict[tuple[int, MoveKey], int] = {}
        self.pv: list[list[MoveKey]] = [[] for _ in range(_MAX_DEPTH + 64)]
        rules = self.rules
        if engine.evaluate is not None:
            custom = engine.evaluate

            def leaf(own: int, opp: int, kings: int, color: int, state: int) -> int:
                white, black = (own, opp) if color == 0 else (opp, own)
                return int(custom(Position._make(rules, white, black, kings, Color(color), state)))

            self.leaf = leaf
        else:
            tables = _eval_tables(rules, engine.weights)

            def builtin(own: int, opp: int, kings: int, color: int, state: int) -> int:
                white, black = (own, opp) if color == 0 else (opp, own)
                return _evaluate_bits(tables, white, black, kings, color)

            self.leaf = builtin

    def terminal(self, node: Key, ply: int) -> int:
        return _terminal_score(self.rules, node[0], node[2], ply)

    # --- limits ---

    def tick(self) -> None:
        if self.nodes >= self.max_nodes:
            raise _Stop
        self.nodes += 1
        if not self.nodes & 1023:
            if self.stop_event.is_set():
                raise _Stop
            if self.deadline is not None and time.perf_counter() >= self.deadline:
                raise _Stop

    # --- the root ---

    def run(self) -> SearchResult:
        root = self.root
        key = root._node()
        moves, compacts = root._moves()
        legal = dict(zip(compacts, moves, strict=True))
        children = self.children(*key)
        if {c.key for c in children} != set(legal):
            raise RuntimeError(f"engine move generation disagrees with Position.legal_moves in {root.fen()}")
        self.seen[key] = self.seen.get(key, 0) + 1
        max_depth = min(self.limit.depth or _MAX_DEPTH, _MAX_DEPTH)
        order = self._order(children, self._table_move(key), 0, key[3])
        done: _Iteration | None = None
        current = _Iteration(0)
        for depth in range(1, max_depth + 1):
            if done is not None:
                previous = done.scores
                order.sort(key=lambda c: -previous[c.key])
            current = _Iteration(depth)
            try:
                self._root_iteration(order, current)
            except _Stop:
                break
            done = current
            best = max(done.scores.values())
            if abs(best) >= _MATE_BOUND and MATE - abs(best) <= depth:
                break  # the game's end is within the horizon: deeper searches cannot change it
            if self.limit.time is not None and (time.perf_counter() - self.started) * 2 >= self.limit.time:
                break
            if self.stop_event.is_set():
                break
        if done is None:
            done = current  # no iteration completed: the moves scored so far, exact where kept
            done.depth = 0
            if not done.scores:
                first = order[0]
                done.scores[first.key] = -self.leaf(*first.node)
        best = max(done.scores.values())
        margin = self.engine.margin
        good = [move_key for move_key, score in done.scores.items() if score >= best - margin]
        good.sort(key=lambda k: (legal[k].start, legal[k].end, legal[k].path))
        chosen = good[0] if len(good) == 1 else self.engine._random.choice(good)
        move = legal[chosen]
        pv = self._pv_moves(move, done.pvs.get(chosen, []))
        return SearchResult(move, done.scores[chosen], pv, done.depth, self.nodes)

    def _root_iteration(self, order: list[_Child], iteration: _Iteration) -> None:
        """Score every root move; scores within the margin of the best are exact."""
        margin = self.engine.margin
        depth = iteration.depth
        scores = iteration.scores
        pvs = iteration.pvs
        best = -_INF
        self.tick()
        for child in order:
            floor = -_INF if best == -_INF else best - margin - 1
            self.pv[1] = []
            score = -self._negamax(child.node, depth - 1, -_INF, -floor, 1)
            scores[child.key] = score
            pvs[child.key] = list(self.pv[1])
            if score > best:
                best = score
        best_key = max(scores, key=lambda k: scores[k])
        self._store(self.root._node(), depth, best, _EXACT, best_key, 0)

    def _pv_moves(self, first: Move, rest: list[MoveKey]) -> tuple[Move, ...]:
        moves = [first]
        position = self.root.play(first)
        for move_key in rest:
            candidates, compacts = position._moves()
            if move_key not in compacts:
                break
            move = candidates[compacts.index(move_key)]
            moves.append(move)
            position = position.play(move)
        return tuple(moves)

    # --- the tree ---

    def _table_move(self, key: Key) -> MoveKey | None:
        entry = self.table.get(key)
        return None if entry is None else entry[3]

    def _store(self, key: Key, depth: int, score: int, flag: int, move: MoveKey | None, ply: int) -> None:
        if len(self.table) >= self.engine.hash_size and key not in self.table:
            self.table.clear()
        if score >= _MATE_BOUND:
            score += ply
        elif score <= -_MATE_BOUND:
            score -= ply
        self.table[key] = (depth, score, flag, move)

    def _order(self, children: list[_Child], best: MoveKey | None, ply: int, turn: int) -> list[_Child]:
        killers = self.killers[ply] if ply < len(self.killers) else []
        history = self.history

        def rank(child: _Child) -> int:
            move_key = child.key
            if move_key == best:
                return 1 << 40
            value = (child.taken << 30) + (child.promotes << 29)
            if move_key in killers:
                value += 1 << 28
            return value + history.get((turn, move_key), 0)

        return sorted(children, key=rank, reverse=True)

    def _negamax(self, key: Key, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The score of the node ``key`` for its side to move."""
        self.tick()
        if self.repetitions and key in self.seen:
            self.pv[ply] = []
            return 0
        table_move = None
        if depth > 0:
            entry = self.table.get(key)
            if entry is not None:
                entry_depth, score, flag, table_move = entry
                if entry_depth >= depth and beta - alpha == 1:  # not at PV nodes: keep the PV whole
                    if score >= _MATE_BOUND:
                        score -= ply
                    elif score <= -_MATE_BOUND:
                        score += ply
                    if flag == _EXACT or (flag == _LOWER and score >= beta) or (flag == _UPPER and score <= alpha):
                        self.pv[ply] = [table_move] if table_move is not None else []
                        return score
        children = self.children(*key)
        if not children:
            self.pv[ply] = []
            return self.terminal(key, ply)
        if depth <= 0 or ply >= _MAX_DEPTH:
            return self._quiesce(key, children, alpha, beta, ply)
        if len(children) == 1 and children[0].taken:
            depth += 1  # a forced capture costs no depth
        turn = key[3]
        original_alpha = alpha
        best = -_INF
        best_key = None
        best_pv: list[MoveKey] = []
        self.seen[key] = 1
        try:
            for index, child in enumerate(self._order(children, table_move, ply, turn)):
                if index == 0:
                    score = -self._negamax(child.node, depth - 1, -beta, -alpha, ply + 1)
                else:
                    score = -self._negamax(child.node, depth - 1, -alpha - 1, -alpha, ply + 1)
                    if alpha < score < beta:
                        score = -self._negamax(child.node, depth - 1, -beta, -alpha, ply + 1)
                if score > best:
                    best = score
                    best_key = child.key
                    best_pv = [best_key, *self.pv[ply + 1]]
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            if not child.taken:
                                killers = self.killers[ply]
                                if best_key not in killers:
                                    killers.insert(0, best_key)
                                    del killers[2:]
                                history_key = (turn, best_key)
                                self.history[history_key] = self.history.get(history_key, 0) + depth * depth
                            break
        finally:
            del self.seen[key]
        self.pv[ply] = best_pv
        flag = _UPPER if best <= original_alpha else _LOWER if best >= beta else _EXACT
        self._store(key, depth, best, flag, best_key, ply)
        return best

    def _quiesce(self, key: Key, children: list[_Child], alpha: int, beta: int, ply: int) -> int:
        """Follow captures until the side to move has none; then the evaluation decides."""
        self.pv[ply] = []
        captures = [child for child in children if child.taken]
        if not captures or ply >= _MAX_DEPTH + 60:
            return self.leaf(*key)
        best = -_INF
        if not self.mandatory and len(captures) < len(children):
            best = self.leaf(*key)  # stand pat: capturing is optional here
            if best >= beta:
                return best
            alpha = max(alpha, best)
        captures.sort(key=lambda c: c.taken, reverse=True)
        best_pv: list[MoveKey] = []
        for child in captures:
            self.tick()
            child_children = self.children(*child.node)
            if not child_children:
                score = -self.terminal(child.node, ply + 1)
                self.pv[ply + 1] = []
            else:
                score = -self._quiesce(child.node, child_children, -beta, -alpha, ply + 1)
            if score > best:
                best = score
                best_pv = [child.key, *self.pv[ply + 1]]
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        self.pv[ply] = best_pv
        return best


# --- levels -------------------------------------------------------------------------------------


@attrs.frozen
class Level:
    """A named playing strength: a search limit, a randomness margin and evaluation weights.

    Attributes:
        name: The level's name.
        limit: How far it searches.
        margin: Root moves within this many hundredths of a man of the best are chosen at random.
        weights: The evaluation it uses.
        description: In words.
    """

    name: str
    limit: Limit
    margin: int
    weights: Weights
    description: str = ""

    def engine(self, seed: int | None = 0) -> Engine:
        """An :class:`Engine` playing at this level."""
        return Engine(seed=seed, weights=self.weights, margin=self.margin, limit=self.limit)


LEVELS: Mapping[str, Level] = types.MappingProxyType(
    {
        "beginner": Level(
            "beginner",
            Limit(depth=1),
            margin=60,
            weights=MATERIAL_ONLY,
            description="one ply plus captures, material only, picks among moves up to 0.6 men worse",
        ),
        "intermediate": Level(
            "intermediate",
            Limit(depth=3, nodes=20_000),
            margin=10,
            weights=Weights(),
            description="three plies plus captures, full evaluation, small randomness",
        ),
        "strong": Level(
            "strong",
            Limit(depth=7, nodes=40_000),
            margin=0,
            weights=Weights(),
            description="up to seven plies (40,000 nodes) plus captures, full evaluation",
        ),
    }
)
"""The named levels, weakest first."""


def get_level(name: str) -> Level:
    """The level called ``name`` (case-insensitive).

    Raises:
        DraughtsError: no level has that name; the message lists them.
    """
    level = LEVELS.get(name.strip().lower()) if isinstance(name, str) else None
    if level is None:
        raise InvalidLimitError(f"unknown level {name!r}; levels: {', '.join(LEVELS)}")
    return level

"""The root of a search: limits, root moves, iterative deepening, tablebase answers at the root
(the per-node recursion: :mod:`draughts.engine.search`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import attrs

from draughts._native import DrawRules, Evaluation, Rng
from draughts.color import Color
from draughts.drawrules import compiled
from draughts.engine import search as _core_search
from draughts.engine.limits import MATE, AnalysisLine, Limit, SearchResult, StopSignal
from draughts.engine.score import Score
from draughts.engine.search import MAX_DEPTH as _MAX_DEPTH
from draughts.engine.weights import Weights, _evaluation
from draughts.errors import DraughtsError
from draughts.move import Move
from draughts.position import Position
from draughts.rules import Ruleset

__all__ = ["evaluation_of", "line_text"]

Node = tuple[int, int, int, int, int]
"""A generator node: ``(own, opp, kings, color, state)``."""
Compact = tuple[int, int, int]
"""A move as xor masks: ``(moved, captured, crowned)``."""


class _Engine(Protocol):
    """What a root search reads of its :class:`~draughts.engine.Engine` (which runs its searches
    with this module, so it names the shape instead of importing the class): its settings, its
    random choices and its transposition tables."""

    @property
    def evaluate(self) -> Callable[[Position], int] | None: ...
    @property
    def weights(self) -> Weights: ...
    @property
    def margin(self) -> int: ...
    @property
    def hash_size(self) -> int: ...
    @property
    def tablebase(self) -> Any: ...
    @property
    def _random(self) -> Rng: ...
    def _table_of(self, rules: Ruleset) -> _core_search.Searcher: ...


def _from_tablebase(tablebase: Any, position: Position, choose: Rng) -> SearchResult | None:
    """The tablebase's answer for ``position`` (None outside its built tables or rules)."""
    try:
        verdict = tablebase.probe(position)
        moves = tablebase.best_moves(position)
    except DraughtsError:
        return None
    if not moves:
        return None
    plies = verdict.plies or 0
    score = MATE - plies if verdict.result == "win" else -(MATE - plies) if verdict.result == "loss" else 0
    move = moves[choose.below(len(moves))]
    return SearchResult(move, score, (move,), 0, 0, position=position)


def _lines_from_tablebase(tablebase: Any, position: Position, multipv: int) -> list[AnalysisLine] | None:
    """Every legal move of ``position`` scored exactly by the tablebase (None outside its tables)."""
    scored = []
    try:
        for move in position.legal_moves():
            child = position.play(move)
            if child.is_over():
                score = Score.win(1)
            else:
                verdict = tablebase.probe(child)
                score = -Score.from_verdict(verdict.result, verdict.plies)
                if score.plies is not None:
                    score = Score(0, score.plies + (1 if score.plies > 0 else -1), True)
            scored.append((score, move))
    except DraughtsError:
        return None
    scored.sort(key=lambda item: (item[0], -item[1].start, -item[1].end), reverse=True)
    return [
        AnalysisLine(move, score, (move,), 0, 0, rank, position=position)
        for rank, (score, move) in enumerate(scored[:multipv], 1)
    ]


def evaluation_of(ruleset: Ruleset, weights: Weights) -> Evaluation:
    """The native built-in evaluation of ``ruleset`` with ``weights`` (cached), as every search of
    :class:`~draughts.engine.Engine` and the native game loop of :mod:`draughts.lab.native` run it."""
    return _evaluation(ruleset, weights)


def _node_probe(tablebase: Any, rules: Ruleset) -> tuple[Callable[[int, int, int, int, int], int | None] | None, int]:
    """The search's probe of ``tablebase`` and the most pieces it knows (``(None, 0)``: none)."""
    probe = None if tablebase is None else tablebase.node_probe(rules)
    return (None, 0) if probe is None else (probe, probe.pieces)


def _draw_state(
    position: Position, counts: tuple[tuple[int, ...], int] | None
) -> tuple[DrawRules, Node, tuple[int, ...], int]:
    """What the search carries of the draw rules from ``position``: its ruleset's compiled rules,
    the root and the counts (a board's ``(move_counts, since_material_change)``; None: a position
    without a game, every count at zero), so that a line the move-count and endgame rules end in a
    draw scores 0."""
    if counts is None:
        counts = ((0,) * len(position.ruleset.draw_rules.move_counts), 0)
    return compiled(position), position.node, tuple(counts[0]), counts[1]


def _terminal(rules: Ruleset, own: int, kings: int) -> int:
    """The score at the root of a game over by the rules of play, for the side to move."""
    if rules.crowning_wins and kings:
        return MATE if own & kings else -MATE
    return MATE if rules.no_move_wins else -MATE


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
    """The root scores of one iteration of the deepening (of the moves searched so far)."""

    depth: int
    scores: dict[Compact, int] = attrs.field(factory=dict)
    pvs: dict[Compact, tuple[Compact, ...]] = attrs.field(factory=dict)


_NO_PV = _core_search.NO_PV


class _RootSearch:
    """One call of :meth:`Engine.search`: the limits, the root and iterative deepening.

    The recursion below the root is :class:`draughts.engine.search.Searcher`, on the generator's
    nodes and xor-mask moves; this class owns what it shares with it (the table, the game's
    positions, the principal variations, the clock and the stop flag).
    """

    def __init__(
        self,
        engine: _Engine,
        position: Position,
        limit: Limit,
        history: list[Node],
        stop: StopSignal,
        multipv: int = 1,
        counts: tuple[tuple[int, ...], int] | None = None,
    ) -> None:
        self.engine = engine
        self.multipv = multipv
        self.completed: _Iteration | None = None
        """The last completed iteration (:meth:`Engine.analyse` reads its lines)."""
        self.root = position
        self.rules = rules = position.ruleset
        self.limit = limit
        self.started = time.perf_counter()
        self.deadline = None
        if limit.time is not None:
            # Stop a little early: the answer is built after the stop, and the clock is read
            # only every few hundred nodes.
            self.deadline = self.started + limit.time - min(0.02, 0.05 * limit.time)
        self.stop_event = stop
        # The native search counts in 64 bits: a larger limit is no limit.
        self.max_nodes = min(limit.nodes, 1 << 62) if limit.nodes is not None else 1 << 62
        self.nodes = 0
        self.table = searcher = engine._table_of(rules)
        evaluation = leaf = None
        if engine.evaluate is not None:
            custom = engine.evaluate

            def leaf(own: int, opp: int, kings: int, color: int) -> int:
                white, black = (own, opp) if color == 0 else (opp, own)
                return int(custom(Position.from_bitboards(rules, white, black, kings, Color(color), 0)))

        else:
            evaluation = _evaluation(rules, engine.weights)
        clock = time.perf_counter  # read here, so that a caller may replace this module's clock
        deadline = self.deadline
        stopped = stop.is_set

        def poll() -> bool:
            return stopped() or (deadline is not None and clock() >= deadline)

        searcher.begin(
            list(history),
            self.max_nodes,
            rules.draw_rules.repetitions is not None,
            evaluation,
            leaf,
            poll,
            *_node_probe(engine.tablebase, rules),
            draws=_draw_state(position, counts),
        )
        self.searcher = searcher

    # --- the root ---

    def run(self) -> SearchResult:
        """The search's answer: iterative deepening over the root moves, natively (the same root
        as the native game loop's, ``native/core/src/root.rs``), the choice among equally good
        moves drawn from the engine's :class:`draughts._native.Rng`."""
        root = self.root
        key = root.node
        moves, compacts = root.moves_with_masks()
        if not moves:  # the game is over by the rules of play
            own, _, kings, _, _ = key
            return SearchResult(None, _terminal(root.ruleset, own, kings), (), 0, 0, position=root)
        max_depth = min(self.limit.depth or _MAX_DEPTH, _MAX_DEPTH)
        stopped = self.stop_event.is_set
        # The root's moves are generated once, in public order (issue 23 §19): the native root
        # takes them as they are.
        # A node limit keeps one thread: its count is exact only there (see Limit.threads).
        threads = self.limit.threads if self.limit.nodes is None else 1
        chosen, score, rest, depth, nodes, lines = self.searcher.root(
            key, list(compacts), max_depth, self.engine.margin, self.multipv, stopped, self.engine._random, threads
        )
        self.nodes = nodes
        if lines is not None:
            done = _Iteration(lines[0])
            for index, line_score, line_pv in lines[1]:
                done.scores[compacts[index]] = line_score
                done.pvs[compacts[index]] = tuple(line_pv)
            self.completed = done
        move = moves[chosen]
        return SearchResult(move, score, self._pv_moves(move, rest), depth, nodes, position=root)

    def lines(self, best: SearchResult, multipv: int) -> list[AnalysisLine]:
        """The best ``multipv`` lines of the last iteration that scored them all exactly (after :meth:`run`)."""
        done = self.completed
        root = self.root
        if done is None or best.move is None:
            if best.move is None:
                return []
            return [AnalysisLine(best.move, best.score, best.pv, best.depth, best.nodes, position=root)]
        moves, compacts = root.moves_with_masks()
        legal = dict(zip(compacts, moves, strict=True))
        ranked = sorted(done.scores, key=lambda k: (-done.scores[k], legal[k].start, legal[k].end, legal[k].path))
        out = []
        for rank, key in enumerate(ranked[:multipv], 1):
            move = legal[key]
            pv = self._pv_moves(move, done.pvs.get(key, _NO_PV))
            score = Score.from_search(done.scores[key])
            out.append(AnalysisLine(move, score, pv, done.depth, self.nodes, rank, position=root))
        return out

    def _pv_moves(self, first: Move, rest: Sequence[Compact]) -> tuple[Move, ...]:
        moves = [first]
        position = self.root.play(first)
        for move_key in rest:
            candidates, compacts = position.moves_with_masks()
            if move_key not in compacts:
                break
            move = candidates[compacts.index(move_key)]
            moves.append(move)
            position = position.play(move)
        return tuple(moves)

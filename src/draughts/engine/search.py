"""The engine's recursion: alpha-beta and quiescence search on the generator's nodes.

:class:`draughts.engine.Engine` owns the search (limits, the root, iterative deepening, levels);
this module holds only the part that runs per node, as plain functions on ints, lists and dicts,
so that the optional compiled build (mypyc, like :mod:`draughts._core.movegen`) compiles it.

The recursion runs on the generator's nodes ``(own, opp, kings, color, state)`` and its xor-mask
moves, copy-make on plain ints: a child is ``(opp ^ captured, own ^ moved, kings ^ crowned)`` with
the colours swapped (the generator's ``play`` where a king-move limit keeps rule state).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable

from draughts._core.generator import MoveGenerator
from draughts._core.tables import shifts_of
from draughts._core.types import Compact, Node
from draughts.engine.evaluation import Evaluator

__all__ = [
    "CHECK_EVERY",
    "EXACT",
    "INF",
    "LOWER",
    "MATE",
    "MATE_BOUND",
    "MAX_DEPTH",
    "NO_PV",
    "PRUNE",
    "THREATS",
    "UPPER",
    "Entry",
    "Searcher",
    "Stopped",
    "make_room",
]

MATE = 1_000_000
"""The score of a won game (less the plies to the win)."""
MATE_BOUND = MATE - 10_000
"""Scores beyond this are wins or losses in a number of plies."""
INF = MATE + 1
MAX_DEPTH = 64
"""The deepest iteration (a ply count the recursion's per-ply tables are sized for)."""
EXACT, LOWER, UPPER = 0, 1, 2
"""Transposition-table flags: the stored score is exact, a lower bound or an upper bound."""
NO_PV: tuple[Compact, ...] = ()

CHECK_EVERY = 256
"""Nodes between two looks at the clock and the stop flag."""
THREATS = 1
"""How many times on one line the quiescence search looks a ply further because the opponent
threatens a capture or a crowning."""
PRUNE = 10
"""Forward pruning: at a quiet node ``depth`` plies from the horizon (3 or more), a search of
``2/5`` of the depth that beats beta by ``PRUNE * depth`` ends the node (0: off)."""

Entry = tuple[int, int, int, "Compact | None"]
"""A transposition-table entry: depth, score (mates from this node), flag, best move."""


class Stopped(Exception):
    """A limit was reached inside the search."""


def make_room(table: dict[Node, Entry]) -> None:
    """Forget the quarter of a full transposition table written first (mostly earlier searches)."""
    for key in list(itertools.islice(table, len(table) // 4 + 1)):
        del table[key]


def _captured_count(move: Compact) -> int:
    return move[1].bit_count()


class Searcher:
    """The recursion of one :meth:`~draughts.engine.Engine.search` call and the state it shares.

    Args:
        gen: The ruleset's generator.
        leaf: The evaluation.
        table: The transposition table (kept by the engine between searches).
        hash_size: Most entries ``table`` keeps.
        seen: Nodes met before, in the game and on the current line (a repetition is a draw).
        pvt: The principal variation found from each ply (written by the search).
        stopped: Whether another thread asked the search to stop.
        clock: The clock the engine reads (``time.perf_counter``).
        deadline: When to stop, on ``clock`` (None: no time limit).
        max_nodes: How many nodes to search at most.
        probe: Exact scores from endgame tables, ``f(own, opp, kings, color, ply)`` (None where
            the node's material is not built); asked at every node with at most
            ``probe_pieces`` pieces and no rule state (:class:`draughts.endgame.NodeProbe`).
        probe_pieces: The most pieces of a node ``probe`` is asked about (0: never).

    :meth:`search` and :meth:`quiesce` raise :class:`Stopped` at a limit; ``nodes`` counts
    the nodes searched. A plain class (not attrs) so that the compiled build makes its methods
    native calls.
    """

    def __init__(
        self,
        gen: MoveGenerator,
        leaf: Evaluator,
        table: dict[Node, Entry],
        hash_size: int,
        seen: dict[Node, int],
        pvt: list[tuple[Compact, ...]],
        stopped: Callable[[], bool],
        clock: Callable[[], float],
        deadline: float | None,
        max_nodes: int,
        probe: Callable[[int, int, int, int, int], int | None] | None = None,
        probe_pieces: int = 0,
    ) -> None:
        tables = gen.tables
        self.gen_moves = gen.moves
        self.gen_captures = gen.captures
        self.can_capture = gen.can_capture
        self.play = gen.play
        self.limited = tables.state.keeps
        self.crowning_wins = tables.crowning_wins
        self.win_without_moves: bool = tables.rules.no_move_wins
        self.mandatory = tables.capture_mandatory
        self.repetitions = tables.rules.draw_rules.repetitions is not None
        self.leaf = leaf
        self.table = table
        self.hash_size = hash_size
        self.seen = seen
        self.pvt = pvt
        self.stopped = stopped
        self.clock = clock
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.probe = probe
        self.probe_pieces = probe_pieces if probe is not None else 0
        self.killers: list[list[Compact | None]] = [[None, None] for _ in range(MAX_DEPTH + 256)]
        # Per side, a move's history score (a missing move reads as 0 and is added: the sort's key
        # is the dict's own __getitem__, with no Python-level call per move).
        self.history: tuple[defaultdict[Compact, int], defaultdict[Compact, int]] = (defaultdict(int), defaultdict(int))
        self.board = tables.board
        self.man_steps = (shifts_of(tables.man_moves[0]), shifts_of(tables.man_moves[1]))
        self.king_steps = (shifts_of(tables.king_moves[0]), shifts_of(tables.king_moves[1]))
        self.crown_row = tables.crown_row
        self.nodes = 0
        self.next_check = min(CHECK_EVERY, max_nodes)

    def check(self) -> None:
        """Every few hundred nodes: the node limit, the stop flag and the clock."""
        deadline = self.deadline
        if self.nodes >= self.max_nodes or self.stopped() or (deadline is not None and self.clock() >= deadline):
            raise Stopped
        self.next_check = min(self.nodes + CHECK_EVERY, self.max_nodes)

    def interrupt(self) -> None:
        """The abort hook of long capture searches (:func:`draughts._core.generator.abort_when`): the
        stop flag and the clock, checked inside one move generation as :meth:`check` does between nodes."""
        deadline = self.deadline
        if self.stopped() or (deadline is not None and self.clock() >= deadline):
            raise Stopped

    def terminal(self, own: int, kings: int, ply: int) -> int:
        """The score of a node where the game is over by the rules of play."""
        if self.crowning_wins and kings:
            return MATE - ply if own & kings else ply - MATE
        return MATE - ply if self.win_without_moves else ply - MATE

    def tablebase(self, own: int, opp: int, kings: int, color: int, ply: int) -> int | None:
        """The node's exact score from the endgame tables (None: not in them)."""
        probe = self.probe
        return None if probe is None else probe(own, opp, kings, color, ply)

    def can_step(self, own: int, opp: int, kings: int, color: int) -> bool:
        """Whether the side to move has a quiet step (a king-move limit may still forbid it)."""
        empty = self.board ^ (own | opp)
        men = own & ~kings
        for a, up in self.man_steps[color]:
            if (men << a if up else men >> a) & empty:
                return True
        own_kings = own & kings
        if own_kings:
            for a, up in self.king_steps[color]:
                if (own_kings << a if up else own_kings >> a) & empty:
                    return True
        return False

    def can_crown(self, own: int, opp: int, kings: int, color: int) -> bool:
        """Whether a man of the side to move can crown with a quiet step."""
        men = own & ~kings
        if not men:
            return False
        landing = (self.board ^ (own | opp)) & self.crown_row[color]
        if not landing:
            return False
        reach = 0
        for a, up in self.man_steps[color]:
            reach |= men << a if up else men >> a
        return bool(reach & landing)

    def child(self, own: int, opp: int, kings: int, color: int, state: int, move: Compact) -> Node:
        """The node after ``move``."""
        if self.limited:
            return self.play(own, opp, kings, color, state, move)
        moved, captured, crowned = move
        return opp ^ captured, own ^ moved, kings ^ crowned, color ^ 1, 0

    def store(self, key: Node, depth: int, best: int, flag: int, best_move: Compact | None, ply: int) -> None:
        """Keep a node's score in the table (mate scores counted from the node)."""
        table = self.table
        if len(table) >= self.hash_size:
            make_room(table)
        stored = best + ply if best >= MATE_BOUND else best - ply if best <= -MATE_BOUND else best
        table[key] = (depth, stored, flag, best_move)

    def known(
        self, key: Node, depth: int, alpha: int, beta: int, ply: int, pv_node: bool
    ) -> tuple[int | None, Compact | None]:
        """What is known of a node before its moves are listed: ``(score, None)`` when that ends
        it (a repetition on the line, a tablebase result, a transposition-table bound that cuts),
        else ``(None, the table's best move or None)``."""
        if self.repetitions and key in self.seen:
            return 0, None
        own, opp, kings, color, state = key
        if self.probe_pieces and not state and (own | opp).bit_count() <= self.probe_pieces:
            result = self.tablebase(own, opp, kings, color, ply)
            if result is not None:
                return result, None
        entry = self.table.get(key)
        if entry is None:
            return None, None
        entry_depth, score, flag, tt_move = entry
        if entry_depth >= depth and not pv_node:  # not at PV nodes: keep the PV whole
            if score >= MATE_BOUND:
                score -= ply
            elif score <= -MATE_BOUND:
                score += ply
            if flag == EXACT or (flag == LOWER and score >= beta) or (flag == UPPER and score <= alpha):
                return score, None
        return None, tt_move

    def order_quiet(self, moves: list[Compact], color: int, ply: int) -> None:
        """Quiet moves in search order: by history score, then this ply's killer moves first."""
        moves.sort(key=self.history[color].__getitem__, reverse=True)
        for killer in self.killers[ply][::-1]:
            if killer is not None and killer != moves[0] and killer in moves:
                moves.remove(killer)
                moves.insert(0, killer)

    def remember(self, move: Compact, color: int, depth: int, ply: int) -> None:
        """A quiet move that cut off: it becomes this ply's first killer, and its history grows."""
        slot = self.killers[ply]
        if slot[0] != move:
            slot[1] = slot[0]
            slot[0] = move
        self.history[color][move] += depth * depth

    def search(  # noqa: C901 (the hot recursion, one function on purpose: docs/architecture.rst)
        self, own: int, opp: int, kings: int, color: int, state: int, depth: int, alpha: int, beta: int, ply: int
    ) -> int:
        """Principal-variation alpha-beta: the node's score for its side to move."""
        if self.nodes >= self.next_check:
            self.check()
        self.nodes += 1
        pvt = self.pvt
        pv_node = beta - alpha > 1
        if pv_node:
            pvt[ply] = NO_PV
        key = (own, opp, kings, color, state)
        repetitions = self.repetitions
        known, tt_move = self.known(key, depth, alpha, beta, ply, pv_node)
        if known is not None:
            return known
        moves = self.gen_moves(own, opp, kings, color, state)
        if not moves:
            return self.terminal(own, kings, ply)
        count = len(moves)
        if count == 1:
            if ply < MAX_DEPTH:
                depth += 1  # a forced move costs no depth
        elif moves[0][1]:  # captures (first in the list)
            if self.mandatory:
                moves.sort(key=_captured_count, reverse=True)
        else:
            if PRUNE and not pv_node and depth >= 3 and -MATE_BOUND < beta < MATE_BOUND:
                # A shallow search that beats beta by a margin: the deep one would too.
                margin = PRUNE * depth
                raised = beta + margin
                score = self.search(own, opp, kings, color, state, depth * 2 // 5, raised - 1, raised, ply)
                if score >= raised:
                    return score - margin
            self.order_quiet(moves, color, ply)
        if tt_move is not None and count > 1 and tt_move != moves[0]:
            moves.remove(tt_move)
            moves.insert(0, tt_move)
        original_alpha = alpha
        best = -INF
        best_move: Compact | None = None
        new_depth = depth - 1
        after = ply + 1
        reduce = depth >= 3 and not moves[0][1]
        limited = self.limited
        other = color ^ 1
        if repetitions:
            self.seen[key] = 1
        for index, move in enumerate(moves):
            moved, captured, crowned = move
            if limited:
                c_own, c_opp, c_kings, c_color, c_state = self.play(own, opp, kings, color, state, move)
            else:
                c_own, c_opp, c_kings, c_color, c_state = opp ^ captured, own ^ moved, kings ^ crowned, other, 0
            if pv_node:
                pvt[after] = NO_PV
            if index == 0:
                if new_depth > 0:
                    score = -self.search(c_own, c_opp, c_kings, c_color, c_state, new_depth, -beta, -alpha, after)
                else:
                    score = -self.quiesce(c_own, c_opp, c_kings, c_color, c_state, -beta, -alpha, after, THREATS)
            else:
                # Late quiet moves are first searched one ply shallower.
                quiet = not crowned or crowned == moved  # not a crowning
                reduced = new_depth
                if reduce and index >= 3 and quiet:
                    reduced -= 1
                if reduced > 0:
                    score = -self.search(c_own, c_opp, c_kings, c_color, c_state, reduced, -alpha - 1, -alpha, after)
                else:
                    score = -self.quiesce(c_own, c_opp, c_kings, c_color, c_state, -alpha - 1, -alpha, after, THREATS)
                if score > alpha and reduced < new_depth:
                    score = -self.search(c_own, c_opp, c_kings, c_color, c_state, new_depth, -alpha - 1, -alpha, after)
                if pv_node and alpha < score < beta:
                    pvt[after] = NO_PV
                    if new_depth > 0:
                        score = -self.search(c_own, c_opp, c_kings, c_color, c_state, new_depth, -beta, -alpha, after)
                    else:
                        score = -self.quiesce(c_own, c_opp, c_kings, c_color, c_state, -beta, -alpha, after, THREATS)
            if score > best:
                best = score
                best_move = move
                if score > alpha:
                    alpha = score
                    if pv_node:
                        pvt[ply] = (move, *pvt[after])
                    if alpha >= beta:
                        if not captured:
                            self.remember(move, color, depth, ply)
                        break
        if repetitions:
            del self.seen[key]
        flag = UPPER if best <= original_alpha else LOWER if best >= beta else EXACT
        self.store(key, depth, best, flag, best_move, ply)
        return best

    def quiesce(  # noqa: C901 (the hot capture recursion, one function on purpose: docs/architecture.rst)
        self, own: int, opp: int, kings: int, color: int, state: int, alpha: int, beta: int, ply: int, threats: int
    ) -> int:
        """Captures until the side to move has none; then, if the opponent threatens a capture
        or a crowning, a ply more (no score is taken while either hangs; at most ``threats``
        times on the line); then the evaluation, or a crowning step where one scores more."""
        if self.nodes >= self.next_check:
            self.check()
        self.nodes += 1
        pvt = self.pvt
        pv_node = beta - alpha > 1
        if pv_node:
            pvt[ply] = NO_PV
        if self.probe_pieces and not state and (own | opp).bit_count() <= self.probe_pieces:
            known = self.tablebase(own, opp, kings, color, ply)
            if known is not None:
                return known
        if self.crowning_wins and kings:
            return self.terminal(own, kings, ply)
        can_capture = self.can_capture
        if not can_capture(own, opp, kings, color):
            if not self.can_step(own, opp, kings, color) and not self.gen_moves(own, opp, kings, color, state):
                return self.terminal(own, kings, ply)
            if (
                threats
                and ply < MAX_DEPTH
                and (can_capture(opp, own, kings, color ^ 1) or self.can_crown(opp, own, kings, color ^ 1))
            ):
                return self.dodge(own, opp, kings, color, state, alpha, beta, ply, threats - 1)
            if self.can_crown(own, opp, kings, color):
                return self.crown(own, opp, kings, color, state, alpha, beta, ply, threats)
            return self.leaf(own, opp, kings, color)
        # Capture sequences meet the same positions again and again: the table keeps them (as
        # depth 0, or -1 when found without looking at threats).
        key = (own, opp, kings, color, state)
        entry = self.table.get(key)
        tt_move = None
        level = threats - THREATS
        if entry is not None:
            entry_depth, score, flag, tt_move = entry
            if entry_depth >= level and not pv_node:
                if score >= MATE_BOUND:
                    score -= ply
                elif score <= -MATE_BOUND:
                    score += ply
                if flag == EXACT or (flag == LOWER and score >= beta) or (flag == UPPER and score <= alpha):
                    return score
        captures = self.gen_captures(own, opp, kings, color)
        best = -INF
        original_alpha = alpha
        if not self.mandatory:
            best = self.leaf(own, opp, kings, color)  # stand pat: capturing is optional here
            if best >= beta:
                return best
            if best > alpha:
                alpha = best
        if len(captures) > 1:
            captures.sort(key=_captured_count, reverse=True)
            if tt_move is not None and tt_move != captures[0] and tt_move in captures:
                captures.remove(tt_move)
                captures.insert(0, tt_move)
        best, best_move = self.replies(
            own, opp, kings, color, state, captures, best, alpha, beta, ply, threats, pv_node
        )
        if best_move is not None and (entry is None or entry[0] <= level):
            flag = UPPER if best <= original_alpha else LOWER if best >= beta else EXACT
            self.store(key, level, best, flag, best_move, ply)
        return best

    def crown(
        self, own: int, opp: int, kings: int, color: int, state: int, alpha: int, beta: int, ply: int, threats: int
    ) -> int:
        """A quiet node where a man can crown: the evaluation, or a crowning step if it scores more."""
        best = self.leaf(own, opp, kings, color)
        if best >= beta:
            return best
        crownings = [move for move in self.gen_moves(own, opp, kings, color, state) if move[2] and move[2] != move[0]]
        pv_node = beta - alpha > 1
        return self.replies(
            own, opp, kings, color, state, crownings, best, max(alpha, best), beta, ply, threats, pv_node
        )[0]

    def dodge(
        self, own: int, opp: int, kings: int, color: int, state: int, alpha: int, beta: int, ply: int, threats: int
    ) -> int:
        """One full-width ply of quiet moves (the side to move has no capture, the opponent has)."""
        moves = self.gen_moves(own, opp, kings, color, state)
        if not moves:
            return self.terminal(own, kings, ply)
        if len(moves) > 1:
            moves.sort(key=self.history[color].__getitem__, reverse=True)
        return self.replies(own, opp, kings, color, state, moves, -INF, alpha, beta, ply, threats, beta - alpha > 1)[0]

    def replies(
        self,
        own: int,
        opp: int,
        kings: int,
        color: int,
        state: int,
        moves: list[Compact],
        best: int,
        alpha: int,
        beta: int,
        ply: int,
        threats: int,
        pv_node: bool,
    ) -> tuple[int, Compact | None]:
        """The best of ``best`` (what the node scores without ``moves``, or ``-INF``) and of each of
        ``moves`` followed by the quiescence search, with the move that scored it (None: ``best``)."""
        pvt = self.pvt
        best_move: Compact | None = None
        after = ply + 1
        limited = self.limited
        other = color ^ 1
        for move in moves:
            moved, captured, crowned = move
            if limited:
                c_own, c_opp, c_kings, c_color, c_state = self.play(own, opp, kings, color, state, move)
            else:
                c_own, c_opp, c_kings, c_color, c_state = opp ^ captured, own ^ moved, kings ^ crowned, other, 0
            if pv_node:
                pvt[after] = NO_PV
            score = -self.quiesce(c_own, c_opp, c_kings, c_color, c_state, -beta, -alpha, after, threats)
            if score > best:
                best = score
                best_move = move
                if score > alpha:
                    alpha = score
                    if pv_node:
                        pvt[ply] = (move, *pvt[after])
                    if alpha >= beta:
                        break
        return best, best_move

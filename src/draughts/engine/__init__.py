"""A computer opponent for every ruleset: alpha-beta search and a generic evaluation.

>>> import draughts
>>> from draughts.engine import Engine, Limit
>>> board = draughts.Board("russian")
>>> result = Engine(seed=1).search(board, Limit(depth=3))
>>> result.move in board.legal_moves, result.depth
(True, 3)

Search
------
:meth:`Engine.search` is a negamax alpha-beta search on the move generator's own bitboard nodes
(copy-make on plain ints, never :class:`~draughts.Position` objects), with principal-variation
(null-window) re-searches, iterative deepening with an aspiration window, a transposition table
keyed by the exact node ``(own, opponent, kings, side to move, rule state)``, move ordering (the
table's move and the previous iteration's best first, then captures by size, two killer moves
per ply and the history heuristic), late-move reductions, forward pruning where a shallow search
beats beta by a margin, one ply more for a single legal move, and a quiescence search: where the
side to move has a capture the search goes on through it, where a man can crown with a quiet step
the crowning is tried against the evaluation, and where the opponent threatens a capture or a
crowning it looks one ply further, so no score is taken while a capture or a crowning hangs. It
stops at a :class:`Limit` of depth, nodes or time, whichever comes first, and answers with the
deepest iteration, counting the moves the last, unfinished one has already searched. Depth and node
limits are reproducible: with the same seed the same calls give the same results. A position
repeated on the search path or in the game history of a :class:`~draughts.Board` counts as a
draw (where the ruleset has a repetition rule). The move-count and endgame draw rules are searched
too: the search starts from a board's draw counts (a :class:`~draughts.Position` from zero) and
carries them along each line, so a line those rules end in a draw scores 0; the table keys a node
with its counts only where a rule's limit is within the search's reach.

Randomness
----------
The only random choice is among root moves whose scores are equal, or within the engine's
``margin`` of the best (a level's way to play weaker, more varied moves). It uses
``draughts._native.Rng(seed)`` (splitmix64), owned by the engine, so an engine built with the same
seed makes the same choices, whether :meth:`Engine.search` or the native game loop of the lab and
the match runner plays the move (:func:`draughts.lab.runner.play_task`).

Evaluation
----------
:func:`evaluate` scores a position for the side to move in hundredths of a man, from the
ruleset's fields only (no variant names):

* **material**: 100 per man, and a king worth :func:`king_value`: 250 for a short king; a flying
  king ``250 + 15 * board_size`` (370 on 8x8, 400 on 10x10), since it controls whole diagonals;
  30 more where men cannot capture kings;
* **where men stand**: a bonus by rows to the crowning row and columns from the side, read from
  a table that fits every board (:attr:`Weights.squares`);
* **contact**: men facing an opposing piece; **balance**: men spread over both wings;
  **back-rank guard**: men on their own first row while the opponent has men to crown;
* **kings** on the squares they see most of;
* in the endgame, **advancement** (the race to crown), **runaways** (men no opposing piece can
  stop) and, with flying kings, a small lead against a king counting a quarter (it is usually a
  draw) except three kings holding the main road against a lone king off it (a known win);
* where a player with no move wins (losing draughts) the whole score changes sign; where
  crowning wins (breakthrough) advancement and runaways count three times, always.

:class:`Weights` sets each term; pass your own evaluation to ``Engine(evaluate=...)``, a function
of a :class:`~draughts.Position` returning an ``int`` for the side to move.

Levels
------
:data:`~draughts.engine.levels.LEVELS` names three strengths, ``beginner``, ``intermediate`` and ``strong``
(see ``docs/engine.rst`` for the match results that separate them).
"""

from __future__ import annotations

from draughts.engine.engine import Engine
from draughts.engine.levels import LEVELS, Level, get_level
from draughts.engine.limits import MATE, AnalysisLine, Limit, SearchResult, StopSignal
from draughts.engine.root import line_text
from draughts.engine.weights import Weights, evaluate, king_value
from draughts.errors import InvalidLimitError, InvalidWeightsError, UnknownLevelError

__all__ = [
    "LEVELS",
    "MATE",
    "AnalysisLine",
    "Engine",
    "InvalidLimitError",
    "InvalidWeightsError",
    "Level",
    "Limit",
    "SearchResult",
    "StopSignal",
    "UnknownLevelError",
    "Weights",
    "evaluate",
    "get_level",
    "king_value",
    "line_text",
]

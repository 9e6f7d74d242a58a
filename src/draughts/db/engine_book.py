"""Opening books built by the engine: a tree of ``plies`` plies, every node's moves scored by search.

No game collection covers a new ruleset (a rule file, a variant nobody plays yet), and a small
collection covers few lines: the engine can still say which first moves are sound. From a position
(the start by default), :func:`build_engine_book` scores **every** legal move of a node by one
:meth:`~draughts.engine.Engine.analyse` call that asks for as many lines as there are moves (each
line searched with an open window, so the scores are exact and comparable), keeps the moves within
``margin`` of the best, weighs them, and expands the kept moves' positions to the next ply, up to
``plies`` plies from the root. Positions reached by two move orders are scored once.

Weights
-------
A kept move's loss is how much worse than the best move it scores, in the search's units
(hundredths of a man; a win or a loss in N plies is a huge number, so a move that throws a won game
away, or a move that is not the quickest way out of a lost one, is never kept beside a better one)::

    weight = round(1000 * 2 ** (-loss / halving))    for loss <= margin

so the best move weighs 1000 and every ``halving`` hundredths of a man worse halve the weight; a
move more than ``margin`` worse is neither written nor expanded. A :class:`~draughts.db.book.Book`
then draws among a position's moves in proportion to their weights.

Engine entries in the format
----------------------------
The file is the documented format version 1 of :mod:`draughts.db.book`; an engine entry has no game
behind it, so its ``games``, ``white``, ``draws`` and ``black`` are 0 (a database book's entries have
``games >= 1``: a reader tells them apart by ``games == 0``).

Determinism: each node is searched by a new :class:`~draughts.engine.Engine` (an empty
transposition table) seeded from ``seed`` and the node's key, so a book built with a ``depth:N``
or ``nodes:N`` player is the same file byte for byte for a seed, whatever the executor, the number
of workers or the order they finish in (a ``time:S`` player is not reproducible).

>>> import os, tempfile
>>> from draughts.db.book import Book
>>> path = os.path.join(tempfile.mkdtemp(), "russian.book")
>>> build_engine_book("russian", path, player="depth:2", plies=2) > 0
True
>>> Book(path).probe("russian")[0].weight
1000
"""

from __future__ import annotations

import hashlib
import math
import os
from collections.abc import Callable, Sequence
from concurrent.futures import Executor

from draughts.db.book import BookEntry, write_book
from draughts.db.moves import move_code
from draughts.errors import BookError
from draughts.position import Position
from draughts.rules import Ruleset
from draughts.rules.files import resolve_ruleset

__all__ = ["FULL_WEIGHT", "build_engine_book", "move_weight", "score_node"]

FULL_WEIGHT = 1000
"""The weight of a node's best move."""

Scored = list[tuple[int, int, int]]
"""A node's kept moves: (move code, weight, index of the move among the position's legal moves)."""


def move_weight(loss: int, *, halving: int, margin: int) -> int:
    """The weight of a move ``loss`` hundredths of a man worse than the best: ``FULL_WEIGHT`` halved
    every ``halving``, 0 beyond ``margin`` (the move is left out).

    >>> [move_weight(loss, halving=25, margin=50) for loss in (0, 25, 50, 51)]
    [1000, 500, 250, 0]
    """
    if loss > margin:
        return 0
    return max(1, round(FULL_WEIGHT * math.pow(2.0, -loss / halving)))


def _node_seed(seed: int, key: int) -> int:
    digest = hashlib.sha256(f"{seed}/{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def score_node(position: Position, player: str, seed: int, halving: int, margin: int) -> Scored:
    """Every legal move of ``position`` scored by ``player`` (an engine player's text); the moves
    within ``margin`` of the best, with their weights, heaviest first (a job of an executor)."""
    from draughts.players.spec import ENGINE_KINDS, parse_player

    spec = parse_player(player, accepted=ENGINE_KINDS, command="an engine book")
    moves = position.legal_moves()
    if not moves:
        return []
    engine = spec.engine(_node_seed(seed, position.key()))
    lines = engine.analyse(position, multipv=len(moves))
    index = {move: number for number, move in enumerate(moves)}
    best = lines[0].score.to_search()
    scored = []
    for line in lines:
        weight = move_weight(best - line.score.to_search(), halving=halving, margin=margin)
        if weight > 0:
            scored.append((move_code(line.move), weight, index[line.move]))
    return sorted(scored, key=lambda item: (-item[1], item[0]))


def _check(plies: int, halving: int, margin: int, width: int | None) -> None:
    for name, value in (("plies", plies), ("halving", halving)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise BookError(f"{name} {value!r} must be a whole number from 1")
    if isinstance(margin, bool) or not isinstance(margin, int) or margin < 0:
        raise BookError(f"margin {margin!r} must be a whole number from 0")
    if width is not None and (isinstance(width, bool) or not isinstance(width, int) or width < 1):
        raise BookError(f"width {width!r} must be a whole number from 1, or None")


def build_engine_book(
    ruleset: Ruleset | str | os.PathLike[str],
    path: str | os.PathLike[str],
    *,
    player: str = "depth:6",
    plies: int = 4,
    fen: str | None = None,
    seed: int = 0,
    halving: int = 25,
    margin: int = 50,
    width: int | None = None,
    executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Build a book of ``plies`` plies from the start of ``ruleset`` (or ``fen``) by the engine.

    Args:
        ruleset: The rules (a ruleset, a name, a rule file ...).
        path: The book file to write (through a temporary file).
        player: The engine that scores the moves, in the player syntax of
            :func:`~draughts.players.parse_player`: ``depth:N``, ``nodes:N``, ``time:S`` or ``level:NAME``.
        plies: How deep the tree goes: the root's moves are ply 1.
        fen: The root position (default: the start position).
        seed: Seed of the engines' tie-breaks (one engine per node, seeded from this and the node).
        halving: Hundredths of a man worse than the best that halve a move's weight.
        margin: Moves more than this worse than the best are left out.
        width: Expand at most this many of a node's kept moves, the heaviest (None: all of them);
            the others are still written.
        executor: Scores each ply's positions in parallel over it (None: here, one by one).
        progress: Called with ``(done, total)`` positions of the ply being scored.

    Returns:
        The number of entries written.

    Raises:
        ~draughts.errors.BookError: a bad ``plies``, ``halving``, ``margin`` or ``width``.
        ~draughts.errors.PlayerSpecError: ``player`` is not the built-in engine.
    """
    from draughts.players.spec import ENGINE_KINDS, parse_player

    _check(plies, halving, margin, width)
    text = parse_player(player, accepted=ENGINE_KINDS, command="an engine book").text
    rules = resolve_ruleset(ruleset)
    root = Position.initial(rules) if fen is None else Position.from_fen(rules, fen)
    entries: list[BookEntry] = []
    level, seen = [root], {root.key()}
    for ply in range(plies):
        results = _score_level(level, text, seed, halving, margin, executor, progress)
        following: list[Position] = []
        for position, scored in zip(level, results, strict=True):
            key = position.key()
            entries.extend(BookEntry(key, code, weight, 0, 0, 0, 0) for code, weight, _ in scored)
            if ply + 1 == plies:
                continue
            moves = position.legal_moves()
            for _code, _weight, number in scored[:width]:
                child = position.play(moves[number])
                if child.key() not in seen:
                    seen.add(child.key())
                    following.append(child)
        level = following
    return write_book(path, rules, entries)


def _score_level(
    level: Sequence[Position],
    player: str,
    seed: int,
    halving: int,
    margin: int,
    executor: Executor | None,
    progress: Callable[[int, int], None] | None,
) -> list[Scored]:
    """The scored moves of each position of one ply, in the order given."""
    results: list[Scored] = []
    if executor is None:
        for position in level:
            results.append(score_node(position, player, seed, halving, margin))
            if progress is not None:
                progress(len(results), len(level))
        return results
    futures = [executor.submit(score_node, position, player, seed, halving, margin) for position in level]
    for future in futures:
        results.append(future.result())
        if progress is not None:
            progress(len(results), len(level))
    return results

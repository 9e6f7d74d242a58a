"""Exact solving of one material by retrograde analysis over the library's one move generator.

No move is generated backwards. The solver walks every position of the material once, forwards:

1. it generates the position's legal moves (the generator of :func:`draughts._core.generator`,
   the same one :class:`~draughts.Position` uses) and plays each. A move that stays in the
   material (a quiet king or man move) is an *edge*, stored reversed: the child lists the parent.
   A move that leaves it (a capture, a crowning) is an *exit* whose value is known already: from
   the table of the smaller material, or from the rules when the game is over (the side to move
   has no piece left; a crowning that wins a breakthrough game).
2. Then the values spread backwards, level by level in plies (a bucket queue). A position with no
   legal move is decided at 0 plies: lost, or won where :attr:`~draughts.Ruleset.no_move_wins`.
   A position with a child lost in ``n`` plies is won in ``n + 1`` (the first such child found is
   the nearest, since levels are taken in increasing order); a position all of whose children are
   won is lost in one ply more than the longest of them, as soon as the last child is decided.
   Whatever is never decided is a draw: neither side can force the end of the game.

The values are pure game-theoretic (no move-count draw rules): "win in ``n`` plies" means the
side to move can force the end of the game by the ruleset's own win conditions within ``n``
plies, and no faster against the best defence; a loss is as long as the loser can make it.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable

from draughts._core import generator
from draughts.endgame.index import Indexer
from draughts.endgame.material import Material
from draughts.rules import Ruleset

DRAW, WIN, LOSS, HOLE = 0, 1, 2, 3
"""Value codes of a table entry (for the side to move); HOLE marks an index that is no position."""

Value = tuple[int, int]
"""``(code, plies)`` of one position."""
Lookup = Callable[[int, int, int, int], Value]
"""The value of a position of another material: ``(own, opp, kings, color)`` of the side to move."""


class Solved:
    """The values of one material: a code and a distance per index."""

    def __init__(self, indexer: Indexer, codes: bytearray, plies: array[int]) -> None:
        self.indexer = indexer
        self.codes = codes
        self.plies = plies

    def value(self, white: int, black: int, kings: int, turn: int) -> Value:
        """The value of a position of this material for the side to move."""
        index = self.indexer.index(white, black, kings, turn)
        return self.codes[index], self.plies[index]


def terminal_value(rules: Ruleset, own: int, kings: int) -> Value | None:
    """The value for the side to move of a position where the game is over before any move is
    looked at: a king on the board where crowning wins (the king's owner has won, and it is not
    the side to move in any position reached by a move), or no piece left for the side to move."""
    if rules.crowning_wins and kings:
        return (LOSS, 0) if not kings & own else (WIN, 0)
    if not own:
        return (WIN, 0) if rules.no_move_wins else (LOSS, 0)
    return None


class _Graph:
    """What the forward pass learns: the reversed edges and what the exits already decide."""

    def __init__(self, size: int) -> None:
        self.parents = array("l")
        self.children = array("l")
        self.remaining = array("l", bytes(array("l").itemsize * size))
        self.blocked = bytearray(size)
        """1 where the position cannot be lost: an exit draws or wins for the side to move."""
        self.longest = array("l", bytes(array("l").itemsize * size))
        """The longest loss so far: 1 + the plies of the longest exit won by the opponent."""
        self.wins: dict[int, list[int]] = {}
        self.losses: dict[int, list[int]] = {}


def solve(rules: Ruleset, material: Material, lookup: Lookup) -> Solved:
    """Solve every position of ``material`` under ``rules``.

    Args:
        rules: The ruleset (without rule state in this material: checked by the caller).
        material: The material.
        lookup: The value of any position of a smaller material (the tables built before).
    """
    indexer = Indexer(rules, material)
    graph = _forward(rules, indexer, lookup)
    codes = bytearray([HOLE]) * indexer.size
    plies = array("H", bytes(2 * indexer.size))
    for white, black, kings in indexer.placements_of():
        for turn in (0, 1):
            codes[indexer.index(white, black, kings, turn)] = DRAW
    _propagate(graph, codes, plies)
    return Solved(indexer, codes, plies)


def _forward(rules: Ruleset, indexer: Indexer, lookup: Lookup) -> _Graph:
    gen = generator(rules)
    moves_of = gen.moves
    index_of = indexer.index
    graph = _Graph(indexer.size)
    parents, children, remaining = graph.parents, graph.children, graph.remaining
    no_move = (WIN, 0) if rules.no_move_wins else (LOSS, 0)
    for white, black, kings in indexer.placements_of():
        king_count = kings.bit_count()
        for turn in (0, 1):
            own, opp = (white, black) if turn == 0 else (black, white)
            index = index_of(white, black, kings, turn)
            moves = moves_of(own, opp, kings, turn, 0)
            if not moves:
                _push(graph, index, no_move)
                continue
            for moved, captured, crowned in moves:
                child_kings = kings ^ crowned
                child_own, child_opp = opp ^ captured, own ^ moved  # the opponent moves next
                if not captured and child_kings.bit_count() == king_count:
                    child_white, child_black = (child_opp, child_own) if turn == 0 else (child_own, child_opp)
                    parents.append(index)
                    children.append(index_of(child_white, child_black, child_kings, 1 - turn))
                    remaining[index] += 1
                    continue
                value = terminal_value(rules, child_own, child_kings)
                if value is None:
                    value = lookup(child_own, child_opp, child_kings, 1 - turn)
                _exit(graph, index, value)
    for index in range(indexer.size):
        if not remaining[index] and not graph.blocked[index] and graph.longest[index]:
            graph.losses.setdefault(graph.longest[index], []).append(index)
    return graph


def _push(graph: _Graph, index: int, value: Value) -> None:
    code, plies = value
    (graph.wins if code == WIN else graph.losses).setdefault(plies, []).append(index)


def _exit(graph: _Graph, index: int, child: Value) -> None:
    code, plies = child
    if code == LOSS:
        graph.blocked[index] = 1
        graph.wins.setdefault(plies + 1, []).append(index)
    elif code == WIN:
        graph.longest[index] = max(graph.longest[index], plies + 1)
    else:
        graph.blocked[index] = 1


def _reverse(graph: _Graph, size: int) -> tuple[array[int], array[int]]:
    """The parents of each child as one flat array with offsets (compressed rows)."""
    start = array("l", bytes(array("l").itemsize * (size + 1)))
    for child in graph.children:
        start[child + 1] += 1
    for index in range(size):
        start[index + 1] += start[index]
    fill = array("l", start)
    flat = array("l", bytes(array("l").itemsize * len(graph.children)))
    for parent, child in zip(graph.parents, graph.children, strict=True):
        flat[fill[child]] = parent
        fill[child] += 1
    return start, flat


def _propagate(graph: _Graph, codes: bytearray, plies: array[int]) -> None:
    start, flat = _reverse(graph, len(codes))
    del graph.parents, graph.children
    remaining, blocked, longest = graph.remaining, graph.blocked, graph.longest
    wins, losses = graph.wins, graph.losses
    level = 0
    while wins or losses:
        for index in losses.pop(level, ()):
            if codes[index] != DRAW:
                continue
            codes[index], plies[index] = LOSS, level
            won = wins.setdefault(level + 1, [])
            for parent in flat[start[index] : start[index + 1]]:
                if codes[parent] == DRAW:
                    won.append(parent)
        for index in wins.pop(level, ()):
            if codes[index] != DRAW:
                continue
            codes[index], plies[index] = WIN, level
            for parent in flat[start[index] : start[index + 1]]:
                if codes[parent] != DRAW:
                    continue
                remaining[parent] -= 1
                if longest[parent] <= level:
                    longest[parent] = level + 1
                if not remaining[parent] and not blocked[parent]:
                    losses.setdefault(longest[parent], []).append(parent)
        level += 1

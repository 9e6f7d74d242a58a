"""Exact solving of one material by retrograde analysis over the library's one move generator.

No move is generated backwards. The solver walks every position of the material once, forwards:

1. it generates the position's legal moves (the generator of :func:`draughts._core.build_move_generator`,
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

from draughts._core import build_move_generator
from draughts.endgame.codes import DRAW, HOLE, LOSS, WIN
from draughts.endgame.index import Indexer
from draughts.endgame.material import Material
from draughts.endgame.within import EXIT_DRAWS, EXIT_WINS, NO_MOVE_LOST, NO_MOVE_WON, Walked, plan_of, spread
from draughts.rules import Ruleset

__all__ = ["Lookup", "Solved", "Value", "solve", "terminal_value"]

Value = tuple[int, int]
"""``(code, plies)`` of one position."""
Lookup = Callable[[int, int, int, int], tuple[int, int, int]]
"""The value of a position of another material: ``(own, opp, kings, color)`` of the side to move
give ``(code, plies, within)``, ``within`` its code under the draw rules (see :func:`solve`)."""


class Solved:
    """The values of one material: a code and a distance per index, and the codes under the
    draw rules where they were asked for."""

    def __init__(self, indexer: Indexer, codes: bytearray, plies: array[int], within: bytearray | None) -> None:
        self.indexer = indexer
        self.codes = codes
        self.plies = plies
        self.within = within

    def value(self, white: int, black: int, kings: int, turn: int) -> Value:
        """The value of a position of this material for the side to move."""
        index = self.indexer.index(white, black, kings, turn)
        return self.codes[index], self.plies[index]


def terminal_value(ruleset: Ruleset, own: int, kings: int) -> Value | None:
    """The value for the side to move of a position where the game is over before any move is
    looked at: a king on the board where crowning wins (the king's owner has won, and it is not
    the side to move in any position reached by a move), or no piece left for the side to move."""
    if ruleset.crowning_wins and kings:
        return (LOSS, 0) if not kings & own else (WIN, 0)
    if not own:
        return (WIN, 0) if ruleset.no_move_wins else (LOSS, 0)
    return None


class _Graph:
    """The moves inside the material, stored compactly: per position walked, its index
    (``order``) and its count of moves inside (``moves``), and the children's indices one
    position after another (``children``, unsigned arrays of the narrowest width that holds an
    index: 4 bytes per move up to 4 billion entries)."""

    def __init__(self, size: int) -> None:
        kind = _unsigned(size)
        self.order = array(kind)
        self.children = array(kind)
        self.moves = array("H", bytes(2 * size))


def _unsigned(largest: int) -> str:
    """The typecode of the narrowest unsigned array that holds ``largest``."""
    for kind in ("B", "H", "I", "L", "Q"):
        if largest < 1 << (8 * array(kind).itemsize):
            return kind
    raise OverflowError(f"{largest} does not fit an unsigned array")


class _Seeds:
    """What is known before propagation: the ends of the game and what the exits decide.

    Everything is per index in arrays (no Python object per position): the solver's memory is a
    few bytes per entry and per move, whatever the material.
    """

    def __init__(self, size: int) -> None:
        self.kind = _unsigned(size)
        self.remaining = array("H")
        """Per position, its moves inside the material whose child is not yet won (set after
        the forward walk)."""
        self.blocked = bytearray(size)
        """1 where the position cannot be lost: an exit draws or wins for the side to move."""
        self.longest = array("H", bytes(2 * size))
        """The longest loss so far: 1 + the plies of the longest exit won by the opponent."""
        self.wins: dict[int, array[int]] = {}
        self.losses: dict[int, array[int]] = {}

    def queue(self, levels: dict[int, array[int]], level: int) -> array[int]:
        """The positions queued at ``level`` (of ``wins`` or ``losses``), an array made on demand."""
        found = levels.get(level)
        if found is None:
            found = levels[level] = array(self.kind)
        return found

    def push(self, index: int, value: Value) -> None:
        code, plies = value
        self.queue(self.wins if code == WIN else self.losses, plies).append(index)

    def exit(self, index: int, child: Value) -> None:
        code, plies = child
        if code == LOSS:
            self.blocked[index] = 1
            self.queue(self.wins, plies + 1).append(index)
        elif code == WIN:
            if self.longest[index] < plies + 1:
                self.longest[index] = plies + 1
        else:
            self.blocked[index] = 1

    def close(self, moves: array[int]) -> None:
        """Take the count of moves inside; queue the positions whose every move leaves the
        material into a won position: lost already."""
        self.remaining = array("H", moves)
        blocked, longest = self.blocked, self.longest
        for index, left in enumerate(self.remaining):
            if not left and not blocked[index] and longest[index]:
                self.queue(self.losses, longest[index]).append(index)


def solve(ruleset: Ruleset, material: Material, lookup: Lookup, within: bool = False) -> Solved:
    """Solve every position of ``material`` under ``ruleset``.

    Memory: per entry about a dozen bytes (codes, distances, counts, offsets), per move inside
    the material 4 bytes, twice that while the moves are reversed; nothing per position is a
    Python object. The verdicts within the rules add a few bytes per entry and one per move,
    and, where both counts matter (``draughts.endgame.within``), five bytes per entry and
    value of the count of plies since a man moved.

    Args:
        ruleset: The ruleset (without rule state in this material: checked by the caller).
        material: The material.
        lookup: The value of any position of a smaller material (the tables built before).
        within: Also give the verdicts within the draw rules, counts at 0 (for rulesets
            :func:`draughts.endgame.within.known` accepts).
    """
    indexer = Indexer(ruleset, material)
    codes = bytearray([HOLE]) * indexer.size
    walked = Walked(ruleset, plan_of(ruleset, material), indexer.size) if within else None
    graph, seeds = _forward(ruleset, indexer, lookup, walked, codes)
    moves = graph.moves
    start, flat, men = _reverse(graph, indexer.size, None if walked is None else walked.men)
    del graph
    within_codes = None if walked is None else spread(walked, start, flat, men, moves, codes)
    del walked, men, moves
    plies = array("H", bytes(2 * indexer.size))
    _propagate(start, flat, seeds, codes, plies)
    return Solved(indexer, codes, plies, within_codes)


def _forward(
    rules: Ruleset, indexer: Indexer, lookup: Lookup, walked: Walked | None, codes: bytearray
) -> tuple[_Graph, _Seeds]:
    """Walk every position once: mark it in ``codes`` (a draw until decided), store its moves
    inside the material and seed what its exits and the ends of the game decide (and, with
    ``walked``, what the verdicts within the rules need)."""
    gen = build_move_generator(rules)
    moves_of = gen.moves
    index_of = indexer.index
    graph = _Graph(indexer.size)
    seeds = _Seeds(indexer.size)
    counts = graph.moves
    add_child, add_order = graph.children.append, graph.order.append
    exits = walked.exits if walked is not None else None
    add_man = walked.men.append if walked is not None and walked.men is not None else None
    no_move = (WIN, 0) if rules.no_move_wins else (LOSS, 0)
    for white, black, kings in indexer.placements_of():
        king_count = kings.bit_count()
        for turn in (0, 1):
            own, opp = (white, black) if turn == 0 else (black, white)
            index = index_of(white, black, kings, turn)
            codes[index] = DRAW
            if walked is not None:
                walked.position(index, white, black, kings, turn)
            moves = moves_of(own, opp, kings, turn, 0)
            if not moves:
                seeds.push(index, no_move)
                if exits is not None:
                    exits[index] = NO_MOVE_WON if rules.no_move_wins else NO_MOVE_LOST
                continue
            inside = 0
            for moved, captured, crowned in moves:
                child_kings = kings ^ crowned
                if not captured and child_kings.bit_count() == king_count:
                    # A quiet move inside the material: only the mover's pieces change.
                    if turn == 0:
                        add_child(index_of(white ^ moved, black, child_kings, 1))
                    else:
                        add_child(index_of(white, black ^ moved, child_kings, 0))
                    if add_man is not None:
                        add_man(0 if moved & kings else 1)
                    inside += 1
                    continue
                child_own, child_opp = opp ^ captured, own ^ moved  # the opponent moves next
                over = terminal_value(rules, child_own, child_kings)
                code, plies, rule_code = (
                    (*over, over[0]) if over is not None else lookup(child_own, child_opp, child_kings, 1 - turn)
                )
                seeds.exit(index, (code, plies))
                if exits is not None:
                    # Leaving the material restarts every count: the child's own verdict decides.
                    exits[index] |= EXIT_WINS if rule_code == LOSS else EXIT_DRAWS if rule_code == DRAW else 0
            if inside:
                add_order(index)
                counts[index] = inside
    seeds.close(counts)
    return graph, seeds


def _reverse(graph: _Graph, size: int, men: bytearray | None) -> tuple[array[int], array[int], bytearray | None]:
    """The parents of each child as one flat array with offsets (compressed rows): the parents
    of ``child`` are ``flat[start[child] : start[child + 1]]``; with ``men`` (a flag per move,
    in the walk's order), the flags in the same order as ``flat``.

    The offsets are first counted as the end of each child's row, then each parent is written
    just below its child's end, which moves the end down to the row's start: no second array of
    offsets.
    """
    children, moves = graph.children, graph.moves
    total = len(children)
    start = array(_unsigned(total), bytes(array(_unsigned(total)).itemsize * (size + 1)))
    for child in children:
        start[child] += 1
    running = 0
    for index in range(size + 1):
        running += start[index]
        start[index] = running
    flat = array(children.typecode, bytes(children.itemsize * total))
    flat_men = None if men is None else bytearray(total)
    position = 0
    for parent in graph.order:
        count = moves[parent]
        if flat_men is None:
            for child in children[position : position + count]:
                row = start[child] - 1
                start[child] = row
                flat[row] = parent
        else:
            for edge in range(position, position + count):
                child = children[edge]
                row = start[child] - 1
                start[child] = row
                flat[row] = parent
                flat_men[row] = men[edge]  # type: ignore[index]
        position += count
    return start, flat, flat_men


def _propagate(start: array[int], flat: array[int], seeds: _Seeds, codes: bytearray, plies: array[int]) -> None:
    remaining, blocked, longest = seeds.remaining, seeds.blocked, seeds.longest
    wins, losses = seeds.wins, seeds.losses
    level = 0
    while wins or losses:
        for index in losses.pop(level, ()):
            if codes[index] != DRAW:
                continue
            codes[index], plies[index] = LOSS, level
            won = seeds.queue(wins, level + 1)
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
                    seeds.queue(losses, longest[parent]).append(parent)
        level += 1

"""perft: count the leaf nodes of the legal-move tree, the standard test of a move generator.

Counting works on raw bitboards, never builds :class:`~draughts.Move` objects, and counts the
last ply without making moves (bulk counting). Two conventions exist for captures that take the
same pieces by different paths:

* ``paths=False`` (default, "dedup"): moves with the same start, end and set of captured pieces
  count once, as :meth:`Position.legal_moves` lists them (Bik's BikDam, dctl's drop-duplicates);
* ``paths=True`` ("keep"): every capture path counts (OEIS A133046, Halbersma 2010), a path being
  what PDN 3.0 restriction 9 distinguishes.

How it stays fast while generic (details in ``docs/performance.rst``): a node is three ints
(the pieces of the side to move, the opponent's pieces, all kings) plus the colour; a move is
played as xor masks; quiet moves are enumerated straight from whole-board shifts without
building move objects; the capture search runs only where a few shifts say a capture exists;
and the last ply is counted, not played (bulk counting). The code reads only the compiled tables
of the ruleset, so every ruleset, named or custom, runs the same code.

``perft`` and ``divide`` accept any ``concurrent.futures.Executor`` to spread the work over
processes or machines: the root position is expanded to a split depth and the subtrees are
counted as independent jobs (positions and rulesets pickle).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

from draughts._legal import legal_candidates, legal_compact_captures, legal_raw_captures
from draughts._tables import compile_rules
from draughts._text import excerpt
from draughts.color import Color
from draughts.errors import DraughtsError
from draughts.move import Move
from draughts.movegen import count_king_steps, kings_can_jump, make_move
from draughts.position import Position
from draughts.rules import Ruleset

if TYPE_CHECKING:
    from concurrent.futures import Executor

Counter = Callable[[int, int, int, int, int], int]
"""``count(own, opponents, kings, color, depth)``: leaves below a node (depth >= 1)."""


@functools.lru_cache(maxsize=32)
def _counter(rules: Ruleset, paths: bool) -> Counter:
    """The perft counter of ``rules``: closures over the compiled tables, built once per ruleset.

    Everything a ruleset changes is read from its tables here, once; the closures then branch
    only on those values (flying kings or not, which way men capture, mandatory capture, ...).
    """
    tables = compile_rules(rules)
    board = tables.board
    a = tables.step_a
    b = tables.step_b
    a2 = a + a
    b2 = b + b
    crowns = tables.crown_row
    mandatory = tables.capture_mandatory
    men_take_kings = tables.men_capture_kings
    flying = tables.flying
    jumps_up = tables.man_jumps_up
    jumps_down = tables.man_jumps_down
    goes_on = tables.jump_goes_on
    needs_search = tables.jump_needs_search
    prefer_kings = tables.single_jumps_prefer_kings

    def jump_origins(prey: int, empty: int, color: int) -> tuple[int, int, int, int]:
        """Squares from which a man of ``color`` would jump ``prey`` onto an empty square, per direction."""
        q0 = q1 = q2 = q3 = 0
        if jumps_up[color]:
            q0 = (prey >> a) & (empty >> a2)
            q1 = (prey >> b) & (empty >> b2)
        if jumps_down[color]:
            q2 = (prey << b) & (empty << b2)
            q3 = (prey << a) & (empty << a2)
        return q0, q1, q2, q3

    def single_jumpers(
        men: int, own_kings: int, origins: tuple[int, int, int, int], prey: int, kings: int, color: int
    ) -> tuple[int, int, int, int] | None:
        """The men making each legal capture, per direction, when every capture is one jump by a man
        (the precedence's preference for kings applied); None when the capture search is needed."""
        q0, q1, q2, q3 = origins
        q = q0 | q1 | q2 | q3
        j0 = men & q0
        j1 = men & q1
        j2 = men & q2
        j3 = men & q3
        if own_kings or ((j0 << a2) | (j1 << b2) | (j2 >> b2) | (j3 >> a2)) & (
            (q & goes_on[color]) | needs_search[color]
        ):
            return None
        prey_kings = prey & kings if prefer_kings else 0
        if prey_kings and (
            j0 & (prey_kings >> a) | j1 & (prey_kings >> b) | j2 & (prey_kings << b) | j3 & (prey_kings << a)
        ):
            j0 &= prey_kings >> a
            j1 &= prey_kings >> b
            j2 &= prey_kings << b
            j3 &= prey_kings << a
        return j0, j1, j2, j3

    def searched(own: int, opponents: int, kings: int, color: int) -> int:
        return len(legal_raw_captures(tables, color, own, opponents, kings, paths))

    def leaves(own: int, opponents: int, kings: int, color: int) -> int:
        """Number of legal moves (bulk count of the last ply).

        Captures by men that cannot go on are counted from the jump masks (the test of
        :func:`~draughts.movegen.single_jumps`, inlined); any other capture runs the search.
        """
        empty = board ^ (own | opponents)
        men = own & ~kings
        own_kings = own & kings
        prey = opponents if men_take_kings else opponents & ~kings
        origins = jump_origins(prey, empty, color)
        if men & (origins[0] | origins[1] | origins[2] | origins[3]):
            jumpers = single_jumpers(men, own_kings, origins, prey, kings, color)
            if jumpers is None:
                found = searched(own, opponents, kings, color)
            else:
                found = (
                    jumpers[0].bit_count() + jumpers[1].bit_count() + jumpers[2].bit_count() + jumpers[3].bit_count()
                )
            if mandatory:
                return found
        elif own_kings and kings_can_jump(tables, own_kings, opponents, empty):
            found = searched(own, opponents, kings, color)
            if mandatory:
                return found
        else:
            found = 0
        if color == 0:
            found += ((men << a) & empty).bit_count() + ((men << b) & empty).bit_count()
        else:
            found += ((men >> a) & empty).bit_count() + ((men >> b) & empty).bit_count()
        if own_kings:
            found += count_king_steps(tables, own_kings, empty)
        return found

    def captures(own: int, opponents: int, kings: int, color: int) -> list[tuple[int, int, int]] | None:
        """The legal captures as ``(moved, captured, crowned)`` xor masks; None if there is none.

        Single jumps by men are read off the jump masks (as in :func:`leaves`); the rest is searched.
        """
        empty = board ^ (own | opponents)
        men = own & ~kings
        own_kings = own & kings
        prey = opponents if men_take_kings else opponents & ~kings
        origins = jump_origins(prey, empty, color)
        if not men & (origins[0] | origins[1] | origins[2] | origins[3]) and not (
            own_kings and kings_can_jump(tables, own_kings, opponents, empty)
        ):
            return None
        jumpers = single_jumpers(men, own_kings, origins, prey, kings, color)
        if jumpers is None:
            return legal_compact_captures(tables, color, own, opponents, kings, paths)
        j0, j1, j2, j3 = jumpers
        crown = crowns[color]
        found = []
        for movers, step, up in ((j0, a, True), (j1, b, True), (j2, b, False), (j3, a, False)):
            while movers:
                start = movers & -movers
                movers ^= start
                over = start << step if up else start >> step
                to = over << step if up else over >> step
                found.append((start | to, over, (kings & over) | (to & crown)))
        return found

    def quiet_moves(own: int, kings: int, color: int, empty: int) -> list[int]:
        """The quiet moves as ``moved`` masks (``from | to``)."""
        men = own & ~kings
        quiet: list[int] = []
        if color == 0:
            for step in (a, b):
                targets = (men << step) & empty
                while targets:
                    to = targets & -targets
                    targets ^= to
                    quiet.append(to | to >> step)
        else:
            for step in (a, b):
                targets = (men >> step) & empty
                while targets:
                    to = targets & -targets
                    targets ^= to
                    quiet.append(to | to << step)
        own_kings = own & kings
        if own_kings:
            quiet.extend(king_moves(own_kings, empty))
        return quiet

    def king_moves(own_kings: int, empty: int) -> list[int]:
        quiet = []
        while own_kings:
            king = own_kings & -own_kings
            own_kings ^= king
            for step in (a, b):
                to = (king << step) & empty
                while to:
                    quiet.append(king | to)
                    if not flying:
                        break
                    to = (to << step) & empty
                to = (king >> step) & empty
                while to:
                    quiet.append(king | to)
                    if not flying:
                        break
                    to = (to >> step) & empty
        return quiet

    def node(own: int, opponents: int, kings: int, color: int, depth: int) -> int:
        """Leaves ``depth`` plies below this node (depth >= 3)."""
        other = 1 - color
        depth -= 1
        child = node if depth > 2 else node2
        total = 0
        found = captures(own, opponents, kings, color)
        if found is not None:
            for moved, captured, crowned in found:
                total += child(opponents ^ captured, own ^ moved, kings ^ crowned, other, depth)
            if mandatory:
                return total
        crown = crowns[color]
        for moved in quiet_moves(own, kings, color, board ^ (own | opponents)):
            total += child(
                opponents, own ^ moved, kings ^ moved if moved & kings else kings | (moved & crown), other, depth
            )
        return total

    def node2(own: int, opponents: int, kings: int, color: int, depth: int = 2) -> int:
        """Leaves two plies below this node, most of them counted in bulk.

        Captures, king moves and positions where the opponent has kings or a capture already are
        played one by one and their replies counted by :func:`leaves`. Otherwise a quiet man move
        from ``f`` to ``t`` gives the opponent a capture only by offering the man on ``t`` (a
        man of theirs behind it, a free square beyond, or ``f`` itself) or by opening ``f`` as a
        landing square; those moves are found for all men at once with masks (``exposed`` and
        ``opened``) and counted one by one. Every other move leaves the opponent only quiet
        moves, whose number differs from the current one only at ``f`` and ``t``: their sum is a
        few population counts per direction.
        """
        other = 1 - color
        total = 0
        found = captures(own, opponents, kings, color)
        if found is not None:
            for moved, captured, crowned in found:
                total += leaves(opponents ^ captured, own ^ moved, kings ^ crowned, other)
            if mandatory:
                return total
        empty = board ^ (own | opponents)
        crown = crowns[color]
        men = own & ~kings
        their_men = opponents & ~kings
        their_prey = own if men_take_kings else men
        # Squares where a man of ours would be jumped (exposed) and squares that would be jumped
        # onto if they were empty (opened), by the opponent's men, given the board as it is.
        exposed = opened = 0
        if jumps_up[other]:
            exposed = ((their_men << a) & (empty >> a)) | ((their_men << b) & (empty >> b))
            opened = ((their_men << a2) & (their_prey << a)) | ((their_men << b2) & (their_prey << b))
        if jumps_down[other]:
            exposed |= ((their_men >> a) & (empty << a)) | ((their_men >> b) & (empty << b))
            opened |= ((their_men >> a2) & (their_prey >> a)) | ((their_men >> b2) & (their_prey >> b))
        if opponents & kings or opened & empty:
            # The opponent has kings or already a capture: count every child on its own.
            for moved in quiet_moves(own, kings, color, empty):
                total += leaves(
                    opponents, own ^ moved, kings ^ moved if moved & kings else kings | (moved & crown), other
                )
            return total
        # Where their men cannot take kings, a man crowned on arrival is safe.
        crowned_safe = -1 if men_take_kings else ~crown
        if other == 0:
            step_a = their_men << a
            step_b = their_men << b
        else:
            step_a = their_men >> a
            step_b = their_men >> b
        replies = (step_a & empty).bit_count() + (step_b & empty).bit_count()
        for step in (a, b):
            if color == 0:
                targets = (men << step) & empty
                # Offered to a man right in front, which lands on the square we left.
                bad = targets & (((exposed | (their_men >> step)) & crowned_safe) | (opened << step))
                good = targets ^ bad
                sources = good >> step
            else:
                targets = (men >> step) & empty
                bad = targets & (((exposed | (their_men << step)) & crowned_safe) | (opened >> step))
                good = targets ^ bad
                sources = good << step
            if good:
                total += (
                    good.bit_count() * replies
                    + (step_a & sources).bit_count()
                    + (step_b & sources).bit_count()
                    - (step_a & good).bit_count()
                    - (step_b & good).bit_count()
                )
            while bad:
                to = bad & -bad
                bad ^= to
                moved = to | (to >> step if color == 0 else to << step)
                total += leaves(opponents, own ^ moved, kings | (to & crown), other)
        own_kings = own & kings
        if own_kings:
            for moved in king_moves(own_kings, empty):
                total += leaves(opponents, own ^ moved, kings ^ moved, other)
        return total

    def count(own: int, opponents: int, kings: int, color: int, depth: int) -> int:
        if depth == 1:
            return leaves(own, opponents, kings, color)
        if depth == 2:
            return node2(own, opponents, kings, color)
        return node(own, opponents, kings, color, depth)

    return count


def _check_position(position: object, what: str) -> None:
    if not isinstance(position, Position):
        raise TypeError(
            f"{what} needs a Position, not {excerpt(position)}; e.g. {what}(draughts.Position.initial('russian'), 5)"
        )


def _check_depth(depth: object, minimum: int, what: str) -> int:
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < minimum:
        kind = "non-negative" if minimum == 0 else "positive"
        raise DraughtsError(f"{what} depth {depth!r} must be a {kind} integer")
    return depth


def _sides(position: Position) -> tuple[int, int]:
    if position.turn is Color.WHITE:
        return position.white, position.black
    return position.black, position.white


def _count_position(position: Position, depth: int, paths: bool) -> int:
    """perft of one position, in this process (the unit of work sent to executors)."""
    if depth == 0:
        return 1
    own, opponents = _sides(position)
    return _counter(position.ruleset, paths)(own, opponents, position.kings, position.turn, depth)


def perft(position: Position, depth: int, *, paths: bool = False, executor: Executor | None = None) -> int:
    """Number of move sequences of length ``depth`` from ``position`` (draw rules ignored).

    >>> import draughts
    >>> draughts.perft(draughts.Position.initial("international"), 3)
    658

    Args:
        position: The root position.
        depth: Plies to look ahead (0 counts the root itself).
        paths: Count every capture path separately (the "keep" convention).
        executor: A ``concurrent.futures.Executor`` (a ``ProcessPoolExecutor``, Dask's
            ``Client.get_executor()``, ...) to count subtrees in parallel; the result is the same.
    """
    _check_position(position, "perft")
    _check_depth(depth, 0, "perft")
    if executor is not None and depth >= 2:
        return sum(count for _, count in _parallel_divide(position, depth, paths, executor))
    return _count_position(position, depth, paths)


def _root_moves(position: Position, paths: bool) -> list[tuple[Move, Position]]:
    """Each legal root move (each path with ``paths``) and the position it leads to."""
    tables = compile_rules(position.ruleset)
    own, opponents = _sides(position)
    square = tables.square_of_bit
    result = []
    for candidate in legal_candidates(tables, position.turn, own, opponents, position.kings, paths=paths):
        move = Move(
            square[candidate.start],
            square[candidate.end],
            tuple(square[bit] for bit in candidate.captured),
            tuple(square[bit] for bit in candidate.path),
            candidate.promotes,
        )
        child_own, child_opponents, child_kings = make_move(own, opponents, position.kings, candidate)
        white, black = (child_own, child_opponents) if position.turn is Color.WHITE else (child_opponents, child_own)
        result.append((move, Position(position.ruleset, white, black, child_kings, position.turn.opponent)))
    return result


def divide(
    position: Position, depth: int, *, paths: bool = False, executor: Executor | None = None
) -> list[tuple[Move, int]]:
    """perft split by root move: ``[(move, leaves below it), ...]`` in generation order.

    With ``paths``, each capture path is its own entry (two entries may then compare equal as
    moves, since a :class:`~draughts.Move` is identified by start, end and captured set).
    With ``executor``, the subtrees are counted in parallel (see :func:`perft`).
    """
    _check_position(position, "divide")
    _check_depth(depth, 1, "divide")
    if executor is not None and depth >= 2:
        return _parallel_divide(position, depth, paths, executor)
    return [(move, _count_position(child, depth - 1, paths)) for move, child in _root_moves(position, paths)]


def _parallel_divide(position: Position, depth: int, paths: bool, executor: Executor) -> list[tuple[Move, int]]:
    """divide with the subtrees counted as jobs on ``executor``.

    Each root move's subtree is split further, one ply at a time, until there are enough jobs to
    keep the workers busy (about 8 per worker for uneven subtrees) or the remaining depth gets
    small; each job is a (position, depth) pair that pickles cheaply.
    """
    roots = _root_moves(position, paths)
    remaining = depth - 1
    # Jobs per root move: the positions below it at the split depth.
    groups: list[list[Position]] = [[child] for _, child in roots]
    target = 8 * _workers(executor)
    while remaining > 3 and sum(len(group) for group in groups) < target:
        groups = [[grandchild for child in group for _, grandchild in _root_moves(child, paths)] for group in groups]
        remaining -= 1
    futures = [[executor.submit(_count_position, job, remaining, paths) for job in group] for group in groups]
    return [(move, sum(future.result() for future in group)) for (move, _), group in zip(roots, futures, strict=True)]


def _workers(executor: Executor) -> int:
    """A guess of how many jobs ``executor`` runs at once (for splitting the work)."""
    for name in ("_max_workers", "max_workers"):
        value = getattr(executor, name, None)
        if isinstance(value, int) and value > 0:
            return value
    return 8

"""The verdicts within the rules: what the move-count and endgame draw rules do to exact play.

A game under those rules is drawn once a count reaches its limit (:meth:`draughts.Board.outcome`:
a player with no move has lost first). Inside one material two counts matter, both restarted by
the capture or crowning that leaves it (and made the material):

* ``e``, plies since the material arose: the endgame rules count it, and so do move-count rules
  that a man's move does not restart (Italian's);
* ``k``, plies since a man last moved: the move-count rules a man's move restarts (the 25-move
  rule). Without men on the board it is ``e``.

The verdict asked for is the one with both counts at 0. It is exact, by the same retrograde
spreading as the pure values (:mod:`draughts.endgame.solve`), over *budgets* instead of distances:
the budget of a won (lost) position is the largest count at which it is still won (lost). A won
position's budget is its limit less one, or a lost child's budget less one (a ply passes), the
larger over its moves; a lost position's is the smaller over its moves, every move reaching a won
child. A capture or crowning restarts the counts: its child's verdict within the rules decides,
at any budget. Budgets are taken largest first, so the first a position is given is its own.

Which count is the budget depends on the material (:class:`Plan`):

* ``"ply"``: one count, ``e`` (no men; or men, but the ``k`` limit can never be reached before the
  ``e`` limit; or no rule counts men's moves). Limits may differ from position to position (the
  Russian main road, Frisian's shot in the air).
* ``"men"``: ``k`` alone (no rule counts ``e`` here): a man's move restarts the budget. Men only
  move forward, so positions are taken by how far their men have come, furthest first: a man's
  move always reaches a position already decided.
* ``"both"``: each position is taken once per value of ``k`` (``e`` is the budget): exact, and
  that many times the work.
"""

from __future__ import annotations

import heapq
from array import array

import attrs

from draughts import drawrules
from draughts._core import build_move_generator
from draughts._core.tables import VECTORS
from draughts.color import Color
from draughts.endgame.codes import DRAW, HOLE, LOSS, WIN
from draughts.endgame.material import Material
from draughts.position import Position
from draughts.rules import EndgameRule, Ruleset

__all__ = [
    "EXIT_DRAWS",
    "EXIT_WINS",
    "INF",
    "NO_MOVE_LOST",
    "NO_MOVE_WON",
    "Plan",
    "Walked",
    "known",
    "plan_of",
    "spread",
]

INF = 0x7FFF
"""A budget no count limits (the largest value of the signed 2-byte arrays budgets live in)."""

EXIT_WINS, EXIT_DRAWS, NO_MOVE_LOST, NO_MOVE_WON = 1, 2, 4, 8
"""Per position, what its moves out of the material and the end of the game say (bits)."""


@attrs.frozen
class Plan:
    """How the draw rules count in one material (limits in plies; :data:`INF`: none).

    Attributes:
        counts: ``"ply"``, ``"men"`` or ``"both"`` (see the module's text).
        count_limit: The limit of ``k`` (plies since a man moved): its budget is ``count_limit - 1``.
        material_limit: The limit of ``e`` wherever the pieces stand.
        placement: The endgame rules of this material that depend on where the pieces stand, with
            their limits (only those shorter than ``material_limit``).
    """

    counts: str
    count_limit: int
    material_limit: int
    placement: tuple[tuple[int, EndgameRule], ...]

    def cap(self, ruleset: Ruleset, white: int, black: int, kings: int, turn: int) -> int:
        """The largest ``e`` budget of a position: its ``e`` limit less one (-1: drawn at once)."""
        limit = self.material_limit
        if self.placement:
            position = Position.from_bitboards(ruleset, white, black, kings, Color(turn))
            for plies, rule in self.placement:
                if plies < limit and drawrules.applies(rule, position):
                    limit = plies
        return INF if limit == INF else limit - 1


def known(ruleset: Ruleset) -> bool:
    """Whether verdicts within the rules can be given: every count restarts when a capture or a
    crowning leaves a material (else a smaller material's verdict would depend on the count it
    is entered with, which its table does not hold)."""
    return all(
        rule.reset_by_capture and (rule.reset_by_man_move or rule.reset_by_promotion)
        for rule in ruleset.draw_rules.move_counts
    )


def plan_of(ruleset: Ruleset, material: Material) -> Plan:
    """How the draw rules count in ``material`` (for rulesets :func:`known` accepts)."""
    draws = ruleset.draw_rules
    count = min((2 * rule.moves for rule in draws.move_counts if rule.reset_by_man_move), default=INF)
    fixed = min((2 * rule.moves for rule in draws.move_counts if not rule.reset_by_man_move), default=INF)
    white_men, black_men, white_kings, black_kings = material.counts(ruleset)
    white, black = (white_kings, white_men), (black_kings, black_men)  # the rules write (kings, men)
    placement = []
    for rule in draws.endgames:
        if drawrules.material_applies(rule, white, black):
            if drawrules.depends_on_placement(rule):
                placement.append((2 * rule.moves, rule))
            else:
                fixed = min(fixed, 2 * rule.moves)
    if not white_men + black_men:
        fixed, count = min(fixed, count), INF  # no man can move: k is e
    elif fixed <= count:
        count = INF  # every e limit comes first (k <= e)
    shorter = tuple((plies, rule) for plies, rule in placement if plies < fixed)
    if count == INF:
        counts = "ply"
    elif fixed == INF and not shorter and _men_only_advance(ruleset):
        counts = "men"
    else:
        counts = "both"
    return Plan(counts, count, fixed, shorter)


def _men_only_advance(rules: Ruleset) -> bool:
    """Whether every quiet move of a man takes it a row further (none sideways or back)."""
    tables = build_move_generator(rules).tables
    return all(
        VECTORS[direction][1] * (1 if color == 0 else -1) > 0
        for color in (0, 1)
        for direction, _, _ in tables.man_moves[color]
    )


class Walked:
    """What the forward walk of a material records for the verdicts within the rules: per position
    its budget's cap, what its exits and the end of the game say, how far its men have come
    (``"men"`` plans); per move inside the material whether a man moved (``"men"``, ``"both"``)."""

    def __init__(self, ruleset: Ruleset, plan: Plan, size: int) -> None:
        self.rules, self.plan = ruleset, plan
        uniform = plan.count_limit if plan.counts == "men" else plan.material_limit
        self.caps = array("h", [INF if uniform == INF else uniform - 1]) * size
        self.exits = bytearray(size)
        self.men = None if plan.counts == "ply" else bytearray()
        self.ranks = None
        if plan.counts == "men":
            self.ranks = array("H", bytes(2 * size))
            tables = build_move_generator(ruleset).tables
            coords, top = ruleset.geometry.coords, ruleset.height - 1
            rows = [coords[square][1] if square else 0 for square in tables.square_of_bit]
            self._advance = (rows, [top - row for row in rows])

    def position(self, index: int, white: int, black: int, kings: int, turn: int) -> None:
        """Record a position's cap and how far its men have come."""
        if self.plan.placement:
            self.caps[index] = self.plan.cap(self.rules, white, black, kings, turn)
        if self.ranks is not None:
            rank = 0
            for men, rows in ((white & ~kings, self._advance[0]), (black & ~kings, self._advance[1])):
                while men:
                    low = men & -men
                    rank += rows[low.bit_length() - 1]
                    men ^= low
            self.ranks[index] = rank


class _Levels:
    """The states waiting to be decided, by key, taken smallest key first: positions whose men
    have come further first (``ranks``, "men" plans), then larger budgets first, :data:`INF`
    before all. Each key holds the states won and lost there."""

    def __init__(self, ranks: array[int] | None, states: int) -> None:
        self.ranks = ranks
        self.kind = "I" if states < 1 << 32 else "Q"
        self.top = max(ranks, default=0) if ranks is not None else 0
        self.keys: list[int] = []
        self.queues: dict[int, tuple[array[int], array[int]]] = {}

    def push(self, state: int, budget: int, code: int) -> None:
        rank = self.ranks[state] if self.ranks is not None else 0
        key = (self.top - rank) * (INF + 1) + INF - budget
        queues = self.queues.get(key)
        if queues is None:
            queues = self.queues[key] = (array(self.kind), array(self.kind))
            heapq.heappush(self.keys, key)
        queues[0 if code == WIN else 1].append(state)

    def pop(self) -> tuple[int, array[int], array[int]] | None:
        """The smallest key's budget and its queues, left in place (pushes at the same key join
        them); None when nothing waits."""
        while self.keys:
            key = self.keys[0]
            wins, losses = self.queues[key]
            if wins or losses:
                return INF - key % (INF + 1), wins, losses
            heapq.heappop(self.keys)
            del self.queues[key]
        return None


_BLOCKS = EXIT_WINS | EXIT_DRAWS
"""An exit that wins or draws: the position cannot be lost."""
_TO_DRAW = bytes.maketrans(bytes((WIN, LOSS)), bytes((DRAW, DRAW)))


def spread(
    walked: Walked, start: array[int], flat: array[int], men: bytearray | None, moves: array[int], codes: bytearray
) -> bytearray:
    """The codes within the rules, counts at 0.

    Args:
        walked: What the forward walk recorded.
        start: With ``flat``, the parents of each position (``draughts.endgame.solve._reverse``).
        flat: The parents, one row per position.
        men: Per entry of ``flat``: 1 where the parent's move was a man's (None: not recorded).
        moves: Per position, its moves inside the material.
        codes: The pure values (``HOLE`` where an index is no position).
    """
    run = _Spread(walked, start, flat, men, moves, codes.translate(_TO_DRAW))
    while (taken := run.levels.pop()) is not None:
        budget, wins, losses = taken
        while wins or losses:  # a budget of INF can queue more at INF
            for state in _drain(losses):
                run.lost(state, budget)
            for state in _drain(wins):
                run.won(state, budget)
    return run.result()


def _drain(queue: array[int]) -> array[int]:
    """What ``queue`` holds, leaving it empty for what is queued meanwhile."""
    taken = array(queue.typecode, queue)
    del queue[:]
    return taken


class _Spread:
    """One spreading of budgets over a material's states: a state is a position (one count) or
    a position and a value of ``k`` (``"both"``: state ``index * width + k``, ``k`` from 0 to its
    limit, where every state is drawn unless the game is over)."""

    def __init__(
        self, walked: Walked, start: array[int], flat: array[int], men: bytearray | None, moves: array[int],
        within: bytearray,
    ) -> None:  # fmt: skip
        plan = walked.plan
        self.width = width = plan.count_limit + 1 if plan.counts == "both" else 1
        self.limit, self.reset = plan.count_limit, plan.counts == "men"
        self.start, self.flat, self.men = start, flat, men
        self.caps, self.exits = walked.caps, walked.exits
        self.within = within
        size = len(within)
        self.states = within if width == 1 else bytearray(size * width)
        self.remaining = array("H", moves)
        if width > 1:
            self.remaining = array("H", bytes(2 * size * width))
            for count in range(width):
                self.remaining[count::width] = moves
        self.lowest = array("h", [INF]) * (size * width)
        self.levels = _Levels(walked.ranks, size * width)
        self._seed(moves)

    def _seed(self, moves: array[int]) -> None:
        """Queue what is known before spreading: the ends of the game (at any count), the
        positions whose exit wins, and those whose every move leaves the material into a won
        position."""
        width, limit, push = self.width, self.limit, self.levels.push
        for index, code in enumerate(self.within):
            if code == HOLE:
                continue
            flag = self.exits[index]
            if not flag and moves[index]:
                continue  # nothing known yet: the most common case, a state per count skipped
            for count in range(width):
                state = index * width + count
                if flag & (NO_MOVE_LOST | NO_MOVE_WON):
                    push(state, INF, LOSS if flag & NO_MOVE_LOST else WIN)
                    continue
                cap = self.caps[index] if width == 1 or count < limit else -1
                if cap < 0:
                    continue
                if flag & EXIT_WINS:
                    push(state, cap, WIN)
                elif not moves[index] and not flag & EXIT_DRAWS:
                    push(state, cap, LOSS)

    def _moves_to(self, state: int, budget: int) -> list[tuple[int, range, int]]:
        """The moves that reach ``state``, decided at ``budget``: per move its parent position,
        the parent's states it is a move of, and the budget it gives them (before their cap)."""
        width, index = self.width, state
        count = 0
        if width > 1:
            index, count = divmod(state, width)
        first, last = self.start[index], self.start[index + 1]
        below = INF if budget == INF else budget - 1
        found = []
        if width == 1:
            if self.reset and self.men is not None:
                for parent, man in zip(self.flat[first:last], self.men[first:last], strict=True):
                    found.append((parent, range(parent, parent + 1), INF if man else below))
            else:
                found = [(parent, range(parent, parent + 1), below) for parent in self.flat[first:last]]
            return found
        assert self.men is not None
        for parent, man in zip(self.flat[first:last], self.men[first:last], strict=True):
            base = parent * width
            if man and not count:  # a man's move: k starts again, from any k of the parent
                found.append((parent, range(base, base + self.limit), below))
            elif count and not man:  # a king's move: one ply more of k
                found.append((parent, range(base + count - 1, base + count), below))
        return found

    def lost(self, state: int, budget: int) -> None:
        """Decide ``state`` lost (if not decided yet): every move to it wins, within its budget."""
        states = self.states
        if states[state] != DRAW:
            return
        states[state] = LOSS
        for parent, targets, candidate in self._moves_to(state, budget):
            cap = self.caps[parent]
            top = candidate if candidate < cap else cap
            if top >= 0:
                for target in targets:
                    if states[target] == DRAW:
                        self.levels.push(target, top, WIN)

    def won(self, state: int, budget: int) -> None:
        """Decide ``state`` won (if not decided yet): a move to it is one more that loses; a
        state all of whose moves lose is lost, within the smallest budget they give."""
        states, lowest, remaining = self.states, self.lowest, self.remaining
        if states[state] != DRAW:
            return
        states[state] = WIN
        for parent, targets, candidate in self._moves_to(state, budget):
            blocked = self.exits[parent] & _BLOCKS
            cap = self.caps[parent]
            for target in targets:
                if states[target] != DRAW:
                    continue
                if candidate < lowest[target]:
                    lowest[target] = candidate
                left = remaining[target] - 1
                remaining[target] = left
                if not left and not blocked:
                    top = lowest[target] if lowest[target] < cap else cap
                    if top >= 0:
                        self.levels.push(target, top, LOSS)

    def result(self) -> bytearray:
        """The codes of the positions, counts at 0."""
        within, width = self.within, self.width
        if width > 1:
            for index, code in enumerate(self.states[::width]):
                if within[index] != HOLE:
                    within[index] = code
        return within

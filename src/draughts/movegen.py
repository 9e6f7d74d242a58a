"""The one generic move generator: quiet moves and complete capture sequences for any ruleset.

It works on the compiled tables of :mod:`draughts._tables` and raw bitboards (ints in the
internal bit layout), and it knows nothing of variants: every difference between them comes from
the ruleset fields the tables copy. It generates *candidates*; choosing among captures
(mandatory capture, precedence, de-duplication) is the resolver's job (:mod:`draughts.precedence`).

Capture rules implemented here, for every ruleset:

* captured pieces stay on the board until the move ends (unless the ruleset lifts them at once):
  they block the way and cannot be jumped twice; the capturing piece's start square is empty;
* a flying king may land on any free square beyond the captured piece, but if the capture can
  continue from some of them it must land on one of those; a straight-on continuation is one path
  (PDN 3.0 restriction 9), not one per landing square;
* a man reaching its crowning row mid-capture stops, goes on as a king, or goes on as a man, as
  the ruleset's ``capture_promotion`` says.
"""

from __future__ import annotations

from typing import NamedTuple

from draughts._tables import Tables, shift
from draughts.rules import CapturePromotion


class Candidate(NamedTuple):
    """One generated move in internal bits: a quiet move (no captures) or a whole capture path."""

    start: int
    end: int
    captured: tuple[int, ...]
    """Bits of the captured pieces, in capture order."""
    path: tuple[int, ...]
    """Start, every landing square that PDN restriction 9 names, end."""
    promotes: bool
    with_king: bool
    """Whether the moving piece was a king when the move began."""


def iter_bits(bits: int) -> list[int]:
    """Indices of the set bits of ``bits``, lowest first."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def quiet_moves(tables: Tables, color: int, men: int, kings: int, empty: int) -> list[Candidate]:
    """Every non-capturing move of ``color``'s ``men`` and ``kings`` onto ``empty`` squares."""
    moves: list[Candidate] = []
    shifts = tables.shifts
    crown = tables.crown_row[color]
    for direction in tables.man_steps[color]:
        step = shifts[direction]
        for to in iter_bits(shift(men, step) & empty):
            frm = to - step
            moves.append(Candidate(frm, to, (), (frm, to), bool(crown >> to & 1), False))
    if not kings:
        return moves
    rays = tables.rays
    for frm in iter_bits(kings):
        for ray in rays[frm]:
            for to in ray:
                if not empty >> to & 1:
                    break
                moves.append(Candidate(frm, to, (), (frm, to), False, True))
                if not tables.flying:
                    break
    return moves


def count_quiet_moves(tables: Tables, color: int, men: int, kings: int, empty: int) -> int:
    """Number of quiet moves, without building them (bulk counting for perft)."""
    shifts = tables.shifts
    total = 0
    for direction in tables.man_steps[color]:
        total += (shift(men, shifts[direction]) & empty).bit_count()
    if kings:
        if tables.flying:
            for step in shifts:
                reach = shift(kings, step) & empty
                while reach:
                    total += reach.bit_count()
                    reach = shift(reach, step) & empty
        else:
            for step in shifts:
                total += (shift(kings, step) & empty).bit_count()
    return total


def has_capture(
    tables: Tables, color: int, men: int, kings: int, opponents: int, opponent_kings: int, empty: int
) -> bool:
    """Whether ``color`` can capture at all: a few shifts, no search."""
    shifts = tables.shifts
    prey = opponents if tables.men_capture_kings else opponents & ~opponent_kings
    for direction in tables.man_jumps[color]:
        step = shifts[direction]
        if shift(shift(men, step) & prey, step) & empty:
            return True
    if kings:
        for step in shifts:
            reach = shift(kings, step)
            if tables.flying:
                front = reach
                while front & empty:
                    front = shift(front & empty, step)
                    reach |= front
            if shift(reach & opponents, step) & empty:
                return True
    return False


def captures(
    tables: Tables, color: int, men: int, kings: int, opponents: int, opponent_kings: int, empty: int
) -> list[Candidate]:
    """Every complete capture sequence of ``color`` (all paths; no precedence, no de-duplication).

    ``empty`` is the set of empty playable squares before the move.
    """
    found: list[Candidate] = []
    occupied = tables.board & ~empty
    for start in iter_bits(men):
        _CaptureSearch(tables, color, start, False, opponents, opponent_kings, occupied, found).run()
    for start in iter_bits(kings):
        _CaptureSearch(tables, color, start, True, opponents, opponent_kings, occupied, found).run()
    return found


class _CaptureSearch:
    """Depth-first search of every capture path of one piece."""

    __slots__ = ("crown", "found", "jumps", "occupied", "opponent_kings", "opponents", "start", "t", "with_king")

    def __init__(
        self,
        tables: Tables,
        color: int,
        start: int,
        is_king: bool,
        opponents: int,
        opponent_kings: int,
        occupied: int,
        found: list[Candidate],
    ) -> None:
        self.t = tables
        self.start = start
        self.with_king = is_king
        self.opponents = opponents
        self.opponent_kings = opponent_kings
        # The moving piece has left its start square: it counts as empty during the move.
        self.occupied = occupied & ~(1 << start)
        self.found = found
        self.crown = tables.crown_row[color]
        self.jumps = tables.man_jumps[color]

    def run(self) -> None:
        if self.with_king:
            if self.t.flying:
                self._flying(self.start, 0, (), (self.start,), (0, 1, 2, 3))
            else:
                self._short(self.start, 0, (), (self.start,), (0, 1, 2, 3), True)
        else:
            self._short(self.start, 0, (), (self.start,), self.jumps, False)

    def _blockers(self, captured: int) -> int:
        return self.occupied & ~captured if self.t.immediate_removal else self.occupied

    def _prey(self, captured: int, king: bool) -> int:
        prey = self.opponents & ~captured
        if not king and not self.t.men_capture_kings:
            prey &= ~self.opponent_kings
        return prey

    def _emit(self, end: int, captured: tuple[int, ...], path: tuple[int, ...], promotes: bool) -> None:
        self.found.append(Candidate(self.start, end, captured, path, promotes, self.with_king))

    def _short(
        self,
        square: int,
        captured: int,
        order: tuple[int, ...],
        path: tuple[int, ...],
        directions: tuple[int, ...],
        king: bool,
    ) -> bool:
        """Captures of a man or short king from ``square``; returns whether any jump exists."""
        prey = self._prey(captured, king)
        blockers = self._blockers(captured)
        rays = self.t.rays[square]
        jumped = False
        for direction in directions:
            ray = rays[direction]
            if len(ray) < 2:
                continue
            over, land = ray[0], ray[1]
            if not prey >> over & 1 or blockers >> land & 1:
                continue
            jumped = True
            now_captured = captured | 1 << over
            now_order = (*order, over)
            now_path = (*path, land)
            if not king and self.crown >> land & 1:
                rule = self.t.capture_promotion
                if rule is CapturePromotion.ENDS_MOVE:
                    self._emit(land, now_order, now_path, True)
                    continue
                if rule is CapturePromotion.CONTINUES_AS_KING:
                    if not self._continue_as_king(land, now_captured, now_order, now_path):
                        self._emit(land, now_order, now_path, True)
                    continue
            if not self._short(land, now_captured, now_order, now_path, directions, king):
                self._emit(land, now_order, now_path, not king and bool(self.crown >> land & 1))
        return jumped

    def _continue_as_king(self, square: int, captured: int, order: tuple[int, ...], path: tuple[int, ...]) -> bool:
        """A man just crowned mid-capture goes on as a king; returns whether it could."""
        if self.t.flying:
            return self._flying(square, captured, order, path, (0, 1, 2, 3), promoted=True)
        return self._short_promoted(square, captured, order, path)

    def _short_promoted(self, square: int, captured: int, order: tuple[int, ...], path: tuple[int, ...]) -> bool:
        before = len(self.found)
        jumped = self._short(square, captured, order, path, (0, 1, 2, 3), True)
        for index in range(before, len(self.found)):
            self.found[index] = self.found[index]._replace(promotes=True)
        return jumped

    def _jump_from(self, square: int, direction: int, captured: int) -> bool:
        """Whether a flying king on ``square`` can capture along ``direction``."""
        blockers = self._blockers(captured)
        ray = self.t.rays[square][direction]
        for index, bit in enumerate(ray):
            if blockers >> bit & 1:
                return (
                    bool(self._prey(captured, True) >> bit & 1)
                    and index + 1 < len(ray)
                    and not blockers >> ray[index + 1] & 1
                )
        return False

    def _flying(
        self,
        square: int,
        captured: int,
        order: tuple[int, ...],
        path: tuple[int, ...],
        directions: tuple[int, ...],
        promoted: bool = False,
    ) -> bool:
        """Captures of a flying king from ``square``; returns whether any jump exists."""
        prey = self._prey(captured, True)
        blockers = self._blockers(captured)
        rays = self.t.rays[square]
        jumped = False
        for direction in directions:
            ray = rays[direction]
            index = 0
            length = len(ray)
            while index < length and not blockers >> ray[index] & 1:
                index += 1
            if index + 1 >= length:
                continue
            over = ray[index]
            if not prey >> over & 1:
                continue
            now_captured = captured | 1 << over
            after = self._blockers(now_captured)
            landings = []
            index += 1
            while index < length and not after >> ray[index] & 1:
                landings.append(ray[index])
                index += 1
            if not landings:
                continue
            jumped = True
            now_order = (*order, over)
            continuations: list[tuple[int, tuple[int, ...]]] = []
            if self._jump_from(landings[-1], direction, now_captured):
                continuations.append((landings[0], (direction,)))
            for land in landings:
                turns = tuple(d for d in self.t.turns[direction] if self._jump_from(land, d, now_captured))
                if turns:
                    continuations.append((land, turns))
            if continuations:
                for land, next_directions in continuations:
                    self._flying(land, now_captured, now_order, (*path, land), next_directions, promoted)
            else:
                for land in landings:
                    self._emit(land, now_order, (*path, land), promoted)
        return jumped


def make_move(own: int, opponents: int, kings: int, move: Candidate) -> tuple[int, int, int]:
    """``(own, opponents, kings)`` after ``move`` by the side owning ``own``."""
    start_bit = 1 << move.start
    end_bit = 1 << move.end
    captured = 0
    for bit in move.captured:
        captured |= 1 << bit
    was_king = kings & start_bit
    own = (own & ~start_bit) | end_bit
    kings &= ~(captured | start_bit)
    if was_king or move.promotes:
        kings |= end_bit
    return own, opponents & ~captured, kings

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

Speed (see ``docs/performance.rst``): squares are single-bit ints, a diagonal step is a constant
shift (the ghost-bit layout), "can this side capture at all?" is a handful of whole-board shifts,
and the depth-first capture search starts only from pieces that have a first jump. The search
emits *raw captures*, plain tuples ``(start_bit, end_bit, captured_mask, promotes, order, path)``;
``order`` (the captured bits in capture order) and ``path`` (the landing bits) are recorded only
when asked for, so perft pays nothing for them. :class:`Candidate` objects, with bit indices and
paths, are built from raw captures only for the public API.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from draughts._tables import Tables
from draughts.rules import CapturePromotion

RawCapture = tuple[int, int, int, bool, tuple[int, ...], tuple[int, ...]]
"""``(start_bit, end_bit, captured_mask, promotes, order, path)``: one capture path in bit masks.

``start_bit`` and ``end_bit`` are single-bit ints (equal for a capture that comes back to its
start); ``order`` holds the captured pieces' bits in capture order and ``path`` the landing bits
PDN 3.0 restriction 9 names (the start excluded) -- both empty unless recording was asked for.
"""


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
    crown = tables.crown_row[color]
    up = color == 0
    # Same order as the direction tables: NW, NE for White, SW, SE for Black.
    for step in (tables.step_a, tables.step_b) if up else (tables.step_b, tables.step_a):
        targets = (men << step if up else men >> step) & empty
        while targets:
            low = targets & -targets
            targets ^= low
            to = low.bit_length() - 1
            frm = to - step if up else to + step
            moves.append(Candidate(frm, to, (), (frm, to), bool(crown & low), False))
    if not kings:
        return moves
    rays = tables.rays
    flying = tables.flying
    for frm in iter_bits(kings):
        for ray in rays[frm]:
            for to in ray:
                if not empty >> to & 1:
                    break
                moves.append(Candidate(frm, to, (), (frm, to), False, True))
                if not flying:
                    break
    return moves


def count_quiet_moves(tables: Tables, color: int, men: int, kings: int, empty: int) -> int:
    """Number of quiet moves, without building them (bulk counting for perft)."""
    a = tables.step_a
    b = tables.step_b
    if color == 0:
        total = ((men << a) & empty).bit_count() + ((men << b) & empty).bit_count()
    else:
        total = ((men >> a) & empty).bit_count() + ((men >> b) & empty).bit_count()
    if kings:
        total += count_king_steps(tables, kings, empty)
    return total


def count_king_steps(tables: Tables, kings: int, empty: int) -> int:
    """Number of quiet moves of ``kings`` onto ``empty`` squares."""
    a = tables.step_a
    b = tables.step_b
    if not tables.flying:
        return (
            ((kings << a) & empty).bit_count()
            + ((kings << b) & empty).bit_count()
            + ((kings >> a) & empty).bit_count()
            + ((kings >> b) & empty).bit_count()
        )
    total = 0
    for step in (a, b):
        reach = (kings << step) & empty
        while reach:
            total += reach.bit_count()
            reach = (reach << step) & empty
        reach = (kings >> step) & empty
        while reach:
            total += reach.bit_count()
            reach = (reach >> step) & empty
    return total


def men_with_jump(tables: Tables, color: int, men: int, prey: int, empty: int) -> int:
    """The ``men`` of ``color`` that can jump some piece of ``prey`` onto an ``empty`` square."""
    a = tables.step_a
    b = tables.step_b
    a2 = a + a
    b2 = b + b
    can = 0
    if tables.man_jumps_up[color]:
        can = ((prey >> a) & (empty >> a2)) | ((prey >> b) & (empty >> b2))
    if tables.man_jumps_down[color]:
        can |= ((prey << a) & (empty << a2)) | ((prey << b) & (empty << b2))
    return men & can


def kings_can_jump(tables: Tables, kings: int, prey: int, empty: int) -> bool:
    """Whether some king of ``kings`` can jump a piece of ``prey`` onto an ``empty`` square."""
    a = tables.step_a
    b = tables.step_b
    if not tables.flying:
        a2 = a + a
        b2 = b + b
        return bool(
            kings
            & (
                ((prey >> a) & (empty >> a2))
                | ((prey >> b) & (empty >> b2))
                | ((prey << a) & (empty << a2))
                | ((prey << b) & (empty << b2))
            )
        )
    for step in (a, b):
        reach = kings
        front = (kings << step) & empty
        while front:
            reach |= front
            front = (front << step) & empty
        if (((reach << step) & prey) << step) & empty:
            return True
        reach = kings
        front = (kings >> step) & empty
        while front:
            reach |= front
            front = (front >> step) & empty
        if (((reach >> step) & prey) >> step) & empty:
            return True
    return False


def has_capture(
    tables: Tables, color: int, men: int, kings: int, opponents: int, opponent_kings: int, empty: int
) -> bool:
    """Whether ``color`` can capture at all: a few shifts, no search."""
    prey = opponents if tables.men_capture_kings else opponents & ~opponent_kings
    if men and men_with_jump(tables, color, men, prey, empty):
        return True
    return bool(kings) and kings_can_jump(tables, kings, opponents, empty)


def single_jumps(
    tables: Tables, color: int, men: int, prey: int, prey_kings: int, empty: int
) -> tuple[int, int, int, int] | None:
    """``color``'s men that can jump, one mask per direction (NW, NE, SW, SE), when no jump can go on.

    Returns None if some jump could continue (then only the search knows the captures). When
    masks are returned, every capture of these men is one jump over one piece of ``prey``
    (``prey_kings`` are the kings among them) from a man of the mask in its direction; where the
    ruleset prefers taking kings, only the jumps over a king are kept if there is one.

    Whole-board shifts only, no search. ``q[d]`` is the set of squares from which a man could
    jump in direction ``d``; a jump goes on if its landing square is in some ``q[d]``. The way
    back never shows up there (it would land on the jumping man's own start square, which is
    occupied in ``empty``), so the piece just taken needs no special case. A man crowned on
    landing stops if the ruleset ends the move there, and if it goes on as a king the search
    decides.
    """
    a = tables.step_a
    b = tables.step_b
    a2 = a + a
    b2 = b + b
    q0 = q1 = q2 = q3 = 0
    if tables.man_jumps_up[color]:
        q0 = (prey >> a) & (empty >> a2)
        q1 = (prey >> b) & (empty >> b2)
    if tables.man_jumps_down[color]:
        q2 = (prey << b) & (empty << b2)
        q3 = (prey << a) & (empty << a2)
    j0 = men & q0
    j1 = men & q1
    j2 = men & q2
    j3 = men & q3
    if ((j0 << a2) | (j1 << b2) | (j2 >> b2) | (j3 >> a2)) & (
        ((q0 | q1 | q2 | q3) & tables.jump_goes_on[color]) | tables.jump_needs_search[color]
    ):
        return None
    if tables.single_jumps_prefer_kings and prey_kings:
        k0 = j0 & (prey_kings >> a)
        k1 = j1 & (prey_kings >> b)
        k2 = j2 & (prey_kings << b)
        k3 = j3 & (prey_kings << a)
        if k0 | k1 | k2 | k3:
            return k0, k1, k2, k3
    return j0, j1, j2, j3


CaptureSearch = Callable[[int, int, int, int, int, int, bool], list[RawCapture]]
"""``search(color, men, kings, opponents, opponent_kings, empty, record)``, see :func:`raw_captures`."""


def raw_captures(
    tables: Tables,
    color: int,
    men: int,
    kings: int,
    opponents: int,
    opponent_kings: int,
    empty: int,
    record: bool = False,
) -> list[RawCapture]:
    """Every complete capture path of ``color`` as raw tuples (no precedence, no de-duplication).

    Pieces are searched men first, then kings, each in increasing bit order; paths come out in
    depth-first order. With ``record``, each tuple carries the capture order and the landing
    squares (needed for :class:`Candidate` paths and for the "kings met earliest" criterion).
    ``empty`` is the set of empty playable squares before the move.
    """
    return capture_search(tables)(color, men, kings, opponents, opponent_kings, empty, record)


def capture_search(tables: Tables) -> CaptureSearch:
    """The capture search of ``tables``' ruleset, built once (see :func:`raw_captures`)."""
    search: CaptureSearch | None = tables.memo.get("capture_search")
    if search is None:
        search = tables.memo["capture_search"] = _build_capture_search(tables)
    return search


def _build_capture_search(tables: Tables) -> CaptureSearch:
    """Bind the ruleset's constants once; each search then defines its depth-first closures."""
    board = tables.board
    a = tables.step_a
    b = tables.step_b
    immediate = tables.immediate_removal
    flying = tables.flying
    crowns = tables.crown_row
    rule = tables.capture_promotion
    ends_move = rule is CapturePromotion.ENDS_MOVE
    as_king = rule is CapturePromotion.CONTINUES_AS_KING
    rays = tables.ray_masks
    up_of = tables.up_of
    step_of = tables.step_of
    turns = tables.turns
    jumps_up = tables.man_jumps_up
    jumps_down = tables.man_jumps_down
    men_take_kings = tables.men_capture_kings
    all_dirs = (0, 1, 2, 3)
    back = (a, b, b, a)  # the step back from a landing square to the piece jumped, per direction

    def search(
        color: int, men: int, kings: int, opponents: int, opponent_kings: int, empty: int, record: bool = False
    ) -> list[RawCapture]:
        found: list[RawCapture] = []
        crown = crowns[color]
        up = jumps_up[color]
        down = jumps_down[color]
        man_prey = opponents if men_take_kings else opponents & ~opponent_kings
        pieces = board & ~empty
        # Per searched piece: its bit, the occupied squares without it (it has left its square)
        # and the free squares (the same for the whole capture unless pieces are lifted at once).
        start = 0
        occupied = 0
        free_now = 0

        def short(
            cur: int, cap: int, king: bool, promoted: bool, order: tuple[int, ...], path: tuple[int, ...]
        ) -> bool:
            """Jumps of a man or a short king from ``cur``; returns whether there was any."""
            prey = (opponents if king else man_prey) & ~cap
            free = board & ~(occupied & ~cap) if immediate else free_now
            l0 = l1 = l2 = l3 = 0
            if king or up:
                l0 = (((cur << a) & prey) << a) & free
                l1 = (((cur << b) & prey) << b) & free
            if king or down:
                l2 = (((cur >> b) & prey) >> b) & free
                l3 = (((cur >> a) & prey) >> a) & free
            if not l0 | l1 | l2 | l3:
                return False
            lands = (l0, l1, l2, l3)
            for d in all_dirs:
                land = lands[d]
                if not land:
                    continue
                over = land >> back[d] if d < 2 else land << back[d]
                now = cap | over
                if record:
                    now_order = (*order, over)
                    now_path = (*path, land)
                else:
                    now_order = now_path = order
                crowned = not king and bool(land & crown)
                if crowned and ends_move:
                    found.append((start, land, now, True, now_order, now_path))
                    continue
                if crowned and as_king:
                    if flying:
                        more = fly(land, now, all_dirs, True, now_order, now_path)
                    else:
                        more = short(land, now, True, True, now_order, now_path)  # noqa: F821
                    if not more:
                        found.append((start, land, now, True, now_order, now_path))
                    continue
                if not short(land, now, king, promoted, now_order, now_path):  # noqa: F821 (unbound after)
                    found.append((start, land, now, promoted or crowned, now_order, now_path))
            return True

        # Built only where a search can use it (each search defines its closures afresh).
        if (kings or as_king) and flying:

            def fly(
                cur: int, cap: int, dirs: tuple[int, ...], promoted: bool, order: tuple[int, ...], path: tuple[int, ...]
            ) -> bool:
                """Jumps of a flying king from ``cur``; returns whether there was any."""
                index = cur.bit_length() - 1
                blockers = occupied & ~cap if immediate else occupied
                prey = opponents & ~cap
                jumped = False
                for d in dirs:
                    ray = rays[d]
                    seen = ray[index] & blockers
                    if not seen:
                        continue
                    d_up = up_of[d]
                    over = seen & -seen if d_up else 1 << (seen.bit_length() - 1)
                    if not over & prey:
                        continue
                    now = cap | over
                    after = blockers & ~over if immediate else blockers
                    beyond = ray[over.bit_length() - 1]
                    seen = beyond & after
                    if seen:
                        if d_up:
                            nxt = seen & -seen
                            lands = beyond & (nxt - 1)
                        else:
                            nxt = 1 << (seen.bit_length() - 1)
                            lands = beyond & -(nxt << 1)
                    else:
                        nxt = 0
                        lands = beyond
                    if not lands:
                        continue
                    jumped = True
                    now_prey = prey & ~over
                    free = board & ~after
                    now_order = (*order, over) if record else order
                    continuations: list[tuple[int, tuple[int, ...]]] = []
                    # Straight on: the next piece along the ray is prey with a free square behind it.
                    if nxt & now_prey:
                        step = step_of[d]
                        if (nxt << step if d_up else nxt >> step) & free:
                            continuations.append((lands & -lands if d_up else 1 << (lands.bit_length() - 1), (d,)))
                    # Turning: from each landing square (nearest first), the perpendicular jumps.
                    rest = lands
                    while rest:
                        land = rest & -rest if d_up else 1 << (rest.bit_length() - 1)
                        rest ^= land
                        at = land.bit_length() - 1
                        found_turns: list[int] = []
                        for t in turns[d]:
                            seen = rays[t][at] & after
                            if not seen:
                                continue
                            t_up = up_of[t]
                            first = seen & -seen if t_up else 1 << (seen.bit_length() - 1)
                            if first & now_prey:
                                step = step_of[t]
                                if (first << step if t_up else first >> step) & free:
                                    found_turns.append(t)
                        if found_turns:
                            continuations.append((land, tuple(found_turns)))
                    if continuations:
                        for land, next_dirs in continuations:
                            fly(land, now, next_dirs, promoted, now_order, (*path, land) if record else path)
                    else:
                        rest = lands
                        while rest:
                            land = rest & -rest if d_up else 1 << (rest.bit_length() - 1)
                            rest ^= land
                            found.append((start, land, now, promoted, now_order, (*path, land) if record else path))
                return jumped

        if men:
            jumpers = men_with_jump(tables, color, men, man_prey, empty)
            while jumpers:
                start = jumpers & -jumpers
                jumpers ^= start
                occupied = pieces ^ start
                free_now = board & ~occupied
                short(start, 0, False, False, (), ())
        rest = kings
        while rest:
            start = rest & -rest
            rest ^= start
            occupied = pieces ^ start
            free_now = board & ~occupied
            if flying:
                fly(start, 0, all_dirs, False, (), ())
            else:
                short(start, 0, True, False, (), ())
        # The closures call themselves through their own cells, a reference cycle: unbind them so
        # that reference counting frees this search at once, leaving nothing to the garbage collector.
        del short
        if (kings or as_king) and flying:
            del fly
        return found

    return search


def captures(
    tables: Tables, color: int, men: int, kings: int, opponents: int, opponent_kings: int, empty: int
) -> list[Candidate]:
    """Every complete capture sequence of ``color`` (all paths; no precedence, no de-duplication).

    ``empty`` is the set of empty playable squares before the move.
    """
    return [
        to_candidate(raw, kings)
        for raw in raw_captures(tables, color, men, kings, opponents, opponent_kings, empty, record=True)
    ]


def to_candidate(raw: RawCapture, kings: int) -> Candidate:
    """The :class:`Candidate` (bit indices, full path) of a raw capture recorded with ``record``."""
    start, end, _, promotes, order, path = raw
    first = start.bit_length() - 1
    return Candidate(
        first,
        end.bit_length() - 1,
        tuple(bit.bit_length() - 1 for bit in order),
        (first, *(bit.bit_length() - 1 for bit in path)),
        promotes,
        bool(kings & start),
    )


def compact(raw: RawCapture, kings: int) -> tuple[int, int, int]:
    """A raw capture as the three xor masks perft plays it with: ``(own, captured, kings)``.

    After the move, the mover's pieces are ``own ^ moved``, the opponent's ``opponents ^
    captured`` and the kings ``kings ^ crowned`` (``crowned`` also clears the captured kings).
    """
    start, end, cap, promotes, _, _ = raw
    moved = start ^ end
    if kings & start:
        crowned = moved
    elif promotes:
        crowned = end
    else:
        crowned = 0
    return moved, cap, crowned ^ (kings & cap)


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

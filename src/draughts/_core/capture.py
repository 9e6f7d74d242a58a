"""The capture search: every complete capture path of the side to move, short and flying pieces.

:func:`capture_search` builds, once per ruleset, the search the generator
(:mod:`draughts._core.movegen`) and the resolver (:mod:`draughts._core.resolver`) run; see its
docstring for the rules it applies. Where only one path of each move is wanted, a search that
finds more than :data:`EXPLOSION` paths starts again pruning routes that reach a state met before.

**Bounded work.** A search counts the states it expands (a piece on a square with the pieces
taken so far). Every :data:`CHECK_EVERY` states it checks two things: past :data:`MAX_STATES` it
raises :class:`~draughts.CaptureSearchLimitError` (a valid ruleset may allow captures whose paths
grow without bound, for instance pieces lifted at once on a board full of pieces), and it calls
the abort hook of the running thread, if one is set with :func:`abort_when` (the engine's clock:
a search under a time limit must not wait for one huge generation to end). Small searches, the
ones perft and games meet, never reach a check, so neither costs them anything.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import NamedTuple

from draughts._core.tables import Tables
from draughts._core.types import CaptureSearch, RawCapture
from draughts.errors import CaptureSearchLimitError
from draughts.rules import CaptureFacts, CapturePromotion, KingLanding

CHECK_EVERY = 4096
"""States a search expands between two checks of its bound and of the thread's abort hook."""
MAX_STATES = 1_000_000
"""States one search may expand (a few seconds of work and some 100 MB at most); beyond it the
search raises :class:`~draughts.CaptureSearchLimitError`. The hardest positions of the tests and
of real games need far fewer (a Frisian position with two kings taking 19 pieces: about 365,000)."""

_hooks = threading.local()
"""The abort hook of each thread (attribute ``abort``), set by :func:`abort_when`."""


@contextlib.contextmanager
def abort_when(hook: Callable[[], None]) -> Iterator[None]:
    """Within the block, long capture searches of this thread call ``hook`` every
    :data:`CHECK_EVERY` states; ``hook`` raises to abandon the search (the exception reaches the
    caller of the generator, and nothing is left half-changed: a search builds only its own result)."""
    previous = getattr(_hooks, "abort", None)
    _hooks.abort = hook
    try:
        yield
    finally:
        _hooks.abort = previous


def _checkpoint(states: int, square: int) -> None:
    """The check of a long search: its bound, then the thread's abort hook."""
    if states > MAX_STATES:
        raise CaptureSearchLimitError(
            f"the capture search of the piece on square {square} expanded more than {MAX_STATES:,} states: "
            "the ruleset allows captures too many to enumerate in this position"
        )
    hook = getattr(_hooks, "abort", None)
    if hook is not None:
        hook()


EXPLOSION = 4096
"""Capture paths a search may find before it starts again pruning routes that reach one state twice."""


class _Explosion(Exception):
    """Too many capture paths: the search restarts pruned."""


ManJump = tuple[int, bool, int]
"""The jumps of men in one direction: ``(amount, up, jumpers)``, the shift and the men that can jump."""


class JumpTests(NamedTuple):
    """The whole-board tests "can a piece jump?" of one ruleset (build with :func:`jump_tests`).

    Every user of the test asks these, so it is written once: the capture search (which men to
    search), the generator's capture lists and their fast path, perft's counting, the engine's
    "is a capture threatened?".
    """

    men: Callable[[int, int, int, int], tuple[int, int, int, list[ManJump]]]
    """``men(men, prey, empty, color)``: the jumps of ``men`` over ``prey`` onto ``empty`` squares,
    read off whole-board shifts, as ``(count, landings, origins, jumps)``: ``jumps`` holds a
    :data:`ManJump` per direction with jumpers (in the ruleset's order of directions), ``landings``
    their landing squares and ``origins`` every square (occupied or not) a man could jump from."""
    kings: Callable[[int, int, int, int], bool]
    """``kings(own_kings, prey, empty, color)``: whether some king of ``own_kings`` can jump."""
    up: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]
    """Per side, the men's jumps that shift up, as ``(a, 2a)``: for perft's count, which inlines ``men``."""
    down: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]
    """The same for the jumps that shift down."""


def jump_tests(t: Tables) -> JumpTests:
    """The jump tests of ``t``'s ruleset, as closures over its capture directions (one closure
    per test, reading its few tables from cells: the counting of perft runs them at every node)."""
    board_jumps = tuple(tuple((a, a + a, up) for _, a, up in t.man_captures[color]) for color in (0, 1))
    king_captures = t.king_captures
    flying = t.flying

    def men(men: int, prey: int, empty: int, color: int) -> tuple[int, int, int, list[ManJump]]:
        total = landings = origins = 0
        jumps = []
        for a, a2, up in board_jumps[color]:
            if up:
                here = (prey >> a) & (empty >> a2)
                jumpers = men & here
                if jumpers:
                    landings |= jumpers << a2
            else:
                here = (prey << a) & (empty << a2)
                jumpers = men & here
                if jumpers:
                    landings |= jumpers >> a2
            origins |= here
            if jumpers:
                total += jumpers.bit_count()
                jumps.append((a, up, jumpers))
        return total, landings, origins, jumps

    def kings(own_kings: int, prey: int, empty: int, color: int) -> bool:
        for _, a, up in king_captures[color]:
            reach = own_kings
            if flying:  # every square a king slides to first
                front = (own_kings << a if up else own_kings >> a) & empty
                while front:
                    reach |= front
                    front = (front << a if up else front >> a) & empty
            if up:
                if (((reach << a) & prey) << a) & empty:
                    return True
            elif (((reach >> a) & prey) >> a) & empty:
                return True
        return False

    up = tuple(tuple((a, a2) for a, a2, up in board_jumps[color] if up) for color in (0, 1))
    down = tuple(tuple((a, a2) for a, a2, up in board_jumps[color] if not up) for color in (0, 1))
    return JumpTests(men=men, kings=kings, up=(up[0], up[1]), down=(down[0], down[1]))


_Jump = tuple[int, int, tuple[tuple[int, tuple[tuple[int, int], ...], int], ...], int]
"""A flying king's jump from one square in one direction, on a board whose pieces do not change:
``(over, lands, landings, straight)`` with ``over`` the piece jumped, ``lands`` the mask of its
landing squares, ``landings`` each landing square (nearest first) with, per turn direction, the
piece a capture from there would take (0 for none) and the mask of those pieces, and ``straight``
the next piece along the ray if a capture of it could go straight on (else 0)."""


def _jumps_from(
    t: Tables, color: int, index: int, occupied: int, opponents: int, dirs: tuple[int, ...]
) -> tuple[_Jump | None, ...]:
    """The jumps of a flying king from bit ``index`` in each direction (indexed by direction),
    where captured pieces stay until the move ends: then the squares taken never change during a
    capture, only which of the pieces on them may still be jumped, so all of this is known once per
    searched piece and square, and a search only tests it against the pieces taken so far."""
    rays, up_of, amount = t.rays, t.up, t.amount
    free = t.board & ~occupied
    behind_only = t.landing is KingLanding.DIRECTLY_BEHIND

    def first(d: int, at: int) -> int:
        """The piece a capture from bit ``at`` in direction ``d`` would take (0 for none)."""
        seen = rays[d][at] & occupied
        if not seen:
            return 0
        piece = seen & -seen if up_of[d] else 1 << (seen.bit_length() - 1)
        a = amount[d]
        return piece if piece & opponents and (piece << a if up_of[d] else piece >> a) & free else 0

    out: list[_Jump | None] = [None] * 8
    for d in dirs:
        over = first(d, index)
        if not over:
            continue
        d_up = up_of[d]
        beyond = rays[d][over.bit_length() - 1]
        seen = beyond & occupied
        if seen:
            nxt = seen & -seen if d_up else 1 << (seen.bit_length() - 1)
            lands = beyond & (nxt - 1) if d_up else beyond & -(nxt << 1)
        else:
            nxt, lands = 0, beyond
        nearest = lands & -lands if d_up else 1 << (lands.bit_length() - 1)
        if behind_only:
            lands = nearest
        landings = []
        rest = lands
        while rest:
            land = rest & -rest if d_up else 1 << (rest.bit_length() - 1)
            rest ^= land
            at = land.bit_length() - 1
            turns_from = tuple((turn, first(turn, at)) for turn in t.turns[color][d])
            pieces = 0
            for _, piece in turns_from:
                pieces |= piece
            landings.append((land, turns_from, pieces))
        straight = first(d, nearest.bit_length() - 1) if nxt & opponents else 0
        out[d] = (over, lands, tuple(landings), straight)
    return tuple(out)


class _Run:
    """The state of one search, passed to every call of the pieces: what it was asked (the
    opponent's pieces, whether to record paths, its budget of paths, whether it prunes), what it
    found, the work it did, and the piece it is searching now (its bit, the occupied squares
    without it, since it has left its square, and the free squares: the same for the whole capture
    unless pieces are lifted at once).

    The pieces (:func:`_short_piece`, :func:`_flying_piece`, :func:`_flying_from_tables`) are built
    once per ruleset and side and hold the ruleset's tables; everything that changes from one
    search to the next is here, so that a search costs one small object and no closures.
    """

    def __init__(
        self, side: _Side, opponents: int, opponent_kings: int, man_prey: int, record: bool, budget: int, pruned: bool
    ) -> None:
        self.found: list[RawCapture] = []
        self.states = 0
        """States expanded so far (see the module's "bounded work")."""
        self.next_check = CHECK_EVERY
        self.record = record
        self.budget = budget
        """Paths the search may find before it gives up for a pruned one (0: no limit)."""
        self.pruned = pruned
        self.visited: dict[tuple[int, int, bool, object], bool] = {}
        """Pruned: each state (square, pieces taken, kind of piece, directions left) met, and whether it went on."""
        self.jump_tables: dict[int, tuple[_Jump | None, ...]] = {}
        """Pruned, pieces kept until the move ends: the jumps from each square met (:func:`_jumps_from`)."""
        self.opponents = opponents
        self.opponent_kings = opponent_kings
        self.man_prey = man_prey
        self.start = 0
        self.occupied = 0
        self.free_now = 0
        self.bound: _Bound | None = None
        """Pruned, under a value precedence: the bound's state (:func:`_bounded`), made when it first runs."""
        self.short: _ShortPiece = side.short_pruned if pruned else side.short
        self.fly: _FlyPiece = side.fly_pruned if pruned else side.fly

    def check(self, square_of_bit: list[int] | tuple[int, ...]) -> None:
        """The check of a long search, every :data:`CHECK_EVERY` states (:func:`_checkpoint`)."""
        _checkpoint(self.work(), square_of_bit[self.start.bit_length() - 1])
        self.next_check = self.states + CHECK_EVERY

    def work(self) -> int:
        """The work done so far, in states (the bound's counted at :data:`BOUND_WORK_PER_STATE` a state)."""
        return self.states + (self.bound.work // BOUND_WORK_PER_STATE if self.bound is not None else 0)

    def add(self, capture: RawCapture) -> None:
        """Keep a complete capture; past the budget of paths, give up for a pruned search."""
        found = self.found
        found.append(capture)
        if self.budget and len(found) > self.budget:
            raise _Explosion


class _Bound:
    """The state of the value bound in one search (:func:`_bounded`)."""

    def __init__(self) -> None:
        self.best = 0
        """The best value of a complete capture found so far."""
        self.scored = 0
        """How many of the search's complete captures ``best`` has looked at."""
        self.work = 0
        """Entries made in the memory of :func:`_longest` (its work)."""
        self.next_check = CHECK_EVERY * BOUND_WORK_PER_STATE
        self.graph: _PieceGraph | None = None
        """The jump graph of the piece searched (:func:`_piece_graph`), made when first needed."""
        self.graph_start = 0
        """The bit of the piece whose graph it is."""


_ShortPiece = Callable[[_Run, int, int, bool, bool, tuple[int, ...], tuple[int, ...]], bool]
"""``short(run, cur, cap, king, promoted, order, path)``: the captures going on from square bit
``cur`` with the pieces ``cap`` taken, by a man or a short king; whether there was any jump."""
_FlyPiece = Callable[[_Run, int, int, tuple[int, ...], bool, tuple[int, ...], tuple[int, ...]], bool]
"""``fly(run, cur, cap, dirs, promoted, order, path)``: the same for a flying king, which may jump in
the directions ``dirs`` only (those a capture may turn to or go straight on in)."""


def _split(steps: tuple[tuple[int, int, bool], ...]) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """Capture steps ``(direction, amount, up)`` as the ``(direction, amount)`` that shift up, and down."""
    return tuple((d, a) for d, a, up in steps if up), tuple((d, a) for d, a, up in steps if not up)


def _short_piece(t: Tables, color: int) -> _ShortPiece:
    """The search of ``color``'s men and short kings (one square per jump), built once per ruleset.

    It owns the jumps one square over and one beyond, and what a man does on reaching its crowning
    row mid-capture (stop, go on as a king, go on as a man: the ruleset's ``capture_promotion``).
    A closure over the ruleset's tables for speed (it runs at every state of every search).
    """
    board = t.board
    immediate = t.immediate_removal
    flying = t.flying
    crown = t.crown_row[color]
    ends_move = t.capture_promotion is CapturePromotion.ENDS_MOVE
    as_king = t.capture_promotion is CapturePromotion.CONTINUES_AS_KING
    crowned_turns = t.crowned_turns[color]
    square_of_bit = t.square_of_bit
    ups_man, downs_man = _split(t.man_captures[color])
    ups_king, downs_king = _split(t.king_captures[color])

    def short_jumps(
        r: _Run, cur: int, cap: int, king: bool, promoted: bool, order: tuple[int, ...], path: tuple[int, ...]
    ) -> bool:
        """Jumps of a man or a short king from ``cur``; returns whether there was any."""
        r.states += 1
        if r.states >= r.next_check:
            r.check(square_of_bit)
        prey = (r.opponents if king else r.man_prey) & ~cap
        free = board & ~(r.occupied & ~cap) if immediate else r.free_now
        # First every landing square (most calls find none and return at once), then each jump.
        lands = []
        for d, a in ups_king if king else ups_man:
            land = (((cur << a) & prey) << a) & free
            if land:
                lands.append((d, land, land >> a))
        for d, a in downs_king if king else downs_man:
            land = (((cur >> a) & prey) >> a) & free
            if land:
                lands.append((d, land, land << a))
        if not lands:
            return False
        record = r.record
        if record and r.pruned and len(lands) > 1:
            lands.sort(key=lambda item: square_of_bit[item[1].bit_length() - 1])
        start = r.start
        short = r.short
        for d, land, over in lands:
            now = cap | over
            if record:
                now_order = (*order, over)
                now_path = (*path, land)
            else:
                now_order = now_path = order
            crowned = not king and bool(land & crown)
            if crowned and ends_move:
                r.add((start, land, now, True, now_order, now_path))
                continue
            if crowned and as_king:
                if flying:
                    more = r.fly(r, land, now, crowned_turns[d], True, now_order, now_path)
                else:
                    more = short(r, land, now, True, True, now_order, now_path)
                if not more:
                    r.found.append((start, land, now, True, now_order, now_path))
                continue
            if not short(r, land, now, king, promoted, now_order, now_path):
                r.add((start, land, now, promoted or crowned, now_order, now_path))
        return True

    return short_jumps


def _flying_piece(t: Tables, color: int) -> _FlyPiece:
    """The search of ``color``'s flying kings by scanning rays, built once per ruleset.

    It owns where a flying king may land after a jump: any free square beyond the piece taken (or
    only directly behind it, as the ruleset says), but if the capture can go on from some of them,
    only on those; a straight-on continuation is one path from the nearest landing square (PDN 3.0
    restriction 9), not one per square; a capture ending on a king may have to stop right behind
    it. Used where pieces are lifted at once, and wherever every path is wanted. A closure over
    the ruleset's tables for speed.
    """
    board = t.board
    immediate = t.immediate_removal
    rays, up_of, amount = t.rays, t.up, t.amount
    turns = t.turns[color]
    behind_only = t.landing is KingLanding.DIRECTLY_BEHIND
    behind_last_king = t.landing is KingLanding.BEHIND_LAST_KING
    square_of_bit = t.square_of_bit

    def fly_jumps(
        r: _Run,
        cur: int,
        cap: int,
        dirs: tuple[int, ...],
        promoted: bool,
        order: tuple[int, ...],
        path: tuple[int, ...],
    ) -> bool:
        """Jumps of a flying king from ``cur``; returns whether there was any."""
        r.states += 1
        if r.states >= r.next_check:
            r.check(square_of_bit)
        index = cur.bit_length() - 1
        blockers = r.occupied & ~cap if immediate else r.occupied
        prey = r.opponents & ~cap
        record = r.record
        jumped = False
        # The jumps that go on, from every direction: (landing, directions from there, taken, order).
        onward: list[tuple[int, tuple[int, ...], int, tuple[int, ...]]] = []
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
            nearest = lands & -lands if d_up else 1 << (lands.bit_length() - 1)
            if behind_only:
                lands = nearest
            jumped = True
            now_prey = prey & ~over
            free = board & ~after
            now_order = (*order, over) if record else order
            continuations = len(onward)
            # Straight on: the next piece along the ray is prey with a free square behind it. The
            # path names the nearest landing square for it (PDN 3.0 restriction 9), so the turns
            # from there join it in one state.
            straight: tuple[int, ...] = ()
            if nxt & now_prey:
                a = amount[d]
                if (nxt << a if d_up else nxt >> a) & free:
                    straight = (d,)
            # Turning: from each landing square (nearest first), the other capture directions.
            rest = lands
            while rest:
                land = rest & -rest if d_up else 1 << (rest.bit_length() - 1)
                rest ^= land
                at = land.bit_length() - 1
                found_turns: list[int] = []
                for turn in turns[d]:
                    seen = rays[turn][at] & after
                    if not seen:
                        continue
                    t_up = up_of[turn]
                    first = seen & -seen if t_up else 1 << (seen.bit_length() - 1)
                    if first & now_prey:
                        a = amount[turn]
                        if (first << a if t_up else first >> a) & free:
                            found_turns.append(turn)
                if land == nearest and straight:
                    onward.append((land, (*straight, *found_turns), now, now_order))
                elif found_turns:
                    onward.append((land, tuple(found_turns), now, now_order))
            if len(onward) > continuations:
                continue
            if behind_last_king and over & r.opponent_kings:
                lands = nearest
            found = r.found
            start = r.start
            while lands:
                land = lands & -lands if d_up else 1 << (lands.bit_length() - 1)
                lands ^= land
                found.append((start, land, now, promoted, now_order, (*path, land) if record else path))
            if r.budget and len(found) > r.budget:
                raise _Explosion
        if onward:
            if record and r.pruned and len(onward) > 1:
                onward.sort(key=lambda item: square_of_bit[item[0].bit_length() - 1])
            fly = r.fly
            for land, next_dirs, now, now_order in onward:
                fly(r, land, now, next_dirs, promoted, now_order, (*path, land) if record else path)
        return jumped

    return fly_jumps


def _flying_from_tables(t: Tables, color: int) -> _FlyPiece:
    """:func:`_flying_piece` where captured pieces stay until the move ends and one path per move
    is enough (the pruned search), reading the jumps of each square from :func:`_jumps_from` (kept
    per searched piece in the run): the same paths, found by testing table entries against the
    pieces taken instead of scanning rays (a flood's hundreds of thousands of states meet the same
    few dozen squares). A closure over the ruleset's tables for speed.
    """
    up_of = t.up
    king_dirs = tuple(d for d, _, _ in t.king_captures[color])
    behind_last_king = t.landing is KingLanding.BEHIND_LAST_KING
    square_of_bit = t.square_of_bit

    def fly_known(
        r: _Run,
        cur: int,
        cap: int,
        dirs: tuple[int, ...],
        promoted: bool,
        order: tuple[int, ...],
        path: tuple[int, ...],
    ) -> bool:
        """Jumps of a flying king from ``cur``, read off its table; returns whether there was any."""
        r.states += 1
        if r.states >= r.next_check:
            r.check(square_of_bit)
        table = r.jump_tables.get(cur)
        if table is None:
            index = cur.bit_length() - 1
            table = r.jump_tables[cur] = _jumps_from(t, color, index, r.occupied, r.opponents, king_dirs)
        record = r.record
        jumped = False
        onward: list[tuple[int, tuple[int, ...], int, tuple[int, ...]]] = []
        for d in dirs:
            jump = table[d]
            if jump is None:
                continue
            over, lands, landings, straight = jump
            if over & cap:
                continue
            jumped = True
            now = cap | over
            now_order = (*order, over) if record else order
            continuations = len(onward)
            goes_straight = bool(straight) and not straight & cap
            for land, turns_from, pieces in landings:
                found_turns = []
                if pieces & ~now:  # some capture from here still takes a piece not yet taken
                    for turn, piece in turns_from:
                        if piece and not piece & now:
                            found_turns.append(turn)
                if goes_straight and land == landings[0][0]:
                    onward.append((land, (d, *found_turns), now, now_order))
                elif found_turns:
                    onward.append((land, tuple(found_turns), now, now_order))
            if len(onward) > continuations:
                continue
            if behind_last_king and over & r.opponent_kings:
                lands = landings[0][0]
            d_up = up_of[d]
            found = r.found
            start = r.start
            while lands:
                land = lands & -lands if d_up else 1 << (lands.bit_length() - 1)
                lands ^= land
                found.append((start, land, now, promoted, now_order, (*path, land) if record else path))
        if onward:
            if record and len(onward) > 1:
                onward.sort(key=lambda item: square_of_bit[item[0].bit_length() - 1])
            fly = r.fly
            for land, next_dirs, now, now_order in onward:
                fly(r, land, now, next_dirs, promoted, now_order, (*path, land) if record else path)
        return jumped

    return fly_known


def _value_weights(t: Tables) -> tuple[int, int] | None:
    """The weights ``(man, king)`` of the ruleset's first precedence criterion when its key is the
    total value of the pieces captured (:meth:`~draughts.Criterion.weights`, checked against the
    key on small captures, so that a subclass that changed the key but not the weights is not
    trusted), else None. Under such a criterion only the captures of the best total can be legal."""
    precedence = t.rules.precedence
    weights = precedence[0].weights() if precedence else None
    if weights is None or min(weights) < 0:
        return None
    man, king = weights
    for pieces in range(4):
        for kings in range(pieces + 1):
            for with_king in (False, True):
                facts = CaptureFacts(pieces, kings, with_king, (True,) * kings + (False,) * (pieces - kings))
                if precedence[0].key(facts) != (pieces - kings) * man + kings * king:
                    return None
    return weights


class _PieceGraph(NamedTuple):
    """The jumps a flying king could make in one search where captured pieces stay, as a graph:
    a node is a jump over one piece in one direction (from any square, onto any square beyond).

    Built once per searched piece from the jump tables (:func:`_jumps_from`): the squares from
    which the king jumps a piece in a direction and those it lands on never change during the
    capture, only which pieces are taken."""

    piece: tuple[int, ...]
    """The piece each node jumps."""
    weight: tuple[int, ...]
    """Its value under the first criterion."""
    successors: tuple[tuple[int, ...], ...]
    """Per node, the nodes a king may jump next from one of its landing squares (other pieces)."""
    firsts: dict[int, tuple[int, ...]]
    """Per square a king may stand on, the nodes it may jump from there."""
    pieces: int
    """Every piece some node jumps."""
    longest: dict[tuple[int, int], int]
    """The memory of :func:`_longest`."""


BOUND_WORK_PER_STATE = 4
"""Entries of :func:`_longest`'s memory that count as one state of the search's bounded work (an
entry costs about a quarter of a state: the Frisian flood of issue 23 §19 makes 440,000 entries
and 22,000 states in 0.55 s, where 360,000 states took 1.3 s)."""

LONGEST_PIECES = 12
"""Pieces left to take up to which the bound of :func:`_bounded` is worked out (the work grows with
the subsets of them; above it a state is not tested)."""


def _piece_graph(t: Tables, color: int, r: _Run, king_dirs: tuple[int, ...], weights: tuple[int, int]) -> _PieceGraph:
    """The :class:`_PieceGraph` of the piece ``r`` searches."""
    tables = r.jump_tables
    squares = r.free_now | r.start
    froms: dict[tuple[int, int], int] = {}
    lands: dict[tuple[int, int], int] = {}
    rest = squares
    while rest:
        at = rest & -rest
        rest ^= at
        table = tables.get(at)
        if table is None:
            table = tables[at] = _jumps_from(t, color, at.bit_length() - 1, r.occupied, r.opponents, king_dirs)
        for d, jump in enumerate(table):
            if jump is not None:
                froms[(jump[0], d)] = froms.get((jump[0], d), 0) | at
                lands[(jump[0], d)] = jump[1]
    nodes = list(froms)
    successors = tuple(
        tuple(j for j, (other, _) in enumerate(nodes) if other != piece and froms[nodes[j]] & lands[(piece, d)])
        for piece, d in nodes
    )
    firsts: dict[int, tuple[int, ...]] = {}
    rest = squares
    while rest:
        at = rest & -rest
        rest ^= at
        firsts[at] = tuple(i for i, node in enumerate(nodes) if froms[node] & at)
    man, king = weights
    pieces = 0
    for piece, _ in nodes:
        pieces |= piece
    return _PieceGraph(
        piece=tuple(piece for piece, _ in nodes),
        weight=tuple(king if piece & r.opponent_kings else man for piece, _ in nodes),
        successors=successors,
        firsts=firsts,
        pieces=pieces,
        longest={},
    )


def _longest(r: _Run, bound: _Bound, graph: _PieceGraph, node: int, rest: int, square_of_bit: tuple[int, ...]) -> int:
    """The value of the most a capture starting with jump ``node`` could take of the pieces
    ``rest`` (its own piece among them), taking each piece once. Its memory's entries count in
    the search's bounded work, :data:`BOUND_WORK_PER_STATE` to a state."""
    key = (node, rest)
    best = graph.longest.get(key)
    if best is None:
        bound.work += 1
        if bound.work >= bound.next_check:
            _checkpoint(r.work(), square_of_bit[r.start.bit_length() - 1])
            bound.next_check = bound.work + CHECK_EVERY * BOUND_WORK_PER_STATE
        left = rest ^ graph.piece[node]
        best = 0
        for after in graph.successors[node]:
            if graph.piece[after] & left:
                value = _longest(r, bound, graph, after, left, square_of_bit)
                if value > best:
                    best = value
        best += graph.weight[node]
        graph.longest[key] = best
    return best


def _bounded(t: Tables, color: int, jumps: _FlyPiece, weights: tuple[int, int]) -> _FlyPiece:
    """``jumps`` (:func:`_flying_from_tables`) cut where the capture cannot reach the best value.

    Under a precedence whose first criterion is a total value (``weights``, a man's and a king's),
    a capture worth less than another of the same side is never legal. So a state whose value so
    far, plus the most it could still take, falls below the best complete capture found so far
    cannot lead to a legal move and is not followed; ties are (they may be legal). The most it
    could still take is worked out on the :class:`_PieceGraph` (:func:`_longest`): a sequence of
    jumps, each over a piece not yet taken, from a landing square of the jump before, in any
    direction and onto any square beyond; the real captures are among these (they turn in fewer
    directions and land on one square). A cut state counts as one that went on: no capture ends
    there, since its value is below the best.
    """
    man_weight, king_weight = weights
    king_dirs = tuple(d for d, _, _ in t.king_captures[color])
    square_of_bit = t.square_of_bit

    def value(r: _Run, taken: int) -> int:
        kings = taken & r.opponent_kings
        return man_weight * (taken ^ kings).bit_count() + king_weight * kings.bit_count()

    def hopeless(r: _Run, cur: int, cap: int) -> bool:
        """Whether no capture from ``cur``, with ``cap`` taken, can reach the best value found."""
        bound = r.bound
        if bound is None:
            bound = r.bound = _Bound()
        found = r.found
        if len(found) > bound.scored:
            for raw in found[bound.scored :]:
                bound.best = max(bound.best, value(r, raw[2]))
            bound.scored = len(found)
        need = bound.best - value(r, cap)
        if need <= 0:
            return False
        graph = bound.graph
        if graph is None or bound.graph_start != r.start:
            graph = bound.graph = _piece_graph(t, color, r, king_dirs, weights)
            bound.graph_start = r.start
        rest = graph.pieces & ~cap
        if rest.bit_count() > LONGEST_PIECES:
            return False
        for node in graph.firsts[cur]:
            if graph.piece[node] & rest and _longest(r, bound, graph, node, rest, square_of_bit) >= need:
                return False
        return True

    def fly(
        r: _Run,
        cur: int,
        cap: int,
        dirs: tuple[int, ...],
        promoted: bool,
        order: tuple[int, ...],
        path: tuple[int, ...],
    ) -> bool:
        if r.found and hopeless(r, cur, cap):
            return True
        return jumps(r, cur, cap, dirs, promoted, order, path)

    return fly


def _remembered_short(jumps: _ShortPiece) -> _ShortPiece:
    """``jumps`` where one path per move is enough: a state (square, pieces taken so far, kind of
    piece) reached again by another route has the same completions, all found already."""

    def short(
        r: _Run, cur: int, cap: int, king: bool, promoted: bool, order: tuple[int, ...], path: tuple[int, ...]
    ) -> bool:
        state = (cur, cap, king, promoted)
        known = r.visited.get(state)
        if known is None:
            known = r.visited[state] = jumps(r, cur, cap, king, promoted, order, path)
        return known

    return short


def _remembered_fly(jumps: _FlyPiece) -> _FlyPiece:
    """The same for a flying king, whose state holds the directions it may still jump in."""

    def fly(
        r: _Run,
        cur: int,
        cap: int,
        dirs: tuple[int, ...],
        promoted: bool,
        order: tuple[int, ...],
        path: tuple[int, ...],
    ) -> bool:
        state = (cur, cap, promoted, dirs)
        known = r.visited.get(state)
        if known is None:
            known = r.visited[state] = jumps(r, cur, cap, dirs, promoted, order, path)
        return known

    return fly


class _Side(NamedTuple):
    """The pieces of one side's search, built once per ruleset (see :func:`capture_search`)."""

    short: _ShortPiece
    fly: _FlyPiece
    short_pruned: _ShortPiece
    fly_pruned: _FlyPiece
    men_ups: tuple[int, ...]
    """The shifts of the men's jumps that go up, and down: which men can jump at all."""
    men_downs: tuple[int, ...]
    king_dirs: tuple[int, ...]
    """Every direction a king captures in (a flying king's first jump)."""


def _side(t: Tables, color: int) -> _Side:
    short = _short_piece(t, color)
    fly = _flying_piece(t, color)
    fly_pruned = fly
    if t.flying and not t.immediate_removal:
        fly_pruned = _flying_from_tables(t, color)
        weights = _value_weights(t)
        if weights is not None:
            fly_pruned = _bounded(t, color, fly_pruned, weights)
    ups, downs = _split(t.man_captures[color])
    return _Side(
        short=short,
        fly=fly,
        short_pruned=_remembered_short(short),
        fly_pruned=_remembered_fly(fly_pruned),
        men_ups=tuple(a for _, a in ups),
        men_downs=tuple(a for _, a in downs),
        king_dirs=tuple(d for d, _, _ in t.king_captures[color]),
    )


def capture_search(t: Tables) -> CaptureSearch:
    """The capture search of ``t``'s ruleset: every complete capture path, before precedence.

    Made of named pieces built here once per ruleset and side (:class:`_Side`): the men's and
    short kings' search (:func:`_short_piece`), the flying kings' (:func:`_flying_piece`, and
    :func:`_flying_from_tables` for the pruned search where captured pieces stay), and the memory
    of the pruned search (:func:`_remembered_short`, :func:`_remembered_fly`); each search passes
    its own state (:class:`_Run`) to them. (Pieces built per search measured 6-20% slower perft.)

    Rules applied here: captured pieces stay on the board until the move ends (they block and
    cannot be jumped twice) unless the ruleset lifts them at once; the capturing piece's start
    square is empty during the move; a flying king may land on any free square beyond the piece
    it takes (or only directly behind it, as the ruleset says), but if the capture can go on from
    some of them it must land on one of those, and a straight-on continuation is one path (PDN
    3.0 restriction 9), not one per landing square; a man reaching its crowning row mid-capture
    stops, goes on as a king, or goes on as a man, as the ruleset says.
    """
    sides = (_side(t, 0), _side(t, 1))
    needs_order = t.needs_order
    board = t.board
    flying = t.flying
    men_take_kings = t.men_capture_kings

    def run(
        color: int,
        men: int,
        kings: int,
        opponents: int,
        opponent_kings: int,
        empty: int,
        record: bool,
        budget: int,
        pruned: bool,
    ) -> list[RawCapture]:
        """One search: each man that can jump, then each king; with a ``budget`` of paths it gives
        up beyond it (:class:`_Explosion`), and ``pruned`` it remembers the states it met."""
        side = sides[color]
        man_prey = opponents if men_take_kings else opponents & ~opponent_kings
        r = _Run(side, opponents, opponent_kings, man_prey, record, budget, pruned)
        pieces = board & ~empty
        if men:
            jumpers = 0
            for a in side.men_ups:
                jumpers |= (man_prey >> a) & (empty >> (a + a))
            for a in side.men_downs:
                jumpers |= (man_prey << a) & (empty << (a + a))
            jumpers &= men
            while jumpers:
                start = jumpers & -jumpers
                jumpers ^= start
                _begin(r, start, pieces, board)
                r.short(r, start, 0, False, False, (), ())
        while kings:
            start = kings & -kings
            kings ^= start
            _begin(r, start, pieces, board)
            if flying:
                r.fly(r, start, 0, side.king_dirs, False, (), ())
            else:
                r.short(r, start, 0, True, False, (), ())
        return r.found

    def search(
        color: int,
        men: int,
        kings: int,
        opponents: int,
        opponent_kings: int,
        empty: int,
        record: bool = False,
        every_path: bool = True,
    ) -> list[RawCapture]:
        if every_path or needs_order:
            return run(color, men, kings, opponents, opponent_kings, empty, record, 0, False)
        try:
            return run(color, men, kings, opponents, opponent_kings, empty, record, EXPLOSION, False)
        except _Explosion:
            return run(color, men, kings, opponents, opponent_kings, empty, record, 0, True)

    return search


def _begin(r: _Run, start: int, pieces: int, board: int) -> None:
    """Point ``r`` at the piece on bit ``start``: it leaves its square for the whole move; a pruned
    search forgets the states of the piece before (the start is part of every move's identity)."""
    r.start = start
    r.occupied = pieces ^ start
    r.free_now = board & ~r.occupied
    if r.pruned:
        r.visited.clear()
        r.jump_tables.clear()

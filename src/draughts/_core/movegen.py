"""The one move generator: legal moves, counting and playing, for every ruleset.

A **node** is five ints: ``own`` and ``opp`` (the pieces of the side to move and of the other side),
``kings`` (both sides' kings), ``color`` (0 White, 1 Black, the side to move) and ``state`` (rule
state the ruleset keeps in positions, 0 when it keeps none; :mod:`draughts._core.state` owns it). Squares are
single bits in the layout of :mod:`draughts._core.tables`.

A **move** for counting and playing is three xor masks ``(moved, captured, crowned)``: after it the
mover's pieces are ``own ^ moved``, the opponent's ``opp ^ captured`` and the kings
``kings ^ crowned``. A **raw capture** is ``(start, end, captured, promotes, order, path)`` (single
bits; ``order`` the captured bits in capture order and ``path`` the landing bits PDN 3.0
restriction 9 names, both empty unless recorded).

Everything a ruleset changes comes from its :class:`~draughts._core.tables.Tables`: the
directions men and kings move and capture in, short or flying kings and where they land, when
captured pieces leave the board, crowning during a capture, mandatory capture and precedence (the
resolver: :func:`draughts._core.resolver.legal_captures`), the king-move limit and the win
conditions. Perft (:mod:`draughts.perft`) is a thin recursion over :attr:`MoveGenerator.moves`,
:attr:`MoveGenerator.play`, :attr:`MoveGenerator.count1` and :attr:`MoveGenerator.count2`; the engine and
positions use the same methods.

How the counting stays fast: "can this side capture?" is a few whole-board shifts; captures by men
that cannot go on are read off shift masks without a search; the last ply is counted with
population counts; and :attr:`MoveGenerator.count2` counts two plies at once where the opponent has
only men and no capture, because then a quiet man move changes the opponent's options only at
the two squares it touches (see its docstring).
"""

from __future__ import annotations

import bisect
import operator
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from draughts import _caches
from draughts._core.capture import JumpTests, ManJump, capture_search, jump_tests
from draughts._core.resolver import legal_captures
from draughts._core.tables import Tables, compile_rules, shifts_of
from draughts._core.types import (
    CaptureSearch,
    Compact,
    Node,
    PublicEntry,
    PublicQuiet,
    QuietChunk,
    QuietMoves,
    RawCapture,
)
from draughts.move import Move, trusted_move
from draughts.rules import Ruleset


class MoveGenerator(NamedTuple):
    """The move generator of one ruleset: closures over its tables (build with :func:`build_move_generator`)."""

    tables: Tables
    moves: Callable[[int, int, int, int, int], list[Compact]]
    """``moves(own, opp, kings, color, state)``: the legal moves as xor masks (captures first)."""
    paths: Callable[[int, int, int, int, int], list[Compact]]
    """The same, one per capture path (the perft "keep" convention)."""
    play: Callable[[int, int, int, int, int, Compact], Node]
    """``play(own, opp, kings, color, state, move)``: the node after ``move``, sides swapped."""
    count1: Callable[[int, int, int, int, int, bool], int]
    """``count1(own, opp, kings, color, state, paths)``: the number of legal moves (perft 1), in bulk."""
    count2: Callable[[int, int, int, int, int, bool], int]
    """``count2(...)``: the number of two-move sequences (perft 2), mostly in bulk."""
    legal: Callable[[int, int, int, int, int, bool], QuietMoves]
    """``legal(own, opp, kings, color, state, paths)``: the legal moves in their public form and in
    move order, with the xor masks each is played with (see :data:`QuietMoves`), for the public API;
    with ``paths`` one per capture path, else one per move (its first path in square order)."""
    search: CaptureSearch
    """The capture search itself (every path, before precedence)."""
    captures: Callable[[int, int, int, int], list[Compact]]
    """``captures(own, opp, kings, color)``: the legal captures as xor masks, empty if there is none
    (whether capturing is mandatory or not), for the engine's quiescence search."""
    can_capture: Callable[[int, int, int, int], bool]
    """``can_capture(own, opp, kings, color)``: whether ``captures`` is not empty, from whole-board
    shifts (the engine's test for a threatened capture)."""


def move_index(moves: tuple[object, ...], move: object) -> int:
    """Where ``move`` is in ``moves`` (a position's legal moves), or -1: by identity first (a move
    taken from the legal moves, the usual case, costs no ``__eq__`` call), then by equality.

    Every ``play`` and ``push`` looks its move up here; in the compiled build the identity loop is
    a C loop (in the Python source, about 40 ns a move skipped).
    """
    count = len(moves)
    for index in range(count):  # a C loop over the tuple's items, compiled
        if moves[index] is move:
            return index
    for index in range(count):
        if moves[index] == move:
            return index
    return -1


def build_move_generator(rules: Ruleset) -> MoveGenerator:
    """The move generator of ``rules`` (built once per compiled ruleset)."""
    return compile_rules(rules).derived(_build)


# The generator is built from pieces, one factory each. A factory reads the few tables its piece
# needs from ``Tables`` once and returns its closures over them: the closures stay short and read
# the tables from cells, which keeps free-variable access as fast as it was in one big function
# (perft's counting runs at every node). The pieces, in the order they build on each other:
#
# * the jump tests (:func:`draughts._core.capture.jump_tests`): can a man, can a king jump?
# * :func:`_quiet_masks`: the quiet moves as xor masks, for counting and playing;
# * :func:`_quiet_public`: the quiet moves in public form and move order, for positions;
# * :func:`_capture_masks`: the legal captures as xor masks, single jumps read off the masks;
# * :func:`_capture_public`: captures in public form, made once per ruleset;
# * :func:`_count1`, :func:`_count2`: perft's last ply and last two plies, mostly in bulk;
# * :func:`_listing`: the legal moves in public form (``legal``);
# * :func:`_build`: the entry points, assembled into a :class:`MoveGenerator`.


class _QuietMasks(NamedTuple):
    entries: Callable[[int, int, int, int, int], list[Compact]]
    king_steps: Callable[[int, int, int], list[Compact]]
    count_king_steps: Callable[[int, int, int], int]


def _quiet_masks(t: Tables) -> _QuietMasks:
    """The quiet moves as xor masks: every step made once per ruleset, then looked up.

    Owns the kings' quiet moves under the king-move limit (through the rule state's
    ``movable_kings``) and their count, which perft reads without listing them.
    """
    board = t.board
    crowns = t.crown_row
    king_moves = t.king_moves
    flying = t.flying
    limit = t.king_move_limit
    movable_kings = t.state.movable_kings
    square = t.square_of_bit
    n_bits = len(square)
    board_bits = [index for index in range(n_bits) if square[index]]

    def man_steps_of(color: int, a: int, up: bool) -> tuple[int, bool, list[Any]]:
        """A man's step in one direction: its masks by target square."""
        compacts: list[Any] = [None] * n_bits
        for to in board_bits:
            frm = to - a if up else to + a
            if 0 <= frm < n_bits and square[frm]:
                compacts[to] = ((1 << to) | (1 << frm), 0, (1 << to) & crowns[color])
        return a, up, compacts

    man_step_tables = tuple(tuple(man_steps_of(color, a, up) for _, a, up in t.man_moves[color]) for color in (0, 1))
    king_compacts: dict[int, Compact] = {}

    def entries(own: int, opp: int, kings: int, color: int, state: int) -> list[Compact]:
        """The quiet moves as xor masks (what counting and playing use)."""
        empty = board ^ (own | opp)
        men = own & ~kings
        out: list[Compact] = []
        for a, up, compacts in man_step_tables[color]:
            targets = (men << a if up else men >> a) & empty
            while targets:
                to = targets & -targets
                targets ^= to
                out.append(compacts[to.bit_length() - 1])
        movers = movable_kings(own, kings, color, state) if limit else own & kings
        while movers:
            king = movers & -movers
            movers ^= king
            frm = king.bit_length() - 1
            for _, a, up in king_moves[color]:
                to = (king << a if up else king >> a) & empty
                while to:
                    key = frm * n_bits + to.bit_length() - 1
                    compact = king_compacts.get(key)
                    if compact is None:
                        moved = king | to
                        compact = king_compacts[key] = (moved, 0, moved)
                    out.append(compact)
                    if not flying:
                        break
                    to = (to << a if up else to >> a) & empty
        return out

    def king_steps(movers: int, empty: int, color: int) -> list[Compact]:
        """The quiet moves of the kings ``movers`` onto ``empty`` squares."""
        return entries(movers, board ^ (movers | empty), movers, color, 0)

    def count_king_steps(own_kings: int, empty: int, color: int) -> int:
        """The number of quiet moves of the kings ``own_kings`` onto ``empty`` squares."""
        total = 0
        for _, a, up in king_moves[color]:
            front = (own_kings << a if up else own_kings >> a) & empty
            if not flying:
                total += front.bit_count()
                continue
            while front:
                total += front.bit_count()
                front = (front << a if up else front >> a) & empty
        return total

    return _QuietMasks(entries=entries, king_steps=king_steps, count_king_steps=count_king_steps)


def _quiet_public(t: Tables) -> Callable[[int, int, int, int, int], QuietMoves]:
    """The quiet moves in public form and move order (``quiet_sorted``), for positions.

    The men's steps come sorted by construction: the board is cut into chunks of whole rows
    (:func:`_chunks`: every square of a chunk numbered below, or every one above, the squares of
    the next), and each chunk's moves are looked up, already in move order, by which of its men can
    step in which direction. The kings' moves, sorted, are merged in. The tables fill as positions
    need them.
    """
    board = t.board
    crowns = t.crown_row
    king_moves = t.king_moves
    flying = t.flying
    limit = t.king_move_limit
    movable_kings = t.state.movable_kings
    square = t.square_of_bit
    rank_base = len(t.bit_of_square)
    n_bits = len(square)
    man_dirs = (shifts_of(t.man_moves[0]), shifts_of(t.man_moves[1]))

    def public(frm: int, to: int, compact: Compact, promotes: bool) -> PublicQuiet:
        first, last = square[frm], square[to]
        return first * rank_base + last, trusted_move(first, last, (), (first, last), promotes), compact

    # Per side and direction, the public form of a man's step by its target's bit (made when first
    # needed, then kept).
    man_forms: tuple[tuple[list[PublicQuiet | None], ...], ...] = tuple(
        tuple([None] * n_bits for _ in man_dirs[color]) for color in (0, 1)
    )

    def man_public(color: int, lane: int, to: int) -> PublicQuiet:
        a, up = man_dirs[color][lane]
        frm = to - a if up else to + a
        crowned = (1 << to) & crowns[color]
        entry = man_forms[color][lane][to] = public(frm, to, ((1 << to) | (1 << frm), 0, crowned), bool(crowned))
        return entry

    chunks = _chunks(square)
    chunk_tables: tuple[list[dict[int, QuietChunk]], ...] = tuple([{} for _ in chunks] for _ in (0, 1))

    def chunk_moves(color: int, chunk: int, key: int) -> QuietChunk:
        """The steps of one chunk's men (``key``: per direction, the men that can step that way)."""
        low, width = chunks[chunk]
        entries = []
        for lane, (a, up) in enumerate(man_dirs[color]):
            forms = man_forms[color][lane]
            movers = (key >> (lane * n_bits)) & ((1 << width) - 1)
            while movers:
                bit = movers & -movers
                movers ^= bit
                index = bit.bit_length() - 1 + low
                to = index + a if up else index - a
                entries.append(forms[to] or man_public(color, lane, to))
        entries.sort(key=_rank)
        found = (tuple([e[1] for e in entries]), tuple([e[2] for e in entries]), tuple([e[0] for e in entries]))
        table = chunk_tables[color][chunk]
        if len(table) >= _CHUNK_FORMS:
            table.clear()
        table[key] = found
        return found

    chunk_specs = tuple(
        tuple(
            (low, sum(((1 << width) - 1) << (lane * n_bits) for lane in range(len(man_dirs[color]))), index)
            for index, (low, width) in enumerate(chunks)
        )
        for color in (0, 1)
    )
    # Per side, per king bit: each direction's squares in order, with the public form of the move there.
    king_public_rays: tuple[dict[int, list[list[tuple[int, PublicQuiet]]]], ...] = ({}, {})

    def king_rays_of(king: int, color: int) -> list[list[tuple[int, PublicQuiet]]]:
        frm = king.bit_length() - 1
        rays = []
        for _, a, up in king_moves[color]:
            ray = []
            to = (king << a if up else king >> a) & board
            while to:
                moved = king | to
                ray.append((to, public(frm, to.bit_length() - 1, (moved, 0, moved), False)))
                if not flying:
                    break
                to = (to << a if up else to >> a) & board
            rays.append(ray)
        king_public_rays[color][king] = rays
        return rays

    def quiet_sorted(own: int, opp: int, kings: int, color: int, state: int) -> QuietMoves:
        """The quiet moves in move order (start square, end square): the Moves and their xor masks."""
        empty = board ^ (own | opp)
        men = own & ~kings
        moves: list[Move] = []
        compacts: list[Compact] = []
        movers = movable_kings(own, kings, color, state) if limit else own & kings
        ranks: list[int] = []
        if men:
            lanes = 0
            for lane, (a, up) in enumerate(man_dirs[color]):
                lanes |= (men & (empty >> a if up else empty << a)) << (lane * n_bits)
            tables = chunk_tables[color]
            for low, mask, index in chunk_specs[color]:
                key = lanes >> low & mask
                if key:
                    found = tables[index].get(key) or chunk_moves(color, index, key)
                    moves += found[0]
                    compacts += found[1]
                    ranks += found[2]
        if not movers:
            return moves, compacts
        known = king_public_rays[color]
        entries: list[PublicQuiet] = []
        while movers:
            king = movers & -movers
            movers ^= king
            for ray in known.get(king) or king_rays_of(king, color):
                for to, entry in ray:
                    if not to & empty:
                        break
                    entries.append(entry)
        entries.sort(key=_rank)
        if not moves:
            return [entry[1] for entry in entries], [entry[2] for entry in entries]
        return _merge(moves, compacts, ranks, entries)

    return quiet_sorted


def _merge(moves: list[Move], compacts: list[Compact], ranks: list[int], entries: list[PublicQuiet]) -> QuietMoves:
    """The men's moves (in order, with their ``ranks``) and the kings' sorted ``entries``, merged in order."""
    merged_moves: list[Move] = []
    merged_compacts: list[Compact] = []
    done = 0
    for rank, move, compact in entries:
        upto = bisect.bisect_left(ranks, rank, done)
        merged_moves += moves[done:upto]
        merged_compacts += compacts[done:upto]
        merged_moves.append(move)
        merged_compacts.append(compact)
        done = upto
    merged_moves += moves[done:]
    merged_compacts += compacts[done:]
    return merged_moves, merged_compacts


class _CaptureMasks(NamedTuple):
    capture_list: Callable[[int, int, int, int, bool], list[Compact] | None]
    single_jumps_only: Callable[[int, int, int, int], bool]
    preferred: Callable[[list[ManJump], int], list[ManJump]]
    single_raws: Callable[[list[ManJump], int, int], list[RawCapture]]


def _capture_masks(t: Tables, jumps: JumpTests, search: CaptureSearch) -> _CaptureMasks:
    """The legal captures as xor masks (``capture_list``), and the fast path it shares with the
    public listing and counting: when every capture is one jump by a man that cannot go on, the
    captures are read off the jump test's masks, precedence applied, without a search."""
    board = t.board
    crowns = t.crown_row
    men_take_kings = t.men_capture_kings
    goes_on = t.jump_goes_on
    needs_search = t.jump_needs_search
    preference = t.single_jump_preference
    man_jumps = jumps.men
    kings_can_jump = jumps.kings

    def single_jumps_only(own_kings: int, landings: int, origins: int, color: int) -> bool:
        """Whether every capture is one jump by a man that cannot go on (no search needed).

        A jump goes on if its landing square is an origin of some jump. The way back never shows up
        there (it would land on the man's own start square, occupied before the move), and no other
        jump can land on the start square or on the square of the piece just taken.
        """
        return not own_kings and not landings & ((origins & goes_on[color]) | needs_search[color])

    def preferred(jumps: list[ManJump], prey_kings: int) -> list[ManJump]:
        """The single jumps the precedence keeps: over kings, or over men, when the criteria prefer one."""
        chosen = []
        for a, up, jumpers in jumps:
            over_kings = prey_kings >> a if up else prey_kings << a
            kept = jumpers & over_kings if preference > 0 else jumpers & ~over_kings
            if kept:
                chosen.append((a, up, kept))
        return chosen or jumps

    def single_raws(jumps: list[ManJump], prey_kings: int, color: int) -> list[RawCapture]:
        """The legal captures when each is one jump by a man that cannot go on (see
        :func:`single_jumps_only`), as recorded raw captures, precedence applied."""
        if preference and prey_kings:
            jumps = preferred(jumps, prey_kings)
        crown = crowns[color]
        out: list[RawCapture] = []
        for a, up, jumpers in jumps:
            while jumpers:
                start = jumpers & -jumpers
                jumpers ^= start
                over = start << a if up else start >> a
                to = over << a if up else over >> a
                out.append((start, to, over, bool(to & crown), (over,), (to,)))
        return out

    def capture_list(own: int, opp: int, kings: int, color: int, paths: bool) -> list[Compact] | None:
        """The legal captures as xor masks, or None if the side to move has no capture."""
        empty = board ^ (own | opp)
        men = own & ~kings
        own_kings = own & kings
        prey = opp if men_take_kings else opp & ~kings
        total, landings, origins, jumps = man_jumps(men, prey, empty, color)
        if not total and not (own_kings and kings_can_jump(own_kings, opp, empty, color)):
            return None
        if not total or not single_jumps_only(own_kings, landings, origins, color):
            out = []
            for start, end, captured, promotes, _, _ in legal_captures(t, search, color, own, opp, kings, paths, False):
                moved = start ^ end
                crowned = moved if kings & start else (end if promotes else 0)
                out.append((moved, captured, crowned ^ (kings & captured)))
            return out
        return [
            (start | to, over, (kings & over) | (to if promotes else 0))
            for start, to, over, promotes, _, _ in single_raws(jumps, prey & kings, color)
        ]

    return _CaptureMasks(
        capture_list=capture_list, single_jumps_only=single_jumps_only, preferred=preferred, single_raws=single_raws
    )


class _CapturePublic(NamedTuple):
    single_publics: Callable[[list[ManJump], int, int, int], QuietMoves]
    capture_entries: Callable[[list[RawCapture], int], list[PublicEntry]]


def _capture_public(t: Tables, masks: _CaptureMasks) -> _CapturePublic:
    """Captures in their public form (the sort key and the :class:`~draughts.Move`), made once per
    capture and kept per ruleset, since the same captures come back game after game: single jumps
    by men by start square and direction, other captures by their raw form (at most
    :data:`_CAPTURE_FORMS` of them)."""
    crowns = t.crown_row
    preference = t.single_jump_preference
    preferred = masks.preferred
    square = t.square_of_bit
    rank_base = len(t.bit_of_square)
    # Single jumps by men: (rank, Move, the masks when the man taken is a man, when it is a king).
    jump_publics: dict[int, tuple[int, Move, Compact, Compact]] = {}

    def jump_public(start: int, over: int, to: int, key: int, color: int) -> tuple[int, Move, Compact, Compact]:
        first, last = square[start.bit_length() - 1], square[to.bit_length() - 1]
        promotes = bool(to & crowns[color])
        crowned = to if promotes else 0
        move = trusted_move(first, last, (square[over.bit_length() - 1],), (first, last), promotes)
        rank = first * rank_base + last
        form = jump_publics[key] = (rank, move, (start | to, over, crowned), (start | to, over, over | crowned))
        return form

    def single_publics(jumps: list[ManJump], prey_kings: int, kings: int, color: int) -> QuietMoves:
        """The legal captures when each is one jump by a man that cannot go on, in their public form
        and in move order (where capturing is mandatory: no quiet move comes between them)."""
        if preference and prey_kings:
            jumps = preferred(jumps, prey_kings)
        entries = []
        for a, up, jumpers in jumps:
            lane = a << 2 | up << 1 | color
            while jumpers:
                start = jumpers & -jumpers
                jumpers ^= start
                key = start.bit_length() << 12 | lane
                form = jump_publics.get(key)
                if form is None:
                    over = start << a if up else start >> a
                    form = jump_public(start, over, over << a if up else over >> a, key, color)
                entries.append((form[0], form[1], form[3] if form[2][1] & kings else form[2]))
        if len(entries) > 1:
            entries.sort(key=_rank)
        return [entry[1] for entry in entries], [entry[2] for entry in entries]

    capture_forms: dict[RawCapture, tuple[tuple[int, int, tuple[int, ...]], Move]] = {}

    def capture_form(raw: RawCapture) -> tuple[tuple[int, int, tuple[int, ...]], Move]:
        start, end, _, promotes, order, path = raw
        first = square[start.bit_length() - 1]
        last = square[end.bit_length() - 1]
        full = (first, *[square[bit.bit_length() - 1] for bit in path])
        taken = tuple([square[bit.bit_length() - 1] for bit in order])
        if len(capture_forms) >= _CAPTURE_FORMS:
            capture_forms.clear()
        form = capture_forms[raw] = ((first, last, full), trusted_move(first, last, taken, full, promotes))
        return form

    def capture_entries(raws: list[RawCapture], kings: int) -> list[PublicEntry]:
        """Each raw capture in its public form, with its xor masks (``kings``: all kings before it)."""
        entries: list[PublicEntry] = []
        for raw in raws:
            form = capture_forms.get(raw) or capture_form(raw)
            start, end, captured, promotes, _, _ = raw
            moved = start ^ end
            crowned = moved if kings & start else (end if promotes else 0)
            entries.append((form[0], form[1], (moved, captured, crowned ^ (kings & captured))))
        return entries

    return _CapturePublic(single_publics=single_publics, capture_entries=capture_entries)


def _first_paths(entries: list[PublicEntry]) -> list[PublicEntry]:
    """One entry per move (start, end, captured set) of sorted ``entries``: its first path."""
    seen: set[tuple[int, int, frozenset[int]]] = set()
    unique = []
    for entry in entries:
        identity = entry[1].identity
        if identity not in seen:
            seen.add(identity)
            unique.append(entry)
    return unique


_Count = Callable[[int, int, int, int, int, bool], int]


def _count1(t: Tables, jumps: JumpTests, captures: _CaptureMasks, quiet: _QuietMasks, search: CaptureSearch) -> _Count:
    """Perft's last ply (``count1``): the legal moves counted without listing them."""
    board = t.board
    man_moves = t.man_moves
    mandatory = t.capture_mandatory
    men_take_kings = t.men_capture_kings
    preference = t.single_jump_preference
    limit = t.king_move_limit
    crowning_wins = t.crowning_wins
    movable_kings = t.state.movable_kings
    man_jumps = jumps.men
    kings_can_jump = jumps.kings
    preferred = captures.preferred
    count_king_steps = quiet.count_king_steps
    steps_up = tuple(tuple(a for _, a, up in man_moves[color] if up) for color in (0, 1))
    steps_down = tuple(tuple(a for _, a, up in man_moves[color] if not up) for color in (0, 1))
    goes_on = t.jump_goes_on
    needs_search = t.jump_needs_search
    jumps_up, jumps_down = jumps.up, jumps.down

    def count(own: int, opp: int, kings: int, color: int, state: int, paths: bool) -> int:
        """The number of legal moves, without listing them.

        Captures by men that cannot go on are counted off the jump test's masks; any other capture
        runs the search.
        """
        if crowning_wins and kings:
            return 0
        empty = board ^ (own | opp)
        men = own & ~kings
        own_kings = own & kings
        prey = opp if men_take_kings else opp & ~kings
        # The jump test of ``jumps.men``, inlined with its directions split by shift (the one copy
        # of it: this is perft's innermost loop, where the call and its list cost some 10%).
        total = landings = origins = 0
        for a, a2 in jumps_up[color]:
            here = (prey >> a) & (empty >> a2)
            origins |= here
            jumpers = men & here
            if jumpers:
                landings |= jumpers << a2
                total += jumpers.bit_count()
        for a, a2 in jumps_down[color]:
            here = (prey << a) & (empty << a2)
            origins |= here
            jumpers = men & here
            if jumpers:
                landings |= jumpers >> a2
                total += jumpers.bit_count()
        if total:
            if own_kings or landings & ((origins & goes_on[color]) | needs_search[color]):  # single_jumps_only
                total = len(legal_captures(t, search, color, own, opp, kings, paths, False))
            elif preference and prey & kings:
                jumps = preferred(man_jumps(men, prey, empty, color)[3], prey & kings)
                total = sum(jumpers.bit_count() for _, _, jumpers in jumps)
            if mandatory:
                return total
        elif own_kings and kings_can_jump(own_kings, opp, empty, color):
            total = len(legal_captures(t, search, color, own, opp, kings, paths, False))
            if mandatory:
                return total
        for a in steps_up[color]:
            total += ((men << a) & empty).bit_count()
        for a in steps_down[color]:
            total += ((men >> a) & empty).bit_count()
        if own_kings:
            movers = movable_kings(own, kings, color, state) if limit else own_kings
            if movers:
                total += count_king_steps(movers, empty, color)
        return total

    return count


def _count2(t: Tables, count: _Count, captures: _CaptureMasks, quiet: _QuietMasks) -> _Count:
    """Perft's last two plies (``count2``), mostly in bulk, each reply counted by ``count``."""
    board = t.board
    crowns = t.crown_row
    man_moves = t.man_moves
    mandatory = t.capture_mandatory
    men_take_kings = t.men_capture_kings
    limit = t.king_move_limit
    crowning_wins = t.crowning_wins
    movable_kings = t.state.movable_kings
    play = t.state.play
    capture_list = captures.capture_list
    quiet_list = quiet.entries
    king_steps = quiet.king_steps
    steps_up = tuple(tuple(a for _, a, up in man_moves[color] if up) for color in (0, 1))
    steps_down = tuple(tuple(a for _, a, up in man_moves[color] if not up) for color in (0, 1))
    # The opponent's jumps, to find which of our quiet moves offer them a capture.
    their_jumps = tuple(tuple((a, a + a, up) for _, a, up in t.man_captures[color]) for color in (0, 1))
    their_up = tuple(tuple((a, a2) for a, a2, up in their_jumps[color] if up) for color in (0, 1))
    their_down = tuple(tuple((a, a2) for a, a2, up in their_jumps[color] if not up) for color in (0, 1))
    their_captures = (t.man_captures[1], t.man_captures[0])
    # A man of ours stepping in direction e is offered to an enemy man right in front of it when
    # that man captures in the reverse direction (landing on the square ours left).
    offered = tuple(
        tuple(any(d == (e + 4) % 8 for d, _, _ in their_captures[color]) for e in range(8)) for color in (0, 1)
    )

    def count2(own: int, opp: int, kings: int, color: int, state: int, paths: bool) -> int:
        """Leaves two plies below this node, most of them counted in bulk.

        Captures, king moves, and positions where the opponent has kings or a capture already are
        played one by one and their replies counted by :func:`count`. Otherwise a quiet man move
        from ``f`` to ``t`` gives the opponent a capture only by offering the man on ``t`` (an
        enemy man behind it with a free square beyond, or in front of it landing on ``f``) or by
        opening ``f`` as a landing square; those moves are found for all men at once with masks and
        counted one by one. Every other move leaves the opponent only quiet man moves, whose number
        differs from the current one only at ``f`` and ``t``: their sum is a few population counts
        per direction.
        """
        if crowning_wins and kings:
            return 0
        total = 0
        other = 1 - color
        found = capture_list(own, opp, kings, color, paths)
        if found is not None:
            if limit:
                for move in found:
                    total += count(*play(own, opp, kings, color, state, move), paths)
            else:  # without rule state a move is its xor masks: played here, as ``play`` would
                for moved, captured, crowned in found:
                    total += count(opp ^ captured, own ^ moved, kings ^ crowned, other, 0, paths)
            if mandatory:
                return total
        empty = board ^ (own | opp)
        crown = crowns[color]
        men = own & ~kings
        their_men = opp & ~kings
        their_prey = own if men_take_kings else men
        exposed = opened = 0
        for a, a2 in their_up[other]:
            exposed |= (their_men << a) & (empty >> a)
            opened |= (their_men << a2) & (their_prey << a)
        for a, a2 in their_down[other]:
            exposed |= (their_men >> a) & (empty << a)
            opened |= (their_men >> a2) & (their_prey >> a)
        if opp & kings or opened & empty:
            if limit:
                for move in quiet_list(own, opp, kings, color, state):
                    total += count(*play(own, opp, kings, color, state, move), paths)
            else:
                for moved, _, crowned in quiet_list(own, opp, kings, color, state):
                    total += count(opp, own ^ moved, kings ^ crowned, other, 0, paths)
            return total
        # Where their men cannot take kings, a man crowned on arrival is safe; where crowning wins,
        # the game ends there and the move has no replies.
        safe = -1 if men_take_kings else ~crown
        special = crown if crowning_wins else 0
        replies = 0
        their_steps = []
        for a in steps_up[other]:
            step = their_men << a
            their_steps.append(step)
            replies += (step & empty).bit_count()
        for a in steps_down[other]:
            step = their_men >> a
            their_steps.append(step)
            replies += (step & empty).bit_count()
        front = offered[color]
        for e, a, up in man_moves[color]:
            if up:
                targets = (men << a) & empty
                ahead = their_men >> a if front[e] else 0
                bad = targets & (((exposed | ahead) & safe) | (opened << a) | special)
                good = targets ^ bad
                sources = good >> a
            else:
                targets = (men >> a) & empty
                ahead = their_men << a if front[e] else 0
                bad = targets & (((exposed | ahead) & safe) | (opened >> a) | special)
                good = targets ^ bad
                sources = good << a
            if good:
                total += good.bit_count() * replies
                for step in their_steps:
                    total += (step & sources).bit_count() - (step & good).bit_count()
            while bad:
                to = bad & -bad
                bad ^= to
                moved = to | (to >> a if up else to << a)
                # A man's move clears its side's king-move count; the opponent has no kings here.
                total += count(opp, own ^ moved, kings | (to & crown), other, 0, paths)
        movers = movable_kings(own, kings, color, state)
        if movers:
            if limit:
                for move in king_steps(movers, empty, color):
                    total += count(*play(own, opp, kings, color, state, move), paths)
            else:
                for moved, _, crowned in king_steps(movers, empty, color):
                    total += count(opp, own ^ moved, kings ^ crowned, other, 0, paths)
        return total

    return count2


def _listing(
    t: Tables,
    jumps: JumpTests,
    captures: _CaptureMasks,
    public: _CapturePublic,
    quiet_sorted: Callable[[int, int, int, int, int], QuietMoves],
    search: CaptureSearch,
) -> Callable[[int, int, int, int, int, bool], QuietMoves]:
    """The legal moves in their public form and move order, with their xor masks (``legal``)."""
    board = t.board
    mandatory = t.capture_mandatory
    men_take_kings = t.men_capture_kings
    crowning_wins = t.crowning_wins
    man_jumps = jumps.men
    kings_can_jump = jumps.kings
    single_jumps_only = captures.single_jumps_only
    single_raws = captures.single_raws
    single_publics = public.single_publics
    capture_entries = public.capture_entries

    def legal(own: int, opp: int, kings: int, color: int, state: int, paths: bool) -> QuietMoves:
        """The legal moves in their public form and move order, with their xor masks, for the public
        API: with ``paths`` one per capture path; without, one per move, the path that comes first
        in square order (the search may then prune routes that cannot come first). Single jumps by
        men, where capturing is mandatory, are read off the masks in public form and order."""
        if crowning_wins and kings:
            return [], []
        own_kings = own & kings
        men = own & ~kings
        prey = opp if men_take_kings else opp & ~kings
        empty = board ^ (own | opp)
        total, landings, origins, jumps = man_jumps(men, prey, empty, color)
        if not total and not (own_kings and kings_can_jump(own_kings, opp, empty, color)):
            return quiet_sorted(own, opp, kings, color, state)
        found = None
        if total and single_jumps_only(own_kings, landings, origins, color):  # the usual case
            if mandatory:  # each is a move of its own, made once per ruleset
                return single_publics(jumps, prey & kings, kings, color)
            found = single_raws(jumps, prey & kings, color)
        if found is None:
            found = legal_captures(t, search, color, own, opp, kings, True, True, paths)
        entries = capture_entries(found, kings)
        if not mandatory:
            quiet_moves, quiet_compacts = quiet_sorted(own, opp, kings, color, state)
            entries += [
                ((move.start, move.end, move.path), move, compact)
                for move, compact in zip(quiet_moves, quiet_compacts, strict=True)
            ]
        if len(entries) > 1:
            entries.sort(key=_rank)
            if not paths:
                entries = _first_paths(entries)
        return [entry[1] for entry in entries], [entry[2] for entry in entries]

    return legal


def _build(t: Tables) -> MoveGenerator:
    """The generator of ``t``'s ruleset, assembled from its pieces, with the entry points that
    choose between captures and quiet moves (mandatory capture, crowning wins)."""
    board = t.board
    mandatory = t.capture_mandatory
    men_take_kings = t.men_capture_kings
    crowning_wins = t.crowning_wins
    search = capture_search(t)
    jumps = t.derived(jump_tests)
    quiet = _quiet_masks(t)
    captures = _capture_masks(t, jumps, search)
    count = _count1(t, jumps, captures, quiet, search)
    count2 = _count2(t, count, captures, quiet)
    legal = _listing(t, jumps, captures, _capture_public(t, captures), _quiet_public(t), search)
    capture_list = captures.capture_list
    quiet_list = quiet.entries
    kings_can_jump = jumps.kings
    jumps_up, jumps_down = jumps.up, jumps.down

    def moves_of(own: int, opp: int, kings: int, color: int, state: int, paths: bool) -> list[Compact]:
        if crowning_wins and kings:
            return []
        found = capture_list(own, opp, kings, color, paths)
        if found is None:
            return quiet_list(own, opp, kings, color, state)
        if mandatory:
            return found
        return found + quiet_list(own, opp, kings, color, state)

    def moves(own: int, opp: int, kings: int, color: int, state: int) -> list[Compact]:
        return moves_of(own, opp, kings, color, state, False)

    def moves_with_paths(own: int, opp: int, kings: int, color: int, state: int) -> list[Compact]:
        return moves_of(own, opp, kings, color, state, True)

    def captures_of(own: int, opp: int, kings: int, color: int) -> list[Compact]:
        if crowning_wins and kings:
            return []
        return capture_list(own, opp, kings, color, False) or []

    def can_capture(own: int, opp: int, kings: int, color: int) -> bool:
        if crowning_wins and kings:
            return False
        empty = board ^ (own | opp)
        men = own & ~kings
        if men:  # the jump test of ``jumps.men``, inlined with an early exit: the engine asks at every node
            prey = opp if men_take_kings else opp & ~kings
            for a, a2 in jumps_up[color]:
                if men & (prey >> a) & (empty >> a2):
                    return True
            for a, a2 in jumps_down[color]:
                if men & (prey << a) & (empty << a2):
                    return True
        own_kings = own & kings
        return bool(own_kings) and kings_can_jump(own_kings, opp, empty, color)

    return MoveGenerator(
        tables=t,
        moves=moves,
        paths=moves_with_paths,
        play=t.state.play,
        count1=count,
        count2=count2,
        legal=legal,
        search=search,
        captures=captures_of,
        can_capture=can_capture,
    )


_CAPTURE_FORMS = _caches.CAPTURE_FORMS
"""Captures whose public form a ruleset keeps (the same captures come back in game after game)."""

_CHUNK_WIDTH = 8
"""Bits a chunk of rows spans at most (two rows of a 10x10 board), unless no cut comes sooner."""
_CHUNK_FORMS = _caches.QUIET_CHUNKS
"""Keys a chunk's table keeps before it starts again (most positions meet far fewer)."""
_rank = operator.itemgetter(0)


def _chunks(square: Sequence[int]) -> list[tuple[int, int]]:
    """The board's bits cut into chunks ``(low bit, width)`` of whole rows, in square-number order.

    A cut at bit ``p`` is clean when every square below it is numbered lower than every square
    from it up, or higher: then the chunks, ordered by their squares, hold the squares in order.
    """
    n_bits = len(square)
    # The lowest and highest number below each bit, and from each bit up (0: no numbered square).
    none = 1 << 30
    low_below, high_below, low_above, high_above = ([0] * (n_bits + 1) for _ in range(4))
    lowest, highest = none, 0
    for index in range(n_bits):
        if square[index]:
            lowest, highest = min(lowest, square[index]), max(highest, square[index])
        low_below[index + 1], high_below[index + 1] = lowest, highest
    lowest, highest = none, 0
    for index in range(n_bits - 1, -1, -1):
        if square[index]:
            lowest, highest = min(lowest, square[index]), max(highest, square[index])
        low_above[index], high_above[index] = lowest, highest
    cuts = [
        p
        for p in range(1, n_bits)
        if high_below[p] and high_above[p] and (high_below[p] < low_above[p] or high_above[p] < low_below[p])
    ] + [n_bits]
    chunks = []
    low = 0
    while low < n_bits:
        near = [p for p in cuts if low < p <= low + _CHUNK_WIDTH]
        high = max(near) if near else min(p for p in cuts if p > low)
        if any(square[low:high]):
            chunks.append((low, high - low))
        low = high
    chunks.sort(key=lambda chunk: min(number for number in square[chunk[0] : sum(chunk)] if number))
    return chunks

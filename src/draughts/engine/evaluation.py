"""The engine's built-in evaluation, run per leaf: table look-ups and whole-board shifts on ints.

:func:`draughts.engine._evaluation` derives every table and weight below from a ruleset and
:class:`draughts.engine.Weights` (what the terms mean is documented there); this module holds only
the part that runs per node, so that the optional compiled build (mypyc) compiles it. Both builds
run this one :meth:`Evaluation.evaluate`; nothing is generated as source.

For speed from the Python source, where every operation on a 64-bit int costs about as much as a
loop step, the evaluation does the fewest whole-board operations it can: every term that is a sum
over squares (material, where men stand, the back-rank guard, kings' squares) is read from the
same look-up tables in one pass over the bitboards in chunks of up to 12 bits, and the terms that
are off (weight 0) cost one test each.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["BackPairs", "Chunks", "Evaluation", "Evaluator", "Shifts"]

Evaluator = Callable[[int, int, int, int], int]
"""``f(own, opp, kings, color)``: a node's score for its side to move."""
Shifts = tuple[tuple[int, bool], ...]
"""Whole-board shifts: ``(amount, up)``, ``up`` for a left shift."""
BackPairs = tuple[tuple[tuple[int, bool], int], ...]
"""The shifts that bring a man's back squares onto its own bit, each with the mask of men whose
back square is off the board (which counts as held)."""
Chunks = tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]
"""Per chunk of bits: its shift, and the look-up tables of the mover's men and of the opponent's."""


class Evaluation:
    """One ruleset's evaluation with one set of weights (see :class:`draughts.engine.Weights`).

    Args:
        men_chunks: Per colour to move, its :data:`Chunks`: what each man is worth where it stands
            (the back-rank guard included, for a man on its first row).
        king_chunks: Per chunk: its shift and the look-up table of kings (the same for both sides).
        chunk_mask: The bits of one chunk.
        board: Every square's bit.
        man_steps: Per colour, the shifts of a man's steps.
        king_steps: Per colour, the shifts of a king's one-square steps.
        fronts: Per colour, the shifts that bring a man's front squares onto its own bit.
        back_pairs: Per colour, the shifts that bring a man's back squares onto its own bit, each
            with the mask of men whose back square is off the board.
        home: Per colour, its first row.
        left: The left wing.
        right: The right wing.
        late_rows: Per colour, rows and the endgame advancement bonus per man on each.
        zone_of: Per colour, per bit: where an opposing piece would stop a man there (runaways).
        men_total: Both sides' men at the start.
        sign: -1 where a player with no move wins (the whole score turns), else 1.
        flying: Whether kings fly.
        crowning_wins: Whether crowning wins the game.
        mobility: Weight per quiet step.
        contact: Weight per man facing an opposing piece.
        support: Weight per man whose back squares are held.
        back_rank: Weight per man on its first row (in ``men_chunks``; taken back here while the
            other side has no men to crown).
        balance: Weight per man more on one wing than on the other.
        runaway: Weight per runaway man.
    """

    def __init__(
        self,
        men_chunks: tuple[Chunks, Chunks],
        king_chunks: tuple[tuple[int, tuple[int, ...]], ...],
        chunk_mask: int,
        board: int,
        man_steps: tuple[Shifts, Shifts],
        king_steps: tuple[Shifts, Shifts],
        fronts: tuple[Shifts, Shifts],
        back_pairs: tuple[BackPairs, BackPairs],
        home: tuple[int, int],
        left: int,
        right: int,
        late_rows: tuple[tuple[tuple[int, int], ...], ...],
        zone_of: tuple[tuple[int, ...], tuple[int, ...]],
        men_total: int,
        sign: int,
        flying: bool,
        crowning_wins: bool,
        mobility: int,
        contact: int,
        support: int,
        back_rank: int,
        balance: int,
        runaway: int,
    ) -> None:
        self.men_chunks = men_chunks
        self.king_chunks = king_chunks
        self.chunk_mask = chunk_mask
        self.board = board
        self.man_steps = man_steps
        self.king_steps = king_steps
        self.fronts = fronts
        self.back_pairs = back_pairs
        self.home = home
        self.left = left
        self.right = right
        self.late_rows = late_rows
        self.zone_of = zone_of
        self.men_total = men_total
        self.sign = sign
        self.flying = flying
        self.crowning_wins = crowning_wins
        self.mobility = mobility
        self.contact = contact
        self.support = support
        self.back_rank = back_rank
        self.balance = balance
        self.runaway = runaway
        self.late_always = crowning_wins and runaway != 0
        """Where crowning wins, runaways count in every phase (:meth:`late` runs at every leaf)."""

    def evaluate(self, own: int, opp: int, kings: int, color: int) -> int:
        """The score of a node for its side to move, in hundredths of a man."""
        men = own & ~kings
        theirs = opp & ~kings
        mask = self.chunk_mask
        score = 0
        for shift, mine, yours in self.men_chunks[color]:
            score += mine[(men >> shift) & mask] - yours[(theirs >> shift) & mask]
        if kings:
            own_kings = own & kings
            opp_kings = opp & kings
            for shift, table in self.king_chunks:
                score += table[(own_kings >> shift) & mask] - table[(opp_kings >> shift) & mask]
        other = color ^ 1
        if not (men and theirs) and self.back_rank:
            # The tables count the back-rank guard; it guards nothing against a side without men.
            if not theirs:
                score -= self.back_rank * (men & self.home[color]).bit_count()
            if not men:
                score += self.back_rank * (theirs & self.home[other]).bit_count()
        contact = self.contact
        if contact:
            facing = theirs_facing = 0
            for a, up in self.fronts[color]:
                facing |= opp << a if up else opp >> a
            for a, up in self.fronts[other]:
                theirs_facing |= own << a if up else own >> a
            score += contact * ((men & facing).bit_count() - (theirs & theirs_facing).bit_count())
        balance = self.balance
        if balance:
            left, right = self.left, self.right
            score -= balance * (
                abs((men & left).bit_count() - (men & right).bit_count())
                - abs((theirs & left).bit_count() - (theirs & right).bit_count())
            )
        if self.mobility:
            score += self.mobility * self.steps(own, opp, kings, color)
        if self.support:
            score += self.support * self.held(own, opp, kings, color)
        if self.late_always or 3 * (own | opp).bit_count() < self.men_total:
            score = self.late(score, own, opp, kings, color)
        return self.sign * score

    def steps(self, own: int, opp: int, kings: int, color: int) -> int:
        """The mobility term's count: quiet steps of the side to move less the opponent's."""
        other = color ^ 1
        men = own & ~kings
        theirs = opp & ~kings
        own_kings = own & kings
        opp_kings = opp & kings
        empty = self.board ^ (own | opp)
        steps = 0
        for a, up in self.man_steps[color]:
            steps += ((men << a if up else men >> a) & empty).bit_count()
        for a, up in self.man_steps[other]:
            steps -= ((theirs << a if up else theirs >> a) & empty).bit_count()
        if own_kings:
            for a, up in self.king_steps[color]:
                steps += ((own_kings << a if up else own_kings >> a) & empty).bit_count()
        if opp_kings:
            for a, up in self.king_steps[other]:
                steps -= ((opp_kings << a if up else opp_kings >> a) & empty).bit_count()
        return steps

    def held(self, own: int, opp: int, kings: int, color: int) -> int:
        """The support term's count: men of the side to move with their back squares held, less the opponent's."""
        held = own & ~kings
        for (a, up), off in self.back_pairs[color]:
            held &= (own << a if up else own >> a) | off
        theirs_held = opp & ~kings
        for (a, up), off in self.back_pairs[color ^ 1]:
            theirs_held &= (opp << a if up else opp >> a) | off
        return held.bit_count() - theirs_held.bit_count()

    def runaways(self, men: int, opp: int, color: int) -> int:
        """How many of ``men`` no piece of ``opp`` can stop on their way to crown."""
        zone = self.zone_of[color]
        found = 0
        while men:
            bit = men & -men
            men ^= bit
            if not zone[bit.bit_length() - 1] & opp:
                found += 1
        return found

    def late(self, score: int, own: int, opp: int, kings: int, color: int) -> int:
        """The endgame terms (and where crowning wins, the runaways) added to ``score``."""
        other = color ^ 1
        men = own & ~kings
        theirs = opp & ~kings
        own_kings = own & kings
        opp_kings = opp & kings
        runaway = self.runaway
        if 3 * (own | opp).bit_count() < self.men_total:  # the endgame
            late_rows = self.late_rows
            if late_rows[color]:
                for mask, value in late_rows[color]:
                    score += value * (men & mask).bit_count()
                for mask, value in late_rows[other]:
                    score -= value * (theirs & mask).bit_count()
            if runaway:
                if not opp_kings:
                    score += runaway * self.runaways(men, opp, color)
                if not own_kings:
                    score -= runaway * self.runaways(theirs, own, other)
            if self.flying and kings:
                # Flying kings hold a draw against a small majority: a lead short of three pieces
                # over a side with a king counts a quarter.
                lead = own.bit_count() - opp.bit_count()
                if (score > 0 and opp_kings and lead < 3) or (score < 0 and own_kings and lead > -3):
                    score = score // 4 if score > 0 else -(-score // 4)
        elif self.crowning_wins and runaway:
            score += runaway * (self.runaways(men, opp, color) - self.runaways(theirs, own, other))
        return score

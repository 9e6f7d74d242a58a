//! The engine's built-in evaluation, per leaf: a node's score for its side to move, in hundredths
//! of a man.
//!
//! Every weight and table comes from the caller (Python's `draughts.engine.weights` compiles them
//! per ruleset from its `Weights` settings); nothing here names a variant. The terms are those
//! of the Python evaluation it replaces, integer for integer: what each man and king is worth
//! where it stands (material, square table, advancement, back-rank guard, king squares), the
//! back-rank correction against a side without men, contact, balance, mobility, support, and in
//! the endgame the advancement race, runaways, the flying-king draw margin and, against a lone
//! king, the main road.

use crate::bitboard::Bits;

/// A whole-board shift: `(amount, up)`, `up` for a shift towards higher bits.
pub type Shift = (u32, bool);

/// One ruleset's evaluation with one set of weights.
#[derive(Clone, Debug, Default)]
pub struct Evaluation<B: Bits> {
    /// Per colour, per bit: what a man of that colour is worth there.
    pub men: [Vec<i64>; 2],
    /// Per bit: what a king is worth there (either colour).
    pub kings: Vec<i64>,
    /// Every square's bit.
    pub board: B,
    /// Per colour, the shifts of a man's steps.
    pub man_steps: [Vec<Shift>; 2],
    /// Per colour, the shifts of a king's one-square steps.
    pub king_steps: [Vec<Shift>; 2],
    /// Per colour, the shifts that bring a man's front squares onto its own bit.
    pub fronts: [Vec<Shift>; 2],
    /// Per colour, the shifts that bring a man's back squares onto its own bit, each with the mask
    /// of men whose back square is off the board (which counts as held).
    pub back_pairs: [Vec<(Shift, B)>; 2],
    /// Per colour, its first row.
    pub home: [B; 2],
    /// The left wing.
    pub left: B,
    /// The right wing.
    pub right: B,
    /// Per colour, rows and the endgame advancement bonus per man on each.
    pub late_rows: [Vec<(B, i64)>; 2],
    /// Per colour, per bit: where an opposing piece would stop a man there (runaways).
    pub zone_of: [Vec<B>; 2],
    /// Both sides' men at the start.
    pub men_total: u32,
    /// -1 where a player with no move wins (the whole score turns), else 1.
    pub sign: i64,
    /// Whether kings fly.
    pub flying: bool,
    /// Whether crowning wins the game.
    pub crowning_wins: bool,
    /// Weight per quiet step.
    pub mobility: i64,
    /// Weight per man facing an opposing piece.
    pub contact: i64,
    /// Weight per man whose back squares are held.
    pub support: i64,
    /// Weight per man on its first row (in `men`; taken back while the other side has no men).
    pub back_rank: i64,
    /// Weight per man more on one wing than on the other.
    pub balance: i64,
    /// Weight per runaway man.
    pub runaway: i64,
    /// The board's main road (its one longest diagonal), empty where it has none.
    pub main_road: B,
    /// With flying kings, what holding the main road with three kings is worth against a lone
    /// king off it (0: the knowledge is off).
    pub road: i64,
}

#[inline(always)]
fn sum_over<B: Bits>(pieces: B, values: &[i64]) -> i64 {
    pieces
        .iter()
        .map(|i| values.get(i as usize).copied().unwrap_or(0))
        .sum()
}

#[inline(always)]
fn count<B: Bits>(set: B) -> i64 {
    i64::from(set.count())
}

impl<B: Bits> Evaluation<B> {
    /// The score of a node for its side to move (`own`, `opp`, `kings`, `color` as in a node).
    pub fn evaluate(&self, own: B, opp: B, kings: B, color: u8) -> i64 {
        let color = usize::from(color & 1);
        let other = color ^ 1;
        let men = own & !kings;
        let theirs = opp & !kings;
        let mut score = sum_over(men, &self.men[color]) - sum_over(theirs, &self.men[other]);
        if kings.any() {
            score += sum_over(own & kings, &self.kings) - sum_over(opp & kings, &self.kings);
        }
        if !(men.any() && theirs.any()) && self.back_rank != 0 {
            // The values count the back-rank guard; it guards nothing against a side without men.
            if theirs.is_zero() {
                score -= self.back_rank * count(men & self.home[color]);
            }
            if men.is_zero() {
                score += self.back_rank * count(theirs & self.home[other]);
            }
        }
        if self.contact != 0 {
            let mut facing = B::ZERO;
            let mut theirs_facing = B::ZERO;
            for &(a, up) in &self.fronts[color] {
                facing |= opp.shift(a, up);
            }
            for &(a, up) in &self.fronts[other] {
                theirs_facing |= own.shift(a, up);
            }
            score += self.contact * (count(men & facing) - count(theirs & theirs_facing));
        }
        if self.balance != 0 {
            let lopsided = |side: B| (count(side & self.left) - count(side & self.right)).abs();
            score -= self.balance * (lopsided(men) - lopsided(theirs));
        }
        if self.mobility != 0 {
            score += self.mobility * self.steps(own, opp, kings, color);
        }
        if self.support != 0 {
            score += self.support * self.held(own, opp, kings, color);
        }
        let endgame = 3 * (own | opp).count() < self.men_total;
        if (self.crowning_wins && self.runaway != 0) || endgame {
            score = self.late(score, own, opp, kings, color, endgame);
        }
        self.sign * score
    }

    fn steps(&self, own: B, opp: B, kings: B, color: usize) -> i64 {
        let other = color ^ 1;
        let (men, theirs) = (own & !kings, opp & !kings);
        let (own_kings, opp_kings) = (own & kings, opp & kings);
        let empty = self.board ^ (own | opp);
        let mut steps = 0;
        for &(a, up) in &self.man_steps[color] {
            steps += count(men.shift(a, up) & empty);
        }
        for &(a, up) in &self.man_steps[other] {
            steps -= count(theirs.shift(a, up) & empty);
        }
        if own_kings.any() {
            for &(a, up) in &self.king_steps[color] {
                steps += count(own_kings.shift(a, up) & empty);
            }
        }
        if opp_kings.any() {
            for &(a, up) in &self.king_steps[other] {
                steps -= count(opp_kings.shift(a, up) & empty);
            }
        }
        steps
    }

    fn held(&self, own: B, opp: B, kings: B, color: usize) -> i64 {
        let mut held = own & !kings;
        for &((a, up), off) in &self.back_pairs[color] {
            held &= own.shift(a, up) | off;
        }
        let mut theirs_held = opp & !kings;
        for &((a, up), off) in &self.back_pairs[color ^ 1] {
            theirs_held &= opp.shift(a, up) | off;
        }
        count(held) - count(theirs_held)
    }

    /// How many of `men` (of `color`) no piece of `opp` can stop on their way to crown.
    fn runaways(&self, men: B, opp: B, color: usize) -> i64 {
        let zone = &self.zone_of[color];
        men.iter()
            .filter(|&i| (zone.get(i as usize).copied().unwrap_or(B::ZERO) & opp).is_zero())
            .count() as i64
    }

    fn late(&self, mut score: i64, own: B, opp: B, kings: B, color: usize, endgame: bool) -> i64 {
        let other = color ^ 1;
        let (men, theirs) = (own & !kings, opp & !kings);
        let (own_kings, opp_kings) = (own & kings, opp & kings);
        let runaway = self.runaway;
        if !endgame {
            // Only where crowning wins: runaways count in every phase.
            return score
                + runaway * (self.runaways(men, opp, color) - self.runaways(theirs, own, other));
        }
        if !self.late_rows[color].is_empty() {
            for &(mask, value) in &self.late_rows[color] {
                score += value * count(men & mask);
            }
            for &(mask, value) in &self.late_rows[other] {
                score -= value * count(theirs & mask);
            }
        }
        if runaway != 0 {
            if opp_kings.is_zero() {
                score += runaway * self.runaways(men, opp, color);
            }
            if own_kings.is_zero() {
                score -= runaway * self.runaways(theirs, own, other);
            }
        }
        if self.flying && kings.any() {
            if self.holds_road(own_kings, opp, opp_kings) {
                return score + self.road;
            }
            if self.holds_road(opp_kings, own, own_kings) {
                return score - self.road;
            }
            // Flying kings hold a draw against a small majority: a lead short of three pieces
            // over a side with a king counts a quarter (rounded towards zero).
            let lead = count(own) - count(opp);
            if (score > 0 && opp_kings.any() && lead < 3)
                || (score < 0 && own_kings.any() && lead > -3)
            {
                score /= 4;
            }
        }
        score
    }

    /// Whether `strong_kings` are three or more, one on the main road, against a lone king off it:
    /// the known win of flying kings (Petrov's triangle on 8x8), where a lone king on the road
    /// holds the draw (RUS64 7.2.7). Such a lead counts in full, not a quarter, with the road's
    /// weight: the strong side keeps its kings and the road, the lone king runs for it.
    #[inline]
    fn holds_road(&self, strong_kings: B, weak: B, weak_kings: B) -> bool {
        self.road != 0
            && weak.count() == 1
            && weak == weak_kings
            && (weak & self.main_road).is_zero()
            && strong_kings.count() >= 3
            && (strong_kings & self.main_road).any()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn material_and_the_endgame_quarter() {
        // A 4-bit toy board: men worth 100, kings 300, flying kings.
        let eval = Evaluation::<u64> {
            men: [vec![100; 4], vec![100; 4]],
            kings: vec![300; 4],
            board: 0b1111,
            men_total: 24,
            sign: 1,
            flying: true,
            ..Evaluation::default()
        };
        assert_eq!(eval.evaluate(0b0011, 0b0100, 0, 0), 100);
        // A man and a king against a king: the lead (1) is short of 3, the score counts a quarter.
        assert_eq!(eval.evaluate(0b0011, 0b0100, 0b0101, 0), 100 / 4);
        let losing = Evaluation { sign: -1, ..eval };
        assert_eq!(losing.evaluate(0b0011, 0b0100, 0, 0), -100);
    }

    #[test]
    fn three_kings_on_the_main_road_against_a_lone_king_off_it_count_in_full() {
        // An 8-bit toy board, the road bits 0-3: men 100, kings 300, flying kings, road 50.
        let eval = Evaluation::<u64> {
            men: [vec![100; 8], vec![100; 8]],
            kings: vec![300; 8],
            board: 0xff,
            men_total: 24,
            sign: 1,
            flying: true,
            main_road: 0b1111,
            road: 50,
            ..Evaluation::default()
        };
        // Three kings, on the road.
        let three = 0b0000_0111;
        // The lone king off the road: 900 - 300 in full, and the road's weight.
        assert_eq!(
            eval.evaluate(three, 0b1000_0000, three | 0b1000_0000, 0),
            650
        );
        assert_eq!(
            eval.evaluate(0b1000_0000, three, three | 0b1000_0000, 0),
            -650
        );
        // The lone king on the road holds it: a quarter, as before.
        assert_eq!(eval.evaluate(three, 0b1000, three | 0b1000, 0), 150);
        // No king of the three on the road: a quarter.
        let off = 0b0111_0000;
        assert_eq!(eval.evaluate(off, 0b1000_0000, off | 0b1000_0000, 0), 150);
        // Two kings and a man: a quarter (not three kings).
        assert_eq!(
            eval.evaluate(three, 0b1000_0000, 0b0011 | 0b1000_0000, 0),
            400 / 4
        );
        // The weight 0 turns the knowledge off.
        let off_weight = Evaluation { road: 0, ..eval };
        assert_eq!(
            off_weight.evaluate(three, 0b1000_0000, three | 0b1000_0000, 0),
            150
        );
    }
}

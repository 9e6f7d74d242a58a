//! The index of a material: every position of it numbered, in the order of the Python
//! `draughts.endgame.index` (so that table files stay byte-identical whichever side built them).
//!
//! A placement is ranked group by group as a mixed-radix number of combination ranks (colex
//! order): White's men among the squares a white man can stand on, Black's men likewise (ranked
//! independently, so placements where they would share a square are *holes*), White's kings among
//! the squares the men left free, Black's kings among the squares the men and White's kings left
//! free. Index `turn * placements + rank`.

use crate::bitboard::Bits;
use crate::error::Error;
use crate::tables::Tables;

/// A placement: `(white, black, kings)` bitboards.
pub type Placement<B> = (B, B, B);

/// The groups of the rank [`Indexer::unrank_with`] unranked last.
#[derive(Clone, Copy, Debug, Default)]
pub struct Unranked<B: Bits> {
    men: Option<u64>,
    white: B,
    black: B,
    white_kings: Option<(u64, B)>,
}

/// Ranks (and unranks) the positions of one material under one ruleset.
#[derive(Clone, Debug)]
pub struct Indexer<B: Bits> {
    /// The playable squares.
    pub board: B,
    /// Per colour, the squares its men may stand on (all but its crowning row).
    pub men_squares: [B; 2],
    /// White's men, Black's men, White's kings, Black's kings.
    pub counts: [u32; 4],
    /// The radix of each group (the number of its combinations).
    pub radix: [u64; 4],
    /// Placements per side to move (holes included).
    pub placements: u64,
    /// Entries: both sides to move.
    pub size: u64,
    /// `binomial[n * stride + k]`: n choose k.
    binomial: Vec<u64>,
    stride: usize,
    /// The board's bits, in order.
    board_bits: Vec<u32>,
    /// Per bit, its place among the board's squares, White's men's and Black's men's.
    places: [Vec<u32>; 3],
    /// The bits of the men's domains, in order (for unranking).
    domains: [Vec<u32>; 2],
    /// Per bit, the bits below it.
    below: Vec<B>,
}

fn binomial(n: u64, k: u64) -> Option<u64> {
    if k > n {
        return Some(0);
    }
    let mut out: u128 = 1;
    for i in 0..k {
        out = out * u128::from(n - i) / u128::from(i + 1);
        if out > u128::from(u64::MAX) {
            return None;
        }
    }
    u64::try_from(out).ok()
}

fn places_of<B: Bits>(domain: B, bits: u32) -> Vec<u32> {
    let mut out = vec![0; bits as usize];
    for (place, bit) in domain.iter().enumerate() {
        out[bit as usize] = place as u32;
    }
    out
}

impl<B: Bits> Indexer<B> {
    /// The indexer of the material with `counts` (White's men, Black's men, White's kings,
    /// Black's kings) on the board of `tables`.
    ///
    /// # Errors
    /// [`Error::InvalidSpec`] if the material's placements do not fit 64 bits.
    pub fn new(tables: &Tables<B>, counts: [u32; 4]) -> Result<Self, Error> {
        let board = tables.board;
        let men_squares = [board & !tables.crown_row[0], board & !tables.crown_row[1]];
        let squares = u64::from(board.count());
        let [white_men, black_men, white_kings, _] = counts.map(u64::from);
        let men = white_men + black_men;
        let too_big = || Error::InvalidSpec(format!("material {counts:?} has too many placements"));
        let radix = [
            binomial(u64::from(men_squares[0].count()), white_men).ok_or_else(too_big)?,
            binomial(u64::from(men_squares[1].count()), black_men).ok_or_else(too_big)?,
            binomial(squares.saturating_sub(men), white_kings).ok_or_else(too_big)?,
            binomial(
                squares.saturating_sub(men + white_kings),
                u64::from(counts[3]),
            )
            .ok_or_else(too_big)?,
        ];
        let placements = radix
            .iter()
            .try_fold(1u64, |acc, &r| acc.checked_mul(r))
            .ok_or_else(too_big)?;
        let size = placements.checked_mul(2).ok_or_else(too_big)?;
        let pieces = u64::from(counts.iter().sum::<u32>());
        let stride = pieces as usize + 2;
        let binomial = (0..=squares)
            .flat_map(|n| (0..=pieces + 1).map(move |k| binomial(n, k).unwrap_or(u64::MAX)))
            .collect();
        let bits = B::BITS;
        Ok(Indexer {
            board,
            men_squares,
            counts,
            radix,
            placements,
            size,
            binomial,
            stride,
            board_bits: board.iter().collect(),
            places: [
                places_of(board, bits),
                places_of(men_squares[0], bits),
                places_of(men_squares[1], bits),
            ],
            domains: [
                men_squares[0].iter().collect(),
                men_squares[1].iter().collect(),
            ],
            below: (0..bits).map(B::below).collect(),
        })
    }

    #[inline(always)]
    fn choose(&self, n: usize, k: usize) -> u64 {
        self.binomial[n * self.stride + k]
    }

    /// The colex rank of `pieces` in a fixed domain (`table`: each bit's place in it).
    #[inline]
    fn fixed(&self, pieces: B, table: &[u32]) -> u64 {
        let mut rank = 0;
        for (nth, bit) in pieces.iter().enumerate() {
            rank += self.choose(table[bit as usize] as usize, nth + 1);
        }
        rank
    }

    /// The colex rank of `pieces` among the board's squares not in `occupied`.
    #[inline]
    fn free(&self, pieces: B, occupied: B) -> u64 {
        let mut rank = 0;
        for (nth, bit) in pieces.iter().enumerate() {
            let below = (occupied & self.below[bit as usize]).count();
            let place = self.places[0][bit as usize] - below;
            rank += self.choose(place as usize, nth + 1);
        }
        rank
    }

    /// The index of a position of this material (`turn` 0: White to move).
    #[inline]
    pub fn index(&self, white: B, black: B, kings: B, turn: u8) -> u64 {
        let men = !kings;
        let [_, r1, r2, r3] = self.radix;
        let mut rank = self.fixed(white & men, &self.places[1]);
        rank = rank * r1 + self.fixed(black & men, &self.places[2]);
        let mut occupied = (white | black) & men;
        rank = rank * r2 + self.free(white & kings, occupied);
        occupied |= white & kings;
        rank = rank * r3 + self.free(black & kings, occupied);
        u64::from(turn) * self.placements + rank
    }

    /// The `k` pieces of colex rank `rank` among the squares `place_bit` gives (the place-th
    /// square of the domain, `domain` of them), largest place first.
    #[inline]
    fn group(&self, mut rank: u64, k: u32, domain: usize, place_bit: impl Fn(usize) -> u32) -> B {
        let mut out = B::ZERO;
        let mut top = domain;
        for i in (1..=k as usize).rev() {
            // The largest c in 1..=top with choose(c - 1, i) <= rank (binomials grow with c, and
            // choose(0, i) is 0): a binary search, not a walk down from the top.
            let (mut low, mut high) = (top.min(1), top);
            while low < high {
                let middle = (low + high).div_ceil(2);
                if self.choose(middle - 1, i) <= rank {
                    low = middle;
                } else {
                    high = middle - 1;
                }
            }
            // low - 1 is the largest place whose binomial fits.
            let place = low.saturating_sub(1);
            rank -= self.choose(place, i);
            out |= B::bit(place_bit(place));
            top = place;
        }
        out
    }

    fn group_in(&self, rank: u64, k: u32, domain: &[u32]) -> B {
        self.group(rank, k, domain.len(), |place| domain[place])
    }

    /// The group among the board's squares not in `occupied`.
    fn group_free(&self, rank: u64, k: u32, occupied: B) -> B {
        let count = (self.board & !occupied).count() as usize;
        self.group(rank, k, count, |place| {
            // The place-th free square: each occupied square at or below it moves it up one.
            let mut at = place;
            for square in occupied.iter() {
                if self.places[0][square as usize] as usize <= at {
                    at += 1;
                } else {
                    break;
                }
            }
            self.board_bits[at]
        })
    }

    /// The rank of the kings' groups of a placement (`rank % (radix[2] * radix[3])`: its offset
    /// in its slice), its men left out (a king's move keeps them).
    #[inline]
    pub fn kings_rank(&self, white: B, black: B, kings: B) -> u64 {
        let men = !kings;
        let mut occupied = (white | black) & men;
        let rank = self.free(white & kings, occupied);
        occupied |= white & kings;
        rank * self.radix[3] + self.free(black & kings, occupied)
    }

    /// [`Indexer::unrank`], keeping the groups of the last rank in `last` (ranks walked in order
    /// change Black's kings most often, the men least: each group is unranked only when it
    /// changes).
    pub fn unrank_with(&self, rank: u64, last: &mut Unranked<B>) -> Option<Placement<B>> {
        let [_, r1, r2, r3] = self.radix;
        let [wm, bm, wk, bk] = self.counts;
        let (rest, black_kings) = (rank / r3, rank % r3);
        let (men_rank, white_kings) = (rest / r2, rest % r2);
        if last.men != Some(men_rank) {
            let (white_men, black_men) = (men_rank / r1, men_rank % r1);
            last.white = self.group_in(white_men, wm, &self.domains[0]);
            last.black = self.group_in(black_men, bm, &self.domains[1]);
            last.men = Some(men_rank);
            last.white_kings = None;
        }
        let (white, black) = (last.white, last.black);
        if (white & black).any() {
            return None;
        }
        let men = white | black;
        if last.white_kings.map(|(r, _)| r) != Some(white_kings) {
            last.white_kings = Some((white_kings, self.group_free(white_kings, wk, men)));
        }
        let w_kings = last.white_kings.map_or(B::ZERO, |(_, k)| k);
        let b_kings = self.group_free(black_kings, bk, men | w_kings);
        Some((white | w_kings, black | b_kings, w_kings | b_kings))
    }

    /// The placement of rank `rank` (`0..placements`), or `None` for a hole.
    pub fn unrank(&self, rank: u64) -> Option<Placement<B>> {
        let [_, r1, r2, r3] = self.radix;
        let [wm, bm, wk, bk] = self.counts;
        let (rest, black_kings) = (rank / r3, rank % r3);
        let (rest, white_kings) = (rest / r2, rest % r2);
        let (white_men, black_men) = (rest / r1, rest % r1);
        let white = self.group_in(white_men, wm, &self.domains[0]);
        let black = self.group_in(black_men, bm, &self.domains[1]);
        if (white & black).any() {
            return None;
        }
        let men = white | black;
        let w_kings = self.group_free(white_kings, wk, men);
        let b_kings = self.group_free(black_kings, bk, men | w_kings);
        Some((white | w_kings, black | b_kings, w_kings | b_kings))
    }

    /// The order key of a placement in the Python `Indexer.placements_of` walk (each group's
    /// squares in increasing order, groups in turn): smaller keys are walked first.
    pub fn walk_key(&self, placement: Placement<B>) -> Vec<u32> {
        let (white, black, kings) = placement;
        let men = !kings;
        let mut key: Vec<u32> = (white & men).iter().collect();
        key.extend((black & men).iter());
        key.extend((white & kings).iter());
        key.extend((black & kings).iter());
        key
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::Generator;
    use crate::spec::RulesSpec;

    #[test]
    fn unrank_inverts_index_and_holes_are_overlaps() {
        let g = Generator::<u64>::new(&RulesSpec::default()).unwrap();
        for counts in [[1, 1, 0, 0], [0, 0, 2, 1], [1, 0, 1, 1], [2, 1, 0, 1]] {
            let indexer = Indexer::new(&g.tables, counts).unwrap();
            let mut holes = 0;
            let mut last = Unranked::default();
            for rank in 0..indexer.placements {
                assert_eq!(indexer.unrank_with(rank, &mut last), indexer.unrank(rank));
                match indexer.unrank(rank) {
                    None => holes += 1,
                    Some((w, b, k)) => {
                        assert_eq!(indexer.index(w, b, k, 1), indexer.placements + rank);
                        let per = indexer.radix[2] * indexer.radix[3];
                        assert_eq!(indexer.kings_rank(w, b, k), rank % per);
                        assert_eq!((w & b), 0);
                        assert_eq!((w & !k).count(), counts[0]);
                        assert_eq!((b & !k).count(), counts[1]);
                    }
                }
            }
            if counts[0] == 0 || counts[1] == 0 {
                assert_eq!(holes, 0);
            }
        }
        // KvK on 32 squares: 32 * 31 placements, no hole.
        let kvk = Indexer::new(&g.tables, [0, 0, 1, 1]).unwrap();
        assert_eq!(kvk.placements, 992);
    }
}

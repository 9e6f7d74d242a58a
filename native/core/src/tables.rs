//! A ruleset compiled once into the bit tables the generator reads, in Python's bit layout.
//!
//! **Bit layout** (exactly `draughts._core.tables`, so that bitboards pass between Python and
//! the native core unchanged). Each playable square gets a bit index such that every step the
//! ruleset uses is a constant shift, and a step off the board lands on a *ghost* bit:
//!
//! * dark squares only: index `(y * S + x - p) / 2`, `p` the parity of playable squares on row 0,
//!   `S = w + 1` for a board `w` files wide (even), or `w + 3` when any direction set holds an
//!   orthogonal direction; a diagonal step is `(S ± 1) / 2`, an orthogonal step (two squares) `1`
//!   along a row and `S` along a column;
//! * every square: index `y * (w + 1) + x`, every step `1`, `w`, `w + 1` or `w + 2`.
//!
//! The height only sets the number of rows: a step off the top or bottom row leaves the layout.
//!
//! **Directions** are the compass directions `N NE E SE S SW W NW` (White's view), indexed 0-7, so
//! `(d + 4) % 8` reverses `d`; a direction shifts up (to higher bits) or down by its amount.

use crate::bitboard::Bits;
use crate::error::Error;
use crate::geometry::Geometry;
use crate::spec::{directions, CapturePromotion, KingLanding, RulesSpec};
use crate::state::RuleState;

/// North (towards Black, seen from White).
pub const N: u8 = 0;
/// North-east.
pub const NE: u8 = 1;
/// East.
pub const E: u8 = 2;
/// South-east.
pub const SE: u8 = 3;
/// South.
pub const S: u8 = 4;
/// South-west.
pub const SW: u8 = 5;
/// West.
pub const W: u8 = 6;
/// North-west.
pub const NW: u8 = 7;

/// Unit vector `(dx, dy)` of each direction, seen from White.
pub const VECTORS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

fn is_diagonal(d: u8) -> bool {
    d % 2 == 1
}

/// The opposite direction.
pub fn reverse(d: u8) -> u8 {
    (d + 4) % 8
}

/// The compass directions of `flags` for a piece of `color` (forward = towards the opponent),
/// in increasing order.
pub fn directions_of(flags: u8, color: u8) -> Vec<u8> {
    let white = color == 0;
    let groups: [(u8, &[u8]); 5] = [
        (
            directions::DIAGONAL_FORWARD,
            if white { &[NE, NW] } else { &[SE, SW] },
        ),
        (
            directions::DIAGONAL_BACKWARD,
            if white { &[SE, SW] } else { &[NE, NW] },
        ),
        (
            directions::ORTHOGONAL_FORWARD,
            if white { &[N] } else { &[S] },
        ),
        (directions::ORTHOGONAL_SIDEWAYS, &[E, W]),
        (
            directions::ORTHOGONAL_BACKWARD,
            if white { &[S] } else { &[N] },
        ),
    ];
    let mut out: Vec<u8> = groups
        .iter()
        .filter(|(flag, _)| flags & flag != 0)
        .flat_map(|(_, ds)| ds.iter().copied())
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// A step: its direction, its shift amount and whether it shifts up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The compass direction (0-7).
    pub d: u8,
    /// The shift amount.
    pub amount: u32,
    /// Whether it shifts up (to higher bits).
    pub up: bool,
}

/// The bit layout of a board, independent of the bitboard width.
#[derive(Clone, Debug)]
pub struct Layout {
    /// The geometry it was made from.
    pub geometry: Geometry,
    /// Bit index of each square number (index 0 unused, `u32::MAX`).
    pub bit_of_square: Vec<u32>,
    /// Square number of each bit index, 0 for ghost bits (length: highest bit + 1).
    pub square_of_bit: Vec<u32>,
    /// Signed shift of each direction (0 where the board has no such step).
    pub shifts: [i32; 8],
    /// Whether the board has a step in each direction.
    pub has: [bool; 8],
}

impl Layout {
    /// The layout of `spec`'s board.
    ///
    /// # Errors
    /// [`Error::InvalidSpec`] for a bad board.
    pub fn new(spec: &RulesSpec) -> Result<Self, Error> {
        let geometry = spec.geometry()?;
        let n = spec.board_size as i32; // the width: rows are laid out one after another
        let mut shifts = [0i32; 8];
        let mut has = [false; 8];
        let (stride, parity, dark) = if spec.all_squares {
            (n + 1, 0, false)
        } else {
            let stride = if spec.uses_orthogonal() { n + 3 } else { n + 1 };
            (stride, if spec.bottom_left_playable { 0 } else { 1 }, true)
        };
        for d in 0..8u8 {
            let (dx, dy) = VECTORS[d as usize];
            if !dark {
                shifts[d as usize] = dy * stride + dx;
                has[d as usize] = true;
            } else if is_diagonal(d) {
                shifts[d as usize] = (dy * stride + dx).div_euclid(2);
                has[d as usize] = true;
            } else if spec.uses_orthogonal() {
                shifts[d as usize] = dy * stride + dx;
                has[d as usize] = true;
            }
        }
        let bit = |x: i32, y: i32| -> u32 {
            if dark {
                (y * stride + x - parity).div_euclid(2) as u32
            } else {
                (y * stride + x) as u32
            }
        };
        let mut bit_of_square = vec![u32::MAX];
        for &(x, y) in &geometry.coords[1..] {
            bit_of_square.push(bit(x, y));
        }
        let top = bit_of_square[1..].iter().copied().max().unwrap_or(0);
        let mut square_of_bit = vec![0u32; top as usize + 1];
        for (square, &index) in bit_of_square.iter().enumerate().skip(1) {
            square_of_bit[index as usize] = square as u32;
        }
        Ok(Layout {
            geometry,
            bit_of_square,
            square_of_bit,
            shifts,
            has,
        })
    }

    /// The bit index of `(x, y)` if it is playable.
    pub fn bit_at(&self, x: i32, y: i32) -> Option<u32> {
        self.geometry
            .square_at(x, y)
            .map(|s| self.bit_of_square[s as usize])
    }

    /// The number of bit indices (highest bit + 1).
    pub fn bits(&self) -> u32 {
        self.square_of_bit.len() as u32
    }
}

/// A ruleset compiled for the generator, in a bitboard width `B` that holds its layout.
#[derive(Clone, Debug)]
pub struct Tables<B: Bits> {
    /// The layout (square <-> bit maps).
    pub layout: Layout,
    /// Bits of all playable squares.
    pub board: B,
    /// Shift of one step in each direction (0 where the board has none).
    pub amount: [u32; 8],
    /// Whether a step in each direction is a left shift.
    pub up: [bool; 8],
    /// `rays[d * bits + bit]`: the squares along direction `d` from `bit` (excluded).
    pub rays: Vec<B>,
    /// Bits of the crowning row of each colour.
    pub crown_row: [B; 2],
    /// Bits of the men of each colour in the start position.
    pub start_men: [B; 2],
    /// A man's quiet steps per colour.
    pub man_moves: [Vec<Step>; 2],
    /// A man's capture directions per colour.
    pub man_captures: [Vec<Step>; 2],
    /// A king's quiet move directions per colour.
    pub king_moves: [Vec<Step>; 2],
    /// A king's capture directions per colour.
    pub king_captures: [Vec<Step>; 2],
    /// `turns[color][d]`: directions a flying king may take from a landing square after a jump in
    /// `d` (its other capture directions; the reverse only with immediate removal and reversal).
    pub turns: [[Vec<u8>; 8]; 2],
    /// `crowned_turns[color][d]`: the same for a man crowned by a jump in `d` going on as a king.
    pub crowned_turns: [[Vec<u8>; 8]; 2],
    /// Flying kings.
    pub flying: bool,
    /// Where flying kings land.
    pub landing: KingLanding,
    /// Whether men may capture kings.
    pub men_capture_kings: bool,
    /// Crowning mid-capture.
    pub capture_promotion: CapturePromotion,
    /// Captured pieces leave at once.
    pub immediate_removal: bool,
    /// Capturing is mandatory.
    pub capture_mandatory: bool,
    /// The king-move limit (0 for none).
    pub king_move_limit: u64,
    /// The rule state's layout.
    pub state: RuleState,
    /// Crowning wins.
    pub crowning_wins: bool,
    /// Per colour, the landing squares from which a man's capture may go on as a man.
    pub jump_goes_on: [B; 2],
    /// Per colour, landing squares where only the search can tell (crowned, goes on as a king).
    pub jump_needs_search: [B; 2],
}

impl<B: Bits> Tables<B> {
    /// Compiles `spec` (already validated) in width `B`.
    ///
    /// # Errors
    /// [`Error::InvalidSpec`] if the layout does not fit `B`.
    pub fn new(spec: &RulesSpec, layout: Layout) -> Result<Self, Error> {
        if layout.bits() > B::BITS {
            return Err(Error::InvalidSpec(format!(
                "the board needs {} bits, more than the {} of this width",
                layout.bits(),
                B::BITS
            )));
        }
        let geo = layout.geometry.clone();
        let nbits = layout.bits() as usize;
        let mut board = B::ZERO;
        for &index in &layout.bit_of_square[1..] {
            board |= B::bit(index);
        }
        let mut rays = vec![B::ZERO; 8 * nbits];
        for d in 0..8usize {
            if !layout.has[d] {
                continue;
            }
            let (dx, dy) = VECTORS[d];
            let scale = if geo.all_squares || d % 2 == 1 { 1 } else { 2 };
            for square in 1..=geo.squares() as usize {
                let (mut x, mut y) = geo.coords[square];
                let mut mask = B::ZERO;
                x += dx * scale;
                y += dy * scale;
                while let Some(index) = layout.bit_at(x, y) {
                    mask |= B::bit(index);
                    x += dx * scale;
                    y += dy * scale;
                }
                rays[d * nbits + layout.bit_of_square[square] as usize] = mask;
            }
        }
        let steps = |flags: u8, color: u8| -> Vec<Step> {
            directions_of(flags, color)
                .into_iter()
                .map(|d| Step {
                    d,
                    amount: layout.shifts[d as usize].unsigned_abs(),
                    up: layout.shifts[d as usize] > 0,
                })
                .collect()
        };
        let row_bits = |low: i32, high: i32| -> B {
            let mut found = B::ZERO;
            for (square, &(_, y)) in geo.coords.iter().enumerate().skip(1) {
                if (low..high).contains(&y) {
                    found |= B::bit(layout.bit_of_square[square]);
                }
            }
            found
        };
        let size = spec.height() as i32;
        let first = spec.men_start_row as i32 - 1;
        let last = first + spec.rows_per_side as i32;
        let crown_row = [row_bits(size - 1, size), row_bits(0, 1)];
        let back_allowed = spec.immediate_removal && spec.capture_reversal;
        let turns_of = |color: u8, after_crowning: bool| -> [Vec<u8>; 8] {
            let capture = directions_of(spec.kings_capture, color);
            core::array::from_fn(|d| {
                let d = d as u8;
                capture
                    .iter()
                    .copied()
                    .filter(|&t| (t != d || after_crowning) && (t != reverse(d) || back_allowed))
                    .collect()
            })
        };
        let ends = spec.capture_promotion == CapturePromotion::EndsMove;
        let as_king = spec.capture_promotion == CapturePromotion::ContinuesAsKing;
        let state = RuleState::new(spec.king_move_limit, nbits as u32);
        Ok(Tables {
            board,
            amount: core::array::from_fn(|d| layout.shifts[d].unsigned_abs()),
            up: core::array::from_fn(|d| layout.shifts[d] > 0),
            rays,
            crown_row,
            start_men: [row_bits(first, last), row_bits(size - last, size - first)],
            man_moves: [steps(spec.men_move, 0), steps(spec.men_move, 1)],
            man_captures: [steps(spec.men_capture, 0), steps(spec.men_capture, 1)],
            king_moves: [steps(spec.kings_move, 0), steps(spec.kings_move, 1)],
            king_captures: [steps(spec.kings_capture, 0), steps(spec.kings_capture, 1)],
            turns: [turns_of(0, false), turns_of(1, false)],
            crowned_turns: [turns_of(0, true), turns_of(1, true)],
            flying: spec.flying_kings,
            landing: spec.king_landing,
            men_capture_kings: spec.men_capture_kings,
            capture_promotion: spec.capture_promotion,
            immediate_removal: spec.immediate_removal,
            capture_mandatory: spec.capture_mandatory,
            king_move_limit: spec.king_move_limit,
            state,
            crowning_wins: spec.crowning_wins,
            jump_goes_on: if ends {
                [!crown_row[0], !crown_row[1]]
            } else {
                [!B::ZERO, !B::ZERO]
            },
            jump_needs_search: if as_king {
                crown_row
            } else {
                [B::ZERO, B::ZERO]
            },
            layout,
        })
    }

    /// The number of bit indices of the layout.
    #[inline(always)]
    pub fn nbits(&self) -> usize {
        self.layout.square_of_bit.len()
    }

    /// The ray from bit `index` in direction `d` (empty for an index off the layout).
    #[inline(always)]
    pub fn ray(&self, d: u8, index: u32) -> B {
        if index as usize >= self.nbits() {
            return B::ZERO;
        }
        self.rays
            .get((d & 7) as usize * self.nbits() + index as usize)
            .copied()
            .unwrap_or(B::ZERO)
    }

    /// The square number of a bit index (0 for a ghost or out of range).
    #[inline(always)]
    pub fn square(&self, index: u32) -> u32 {
        self.layout
            .square_of_bit
            .get(index as usize)
            .copied()
            .unwrap_or(0)
    }

    /// The first piece of `pieces` met along direction `d` among the `seen` squares of a ray.
    #[inline(always)]
    pub fn nearest(&self, d: u8, seen: B) -> B {
        if self.up[d as usize] {
            seen.lowest()
        } else {
            seen.highest()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::RulesSpec;

    #[test]
    fn ten_by_ten_layout_is_scans() {
        let spec = RulesSpec {
            board_size: 10,
            rows_per_side: 4,
            ..RulesSpec::default()
        };
        let layout = Layout::new(&spec).unwrap();
        // Square 46 is (0, 0): bit 0; square 1 is (1, 9): (99 + 1) / 2 = 50.
        assert_eq!(layout.bit_of_square[46], 0);
        assert_eq!(layout.bit_of_square[1], 50);
        assert_eq!(layout.bits(), 55);
        assert_eq!(layout.shifts[NE as usize], 6);
        assert_eq!(layout.shifts[SW as usize], -6);
        assert_eq!(layout.shifts[NW as usize], 5);
        let t = Tables::<u64>::new(&spec, layout).unwrap();
        assert_eq!(t.start_men[0].count(), 20);
        assert_eq!(t.start_men[1].count(), 20);
        assert_eq!(t.crown_row[0].count(), 5);
        assert_eq!(t.board.count(), 50);
    }

    #[test]
    fn orthogonal_ten_by_ten_fits_64_bits() {
        let spec = RulesSpec {
            board_size: 10,
            rows_per_side: 4,
            men_capture: directions::ALL,
            ..RulesSpec::default()
        };
        let layout = Layout::new(&spec).unwrap();
        assert_eq!(layout.bits(), 64);
        assert_eq!(layout.shifts[E as usize], 1);
        assert_eq!(layout.shifts[N as usize], 13);
    }

    #[test]
    fn turns_exclude_reverse_without_immediate_removal() {
        let spec = RulesSpec {
            flying_kings: true,
            ..RulesSpec::default()
        };
        let t = Tables::<u64>::new(&spec, Layout::new(&spec).unwrap()).unwrap();
        assert_eq!(t.turns[0][NE as usize], vec![SE, NW]);
        assert_eq!(t.crowned_turns[0][NE as usize], vec![NE, SE, NW]);
    }
}

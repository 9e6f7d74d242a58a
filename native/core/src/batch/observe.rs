//! The observation planes and the constant planes' values of a game (the order of Python's
//! `draughts.ai.tensors._plane_names`), written into a game's row.

use smallvec::SmallVec;

use super::{Ctx, Game, Path, Scratch, FIXED_PLANES};
use crate::bitboard::Bits;

impl<B: Bits> Ctx<B> {
    /// The planes of `game` seen by its side to move (the order of Python's `_plane_names`),
    /// written into the scratch row, zero but for its constant planes (their values in
    /// `scratch.constants`): the constant planes rewritten where their values differ, the other
    /// floats set listed in `scratch.set` (for the caller to clear).
    pub(super) fn write_observation(&self, game: &Game<B>, scratch: &mut Scratch<B>) {
        let (row, set) = (&mut scratch.row, &mut scratch.set);
        fn put(row: &mut [u8], index: usize, value: f32) {
            row[index * 4..index * 4 + 4].copy_from_slice(&value.to_ne_bytes());
        }
        let mut set_one = |row: &mut [u8], index: usize, value: f32| {
            put(row, index, value);
            set.push(index as u32);
        };
        let node = &game.node;
        let side = node.color;
        let planes = self.enc.planes;
        let grid = &self.enc.grid[usize::from(side)];
        let cells = &self.bit_cells[usize::from(side)];
        let kings = node.kings;
        for (plane, bits) in [
            node.own & !kings,
            node.own & kings,
            node.opp & !kings,
            node.opp & kings,
        ]
        .into_iter()
        .enumerate()
        {
            for bit in bits.iter() {
                set_one(row, cells[bit as usize] as usize + plane, 1.0);
            }
        }
        if game.depth > 0 && game.live.len() > 1 && !game.over {
            if let Some(entry) = game.paths.get(game.live[0] as usize) {
                let path = &entry.path;
                set_one(row, grid[path[0] as usize] as usize * planes + 4, 1.0);
                set_one(
                    row,
                    grid[path[game.depth] as usize] as usize * planes + 5,
                    1.0,
                );
                for square in self.captured_along(side, entry, game.depth) {
                    set_one(row, grid[square as usize] as usize * planes + 6, 1.0);
                }
            }
        }
        let limit = self.gen.tables.king_move_limit;
        if limit > 0 {
            let layout = &self.gen.tables.layout;
            let state = self.gen.tables.state;
            for (plane, color) in [(FIXED_PLANES, side), (FIXED_PLANES + 1, side ^ 1)] {
                if let Some((bit, count)) = state.king_moves(node.state, color) {
                    let square = layout.square_of_bit.get(bit as usize).copied().unwrap_or(0);
                    let value = (count as f64 / limit as f64) as f32;
                    set_one(row, grid[square as usize] as usize * planes + plane, value);
                }
            }
        }
        let mut constants: SmallVec<[f32; 8]> = SmallVec::new();
        let spec = &self.spec;
        if spec.repetitions > 0 {
            let seen = f64::from(game.reps.max(1) - 1);
            constants.push((seen / f64::from(spec.repetitions - 1)).min(1.0) as f32);
        }
        for (rule, &count) in spec.move_counts.iter().zip(&game.counts) {
            constants.push(progress(count, rule.moves));
        }
        let since = game.since;
        constants.extend(spec.endgames.iter().map(|rule| progress(since, rule.moves)));
        let first = FIXED_PLANES + if limit > 0 { 2 } else { 0 };
        for (k, &value) in constants.iter().enumerate() {
            if scratch.constants.get(k).copied().unwrap_or(0.0) != value {
                let at = (first + k) * 4;
                for cell in row.chunks_exact_mut(planes * 4) {
                    cell[at..at + 4].copy_from_slice(&value.to_ne_bytes());
                }
            }
        }
        scratch.constants = constants;
    }

    /// The pieces `entry` captures on its first `segments` segments: those on a segment's line,
    /// nearer than its end.
    fn captured_along(&self, side: u8, entry: &Path, segments: usize) -> SmallVec<[u32; 8]> {
        let per_line = self.enc.max_distance as i32;
        let mut taken = SmallVec::new();
        for pair in entry.path[..=segments].windows(2) {
            let span = self.enc.segment(side, pair[0], pair[1]);
            for &square in &entry.captured {
                let on = self.enc.segment(side, pair[0], square);
                if 0 <= on && on < span && on / per_line == span / per_line {
                    taken.push(square);
                }
            }
        }
        taken
    }
}

/// How far `plies` is into a limit of `moves` moves each (1.0 at or past it; a limit of 0 is
/// reached at once).
pub(super) fn progress(plies: u64, moves: u64) -> f32 {
    if moves == 0 {
        1.0
    } else {
        (plies as f64 / (2.0 * moves as f64)).min(1.0) as f32
    }
}

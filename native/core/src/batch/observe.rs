//! The observation planes and the constant planes' values of a game (the order of Python's
//! `draughts.ai.tensors._plane_names`), written into a game's row.

use smallvec::SmallVec;

use super::{Ctx, Game, Path, Scratch, FIXED_PLANES};
use crate::bitboard::Bits;

/// Float `index` of `row` (bytes) set to `value`.
#[inline(always)]
fn put(row: &mut [u8], index: usize, value: [u8; 4]) {
    if let Some(float) = row.get_mut(index * 4..index * 4 + 4) {
        float.copy_from_slice(&value);
    }
}

const ONE: [u8; 4] = 1.0f32.to_ne_bytes();

/// The floats of the pieces of `planes` set to `value` in `row` (`cells`: the cell of each
/// bit; slices, not the vectors, so that their bounds stay in registers across the stores).
#[inline(always)]
fn put_pieces<B: Bits>(
    row: &mut [u8],
    cells: &[u32],
    planes: [B; 4],
    stride: usize,
    value: [u8; 4],
) {
    for (plane, bits) in planes.into_iter().enumerate() {
        for bit in bits.iter() {
            if let Some(&cell) = cells.get(bit as usize) {
                put(row, cell as usize * stride + plane, value);
            }
        }
    }
}

impl<B: Bits> Ctx<B> {
    /// The planes of `game` seen by its side to move (the order of Python's `_plane_names`),
    /// written into the scratch row over the last observation: its pieces and other floats
    /// cleared, the constant planes rewritten where their values differ (their values in
    /// `scratch.constants`).
    pub(super) fn write_observation(&self, game: &Game<B>, scratch: &mut Scratch<B>) {
        let row: &mut [u8] = &mut scratch.row;
        let planes = self.enc.planes;
        if let Some((side, pieces)) = scratch.pieces.take() {
            put_pieces(
                row,
                &self.bit_cells[usize::from(side)],
                pieces,
                planes,
                [0; 4],
            );
        }
        for &float in &scratch.extra {
            put(row, float as usize, [0; 4]);
        }
        scratch.extra.clear();
        let node = &game.node;
        let kings = node.kings;
        let pieces = [
            node.own & !kings,
            node.own & kings,
            node.opp & !kings,
            node.opp & kings,
        ];
        put_pieces(
            row,
            &self.bit_cells[usize::from(node.color)],
            pieces,
            planes,
            ONE,
        );
        scratch.pieces = Some((node.color, pieces));
        self.write_extras(game, row, &mut scratch.extra);
        let constants = self.constants(game);
        if constants != scratch.constants {
            self.write_constants(row, &constants);
            scratch.constants = constants;
        }
    }

    /// The floats of a capture being chosen and of the king counts, listed in `extra`.
    fn write_extras(&self, game: &Game<B>, row: &mut [u8], extra: &mut SmallVec<[u32; 8]>) {
        let node = &game.node;
        let side = node.color;
        let planes = self.enc.planes;
        let grid = &self.enc.grid[usize::from(side)];
        let mut set = |index: usize, value: f32| {
            put(row, index, value.to_ne_bytes());
            extra.push(index as u32);
        };
        if game.depth > 0 && game.live.len() > 1 && !game.over {
            if let Some(entry) = game.paths.get(game.live[0] as usize) {
                let path = &entry.path;
                set(grid[path[0] as usize] as usize * planes + 4, 1.0);
                set(grid[path[game.depth] as usize] as usize * planes + 5, 1.0);
                for square in self.captured_along(side, entry, game.depth) {
                    set(grid[square as usize] as usize * planes + 6, 1.0);
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
                    set(grid[square as usize] as usize * planes + plane, value);
                }
            }
        }
    }

    /// The constant planes' values of `game` (each draw rule's progress).
    fn constants(&self, game: &Game<B>) -> SmallVec<[f32; 8]> {
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
        constants
    }

    /// Every cell's constant planes (the last planes of a cell) set to `constants`, in one pass.
    fn write_constants(&self, row: &mut [u8], constants: &[f32]) {
        let stride = self.enc.planes * 4;
        let at = stride - constants.len() * 4;
        let mut tail = [0u8; 32];
        for (bytes, value) in tail.chunks_exact_mut(4).zip(constants) {
            bytes.copy_from_slice(&value.to_ne_bytes());
        }
        // Fixed-size copies for the usual counts of draw rules (a slice of a length known only at
        // run time would be a call to `memcpy` per cell).
        fn fill<const N: usize>(row: &mut [u8], stride: usize, at: usize, tail: &[u8; 32]) {
            let mut value = [0u8; N];
            value.copy_from_slice(&tail[..N]);
            for cell in row.chunks_exact_mut(stride) {
                if let Some(dst) = cell.get_mut(at..at + N) {
                    dst.copy_from_slice(&value);
                }
            }
        }
        match constants.len() {
            0 => {}
            1 => fill::<4>(row, stride, at, &tail),
            2 => fill::<8>(row, stride, at, &tail),
            3 => fill::<12>(row, stride, at, &tail),
            4 => fill::<16>(row, stride, at, &tail),
            _ => {
                for cell in row.chunks_exact_mut(stride) {
                    for (k, value) in constants.iter().enumerate() {
                        put(cell, at / 4 + k, value.to_ne_bytes());
                    }
                }
            }
        }
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

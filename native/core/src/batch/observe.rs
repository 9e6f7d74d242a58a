//! The observation planes and the constant planes' values of a game (the order of Python's
//! `draughts.ai.tensors._plane_names`), written into the game's own row of the output in place:
//! only the floats that differ from what the row holds (what [`View`] remembers of it).

use smallvec::SmallVec;

use super::{Ctx, Game, Path, FIXED_PLANES};
use crate::bitboard::Bits;
use crate::state::{Compact, Node};

/// A row of floats as their bytes (native endianness).
type Floats = [[u8; 4]];

/// Float `index` of `row` set to `value`.
#[inline(always)]
fn put(row: &mut Floats, index: usize, value: [u8; 4]) {
    if let Some(float) = row.get_mut(index) {
        *float = value;
    }
}

const ONE: [u8; 4] = 1.0f32.to_ne_bytes();

/// The most cells a board may have for its rows to be updated by difference (a piece plane's
/// cells as one `u128`); a larger board's rows are written whole at every step.
pub(super) const DIFF_CELLS: usize = 128;

/// What a game's observation row holds, so that the next observation writes only the floats
/// that change: a ply moves a few pieces, and although the board turns with the side to move,
/// many cells show the same as before (the opening looks alike from both ends).
#[derive(Clone, Debug, Default)]
pub(super) struct View {
    /// The row holds what the rest says (false: unknown, the row is rewritten whole next time).
    valid: bool,
    /// The cells set in each of the four piece planes (boards of at most [`DIFF_CELLS`] cells).
    pieces: [u128; 4],
    /// The other floats set (a capture being chosen, the king counts), as float indices.
    extra: SmallVec<[u32; 6]>,
    /// The constant planes' values in the row.
    constants: SmallVec<[f32; 6]>,
}

impl View {
    /// Forgets what the row holds: the next observation rewrites it whole.
    pub(super) fn forget(&mut self) {
        self.valid = false;
    }
}

/// The floats of the pieces of `planes` set to `value` in `row` (`cells`: the cell of each
/// bit; slices, not the vectors, so that their bounds stay in registers across the stores).
#[inline(always)]
fn put_pieces<B: Bits>(
    row: &mut Floats,
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

/// The cells of `bits` as one set (`masks`: each bit's cell as a set of one, none for a bit
/// that is no square).
#[inline(always)]
fn cell_set<B: Bits>(masks: &[u128], bits: B) -> u128 {
    let mut set = 0;
    for bit in bits.iter() {
        set |= masks.get(bit as usize).copied().unwrap_or(0);
    }
    set
}

/// The four piece floats of a cell (own men, own kings, opponent's men, opponent's kings) by
/// whether the side to move has a piece there (bit 0), the opponent (bit 1), a king (bit 2):
/// one 16-byte store a cell.
const PIECE_FLOATS: [[[u8; 4]; 4]; 8] = {
    let mut table = [[[0; 4]; 4]; 8];
    table[0b001][0] = ONE;
    table[0b101][1] = ONE;
    table[0b010][2] = ONE;
    table[0b110][3] = ONE;
    table
};

/// The piece planes (the first four of a cell) of the cells in `changed` rewritten in `row`
/// from the cells of the side to move's pieces, the opponent's and the kings, a cell's four
/// floats at once (the stores, not the instructions, bound a step: a ply changes about 18
/// cells, 33 floats), word by word (a board of at most 64 cells has an empty second).
#[inline(always)]
fn rewrite_pieces(row: &mut Floats, stride: usize, changed: u128, [own, opp, kings]: [u128; 3]) {
    for (shift, base) in [(0u32, 0usize), (64, 64)] {
        let mut left = (changed >> shift) as u64;
        if left == 0 {
            continue;
        }
        let (own, opp, kings) = (
            (own >> shift) as u64,
            (opp >> shift) as u64,
            (kings >> shift) as u64,
        );
        while left != 0 {
            let at = left.trailing_zeros();
            left &= left - 1;
            let code = (own >> at & 1) | (opp >> at & 1) << 1 | (kings >> at & 1) << 2;
            let start = (base + at as usize) * stride;
            if let Some(cell) = row.get_mut(start..start + 4) {
                cell.copy_from_slice(&PIECE_FLOATS[code as usize]);
            }
        }
    }
}

/// Per side, each bit's cell as a set of one (0 for a bit that is no square), for a board of at
/// most [`DIFF_CELLS`] cells (none for a larger one).
pub(super) fn cell_masks(bit_cells: &[Vec<u32>; 2], cells: usize) -> [Vec<u128>; 2] {
    if cells > DIFF_CELLS {
        return [Vec::new(), Vec::new()];
    }
    bit_cells.clone().map(|side| {
        side.iter()
            .map(|&cell| {
                if (cell as usize) < cells {
                    1u128 << cell
                } else {
                    0
                }
            })
            .collect()
    })
}

impl<B: Bits> Ctx<B> {
    /// The planes of `game` seen by its side to move (the order of Python's `_plane_names`),
    /// written into `row`, the game's row, over what it holds (`view`): the piece planes' cells
    /// that changed, the other floats cleared and set again, the constant planes rewritten where
    /// their values differ. A row `view` does not know (or a board too large to update by
    /// difference) is cleared and written whole.
    pub(super) fn write_observation(&self, game: &Game<B>, view: &mut View, row: &mut [u8]) {
        let row = row.as_chunks_mut::<4>().0;
        let planes = self.enc.planes;
        let diff = !self.cell_masks[0].is_empty();
        let whole = !(diff && view.valid);
        if whole {
            row.fill([0; 4]);
            view.pieces = [0; 4];
            view.extra.clear();
            view.constants.clear();
            view.constants.resize(self.constants_len(), 0.0);
            view.valid = diff;
        }
        for &float in &view.extra {
            put(row, float as usize, [0; 4]);
        }
        view.extra.clear();
        let node = &game.node;
        let side = usize::from(node.color & 1);
        if diff {
            // A row written whole reads the node itself (what the kept sets must equal).
            let sets = if whole {
                self.cells_of(node)[side]
            } else {
                game.cells[side]
            };
            let (own, opp, kings) = (sets[side], sets[1 - side], sets[2]);
            let now = [own & !kings, own & kings, opp & !kings, opp & kings];
            let changed = now
                .iter()
                .zip(&view.pieces)
                .fold(0, |changed, (now, shown)| changed | (now ^ shown));
            rewrite_pieces(row, planes, changed, [own, opp, kings]);
            view.pieces = now;
        } else {
            let kings = node.kings;
            let pieces = [
                node.own & !kings,
                node.own & kings,
                node.opp & !kings,
                node.opp & kings,
            ];
            put_pieces(row, &self.bit_cells[side], pieces, planes, ONE);
        }
        self.write_extras(game, row, &mut view.extra);
        self.write_constants(game, row, &mut view.constants);
    }

    /// The cells of White's pieces, of Black's and of the kings in `node`, seen from each side
    /// (none on a board too large to update its rows by difference).
    pub(super) fn cells_of(&self, node: &Node<B>) -> [[u128; 3]; 2] {
        let (white, black) = if node.color & 1 == 0 {
            (node.own, node.opp)
        } else {
            (node.opp, node.own)
        };
        [0, 1].map(|o| {
            let masks = &self.cell_masks[o];
            [white, black, node.kings].map(|bits| cell_set(masks, bits))
        })
    }

    /// `cells` (see [`Ctx::cells_of`]) after the move `c` by `mover`: only its few bits.
    #[inline(always)]
    pub(super) fn move_cells(&self, cells: &mut [[u128; 3]; 2], mover: u8, c: &Compact<B>) {
        if self.cell_masks[0].is_empty() {
            return;
        }
        let mover = usize::from(mover & 1);
        for (sets, masks) in cells.iter_mut().zip(&self.cell_masks) {
            sets[mover] ^= cell_set(masks, c.moved);
            sets[1 - mover] ^= cell_set(masks, c.captured);
            sets[2] ^= cell_set(masks, c.crowned);
        }
    }

    /// How many constant planes there are (the draw rules' progress).
    fn constants_len(&self) -> usize {
        let spec = &self.spec;
        usize::from(spec.repetitions > 0) + spec.move_counts.len() + spec.endgames.len()
    }

    /// The floats of a capture being chosen and of the king counts, listed in `extra`.
    fn write_extras(&self, game: &Game<B>, row: &mut Floats, extra: &mut SmallVec<[u32; 6]>) {
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

    /// The constant planes' values of `game` (each draw rule's progress), in order: `visit(k,
    /// value)` for the `k`th. (No list is built: a list built on the stack and moved would be
    /// read back while its stores wait behind the row's, a stall of every store before them.)
    fn each_constant(&self, game: &Game<B>, mut visit: impl FnMut(usize, f32)) {
        let spec = &self.spec;
        let mut k = 0;
        if spec.repetitions > 0 {
            let seen = f64::from(game.reps.max(1) - 1);
            visit(k, (seen / f64::from(spec.repetitions - 1)).min(1.0) as f32);
            k += 1;
        }
        for (rule, &count) in spec.move_counts.iter().zip(&game.counts) {
            visit(k, progress(count, rule.moves));
            k += 1;
        }
        for rule in &spec.endgames {
            visit(k, progress(game.since, rule.moves));
            k += 1;
        }
    }

    /// The constant planes (the last planes of a cell) whose values differ from `shown`
    /// rewritten in every cell, one plane at a time (a ply changes one count), and `shown`
    /// updated.
    fn write_constants(&self, game: &Game<B>, row: &mut Floats, shown: &mut [f32]) {
        let stride = self.enc.planes;
        let first = stride - shown.len();
        self.each_constant(game, |k, value| {
            let Some(old) = shown.get_mut(k) else {
                return;
            };
            if value.to_bits() == old.to_bits() {
                return;
            }
            *old = value;
            let bytes = value.to_ne_bytes();
            let mut index = first + k;
            while let Some(float) = row.get_mut(index) {
                *float = bytes;
                index += stride;
            }
        });
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

//! Colour symmetry: a material's table made from its colour-swapped twin's, with no search.
//!
//! Where the rules treat both colours alike, the position with colours exchanged, the board
//! turned (a bit permutation, given) and the other side to move is the same game for the side to
//! move: `MKKvK` with White to move is `KvMKK` with Black to move, turned. So the value, the
//! distance and the code within the rules of each entry are read from the twin's entry. Which
//! rulesets qualify is decided by the caller (`draughts.endgame.symmetry`).
//!
//! The entries are walked in order (each group unranked only when it changes), split between
//! threads by chunks; the twin's table is read as its file packs it.

use super::index::{Indexer, Unranked};
use super::{parallel, HOLE};
use crate::bitboard::Bits;
use crate::error::Error;

/// Entries a thread takes at a time.
const CHUNK: usize = 1 << 18;

/// A solved table as its file packs it: codes (2 bits), distances (`plies_bits` bits), codes
/// within the rules (2 bits, if any).
#[derive(Clone, Copy, Debug)]
pub struct Packed<'a> {
    /// The codes.
    pub codes: &'a [u8],
    /// The distances.
    pub plies: &'a [u8],
    /// The width of a distance.
    pub plies_bits: u32,
    /// The codes within the rules.
    pub within: Option<&'a [u8]>,
}

/// A table made from its twin: one code, one distance and one code within the rules an entry.
#[derive(Clone, Debug, Default)]
pub struct Mirrored {
    /// Per entry: the code ([`HOLE`] for no position).
    pub codes: Vec<u8>,
    /// Per entry: the distance in plies.
    pub plies: Vec<u16>,
    /// Per entry: the code within the rules, where the twin has them.
    pub within: Option<Vec<u8>>,
}

/// Bytes that `count` fields of `bits` bits take, packed (whole groups of eight).
fn packed_size(count: u64, bits: u32) -> u64 {
    count.div_ceil(8) * u64::from(bits)
}

/// The `index`-th `bits`-bit field of `data` (`bits` at most 16), little-endian.
#[inline]
fn field(data: &[u8], index: u64, bits: u32) -> u16 {
    if bits == 0 {
        return 0;
    }
    let start = index * u64::from(bits);
    let (first, offset) = ((start / 8) as usize, (start % 8) as u32);
    let mut chunk: u32 = 0;
    for k in 0..(offset + bits).div_ceil(8) as usize {
        chunk |= u32::from(data[first + k]) << (8 * k);
    }
    ((chunk >> offset) & ((1 << bits) - 1)) as u16
}

/// `pieces` with each bit moved where `turn` sends it.
#[inline]
fn turned<B: Bits>(pieces: B, turn: &[u32]) -> B {
    let mut out = B::ZERO;
    for bit in pieces.iter() {
        out |= B::bit(turn[bit as usize]);
    }
    out
}

/// Checks that `turn` is a permutation of the board's bits.
fn check_turn<B: Bits>(indexer: &Indexer<B>, turn: &[u32]) -> Result<(), Error> {
    let bad = || {
        Error::InvalidSpec(format!(
            "the turn given ({} bits) is not a permutation of the board",
            turn.len()
        ))
    };
    let mut image = B::ZERO;
    for bit in indexer.board.iter() {
        let to = *turn.get(bit as usize).ok_or_else(bad)?;
        if to >= B::BITS || (B::bit(to) & !indexer.board).any() {
            return Err(bad());
        }
        image |= B::bit(to);
    }
    if image.count() != indexer.board.count() {
        return Err(bad());
    }
    Ok(())
}

/// The table of `indexer`'s material from `source`, the table of `twin`'s (the material with the
/// colours exchanged), the board turned by `turn` (per bit, the bit it goes to), on `workers`
/// threads.
///
/// # Errors
/// [`Error::InvalidSpec`] if `twin` is not the colour-swapped material, `turn` is not a
/// permutation of the board, or the sections are not of the twin's size.
pub fn mirror_table<B: Bits>(
    indexer: &Indexer<B>,
    twin: &Indexer<B>,
    source: Packed<'_>,
    turn: &[u32],
    workers: usize,
) -> Result<Mirrored, Error> {
    let [wm, bm, wk, bk] = indexer.counts;
    if twin.counts != [bm, wm, bk, wk] {
        return Err(Error::InvalidSpec(format!(
            "material {:?} is not the colour-swapped twin of {:?}",
            twin.counts, indexer.counts
        )));
    }
    check_turn(indexer, turn)?;
    let size = twin.size;
    let sizes_ok = source.plies_bits <= 16
        && source.codes.len() as u64 == packed_size(size, 2)
        && source.plies.len() as u64 == packed_size(size, source.plies_bits)
        && source
            .within
            .is_none_or(|w| w.len() as u64 == packed_size(size, 2));
    if !sizes_ok {
        return Err(Error::InvalidSpec(format!(
            "the twin's sections are not those of {size} entries ({} bytes of codes, {} of \
             {}-bit distances)",
            source.codes.len(),
            source.plies.len(),
            source.plies_bits
        )));
    }
    let size = usize::try_from(indexer.size)
        .map_err(|_| Error::InvalidSpec(format!("material {:?} too large", indexer.counts)))?;
    let mut out = Mirrored {
        codes: vec![HOLE; size],
        plies: vec![0; size],
        within: source.within.map(|_| vec![HOLE; size]),
    };
    {
        let within_chunks: Vec<Option<&mut [u8]>> = match out.within.as_mut() {
            Some(w) => w.chunks_mut(CHUNK).map(Some).collect(),
            None => (0..size.div_ceil(CHUNK)).map(|_| None).collect(),
        };
        let items: Vec<_> = out
            .codes
            .chunks_mut(CHUNK)
            .zip(out.plies.chunks_mut(CHUNK))
            .zip(within_chunks)
            .enumerate()
            .map(|(n, ((codes, plies), within))| (n * CHUNK, codes, plies, within))
            .collect();
        parallel(items, workers, |(start, codes, plies, within)| {
            fill(
                indexer,
                twin,
                source,
                turn,
                start as u64,
                codes,
                plies,
                within,
            );
            Ok::<(), Error>(())
        })?;
    }
    Ok(out)
}

/// Fills one chunk of entries, from `start`.
#[allow(clippy::too_many_arguments)]
fn fill<B: Bits>(
    indexer: &Indexer<B>,
    twin: &Indexer<B>,
    source: Packed<'_>,
    turn: &[u32],
    start: u64,
    codes: &mut [u8],
    plies: &mut [u16],
    mut within: Option<&mut [u8]>,
) {
    let placements = indexer.placements;
    let mut last = Unranked::default();
    for (offset, (code, ply)) in codes.iter_mut().zip(plies.iter_mut()).enumerate() {
        let index = start + offset as u64;
        let (side, rank) = ((index / placements) as u8, index % placements);
        let Some((white, black, kings)) = indexer.unrank_with(rank, &mut last) else {
            continue; // a hole: HOLE, 0, HOLE as the solver leaves it
        };
        let other = twin.index(
            turned(black, turn),
            turned(white, turn),
            turned(kings, turn),
            1 - side,
        );
        *code = field(source.codes, other, 2) as u8;
        *ply = field(source.plies, other, source.plies_bits);
        if let (Some(out), Some(data)) = (within.as_deref_mut(), source.within) {
            out[offset] = field(data, other, 2) as u8;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_read_as_packed() {
        // Values 0..8 of 5 bits, packed little-endian as draughts.endgame.storage packs them.
        let mut data = vec![0u8; 5];
        for (i, value) in (0u64..8).enumerate() {
            let start = i * 5;
            let shifted = u64::from(u8::try_from(value * 3).unwrap()) << (start % 8);
            for k in 0..2 {
                if start / 8 + k < data.len() {
                    data[start / 8 + k] |= (shifted >> (8 * k)) as u8;
                }
            }
        }
        for i in 0..8 {
            assert_eq!(u64::from(field(&data, i, 5)), i * 3);
        }
        assert_eq!(packed_size(9, 2), 4);
    }
}

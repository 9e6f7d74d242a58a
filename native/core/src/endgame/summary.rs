//! What a table file needs besides the values: the header's counts and longest wins, and the
//! packed sections, in native passes split between threads.
//!
//! In Python these passes took about a quarter of a six-piece build's CPU (some 90 ns an entry:
//! the longest win read through `compress` and `map`, the widest distance through `max`, on the
//! one thread between two solves); here they take about a nanosecond an entry.

use std::sync::Mutex;

use super::{parallel, DRAW, LOSS, WIN};

/// Entries a thread counts or packs at a time (a multiple of 8: packing goes by groups of 8).
const CHUNK: usize = 1 << 20;

/// The counts of a run of entries (one side to move of a table, or of one slice).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Entries by code: `[draws, wins, losses]` (holes not counted).
    pub counts: [u64; 3],
    /// Entries by code within the rules, likewise (all 0 without those codes).
    pub within: [u64; 3],
    /// The longest distance of a won entry (`None`: no win).
    pub longest_win: Option<u16>,
    /// The longest distance of any entry (draws and holes store 0).
    pub widest: u16,
}

impl Tally {
    /// Adds `other`'s counts and maxima to these.
    fn merge(&mut self, other: &Tally) {
        for (mine, theirs) in self.counts.iter_mut().zip(other.counts) {
            *mine += theirs;
        }
        for (mine, theirs) in self.within.iter_mut().zip(other.within) {
            *mine += theirs;
        }
        self.longest_win = match (self.longest_win, other.longest_win) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        self.widest = self.widest.max(other.widest);
    }

    /// The counts of `codes`, their distances `plies` (2 bytes each, little-endian) and the
    /// codes within the rules `within` (as many as `codes`, or none).
    fn of(codes: &[u8], plies: &[u8], within: Option<&[u8]>) -> Tally {
        let mut counts = [0u64; 256];
        let (mut longest, mut widest, mut won) = (0u16, 0u16, false);
        for (&code, pair) in codes.iter().zip(plies.chunks_exact(2)) {
            let distance = u16::from_le_bytes([pair[0], pair[1]]);
            counts[usize::from(code)] += 1;
            widest = widest.max(distance);
            if code == WIN {
                won = true;
                longest = longest.max(distance);
            }
        }
        let mut inside = [0u64; 256];
        for &code in within.unwrap_or(&[]) {
            inside[usize::from(code)] += 1;
        }
        let pick = |all: [u64; 256]| [all[DRAW as usize], all[WIN as usize], all[LOSS as usize]];
        Tally {
            counts: pick(counts),
            within: pick(inside),
            longest_win: won.then_some(longest),
            widest,
        }
    }
}

/// The tallies of consecutive runs of `run` entries (the last may be shorter): `codes` one byte
/// an entry, `plies` two (little-endian), `within` one (or none), counted on `workers` threads.
/// A table's two sides to move are two runs of its placements; a part's slices, runs of the
/// placements of a slice (the sides to move alternating).
///
/// # Panics
/// If `plies` is not two bytes an entry or `within` not one (the caller checks).
pub fn tally_runs(
    codes: &[u8],
    plies: &[u8],
    within: Option<&[u8]>,
    run: usize,
    workers: usize,
) -> Vec<Tally> {
    assert_eq!(plies.len(), 2 * codes.len(), "two bytes of plies an entry");
    assert!(
        within.is_none_or(|w| w.len() == codes.len()),
        "a code within the rules an entry"
    );
    let run = run.max(1);
    let runs = codes.len().div_ceil(run);
    let totals: Vec<Mutex<Tally>> = (0..runs).map(|_| Mutex::new(Tally::default())).collect();
    let mut pieces = Vec::new();
    for number in 0..runs {
        let (low, high) = (number * run, ((number + 1) * run).min(codes.len()));
        for start in (low..high).step_by(CHUNK) {
            pieces.push((number, start, (start + CHUNK).min(high)));
        }
    }
    let result: Result<(), ()> = parallel(pieces, workers, |(number, low, high)| {
        let tally = Tally::of(
            &codes[low..high],
            &plies[2 * low..2 * high],
            within.map(|w| &w[low..high]),
        );
        if let Ok(mut total) = totals[number].lock() {
            total.merge(&tally);
        }
        Ok(())
    });
    debug_assert!(result.is_ok());
    totals
        .into_iter()
        .map(|total| total.into_inner().unwrap_or_default())
        .collect()
}

/// `values` (`itemsize`-byte little-endian unsigned ints, `itemsize` from 1 to 8) as `bits`-bit
/// fields, little-endian, eight to `bits` bytes (the last group padded with zeros): the table
/// files' packing (`draughts.endgame.storage.pack`), on `workers` threads.
///
/// # Panics
/// If `itemsize` is not from 1 to 8 or `bits` above 64 (the caller checks).
pub fn pack(values: &[u8], itemsize: usize, bits: u32, workers: usize) -> Vec<u8> {
    assert!(
        (1..=8).contains(&itemsize) && bits <= 64,
        "pack: itemsize {itemsize}, bits {bits}"
    );
    let count = values.len() / itemsize;
    let width = bits as usize;
    let mut out = vec![0u8; count.div_ceil(8) * width];
    if bits == 0 {
        return out;
    }
    let values = &values[..count * itemsize];
    let jobs: Vec<(&[u8], &mut [u8])> = values
        .chunks(CHUNK * itemsize)
        .zip(out.chunks_mut(CHUNK / 8 * width))
        .collect();
    let result: Result<(), ()> = parallel(jobs, workers, |(values, out)| {
        pack_chunk(values, itemsize, bits, out);
        Ok(())
    });
    debug_assert!(result.is_ok());
    out
}

/// The `itemsize`-byte little-endian value `item`.
#[inline]
fn value_of(item: &[u8]) -> u64 {
    match item {
        [a] => u64::from(*a),
        [a, b] => u64::from(u16::from_le_bytes([*a, *b])),
        _ => {
            let mut raw = [0u8; 8];
            raw[..item.len()].copy_from_slice(item);
            u64::from_le_bytes(raw)
        }
    }
}

/// Packs one chunk (whole groups of 8 but perhaps the last) into `out`.
fn pack_chunk(values: &[u8], itemsize: usize, bits: u32, out: &mut [u8]) {
    let width = bits as usize;
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    for (group, target) in values.chunks(8 * itemsize).zip(out.chunks_mut(width)) {
        if bits <= 16 {
            // Eight fields of at most 16 bits: one 128-bit word.
            let mut word: u128 = 0;
            for (k, item) in group.chunks_exact(itemsize).enumerate() {
                word |= u128::from(value_of(item) & mask) << (k as u32 * bits);
            }
            target.copy_from_slice(&word.to_le_bytes()[..width]);
            continue;
        }
        for (k, item) in group.chunks_exact(itemsize).enumerate() {
            let start = k * width;
            let (byte, offset) = (start / 8, start % 8);
            let shifted = u128::from(value_of(item) & mask) << offset;
            for (j, slot) in target[byte..]
                .iter_mut()
                .take((offset + width).div_ceil(8))
                .enumerate()
            {
                *slot |= (shifted >> (8 * j)) as u8;
            }
        }
    }
}

/// `plies` as little-endian bytes, two an entry (what Python reads into an `array("H")`).
pub fn le_bytes(plies: &[u16]) -> Vec<u8> {
    let mut out = vec![0u8; 2 * plies.len()];
    for (pair, &distance) in out.chunks_exact_mut(2).zip(plies) {
        pair.copy_from_slice(&distance.to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::endgame::HOLE;

    /// The packing one field at a time (the former binding's loop).
    fn naive_pack(values: &[u8], itemsize: usize, bits: u32) -> Vec<u8> {
        let count = values.len() / itemsize;
        let mut out = vec![0u8; count.div_ceil(8) * bits as usize];
        for (i, item) in values.chunks_exact(itemsize).enumerate() {
            let value = u128::from(value_of(item)) & ((1u128 << bits) - 1);
            let start = i * bits as usize;
            let (byte, offset) = (start / 8, start % 8);
            let shifted = value << offset;
            for k in 0..(offset + bits as usize).div_ceil(8) {
                out[byte + k] |= (shifted >> (8 * k)) as u8;
            }
        }
        out
    }

    /// A reproducible byte stream (no dependency for a random one).
    fn bytes(count: usize, seed: u64) -> Vec<u8> {
        let mut state = seed;
        (0..count)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (state >> 33) as u8
            })
            .collect()
    }

    #[test]
    fn packing_by_words_and_threads_is_the_packing_field_by_field() {
        for (itemsize, bits) in [
            (1, 2),
            (2, 7),
            (2, 9),
            (2, 16),
            (1, 0),
            (4, 17),
            (8, 64),
            (8, 33),
        ] {
            for count in [0, 1, 7, 8, 9, CHUNK - 1, CHUNK + 13, 2 * CHUNK + 8] {
                let values = bytes(
                    count * itemsize,
                    (count * itemsize) as u64 + u64::from(bits),
                );
                let expected = naive_pack(&values, itemsize, bits);
                for workers in [1, 3] {
                    assert_eq!(
                        pack(&values, itemsize, bits, workers),
                        expected,
                        "{itemsize} {bits} {count}"
                    );
                }
            }
        }
    }

    #[test]
    fn tallies_of_runs_count_each_run_as_a_loop_over_it_does() {
        let size = 2 * CHUNK + 1000;
        let codes: Vec<u8> = bytes(size, 1).into_iter().map(|b| b % 4).collect();
        let within: Vec<u8> = bytes(size, 2).into_iter().map(|b| b % 4).collect();
        let plies: Vec<u16> = bytes(size, 3)
            .into_iter()
            .map(|b| u16::from(b) * 3)
            .collect();
        let raw = le_bytes(&plies);
        for run in [size.div_ceil(2), 3000, size] {
            let runs = tally_runs(&codes, &raw, Some(&within), run, 2);
            assert_eq!(runs.len(), size.div_ceil(run));
            for (number, tally) in runs.iter().enumerate() {
                let range = number * run..((number + 1) * run).min(size);
                let count = |data: &[u8], code: u8| {
                    data[range.clone()].iter().filter(|&&c| c == code).count() as u64
                };
                assert_eq!(
                    tally.counts,
                    [count(&codes, DRAW), count(&codes, WIN), count(&codes, LOSS)]
                );
                assert_eq!(
                    tally.within,
                    [
                        count(&within, DRAW),
                        count(&within, WIN),
                        count(&within, LOSS)
                    ]
                );
                let won = range
                    .clone()
                    .filter(|&i| codes[i] == WIN)
                    .map(|i| plies[i])
                    .max();
                assert_eq!(tally.longest_win, won);
                assert_eq!(
                    tally.widest,
                    range.clone().map(|i| plies[i]).max().unwrap_or(0)
                );
            }
        }
        let none = tally_runs(&[HOLE, DRAW], &[5, 0, 0, 0], None, 2, 1);
        assert_eq!(
            none,
            vec![Tally {
                counts: [1, 0, 0],
                within: [0; 3],
                longest_win: None,
                widest: 5
            }]
        );
    }
}

//! Solving a material slice by slice: each placement of the men is a *slice* (the kings placed
//! every way around them, both sides to move), and a man's quiet move always takes its man a
//! row further, into a slice whose men have come further. So the slices are solved furthest
//! first, level by level of how far their men have come: a king's move stays in its slice (an
//! edge, as in the whole solve), a man's reaches a slice solved already (read like an exit). The
//! slices of one level are independent and solved at the same time, a frame of slices per
//! thread; memory is the material's values (about 6 bytes an entry) and the working arrays of
//! the frames being solved, not the whole material's moves.
//!
//! The values are those of the whole solve (each is the unique game-theoretic value, and the
//! verdicts within the rules carry the budget a man's move passes on: the plies since the
//! material arose count on, the plies since a man moved start again).

use std::sync::Mutex;

use super::index::Indexer;
use super::solve::{Exit, Frame, Known, Solved, Solver};
use super::within::{Plan, INF};
use super::{parallel, HOLE};
use crate::bitboard::Bits;
use crate::error::Error;
use crate::generator::Generator;

/// Entries a frame of slices holds at least (unless one slice is larger).
const FRAME: u64 = 1 << 16;

/// Solves the material of `indexer`: slice by slice where `advance` (per colour and bit, how far
/// a man there has come; each man's quiet move must add to it) is given and the material has
/// men, else whole on `workers` threads.
///
/// # Errors
/// As [`Solver::solve`].
pub fn solve_material<B, F>(
    g: &Generator<B>,
    indexer: &Indexer<B>,
    exit: &F,
    workers: usize,
    plan: Option<&Plan>,
    advance: Option<&[Vec<u16>; 2]>,
) -> Result<Solved, Error>
where
    B: Bits,
    F: Fn(B, B, B, u8) -> Result<Exit, Error> + Sync,
{
    let men = indexer.counts[0] + indexer.counts[1];
    let Some(advance) = advance.filter(|_| men > 0) else {
        let frame = Frame::whole(indexer);
        return Solver {
            g,
            indexer,
            exit,
            workers,
            frame,
        }
        .solve(plan);
    };
    let per = indexer.radix[2] * indexer.radix[3];
    let levels = levels(indexer, per, advance);
    let size = usize::try_from(indexer.size).unwrap_or(usize::MAX);
    let mut known = Known {
        codes: vec![HOLE; size],
        plies: vec![0; size],
        within: plan.map(|_| vec![HOLE; size]),
        budgets: plan.map_or_else(Vec::new, |_| vec![INF as i16; size]),
        slots: None,
    };
    let mut edges = 0;
    for level in levels.iter().rev() {
        let slices: Vec<u64> = level.iter().map(|&s| u64::from(s)).collect();
        for (slices, solved) in solve_slices(g, indexer, exit, workers, plan, &slices, &known)? {
            edges += solved.edges;
            store(&mut known, indexer, per, &slices, &solved);
        }
    }
    Ok(Solved {
        codes: known.codes,
        plies: known.plies,
        within: known.within,
        budgets: known.budgets,
        edges,
    })
}

/// Solves `slices` (all of one level: no man's move joins them) in frames on `workers` threads,
/// a man's move read from `known`; each frame's slices with their values (frame layout).
///
/// # Errors
/// As [`Solver::solve`].
pub fn solve_slices<B, F>(
    g: &Generator<B>,
    indexer: &Indexer<B>,
    exit: &F,
    workers: usize,
    plan: Option<&Plan>,
    slices: &[u64],
    known: &Known,
) -> Result<Vec<(Vec<u64>, Solved)>, Error>
where
    B: Bits,
    F: Fn(B, B, B, u8) -> Result<Exit, Error> + Sync,
{
    let per = indexer.radix[2] * indexer.radix[3];
    let group = FRAME.div_ceil(2 * per).max(1) as usize;
    let frames: Vec<Vec<u64>> = slices.chunks(group).map(<[u64]>::to_vec).collect();
    let done = Mutex::new(Vec::new());
    parallel(frames, workers, |slices| {
        let frame = Frame {
            slices: slices.clone(),
            per,
            known: Some(known),
        };
        let solved = Solver {
            g,
            indexer,
            exit,
            workers: 1,
            frame,
        }
        .solve(plan)?;
        if let Ok(mut done) = done.lock() {
            done.push((slices, solved));
        }
        Ok(())
    })?;
    let mut done = done.into_inner().unwrap_or_default();
    done.sort_by_key(|(slices, _)| slices.first().copied());
    Ok(done)
}

/// A part of a material solved on its own (a task of a distributed build): `slices`, all of one
/// level, a man's move read from `known` (which holds the slices of the next level, see
/// [`super::solve::Slots`]). The values of the part's slices in the order given, each slice's
/// `2 * per` entries as a frame lays them out (both sides to move).
///
/// # Errors
/// As [`Solver::solve`].
pub fn solve_part<B, F>(
    g: &Generator<B>,
    indexer: &Indexer<B>,
    exit: &F,
    workers: usize,
    plan: Option<&Plan>,
    slices: &[u64],
    known: &Known,
) -> Result<Solved, Error>
where
    B: Bits,
    F: Fn(B, B, B, u8) -> Result<Exit, Error> + Sync,
{
    let span = 2 * (indexer.radix[2] * indexer.radix[3]) as usize;
    let size = slices.len() * span;
    let mut out = Solved {
        codes: vec![HOLE; size],
        plies: vec![0; size],
        within: plan.map(|_| vec![HOLE; size]),
        budgets: plan.map_or_else(Vec::new, |_| vec![INF as i16; size]),
        edges: 0,
    };
    let place: std::collections::HashMap<u64, usize> =
        slices.iter().enumerate().map(|(j, &s)| (s, j)).collect();
    for (frame, solved) in solve_slices(g, indexer, exit, workers, plan, slices, known)? {
        out.edges += solved.edges;
        for (k, slice) in frame.iter().enumerate() {
            let (from, to) = (k * span..(k + 1) * span, place[slice] * span);
            let to = to..to + span;
            out.codes[to.clone()].copy_from_slice(&solved.codes[from.clone()]);
            out.plies[to.clone()].copy_from_slice(&solved.plies[from.clone()]);
            if let (Some(all), Some(part)) = (out.within.as_mut(), solved.within.as_ref()) {
                all[to.clone()].copy_from_slice(&part[from.clone()]);
                out.budgets[to].copy_from_slice(&solved.budgets[from]);
            }
        }
    }
    Ok(out)
}

/// The levels of a material's slices, from the nearest (level 0: every man on its first row)
/// to the furthest; a man's move takes a slice of one level to one of the next.
pub fn slice_levels<B: Bits>(indexer: &Indexer<B>, advance: &[Vec<u16>; 2]) -> Vec<Vec<u32>> {
    levels(indexer, indexer.radix[2] * indexer.radix[3], advance)
}

/// The slices (men's placements, holes left out) by how far their men have come.
fn levels<B: Bits>(indexer: &Indexer<B>, per: u64, advance: &[Vec<u16>; 2]) -> Vec<Vec<u32>> {
    let mut levels: Vec<Vec<u32>> = Vec::new();
    for slice in 0..indexer.placements / per {
        let Some((white, black, kings)) = indexer.unrank(slice * per) else {
            continue;
        };
        let men = !kings;
        let sum = |pieces: B, table: &[u16]| -> usize {
            pieces.iter().map(|b| usize::from(table[b as usize])).sum()
        };
        let level = sum(white & men, &advance[0]) + sum(black & men, &advance[1]);
        if levels.len() <= level {
            levels.resize_with(level + 1, Vec::new);
        }
        levels[level].push(slice as u32);
    }
    levels
}

/// Copies a frame's values into the material's.
fn store<B: Bits>(
    known: &mut Known,
    indexer: &Indexer<B>,
    per: u64,
    slices: &[u64],
    solved: &Solved,
) {
    let per = per as usize;
    for (j, &slice) in slices.iter().enumerate() {
        for turn in 0..2usize {
            let local = (2 * j + turn) * per;
            let global = turn * indexer.placements as usize + slice as usize * per;
            let (from, to) = (local..local + per, global..global + per);
            known.codes[to.clone()].copy_from_slice(&solved.codes[from.clone()]);
            known.plies[to.clone()].copy_from_slice(&solved.plies[from.clone()]);
            if let (Some(all), Some(part)) = (known.within.as_mut(), solved.within.as_ref()) {
                all[to.clone()].copy_from_slice(&part[from.clone()]);
                known.budgets[to].copy_from_slice(&solved.budgets[from]);
            }
        }
    }
}

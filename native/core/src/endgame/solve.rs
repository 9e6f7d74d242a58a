//! The retrograde solver of one material (the Python `draughts.endgame.solve`, natively).
//!
//! No move is generated backwards. Every position is walked forwards: a quiet move that stays
//! in the material is an *edge*, stored reversed (the child lists its parents); a move that
//! leaves it (a capture, a crowning) is an *exit* whose value is known already (a smaller
//! material's table, or the end of the game). Then the values spread backwards, level by level
//! in plies: a position with a child lost in `n` plies is won in `n + 1`; one whose children are
//! all won is lost in one ply more than the longest of them; what is never decided is drawn.
//!
//! The walk runs on `workers` threads over a [`Frame`] (the whole material, or slices of it:
//! `super::slice`). Where the frame is small (slices, or a material of up to 4M entries) it runs
//! once and keeps the moves (8 bytes each) to reverse them; else twice: once to count each
//! position's parents (so that the reversed moves take one array, 4 bytes a move), once to write
//! them.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

use super::index::{Indexer, Unranked};
use super::within::{self, Caps, Counts, Plan, INF};
use super::{parallel, DRAW, EXIT_DRAWS, EXIT_WINS, HOLE, LOSS, NO_MOVE_LOST, NO_MOVE_WON, WIN};
use crate::bitboard::Bits;
use crate::error::Error;
use crate::generator::Generator;
use crate::state::Node;

/// The value of a position reached by an exit, for its side to move: `(code, plies, code
/// within the rules)`.
pub type Exit = (u8, u16, u8);

/// The bit of a reversed move that says a man moved (the parent is the low 31 bits).
pub const MAN: u32 = 1 << 31;

/// Entries per chunk of work.
const CHUNK: usize = 1 << 14;

/// Entries up to which a whole material is walked once (its moves kept in a list for a while).
const ONE_PASS: usize = 1 << 22;

/// The values of one material: a code and a distance per entry, and the codes within the
/// rules where they were asked for.
#[derive(Clone, Debug, Default)]
pub struct Solved {
    /// Per entry: [`DRAW`], [`WIN`], [`LOSS`] or [`HOLE`].
    pub codes: Vec<u8>,
    /// Per entry: the plies to the end under best play (0 for draws and holes).
    pub plies: Vec<u16>,
    /// Per entry: the code within the draw rules, counts at 0.
    pub within: Option<Vec<u8>>,
    /// Per entry (with the codes within the rules): the budget their code was decided at.
    pub budgets: Vec<i16>,
    /// Moves inside the material (reversed edges).
    pub edges: u64,
}

/// What the forward walk learns.
pub struct Walk {
    /// Per entry: [`HOLE`] or [`DRAW`] (not decided yet).
    pub codes: Vec<u8>,
    /// Per entry: its moves inside the material.
    pub inside: Vec<u16>,
    /// Per entry: [`EXIT_WINS`], [`EXIT_DRAWS`], [`NO_MOVE_LOST`], [`NO_MOVE_WON`] bits.
    pub exits: Vec<u8>,
    /// Per entry: 1 where an exit draws or wins (the position cannot be lost).
    pub blocked: Vec<u8>,
    /// Per entry: 1 + the plies of the longest exit won by the opponent (0: none).
    pub longest: Vec<u16>,
    /// Per entry: 1 + the plies of the shortest exit lost by the opponent (0: none).
    pub seed: Vec<u16>,
    /// Per entry ("men" plans): how far its men have come.
    pub ranks: Option<Vec<u16>>,
    /// Per entry, its cap, where endgame rules look at where the pieces stand.
    pub caps: Option<Caps>,
    /// Per entry (sliced solves with a plan): the best budget an exit wins at (-1: none), and
    /// the lowest a won exit gives ([`INF`]: none).
    pub exit_budgets: Option<(Vec<i16>, Vec<i16>)>,
    /// The parents of entry `c` are `flat[start[c]..start[c + 1]]` ([`MAN`]: a man moved).
    pub start: Vec<u32>,
    /// The reversed moves.
    pub flat: Vec<u32>,
}

/// The per-entry outputs of the first walk over one chunk.
struct Chunk<'a> {
    low: usize,
    codes: &'a mut [u8],
    inside: &'a mut [u16],
    exits: &'a mut [u8],
    blocked: &'a mut [u8],
    longest: &'a mut [u16],
    seed: &'a mut [u16],
    ranks: Option<&'a mut [u16]>,
    caps: Option<&'a mut [i16]>,
    budgets: Option<(&'a mut [i16], &'a mut [i16])>,
}

/// One entry's record of its moves out of the frame (the first walk).
struct Out<'a> {
    exits: &'a mut u8,
    blocked: &'a mut u8,
    longest: &'a mut u16,
    seed: &'a mut u16,
    /// Sliced solves with a plan: the best budget an exit wins at, the lowest a won exit gives.
    budgets: Option<(&'a mut i16, &'a mut i16)>,
}

impl Out<'_> {
    /// An exit to a position of value `(code, plies, rule_code)` for its side to move;
    /// `candidate`: the budget it gives this entry within the rules (before its cap).
    #[inline]
    fn exit(&mut self, (code, plies, rule_code): Exit, candidate: i16) {
        if code == LOSS {
            *self.blocked = 1;
            if *self.seed == 0 || *self.seed > plies + 1 {
                *self.seed = plies + 1;
            }
        } else if code == WIN {
            *self.longest = (*self.longest).max(plies + 1);
        } else {
            *self.blocked = 1;
        }
        if rule_code == LOSS {
            *self.exits |= EXIT_WINS;
            if let Some((top, _)) = self.budgets.as_mut() {
                **top = (**top).max(candidate);
            }
        } else if rule_code == DRAW {
            *self.exits |= EXIT_DRAWS;
        } else if let Some((_, low)) = self.budgets.as_mut() {
            **low = (**low).min(candidate);
        }
    }

    /// A man's quiet move to the solved entry `global`: a man's move restarts the count of the
    /// "men" plans; the others count on, one ply less of the child's budget.
    #[inline]
    fn man_move(&mut self, known: &Known, global: usize, plan: Option<&Plan>) {
        let at = known.at(global);
        let code = known.codes[at];
        let rule_code = known.within.as_ref().map_or(code, |w| w[at]);
        let budget = known.budgets.get(at).copied().unwrap_or(INF as i16);
        let candidate = match plan.map(|p| p.counts) {
            Some(Counts::Men) | None => INF as i16,
            _ if i32::from(budget) >= INF => INF as i16,
            _ => budget - 1,
        };
        self.exit((code, known.plies[at], rule_code), candidate);
    }
}

/// A solver of one material: the generator, the indexer and the exits' values.
pub struct Solver<'a, B: Bits, F> {
    /// The generator of the rules.
    pub g: &'a Generator<B>,
    /// The material's indexer.
    pub indexer: &'a Indexer<B>,
    /// The value of a position of another material (`own, opp, kings, color` of its side to
    /// move), never asked for a position where the game is over.
    pub exit: &'a F,
    /// Threads.
    pub workers: usize,
    /// The entries solved: the whole material, or slices of it (see [`Frame`]).
    pub frame: Frame<'a>,
}

/// The values of the slices of a material solved before (by global index): what a man's move
/// out of the slices being solved reaches.
#[derive(Clone, Debug, Default)]
pub struct Known {
    /// Per entry: the code ([`HOLE`] where not solved).
    pub codes: Vec<u8>,
    /// Per entry: the plies.
    pub plies: Vec<u16>,
    /// Per entry: the code within the rules (counts at 0), where asked for.
    pub within: Option<Vec<u8>>,
    /// Per entry: the budget at which that code was decided (see `within`).
    pub budgets: Vec<i16>,
    /// Where only some slices are held (a part of a material solved on its own, the slices one
    /// man's move away): where each slice's values start. `None`: by global index.
    pub slots: Option<Slots>,
}

/// The slices a [`Known`] holds: slice `s`'s values are `base[s]..` (`2 * per` entries: both
/// sides to move, as a frame lays them out).
#[derive(Clone, Debug, Default)]
pub struct Slots {
    /// Placements per side to move.
    pub placements: u64,
    /// Placements per slice.
    pub per: u64,
    /// Per slice held, the first of its entries.
    pub base: std::collections::HashMap<u64, usize>,
}

impl Known {
    /// Where the values of global entry `global` are.
    ///
    /// # Panics
    /// If the slice of `global` is not held (a part given the wrong slices: a bug of its caller).
    #[inline]
    pub fn at(&self, global: usize) -> usize {
        let Some(slots) = &self.slots else {
            return global;
        };
        let global = global as u64;
        let (turn, rank) = (global / slots.placements, global % slots.placements);
        let (slice, offset) = (rank / slots.per, rank % slots.per);
        let base = slots.base.get(&slice).copied();
        let base = base.unwrap_or_else(|| panic!("slice {slice} is not among the slices given"));
        base + (turn * slots.per + offset) as usize
    }
}

/// The entries a solve numbers `0..size`: slices of the material, each the `per` placements of
/// one placement of the men (a rank divided by `per`), both sides to move. Local entry
/// `j * 2 * per + turn * per + offset` is the global `turn * placements + slices[j] * per +
/// offset`. With `known`, a man's quiet move leaves the slice (its child is in `known`); without,
/// the frame is the whole material (`slices == [0]`, `per == placements`).
#[derive(Clone, Debug)]
pub struct Frame<'a> {
    /// The slices (rank divided by `per`).
    pub slices: Vec<u64>,
    /// Placements per slice.
    pub per: u64,
    /// The values a man's move reaches (sliced solves only).
    pub known: Option<&'a Known>,
}

impl Frame<'_> {
    /// The whole material of `indexer`.
    pub fn whole<B: Bits>(indexer: &Indexer<B>) -> Self {
        Frame {
            slices: vec![0],
            per: indexer.placements,
            known: None,
        }
    }

    /// Entries in the frame.
    pub fn size(&self) -> u64 {
        self.slices.len() as u64 * 2 * self.per
    }

    /// `(slice position, turn, rank)` of local entry `local`.
    #[inline]
    fn split(&self, local: usize) -> (usize, u8, u64) {
        let local = local as u64;
        let span = 2 * self.per;
        let (j, rest) = ((local / span) as usize, local % span);
        let (turn, offset) = ((rest / self.per) as u8, rest % self.per);
        (j, turn, self.slices[j] * self.per + offset)
    }
}

impl<B, F> Solver<'_, B, F>
where
    B: Bits,
    F: Fn(B, B, B, u8) -> Result<Exit, Error> + Sync,
{
    /// The node of entry `index` (`None`: a hole); `last`: the groups unranked last.
    fn node(&self, index: usize, last: &mut Unranked<B>) -> Option<(Node<B>, B, B)> {
        let (_, turn, rank) = self.frame.split(index);
        let (white, black, kings) = self.indexer.unrank_with(rank, last)?;
        let (own, opp) = if turn == 0 {
            (white, black)
        } else {
            (black, white)
        };
        let node = Node {
            own,
            opp,
            kings,
            color: turn,
            state: 0,
        };
        Some((node, white, black))
    }

    /// The value of the position after an exit (a capture or a crowning).
    fn exit_value(&self, node: &Node<B>, moved: B, captured: B, crowned: B) -> Result<Exit, Error> {
        let child_kings = node.kings ^ crowned;
        let child_own = node.opp ^ captured;
        let child_opp = node.own ^ moved;
        let over = if self.g.tables.crowning_wins && child_kings.any() {
            Some(if (child_kings & child_own).any() {
                WIN
            } else {
                LOSS
            })
        } else if child_own.is_zero() {
            Some(if self.g.no_move_wins { WIN } else { LOSS })
        } else {
            None
        };
        match over {
            Some(code) => Ok((code, 0, code)),
            None => (self.exit)(child_own, child_opp, child_kings, 1 - node.color),
        }
    }

    /// The global entry a quiet move inside the material reaches.
    #[inline]
    fn child_global(&self, node: &Node<B>, white: B, black: B, moved: B, crowned: B) -> u64 {
        let kings = node.kings ^ crowned;
        if node.color == 0 {
            self.indexer.index(white ^ moved, black, kings, 1)
        } else {
            self.indexer.index(white, black ^ moved, kings, 0)
        }
    }

    /// The local entry a quiet move inside the frame reaches (from local entry `index`).
    #[inline]
    fn child(
        &self,
        index: usize,
        node: &Node<B>,
        white: B,
        black: B,
        moved: B,
        crowned: B,
    ) -> usize {
        let per = self.frame.per;
        let offset = if self.frame.known.is_some() {
            // A slice: only kings move inside it, the men stay, so only the kings are ranked.
            let kings = node.kings ^ crowned;
            if node.color == 0 {
                self.indexer.kings_rank(white ^ moved, black, kings)
            } else {
                self.indexer.kings_rank(white, black ^ moved, kings)
            }
        } else {
            let global = self.child_global(node, white, black, moved, crowned);
            (global % self.indexer.placements) % per
        };
        let j = index as u64 / (2 * per);
        (j * 2 * per + u64::from(1 - node.color) * per + offset) as usize
    }

    /// Whether a quiet move stays in the frame: always for the whole material, else only a
    /// king's (a man's changes the men's placement, so the slice).
    #[inline]
    fn stays(&self, node: &Node<B>, moved: B) -> bool {
        self.frame.known.is_none() || (moved & node.kings).any()
    }

    fn first_chunk(
        &self,
        chunk: Chunk<'_>,
        parents: &[AtomicU32],
        plan: Option<&Plan>,
        collected: Option<&Mutex<Vec<(u32, u32)>>>,
    ) -> Result<(), Error> {
        let advance = plan.and_then(|p| p.advance.as_ref());
        let mut edges: Vec<(u32, u32)> = Vec::new();
        let Chunk {
            low,
            codes,
            inside,
            exits,
            blocked,
            longest,
            seed,
            mut ranks,
            mut caps,
            mut budgets,
        } = chunk;
        let mut last = Unranked::default();
        for offset in 0..codes.len() {
            let Some((node, white, black)) = self.node(low + offset, &mut last) else {
                codes[offset] = HOLE;
                continue;
            };
            if let (Some(ranks), Some(advance)) = (ranks.as_deref_mut(), advance) {
                let men = !node.kings;
                let rank: u32 = (white & men)
                    .iter()
                    .map(|b| u32::from(advance[0][b as usize]))
                    .sum::<u32>()
                    + (black & men)
                        .iter()
                        .map(|b| u32::from(advance[1][b as usize]))
                        .sum::<u32>();
                ranks[offset] = rank as u16;
            }
            if let (Some(caps), Some(plan)) = (caps.as_deref_mut(), plan) {
                caps[offset] = plan.cap(self.g, &node, white, black)?;
            }
            let moves = self.g.moves(&node, false, None)?;
            if moves.is_empty() {
                exits[offset] = if self.g.no_move_wins {
                    NO_MOVE_WON
                } else {
                    NO_MOVE_LOST
                };
                continue;
            }
            let kings = node.kings.count();
            let mut count = 0u16;
            let mut out = Out {
                exits: &mut exits[offset],
                blocked: &mut blocked[offset],
                longest: &mut longest[offset],
                seed: &mut seed[offset],
                budgets: budgets
                    .as_mut()
                    .map(|(top, low)| (&mut top[offset], &mut low[offset])),
            };
            for m in &moves {
                if m.captured.is_zero() && (node.kings ^ m.crowned).count() == kings {
                    if self.stays(&node, m.moved) {
                        let child =
                            self.child(low + offset, &node, white, black, m.moved, m.crowned);
                        parents[child].fetch_add(1, Ordering::Relaxed);
                        if collected.is_some() {
                            let man = if (m.moved & node.kings).is_zero() {
                                MAN
                            } else {
                                0
                            };
                            edges.push((child as u32, (low + offset) as u32 | man));
                        }
                        count += 1;
                    } else if let Some(known) = self.frame.known {
                        let global = self.child_global(&node, white, black, m.moved, m.crowned);
                        out.man_move(known, global as usize, plan);
                    }
                    continue;
                }
                let exit = self.exit_value(&node, m.moved, m.captured, m.crowned)?;
                out.exit(exit, INF as i16);
            }
            inside[offset] = count;
        }
        if let Some(collected) = collected {
            collected
                .lock()
                .map_err(|_| Error::InvalidSpec("a thread of the walk failed".into()))?
                .extend(edges);
        }
        Ok(())
    }

    fn second_chunk(
        &self,
        low: usize,
        high: usize,
        inside: &[u16],
        cursor: &[AtomicU32],
        flat: &[AtomicU32],
    ) -> Result<(), Error> {
        let mut last = Unranked::default();
        for (index, &count) in inside.iter().enumerate().take(high).skip(low) {
            if count == 0 {
                continue;
            }
            let Some((node, white, black)) = self.node(index, &mut last) else {
                continue;
            };
            let kings = node.kings.count();
            for m in &self.g.moves(&node, false, None)? {
                if m.captured.is_zero()
                    && (node.kings ^ m.crowned).count() == kings
                    && self.stays(&node, m.moved)
                {
                    let child = self.child(index, &node, white, black, m.moved, m.crowned);
                    let row = cursor[child].fetch_sub(1, Ordering::Relaxed) - 1;
                    let man = if (m.moved & node.kings).is_zero() {
                        MAN
                    } else {
                        0
                    };
                    flat[row as usize].store(index as u32 | man, Ordering::Relaxed);
                }
            }
        }
        Ok(())
    }

    /// The reversed moves from the first walk's counts of parents: rows of parents, one per
    /// entry (`start`, `flat`), from the moves the walk kept or from a second walk.
    fn reverse(
        &self,
        parents: Vec<AtomicU32>,
        collected: Option<Mutex<Vec<(u32, u32)>>>,
        inside: &[u16],
    ) -> Result<(Vec<u32>, Vec<u32>), Error> {
        let mut total: u64 = 0;
        for count in &parents {
            total += u64::from(count.load(Ordering::Relaxed));
            if total > u64::from(u32::MAX) {
                return Err(Error::InvalidSpec(format!(
                    "a material with more than {} moves inside is beyond the native solver",
                    u32::MAX
                )));
            }
            count.store(total as u32, Ordering::Relaxed);
        }
        let Some(collected) = collected else {
            let flat: Vec<AtomicU32> = (0..total).map(|_| AtomicU32::new(0)).collect();
            let size = inside.len();
            let ranges: Vec<(usize, usize)> = (0..size)
                .step_by(CHUNK)
                .map(|low| (low, (low + CHUNK).min(size)))
                .collect();
            parallel(ranges, self.workers, |(low, high)| {
                self.second_chunk(low, high, inside, &parents, &flat)
            })?;
            let start = parents.into_iter().map(AtomicU32::into_inner).collect();
            return Ok((start, flat.into_iter().map(AtomicU32::into_inner).collect()));
        };
        let mut start: Vec<u32> = parents.into_iter().map(AtomicU32::into_inner).collect();
        let edges = collected
            .into_inner()
            .map_err(|_| Error::InvalidSpec("a thread of the walk failed".into()))?;
        let mut flat = vec![0u32; total as usize];
        for (child, parent) in edges {
            start[child as usize] -= 1;
            flat[start[child as usize] as usize] = parent;
        }
        Ok((start, flat))
    }

    /// Walks every position (once, or twice where its moves would take too much memory to
    /// keep): see [`Walk`].
    ///
    /// # Errors
    /// What the generator or the exits' values return; [`Error::InvalidSpec`] for a material
    /// of 2^31 entries or more, or with 2^32 moves inside or more.
    pub fn walk(&self, plan: Option<&Plan>) -> Result<Walk, Error> {
        let advance = plan.and_then(|p| p.advance.as_ref());
        let placement = plan.is_some_and(|p| !p.placement.is_empty());
        let size = usize::try_from(self.frame.size()).unwrap_or(usize::MAX);
        if self.frame.size() >= u64::from(MAN) {
            return Err(Error::InvalidSpec(format!(
                "a material of {size} entries is beyond the native solver (2^31)"
            )));
        }
        let mut codes = vec![DRAW; size];
        let mut inside = vec![0u16; size];
        let mut exits = vec![0u8; size];
        let mut blocked = vec![0u8; size];
        let mut longest = vec![0u16; size];
        let mut seed = vec![0u16; size];
        let mut ranks = advance.map(|_| vec![0u16; size]);
        let mut caps = placement.then(|| vec![0i16; size]);
        let mut budgets = (plan.is_some() && self.frame.known.is_some())
            .then(|| (vec![-1i16; size], vec![INF as i16; size]));
        let parents: Vec<AtomicU32> = (0..=size).map(|_| AtomicU32::new(0)).collect();
        // One walk, its moves kept (8 bytes each, for a while), where that is little memory;
        // else two walks (the second writes the moves, 4 bytes each, where the first counted).
        let one_pass = self.frame.known.is_some() || size <= ONE_PASS;
        let collected = one_pass.then(|| Mutex::new(Vec::new()));
        {
            let mut rank_chunks = ranks.as_mut().map(|r| r.chunks_mut(CHUNK));
            let mut cap_chunks = caps.as_mut().map(|c| c.chunks_mut(CHUNK));
            let mut budget_chunks = budgets
                .as_mut()
                .map(|(top, low)| top.chunks_mut(CHUNK).zip(low.chunks_mut(CHUNK)));
            let mut chunks = Vec::new();
            let zipped = codes
                .chunks_mut(CHUNK)
                .zip(inside.chunks_mut(CHUNK))
                .zip(exits.chunks_mut(CHUNK))
                .zip(blocked.chunks_mut(CHUNK))
                .zip(longest.chunks_mut(CHUNK))
                .zip(seed.chunks_mut(CHUNK));
            for (number, (((((codes, inside), exits), blocked), longest), seed)) in
                zipped.enumerate()
            {
                let ranks = rank_chunks.as_mut().and_then(Iterator::next);
                let caps = cap_chunks.as_mut().and_then(Iterator::next);
                let budgets = budget_chunks.as_mut().and_then(Iterator::next);
                chunks.push(Chunk {
                    low: number * CHUNK,
                    codes,
                    inside,
                    exits,
                    blocked,
                    longest,
                    seed,
                    ranks,
                    caps,
                    budgets,
                });
            }
            parallel(chunks, self.workers, |chunk| {
                self.first_chunk(chunk, &parents, plan, collected.as_ref())
            })?;
        }
        let (start, flat) = self.reverse(parents, collected, &inside)?;
        Ok(Walk {
            codes,
            inside,
            exits,
            blocked,
            longest,
            seed,
            ranks,
            caps: caps.map(Caps::Each),
            exit_budgets: budgets,
            start,
            flat,
        })
    }

    /// Solves the material: the pure values and, with `plan`, the codes within the rules.
    ///
    /// # Errors
    /// As [`Solver::walk`].
    pub fn solve(&self, plan: Option<&Plan>) -> Result<Solved, Error> {
        let walk = self.walk(plan)?;
        let (within, budgets) = match plan {
            Some(plan) => {
                let (codes, budgets) = within::spread(plan, &walk)?;
                (Some(codes), budgets)
            }
            None => (None, Vec::new()),
        };
        let edges = walk.flat.len() as u64;
        let (codes, plies) = propagate(walk);
        Ok(Solved {
            codes,
            plies,
            within,
            budgets,
            edges,
        })
    }
}

/// Queues by level: pushing at `level` grows the list as needed.
fn queue(levels: &mut Vec<Vec<u32>>, level: usize) -> &mut Vec<u32> {
    if levels.len() <= level {
        levels.resize_with(level + 1, Vec::new);
    }
    &mut levels[level]
}

/// The pure values: the bucket queue of the Python `_propagate`.
fn propagate(walk: Walk) -> (Vec<u8>, Vec<u16>) {
    let Walk {
        mut codes,
        inside: mut remaining,
        exits,
        blocked,
        mut longest,
        seed,
        start,
        flat,
        ..
    } = walk;
    let mut plies = vec![0u16; codes.len()];
    let mut wins: Vec<Vec<u32>> = Vec::new();
    let mut losses: Vec<Vec<u32>> = Vec::new();
    for index in 0..codes.len() {
        if codes[index] == HOLE {
            continue;
        }
        let i = index as u32;
        if exits[index] & NO_MOVE_WON != 0 {
            queue(&mut wins, 0).push(i);
        } else if exits[index] & NO_MOVE_LOST != 0 {
            queue(&mut losses, 0).push(i);
        } else {
            if seed[index] != 0 {
                queue(&mut wins, seed[index] as usize).push(i);
            }
            if remaining[index] == 0 && blocked[index] == 0 && longest[index] != 0 {
                queue(&mut losses, longest[index] as usize).push(i);
            }
        }
    }
    drop(exits);
    drop(seed);
    let mut level = 0usize;
    while level < wins.len().max(losses.len()) {
        let lost = losses
            .get_mut(level)
            .map(std::mem::take)
            .unwrap_or_default();
        for index in lost {
            let index = index as usize;
            if codes[index] != DRAW {
                continue;
            }
            codes[index] = LOSS;
            plies[index] = level as u16;
            for &parent in &flat[start[index] as usize..start[index + 1] as usize] {
                let parent = parent & !MAN;
                if codes[parent as usize] == DRAW {
                    queue(&mut wins, level + 1).push(parent);
                }
            }
        }
        let won = wins.get_mut(level).map(std::mem::take).unwrap_or_default();
        for index in won {
            let index = index as usize;
            if codes[index] != DRAW {
                continue;
            }
            codes[index] = WIN;
            plies[index] = level as u16;
            for &parent in &flat[start[index] as usize..start[index + 1] as usize] {
                let parent = (parent & !MAN) as usize;
                if codes[parent] != DRAW {
                    continue;
                }
                remaining[parent] -= 1;
                if longest[parent] as usize <= level {
                    longest[parent] = (level + 1) as u16;
                }
                if remaining[parent] == 0 && blocked[parent] == 0 {
                    queue(&mut losses, longest[parent] as usize).push(parent as u32);
                }
            }
        }
        level += 1;
    }
    (codes, plies)
}

//! The capture search: every complete capture path of the side to move, short and flying pieces
//! (Python's `draughts._core.capture`, state for state).
//!
//! Rules applied here: captured pieces stay on the board until the move ends (they block and
//! cannot be jumped twice) unless the rules lift them at once; the capturing piece's start square
//! is empty during the move; a flying king may land on any free square beyond the piece it takes
//! (or only directly behind it), but if the capture can go on from some of them it must land on
//! one of those, and a straight-on continuation is one path from the nearest landing square (PDN
//! 3.0 restriction 9); a man reaching its crowning row mid-capture stops, goes on as a king, or goes
//! on as a man, as the rules say.
//!
//! **Explosion.** Where one path per move is enough and no criterion compares the capture order,
//! a search that finds more than [`EXPLOSION`] paths starts again *pruned*: it remembers each state
//! (square, pieces taken, kind of piece, directions left) and does not expand it twice; with
//! captured pieces kept until the end it reads a flying king's jumps from per-square tables, and
//! under a value precedence cuts states that cannot reach the best value found (the bound).
//!
//! **Bounded work.** A search counts the states it expands; every [`CHECK_EVERY`] states it fails
//! with [`Error::CaptureSearchLimit`] past [`MAX_STATES`], then calls the abort hook, if any.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

/// A small multiplicative hasher for the search's maps (keys are bitboards and small numbers;
/// the maps live for one search, so no protection against chosen keys is needed, and making one
/// costs nothing, unlike the standard library's randomly seeded hasher).
#[derive(Default, Clone, Copy)]
pub(crate) struct MixHasher(u64);

impl Hasher for MixHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    #[inline]
    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0.rotate_left(5) ^ value).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    #[inline]
    fn write_u32(&mut self, value: u32) {
        self.write_u64(value as u64);
    }
    #[inline]
    fn write_u8(&mut self, value: u8) {
        self.write_u64(value as u64);
    }
    #[inline]
    fn write_usize(&mut self, value: usize) {
        self.write_u64(value as u64);
    }
}

type Map<K, V> = HashMap<K, V, BuildHasherDefault<MixHasher>>;

use crate::bitboard::Bits;
use crate::error::Error;
use crate::generator::Generator;
use crate::spec::{CapturePromotion, KingLanding};

/// States a search expands between two checks of its bound and of the abort hook.
pub const CHECK_EVERY: u64 = 4096;
/// States one search may expand; beyond it the search fails with [`Error::CaptureSearchLimit`].
pub const MAX_STATES: u64 = 1_000_000;
/// Capture paths a search may find before it starts again pruned.
pub const EXPLOSION: usize = 4096;
/// Entries of the bound's memory that count as one state of the bounded work.
pub const BOUND_WORK_PER_STATE: u64 = 4;
/// Pieces left to take up to which the value bound is worked out.
pub const LONGEST_PIECES: u32 = 12;

/// A hook called every [`CHECK_EVERY`] states of a long search (and periodically by perft): an
/// error from it stops the computation and is returned to the caller.
pub type Abort<'a> = Option<&'a dyn Fn() -> Result<(), Error>>;

/// A capture as the search finds it (bit indices of the layout).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RawCapture<B: Bits> {
    /// Bit of the capturing piece's start square.
    pub start: u32,
    /// Bit of its end square.
    pub end: u32,
    /// The pieces captured.
    pub captured: B,
    /// Whether the move crowns the man.
    pub promotes: bool,
    /// The captured bits in capture order (empty unless recorded).
    pub order: Vec<u32>,
    /// The landing bits PDN 3.0 restriction 9 names, the end last (empty unless recorded).
    pub path: Vec<u32>,
}

/// A short list of directions, in the order a search tries them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Dirs {
    len: u8,
    d: [u8; 8],
}

impl Dirs {
    /// The directions of `list` (at most 8).
    pub fn from_slice(list: &[u8]) -> Self {
        let mut out = Dirs::default();
        for &d in list.iter().take(8) {
            out.push(d);
        }
        out
    }
    #[inline(always)]
    fn push(&mut self, d: u8) {
        if (self.len as usize) < 8 {
            self.d[self.len as usize] = d;
            self.len += 1;
        }
    }
    /// The directions as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[u8] {
        &self.d[..self.len as usize]
    }
    #[inline(always)]
    fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Why a search stopped early.
pub(crate) enum Halt {
    /// Too many paths: start again pruned.
    Explosion,
    /// A real error (the bound, the hook, an external precedence).
    Fail(Error),
}

impl From<Error> for Halt {
    fn from(e: Error) -> Self {
        Halt::Fail(e)
    }
}

/// A flying king's jump from one square in one direction on a board whose pieces do not change.
struct Jump<B: Bits> {
    over: B,
    lands: B,
    landings: Vec<Landing<B>>,
    straight: B,
}

struct Landing<B: Bits> {
    land: u32,
    turns_from: Vec<(u8, B)>,
    pieces: B,
}

type JumpTable<B> = Rc<[Option<Jump<B>>; 8]>;

/// The value bound's state in one search.
struct Bound<B: Bits> {
    best: u64,
    scored: usize,
    work: u64,
    next_check: u64,
    graph: Option<Rc<PieceGraph<B>>>,
    graph_start: u32,
    longest: Map<(usize, B), u64>,
}

struct PieceGraph<B: Bits> {
    piece: Vec<B>,
    weight: Vec<u64>,
    successors: Vec<Vec<usize>>,
    firsts: Map<u32, Vec<usize>>,
    pieces: B,
}

/// The state of one search.
pub(crate) struct Run<'g, 'a, B: Bits> {
    g: &'g Generator<B>,
    color: usize,
    pub(crate) found: Vec<RawCapture<B>>,
    states: u64,
    next_check: u64,
    record: bool,
    budget: usize,
    pruned: bool,
    tables_mode: bool,
    visited_short: Map<(u32, B, bool, bool), bool>,
    visited_fly: Map<(u32, B, bool, Dirs), bool>,
    jump_tables: Map<u32, JumpTable<B>>,
    opponents: B,
    opponent_kings: B,
    man_prey: B,
    start: u32,
    occupied: B,
    free_now: B,
    bound: Option<Bound<B>>,
    order: Vec<u32>,
    path: Vec<u32>,
    abort: Abort<'a>,
}

/// Asked of one search: the side, its pieces, the opponent's, the free squares.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SearchInput<B: Bits> {
    pub color: u8,
    pub men: B,
    pub kings: B,
    pub opponents: B,
    pub opponent_kings: B,
    pub empty: B,
}

impl<'g, 'a, B: Bits> Run<'g, 'a, B> {
    fn new(
        g: &'g Generator<B>,
        input: &SearchInput<B>,
        record: bool,
        budget: usize,
        pruned: bool,
        abort: Abort<'a>,
    ) -> Self {
        let t = &g.tables;
        let man_prey = if t.men_capture_kings {
            input.opponents
        } else {
            input.opponents & !input.opponent_kings
        };
        Run {
            g,
            color: (input.color & 1) as usize,
            found: Vec::new(),
            states: 0,
            next_check: CHECK_EVERY,
            record,
            budget,
            pruned,
            tables_mode: pruned && t.flying && !t.immediate_removal,
            visited_short: Map::default(),
            visited_fly: Map::default(),
            jump_tables: Map::default(),
            opponents: input.opponents,
            opponent_kings: input.opponent_kings,
            man_prey,
            start: 0,
            occupied: B::ZERO,
            free_now: B::ZERO,
            bound: None,
            order: Vec::new(),
            path: Vec::new(),
            abort,
        }
    }

    fn work(&self) -> u64 {
        self.states
            + self
                .bound
                .as_ref()
                .map_or(0, |b| b.work / BOUND_WORK_PER_STATE)
    }

    fn checkpoint(&self) -> Result<(), Halt> {
        if self.work() > MAX_STATES {
            return Err(Halt::Fail(Error::CaptureSearchLimit {
                square: self.g.tables.square(self.start),
                limit: MAX_STATES,
            }));
        }
        if let Some(hook) = self.abort {
            hook()?;
        }
        Ok(())
    }

    #[inline(always)]
    fn tick(&mut self) -> Result<(), Halt> {
        self.states += 1;
        if self.states >= self.next_check {
            self.checkpoint()?;
            self.next_check = self.states + CHECK_EVERY;
        }
        Ok(())
    }

    #[inline]
    fn push_found(&mut self, end: u32, captured: B, promotes: bool) {
        let (order, path) = if self.record {
            (self.order.clone(), self.path.clone())
        } else {
            (Vec::new(), Vec::new())
        };
        self.found.push(RawCapture {
            start: self.start,
            end,
            captured,
            promotes,
            order,
            path,
        });
    }

    /// Keep a complete capture; past the budget, give up for a pruned search.
    #[inline]
    fn add(&mut self, end: u32, captured: B, promotes: bool) -> Result<(), Halt> {
        self.push_found(end, captured, promotes);
        if self.budget > 0 && self.found.len() > self.budget {
            return Err(Halt::Explosion);
        }
        Ok(())
    }

    fn begin(&mut self, start: u32, pieces: B) {
        let board = self.g.tables.board;
        self.start = start;
        self.occupied = pieces ^ B::bit(start);
        self.free_now = board & !self.occupied;
        if self.pruned {
            self.visited_short.clear();
            self.visited_fly.clear();
            self.jump_tables.clear();
        }
    }

    // --- men and short kings ---

    fn short(&mut self, cur: u32, cap: B, king: bool, promoted: bool) -> Result<bool, Halt> {
        if self.pruned {
            let key = (cur, cap, king, promoted);
            if let Some(&known) = self.visited_short.get(&key) {
                return Ok(known);
            }
            let known = self.short_jumps(cur, cap, king, promoted)?;
            self.visited_short.insert(key, known);
            Ok(known)
        } else {
            self.short_jumps(cur, cap, king, promoted)
        }
    }

    fn short_jumps(&mut self, cur: u32, cap: B, king: bool, promoted: bool) -> Result<bool, Halt> {
        self.tick()?;
        let g = self.g;
        let t = &g.tables;
        let side = &g.sides[self.color];
        let prey = (if king { self.opponents } else { self.man_prey }) & !cap;
        let free = if t.immediate_removal {
            t.board & !(self.occupied & !cap)
        } else {
            self.free_now
        };
        let here = B::bit(cur);
        let mut lands = [(0u8, 0u32, 0u32); 8];
        let mut count = 0;
        let steps = if king {
            &side.short_king
        } else {
            &side.short_man
        };
        for st in steps {
            let land = (here.shift(st.amount, st.up) & prey).shift(st.amount, st.up) & free;
            if land.any() {
                let land_i = land.lowest_index();
                let over_i = if st.up {
                    land_i - st.amount
                } else {
                    land_i + st.amount
                };
                if count < 8 {
                    lands[count] = (st.d, land_i, over_i);
                    count += 1;
                }
            }
        }
        if count == 0 {
            return Ok(false);
        }
        let lands = &mut lands[..count];
        if self.record && self.pruned && count > 1 {
            lands.sort_by_key(|&(_, land, _)| t.square(land));
        }
        let crown = t.crown_row[self.color];
        let ends_move = t.capture_promotion == CapturePromotion::EndsMove;
        let as_king = t.capture_promotion == CapturePromotion::ContinuesAsKing;
        for &(d, land, over) in lands.iter() {
            let now = cap | B::bit(over);
            if self.record {
                self.order.push(over);
                self.path.push(land);
            }
            let crowned = !king && crown.has(land);
            if crowned && ends_move {
                self.add(land, now, true)?;
            } else if crowned && as_king {
                let more = if t.flying {
                    self.fly(land, now, side.crowned_turns[d as usize], true)?
                } else {
                    self.short(land, now, true, true)?
                };
                if !more {
                    self.push_found(land, now, true);
                }
            } else if !self.short(land, now, king, promoted)? {
                self.add(land, now, promoted || crowned)?;
            }
            if self.record {
                self.order.pop();
                self.path.pop();
            }
        }
        Ok(true)
    }

    // --- flying kings ---

    fn fly(&mut self, cur: u32, cap: B, dirs: Dirs, promoted: bool) -> Result<bool, Halt> {
        if self.pruned {
            let key = (cur, cap, promoted, dirs);
            if let Some(&known) = self.visited_fly.get(&key) {
                return Ok(known);
            }
            let known = if self.tables_mode {
                if self.g.facts.value_weights.is_some()
                    && !self.found.is_empty()
                    && self.hopeless(cur, cap)?
                {
                    true
                } else {
                    self.fly_known(cur, cap, dirs, promoted)?
                }
            } else {
                self.fly_jumps(cur, cap, dirs, promoted)?
            };
            self.visited_fly.insert(key, known);
            Ok(known)
        } else {
            self.fly_jumps(cur, cap, dirs, promoted)
        }
    }

    fn fly_jumps(&mut self, cur: u32, cap: B, dirs: Dirs, promoted: bool) -> Result<bool, Halt> {
        self.tick()?;
        let g = self.g;
        let t = &g.tables;
        let side = &g.sides[self.color];
        let immediate = t.immediate_removal;
        let behind_only = t.landing == KingLanding::DirectlyBehind;
        let behind_last_king = t.landing == KingLanding::BehindLastKing;
        let blockers = if immediate {
            self.occupied & !cap
        } else {
            self.occupied
        };
        let prey = self.opponents & !cap;
        let mut jumped = false;
        let mut onward: Vec<(u32, Dirs, B, u32)> = Vec::new();
        for &d in dirs.as_slice() {
            let seen = t.ray(d, cur) & blockers;
            if seen.is_zero() {
                continue;
            }
            let over = t.nearest(d, seen);
            if (over & prey).is_zero() {
                continue;
            }
            let over_i = over.lowest_index();
            let now = cap | over;
            let after = if immediate {
                blockers & !over
            } else {
                blockers
            };
            let beyond = t.ray(d, over_i);
            let seen = beyond & after;
            let (nxt, mut lands) = if seen.any() {
                let nxt = t.nearest(d, seen);
                (nxt, beyond & !(nxt | t.ray(d, nxt.lowest_index())))
            } else {
                (B::ZERO, beyond)
            };
            if lands.is_zero() {
                continue;
            }
            let nearest = t.nearest(d, lands);
            if behind_only {
                lands = nearest;
            }
            jumped = true;
            let now_prey = prey & !over;
            let free = t.board & !after;
            let continuations = onward.len();
            let a = t.amount[d as usize];
            let d_up = t.up[d as usize];
            let straight = (nxt & now_prey).any() && (nxt.shift(a, d_up) & free).any();
            let mut rest = lands;
            while rest.any() {
                let land = t.nearest(d, rest);
                rest ^= land;
                let at = land.lowest_index();
                let mut found_turns = Dirs::default();
                for &turn in side.turns[d as usize].as_slice() {
                    let seen = t.ray(turn, at) & after;
                    if seen.is_zero() {
                        continue;
                    }
                    let first = t.nearest(turn, seen);
                    if (first & now_prey).any()
                        && (first.shift(t.amount[turn as usize], t.up[turn as usize]) & free).any()
                    {
                        found_turns.push(turn);
                    }
                }
                if land == nearest && straight {
                    let mut next = Dirs::default();
                    next.push(d);
                    for &turn in found_turns.as_slice() {
                        next.push(turn);
                    }
                    onward.push((at, next, now, over_i));
                } else if !found_turns.is_empty() {
                    onward.push((at, found_turns, now, over_i));
                }
            }
            if onward.len() > continuations {
                continue;
            }
            if behind_last_king && (over & self.opponent_kings).any() {
                lands = nearest;
            }
            if self.record {
                self.order.push(over_i);
            }
            while lands.any() {
                let land = t.nearest(d, lands);
                lands ^= land;
                let at = land.lowest_index();
                if self.record {
                    self.path.push(at);
                }
                self.push_found(at, now, promoted);
                if self.record {
                    self.path.pop();
                }
            }
            if self.record {
                self.order.pop();
            }
            if self.budget > 0 && self.found.len() > self.budget {
                return Err(Halt::Explosion);
            }
        }
        self.go_on(onward, promoted)?;
        Ok(jumped)
    }

    fn go_on(&mut self, mut onward: Vec<(u32, Dirs, B, u32)>, promoted: bool) -> Result<(), Halt> {
        if onward.is_empty() {
            return Ok(());
        }
        if self.record && self.pruned && onward.len() > 1 {
            let t = &self.g.tables;
            onward.sort_by_key(|item| t.square(item.0));
        }
        for (land, next_dirs, now, over) in onward {
            if self.record {
                self.order.push(over);
                self.path.push(land);
            }
            self.fly(land, now, next_dirs, promoted)?;
            if self.record {
                self.order.pop();
                self.path.pop();
            }
        }
        Ok(())
    }

    /// The jumps of a flying king from bit `index` in each direction of `dirs`, where captured
    /// pieces stay until the move ends (Python's `_jumps_from`).
    fn jumps_from(&self, index: u32) -> JumpTable<B> {
        let t = &self.g.tables;
        let side = &self.g.sides[self.color];
        let occupied = self.occupied;
        let opponents = self.opponents;
        let free = t.board & !occupied;
        let behind_only = t.landing == KingLanding::DirectlyBehind;
        let first = |d: u8, at: u32| -> B {
            let seen = t.ray(d, at) & occupied;
            if seen.is_zero() {
                return B::ZERO;
            }
            let piece = t.nearest(d, seen);
            if (piece & opponents).any()
                && (piece.shift(t.amount[d as usize], t.up[d as usize]) & free).any()
            {
                piece
            } else {
                B::ZERO
            }
        };
        let mut out: [Option<Jump<B>>; 8] = Default::default();
        for &d in side.king_dirs.as_slice() {
            let over = first(d, index);
            if over.is_zero() {
                continue;
            }
            let beyond = t.ray(d, over.lowest_index());
            let seen = beyond & occupied;
            let (nxt, mut lands) = if seen.any() {
                let nxt = t.nearest(d, seen);
                (nxt, beyond & !(nxt | t.ray(d, nxt.lowest_index())))
            } else {
                (B::ZERO, beyond)
            };
            let nearest = t.nearest(d, lands);
            if behind_only {
                lands = nearest;
            }
            let mut landings = Vec::new();
            let mut rest = lands;
            while rest.any() {
                let land = t.nearest(d, rest);
                rest ^= land;
                let at = land.lowest_index();
                let turns_from: Vec<(u8, B)> = side.turns[d as usize]
                    .as_slice()
                    .iter()
                    .map(|&turn| (turn, first(turn, at)))
                    .collect();
                let mut pieces = B::ZERO;
                for &(_, piece) in &turns_from {
                    pieces |= piece;
                }
                landings.push(Landing {
                    land: at,
                    turns_from,
                    pieces,
                });
            }
            let straight = if (nxt & opponents).any() && nearest.any() {
                first(d, nearest.lowest_index())
            } else {
                B::ZERO
            };
            out[d as usize] = Some(Jump {
                over,
                lands,
                landings,
                straight,
            });
        }
        Rc::new(out)
    }

    fn table(&mut self, cur: u32) -> JumpTable<B> {
        if let Some(table) = self.jump_tables.get(&cur) {
            return table.clone();
        }
        let table = self.jumps_from(cur);
        self.jump_tables.insert(cur, table.clone());
        table
    }

    fn fly_known(&mut self, cur: u32, cap: B, dirs: Dirs, promoted: bool) -> Result<bool, Halt> {
        self.tick()?;
        let table = self.table(cur);
        let t = &self.g.tables;
        let behind_last_king = t.landing == KingLanding::BehindLastKing;
        let mut jumped = false;
        let mut onward: Vec<(u32, Dirs, B, u32)> = Vec::new();
        for &d in dirs.as_slice() {
            let Some(jump) = &table[d as usize] else {
                continue;
            };
            if (jump.over & cap).any() {
                continue;
            }
            jumped = true;
            let over_i = jump.over.lowest_index();
            let now = cap | jump.over;
            let continuations = onward.len();
            let goes_straight = jump.straight.any() && (jump.straight & cap).is_zero();
            for (i, landing) in jump.landings.iter().enumerate() {
                let mut found_turns = Dirs::default();
                if (landing.pieces & !now).any() {
                    for &(turn, piece) in &landing.turns_from {
                        if piece.any() && (piece & now).is_zero() {
                            found_turns.push(turn);
                        }
                    }
                }
                if goes_straight && i == 0 {
                    let mut next = Dirs::default();
                    next.push(d);
                    for &turn in found_turns.as_slice() {
                        next.push(turn);
                    }
                    onward.push((landing.land, next, now, over_i));
                } else if !found_turns.is_empty() {
                    onward.push((landing.land, found_turns, now, over_i));
                }
            }
            if onward.len() > continuations {
                continue;
            }
            let mut lands = jump.lands;
            if behind_last_king && (jump.over & self.opponent_kings).any() {
                lands = jump.landings.first().map_or(B::ZERO, |l| B::bit(l.land));
            }
            if self.record {
                self.order.push(over_i);
            }
            while lands.any() {
                let land = t.nearest(d, lands);
                lands ^= land;
                let at = land.lowest_index();
                if self.record {
                    self.path.push(at);
                }
                self.push_found(at, now, promoted);
                if self.record {
                    self.path.pop();
                }
            }
            if self.record {
                self.order.pop();
            }
        }
        self.go_on(onward, promoted)?;
        Ok(jumped)
    }

    // --- the value bound ---

    fn value(&self, taken: B) -> u64 {
        let (man, king) = self.g.facts.value_weights.unwrap_or((1, 1));
        let kings = taken & self.opponent_kings;
        man as u64 * (taken ^ kings).count() as u64 + king as u64 * kings.count() as u64
    }

    fn hopeless(&mut self, cur: u32, cap: B) -> Result<bool, Halt> {
        if self.bound.is_none() {
            self.bound = Some(Bound {
                best: 0,
                scored: 0,
                work: 0,
                next_check: CHECK_EVERY * BOUND_WORK_PER_STATE,
                graph: None,
                graph_start: u32::MAX,
                longest: Map::default(),
            });
        }
        let mut best = self.bound.as_ref().map_or(0, |b| b.best);
        let scored = self.bound.as_ref().map_or(0, |b| b.scored);
        for raw in &self.found[scored..] {
            best = best.max(self.value(raw.captured));
        }
        let found_len = self.found.len();
        let need = best as i128 - self.value(cap) as i128;
        let start = self.start;
        let rebuild = {
            let bound = self.bound.as_mut().expect("made above");
            bound.best = best;
            bound.scored = found_len;
            if need <= 0 {
                return Ok(false);
            }
            bound.graph.is_none() || bound.graph_start != start
        };
        if rebuild {
            let graph = Rc::new(self.piece_graph());
            let bound = self.bound.as_mut().expect("made above");
            bound.graph = Some(graph);
            bound.graph_start = start;
            bound.longest.clear();
        }
        let graph = self
            .bound
            .as_ref()
            .and_then(|b| b.graph.clone())
            .expect("made above");
        let rest = graph.pieces & !cap;
        if rest.count() > LONGEST_PIECES {
            return Ok(false);
        }
        if let Some(firsts) = graph.firsts.get(&cur) {
            for &node in firsts {
                if (graph.piece[node] & rest).any()
                    && self.longest(&graph, node, rest)? as i128 >= need
                {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    fn piece_graph(&mut self) -> PieceGraph<B> {
        let squares = self.free_now | B::bit(self.start);
        let mut index: Map<(u32, u8), usize> = Map::default();
        let mut nodes: Vec<(B, B, B)> = Vec::new(); // (piece, froms, lands)
        for at in squares.iter() {
            let table = self.table(at);
            for (d, jump) in table.iter().enumerate() {
                if let Some(jump) = jump {
                    let key = (jump.over.lowest_index(), d as u8);
                    let i = *index.entry(key).or_insert_with(|| {
                        nodes.push((jump.over, B::ZERO, B::ZERO));
                        nodes.len() - 1
                    });
                    nodes[i].1 |= B::bit(at);
                    nodes[i].2 = jump.lands;
                }
            }
        }
        let successors = nodes
            .iter()
            .map(|&(piece, _, lands)| {
                nodes
                    .iter()
                    .enumerate()
                    .filter(|&(_, &(other, froms, _))| other != piece && (froms & lands).any())
                    .map(|(j, _)| j)
                    .collect()
            })
            .collect();
        let mut firsts = Map::default();
        for at in squares.iter() {
            let list: Vec<usize> = nodes
                .iter()
                .enumerate()
                .filter(|&(_, &(_, froms, _))| froms.has(at))
                .map(|(i, _)| i)
                .collect();
            firsts.insert(at, list);
        }
        let (man, king) = self.g.facts.value_weights.unwrap_or((1, 1));
        let mut pieces = B::ZERO;
        for &(piece, _, _) in &nodes {
            pieces |= piece;
        }
        PieceGraph {
            piece: nodes.iter().map(|n| n.0).collect(),
            weight: nodes
                .iter()
                .map(|n| {
                    if (n.0 & self.opponent_kings).any() {
                        king as u64
                    } else {
                        man as u64
                    }
                })
                .collect(),
            successors,
            firsts,
            pieces,
        }
    }

    fn longest(&mut self, graph: &PieceGraph<B>, node: usize, rest: B) -> Result<u64, Halt> {
        if let Some(&best) = self
            .bound
            .as_ref()
            .and_then(|b| b.longest.get(&(node, rest)))
        {
            return Ok(best);
        }
        let check = {
            let bound = self.bound.as_mut().expect("bound exists");
            bound.work += 1;
            bound.work >= bound.next_check
        };
        if check {
            self.checkpoint()?;
            let bound = self.bound.as_mut().expect("bound exists");
            bound.next_check = bound.work + CHECK_EVERY * BOUND_WORK_PER_STATE;
        }
        let left = rest ^ graph.piece[node];
        let mut best = 0;
        for &after in &graph.successors[node] {
            if (graph.piece[after] & left).any() {
                let value = self.longest(graph, after, left)?;
                if value > best {
                    best = value;
                }
            }
        }
        best += graph.weight[node];
        if let Some(bound) = self.bound.as_mut() {
            bound.longest.insert((node, rest), best);
        }
        Ok(best)
    }

    /// One search: each man that can jump, then each king.
    fn run(&mut self, input: &SearchInput<B>) -> Result<(), Halt> {
        let g = self.g;
        let t = &g.tables;
        let side = &g.sides[self.color];
        let pieces = t.board & !input.empty;
        if input.men.any() {
            let mut jumpers = B::ZERO;
            for &(a, a2) in &side.jumps_up {
                jumpers |= self.man_prey.down(a) & input.empty.down(a2);
            }
            for &(a, a2) in &side.jumps_down {
                jumpers |= self.man_prey.up(a) & input.empty.up(a2);
            }
            jumpers &= input.men;
            for start in jumpers.iter() {
                self.begin(start, pieces);
                self.short(start, B::ZERO, false, false)?;
            }
        }
        for start in input.kings.iter() {
            self.begin(start, pieces);
            if t.flying {
                self.fly(start, B::ZERO, side.king_dirs, false)?;
            } else {
                self.short(start, B::ZERO, true, false)?;
            }
        }
        Ok(())
    }
}

/// Every capture path of one side before precedence; every path, or (`every_path` false and no
/// criterion reading the capture order) at least the first in square order of each move.
pub(crate) fn search<B: Bits>(
    g: &Generator<B>,
    input: &SearchInput<B>,
    record: bool,
    every_path: bool,
    abort: Abort<'_>,
) -> Result<Vec<RawCapture<B>>, Error> {
    let budget = if every_path || g.facts.needs_order {
        0
    } else {
        EXPLOSION
    };
    let mut run = Run::new(g, input, record, budget, false, abort);
    match run.run(input) {
        Ok(()) => return Ok(core::mem::take(&mut run.found)),
        Err(Halt::Fail(e)) => return Err(e),
        Err(Halt::Explosion) => {}
    }
    let mut run = Run::new(g, input, record, 0, true, abort);
    match run.run(input) {
        Ok(()) => Ok(core::mem::take(&mut run.found)),
        Err(Halt::Fail(e)) => Err(e),
        // Without a budget a search never explodes.
        Err(Halt::Explosion) => Ok(core::mem::take(&mut run.found)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{directions, RulesSpec};
    use crate::state::Node;

    fn russian() -> Generator<u64> {
        Generator::new(&RulesSpec {
            men_capture: directions::DIAGONAL,
            flying_kings: true,
            capture_promotion: CapturePromotion::ContinuesAsKing,
            ..RulesSpec::default()
        })
        .unwrap()
    }

    fn bit(g: &Generator<u64>, square: u32) -> u64 {
        1 << g.tables.layout.bit_of_square[square as usize]
    }

    #[test]
    fn a_man_crowned_mid_capture_goes_on_as_a_flying_king() {
        // A white man takes (2, 6), lands on the crowning row at (3, 7), and flies on over (5, 5).
        let g = russian();
        let geo = &g.tables.layout.geometry;
        let sq = |x, y| geo.square_at(x, y).unwrap();
        let own = bit(&g, sq(1, 5));
        let opp = bit(&g, sq(2, 6)) | bit(&g, sq(5, 5));
        let node = Node {
            own,
            opp,
            kings: 0,
            color: 0,
            state: 0,
        };
        let legal = g.legal(&node, false, None).unwrap();
        assert_eq!(legal.len(), 2);
        for m in &legal {
            assert_eq!(m.captured.as_slice(), [sq(2, 6), sq(5, 5)]);
            assert!(m.promotes);
            assert_eq!(m.path.as_slice(), [sq(1, 5), sq(3, 7), m.end]);
        }
        let ends: Vec<u32> = legal.iter().map(|m| m.end).collect();
        assert!(ends.contains(&sq(6, 4)) && ends.contains(&sq(7, 3)));
    }

    #[test]
    fn dirs_hold_at_most_eight() {
        let d = Dirs::from_slice(&[0, 1, 2, 3, 4, 5, 6, 7, 0]);
        assert_eq!(d.as_slice().len(), 8);
        assert!(Dirs::default().is_empty());
    }
}

//! The engine's per-node search: principal-variation alpha-beta with a transposition table,
//! quiescence over captures (and one ply more against a threatened capture or crowning), move
//! ordering (transposition-table move, killers, history, most captured first), forward pruning,
//! late-move reductions, repetitions, the game's draw rules along each line
//! ([`crate::drawsearch`]), an optional tablebase probe, and limits (nodes, a poll for the clock
//! and the stop flag, also read inside long capture generations).
//!
//! It is the recursion of Python's `draughts.engine.search.Searcher` move for move (the same
//! nodes in the same order, the same scores), on the generic [`Generator`]: the caller (the
//! root, in Python) scores each root move with [`Searcher::search`] or [`Searcher::quiesce`].
//! Nothing here names a variant.

use std::cell::Cell;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::bitboard::Bits;
use crate::drawsearch::DrawTrack;
use crate::error::Error;
use crate::evaluation::Evaluation;
use crate::generator::Generator;
use crate::state::{Compact, Node};

/// The score of a won game (less the plies to the win).
pub const MATE: i64 = 1_000_000;
/// Scores beyond this are wins or losses in a number of plies.
pub const MATE_BOUND: i64 = MATE - 10_000;
/// Above every score.
pub const INF: i64 = MATE + 1;
/// The deepest iteration (the per-ply tables have room for 256 plies more of quiescence).
pub const MAX_DEPTH: i32 = 64;
/// Nodes between two polls of the clock and the stop flag.
pub const CHECK_EVERY: u64 = 256;
/// How many times on one line the quiescence search looks a ply further against a threat.
pub const THREATS: i32 = 1;
/// Forward pruning: at a quiet node `depth` plies from the horizon (3 or more), a search of
/// `2/5` of the depth that beats beta by `PRUNE * depth` ends the node.
pub const PRUNE: i64 = 10;
/// Transposition-table flag: the stored score is exact.
pub const EXACT: u8 = 0;
/// The stored score is a lower bound.
pub const LOWER: u8 = 1;
/// The stored score is an upper bound.
pub const UPPER: u8 = 2;
const PLIES: usize = MAX_DEPTH as usize + 256;
/// Plies a [`DrawTrack`] of a search needs (every ply the per-ply tables have, and the root).
pub const TRACK_PLIES: usize = PLIES + 1;

type Map<K, V> = HashMap<K, V, BuildHasherDefault<NodeHasher>>;

/// A multiplicative hasher for the search's maps (nodes and moves: a few machine words each;
/// the maps are the engine's own, so no protection against chosen keys is needed).
#[derive(Default, Clone, Copy)]
pub struct NodeHasher(u64);

impl std::hash::Hasher for NodeHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
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
    fn write_u128(&mut self, value: u128) {
        self.write_u64(value as u64);
        self.write_u64((value >> 64) as u64);
    }
    #[inline]
    fn write_u8(&mut self, value: u8) {
        self.write_u64(u64::from(value));
    }
    #[inline]
    fn write_u32(&mut self, value: u32) {
        self.write_u64(u64::from(value));
    }
    #[inline]
    fn write_usize(&mut self, value: usize) {
        self.write_u64(value as u64);
    }
}

/// A transposition-table entry: depth, score (mates counted from the node), flag, best move, and
/// when it was first written (the quarter written first goes when the table is full).
#[derive(Clone, Copy, Debug)]
pub struct Entry<B: Bits> {
    /// The depth searched.
    pub depth: i32,
    /// The score (mates from this node).
    pub score: i64,
    /// [`EXACT`], [`LOWER`] or [`UPPER`].
    pub flag: u8,
    /// The best move found.
    pub best: Option<Compact<B>>,
    order: u64,
}

/// Why a search stopped before its answer.
#[derive(Debug)]
pub enum Halt {
    /// A limit was reached (nodes, the clock, the stop flag): the caller keeps what it has.
    Stop,
    /// An error (a capture search too large, a callback's failure).
    Fail(Error),
}

impl From<Error> for Halt {
    fn from(error: Error) -> Self {
        Halt::Fail(error)
    }
}

/// The evaluation at the leaves: the built-in one, or a callback (a user's evaluation).
pub enum Leaf<'a, B: Bits> {
    /// The built-in evaluation.
    Built(&'a Evaluation<B>),
    /// `f(node) -> score` for the side to move.
    Custom(&'a dyn Fn(&Node<B>) -> Result<i64, Error>),
}

/// A tablebase probe: `f(node, ply)`, the node's exact score (mates counted from the root at
/// `ply`), `None` outside the built tables.
pub type Probe<'a, B> = &'a dyn Fn(&Node<B>, i32) -> Result<Option<i64>, Error>;

/// What one call of the search reads from its caller.
pub struct Hooks<'a, B: Bits> {
    /// Every [`CHECK_EVERY`] nodes and inside long generations: `Ok(true)` to stop (the clock,
    /// the stop flag), an error to fail (Ctrl-C).
    pub poll: &'a dyn Fn() -> Result<bool, Error>,
    /// The evaluation.
    pub leaf: Leaf<'a, B>,
    /// Exact scores from endgame tables, `f(node, ply)` (`None` outside them), asked at nodes
    /// with at most `probe_pieces` pieces and no rule state.
    pub probe: Option<Probe<'a, B>>,
    /// The most pieces of a node `probe` is asked about.
    pub probe_pieces: u32,
}

/// The search's state: the transposition table (kept between searches) and what one search
/// shares between its calls (killers, history, the game's positions, principal variations,
/// nodes and the node limit).
#[derive(Clone, Debug)]
pub struct Searcher<B: Bits> {
    /// Entries by node and the draw counts' key ([`DrawTrack::key`], 0 far from every limit).
    table: Map<(Node<B>, u64), Entry<B>>,
    written: u64,
    /// Most entries the table keeps.
    pub hash_size: usize,
    killers: Vec<[Option<Compact<B>>; 2]>,
    history: [Map<Compact<B>, i64>; 2],
    seen: Map<Node<B>, u32>,
    /// The principal variation found from each ply (written at PV nodes).
    pub pvt: Vec<Vec<Compact<B>>>,
    /// Nodes searched since [`Searcher::begin`].
    pub nodes: u64,
    next_check: u64,
    max_nodes: u64,
    repetitions: bool,
    /// The helper searchers of a search on several threads ([`crate::parallel`]), each with its
    /// own table, kept between searches like this one's.
    pub helpers: Vec<Searcher<B>>,
    /// Of a search on several threads: the nodes on its longest path (each iteration, the most
    /// any one thread searched), what the search costs in time when every thread has a core.
    pub critical: u64,
    /// The draw rules' counts along the line (None: not carried, as for rules without them).
    draws: Option<Box<DrawTrack<B>>>,
}

/// The search of one node: the generator, the hooks and the state, for one call.
struct Run<'a, 's, B: Bits> {
    g: &'a Generator<B>,
    hooks: &'a Hooks<'a, B>,
    s: &'s mut Searcher<B>,
    stopped: &'a Cell<bool>,
    abort: &'a dyn Fn() -> Result<(), Error>,
}

impl<B: Bits> Searcher<B> {
    /// An empty searcher keeping at most `hash_size` table entries.
    pub fn new(hash_size: usize) -> Self {
        Searcher {
            table: Map::with_capacity_and_hasher(hash_size.clamp(1, 1 << 12), Default::default()),
            written: 0,
            hash_size: hash_size.max(1),
            killers: vec![[None, None]; PLIES],
            history: [Map::default(), Map::default()],
            seen: Map::default(),
            pvt: vec![Vec::new(); PLIES],
            nodes: 0,
            next_check: CHECK_EVERY,
            max_nodes: u64::MAX,
            repetitions: false,
            helpers: Vec::new(),
            critical: 0,
            draws: None,
        }
    }

    /// Starts a helper's search as `main`'s started: the same nodes met before, node limit and
    /// repetition rule.
    pub fn begin_like(&mut self, main: &Searcher<B>) {
        self.begin(&[], main.max_nodes, main.repetitions);
        self.seen = main.seen.clone();
        self.draws.clone_from(&main.draws);
    }

    /// Starts a search: fresh killers, history and variations, no nodes yet, at most `max_nodes`;
    /// `seen` are the nodes met before (repetitions draw where `repetitions`); no draw counts
    /// carried until [`Searcher::track_draws`].
    pub fn begin(&mut self, seen: &[Node<B>], max_nodes: u64, repetitions: bool) {
        self.killers.iter_mut().for_each(|k| *k = [None, None]);
        self.history = [Map::default(), Map::default()];
        self.seen.clear();
        for node in seen {
            *self.seen.entry(*node).or_insert(0) += 1;
        }
        self.pvt.iter_mut().for_each(Vec::clear);
        self.nodes = 0;
        self.critical = 0;
        self.max_nodes = max_nodes;
        self.next_check = CHECK_EVERY.min(max_nodes);
        self.repetitions = repetitions;
        self.draws = None;
    }

    /// Carries the game's draw counts along the search's lines from the root `track` starts at
    /// (after [`Searcher::begin`]; None: none carried). The root's children are searched at
    /// ply 1, their children at ply 2, and so on.
    pub fn track_draws(&mut self, track: Option<DrawTrack<B>>) {
        self.draws = track.map(Box::new);
    }

    /// The table key of the draw counts at `ply` for a search `depth` plies deep.
    #[inline]
    fn draw_key(&self, ply: i32, depth: i32) -> u64 {
        match &self.draws {
            Some(track) => track.key(ply as usize, depth),
            None => 0,
        }
    }

    /// Records the root's child `node` (a search entered at ply 1) on the draw track.
    fn enter_root_child(&mut self, node: &Node<B>, ply: i32) {
        if ply == 1 {
            if let Some(track) = self.draws.as_deref_mut() {
                track.enter_root_child(node);
            }
        }
    }

    /// Counts `node` as met once more on the game's line (the root).
    pub fn see(&mut self, node: &Node<B>) {
        *self.seen.entry(*node).or_insert(0) += 1;
    }

    /// How many entries the table holds.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// Forgets the table (and the helpers' tables).
    pub fn clear(&mut self) {
        self.table.clear();
        self.helpers.clear();
    }

    /// The table's entry of `node` (searched far from every draw rule's limit).
    pub fn entry(&self, node: &Node<B>) -> Option<Entry<B>> {
        self.table.get(&(*node, 0)).copied()
    }

    /// Forgets the quarter of a full table written first.
    fn make_room(&mut self) {
        let mut orders: Vec<u64> = self.table.values().map(|e| e.order).collect();
        let drop = orders.len() / 4 + 1;
        if drop >= orders.len() {
            self.table.clear();
            return;
        }
        orders.select_nth_unstable(drop - 1);
        let cut = orders[drop - 1];
        self.table.retain(|_, e| e.order > cut);
    }

    /// Keeps a score in the table (`score` from the root's view at `ply`; mates stored from the
    /// node; keyed with the draw counts at `ply`).
    pub fn store(
        &mut self,
        node: Node<B>,
        depth: i32,
        score: i64,
        flag: u8,
        best: Option<Compact<B>>,
        ply: i32,
    ) {
        if self.table.len() >= self.hash_size {
            self.make_room(); // as Python's table did: even when `node` is in it
        }
        let key = (node, self.draw_key(ply, depth));
        let ply = i64::from(ply);
        let stored = if score >= MATE_BOUND {
            score + ply
        } else if score <= -MATE_BOUND {
            score - ply
        } else {
            score
        };
        let order = match self.table.get(&key) {
            Some(old) => old.order,
            None => {
                self.written += 1;
                self.written
            }
        };
        self.table.insert(
            key,
            Entry {
                depth,
                score: stored,
                flag,
                best,
                order,
            },
        );
    }

    /// Principal-variation alpha-beta: the score of `node` for its side to move, `depth` plies
    /// from the horizon, `ply` plies below the root.
    ///
    /// # Errors
    /// [`Halt::Stop`] at a limit, [`Halt::Fail`] on an error.
    #[allow(clippy::too_many_arguments)]
    pub fn search(
        &mut self,
        g: &Generator<B>,
        hooks: &Hooks<'_, B>,
        node: &Node<B>,
        depth: i32,
        alpha: i64,
        beta: i64,
        ply: i32,
    ) -> Result<i64, Halt> {
        self.enter_root_child(node, ply);
        self.with_run(g, hooks, |run| {
            run.clear_pv(ply); // a null-window search leaves the line as it finds it
            run.search(node, depth, alpha, beta, ply)
        })
    }

    /// The quiescence search of `node` (captures, then threats up to `threats` times).
    ///
    /// # Errors
    /// As [`Searcher::search`].
    #[allow(clippy::too_many_arguments)]
    pub fn quiesce(
        &mut self,
        g: &Generator<B>,
        hooks: &Hooks<'_, B>,
        node: &Node<B>,
        alpha: i64,
        beta: i64,
        ply: i32,
        threats: i32,
    ) -> Result<i64, Halt> {
        self.enter_root_child(node, ply);
        self.with_run(g, hooks, |run| {
            run.clear_pv(ply);
            run.quiesce(node, alpha, beta, ply, threats)
        })
    }

    fn with_run<T>(
        &mut self,
        g: &Generator<B>,
        hooks: &Hooks<'_, B>,
        work: impl FnOnce(&mut Run<'_, '_, B>) -> Result<T, Halt>,
    ) -> Result<T, Halt> {
        let stopped = Cell::new(false);
        let abort = || match (hooks.poll)() {
            Ok(true) => {
                stopped.set(true);
                Err(Error::Interrupted("a search limit".into()))
            }
            Ok(false) => Ok(()),
            Err(error) => Err(error),
        };
        let mut run = Run {
            g,
            hooks,
            s: self,
            stopped: &stopped,
            abort: &abort,
        };
        work(&mut run)
    }
}

/// The score of a node where the game is over by the rules of play (no move, or a crowning that wins).
pub fn terminal<B: Bits>(g: &Generator<B>, own: B, kings: B, ply: i32) -> i64 {
    let ply = i64::from(ply);
    if g.tables.crowning_wins && kings.any() {
        return if (own & kings).any() {
            MATE - ply
        } else {
            ply - MATE
        };
    }
    if g.no_move_wins {
        MATE - ply
    } else {
        ply - MATE
    }
}

fn captured_count<B: Bits>(m: &Compact<B>) -> u32 {
    m.captured.count()
}

/// `moves` by history score, highest first, in a stable sort (equal scores keep their order);
/// each score is looked up once, and the few moves of a node are sorted by insertion.
fn by_history<B: Bits>(moves: &mut [Compact<B>], history: &Map<Compact<B>, i64>) {
    if history.is_empty() {
        return; // every score 0: the stable sort keeps the order
    }
    const FEW: usize = 64;
    if moves.len() > FEW {
        moves.sort_by_cached_key(|m| std::cmp::Reverse(history.get(m).copied().unwrap_or(0)));
        return;
    }
    let mut keys = [0i64; FEW];
    for (key, m) in keys.iter_mut().zip(moves.iter()) {
        *key = history.get(m).copied().unwrap_or(0);
    }
    for i in 1..moves.len() {
        let (key, m) = (keys[i], moves[i]);
        let mut j = i;
        while j > 0 && keys[j - 1] < key {
            keys[j] = keys[j - 1];
            moves[j] = moves[j - 1];
            j -= 1;
        }
        keys[j] = key;
        moves[j] = m;
    }
}

fn move_to_front<B: Bits>(moves: &mut Vec<Compact<B>>, m: Compact<B>) {
    if let Some(at) = moves.iter().position(|x| *x == m) {
        let found = moves.remove(at);
        moves.insert(0, found);
    }
}

impl<B: Bits> Run<'_, '_, B> {
    fn check(&mut self) -> Result<(), Halt> {
        if self.s.nodes >= self.s.max_nodes || (self.hooks.poll)()? {
            return Err(Halt::Stop);
        }
        self.s.next_check = (self.s.nodes + CHECK_EVERY).min(self.s.max_nodes);
        Ok(())
    }

    /// Counts a node, polling at the check interval.
    #[inline(always)]
    fn count(&mut self) -> Result<(), Halt> {
        if self.s.nodes >= self.s.next_check {
            self.check()?;
        }
        self.s.nodes += 1;
        Ok(())
    }

    /// A generator result: an interruption by the poll is a stop.
    fn generated(&self, result: Result<Vec<Compact<B>>, Error>) -> Result<Vec<Compact<B>>, Halt> {
        result.map_err(|error| {
            if self.stopped.get() {
                Halt::Stop
            } else {
                Halt::Fail(error)
            }
        })
    }

    fn moves(&self, node: &Node<B>) -> Result<Vec<Compact<B>>, Halt> {
        self.generated(self.g.moves(node, false, Some(self.abort)))
    }

    fn captures(&self, node: &Node<B>) -> Result<Vec<Compact<B>>, Halt> {
        self.generated(self.g.captures(node, Some(self.abort)))
    }

    fn leaf(&self, node: &Node<B>) -> Result<i64, Halt> {
        match self.hooks.leaf {
            Leaf::Built(eval) => Ok(eval.evaluate(node.own, node.opp, node.kings, node.color)),
            Leaf::Custom(f) => Ok(f(node)?),
        }
    }

    fn tablebase(&self, node: &Node<B>, ply: i32) -> Result<Option<i64>, Halt> {
        match self.hooks.probe {
            Some(probe)
                if self.hooks.probe_pieces > 0
                    && node.state == 0
                    && (node.own | node.opp).count() <= self.hooks.probe_pieces =>
            {
                Ok(probe(node, ply)?)
            }
            _ => Ok(None),
        }
    }

    /// The child of `node` after `m`, at `ply`, its draw counts recorded.
    #[inline]
    fn play(&mut self, node: &Node<B>, m: &Compact<B>, ply: i32) -> Node<B> {
        let child = self.g.play(node, m);
        if let Some(track) = self.s.draws.as_deref_mut() {
            track.enter(ply as usize, node, m, &child);
        }
        child
    }

    /// Whether the game's draw rules end the game at `node` (at `ply`) in a draw: a count at its
    /// limit and the rule's conditions holding, and a legal move left (without one the game is
    /// lost, not drawn).
    #[inline(always)]
    fn drawn(&self, node: &Node<B>, ply: i32) -> Result<bool, Halt> {
        match self.s.draws.as_deref() {
            Some(track) if track.alarm(ply as usize) => self.drawn_now(track, node, ply),
            _ => Ok(false),
        }
    }

    /// [`Run::drawn`] where a count has reached its limit.
    #[cold]
    fn drawn_now(&self, track: &DrawTrack<B>, node: &Node<B>, ply: i32) -> Result<bool, Halt> {
        if (self.g.tables.crowning_wins && node.kings.any())
            || !(self.can_step(node) || self.g.can_capture(node))
        {
            return Ok(false);
        }
        let mut shot = || self.shot(node);
        track.draws(node, ply as usize, &mut shot).map_err(|error| {
            if self.stopped.get() {
                Halt::Stop // the poll stopped a generation: a limit, not a failure
            } else {
                Halt::Fail(error)
            }
        })
    }

    /// Whether the side to move has a shot in the air: it can capture, or every move of it lets
    /// the opponent capture (an endgame rule's condition).
    fn shot(&self, node: &Node<B>) -> Result<bool, Error> {
        if self.g.can_capture(node) {
            return Ok(true);
        }
        let moves = self.g.moves(node, false, Some(self.abort))?;
        Ok(!moves.is_empty()
            && moves
                .iter()
                .all(|m| self.g.can_capture(&self.g.play(node, m))))
    }

    fn clear_pv(&mut self, ply: i32) {
        if let Some(line) = self.s.pvt.get_mut(ply as usize) {
            line.clear();
        }
    }

    /// `pvt[ply] = move + pvt[ply + 1]`.
    fn extend_pv(&mut self, ply: i32, m: Compact<B>) {
        let ply = ply as usize;
        if ply + 1 >= self.s.pvt.len() {
            return;
        }
        let (head, tail) = self.s.pvt.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    fn can_step(&self, node: &Node<B>) -> bool {
        let t = &self.g.tables;
        let c = usize::from(node.color & 1);
        let empty = t.board ^ (node.own | node.opp);
        let men = node.own & !node.kings;
        if t.man_moves[c]
            .iter()
            .any(|s| (men.shift(s.amount, s.up) & empty).any())
        {
            return true;
        }
        let own_kings = node.own & node.kings;
        own_kings.any()
            && t.king_moves[c]
                .iter()
                .any(|s| (own_kings.shift(s.amount, s.up) & empty).any())
    }

    /// Whether a man of `color` (with pieces `own`) can crown with a quiet step.
    fn can_crown(&self, own: B, opp: B, kings: B, color: u8) -> bool {
        let t = &self.g.tables;
        let c = usize::from(color & 1);
        let men = own & !kings;
        if men.is_zero() {
            return false;
        }
        let landing = (t.board ^ (own | opp)) & t.crown_row[c];
        if landing.is_zero() {
            return false;
        }
        let mut reach = B::ZERO;
        for s in &t.man_moves[c] {
            reach |= men.shift(s.amount, s.up);
        }
        (reach & landing).any()
    }

    /// What is known of a node before its moves are listed: `Ok(Ok(score))` when that ends it,
    /// else `Ok(Err(the table's move))`.
    #[allow(clippy::type_complexity)]
    fn known(
        &mut self,
        node: &Node<B>,
        depth: i32,
        alpha: i64,
        beta: i64,
        ply: i32,
        pv_node: bool,
    ) -> Result<Result<i64, Option<Compact<B>>>, Halt> {
        if self.s.repetitions && self.s.seen.contains_key(node) {
            return Ok(Ok(0));
        }
        if self.drawn(node, ply)? {
            return Ok(Ok(0));
        }
        if let Some(score) = self.tablebase(node, ply)? {
            return Ok(Ok(score));
        }
        let key = (*node, self.s.draw_key(ply, depth));
        let Some(entry) = self.s.table.get(&key) else {
            return Ok(Err(None));
        };
        if entry.depth >= depth && !pv_node {
            // Not at PV nodes: keep the PV whole.
            if let Some(score) = cut(entry, alpha, beta, ply) {
                return Ok(Ok(score));
            }
        }
        Ok(Err(entry.best))
    }

    fn order_quiet(&mut self, moves: &mut [Compact<B>], color: u8, ply: i32) {
        by_history(moves, &self.s.history[usize::from(color & 1)]);
        let killers = self.s.killers[ply as usize];
        for killer in killers.iter().rev().flatten() {
            if *killer != moves[0] {
                if let Some(at) = moves.iter().position(|x| x == killer) {
                    moves[..=at].rotate_right(1);
                }
            }
        }
    }

    fn remember(&mut self, m: Compact<B>, color: u8, depth: i32, ply: i32) {
        let slot = &mut self.s.killers[ply as usize];
        if slot[0] != Some(m) {
            slot[1] = slot[0];
            slot[0] = Some(m);
        }
        *self.s.history[usize::from(color & 1)].entry(m).or_insert(0) +=
            i64::from(depth) * i64::from(depth);
    }

    fn search(
        &mut self,
        node: &Node<B>,
        depth: i32,
        alpha: i64,
        beta: i64,
        ply: i32,
    ) -> Result<i64, Halt> {
        self.count()?;
        let pv_node = beta - alpha > 1;
        if pv_node {
            self.clear_pv(ply);
        }
        let tt_move = match self.known(node, depth, alpha, beta, ply, pv_node)? {
            Ok(score) => return Ok(score),
            Err(tt_move) => tt_move,
        };
        let mut moves = self.moves(node)?;
        if moves.is_empty() {
            return Ok(terminal(self.g, node.own, node.kings, ply));
        }
        let mut depth = depth;
        if moves.len() == 1 {
            if ply < MAX_DEPTH {
                depth += 1; // a forced move costs no depth
            }
        } else if moves[0].captured.any() {
            if self.g.tables.capture_mandatory {
                moves.sort_by_key(|m| std::cmp::Reverse(captured_count(m)));
            }
        } else {
            if PRUNE != 0 && !pv_node && depth >= 3 && -MATE_BOUND < beta && beta < MATE_BOUND {
                // A shallow search that beats beta by a margin: the deep one would too.
                let margin = PRUNE * i64::from(depth);
                let raised = beta + margin;
                let score = self.search(node, depth * 2 / 5, raised - 1, raised, ply)?;
                if score >= raised {
                    return Ok(score - margin);
                }
            }
            self.order_quiet(&mut moves, node.color, ply);
        }
        if let Some(m) = tt_move {
            if moves.len() > 1 && m != moves[0] {
                move_to_front(&mut moves, m);
            }
        }
        self.search_moves(node, &moves, depth, alpha, beta, ply, pv_node)
    }

    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        node: &Node<B>,
        moves: &[Compact<B>],
        depth: i32,
        mut alpha: i64,
        beta: i64,
        ply: i32,
        pv_node: bool,
    ) -> Result<i64, Halt> {
        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let new_depth = depth - 1;
        let after = ply + 1;
        let reduce = depth >= 3 && moves[0].captured.is_zero();
        if self.s.repetitions {
            self.s.seen.insert(*node, 1);
        }
        let result: Result<(), Halt> = (|| {
            for (index, m) in moves.iter().enumerate() {
                let child = self.play(node, m, after);
                if pv_node {
                    self.clear_pv(after);
                }
                let score = if index == 0 {
                    self.deeper(&child, new_depth, -beta, -alpha, after)?
                } else {
                    // Late quiet moves are first searched one ply shallower.
                    let quiet = m.crowned.is_zero() || m.crowned == m.moved; // not a crowning
                    let mut reduced = new_depth;
                    if reduce && index >= 3 && quiet {
                        reduced -= 1;
                    }
                    let mut score = self.deeper(&child, reduced, -alpha - 1, -alpha, after)?;
                    if score > alpha && reduced < new_depth {
                        score = -self.search(&child, new_depth, -alpha - 1, -alpha, after)?;
                    }
                    if pv_node && alpha < score && score < beta {
                        self.clear_pv(after);
                        score = self.deeper(&child, new_depth, -beta, -alpha, after)?;
                    }
                    score
                };
                if score > best {
                    best = score;
                    best_move = Some(*m);
                    if score > alpha {
                        alpha = score;
                        if pv_node {
                            self.extend_pv(ply, *m);
                        }
                        if alpha >= beta {
                            if m.captured.is_zero() {
                                self.remember(*m, node.color, depth, ply);
                            }
                            break;
                        }
                    }
                }
            }
            Ok(())
        })();
        if self.s.repetitions {
            self.s.seen.remove(node);
        }
        result?;
        let flag = if best <= original_alpha {
            UPPER
        } else if best >= beta {
            LOWER
        } else {
            EXACT
        };
        self.s.store(*node, depth, best, flag, best_move, ply);
        Ok(best)
    }

    /// The child's score for the mover: a search of `depth` plies, or the quiescence search at 0.
    fn deeper(
        &mut self,
        child: &Node<B>,
        depth: i32,
        alpha: i64,
        beta: i64,
        ply: i32,
    ) -> Result<i64, Halt> {
        Ok(if depth > 0 {
            -self.search(child, depth, alpha, beta, ply)?
        } else {
            -self.quiesce(child, alpha, beta, ply, THREATS)?
        })
    }

    fn quiesce(
        &mut self,
        node: &Node<B>,
        alpha: i64,
        beta: i64,
        ply: i32,
        threats: i32,
    ) -> Result<i64, Halt> {
        self.count()?;
        let pv_node = beta - alpha > 1;
        if pv_node {
            self.clear_pv(ply);
        }
        if self.drawn(node, ply)? {
            return Ok(0);
        }
        if let Some(score) = self.tablebase(node, ply)? {
            return Ok(score);
        }
        let Node { own, kings, .. } = *node;
        if self.g.tables.crowning_wins && kings.any() {
            return Ok(terminal(self.g, own, kings, ply));
        }
        if !self.g.can_capture(node) {
            return self.quiet_leaf(node, alpha, beta, ply, threats);
        }
        // Capture sequences meet the same positions again and again: the table keeps them (as
        // depth 0, or -1 when found without looking at threats).
        let level = threats - THREATS;
        let entry = self
            .s
            .table
            .get(&(*node, self.s.draw_key(ply, level)))
            .copied();
        let mut tt_move = None;
        if let Some(e) = entry {
            tt_move = e.best;
            if e.depth >= level && !pv_node {
                if let Some(score) = cut(&e, alpha, beta, ply) {
                    return Ok(score);
                }
            }
        }
        let mut captures = self.captures(node)?;
        let mut best = -INF;
        let mut alpha = alpha;
        let original_alpha = alpha;
        if !self.g.tables.capture_mandatory {
            best = self.leaf(node)?; // stand pat: capturing is optional here
            if best >= beta {
                return Ok(best);
            }
            alpha = alpha.max(best);
        }
        if captures.len() > 1 {
            captures.sort_by_key(|m| std::cmp::Reverse(captured_count(m)));
            if let Some(m) = tt_move {
                if m != captures[0] {
                    move_to_front(&mut captures, m);
                }
            }
        }
        let (best, best_move) =
            self.replies(node, &captures, best, alpha, beta, ply, threats, pv_node)?;
        if best_move.is_some() && entry.is_none_or(|e| e.depth <= level) {
            let flag = if best <= original_alpha {
                UPPER
            } else if best >= beta {
                LOWER
            } else {
                EXACT
            };
            self.s.store(*node, level, best, flag, best_move, ply);
        }
        Ok(best)
    }

    /// A quiescence node without a capture: the end of the game, a ply more against a threat,
    /// a crowning step, or the evaluation.
    fn quiet_leaf(
        &mut self,
        node: &Node<B>,
        alpha: i64,
        beta: i64,
        ply: i32,
        threats: i32,
    ) -> Result<i64, Halt> {
        let Node {
            own,
            opp,
            kings,
            color,
            ..
        } = *node;
        if !self.can_step(node) && self.moves(node)?.is_empty() {
            return Ok(terminal(self.g, own, kings, ply));
        }
        let other = color ^ 1;
        if threats > 0 && ply < MAX_DEPTH {
            let theirs = Node {
                own: opp,
                opp: own,
                kings,
                color: other,
                state: node.state,
            };
            if self.g.can_capture(&theirs) || self.can_crown(opp, own, kings, other) {
                return self.dodge(node, alpha, beta, ply, threats - 1);
            }
        }
        if self.can_crown(own, opp, kings, color) {
            return self.crown(node, alpha, beta, ply, threats);
        }
        self.leaf(node)
    }

    /// A quiet node where a man can crown: the evaluation, or a crowning step if it scores more.
    fn crown(
        &mut self,
        node: &Node<B>,
        alpha: i64,
        beta: i64,
        ply: i32,
        threats: i32,
    ) -> Result<i64, Halt> {
        let best = self.leaf(node)?;
        if best >= beta {
            return Ok(best);
        }
        let crownings: Vec<Compact<B>> = self
            .moves(node)?
            .into_iter()
            .filter(|m| m.crowned.any() && m.crowned != m.moved)
            .collect();
        let pv_node = beta - alpha > 1;
        Ok(self
            .replies(
                node,
                &crownings,
                best,
                alpha.max(best),
                beta,
                ply,
                threats,
                pv_node,
            )?
            .0)
    }

    /// One full-width ply of quiet moves (the side to move has no capture, the opponent has).
    fn dodge(
        &mut self,
        node: &Node<B>,
        alpha: i64,
        beta: i64,
        ply: i32,
        threats: i32,
    ) -> Result<i64, Halt> {
        let mut moves = self.moves(node)?;
        if moves.is_empty() {
            return Ok(terminal(self.g, node.own, node.kings, ply));
        }
        if moves.len() > 1 {
            by_history(&mut moves, &self.s.history[usize::from(node.color & 1)]);
        }
        Ok(self
            .replies(
                node,
                &moves,
                -INF,
                alpha,
                beta,
                ply,
                threats,
                beta - alpha > 1,
            )?
            .0)
    }

    /// The best of `best` (the node's score without `moves`, or `-INF`) and of each of `moves`
    /// followed by the quiescence search, with the move that scored it.
    #[allow(clippy::too_many_arguments)]
    fn replies(
        &mut self,
        node: &Node<B>,
        moves: &[Compact<B>],
        mut best: i64,
        mut alpha: i64,
        beta: i64,
        ply: i32,
        threats: i32,
        pv_node: bool,
    ) -> Result<(i64, Option<Compact<B>>), Halt> {
        let mut best_move = None;
        let after = ply + 1;
        for m in moves {
            let child = self.play(node, m, after);
            if pv_node {
                self.clear_pv(after);
            }
            let score = -self.quiesce(&child, -beta, -alpha, after, threats)?;
            if score > best {
                best = score;
                best_move = Some(*m);
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        self.extend_pv(ply, *m);
                    }
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        Ok((best, best_move))
    }
}

/// The table's score where it ends the node (exact, or a bound outside the window), mates
/// counted from the root at `ply`.
fn cut<B: Bits>(entry: &Entry<B>, alpha: i64, beta: i64, ply: i32) -> Option<i64> {
    let ply = i64::from(ply);
    let mut score = entry.score;
    if score >= MATE_BOUND {
        score -= ply;
    } else if score <= -MATE_BOUND {
        score += ply;
    }
    let ends = entry.flag == EXACT
        || (entry.flag == LOWER && score >= beta)
        || (entry.flag == UPPER && score <= alpha);
    ends.then_some(score)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::RulesSpec;

    /// Material only: a man 100, a king 300.
    fn material(g: &Generator<u64>) -> Evaluation<u64> {
        let bits = g.tables.nbits();
        Evaluation {
            men: [vec![100; bits], vec![100; bits]],
            kings: vec![300; bits],
            board: g.tables.board,
            men_total: 24,
            sign: 1,
            ..Evaluation::default()
        }
    }

    fn node(g: &Generator<u64>, white: &[u32], black: &[u32], color: u8) -> Node<u64> {
        let bits = |squares: &[u32]| {
            squares
                .iter()
                .map(|&s| 1u64 << g.tables.layout.bit_of_square[s as usize])
                .fold(0, |a, b| a | b)
        };
        let (w, b) = (bits(white), bits(black));
        let (own, opp) = if color == 0 { (w, b) } else { (b, w) };
        Node {
            own,
            opp,
            kings: 0,
            color,
            state: 0,
        }
    }

    fn run(
        g: &Generator<u64>,
        n: &Node<u64>,
        depth: i32,
        max_nodes: u64,
    ) -> (Result<i64, Halt>, u64) {
        let eval = material(g);
        let never = || Ok(false);
        let hooks = Hooks {
            poll: &never,
            leaf: Leaf::Built(&eval),
            probe: None,
            probe_pieces: 0,
        };
        let mut s = Searcher::new(1000);
        s.begin(&[], max_nodes, true);
        let score = s.search(g, &hooks, n, depth, -INF, INF, 0);
        (score, s.nodes)
    }

    #[test]
    fn a_capture_of_the_last_piece_is_a_win_in_one_ply() {
        // 8x8 defaults (American checkers' rules); White 18 takes Black 14 (then Black cannot move).
        let g = Generator::<u64>::new(&RulesSpec::default()).unwrap();
        let n = node(&g, &[18], &[14], 0);
        let (score, nodes) = run(&g, &n, 3, u64::MAX);
        assert_eq!(score.unwrap(), MATE - 1); // Black has no move one ply below
        assert!(nodes > 0);
    }

    #[test]
    fn the_node_limit_stops_the_search_exactly() {
        let g = Generator::<u64>::new(&RulesSpec::default()).unwrap();
        let (score, nodes) = run(&g, &g.start(), 12, 300);
        assert!(matches!(score, Err(Halt::Stop)));
        assert_eq!(nodes, 300);
    }

    #[test]
    fn a_line_the_move_count_rule_draws_scores_a_draw() {
        use crate::drawrules::{events, DrawSpec, MoveCountRule};
        use crate::drawsearch::DrawTrack;
        use std::sync::Arc;
        // Two White kings against one Black king far away, and a rule drawing after one king move
        // each: within two plies no capture can restart the count, so every line is drawn.
        let g = Generator::<u64>::new(&RulesSpec::default()).unwrap();
        let mut n = node(&g, &[1, 2], &[32], 0);
        n.kings = n.own | n.opp;
        let spec = Arc::new(DrawSpec {
            move_counts: vec![MoveCountRule {
                moves: 1,
                resets: events::MAN_MOVED | events::CAPTURE,
                claim: false,
            }],
            limbs: 1,
            main_diagonal: vec![0],
            ..DrawSpec::default()
        });
        let eval = material(&g);
        let never = || Ok(false);
        let hooks = Hooks {
            poll: &never,
            leaf: Leaf::Built(&eval),
            probe: None,
            probe_pieces: 0,
        };
        let mut s = Searcher::new(1000);
        let mut score = |counts: Option<u64>| {
            s.begin(&[], u64::MAX, true);
            let track = counts.map(|c| DrawTrack::new(spec.clone(), &n, &[c], 0, TRACK_PLIES));
            s.track_draws(track.transpose().unwrap().flatten());
            s.search(&g, &hooks, &n, 4, -INF, INF, 0).unwrap()
        };
        let free = score(None);
        assert!(free >= 200, "{free}"); // a king up
        assert_eq!(score(Some(0)), 0);
        // The same table without the rule again: the entries keyed near the limit are not read.
        assert_eq!(score(None), free);
    }

    #[test]
    fn a_full_table_forgets_the_quarter_written_first() {
        let mut s = Searcher::<u64>::new(8);
        for i in 0..8u64 {
            let n = Node {
                own: 1 << i,
                opp: 0,
                kings: 0,
                color: 0,
                state: 0,
            };
            s.store(n, 1, 0, EXACT, None, 0);
        }
        assert_eq!(s.len(), 8);
        let newest = Node {
            own: 1 << 20,
            opp: 0,
            kings: 0,
            color: 0,
            state: 0,
        };
        s.store(newest, 1, 0, EXACT, None, 0);
        // 8 // 4 + 1 = 3 forgotten (bits 0, 1, 2), then the new one written.
        assert_eq!(s.len(), 6);
        assert!(s.entry(&newest).is_some());
        for i in 0..3u64 {
            let gone = Node {
                own: 1 << i,
                ..newest
            };
            assert!(s.entry(&gone).is_none());
        }
    }
}

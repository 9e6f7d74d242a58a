//! The root of a search: iterative deepening over the root moves, aspiration windows, the
//! margin of equally good moves, multi-PV, and the seeded choice among equally good moves.
//!
//! It is what Python's `draughts.engine.root` did, move for move (the same calls of
//! [`Searcher::search`] with the same windows, so the same nodes and scores), so that
//! `Engine.search` and the native game loop ([`crate::selfplay`]) run one root. The choice among
//! equally good moves comes from [`Rng`], a splitmix64 generator the Python players share.

use crate::bitboard::Bits;
use crate::error::Error;
use crate::generator::Generator;
use crate::search::{
    Halt, Hooks, Leaf, Searcher, EXACT, INF, MATE, MATE_BOUND, MAX_DEPTH, THREATS,
};
use crate::state::{Compact, Node};

/// Half-width of the window the first root move is searched with from depth 4 on, around the
/// previous iteration's score (a score outside it is searched again with an open window).
pub const ASPIRATION: i64 = 40;

/// A small seeded generator (splitmix64): the engine's tie-breaks and the random player's moves,
/// the same numbers whether Python or the native game loop asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rng {
    /// The generator's state.
    pub state: u64,
}

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Rng { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number from 0 to `n - 1` (multiply-shift; `n` 0 gives 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

/// What the root is asked: the deepest iteration, the margin of equal moves, how many lines.
#[derive(Clone, Copy, Debug)]
pub struct RootParams {
    /// The deepest iteration (at most [`MAX_DEPTH`]).
    pub max_depth: i32,
    /// Root moves within this of the best are equally good (chosen among with the [`Rng`]).
    pub margin: i64,
    /// How many root moves are scored exactly.
    pub multipv: usize,
}

/// The scores of one iteration: per move searched (an index into the root's moves), in the
/// order searched, its score and its principal variation after it.
#[derive(Clone, Debug, Default)]
pub struct Iteration<B: Bits> {
    /// The iteration's depth.
    pub depth: i32,
    /// `(move index, score, the line after the move)`, in the order searched.
    pub scored: Vec<(usize, i64, Vec<Compact<B>>)>,
}

impl<B: Bits> Iteration<B> {
    pub(crate) fn best(&self) -> i64 {
        self.scored.iter().map(|s| s.1).max().unwrap_or(-INF)
    }

    fn score_of(&self, index: usize) -> Option<i64> {
        self.scored.iter().find(|s| s.0 == index).map(|s| s.1)
    }
}

/// The root's answer.
#[derive(Clone, Debug)]
pub struct RootAnswer<B: Bits> {
    /// The chosen move (an index into the root's moves).
    pub chosen: usize,
    /// Its score.
    pub score: i64,
    /// The line after it.
    pub pv: Vec<Compact<B>>,
    /// The depth of the last completed iteration (0: none).
    pub depth: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// The last completed iteration (every move scored), for multi-PV lines.
    pub completed: Option<Iteration<B>>,
}

/// One search of the root `root` over its legal `moves` (in public order, not empty), after
/// [`Searcher::begin`]; `stopped()` is read after each iteration (the stop flag).
///
/// # Errors
/// What the search fails with (a capture search too large, a callback's failure).
#[allow(clippy::too_many_arguments)]
pub fn root_search<B: Bits>(
    g: &Generator<B>,
    s: &mut Searcher<B>,
    hooks: &Hooks<'_, B>,
    root: &Node<B>,
    moves: &[Compact<B>],
    params: &RootParams,
    stopped: &mut dyn FnMut() -> Result<bool, Error>,
    rng: &mut Rng,
) -> Result<RootAnswer<B>, Error> {
    let mut first = |child: &Node<B>| match &hooks.leaf {
        Leaf::Built(e) => Ok(-e.evaluate(child.own, child.opp, child.kings, child.color)),
        Leaf::Custom(f) => Ok(-f(child)?),
    };
    let mut each = |s: &mut Searcher<B>, order: &[usize], it: &mut Iteration<B>, prev| {
        iterate(g, s, hooks, root, moves, order, it, prev, params)
    };
    deepen(
        g, s, root, moves, params, stopped, rng, &mut first, &mut each,
    )
}

/// One iteration of the root: `(searcher, order, iteration, previous best)`.
pub(crate) type Iterate<'x, B> =
    dyn FnMut(&mut Searcher<B>, &[usize], &mut Iteration<B>, Option<i64>) -> Result<(), Halt> + 'x;

/// Iterative deepening around `each` (one iteration), then the choice among equally good moves;
/// `first(child)` scores the first move statically when not even one move was searched.
#[allow(clippy::too_many_arguments)]
pub(crate) fn deepen<B: Bits>(
    g: &Generator<B>,
    s: &mut Searcher<B>,
    root: &Node<B>,
    moves: &[Compact<B>],
    params: &RootParams,
    stopped: &mut dyn FnMut() -> Result<bool, Error>,
    rng: &mut Rng,
    first: &mut dyn FnMut(&Node<B>) -> Result<i64, Error>,
    each: &mut Iterate<'_, B>,
) -> Result<RootAnswer<B>, Error> {
    s.see(root);
    let mut order: Vec<usize> = (0..moves.len()).collect();
    if let Some(best) = s.entry(root).and_then(|e| e.best) {
        if let Some(at) = moves.iter().position(|m| *m == best) {
            order.retain(|&i| i != at);
            order.insert(0, at);
        }
    }
    let max_depth = params.max_depth.clamp(1, MAX_DEPTH);
    let mut done: Option<Iteration<B>> = None;
    let mut current = Iteration::default();
    for depth in 1..=max_depth {
        if let Some(previous) = &done {
            order.sort_by_key(|&i| -previous.score_of(i).unwrap_or(-INF));
        }
        current = Iteration {
            depth,
            scored: Vec::new(),
        };
        let previous = done.as_ref().map(Iteration::best);
        match each(s, &order, &mut current, previous) {
            Ok(()) => {}
            Err(Halt::Stop) => break,
            Err(Halt::Fail(error)) => return Err(error),
        }
        let best = current.best();
        done = Some(std::mem::take(&mut current));
        if best.abs() >= MATE_BOUND && MATE - best.abs() <= i64::from(depth) {
            break; // the game's end is within the horizon
        }
        if stopped()? {
            break;
        }
    }
    let nodes = s.nodes;
    let completed_depth = done.as_ref().map_or(0, |d| d.depth);
    let last = if !current.scored.is_empty() {
        // The unfinished iteration searched the previous best move first: its scores are deeper.
        current
    } else if let Some(done) = &done {
        done.clone()
    } else {
        // Not even the first move of the first iteration: the first move's evaluation.
        let at = order[0];
        let score = first(&g.play(root, &moves[at]))?;
        Iteration {
            depth: 0,
            scored: vec![(at, score, Vec::new())],
        }
    };
    let best = last.best();
    let mut good: Vec<usize> = last
        .scored
        .iter()
        .filter(|s| s.1 >= best - params.margin)
        .map(|s| s.0)
        .collect();
    good.sort_unstable();
    let chosen = if good.len() == 1 {
        good[0]
    } else {
        good[rng.below(good.len())]
    };
    let (_, score, pv) = last
        .scored
        .iter()
        .find(|s| s.0 == chosen)
        .cloned()
        .unwrap_or_default();
    Ok(RootAnswer {
        chosen,
        score,
        pv,
        depth: completed_depth,
        nodes,
        completed: done,
    })
}

/// Scores the root moves in `order`: exactly where within the margin of the best, else a bound.
#[allow(clippy::too_many_arguments)]
pub(crate) fn iterate<B: Bits>(
    g: &Generator<B>,
    s: &mut Searcher<B>,
    hooks: &Hooks<'_, B>,
    root: &Node<B>,
    moves: &[Compact<B>],
    order: &[usize],
    iteration: &mut Iteration<B>,
    previous: Option<i64>,
    params: &RootParams,
) -> Result<(), Halt> {
    let depth = iteration.depth;
    let margin = params.margin;
    let multipv = params.multipv.max(1);
    // A forced move costs no depth, at the root as in the tree (issue 38 §1).
    let after = if order.len() == 1 { depth } else { depth - 1 };
    let score_of = |s: &mut Searcher<B>, node: &Node<B>, alpha: i64, beta: i64| {
        let score = if after > 0 {
            s.search(g, hooks, node, after, -beta, -alpha, 1)?
        } else {
            s.quiesce(g, hooks, node, -beta, -alpha, 1, THREATS)?
        };
        Ok::<i64, Halt>(-score)
    };
    let mut best = -INF;
    let mut kept: Vec<i64> = Vec::new();
    for (index, &at) in order.iter().enumerate() {
        let node = g.play(root, &moves[at]);
        let score = if index == 0 {
            let (mut low, mut high) = (-INF, INF);
            if let Some(previous) = previous {
                if depth >= 4 && previous.abs() < MATE_BOUND {
                    (low, high) = (previous - ASPIRATION, previous + ASPIRATION);
                }
            }
            let score = score_of(s, &node, low, high)?;
            if low < score && score < high {
                score
            } else {
                score_of(s, &node, -INF, INF)?
            }
        } else if multipv > 1 && kept.len() < multipv {
            score_of(s, &node, -INF, INF)?
        } else {
            let floor = (if multipv == 1 {
                best
            } else {
                kept[kept.len() - 1]
            }) - margin
                - 1;
            let score = score_of(s, &node, floor, floor + 1)?;
            if score > floor {
                score_of(s, &node, floor, INF)?
            } else {
                score
            }
        };
        let pv = s.pvt.get(1).cloned().unwrap_or_default();
        iteration.scored.push((at, score, pv));
        best = best.max(score);
        if multipv > 1 {
            kept.push(score);
            kept.sort_unstable_by(|a, b| b.cmp(a));
            kept.truncate(multipv);
        }
    }
    let mut best_at = iteration.scored[0].0;
    let mut top = iteration.scored[0].1;
    for &(at, score, _) in &iteration.scored {
        if score > top {
            (best_at, top) = (at, score);
        }
    }
    s.store(*root, depth, best, EXACT, Some(moves[best_at]), 0);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn splitmix_gives_its_reference_numbers() {
        // splitmix64 seeded with 0: the first outputs of the reference implementation.
        let mut rng = Rng::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn below_stays_below() {
        let mut rng = Rng::new(7);
        assert!((0..1000).all(|_| rng.below(3) < 3));
        assert_eq!(rng.below(1), 0);
    }
}

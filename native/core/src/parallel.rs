//! The root searched on several threads (`Limit(threads=N)`): a split of the root moves.
//!
//! Each iteration from depth 4 on, the main thread searches the first move (the previous
//! iteration's best, with the aspiration window) while `threads - 1` helper searchers take the
//! other moves one at a time from a shared counter and score each against a floor: the one the
//! serial root would use if the first move kept the previous iteration's score, then, once the
//! main thread has the first move's score, that score's floor (the main thread then takes moves
//! too). A move found below a guessed floor but above the actual one is searched again against
//! it. Each searcher has its own transposition table (kept between iterations and searches),
//! killers and history: nothing is shared but the generator, the evaluation, the counter and a
//! halt flag. The moves scored exactly are the ones the serial root scores exactly (within the
//! margin of the best, or above the first move's floor), so the choice among equally good moves
//! follows the serial rule; but which thread searches which move depends on timing, and the
//! tables differ, so scores, node counts and sometimes the move vary from run to run and from
//! one thread's.
//!
//! Depths 1 to 3, a root with one move and multi-PV searches run the serial root (`root::iterate`).

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicUsize, Ordering};

use crate::bitboard::Bits;
use crate::error::Error;
use crate::generator::Generator;
use crate::root::{deepen, iterate, Iteration, Rng, RootAnswer, RootParams, ASPIRATION};
use crate::search::{Halt, Hooks, Leaf, Searcher, EXACT, INF, MATE_BOUND, THREATS};
use crate::state::{Compact, Node};

/// Runs its argument with the hooks of the calling thread (a binding builds them per thread:
/// its callbacks are not shared between threads).
pub type WithHooks<'a, B> = &'a (dyn Fn(&mut dyn FnMut(&Hooks<'_, B>)) + Sync);

/// [`crate::root::root_search`] on `threads` threads: `s` is the main searcher, its
/// [`Searcher::helpers`] the others (made, or remade at another count, here). One thread, one
/// move or multi-PV: the serial root, the same nodes and answer.
///
/// # Errors
/// What the search fails with, in any thread.
#[allow(clippy::too_many_arguments)]
pub fn root_search_threads<B: Bits>(
    g: &Generator<B>,
    s: &mut Searcher<B>,
    threads: usize,
    with_hooks: WithHooks<'_, B>,
    root: &Node<B>,
    moves: &[Compact<B>],
    params: &RootParams,
    stopped: &mut dyn FnMut() -> Result<bool, Error>,
    rng: &mut Rng,
) -> Result<RootAnswer<B>, Error> {
    let helpers = threads.max(1) - 1;
    if helpers == 0 || moves.len() < 2 || params.multipv > 1 {
        let mut answer = None;
        with_hooks(&mut |hooks| {
            answer = Some(crate::root::root_search(
                g, s, hooks, root, moves, params, stopped, rng,
            ));
        });
        return answer.unwrap_or_else(|| Err(Error::Interrupted("no search ran".into())));
    }
    let mut team = std::mem::take(&mut s.helpers);
    team.resize_with(helpers, || Searcher::new(s.hash_size));
    team.truncate(helpers);
    for helper in &mut team {
        helper.begin_like(s);
        helper.see(root); // as the root's deepening counts it in `s`
    }
    let mut first = |child: &Node<B>| {
        let mut score = Ok(0);
        with_hooks(&mut |hooks| {
            score = match &hooks.leaf {
                Leaf::Built(e) => Ok(-e.evaluate(child.own, child.opp, child.kings, child.color)),
                Leaf::Custom(f) => f(child).map(|v| -v),
            };
        });
        score
    };
    let mut each = |s: &mut Searcher<B>, order: &[usize], it: &mut Iteration<B>, prev| match prev {
        Some(p) if it.depth >= 4 && i64::abs(p) < MATE_BOUND => split(
            g, s, &mut team, with_hooks, root, moves, order, it, p, params,
        ),
        _ => {
            let (before, mut result) = (s.nodes, Err(Halt::Stop));
            with_hooks(&mut |hooks| {
                result = iterate(g, s, hooks, root, moves, order, it, prev, params);
            });
            s.critical += s.nodes - before;
            result
        }
    };
    let answer = deepen(
        g, s, root, moves, params, stopped, rng, &mut first, &mut each,
    );
    let helped: u64 = team.iter().map(|h| h.nodes).sum();
    s.helpers = team;
    answer.map(|mut a| {
        a.nodes += helped;
        a
    })
}

/// A root move's result in a split iteration: its index, score, line, and the floor it was
/// searched against (`None`: exact, with an open or aspiration window).
type Scored<B> = (usize, i64, Vec<Compact<B>>, Option<i64>);

/// What one thread scored in a phase, and how it ended.
type Share<B> = (Vec<Scored<B>>, Result<(), Halt>);

/// The child's score for the root's mover, `depth` plies below (0: the quiescence search).
fn score_of<B: Bits>(
    g: &Generator<B>,
    s: &mut Searcher<B>,
    hooks: &Hooks<'_, B>,
    child: &Node<B>,
    depth: i32,
    alpha: i64,
    beta: i64,
) -> Result<(i64, Vec<Compact<B>>), Halt> {
    let score = if depth > 0 {
        -s.search(g, hooks, child, depth, -beta, -alpha, 1)?
    } else {
        -s.quiesce(g, hooks, child, -beta, -alpha, 1, THREATS)?
    };
    Ok((score, s.pvt.get(1).cloned().unwrap_or_default()))
}

/// A score above `floor` exactly, else a bound at most `floor` (the serial root's rule).
fn above<B: Bits>(
    g: &Generator<B>,
    s: &mut Searcher<B>,
    hooks: &Hooks<'_, B>,
    child: &Node<B>,
    depth: i32,
    floor: i64,
) -> Result<(i64, Vec<Compact<B>>), Halt> {
    let (score, pv) = score_of(g, s, hooks, child, depth, floor, floor + 1)?;
    if score > floor {
        score_of(g, s, hooks, child, depth, floor, INF)
    } else {
        Ok((score, pv))
    }
}

/// Runs `work` with this thread's hooks, whose poll also stops when `halt` is set (and sets it
/// when `work` halts, so the other threads stop).
fn guarded<B: Bits, T>(
    with_hooks: WithHooks<'_, B>,
    halt: &AtomicBool,
    work: impl FnOnce(&Hooks<'_, B>) -> Result<T, Halt>,
) -> Result<T, Halt> {
    let mut work = Some(work);
    let mut out = Err(Halt::Stop);
    with_hooks(&mut |hooks| {
        let poll = || {
            if halt.load(Ordering::Relaxed) {
                return Ok(true);
            }
            (hooks.poll)()
        };
        let mine = Hooks {
            poll: &poll,
            leaf: match &hooks.leaf {
                Leaf::Built(e) => Leaf::Built(e),
                Leaf::Custom(f) => Leaf::Custom(*f),
            },
            probe: hooks.probe,
            probe_pieces: hooks.probe_pieces,
        };
        if let Some(work) = work.take() {
            out = work(&mine);
        }
    });
    if out.is_err() {
        halt.store(true, Ordering::Relaxed);
    }
    out
}

/// Root moves of `jobs` taken one at a time from the shared `next` until none is left, each
/// scored against `floor()` (read as each is taken): what was scored, and how the thread ended.
#[allow(clippy::too_many_arguments)]
fn drain<B: Bits>(
    g: &Generator<B>,
    s: &mut Searcher<B>,
    hooks: &Hooks<'_, B>,
    root: &Node<B>,
    moves: &[Compact<B>],
    jobs: &[usize],
    next: &AtomicUsize,
    floor: &dyn Fn() -> i64,
    after: i32,
    done: &mut Vec<Scored<B>>,
) -> Result<(), Halt> {
    loop {
        let taken = next.fetch_add(1, Ordering::Relaxed);
        let Some(&at) = jobs.get(taken) else {
            return Ok(());
        };
        let low = floor();
        let child = g.play(root, &moves[at]);
        let (score, pv) = above(g, s, hooks, &child, after, low)?;
        done.push((at, score, pv, (score <= low).then_some(low)));
    }
}

/// The helpers' part of a phase: each drains `jobs` with `floor` until none is left.
#[allow(clippy::too_many_arguments)]
fn helping<'s, B: Bits>(
    scope: &'s std::thread::Scope<'s, '_>,
    team: &'s mut [Searcher<B>],
    with_hooks: WithHooks<'s, B>,
    halt: &'s AtomicBool,
    g: &'s Generator<B>,
    root: &'s Node<B>,
    moves: &'s [Compact<B>],
    jobs: &'s [usize],
    next: &'s AtomicUsize,
    floor: &'s (dyn Fn() -> i64 + Sync),
    after: i32,
) -> Vec<std::thread::ScopedJoinHandle<'s, Share<B>>> {
    team.iter_mut()
        .map(|helper| {
            scope.spawn(move || {
                let mut done = Vec::new();
                let result = guarded(with_hooks, halt, |hooks| {
                    drain(
                        g, helper, hooks, root, moves, jobs, next, floor, after, &mut done,
                    )
                });
                (done, result)
            })
        })
        .collect()
}

/// One iteration on several threads (see the module's text); the root's entry stored as the
/// serial root stores it.
#[allow(clippy::too_many_arguments)]
fn split<B: Bits>(
    g: &Generator<B>,
    s: &mut Searcher<B>,
    team: &mut [Searcher<B>],
    with_hooks: WithHooks<'_, B>,
    root: &Node<B>,
    moves: &[Compact<B>],
    order: &[usize],
    it: &mut Iteration<B>,
    previous: i64,
    params: &RootParams,
) -> Result<(), Halt> {
    let after = it.depth - 1;
    let margin = params.margin;
    let halt = AtomicBool::new(false);
    // The floor the moves are scored against: guessed from the previous iteration until the
    // first move's score is known.
    let floor_now = AtomicI64::new(previous - margin - 1);
    let floor = || floor_now.load(Ordering::Relaxed);
    let next = AtomicUsize::new(0);
    let rest = &order[1..];
    let started: Vec<u64> = team.iter().map(|h| h.nodes).collect();
    let main_started = s.nodes;
    let mut results: Vec<Scored<B>> = Vec::new();
    let (first, mine, theirs) = std::thread::scope(|scope| {
        let workers = helping(
            scope, team, with_hooks, &halt, g, root, moves, rest, &next, &floor, after,
        );
        let mut mine = Vec::new();
        let first = guarded(with_hooks, &halt, |hooks| {
            let at = order[0];
            let child = g.play(root, &moves[at]);
            let (low, high) = (previous - ASPIRATION, previous + ASPIRATION);
            let (mut score, mut pv) = score_of(g, s, hooks, &child, after, low, high)?;
            if score <= low || score >= high {
                (score, pv) = score_of(g, s, hooks, &child, after, -INF, INF)?;
            }
            floor_now.store(score - margin - 1, Ordering::Relaxed);
            Ok((at, score, pv))
        });
        let own = match &first {
            Ok(_) => guarded(with_hooks, &halt, |hooks| {
                drain(
                    g, s, hooks, root, moves, rest, &next, &floor, after, &mut mine,
                )
            }),
            Err(_) => Ok(()),
        };
        let theirs: Vec<_> = workers
            .into_iter()
            .map(|w| w.join().unwrap_or_else(|_| (Vec::new(), Err(Halt::Stop))))
            .collect();
        (first, (mine, own), theirs)
    });
    s.critical += longest(team, &started).max(s.nodes - main_started);
    // A failure anywhere is the search's (the main thread may only have seen the halt it set).
    let (mine, mut theirs) = (mine, theirs);
    if !matches!(first, Err(Halt::Fail(_))) {
        if matches!(mine.1, Err(Halt::Fail(_))) {
            return mine.1;
        }
        if let Some(at) = theirs
            .iter()
            .position(|t| matches!(t.1, Err(Halt::Fail(_))))
        {
            return theirs.swap_remove(at).1;
        }
    }
    let (at, top, pv) = first?;
    it.scored.push((at, top, pv));
    let low = top - margin - 1;
    // Bounds at a guessed floor above the first move's: searched again against it.
    let mut halted = None;
    let mut again: Vec<usize> = Vec::new();
    for (done, result) in std::iter::once(mine).chain(theirs) {
        if let Err(h) = result {
            if halted.is_none() || matches!(h, Halt::Fail(_)) {
                halted = Some(h); // a failure over a stop
            }
        }
        for r in done {
            match r.3 {
                Some(_) if r.1 > low => again.push(r.0),
                _ => results.push(r),
            }
        }
    }
    if halted.is_none() && !again.is_empty() {
        floor_now.store(low, Ordering::Relaxed);
        let next = AtomicUsize::new(0);
        let started: Vec<u64> = team.iter().map(|h| h.nodes).collect();
        let main_started = s.nodes;
        let redone: Vec<_> = std::thread::scope(|scope| {
            let workers = helping(
                scope, team, with_hooks, &halt, g, root, moves, &again, &next, &floor, after,
            );
            let mut mine = Vec::new();
            let own = guarded(with_hooks, &halt, |hooks| {
                drain(
                    g, s, hooks, root, moves, &again, &next, &floor, after, &mut mine,
                )
            });
            let mut all = vec![(mine, own)];
            all.extend(
                workers
                    .into_iter()
                    .map(|w| w.join().unwrap_or_else(|_| (Vec::new(), Err(Halt::Stop)))),
            );
            all
        });
        s.critical += longest(team, &started).max(s.nodes - main_started);
        for (done, result) in redone {
            if let Err(h) = result {
                if halted.is_none() || matches!(h, Halt::Fail(_)) {
                    halted = Some(h);
                }
            }
            results.extend(done);
        }
    }
    // In the serial root's order, so that a partial iteration reads as the serial one.
    let position = |at: usize| order.iter().position(|&x| x == at).unwrap_or(usize::MAX);
    results.sort_by_key(|r| position(r.0));
    it.scored.extend(
        results
            .into_iter()
            .map(|(at, score, pv, _)| (at, score, pv)),
    );
    if let Some(h) = halted {
        return Err(h);
    }
    let (mut best_at, mut best) = (it.scored[0].0, it.scored[0].1);
    for &(at, score, _) in &it.scored {
        if score > best {
            (best_at, best) = (at, score);
        }
    }
    s.store(*root, it.depth, best, EXACT, Some(moves[best_at]), 0);
    Ok(())
}

/// The most nodes one of `team` searched since `started` (its counts then).
fn longest<B: Bits>(team: &[Searcher<B>], started: &[u64]) -> u64 {
    team.iter()
        .zip(started)
        .map(|(h, &at)| h.nodes - at)
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluation::Evaluation;
    use crate::spec::RulesSpec;

    fn search(threads: usize, depth: i32) -> (RootAnswer<u64>, Searcher<u64>) {
        let g = Generator::<u64>::new(&RulesSpec::default()).unwrap();
        let bits = g.tables.nbits();
        let eval = Evaluation {
            men: [vec![100; bits], vec![100; bits]],
            kings: vec![300; bits],
            board: g.tables.board,
            men_total: 24,
            sign: 1,
            ..Evaluation::default()
        };
        let never = || Ok(false);
        let with = |work: &mut dyn FnMut(&Hooks<'_, u64>)| {
            work(&Hooks {
                poll: &never,
                leaf: Leaf::Built(&eval),
                probe: None,
                probe_pieces: 0,
            })
        };
        let root = g.start();
        let moves = g.moves(&root, false, None).unwrap();
        let mut s = Searcher::new(100_000);
        s.begin(&[], u64::MAX, true);
        let params = RootParams {
            max_depth: depth,
            margin: 0,
            multipv: 1,
        };
        let answer = root_search_threads(
            &g,
            &mut s,
            threads,
            &with,
            &root,
            &moves,
            &params,
            &mut || Ok(false),
            &mut Rng::new(1),
        )
        .unwrap();
        (answer, s)
    }

    #[test]
    fn two_threads_split_the_root_and_answer_a_legal_move() {
        let (one, alone) = search(1, 7);
        let (two, team) = search(2, 7);
        let critical = team.critical;
        assert_eq!(alone.helpers.len(), 0);
        assert_eq!(team.helpers.len(), 1);
        assert_eq!(two.depth, 7);
        // The start has 7 moves in American checkers.
        assert!(two.chosen < 7);
        // The longest path is at most all the nodes (all of them if the main thread took every
        // move before the helper started: which thread takes a move depends on timing).
        assert!(0 < critical && critical <= two.nodes);
        assert!(one.nodes > 0);
    }

    #[test]
    fn the_helpers_are_kept_for_the_next_search_and_forgotten_with_the_table() {
        let (_, mut team) = search(2, 5);
        assert_eq!(team.helpers.len(), 1);
        assert!(!team.is_empty());
        team.clear();
        assert!(team.helpers.is_empty());
        assert!(team.is_empty());
    }
}

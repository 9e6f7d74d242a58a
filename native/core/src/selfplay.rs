//! Whole games between native players (a random mover, the engine at a depth, a node count, a
//! time or a level), for the lab and the match runner: one call plays a game and returns what the
//! lab records of each ply and how the game ended.
//!
//! The loop is Python's `draughts.lab.runner.play_task` move for move: the end by the rules of
//! play first (no legal move), then the automatic draw rules ([`DrawCounter`]), then the ply cap;
//! the engine's moves come from [`crate::root::root_search`], the random mover's from [`Rng`], so
//! a seeded game is the same game whichever path plays it.

use std::time::Instant;

use crate::bitboard::Bits;
use crate::drawrules::{events, Draw, DrawCounter};
use crate::drawsearch::DrawTrack;
use crate::error::Error;
use crate::evaluation::Evaluation;
use crate::generator::{Generator, PublicMove};
use crate::root::{root_search, Rng, RootParams};
use crate::search::{Hooks, Leaf, Searcher, MAX_DEPTH, TRACK_PLIES};
use crate::state::Node;

/// The built-in engine as a player: its limits, margin, evaluation and table size.
#[derive(Clone, Debug)]
pub struct EngineSeat<B: Bits> {
    /// The deepest iteration (None: [`MAX_DEPTH`]).
    pub depth: Option<i32>,
    /// The most nodes a move (None: no limit).
    pub nodes: Option<u64>,
    /// Seconds a move (None: no limit).
    pub time: Option<f64>,
    /// Root moves within this of the best are equally good.
    pub margin: i64,
    /// The evaluation.
    pub eval: Evaluation<B>,
    /// Most transposition-table entries.
    pub hash_size: usize,
}

/// A player of a native game: its kind and its seeded generator.
#[derive(Clone, Debug)]
pub struct Seat<B: Bits> {
    /// None: the random mover; else the engine.
    pub engine: Option<EngineSeat<B>>,
    /// The seeded choices (the random mover's moves, the engine's tie-breaks).
    pub rng: Rng,
}

/// One ply of a game as the lab records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The move's index among the legal moves in public order.
    pub index: usize,
    /// Pieces it captured.
    pub captured: usize,
    /// Whether it crowned a man.
    pub promotes: bool,
    /// Its end square.
    pub end: u32,
    /// The engine's score of the position moved from, for the mover (None: a random move).
    pub score: Option<i64>,
    /// The seat that played it (0 plays the job's `first` colour).
    pub seat: u8,
}

/// How a native game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The side to move has no legal move (or a crowning won): the rules of play.
    NoMove,
    /// An automatic draw rule.
    Draw(Draw),
    /// The ply cap.
    Cap,
}

/// A played game: its plies, the legal move counts the lab records, its end and last node.
#[derive(Clone, Debug)]
pub struct Game<B: Bits> {
    /// Each ply.
    pub plies: Vec<Ply>,
    /// The number of legal moves at each position the loop read it at.
    pub legal: Vec<usize>,
    /// How it ended.
    pub end: End,
    /// The last position.
    pub last: Node<B>,
}

fn facts<B: Bits>(counter: &DrawCounter, node: &Node<B>) -> Result<crate::drawrules::Facts, Error> {
    let limbs = counter.spec().limbs;
    let fit = |b: B| {
        let mut v = b.to_limbs();
        v.resize(limbs, 0);
        v
    };
    counter.spec().facts(
        &fit(node.own),
        &fit(node.opp),
        &fit(node.kings),
        node.color,
        node.state,
    )
}

/// What the draw counter is told a move did (as `Board.push` tells it).
fn event<B: Bits>(node: &Node<B>, m: &PublicMove<B>, bit_of_square: &[u32]) -> u8 {
    let mut event = 0;
    if !m.captured.is_empty() {
        event |= events::CAPTURE;
    }
    if m.promotes {
        event |= events::CROWNING;
    }
    let c = &m.compact;
    let king = if c.moved.any() {
        (c.crowned & c.moved) == c.moved
    } else {
        // A capture that ends where it started: the start square says.
        match bit_of_square.get(m.start as usize) {
            Some(&bit) if bit != u32::MAX => (node.kings & B::bit(bit)).any(),
            _ => false,
        }
    };
    if !king {
        event |= events::MAN_MOVED;
    }
    event
}

/// Plays one game from `start` (after the game's earlier nodes `history`, already counted in
/// `counter`) between `seats` (seat 0 plays colour `first`, seat 1 the other), at most
/// `max_plies` plies.
///
/// `poll()` is read every few hundred nodes of a search and at every ply (`Ok(true)` or an error
/// stops the game with that error: Ctrl-C).
///
/// # Errors
/// What the generator, the draw rules or the poll fail with.
#[allow(clippy::too_many_arguments)]
pub fn play_game<B: Bits>(
    g: &Generator<B>,
    counter: &mut DrawCounter,
    start: Node<B>,
    history: Vec<Node<B>>,
    seats: &mut [Seat<B>; 2],
    first: u8,
    max_plies: usize,
    repetitions: bool,
    bit_of_square: &[u32],
    poll: &dyn Fn() -> Result<bool, Error>,
) -> Result<Game<B>, Error> {
    let job = Job {
        counter: counter.clone(),
        start,
        history,
        seats: seats.clone(),
        first,
        max_plies,
    };
    let mut pool = Pool::default();
    let (game, job) = play_job(g, job, repetitions, bit_of_square, poll, &mut pool)?;
    *counter = job.counter;
    *seats = job.seats;
    Ok(game)
}

/// One game of a batch: where it starts (after `history`, counted in `counter`), its seats (seat
/// 0 plays colour `first`) and its ply cap.
#[derive(Clone, Debug)]
pub struct Job<B: Bits> {
    /// The draw counter at `start` (the game's moves are counted in it).
    pub counter: DrawCounter,
    /// The position the players start from.
    pub start: Node<B>,
    /// The game's positions before `start`.
    pub history: Vec<Node<B>>,
    /// The players: seat 0 plays `first`.
    pub seats: [Seat<B>; 2],
    /// The colour seat 0 plays.
    pub first: u8,
    /// The most plies the players play.
    pub max_plies: usize,
}

/// Searchers kept from one game of a batch to the next, so that a game does not allocate (and
/// fault in) its transposition table again. A game takes a cleared one: the same search as a new
/// searcher's, since each search starts afresh ([`Searcher::begin`]) and a table's entries are
/// forgotten in the order they were written, whatever their count before.
#[derive(Debug)]
pub struct Pool<B: Bits> {
    free: Vec<Searcher<B>>,
}

impl<B: Bits> Default for Pool<B> {
    fn default() -> Self {
        Pool { free: Vec::new() }
    }
}

impl<B: Bits> Pool<B> {
    /// A searcher with an empty table of at most `hash_size` entries.
    pub fn take(&mut self, hash_size: usize) -> Searcher<B> {
        match self
            .free
            .iter()
            .position(|s| s.hash_size == hash_size.max(1))
        {
            Some(at) => {
                let mut searcher = self.free.swap_remove(at);
                searcher.clear();
                searcher
            }
            None => Searcher::new(hash_size),
        }
    }

    /// Keeps `searcher` for a later game.
    pub fn give(&mut self, searcher: Searcher<B>) {
        self.free.push(searcher);
    }
}

/// Plays `jobs` in turn (see [`play_game`]), their engines' searchers reused from game to game:
/// each game is the one [`play_game`] plays alone.
///
/// # Errors
/// The first error of a game (the games after it are not played).
pub fn play_games<B: Bits>(
    g: &Generator<B>,
    jobs: Vec<Job<B>>,
    repetitions: bool,
    bit_of_square: &[u32],
    poll: &dyn Fn() -> Result<bool, Error>,
) -> Result<Vec<Game<B>>, Error> {
    let mut pool = Pool::default();
    jobs.into_iter()
        .map(|job| Ok(play_job(g, job, repetitions, bit_of_square, poll, &mut pool)?.0))
        .collect()
}

/// Plays `job`, its engines' searchers taken from `pool` and given back; returns the game and
/// the job as the game left it (its counter and generators advanced).
fn play_job<B: Bits>(
    g: &Generator<B>,
    mut job: Job<B>,
    repetitions: bool,
    bit_of_square: &[u32],
    poll: &dyn Fn() -> Result<bool, Error>,
    pool: &mut Pool<B>,
) -> Result<(Game<B>, Job<B>), Error> {
    let mut searchers: [Option<Searcher<B>>; 2] = [None, None];
    let played = play_loop(
        g,
        &mut job,
        repetitions,
        bit_of_square,
        poll,
        pool,
        &mut searchers,
    );
    for searcher in searchers.into_iter().flatten() {
        pool.give(searcher);
    }
    Ok((played?, job))
}

/// The loop of one game (see [`play_game`]).
fn play_loop<B: Bits>(
    g: &Generator<B>,
    job: &mut Job<B>,
    repetitions: bool,
    bit_of_square: &[u32],
    poll: &dyn Fn() -> Result<bool, Error>,
    pool: &mut Pool<B>,
    searchers: &mut [Option<Searcher<B>>; 2],
) -> Result<Game<B>, Error> {
    let (first, max_plies) = (job.first, job.max_plies);
    let counter = &mut job.counter;
    let seats = &mut job.seats;
    let mut node = job.start;
    let mut line = std::mem::take(&mut job.history);
    let mut plies = Vec::new();
    let mut legal_counts = Vec::new();
    let end = loop {
        let moves = g.legal(&node, false, None)?;
        if moves.is_empty() {
            break End::NoMove;
        }
        let mut shot = || shot_in_the_air(g, &node, &moves);
        if let Some(draw) = counter.draw(false, &mut shot)? {
            break End::Draw(draw);
        }
        legal_counts.push(moves.len());
        if plies.len() >= max_plies {
            break End::Cap;
        }
        if poll()? {
            return Err(Error::Interrupted("the game was stopped".into()));
        }
        let slot = usize::from(node.color != first);
        let seat = &mut seats[slot];
        let (index, score) = match &seat.engine {
            None => (seat.rng.below(moves.len()), None),
            Some(engine) => {
                let searcher = searchers[slot].get_or_insert_with(|| pool.take(engine.hash_size));
                let (index, score) = engine_move(
                    g,
                    searcher,
                    engine,
                    &mut seat.rng,
                    (&node, &*counter),
                    &line,
                    &moves,
                    repetitions,
                    poll,
                )?;
                (index, Some(score))
            }
        };
        let m = &moves[index];
        let ev = event(&node, m, bit_of_square);
        plies.push(Ply {
            index,
            captured: m.captured.len(),
            promotes: m.promotes,
            end: m.end,
            score,
            seat: u8::from(slot == 1),
        });
        let after = g.play(&node, &m.compact);
        counter.push(&facts(counter, &after)?, ev)?;
        line.push(node);
        node = after;
    };
    Ok(Game {
        plies,
        legal: legal_counts,
        end,
        last: node,
    })
}

/// Whether the side to move can capture, or every move of it lets the opponent capture.
fn shot_in_the_air<B: Bits>(
    g: &Generator<B>,
    node: &Node<B>,
    moves: &[PublicMove<B>],
) -> Result<bool, Error> {
    if moves.iter().any(|m| !m.captured.is_empty()) {
        return Ok(true);
    }
    for m in moves {
        let child = g.play(node, &m.compact);
        if !g
            .legal(&child, false, None)?
            .iter()
            .any(|c| !c.captured.is_empty())
        {
            return Ok(false);
        }
    }
    Ok(!moves.is_empty())
}

/// The engine's move at `node` (after the game's `line`, with the game's draw counts `counter`,
/// which its search carries along its lines as `Engine.search` does from a board's): its index
/// and score.
#[allow(clippy::too_many_arguments)]
fn engine_move<B: Bits>(
    g: &Generator<B>,
    searcher: &mut Searcher<B>,
    engine: &EngineSeat<B>,
    rng: &mut Rng,
    (node, counter): (&Node<B>, &DrawCounter),
    line: &[Node<B>],
    moves: &[PublicMove<B>],
    repetitions: bool,
    poll: &dyn Fn() -> Result<bool, Error>,
) -> Result<(usize, i64), Error> {
    let started = Instant::now();
    let deadline = engine.time.map(|t| t - (0.05 * t).min(0.02));
    let max_nodes = engine.nodes.map_or(1 << 62, |n| n.min(1 << 62));
    searcher.begin(line, max_nodes, repetitions);
    searcher.track_draws(DrawTrack::of_counter(counter, node, TRACK_PLIES)?);
    let timed = || -> Result<bool, Error> {
        if poll()? {
            return Ok(true);
        }
        Ok(deadline.is_some_and(|d| started.elapsed().as_secs_f64() >= d))
    };
    let hooks = Hooks {
        poll: &timed,
        leaf: Leaf::Built(&engine.eval),
        probe: None,
        probe_pieces: 0,
    };
    let compacts: Vec<_> = moves.iter().map(|m| m.compact).collect();
    let params = RootParams {
        max_depth: engine.depth.unwrap_or(MAX_DEPTH).min(MAX_DEPTH),
        margin: engine.margin,
        multipv: 1,
    };
    let mut never = || Ok(false);
    let answer = root_search(
        g, searcher, &hooks, node, &compacts, &params, &mut never, rng,
    )?;
    Ok((answer.chosen, answer.score))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::drawrules::DrawSpec;

    fn international() -> Generator<u64> {
        Generator::new(&crate::spec::international_for_tests()).unwrap()
    }

    fn counter(g: &Generator<u64>) -> DrawCounter {
        let spec = Arc::new(DrawSpec {
            repetitions: 3,
            repetition_claim: false,
            move_counts: Vec::new(),
            endgames: Vec::new(),
            limbs: 1,
            main_diagonal: vec![0],
        });
        let start = g.start();
        let root = spec
            .facts(
                &[start.own],
                &[start.opp],
                &[start.kings],
                start.color,
                start.state,
            )
            .unwrap();
        DrawCounter::new(spec, &root, &[], 0).unwrap()
    }

    fn random_game(g: &Generator<u64>, seeds: [u64; 2], max_plies: usize) -> Game<u64> {
        let mut counter = counter(g);
        let start = g.start();
        let mut seats = seeds.map(|seed| Seat {
            engine: None,
            rng: Rng::new(seed),
        });
        let squares = &g.tables.layout.bit_of_square;
        play_game(
            g,
            &mut counter,
            start,
            Vec::new(),
            &mut seats,
            0,
            max_plies,
            true,
            squares,
            &|| Ok(false),
        )
        .unwrap()
    }

    #[test]
    fn a_random_game_is_legal_seeded_and_ends() {
        let g = international();
        let game = random_game(&g, [1, 2], 400);
        assert_eq!(game.plies.len(), random_game(&g, [1, 2], 400).plies.len());
        assert_eq!(game.plies, random_game(&g, [1, 2], 400).plies);
        assert_ne!(game.plies, random_game(&g, [3, 2], 400).plies);
        // Replayed move by move, every index is a legal move's and the game ends where it says.
        let mut node = g.start();
        for (ply, legal) in game.plies.iter().zip(&game.legal) {
            let moves = g.legal(&node, false, None).unwrap();
            assert_eq!(moves.len(), *legal);
            assert_eq!(moves[ply.index].end, ply.end);
            node = g.play(&node, &moves[ply.index].compact);
        }
        assert_eq!(node, game.last);
        match game.end {
            End::NoMove => assert!(g.legal(&node, false, None).unwrap().is_empty()),
            End::Cap => assert_eq!(game.plies.len(), 400),
            End::Draw(_) => {}
        }
        let capped = random_game(&g, [1, 2], 5);
        assert_eq!((capped.plies.len(), capped.end), (5, End::Cap));
        assert_eq!(capped.legal.len(), 6);
    }

    /// An engine seat at `depth` with a material evaluation and a table of `hash_size` entries.
    fn engine(g: &Generator<u64>, depth: i32, hash_size: usize, seed: u64) -> Seat<u64> {
        let bits = g.tables.nbits();
        let eval = Evaluation {
            men: [vec![100; bits], vec![100; bits]],
            kings: vec![300; bits],
            board: g.tables.board,
            men_total: 40,
            sign: 1,
            ..Evaluation::default()
        };
        Seat {
            engine: Some(EngineSeat {
                depth: Some(depth),
                nodes: None,
                time: None,
                margin: 0,
                eval,
                hash_size,
            }),
            rng: Rng::new(seed),
        }
    }

    #[test]
    fn a_batch_plays_each_game_as_alone() {
        // Tables of 64 entries fill and forget within a game; the batch's reused searchers must
        // choose as fresh ones do, game after game.
        let g = international();
        let squares = &g.tables.layout.bit_of_square;
        let jobs: Vec<Job<u64>> = (0..4u64)
            .map(|n| Job {
                counter: counter(&g),
                start: g.start(),
                history: Vec::new(),
                seats: [
                    engine(&g, 2, 64, n),
                    engine(&g, 1 + n as i32 % 2, 64, n + 10),
                ],
                first: (n % 2) as u8,
                max_plies: 40,
            })
            .collect();
        let batch = play_games(&g, jobs.clone(), true, squares, &|| Ok(false)).unwrap();
        assert_eq!(batch.len(), 4);
        for (job, game) in jobs.into_iter().zip(&batch) {
            let job_first = job.first;
            let mut alone = job.clone();
            let single = play_game(
                &g,
                &mut alone.counter,
                job.start,
                job.history,
                &mut alone.seats,
                job.first,
                job.max_plies,
                true,
                squares,
                &|| Ok(false),
            )
            .unwrap();
            assert_eq!(single.plies, game.plies);
            assert_eq!((single.end, single.last), (game.end, game.last));
            assert!(game.plies.iter().all(|p| p.score.is_some()));
            let opener = u8::from(g.start().color != job_first);
            assert_eq!(
                (game.plies[0].seat, game.plies[1].seat),
                (opener, 1 - opener)
            );
        }
        let stop = play_games(&g, vec![], true, squares, &|| Ok(true)).unwrap();
        assert!(stop.is_empty());
    }
}

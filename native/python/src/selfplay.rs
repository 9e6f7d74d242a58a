//! Native games for Python: [`Rng`] (the seeded generator the random player and the engine's
//! tie-breaks share with the native loop), [`play_game`] (one whole game between native
//! players, without the GIL; Ctrl-C is read at every ply and every few hundred nodes) and
//! [`play_games`] (a batch of games in one call, each returned as a few lists of numbers).

use draughts_core::bitboard::Bits;
use draughts_core::drawrules::{Draw, DrawCounter as CoreCounter};
use draughts_core::evaluation::Evaluation as Eval;
use draughts_core::generator::Generator;
use draughts_core::root::Rng as CoreRng;
use draughts_core::search::MATE;
use draughts_core::selfplay::{self as core, End, EngineSeat, Game, Job, Seat};
use draughts_core::Engine;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::drawrules::DrawCounter;
use crate::errors::unwind_safe;
use crate::search::{node_of, poll_now, py_node, AnyEval, Evaluation, Width};
use crate::Rules;

/// A seeded splitmix64 generator: `below(n)` draws a number from 0 to `n - 1`.
#[pyclass(module = "draughts._native")]
pub struct Rng {
    pub(crate) rng: CoreRng,
}

#[pymethods]
impl Rng {
    /// A generator seeded with `seed` (taken modulo 2**64).
    #[new]
    fn new(seed: &Bound<'_, PyAny>) -> PyResult<Self> {
        let mask = (1u128 << 64) - 1;
        let seed: u128 = seed.call_method1("__and__", (mask,))?.extract()?;
        Ok(Rng {
            rng: CoreRng::new(seed as u64),
        })
    }

    /// A number from 0 to `n - 1`.
    fn below(&mut self, n: usize) -> PyResult<usize> {
        if n == 0 {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "cannot choose among 0 items",
            ));
        }
        Ok(self.rng.below(n))
    }

    /// The next 64 random bits.
    fn next(&mut self) -> u64 {
        self.rng.next_u64()
    }

    /// The generator's state.
    #[getter]
    fn state(&self) -> u64 {
        self.rng.state
    }

    /// An independent copy.
    fn copy(&self) -> Rng {
        Rng { rng: self.rng }
    }
}

/// A seat as Python gives it: `(seed, None)` for the random mover, or `(seed, (depth, nodes,
/// time, margin, evaluation, hash_size))` for the engine.
type PySeat<'py> = (
    Bound<'py, PyAny>,
    Option<(
        Option<i32>,
        Option<u64>,
        Option<f64>,
        i64,
        Bound<'py, Evaluation>,
        usize,
    )>,
);

fn seat_of<B: Bits>(
    seat: &PySeat<'_>,
    pick: fn(&AnyEval) -> Option<&Eval<B>>,
) -> PyResult<Seat<B>> {
    let rng = Rng::new(&seat.0)?.rng;
    let engine = match &seat.1 {
        None => None,
        Some((depth, nodes, time, margin, evaluation, hash_size)) => {
            let eval = pick(&evaluation.get().eval)
                .ok_or_else(|| {
                    pyo3::exceptions::PyValueError::new_err("the evaluation belongs to other rules")
                })?
                .clone();
            Some(EngineSeat {
                depth: *depth,
                nodes: *nodes,
                time: *time,
                margin: *margin,
                eval,
                hash_size: *hash_size,
            })
        }
    };
    Ok(Seat { engine, rng })
}

type PyPly = (usize, usize, bool, u32, Option<i64>);
type Played<'py> = (
    Vec<PyPly>,
    Vec<usize>,
    (&'static str, usize),
    Bound<'py, PyTuple>,
);

#[allow(clippy::too_many_arguments)]
fn play_width<'py, B: Bits>(
    py: Python<'py>,
    g: &Generator<B>,
    pick: fn(&AnyEval) -> Option<&Eval<B>>,
    start: &Bound<'_, PyTuple>,
    history: &[Bound<'_, PyTuple>],
    counter: &mut CoreCounter,
    seats: &[PySeat<'_>; 2],
    first: u8,
    max_plies: usize,
    repetitions: bool,
    bit_of_square: &[u32],
) -> PyResult<Played<'py>> {
    let start = node_of(g, start)?;
    let history = history
        .iter()
        .map(|n| node_of(g, n))
        .collect::<PyResult<Vec<_>>>()?;
    let mut seats = [seat_of(&seats[0], pick)?, seat_of(&seats[1], pick)?];
    let poll = || poll_now(None);
    let game = py
        .detach(|| {
            unwind_safe(|| {
                core::play_game(
                    g,
                    counter,
                    start,
                    history,
                    &mut seats,
                    first,
                    max_plies,
                    repetitions,
                    bit_of_square,
                    &poll,
                )
            })
        })
        .map_err(|fault| fault.into_py(py))?;
    let plies = game
        .plies
        .iter()
        .map(|p| (p.index, p.captured, p.promotes, p.end, p.score))
        .collect();
    Ok((
        plies,
        game.legal,
        end_of(game.end),
        py_node(py, &game.last)?,
    ))
}

/// A game's end as Python reads it: its kind and the draw rule's index.
fn end_of(end: End) -> (&'static str, usize) {
    match end {
        End::NoMove => ("no move", 0),
        End::Cap => ("cap", 0),
        End::Draw(Draw::Repetition) => ("repetition", 0),
        End::Draw(Draw::MoveCount(index)) => ("move_count", index),
        End::Draw(Draw::Endgame(index)) => ("endgame", index),
    }
}

/// A game of a batch as Python gives it: `(start, history, counter, seats, first, max_plies)`.
type PyJob<'py> = (
    Bound<'py, PyTuple>,
    Vec<Bound<'py, PyTuple>>,
    Bound<'py, DrawCounter>,
    [PySeat<'py>; 2],
    u8,
    usize,
);

/// A game of a batch as Python reads it: `(moves, taken, legal, ends, evals, crowning, end, last)`.
type PyGame<'py> = (
    Vec<usize>,
    Vec<usize>,
    Vec<usize>,
    Vec<u32>,
    Vec<Option<i64>>,
    Option<usize>,
    (&'static str, usize),
    Bound<'py, PyTuple>,
);

/// `game` as Python reads it: each ply's move index, pieces taken, end square and score (from
/// seat 0's side, a won or lost score as `Score.from_search(s).to_search()` gives it), the legal
/// move counts, the first ply (from 1) that crowned, the end and the last node.
fn py_game<'py, B: Bits>(py: Python<'py>, game: &Game<B>) -> PyResult<PyGame<'py>> {
    let plies = &game.plies;
    let evals = plies
        .iter()
        .map(|p| {
            p.score.map(|s| {
                let s = s.clamp(1 - MATE, MATE - 1);
                if p.seat == 0 {
                    s
                } else {
                    -s
                }
            })
        })
        .collect();
    Ok((
        plies.iter().map(|p| p.index).collect(),
        plies.iter().map(|p| p.captured).collect(),
        game.legal.clone(),
        plies.iter().map(|p| p.end).collect(),
        evals,
        plies.iter().position(|p| p.promotes).map(|at| at + 1),
        end_of(game.end),
        py_node(py, &game.last)?,
    ))
}

fn play_batch<'py, B: Bits>(
    py: Python<'py>,
    g: &Generator<B>,
    pick: fn(&AnyEval) -> Option<&Eval<B>>,
    games: &[PyJob<'_>],
    repetitions: bool,
    bit_of_square: &[u32],
) -> PyResult<Vec<PyGame<'py>>> {
    let jobs = games
        .iter()
        .map(|(start, history, counter, seats, first, max_plies)| {
            Ok(Job {
                counter: counter.borrow().counter.clone(),
                start: node_of(g, start)?,
                history: history
                    .iter()
                    .map(|n| node_of(g, n))
                    .collect::<PyResult<Vec<_>>>()?,
                seats: [seat_of(&seats[0], pick)?, seat_of(&seats[1], pick)?],
                first: *first,
                max_plies: *max_plies,
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    let poll = || poll_now(None);
    let played = py
        .detach(|| unwind_safe(|| core::play_games(g, jobs, repetitions, bit_of_square, &poll)))
        .map_err(|fault| fault.into_py(py))?;
    played.iter().map(|game| py_game(py, game)).collect()
}

/// Plays `games` of `rules` in turn in one call (the engines' tables reused from game to game,
/// cleared: each game is the one [`play_game`] plays), each given as `(start, history, counter,
/// seats, first, max_plies)` (see [`play_game`]; `counter` is left as it was). Returns per game
/// `(moves, taken, legal, ends, evals, crowning, end, last)`: each ply's move index, pieces
/// captured, end square and score from seat 0's side (None for a random move; a won or lost
/// score as `Score.from_search(s).to_search()` gives it), the legal move counts, the first ply
/// (from 1) that crowned or None, the end as [`play_game`]'s and the last node.
#[pyfunction]
#[pyo3(signature = (rules, games, repetitions))]
fn play_games<'py>(
    py: Python<'py>,
    rules: &Bound<'_, Rules>,
    games: Vec<PyJob<'py>>,
    repetitions: bool,
) -> PyResult<Vec<PyGame<'py>>> {
    let engine = &rules.get().engine;
    let bit_of_square = engine.layout().bit_of_square.clone();
    macro_rules! run {
        ($g:expr, $variant:ident) => {
            play_batch(
                py,
                $g,
                |e| match e {
                    Width::$variant(e) => Some(e),
                    _ => None,
                },
                &games,
                repetitions,
                &bit_of_square,
            )
        };
    }
    match engine {
        Engine::U64(g) => run!(g.as_ref(), U64),
        Engine::U128(g) => run!(g.as_ref(), U128),
        Engine::W4(g) => run!(g.as_ref(), W4),
        Engine::W8(g) => run!(g.as_ref(), W8),
        Engine::W11(g) => run!(g.as_ref(), W11),
    }
}

/// Plays one game of `rules` from `start` (after the game's earlier nodes `history`, counted in
/// `counter`, which is left as it was) between `seats` (seat 0 plays colour `first`; see [`PySeat`]),
/// at most `max_plies` plies. Returns `(plies, legal, end, last)`: per ply `(move index, pieces
/// captured, crowned, end square, score or None)`, the legal move counts the loop read, the end
/// `("no move" | "cap" | "repetition" | "move_count" | "endgame", rule index)` and the last node.
#[pyfunction]
#[pyo3(signature = (rules, start, history, counter, seats, first, max_plies, repetitions))]
#[allow(clippy::too_many_arguments)]
fn play_game<'py>(
    py: Python<'py>,
    rules: &Bound<'_, Rules>,
    start: &Bound<'_, PyTuple>,
    history: Vec<Bound<'_, PyTuple>>,
    counter: &Bound<'_, DrawCounter>,
    seats: [PySeat<'_>; 2],
    first: u8,
    max_plies: usize,
    repetitions: bool,
) -> PyResult<Played<'py>> {
    let engine = &rules.get().engine;
    let bit_of_square = engine.layout().bit_of_square.clone();
    let mut counter = counter.borrow().counter.clone();
    macro_rules! run {
        ($g:expr, $variant:ident) => {
            play_width(
                py,
                $g,
                |e| match e {
                    Width::$variant(e) => Some(e),
                    _ => None,
                },
                start,
                &history,
                &mut counter,
                &seats,
                first,
                max_plies,
                repetitions,
                &bit_of_square,
            )
        };
    }
    match engine {
        Engine::U64(g) => run!(g.as_ref(), U64),
        Engine::U128(g) => run!(g.as_ref(), U128),
        Engine::W4(g) => run!(g.as_ref(), W4),
        Engine::W8(g) => run!(g.as_ref(), W8),
        Engine::W11(g) => run!(g.as_ref(), W11),
    }
}

/// Adds the classes and functions to the module `draughts._native`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Rng>()?;
    m.add_function(wrap_pyfunction!(play_game, m)?)?;
    m.add_function(wrap_pyfunction!(play_games, m)?)?;
    Ok(())
}

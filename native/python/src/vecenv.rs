//! [`VecEnv`]: a batch of games of [`draughts_core::batch`] for Python's `draughts.ai.VectorEnv`.
//!
//! Python owns the output buffers (six `bytearray`s that numpy arrays view); each call steps or
//! resets every game natively, then writes observations, masks, rewards and flags into them in
//! place. The steps run first (they may call a user-defined precedence in Python); the buffers are
//! written after, by Rust alone, with the GIL held throughout.

use std::sync::Arc;

use draughts_core::batch::{Batch, Encoding, Options, Out};
use draughts_core::bitboard::{Bits, Wide};
use draughts_core::drawrules::DrawSpec;
use draughts_core::generator::Generator;
use draughts_core::state::Node;
use draughts_core::{Engine, Error};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyTuple};

use crate::convert::int_of;
use crate::drawrules::DrawRules;
use crate::errors::{draughts_error, to_py};
use crate::Rules;

/// Registers the class in the module `draughts._native`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<VecEnv>()
}

enum AnyBatch {
    U64(Batch<u64>),
    U128(Batch<u128>),
    W4(Batch<Wide<4>>),
    W8(Batch<Wide<8>>),
    W11(Batch<Wide<11>>),
}

macro_rules! each {
    ($batch:expr, $b:ident => $body:expr) => {
        match $batch {
            AnyBatch::U64($b) => $body,
            AnyBatch::U128($b) => $body,
            AnyBatch::W4($b) => $body,
            AnyBatch::W8($b) => $body,
            AnyBatch::W11($b) => $body,
        }
    };
}

/// `n` games of one ruleset stepped together (see `draughts.ai.vector`).
#[pyclass(module = "draughts._native")]
pub struct VecEnv {
    batch: AnyBatch,
    num_actions: usize,
    /// No Python precedence callback: each game's rows are written as it is stepped.
    fused: bool,
}

fn item<'py, T: FromPyObjectOwned<'py>>(tables: &Bound<'py, PyDict>, key: &str) -> PyResult<T> {
    let py = tables.py();
    let value = tables.get_item(key)?.ok_or_else(|| {
        draughts_error(
            py,
            "DraughtsError",
            format!("vector env tables: {key:?} is missing"),
        )
    })?;
    value.extract::<T>().map_err(|_| {
        draughts_error(
            py,
            "DraughtsError",
            format!("vector env tables: {key:?} does not fit"),
        )
    })
}

/// The node of a game as Python takes it: `(own, opp, kings, color, state)`, and its plies.
fn py_node<'py, B: Bits>(
    py: Python<'py>,
    found: Option<(draughts_core::state::Node<B>, u64)>,
) -> PyResult<Bound<'py, PyTuple>> {
    let (node, plies) =
        found.ok_or_else(|| pyo3::exceptions::PyIndexError::new_err("no such game"))?;
    let items: Vec<Bound<'py, PyAny>> = vec![
        int_of(py, &node.own.to_limbs())?,
        int_of(py, &node.opp.to_limbs())?,
        int_of(py, &node.kings.to_limbs())?,
        node.color.into_pyobject(py)?.into_any(),
        node.state.into_pyobject(py)?.into_any(),
        plies.into_pyobject(py)?.into_any(),
    ];
    PyTuple::new(py, items)
}

/// A start as Python gives it: the node's bitboards as limbs, colour, state, the move-count
/// rules' counts and plies since a material change.
type Start = (Vec<u64>, Vec<u64>, Vec<u64>, u8, u128, Vec<u64>, u64);

/// A batch of `n` games in the width of `g`.
fn make<B: Bits>(
    g: &Generator<B>,
    spec: Arc<DrawSpec>,
    enc: Encoding,
    opts: Options,
    n: usize,
    start: Option<&Start>,
) -> Result<Batch<B>, Error> {
    let start = match start {
        None => None,
        Some((own, opp, kings, color, state, counts, since)) => {
            let bits = |limbs: &[u64]| {
                B::from_limbs(limbs).ok_or_else(|| {
                    Error::InvalidNode("a start bitboard wider than the board".into())
                })
            };
            let node = Node {
                own: bits(own)?,
                opp: bits(opp)?,
                kings: bits(kings)?,
                color: *color,
                state: *state,
            };
            Some((node, counts.clone(), *since))
        }
    };
    Batch::new(Box::new(g.clone()), spec, enc, opts, n, start)
}

/// Runs `work` on the six bytearrays of `out` (`obs, mask, rewards, terminated, truncated,
/// player`) as one [`Out`]. `work` must not run Python code.
fn with_out<T>(
    out: &Bound<'_, PyTuple>,
    work: impl FnOnce(&mut Out<'_>) -> Result<T, Error>,
) -> PyResult<T> {
    let py = out.py();
    let arrays: Vec<Bound<'_, PyByteArray>> = out
        .iter()
        .map(|item| item.cast_into::<PyByteArray>().map_err(PyErr::from))
        .collect::<PyResult<_>>()?;
    if arrays.len() != 6 {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "six bytearrays expected",
        ));
    }
    for (i, a) in arrays.iter().enumerate() {
        if arrays[..i].iter().any(|b| b.is(a)) {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "the output bytearrays must be distinct",
            ));
        }
    }
    // SAFETY: the six bytearrays are distinct objects (checked above), so the slices do not
    // overlap; the GIL is held and `work` runs no Python code while they live (the native batch
    // alone, with no Python precedence callback: see `fused`), so nothing can resize, free or
    // write a bytearray meanwhile.
    let slices: Vec<&mut [u8]> = arrays.iter().map(|a| unsafe { a.as_bytes_mut() }).collect();
    let [obs, mask, rewards, terminated, truncated, player]: [&mut [u8]; 6] = slices
        .try_into()
        .map_err(|_| pyo3::exceptions::PyTypeError::new_err("six bytearrays expected"))?;
    let mut out = Out {
        obs,
        mask,
        rewards,
        terminated,
        truncated,
        player,
    };
    work(&mut out).map_err(|e| to_py(py, e))
}

impl VecEnv {
    /// The error of a step: an illegal action named with its game (the batch refused it before
    /// any game moved), else `error` as it is.
    fn step_error(&self, py: Python<'_>, error: Error) -> PyErr {
        let Error::IllegalAction { index, action } = error else {
            return to_py(py, error);
        };
        let legal = each!(&self.batch, b => b.legal_actions(index));
        let shown: Vec<u32> = legal.iter().take(20).copied().collect();
        let class = if action < 0 || action as u64 >= self.num_actions as u64 {
            "InvalidActionError"
        } else {
            "IllegalMoveError"
        };
        draughts_error(
            py,
            class,
            format!("action {action} is not legal in environment {index}; legal: {shown:?}"),
        )
    }
}

#[pymethods]
impl VecEnv {
    /// `num_envs` games of `rules` with the draw rules `draws`; `tables` holds the encoding
    /// (`num_actions`, `planes`, `cells`, `max_distance`, `segment` and `grid`: a pair of lists
    /// each, White's then Black's) and the options (`max_plies`, 0 for none; `claims`;
    /// `no_move_wins`; `first`, the first player's colour).
    #[new]
    fn new(
        rules: PyRef<'_, Rules>,
        draws: PyRef<'_, DrawRules>,
        tables: &Bound<'_, PyDict>,
        num_envs: usize,
    ) -> PyResult<Self> {
        let py = tables.py();
        let segment: (Vec<i32>, Vec<i32>) = item(tables, "segment")?;
        let grid: (Vec<u32>, Vec<u32>) = item(tables, "grid")?;
        let enc = Encoding {
            num_actions: item(tables, "num_actions")?,
            planes: item(tables, "planes")?,
            cells: item(tables, "cells")?,
            max_distance: item(tables, "max_distance")?,
            segment: [segment.0, segment.1],
            grid: [grid.0, grid.1],
        };
        let opts = Options {
            max_plies: item(tables, "max_plies")?,
            claims: item(tables, "claims")?,
            no_move_wins: item(tables, "no_move_wins")?,
            first: item(tables, "first")?,
        };
        let num_actions = enc.num_actions;
        let spec = draws.spec.clone();
        let start: Option<Start> = item(tables, "start")?;
        let s = start.as_ref();
        let made: Result<AnyBatch, Error> = match &rules.engine {
            Engine::U64(g) => make(g, spec, enc, opts, num_envs, s).map(AnyBatch::U64),
            Engine::U128(g) => make(g, spec, enc, opts, num_envs, s).map(AnyBatch::U128),
            Engine::W4(g) => make(g, spec, enc, opts, num_envs, s).map(AnyBatch::W4),
            Engine::W8(g) => make(g, spec, enc, opts, num_envs, s).map(AnyBatch::W8),
            Engine::W11(g) => make(g, spec, enc, opts, num_envs, s).map(AnyBatch::W11),
        };
        Ok(VecEnv {
            batch: made.map_err(|e| to_py(py, e))?,
            num_actions,
            fused: item(tables, "fused")?,
        })
    }

    /// Starts every game again and writes the start into `out`.
    fn reset(&mut self, out: &Bound<'_, PyTuple>) -> PyResult<()> {
        let py = out.py();
        each!(&mut self.batch, b => b.reset()).map_err(|e| to_py(py, e))?;
        let batch = &mut self.batch;
        with_out(out, |o| each!(batch, b => b.write(None, o)))
    }

    /// Steps every game with `actions` (native `int64`s as bytes) and writes the result into
    /// `out`. Unless `lose_illegal`, an illegal action raises `IllegalMoveError` naming the game,
    /// before any game moves.
    fn step(
        &mut self,
        actions: &Bound<'_, PyBytes>,
        lose_illegal: bool,
        out: &Bound<'_, PyTuple>,
    ) -> PyResult<()> {
        let py = out.py();
        let actions: Vec<i64> = actions
            .as_bytes()
            .chunks_exact(8)
            .map(|c| i64::from_ne_bytes(c.try_into().unwrap_or([0; 8])))
            .collect();
        let n = each!(&self.batch, b => b.len());
        if actions.len() != n {
            return Err(draughts_error(
                py,
                "InvalidActionError",
                format!("{} actions for {n} environments", actions.len()),
            ));
        }
        let batch = &mut self.batch;
        let mut stepped = Ok(());
        if self.fused {
            with_out(out, |o| {
                stepped =
                    each!(&mut *batch, b => b.advance(&actions, lose_illegal, Some(o)).map(|_| ()));
                Ok(())
            })?;
        } else {
            match each!(&mut *batch, b => b.advance(&actions, lose_illegal, None)) {
                Ok(steps) => with_out(out, |o| each!(&mut *batch, b => b.write(Some(&steps), o)))?,
                Err(error) => stepped = Err(error),
            }
        }
        stepped.map_err(|error| self.step_error(py, error))
    }

    /// One uniformly random legal action per game (native `int64`s as bytes); 0 for a game that
    /// ended (its action is ignored).
    fn random_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let n = each!(&self.batch, b => b.len());
        let mut out = vec![0i64; n];
        each!(&mut self.batch, b => b.random_actions(&mut out));
        PyBytes::new_with(py, n * 8, |bytes| {
            for (slot, action) in bytes.chunks_exact_mut(8).zip(&out) {
                slot.copy_from_slice(&action.to_ne_bytes());
            }
            Ok(())
        })
    }

    /// Seeds [`VecEnv::random_actions`].
    fn seed(&mut self, seed: u64) {
        each!(&mut self.batch, b => b.seed(seed));
    }

    /// Game `index`: `(own, opp, kings, color, state, plies)`.
    fn node<'py>(&self, py: Python<'py>, index: usize) -> PyResult<Bound<'py, PyTuple>> {
        each!(&self.batch, b => py_node(py, b.node(index)))
    }

    /// The legal actions of game `index` now (sorted; empty once it ended).
    fn legal_actions(&self, index: usize) -> Vec<u32> {
        each!(&self.batch, b => b.legal_actions(index))
    }

    /// Games in the batch.
    fn __len__(&self) -> usize {
        each!(&self.batch, b => b.len())
    }
}

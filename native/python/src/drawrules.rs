//! The draw rules of [`draughts_core::drawrules`] for Python: [`DrawRules`], a ruleset's draw
//! rules compiled once (from the dictionary `draughts.drawrules` makes of its `DrawRules` and
//! board), and [`DrawCounter`], a game's counts (what `draughts.Board` keeps), pushed and popped
//! with the moves. Positions cross as the generator's node `(own, opp, kings, color, state)`.

use std::sync::Arc;

use draughts_core::drawrules::{
    self as core, events, Draw, DrawSpec, EndgameRule, Facts, Material, MoveCountRule, MAX_LIMBS,
};
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyTuple};

use crate::convert::{dict_field, limbs_of};
use crate::errors::{draughts_error, to_py, unwind_safe};
use crate::node::NodeData;

/// Registers the classes and the event bits in the module `draughts._native`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<DrawRules>()?;
    m.add_class::<DrawCounter>()?;
    m.add("DRAW_MAN_MOVED", events::MAN_MOVED)?;
    m.add("DRAW_CAPTURE", events::CAPTURE)?;
    m.add("DRAW_CROWNING", events::CROWNING)?;
    Ok(())
}

/// An `InvalidRulesetError` for the draw spec's field `key`.
fn bad(py: Python<'_>, key: &str, detail: impl std::fmt::Display) -> PyErr {
    draughts_error(
        py,
        "InvalidRulesetError",
        format!("draw rules field {key:?}: {detail}"),
    )
}

/// Field `key` of the draw spec `spec` as a `T` (see [`dict_field`]).
fn field<'py, T: FromPyObjectOwned<'py>>(spec: &Bound<'py, PyDict>, key: &str) -> PyResult<T> {
    dict_field(spec, "draw rules", key)
}

/// A move-count rule from `(moves, resets, claim)`.
fn move_count(item: (u64, u8, bool)) -> MoveCountRule {
    let (moves, resets, claim) = item;
    MoveCountRule {
        moves,
        resets,
        claim,
    }
}

/// An endgame rule from its dictionary (the fields of `draughts.EndgameRule` but `article`).
fn endgame(py: Python<'_>, item: &Bound<'_, PyAny>) -> PyResult<EndgameRule> {
    let rule = item
        .cast::<PyDict>()
        .map_err(|_| bad(py, "endgames", "each rule must be a dict"))?;
    Ok(EndgameRule {
        moves: field(rule, "moves")?,
        strong: field(rule, "strong")?,
        weak: field(rule, "weak")?,
        strong_min_kings: field(rule, "strong_min_kings")?,
        total_pieces: field(rule, "total_pieces")?,
        both_have_kings: field(rule, "both_have_kings")?,
        weak_king_on_main_diagonal: field(rule, "weak_king_on_main_diagonal")?,
        no_shot: field(rule, "no_shot")?,
    })
}

/// A non-negative int as `limbs` limbs into `out`, without the slow 128-bit conversion of the
/// stable ABI for the usual one-limb boards.
fn fill(value: &Bound<'_, PyAny>, limbs: usize, out: &mut [u64], what: &str) -> PyResult<()> {
    if limbs == 1 && value.is_instance_of::<PyInt>() {
        if let Ok(bits) = value.extract::<u64>() {
            out[0] = bits;
            return Ok(());
        }
    }
    let wide = limbs_of(value, limbs, what)?;
    if wide[limbs..].iter().any(|&limb| limb != 0) {
        return Err(draughts_error(
            value.py(),
            "InvalidPositionError",
            format!("{what} {value} is not a bitboard of this board (too wide)"),
        ));
    }
    out[..limbs].copy_from_slice(&wide[..limbs]);
    Ok(())
}

/// A rule state (usually 0: no 128-bit conversion then).
fn state_of(value: &Bound<'_, PyAny>) -> PyResult<u128> {
    if let Ok(small) = value.extract::<u64>() {
        return Ok(u128::from(small));
    }
    value.extract::<u128>().map_err(|_| {
        draughts_error(
            value.py(),
            "InvalidPositionError",
            format!("state {value} is out of range"),
        )
    })
}

/// A ruleset's draw rules compiled for its board.
#[pyclass(frozen, module = "draughts._native")]
pub struct DrawRules {
    pub(crate) spec: Arc<DrawSpec>,
}

/// The facts `spec` reads of `node`, `(own, opp, kings, color, state)`.
fn facts(spec: &DrawSpec, node: &Bound<'_, PyAny>) -> PyResult<Facts> {
    let py = node.py();
    if let Some(native) = crate::node::as_node(node) {
        return native_facts(spec, native, py);
    }
    let node = node
        .cast::<PyTuple>()
        .ok()
        .filter(|t| t.len() == 5)
        .ok_or_else(|| {
            draughts_error(
                py,
                "InvalidPositionError",
                format!("a node is (own, opp, kings, color, state), not {node}"),
            )
        })?;
    let limbs = spec.limbs;
    let mut bits = [[0u64; MAX_LIMBS]; 3];
    for (index, (what, out)) in ["own", "opp", "kings"].iter().zip(&mut bits).enumerate() {
        fill(&node.get_item(index)?, limbs, out, what)?;
    }
    let color: u8 = node.get_item(3)?.extract().unwrap_or(u8::MAX);
    let state = state_of(&node.get_item(4)?)?;
    let [own, opp, kings] = &bits;
    unwind_safe(|| spec.facts(&own[..limbs], &opp[..limbs], &kings[..limbs], color, state))
        .map_err(|fault| fault.into_py(py))
}

/// The side to move's, the opponent's and the kings' limbs of a native node, its side to move
/// and rule state; an error if it is wider than the draw rules' `limbs`.
type NodeLimbs = ([[u64; MAX_LIMBS]; 3], u8, u128);

fn node_limbs(py: Python<'_>, node: &NodeData, limbs: usize) -> PyResult<NodeLimbs> {
    let mut bits = [[0u64; MAX_LIMBS]; 3];
    let (color, state) = node.limbs_into(&mut bits);
    if bits
        .iter()
        .any(|part| part[limbs..].iter().any(|&limb| limb != 0))
    {
        return Err(draughts_error(
            py,
            "InvalidPositionError",
            "a node wider than the draw rules' board".into(),
        ));
    }
    Ok((bits, color, state))
}

/// The facts `spec` reads of a native node (a position's own, or a `draughts._native.Node`): no
/// ints cross, no limbs are allocated.
fn native_facts(spec: &DrawSpec, node: &NodeData, py: Python<'_>) -> PyResult<Facts> {
    let limbs = spec.limbs;
    let (bits, color, state) = node_limbs(py, node, limbs)?;
    let [own, opp, kings] = &bits;
    unwind_safe(|| spec.facts(&own[..limbs], &opp[..limbs], &kings[..limbs], color, state))
        .map_err(|fault| fault.into_py(py))
}

impl DrawRules {
    fn endgame(&self, index: usize) -> PyResult<&EndgameRule> {
        self.spec.endgames.get(index).ok_or_else(|| {
            PyIndexError::new_err(format!(
                "endgame rule {index} of {}",
                self.spec.endgames.len()
            ))
        })
    }
}

#[pymethods]
impl DrawRules {
    /// Compiles `spec`: `repetitions` (0: none), `repetition_claim`, `move_counts` (a list of
    /// `(moves, resets, claim)`, resets as the `DRAW_*` bits), `endgames` (a list of dicts with
    /// the fields of `draughts.EndgameRule` but `article`), `bits` (the layout's width) and
    /// `main_diagonal` (the long diagonal's bits).
    ///
    /// Raises `InvalidRulesetError` for a spec that does not hold together.
    #[new]
    fn new(spec: &Bound<'_, PyDict>) -> PyResult<Self> {
        let py = spec.py();
        let bits: usize = field(spec, "bits")?;
        let limbs = bits.div_ceil(64).max(1);
        if limbs > MAX_LIMBS {
            return Err(bad(
                py,
                "bits",
                format!("{bits} is more than {}", MAX_LIMBS * 64),
            ));
        }
        let diagonal = spec
            .get_item("main_diagonal")?
            .ok_or_else(|| bad(py, "main_diagonal", "missing"))?;
        let endgames = spec
            .get_item("endgames")?
            .ok_or_else(|| bad(py, "endgames", "missing"))?;
        let draw = DrawSpec {
            repetitions: field(spec, "repetitions")?,
            repetition_claim: field(spec, "repetition_claim")?,
            move_counts: field::<Vec<(u64, u8, bool)>>(spec, "move_counts")?
                .into_iter()
                .map(move_count)
                .collect(),
            endgames: endgames
                .try_iter()
                .map_err(|e| bad(py, "endgames", e))?
                .map(|item| endgame(py, &item?))
                .collect::<PyResult<_>>()?,
            limbs,
            main_diagonal: limbs_of(&diagonal, limbs, "main_diagonal")
                .map_err(|e| bad(py, "main_diagonal", e))?[..limbs]
                .to_vec(),
        };
        draw.check().map_err(|e| to_py(py, e))?;
        Ok(DrawRules {
            spec: Arc::new(draw),
        })
    }

    /// A game's counter from its root node, the move-count rules' counts and the plies since the
    /// last capture or crowning.
    fn counter(
        &self,
        node: &Bound<'_, PyAny>,
        counts: Vec<u64>,
        since: u64,
    ) -> PyResult<DrawCounter> {
        let root = facts(&self.spec, node)?;
        let counter = core::DrawCounter::new(self.spec.clone(), &root, &counts, since)
            .map_err(|e| to_py(node.py(), e))?;
        Ok(DrawCounter { counter })
    }

    /// The move-count rules' counts a FEN's halfmove clock restores (`no_men`: the board has no
    /// men).
    fn counts_from_clock(&self, halfmoves: u64, no_men: bool) -> Vec<u64> {
        self.spec.counts_from_clock(halfmoves, no_men)
    }

    /// Whether endgame rule `index`'s conditions on the material hold, `(kings, men)` each.
    fn material_applies(
        &self,
        index: usize,
        white: (u32, u32),
        black: (u32, u32),
    ) -> PyResult<bool> {
        let material = Material { white, black };
        Ok(self.endgame(index)?.material_applies(&material))
    }

    /// Whether endgame rule `index` looks at where the pieces stand.
    fn depends_on_placement(&self, index: usize) -> PyResult<bool> {
        Ok(self.endgame(index)?.depends_on_placement())
    }

    /// Whether endgame rule `index` applies to `node` (its count aside); `shot()`, called only if
    /// it decides, says whether the side to move has a shot in the air.
    fn applies(
        &self,
        index: usize,
        node: &Bound<'_, PyAny>,
        shot: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        let rule = self.endgame(index)?;
        let facts = facts(&self.spec, node)?;
        let mut ask = || shot.call0()?.is_truthy();
        unwind_safe(|| Ok(rule.applies(&facts.frame, &mut ask)))
            .map_err(|fault| fault.into_py(node.py()))?
    }

    /// The 64-bit Zobrist hash of `node` (internal: not a stable key).
    fn hash(&self, node: &Bound<'_, PyAny>) -> PyResult<u64> {
        Ok(facts(&self.spec, node)?.frame.hash)
    }

    fn __repr__(&self) -> String {
        let spec = &self.spec;
        format!(
            "<draughts._native.DrawRules repetitions={} move_counts={} endgames={}>",
            spec.repetitions,
            spec.move_counts.len(),
            spec.endgames.len()
        )
    }
}

/// A game's draw counts: one frame per position, pushed and popped with the moves.
#[pyclass(module = "draughts._native")]
pub struct DrawCounter {
    pub(crate) counter: core::DrawCounter,
}

impl DrawCounter {
    /// Records a move that did `event` and led to the native node `node` (a board's push: no
    /// Python call, no ints).
    pub(crate) fn push_node(&mut self, py: Python<'_>, node: &NodeData, event: u8) -> PyResult<()> {
        let limbs = self.counter.spec().limbs;
        let (bits, color, state) = node_limbs(py, node, limbs)?;
        let [own, opp, kings] = &bits;
        let (white, black) = if color == 0 { (own, opp) } else { (opp, own) };
        let counter = &mut self.counter;
        unwind_safe(|| {
            counter.push_position(
                &white[..limbs],
                &black[..limbs],
                &kings[..limbs],
                color,
                state,
                event,
            )
        })
        .map_err(|fault| fault.into_py(py))
    }
}

#[pymethods]
impl DrawCounter {
    /// Records a move that did `event` (the `DRAW_*` bits) and led to `node`.
    fn push(&mut self, node: &Bound<'_, PyAny>, event: u8) -> PyResult<()> {
        let after = facts(self.counter.spec(), node)?;
        let counter = &mut self.counter;
        unwind_safe(|| counter.push(&after, event)).map_err(|fault| fault.into_py(node.py()))
    }

    /// Takes back the last move (`IndexError` at the root).
    fn pop(&mut self) -> PyResult<()> {
        if self.counter.pop() {
            Ok(())
        } else {
            Err(PyIndexError::new_err(
                "pop from a draw counter with no moves",
            ))
        }
    }

    /// An independent copy.
    fn copy(&self) -> DrawCounter {
        DrawCounter {
            counter: self.counter.clone(),
        }
    }

    /// The move-count rules' counts after the last move.
    #[getter]
    fn move_counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.counter.move_counts())
    }

    /// `(move_counts, since_material_change)` in one call (what `Board.counters` reads).
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyTuple>, u64)> {
        Ok((
            PyTuple::new(py, self.counter.move_counts())?,
            self.counter.since_material_change(),
        ))
    }

    /// Plies since the last capture or crowning.
    #[getter]
    fn since_material_change(&self) -> u64 {
        self.counter.since_material_change()
    }

    /// The current position's Zobrist hash.
    #[getter]
    fn hash(&self) -> u64 {
        self.counter.current().hash
    }

    /// How many times the current position (same side to move) has occurred.
    fn repetitions(&self) -> u32 {
        self.counter.repetitions()
    }

    /// The first draw rule that applies now, as `("repetition", 0)`, `("move_count", index)` or
    /// `("endgame", index)`, or None; claim-based rules with `claims`, the others without. `shot()`
    /// says whether the side to move has a shot in the air (called only when a rule needs it).
    fn draw(
        &self,
        claims: bool,
        shot: &Bound<'_, PyAny>,
    ) -> PyResult<Option<(&'static str, usize)>> {
        let mut ask = || shot.call0()?.is_truthy();
        let found = unwind_safe(|| Ok(self.counter.draw(claims, &mut ask)))
            .map_err(|fault| fault.into_py(shot.py()))??;
        Ok(found.map(|draw| match draw {
            Draw::Repetition => ("repetition", 0),
            Draw::MoveCount(index) => ("move_count", index),
            Draw::Endgame(index) => ("endgame", index),
        }))
    }

    fn __len__(&self) -> usize {
        self.counter.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "<draughts._native.DrawCounter positions={} move_counts={:?} since_material_change={}>",
            self.counter.len(),
            self.counter.move_counts(),
            self.counter.since_material_change()
        )
    }
}

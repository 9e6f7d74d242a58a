//! A position's node held natively: [`NodeObj`] (`draughts._native.Node`) keeps the typed node
//! (bitboards in the ruleset's width, side to move, rule state) and, once asked, its legal moves,
//! so that the per-move path (`Position.legal_moves()`, `Position.play`) passes no ints across
//! the boundary: the moves come out as the cached `draughts.Move` objects, and playing one of
//! them finds its masks by the move's place in its parent's list, with no re-validation.
//!
//! [`MoveView`] is the native base of `draughts.LegalMoves`: its collection methods call the
//! listing callable it holds without a Python frame in between.

use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use draughts_core::bitboard::{Bits, Wide};
use draughts_core::generator::Generator;
use draughts_core::state::{Compact, Node};
use draughts_core::Engine;
use pyo3::basic::CompareOp;
use pyo3::exceptions::PyTypeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyIterator, PyList, PyTuple};
use rustc_hash::FxHasher;

use crate::errors::unwind_safe;
use crate::fast::{self, check_hook, PyBits};
use crate::position::PositionBase;
use crate::Rules;

/// Registers [`NodeObj`] and [`MoveView`] in the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<NodeObj>()?;
    m.add_class::<MoveView>()
}

/// The legal moves of a node, listed once: the `Move` objects, the typed masks (what playing the
/// move at an index needs) and, once asked, their masks tuples (the per-move path never asks).
struct Listed<B: Bits> {
    moves: Py<PyTuple>,
    masks: OnceLock<Py<PyTuple>>,
    compacts: Vec<Compact<B>>,
}

/// What playing a legal move does, as a board's push needs it ([`NodeObj::step`]).
pub(crate) struct Step<'py> {
    /// The listed `draughts.Move`.
    pub listed: Bound<'py, PyAny>,
    /// Its place in the legal moves.
    pub index: usize,
    /// The node after it.
    pub node: Py<NodeObj>,
    /// Whether it captures.
    pub captured: bool,
    /// Whether a king made it; None where the masks do not say (a capture ending where it began).
    pub king_moved: Option<bool>,
}

/// A node of one width and, once listed, its legal moves.
struct Typed<B: Bits> {
    node: Node<B>,
    listed: OnceLock<Listed<B>>,
}

/// A typed node in the width its ruleset compiled to (the variants of [`Engine`]).
#[allow(clippy::large_enum_variant)] // unboxed: a box would cost an allocation per position
enum AnyTyped {
    U64(Typed<u64>),
    U128(Typed<u128>),
    W4(Typed<Wide<4>>),
    W8(Typed<Wide<8>>),
    W11(Typed<Wide<11>>),
}

/// A bitboard width a node can be held in.
trait Width: PyBits {
    /// `node` as the matching [`AnyTyped`] variant.
    fn wrap(node: Node<Self>) -> AnyTyped;
}

macro_rules! width {
    ($t:ty, $variant:ident) => {
        impl Width for $t {
            fn wrap(node: Node<Self>) -> AnyTyped {
                AnyTyped::$variant(Typed {
                    node,
                    listed: OnceLock::new(),
                })
            }
        }
    };
}

width!(u64, U64);
width!(u128, U128);
width!(Wide<4>, W4);
width!(Wide<8>, W8);
width!(Wide<11>, W11);

/// Runs `$body` with `$g` the typed generator of `$rules` and `$t` the node's [`Typed`] of the
/// same width (a node is only ever made with its own rules: another pairing cannot occur).
macro_rules! typed {
    ($rules:expr, $typed:expr, $g:ident, $t:ident => $body:expr) => {
        match (&$rules.engine, $typed) {
            (Engine::U64($g), AnyTyped::U64($t)) => $body,
            (Engine::U128($g), AnyTyped::U128($t)) => $body,
            (Engine::W4($g), AnyTyped::W4($t)) => $body,
            (Engine::W8($g), AnyTyped::W8($t)) => $body,
            (Engine::W11($g), AnyTyped::W11($t)) => $body,
            _ => Err(PyTypeError::new_err(
                "a node paired with rules of another width",
            )),
        }
    };
}

/// The node of a position under compiled rules (`draughts._native.Node`): made once per position
/// and immutable; equal when the nodes are.
#[pyclass(frozen, module = "draughts._native", name = "Node")]
pub struct NodeObj {
    rules: Py<Rules>,
    typed: AnyTyped,
    /// `(own, opp, kings, color, state)` as Python ints, made on first request.
    ints: OnceLock<Py<PyTuple>>,
}

impl NodeObj {
    fn child_of<B: Width>(&self, py: Python<'_>, node: Node<B>) -> PyResult<Py<NodeObj>> {
        Py::new(
            py,
            NodeObj {
                rules: self.rules.clone_ref(py),
                typed: B::wrap(node),
                ints: OnceLock::new(),
            },
        )
    }

    /// For the legal move `move` (by identity, else equality): what playing it does (the listed
    /// `Move` equal to it, its masks tuple, the next node and what the draw rules read of it);
    /// None if `move` is not legal here.
    pub(crate) fn step<'py>(
        &self,
        py: Python<'py>,
        r#move: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Step<'py>>> {
        let rules = self.rules.get();
        typed!(rules, &self.typed, g, t => {
            let done = listed(py, rules, g, t)?;
            let moves = done.moves.bind(py);
            let Some(index) = find(moves, r#move)? else {
                return Ok(None);
            };
            let c = &done.compacts[index];
            // A king's move toggles the kings mask on both its squares (`crowned` holds `moved`),
            // a man's at most on the one it is crowned on; a capture that ends where it started
            // moves nothing (then the start square says: `king_moved` None).
            let king_moved = (!c.moved.is_zero()).then_some((c.crowned & c.moved) == c.moved);
            Ok(Some(Step {
                listed: moves.get_item(index)?,
                index,
                node: self.child_of(py, g.play(&t.node, c))?,
                captured: !c.captured.is_zero(),
                king_moved,
            }))
        })
    }

    /// The masks tuple `(moved, captured, crowned)` of the legal move at `index`.
    pub(crate) fn masks_at<'py>(
        &self,
        py: Python<'py>,
        index: usize,
    ) -> PyResult<Bound<'py, PyAny>> {
        let rules = self.rules.get();
        typed!(rules, &self.typed, g, t => masks_of(py, listed(py, rules, g, t)?)?.get_item(index))
    }

    fn hash_value(&self) -> u64 {
        let mut hasher = FxHasher::default();
        match &self.typed {
            AnyTyped::U64(t) => t.node.hash(&mut hasher),
            AnyTyped::U128(t) => t.node.hash(&mut hasher),
            AnyTyped::W4(t) => t.node.hash(&mut hasher),
            AnyTyped::W8(t) => t.node.hash(&mut hasher),
            AnyTyped::W11(t) => t.node.hash(&mut hasher),
        }
        hasher.finish()
    }

    fn same(&self, other: &NodeObj) -> bool {
        match (&self.typed, &other.typed) {
            (AnyTyped::U64(a), AnyTyped::U64(b)) => a.node == b.node,
            (AnyTyped::U128(a), AnyTyped::U128(b)) => a.node == b.node,
            (AnyTyped::W4(a), AnyTyped::W4(b)) => a.node == b.node,
            (AnyTyped::W8(a), AnyTyped::W8(b)) => a.node == b.node,
            (AnyTyped::W11(a), AnyTyped::W11(b)) => a.node == b.node,
            _ => false,
        }
    }

    /// The node's bitboards as limbs, its side to move and rule state (what the draw rules read).
    pub fn limbs(&self) -> ([Vec<u64>; 3], u8, u128) {
        fn parts<B: Bits>(n: &Node<B>) -> ([Vec<u64>; 3], u8, u128) {
            let bits = [n.own.to_limbs(), n.opp.to_limbs(), n.kings.to_limbs()];
            (bits, n.color, n.state)
        }
        match &self.typed {
            AnyTyped::U64(t) => parts(&t.node),
            AnyTyped::U128(t) => parts(&t.node),
            AnyTyped::W4(t) => parts(&t.node),
            AnyTyped::W8(t) => parts(&t.node),
            AnyTyped::W11(t) => parts(&t.node),
        }
    }
}

/// The legal moves of `t`, listed on first request.
fn listed<'a, B: Width>(
    py: Python<'_>,
    rules: &Rules,
    g: &Generator<B>,
    t: &'a Typed<B>,
) -> PyResult<&'a Listed<B>> {
    if let Some(done) = t.listed.get() {
        return Ok(done);
    }
    let masks = OnceLock::new();
    let (moves, compacts) = match quiet_only(g, &t.node) {
        Some(quiet) => {
            let moves = rules.cache.quiet_objects(py, &quiet)?;
            (moves, quiet.iter().map(|q| q.compact).collect())
        }
        None => {
            let hook = || check_hook(py);
            let found =
                unwind_safe(|| g.legal(&t.node, false, Some(&hook))).map_err(|f| f.into_py(py))?;
            let (moves, tuples) = rules.cache.objects(py, &found)?;
            let _ = masks.set(PyTuple::new(py, tuples)?.unbind());
            (
                PyTuple::new(py, moves)?,
                found.iter().map(|m| m.compact).collect(),
            )
        }
    };
    let made = Listed {
        moves: moves.unbind(),
        masks,
        compacts,
    };
    let _ = t.listed.set(made); // another thread may have listed it first: the same moves
    t.listed
        .get()
        .ok_or_else(|| PyTypeError::new_err("a node's legal moves were not kept"))
}

/// The masks tuples of the listed moves, made on first request.
fn masks_of<'py, B: Width>(py: Python<'py>, done: &Listed<B>) -> PyResult<Bound<'py, PyTuple>> {
    if let Some(made) = done.masks.get() {
        return Ok(made.bind(py).clone());
    }
    let tuples = done
        .compacts
        .iter()
        .map(|c| fast::compact_tuple(py, c))
        .collect::<PyResult<Vec<_>>>()?;
    let made = PyTuple::new(py, tuples)?;
    let _ = done.masks.set(made.clone().unbind()); // another thread's are equal
    Ok(made)
}

/// The legal moves of `node` when they are all quiet (no capture, and no king to end the game
/// where crowning wins), sorted by start and end square as the generator's `legal` lists them;
/// None otherwise. The common case of a game, made without the public form of each move (no
/// squares lists, no sort of them): a quiet move is its start, end and kind.
fn quiet_only<B: Bits>(g: &Generator<B>, node: &Node<B>) -> Option<Vec<fast::Quiet<B>>> {
    let t = &g.tables;
    if (t.crowning_wins && node.kings.any()) || g.can_capture(node) {
        return None;
    }
    let listed = g.quiet_list(node);
    // Sorted on packed (start, end, place) keys: moving the larger entries costs more.
    let ends = |c: &Compact<B>| {
        let from = t.square((c.moved & node.own).lowest_index());
        (from, t.square((c.moved & !node.own).lowest_index()))
    };
    let mut order: Vec<u64> = listed
        .iter()
        .enumerate()
        .map(|(place, c)| {
            let (from, to) = ends(c);
            (u64::from(from) << 42) | (u64::from(to) << 21) | place as u64
        })
        .collect();
    order.sort_unstable();
    let quiet = order
        .into_iter()
        .map(|key| {
            let c = listed[(key & 0x1f_ffff) as usize];
            let (start, end) = ends(&c);
            let kind = if (c.moved & node.kings).any() {
                2
            } else {
                u8::from(c.crowned.any())
            };
            fast::Quiet {
                start,
                end,
                kind,
                compact: c,
            }
        })
        .collect();
    Some(quiet)
}

/// Where `item` is in `moves`: by identity first (a move taken from the list), then by equality.
fn find(moves: &Bound<'_, PyTuple>, item: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    if let Some(index) = moves.iter().position(|m| m.is(item)) {
        return Ok(Some(index));
    }
    for (index, m) in moves.iter().enumerate() {
        if m.eq(item)? {
            return Ok(Some(index));
        }
    }
    Ok(None)
}

#[pymethods]
impl NodeObj {
    /// The node `(own, opp, kings, color, state)` under `rules`, checked
    /// (`InvalidPositionError` if it does not fit them; `TypeError` for a non-int).
    #[new]
    fn new(
        py: Python<'_>,
        rules: Py<Rules>,
        own: &Bound<'_, PyAny>,
        opp: &Bound<'_, PyAny>,
        kings: &Bound<'_, PyAny>,
        color: &Bound<'_, PyAny>,
        state: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let values = [own, opp, kings, color, state];
        let typed = match &rules.get().engine {
            Engine::U64(g) => u64::wrap(fast::node_of(g, values)?),
            Engine::U128(g) => u128::wrap(fast::node_of(g, values)?),
            Engine::W4(g) => Wide::<4>::wrap(fast::node_of(g, values)?),
            Engine::W8(g) => Wide::<8>::wrap(fast::node_of(g, values)?),
            Engine::W11(g) => Wide::<11>::wrap(fast::node_of(g, values)?),
        };
        let _ = py;
        Ok(NodeObj {
            rules,
            typed,
            ints: OnceLock::new(),
        })
    }

    /// The side to move (0 White, 1 Black).
    #[getter]
    fn color(&self) -> u8 {
        match &self.typed {
            AnyTyped::U64(t) => t.node.color,
            AnyTyped::U128(t) => t.node.color,
            AnyTyped::W4(t) => t.node.color,
            AnyTyped::W8(t) => t.node.color,
            AnyTyped::W11(t) => t.node.color,
        }
    }

    /// `(own, opp, kings, color, state)` as Python ints (made once).
    fn ints<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        if let Some(done) = self.ints.get() {
            return Ok(done.bind(py).clone());
        }
        let made = match &self.typed {
            AnyTyped::U64(t) => fast::node_tuple(py, &t.node)?,
            AnyTyped::U128(t) => fast::node_tuple(py, &t.node)?,
            AnyTyped::W4(t) => fast::node_tuple(py, &t.node)?,
            AnyTyped::W8(t) => fast::node_tuple(py, &t.node)?,
            AnyTyped::W11(t) => fast::node_tuple(py, &t.node)?,
        };
        let _ = self.ints.set(made.clone().unbind());
        Ok(made)
    }

    /// The legal moves as a tuple of `draughts.Move` in move order (listed once per node).
    fn legal<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let rules = self.rules.get();
        typed!(rules, &self.typed, g, t => {
            Ok(listed(py, rules, g, t)?.moves.bind(py).clone())
        })
    }

    /// `(moves, masks)`: the legal moves and the xor masks `(moved, captured, crowned)` each is
    /// played with.
    fn with_masks<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyTuple>)> {
        let rules = self.rules.get();
        typed!(rules, &self.typed, g, t => {
            let done = listed(py, rules, g, t)?;
            Ok((done.moves.bind(py).clone(), masks_of(py, done)?))
        })
    }

    /// Where `move` is in the legal moves (by identity, else by equality), or -1.
    fn index(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<isize> {
        let moves = self.legal(py)?;
        Ok(find(&moves, r#move)?.map_or(-1, |i| i as isize))
    }

    /// The node after the legal move `move` (by identity, else equality), or None if it is not
    /// one of the legal moves.
    pub(crate) fn child(
        &self,
        py: Python<'_>,
        r#move: &Bound<'_, PyAny>,
    ) -> PyResult<Option<Py<NodeObj>>> {
        let rules = self.rules.get();
        typed!(rules, &self.typed, g, t => {
            let done = listed(py, rules, g, t)?;
            match find(done.moves.bind(py), r#move)? {
                Some(index) => Ok(Some(self.child_of(py, g.play(&t.node, &done.compacts[index]))?)),
                None => Ok(None),
            }
        })
    }

    /// The legal moves (what a `LegalMoves` made over the node lists).
    fn __call__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        self.legal(py)
    }

    /// The node after the legal move at `index` (`IndexError` outside the list).
    pub(crate) fn child_at(&self, py: Python<'_>, index: usize) -> PyResult<Py<NodeObj>> {
        let rules = self.rules.get();
        typed!(rules, &self.typed, g, t => {
            let done = listed(py, rules, g, t)?;
            let c = done.compacts.get(index).ok_or_else(|| {
                pyo3::exceptions::PyIndexError::new_err(format!("no legal move {index}"))
            })?;
            self.child_of(py, g.play(&t.node, c))
        })
    }

    /// The node after the move with xor masks `masks`, a `(moved, captured, crowned)` tuple
    /// (checked to fit the node, not for legality: `InvalidMoveError` otherwise).
    fn play_masks(&self, py: Python<'_>, masks: &Bound<'_, PyAny>) -> PyResult<Py<NodeObj>> {
        let rules = self.rules.get();
        typed!(rules, &self.typed, g, t => {
            let next = fast::checked_play(py, g, &t.node, &fast::compact_of(masks)?)?;
            self.child_of(py, next)
        })
    }

    fn __hash__(&self) -> u64 {
        self.hash_value()
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let Ok(other) = other.cast::<NodeObj>() else {
            return Ok(py.NotImplemented());
        };
        let same = self.same(other.get());
        match op {
            CompareOp::Eq => Ok(same.into_pyobject(py)?.to_owned().into_any().unbind()),
            CompareOp::Ne => Ok((!same).into_pyobject(py)?.to_owned().into_any().unbind()),
            _ => Ok(py.NotImplemented()),
        }
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("<draughts._native.Node {}>", self.ints(py)?))
    }
}

/// The native base of `draughts.LegalMoves`: a collection over what `source()` returns (a tuple
/// of moves), with `owner` the position or board the moves belong to. Two sources are read
/// without a call: a position's node (a [`NodeObj`], its moves) and a board's list of
/// positions (the moves of the last one's node).
#[pyclass(frozen, subclass, module = "draughts._native")]
pub struct MoveView {
    /// Lists the current moves.
    #[pyo3(get, name = "_source")]
    source: Py<PyAny>,
    /// The position (or a board's list of positions) the moves belong to.
    #[pyo3(get, name = "_owner")]
    owner: Py<PyAny>,
}

impl MoveView {
    /// A view over `source` (a node, a board's list of positions or a callable) owned by `owner`.
    pub(crate) fn over(source: Py<PyAny>, owner: Py<PyAny>) -> Self {
        MoveView { source, owner }
    }

    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let source = self.source.bind(py);
        if let Ok(node) = source.cast::<NodeObj>() {
            return Ok(node.get().legal(py)?.into_any()); // a position's: no call through Python
        }
        if let Ok(positions) = source.cast::<PyList>() {
            // A board's positions: the moves of the last one's node (its slot `_key`).
            let last = positions.get_item(positions.len().saturating_sub(1))?;
            if let Ok(position) = last.cast::<PositionBase>() {
                return Ok(PositionBase::node(position).get().legal(py)?.into_any());
            }
            let key = last.getattr(intern!(py, "_key"))?;
            let node = key.cast::<NodeObj>()?;
            return Ok(node.get().legal(py)?.into_any());
        }
        source.call0()
    }
}

#[pymethods]
impl MoveView {
    #[new]
    fn new(source: Py<PyAny>, owner: Py<PyAny>) -> Self {
        MoveView { source, owner }
    }

    /// The moves as a tuple: a snapshot, unaffected by later pushes.
    fn __call__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.moves(py)
    }

    /// The number of legal moves.
    fn count(&self, py: Python<'_>) -> PyResult<usize> {
        self.moves(py)?.len()
    }

    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        self.moves(py)?.len()
    }

    fn __bool__(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.moves(py)?.len()? > 0)
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        self.moves(py)?.try_iter()
    }

    fn __contains__(&self, py: Python<'_>, item: &Bound<'_, PyAny>) -> PyResult<bool> {
        self.moves(py)?.contains(item)
    }

    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        index: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.moves(py)?.get_item(index)
    }
}

/// A `NodeObj` from a Python value, if it is one (how the draw rules take a position's node).
pub fn as_node<'a, 'py>(value: &'a Bound<'py, PyAny>) -> Option<&'a Bound<'py, NodeObj>> {
    value.cast::<NodeObj>().ok()
}

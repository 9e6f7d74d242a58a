//! A position's node held natively: [`NodeData`] keeps the typed node (bitboards in the ruleset's
//! width, side to move, rule state) and, once asked, its legal moves, so that the per-move path
//! (`Position.legal_moves()`, `Position.play`) passes no ints across the boundary: the moves come
//! out as the cached `draughts.Move` objects, and playing one of them finds its masks by the
//! move's place in its parent's list, with no re-validation. A position holds its `NodeData` in
//! its own object (`crate::position::PositionBase`: one object a position); [`NodeObj`]
//! (`draughts._native.Node`) is the same data as a Python object of its own, for the library's
//! calls that take a node (the draw rules) and for equality and hashing.
//!
//! [`MoveView`] is the native base of `draughts.LegalMoves`: its collection methods read the
//! moves of the position it views without a Python frame in between.

use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use draughts_core::bitboard::{Bits, Wide};
use draughts_core::drawrules::MAX_LIMBS;
use draughts_core::generator::Generator;
use draughts_core::state::{Compact, Node};
use draughts_core::Engine;
use pyo3::basic::CompareOp;
use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyIterator, PyList, PyTuple};
use rustc_hash::FxHasher;
use smallvec::SmallVec;

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

/// What playing a legal move does, as a board's push needs it ([`NodeData::step`]).
pub(crate) struct Step<'py> {
    /// The listed `draughts.Move`.
    pub listed: Bound<'py, PyAny>,
    /// Its place in the legal moves.
    pub index: usize,
    /// The node after it.
    pub node: NodeData,
    /// Whether it captures.
    pub captured: bool,
    /// Whether it crowns a man (the listed move's `promotes`, read from its masks).
    pub promotes: bool,
    /// Whether a king made it; None where the masks do not say (a capture ending where it began).
    pub king_moved: Option<bool>,
}

/// A node of one width and, once listed, its legal moves.
struct Typed<B: Bits> {
    node: Node<B>,
    listed: OnceLock<Listed<B>>,
}

/// A typed node in the width its ruleset compiled to (the variants of [`Engine`]). The boards of
/// up to 128 bits are held inline (a box would cost an allocation per position); the wider ones
/// are boxed, so that a position stays small enough to be moved into its object without a call
/// to `memcpy`.
enum AnyTyped {
    U64(Typed<u64>),
    U128(Typed<u128>),
    W4(Box<Typed<Wide<4>>>),
    W8(Box<Typed<Wide<8>>>),
    W11(Box<Typed<Wide<11>>>),
}

/// A bitboard width a node can be held in.
trait Width: PyBits {
    /// `node` as the matching [`AnyTyped`] variant.
    fn wrap(node: Node<Self>) -> AnyTyped;
}

macro_rules! width {
    ($t:ty, $variant:ident, $hold:path) => {
        impl Width for $t {
            fn wrap(node: Node<Self>) -> AnyTyped {
                AnyTyped::$variant($hold(Typed {
                    node,
                    listed: OnceLock::new(),
                }))
            }
        }
    };
}

/// Holds a typed node inline.
fn inline<T>(typed: T) -> T {
    typed
}

width!(u64, U64, inline);
width!(u128, U128, inline);
width!(Wide<4>, W4, Box::new);
width!(Wide<8>, W8, Box::new);
width!(Wide<11>, W11, Box::new);

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

/// Runs `$body` with `$n` the node of `$typed`, whatever its width.
macro_rules! each_width {
    ($typed:expr, $n:ident => $body:expr) => {
        match $typed {
            AnyTyped::U64(t) => {
                let $n = &t.node;
                $body
            }
            AnyTyped::U128(t) => {
                let $n = &t.node;
                $body
            }
            AnyTyped::W4(t) => {
                let $n = &t.node;
                $body
            }
            AnyTyped::W8(t) => {
                let $n = &t.node;
                $body
            }
            AnyTyped::W11(t) => {
                let $n = &t.node;
                $body
            }
        }
    };
}

/// A node under compiled rules, its legal moves once listed and its ints once asked: what a
/// position holds (immutable once made).
pub(crate) struct NodeData {
    rules: Py<Rules>,
    typed: AnyTyped,
    /// `(own, opp, kings, color, state)` as Python ints, made on first request.
    ints: OnceLock<Py<PyTuple>>,
}

impl NodeData {
    /// The node `(own, opp, kings, color, state)` under `rules`, checked (`InvalidPositionError`
    /// if it does not fit them; `TypeError` for a non-int).
    pub(crate) fn checked(rules: Py<Rules>, values: [&Bound<'_, PyAny>; 5]) -> PyResult<Self> {
        let typed = match &rules.get().engine {
            Engine::U64(g) => u64::wrap(fast::node_of(g, values)?),
            Engine::U128(g) => u128::wrap(fast::node_of(g, values)?),
            Engine::W4(g) => Wide::<4>::wrap(fast::node_of(g, values)?),
            Engine::W8(g) => Wide::<8>::wrap(fast::node_of(g, values)?),
            Engine::W11(g) => Wide::<11>::wrap(fast::node_of(g, values)?),
        };
        Ok(NodeData {
            rules,
            typed,
            ints: OnceLock::new(),
        })
    }

    fn child_of<B: Width>(&self, py: Python<'_>, node: Node<B>) -> NodeData {
        NodeData {
            rules: self.rules.clone_ref(py),
            typed: B::wrap(node),
            ints: OnceLock::new(),
        }
    }

    /// The same node, its moves not listed yet (what a position hands out as its `_key`).
    pub(crate) fn unlisted(&self, py: Python<'_>) -> NodeData {
        each_width!(&self.typed, n => self.child_of(py, *n))
    }

    /// For the legal move `move` (by identity, else equality): what playing it does (the listed
    /// `Move` equal to it, its place, the next node and what the draw rules read of it); None if
    /// `move` is not legal here.
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
            // a man's at most on the one it is crowned on (and the kings it captures); a capture
            // that ends where it started moves nothing (then the start square says: `king_moved`
            // None) and crowns nothing (a man never starts on its crowning row).
            let king_moved = (!c.moved.is_zero()).then_some((c.moved & t.node.kings).any());
            let promotes = king_moved == Some(false) && (c.crowned & !c.captured).any();
            Ok(Some(Step {
                listed: moves.get_item(index)?,
                index,
                node: self.child_of(py, g.play(&t.node, c)),
                captured: !c.captured.is_zero(),
                promotes,
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

    /// The node's hash (equal nodes hash alike).
    pub(crate) fn hash_value(&self) -> u64 {
        let mut hasher = FxHasher::default();
        each_width!(&self.typed, n => n.hash(&mut hasher));
        hasher.finish()
    }

    /// Whether the two nodes are the same (pieces, side to move, rule state).
    pub(crate) fn same(&self, other: &NodeData) -> bool {
        match (&self.typed, &other.typed) {
            (AnyTyped::U64(a), AnyTyped::U64(b)) => a.node == b.node,
            (AnyTyped::U128(a), AnyTyped::U128(b)) => a.node == b.node,
            (AnyTyped::W4(a), AnyTyped::W4(b)) => a.node == b.node,
            (AnyTyped::W8(a), AnyTyped::W8(b)) => a.node == b.node,
            (AnyTyped::W11(a), AnyTyped::W11(b)) => a.node == b.node,
            _ => false,
        }
    }

    /// The node's bitboards as limbs into `out` (`own`, `opp`, `kings`; limbs past the width
    /// left as they are), its side to move and rule state: what the draw rules read.
    pub(crate) fn limbs_into(&self, out: &mut [[u64; MAX_LIMBS]; 3]) -> (u8, u128) {
        each_width!(&self.typed, n => {
            n.own.limbs_into(&mut out[0]);
            n.opp.limbs_into(&mut out[1]);
            n.kings.limbs_into(&mut out[2]);
            (n.color, n.state)
        })
    }

    /// The side to move (0 White, 1 Black).
    pub(crate) fn color(&self) -> u8 {
        each_width!(&self.typed, n => n.color)
    }

    /// `(own, opp, kings, color, state)` as Python ints (made once).
    pub(crate) fn ints<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        if let Some(done) = self.ints.get() {
            return Ok(done.bind(py).clone());
        }
        let made = each_width!(&self.typed, n => fast::node_tuple(py, n)?);
        let _ = self.ints.set(made.clone().unbind());
        Ok(made)
    }

    /// The legal moves as a tuple of `draughts.Move` in move order (listed once per node).
    pub(crate) fn legal<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let rules = self.rules.get();
        typed!(rules, &self.typed, g, t => {
            Ok(listed(py, rules, g, t)?.moves.bind(py).clone())
        })
    }

    /// `(moves, masks)`: the legal moves and the xor masks `(moved, captured, crowned)` each is
    /// played with.
    pub(crate) fn with_masks<'py>(
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
    pub(crate) fn index(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<isize> {
        let moves = self.legal(py)?;
        Ok(find(&moves, r#move)?.map_or(-1, |i| i as isize))
    }

    /// The node after the legal move `move` (by identity, else equality), or None if it is not
    /// one of the legal moves.
    pub(crate) fn child(
        &self,
        py: Python<'_>,
        r#move: &Bound<'_, PyAny>,
    ) -> PyResult<Option<NodeData>> {
        let rules = self.rules.get();
        typed!(rules, &self.typed, g, t => {
            let done = listed(py, rules, g, t)?;
            match find(done.moves.bind(py), r#move)? {
                Some(index) => Ok(Some(self.child_of(py, g.play(&t.node, &done.compacts[index])))),
                None => Ok(None),
            }
        })
    }

    /// The node after the legal move at `index` (`IndexError` outside the list).
    pub(crate) fn child_at(&self, py: Python<'_>, index: usize) -> PyResult<NodeData> {
        let rules = self.rules.get();
        typed!(rules, &self.typed, g, t => {
            let done = listed(py, rules, g, t)?;
            let c = done.compacts.get(index).ok_or_else(|| {
                pyo3::exceptions::PyIndexError::new_err(format!("no legal move {index}"))
            })?;
            Ok(self.child_of(py, g.play(&t.node, c)))
        })
    }

    /// The node after the move with xor masks `masks`, a `(moved, captured, crowned)` tuple
    /// (checked to fit the node, not for legality: `InvalidMoveError` otherwise).
    pub(crate) fn play_masks(
        &self,
        py: Python<'_>,
        masks: &Bound<'_, PyAny>,
    ) -> PyResult<NodeData> {
        let rules = self.rules.get();
        typed!(rules, &self.typed, g, t => {
            let next = fast::checked_play(py, g, &t.node, &fast::compact_of(masks)?)?;
            Ok(self.child_of(py, next))
        })
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
    let (moves, compacts) = match simple_listing(py, rules, g, &t.node)? {
        Some(simple) => simple,
        None => {
            let hook = || check_hook(py);
            let found =
                unwind_safe(|| g.legal(&t.node, false, Some(&hook))).map_err(|f| f.into_py(py))?;
            let moves = rules.cache.moves_of(py, &found)?;
            (moves, found.iter().map(|m| m.compact).collect())
        }
    };
    let made = Listed {
        moves: moves.unbind(),
        masks: OnceLock::new(),
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

/// Simple moves a position lists without a heap allocation (more go to the heap).
const SIMPLE_INLINE: usize = 48;

/// The legal moves of `node` when they are simple: all quiet (no capture, and no king to end the
/// game where crowning wins), or all single jumps by men that cannot go on where capturing is
/// mandatory (the generator's `single_jumps_each`, precedence applied); their `Move`s in move
/// order (start, then end square, as the generator's `legal` sorts them) and their masks; None
/// otherwise. The common cases of a game, made without the public form of each move and without
/// a list in between: the moves are generated into a buffer on the stack, each keyed by its
/// start, end, crowning and capture with its place in the buffer, the keys sorted, and each key's
/// `Move` looked up in the ruleset's table.
#[allow(clippy::type_complexity)] // the listing's two parts
fn simple_listing<'py, B: Width>(
    py: Python<'py>,
    rules: &Rules,
    g: &Generator<B>,
    node: &Node<B>,
) -> PyResult<Option<(Bound<'py, PyTuple>, Vec<Compact<B>>)>> {
    let t = &g.tables;
    let mut found: SmallVec<[Compact<B>; SIMPLE_INLINE]> = SmallVec::new();
    let mut keys: SmallVec<[u64; SIMPLE_INLINE]> = SmallVec::new();
    let simple = unwind_safe(|| {
        if t.crowning_wins && node.kings.any() {
            return Ok(false);
        }
        if g.can_capture(node) {
            // Optional captures join the quiet moves: the full listing merges them.
            let jumps = t.capture_mandatory
                && g.single_jumps_each(node, |start, end, c, promotes| {
                    let (start, end) = (t.square(start), t.square(end));
                    keys.push(order_key(start, end, promotes, true, found.len()));
                    found.push(c);
                });
            if !jumps {
                return Ok(false);
            }
        } else {
            g.quiet_each(node, |c| {
                let start = t.square((c.moved & node.own).lowest_index());
                let end = t.square((c.moved & !node.own).lowest_index());
                let promotes = c.crowned.any() && (c.moved & node.kings).is_zero();
                keys.push(order_key(start, end, promotes, false, found.len()));
                found.push(c);
            });
        }
        if found.len() > ORDER_PLACE_MASK as usize {
            return Ok(false); // more than the keys can place: the full listing sorts them
        }
        keys.sort_unstable();
        Ok(true)
    })
    .map_err(|f| f.into_py(py))?;
    if !simple {
        return Ok(None);
    }
    let place = |key: u64| (key & ORDER_PLACE_MASK) as usize;
    let squares = t.layout.bit_of_square.len().saturating_sub(1);
    let moves = rules.cache.simple_moves(
        py,
        squares,
        keys.iter().map(|&key| key >> ORDER_PLACE_BITS),
        |index| t.square(found[place(keys[index])].captured.lowest_index()),
    )?;
    let compacts = keys.iter().map(|&key| found[place(key)]).collect();
    Ok(Some((moves, compacts)))
}

/// Bits of an [`order_key`] that hold the move's place in the generator's order.
const ORDER_PLACE_BITS: u32 = 16;
const ORDER_PLACE_MASK: u64 = (1 << ORDER_PLACE_BITS) - 1;

/// A simple move's key for move order: its [`fast::simple_key`] (start, end, crowning, capture, 42
/// bits) above its `place` in the generator's order (keys sort as moves do; a start and end pair
/// is one move; a position has far fewer than 65,536 moves).
#[inline(always)]
fn order_key(start: u32, end: u32, promotes: bool, capture: bool, place: usize) -> u64 {
    (fast::simple_key(start, end, promotes, capture) << ORDER_PLACE_BITS)
        | (place as u64 & ORDER_PLACE_MASK)
}

/// Where `item` is in `moves`: by identity first (a move taken from the list: the items' addresses
/// compared, no reference taken), then by equality.
fn find(moves: &Bound<'_, PyTuple>, item: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    let target = item.as_ptr();
    for index in 0..moves.len() {
        // SAFETY: `moves` is a live tuple and `index` within it; the borrowed item is only compared.
        let listed = unsafe { ffi::PyTuple_GetItem(moves.as_ptr(), index as ffi::Py_ssize_t) };
        if listed == target {
            return Ok(Some(index));
        }
    }
    for (index, m) in moves.iter().enumerate() {
        if m.eq(item)? {
            return Ok(Some(index));
        }
    }
    Ok(None)
}

/// The node of a position under compiled rules (`draughts._native.Node`): immutable; equal when
/// the nodes are. A position makes its own on request (`Position._key`, `native_node`).
#[pyclass(frozen, module = "draughts._native", name = "Node")]
pub struct NodeObj {
    data: NodeData,
}

impl NodeObj {
    /// A node object holding `data`.
    pub(crate) fn of(data: NodeData) -> Self {
        NodeObj { data }
    }

    /// The node's data.
    pub(crate) fn data(&self) -> &NodeData {
        &self.data
    }
}

#[pymethods]
impl NodeObj {
    /// The node `(own, opp, kings, color, state)` under `rules`, checked
    /// (`InvalidPositionError` if it does not fit them; `TypeError` for a non-int).
    #[new]
    fn new(
        rules: Py<Rules>,
        own: &Bound<'_, PyAny>,
        opp: &Bound<'_, PyAny>,
        kings: &Bound<'_, PyAny>,
        color: &Bound<'_, PyAny>,
        state: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        Ok(NodeObj::of(NodeData::checked(
            rules,
            [own, opp, kings, color, state],
        )?))
    }

    /// The side to move (0 White, 1 Black).
    #[getter]
    fn color(&self) -> u8 {
        self.data.color()
    }

    /// `(own, opp, kings, color, state)` as Python ints (made once).
    fn ints<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        self.data.ints(py)
    }

    /// The legal moves as a tuple of `draughts.Move` in move order (listed once per node).
    fn legal<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        self.data.legal(py)
    }

    /// `(moves, masks)`: the legal moves and the xor masks `(moved, captured, crowned)` each is
    /// played with.
    fn with_masks<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyTuple>)> {
        self.data.with_masks(py)
    }

    /// Where `move` is in the legal moves (by identity, else by equality), or -1.
    fn index(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<isize> {
        self.data.index(py, r#move)
    }

    /// The node after the legal move `move` (by identity, else equality), or None if it is not
    /// one of the legal moves.
    fn child(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<Option<NodeObj>> {
        Ok(self.data.child(py, r#move)?.map(NodeObj::of))
    }

    /// The legal moves (what a `LegalMoves` made over the node lists).
    fn __call__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        self.data.legal(py)
    }

    /// The node after the legal move at `index` (`IndexError` outside the list).
    fn child_at(&self, py: Python<'_>, index: usize) -> PyResult<NodeObj> {
        Ok(NodeObj::of(self.data.child_at(py, index)?))
    }

    /// The node after the move with xor masks `masks`, a `(moved, captured, crowned)` tuple
    /// (checked to fit the node, not for legality: `InvalidMoveError` otherwise).
    fn play_masks(&self, py: Python<'_>, masks: &Bound<'_, PyAny>) -> PyResult<NodeObj> {
        Ok(NodeObj::of(self.data.play_masks(py, masks)?))
    }

    fn __hash__(&self) -> u64 {
        self.data.hash_value()
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let Ok(other) = other.cast::<NodeObj>() else {
            return Ok(py.NotImplemented());
        };
        let same = self.data.same(&other.get().data);
        match op {
            CompareOp::Eq => Ok(same.into_pyobject(py)?.to_owned().into_any().unbind()),
            CompareOp::Ne => Ok((!same).into_pyobject(py)?.to_owned().into_any().unbind()),
            _ => Ok(py.NotImplemented()),
        }
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("<draughts._native.Node {}>", self.data.ints(py)?))
    }
}

/// The native base of `draughts.LegalMoves`: a collection over the moves of `source`, with
/// `owner` the position or board the moves belong to. Three sources are read without a call: a
/// position (its node's moves), a node (a [`NodeObj`]) and a board's list of positions (the
/// moves of the last one); any other is called (it returns a tuple of moves).
#[pyclass(frozen, subclass, module = "draughts._native")]
pub struct MoveView {
    /// What lists the current moves.
    #[pyo3(get, name = "_source")]
    source: Py<PyAny>,
    /// The position (or a board's list of positions) the moves belong to.
    #[pyo3(get, name = "_owner")]
    owner: Py<PyAny>,
}

impl MoveView {
    /// A view over `source` (a position, a node, a board's list of positions or a callable)
    /// owned by `owner`.
    pub(crate) fn over(source: Py<PyAny>, owner: Py<PyAny>) -> Self {
        MoveView { source, owner }
    }

    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let source = self.source.bind(py);
        // A board's positions first (a board's view is read twice a ply; a position's moves are
        // called for through `Position.legal_moves`, see `crate::hot`): the moves of the last one.
        if let Ok(positions) = source.cast::<PyList>() {
            let last = positions.get_item(positions.len().saturating_sub(1))?;
            let position = last.cast::<PositionBase>()?;
            return Ok(PositionBase::data(position).legal(py)?.into_any());
        }
        if let Ok(position) = source.cast::<PositionBase>() {
            return Ok(PositionBase::data(position).legal(py)?.into_any());
        }
        if let Ok(node) = source.cast::<NodeObj>() {
            return Ok(node.get().data.legal(py)?.into_any());
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

/// A node's data from a Python value, if it is a node or a position (how the draw rules take a
/// position's node).
pub fn as_node<'a>(value: &'a Bound<'_, PyAny>) -> Option<&'a NodeData> {
    if let Ok(node) = value.cast::<NodeObj>() {
        return Some(&node.get().data);
    }
    value
        .cast::<PositionBase>()
        .ok()
        .map(|position| PositionBase::data(position))
}

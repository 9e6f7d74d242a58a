//! The per-move path of positions and boards: bitboards read straight from Python ints in the
//! width the ruleset compiled to (no limb vectors), the legal moves handed out as
//! `draughts.Move` objects made once per ruleset and kept, and the abort hook of long capture
//! searches.
//!
//! What `Position.legal_moves` and `Position.play` cost per call is what GUIs, bots and agents
//! pay per move; everything here keeps that to the generator's own work plus one Python object
//! per move that was not seen before.

use std::any::Any;
use std::cell::RefCell;
use std::sync::{Mutex, OnceLock};

use draughts_core::bitboard::{Bits, Wide};
use draughts_core::generator::{Generator, PublicMove, Squares};
use draughts_core::state::{Compact, Node};
use draughts_core::Error;
use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFrozenSet, PyInt, PyList, PyTuple, PyType};
use rustc_hash::FxHashMap;

use crate::convert::{int_of, limbs_of};
use crate::errors::{draughts_error, stash, unwind_safe};

/// A bitboard type that converts to and from Python ints directly.
pub trait PyBits: Bits {
    /// `value` as a bitboard (`TypeError` for a non-int, `InvalidPositionError` for a negative
    /// int or one too wide).
    fn from_py(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Self>;
    /// The bitboard as a Python int.
    fn to_py<'py>(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>>;
    /// The bitboard's little-endian 64-bit limbs into the front of `out` (no allocation; limbs
    /// that do not fit are left out: `out` holds as many as the widest board needs).
    fn limbs_into(self, out: &mut [u64]);
}

fn not_int(value: &Bound<'_, PyAny>, what: &str) -> PyResult<PyErr> {
    Ok(PyTypeError::new_err(format!(
        "{what} must be an int, not {}",
        value.get_type().name()?
    )))
}

fn too_wide(value: &Bound<'_, PyAny>, what: &str) -> PyErr {
    draughts_error(
        value.py(),
        "InvalidPositionError",
        format!("{what} {value} is not a bitboard of this board (negative or too wide)"),
    )
}

macro_rules! primitive_bits {
    ($t:ty) => {
        impl PyBits for $t {
            #[inline]
            fn from_py(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Self> {
                match value.extract::<$t>() {
                    Ok(bits) => Ok(bits),
                    Err(_) if !value.is_instance_of::<PyInt>() => Err(not_int(value, what)?),
                    Err(_) => Err(too_wide(value, what)),
                }
            }
            #[inline]
            fn to_py<'py>(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                Ok(self.into_pyobject(py)?.into_any())
            }
            #[inline]
            fn limbs_into(self, out: &mut [u64]) {
                let wide = u128::from(self);
                for (index, limb) in out
                    .iter_mut()
                    .take(<$t>::BITS.div_ceil(64) as usize)
                    .enumerate()
                {
                    *limb = (wide >> (64 * index)) as u64;
                }
            }
        }
    };
}

primitive_bits!(u64);
primitive_bits!(u128);

impl<const N: usize> PyBits for Wide<N> {
    fn from_py(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Self> {
        let limbs = limbs_of(value, N, what)?;
        Self::from_limbs(&limbs).ok_or_else(|| too_wide(value, what))
    }
    fn to_py<'py>(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        int_of(py, &self.to_limbs())
    }
    fn limbs_into(self, out: &mut [u64]) {
        for (limb, &value) in out.iter_mut().zip(&self.0) {
            *limb = value;
        }
    }
}

thread_local! {
    /// The abort hook of this thread's long capture searches (`draughts._core.generator.abort_when`).
    static HOOK: RefCell<Option<Py<PyAny>>> = const { RefCell::new(None) };
}

/// Sets this thread's abort hook (None: no hook) and returns the previous one.
pub fn swap_hook(hook: Option<Py<PyAny>>) -> Option<Py<PyAny>> {
    HOOK.with(|cell| cell.replace(hook))
}

/// The abort check of a search that holds the interpreter: Ctrl-C, then the thread's hook (its
/// exception is kept and re-raised at the boundary).
pub fn check_hook(py: Python<'_>) -> Result<(), Error> {
    let hook = HOOK.with(|cell| cell.borrow().as_ref().map(|h| h.clone_ref(py)));
    let outcome = py.check_signals().and_then(|()| match hook {
        Some(hook) => hook.call0(py).map(|_| ()),
        None => Ok(()),
    });
    outcome.map_err(|error| {
        let text = error.to_string();
        stash(error);
        Error::Interrupted(text)
    })
}

/// Reads a node from its five Python values.
pub fn node_of<B: PyBits>(g: &Generator<B>, values: [&Bound<'_, PyAny>; 5]) -> PyResult<Node<B>> {
    let [own, opp, kings, color, state] = values;
    let node = Node {
        own: B::from_py(own, "own")?,
        opp: B::from_py(opp, "opp")?,
        kings: B::from_py(kings, "kings")?,
        color: color
            .extract::<u8>()
            .map_err(|_| too_wide(color, "color"))?,
        state: state
            .extract::<u128>()
            .map_err(|_| too_wide(state, "state"))?,
    };
    g.check(&node)
        .map_err(|e| draughts_error(own.py(), "InvalidPositionError", e.to_string()))?;
    Ok(node)
}

/// A node as the Python tuple `(own, opp, kings, color, state)`.
pub fn node_tuple<'py, B: PyBits>(
    py: Python<'py>,
    node: &Node<B>,
) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(
        py,
        [
            node.own.to_py(py)?,
            node.opp.to_py(py)?,
            node.kings.to_py(py)?,
            node.color.into_pyobject(py)?.into_any(),
            match u64::try_from(node.state) {
                Ok(small) => small.into_pyobject(py)?.into_any(),
                Err(_) => node.state.into_pyobject(py)?.into_any(),
            },
        ],
    )
}

/// A move's xor masks as the Python tuple `(moved, captured, crowned)`.
pub fn compact_tuple<'py, B: PyBits>(
    py: Python<'py>,
    c: &Compact<B>,
) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(
        py,
        [
            c.moved.to_py(py)?,
            c.captured.to_py(py)?,
            c.crowned.to_py(py)?,
        ],
    )
}

/// A move's xor masks read from a Python tuple.
pub fn compact_of<B: PyBits>(value: &Bound<'_, PyAny>) -> PyResult<Compact<B>> {
    let (moved, captured, crowned): (Bound<'_, PyAny>, Bound<'_, PyAny>, Bound<'_, PyAny>) =
        value.extract().map_err(|_| {
            draughts_error(
                value.py(),
                "InvalidMoveError",
                format!("a move's masks are (moved, captured, crowned), not {value}"),
            )
        })?;
    Ok(Compact {
        moved: B::from_py(&moved, "moved")?,
        captured: B::from_py(&captured, "captured")?,
        crowned: B::from_py(&crowned, "crowned")?,
    })
}

/// One cached move: what tells it apart from others with the same masks, its `draughts.Move`
/// and its masks as a Python tuple.
struct Entry {
    promotes: bool,
    captured: Squares,
    path: Squares,
    mv: Py<PyAny>,
    masks: Py<PyTuple>,
}

/// The cached moves of one width, by masks, start and end (a bucket holds the capture paths
/// that share them).
type Buckets<B> = FxHashMap<(Compact<B>, u32, u32), Vec<Entry>>;

/// The `Move` objects of a listing and their masks tuples, in order.
type Objects<'py> = (Vec<Bound<'py, PyAny>>, Vec<Bound<'py, PyTuple>>);

/// The `draughts.Move` objects one ruleset has handed out, with their masks as Python tuples:
/// the same moves come back position after position, so each is made once. The map is typed by
/// the ruleset's bitboard width (made on first use).
#[derive(Default)]
pub struct MoveCache {
    typed: OnceLock<Box<dyn Any + Send + Sync>>,
    factory: OnceLock<Py<PyType>>,
    /// The simple moves by [`simple_key`]: a quiet move, or a single jump by a man, is its start,
    /// end, whether it crowns and whether it captures, whatever the width.
    simple: Mutex<SimpleMoves>,
}

/// Boards of at most this many squares keep their simple moves in a flat table (a slot per start,
/// end, crowning and capture: 66,564 slots, 520 KiB, at most); larger ones in a map.
const FLAT_SQUARES: usize = 128;

/// The cached simple moves (quiet moves, and single jumps by men): a `Move` by [`simple_key`], in
/// a flat table (a look-up is an index) or, on boards of more than [`FLAT_SQUARES`] squares, a map.
#[derive(Default)]
struct SimpleMoves {
    /// Square numbers run from 1 to `side - 1` (0 until the flat table is made, and for boards
    /// whose moves the map keeps).
    side: usize,
    flat: Vec<Option<Py<PyAny>>>,
    map: FxHashMap<u64, Py<PyAny>>,
}

impl SimpleMoves {
    /// Makes the flat table for a board of `squares` squares if it is small enough (once).
    fn prepare(&mut self, squares: usize) {
        if self.side == 0 && squares <= FLAT_SQUARES {
            self.side = squares + 1;
            self.flat.resize_with(self.side * self.side * 4, || None);
        }
    }

    /// The slot of `key` in the flat table (out of range: past its end).
    #[inline(always)]
    fn slot(&self, key: u64) -> usize {
        let (start, end, promotes, capture) = simple_parts(key);
        ((start as usize * self.side + end as usize) << 2)
            | (usize::from(promotes) << 1)
            | usize::from(capture)
    }

    #[inline(always)]
    fn get(&self, key: u64) -> Option<&Py<PyAny>> {
        if self.side == 0 {
            return self.map.get(&key);
        }
        self.flat.get(self.slot(key)).and_then(Option::as_ref)
    }

    fn put(&mut self, key: u64, made: Py<PyAny>) {
        let slot = self.slot(key);
        match self.flat.get_mut(slot) {
            Some(place) if self.side > 0 => *place = Some(made),
            _ => {
                if self.map.len() >= CACHE_LIMIT {
                    self.map.clear();
                }
                self.map.insert(key, made);
            }
        }
    }
}

/// A new tuple of `len` items, each to be set with [`set_item`] before the tuple is used.
fn new_tuple(py: Python<'_>, len: usize) -> PyResult<Bound<'_, PyTuple>> {
    let len = ffi::Py_ssize_t::try_from(len).map_err(|_| PyTypeError::new_err("too many moves"))?;
    // SAFETY: `PyTuple_New` returns a new reference (NULL with an exception set on failure, made
    // an error here); its items start NULL, which its deallocation allows.
    unsafe {
        Ok(Bound::from_owned_ptr_or_err(py, ffi::PyTuple_New(len))?
            .cast_into_unchecked::<PyTuple>())
    }
}

/// Sets item `index` of a tuple made by [`new_tuple`] (the tuple takes `value`'s reference).
fn set_item(tuple: &Bound<'_, PyTuple>, index: usize, value: Py<PyAny>) -> PyResult<()> {
    let index =
        ffi::Py_ssize_t::try_from(index).map_err(|_| PyTypeError::new_err("too many moves"))?;
    // SAFETY: `tuple` is a live tuple that nothing else has seen yet (made by `new_tuple`), so
    // setting its item is allowed; `PyTuple_SetItem` steals the reference `into_ptr` hands over
    // (also on failure, which it reports with -1 and an exception set).
    if unsafe { ffi::PyTuple_SetItem(tuple.as_ptr(), index, value.into_ptr()) } < 0 {
        return Err(PyErr::fetch(tuple.py()));
    }
    Ok(())
}

/// The key of a simple move (a quiet move, or a single jump by a man): its start and end squares,
/// whether it crowns and whether it captures, packed in 42 bits so that keys sort as moves do (by
/// start, then end; a start and end pair is one move of each kind, and one listing never mixes
/// quiet moves and captures). A single jump's captured square is the one between its two.
#[inline(always)]
pub fn simple_key(start: u32, end: u32, promotes: bool, capture: bool) -> u64 {
    (u64::from(start & SIMPLE_SQUARE) << 22)
        | (u64::from(end & SIMPLE_SQUARE) << 2)
        | (u64::from(promotes) << 1)
        | u64::from(capture)
}

/// The square numbers a [`simple_key`] holds (every board has fewer squares).
const SIMPLE_SQUARE: u32 = (1 << 20) - 1;

/// A [`simple_key`]'s start, end, crowning and capture.
#[inline(always)]
fn simple_parts(key: u64) -> (u32, u32, bool, bool) {
    (
        (key >> 22) as u32 & SIMPLE_SQUARE,
        (key >> 2) as u32 & SIMPLE_SQUARE,
        key & 2 == 2,
        key & 1 == 1,
    )
}

/// Masks-and-squares keys a cache keeps before it starts again (a long game meets a few thousand).
const CACHE_LIMIT: usize = 1 << 16;

impl MoveCache {
    fn buckets<B: Bits>(&self) -> PyResult<&Mutex<Buckets<B>>> {
        self.typed
            .get_or_init(|| Box::new(Mutex::new(Buckets::<B>::default())))
            .downcast_ref::<Mutex<Buckets<B>>>()
            .ok_or_else(|| PyTypeError::new_err("a move cache used with two bitboard widths"))
    }

    /// `draughts.Move`, looked up once.
    fn move_class<'py>(&self, py: Python<'py>) -> PyResult<&Bound<'py, PyType>> {
        if self.factory.get().is_none() {
            let made = py
                .import("draughts.move")?
                .getattr("Move")?
                .cast_into::<PyType>()?
                .unbind();
            let _ = self.factory.set(made);
        }
        match self.factory.get() {
            Some(factory) => Ok(factory.bind(py)),
            None => Err(PyTypeError::new_err("draughts.move.Move is missing")),
        }
    }

    /// A new `draughts.Move`: what `draughts.move.trusted_move` makes (its slots set directly,
    /// past attrs' frozen `__setattr__`, `_key` and `_hash` as `Move` computes them), made here
    /// without its two Python frames and seven setter calls (a Russian game meets a few thousand
    /// moves for the first time: made in Python, about 9,000 instructions each).
    fn new_move<'py>(
        &self,
        py: Python<'py>,
        start: u32,
        end: u32,
        captured: Bound<'py, PyTuple>,
        path: Bound<'py, PyTuple>,
        promotes: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let cls = self.move_class(py)?;
        // SAFETY: `PyType_GenericAlloc` is what `object.__new__(Move)` calls: it returns a new
        // instance with every slot unset, or NULL with an exception set.
        let made = unsafe {
            Bound::from_owned_ptr_or_err(py, ffi::PyType_GenericAlloc(cls.as_type_ptr(), 0))?
        };
        let start = start.into_pyobject(py)?.into_any();
        let end = end.into_pyobject(py)?.into_any();
        let set = PyFrozenSet::new(py, captured.iter())?.into_any();
        let key = PyTuple::new(py, [&start, &end, &set])?;
        let hash = key.hash()?.into_pyobject(py)?.into_any();
        let promotes = PyBool::new(py, promotes).to_owned().into_any();
        let slots = [
            (intern!(py, "start"), start),
            (intern!(py, "end"), end),
            (intern!(py, "captured"), captured.into_any()),
            (intern!(py, "path"), path.into_any()),
            (intern!(py, "promotes"), promotes),
            (intern!(py, "_key"), key.into_any()),
            (intern!(py, "_hash"), hash),
        ];
        for (name, value) in &slots {
            // SAFETY: live objects; `PyObject_GenericSetAttr` is `object.__setattr__` (the slot's
            // descriptor sets it), -1 with an exception set on failure.
            if unsafe { ffi::PyObject_GenericSetAttr(made.as_ptr(), name.as_ptr(), value.as_ptr()) }
                < 0
            {
                return Err(PyErr::fetch(py));
            }
        }
        Ok(made)
    }

    /// A new cache entry for `m` (its `Move` made by [`MoveCache::new_move`]).
    fn make<B: PyBits>(&self, py: Python<'_>, m: &PublicMove<B>) -> PyResult<Entry> {
        let mv = self.new_move(
            py,
            m.start,
            m.end,
            PyTuple::new(py, m.captured.iter())?,
            PyTuple::new(py, m.path.iter())?,
            m.promotes,
        )?;
        untrack_move(&mv);
        Ok(Entry {
            promotes: m.promotes,
            captured: m.captured.clone(),
            path: m.path.clone(),
            mv: mv.unbind(),
            masks: compact_tuple(py, &m.compact)?.unbind(),
        })
    }

    /// The `Move`s of the simple moves `keys` ([`simple_key`]s, in order) of a board of
    /// `squares` squares, as a tuple: looked up in one lock, made on first sight (a capture's
    /// captured square is `captured(index)`). As [`MoveCache::objects`], the lock is never held
    /// while Python runs. The tuple is filled in place (no list in between: this runs once per
    /// position of a game).
    pub(crate) fn simple_moves<'py>(
        &self,
        py: Python<'py>,
        squares: usize,
        keys: impl ExactSizeIterator<Item = u64> + Clone,
        captured: impl Fn(usize) -> u32,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let moves = new_tuple(py, keys.len())?;
        let mut missing = false;
        {
            let mut table = self
                .simple
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            table.prepare(squares);
            for (index, key) in keys.clone().enumerate() {
                match table.get(key) {
                    Some(mv) => set_item(&moves, index, mv.clone_ref(py))?,
                    None => missing = true,
                }
            }
        }
        if missing {
            for (index, key) in keys.enumerate() {
                self.simple_missing(py, &moves, index, key, || captured(index))?;
            }
        }
        Ok(moves)
    }

    /// Fills item `index` of `moves` if the look-up left it empty: the `Move` of `key` (a
    /// capture's captured square from `captured`), made (by [`MoveCache::new_move`]) and
    /// kept.
    fn simple_missing(
        &self,
        py: Python<'_>,
        moves: &Bound<'_, PyTuple>,
        index: usize,
        key: u64,
        captured: impl Fn() -> u32,
    ) -> PyResult<()> {
        if !unset(moves, index) {
            return Ok(());
        }
        let (start, end, promotes, capture) = simple_parts(key);
        let path = PyTuple::new(py, [start, end])?;
        let taken = if capture {
            PyTuple::new(py, [captured()])?
        } else {
            PyTuple::empty(py)
        };
        let made = self.new_move(py, start, end, taken, path, promotes)?;
        untrack_move(&made);
        self.simple
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .put(key, made.clone().unbind());
        set_item(moves, index, made.unbind())
    }

    /// The `Move` and the masks tuple of each of `found`, in order. The lock is never held
    /// while Python runs (making a move may let another thread take the interpreter).
    pub(crate) fn objects<'py, B: PyBits>(
        &self,
        py: Python<'py>,
        found: &[PublicMove<B>],
    ) -> PyResult<Objects<'py>> {
        let buckets = self.buckets::<B>()?;
        let mut hits: Vec<Option<(Py<PyAny>, Py<PyTuple>)>> = {
            let map = buckets
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            found
                .iter()
                .map(|m| entry_of(&map, m).map(|e| (e.mv.clone_ref(py), e.masks.clone_ref(py))))
                .collect()
        };
        let mut moves = Vec::with_capacity(found.len());
        let mut masks = Vec::with_capacity(found.len());
        for (m, hit) in found.iter().zip(hits.iter_mut()) {
            let (mv, mk) = match hit.take() {
                Some(pair) => pair,
                None => self.keep(py, buckets, m)?,
            };
            moves.push(mv.into_bound(py));
            masks.push(mk.into_bound(py));
        }
        Ok((moves, masks))
    }

    /// The `Move` of each of `found`, in order, as a tuple filled in place (a position's
    /// listing: no list in between, no masks tuples). As [`MoveCache::objects`], the lock is
    /// never held while Python runs.
    pub(crate) fn moves_of<'py, B: PyBits>(
        &self,
        py: Python<'py>,
        found: &[PublicMove<B>],
    ) -> PyResult<Bound<'py, PyTuple>> {
        let buckets = self.buckets::<B>()?;
        let moves = new_tuple(py, found.len())?;
        let mut missing = false;
        {
            let map = buckets
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            for (index, m) in found.iter().enumerate() {
                match entry_of(&map, m) {
                    Some(e) => set_item(&moves, index, e.mv.clone_ref(py))?,
                    None => missing = true,
                }
            }
        }
        if missing {
            for (index, m) in found.iter().enumerate() {
                if unset(&moves, index) {
                    let (mv, _) = self.keep(py, buckets, m)?;
                    set_item(&moves, index, mv)?;
                }
            }
        }
        Ok(moves)
    }

    /// `m`'s `Move` and masks tuple, made and kept (the lock taken after the Python call).
    fn keep<B: PyBits>(
        &self,
        py: Python<'_>,
        buckets: &Mutex<Buckets<B>>,
        m: &PublicMove<B>,
    ) -> PyResult<(Py<PyAny>, Py<PyTuple>)> {
        let entry = self.make(py, m)?;
        let pair = (entry.mv.clone_ref(py), entry.masks.clone_ref(py));
        let mut map = buckets
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if map.len() >= CACHE_LIMIT {
            map.clear();
        }
        map.entry((m.compact, m.start, m.end))
            .or_default()
            .push(entry);
        Ok(pair)
    }
}

/// Takes a `Move` the cache has just made, and the tuples and frozenset it holds, out of the
/// cyclic garbage collector's lists (what CPython does by itself for a tuple of ints,
/// `_PyTuple_MaybeUntrack`, but never for an instance of a class): a `Move` holds ints, tuples of
/// ints, a frozenset of ints and a bool, so it can be part of no reference cycle, and the cache
/// keeps it for good. Tracked, the few thousand moves a ruleset's games meet were traversed by
/// every collection until they reached the oldest generation (about 250 instructions a ply of
/// 400 random games).
fn untrack_move(made: &Bound<'_, PyAny>) {
    let py = made.py();
    untrack(made);
    for name in [intern!(py, "captured"), intern!(py, "path")] {
        if let Ok(part) = made.getattr(name) {
            untrack(&part);
        }
    }
    if let Ok(key) = made.getattr(intern!(py, "_key")) {
        untrack(&key);
        if let Ok(set) = key.get_item(2) {
            untrack(&set); // the frozenset of the captured squares
        }
    }
}

/// Takes `object` out of the collector's lists if its type is collected (see [`untrack_move`]).
fn untrack(object: &Bound<'_, PyAny>) {
    // SAFETY: `object` is a live object; only an object of a collected type is passed on, and
    // `PyObject_GC_UnTrack` leaves an untracked one as it is.
    unsafe {
        if ffi::PyType_IS_GC(ffi::Py_TYPE(object.as_ptr())) != 0 {
            ffi::PyObject_GC_UnTrack(object.as_ptr().cast());
        }
    }
}

/// The cached entry of `m` in `map`, if there is one.
fn entry_of<'a, B: Bits>(map: &'a Buckets<B>, m: &PublicMove<B>) -> Option<&'a Entry> {
    map.get(&(m.compact, m.start, m.end))?
        .iter()
        .find(|e| e.promotes == m.promotes && e.captured == m.captured && e.path == m.path)
}

/// Whether item `index` of a tuple made by [`new_tuple`] is still unset.
fn unset(tuple: &Bound<'_, PyTuple>, index: usize) -> bool {
    // SAFETY: `tuple` is alive and `index` within it (the callers' loops); an item left NULL is
    // read as such, without a reference taken (`PyTuple_GetItem` returns borrowed items and sets
    // no error for a NULL one).
    unsafe { ffi::PyTuple_GetItem(tuple.as_ptr(), index as ffi::Py_ssize_t) }.is_null()
}

/// The legal moves of `node` in move order as `(tuple of Move, tuple of (moved, captured,
/// crowned))`: with `paths` one per capture path, else one per move.
pub fn legal_moves<'py, B: PyBits>(
    py: Python<'py>,
    g: &Generator<B>,
    cache: &MoveCache,
    node: &Node<B>,
    paths: bool,
) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyTuple>)> {
    let hook = || check_hook(py);
    let found = unwind_safe(|| g.legal(node, paths, Some(&hook))).map_err(|f| f.into_py(py))?;
    let (moves, masks) = cache.objects(py, &found)?;
    Ok((PyTuple::new(py, moves)?, PyTuple::new(py, masks)?))
}

/// The node after the move with masks `c`, checked to fit the node (`InvalidMoveError`).
pub fn play<'py, B: PyBits>(
    py: Python<'py>,
    g: &Generator<B>,
    node: &Node<B>,
    c: &Compact<B>,
) -> PyResult<Bound<'py, PyTuple>> {
    node_tuple(py, &checked_play(py, g, node, c)?)
}

/// The node after the move with masks `c`, checked to fit `node` (not for legality):
/// `InvalidMoveError` otherwise.
pub fn checked_play<B: PyBits>(
    py: Python<'_>,
    g: &Generator<B>,
    node: &Node<B>,
    c: &Compact<B>,
) -> PyResult<Node<B>> {
    let from = c.moved & node.own;
    if (c.captured & !node.opp).any() || from.count() > 1 || (from.is_zero() && c.moved.any()) {
        return Err(draughts_error(
            py,
            "InvalidMoveError",
            "the masks do not fit the position".into(),
        ));
    }
    let next = g.play(node, c);
    g.check(&next)
        .map_err(|e| draughts_error(py, "InvalidMoveError", e.to_string()))?;
    Ok(next)
}

/// The legal moves of `node` as xor masks (captures first).
pub fn moves<'py, B: PyBits>(
    py: Python<'py>,
    g: &Generator<B>,
    node: &Node<B>,
    paths: bool,
) -> PyResult<Bound<'py, PyList>> {
    let hook = || check_hook(py);
    let found = unwind_safe(|| g.moves(node, paths, Some(&hook))).map_err(|f| f.into_py(py))?;
    let out = PyList::empty(py);
    for c in &found {
        out.append(compact_tuple(py, c)?)?;
    }
    Ok(out)
}

/// The legal captures of `node` as xor masks.
pub fn captures<'py, B: PyBits>(
    py: Python<'py>,
    g: &Generator<B>,
    node: &Node<B>,
) -> PyResult<Bound<'py, PyList>> {
    let hook = || check_hook(py);
    let found = unwind_safe(|| g.captures(node, Some(&hook))).map_err(|f| f.into_py(py))?;
    let out = PyList::empty(py);
    for c in &found {
        out.append(compact_tuple(py, c)?)?;
    }
    Ok(out)
}

/// Where `item` is in `items`, by identity (the object itself, no `__eq__`), or -1.
pub fn identity_index(items: &Bound<'_, PyTuple>, item: &Bound<'_, PyAny>) -> isize {
    items
        .iter()
        .position(|candidate| candidate.is(item))
        .map_or(-1, |index| index as isize)
}

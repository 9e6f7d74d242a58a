//! # draughts-native
//!
//! The Python binding of [`draughts_core`]: the extension module `draughts._native` of
//! polydraughts. `Rules` is a ruleset compiled once (from the dictionary that
//! `draughts._core.native.native_rules` makes of a `Ruleset`) with the core's node API on Python
//! ints: a node is `(own, opp, kings, color, state)`, bitboards in the Python generator's bit
//! layout, a move's xor masks `(moved, captured, crowned)`.
//!
//! Errors: every failure is a `draughts.errors.DraughtsError` subclass (`InvalidRulesetError`,
//! `InvalidPositionError`, `InvalidMoveError`, `CaptureSearchLimitError`), a panic of the core
//! included (caught at the boundary); an argument of the wrong Python type is a `TypeError`; a
//! Python exception raised inside a call (Ctrl-C's `KeyboardInterrupt`, a user-defined
//! precedence criterion's own error) comes out as it was raised.

mod board;
mod convert;
mod drawrules;
mod endgame;
mod errors;
mod fast;
mod hot;
mod node;
mod position;
mod search;
mod selfplay;
mod vecenv;

use draughts_core::engine::{AnyCompact, AnyMove, AnyNode};
use draughts_core::{Engine, Error};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::convert::{int_of, limbs_of, rules_spec};
use crate::errors::{draughts_error, unwind_safe};
use crate::fast::MoveCache;

/// Runs `$body` with `$g` bound to the typed generator of `$engine` (one arm per width).
macro_rules! typed {
    ($engine:expr, $g:ident => $body:expr) => {
        match $engine {
            Engine::U64($g) => $body,
            Engine::U128($g) => $body,
            Engine::W4($g) => $body,
            Engine::W8($g) => $body,
            Engine::W11($g) => $body,
        }
    };
}

/// A node as Python returns it.
type PyNode<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    u8,
    u128,
);

/// The non-negative int `value` as a `T` (an int out of `T`'s range: `InvalidPositionError`,
/// anything but an int: `TypeError`), so that no `OverflowError` comes out of the binding.
fn uint<T: TryFrom<u128>>(value: &Bound<'_, PyAny>, what: &str) -> PyResult<T> {
    if !value.is_instance_of::<pyo3::types::PyInt>() {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "{what} must be an int, not {}",
            value.get_type().name()?
        )));
    }
    value
        .extract::<u128>()
        .ok()
        .and_then(|wide| T::try_from(wide).ok())
        .ok_or_else(|| {
            draughts_error(
                value.py(),
                "InvalidPositionError",
                format!("{what} {value} is out of range"),
            )
        })
}

/// A node's five Python values `own, opp, kings, color, state`.
type NodeArgs<'py> = [Bound<'py, PyAny>; 5];

/// The node at the front of a method's positional `args` (between `min` and `max` of them; a
/// missing fifth, the rule state, is 0) and the arguments after it (`TypeError` for another
/// count): every node method reads its node here, once.
fn node_args<'py>(
    args: &Bound<'py, PyTuple>,
    min: usize,
    max: usize,
) -> PyResult<(NodeArgs<'py>, Vec<Bound<'py, PyAny>>)> {
    let count = args.len();
    if count < min || count > max {
        let wanted = if min == max {
            format!("{min}")
        } else {
            format!("{min} to {max}")
        };
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "takes {wanted} positional arguments (own, opp, kings, color, state, ...), not {count}"
        )));
    }
    let py = args.py();
    let item = |i: usize| -> PyResult<Bound<'py, PyAny>> {
        if i < count {
            args.get_item(i)
        } else {
            Ok(0u8.into_pyobject(py)?.into_any())
        }
    };
    let node = [item(0)?, item(1)?, item(2)?, item(3)?, item(4)?];
    let rest = (5..count)
        .map(|i| args.get_item(i))
        .collect::<PyResult<_>>()?;
    Ok((node, rest))
}

/// The node's values as `fast::node_of` takes them.
fn node_refs<'a, 'py>(node: &'a NodeArgs<'py>) -> [&'a Bound<'py, PyAny>; 5] {
    let [own, opp, kings, color, state] = node;
    [own, opp, kings, color, state]
}

/// The flag `rest[index]` when given positionally, else `default`.
fn flag(rest: &[Bound<'_, PyAny>], index: usize, default: bool) -> PyResult<bool> {
    rest.get(index)
        .map_or(Ok(default), |value| value.is_truthy())
}

/// The abort hook of long calls made without the GIL: it takes the GIL back, runs Python's
/// signal handlers (Ctrl-C raises `KeyboardInterrupt`, kept and re-raised at the boundary) and
/// the thread's abort hook ([`fast::check_hook`]).
fn check_signals() -> Result<(), Error> {
    Python::attach(fast::check_hook)
}

/// A ruleset compiled into the native move generator (in the bitboard width its board needs).
///
/// Built once per ruleset by `draughts._core.native.native_rules` (cached there); every method
/// takes a node as `own, opp, kings, color, state` and checks it (overlapping sides, pieces off
/// the board, a bad rule state: `InvalidPositionError`).
#[pyclass(frozen, module = "draughts._native")]
pub(crate) struct Rules {
    pub(crate) engine: Engine,
    limbs: usize,
    pub(crate) cache: MoveCache,
}

impl Rules {
    fn bits(&self, value: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<u64>> {
        limbs_of(value, self.limbs, what)
    }

    fn node(&self, node: &NodeArgs<'_>) -> PyResult<AnyNode> {
        let [own, opp, kings, color, state] = node;
        let color: u128 = uint(color, "color")?;
        Ok(AnyNode {
            own: self.bits(own, "own")?,
            opp: self.bits(opp, "opp")?,
            kings: self.bits(kings, "kings")?,
            color: u8::try_from(color).unwrap_or(u8::MAX),
            state: uint(state, "state")?,
        })
    }

    fn py_node<'py>(&self, py: Python<'py>, node: &AnyNode) -> PyResult<PyNode<'py>> {
        Ok((
            int_of(py, &node.own)?,
            int_of(py, &node.opp)?,
            int_of(py, &node.kings)?,
            node.color,
            node.state,
        ))
    }

    fn compact<'py>(&self, py: Python<'py>, c: &AnyCompact) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(
            py,
            [
                int_of(py, &c.moved)?,
                int_of(py, &c.captured)?,
                int_of(py, &c.crowned)?,
            ],
        )
    }

    fn public<'py>(&self, py: Python<'py>, m: &AnyMove) -> PyResult<Bound<'py, PyTuple>> {
        (
            m.start,
            m.end,
            PyTuple::new(py, &m.captured)?,
            PyTuple::new(py, &m.path)?,
            m.promotes,
            self.compact(py, &m.compact)?,
        )
            .into_pyobject(py)
    }

    /// Runs `work` on the engine with the GIL released and Ctrl-C checked, errors mapped.
    fn run<T: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce(&Engine, Option<&dyn Fn() -> Result<(), Error>>) -> Result<T, Error> + Send,
    ) -> PyResult<T> {
        let engine = &self.engine;
        py.detach(|| unwind_safe(|| work(engine, Some(&check_signals))))
            .map_err(|fault| fault.into_py(py))
    }

    /// Runs a short `work` with the GIL held (no interruption), errors mapped.
    fn now<T>(
        &self,
        py: Python<'_>,
        work: impl FnOnce(&Engine) -> Result<T, Error>,
    ) -> PyResult<T> {
        unwind_safe(|| work(&self.engine)).map_err(|fault| fault.into_py(py))
    }
}

#[pymethods]
impl Rules {
    /// Compiles `spec` (the dictionary of `draughts._core.native.native_spec`); `best`, when
    /// given, is the precedence: a callable from a list of `(pieces, kings, with_king, order)`
    /// tuples to one flag per capture, true for the best.
    ///
    /// Raises `InvalidRulesetError` for a spec the core refuses.
    #[new]
    #[pyo3(signature = (spec, best = None))]
    fn new(py: Python<'_>, spec: &Bound<'_, PyDict>, best: Option<Py<PyAny>>) -> PyResult<Self> {
        let spec = rules_spec(spec, best)?;
        let engine = py
            .detach(|| unwind_safe(|| Engine::new(&spec)))
            .map_err(|fault| fault.into_py(py))?;
        let limbs = (engine.width() as usize).div_ceil(64);
        Ok(Rules {
            engine,
            limbs,
            cache: MoveCache::default(),
        })
    }

    /// The bitboard width in bits (64, 128, 256, 512 or 704).
    #[getter]
    fn width(&self) -> u32 {
        self.engine.width()
    }

    /// The bits of all playable squares.
    #[getter]
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        int_of(py, &self.engine.board())
    }

    /// The crowning rows `(White's, Black's)` as bitboards.
    #[getter]
    fn crown_rows<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let [white, black] = self.engine.crown_rows();
        Ok((int_of(py, &white)?, int_of(py, &black)?))
    }

    /// The bit index of every square number (index 0 is unused and holds -1).
    #[getter]
    fn bit_of_square(&self) -> Vec<i64> {
        let layout = self.engine.layout();
        let mut out = vec![-1];
        out.extend(
            layout
                .bit_of_square
                .iter()
                .skip(1)
                .map(|&bit| i64::from(bit)),
        );
        out
    }

    /// The square number of every bit index (0 for a ghost bit).
    #[getter]
    fn square_of_bit(&self) -> Vec<u32> {
        self.engine.layout().square_of_bit.clone()
    }

    /// The king-move limit (0: none).
    #[getter]
    fn king_move_limit(&self) -> u64 {
        self.engine.king_move_limit()
    }

    /// The start position: `(own, opp, kings, color, state)` with the first side to move.
    fn start<'py>(&self, py: Python<'py>) -> PyResult<PyNode<'py>> {
        self.py_node(py, &self.engine.start())
    }

    /// Checks a node (`InvalidPositionError` if it does not fit the rules).
    #[pyo3(signature = (*args))]
    fn check(&self, py: Python<'_>, args: &Bound<'_, PyTuple>) -> PyResult<()> {
        let (node, _) = node_args(args, 5, 5)?;
        let node = self.node(&node)?;
        self.now(py, |e| e.check(&node))
    }

    /// `moves(own, opp, kings, color, state, paths=False)`: the legal moves as xor masks
    /// `(moved, captured, crowned)`, captures first; with `paths` one per capture path, else one
    /// per (start, end, captured set).
    #[pyo3(signature = (*args, paths = false))]
    fn moves<'py>(
        &self,
        py: Python<'py>,
        args: &Bound<'py, PyTuple>,
        paths: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let (node, rest) = node_args(args, 5, 6)?;
        let paths = flag(&rest, 0, paths)?;
        typed!(&self.engine, g => fast::moves(py, g, &fast::node_of(g, node_refs(&node))?, paths))
    }

    /// `paths(own, opp, kings, color, state)`: [`Rules::moves`] with every capture path (the
    /// perft "keep" convention).
    #[pyo3(signature = (*args))]
    fn paths<'py>(
        &self,
        py: Python<'py>,
        args: &Bound<'py, PyTuple>,
    ) -> PyResult<Bound<'py, PyList>> {
        self.moves(py, args, true)
    }

    /// `legal_moves(own, opp, kings, color, state, paths=False)`: the legal moves in move order
    /// as `(tuple of draughts.Move, tuple of (moved, captured, crowned))`, with `paths` one per
    /// capture path, else one per move (its first path in square order). Each `Move` is made once
    /// per ruleset and handed out again after.
    #[pyo3(signature = (*args, paths = false))]
    fn legal_moves<'py>(
        &self,
        py: Python<'py>,
        args: &Bound<'py, PyTuple>,
        paths: bool,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyTuple>)> {
        let (node, rest) = node_args(args, 5, 6)?;
        let paths = flag(&rest, 0, paths)?;
        typed!(&self.engine, g => {
            let node = fast::node_of(g, node_refs(&node))?;
            fast::legal_moves(py, g, &self.cache, &node, paths)
        })
    }

    /// `play_move(own, opp, kings, color, state, masks)`: the node after the move whose xor masks
    /// are the tuple `masks` (checked to fit the node, not for legality: `InvalidMoveError`
    /// otherwise).
    #[pyo3(signature = (*args))]
    fn play_move<'py>(
        &self,
        py: Python<'py>,
        args: &Bound<'py, PyTuple>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let (node, rest) = node_args(args, 6, 6)?;
        typed!(&self.engine, g => {
            let node = fast::node_of(g, node_refs(&node))?;
            fast::play(py, g, &node, &fast::compact_of(&rest[0])?)
        })
    }

    /// `legal(own, opp, kings, color, state, paths=False)`: the legal moves in public form and
    /// move order: `(start, end, captured, path, promotes, (moved, captured_mask, crowned))`,
    /// captured squares in capture order, path squares from start to end.
    #[pyo3(signature = (*args, paths = false))]
    fn legal<'py>(
        &self,
        py: Python<'py>,
        args: &Bound<'py, PyTuple>,
        paths: bool,
    ) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        let (node, rest) = node_args(args, 5, 6)?;
        let paths = flag(&rest, 0, paths)?;
        let node = self.node(&node)?;
        let list = self.run(py, |e, abort| e.legal(&node, paths, abort))?;
        list.iter().map(|m| self.public(py, m)).collect()
    }

    /// `play(own, opp, kings, color, state, moved, captured, crowned)`: the node after the move
    /// with those xor masks (checked to fit the node, not for legality: `InvalidMoveError`
    /// otherwise).
    #[pyo3(signature = (*args))]
    fn play<'py>(&self, py: Python<'py>, args: &Bound<'py, PyTuple>) -> PyResult<PyNode<'py>> {
        let (node, rest) = node_args(args, 8, 8)?;
        let node = self.node(&node)?;
        let mv = AnyCompact {
            moved: self.bits(&rest[0], "moved")?,
            captured: self.bits(&rest[1], "captured")?,
            crowned: self.bits(&rest[2], "crowned")?,
        };
        let next = self.now(py, |e| e.play(&node, &mv))?;
        self.py_node(py, &next)
    }

    /// `count1(own, opp, kings, color, state, paths=False)`: the number of legal moves (in the
    /// convention `paths` says).
    #[pyo3(signature = (*args, paths = false))]
    fn count1(&self, py: Python<'_>, args: &Bound<'_, PyTuple>, paths: bool) -> PyResult<u64> {
        let (node, rest) = node_args(args, 5, 6)?;
        let paths = flag(&rest, 0, paths)?;
        let node = self.node(&node)?;
        self.run(py, |e, abort| e.count1(&node, paths, abort))
    }

    /// `count2(own, opp, kings, color, state, paths=False)`: the number of two-move sequences.
    #[pyo3(signature = (*args, paths = false))]
    fn count2(&self, py: Python<'_>, args: &Bound<'_, PyTuple>, paths: bool) -> PyResult<u64> {
        let (node, rest) = node_args(args, 5, 6)?;
        let paths = flag(&rest, 0, paths)?;
        let node = self.node(&node)?;
        self.run(py, |e, abort| e.count2(&node, paths, abort))
    }

    /// perft: the leaves `depth` plies below `node` (`node` is `(own, opp, kings, color,
    /// state)`); `paths` counts every capture path. Runs without the GIL; Ctrl-C interrupts it
    /// (`KeyboardInterrupt`).
    #[pyo3(signature = (node, depth, paths = false))]
    fn perft(
        &self,
        py: Python<'_>,
        node: &Bound<'_, PyTuple>,
        depth: &Bound<'_, PyAny>,
        paths: bool,
    ) -> PyResult<u64> {
        let (node, _) = node_args(node, 5, 5)?;
        let node = self.node(&node)?;
        let depth: u32 = uint(depth, "depth")?;
        self.run(py, |e, abort| e.perft(&node, depth, paths, abort))
    }

    /// `captures(own, opp, kings, color, state=0)`: the legal captures as xor masks, whether
    /// capturing is mandatory or not.
    #[pyo3(signature = (*args))]
    fn captures<'py>(
        &self,
        py: Python<'py>,
        args: &Bound<'py, PyTuple>,
    ) -> PyResult<Bound<'py, PyList>> {
        let node = node_args(args, 4, 5)?.0;
        typed!(&self.engine, g => fast::captures(py, g, &fast::node_of(g, node_refs(&node))?))
    }

    /// `can_capture(own, opp, kings, color, state=0)`: whether the side to move has a capture.
    #[pyo3(signature = (*args))]
    fn can_capture(&self, args: &Bound<'_, PyTuple>) -> PyResult<bool> {
        let node = node_args(args, 4, 5)?.0;
        typed!(&self.engine, g => Ok(g.can_capture(&fast::node_of(g, node_refs(&node))?)))
    }

    /// The rule state without the counts that cannot matter in the position `white, black,
    /// kings` (what position identity compares).
    fn canonical(
        &self,
        py: Python<'_>,
        white: &Bound<'_, PyAny>,
        black: &Bound<'_, PyAny>,
        kings: &Bound<'_, PyAny>,
        state: &Bound<'_, PyAny>,
    ) -> PyResult<u128> {
        let state: u128 = uint(state, "state")?;
        let (w, b, k) = (
            self.bits(white, "white")?,
            self.bits(black, "black")?,
            self.bits(kings, "kings")?,
        );
        self.now(py, |e| e.canonical(&w, &b, &k, state))
    }

    /// `(square, count)` of `color`'s king whose quiet moves are counted in `state`, or None.
    fn king_moves(
        &self,
        state: &Bound<'_, PyAny>,
        color: &Bound<'_, PyAny>,
    ) -> PyResult<Option<(u32, u64)>> {
        let (state, color): (u128, u8) = (uint(state, "state")?, uint(color, "color")?);
        Ok(self.engine.king_moves(state, color))
    }

    /// `color`'s rule-state field for `count` quiet moves in a row by the king on `square`
    /// (`InvalidPositionError` if the rules keep no count or the values are out of range).
    fn state_value(
        &self,
        py: Python<'_>,
        color: &Bound<'_, PyAny>,
        square: &Bound<'_, PyAny>,
        count: &Bound<'_, PyAny>,
    ) -> PyResult<u128> {
        let color: u8 = uint(color, "color")?;
        let square: u32 = uint(square, "square")?;
        let count: u64 = uint(count, "count")?;
        self.now(py, |e| e.state_value(color, square, count))
    }

    fn __repr__(&self) -> String {
        format!("<draughts._native.Rules width={}>", self.engine.width())
    }
}

/// Which native build runs: `{"version", "target", "profile", "width"}` (profile "release" or
/// "debug", from the build's debug assertions and optimisation).
#[pyfunction]
fn build_info(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let info = PyDict::new(py);
    info.set_item("version", env!("CARGO_PKG_VERSION"))?;
    info.set_item(
        "target",
        format!("{}-{}", std::env::consts::ARCH, std::env::consts::OS),
    )?;
    info.set_item(
        "profile",
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        },
    )?;
    info.set_item("width", usize::BITS)?;
    Ok(info)
}

/// Sets this thread's abort hook of long capture searches (a callable that raises to abandon
/// the search, or None) and returns the previous one (`draughts._core.generator.abort_when`).
#[pyfunction]
#[pyo3(signature = (hook = None))]
fn swap_abort_hook(hook: Option<Py<PyAny>>) -> Option<Py<PyAny>> {
    fast::swap_hook(hook)
}

/// Where `item` is in the tuple `items` by identity (the object itself, no `__eq__` call), or -1:
/// how a position finds the move it is asked to play among its legal moves.
#[pyfunction]
fn identity_index(items: &Bound<'_, PyTuple>, item: &Bound<'_, PyAny>) -> isize {
    fast::identity_index(items, item)
}

/// Panics inside the boundary's guard, as a bug in the core would: raises the `DraughtsError` a
/// panic becomes (what `tests/core/test_native.py` checks; no panic is known to happen).
#[pyfunction]
fn _panic_probe(py: Python<'_>) -> PyResult<()> {
    py.detach(|| unwind_safe::<()>(|| panic!("probe")))
        .map_err(|fault| fault.into_py(py))
}

/// The extension module `draughts._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Rules>()?;
    search::register(m)?;
    selfplay::register(m)?;
    drawrules::register(m)?;
    endgame::register(m)?;
    vecenv::register(m)?;
    node::register(m)?;
    position::register(m)?;
    board::register(m)?;
    hot::register(m)?;
    m.add_function(wrap_pyfunction!(build_info, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_probe, m)?)?;
    m.add_function(wrap_pyfunction!(swap_abort_hook, m)?)?;
    m.add_function(wrap_pyfunction!(identity_index, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

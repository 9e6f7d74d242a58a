//! The native base of `draughts.Position` ([`PositionBase`], `draughts._native.PositionBase`):
//! it holds a position's ruleset, its generator and its node with the node's legal moves once
//! listed (a [`NodeData`], in the position's own object: one object a position), and makes the
//! per-move path native methods, so that a ply of `position.legal_moves()` and
//! `position.play(move)` runs no Python frame: the `LegalMoves` view and the position after a
//! move are created natively as instances of the Python classes (`draughts.LegalMoves`,
//! `type(self)`), with no `__init__`.

use std::sync::OnceLock;

use pyo3::exceptions::PyTypeError;
use pyo3::impl_::pymethods::tp_new_impl;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::pyclass_init::PyClassInitializer;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};
use pyo3::PyClass;

use crate::node::{MoveView, NodeData, NodeObj};

/// Registers [`PositionBase`] in the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PositionBase>()
}

/// What a `draughts.Position` holds: its ruleset, its ruleset's move generator (a
/// `draughts._core.MoveGenerator`) and its node, set once at creation (immutable).
#[pyclass(frozen, subclass, module = "draughts._native")]
pub struct PositionBase {
    /// The `draughts.Ruleset`.
    #[pyo3(get)]
    ruleset: Py<PyAny>,
    /// The ruleset's `MoveGenerator` (see `Position._gen`).
    #[pyo3(get, name = "_gen")]
    gen: Py<PyAny>,
    /// The node and, once listed, its legal moves.
    data: NodeData,
    /// The node as an object of its own (`Position._key`), made on first request.
    key: OnceLock<Py<NodeObj>>,
}

/// `draughts.LegalMoves`, looked up once.
static LEGAL_MOVES: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// A new object of class `cls` (the base class or a Python subclass of it) holding `value`, made
/// without calling the class (no `__new__` or `__init__` of the subclass runs: a `Position`'s
/// `__init__` refuses, and its `__slots__` are empty).
fn instance<'py, T: PyClass>(
    py: Python<'py>,
    cls: &Bound<'py, PyType>,
    value: PyClassInitializer<T>,
) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: `cls` is `T`'s type object or a subclass of it (the callers pass `type(self)` of a
    // `T`, or `LegalMoves`, a subclass of `MoveView` checked below). `tp_new_impl` is pyo3's own
    // `#[new]` path (public, documented hidden, pinned to pyo3 0.30 by Cargo.toml): it allocates
    // through `cls`'s `tp_alloc` and moves `value` in; it returns a new reference or an error.
    unsafe {
        let made = tp_new_impl(py, value, cls.as_type_ptr())?;
        Bound::from_owned_ptr_or_err(py, made)
    }
}

impl PositionBase {
    /// The position of the class of `slf` after the node `data` (same ruleset and generator).
    pub(crate) fn derive<'py>(
        slf: &Bound<'py, Self>,
        data: NodeData,
    ) -> PyResult<Bound<'py, PyAny>> {
        Self::derive_as(slf, &slf.get_type(), data)
    }

    /// [`PositionBase::derive`] as an instance of `cls` (a subclass of this class).
    fn derive_as<'py>(
        slf: &Bound<'py, Self>,
        cls: &Bound<'py, PyType>,
        data: NodeData,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let me = slf.get();
        let value = PositionBase {
            ruleset: me.ruleset.clone_ref(py),
            gen: me.gen.clone_ref(py),
            data,
            key: OnceLock::new(),
        };
        instance(py, cls, PyClassInitializer::from(value))
    }

    /// The position's node and its listing.
    pub(crate) fn data<'a>(slf: &'a Bound<'_, Self>) -> &'a NodeData {
        &slf.get().data
    }
}

#[pymethods]
impl PositionBase {
    /// Refuses: positions are made by ``draughts.Position``'s constructors (``from_fen`` and the
    /// others), which end in :meth:`_assemble`.
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn new(_args: &Bound<'_, PyTuple>, _kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        Err(PyTypeError::new_err(
            "Position() is not public: use Position.initial(...), .from_fen(...) or .from_pieces(...)",
        ))
    }

    /// A position of class `cls` (this class or a subclass) from its parts, unchecked
    /// (``draughts.Position.from_bitboards`` checks or builds them).
    #[classmethod]
    fn _assemble<'py>(
        cls: &Bound<'py, PyType>,
        ruleset: Py<PyAny>,
        key: Py<NodeObj>,
        gen: Py<PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if !cls.is_subclass_of::<PositionBase>()? {
            return Err(PyTypeError::new_err(
                "_assemble needs a subclass of PositionBase",
            ));
        }
        let py = cls.py();
        let data = key.get().data().unlisted(py);
        let value = PositionBase {
            ruleset,
            gen,
            data,
            key: OnceLock::from(key),
        };
        instance(py, cls, PyClassInitializer::from(value))
    }

    /// The legal moves, after mandatory capture, precedence and de-duplication.
    ///
    /// A :class:`~draughts.LegalMoves` collection (``len``, ``in``, ``count()``, indexing), ordered
    /// by start square, end square and path; ``position.legal_moves()`` gives them as a tuple.
    /// Computed once per position.
    #[getter]
    pub(crate) fn legal_moves<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let cls = LEGAL_MOVES
            .get_or_try_init(py, || -> PyResult<Py<PyType>> {
                let cls = py.import("draughts.legal")?.getattr("LegalMoves")?;
                let cls = cls.cast_into::<PyType>()?;
                if !cls.is_subclass_of::<MoveView>()? {
                    return Err(PyTypeError::new_err(
                        "draughts.LegalMoves is not a MoveView",
                    ));
                }
                Ok(cls.unbind())
            })?
            .bind(py);
        let me = slf.clone().into_any().unbind();
        let view = MoveView::over(me.clone_ref(py), me);
        instance(py, cls, PyClassInitializer::from(view))
    }

    /// The position after ``move``; :class:`~draughts.IllegalMoveError` if it is not legal here
    /// (:class:`~draughts.InvalidMoveError` if it is not a :class:`~draughts.Move`).
    pub(crate) fn play<'py>(
        slf: &Bound<'py, Self>,
        r#move: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        match slf.get().data.child(py, r#move)? {
            Some(node) => Self::derive(slf, node),
            None => {
                slf.call_method1(intern!(py, "_refuse"), (r#move,))?;
                Err(PyTypeError::new_err("Position._refuse did not raise"))
            }
        }
    }

    /// Low-level: ``(after, listed, masks, node)`` for a legal ``move`` (found by identity, else
    /// equality): the position after it, the legal move it equals, the xor masks it is played
    /// with and the next node as the native core holds it; None if ``move`` is not legal here (a
    /// board's push in one call).
    #[allow(clippy::type_complexity)] // the tuple Python unpacks
    fn play_listed<'py>(
        slf: &Bound<'py, Self>,
        r#move: &Bound<'py, PyAny>,
    ) -> PyResult<
        Option<(
            Bound<'py, PyAny>,
            Bound<'py, PyAny>,
            Bound<'py, PyAny>,
            Py<NodeObj>,
        )>,
    > {
        let py = slf.py();
        let data = &slf.get().data;
        let Some(step) = data.step(py, r#move)? else {
            return Ok(None);
        };
        let masks = data.masks_at(py, step.index)?;
        let after = Self::derive(slf, step.node)?;
        let node = Self::key(after.cast::<PositionBase>()?)?;
        Ok(Some((after, step.listed, masks, node)))
    }

    /// Low-level: the position after the legal move at ``index`` of :meth:`moves_with_masks`.
    fn child_at<'py>(slf: &Bound<'py, Self>, index: usize) -> PyResult<Bound<'py, PyAny>> {
        let data = slf.get().data.child_at(slf.py(), index)?;
        Self::derive(slf, data)
    }

    /// The node held natively (``draughts._native.Node``), made on first request: what
    /// ``Position.native_node`` gives.
    #[getter(_key)]
    fn key(slf: &Bound<'_, Self>) -> PyResult<Py<NodeObj>> {
        let py = slf.py();
        let me = slf.get();
        if let Some(made) = me.key.get() {
            return Ok(made.clone_ref(py));
        }
        let made = Py::new(py, NodeObj::of(me.data.unlisted(py)))?;
        Ok(me.key.get_or_init(|| made).clone_ref(py))
    }

    /// ``(own, opp, kings, color, state)`` as Python ints (``Position.node``; made once).
    fn _ints<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        slf.get().data.ints(slf.py())
    }

    /// The side to move, 0 White, 1 Black (``Position.turn``).
    #[getter]
    fn _color(&self) -> u8 {
        self.data.color()
    }

    /// The legal moves as a tuple (listed once).
    fn _legal<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        slf.get().data.legal(slf.py())
    }

    /// ``(moves, masks)``: the legal moves and the xor masks each is played with
    /// (``Position.moves_with_masks``).
    fn _with_masks<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyTuple>)> {
        slf.get().data.with_masks(slf.py())
    }

    /// Where ``move`` is in the legal moves (by identity, else equality), or -1.
    fn _index(slf: &Bound<'_, Self>, r#move: &Bound<'_, PyAny>) -> PyResult<isize> {
        slf.get().data.index(slf.py(), r#move)
    }

    /// The position of class ``cls`` after the move with xor masks ``masks`` (checked to fit
    /// the position, not for legality: ``InvalidMoveError`` otherwise).
    fn _after_masks<'py>(
        slf: &Bound<'py, Self>,
        cls: &Bound<'py, PyType>,
        masks: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if !cls.is_subclass_of::<PositionBase>()? {
            return Err(PyTypeError::new_err(
                "_after_masks needs a subclass of PositionBase",
            ));
        }
        let data = slf.get().data.play_masks(slf.py(), masks)?;
        Self::derive_as(slf, cls, data)
    }

    /// Whether ``other`` (a position) has the same node: pieces, side to move and rule state.
    fn _same_node(&self, other: &Bound<'_, Self>) -> bool {
        self.data.same(&other.get().data)
    }

    /// The node's hash (equal nodes hash alike; the same as the hash of ``_key``).
    fn _node_hash(&self) -> u64 {
        self.data.hash_value()
    }
}

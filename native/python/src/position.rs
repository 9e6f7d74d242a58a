//! The native base of `draughts.Position` ([`PositionBase`], `draughts._native.PositionBase`):
//! it holds a position's ruleset, its node and its generator, and makes the per-move path
//! native methods, so that a ply of `position.legal_moves()` and `position.play(move)` runs no
//! Python frame: the `LegalMoves` view and the position after a move are created natively as
//! instances of the Python classes (`draughts.LegalMoves`, `type(self)`), with no `__init__`.

use pyo3::exceptions::PyTypeError;
use pyo3::impl_::pymethods::tp_new_impl;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::pyclass_init::PyClassInitializer;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};
use pyo3::PyClass;

use crate::node::{MoveView, NodeObj};

/// Registers [`PositionBase`] in the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PositionBase>()
}

/// What a `draughts.Position` holds: its ruleset, its node (a [`NodeObj`]) and its ruleset's
/// move generator (a `draughts._core.MoveGenerator`), set once at creation (immutable).
#[pyclass(frozen, subclass, module = "draughts._native")]
pub struct PositionBase {
    /// The `draughts.Ruleset`.
    #[pyo3(get)]
    ruleset: Py<PyAny>,
    /// The node held natively (see `Position._key`).
    #[pyo3(get, name = "_key")]
    key: Py<NodeObj>,
    /// The ruleset's `MoveGenerator` (see `Position._gen`).
    #[pyo3(get, name = "_gen")]
    gen: Py<PyAny>,
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
    /// The position of the class of `slf` after the node `key` (same ruleset and generator).
    pub(crate) fn derive<'py>(
        slf: &Bound<'py, Self>,
        key: Py<NodeObj>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let me = slf.get();
        let value = PositionBase {
            ruleset: me.ruleset.clone_ref(py),
            key,
            gen: me.gen.clone_ref(py),
        };
        instance(py, &slf.get_type(), PyClassInitializer::from(value))
    }

    /// The node (for the board's view of a list of positions).
    pub fn node<'a, 'py>(slf: &'a Bound<'py, Self>) -> &'a Py<NodeObj> {
        &slf.get().key
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
        let value = PositionBase { ruleset, key, gen };
        instance(cls.py(), cls, PyClassInitializer::from(value))
    }

    /// The legal moves, after mandatory capture, precedence and de-duplication.
    ///
    /// A :class:`~draughts.LegalMoves` collection (``len``, ``in``, ``count()``, indexing), ordered
    /// by start square, end square and path; ``position.legal_moves()`` gives them as a tuple.
    /// Computed once per position.
    #[getter]
    fn legal_moves<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
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
        let view = MoveView::over(
            slf.get().key.clone_ref(py).into_any(),
            slf.clone().into_any().unbind(),
        );
        instance(py, cls, PyClassInitializer::from(view))
    }

    /// The position after ``move``; :class:`~draughts.IllegalMoveError` if it is not legal here
    /// (:class:`~draughts.InvalidMoveError` if it is not a :class:`~draughts.Move`).
    fn play<'py>(
        slf: &Bound<'py, Self>,
        r#move: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        match slf.get().key.get().child(py, r#move)? {
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
        let node = slf.get().key.get();
        let Some(step) = node.step(py, r#move)? else {
            return Ok(None);
        };
        let after = Self::derive(slf, step.node.clone_ref(py))?;
        let masks = node.masks_at(py, step.index)?;
        Ok(Some((after, step.listed, masks, step.node)))
    }

    /// Low-level: the position after the legal move at ``index`` of :meth:`moves_with_masks`.
    fn child_at<'py>(slf: &Bound<'py, Self>, index: usize) -> PyResult<Bound<'py, PyAny>> {
        let node = slf.get().key.get().child_at(slf.py(), index)?;
        Self::derive(slf, node)
    }
}

//! The native base of `draughts.Board` ([`BoardBase`], `draughts._native.BoardBase`): it holds
//! the game's list of positions, its list of moves, its draw counter and its live view of the
//! legal moves, so that a ply of `list(board.legal_moves)` and `board.push(move)` runs no Python
//! frame: `push` finds the move in the current position's list, makes the next position
//! natively, records the move with the draw counter and appends to both lists.

use draughts_core::drawrules::events;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::drawrules::DrawCounter;
use crate::position::PositionBase;

/// Registers [`BoardBase`] in the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<BoardBase>()
}

/// What a `draughts.Board` keeps natively (its other state lives in the instance's dict).
#[pyclass(subclass, module = "draughts._native")]
pub struct BoardBase {
    /// Every position of the game, root first (see `Board._positions`).
    #[pyo3(get, set, name = "_positions")]
    positions: Py<PyList>,
    /// The moves played from the root (see `Board._moves`).
    #[pyo3(get, set, name = "_moves")]
    moves: Py<PyList>,
    /// The draw counts (a `draughts._native.DrawCounter`).
    #[pyo3(get, set, name = "_draws")]
    draws: Py<PyAny>,
    /// Whether a draw rule's count is reset by a man's move (then `push` tells them apart).
    #[pyo3(get, set, name = "_counts_men")]
    counts_men: bool,
    /// The board's live `LegalMoves`.
    #[pyo3(get, set, name = "_view")]
    view: Py<PyAny>,
}

#[pymethods]
impl BoardBase {
    /// An empty board (its `__init__`, or `_reset`, fills it in); the arguments are `__init__`'s.
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn new(
        py: Python<'_>,
        _args: &Bound<'_, PyTuple>,
        _kwargs: Option<&Bound<'_, PyDict>>,
    ) -> Self {
        BoardBase {
            positions: PyList::empty(py).unbind(),
            moves: PyList::empty(py).unbind(),
            draws: py.None(),
            counts_men: false,
            view: py.None(),
        }
    }

    /// The legal moves of the current position: live (it follows later pushes and pops), sized,
    /// with ``in`` and ``count()``; calling it, ``board.legal_moves()``, gives a tuple snapshot.
    /// Being live, it is one collection per board.
    #[getter]
    fn legal_moves(&self, py: Python<'_>) -> Py<PyAny> {
        self.view.clone_ref(py)
    }

    /// Play ``move``. An illegal or stale move raises and leaves the board as it was.
    ///
    /// Raises:
    ///     IllegalMoveError: the move is not legal in the current position (the message names the
    ///         legal moves with the same start and end, if there are any).
    ///     InvalidMoveError: ``move`` is not a :class:`~draughts.Move`.
    fn push(slf: &Bound<'_, Self>, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let py = slf.py();
        let (positions, moves, draws, counts_men) = {
            let me = slf.borrow();
            let parts = (&me.positions, &me.moves, &me.draws);
            (
                parts.0.clone_ref(py),
                parts.1.clone_ref(py),
                parts.2.clone_ref(py),
                me.counts_men,
            )
        };
        let positions = positions.bind(py);
        let before = positions.get_item(positions.len().wrapping_sub(1))?;
        let position = before.cast::<PositionBase>()?;
        let Some(step) = PositionBase::data(position).step(py, r#move)? else {
            let error = slf.call_method1(intern!(py, "_illegal"), (&before, r#move))?;
            return Err(PyErr::from_value(error));
        };
        // What the move did, as the bits that restart the draw counts (see draughts.drawrules).
        let mut event = 0;
        if step.captured {
            event |= events::CAPTURE;
        }
        if step.promotes {
            event |= events::CROWNING;
        }
        if counts_men {
            let king = match step.king_moved {
                Some(king) => king,
                None => {
                    let start = step.listed.getattr(intern!(py, "start"))?;
                    before
                        .call_method1(intern!(py, "is_king_at"), (start,))?
                        .is_truthy()?
                }
            };
            if !king {
                event |= events::MAN_MOVED;
            }
        }
        let after = PositionBase::derive(position, step.node)?;
        let after_data = PositionBase::data(after.cast::<PositionBase>()?);
        match draws.bind(py).cast::<DrawCounter>() {
            Ok(counter) => counter.try_borrow_mut()?.push_node(py, after_data, event)?,
            Err(_) => {
                draws.call_method1(py, intern!(py, "push"), (&after, event))?;
            }
        }
        positions.append(after)?;
        moves.bind(py).append(step.listed)?;
        Ok(())
    }
}

//! The native base of `draughts.Board` ([`BoardBase`], `draughts._native.BoardBase`): it holds
//! the game's list of positions, its list of moves, its draw counter and its live view of the
//! legal moves, so that a ply of `list(board.legal_moves)` and `board.push(move)` runs no Python
//! frame: `push` finds the move in the current position's list, makes the next position
//! natively, records the move with the draw counter and appends to both lists.

use std::sync::Mutex;

use draughts_core::drawrules::events;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::drawrules::DrawCounter;
use crate::position::PositionBase;

/// Registers [`BoardBase`] in the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<BoardBase>()
}

/// What a `draughts.Board` keeps natively (its other state lives in the instance's dict). Frozen:
/// the lists and the view are made once with the board (its `_reset` changes the lists in place),
/// so that `legal_moves` is a plain slot read (a member descriptor, which CPython reads without a
/// call), and the draw counter, replaced by `_reset`, sits behind a lock of its own.
#[pyclass(frozen, subclass, module = "draughts._native")]
pub struct BoardBase {
    /// Every position of the game, root first (see `Board._positions`).
    #[pyo3(get, name = "_positions")]
    positions: Py<PyList>,
    /// The moves played from the root (see `Board._moves`).
    #[pyo3(get, name = "_moves")]
    moves: Py<PyList>,
    /// The legal moves of the current position: live (it follows later pushes and pops), sized,
    /// with ``in`` and ``count()``; calling it, ``board.legal_moves()``, gives a tuple snapshot.
    /// Being live, it is one collection per board.
    #[pyo3(get)]
    legal_moves: Py<PyAny>,
    /// The draw counts and whether a man's move restarts one (set by `_set_draws`).
    draws: Mutex<Draws>,
}

/// A board's draw counter (a `draughts._native.DrawCounter`) and whether a draw rule's count is
/// reset by a man's move (then `push` tells them apart).
struct Draws {
    counter: Py<PyAny>,
    counts_men: bool,
}

/// `draughts.board._board_moves`, looked up once: it makes a board's live view.
static BOARD_MOVES: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

impl BoardBase {
    /// The draw counter and its flag (the lock held only to copy them).
    fn draws<'py>(&self, py: Python<'py>) -> (Bound<'py, PyAny>, bool) {
        let draws = self
            .draws
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        (draws.counter.bind(py).clone(), draws.counts_men)
    }
}

#[pymethods]
impl BoardBase {
    /// An empty board with its view (its `__init__`, or `_reset`, fills it in); the arguments are
    /// `__init__`'s.
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn new(
        py: Python<'_>,
        _args: &Bound<'_, PyTuple>,
        _kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let positions = PyList::empty(py);
        let make = BOARD_MOVES.get_or_try_init(py, || -> PyResult<Py<PyAny>> {
            Ok(py
                .import("draughts.board")?
                .getattr("_board_moves")?
                .unbind())
        })?;
        let view = make.bind(py).call1((&positions,))?;
        Ok(BoardBase {
            positions: positions.unbind(),
            moves: PyList::empty(py).unbind(),
            legal_moves: view.unbind(),
            draws: Mutex::new(Draws {
                counter: py.None(),
                counts_men: false,
            }),
        })
    }

    /// The draw counts (a `draughts._native.DrawCounter`; see `Board._draws`).
    #[getter(_draws)]
    fn draw_counter<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        self.draws(py).0
    }

    /// Whether a draw rule's count is reset by a man's move.
    #[getter(_counts_men)]
    fn counts_men(&self, py: Python<'_>) -> bool {
        self.draws(py).1
    }

    /// Sets the draw counter and whether a man's move restarts a count (`Board._reset`).
    fn _set_draws(&self, counter: Py<PyAny>, counts_men: bool) {
        let old = {
            let mut draws = self
                .draws
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            std::mem::replace(
                &mut *draws,
                Draws {
                    counter,
                    counts_men,
                },
            )
        };
        drop(old); // after the lock: dropping the old counter may run Python code
    }

    /// Play ``move``. An illegal or stale move raises and leaves the board as it was.
    ///
    /// Raises:
    ///     IllegalMoveError: the move is not legal in the current position (the message names the
    ///         legal moves with the same start and end, if there are any).
    ///     InvalidMoveError: ``move`` is not a :class:`~draughts.Move`.
    pub(crate) fn push(slf: &Bound<'_, Self>, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let py = slf.py();
        // The lists are the board's for its life; the counter is taken as a `Bound` of its own:
        // `crate::hot` calls this outside PyO3's wrappers, where a `Py` dropped would be left to
        // PyO3's deferred pool.
        let me = slf.get();
        let (positions, moves) = (me.positions.bind(py), me.moves.bind(py));
        let (draws, counts_men) = me.draws(py);
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
        match draws.cast::<DrawCounter>() {
            Ok(counter) => counter.try_borrow_mut()?.push_node(py, after_data, event)?,
            Err(_) => {
                draws.call_method1(intern!(py, "push"), (&after, event))?;
            }
        }
        positions.append(after)?;
        moves.append(step.listed)?;
        Ok(())
    }
}

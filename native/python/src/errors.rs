//! The boundary's errors: the core's [`Error`]s as the library's exception classes
//! (`draughts.errors`), Python exceptions raised inside native calls (Ctrl-C, a user-defined
//! precedence criterion) re-raised as they were, and panics caught before they reach Python.

use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};

use draughts_core::capture::MAX_STATES;
use draughts_core::Error;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyType;

thread_local! {
    /// A Python exception raised by a callback during the current native call on this thread
    /// (the core is single-threaded: callbacks run on the calling thread).
    static PENDING: RefCell<Option<PyErr>> = const { RefCell::new(None) };
}

/// Keeps `error` to be raised when the current native call returns (the core only carries text).
pub fn stash(error: PyErr) {
    PENDING.with(|pending| *pending.borrow_mut() = Some(error));
}

fn take_pending() -> Option<PyErr> {
    PENDING.with(|pending| pending.borrow_mut().take())
}

/// An instance of `draughts.errors.<class>` with `message` (a `TypeError` if the module cannot
/// be imported, which only happens when the package is broken).
pub fn draughts_error(py: Python<'_>, class: &str, message: String) -> PyErr {
    let found = py
        .import("draughts.errors")
        .and_then(|module| module.getattr(class))
        .and_then(|cls| cls.cast_into::<PyType>().map_err(PyErr::from));
    match found {
        Ok(cls) => PyErr::from_type(cls, message),
        Err(_) => PyTypeError::new_err(format!("draughts.errors.{class} is missing: {message}")),
    }
}

/// The Python exception for a core error: a stashed Python exception first (Ctrl-C's
/// `KeyboardInterrupt`, a criterion's own error), else the matching `DraughtsError` subclass.
pub fn to_py(py: Python<'_>, error: Error) -> PyErr {
    if let Some(pending) = take_pending() {
        if matches!(error, Error::Interrupted(_) | Error::Precedence(_)) {
            return pending;
        }
    }
    match error {
        Error::InvalidSpec(text) => draughts_error(py, "InvalidRulesetError", text),
        Error::InvalidNode(text) => draughts_error(py, "InvalidPositionError", text),
        Error::InvalidMove(text) => draughts_error(py, "InvalidMoveError", text),
        Error::CaptureSearchLimit { square, .. } => draughts_error(
            py,
            "CaptureSearchLimitError",
            format!(
                "the capture search of the piece on square {square} expanded more than {} states: \
                 the ruleset allows captures too many to enumerate in this position",
                thousands(MAX_STATES)
            ),
        ),
        Error::Interrupted(text) => {
            draughts_error(py, "DraughtsError", format!("interrupted: {text}"))
        }
        Error::Precedence(text) => draughts_error(
            py,
            "DraughtsError",
            format!("precedence rule failed: {text}"),
        ),
        Error::IllegalAction { index, action } => draughts_error(
            py,
            "IllegalMoveError",
            format!("action {action} is not legal in game {index}"),
        ),
    }
}

/// `n` with thousands separators, as Python's `f"{n:,}"` (the messages match the Python generator's).
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The text of a caught panic's payload.
pub(crate) fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic with no message".to_string()
    }
}

/// Runs `work` (the GIL held or not), turning a panic into `Err` text instead of unwinding.
pub fn unwind_safe<T>(work: impl FnOnce() -> Result<T, Error>) -> Result<T, Fault> {
    match catch_unwind(AssertUnwindSafe(work)) {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(error)) => Err(Fault::Core(error)),
        Err(payload) => Err(Fault::Panic(panic_text(payload.as_ref()))),
    }
}

/// What went wrong in a native call: an error the core returned, or a panic it should not have.
pub enum Fault {
    /// An error the core returned.
    Core(Error),
    /// A caught panic's message.
    Panic(String),
}

impl Fault {
    /// The Python exception: a panic becomes a `DraughtsError` naming it as a bug.
    pub fn into_py(self, py: Python<'_>) -> PyErr {
        match self {
            Fault::Core(error) => to_py(py, error),
            Fault::Panic(text) => {
                take_pending();
                draughts_error(
                    py,
                    "DraughtsError",
                    format!("internal error in the native core (please report it): {text}"),
                )
            }
        }
    }
}

//! The per-move path's three hottest calls as hand-written CPython functions (issue 37's per-move
//! goals): `position.legal_moves()`, `position.play(move)` and `board.push(move)`. A ply of a
//! random game costs a few thousand instructions in all, and what PyO3's generated wrappers add
//! to each call is a measurable part of it: its trampoline, its argument parsing, and above all
//! where its methods live: on the native base, so that CPython's specialised calls (3.11+), which
//! want the instance's type to be the method's own class exactly, never apply to `Position` or
//! `Board` and every call takes the generic path.
//!
//! * [`legal_moves_attribute`] makes `Position.legal_moves`: read as an attribute it gives the
//!   position's `LegalMoves` view (what the getter it replaces gave); called as a method,
//!   `position.legal_moves()`, it gives the moves tuple without making the view. Its type is
//!   flagged `Py_TPFLAGS_METHOD_DESCRIPTOR`, so CPython calls it with the position as first
//!   argument instead of binding it first; the flag's contract holds:
//!   `attribute.__get__(position)()` (the view called) and `attribute(position)` give the same
//!   tuple.
//! * [`fast_method`] makes `Position.play` and `Board.push` method descriptors of the Python class
//!   itself, each over a fast-call C function here.
//!
//! Every C function runs its body through [`run`]: a panic is caught and raised as a
//! `DraughtsError`, an error is set as the Python exception. The interpreter is attached (Python
//! called the function), but PyO3 does not count it as such outside its own wrappers: the bodies
//! hold `Bound` references (dropped with a plain decref), never drop a `Py` on the way (one
//! dropped here would wait in PyO3's deferred pool until its next call).

use std::cell::UnsafeCell;
use std::ffi::{c_int, c_uint, c_ulong, c_void};
use std::mem::{offset_of, size_of};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;

use pyo3::exceptions::{PyAttributeError, PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyString, PyType};

use crate::board::BoardBase;
use crate::errors::{panic_text, Fault};
use crate::position::PositionBase;

/// Registers [`legal_moves_attribute`] and [`fast_method`] in the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(legal_moves_attribute, m)?)?;
    m.add_function(wrap_pyfunction!(fast_method, m)?)
}

/// `Py_TPFLAGS_HAVE_VECTORCALL`: the same bit since Python 3.8, but part of the limited API only
/// from 3.12 (so `pyo3::ffi` leaves it out of an abi3-py310 build).
const HAVE_VECTORCALL: c_ulong = 1 << 11;

/// `PY_VECTORCALL_ARGUMENTS_OFFSET`, the flag bit of a vectorcall's argument count (as above).
const ARGUMENTS_OFFSET: usize = 1 << (usize::BITS - 1);

/// Runs `body`, the work of a C function Python called: its result, or NULL with the Python
/// exception set (a panic's as a `DraughtsError` naming it as a bug).
///
/// # Safety
/// Only from a C function called by the interpreter (so the thread is attached).
unsafe fn run(body: impl FnOnce(Python<'_>) -> PyResult<*mut ffi::PyObject>) -> *mut ffi::PyObject {
    // SAFETY: the caller is a C function the interpreter called: the thread is attached.
    let py = unsafe { Python::assume_attached() };
    let error = match catch_unwind(AssertUnwindSafe(|| body(py))) {
        Ok(Ok(made)) => return made,
        Ok(Err(error)) => error,
        Err(payload) => Fault::Panic(panic_text(payload.as_ref())).into_py(py),
    };
    error.restore(py);
    ptr::null_mut()
}

/// An object pointer the interpreter passed in, borrowed for the call (no reference taken: the
/// caller holds one until the call returns).
///
/// # Safety
/// `object` is a live object (an argument of the current call).
unsafe fn bound<'a, 'py>(py: Python<'py>, object: *mut ffi::PyObject) -> Borrowed<'a, 'py, PyAny> {
    // SAFETY: the caller's argument is alive for the call.
    unsafe { Borrowed::from_ptr(py, object) }
}

/// The position `object` (a `TypeError` naming what it is otherwise).
fn position<'a, 'py>(
    object: &'a Bound<'py, PyAny>,
    what: &str,
) -> PyResult<&'a Bound<'py, PositionBase>> {
    object.cast::<PositionBase>().map_err(|_| {
        let name = object
            .get_type()
            .name()
            .map_or_else(|_| "?".to_string(), |n| n.to_string());
        PyTypeError::new_err(format!("{what} needs a Position, not a '{name}' object"))
    })
}

// --- Position.legal_moves ---

/// The object `Position.legal_moves` is (a descriptor of its own type, made by
/// [`legal_moves_attribute`]): its vectorcall function and its docstring.
#[repr(C)]
struct Attribute {
    ob_base: ffi::PyObject,
    vectorcall: Option<ffi::vectorcallfunc>,
    doc: *mut ffi::PyObject,
}

/// The type of [`Attribute`], made once.
static ATTRIBUTE_TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// The type of `Position.legal_moves`: a data descriptor (read-only, so that documentation tools
/// take it for an attribute, as the getter it replaces), callable as a method (vectorcall).
fn attribute_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    let made = ATTRIBUTE_TYPE.get_or_try_init(py, || -> PyResult<Py<PyType>> {
        let readonly = ffi::Py_READONLY;
        let members = Box::leak(Box::new([
            ffi::PyMemberDef {
                name: c"__vectorcalloffset__".as_ptr(),
                type_code: ffi::Py_T_PYSSIZET,
                offset: offset_of!(Attribute, vectorcall) as ffi::Py_ssize_t,
                flags: readonly,
                doc: ptr::null(),
            },
            ffi::PyMemberDef {
                name: c"__doc__".as_ptr(),
                type_code: ffi::Py_T_OBJECT_EX,
                offset: offset_of!(Attribute, doc) as ffi::Py_ssize_t,
                flags: readonly,
                doc: ptr::null(),
            },
            ffi::PyMemberDef::default(),
        ]));
        let slot = |slot: c_int, pfunc: *mut c_void| ffi::PyType_Slot { slot, pfunc };
        let slots = Box::leak(Box::new([
            slot(
                ffi::Py_tp_dealloc,
                attribute_dealloc as ffi::destructor as *mut c_void,
            ),
            slot(
                ffi::Py_tp_descr_get,
                attribute_get as ffi::descrgetfunc as *mut c_void,
            ),
            slot(
                ffi::Py_tp_descr_set,
                attribute_set as ffi::descrsetfunc as *mut c_void,
            ),
            slot(
                ffi::Py_tp_call,
                attribute_call as ffi::ternaryfunc as *mut c_void,
            ),
            slot(ffi::Py_tp_members, members.as_mut_ptr().cast()),
            slot(0, ptr::null_mut()),
        ]));
        let flags = ffi::Py_TPFLAGS_DEFAULT
            | ffi::Py_TPFLAGS_IMMUTABLETYPE
            | ffi::Py_TPFLAGS_DISALLOW_INSTANTIATION
            | ffi::Py_TPFLAGS_METHOD_DESCRIPTOR
            | HAVE_VECTORCALL;
        let spec = Box::leak(Box::new(ffi::PyType_Spec {
            name: c"draughts._native.LegalMovesAttribute".as_ptr(),
            basicsize: size_of::<Attribute>() as c_int,
            itemsize: 0,
            flags: flags as c_uint,
            slots: slots.as_mut_ptr(),
        }));
        // SAFETY: `spec` and what it points to live for the rest of the process (leaked, once);
        // `PyType_FromSpec` returns a new reference or NULL with an exception set.
        let made = unsafe { Bound::from_owned_ptr_or_err(py, ffi::PyType_FromSpec(spec))? };
        Ok(made.cast_into::<PyType>()?.unbind())
    })?;
    Ok(made.bind(py))
}

/// `Position.legal_moves`: read, the position's `LegalMoves`; called, its moves as a tuple. `doc`
/// is its docstring.
#[pyfunction]
fn legal_moves_attribute<'py>(doc: Bound<'py, PyString>) -> PyResult<Bound<'py, PyAny>> {
    let py = doc.py();
    let cls = attribute_type(py)?;
    // SAFETY: `PyType_GenericAlloc` returns a new, zeroed instance of `cls` (whose layout is
    // `Attribute`) or NULL with an exception set; its fields are set before anything reads them.
    unsafe {
        let made =
            Bound::from_owned_ptr_or_err(py, ffi::PyType_GenericAlloc(cls.as_type_ptr(), 0))?;
        let attribute = made.as_ptr().cast::<Attribute>();
        (*attribute).vectorcall = Some(attribute_vectorcall);
        (*attribute).doc = doc.into_ptr();
        Ok(made)
    }
}

/// The legal moves tuple of the position `object`.
///
/// # Safety
/// `object` is a live object (an argument of the current call).
unsafe fn moves_tuple(py: Python<'_>, object: *mut ffi::PyObject) -> PyResult<*mut ffi::PyObject> {
    // SAFETY: as the caller promises.
    let object = unsafe { bound(py, object) };
    let position = position(&object, "legal_moves")?;
    Ok(PositionBase::data(position).legal(py)?.into_ptr())
}

/// The error of a call of `position.legal_moves` with arguments.
fn takes_no_arguments(given: isize) -> PyErr {
    PyTypeError::new_err(format!("legal_moves() takes no arguments ({given} given)"))
}

/// `attribute(position)`: the position's moves (vectorcall).
unsafe extern "C" fn attribute_vectorcall(
    _attribute: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargsf: usize,
    kwnames: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: called by the interpreter with `nargs` arguments at `args`, then the keywords' values.
    unsafe {
        run(|py| {
            let nargs = (nargsf & !ARGUMENTS_OFFSET) as isize;
            let keywords = if kwnames.is_null() {
                0
            } else {
                ffi::PyTuple_Size(kwnames)
            };
            call_attribute(py, nargs, keywords, || *args)
        })
    }
}

/// A call of the attribute with `nargs` positional arguments and `keywords` keywords: the moves
/// tuple of the one position `first` gives, else the error Python gives a wrong call.
///
/// # Safety
/// `first` must give a valid object pointer when there is one positional argument.
unsafe fn call_attribute(
    py: Python<'_>,
    nargs: isize,
    keywords: isize,
    first: impl FnOnce() -> *mut ffi::PyObject,
) -> PyResult<*mut ffi::PyObject> {
    match (nargs, keywords) {
        // SAFETY: one positional argument: `first` gives it (the caller's guarantee).
        (1, 0) => unsafe { moves_tuple(py, first()) },
        (0, _) => Err(PyTypeError::new_err("legal_moves needs a Position")),
        _ => Err(takes_no_arguments(nargs + keywords - 1)),
    }
}

/// `attribute(position)` through `tp_call` (what a call without vectorcall takes).
unsafe extern "C" fn attribute_call(
    _attribute: *mut ffi::PyObject,
    args: *mut ffi::PyObject,
    kwargs: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: called by the interpreter with an argument tuple and a dict of keywords or NULL.
    unsafe {
        run(|py| {
            let nargs = ffi::PyTuple_Size(args);
            let keywords = if kwargs.is_null() {
                0
            } else {
                ffi::PyDict_Size(kwargs)
            };
            call_attribute(py, nargs, keywords, || ffi::PyTuple_GetItem(args, 0))
        })
    }
}

/// `attribute.__get__(position, cls)`: the position's `LegalMoves` view (the attribute itself
/// when read from the class).
unsafe extern "C" fn attribute_get(
    attribute: *mut ffi::PyObject,
    object: *mut ffi::PyObject,
    _cls: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: called by the interpreter with the attribute and the instance (NULL or None: read
    // from the class).
    unsafe {
        run(|py| {
            if object.is_null() || object == ffi::Py_None() {
                return Ok(bound(py, attribute).to_owned().into_ptr());
            }
            let object = bound(py, object);
            Ok(PositionBase::legal_moves(position(&object, "legal_moves")?)?.into_ptr())
        })
    }
}

/// `position.legal_moves = ...` or `del position.legal_moves`: refused.
unsafe extern "C" fn attribute_set(
    _attribute: *mut ffi::PyObject,
    object: *mut ffi::PyObject,
    _value: *mut ffi::PyObject,
) -> c_int {
    // SAFETY: called by the interpreter with a live instance.
    let failed = unsafe {
        run(|py| {
            let name = bound(py, object).get_type().name()?.to_string();
            Err(PyAttributeError::new_err(format!(
                "attribute 'legal_moves' of '{name}' objects is not writable"
            )))
        })
    };
    debug_assert!(failed.is_null());
    -1
}

/// Frees an [`Attribute`] (one lives in `Position`'s class dictionary for the process's life).
unsafe extern "C" fn attribute_dealloc(object: *mut ffi::PyObject) {
    // SAFETY: `object` is an `Attribute` whose last reference went; its docstring is released,
    // then its memory (`PyType_GenericAlloc` took it with `PyObject_Malloc`: the type is not
    // collected) and the reference to its heap type that every instance holds.
    unsafe {
        let attribute = object.cast::<Attribute>();
        let doc = std::mem::replace(&mut (*attribute).doc, ptr::null_mut());
        if !doc.is_null() {
            ffi::Py_DECREF(doc);
        }
        let cls = ffi::Py_TYPE(object);
        ffi::PyObject_Free(object.cast());
        ffi::Py_DECREF(cls.cast());
    }
}

// --- Position.play and Board.push ---

/// The one argument, named `name`, of a fast call of `method` (by position or keyword).
///
/// # Safety
/// `args`, `nargs` and `kwnames` are a fast call's (`nargs` values, then one per keyword).
unsafe fn one_argument(
    py: Python<'_>,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
    name: &str,
    method: &str,
) -> PyResult<*mut ffi::PyObject> {
    // SAFETY: as the caller promises.
    unsafe {
        let keywords = if kwnames.is_null() {
            0
        } else {
            ffi::PyTuple_Size(kwnames)
        };
        match (nargs, keywords) {
            (1, 0) => Ok(*args),
            (0, 1) => {
                let key = bound(py, ffi::PyTuple_GetItem(kwnames, 0));
                let key = key.cast::<PyString>()?;
                let key = key.to_str()?;
                if key == name {
                    Ok(*args)
                } else {
                    Err(PyTypeError::new_err(format!(
                        "{method}() got an unexpected keyword argument '{key}'"
                    )))
                }
            }
            _ => Err(PyTypeError::new_err(format!(
                "{method}() takes exactly one argument ({} given)",
                nargs + keywords
            ))),
        }
    }
}

/// `Position.play(self, move)`.
unsafe extern "C" fn position_play(
    slf: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: a fast call of a method descriptor: `slf` is an instance of its class (CPython
    // checks it; checked again here), then the arguments as `one_argument` reads them.
    unsafe {
        run(|py| {
            let r#move = bound(py, one_argument(py, args, nargs, kwnames, "move", "play")?);
            let slf = bound(py, slf);
            Ok(PositionBase::play(position(&slf, "play")?, &r#move)?.into_ptr())
        })
    }
}

/// `Board.push(self, move)`.
unsafe extern "C" fn board_push(
    slf: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: as `position_play`.
    unsafe {
        run(|py| {
            let r#move = bound(py, one_argument(py, args, nargs, kwnames, "move", "push")?);
            let slf = bound(py, slf);
            let board = slf
                .cast::<BoardBase>()
                .map_err(|_| PyTypeError::new_err("push needs a Board"))?;
            BoardBase::push(&board, &r#move)?;
            Ok(py.None().into_ptr())
        })
    }
}

/// A method's definition, which CPython reads through a `*mut` for as long as its descriptors live.
struct MethodDef(UnsafeCell<ffi::PyMethodDef>);

// SAFETY: the definitions are never written after their initialisation (CPython only reads them).
unsafe impl Sync for MethodDef {}

impl MethodDef {
    const fn new(
        name: &'static std::ffi::CStr,
        function: ffi::PyCFunctionFastWithKeywords,
        doc: &'static std::ffi::CStr,
    ) -> Self {
        MethodDef(UnsafeCell::new(ffi::PyMethodDef {
            ml_name: name.as_ptr(),
            ml_meth: ffi::PyMethodDefPointer {
                PyCFunctionFastWithKeywords: function,
            },
            ml_flags: ffi::METH_FASTCALL | ffi::METH_KEYWORDS,
            ml_doc: doc.as_ptr(),
        }))
    }
}

static PLAY: MethodDef = MethodDef::new(
    c"play",
    position_play,
    c"play($self, move)\n--\n\nThe position after ``move``; :class:`~draughts.IllegalMoveError` if it is not legal here\n(:class:`~draughts.InvalidMoveError` if it is not a :class:`~draughts.Move`).",
);

static PUSH: MethodDef = MethodDef::new(
    c"push",
    board_push,
    c"push($self, move)\n--\n\nPlay ``move``. An illegal or stale move raises and leaves the board as it was.\n\nRaises:\n    IllegalMoveError: the move is not legal in the current position (the message names the\n        legal moves with the same start and end, if there are any).\n    InvalidMoveError: ``move`` is not a :class:`~draughts.Move`.",
);

/// The method `name` (`"play"` of a position class, `"push"` of a board class) as a method
/// descriptor of `cls` itself: set on `cls`, its calls on instances of `cls` take CPython's
/// specialised path (those on a subclass's instances the generic one, as before).
#[pyfunction]
fn fast_method<'py>(cls: &Bound<'py, PyType>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    let (def, fits) = match name {
        "play" => (&PLAY, cls.is_subclass_of::<PositionBase>()?),
        "push" => (&PUSH, cls.is_subclass_of::<BoardBase>()?),
        _ => return Err(PyValueError::new_err(format!("no fast method {name:?}"))),
    };
    if !fits {
        return Err(PyTypeError::new_err(format!(
            "{name} is not a method of {cls}"
        )));
    }
    // SAFETY: `def` lives for the process; `PyDescr_NewMethod` returns a new reference (holding
    // one to `cls`) or NULL with an exception set.
    unsafe {
        Bound::from_owned_ptr_or_err(
            cls.py(),
            ffi::PyDescr_NewMethod(cls.as_type_ptr(), def.0.get()),
        )
    }
}

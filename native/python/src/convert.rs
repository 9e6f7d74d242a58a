//! Conversions at the boundary: Python ints <-> bitboard limbs, and the spec dictionary that
//! `draughts._core.native` makes of a `Ruleset` <-> [`RulesSpec`].

use std::sync::Arc;

use draughts_core::geometry::Numbering;
use draughts_core::spec::{
    CaptureFacts, CapturePromotion, Criterion, KingLanding, Precedence, PrecedenceFacts,
    PrecedenceRule,
};
use draughts_core::{Error, RulesSpec};
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyInt, PyList, PyTuple};

use crate::errors::{draughts_error, stash};

/// The limbs of the non-negative Python int `value` (`limbs` of them). A negative int or one too
/// wide for the layout is an `InvalidPositionError` naming `what`; anything but an int a
/// `TypeError`.
pub fn limbs_of(value: &Bound<'_, PyAny>, limbs: usize, what: &str) -> PyResult<Vec<u64>> {
    let py = value.py();
    if !value.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "{what} must be an int, not {}",
            value.get_type().name()?
        )));
    }
    let bad = |_| {
        draughts_error(
            py,
            "InvalidPositionError",
            format!("{what} {value} is not a bitboard of this board (negative or too wide)"),
        )
    };
    if limbs <= 2 {
        let bits: u128 = value.extract().map_err(bad)?;
        return Ok(vec![bits as u64, (bits >> 64) as u64]);
    }
    let bytes = value
        .call_method1("to_bytes", (limbs * 8, "little"))
        .map_err(|e| {
            if e.is_instance_of::<PyOverflowError>(py) {
                bad(e)
            } else {
                e
            }
        })?;
    let bytes = bytes.cast_into::<PyBytes>().map_err(PyErr::from)?;
    Ok(bytes
        .as_bytes()
        .chunks(8)
        .map(|chunk| u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8])))
        .collect())
}

/// The Python int of `limbs`.
pub fn int_of<'py>(py: Python<'py>, limbs: &[u64]) -> PyResult<Bound<'py, PyAny>> {
    if limbs.len() <= 2 {
        let low = limbs.first().copied().unwrap_or(0) as u128;
        let high = limbs.get(1).copied().unwrap_or(0) as u128;
        return Ok((low | high << 64).into_pyobject(py)?.into_any());
    }
    let bytes: Vec<u8> = limbs.iter().flat_map(|limb| limb.to_le_bytes()).collect();
    py.get_type::<PyInt>()
        .call_method1("from_bytes", (PyBytes::new(py, &bytes), "little"))
}

/// An `InvalidRulesetError` for field `key`.
fn bad_field(py: Python<'_>, key: &str, detail: String) -> PyErr {
    draughts_error(
        py,
        "InvalidRulesetError",
        format!("native spec field {key:?}: {detail}"),
    )
}

/// Field `key` of the dictionary `spec` as a `T`; missing or of the wrong type, an
/// `InvalidRulesetError` naming it a field of `what` (`"native spec"`, `"draw rules"`: the one
/// reader of both spec dictionaries).
pub fn dict_field<'py, T: FromPyObjectOwned<'py>>(
    spec: &Bound<'py, PyDict>,
    what: &str,
    key: &str,
) -> PyResult<T> {
    let py = spec.py();
    let bad = |detail: String| {
        draughts_error(
            py,
            "InvalidRulesetError",
            format!("{what} field {key:?}: {detail}"),
        )
    };
    let value = spec.get_item(key)?.ok_or_else(|| bad("missing".into()))?;
    value
        .extract::<T>()
        .map_err(|_| bad(format!("{value} does not fit")))
}

/// Field `key` of the native spec `spec` as a `T` (see [`dict_field`]).
fn field<'py, T: FromPyObjectOwned<'py>>(spec: &Bound<'py, PyDict>, key: &str) -> PyResult<T> {
    dict_field(spec, "native spec", key)
}

fn numbering(py: Python<'_>, name: &str) -> PyResult<Numbering> {
    Ok(match name {
        "TOP_LEFT" => Numbering::TopLeft,
        "TOP_RIGHT" => Numbering::TopRight,
        "BOTTOM_LEFT" => Numbering::BottomLeft,
        "BOTTOM_RIGHT" => Numbering::BottomRight,
        _ => return Err(bad_field(py, "numbering", format!("unknown {name:?}"))),
    })
}

fn king_landing(py: Python<'_>, name: &str) -> PyResult<KingLanding> {
    Ok(match name {
        "ANYWHERE" => KingLanding::Anywhere,
        "DIRECTLY_BEHIND" => KingLanding::DirectlyBehind,
        "BEHIND_LAST_KING" => KingLanding::BehindLastKing,
        _ => return Err(bad_field(py, "king_landing", format!("unknown {name:?}"))),
    })
}

fn capture_promotion(py: Python<'_>, name: &str) -> PyResult<CapturePromotion> {
    Ok(match name {
        "ENDS_MOVE" => CapturePromotion::EndsMove,
        "CONTINUES_AS_KING" => CapturePromotion::ContinuesAsKing,
        "ONLY_AT_END" => CapturePromotion::OnlyAtEnd,
        _ => {
            return Err(bad_field(
                py,
                "capture_promotion",
                format!("unknown {name:?}"),
            ))
        }
    })
}

/// The built-in criteria: `(kind, man, king)` tuples (the weights only read for `MostValue`).
fn criteria(py: Python<'_>, list: Vec<(String, u32, u32)>) -> PyResult<Vec<Criterion>> {
    list.into_iter()
        .map(|(kind, man, king)| {
            Ok(match kind.as_str() {
                "MostPieces" => Criterion::MostPieces,
                "WithKing" => Criterion::WithKing,
                "MostKings" => Criterion::MostKings,
                "KingsEarliest" => Criterion::KingsEarliest,
                "MostValue" => Criterion::MostValue { man, king },
                _ => {
                    return Err(bad_field(
                        py,
                        "precedence",
                        format!("unknown criterion {kind:?}"),
                    ))
                }
            })
        })
        .collect()
}

/// A precedence rule implemented in Python: `best(facts)` takes a list of
/// `(pieces, kings, with_king, order)` tuples and returns one flag per entry (the best keys).
struct PythonPrecedence {
    best: Py<PyAny>,
}

impl PythonPrecedence {
    fn call(&self, py: Python<'_>, facts: &[CaptureFacts]) -> PyResult<Vec<bool>> {
        let items = facts
            .iter()
            .map(|f| {
                let order = PyTuple::new(py, f.order.iter().copied())?;
                Ok((f.pieces, f.kings, f.with_king, order)
                    .into_pyobject(py)?
                    .into_any())
            })
            .collect::<PyResult<Vec<_>>>()?;
        let answer = self.best.call1(py, (PyList::new(py, items)?,))?;
        // An answer that is not a sequence of bools is the callback's bug, not the caller's
        // argument: a DraughtsError naming it (a TypeError here would escape as no other error).
        let flags: Vec<bool> = answer.extract(py).map_err(|_| {
            let shown = answer
                .bind(py)
                .repr()
                .map(|text| text.to_string())
                .unwrap_or_else(|_| "an object without a repr".into());
            draughts_error(
                py,
                "DraughtsError",
                format!(
                    "the precedence callback gave {shown} for {} captures, not a sequence of bools",
                    facts.len()
                ),
            )
        })?;
        if flags.len() != facts.len() || !flags.iter().any(|&flag| flag) {
            return Err(draughts_error(
                py,
                "DraughtsError",
                format!(
                    "the precedence callback gave {flags:?} for {} captures",
                    facts.len()
                ),
            ));
        }
        Ok(flags)
    }
}

impl Precedence for PythonPrecedence {
    fn best(&self, facts: &[CaptureFacts]) -> Result<Vec<bool>, Error> {
        Python::attach(|py| {
            self.call(py, facts).map_err(|error| {
                let text = error.to_string();
                stash(error);
                Error::Precedence(text)
            })
        })
    }
}

/// `(width, height)` of the spec's `board_size`: a side (a square board) or a `(width, height)`
/// pair; height `None` for a square board.
fn board_size(spec: &Bound<'_, PyDict>) -> PyResult<(u32, Option<u32>)> {
    if let Ok(side) = field::<u32>(spec, "board_size") {
        return Ok((side, None));
    }
    let (width, height): (u32, u32) = field(spec, "board_size")?;
    Ok((width, (height != width).then_some(height)))
}

/// The [`RulesSpec`] of the dictionary `spec` (keys: the fields of [`RulesSpec`], `board_size` a
/// side or a `(width, height)` pair, the enums by
/// their Python member names, `precedence` as `(kind, man, king)` tuples, `value_weights`,
/// `single_jump_preference`, `needs_order`); with `best`, the precedence is that Python callable
/// instead (see [`PythonPrecedence`]).
pub fn rules_spec(spec: &Bound<'_, PyDict>, best: Option<Py<PyAny>>) -> PyResult<RulesSpec> {
    let py = spec.py();
    let list: Vec<(String, u32, u32)> = field(spec, "precedence")?;
    let precedence = match best {
        Some(best) => PrecedenceRule::External(Arc::new(PythonPrecedence { best })),
        None if list.is_empty() => PrecedenceRule::Free,
        None => PrecedenceRule::Criteria(criteria(py, list)?),
    };
    let (width, height) = board_size(spec)?;
    Ok(RulesSpec {
        board_size: width,
        board_height: height,
        all_squares: field(spec, "all_squares")?,
        bottom_left_playable: field(spec, "bottom_left_playable")?,
        numbering: numbering(py, &field::<String>(spec, "numbering")?)?,
        rows_per_side: field(spec, "rows_per_side")?,
        men_start_row: field(spec, "men_start_row")?,
        first_to_move: field(spec, "first_to_move")?,
        men_move: field(spec, "men_move")?,
        men_capture: field(spec, "men_capture")?,
        kings_move: field(spec, "kings_move")?,
        kings_capture: field(spec, "kings_capture")?,
        men_capture_kings: field(spec, "men_capture_kings")?,
        flying_kings: field(spec, "flying_kings")?,
        king_landing: king_landing(py, &field::<String>(spec, "king_landing")?)?,
        capture_promotion: capture_promotion(py, &field::<String>(spec, "capture_promotion")?)?,
        capture_mandatory: field(spec, "capture_mandatory")?,
        immediate_removal: field(spec, "immediate_removal")?,
        capture_reversal: field(spec, "capture_reversal")?,
        king_move_limit: field(spec, "king_move_limit")?,
        no_move_wins: field(spec, "no_move_wins")?,
        crowning_wins: field(spec, "crowning_wins")?,
        precedence,
        precedence_facts: PrecedenceFacts {
            value_weights: field(spec, "value_weights")?,
            single_jump_preference: field(spec, "single_jump_preference")?,
            needs_order: field(spec, "needs_order")?,
        },
    })
}

//! The endgame solver of `draughts-core` for Python: `draughts._native.Endgame`, one material
//! under one ruleset (what `draughts.endgame.solve` runs), and `pack`, the table files' packing.
//!
//! Tables of smaller materials come in as their files' packed sections (bytes), so no Python is
//! called per position; a Python callable answers only for exits into materials not given.

use draughts_core::bitboard::Bits;
use draughts_core::endgame::index::Indexer;
use draughts_core::endgame::mirror::{mirror_table, Mirrored, Packed};
use draughts_core::endgame::slice::{slice_levels, solve_material, solve_part};
use draughts_core::endgame::solve::{Exit, Known, Slots, Solved};
use draughts_core::endgame::summary;
use draughts_core::endgame::within::{Caps, Counts, PlacementRule, Plan, INF};
use draughts_core::endgame::WIN;
use draughts_core::generator::Generator;
use draughts_core::{Engine, Error};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};

use crate::convert::{int_of, limbs_of, rules_spec};
use crate::errors::{stash, unwind_safe};

/// A smaller material's table: its indexer and packed sections.
struct SubTable<B: Bits> {
    counts: [u32; 4],
    indexer: Indexer<B>,
    codes: Vec<u8>,
    plies: Vec<u8>,
    plies_bits: u32,
    within: Option<Vec<u8>>,
}

/// The `index`-th `bits`-bit field of `data` (little-endian, as `draughts.endgame.storage`).
fn field(data: &[u8], index: u64, bits: u32) -> u64 {
    if bits == 0 {
        return 0;
    }
    let start = index * u64::from(bits);
    let (first, offset) = ((start / 8) as usize, (start % 8) as u32);
    let mut chunk: u128 = 0;
    for (k, &byte) in data
        .iter()
        .skip(first)
        .take((offset + bits).div_ceil(8) as usize)
        .enumerate()
    {
        chunk |= u128::from(byte) << (8 * k);
    }
    ((chunk >> offset) & ((1u128 << bits) - 1)) as u64
}

/// The table a solve reads: `(counts, codes, plies, plies_bits, within)` from Python.
type TableArgs = ([u32; 4], Vec<u8>, Vec<u8>, u32, Option<Vec<u8>>);

/// [`TableArgs`] as Python passes them.
type PyTableArgs<'py> = (
    [u32; 4],
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    u32,
    Option<Bound<'py, PyBytes>>,
);

/// The tables as the solver reads them, copied once from the bytes (a Vec<u8> extracted from
/// bytes would be read int by int).
fn table_args(tables: Vec<PyTableArgs<'_>>) -> Vec<TableArgs> {
    tables
        .into_iter()
        .map(|(counts, codes, plies, bits, within)| {
            let within = within.map(|w| w.as_bytes().to_vec());
            (
                counts,
                codes.as_bytes().to_vec(),
                plies.as_bytes().to_vec(),
                bits,
                within,
            )
        })
        .collect()
}

/// [`KnownArgs`] as Python passes them.
type PyKnownArgs<'py> = (
    Vec<u64>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Option<Bound<'py, PyBytes>>,
    Bound<'py, PyBytes>,
);

/// A part's results for Python: codes, plies, within codes, budgets and moves inside.
type PartResults<'py> = (
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Option<Bound<'py, PyBytes>>,
    Bound<'py, PyBytes>,
    u64,
);

/// The within-the-rules plan from Python's dictionary.
fn plan_of(plan: &Bound<'_, PyDict>) -> PyResult<Plan> {
    let get = |key: &str| -> PyResult<Bound<'_, PyAny>> {
        plan.get_item(key)?
            .ok_or_else(|| pyo3::exceptions::PyKeyError::new_err(key.to_string()))
    };
    let counts = match get("counts")?.extract::<String>()?.as_str() {
        "ply" => Counts::Ply,
        "men" => Counts::Men,
        "both" => Counts::Both,
        other => {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "plan counts {other:?}"
            )))
        }
    };
    let count_limit: i32 = get("count_limit")?.extract()?;
    let caps = get("caps")?;
    let caps = if let Ok(bytes) = caps.cast::<PyBytes>() {
        Caps::Each(
            bytes
                .as_bytes()
                .chunks_exact(2)
                .map(|p| i16::from_le_bytes([p[0], p[1]]))
                .collect(),
        )
    } else {
        Caps::Uniform(caps.extract::<i16>()?)
    };
    let advance: Option<(Vec<u16>, Vec<u16>)> = get("advance")?.extract()?;
    let placement: Vec<(i32, Option<Vec<u8>>, bool, bool)> = get("placement")?.extract()?;
    Ok(Plan {
        counts,
        count_limit: count_limit.min(INF),
        caps,
        advance: advance.map(|(w, b)| [w, b]),
        placement: placement
            .into_iter()
            .map(|(plies, weak, diagonal, no_shot)| PlacementRule {
                plies,
                weak,
                weak_king_on_main_diagonal: diagonal,
                no_shot,
            })
            .collect(),
        material_limit: get("material_limit")?.extract::<i32>()?.min(INF),
        diagonal: get("diagonal")?.extract()?,
    })
}

/// The native solver of one material of one ruleset.
#[pyclass(frozen, module = "draughts._native")]
pub struct Endgame {
    engine: Engine,
    counts: [u32; 4],
}

/// A solve's results for Python: codes, plies (2 bytes each, little-endian), within codes, and
/// the count of moves inside the material.
type Results<'py> = (
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Option<Bound<'py, PyBytes>>,
    u64,
);

/// The values of the slices a part reads: `(slices, codes, plies, within, budgets)`, each
/// slice's entries as a frame lays them out.
type KnownArgs = (Vec<u64>, Vec<u8>, Vec<u16>, Option<Vec<u8>>, Vec<i16>);

/// What a solve solves: the whole material (sliced where `slices` is given), or a part of it.
enum Job<'a> {
    Material(Option<&'a [Vec<u16>; 2]>),
    Part(&'a [u64], KnownArgs),
}

fn typed_solve<B: Bits>(
    g: &Generator<B>,
    counts: [u32; 4],
    tables: Vec<TableArgs>,
    plan: Option<&Plan>,
    workers: usize,
    fallback: Option<&Py<PyAny>>,
    job: Job<'_>,
) -> Result<Solved, Error> {
    let indexer = Indexer::new(&g.tables, counts)?;
    let mut subs = Vec::new();
    for (counts, codes, plies, plies_bits, within) in tables {
        let indexer = Indexer::new(&g.tables, counts)?;
        subs.push(SubTable {
            counts,
            indexer,
            codes,
            plies,
            plies_bits,
            within,
        });
    }
    let exit = |own: B, opp: B, kings: B, color: u8| -> Result<Exit, Error> {
        let (white, black) = if color == 0 { (own, opp) } else { (opp, own) };
        let key = [
            (white & !kings).count(),
            (black & !kings).count(),
            (white & kings).count(),
            (black & kings).count(),
        ];
        if let Some(sub) = subs.iter().find(|s| s.counts == key) {
            let index = sub.indexer.index(white, black, kings, color);
            let code = field(&sub.codes, index, 2) as u8;
            let plies = field(&sub.plies, index, sub.plies_bits) as u16;
            let within = sub
                .within
                .as_ref()
                .map_or(code, |w| field(w, index, 2) as u8);
            return Ok((code, plies, within));
        }
        let Some(fallback) = fallback else {
            return Err(Error::InvalidNode(format!(
                "no table of the material {key:?} was given"
            )));
        };
        Python::attach(|py| {
            let call = || -> PyResult<Exit> {
                let args = (
                    int_of(py, &own.to_limbs())?,
                    int_of(py, &opp.to_limbs())?,
                    int_of(py, &kings.to_limbs())?,
                    color,
                );
                fallback.bind(py).call1(args)?.extract()
            };
            call().map_err(|error| {
                let text = error.to_string();
                stash(error);
                Error::Interrupted(text)
            })
        })
    };
    let workers = if fallback.is_some() { 1 } else { workers };
    match job {
        Job::Material(slices) => solve_material(g, &indexer, &exit, workers, plan, slices),
        Job::Part(part, (held, codes, plies, within, budgets)) => {
            let per = indexer.radix[2] * indexer.radix[3];
            let span = 2 * per as usize;
            let size = held.len() * span;
            if codes.len() != size
                || plies.len() != size
                || within.as_ref().is_some_and(|w| w.len() != size)
            {
                return Err(Error::InvalidSpec(format!(
                    "the values given for {} slices are not {size} entries",
                    held.len()
                )));
            }
            let known = Known {
                codes,
                plies,
                within,
                budgets,
                slots: Some(Slots {
                    placements: indexer.placements,
                    per,
                    base: held
                        .iter()
                        .enumerate()
                        .map(|(j, &s)| (s, j * span))
                        .collect(),
                }),
            };
            solve_part(g, &indexer, &exit, workers, plan, part, &known)
        }
    }
}

fn typed_example<B: Bits>(
    g: &Generator<B>,
    counts: [u32; 4],
    codes: &[u8],
    plies: &[u8],
    turn: u8,
    longest: u16,
) -> Result<Option<[Vec<u64>; 3]>, Error> {
    let indexer = Indexer::new(&g.tables, counts)?;
    let placements = indexer.placements as usize;
    let mut best: Option<(Vec<u32>, (B, B, B))> = None;
    for rank in 0..placements {
        let index = turn as usize * placements + rank;
        if codes.get(index) != Some(&WIN)
            || u16::from_le_bytes([plies[2 * index], plies[2 * index + 1]]) != longest
        {
            continue;
        }
        let Some(placement) = indexer.unrank(rank as u64) else {
            continue;
        };
        let key = indexer.walk_key(placement);
        if best.as_ref().is_none_or(|(k, _)| key < *k) {
            best = Some((key, placement));
        }
    }
    Ok(best.map(|(_, (w, b, k))| [w.to_limbs(), b.to_limbs(), k.to_limbs()]))
}

fn typed_mirror<B: Bits>(
    g: &Generator<B>,
    counts: [u32; 4],
    source: Packed<'_>,
    turn: &[u32],
    workers: usize,
) -> Result<Mirrored, Error> {
    let indexer = Indexer::new(&g.tables, counts)?;
    let [wm, bm, wk, bk] = counts;
    let twin = Indexer::new(&g.tables, [bm, wm, bk, wk])?;
    mirror_table(&indexer, &twin, source, turn, workers)
}

macro_rules! each {
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

#[pymethods]
impl Endgame {
    /// Compiles `spec` (as `draughts._native.Rules` does) for the material with `counts`:
    /// White's men, Black's men, White's kings, Black's kings.
    #[new]
    #[pyo3(signature = (spec, counts, best = None))]
    fn new(
        py: Python<'_>,
        spec: &Bound<'_, PyDict>,
        counts: [u32; 4],
        best: Option<Py<PyAny>>,
    ) -> PyResult<Self> {
        let spec = rules_spec(spec, best)?;
        let engine = py
            .detach(|| unwind_safe(|| Engine::new(&spec)))
            .map_err(|f| f.into_py(py))?;
        each!(&engine, g => Indexer::new(&g.tables, counts).map(|_| ()))
            .map_err(|e| crate::errors::to_py(py, e))?;
        Ok(Endgame { engine, counts })
    }

    /// Entries (both sides to move, holes included).
    #[getter]
    fn size(&self) -> PyResult<u64> {
        each!(&self.engine, g => Ok(Indexer::new(&g.tables, self.counts).map(|i| i.size).unwrap_or(0)))
    }

    /// The index of a position (bitboards in the generator's layout).
    fn index(
        &self,
        white: &Bound<'_, PyAny>,
        black: &Bound<'_, PyAny>,
        kings: &Bound<'_, PyAny>,
        turn: u8,
    ) -> PyResult<u64> {
        let limbs = (self.engine.width() as usize).div_ceil(64);
        let (w, b, k) = (
            limbs_of(white, limbs, "white")?,
            limbs_of(black, limbs, "black")?,
            limbs_of(kings, limbs, "kings")?,
        );
        each!(&self.engine, g => {
            let indexer = Indexer::new(&g.tables, self.counts).map_err(|e| crate::errors::to_py(white.py(), e))?;
            let bits = |l: &[u64]| Bits::from_limbs(l).unwrap_or(Bits::ZERO);
            Ok(indexer.index(bits(&w), bits(&b), bits(&k), turn))
        })
    }

    /// Solves the material, without the GIL on `workers` threads.
    ///
    /// `tables`: `(counts, codes, plies, plies_bits, within)` of the smaller materials (packed
    /// as in the files); `plan`: None, or the verdicts within the rules' plan (a dict: counts,
    /// count_limit, caps as an int or 2-byte little-endian values per entry, advance);
    /// `fallback(own, opp, kings, turn) -> (code, plies, within)` for exits into materials
    /// not given (run on one thread, with the GIL); `slices`: per colour, how far a man on each
    /// bit has come (every quiet move of a man adds to it), to solve the material slice by
    /// slice of the men's placements (same values, a fraction of the memory).
    #[pyo3(signature = (tables, plan = None, workers = 1, fallback = None, slices = None))]
    fn solve<'py>(
        &self,
        py: Python<'py>,
        tables: Vec<PyTableArgs<'py>>,
        plan: Option<&Bound<'py, PyDict>>,
        workers: usize,
        fallback: Option<Py<PyAny>>,
        slices: Option<(Vec<u16>, Vec<u16>)>,
    ) -> PyResult<Results<'py>> {
        let slices = slices.map(|(white, black)| [white, black]);
        let plan = plan.map(plan_of).transpose()?;
        let tables = table_args(tables);
        let counts = self.counts;
        let engine = &self.engine;
        let solved = py
            .detach(|| unwind_safe(|| each!(engine, g => typed_solve(g, counts, tables, plan.as_ref(), workers, fallback.as_ref(), Job::Material(slices.as_ref())))))
            .map_err(|fault| fault.into_py(py))?;
        let plies = summary::le_bytes(&solved.plies);
        Ok((
            PyBytes::new(py, &solved.codes),
            PyBytes::new(py, &plies),
            solved.within.as_ref().map(|w| PyBytes::new(py, w)),
            solved.edges,
        ))
    }

    /// The slices of the material (men's placements, `rank / per`) by level of how far their
    /// men have come (`advance` as for `solve`), nearest first: a man's move takes a slice of one
    /// level to one of the next, so a level needs only the next one solved.
    fn slice_levels(&self, advance: (Vec<u16>, Vec<u16>)) -> PyResult<Vec<Vec<u32>>> {
        let advance = [advance.0, advance.1];
        each!(&self.engine, g => {
            let indexer = Indexer::new(&g.tables, self.counts).map_err(|e| Python::attach(|py| crate::errors::to_py(py, e)))?;
            Ok(slice_levels(&indexer, &advance))
        })
    }

    /// Solves a part of the material, `part` (slices of one level), without the GIL: `tables`,
    /// `plan`, `workers`, `fallback` as for `solve`; `known`: `(slices, codes, plies, within,
    /// budgets)` of the slices of the next level (plies 2 bytes, budgets 2 bytes signed, both
    /// little-endian; each slice's entries both sides to move). Returns the part's codes, plies,
    /// within codes, budgets (as given) and moves inside, slice by slice in `part`'s order.
    #[pyo3(signature = (tables, plan, workers, fallback, part, known))]
    #[allow(clippy::too_many_arguments)]
    fn solve_part<'py>(
        &self,
        py: Python<'py>,
        tables: Vec<PyTableArgs<'py>>,
        plan: Option<&Bound<'py, PyDict>>,
        workers: usize,
        fallback: Option<Py<PyAny>>,
        part: Vec<u64>,
        known: PyKnownArgs<'py>,
    ) -> PyResult<PartResults<'py>> {
        let plan = plan.map(plan_of).transpose()?;
        let tables = table_args(tables);
        let (held, codes, plies, within, budgets) = known;
        let known: KnownArgs = (
            held,
            codes.as_bytes().to_vec(),
            plies
                .as_bytes()
                .chunks_exact(2)
                .map(|p| u16::from_le_bytes([p[0], p[1]]))
                .collect(),
            within.map(|w| w.as_bytes().to_vec()),
            budgets
                .as_bytes()
                .chunks_exact(2)
                .map(|p| i16::from_le_bytes([p[0], p[1]]))
                .collect(),
        );
        let counts = self.counts;
        let engine = &self.engine;
        let solved = py
            .detach(|| unwind_safe(|| each!(engine, g => typed_solve(g, counts, tables, plan.as_ref(), workers, fallback.as_ref(), Job::Part(&part, known)))))
            .map_err(|fault| fault.into_py(py))?;
        let plies = summary::le_bytes(&solved.plies);
        let budgets: Vec<u8> = solved
            .budgets
            .iter()
            .flat_map(|b| b.to_le_bytes())
            .collect();
        Ok((
            PyBytes::new(py, &solved.codes),
            PyBytes::new(py, &plies),
            solved.within.as_ref().map(|w| PyBytes::new(py, w)),
            PyBytes::new(py, &budgets),
            solved.edges,
        ))
    }

    /// The material's values from its colour-swapped twin's table (colour symmetry: the caller
    /// says the rules allow it), without the GIL on `workers` threads: `codes`, `plies`
    /// (`plies_bits` wide) and `within` packed as in the twin's file; `turn`: per bit of the
    /// layout, the bit the board's turn sends it to. Returns codes, plies (2 bytes each,
    /// little-endian) and within codes, as `solve` does.
    #[pyo3(signature = (codes, plies, plies_bits, within, turn, workers = 1))]
    #[allow(clippy::too_many_arguments)]
    fn mirror<'py>(
        &self,
        py: Python<'py>,
        codes: &[u8],
        plies: &[u8],
        plies_bits: u32,
        within: Option<&[u8]>,
        turn: Vec<u32>,
        workers: usize,
    ) -> PyResult<Results<'py>> {
        let source = Packed {
            codes,
            plies,
            plies_bits,
            within,
        };
        let counts = self.counts;
        let engine = &self.engine;
        let made = py
            .detach(|| {
                unwind_safe(|| each!(engine, g => typed_mirror(g, counts, source, &turn, workers)))
            })
            .map_err(|fault| fault.into_py(py))?;
        let plies = summary::le_bytes(&made.plies);
        Ok((
            PyBytes::new(py, &made.codes),
            PyBytes::new(py, &plies),
            made.within.as_ref().map(|w| PyBytes::new(py, w)),
            0,
        ))
    }

    /// The first placement (in the Python walk's order) whose entry for `turn` is won in
    /// `longest` plies: `(white, black, kings)`, or None.
    fn example<'py>(
        &self,
        py: Python<'py>,
        codes: &[u8],
        plies: &[u8],
        turn: u8,
        longest: u16,
    ) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let found = py
            .detach(|| unwind_safe(|| each!(&self.engine, g => typed_example(g, self.counts, codes, plies, turn, longest))))
            .map_err(|fault| fault.into_py(py))?;
        found
            .map(|[w, b, k]| PyTuple::new(py, [int_of(py, &w)?, int_of(py, &b)?, int_of(py, &k)?]))
            .transpose()
    }
}

/// `values` (`itemsize`-byte little-endian unsigned ints) as `bits`-bit fields, little-endian,
/// eight to `bits` bytes (`draughts.endgame.storage.pack`), without the GIL on `workers` threads.
#[pyfunction]
#[pyo3(signature = (values, itemsize, bits, workers = 1))]
pub fn pack<'py>(
    py: Python<'py>,
    values: &[u8],
    itemsize: usize,
    bits: u32,
    workers: usize,
) -> PyResult<Bound<'py, PyBytes>> {
    if !(1..=8).contains(&itemsize) || bits > 64 {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "pack: itemsize {itemsize}, bits {bits}"
        )));
    }
    let out = py.detach(|| summary::pack(values, itemsize, bits, workers));
    Ok(PyBytes::new(py, &out))
}

/// One run's tally for Python: `(draws, wins, losses)`, the same within the rules (None without
/// them), the longest win (-1: none) and the longest distance.
type PyTally = ((u64, u64, u64), Option<(u64, u64, u64)>, i32, u16);

/// The tallies of consecutive runs of `run` entries (a table's sides to move, a part's slices):
/// `codes` one byte an entry, `plies` two (little-endian), `within` one or None; counted without
/// the GIL on `workers` threads (`draughts.endgame.table.statistics`).
#[pyfunction]
#[pyo3(signature = (codes, plies, within, run, workers = 1))]
pub fn tally(
    py: Python<'_>,
    codes: &[u8],
    plies: &[u8],
    within: Option<&[u8]>,
    run: usize,
    workers: usize,
) -> PyResult<Vec<PyTally>> {
    if plies.len() != 2 * codes.len() || within.is_some_and(|w| w.len() != codes.len()) {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "tally: {} codes, {} bytes of plies, {:?} codes within the rules",
            codes.len(),
            plies.len(),
            within.map(<[u8]>::len)
        )));
    }
    let runs = py.detach(|| summary::tally_runs(codes, plies, within, run, workers));
    let triple = |c: [u64; 3]| (c[0], c[1], c[2]);
    Ok(runs
        .into_iter()
        .map(|t| {
            (
                triple(t.counts),
                within.map(|_| triple(t.within)),
                t.longest_win.map_or(-1, i32::from),
                t.widest,
            )
        })
        .collect())
}

/// Adds the endgame solver to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Endgame>()?;
    m.add_function(wrap_pyfunction!(tally, m)?)?;
    m.add_function(wrap_pyfunction!(pack, m)?)
}

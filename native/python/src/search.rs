//! The engine's per-node search and evaluation for Python: [`Evaluation`] (the built-in
//! evaluation compiled from the tables `draughts.engine.weights` makes) and [`Searcher`] (the
//! alpha-beta recursion with its transposition table, kept between searches), both on a [`Rules`].
//!
//! Python's root (`draughts.engine.root`) scores each root move with one call; the recursion runs
//! without the GIL. Every [`draughts_core::search::CHECK_EVERY`] nodes, and inside long capture
//! generations, it takes the GIL back to run Python's signal handlers (Ctrl-C) and the search's
//! `poll()` (the clock and the stop flag, read in Python so that a caller's clock counts).

use draughts_core::bitboard::{Bits, Wide};
use draughts_core::drawsearch::DrawTrack;
use draughts_core::evaluation::{Evaluation as Eval, Shift};
use draughts_core::generator::Generator;
use draughts_core::parallel::root_search_threads;
use draughts_core::root::{root_search, RootAnswer, RootParams};
use draughts_core::search::{Halt, Hooks, Leaf, Searcher as Core, TRACK_PLIES};
use draughts_core::state::{Compact, Node};
use draughts_core::{Engine, Error};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::convert::{int_of, limbs_of};
use crate::drawrules::DrawRules;
use crate::errors::{draughts_error, stash, unwind_safe};
use crate::Rules;

/// One value per width of [`Engine`].
#[derive(Clone, Debug)]
pub(crate) enum Width<T64, T128, T4, T8, T11> {
    U64(T64),
    U128(T128),
    W4(T4),
    W8(T8),
    W11(T11),
}

pub(crate) type AnyEval =
    Width<Eval<u64>, Eval<u128>, Eval<Wide<4>>, Eval<Wide<8>>, Eval<Wide<11>>>;
type AnyCore = Width<Core<u64>, Core<u128>, Core<Wide<4>>, Core<Wide<8>>, Core<Wide<11>>>;

/// A value of `T<B>` for `engine`'s width, made by `make`.
macro_rules! for_width {
    ($engine:expr, $make:ident ( $($arg:expr),* )) => {
        match $engine {
            Engine::U64(g) => Width::U64($make::<u64>(g, $($arg),*)?),
            Engine::U128(g) => Width::U128($make::<u128>(g, $($arg),*)?),
            Engine::W4(g) => Width::W4($make::<Wide<4>>(g, $($arg),*)?),
            Engine::W8(g) => Width::W8($make::<Wide<8>>(g, $($arg),*)?),
            Engine::W11(g) => Width::W11($make::<Wide<11>>(g, $($arg),*)?),
        }
    };
}

fn mismatch() -> PyErr {
    pyo3::exceptions::PyValueError::new_err("the searcher and the evaluation belong to other rules")
}

fn bits<B: Bits>(value: &Bound<'_, PyAny>, what: &str) -> PyResult<B> {
    let limbs = limbs_of(value, (B::BITS as usize).div_ceil(64), what)?;
    B::from_limbs(&limbs).ok_or_else(|| {
        draughts_error(
            value.py(),
            "InvalidPositionError",
            format!("{what} {value} is too wide for the board"),
        )
    })
}

fn int<'py, B: Bits>(py: Python<'py>, value: B) -> PyResult<Bound<'py, PyAny>> {
    int_of(py, &value.to_limbs())
}

pub(crate) fn node_of<B: Bits>(g: &Generator<B>, node: &Bound<'_, PyTuple>) -> PyResult<Node<B>> {
    let py = node.py();
    if node.len() != 5 {
        return Err(draughts_error(
            py,
            "InvalidPositionError",
            format!("a node is (own, opp, kings, color, state), not {node}"),
        ));
    }
    let typed = Node {
        own: bits(&node.get_item(0)?, "own")?,
        opp: bits(&node.get_item(1)?, "opp")?,
        kings: bits(&node.get_item(2)?, "kings")?,
        color: node.get_item(3)?.extract()?,
        state: node.get_item(4)?.extract()?,
    };
    g.check(&typed)
        .map_err(|e| draughts_error(py, "InvalidPositionError", e.to_string()))?;
    Ok(typed)
}

pub(crate) fn py_node<'py, B: Bits>(py: Python<'py>, n: &Node<B>) -> PyResult<Bound<'py, PyTuple>> {
    (
        int(py, n.own)?,
        int(py, n.opp)?,
        int(py, n.kings)?,
        n.color,
        n.state,
    )
        .into_pyobject(py)
}

fn compact_of<B: Bits>(m: &Bound<'_, PyAny>) -> PyResult<Compact<B>> {
    let (moved, captured, crowned): (Bound<'_, PyAny>, Bound<'_, PyAny>, Bound<'_, PyAny>) =
        m.extract()?;
    Ok(Compact {
        moved: bits(&moved, "moved")?,
        captured: bits(&captured, "captured")?,
        crowned: bits(&crowned, "crowned")?,
    })
}

fn py_compact<'py, B: Bits>(py: Python<'py>, m: &Compact<B>) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(
        py,
        [int(py, m.moved)?, int(py, m.captured)?, int(py, m.crowned)?],
    )
}

// --- the evaluation -----------------------------------------------------------------------------

fn shifts(value: &Bound<'_, PyAny>) -> PyResult<[Vec<Shift>; 2]> {
    let [a, b]: [Vec<Shift>; 2] = value
        .extract::<(Vec<Shift>, Vec<Shift>)>()
        .map(|(a, b)| [a, b])?;
    Ok([a, b])
}

fn pair<T>(
    value: &Bound<'_, PyAny>,
    each: impl Fn(&Bound<'_, PyAny>) -> PyResult<T>,
) -> PyResult<[T; 2]> {
    let (a, b): (Bound<'_, PyAny>, Bound<'_, PyAny>) = value.extract()?;
    Ok([each(&a)?, each(&b)?])
}

fn masks<B: Bits>(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<B>> {
    value.try_iter()?.map(|item| bits(&item?, what)).collect()
}

fn weighted<B: Bits>(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<(B, i64)>> {
    value
        .try_iter()?
        .map(|item| {
            let (mask, weight): (Bound<'_, PyAny>, i64) = item?.extract()?;
            Ok((bits(&mask, what)?, weight))
        })
        .collect()
}

/// Per colour, the shifts that bring a man's back squares onto its own bit, each with the mask of
/// men whose back square in that direction is off the board (which counts as held).
fn backs<B: Bits>(value: &Bound<'_, PyAny>, board: B) -> PyResult<Vec<(Shift, B)>> {
    let list: Vec<Shift> = value.extract()?;
    Ok(list
        .into_iter()
        .map(|(a, up)| ((a, up), !board.shift(a, up)))
        .collect())
}

fn eval_of<B: Bits>(g: &Generator<B>, d: &Bound<'_, PyDict>) -> PyResult<Eval<B>> {
    let get = |key: &str| -> PyResult<Bound<'_, PyAny>> {
        d.get_item(key)?
            .ok_or_else(|| pyo3::exceptions::PyKeyError::new_err(key.to_string()))
    };
    let board = g.tables.board;
    let back_pairs = pair(&get("back_pairs")?, |side| backs(side, board))?;
    Ok(Eval {
        men: get("men")?
            .extract::<(Vec<i64>, Vec<i64>)>()
            .map(|(a, b)| [a, b])?,
        kings: get("kings")?.extract()?,
        board,
        man_steps: shifts(&get("man_steps")?)?,
        king_steps: shifts(&get("king_steps")?)?,
        fronts: shifts(&get("fronts")?)?,
        back_pairs,
        home: pair(&get("home")?, |m| bits(m, "home"))?,
        left: bits(&get("left")?, "left")?,
        right: bits(&get("right")?, "right")?,
        late_rows: pair(&get("late_rows")?, |v| weighted(v, "late_rows"))?,
        zone_of: pair(&get("zone_of")?, |v| masks(v, "zone_of"))?,
        men_total: get("men_total")?.extract()?,
        sign: get("sign")?.extract()?,
        flying: get("flying")?.extract()?,
        crowning_wins: get("crowning_wins")?.extract()?,
        mobility: get("mobility")?.extract()?,
        contact: get("contact")?.extract()?,
        support: get("support")?.extract()?,
        back_rank: get("back_rank")?.extract()?,
        balance: get("balance")?.extract()?,
        runaway: get("runaway")?.extract()?,
        main_road: bits(&get("main_road")?, "main_road")?,
        road: get("road")?.extract()?,
    })
}

/// The built-in evaluation of one ruleset with one set of weights (what
/// `draughts.engine.weights._evaluation` compiles; immutable, shared by searches).
#[pyclass(frozen, module = "draughts._native")]
pub struct Evaluation {
    pub(crate) eval: AnyEval,
}

#[pymethods]
impl Evaluation {
    /// Compiles `tables` (a dictionary of per-bit values, masks, shifts and weights) for `rules`.
    #[new]
    fn new(rules: &Bound<'_, Rules>, tables: &Bound<'_, PyDict>) -> PyResult<Self> {
        let eval = for_width!(&rules.get().engine, eval_of(tables));
        Ok(Evaluation { eval })
    }

    /// The score of a node for its side to move, in hundredths of a man.
    fn evaluate(
        &self,
        own: &Bound<'_, PyAny>,
        opp: &Bound<'_, PyAny>,
        kings: &Bound<'_, PyAny>,
        color: u8,
    ) -> PyResult<i64> {
        macro_rules! run {
            ($e:expr) => {
                Ok($e.evaluate(
                    bits(own, "own")?,
                    bits(opp, "opp")?,
                    bits(kings, "kings")?,
                    color & 1,
                ))
            };
        }
        match &self.eval {
            Width::U64(e) => run!(e),
            Width::U128(e) => run!(e),
            Width::W4(e) => run!(e),
            Width::W8(e) => run!(e),
            Width::W11(e) => run!(e),
        }
    }
}

// --- the searcher -------------------------------------------------------------------------------

/// What one search calls back: the poll, the evaluation, the tablebase probe.
struct Calls {
    evaluation: Option<Py<Evaluation>>,
    leaf: Option<Py<PyAny>>,
    poll: Option<Py<PyAny>>,
    probe: Option<Py<PyAny>>,
    probe_pieces: u32,
}

/// A Python failure inside the search: kept to be raised at the boundary, the core carries text.
pub(crate) fn failed(error: PyErr) -> Error {
    let text = error.to_string();
    stash(error);
    Error::Interrupted(text)
}

pub(crate) fn poll_now(poll: Option<&Py<PyAny>>) -> Result<bool, Error> {
    Python::attach(|py| {
        py.check_signals().map_err(failed)?;
        match poll {
            None => Ok(false),
            Some(f) => f.call0(py).and_then(|v| v.is_truthy(py)).map_err(failed),
        }
    })
}

fn with_hooks<B: Bits, T>(
    calls: &Calls,
    eval: Option<&Eval<B>>,
    work: impl FnOnce(&Hooks<'_, B>) -> T,
) -> T {
    let poll = || poll_now(calls.poll.as_ref());
    let custom = |n: &Node<B>| -> Result<i64, Error> {
        Python::attach(|py| {
            let f = calls
                .leaf
                .as_ref()
                .ok_or_else(|| Error::Interrupted("no evaluation".into()))?;
            let args = (
                int(py, n.own).map_err(failed)?,
                int(py, n.opp).map_err(failed)?,
                int(py, n.kings).map_err(failed)?,
                n.color,
            );
            f.call1(py, args)
                .and_then(|v| v.extract::<i64>(py))
                .map_err(failed)
        })
    };
    let probe = |n: &Node<B>, ply: i32| -> Result<Option<i64>, Error> {
        Python::attach(|py| {
            let Some(f) = calls.probe.as_ref() else {
                return Ok(None);
            };
            let args = (
                int(py, n.own).map_err(failed)?,
                int(py, n.opp).map_err(failed)?,
                int(py, n.kings).map_err(failed)?,
                n.color,
                ply,
            );
            f.call1(py, args)
                .and_then(|v| v.extract::<Option<i64>>(py))
                .map_err(failed)
        })
    };
    let leaf = match eval {
        Some(e) => Leaf::Built(e),
        None => Leaf::Custom(&custom),
    };
    let hooks = Hooks {
        poll: &poll,
        leaf,
        probe: calls
            .probe
            .as_ref()
            .map(|_| &probe as &dyn Fn(&Node<B>, i32) -> Result<Option<i64>, Error>),
        probe_pieces: if calls.probe.is_some() {
            calls.probe_pieces
        } else {
            0
        },
    };
    work(&hooks)
}

fn new_core<B: Bits>(_g: &Generator<B>, hash_size: usize) -> PyResult<Core<B>> {
    Ok(Core::new(hash_size))
}

/// The game's draw counts a search starts from: `(draw rules, root, move counts, since)`.
type DrawsAt<'py> = (Bound<'py, DrawRules>, Bound<'py, PyTuple>, Vec<u64>, u64);

/// The engine's recursion for one ruleset, with its transposition table (kept between searches,
/// at most `hash_size` entries: when full, the quarter written first goes).
#[pyclass(module = "draughts._native")]
pub struct Searcher {
    rules: Py<Rules>,
    core: AnyCore,
    calls: Calls,
}

/// Runs `$body` with `$g` the generator and `$s` the searcher of the same width (and `$e` the
/// evaluation, if any, of that width).
macro_rules! typed {
    ($self:expr, $py:expr, |$g:ident, $s:ident, $e:ident| $body:expr) => {{
        let rules = $self.rules.bind($py).get();
        let evaluation = $self.calls.evaluation.as_ref().map(|e| e.bind($py).get());
        match (&rules.engine, &mut $self.core) {
            (Engine::U64($g), Width::U64($s)) => {
                let $e = match evaluation.map(|e| &e.eval) {
                    Some(Width::U64(e)) => Some(e),
                    None => None,
                    _ => return Err(mismatch()),
                };
                $body
            }
            (Engine::U128($g), Width::U128($s)) => {
                let $e = match evaluation.map(|e| &e.eval) {
                    Some(Width::U128(e)) => Some(e),
                    None => None,
                    _ => return Err(mismatch()),
                };
                $body
            }
            (Engine::W4($g), Width::W4($s)) => {
                let $e = match evaluation.map(|e| &e.eval) {
                    Some(Width::W4(e)) => Some(e),
                    None => None,
                    _ => return Err(mismatch()),
                };
                $body
            }
            (Engine::W8($g), Width::W8($s)) => {
                let $e = match evaluation.map(|e| &e.eval) {
                    Some(Width::W8(e)) => Some(e),
                    None => None,
                    _ => return Err(mismatch()),
                };
                $body
            }
            (Engine::W11($g), Width::W11($s)) => {
                let $e = match evaluation.map(|e| &e.eval) {
                    Some(Width::W11(e)) => Some(e),
                    None => None,
                    _ => return Err(mismatch()),
                };
                $body
            }
            _ => return Err(mismatch()),
        }
    }};
}

/// Runs a search call without the GIL: `Ok(Some(score))`, `Ok(None)` when a limit stopped it.
fn detached<B: Bits>(
    py: Python<'_>,
    calls: &Calls,
    g: &Generator<B>,
    s: &mut Core<B>,
    e: Option<&Eval<B>>,
    work: impl FnOnce(&mut Core<B>, &Generator<B>, &Hooks<'_, B>) -> Result<i64, Halt> + Send,
) -> PyResult<Option<i64>> {
    let outcome = py.detach(|| {
        unwind_safe(|| {
            with_hooks(calls, e, |hooks| match work(s, g, hooks) {
                Ok(score) => Ok(Some(score)),
                Err(Halt::Stop) => Ok(None),
                Err(Halt::Fail(error)) => Err(error),
            })
        })
    });
    outcome.map_err(|fault| fault.into_py(py))
}

#[pymethods]
impl Searcher {
    /// An empty searcher of `rules` keeping at most `hash_size` table entries.
    #[new]
    fn new(rules: Bound<'_, Rules>, hash_size: usize) -> PyResult<Self> {
        let core = for_width!(&rules.get().engine, new_core(hash_size));
        Ok(Searcher {
            rules: rules.unbind(),
            core,
            calls: Calls {
                evaluation: None,
                leaf: None,
                poll: None,
                probe: None,
                probe_pieces: 0,
            },
        })
    }

    /// Starts a search: `seen` the game's earlier nodes (repetitions draw where `repetitions`),
    /// at most `max_nodes`, the evaluation (`evaluation`, or `leaf(own, opp, kings, color)`),
    /// `poll()` (true: stop), `probe(own, opp, kings, color, ply)` for nodes of at most
    /// `probe_pieces` pieces, and `draws`: `(draw_rules, root, move_counts, since)`, the game's
    /// draw counts at the root (what its `DrawCounter.counts()` gives), carried along each line so
    /// that a line the move-count and endgame rules draw scores 0 (None: not carried).
    #[pyo3(signature = (seen, max_nodes, repetitions, evaluation, leaf, poll, probe = None, probe_pieces = 0, draws = None))]
    #[allow(clippy::too_many_arguments)]
    fn begin(
        &mut self,
        py: Python<'_>,
        seen: Vec<Bound<'_, PyTuple>>,
        max_nodes: u64,
        repetitions: bool,
        evaluation: Option<Py<Evaluation>>,
        leaf: Option<Py<PyAny>>,
        poll: Option<Py<PyAny>>,
        probe: Option<Py<PyAny>>,
        probe_pieces: u32,
        draws: Option<DrawsAt<'_>>,
    ) -> PyResult<()> {
        if evaluation.is_none() && leaf.is_none() {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "a search needs an evaluation or a leaf function",
            ));
        }
        self.calls = Calls {
            evaluation,
            leaf,
            poll,
            probe,
            probe_pieces,
        };
        typed!(self, py, |g, s, _e| {
            let nodes = seen
                .iter()
                .map(|n| node_of(g, n))
                .collect::<PyResult<Vec<_>>>()?;
            let track = match &draws {
                None => None,
                Some((rules, root, counts, since)) => DrawTrack::new(
                    rules.get().spec.clone(),
                    &node_of(g, root)?,
                    counts,
                    *since,
                    TRACK_PLIES,
                )
                .map_err(|e| draughts_error(py, "InvalidPositionError", e.to_string()))?,
            };
            s.begin(&nodes, max_nodes, repetitions);
            s.track_draws(track);
            Ok(())
        })
    }

    /// The root's search of `node` over its legal `moves` (public order, not empty), after
    /// `begin`: iterative deepening to `max_depth`, root moves within `margin` of the best equally
    /// good (one chosen with `rng`), `multipv` moves scored exactly, `stopped()` read after each
    /// iteration. Returns `(chosen index, score, line after it, completed depth, nodes, lines)`,
    /// lines `(depth, [(index, score, line after it), ...])` of the last completed iteration or None.
    ///
    /// `threads` above 1 splits the root moves between that many searchers (each with its own
    /// table; see `draughts_core::parallel`); a leaf function (Python) keeps one thread.
    #[pyo3(signature = (node, moves, max_depth, margin, multipv, stopped, rng, threads = 1))]
    #[allow(clippy::too_many_arguments)]
    fn root<'py>(
        &mut self,
        py: Python<'py>,
        node: &Bound<'_, PyTuple>,
        moves: Vec<Bound<'_, PyAny>>,
        max_depth: i32,
        margin: i64,
        multipv: usize,
        stopped: Option<Py<PyAny>>,
        rng: &Bound<'_, crate::selfplay::Rng>,
        threads: usize,
    ) -> PyResult<Bound<'py, PyTuple>> {
        if moves.is_empty() {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "a root search needs a legal move",
            ));
        }
        let params = RootParams {
            max_depth,
            margin,
            multipv,
        };
        let mut state = rng.borrow().rng;
        let calls = &self.calls;
        typed!(self, py, |g, s, e| {
            let n = node_of(g, node)?;
            let compacts = moves
                .iter()
                .map(|m| compact_of(m))
                .collect::<PyResult<Vec<_>>>()?;
            let rng_state = &mut state;
            let threads = if e.is_some() { threads } else { 1 };
            let outcome = py.detach(|| {
                unwind_safe(|| {
                    let mut ask = || match stopped.as_ref() {
                        None => Ok(false),
                        Some(f) => Python::attach(|py| {
                            f.call0(py).and_then(|v| v.is_truthy(py)).map_err(failed)
                        }),
                    };
                    if threads <= 1 {
                        return with_hooks(calls, e, |hooks| {
                            root_search(g, s, hooks, &n, &compacts, &params, &mut ask, rng_state)
                        });
                    }
                    let each = |work: &mut dyn FnMut(&Hooks<'_, _>)| with_hooks(calls, e, work);
                    root_search_threads(
                        g, s, threads, &each, &n, &compacts, &params, &mut ask, rng_state,
                    )
                })
            });
            let answer = outcome.map_err(|fault| fault.into_py(py))?;
            rng.borrow_mut().rng = state;
            root_answer(py, &answer)
        })
    }

    /// The nodes of the last search's longest path: on several threads, each iteration's most
    /// nodes any one thread searched (what it costs in time when every thread has a core); on
    /// one thread, every node.
    fn critical_nodes(&mut self, py: Python<'_>) -> PyResult<u64> {
        typed!(self, py, |_g, s, _e| Ok(if s.critical > 0 {
            s.critical
        } else {
            s.nodes
        }))
    }

    /// Counts `node` as met once more (the root).
    fn see(&mut self, py: Python<'_>, node: &Bound<'_, PyTuple>) -> PyResult<()> {
        typed!(self, py, |g, s, _e| {
            s.see(&node_of(g, node)?);
            Ok(())
        })
    }

    /// The score of `node` searched `depth` plies (None: a limit stopped the search).
    fn search(
        &mut self,
        py: Python<'_>,
        node: &Bound<'_, PyTuple>,
        depth: i32,
        alpha: i64,
        beta: i64,
        ply: i32,
    ) -> PyResult<Option<i64>> {
        typed!(self, py, |g, s, e| {
            let n = node_of(g, node)?;
            detached(py, &self.calls, g, s, e, move |s, g, hooks| {
                s.search(g, hooks, &n, depth, alpha, beta, ply)
            })
        })
    }

    /// The quiescence score of `node` (None: a limit stopped the search).
    fn quiesce(
        &mut self,
        py: Python<'_>,
        node: &Bound<'_, PyTuple>,
        alpha: i64,
        beta: i64,
        ply: i32,
        threats: i32,
    ) -> PyResult<Option<i64>> {
        typed!(self, py, |g, s, e| {
            let n = node_of(g, node)?;
            detached(py, &self.calls, g, s, e, move |s, g, hooks| {
                s.quiesce(g, hooks, &n, alpha, beta, ply, threats)
            })
        })
    }

    /// The evaluation of `node` for its side to move (what the search's leaves read).
    fn leaf(&mut self, py: Python<'_>, node: &Bound<'_, PyTuple>) -> PyResult<i64> {
        typed!(self, py, |g, _s, e| {
            let n = node_of(g, node)?;
            match e {
                Some(e) => Ok(e.evaluate(n.own, n.opp, n.kings, n.color)),
                None => {
                    let f = self.calls.leaf.as_ref().ok_or_else(mismatch)?;
                    f.call1(
                        py,
                        (int(py, n.own)?, int(py, n.opp)?, int(py, n.kings)?, n.color),
                    )?
                    .extract(py)
                }
            }
        })
    }

    /// The principal variation found from `ply` (moves as `(moved, captured, crowned)`).
    fn pv<'py>(&mut self, py: Python<'py>, ply: usize) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        typed!(self, py, |_g, s, _e| {
            s.pvt
                .get(ply)
                .map(|line| line.iter().map(|m| py_compact(py, m)).collect())
                .unwrap_or(Ok(Vec::new()))
        })
    }

    /// The node after `move` (copy-make, the rule state updated).
    fn child<'py>(
        &mut self,
        py: Python<'py>,
        node: &Bound<'_, PyTuple>,
        r#move: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        typed!(self, py, |g, _s, _e| {
            let n = node_of(g, node)?;
            py_node(py, &g.play(&n, &compact_of(r#move)?))
        })
    }

    /// The table's entry of `node`: `(depth, score, flag, move or None)`, or None.
    fn entry<'py>(
        &mut self,
        py: Python<'py>,
        node: &Bound<'_, PyTuple>,
    ) -> PyResult<Option<Bound<'py, PyTuple>>> {
        typed!(self, py, |g, s, _e| {
            let Some(entry) = s.entry(&node_of(g, node)?) else {
                return Ok(None);
            };
            let best = entry.best.map(|m| py_compact(py, &m)).transpose()?;
            Ok(Some(
                (entry.depth, entry.score, entry.flag, best).into_pyobject(py)?,
            ))
        })
    }

    /// Keeps `score` for `node` in the table (the root's: no mate distance to adjust).
    fn store(
        &mut self,
        py: Python<'_>,
        node: &Bound<'_, PyTuple>,
        depth: i32,
        score: i64,
        flag: u8,
        r#move: Option<Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        typed!(self, py, |g, s, _e| {
            let n = node_of(g, node)?;
            let best = r#move.map(|m| compact_of(&m)).transpose()?;
            s.store(n, depth, score, flag, best, 0);
            Ok(())
        })
    }

    /// Nodes searched since `begin`.
    #[getter]
    fn nodes(&mut self, py: Python<'_>) -> PyResult<u64> {
        typed!(self, py, |_g, s, _e| Ok(s.nodes))
    }

    /// Forgets the transposition table.
    fn clear(&mut self, py: Python<'_>) -> PyResult<()> {
        typed!(self, py, |_g, s, _e| {
            s.clear();
            Ok(())
        })
    }

    fn __len__(&mut self, py: Python<'_>) -> PyResult<usize> {
        typed!(self, py, |_g, s, _e| Ok(s.len()))
    }
}

fn py_line<'py, B: Bits>(
    py: Python<'py>,
    line: &[draughts_core::state::Compact<B>],
) -> PyResult<Vec<Bound<'py, PyTuple>>> {
    line.iter().map(|m| py_compact(py, m)).collect()
}

/// The root's answer as Python reads it (see `Searcher.root`).
fn root_answer<'py, B: Bits>(py: Python<'py>, a: &RootAnswer<B>) -> PyResult<Bound<'py, PyTuple>> {
    let lines = match &a.completed {
        None => None,
        Some(done) => {
            let scored = done
                .scored
                .iter()
                .map(|(at, score, line)| Ok((*at, *score, py_line(py, line)?)))
                .collect::<PyResult<Vec<_>>>()?;
            Some((done.depth, scored))
        }
    };
    (
        a.chosen,
        a.score,
        py_line(py, &a.pv)?,
        a.depth,
        a.nodes,
        lines,
    )
        .into_pyobject(py)
}

// --- what the evaluation's tables are compiled from ------------------------------------------

type PySteps = Vec<(u8, u32, bool)>;

fn steps_of(list: &[draughts_core::tables::Step]) -> PySteps {
    list.iter().map(|s| (s.d, s.amount, s.up)).collect()
}

fn layout_of<'py, B: Bits>(py: Python<'py>, g: &Generator<B>) -> PyResult<Bound<'py, PyDict>> {
    let t = &g.tables;
    let out = PyDict::new(py);
    let pair =
        |list: &[Vec<draughts_core::tables::Step>; 2]| (steps_of(&list[0]), steps_of(&list[1]));
    out.set_item("man_moves", pair(&t.man_moves))?;
    out.set_item("king_moves", pair(&t.king_moves))?;
    out.set_item("man_captures", pair(&t.man_captures))?;
    out.set_item("king_captures", pair(&t.king_captures))?;
    let nbits = t.nbits() as u32;
    let rays = (0..8u8)
        .map(|d| {
            (0..nbits)
                .map(|i| int(py, t.ray(d, i)))
                .collect::<PyResult<Vec<_>>>()
        })
        .collect::<PyResult<Vec<_>>>()?;
    out.set_item("rays", rays)?;
    out.set_item("flying", t.flying)?;
    Ok(out)
}

/// The steps and rays of `rules` (what the evaluation's tables are compiled from): a dictionary
/// with `man_moves`, `king_moves`, `man_captures`, `king_captures` (per colour, `(direction,
/// amount, up)` per step), `rays` (per direction 0-7, per bit: the squares along it) and `flying`.
#[pyfunction]
fn layout<'py>(py: Python<'py>, rules: &Bound<'py, Rules>) -> PyResult<Bound<'py, PyDict>> {
    match &rules.get().engine {
        Engine::U64(g) => layout_of(py, g.as_ref()),
        Engine::U128(g) => layout_of(py, g.as_ref()),
        Engine::W4(g) => layout_of(py, g.as_ref()),
        Engine::W8(g) => layout_of(py, g.as_ref()),
        Engine::W11(g) => layout_of(py, g.as_ref()),
    }
}

/// Adds the classes and functions to the module `draughts._native`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Evaluation>()?;
    m.add_class::<Searcher>()?;
    m.add_function(wrap_pyfunction!(layout, m)?)?;
    Ok(())
}

//! The random-input harness's generators and checks, shared by the deterministic runs
//! (`tests/fuzz.rs`) and the coverage-guided fuzz target (`native/fuzz`, `cargo +nightly fuzz`).
//!
//! [`run_case`] draws one case from an [`Rng`] (a seed, or a fuzzer's bytes): a random
//! [`RulesSpec`], random nodes and random games on it, every invariant of `tests/fuzz.rs`'s
//! documentation checked with `assert!` (a broken one panics, which both drivers report).

#![allow(dead_code)]

use std::cell::Cell;
use std::collections::BTreeMap;
use std::sync::Arc;

use draughts_core::engine::{AnyCompact, AnyNode};
use draughts_core::geometry::Numbering;
use draughts_core::spec::{
    derived_precedence, directions, CaptureFacts, CapturePromotion, Criterion, KingLanding,
    Precedence, PrecedenceFacts, PrecedenceRule, RulesSpec,
};
use draughts_core::{Engine, Error};

/// Where the harness's choices come from: a seed (SplitMix64, the deterministic runs) or the
/// bytes a coverage-guided fuzzer gives (8 at a time, zeros once they run out, so that its
/// mutations change one choice at a time).
pub enum Rng<'a> {
    /// SplitMix64 from this state.
    Seeded(u64),
    /// The bytes left.
    Bytes(&'a [u8]),
}

impl Rng<'_> {
    fn next(&mut self) -> u64 {
        match self {
            Rng::Seeded(state) => {
                *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = *state;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                z ^ (z >> 31)
            }
            Rng::Bytes(bytes) => {
                let take = bytes.len().min(8);
                let mut word = [0u8; 8];
                word[..take].copy_from_slice(&bytes[..take]);
                *bytes = &bytes[take..];
                u64::from_le_bytes(word)
            }
        }
    }
    /// A number in `0..n` (`n > 0`).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// True one time in `n`.
    fn one_in(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }
    fn flip(&mut self) -> bool {
        self.next() & 1 == 1
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
    /// Random limbs with about one bit in `2^density` set.
    fn limbs(&mut self, n: usize, density: u32) -> Vec<u64> {
        (0..n)
            .map(|_| (0..density).fold(u64::MAX, |v, _| v & self.next()))
            .collect()
    }
}

// --- limbs as bitboards ---

fn limb(a: &[u64], i: usize) -> u64 {
    a.get(i).copied().unwrap_or(0)
}

fn zip(a: &[u64], b: &[u64], f: impl Fn(u64, u64) -> u64) -> Vec<u64> {
    (0..a.len().max(b.len()))
        .map(|i| f(limb(a, i), limb(b, i)))
        .collect()
}

fn popcount(a: &[u64]) -> u32 {
    a.iter().map(|v| v.count_ones()).sum()
}

fn same(a: &[u64], b: &[u64]) -> bool {
    (0..a.len().max(b.len())).all(|i| limb(a, i) == limb(b, i))
}

fn bit_limbs(index: u32) -> Vec<u64> {
    let mut out = vec![0; index as usize / 64 + 1];
    out[index as usize / 64] = 1 << (index % 64);
    out
}

// --- random rules ---

/// An external precedence rule of a given behaviour (deterministic for a given list of facts,
/// so that perft's different paths through the generator see the same answers).
struct Fuzzed {
    mode: u8,
}

impl Precedence for Fuzzed {
    fn best(&self, facts: &[CaptureFacts]) -> Result<Vec<bool>, Error> {
        let top = facts.iter().map(|f| f.pieces).max().unwrap_or(0);
        match self.mode {
            // Well behaved: the fewest pieces taken.
            0 => {
                let low = facts.iter().map(|f| f.pieces).min().unwrap_or(0);
                Ok(facts.iter().map(|f| f.pieces == low).collect())
            }
            // Well behaved: the most pieces, then kings earliest (reads the order).
            1 => {
                let best = facts
                    .iter()
                    .filter(|f| f.pieces == top)
                    .map(|f| f.order.clone())
                    .max();
                Ok(facts
                    .iter()
                    .map(|f| f.pieces == top && Some(&f.order) == best.as_ref())
                    .collect())
            }
            2 => Err(Error::Precedence("the rule fails".into())),
            3 => Ok(vec![true; facts.len() + 1]),
            4 => Ok(vec![false; facts.len()]),
            5 => Ok(Vec::new()),
            // Garbage but legal-looking: a pattern of the facts, maybe all false.
            _ => Ok(facts
                .iter()
                .map(|f| (f.pieces + f.kings + f.with_king as u32).is_multiple_of(2))
                .collect()),
        }
    }
}

const CRITERIA: [Criterion; 4] = [
    Criterion::MostPieces,
    Criterion::WithKing,
    Criterion::MostKings,
    Criterion::KingsEarliest,
];

fn random_directions(rng: &mut Rng<'_>) -> u8 {
    match rng.below(60) {
        0 => 0,
        1 => 32 | (rng.below(32) as u8),
        2..=4 => directions::ALL,
        5..=20 => rng.pick(&[
            directions::DIAGONAL_FORWARD,
            directions::DIAGONAL,
            directions::ORTHOGONAL_FORWARD | directions::ORTHOGONAL_SIDEWAYS,
            directions::ORTHOGONAL,
            directions::DIAGONAL_FORWARD | directions::ORTHOGONAL_FORWARD,
        ]),
        _ => 1 + rng.below(31) as u8,
    }
}

fn random_criteria(rng: &mut Rng<'_>) -> Vec<Criterion> {
    let mut list = Vec::new();
    for _ in 0..rng.below(4) {
        let c = if rng.one_in(4) {
            let weight = |rng: &mut Rng<'_>| rng.below(6) as u32 + u32::from(!rng.one_in(10));
            Criterion::MostValue {
                man: weight(rng),
                king: weight(rng),
            }
        } else {
            rng.pick(&CRITERIA)
        };
        if !list.contains(&c) || rng.one_in(8) {
            list.push(c);
        }
    }
    list
}

fn random_precedence(rng: &mut Rng<'_>, spec: RulesSpec) -> RulesSpec {
    let criteria = random_criteria(rng);
    let mut spec = spec.with_criteria(criteria.clone());
    if rng.one_in(5) {
        spec.precedence = PrecedenceRule::External(Arc::new(Fuzzed {
            mode: rng.below(7) as u8,
        }));
    }
    if rng.one_in(6) {
        // Facts that do not follow from the criteria (the bindings compute them; they may lie).
        let weights = |rng: &mut Rng<'_>| (rng.below(4) as u32, rng.below(4) as u32);
        spec.precedence_facts = PrecedenceFacts {
            value_weights: if rng.flip() { Some(weights(rng)) } else { None },
            single_jump_preference: rng.below(5) as i8 - 2,
            needs_order: rng.flip(),
        };
    } else if rng.one_in(10) {
        spec.precedence_facts = derived_precedence(&criteria);
    }
    if !matches!(spec.precedence, PrecedenceRule::External(_)) {
        // Built-in criteria or free choice: only `needs_order` may lie (the generator corrects
        // it). The engine trusts the value bound and the single-jump preference the facts give,
        // and lying ones made the lists and the counts disagree (case 0x4187be18edbf5f43 before
        // this line), so `RulesSpec::validate` refuses them (its unit test); the bindings derive
        // them from the criteria. (Reset after drawing: the stream of draws, and so every case's
        // seed, stays as it was.)
        let derived = derived_precedence(&criteria);
        spec.precedence_facts.value_weights = derived.value_weights;
        spec.precedence_facts.single_jump_preference = derived.single_jump_preference;
    }
    spec
}

fn random_spec(rng: &mut Rng<'_>) -> RulesSpec {
    let size = if rng.one_in(25) {
        rng.pick(&[0, 2, 3, 5, 9, 25, 27, 28, 40, u32::MAX])
    } else if rng.one_in(3) {
        4 + 2 * rng.below(4) as u32 // the small boards, where the trees are deep enough
    } else {
        4 + 2 * rng.below(12) as u32
    };
    // Rows of men that leave at least one empty row between the sides (sometimes not).
    let men_start_row = 1 + u32::from(rng.one_in(5)) * rng.below(3) as u32;
    let room = (size.min(28) / 2).saturating_sub(men_start_row).max(1);
    let rows_per_side = if rng.one_in(30) {
        rng.below(16) as u32
    } else {
        1 + rng.below(u64::from(room)) as u32
    };
    let all_squares = rng.one_in(6);
    let flying = rng.flip();
    let spec = RulesSpec {
        board_size: size,
        all_squares,
        bottom_left_playable: all_squares && !rng.one_in(20) || !all_squares && !rng.one_in(3),
        numbering: rng.pick(&[
            Numbering::TopLeft,
            Numbering::TopRight,
            Numbering::BottomLeft,
            Numbering::BottomRight,
        ]),
        rows_per_side,
        men_start_row,
        first_to_move: if rng.one_in(30) {
            2
        } else {
            rng.below(2) as u8
        },
        men_move: random_directions(rng),
        men_capture: random_directions(rng),
        kings_move: random_directions(rng),
        kings_capture: random_directions(rng),
        men_capture_kings: !rng.one_in(5),
        flying_kings: flying,
        king_landing: if flying || rng.one_in(20) {
            rng.pick(&[
                KingLanding::Anywhere,
                KingLanding::DirectlyBehind,
                KingLanding::BehindLastKing,
            ])
        } else {
            KingLanding::Anywhere
        },
        capture_promotion: rng.pick(&[
            CapturePromotion::EndsMove,
            CapturePromotion::ContinuesAsKing,
            CapturePromotion::OnlyAtEnd,
        ]),
        capture_mandatory: !rng.one_in(5),
        immediate_removal: rng.one_in(3),
        capture_reversal: rng.flip(),
        king_move_limit: match rng.below(12) {
            0..=6 => 0,
            7..=10 => 1 + rng.below(5),
            _ => rng.pick(&[1 << 40, (1 << 40) - 1, u64::MAX]),
        },
        no_move_wins: rng.one_in(6),
        crowning_wins: rng.one_in(10),
        ..RulesSpec::default()
    };
    random_precedence(rng, spec)
}

// --- random nodes ---

fn random_node(rng: &mut Rng<'_>, engine: &Engine) -> AnyNode {
    let board = engine.board();
    let width = board.len();
    let n = match rng.below(10) {
        0 => rng.below(width as u64 + 3) as usize,
        _ => width,
    };
    let density = 1 + rng.below(4) as u32;
    let mut own = rng.limbs(n, density);
    let mut opp = rng.limbs(n, density);
    let king_density = density + rng.below(2) as u32;
    let mut kings = rng.limbs(n, king_density);
    if !rng.one_in(5) {
        // Mostly nodes the rules accept: on the board, sides apart, kings owned.
        own = zip(&own, &board, |a, b| a & b);
        opp = zip(&zip(&opp, &board, |a, b| a & b), &own, |a, b| a & !b);
        kings = zip(&kings, &zip(&own, &opp, |a, b| a | b), |a, b| a & b);
    }
    let color = if rng.one_in(20) {
        2 + rng.below(254) as u8
    } else {
        rng.below(2) as u8
    };
    let state = random_state(rng, engine, &own, &kings, color);
    AnyNode {
        own,
        opp,
        kings,
        color,
        state,
    }
}

/// A rule state: mostly 0 or a valid count for one of the side's kings, sometimes garbage.
fn random_state(rng: &mut Rng<'_>, engine: &Engine, own: &[u64], kings: &[u64], color: u8) -> u128 {
    match rng.below(6) {
        0 => u128::from(rng.next()) << 64 | u128::from(rng.next()),
        1 | 2 if engine.king_move_limit() > 0 => {
            let own_kings = zip(own, kings, |a, b| a & b);
            let bits: Vec<u32> = (0..64 * own_kings.len() as u32)
                .filter(|&i| limb(&own_kings, i as usize / 64) >> (i % 64) & 1 == 1)
                .collect();
            let Some(&bit) = bits.get(rng.below(bits.len().max(1) as u64) as usize) else {
                return 0;
            };
            let square = engine.square_of_bit(bit).unwrap_or(0);
            let count = rng.below(engine.king_move_limit().min(8) + 2);
            engine.state_value(color, square, count).unwrap_or(0)
        }
        _ => 0,
    }
}

// --- the checks ---

/// What the harness counted (printed at the end; the note quotes the long run's).
#[derive(Default, Debug)]
pub struct Counts {
    /// Cases run.
    pub cases: u64,
    /// Specs the engine refused.
    pub specs_refused: u64,
    /// Engines built, by bitboard width.
    pub engines: BTreeMap<u32, u64>,
    /// Random nodes made.
    pub nodes: u64,
    /// Those the engine refused.
    pub nodes_refused: u64,
    /// Nodes whose lists were checked.
    pub positions_checked: u64,
    /// Moves played in the games.
    pub moves_played: u64,
    /// perft consistency checks.
    pub perft_checks: u64,
    /// Random masks `play` refused.
    pub junk_moves_refused: u64,
    /// Errors of valid nodes, by kind.
    pub errors: BTreeMap<&'static str, u64>,
}

impl Counts {
    fn error(&mut self, error: &Error) {
        let kind = match error {
            Error::InvalidSpec(_) => "InvalidSpec",
            Error::InvalidNode(_) => "InvalidNode",
            Error::InvalidMove(_) => "InvalidMove",
            Error::CaptureSearchLimit { .. } => "CaptureSearchLimit",
            Error::Interrupted(_) => "Interrupted",
            Error::Precedence(_) => "Precedence",
            Error::IllegalAction { .. } => "IllegalAction",
        };
        *self.errors.entry(kind).or_default() += 1;
    }
}

/// An abort hook that stops after `calls` calls (bounds the work of one call: a 26x26 flood).
struct Budget(Cell<u32>);

impl Budget {
    fn new(calls: u32) -> Self {
        Budget(Cell::new(calls))
    }
    fn hook(&self) -> impl Fn() -> Result<(), Error> + '_ {
        move || {
            let left = self.0.get();
            self.0.set(left.saturating_sub(1));
            if left == 0 {
                Err(Error::Interrupted("the harness's budget".into()))
            } else {
                Ok(())
            }
        }
    }
}

/// Checks one legal move's form against the node it was generated in.
fn check_move(engine: &Engine, node: &AnyNode, m: &draughts_core::engine::AnyMove) {
    let squares = engine.layout().geometry.squares();
    assert_eq!(
        m.path.first(),
        Some(&m.start),
        "path starts at start: {m:?}"
    );
    assert_eq!(m.path.last(), Some(&m.end), "path ends at end: {m:?}");
    assert!(m.path.iter().all(|&s| (1..=squares).contains(&s)), "{m:?}");
    assert_eq!(
        m.captured.len() as u32,
        popcount(&m.compact.captured),
        "{m:?}"
    );
    for &s in &m.captured {
        let bit = engine
            .bit_of_square(s)
            .expect("a captured square is on the board");
        assert!(
            same(&zip(&bit_limbs(bit), &node.opp, |a, b| a & !b), &[]),
            "{m:?}"
        );
    }
    let start = bit_limbs(engine.bit_of_square(m.start).expect("start on the board"));
    let end = bit_limbs(engine.bit_of_square(m.end).expect("end on the board"));
    assert!(
        same(&zip(&start, &node.own, |a, b| a & !b), &[]),
        "{m:?} starts on an own piece"
    );
    assert!(
        same(&m.compact.moved, &zip(&start, &end, |a, b| a ^ b)),
        "{m:?}"
    );
}

/// Checks a child against its parent: sides swapped, the captured pieces gone.
fn check_child(engine: &Engine, node: &AnyNode, mv: &AnyCompact, child: &AnyNode) {
    engine
        .check(child)
        .expect("a legal move leads to a valid node");
    assert_eq!(child.color, 1 - node.color);
    assert!(same(&child.opp, &zip(&node.own, &mv.moved, |a, b| a ^ b)));
    assert!(same(
        &child.own,
        &zip(&node.opp, &mv.captured, |a, b| a ^ b)
    ));
    assert_eq!(
        popcount(&child.own) + popcount(&mv.captured),
        popcount(&node.opp)
    );
}

fn sorted(mut list: Vec<AnyCompact>) -> Vec<AnyCompact> {
    let key = |c: &AnyCompact| (c.moved.clone(), c.captured.clone(), c.crowned.clone());
    list.sort_by_key(key);
    list
}

/// The move-list invariants of a valid node, in both conventions; the moves with every path.
fn check_lists(
    engine: &Engine,
    node: &AnyNode,
    mandatory: bool,
    counts: &mut Counts,
) -> Option<Vec<AnyCompact>> {
    let mut lists = Vec::new();
    for paths in [false, true] {
        let (a, b, c) = (Budget::new(64), Budget::new(64), Budget::new(64));
        let (legal_hook, moves_hook, count_hook) = (a.hook(), b.hook(), c.hook());
        let legal = match engine.legal(node, paths, Some(&legal_hook)) {
            Ok(legal) => legal,
            Err(error) => {
                assert!(!matches!(error, Error::InvalidNode(_)), "{error:?}");
                counts.error(&error);
                return None;
            }
        };
        // The same work as `legal` (a fresh budget each): it succeeds too.
        let moves = engine
            .moves(node, paths, Some(&moves_hook))
            .expect("moves after legal");
        let count = engine
            .count1(node, paths, Some(&count_hook))
            .expect("count after legal");
        assert_eq!(legal.len(), moves.len());
        assert_eq!(count, moves.len() as u64);
        let compacts: Vec<AnyCompact> = legal.iter().map(|m| m.compact.clone()).collect();
        assert_eq!(
            sorted(compacts),
            sorted(moves.clone()),
            "legal and moves differ"
        );
        for m in &legal {
            check_move(engine, node, m);
        }
        lists.push(moves);
    }
    assert!(
        lists[0].len() <= lists[1].len(),
        "dedup lists more than paths"
    );
    let budget = Budget::new(64);
    if let Ok(captures) = engine.captures(node, Some(&budget.hook())) {
        let can = engine.can_capture(node).expect("a valid node");
        assert_eq!(can, !captures.is_empty(), "can_capture and captures differ");
        let all_capture = lists[1].iter().all(|m| popcount(&m.captured) > 0);
        if can && !lists[1].is_empty() && mandatory {
            assert!(all_capture, "a quiet move while a capture is mandatory");
        }
    }
    counts.positions_checked += 1;
    lists.pop()
}

/// perft consistency at `depth` in both conventions (skipped when a call runs out of budget).
fn check_perft(engine: &Engine, node: &AnyNode, depth: u32, counts: &mut Counts) {
    for paths in [false, true] {
        let budget = Budget::new(256);
        let hook = budget.hook();
        let Ok(total) = engine.perft(node, depth, paths, Some(&hook)) else {
            continue;
        };
        if depth == 1 {
            assert_eq!(Ok(total), engine.count1(node, paths, None));
        }
        if depth == 2 {
            assert_eq!(Ok(total), engine.count2(node, paths, None));
        }
        let moves = engine.moves(node, paths, None).expect("perft succeeded");
        let mut sum = 0;
        for mv in &moves {
            let child = engine.play(node, mv).expect("a generated move plays");
            sum += engine
                .perft(&child, depth - 1, paths, None)
                .expect("the children of a counted node count");
        }
        assert_eq!(total, sum, "perft {depth} is not the sum over the children");
        let divided = engine.divide(node, depth, paths, None).expect("divide");
        assert_eq!(total, divided.iter().map(|(_, n)| n).sum::<u64>());
        counts.perft_checks += 1;
    }
}

/// A random game from `node`: lists checked at every ply, perft checked at some, junk moves refused.
fn random_game(
    rng: &mut Rng<'_>,
    engine: &Engine,
    mut node: AnyNode,
    plies: u32,
    mandatory: bool,
    counts: &mut Counts,
) {
    for ply in 0..plies {
        let Some(moves) = check_lists(engine, &node, mandatory, counts) else {
            return;
        };
        if ply % 7 == 0 {
            let depth = 1 + rng.below(if moves.len() > 12 { 2 } else { 3 }) as u32;
            check_perft(engine, &node, depth, counts);
        }
        if rng.one_in(4) {
            let n = node.own.len().max(1);
            let junk = AnyCompact {
                moved: rng.limbs(n, 4),
                captured: rng.limbs(n, 4),
                crowned: rng.limbs(n, 4),
            };
            if let Err(error) = engine.play(&node, &junk) {
                assert!(
                    matches!(error, Error::InvalidNode(_) | Error::InvalidMove(_)),
                    "{error:?}"
                );
                counts.junk_moves_refused += 1;
            }
        }
        if moves.is_empty() {
            return;
        }
        let mv = &moves[rng.below(moves.len() as u64) as usize];
        let child = engine.play(&node, mv).expect("a legal move plays");
        check_child(engine, &node, mv, &child);
        counts.moves_played += 1;
        node = child;
    }
}

/// One case: a random spec, then random nodes and games on it (panics on a broken invariant).
pub fn run_case(rng: &mut Rng<'_>, counts: &mut Counts) {
    let spec = random_spec(rng);
    if std::env::var_os("FUZZ_VERBOSE").is_some() {
        eprintln!("{spec:#?}");
    }
    counts.cases += 1;
    let engine = match Engine::new(&spec) {
        Ok(engine) => engine,
        Err(error) => {
            assert!(matches!(error, Error::InvalidSpec(_)), "{error:?}");
            counts.specs_refused += 1;
            return;
        }
    };
    let mandatory = spec.capture_mandatory && !spec.crowning_wins;
    *counts.engines.entry(engine.width()).or_default() += 1;
    let small = engine.layout().geometry.squares() <= 64;
    random_game(
        rng,
        &engine,
        engine.start(),
        if small { 40 } else { 12 },
        mandatory,
        counts,
    );
    for _ in 0..if small { 4 } else { 2 } {
        let node = random_node(rng, &engine);
        counts.nodes += 1;
        match engine.check(&node) {
            Ok(()) => random_game(rng, &engine, node.clone(), 6, mandatory, counts),
            Err(error) => {
                assert!(matches!(error, Error::InvalidNode(_)), "{error:?}");
                counts.nodes_refused += 1;
                let refused = engine.legal(&node, rng.flip(), None);
                assert!(matches!(refused, Err(Error::InvalidNode(_))), "{refused:?}");
                assert!(engine.perft(&node, 2, false, None).is_err());
            }
        }
        let _ = engine.canonical(&node.own, &node.opp, &node.kings, node.state);
        let _ = engine.king_moves(node.state, node.color);
        let _ = engine.state_value(node.color, rng.below(800) as u32, rng.below(10));
        let _ = engine.square_of_bit(rng.below(1000) as u32);
        let _ = engine.bit_of_square(rng.below(1000) as u32);
    }
}

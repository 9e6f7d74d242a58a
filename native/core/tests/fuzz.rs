//! A deterministic random-input harness over the crate's public entry points (issue 37 §3).
//!
//! Each case builds a random [`RulesSpec`] (every rule dimension, boards of 4 to 26 squares a
//! side and some out of range, random precedence: built-in criteria in random order, random
//! derived facts, an external rule that answers well, fails, or answers garbage), then random
//! nodes (random bitboards of any length, kings, colours and rule states, valid or not) and
//! random games from the start and from those nodes, and checks at every step:
//!
//! * no panic anywhere (each case runs under `catch_unwind`; a failure names its seed);
//! * a spec the engine refuses is refused with [`Error::InvalidSpec`], a node with
//!   [`Error::InvalidNode`], a move with [`Error::InvalidMove`];
//! * the move lists agree: `legal`, `moves` and `count1` in each duplicate convention, the
//!   de-duplicated list no longer than the one with every path, `captures` and `can_capture`;
//! * every legal move is well formed (path from start to end, one captured square per captured
//!   bit, masks that fit the node) and plays to a valid node with the sides swapped and exactly
//!   its captured pieces gone;
//! * perft is consistent: depth 1 and 2 equal the bulk counts, each depth equals the sum over
//!   the children (and over `divide`), in both conventions.
//!
//! `cargo test --release --test fuzz` runs a short fixed-seed mode; the long mode is ignored by
//! default: `FUZZ_CASES=1000000 cargo test --release --test fuzz -- --ignored --nocapture`
//! (`FUZZ_SEED` picks another seed, `FUZZ_CASES` the count, `FUZZ_SECONDS` stops it after that
//! much wall time). The counts it prints go in the note; `FUZZ_CASE=0x.. cargo test
//! --release --test fuzz one_case` replays a failing case with its panic.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use draughts_core::engine::{AnyCompact, AnyNode};
use draughts_core::geometry::Numbering;
use draughts_core::spec::{
    derived_precedence, directions, CaptureFacts, CapturePromotion, Criterion, KingLanding,
    Precedence, PrecedenceFacts, PrecedenceRule, RulesSpec,
};
use draughts_core::{Engine, Error};

/// SplitMix64: small, deterministic, good enough to spread the cases.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
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

fn random_directions(rng: &mut Rng) -> u8 {
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

fn random_criteria(rng: &mut Rng) -> Vec<Criterion> {
    let mut list = Vec::new();
    for _ in 0..rng.below(4) {
        let c = if rng.one_in(4) {
            let weight = |rng: &mut Rng| rng.below(6) as u32 + u32::from(!rng.one_in(10));
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

fn random_precedence(rng: &mut Rng, spec: RulesSpec) -> RulesSpec {
    let criteria = random_criteria(rng);
    let mut spec = spec.with_criteria(criteria.clone());
    if rng.one_in(5) {
        spec.precedence = PrecedenceRule::External(Arc::new(Fuzzed {
            mode: rng.below(7) as u8,
        }));
    }
    if rng.one_in(6) {
        // Facts that do not follow from the criteria (the bindings compute them; they may lie).
        let weights = |rng: &mut Rng| (rng.below(4) as u32, rng.below(4) as u32);
        spec.precedence_facts = PrecedenceFacts {
            value_weights: if rng.flip() { Some(weights(rng)) } else { None },
            single_jump_preference: rng.below(5) as i8 - 2,
            needs_order: rng.flip(),
        };
    } else if rng.one_in(10) {
        spec.precedence_facts = derived_precedence(&criteria);
    }
    spec
}

fn random_spec(rng: &mut Rng) -> RulesSpec {
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

fn random_node(rng: &mut Rng, engine: &Engine) -> AnyNode {
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
fn random_state(rng: &mut Rng, engine: &Engine, own: &[u64], kings: &[u64], color: u8) -> u128 {
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
struct Counts {
    cases: u64,
    specs_refused: u64,
    engines: BTreeMap<u32, u64>,
    nodes: u64,
    nodes_refused: u64,
    positions_checked: u64,
    moves_played: u64,
    perft_checks: u64,
    junk_moves_refused: u64,
    errors: BTreeMap<&'static str, u64>,
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
fn check_lists(engine: &Engine, node: &AnyNode, counts: &mut Counts) -> Option<Vec<AnyCompact>> {
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
        if can && !lists[1].is_empty() && engine_mandatory(engine) {
            assert!(all_capture, "a quiet move while a capture is mandatory");
        }
    }
    counts.positions_checked += 1;
    lists.pop()
}

thread_local! {
    static MANDATORY: Cell<bool> = const { Cell::new(true) };
}

fn engine_mandatory(_: &Engine) -> bool {
    MANDATORY.with(Cell::get)
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
fn random_game(rng: &mut Rng, engine: &Engine, mut node: AnyNode, plies: u32, counts: &mut Counts) {
    for ply in 0..plies {
        let Some(moves) = check_lists(engine, &node, counts) else {
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

/// One case: a random spec, then random nodes and games on it.
fn run_case(seed: u64, counts: &mut Counts) {
    let mut rng = Rng(seed);
    let spec = random_spec(&mut rng);
    counts.cases += 1;
    let engine = match Engine::new(&spec) {
        Ok(engine) => engine,
        Err(error) => {
            assert!(matches!(error, Error::InvalidSpec(_)), "{error:?}");
            counts.specs_refused += 1;
            return;
        }
    };
    MANDATORY.with(|m| m.set(spec.capture_mandatory && !spec.crowning_wins));
    *counts.engines.entry(engine.width()).or_default() += 1;
    let small = engine.layout().geometry.squares() <= 64;
    random_game(
        &mut rng,
        &engine,
        engine.start(),
        if small { 40 } else { 12 },
        counts,
    );
    for _ in 0..if small { 4 } else { 2 } {
        let node = random_node(&mut rng, &engine);
        counts.nodes += 1;
        match engine.check(&node) {
            Ok(()) => random_game(&mut rng, &engine, node.clone(), 6, counts),
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

/// Runs `cases` cases from `seed` (stopping early after `seconds` of wall time, if given: the
/// long mode's budget, never an assertion); panics naming the seeds of the failing cases.
fn fuzz(seed: u64, cases: u64, seconds: Option<u64>) -> Counts {
    let mut counts = Counts::default();
    let mut failures = Vec::new();
    let quiet = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let began = std::time::Instant::now();
    for i in 0..cases {
        if seconds.is_some_and(|limit| began.elapsed().as_secs() >= limit) {
            break;
        }
        let case = seed ^ i.wrapping_mul(0xA24B_AED4_963E_E407);
        if let Err(payload) = catch_unwind(AssertUnwindSafe(|| run_case(case, &mut counts))) {
            let text = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            failures.push(format!("case seed {case:#x}: {text}"));
            if failures.len() >= 10 {
                break;
            }
        }
    }
    std::panic::set_hook(quiet);
    println!("{counts:#?}");
    assert!(
        failures.is_empty(),
        "{} failing cases:\n{}",
        failures.len(),
        failures.join("\n")
    );
    counts
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|text| {
            let text = text.trim();
            match text.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16).ok(),
                None => text.parse().ok(),
            }
        })
        .unwrap_or(default)
}

#[test]
fn short_fuzz_of_the_entry_points() {
    let counts = fuzz(env_u64("FUZZ_SEED", 0x5EED), 200, None);
    // The generator reaches every part of the input space it means to.
    assert!(
        counts.specs_refused > 20 && counts.specs_refused < 150,
        "{counts:?}"
    );
    assert!(counts.engines.len() >= 3, "{counts:?}");
    assert!(
        counts.nodes_refused > 20 && counts.nodes > 2 * counts.nodes_refused,
        "{counts:?}"
    );
    assert!(
        counts.moves_played > 1500 && counts.perft_checks > 500,
        "{counts:?}"
    );
    assert!(counts.errors.contains_key("Precedence"), "{counts:?}");
}

#[test]
#[ignore = "long: FUZZ_CASES=1000000 [FUZZ_SECONDS=3600] cargo test --release --test fuzz -- --ignored --nocapture"]
fn long_fuzz_of_the_entry_points() {
    fuzz(
        env_u64("FUZZ_SEED", 0x10_0000),
        env_u64("FUZZ_CASES", 100_000),
        std::env::var("FUZZ_SECONDS")
            .ok()
            .map(|_| env_u64("FUZZ_SECONDS", 0)),
    );
}

#[test]
fn one_case_by_its_seed() {
    // Replays one case (FUZZ_CASE=0x..) with its panic message, or case 0 by default.
    let mut counts = Counts::default();
    run_case(env_u64("FUZZ_CASE", 0), &mut counts);
    assert_eq!(counts.cases, 1);
}

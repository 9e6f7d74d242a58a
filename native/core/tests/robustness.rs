//! Total functions: random input (valid or not) never panics; invalid specs and nodes are
//! refused with errors; the abort hook stops a long search; the work bound holds.

mod common;

use std::cell::Cell;

use common::engines;
use draughts_core::engine::{AnyCompact, AnyNode};
use draughts_core::spec::{CapturePromotion, Criterion, KingLanding, RulesSpec};
use draughts_core::{Engine, Error};

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn limbs(&mut self, n: usize, density: u64) -> Vec<u64> {
        (0..n)
            .map(|_| {
                let mut v = u64::MAX;
                for _ in 0..density {
                    v &= self.next();
                }
                v
            })
            .collect()
    }
}

#[test]
fn random_nodes_and_moves_never_panic() {
    let all = engines();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut answered = 0;
    let mut refused = 0;
    let mut names: Vec<&String> = all.keys().collect();
    names.sort();
    for name in names {
        let (_, engine) = &all[name];
        let limbs = (engine.width() / 64) as usize + (rng.next() % 2) as usize;
        for _ in 0..150 {
            let board = engine.board();
            let density = 2 + rng.next() % 3;
            let mut own = rng.limbs(limbs, density);
            let mut opp = rng.limbs(limbs, density);
            let mut kings = rng.limbs(limbs, density);
            if !rng.next().is_multiple_of(4) {
                // Mostly valid-looking nodes: on the board, sides apart, kings owned.
                for i in 0..limbs {
                    let b = board.get(i).copied().unwrap_or(0);
                    own[i] &= b;
                    opp[i] &= b & !own[i];
                    kings[i] &= own[i] | opp[i];
                }
            }
            let node = AnyNode {
                own,
                opp,
                kings,
                color: (rng.next() % 3) as u8,
                state: if rng.next().is_multiple_of(3) {
                    rng.next() as u128
                } else {
                    0
                },
            };
            let guard = Cell::new(0u32);
            let hook = || {
                guard.set(guard.get() + 1);
                if guard.get() > 8 {
                    Err(Error::Interrupted("enough".into()))
                } else {
                    Ok(())
                }
            };
            match engine.legal(&node, rng.next().is_multiple_of(2), Some(&hook)) {
                Ok(moves) => {
                    answered += 1;
                    let _ = engine.count2(&node, false, Some(&hook));
                    let _ = engine.can_capture(&node);
                    for m in moves.iter().take(3) {
                        let next = engine.play(&node, &m.compact).expect("a legal move plays");
                        engine
                            .check(&next)
                            .expect("the node after a legal move is valid");
                    }
                    let junk = AnyCompact {
                        moved: rng.limbs(limbs, 3),
                        captured: rng.limbs(limbs, 3),
                        crowned: rng.limbs(limbs, 3),
                    };
                    let _ = engine.play(&node, &junk);
                }
                Err(_) => refused += 1,
            }
            let _ = engine.king_moves(rng.next() as u128, (rng.next() % 3) as u8);
            let _ = engine.state_value(
                (rng.next() % 3) as u8,
                (rng.next() % 800) as u32,
                rng.next() % 5,
            );
            let _ = engine.canonical(&node.own, &node.opp, &node.kings, node.state);
            let _ = engine.square_of_bit((rng.next() % 1000) as u32);
        }
    }
    assert!(
        answered > 1000 && refused > 100,
        "{answered} answered, {refused} refused"
    );
}

#[test]
fn impossible_specs_are_refused() {
    let good = RulesSpec::default();
    let cases = [
        RulesSpec {
            board_size: 7,
            ..good.clone()
        },
        RulesSpec {
            board_size: 0,
            ..good.clone()
        },
        RulesSpec {
            board_size: 28,
            ..good.clone()
        },
        RulesSpec {
            rows_per_side: 0,
            ..good.clone()
        },
        RulesSpec {
            rows_per_side: 4,
            ..good.clone()
        },
        RulesSpec {
            men_start_row: 0,
            ..good.clone()
        },
        RulesSpec {
            men_capture: 0,
            ..good.clone()
        },
        RulesSpec {
            kings_move: 64,
            ..good.clone()
        },
        RulesSpec {
            first_to_move: 2,
            ..good.clone()
        },
        RulesSpec {
            king_landing: KingLanding::BehindLastKing,
            ..good.clone()
        },
        RulesSpec {
            all_squares: true,
            bottom_left_playable: false,
            ..good.clone()
        },
        RulesSpec {
            king_move_limit: u64::MAX,
            ..good.clone()
        },
        good.clone()
            .with_criteria(vec![Criterion::MostPieces, Criterion::MostPieces]),
        good.clone()
            .with_criteria(vec![Criterion::MostValue { man: 0, king: 1 }]),
    ];
    for spec in cases {
        assert!(
            matches!(Engine::new(&spec), Err(Error::InvalidSpec(_))),
            "{spec:?}"
        );
    }
    assert!(Engine::new(&good).is_ok());
}

/// A man in the corner of a big board facing a lattice of enemy men (a flood of capture paths).
fn lattice(size: u32) -> (Engine, AnyNode) {
    let spec = RulesSpec {
        board_size: size,
        rows_per_side: size / 2 - 1,
        men_capture: draughts_core::spec::directions::DIAGONAL,
        flying_kings: true,
        capture_promotion: CapturePromotion::ContinuesAsKing,
        ..RulesSpec::default()
    };
    let engine = Engine::new(&spec).unwrap();
    let geometry = engine.layout().geometry.clone();
    let set = |limbs: &mut Vec<u64>, bit: u32| {
        let i = (bit / 64) as usize;
        if limbs.len() <= i {
            limbs.resize(i + 1, 0);
        }
        limbs[i] |= 1 << (bit % 64);
    };
    let mut own = Vec::new();
    let mut opp = Vec::new();
    let corner = geometry.square_at(0, 0).unwrap();
    set(&mut own, engine.bit_of_square(corner).unwrap());
    for x in (1..size as i32).step_by(2) {
        for y in (1..size as i32 - 1).step_by(2) {
            let square = geometry.square_at(x, y).unwrap();
            set(&mut opp, engine.bit_of_square(square).unwrap());
        }
    }
    (
        engine,
        AnyNode {
            own,
            opp,
            kings: vec![0],
            color: 0,
            state: 0,
        },
    )
}

#[test]
fn the_abort_hook_stops_a_flood() {
    let (engine, node) = lattice(14);
    let calls = Cell::new(0);
    let hook = || {
        calls.set(calls.get() + 1);
        if calls.get() >= 2 {
            Err(Error::Interrupted("time is up".into()))
        } else {
            Ok(())
        }
    };
    let result = engine.legal(&node, true, Some(&hook));
    assert_eq!(result, Err(Error::Interrupted("time is up".into())));
    assert_eq!(calls.get(), 2);
}

#[test]
fn a_flood_too_big_to_list_hits_the_work_bound() {
    let (engine, node) = lattice(18);
    match engine.legal(&node, true, None) {
        Err(Error::CaptureSearchLimit { square, limit }) => {
            assert_eq!(limit, 1_000_000);
            assert_eq!(Some(square), engine.layout().geometry.square_at(0, 0));
        }
        other => panic!("expected the work bound, got {:?}", other.map(|m| m.len())),
    }
}

#[test]
fn the_typed_generator_never_panics_on_unchecked_nodes() {
    use draughts_core::state::Node;
    let all = engines();
    let mut rng = Rng(12345);
    for (_, engine) in all.values() {
        let Engine::U64(g) = engine else {
            continue;
        };
        for _ in 0..200 {
            let node = Node {
                own: rng.next() & rng.next(),
                opp: rng.next() & rng.next(),
                kings: rng.next() & rng.next(),
                color: (rng.next() % 256) as u8,
                state: (rng.next() as u128) << 64 | rng.next() as u128,
            };
            let stop = Cell::new(0u32);
            let hook = || {
                stop.set(stop.get() + 1);
                if stop.get() > 4 {
                    Err(Error::Interrupted("enough".into()))
                } else {
                    Ok(())
                }
            };
            let _ = g.legal(&node, true, Some(&hook));
            let _ = g.moves(&node, false, Some(&hook));
            let _ = g.count2(&node, false, Some(&hook));
            let _ = g.can_capture(&node);
            let _ = g.captures(&node, Some(&hook));
            let _ = g.quiet_list(&node);
        }
    }
}

//! Every fixture ruleset compiles to Python's exact bit layout, board, crown rows and start men.

mod common;

use common::{engines, limbs};

#[test]
fn every_ruleset_has_pythons_layout() {
    let all = engines();
    assert!(all.len() >= 30);
    for (name, (v, engine)) in &all {
        let bits: Vec<u32> = v["bit_of_square"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b.as_u64().unwrap() as u32)
            .collect();
        for (i, &bit) in bits.iter().enumerate() {
            let square = i as u32 + 1;
            assert_eq!(
                engine.bit_of_square(square),
                Some(bit),
                "{name} square {square}"
            );
            assert_eq!(engine.square_of_bit(bit), Some(square), "{name} bit {bit}");
        }
        assert_eq!(engine.bit_of_square(0), None);
        assert_eq!(engine.bit_of_square(bits.len() as u32 + 1), None);
        let trim = |mut l: Vec<u64>| {
            while l.len() > 1 && *l.last().unwrap() == 0 {
                l.pop();
            }
            l
        };
        assert_eq!(
            trim(engine.board()),
            limbs(v["board"].as_str().unwrap()),
            "{name} board"
        );
        let crowns = engine.crown_rows();
        for c in 0..2 {
            assert_eq!(
                trim(crowns[c].clone()),
                limbs(v["crown_rows"][c].as_str().unwrap()),
                "{name} crown {c}"
            );
        }
        let start = engine.start();
        let first = v["first_to_move"].as_u64().unwrap() as usize;
        assert_eq!(start.color as usize, first);
        assert_eq!(
            trim(start.own),
            limbs(v["start_men"][first].as_str().unwrap()),
            "{name} start"
        );
        assert_eq!(
            trim(start.opp),
            limbs(v["start_men"][1 - first].as_str().unwrap()),
            "{name} start"
        );
    }
}

#[test]
fn widths_follow_the_layout() {
    let all = engines();
    let width = |name: &str| all[name].1.width();
    assert_eq!(width("international"), 64);
    assert_eq!(width("frisian"), 64);
    assert_eq!(width("american"), 64);
    assert_eq!(width("turkish"), 128);
    assert_eq!(width("canadian"), 128);
    assert_eq!(width("custom-14"), 128);
    assert_eq!(width("custom-18"), 256);
    assert_eq!(width("custom-turkish-26"), 704);
}

#[test]
fn divide_adds_up_to_perft() {
    let all = engines();
    for name in ["international", "frisian", "turkish", "custom-12-limit"] {
        let engine = &all[name].1;
        let start = engine.start();
        let parts = engine.divide(&start, 4, true, None).unwrap();
        let total: u64 = parts.iter().map(|(_, n)| n).sum();
        assert_eq!(
            total,
            engine.perft(&start, 4, true, None).unwrap(),
            "{name}"
        );
        let legal = engine.legal(&start, true, None).unwrap();
        assert_eq!(
            parts.iter().map(|(m, _)| m.clone()).collect::<Vec<_>>(),
            legal
        );
    }
}

#[test]
fn rule_state_helpers_round_trip() {
    let all = engines();
    let engine = &all["frisian"].1;
    assert_eq!(engine.king_move_limit(), 3);
    let state = engine.state_value(1, 28, 2).unwrap();
    assert_eq!(engine.king_moves(state, 1), Some((28, 2)));
    assert_eq!(engine.king_moves(state, 0), None);
    assert!(engine.state_value(0, 28, 4).is_err());
    assert!(engine.state_value(0, 51, 1).is_err());
    assert!(all["international"].1.state_value(0, 28, 1).is_err());
    // Black has a king on 28 and a man: the count stays; without the king, it goes.
    let bit = |square: u32| {
        let b = engine.bit_of_square(square).unwrap();
        let mut limbs = vec![0u64; 1];
        limbs[0] |= 1 << b;
        limbs
    };
    let black = vec![bit(28)[0] | bit(1)[0]];
    let white = bit(50);
    assert_eq!(
        engine.canonical(&white, &black, &bit(28), state).unwrap(),
        state
    );
    assert_eq!(engine.canonical(&white, &black, &[0], state).unwrap(), 0);
}

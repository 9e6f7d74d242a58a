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

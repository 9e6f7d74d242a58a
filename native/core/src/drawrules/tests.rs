//! Unit tests of the draw rules (beside `drawrules.rs`, which they would push over 800 lines).
use super::*;
use std::convert::Infallible;

fn spec() -> DrawSpec {
    DrawSpec {
        repetitions: 3,
        move_counts: vec![MoveCountRule {
            moves: 2,
            resets: events::MAN_MOVED | events::CAPTURE,
            claim: false,
        }],
        endgames: vec![EndgameRule {
            moves: 1,
            strong: vec![(3, 0)],
            weak: vec![(1, 0)],
            weak_king_on_main_diagonal: true,
            ..EndgameRule::default()
        }],
        limbs: 1,
        main_diagonal: vec![0b1001],
        ..DrawSpec::default()
    }
}

fn facts(spec: &DrawSpec, white: u64, black: u64, kings: u64, color: u8) -> Facts {
    let (own, opp) = if color == 0 {
        (white, black)
    } else {
        (black, white)
    };
    spec.facts(&[own], &[opp], &[kings], color, 0).unwrap()
}

fn never() -> impl FnMut() -> Result<bool, Infallible> {
    || Ok(false)
}

#[test]
fn the_hash_is_the_xor_of_keys_and_follows_moves() {
    let h = hash(&[0b11], &[0b100], &[0b1], 0, 0);
    assert_eq!(h, key(0, 0) ^ key(0, 1) ^ key(1, 2) ^ key(2, 0));
    // A white man from bit 1 to bit 5: xor its two keys.
    let moved = hash(&[0b10_0001], &[0b100], &[0b1], 0, 0);
    assert_eq!(moved, h ^ key(0, 1) ^ key(0, 5));
    assert_ne!(hash(&[0b11], &[0b100], &[0b1], 1, 0), h);
    assert_ne!(hash(&[0b11], &[0b100], &[0b1], 0, 7), h);
    // Own and opponent pieces are mapped to White and Black by the side to move.
    let s = spec();
    assert_eq!(
        s.facts(&[0b100], &[0b11], &[0b1], 1, 0).unwrap().frame.hash,
        hash(&[0b11], &[0b100], &[0b1], 1, 0)
    );
}

#[test]
fn the_keys_are_distinct() {
    let mut keys: Vec<u64> = KEYS.to_vec();
    keys.push(BLACK_TO_MOVE);
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), 3 * MAX_BITS + 1);
}

#[test]
fn counts_reset_by_their_events_and_pop_back() {
    let s = Arc::new(spec());
    let root = facts(&s, 0b1, 0b10, 0b11, 0);
    let mut counter = DrawCounter::new(s.clone(), &root, &[5], 9).unwrap();
    counter.push(&facts(&s, 0b1, 0b10, 0b11, 1), 0).unwrap();
    assert_eq!(
        (counter.move_counts(), counter.since_material_change()),
        (&[6][..], 10)
    );
    counter
        .push(&facts(&s, 0b1, 0b10, 0b11, 0), events::MAN_MOVED)
        .unwrap();
    assert_eq!(
        (counter.move_counts(), counter.since_material_change()),
        (&[0][..], 11)
    );
    counter
        .push(&facts(&s, 0b1, 0b10, 0b11, 1), events::CROWNING)
        .unwrap();
    assert_eq!(
        (counter.move_counts(), counter.since_material_change()),
        (&[1][..], 0)
    );
    assert!(counter.pop() && counter.pop());
    assert_eq!(
        (counter.move_counts(), counter.since_material_change()),
        (&[6][..], 10)
    );
    assert!(counter.pop());
    assert!(!counter.pop());
    assert_eq!(
        (
            counter.move_counts(),
            counter.since_material_change(),
            counter.len()
        ),
        (&[5][..], 9, 1)
    );
    assert!(DrawCounter::new(s, &facts(&spec(), 0, 0, 0, 0), &[], 0).is_err());
}

#[test]
fn repetitions_count_the_same_position_with_the_same_side_to_move() {
    let s = Arc::new(DrawSpec {
        endgames: vec![],
        move_counts: vec![],
        ..spec()
    });
    let a = facts(&s, 0b1, 0b10, 0b11, 0);
    let b = facts(&s, 0b100, 0b10, 0b110, 1);
    let c = facts(&s, 0b1, 0b1000, 0b1001, 0);
    let d = facts(&s, 0b100, 0b1000, 0b1100, 1);
    let mut counter = DrawCounter::new(s, &a, &[], 0).unwrap();
    let mut never = never();
    for (step, position) in [b.clone(), c.clone(), d.clone(), a.clone(), b, c, d]
        .into_iter()
        .enumerate()
    {
        counter.push(&position, 0).unwrap();
        assert_eq!(
            counter.draw(false, &mut never).unwrap(),
            None,
            "step {step}"
        );
    }
    counter.push(&a, 0).unwrap();
    assert_eq!(counter.repetitions(), 3);
    assert_eq!(
        counter.draw(false, &mut never).unwrap(),
        Some(Draw::Repetition)
    );
    assert_eq!(counter.draw(true, &mut never).unwrap(), None);
}

#[test]
fn a_change_of_material_ends_the_repetition_search() {
    // Pieces never come back in a game: the search stops at the first position (same side
    // to move) with other material, and a position beyond it is not counted.
    let s = Arc::new(spec());
    let a = facts(&s, 0b1, 0b10, 0b11, 0);
    let b = facts(&s, 0b1, 0b10, 0b11, 1);
    let mut counter = DrawCounter::new(s.clone(), &a, &[0], 0).unwrap();
    counter.push(&b.clone(), 0).unwrap();
    counter.push(&facts(&s, 0b1, 0b110, 0b11, 0), 0).unwrap();
    counter.push(&b, 0).unwrap();
    counter.push(&a, 0).unwrap();
    assert_eq!(counter.repetitions(), 1);
}

#[test]
fn endgame_rules_read_material_count_and_diagonal() {
    let s = Arc::new(spec());
    // White: three kings on bits 4, 5, 6; Black: a lone king on bit 3 (on the diagonal).
    let on = facts(&s, 0b111_0000, 0b1000, 0b111_1000, 0);
    let off = facts(&s, 0b111_0000, 0b100, 0b111_0100, 0);
    let rule = &s.endgames[0];
    assert_eq!(
        rule.weak_sides(&on.frame.material),
        WeakSides::Colors([false, true])
    );
    assert!(rule.applies(&on.frame, &mut never()).unwrap());
    assert!(!rule.applies(&off.frame, &mut never()).unwrap());
    let mut counter = DrawCounter::new(s.clone(), &on, &[0], 0).unwrap();
    assert_eq!(counter.draw(false, &mut never()).unwrap(), None);
    counter.push(&on.clone(), 0).unwrap();
    assert_eq!(counter.draw(false, &mut never()).unwrap(), None);
    counter.push(&on, 0).unwrap();
    assert_eq!(
        counter.draw(false, &mut never()).unwrap(),
        Some(Draw::Endgame(0))
    );
    counter.push(&off, 0).unwrap();
    assert_eq!(counter.draw(false, &mut never()).unwrap(), None);
}

#[test]
fn the_shot_is_asked_last_and_its_error_comes_out() {
    let rule = EndgameRule {
        no_shot: true,
        total_pieces: vec![2],
        ..EndgameRule::default()
    };
    let s = spec();
    let two = facts(&s, 0b1, 0b10, 0, 0);
    let three = facts(&s, 0b101, 0b10, 0, 0);
    let mut asked = 0;
    let mut shot = || -> Result<bool, &str> {
        asked += 1;
        Err("no moves here")
    };
    assert_eq!(rule.applies(&three.frame, &mut shot), Ok(false));
    assert_eq!(rule.applies(&two.frame, &mut shot), Err("no moves here"));
    assert_eq!(asked, 1);
    assert!(rule
        .applies(&two.frame, &mut || Ok::<_, Infallible>(false))
        .unwrap());
    assert!(!rule
        .applies(&two.frame, &mut || Ok::<_, Infallible>(true))
        .unwrap());
}

#[test]
fn material_conditions() {
    let m = |white: Side, black: Side| Material { white, black };
    let both = EndgameRule {
        both_have_kings: true,
        ..EndgameRule::default()
    };
    assert!(both.material_applies(&m((1, 0), (1, 3))));
    assert!(!both.material_applies(&m((0, 1), (1, 3))));
    assert_eq!(both.weak_sides(&m((1, 0), (1, 0))), WeakSides::Whole);
    let min = EndgameRule {
        strong_min_kings: 3,
        weak: vec![(1, 0)],
        ..EndgameRule::default()
    };
    assert_eq!(
        min.weak_sides(&m((3, 2), (1, 0))),
        WeakSides::Colors([false, true])
    );
    assert_eq!(
        min.weak_sides(&m((2, 2), (1, 0))),
        WeakSides::Colors([false, false])
    );
    assert_eq!(
        min.weak_sides(&m((1, 0), (4, 0))),
        WeakSides::Colors([true, false])
    );
    assert!(!min.depends_on_placement());
}

#[test]
fn counts_from_a_clock_follow_the_resets() {
    let s = DrawSpec {
        move_counts: vec![
            MoveCountRule {
                moves: 25,
                resets: events::MAN_MOVED | events::CAPTURE,
                claim: false,
            },
            MoveCountRule {
                moves: 25,
                resets: events::CAPTURE | events::CROWNING,
                claim: false,
            },
            MoveCountRule {
                moves: 25,
                resets: events::MAN_MOVED,
                claim: false,
            },
        ],
        ..spec()
    };
    assert_eq!(s.counts_from_clock(7, false), vec![0, 7, 0]);
    assert_eq!(s.counts_from_clock(7, true), vec![7, 7, 0]);
}

#[test]
fn bad_specs_and_nodes_are_refused() {
    assert!(spec().check().is_ok());
    assert!(DrawSpec {
        limbs: 0,
        main_diagonal: vec![],
        ..spec()
    }
    .check()
    .is_err());
    assert!(DrawSpec {
        limbs: 12,
        main_diagonal: vec![0; 12],
        ..spec()
    }
    .check()
    .is_err());
    assert!(DrawSpec {
        main_diagonal: vec![0, 0],
        ..spec()
    }
    .check()
    .is_err());
    assert!(DrawSpec {
        repetitions: 1,
        ..spec()
    }
    .check()
    .is_err());
    let s = spec();
    assert!(s.facts(&[0], &[0], &[0], 2, 0).is_err());
    assert!(s.facts(&[0, 0], &[0], &[0], 0, 0).is_err());
}

#[test]
fn a_position_pushed_by_its_changed_bits_is_the_position_its_facts_give() {
    // Random walks over a two-limb board: pushing each position by the bits that changed
    // (`push_position`) records what pushing its full facts records, hash included.
    let s = Arc::new(DrawSpec {
        limbs: 2,
        main_diagonal: vec![0x8040_2010_0804_0201, 0x8040_2010_0804_0201],
        ..spec()
    });
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let full = |white: [u64; 2], black: [u64; 2], kings: [u64; 2], color: u8, state: u128| {
        let (own, opp) = if color == 0 {
            (white, black)
        } else {
            (black, white)
        };
        s.facts(&own, &opp, &kings, color, state).unwrap()
    };
    let mut position = (
        [0b1011u64, 1 << 40],
        [1 << 20, 0b110],
        [0b1, 1 << 40],
        0u8,
        0u128,
    );
    let root = full(position.0, position.1, position.2, position.3, position.4);
    let mut by_change = DrawCounter::new(s.clone(), &root, &[0], 0).unwrap();
    let mut by_facts = DrawCounter::new(s.clone(), &root, &[0], 0).unwrap();
    for step in 0..200 {
        let (limb, bit) = ((next() % 2) as usize, next() % 64);
        let (mut white, mut black, mut kings, color, _) = position;
        let mover = if step % 3 == 0 {
            &mut white
        } else {
            &mut black
        };
        mover[limb] ^= 1 << bit;
        white[limb] &= !black[limb];
        kings[limb] = (kings[limb] ^ (next() & (1 << bit))) & (white[limb] | black[limb]);
        let state = if step % 7 == 0 {
            u128::from(next() % 5)
        } else {
            0
        };
        position = (white, black, kings, 1 - color, state);
        let event = (next() % 8) as u8;
        by_change
            .push_position(&white, &black, &kings, 1 - color, state, event)
            .unwrap();
        by_facts
            .push(&full(white, black, kings, 1 - color, state), event)
            .unwrap();
        assert_eq!(by_change.current(), by_facts.current());
        assert_eq!(
            by_change.current().hash,
            hash(&white, &black, &kings, 1 - color, state)
        );
        assert_eq!(by_change.repetitions(), by_facts.repetitions());
        assert_eq!(by_change.move_counts(), by_facts.move_counts());
    }
    assert!(by_change.push_position(&[0], &[0], &[0], 0, 0, 0).is_err());
    assert!(by_change
        .push_position(&[0, 0], &[0, 0], &[0, 0], 2, 0, 0)
        .is_err());
    assert_eq!(by_change.len(), 201);
}

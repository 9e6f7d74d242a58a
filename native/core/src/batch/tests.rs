//! Unit tests of the batch (its agreement with the AEC environment is tested from Python,
//! `tests/ai/test_vector.py`).

use super::observe::progress;
use super::*;

fn international() -> Box<Generator<u64>> {
    Box::new(Generator::new(&crate::spec::international_for_tests()).unwrap())
}

fn draws() -> Arc<DrawSpec> {
    Arc::new(DrawSpec {
        limbs: 1,
        main_diagonal: vec![0],
        ..DrawSpec::default()
    })
}

#[test]
fn tables_that_do_not_fit_the_board_are_refused() {
    let enc = Encoding {
        num_actions: 10,
        planes: FIXED_PLANES,
        cells: 100,
        max_distance: 9,
        segment: [vec![-1; 4], vec![-1; 4]],
        grid: [vec![0; 2], vec![0; 2]],
    };
    let made = Batch::new(international(), draws(), enc, Options::default(), 2, None);
    assert!(matches!(made, Err(Error::InvalidSpec(_))));
}

#[test]
fn progress_is_capped_and_a_limit_of_zero_is_reached_at_once() {
    assert_eq!(progress(10, 25), 0.2);
    assert_eq!(progress(80, 25), 1.0);
    assert_eq!(progress(0, 0), 1.0);
}

/// A batch of International games with a plain encoding: action `a * stride + b` for the segment
/// from `a` to `b` (any two squares), one cell per square.
fn plain_batch(n: usize) -> Batch<u64> {
    let gen = international();
    let stride = gen.tables.layout.bit_of_square.len();
    let table: Vec<i32> = (0..stride * stride).map(|a| a as i32).collect();
    let grid: Vec<u32> = (0..stride as u32).collect();
    let enc = Encoding {
        num_actions: stride * stride,
        planes: FIXED_PLANES,
        cells: stride,
        max_distance: 9,
        segment: [table.clone(), table],
        grid: [grid.clone(), grid],
    };
    let opts = Options {
        max_plies: 150,
        ..Options::default()
    };
    Batch::new(gen, draws(), enc, opts, n, None).unwrap()
}

#[test]
fn the_history_starts_again_at_each_capture_or_crowning() {
    let mut batch = plain_batch(8);
    batch.seed(3);
    let mut actions = vec![0i64; 8];
    let mut captures = 0;
    for _ in 0..400 {
        batch.random_actions(&mut actions);
        batch.advance(&actions, false, None).unwrap();
        for game in &batch.games {
            // Positions before the last capture or crowning are not kept: what the repetition
            // count reads, and no more.
            assert_eq!(game.hashes.len() as u64, game.since.min(game.plies) + 1);
            assert_eq!(game.nodes.len(), game.hashes.len());
            captures += u32::from(game.plies > 0 && game.since == 0);
        }
    }
    assert!(captures > 0, "no game captured: the test saw nothing");
}

#[test]
fn advance_with_asks_ahead_for_each_game_in_order_and_steps_as_advance() {
    let (mut plain, mut hinted) = (plain_batch(5), plain_batch(5));
    plain.seed(9);
    hinted.seed(9);
    let mut actions = vec![0i64; 5];
    for _ in 0..60 {
        plain.random_actions(&mut actions);
        let mut asked = Vec::new();
        let mut found = 0;
        let steps = hinted
            .advance_with(&actions, false, None, |b, index| {
                asked.push(index);
                found += b.regions(index, false).len() + b.regions(index, true).len();
                assert!(b.regions(index + 5, false).is_empty());
            })
            .unwrap();
        assert_eq!(asked, vec![0, 1, 2, 3, 4]);
        assert_eq!(found, 5 * 6);
        assert_eq!(steps, plain.advance(&actions, false, None).unwrap());
        hinted.rng = plain.rng;
    }
    for index in 0..5 {
        assert_eq!(plain.node(index), hinted.node(index));
    }
}

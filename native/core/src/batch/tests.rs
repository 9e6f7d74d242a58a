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

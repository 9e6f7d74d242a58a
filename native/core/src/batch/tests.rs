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
fn the_history_starts_again_at_each_capture_crowning_or_man_move() {
    let mut batch = plain_batch(8);
    batch.seed(3);
    let mut actions = vec![0i64; 8];
    // Per game: plies since the last move no earlier position can come back across (a capture,
    // a crowning, a man's move: International's men only move forward), and the last node seen.
    let mut reversible = [0u64; 8];
    let mut last: Vec<(Node<u64>, u64)> = (0..8).map(|i| batch.node(i).unwrap()).collect();
    let (mut cut, mut kept) = (0, 0);
    for _ in 0..400 {
        batch.random_actions(&mut actions);
        batch.advance(&actions, false, None).unwrap();
        for (index, game) in batch.games.iter().enumerate() {
            let (before, plies) = last[index];
            let men = |n: &Node<u64>| (n.own | n.opp) & !n.kings;
            let pieces = |n: &Node<u64>| (n.own | n.opp).count_ones();
            if game.plies == 0 {
                reversible[index] = 0;
            } else if game.plies == plies + 1 {
                let same = men(&before) == men(&game.node) && pieces(&before) == pieces(&game.node);
                reversible[index] = if same { reversible[index] + 1 } else { 0 };
                cut += u32::from(!same);
            }
            // Positions before that move are not kept: what the repetition count reads, and no
            // more.
            assert_eq!(game.hashes.len() as u64, reversible[index] + 1);
            assert_eq!(game.nodes.len(), game.hashes.len());
            kept += u32::from(game.hashes.len() > 2);
            last[index] = (game.node, game.plies);
        }
    }
    assert!(
        cut > 0 && kept > 0,
        "the test saw no cut ({cut}) or no king moves ({kept})"
    );
}

#[test]
fn an_illegal_action_is_refused_before_any_game_moves() {
    let mut batch = plain_batch(5);
    batch.seed(9);
    let mut actions = vec![0i64; 5];
    batch.random_actions(&mut actions);
    let before: Vec<_> = (0..5).map(|index| batch.node(index)).collect();
    let legal = actions[3];
    actions[3] = (0..).find(|&a| !batch.is_legal(3, a)).unwrap();
    let error = batch.advance(&actions, false, None).unwrap_err();
    assert_eq!(
        error,
        Error::IllegalAction {
            index: 3,
            action: actions[3]
        }
    );
    let after: Vec<_> = (0..5).map(|index| batch.node(index)).collect();
    assert_eq!(before, after);
    actions[3] = legal;
    batch.advance(&actions, false, None).unwrap();
    assert!((0..5).all(|index| batch.node(index).unwrap().1 == 1));
}

/// The six output buffers of a batch of `n` games.
fn buffers(batch: &Batch<u64>) -> [Vec<u8>; 6] {
    let (n, enc) = (batch.len(), &batch.ctx.enc);
    [
        vec![0xAA; n * enc.cells * enc.planes * 4],
        vec![0xAA; n * enc.num_actions],
        vec![0; n * 8],
        vec![0; n],
        vec![0; n],
        vec![0; n],
    ]
}

fn out_of(b: &mut [Vec<u8>; 6]) -> Out<'_> {
    let [obs, mask, rewards, terminated, truncated, player] = b;
    Out {
        obs,
        mask,
        rewards,
        terminated,
        truncated,
        player,
    }
}

#[test]
fn rows_updated_in_place_equal_rows_written_whole() {
    // One batch writes each step's rows over the last ones (what changed only), the other is
    // made to forget them and writes them whole: the rows must agree at every step, captures
    // being chosen segment by segment and games started again included.
    let (mut fast, mut whole) = (plain_batch(6), plain_batch(6));
    fast.seed(5);
    let (mut fast_out, mut whole_out) = (buffers(&fast), buffers(&whole));
    fast.write(None, &mut out_of(&mut fast_out)).unwrap();
    let mut actions = vec![0i64; 6];
    let (mut ended, mut partial) = (0, 0);
    for _ in 0..400 {
        fast.random_actions(&mut actions);
        let steps = fast
            .advance(&actions, false, Some(&mut out_of(&mut fast_out)))
            .unwrap();
        let again = whole.advance(&actions, false, None).unwrap();
        assert_eq!(steps, again);
        whole.views.iter_mut().for_each(View::forget);
        whole.shown.fill(false);
        whole_out[0].fill(0x55);
        whole_out[1].fill(0x55);
        whole
            .write(Some(&again), &mut out_of(&mut whole_out))
            .unwrap();
        assert!(fast_out == whole_out);
        ended += steps.iter().filter(|s| s.terminated || s.truncated).count();
        partial += fast.games.iter().filter(|g| g.depth > 0).count();
    }
    assert!(ended > 0 && partial > 0, "ended {ended}, partial {partial}");
}

#[test]
fn moves_listed_as_actions_are_the_legal_moves_first_segments_and_play_them() {
    // The positions whose moves are listed as actions alone (quiet moves, men's single jumps)
    // against the generator's full listing: the same actions in increasing order, and each
    // action decoded into the very move the generator lists for it.
    let mut batch = plain_batch(8);
    batch.seed(3);
    let mut actions = vec![0i64; 8];
    let (mut quiet, mut jumps) = (0, 0);
    for _ in 0..400 {
        for (game, choices) in batch.games.iter().zip(&batch.choices) {
            if game.listing == Listing::Entries || game.over {
                continue;
            }
            let ctx = &batch.ctx;
            let legal = ctx.gen.legal(&game.node, false, None).unwrap();
            let mut expected: Vec<u32> = legal
                .iter()
                .map(|m| ctx.enc.segment(game.node.color, m.path[0], m.path[1]) as u32)
                .collect();
            expected.sort_unstable();
            assert_eq!(choices.actions.to_vec(), expected);
            for (m, &action) in legal.iter().zip(&expected) {
                let listed = ctx.enc.segment(game.node.color, m.path[0], m.path[1]) as u32;
                let (compact, _) = ctx.action_move(&game.node, game.listing, listed).unwrap();
                assert_eq!(compact, m.compact, "action {action}");
            }
            match game.listing {
                Listing::Quiet => quiet += 1,
                _ => jumps += 1,
            }
        }
        batch.random_actions(&mut actions);
        batch.advance(&actions, false, None).unwrap();
    }
    assert!(
        quiet > 100 && jumps > 50,
        "{quiet} quiet, {jumps} jump positions"
    );
}

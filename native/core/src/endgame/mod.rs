//! Endgame tablebases: the retrograde solver of one material over the generic generator.
//!
//! * [`index`]: the positions of a material numbered as the Python `draughts.endgame.index`
//!   numbers them (the files are the same whichever side builds them).
//! * [`solve`]: the forward walk (every position's moves generated once, twice with the
//!   reversed moves written), then the values spread backwards level by level in plies.
//! * [`within`]: the verdicts within the move-count and endgame draw rules, over budgets.
//! * [`layers`]: those verdicts in a sliced frame where both counts matter, a layer of the count
//!   of plies since a man moved at a time.
//! * [`mirror`]: a material's table from its colour-swapped twin's (colour symmetry, no search).
//! * [`summary`]: a table's counts and longest wins, and its packed sections (the file's).
//!
//! The work of a material is split between threads by chunks of entries; the values do not
//! depend on how (each is the unique game-theoretic value).

pub mod index;
pub mod layers;
pub mod mirror;
pub mod slice;
pub mod solve;
pub mod summary;
pub mod within;

/// Drawn (or not decided yet).
pub const DRAW: u8 = 0;
/// Won for the side to move.
pub const WIN: u8 = 1;
/// Lost for the side to move.
pub const LOSS: u8 = 2;
/// An index that is no position.
pub const HOLE: u8 = 3;

/// Per position: an exit (capture, crowning) wins within the rules for the side to move.
pub const EXIT_WINS: u8 = 1;
/// Per position: an exit draws within the rules.
pub const EXIT_DRAWS: u8 = 2;
/// Per position: no legal move, and that loses.
pub const NO_MOVE_LOST: u8 = 4;
/// Per position: no legal move, and that wins.
pub const NO_MOVE_WON: u8 = 8;

/// Runs `work` on every item, on `workers` threads taking items in turn; the first error stops
/// the others at their next item and is returned.
pub(crate) fn parallel<T: Send, E: Send>(
    items: Vec<T>,
    workers: usize,
    work: impl Fn(T) -> Result<(), E> + Sync,
) -> Result<(), E> {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Mutex;
    let queue = Mutex::new(items.into_iter());
    let failed = AtomicBool::new(false);
    let first_error: Mutex<Option<E>> = Mutex::new(None);
    let run = || loop {
        if failed.load(Ordering::Relaxed) {
            return;
        }
        let next = match queue.lock() {
            Ok(mut items) => items.next(),
            Err(_) => return,
        };
        let Some(item) = next else { return };
        if let Err(error) = work(item) {
            failed.store(true, Ordering::Relaxed);
            if let Ok(mut slot) = first_error.lock() {
                slot.get_or_insert(error);
            }
            return;
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..workers.max(1) {
            scope.spawn(run);
        }
        run();
    });
    match first_error.into_inner() {
        Ok(Some(error)) => Err(error),
        _ => Ok(()),
    }
}

//! A game's legal actions as every step reads them: sorted, one cache line a game.

use smallvec::SmallVec;

use super::Game;
use crate::bitboard::Bits;

/// A game's legal actions now, kept apart from the game in one contiguous list (one cache line
/// a game, aligned on one) for what every step reads of all games: the legality check, the
/// sampler, the mask.
#[derive(Clone, Debug, Default)]
#[repr(align(64))]
pub(super) struct Choices {
    /// The distinct legal actions, sorted (empty once the game has ended).
    pub(super) actions: SmallVec<[u32; 12]>,
    /// The game ended at the last step: any action is taken (and ignored).
    pub(super) over: bool,
}

impl Choices {
    /// No legal action: the game has ended (the next step starts it again).
    pub(super) fn end(&mut self) {
        self.actions.clear();
        self.over = true;
    }

    /// The game's legal actions now from its listed moves, in place of the last ones (a game
    /// whose quiet moves are listed as actions alone has them already: see `Ctx::fill_entries`).
    pub(super) fn refill<B: Bits>(&mut self, game: &Game<B>) {
        let actions = &mut self.actions;
        actions.clear();
        self.over = false;
        let entries = &game.entries;
        if game.depth == 0 && entries.len() <= 32 {
            // Every entry is still possible before the first segment is chosen: their first
            // actions, sorted on a local array as they come (a few, most in order already).
            let mut sorted = [0u32; 32];
            for (k, entry) in entries.iter().enumerate() {
                let mut at = k;
                while at > 0 && sorted[at - 1] > entry.first {
                    sorted[at] = sorted[at - 1];
                    at -= 1;
                }
                sorted[at] = entry.first;
            }
            actions.extend_from_slice(&sorted[..entries.len()]);
        } else {
            if game.depth == 0 {
                actions.extend(entries.iter().map(|e| e.first));
            } else {
                actions.extend(game.live.iter().filter_map(|&i| game.action(i, game.depth)));
            }
            actions.sort_unstable();
        }
        if !game.paths.is_empty() {
            actions.dedup(); // only moves of several segments share a first one
        }
    }
}

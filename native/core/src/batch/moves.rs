//! A game's legal moves as the batch keeps them: the entry every step reads, and the segments of
//! the moves whose choice may take several steps.

use smallvec::SmallVec;

use super::{Ctx, Entry, Game, Path};
use crate::bitboard::Bits;
use crate::drawrules::events;
use crate::error::Error;
use crate::state::Compact;

impl<B: Bits> Ctx<B> {
    /// The legal moves of the game's node with their segment actions; every one still possible.
    /// `quiet` is a scratch list.
    pub(super) fn fill_entries(
        &self,
        game: &mut Game<B>,
        quiet: &mut Vec<Compact<B>>,
    ) -> Result<(), Error> {
        let node = &game.node;
        let layout = &self.gen.tables.layout;
        game.entries.clear();
        game.paths.clear();
        game.live.clear();
        game.depth = 0;
        let t = &self.gen.tables;
        if t.crowning_wins && node.kings.any() {
            return Ok(()); // a crowning has won: no move (as `legal` says)
        }
        if !self.gen.can_capture(node) {
            // No capture: the quiet moves straight from their masks (what `legal` would list).
            self.gen.quiet_into(node, quiet);
            for &c in quiet.iter() {
                let (start, end) = (
                    t.square((c.moved & node.own).lowest_index()),
                    t.square((c.moved & !node.own).lowest_index()),
                );
                let action = self.enc.segment(node.color, start, end);
                if action < 0 {
                    return Err(Error::InvalidMove(format!(
                        "path squares {start} and {end} are not on one line"
                    )));
                }
                let king_moved = c.crowned & c.moved == c.moved;
                let crowns = c.crowned.any() && (c.moved & node.kings).is_zero();
                let event = if crowns { events::CROWNING } else { 0 }
                    | if king_moved { 0 } else { events::MAN_MOVED };
                game.entries.push(Entry {
                    compact: c,
                    first: action as u32,
                    event,
                });
            }
            game.live.extend(0..game.entries.len() as u32);
            return Ok(());
        }
        for m in self.gen.legal(node, false, None)? {
            let mut actions = SmallVec::new();
            for pair in m.path.windows(2) {
                let action = self.enc.segment(node.color, pair[0], pair[1]);
                if action < 0 {
                    return Err(Error::InvalidMove(format!(
                        "path squares {} and {} are not on one line",
                        pair[0], pair[1]
                    )));
                }
                actions.push(action as u32);
            }
            let c = m.compact;
            let king_moved = if c.moved.any() {
                c.crowned & c.moved == c.moved
            } else {
                let bit = layout.bit_of_square.get(m.start as usize).copied();
                bit.is_some_and(|b| node.kings.has(b))
            };
            let event = if m.captured.is_empty() {
                0
            } else {
                events::CAPTURE
            } | if m.promotes { events::CROWNING } else { 0 }
                | if king_moved { 0 } else { events::MAN_MOVED };
            let Some(&first) = actions.first() else {
                return Err(Error::InvalidMove("a legal move without a segment".into()));
            };
            game.entries.push(Entry {
                compact: c,
                first,
                event,
            });
            game.paths.push(Path {
                actions,
                path: m.path,
                captured: m.captured,
            });
        }
        game.live.extend(0..game.entries.len() as u32);
        Ok(())
    }
}

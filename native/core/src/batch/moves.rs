//! A game's legal moves as the batch keeps them: the entry every step reads, and the segments of
//! the moves whose choice may take several steps.

use smallvec::SmallVec;

use super::{Ctx, Encoding, Entry, Game, Path};
use crate::bitboard::Bits;
use crate::drawrules::events;
use crate::error::Error;
use crate::generator::Generator;
use crate::state::{Compact, Node};

/// Per side, the action of each man's quiet step: `[step * bits + target]` for the side's steps
/// in the order of [`crate::tables::Tables::man_moves`], `u32::MAX` where the two squares are not
/// on one line of the encoding (or are no squares).
pub(super) fn man_actions<B: Bits>(gen: &Generator<B>, enc: &Encoding) -> [Vec<u32>; 2] {
    let t = &gen.tables;
    let bits = t.layout.square_of_bit.len();
    [0u8, 1].map(|color| {
        let mut table = vec![u32::MAX; bits * t.man_moves[usize::from(color)].len()];
        for (index, s) in t.man_moves[usize::from(color)].iter().enumerate() {
            for to in 0..bits {
                let from = if s.up {
                    to.checked_sub(s.amount as usize)
                } else {
                    Some(to + s.amount as usize).filter(|&from| from < bits)
                };
                let (start, end) = (from.map_or(0, |f| t.square(f as u32)), t.square(to as u32));
                if start > 0 && end > 0 {
                    let action = enc.segment(color, start, end);
                    table[index * bits + to] = u32::try_from(action).unwrap_or(u32::MAX);
                }
            }
        }
        table
    })
}

fn off_line(start: u32, end: u32) -> Error {
    Error::InvalidMove(format!(
        "path squares {start} and {end} are not on one line"
    ))
}

impl<B: Bits> Ctx<B> {
    /// The legal moves of the game's node with their segment actions, every one still possible
    /// (`game.live` is read only once a segment is chosen: see `Ctx::take`).
    pub(super) fn fill_entries(&self, game: &mut Game<B>) -> Result<(), Error> {
        game.entries.clear();
        game.paths.clear();
        game.depth = 0;
        let node = game.node;
        if self.gen.tables.crowning_wins && node.kings.any() {
            return Ok(()); // a crowning has won: no move (as `legal` says)
        }
        if !self.gen.can_capture(&node) {
            return self.fill_quiet(game);
        }
        if !self.fill_single_jumps(game)? {
            return self.fill_captures(game);
        }
        if self.gen.tables.capture_mandatory {
            Ok(())
        } else {
            self.fill_quiet(game)
        }
    }

    /// The captures when each is a single jump by a man (one segment each, all different: no
    /// [`Path`] kept), straight from the generator's jump masks; false, nothing listed, where a
    /// capture may need a search.
    fn fill_single_jumps(&self, game: &mut Game<B>) -> Result<bool, Error> {
        let t = &self.gen.tables;
        let (color, entries) = (game.node.color, &mut game.entries);
        let mut wrong = None;
        let single = self
            .gen
            .single_jumps_each(&game.node, |start, end, compact, promotes| {
                let (start, end) = (t.square(start), t.square(end));
                let action = self.enc.segment(color, start, end);
                if action < 0 {
                    wrong = Some(off_line(start, end));
                }
                let crowning = if promotes { events::CROWNING } else { 0 };
                entries.push(Entry {
                    compact,
                    first: action as u32,
                    event: events::CAPTURE | events::MAN_MOVED | crowning,
                });
            });
        match wrong {
            Some(error) => Err(error),
            None => Ok(single),
        }
    }

    /// The quiet moves (what `legal` lists without a capture), straight from the men's step
    /// masks into actions by [`man_actions`], then the kings' moves, in the order of
    /// [`Generator::quiet_into`].
    fn fill_quiet(&self, game: &mut Game<B>) -> Result<(), Error> {
        // A list of its own while it grows: its length and capacity stay in registers (the
        // entries' stores could otherwise overwrite the game's record, as far as the compiler
        // knows).
        let mut entries = std::mem::take(&mut game.entries);
        let listed = self.list_quiet(&game.node, &mut entries);
        game.entries = entries;
        listed
    }

    fn list_quiet(&self, node: &Node<B>, entries: &mut Vec<Entry<B>>) -> Result<(), Error> {
        let t = &self.gen.tables;
        let node = *node;
        let color = usize::from(node.color & 1);
        let empty = t.board ^ (node.own | node.opp);
        let men = node.own & !node.kings;
        let crown = t.crown_row[color];
        let bits = t.layout.square_of_bit.len();
        let table = &self.man_actions[color];
        for (index, s) in t.man_moves[color].iter().enumerate() {
            for to in (men.shift(s.amount, s.up) & empty).iter() {
                let to_b = B::bit(to);
                let from_b = to_b.shift(s.amount, !s.up);
                let first = table
                    .get(index * bits + to as usize)
                    .copied()
                    .unwrap_or(u32::MAX);
                if first == u32::MAX {
                    return Err(off_line(t.square(from_b.lowest_index()), t.square(to)));
                }
                let crowned = to_b & crown;
                let event = events::MAN_MOVED | if crowned.any() { events::CROWNING } else { 0 };
                entries.push(Entry {
                    compact: Compact {
                        moved: to_b | from_b,
                        captured: B::ZERO,
                        crowned,
                    },
                    first,
                    event,
                });
            }
        }
        let movers = t
            .state
            .movable_kings(node.own, node.kings, node.color, node.state);
        for king in movers.iter() {
            let king_b = B::bit(king);
            let start = t.square(king);
            for s in &t.king_moves[color] {
                let mut to = king_b.shift(s.amount, s.up) & empty;
                while to.any() {
                    let end = t.square(to.lowest_index());
                    let action = self.enc.segment(node.color, start, end);
                    if action < 0 {
                        return Err(off_line(start, end));
                    }
                    let moved = king_b | to;
                    entries.push(Entry {
                        compact: Compact {
                            moved,
                            captured: B::ZERO,
                            crowned: moved,
                        },
                        first: action as u32,
                        event: 0,
                    });
                    if !t.flying {
                        break;
                    }
                    to = to.shift(s.amount, s.up) & empty;
                }
            }
        }
        Ok(())
    }

    /// The legal moves of a node with a capture (and, where capturing is optional, the quiet
    /// ones), each with every segment's action.
    fn fill_captures(&self, game: &mut Game<B>) -> Result<(), Error> {
        let node = &game.node;
        let layout = &self.gen.tables.layout;
        for m in self.gen.legal(node, false, None)? {
            let mut actions = SmallVec::new();
            for pair in m.path.windows(2) {
                let action = self.enc.segment(node.color, pair[0], pair[1]);
                if action < 0 {
                    return Err(off_line(pair[0], pair[1]));
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
        Ok(())
    }
}

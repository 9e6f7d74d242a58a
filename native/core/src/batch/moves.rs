//! A game's legal moves as the batch keeps them: the entry every step reads, and the segments of
//! the moves whose choice may take several steps.

use smallvec::SmallVec;

use super::{Choices, Ctx, Encoding, Entry, Game, Listing, Path};
use crate::bitboard::Bits;
use crate::drawrules::events;
use crate::error::Error;
use crate::generator::{Generator, JumpList};
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

/// Per side, the bits a quiet move's action names: `from | to << 16` at each action that names a
/// segment between two squares, `u32::MAX` elsewhere.
pub(super) fn action_bits<B: Bits>(gen: &Generator<B>, enc: &Encoding) -> [Vec<u32>; 2] {
    let layout = &gen.tables.layout;
    let squares = layout.bit_of_square.len();
    [0u8, 1].map(|side| {
        let mut table = vec![u32::MAX; enc.num_actions];
        for a in 1..squares {
            for b in 1..squares {
                let action = enc.segment(side, a as u32, b as u32);
                if let Some(slot) = usize::try_from(action).ok().and_then(|i| table.get_mut(i)) {
                    *slot = layout.bit_of_square[a] | (layout.bit_of_square[b] << 16);
                }
            }
        }
        table
    })
}

/// The draw-rule events of a man's jump landing on `to` (`crown`: its crown row).
fn man_jump_event<B: Bits>(to: B, crown: B) -> u8 {
    let crowning = if (to & crown).any() {
        events::CROWNING
    } else {
        0
    };
    events::CAPTURE | events::MAN_MOVED | crowning
}

fn off_line(start: u32, end: u32) -> Error {
    Error::InvalidMove(format!(
        "path squares {start} and {end} are not on one line"
    ))
}

impl<B: Bits> Ctx<B> {
    /// The legal moves of the game's node and its legal actions (`choices`): without a capture,
    /// or where every capture is a man's single jump, the actions alone (`game.listing`: each
    /// names its move); otherwise the moves with their segment actions, every one still possible
    /// (`game.live` is read only once a segment is chosen: see `Ctx::take`).
    pub(super) fn fill_entries(
        &self,
        game: &mut Game<B>,
        choices: &mut Choices,
    ) -> Result<(), Error> {
        game.entries.clear();
        game.paths.clear();
        game.depth = 0;
        game.listing = Listing::Entries;
        choices.actions.clear();
        choices.over = false;
        let node = game.node;
        if self.gen.tables.crowning_wins && node.kings.any() {
            return Ok(()); // a crowning has won: no move (as `legal` says)
        }
        if !self.gen.can_capture(&node) {
            game.listing = Listing::Quiet;
            return self.list_quiet_actions(&node, &mut choices.actions);
        }
        if self.gen.tables.capture_mandatory {
            if let Some(jumps) = self.gen.single_jump_list(&node) {
                game.listing = Listing::Jumps;
                return self.list_jump_actions(&node, jumps, &mut choices.actions);
            }
        }
        if !self.fill_short_jumps(game)? {
            self.fill_captures(game)?;
        } else if !self.gen.tables.capture_mandatory {
            self.fill_quiet(game)?;
        }
        choices.refill(game);
        Ok(())
    }

    /// The quiet moves' actions in increasing order (the moves [`Ctx::list_quiet`] lists; see
    /// [`super::quiet::QuietActions`]).
    fn list_quiet_actions(
        &self,
        node: &Node<B>,
        actions: &mut SmallVec<[u32; 12]>,
    ) -> Result<(), Error> {
        if self.quiet.list(&self.gen, node, actions) {
            Ok(())
        } else {
            Err(Error::InvalidMove(
                "a quiet move is no segment of the encoding".into(),
            ))
        }
    }

    /// The single jumps `jumps` (see [`Generator::single_jump_list`]) as their actions, in
    /// increasing order.
    fn list_jump_actions(
        &self,
        node: &Node<B>,
        (list, len): JumpList<B>,
        actions: &mut SmallVec<[u32; 12]>,
    ) -> Result<(), Error> {
        let t = &self.gen.tables;
        for &(a, up, jumpers) in &list[..len] {
            for start in jumpers.iter() {
                let to = if up { start + 2 * a } else { start - 2 * a };
                let (start, end) = (t.square(start), t.square(to));
                let action = self.enc.segment(node.color, start, end);
                if action < 0 {
                    return Err(off_line(start, end));
                }
                actions.push(action as u32);
            }
        }
        if !actions.is_sorted() {
            actions.sort_unstable();
        }
        Ok(())
    }

    /// The move `action` names in `node`, where the legal moves are listed as their actions
    /// (`listing`: quiet moves, or single jumps), and its draw-rule events.
    pub(super) fn action_move(
        &self,
        node: &Node<B>,
        listing: Listing,
        action: u32,
    ) -> Result<(Compact<B>, u8), Error> {
        let color = usize::from(node.color & 1);
        let code = self.action_bits[color]
            .get(action as usize)
            .copied()
            .unwrap_or(u32::MAX);
        if code == u32::MAX {
            return Err(Error::InvalidMove(format!(
                "action {action} names no segment"
            )));
        }
        let (from, to) = (code & 0xFFFF, code >> 16);
        let moved = B::bit(from) | B::bit(to);
        let crown = self.gen.tables.crown_row[color];
        if listing == Listing::Jumps {
            // A man's single jump: the piece taken is halfway.
            let (start, over, end) = (B::bit(from), B::bit((from + to) / 2), B::bit(to));
            let compact = Compact::man_jump(start, over, end, node.kings, crown);
            return Ok((compact, man_jump_event(end, crown)));
        }
        if node.kings.has(from) {
            let compact = Compact {
                moved,
                captured: B::ZERO,
                crowned: moved,
            };
            return Ok((compact, 0));
        }
        let crowned = B::bit(to) & crown;
        let event = events::MAN_MOVED | if crowned.any() { events::CROWNING } else { 0 };
        let compact = Compact {
            moved,
            captured: B::ZERO,
            crowned,
        };
        Ok((compact, event))
    }

    /// The captures when the side to move's kings can jump too, where every capture is a single
    /// jump (by a man or a king) that cannot go on and the choice among captures is free: the
    /// kings short (a jump lands just beyond the piece it takes), no precedence. False, nothing
    /// listed, where that is not so (then the generator's full search lists them).
    fn fill_short_jumps(&self, game: &mut Game<B>) -> Result<bool, Error> {
        let t = &self.gen.tables;
        if t.flying || !self.free_choice {
            return Ok(false);
        }
        let Node {
            own,
            opp,
            kings,
            color,
            ..
        } = game.node;
        let side = usize::from(color & 1);
        let empty = t.board ^ (own | opp);
        let prey = if t.men_capture_kings {
            opp
        } else {
            opp & !kings
        };
        let jumps = self.gen.man_jumps(own & !kings, prey, empty, color);
        let goes_on = (jumps.origins & t.jump_goes_on[side]) | t.jump_needs_search[side];
        if (jumps.landings & goes_on).any() {
            return Ok(false);
        }
        let before = game.entries.len();
        let crown = t.crown_row[side];
        for &(a, up, jumpers) in &jumps.jumps[..jumps.len.min(8)] {
            for start in jumpers.iter() {
                let s = B::bit(start);
                let over = s.shift(a, up);
                let to = over.shift(a, up);
                let compact = Compact::man_jump(s, over, to, kings, crown);
                self.push_jump(game, s, to, compact, man_jump_event(to, crown))?;
            }
        }
        for king in (own & kings).iter() {
            let k = B::bit(king);
            for step in &t.king_captures[side] {
                let (a, up) = (step.amount, step.up);
                let over = k.shift(a, up) & opp;
                let to = over.shift(a, up) & empty;
                if to.is_zero() {
                    continue;
                }
                // Another jump from the landing square (the king's start square empty by then,
                // the piece just jumped not to be taken again) makes it a longer capture.
                let (others, free) = (opp & !over, empty | k);
                let more = t.king_captures[side].iter().any(|d| {
                    ((to.shift(d.amount, d.up) & others).shift(d.amount, d.up) & free).any()
                });
                if more {
                    game.entries.truncate(before);
                    return Ok(false);
                }
                let compact = Compact {
                    moved: k | to,
                    captured: over,
                    crowned: k | to | (kings & over),
                };
                self.push_jump(game, k, to, compact, events::CAPTURE)?;
            }
        }
        Ok(game.entries.len() > before)
    }

    /// A one-segment capture from `from` to `to` listed with its action.
    fn push_jump(
        &self,
        game: &mut Game<B>,
        from: B,
        to: B,
        compact: Compact<B>,
        event: u8,
    ) -> Result<(), Error> {
        let t = &self.gen.tables;
        let (start, end) = (t.square(from.lowest_index()), t.square(to.lowest_index()));
        let action = self.enc.segment(game.node.color, start, end);
        if action < 0 {
            return Err(off_line(start, end));
        }
        game.entries.push(Entry {
            compact,
            first: action as u32,
            event,
        });
        Ok(())
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

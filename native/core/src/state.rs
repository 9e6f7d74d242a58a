//! Rule state: what a node's `state` holds, how a move updates it, and the copy-make of a node.
//!
//! A node is `(own, opp, kings, color, state)` ([`Node`]). `state` is the rule state a ruleset
//! keeps beyond the pieces and the side to move, 0 where it keeps none. The one rule state is the
//! **king-move limit**: per side, the king that made the last quiet moves in a row and how many.
//! Each side has a field of [`RuleState::width`] bits at `width * color`; its low
//! [`RuleState::count_bits`] bits hold the count and the bits above the king's bit index plus one
//! (0: no count running) — the layout of Python's `draughts._core.state`, bit for bit.

use crate::bitboard::Bits;

/// `(own, opp, kings, color, state)`: the side to move's pieces, the other side's, all kings, the
/// side to move (0 White, 1 Black) and the rule state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Node<B: Bits> {
    /// The pieces of the side to move.
    pub own: B,
    /// The pieces of the other side.
    pub opp: B,
    /// Both sides' kings.
    pub kings: B,
    /// The side to move: 0 White, 1 Black.
    pub color: u8,
    /// The rule state (0 where the ruleset keeps none).
    pub state: u128,
}

/// A move as three xor masks: after it the mover's pieces are `own ^ moved`, the opponent's
/// `opp ^ captured` and the kings `kings ^ crowned`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Compact<B: Bits> {
    /// The start and end squares of the mover (empty if they are the same square).
    pub moved: B,
    /// The pieces captured.
    pub captured: B,
    /// The kings changed: the moving king's start and end, a crowned man's end, kings captured.
    pub crowned: B,
}

impl<B: Bits> Compact<B> {
    /// A man's single jump from `from` over `over` to `to` (single bits): a king taken loses its
    /// crown, and the man is crowned if `to` is on its crown row `crown`.
    #[inline(always)]
    pub fn man_jump(from: B, over: B, to: B, kings: B, crown: B) -> Self {
        Compact {
            moved: from | to,
            captured: over,
            crowned: (kings & over) | (to & crown),
        }
    }
}

/// The rule state of one ruleset: its layout and its update after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleState {
    /// The king-move limit (0 for none: the ruleset keeps no state).
    pub limit: u64,
    /// Whether nodes carry any state.
    pub keeps: bool,
    /// Bits of one side's count.
    pub count_bits: u32,
    /// Bits of one side's field (the count, then the king's bit index plus one).
    pub width: u32,
}

fn bit_length(value: u64) -> u32 {
    64 - value.leading_zeros()
}

impl RuleState {
    /// The state layout for `limit` (0 for none) on a board of `nbits` bit indices.
    pub fn new(limit: u64, nbits: u32) -> Self {
        let count_bits = bit_length(limit);
        RuleState {
            limit,
            keeps: limit > 0,
            count_bits,
            width: count_bits + bit_length(nbits as u64 + 1),
        }
    }

    fn count_mask(&self) -> u128 {
        (1u128 << self.count_bits) - 1
    }

    fn side_mask(&self) -> u128 {
        (1u128 << self.width) - 1
    }

    /// `color`'s field for `count` quiet moves by the king on bit `index`, shifted into place
    /// (0 if `count` is 0).
    pub fn value(&self, color: u8, index: u32, count: u64) -> u128 {
        if count == 0 || !self.keeps {
            return 0;
        }
        ((((index as u128) + 1) << self.count_bits) | count as u128)
            << (self.width * (color & 1) as u32)
    }

    /// `(bit index of the tracked king or -1, count)` of `color` in `state`.
    pub fn side(&self, state: u128, color: u8) -> (i64, u64) {
        if !self.keeps {
            return (-1, 0);
        }
        let field = (state >> (self.width * (color & 1) as u32)) & self.side_mask();
        (
            (field >> self.count_bits) as i64 - 1,
            (field & self.count_mask()) as u64,
        )
    }

    /// Whether `state` decodes: only the two fields' bits set, each count at most the limit, a
    /// running count naming a bit index below `nbits`.
    pub fn is_valid(&self, state: u128, nbits: u32) -> bool {
        if !self.keeps {
            return state == 0;
        }
        if 2 * self.width < 128 && state >> (2 * self.width) != 0 {
            return false;
        }
        for color in 0..2 {
            let (index, count) = self.side(state, color);
            if count > self.limit || (count > 0 && (index < 0 || index >= nbits as i64)) {
                return false;
            }
            if count == 0 && index != -1 {
                return false;
            }
        }
        true
    }

    /// `state` without the counts that cannot matter: a side without men, or no king on the square.
    pub fn canonical<B: Bits>(&self, white: B, black: B, kings: B, state: u128) -> u128 {
        let mut kept = 0;
        for (color, mask) in [(0u8, white), (1u8, black)] {
            let (index, count) = self.side(state, color);
            if count > 0 && (mask & !kings).any() && index >= 0 && (mask & kings).has(index as u32)
            {
                kept |= self.value(color, index as u32, count);
            }
        }
        kept
    }

    /// The kings of the side to move that may make a quiet move (the king-move limit applied).
    #[inline]
    pub fn movable_kings<B: Bits>(&self, own: B, kings: B, color: u8, state: u128) -> B {
        let mut own_kings = own & kings;
        if self.keeps && own_kings.any() && (own & !kings).any() {
            let (index, count) = self.side(state, color);
            if count >= self.limit && index >= 0 {
                own_kings &= !B::bit(index as u32);
            }
        }
        own_kings
    }

    /// The state after a move (`moved`, `captured` as in a [`Compact`]).
    ///
    /// The mover's count goes up on a quiet move of the same king, starts at 1 for another king,
    /// and is cleared by a man's move or a capture; a side's count is also cleared when it has no
    /// men left or its tracked king is gone.
    pub fn next<B: Bits>(&self, node: &Node<B>, moved: B, captured: B) -> u128 {
        if !self.keeps {
            return 0;
        }
        let Node {
            own,
            opp,
            kings,
            color,
            state,
        } = *node;
        let start = moved & own;
        let mut mover = 0;
        if captured.is_zero() && (start & kings).any() {
            let (index, count) = self.side(state, color);
            let end = moved ^ start;
            let count = if index >= 0 && start.has(index as u32) {
                count + 1
            } else {
                1
            };
            if (own & !kings).any() && end.any() {
                mover = self.value(color, end.highest_index(), count);
            }
        }
        let other = 1 ^ (color & 1);
        let (index, count) = self.side(state, other);
        let left = opp ^ captured;
        let kept = if count > 0 && (left & !kings).any() && index >= 0 && left.has(index as u32) {
            self.value(other, index as u32, count)
        } else {
            0
        };
        mover | kept
    }

    /// The node after `mv`: pieces updated, sides swapped, the state updated (copy-make).
    /// Always inlined: a node returned through memory is read back before its stores reach the
    /// cache (a stalled store-to-load forwarding, waiting on every store before it).
    #[inline(always)]
    pub fn play<B: Bits>(&self, node: &Node<B>, mv: &Compact<B>) -> Node<B> {
        let state = if self.keeps {
            self.next(node, mv.moved, mv.captured)
        } else {
            0
        };
        Node {
            own: node.opp ^ mv.captured,
            opp: node.own ^ mv.moved,
            kings: node.kings ^ mv.crowned,
            color: 1 ^ (node.color & 1),
            state,
        }
    }

    /// `(bit index, count)` of `color`'s tracked king, or `None` when no count is running.
    pub fn king_moves(&self, state: u128, color: u8) -> Option<(u32, u64)> {
        let (index, count) = self.side(state, color);
        if count > 0 && index >= 0 {
            Some((index as u32, count))
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_matches_python() {
        // Frisian: limit 3 (2 count bits), 64 bit indices: width 2 + bit_length(65) = 9.
        let s = RuleState::new(3, 64);
        assert_eq!((s.count_bits, s.width), (2, 9));
        assert_eq!(s.value(1, 10, 2), ((11 << 2) | 2) << 9);
        assert_eq!(s.side(s.value(1, 10, 2), 1), (10, 2));
        assert_eq!(s.side(0, 0), (-1, 0));
        assert!(s.is_valid(s.value(0, 3, 3), 64));
        assert!(!s.is_valid(1 << 40, 64));
    }

    #[test]
    fn the_count_runs_and_resets() {
        let s = RuleState::new(3, 64);
        let king = 1u64 << 5;
        let man = 1u64 << 20;
        let node = Node {
            own: king | man,
            opp: 1 << 40,
            kings: king,
            color: 0,
            state: 0,
        };
        let moved = king | (1 << 11);
        let after = s.next(&node, moved, 0);
        assert_eq!(s.king_moves(after, 0), Some((11, 1)));
        let node2 = Node {
            own: (1 << 11) | man,
            state: after,
            kings: 1 << 11,
            ..node
        };
        let after2 = s.next(&node2, (1 << 11) | (1 << 5), 0);
        assert_eq!(s.king_moves(after2, 0), Some((5, 2)));
        assert_eq!(s.next(&node2, man | (man << 6), 0), 0);
        let at_limit = s.value(0, 11, 3);
        assert_eq!(s.movable_kings(node2.own, node2.kings, 0, at_limit), 0);
    }
}

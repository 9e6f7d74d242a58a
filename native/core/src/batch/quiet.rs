//! A position's quiet moves listed straight as their actions, in increasing order: piece by piece
//! in the order of their squares' actions, each piece's steps in the order of their directions'
//! actions, read from tables made once per ruleset (no square numbers, no encoding lookups, no
//! sort where the board's bits run in the order of the actions' squares).

use smallvec::SmallVec;

use super::Encoding;
use crate::bitboard::Bits;
use crate::generator::Generator;
use crate::state::Node;
use crate::tables::Step;

/// How a side's squares' actions run with the bit index of their squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Order {
    /// Up with the bit index: pieces listed from the lowest bit.
    #[default]
    Ascending,
    /// Down with the bit index: pieces listed from the highest bit.
    Descending,
    /// Neither: the list is sorted after.
    Mixed,
}

/// One side's tables (see [`QuietActions`]).
#[derive(Clone, Debug, Default)]
struct Side {
    order: Order,
    /// The men's steps (indices into the side's `man_moves`), in the order of their actions.
    man_steps: SmallVec<[usize; 8]>,
    /// The action of man step `man_steps[k]` from bit `b` at `k * bits + b` (`u32::MAX`: none).
    man_from: Vec<u32>,
    /// The kings' directions (indices into the side's `king_moves`), in the order of their actions.
    king_steps: SmallVec<[usize; 8]>,
    /// The action of a king's move `n + 1` squares along `king_steps[k]` from bit `b` at
    /// `(k * bits + b) * reach + n` (`u32::MAX`: none).
    king_rays: Vec<u32>,
    /// The longest king move listed (1 for short kings).
    reach: usize,
}

/// Per side, the tables that list a position's quiet moves as their actions, in order.
#[derive(Clone, Debug, Default)]
pub(super) struct QuietActions {
    sides: [Side; 2],
}

/// The bits `n` steps of `s` from `from`, if they stay on the board's bits.
fn walk(from: u32, s: &Step, n: usize, bits: usize) -> Option<u32> {
    let offset = s.amount as usize * n;
    let to = if s.up {
        from as usize + offset
    } else {
        (from as usize).checked_sub(offset)?
    };
    (to < bits).then_some(to as u32)
}

impl QuietActions {
    /// The tables of `gen`'s rules in the encoding `enc`.
    pub(super) fn new<B: Bits>(gen: &Generator<B>, enc: &Encoding) -> Self {
        let t = &gen.tables;
        let bits = t.layout.square_of_bit.len();
        let reach = if t.flying {
            enc.max_distance as usize
        } else {
            1
        };
        let sides = [0u8, 1].map(|color| {
            let action = |from: u32, s: &Step, n: usize| -> u32 {
                let to = walk(from, s, n, bits).map_or(0, |to| t.square(to));
                let (a, b) = (t.square(from), to);
                if a == 0 || b == 0 || !t.board.has(from) {
                    return u32::MAX;
                }
                u32::try_from(enc.segment(color, a, b)).unwrap_or(u32::MAX)
            };
            let c = usize::from(color);
            let man_steps = by_direction(&t.man_moves[c], bits, enc, |f, s| action(f, s, 1));
            let king_steps = by_direction(&t.king_moves[c], bits, enc, |f, s| action(f, s, 1));
            let mut man_from = vec![u32::MAX; man_steps.len() * bits];
            for (k, &index) in man_steps.iter().enumerate() {
                for from in 0..bits {
                    man_from[k * bits + from] = action(from as u32, &t.man_moves[c][index], 1);
                }
            }
            let mut king_rays = vec![u32::MAX; king_steps.len() * bits * reach];
            for (k, &index) in king_steps.iter().enumerate() {
                for from in 0..bits {
                    for n in 0..reach {
                        king_rays[(k * bits + from) * reach + n] =
                            action(from as u32, &t.king_moves[c][index], n + 1);
                    }
                }
            }
            let order = order_of(&man_from, &king_rays, bits, reach, enc);
            Side {
                order,
                man_steps,
                man_from,
                king_steps,
                king_rays,
                reach,
            }
        });
        QuietActions { sides }
    }

    /// The quiet moves of `node` (no capture is possible there) as their actions, in increasing
    /// order, into `actions`; false (the list incomplete) where a legal step has no action.
    pub(super) fn list<B: Bits>(
        &self,
        gen: &Generator<B>,
        node: &Node<B>,
        actions: &mut SmallVec<[u32; 12]>,
    ) -> bool {
        let t = &gen.tables;
        let color = usize::from(node.color & 1);
        let side = &self.sides[color];
        let empty = t.board ^ (node.own | node.opp);
        let men = node.own & !node.kings;
        let bits = t.layout.square_of_bit.len();
        // Per man step (in order): the men that can take it.
        let mut from = [B::ZERO; 8];
        let mut movers = t
            .state
            .movable_kings(node.own, node.kings, node.color, node.state);
        let steps = &t.man_moves[color];
        for (slot, &index) in from.iter_mut().zip(&side.man_steps) {
            let s = &steps[index];
            *slot = (men.shift(s.amount, s.up) & empty).shift(s.amount, !s.up);
            movers |= *slot;
        }
        let man_steps = side.man_steps.len().min(from.len());
        let mut complete = true;
        while movers.any() {
            let piece = if side.order == Order::Descending {
                movers.highest_index()
            } else {
                movers.lowest_index()
            };
            movers ^= B::bit(piece);
            let at = piece as usize;
            if men.has(piece) {
                for (k, mask) in from[..man_steps].iter().enumerate() {
                    if mask.has(piece) {
                        let action = side.man_from[k * bits + at];
                        complete &= action != u32::MAX;
                        actions.push(action);
                    }
                }
                continue;
            }
            for (k, &index) in side.king_steps.iter().enumerate() {
                let s = &t.king_moves[color][index];
                let ray = &side.king_rays[(k * bits + at) * side.reach..][..side.reach];
                let mut to = B::bit(piece).shift(s.amount, s.up) & empty;
                for &action in ray {
                    if to.is_zero() {
                        break;
                    }
                    complete &= action != u32::MAX;
                    actions.push(action);
                    to = to.shift(s.amount, s.up) & empty;
                }
            }
        }
        if side.order == Order::Mixed {
            actions.sort_unstable();
        }
        complete
    }
}

/// The indices of `steps` in the order of their actions' direction (the same from every square:
/// the encoding numbers directions from the board's coordinates), read from `action(from, step)`.
fn by_direction(
    steps: &[Step],
    bits: usize,
    enc: &Encoding,
    action: impl Fn(u32, &Step) -> u32,
) -> SmallVec<[usize; 8]> {
    let per_square = 8 * enc.max_distance as usize;
    let direction = |s: &Step| {
        (0..bits as u32)
            .map(|from| action(from, s))
            .find(|&a| a != u32::MAX)
            .map_or(usize::MAX, |a| a as usize % per_square)
    };
    let mut order: SmallVec<[usize; 8]> = (0..steps.len()).collect();
    order.sort_by_key(|&k| direction(&steps[k]));
    order
}

/// Whether the squares' actions run up or down with their bits (`Mixed` if neither), read from
/// the first action listed at each bit.
fn order_of(
    man_from: &[u32],
    king_rays: &[u32],
    bits: usize,
    reach: usize,
    enc: &Encoding,
) -> Order {
    let per_square = 8 * enc.max_distance;
    let square_rank = |bit: usize| {
        let men = man_from.iter().skip(bit).step_by(bits.max(1));
        let kings = king_rays
            .chunks(reach.max(1))
            .skip(bit)
            .step_by(bits.max(1))
            .flatten();
        men.chain(kings)
            .find(|&&a| a != u32::MAX)
            .map(|&a| a / per_square)
    };
    let ranks: Vec<u32> = (0..bits).filter_map(square_rank).collect();
    if ranks.windows(2).all(|w| w[0] < w[1]) {
        Order::Ascending
    } else if ranks.windows(2).all(|w| w[0] > w[1]) {
        Order::Descending
    } else {
        Order::Mixed
    }
}

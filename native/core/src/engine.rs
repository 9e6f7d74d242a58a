//! [`Engine`]: a compiled ruleset in the bitboard width its board needs, behind one type whose
//! nodes and moves carry bitboards as little-endian 64-bit limbs (what the Python bindings pass:
//! Python's ints, limb by limb, in the bit layout of [`crate::tables`]).
//!
//! Code that wants the typed generator (no conversions) matches on the variants.

use crate::bitboard::{Bits, Wide};
use crate::capture::Abort;
use crate::error::Error;
use crate::generator::{Generator, PublicMove};
use crate::perft;
use crate::spec::RulesSpec;
use crate::state::{Compact, Node};
use crate::tables::Layout;

/// A bitboard as little-endian 64-bit limbs (limb 0 holds bits 0-63). Missing limbs are zero.
pub type Limbs = Vec<u64>;

/// A node with its bitboards as limbs (see [`Node`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct AnyNode {
    /// The pieces of the side to move.
    pub own: Limbs,
    /// The pieces of the other side.
    pub opp: Limbs,
    /// Both sides' kings.
    pub kings: Limbs,
    /// The side to move: 0 White, 1 Black.
    pub color: u8,
    /// The rule state.
    pub state: u128,
}

/// A move's xor masks as limbs (see [`Compact`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct AnyCompact {
    /// Start and end of the mover.
    pub moved: Limbs,
    /// The pieces captured.
    pub captured: Limbs,
    /// The kings changed.
    pub crowned: Limbs,
}

/// A legal move in public form with its masks as limbs (see [`PublicMove`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnyMove {
    /// The start square.
    pub start: u32,
    /// The end square.
    pub end: u32,
    /// The captured squares in capture order.
    pub captured: Vec<u32>,
    /// The path squares (start, landing and turning squares, end).
    pub path: Vec<u32>,
    /// Whether the move crowns a man.
    pub promotes: bool,
    /// The xor masks.
    pub compact: AnyCompact,
}

/// A ruleset compiled into its move generator, in the width its layout needs.
#[derive(Clone, Debug)]
pub enum Engine {
    /// Layouts of up to 64 bits (8x8, 10x10, Frisian's orthogonal 10x10).
    U64(Box<Generator<u64>>),
    /// Up to 128 bits (12x12, 14x14, Turkish 8x8).
    U128(Box<Generator<u128>>),
    /// Up to 256 bits.
    W4(Box<Generator<Wide<4>>>),
    /// Up to 512 bits.
    W8(Box<Generator<Wide<8>>>),
    /// Up to 704 bits (26x26 with every square played: 702).
    W11(Box<Generator<Wide<11>>>),
}

macro_rules! each {
    ($self:expr, $g:ident => $body:expr) => {
        match $self {
            Engine::U64($g) => $body,
            Engine::U128($g) => $body,
            Engine::W4($g) => $body,
            Engine::W8($g) => $body,
            Engine::W11($g) => $body,
        }
    };
}

fn bits_of<B: Bits>(limbs: &[u64], what: &str) -> Result<B, Error> {
    B::from_limbs(limbs)
        .ok_or_else(|| Error::InvalidNode(format!("{what} has bits beyond the board's layout")))
}

fn node_of<B: Bits>(g: &Generator<B>, node: &AnyNode) -> Result<Node<B>, Error> {
    let typed = Node {
        own: bits_of(&node.own, "own")?,
        opp: bits_of(&node.opp, "opp")?,
        kings: bits_of(&node.kings, "kings")?,
        color: node.color,
        state: node.state,
    };
    g.check(&typed)?;
    Ok(typed)
}

fn any_node<B: Bits>(node: &Node<B>) -> AnyNode {
    AnyNode {
        own: node.own.to_limbs(),
        opp: node.opp.to_limbs(),
        kings: node.kings.to_limbs(),
        color: node.color,
        state: node.state,
    }
}

fn any_compact<B: Bits>(c: &Compact<B>) -> AnyCompact {
    AnyCompact {
        moved: c.moved.to_limbs(),
        captured: c.captured.to_limbs(),
        crowned: c.crowned.to_limbs(),
    }
}

fn any_move<B: Bits>(m: PublicMove<B>) -> AnyMove {
    AnyMove {
        start: m.start,
        end: m.end,
        captured: m.captured.to_vec(),
        path: m.path.to_vec(),
        promotes: m.promotes,
        compact: any_compact(&m.compact),
    }
}

fn play_typed<B: Bits>(
    g: &Generator<B>,
    node: &AnyNode,
    mv: &AnyCompact,
) -> Result<AnyNode, Error> {
    let n = node_of(g, node)?;
    let c: Compact<B> = Compact {
        moved: bits_of(&mv.moved, "moved")?,
        captured: bits_of(&mv.captured, "captured")?,
        crowned: bits_of(&mv.crowned, "crowned")?,
    };
    let from = c.moved & n.own;
    if (c.captured & !n.opp).any() || from.count() > 1 || (from.is_zero() && c.moved.any()) {
        return Err(Error::InvalidMove(
            "the masks do not fit the position".into(),
        ));
    }
    let next = g.play(&n, &c);
    g.check(&next)
        .map_err(|e| Error::InvalidMove(e.to_string()))?;
    Ok(any_node(&next))
}

fn canonical_typed<B: Bits>(
    g: &Generator<B>,
    white: &[u64],
    black: &[u64],
    kings: &[u64],
    state: u128,
) -> Result<u128, Error> {
    let w: B = bits_of(white, "white")?;
    let b: B = bits_of(black, "black")?;
    let k: B = bits_of(kings, "kings")?;
    Ok(g.tables.state.canonical(w, b, k, state))
}

impl Engine {
    /// Compiles `spec` in the narrowest width that holds its layout.
    ///
    /// # Errors
    /// [`Error::InvalidSpec`] if `spec` does not validate.
    pub fn new(spec: &RulesSpec) -> Result<Self, Error> {
        spec.validate()?;
        let bits = Layout::new(spec)?.bits();
        Ok(if bits <= 64 {
            Engine::U64(Box::new(Generator::new(spec)?))
        } else if bits <= 128 {
            Engine::U128(Box::new(Generator::new(spec)?))
        } else if bits <= 256 {
            Engine::W4(Box::new(Generator::new(spec)?))
        } else if bits <= 512 {
            Engine::W8(Box::new(Generator::new(spec)?))
        } else {
            Engine::W11(Box::new(Generator::new(spec)?))
        })
    }

    /// The width of the bitboards in bits (64, 128, 256, 512 or 704).
    pub fn width(&self) -> u32 {
        match self {
            Engine::U64(_) => 64,
            Engine::U128(_) => 128,
            Engine::W4(_) => 256,
            Engine::W8(_) => 512,
            Engine::W11(_) => 704,
        }
    }

    /// The layout: square <-> bit maps.
    pub fn layout(&self) -> &Layout {
        each!(self, g => &g.tables.layout)
    }

    /// The bit index of square number `square`, if it is on the board.
    pub fn bit_of_square(&self, square: u32) -> Option<u32> {
        let layout = self.layout();
        if square == 0 {
            return None;
        }
        layout.bit_of_square.get(square as usize).copied()
    }

    /// The square number of bit `index` (`None` for a ghost bit or beyond the layout).
    pub fn square_of_bit(&self, index: u32) -> Option<u32> {
        match self.layout().square_of_bit.get(index as usize) {
            Some(&0) | None => None,
            Some(&square) => Some(square),
        }
    }

    /// The bits of all playable squares.
    pub fn board(&self) -> Limbs {
        each!(self, g => g.tables.board.to_limbs())
    }

    /// The crowning row of each colour (White's is the far row).
    pub fn crown_rows(&self) -> [Limbs; 2] {
        each!(self, g => [g.tables.crown_row[0].to_limbs(), g.tables.crown_row[1].to_limbs()])
    }

    /// The start position (the first side to move).
    pub fn start(&self) -> AnyNode {
        each!(self, g => any_node(&g.start()))
    }

    /// Checks a node against the rules.
    ///
    /// # Errors
    /// [`Error::InvalidNode`].
    pub fn check(&self, node: &AnyNode) -> Result<(), Error> {
        each!(self, g => node_of(g, node).map(|_| ()))
    }

    /// The legal moves as xor masks (captures first); with `paths` one per capture path.
    ///
    /// # Errors
    /// [`Error::InvalidNode`], or what the generator returns.
    pub fn moves(
        &self,
        node: &AnyNode,
        paths: bool,
        abort: Abort<'_>,
    ) -> Result<Vec<AnyCompact>, Error> {
        each!(self, g => {
            let n = node_of(g, node)?;
            Ok(g.moves(&n, paths, abort)?.iter().map(any_compact).collect())
        })
    }

    /// The node after a move given as xor masks (not checked for legality, only for fitting the
    /// node: the mover's start square must hold its piece and the captured squares the opponent's).
    ///
    /// # Errors
    /// [`Error::InvalidNode`], [`Error::InvalidMove`].
    pub fn play(&self, node: &AnyNode, mv: &AnyCompact) -> Result<AnyNode, Error> {
        each!(self, g => play_typed(g, node, mv))
    }

    /// The legal moves in public form and move order.
    ///
    /// # Errors
    /// As [`Engine::moves`].
    pub fn legal(
        &self,
        node: &AnyNode,
        paths: bool,
        abort: Abort<'_>,
    ) -> Result<Vec<AnyMove>, Error> {
        each!(self, g => {
            let n = node_of(g, node)?;
            Ok(g.legal(&n, paths, abort)?.into_iter().map(any_move).collect())
        })
    }

    /// The number of legal moves.
    ///
    /// # Errors
    /// As [`Engine::moves`].
    pub fn count1(&self, node: &AnyNode, paths: bool, abort: Abort<'_>) -> Result<u64, Error> {
        each!(self, g => g.count1(&node_of(g, node)?, paths, abort))
    }

    /// The number of two-move sequences.
    ///
    /// # Errors
    /// As [`Engine::moves`].
    pub fn count2(&self, node: &AnyNode, paths: bool, abort: Abort<'_>) -> Result<u64, Error> {
        each!(self, g => g.count2(&node_of(g, node)?, paths, abort))
    }

    /// perft (see [`crate::perft::perft`]).
    ///
    /// # Errors
    /// As [`Engine::moves`].
    pub fn perft(
        &self,
        node: &AnyNode,
        depth: u32,
        paths: bool,
        abort: Abort<'_>,
    ) -> Result<u64, Error> {
        each!(self, g => perft::perft(g, &node_of(g, node)?, depth, paths, abort))
    }

    /// perft split by root move: each legal root move (each path with `paths`) in the order of
    /// [`Engine::legal`], with the leaves below it.
    ///
    /// # Errors
    /// As [`Engine::moves`].
    pub fn divide(
        &self,
        node: &AnyNode,
        depth: u32,
        paths: bool,
        abort: Abort<'_>,
    ) -> Result<Vec<(AnyMove, u64)>, Error> {
        each!(self, g => Ok(perft::divide(g, &node_of(g, node)?, depth, paths, abort)?
            .into_iter()
            .map(|(m, n)| (any_move(m), n))
            .collect()))
    }

    /// The legal captures as xor masks, whether capturing is mandatory or not.
    ///
    /// # Errors
    /// As [`Engine::moves`].
    pub fn captures(&self, node: &AnyNode, abort: Abort<'_>) -> Result<Vec<AnyCompact>, Error> {
        each!(self, g => Ok(g.captures(&node_of(g, node)?, abort)?.iter().map(any_compact).collect()))
    }

    /// Whether the side to move has a capture.
    ///
    /// # Errors
    /// [`Error::InvalidNode`].
    pub fn can_capture(&self, node: &AnyNode) -> Result<bool, Error> {
        each!(self, g => Ok(g.can_capture(&node_of(g, node)?)))
    }

    /// The rule state without the counts that cannot matter (`white`, `black`, `kings`: the
    /// position's bitboards).
    ///
    /// # Errors
    /// [`Error::InvalidNode`] if a bitboard has bits beyond the layout.
    pub fn canonical(
        &self,
        white: &[u64],
        black: &[u64],
        kings: &[u64],
        state: u128,
    ) -> Result<u128, Error> {
        each!(self, g => canonical_typed(g, white, black, kings, state))
    }

    /// `(square, count)` of `color`'s tracked king in `state`, or `None` when no count runs.
    pub fn king_moves(&self, state: u128, color: u8) -> Option<(u32, u64)> {
        let (rule_state, layout) = each!(self, g => (g.tables.state, &g.tables.layout));
        let (index, count) = rule_state.king_moves(state, color.min(1))?;
        let square = layout
            .square_of_bit
            .get(index as usize)
            .copied()
            .unwrap_or(0);
        Some((square, count))
    }

    /// `color`'s rule-state field for `count` quiet moves by the king on `square`.
    ///
    /// # Errors
    /// [`Error::InvalidNode`] if the rules keep no count, `count` is above the limit, the square
    /// is not on the board or `color` is not 0/1.
    pub fn state_value(&self, color: u8, square: u32, count: u64) -> Result<u128, Error> {
        let rule_state = each!(self, g => g.tables.state);
        if !rule_state.keeps {
            return Err(Error::InvalidNode(
                "these rules keep no count of king moves".into(),
            ));
        }
        if count > rule_state.limit || color > 1 {
            return Err(Error::InvalidNode(format!(
                "king-move count {count} must be 0 to {} (colour {color})",
                rule_state.limit
            )));
        }
        let index = self
            .bit_of_square(square)
            .ok_or_else(|| Error::InvalidNode(format!("square {square} is not on the board")))?;
        Ok(rule_state.value(color, index, count))
    }

    /// The king-move limit (0: none).
    pub fn king_move_limit(&self) -> u64 {
        each!(self, g => g.tables.king_move_limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shared<T: Send + Sync>() {}

    #[test]
    fn engines_are_shared_between_threads() {
        shared::<Engine>();
        shared::<Generator<u64>>();
        let engine = std::sync::Arc::new(Engine::new(&RulesSpec::default()).unwrap());
        let handles: Vec<_> = (0..2)
            .map(|_| {
                let engine = engine.clone();
                std::thread::spawn(move || engine.perft(&engine.start(), 5, false, None).unwrap())
            })
            .collect();
        for handle in handles {
            // 8x8 defaults (American checkers' rules): perft 5 from the start.
            assert_eq!(handle.join().unwrap(), 7_361);
        }
    }

    #[test]
    fn limbs_round_trip_and_bad_limbs_are_refused() {
        let engine = Engine::new(&RulesSpec::default()).unwrap();
        let start = engine.start();
        let mut bad = start.clone();
        bad.own = vec![start.own[0], 1];
        assert!(matches!(engine.check(&bad), Err(Error::InvalidNode(_))));
        let moves = engine.moves(&start, false, None).unwrap();
        let next = engine.play(&start, &moves[0]).unwrap();
        assert_eq!(next.color, 1);
        assert!(engine.play(&next, &moves[0]).is_err());
    }
}

//! perft: the leaves of the legal-move tree, in both duplicate conventions.
//!
//! * `paths == false` ("dedup"): captures with the same start, end and set of captured pieces
//!   count once;
//! * `paths == true` ("keep"): every capture path counts (PDN 3.0 restriction 9 paths).
//!
//! A thin recursion over [`Generator::moves`] and [`Generator::play`] above the last two plies,
//! and the bulk counts [`Generator::count2`] and [`Generator::count1`] below. Draw rules are
//! ignored; a position where the game is over has no moves and so no leaves.

use crate::bitboard::Bits;
use crate::capture::Abort;
use crate::error::Error;
use crate::generator::Generator;
use crate::state::Node;

/// Interior nodes between two calls of the abort hook.
pub const PERFT_CHECK_EVERY: u64 = 1 << 14;

struct Walk<'g, 'a, B: Bits> {
    g: &'g Generator<B>,
    paths: bool,
    abort: Abort<'a>,
    nodes: u64,
}

impl<B: Bits> Walk<'_, '_, B> {
    fn count(&mut self, node: &Node<B>, depth: u32) -> Result<u64, Error> {
        match depth {
            0 => return Ok(1),
            1 => return self.g.count1(node, self.paths, self.abort),
            2 => return self.g.count2(node, self.paths, self.abort),
            _ => {}
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(PERFT_CHECK_EVERY) {
            if let Some(hook) = self.abort {
                hook()?;
            }
        }
        let mut total = 0;
        for mv in &self.g.moves(node, self.paths, self.abort)? {
            total += self.count(&self.g.play(node, mv), depth - 1)?;
        }
        Ok(total)
    }
}

/// The number of move sequences of `depth` plies from `node` (0 counts the node itself).
///
/// # Errors
/// What the generator returns ([`Error::CaptureSearchLimit`], the abort hook's error, an external
/// precedence's error); the hook is also called every [`PERFT_CHECK_EVERY`] interior nodes.
pub fn perft<B: Bits>(
    g: &Generator<B>,
    node: &Node<B>,
    depth: u32,
    paths: bool,
    abort: Abort<'_>,
) -> Result<u64, Error> {
    Walk {
        g,
        paths,
        abort,
        nodes: 0,
    }
    .count(node, depth)
}

/// perft split by root move: each legal root move (each path with `paths`) in the order of
/// [`Generator::legal`], with the leaves below it.
///
/// # Errors
/// As [`perft`].
pub fn divide<B: Bits>(
    g: &Generator<B>,
    node: &Node<B>,
    depth: u32,
    paths: bool,
    abort: Abort<'_>,
) -> Result<Vec<(crate::generator::PublicMove<B>, u64)>, Error> {
    let mut out = Vec::new();
    if depth == 0 {
        return Ok(out);
    }
    for mv in g.legal(node, paths, abort)? {
        let child = g.play(node, &mv.compact);
        let count = perft(g, &child, depth - 1, paths, abort)?;
        out.push((mv, count));
    }
    Ok(out)
}

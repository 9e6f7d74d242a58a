//! A game's draw counts as the batch keeps them: the counts after each move, the repetitions
//! over the plies since the last capture or crowning, and which draw rule applies (the order of
//! [`crate::drawrules::DrawCounter::draw`]).

use super::{Choices, Ctx, Game, Listing};
use crate::bitboard::Bits;
use crate::drawrules::events;
use crate::error::Error;
use crate::state::Compact;

impl<B: Bits> Ctx<B> {
    /// Records the move just played (its `event` bits; `game.hash` already updated) in the draw
    /// counts of `game`.
    pub(super) fn count(&self, game: &mut Game<B>, event: u8) -> Result<(), Error> {
        game.since = if event & (events::CAPTURE | events::CROWNING) != 0 {
            0
        } else {
            game.since.saturating_add(1)
        };
        for (count, rule) in game.counts.iter_mut().zip(&self.spec.move_counts) {
            *count = if event & rule.resets != 0 {
                0
            } else {
                count.saturating_add(1)
            };
        }
        if !self.spec.endgames.is_empty() {
            game.frame = self.frame(&game.node)?;
        }
        let hash = game.hash;
        let mover = usize::from(game.node.color ^ 1);
        if game.since == 0 || (event & events::MAN_MOVED != 0 && self.men_one_way[mover]) {
            // No earlier position can come back across a capture or a crowning, nor across a
            // move of a man that only moves one way: the history starts again (it stays a few
            // entries long, and in the cache).
            game.hashes.clear();
            game.nodes.clear();
        }
        game.hashes.push(hash);
        game.nodes.push(game.node);
        let last = game.hashes.len() - 1;
        let back = usize::try_from(game.since).unwrap_or(usize::MAX).min(last);
        let (mut reps, mut index) = (1, last);
        while index >= 2 && last - (index - 2) <= back {
            index -= 2;
            if game.hashes[index] == hash && game.nodes[index] == game.node {
                reps += 1;
            }
        }
        game.reps = reps;
        Ok(())
    }

    /// Whether a draw rule applies now (the claim-based ones with `claims`), in the order of
    /// [`crate::drawrules::DrawCounter::draw`].
    pub(super) fn draw(
        &self,
        game: &Game<B>,
        choices: &Choices,
        claims: bool,
    ) -> Result<bool, Error> {
        let spec = &self.spec;
        if spec.repetitions > 0 && spec.repetition_claim == claims && game.reps >= spec.repetitions
        {
            return Ok(true);
        }
        if !claims {
            let mut shot = || self.shot_in_the_air(game, choices);
            for rule in &spec.endgames {
                if game.since >= rule.plies() && rule.applies(&game.frame, &mut shot)? {
                    return Ok(true);
                }
            }
        }
        Ok(spec
            .move_counts
            .iter()
            .zip(&game.counts)
            .any(|(rule, &count)| rule.claim == claims && count >= rule.moves.saturating_mul(2)))
    }

    /// Whether the side to move can capture, or every move of it lets the opponent capture.
    fn shot_in_the_air(&self, game: &Game<B>, choices: &Choices) -> Result<bool, Error> {
        let node = &game.node;
        let lets_capture = |compact: &Compact<B>| -> Result<bool, Error> {
            let child = self.gen.play(node, compact);
            let moves = self.gen.moves(&child, false, None)?;
            Ok(moves.iter().any(|m| m.captured.any()))
        };
        if game.listing == Listing::Jumps {
            return Ok(true);
        }
        if game.listing == Listing::Quiet {
            for &action in &choices.actions {
                if !lets_capture(&self.action_move(node, Listing::Quiet, action)?.0)? {
                    return Ok(false);
                }
            }
            return Ok(!choices.actions.is_empty());
        }
        let entries = &game.entries;
        if entries.iter().any(|e| e.event & events::CAPTURE != 0) {
            return Ok(true);
        }
        if entries.is_empty() {
            return Ok(false);
        }
        for e in entries {
            if !lets_capture(&e.compact)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

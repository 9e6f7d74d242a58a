//! Batches of games stepped together: the native side of Python's `draughts.ai.VectorEnv`.
//!
//! A [`Batch`] holds `n` games of one ruleset, each played by the side to move, and steps them
//! all with one call ([`Batch::advance`]), then writes what an agent sees into flat byte buffers
//! ([`Batch::write`]): the observation planes and the legal-action mask of each game, its reward,
//! whether it ended or was cut.
//!
//! The encoding is not computed here: the observation layout and the action of each segment come
//! as tables ([`Encoding`]) made by Python's `draughts.ai.tensors.Encoding`, so that the batch and
//! the single environment share one definition. An action names a straight segment of a move; a
//! move is chosen by its first segment, and while several legal moves share the segments chosen so
//! far, the same side chooses the next one (the choice of Python's `Choice`).
//!
//! A game that ends is started again at the next step, whose action for it is ignored (Gymnasium's
//! "next-step" autoreset).

use std::sync::Arc;

use smallvec::SmallVec;

use crate::bitboard::Bits;
use crate::drawrules::{key, state_key, DrawSpec, Frame, BLACK_TO_MOVE, MAX_LIMBS};
use crate::error::Error;
use crate::generator::{Generator, Squares};
use crate::spec::PrecedenceRule;
use crate::state::{Compact, Node};

/// Planes every ruleset has: four of pieces, three of a capture being chosen.
pub const FIXED_PLANES: usize = 7;

/// The observation layout and the action table of a ruleset, from Python's `Encoding`.
#[derive(Clone, Debug, Default)]
pub struct Encoding {
    /// Actions in the action space.
    pub num_actions: usize,
    /// Planes per cell of the observation.
    pub planes: usize,
    /// Cells of the observation (`height * width`).
    pub cells: usize,
    /// The longest line of playable squares (actions per square and direction).
    pub max_distance: u32,
    /// Per side (0 White, 1 Black): the action from square `a` to square `b` at
    /// `a * (squares + 1) + b`, -1 where they are not on one line.
    pub segment: [Vec<i32>; 2],
    /// Per side: the flat cell of each square seen from that side (index 0 unused).
    pub grid: [Vec<u32>; 2],
}

impl Encoding {
    fn stride(&self) -> usize {
        self.grid[0].len()
    }

    fn segment(&self, side: u8, a: u32, b: u32) -> i32 {
        self.segment[usize::from(side)]
            .get(a as usize * self.stride() + b as usize)
            .copied()
            .unwrap_or(-1)
    }

    fn check(&self, squares: usize) -> Result<(), Error> {
        let stride = squares + 1;
        let fits = self.grid.iter().all(|grid| {
            grid.len() == stride && grid.iter().skip(1).all(|&c| (c as usize) < self.cells)
        }) && self.segment.iter().all(|table| {
            table.len() == stride * stride && table.iter().all(|&a| a < self.num_actions as i32)
        });
        if fits && self.planes >= FIXED_PLANES && self.max_distance > 0 {
            Ok(())
        } else {
            Err(Error::InvalidSpec(
                "the encoding's tables do not fit the board".into(),
            ))
        }
    }
}

/// How the games are played and ended.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Cut a game after this many plies (0: only the rules end it).
    pub max_plies: u64,
    /// Claim every draw a claim-based rule allows, at once.
    pub claims: bool,
    /// A side without a legal move wins (losing draughts) instead of losing.
    pub no_move_wins: bool,
    /// The colour of the first player (`player_0`): 0 White, 1 Black.
    pub first: u8,
}

/// What one step did to one game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Step {
    /// The reward of the side that took the action.
    pub reward: f64,
    /// The game ended by the rules (or by an illegal action that loses).
    pub terminated: bool,
    /// The game was cut at `max_plies`.
    pub truncated: bool,
}

/// The byte buffers [`Batch::write`] fills (native endianness; one row per game).
///
/// A game's observation and mask rows are updated in place: only what changed since the last
/// call is written, so every call must be given the same buffers, left as the last call wrote
/// them (after [`Batch::new`] or [`Batch::reset`], the next call writes the rows whole).
#[derive(Debug)]
pub struct Out<'a> {
    /// `f32` planes: `n * cells * planes`.
    pub obs: &'a mut [u8],
    /// One byte per action: `n * num_actions`.
    pub mask: &'a mut [u8],
    /// `f64` per game.
    pub rewards: &'a mut [u8],
    /// One byte per game.
    pub terminated: &'a mut [u8],
    /// One byte per game.
    pub truncated: &'a mut [u8],
    /// One byte per game: the agent to act (0: the first player).
    pub player: &'a mut [u8],
}

/// A legal move as every step reads it: how it is played and its first segment's action.
///
/// What only a move of several segments needs (its other actions, its path, its captures) is in
/// a [`Path`] of its own, so that the list of a game's moves stays a few cache lines.
#[derive(Clone, Copy, Debug)]
struct Entry<B: Bits> {
    compact: Compact<B>,
    /// The action of the first segment.
    first: u32,
    event: u8,
}

/// The segments of a legal move: kept for every move of a position with a capture (the moves
/// whose choice may take several steps), none for a position of quiet moves only.
#[derive(Clone, Debug)]
struct Path {
    actions: SmallVec<[u32; 4]>,
    path: Squares,
    captured: Squares,
}

/// One game: its node, draw counts and the move being chosen.
///
/// The draw counts are those of [`crate::drawrules::DrawCounter`], kept compactly: the history
/// holds each position's hash (and its node, read only when the hashes match), and the
/// repetitions are counted once per move over the plies since the last capture or crowning (the
/// material cannot come back across one).
#[derive(Clone, Debug)]
struct Game<B: Bits> {
    node: Node<B>,
    /// The move-count rules' counts.
    counts: SmallVec<[u64; 4]>,
    /// Plies since the last capture or crowning.
    since: u64,
    /// Each position's hash, the start first.
    hashes: Vec<u64>,
    /// Each position's node, the start first.
    nodes: Vec<Node<B>>,
    /// How many times the current position has occurred.
    reps: u32,
    /// The current position's hash ([`crate::drawrules::hash`]), kept move by move.
    hash: u64,
    /// What the endgame rules read of the current position.
    frame: Frame,
    /// The cells of White's pieces, of Black's and of the kings, seen from each side, kept move
    /// by move for the observation (boards of at most [`observe::DIFF_CELLS`] cells).
    cells: [[u128; 3]; 2],
    plies: u64,
    entries: Vec<Entry<B>>,
    /// The entries' segments, one per entry; empty when every move is a single quiet step.
    paths: Vec<Path>,
    /// The entries still possible for the move being chosen (filled when its first segment is).
    live: SmallVec<[u32; 4]>,
    /// Segments fixed so far.
    depth: usize,
    /// How the legal moves are listed: as entries, or as their actions alone.
    listing: Listing,
    /// The game ended at the last step: the next step starts it again.
    over: bool,
}

/// How a game's legal moves are listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Listing {
    /// As [`Entry`]s (and their [`Path`]s where a capture may take several segments).
    Entries,
    /// No capture: quiet moves, as their actions alone (in the game's [`Choices`]; `entries`
    /// empty), each naming its move.
    Quiet,
    /// Captures that are all single jumps by men that cannot go on, as their actions alone,
    /// each naming its move (the piece jumped halfway).
    Jumps,
}

impl<B: Bits> Game<B> {
    /// The action of entry `index`'s segment `depth`, if it has that many segments.
    fn action(&self, index: u32, depth: usize) -> Option<u32> {
        if depth == 0 {
            self.entries.get(index as usize).map(|e| e.first)
        } else {
            self.paths
                .get(index as usize)
                .and_then(|p| p.actions.get(depth).copied())
        }
    }
}

/// What every game of a batch shares: the rules, the encoding, the options.
#[derive(Clone, Debug)]
struct Ctx<B: Bits> {
    gen: Box<Generator<B>>,
    spec: Arc<DrawSpec>,
    enc: Encoding,
    opts: Options,
    /// Per side: the cell of each bit (`u32::MAX`: no square).
    bit_cells: [Vec<u32>; 2],
    /// Per side: the cell of each bit as a set of one (empty for a board too large to update
    /// its rows by difference: see [`observe::cell_masks`]).
    cell_masks: [Vec<u128>; 2],
    /// The start position, its move-count rules' counts and plies since a material change.
    start: Node<B>,
    start_counts: SmallVec<[u64; 4]>,
    start_since: u64,
    /// See [`moves::man_actions`].
    man_actions: [Vec<u32>; 2],
    /// The quiet moves' actions listed in order (see [`quiet::QuietActions`]).
    quiet: quiet::QuietActions,
    /// See [`moves::action_bits`].
    action_bits: [Vec<u32>; 2],
    /// The rules leave the choice among captures free (no precedence): see
    /// [`Ctx::fill_short_jumps`].
    free_choice: bool,
    /// Whether a draw rule can end a game by itself (`[0]`) or on a claim (`[1]`): the draw
    /// check is skipped where none can.
    may_draw: [bool; 2],
    /// Per side: its men's quiet steps all shift the same way, so that the sum of its men's bit
    /// indices only grows (or only shrinks) with each man move and no earlier position comes back.
    men_one_way: [bool; 2],
}

/// `n` games of one ruleset, stepped together.
#[derive(Clone, Debug)]
pub struct Batch<B: Bits> {
    ctx: Ctx<B>,
    games: Vec<Game<B>>,
    choices: Vec<Choices>,
    /// Per game: its mask row holds its choices' actions and nothing else (false: the row is
    /// cleared whole at its next write).
    shown: Vec<bool>,
    /// Per game: what its observation row holds (see [`View`]).
    views: Vec<View>,
    rng: u64,
}

fn prefix_error() -> Error {
    Error::InvalidMove("the path of a legal move is the beginning of another's".into())
}

impl<B: Bits> Batch<B> {
    /// `n` games at the start position (call [`Batch::write`] to see them): the rules' own, or
    /// `start` (a node, the move-count rules' counts, plies since a material change).
    ///
    /// # Errors
    /// [`Error::InvalidSpec`] if the tables do not fit the board or the draw rules another
    /// width; [`Error::InvalidNode`] if the start does not fit the rules or has no legal move.
    pub fn new(
        gen: Box<Generator<B>>,
        spec: Arc<DrawSpec>,
        enc: Encoding,
        opts: Options,
        n: usize,
        start: Option<(Node<B>, Vec<u64>, u64)>,
    ) -> Result<Self, Error> {
        let (start, start_counts, start_since) =
            start.unwrap_or_else(|| (gen.start(), vec![0; spec.move_counts.len()], 0));
        gen.check(&start)?;
        if start_counts.len() != spec.move_counts.len() {
            return Err(Error::InvalidNode(format!(
                "{} move counts for {} move-count rules",
                start_counts.len(),
                spec.move_counts.len()
            )));
        }
        let layout = &gen.tables.layout;
        enc.check(layout.bit_of_square.len() - 1)?;
        if spec.limbs > (B::BITS as usize).div_ceil(64) {
            return Err(Error::InvalidSpec(
                "draw rules of a wider board than the rules'".into(),
            ));
        }
        let bit_cells = [0usize, 1].map(|side| {
            layout
                .square_of_bit
                .iter()
                .map(|&sq| {
                    if sq == 0 {
                        u32::MAX
                    } else {
                        enc.grid[side][sq as usize]
                    }
                })
                .collect()
        });
        let man_actions = moves::man_actions(&gen, &enc);
        let cell_masks = observe::cell_masks(&bit_cells, enc.cells);
        let quiet = quiet::QuietActions::new(&gen, &enc);
        let action_bits = moves::action_bits(&gen, &enc);
        let men_one_way = [0, 1].map(|color| {
            let steps = &gen.tables.man_moves[color];
            steps.iter().all(|s| s.up) || steps.iter().all(|s| !s.up)
        });
        let free_choice = match &gen.precedence {
            PrecedenceRule::Free => true,
            PrecedenceRule::Criteria(list) => list.is_empty(),
            PrecedenceRule::External(_) => false,
        };
        let may_draw = [false, true].map(|claims| {
            (spec.repetitions > 0 && spec.repetition_claim == claims)
                || (!claims && !spec.endgames.is_empty())
                || spec.move_counts.iter().any(|rule| rule.claim == claims)
        });
        let ctx = Ctx {
            may_draw,
            free_choice,
            gen,
            spec,
            enc,
            opts,
            bit_cells,
            cell_masks,
            start,
            start_counts: start_counts.into(),
            start_since,
            man_actions,
            quiet,
            action_bits,
            men_one_way,
        };
        let mut choices = vec![Choices::default(); n];
        let games: Vec<Game<B>> = choices
            .iter_mut()
            .map(|c| ctx.new_game(c))
            .collect::<Result<_, _>>()?;
        Ok(Batch {
            ctx,
            choices,
            games,
            shown: vec![false; n],
            views: vec![View::default(); n],
            rng: 0x9E37_79B9_7F4A_7C15,
        })
    }

    /// Games in the batch.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether the batch holds no game.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Game `index`'s node and plies played, if there is such a game.
    pub fn node(&self, index: usize) -> Option<(Node<B>, u64)> {
        self.games.get(index).map(|g| (g.node, g.plies))
    }

    /// Whether `action` is legal in game `index` now (always true for a game that has ended:
    /// its action is ignored).
    pub fn is_legal(&self, index: usize, action: i64) -> bool {
        self.choices.get(index).is_some_and(|c| {
            c.over || u32::try_from(action).is_ok_and(|a| c.actions.binary_search(&a).is_ok())
        })
    }

    /// The first game whose action in `actions` is not legal (see [`Batch::is_legal`]; a game
    /// without an action counts as illegal).
    pub fn first_illegal(&self, actions: &[i64]) -> Option<usize> {
        (0..self.games.len()).find(|&index| {
            !actions
                .get(index)
                .is_some_and(|&action| self.is_legal(index, action))
        })
    }

    /// The legal actions of game `index` now (sorted; empty for a game that has ended).
    pub fn legal_actions(&self, index: usize) -> Vec<u32> {
        self.choices
            .get(index)
            .map(|c| c.actions.to_vec())
            .unwrap_or_default()
    }

    /// Starts every game again (the next [`Batch::write`] shows the start positions).
    ///
    /// # Errors
    /// As [`Batch::new`].
    pub fn reset(&mut self) -> Result<(), Error> {
        for (game, choices) in self.games.iter_mut().zip(&mut self.choices) {
            self.ctx.restart(game, choices)?;
        }
        self.shown.fill(false);
        self.views.iter_mut().for_each(View::forget);
        Ok(())
    }

    /// Seeds the generator of [`Batch::random_actions`].
    pub fn seed(&mut self, seed: u64) {
        self.rng = seed ^ 0x2545_F491_4F6C_DD1D;
    }

    fn next_random(&mut self) -> u64 {
        // splitmix64
        self.rng = self.rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// One uniformly random legal action per game into `out` (0 for a game that has ended).
    pub fn random_actions(&mut self, out: &mut [i64]) {
        for (index, slot) in out.iter_mut().enumerate().take(self.games.len()) {
            let count = self.choices[index].actions.len();
            *slot = if count == 0 {
                0
            } else {
                // The high word of a 64x64-bit product: uniform up to 2^-64 (no division).
                let pick = ((u128::from(self.next_random()) * count as u128) >> 64) as usize;
                i64::from(self.choices[index].actions[pick])
            };
        }
    }

    /// Steps every game with its action (`actions[i]` for game `i`): a game that ended at the
    /// last step starts again instead. With `lose_illegal`, an illegal action loses its game;
    /// without, an illegal action is an error before any game moves (ask
    /// [`Batch::first_illegal`] which). With `out`, each game's result is written as soon as it
    /// is stepped (one pass over the games; see [`Batch::write`]).
    ///
    /// # Errors
    /// [`Error::IllegalAction`] for an illegal action without `lose_illegal`; what the generator
    /// returns (capture search bound, an external precedence), or a move whose path begins
    /// another's; [`Error::InvalidSpec`] for buffers of the wrong size.
    pub fn advance(
        &mut self,
        actions: &[i64],
        lose_illegal: bool,
        mut out: Option<&mut Out<'_>>,
    ) -> Result<Vec<Step>, Error> {
        if let Some(out) = out.as_deref() {
            self.check_sizes(out)?;
        }
        if !lose_illegal {
            if let Some(index) = self.first_illegal(actions) {
                let action = actions.get(index).copied().unwrap_or(-1);
                return Err(Error::IllegalAction { index, action });
            }
        }
        let mut steps = vec![Step::default(); self.games.len()];
        for (index, step) in steps.iter_mut().enumerate() {
            let action = actions.get(index).copied().unwrap_or(-1);
            match out.as_deref_mut() {
                // The row's actions are cleared before the choices change (and set after).
                Some(out) => self.clear_mask(index, out),
                None => self.shown[index] = false,
            }
            *step = self.advance_one(index, action, lose_illegal)?;
            if let Some(out) = out.as_deref_mut() {
                self.write_one(index, *step, out);
            }
        }
        Ok(steps)
    }

    fn advance_one(
        &mut self,
        index: usize,
        action: i64,
        lose_illegal: bool,
    ) -> Result<Step, Error> {
        let (game, choices) = (&mut self.games[index], &mut self.choices[index]);
        let step = if game.over {
            self.ctx.restart(game, choices)?;
            Step::default()
        } else if lose_illegal && !u32::try_from(action).is_ok_and(|a| choices.actions.contains(&a))
        {
            // (Without `lose_illegal`, every action was checked before any game moved.)
            game.over = true;
            Step {
                reward: -1.0,
                terminated: true,
                truncated: false,
            }
        } else {
            self.ctx.take(game, choices, action as u32)?
        };
        if game.over {
            choices.end();
        }
        Ok(step)
    }

    fn check_sizes(&self, out: &Out<'_>) -> Result<(), Error> {
        let n = self.games.len();
        let enc = &self.ctx.enc;
        let sizes = [
            (out.obs.len(), n * enc.cells * enc.planes * 4),
            (out.mask.len(), n * enc.num_actions),
            (out.rewards.len(), n * 8),
            (out.terminated.len(), n),
            (out.truncated.len(), n),
            (out.player.len(), n),
        ];
        if sizes.iter().any(|(have, want)| have != want) {
            return Err(Error::InvalidSpec(format!(
                "output buffers of sizes {sizes:?} (have, want)"
            )));
        }
        Ok(())
    }

    /// Writes every game's observation and mask, and `steps` (none after a reset), into `out`
    /// (the rows updated over what the last call wrote: see [`Out`]).
    ///
    /// # Errors
    /// [`Error::InvalidSpec`] if a buffer has the wrong size (nothing written).
    pub fn write(&mut self, steps: Option<&[Step]>, out: &mut Out<'_>) -> Result<(), Error> {
        self.check_sizes(out)?;
        for index in 0..self.games.len() {
            let step = steps
                .and_then(|s| s.get(index))
                .copied()
                .unwrap_or_default();
            self.clear_mask(index, out);
            self.write_one(index, step, out);
        }
        Ok(())
    }

    /// Clears game `index`'s mask row (the sizes checked): only the actions it shows, when it
    /// shows its choices.
    fn clear_mask(&mut self, index: usize, out: &mut Out<'_>) {
        let actions = self.ctx.enc.num_actions;
        let mask = &mut out.mask[index * actions..(index + 1) * actions];
        if self.shown[index] {
            for &a in &self.choices[index].actions {
                mask[a as usize] = 0;
            }
        } else {
            mask.fill(0);
        }
        self.shown[index] = false;
    }

    /// Writes game `index`'s rows (the sizes checked; its mask row cleared).
    fn write_one(&mut self, index: usize, step: Step, out: &mut Out<'_>) {
        let (cells, planes, actions) = (
            self.ctx.enc.cells,
            self.ctx.enc.planes,
            self.ctx.enc.num_actions,
        );
        let game = &self.games[index];
        let obs = &mut out.obs[index * cells * planes * 4..(index + 1) * cells * planes * 4];
        let mask = &mut out.mask[index * actions..(index + 1) * actions];
        for &a in &self.choices[index].actions {
            mask[a as usize] = 1;
        }
        self.shown[index] = true;
        self.ctx
            .write_observation(game, &mut self.views[index], obs);
        out.rewards[index * 8..index * 8 + 8].copy_from_slice(&step.reward.to_ne_bytes());
        out.terminated[index] = u8::from(step.terminated);
        out.truncated[index] = u8::from(step.truncated);
        out.player[index] = u8::from(game.node.color != self.ctx.opts.first);
    }
}

impl<B: Bits> Ctx<B> {
    /// What the draw rules read of `node` (its hash, material, lone kings).
    fn frame(&self, node: &Node<B>) -> Result<Frame, Error> {
        let mut limbs = [[0u64; MAX_LIMBS]; 3];
        for (bits, out) in [node.own, node.opp, node.kings].into_iter().zip(&mut limbs) {
            for bit in bits.iter() {
                out[(bit / 64) as usize] |= 1 << (bit % 64);
            }
        }
        let n = self.spec.limbs;
        let [own, opp, kings] = &limbs;
        let facts = self
            .spec
            .facts(&own[..n], &opp[..n], &kings[..n], node.color, node.state)?;
        Ok(facts.frame)
    }

    fn new_game(&self, choices: &mut Choices) -> Result<Game<B>, Error> {
        let mut game = Game {
            node: self.start,
            counts: SmallVec::new(),
            since: 0,
            hashes: Vec::new(),
            nodes: Vec::new(),
            reps: 1,
            hash: 0,
            frame: self.frame(&self.start)?,
            cells: [[0; 3]; 2],
            plies: 0,
            entries: Vec::new(),
            paths: Vec::new(),
            live: SmallVec::new(),
            depth: 0,
            listing: Listing::Entries,
            over: false,
        };
        self.restart(&mut game, choices)?;
        Ok(game)
    }

    /// Starts `game` again from the start (its buffers kept).
    fn restart(&self, game: &mut Game<B>, choices: &mut Choices) -> Result<(), Error> {
        game.node = self.start;
        game.cells = self.cells_of(&game.node);
        game.counts.clone_from(&self.start_counts);
        game.since = self.start_since;
        game.frame = self.frame(&self.start)?;
        game.hash = game.frame.hash;
        game.hashes.clear();
        game.hashes.push(game.hash);
        game.nodes.clear();
        game.nodes.push(self.start);
        game.reps = 1;
        game.plies = 0;
        game.over = false;
        self.fill_entries(game, choices)?;
        if choices.actions.is_empty() {
            return Err(Error::InvalidNode(
                "the start position has no legal move: there is no game to play".into(),
            ));
        }
        Ok(())
    }

    /// Takes the legal `action` in `game`; plays the move once it is chosen (`choices`: the
    /// legal actions after).
    fn take(&self, game: &mut Game<B>, choices: &mut Choices, action: u32) -> Result<Step, Error> {
        if game.listing != Listing::Entries {
            let (compact, event) = self.action_move(&game.node, game.listing, action)?;
            return self.play(game, choices, compact, event);
        }
        let depth = game.depth;
        let mut live = std::mem::take(&mut game.live);
        if depth == 0 {
            // Every entry is possible before the first segment: `live` is not kept till then.
            live.clear();
            let matching = game.entries.iter().enumerate();
            live.extend(
                matching
                    .filter(|(_, e)| e.first == action)
                    .map(|(i, _)| i as u32),
            );
        } else {
            live.retain(|i| game.action(*i, depth) == Some(action));
        }
        game.live = live;
        let mut depth = depth + 1;
        while game.live.len() > 1 {
            let first = game.action(game.live[0], depth);
            let mut same = true;
            for &i in &game.live {
                let next = game.action(i, depth);
                if next.is_none() {
                    return Err(prefix_error());
                }
                same &= next == first;
            }
            if !same {
                break;
            }
            depth += 1;
        }
        game.depth = depth;
        if game.live.len() > 1 {
            choices.refill(game);
            return Ok(Step::default());
        }
        let entry = &game.entries[game.live[0] as usize];
        let (compact, event) = (entry.compact, entry.event);
        self.play(game, choices, compact, event)
    }

    /// Plays the move `c` (its draw-rule `event` bits), lists the legal actions after into
    /// `choices`, then ends the game if the rules (or `max_plies`) say so.
    fn play(
        &self,
        game: &mut Game<B>,
        choices: &mut Choices,
        c: Compact<B>,
        event: u8,
    ) -> Result<Step, Error> {
        let before = game.node;
        game.node = self.gen.play(&before, &c);
        self.move_cells(&mut game.cells, before.color, &c);
        // The hash move by move: the keys of the bits the move toggles, the side to move, the state.
        let mover = usize::from(before.color);
        let mut hash =
            game.hash ^ BLACK_TO_MOVE ^ state_key(before.state) ^ state_key(game.node.state);
        for (role, bits) in [(mover, c.moved), (1 - mover, c.captured), (2, c.crowned)] {
            for bit in bits.iter() {
                hash ^= key(role, bit as usize);
            }
        }
        game.hash = hash;
        self.count(game, event)?;
        game.plies += 1;
        self.fill_entries(game, choices)?;
        let node = game.node;
        let mover = node.color ^ 1;
        let winner = if self.gen.tables.crowning_wins && node.kings.any() {
            Some(if (node.kings & node.own).any() {
                node.color
            } else {
                mover
            })
        } else if choices.actions.is_empty() {
            Some(if self.opts.no_move_wins {
                node.color
            } else {
                mover
            })
        } else {
            None
        };
        if let Some(winner) = winner {
            game.over = true;
            let reward = if winner == mover { 1.0 } else { -1.0 };
            return Ok(Step {
                reward,
                terminated: true,
                truncated: false,
            });
        }
        if (self.may_draw[0] && self.draw(game, choices, false)?)
            || (self.opts.claims && self.may_draw[1] && self.draw(game, choices, true)?)
        {
            game.over = true;
            return Ok(Step {
                reward: 0.0,
                terminated: true,
                truncated: false,
            });
        }
        let cut = self.opts.max_plies > 0 && game.plies >= self.opts.max_plies;
        game.over = cut;
        Ok(Step {
            reward: 0.0,
            terminated: false,
            truncated: cut,
        })
    }
}

mod choices;
mod draws;
mod moves;
mod observe;
mod quiet;

use choices::Choices;
use observe::View;

#[cfg(test)]
mod tests;

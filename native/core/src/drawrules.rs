//! The draw rules a game keeps: repetition, move-count and endgame rules, written once.
//!
//! [`DrawSpec`] is what a ruleset's `DrawRules` say, as data (no variant is named): how many
//! times the same position draws, the move-count rules (each restarted by the events its flags
//! name) and the endgame rules (conditions on the material, the weaker side's lone king on the
//! long diagonal, no shot in the air). [`DrawCounter`] is a game's record of them: one frame per
//! position (its [`hash`], bits, material) and the counts after each move, pushed and popped
//! with the moves; [`DrawCounter::draw`] says which rule, if any, draws now.
//!
//! The "no shot in the air" condition needs the legal moves, which the counter does not have:
//! the caller answers it through a closure, asked only when everything else about the rule holds.
//!
//! [`hash`] is a Zobrist hash of a node (64 bits, for repetition detection and transposition
//! tables): internal, not a stable key; equal nodes hash alike, and the counter compares the bits
//! of positions whose hashes match, so a collision never counts as a repetition.

use std::sync::Arc;

use crate::error::Error;

/// The most 64-bit limbs a layout has (26x26 with every square played: 702 bits).
pub const MAX_LIMBS: usize = 11;
const MAX_BITS: usize = MAX_LIMBS * 64;

/// What a move did, as the bits a move-count rule's resets are written in.
pub mod events {
    /// A man moved (a king's move leaves this bit clear).
    pub const MAN_MOVED: u8 = 1;
    /// The move captured.
    pub const CAPTURE: u8 = 2;
    /// The move crowned a man.
    pub const CROWNING: u8 = 4;
}

/// One side's material as the rules write it: `(kings, men)`.
pub type Side = (u32, u32);

/// Both sides' material.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Material {
    /// White's `(kings, men)`.
    pub white: Side,
    /// Black's `(kings, men)`.
    pub black: Side,
}

impl Material {
    /// Pieces on the board.
    pub fn pieces(&self) -> u32 {
        self.white.0 + self.white.1 + self.black.0 + self.black.1
    }

    /// Men on the board.
    pub fn men(&self) -> u32 {
        self.white.1 + self.black.1
    }
}

/// A draw after `moves` moves by each player in which none of the resetting events happened.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveCountRule {
    /// Moves by each player (counted in plies: twice this).
    pub moves: u64,
    /// The [`events`] that start the count again.
    pub resets: u8,
    /// The draw must be claimed; it does not end the game by itself.
    pub claim: bool,
}

impl MoveCountRule {
    /// The rule's count after a move that did `event` (bits of [`events`]) from `count`.
    pub fn next(&self, count: u64, event: u8) -> u64 {
        if event & self.resets != 0 {
            0
        } else {
            count.saturating_add(1)
        }
    }
}

/// Plies since the last capture or crowning (the endgame rules' count) after a move that did
/// `event` (bits of [`events`]) from `since`.
pub fn next_since(since: u64, event: u8) -> u64 {
    if event & (events::CAPTURE | events::CROWNING) != 0 {
        0
    } else {
        since.saturating_add(1)
    }
}

/// A draw when a material balance has lasted `moves` moves by each player; empty conditions
/// match anything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EndgameRule {
    /// Moves by each player the balance may last (0: drawn at once).
    pub moves: u64,
    /// Material of the stronger side, each `(kings, men)`.
    pub strong: Vec<Side>,
    /// Material of the weaker side.
    pub weak: Vec<Side>,
    /// The stronger side has at least this many kings.
    pub strong_min_kings: u32,
    /// Numbers of pieces on the board the rule applies to.
    pub total_pieces: Vec<u32>,
    /// Only while both sides have a king.
    pub both_have_kings: bool,
    /// The weaker side's lone king stands on the long diagonal.
    pub weak_king_on_main_diagonal: bool,
    /// Only while the side to move can neither capture nor is bound to be captured.
    pub no_shot: bool,
}

/// Which sides an endgame rule can take as the weaker one, given the material.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WeakSides {
    /// The rule names no stronger or weaker side and the material matches as a whole.
    Whole,
    /// `[White, Black]`: whether each can be the weaker side (neither: the rule does not match).
    Colors([bool; 2]),
}

impl EndgameRule {
    /// The sides the rule can take as the weaker one with `material`.
    pub fn weak_sides(&self, material: &Material) -> WeakSides {
        let none = WeakSides::Colors([false, false]);
        if !self.total_pieces.is_empty() && !self.total_pieces.contains(&material.pieces()) {
            return none;
        }
        if self.both_have_kings && (material.white.0 == 0 || material.black.0 == 0) {
            return none;
        }
        if self.strong.is_empty() && self.weak.is_empty() && self.strong_min_kings == 0 {
            return WeakSides::Whole;
        }
        let can_be_weak = |strong: Side, weak: Side| {
            (self.strong.is_empty() || self.strong.contains(&strong))
                && strong.0 >= self.strong_min_kings
                && (self.weak.is_empty() || self.weak.contains(&weak))
        };
        WeakSides::Colors([
            can_be_weak(material.black, material.white),
            can_be_weak(material.white, material.black),
        ])
    }

    /// Whether the conditions on the material hold (the placement may still decide).
    pub fn material_applies(&self, material: &Material) -> bool {
        self.weak_sides(material) != WeakSides::Colors([false, false])
    }

    /// Whether the rule looks at where the pieces stand, not only at the material.
    pub fn depends_on_placement(&self) -> bool {
        self.no_shot || self.weak_king_on_main_diagonal
    }

    /// The count in plies after which the rule draws.
    pub fn plies(&self) -> u64 {
        self.moves.saturating_mul(2)
    }

    /// Whether the rule applies to the position of `frame` (its count aside); `shot` says whether the side to
    /// move has a shot in the air, asked only if it can still decide.
    ///
    /// # Errors
    /// Whatever `shot` returns.
    pub fn applies<E>(
        &self,
        frame: &Frame,
        shot: &mut dyn FnMut() -> Result<bool, E>,
    ) -> Result<bool, E> {
        let weak = self.weak_sides(&frame.material);
        let matched = match weak {
            WeakSides::Whole => true,
            WeakSides::Colors([white, black]) => {
                (white || black)
                    && (!self.weak_king_on_main_diagonal
                        || (white && frame.lone_king_on_diagonal[0])
                        || (black && frame.lone_king_on_diagonal[1]))
            }
        };
        Ok(matched && !(self.no_shot && shot()?))
    }
}

/// A ruleset's draw rules as data, with the board facts they need.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DrawSpec {
    /// The same position (same side to move) this many times draws; 0: no repetition rule.
    pub repetitions: u32,
    /// The repetition draw must be claimed.
    pub repetition_claim: bool,
    /// The move-count rules, in order.
    pub move_counts: Vec<MoveCountRule>,
    /// The endgame rules, in order.
    pub endgames: Vec<EndgameRule>,
    /// The limbs of the layout's bitboards (1 to [`MAX_LIMBS`]).
    pub limbs: usize,
    /// The squares of the long diagonal (the one joining the two playable corners) in the layout,
    /// `limbs` limbs; only read by rules on the lone king's place.
    pub main_diagonal: Vec<u64>,
}

impl DrawSpec {
    /// Checks the spec: `limbs` in range, the diagonal as wide, repetitions 0 or from 2 up.
    ///
    /// # Errors
    /// [`Error::InvalidSpec`] naming the bad field.
    pub fn check(&self) -> Result<(), Error> {
        if !(1..=MAX_LIMBS).contains(&self.limbs) {
            return Err(Error::InvalidSpec(format!(
                "draw rules: limbs {} must be from 1 to {MAX_LIMBS}",
                self.limbs
            )));
        }
        if self.main_diagonal.len() != self.limbs {
            return Err(Error::InvalidSpec(format!(
                "draw rules: the main diagonal has {} limbs, not {}",
                self.main_diagonal.len(),
                self.limbs
            )));
        }
        if self.repetitions == 1 {
            return Err(Error::InvalidSpec(
                "draw rules: repetitions 1 must be 0 (none) or from 2 up".into(),
            ));
        }
        Ok(())
    }

    /// The move-count rules' counts a FEN's halfmove clock restores. The clock counts plies
    /// since the last capture or crowning: a rule restarted by those alone, or any rule on a board
    /// without men (no man can have moved since), has that count; a rule a man's move also
    /// restarts starts from 0, the count the clock cannot tell.
    pub fn counts_from_clock(&self, halfmoves: u64, no_men: bool) -> Vec<u64> {
        self.move_counts
            .iter()
            .map(|rule| {
                let by_capture = rule.resets & events::CAPTURE != 0;
                let by_man = rule.resets & events::MAN_MOVED != 0;
                if by_capture && (no_men || !by_man) {
                    halfmoves
                } else {
                    0
                }
            })
            .collect()
    }

    /// The facts the rules read of the node `own, opp, kings, color, state` (the side to move's
    /// pieces first, `limbs` limbs each).
    ///
    /// # Errors
    /// [`Error::InvalidNode`] for a bitboard of the wrong width or a colour other than 0/1.
    pub fn facts(
        &self,
        own: &[u64],
        opp: &[u64],
        kings: &[u64],
        color: u8,
        state: u128,
    ) -> Result<Facts, Error> {
        if color > 1 {
            return Err(Error::InvalidNode(format!("color {color} must be 0 or 1")));
        }
        for (what, bits) in [("own", own), ("opp", opp), ("kings", kings)] {
            if bits.len() != self.limbs {
                return Err(Error::InvalidNode(format!(
                    "{what} has {} limbs, not {}",
                    bits.len(),
                    self.limbs
                )));
            }
        }
        let (white, black) = if color == 0 { (own, opp) } else { (opp, own) };
        let ((w, w_diagonal), (b, b_diagonal)) = (self.side(white, kings), self.side(black, kings));
        let mut bits = [0; 3 * MAX_LIMBS];
        let limbs = self.limbs;
        bits[..limbs].copy_from_slice(white);
        bits[limbs..2 * limbs].copy_from_slice(black);
        bits[2 * limbs..3 * limbs].copy_from_slice(kings);
        Ok(Facts {
            frame: Frame {
                hash: hash(white, black, kings, color, state),
                color,
                state,
                material: Material { white: w, black: b },
                lone_king_on_diagonal: [w_diagonal, b_diagonal],
            },
            bits,
            limbs,
        })
    }

    /// One side's `(kings, men)` and whether it has exactly one king, on the long diagonal.
    fn side(&self, pieces: &[u64], kings: &[u64]) -> (Side, bool) {
        let (mut all, mut crowned, mut diagonal) = (0, 0, 0);
        for ((&p, &k), &d) in pieces.iter().zip(kings).zip(&self.main_diagonal) {
            all += p.count_ones();
            crowned += (p & k).count_ones();
            diagonal += (p & k & d).count_ones();
        }
        ((crowned, all - crowned), crowned == 1 && diagonal == 1)
    }

    /// The first endgame rule (without `claims`), then move-count rule (whose `claim` flag equals
    /// `claims`), that draws the position of `frame` with the move-count rules' `counts` and
    /// `since` plies since the last capture or crowning: what [`DrawCounter::draw`] finds after
    /// the repetition rule, and what a search reads along its lines. `shot` as there.
    ///
    /// # Errors
    /// Whatever `shot` returns.
    pub fn rule_draw<E>(
        &self,
        claims: bool,
        frame: &Frame,
        counts: &[u64],
        since: u64,
        shot: &mut dyn FnMut() -> Result<bool, E>,
    ) -> Result<Option<Draw>, E> {
        if !claims {
            for (index, rule) in self.endgames.iter().enumerate() {
                if since >= rule.plies() && rule.applies(frame, shot)? {
                    return Ok(Some(Draw::Endgame(index)));
                }
            }
        }
        for (index, (rule, &count)) in self.move_counts.iter().zip(counts).enumerate() {
            if rule.claim == claims && count >= rule.moves.saturating_mul(2) {
                return Ok(Some(Draw::MoveCount(index)));
            }
        }
        Ok(None)
    }

    /// Whether endgame rule `index` applies to `facts` (its count aside); see
    /// [`EndgameRule::applies`].
    ///
    /// # Errors
    /// Whatever `shot` returns; `None` for an index out of range.
    pub fn endgame_applies<E>(
        &self,
        index: usize,
        facts: &Facts,
        shot: &mut dyn FnMut() -> Result<bool, E>,
    ) -> Option<Result<bool, E>> {
        self.endgames
            .get(index)
            .map(|rule| rule.applies(&facts.frame, shot))
    }
}

/// What the draw rules read of one position, as a counter keeps it (its bits apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// The node's [`hash`].
    pub hash: u64,
    /// The side to move: 0 White, 1 Black.
    pub color: u8,
    /// The rule state.
    pub state: u128,
    /// Both sides' material.
    pub material: Material,
    /// `[White, Black]`: the side has exactly one king, and it stands on the long diagonal.
    pub lone_king_on_diagonal: [bool; 2],
}

/// Positions a new [`DrawCounter`] has room for before its vectors grow.
const RESERVED_PLIES: usize = 64;

/// A position as [`DrawSpec::facts`] reads it: its [`Frame`] and its bits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Facts {
    /// What the rules read.
    pub frame: Frame,
    /// White's, Black's and the kings' bits, `limbs` limbs each (the rest zero).
    bits: [u64; 3 * MAX_LIMBS],
    limbs: usize,
}

impl Facts {
    /// White's, Black's and the kings' limbs, one after the other.
    pub fn bits(&self) -> &[u64] {
        &self.bits[..3 * self.limbs]
    }
}

/// Which draw rule applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Draw {
    /// The repetition rule.
    Repetition,
    /// The move-count rule of this index.
    MoveCount(usize),
    /// The endgame rule of this index.
    Endgame(usize),
}

/// A game's draw counts: a frame per position, pushed and popped with the moves.
#[derive(Clone, Debug)]
pub struct DrawCounter {
    spec: Arc<DrawSpec>,
    /// Each position's frame, the root first.
    frames: Vec<Frame>,
    /// Each position's bits ([`Facts::bits`]), one after the other.
    bits: Vec<u64>,
    /// Plies since the last capture or crowning, per frame.
    since: Vec<u64>,
    /// The move-count rules' counts, per frame (`spec.move_counts.len()` each).
    counts: Vec<u64>,
}

impl DrawCounter {
    /// A counter whose game starts at `root` with the given counts.
    ///
    /// # Errors
    /// [`Error::InvalidNode`] if `counts` does not hold one count per move-count rule, or `root`
    /// was read by a spec of another width.
    pub fn new(
        spec: Arc<DrawSpec>,
        root: &Facts,
        counts: &[u64],
        since: u64,
    ) -> Result<Self, Error> {
        if counts.len() != spec.move_counts.len() {
            return Err(Error::InvalidNode(format!(
                "{} move counts for {} move-count rules",
                counts.len(),
                spec.move_counts.len()
            )));
        }
        if root.limbs != spec.limbs {
            return Err(Error::InvalidNode(format!(
                "a position of {} limbs for draw rules of {}",
                root.limbs, spec.limbs
            )));
        }
        // Room for a game's first plies from the start: a board pushes once a ply, and growing
        // four vectors one doubling at a time cost a push about 300 instructions.
        let mut frames = Vec::with_capacity(RESERVED_PLIES);
        frames.push(root.frame);
        let mut bits = Vec::with_capacity(RESERVED_PLIES * root.bits().len());
        bits.extend_from_slice(root.bits());
        let mut since_all = Vec::with_capacity(RESERVED_PLIES);
        since_all.push(since);
        let mut counts_all = Vec::with_capacity(RESERVED_PLIES * counts.len());
        counts_all.extend_from_slice(counts);
        Ok(DrawCounter {
            spec,
            frames,
            bits,
            since: since_all,
            counts: counts_all,
        })
    }

    /// The rules counted.
    pub fn spec(&self) -> &DrawSpec {
        &self.spec
    }

    /// Positions recorded (the root included).
    pub fn len(&self) -> usize {
        self.frames.len()
    }

    /// Always false: a counter holds its root.
    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    /// The current position's frame.
    pub fn current(&self) -> &Frame {
        &self.frames[self.frames.len() - 1]
    }

    /// The move-count rules' counts after the last move.
    pub fn move_counts(&self) -> &[u64] {
        let rules = self.spec.move_counts.len();
        &self.counts[self.counts.len() - rules..]
    }

    /// Plies since the last capture or crowning (the endgame rules' count).
    pub fn since_material_change(&self) -> u64 {
        self.since[self.since.len() - 1]
    }

    /// Records a move that did `event` (bits of [`events`]) and led to `after`.
    ///
    /// # Errors
    /// [`Error::InvalidNode`] if `after` was read by a spec of another width (nothing changes).
    pub fn push(&mut self, after: &Facts, event: u8) -> Result<(), Error> {
        if after.limbs != self.spec.limbs {
            return Err(Error::InvalidNode(format!(
                "a position of {} limbs for draw rules of {}",
                after.limbs, self.spec.limbs
            )));
        }
        self.push_counts(event);
        self.frames.push(after.frame);
        self.bits.extend_from_slice(after.bits());
        Ok(())
    }

    /// Pushes each move-count rule's next count and the plies since the material changed, after
    /// a move that did `event` (the part of a push every way of pushing shares).
    fn push_counts(&mut self, event: u8) {
        let since = next_since(self.since_material_change(), event);
        let start = self.counts.len() - self.spec.move_counts.len();
        for (index, rule) in self.spec.move_counts.iter().enumerate() {
            let count = rule.next(self.counts[start + index], event);
            self.counts.push(count);
        }
        self.since.push(since);
    }

    /// Records a move that did `event` and led to the position whose White, Black and kings bits
    /// are `white`, `black` and `kings` (`spec.limbs` limbs each), side to move `color` and rule
    /// state `state`: [`DrawCounter::push`] of that position's [`DrawSpec::facts`], with its hash
    /// found from the last position's by the bits that changed (a move changes a few; hashing
    /// every piece, and the [`Facts`] copied in between, cost a board's push about 900
    /// instructions).
    ///
    /// # Errors
    /// [`Error::InvalidNode`] for a `color` other than 0 and 1, or bits of another width (nothing
    /// changes).
    pub fn push_position(
        &mut self,
        white: &[u64],
        black: &[u64],
        kings: &[u64],
        color: u8,
        state: u128,
        event: u8,
    ) -> Result<(), Error> {
        let limbs = self.spec.limbs;
        if color > 1 {
            return Err(Error::InvalidNode(format!("color {color} must be 0 or 1")));
        }
        if [white, black, kings].iter().any(|bits| bits.len() != limbs) {
            return Err(Error::InvalidNode(format!(
                "a position of other than {limbs} limbs"
            )));
        }
        let last = self.frames.len() - 1;
        let before = &self.frames[last];
        let before_bits = &self.bits[last * 3 * limbs..(last + 1) * 3 * limbs];
        let mut hash = before.hash ^ state_key(before.state) ^ state_key(state);
        if color != before.color {
            hash ^= BLACK_TO_MOVE;
        }
        for (role, (now, was)) in [white, black, kings]
            .into_iter()
            .zip(before_bits.chunks_exact(limbs))
            .enumerate()
        {
            for (limb, (&word, &old)) in now.iter().zip(was).enumerate() {
                let mut changed = word ^ old;
                while changed != 0 {
                    hash ^= key(role, limb * 64 + changed.trailing_zeros() as usize);
                    changed &= changed - 1;
                }
            }
        }
        let ((w, w_diagonal), (b, b_diagonal)) =
            (self.spec.side(white, kings), self.spec.side(black, kings));
        self.push_counts(event);
        self.frames.push(Frame {
            hash,
            color,
            state,
            material: Material { white: w, black: b },
            lone_king_on_diagonal: [w_diagonal, b_diagonal],
        });
        for bits in [white, black, kings] {
            self.bits.extend_from_slice(bits);
        }
        Ok(())
    }

    /// Takes back the last move; false (and nothing changed) at the root.
    pub fn pop(&mut self) -> bool {
        if self.frames.len() < 2 {
            return false;
        }
        self.frames.pop();
        self.since.pop();
        let rules = self.spec.move_counts.len();
        self.counts.truncate(self.counts.len() - rules);
        self.bits.truncate(self.bits.len() - 3 * self.spec.limbs);
        true
    }

    /// The bits of position `index`.
    fn bits_of(&self, index: usize) -> &[u64] {
        let stride = 3 * self.spec.limbs;
        &self.bits[index * stride..(index + 1) * stride]
    }

    /// How many times the current position (same side to move) has occurred. Going back two
    /// plies at a time (every move changes the side to move); pieces and men never come back, so
    /// the first position with more of either ends the search. Positions whose hashes match are
    /// compared bit for bit: a collision never counts.
    pub fn repetitions(&self) -> u32 {
        let last = self.frames.len() - 1;
        let current = &self.frames[last];
        let (pieces, men) = (current.material.pieces(), current.material.men());
        let mut count = 0;
        for index in (0..=last).rev().step_by(2) {
            let frame = &self.frames[index];
            if frame.material.pieces() != pieces || frame.material.men() != men {
                break;
            }
            if frame.hash == current.hash
                && frame.color == current.color
                && frame.state == current.state
                && self.bits_of(index) == self.bits_of(last)
            {
                count += 1;
            }
        }
        count
    }

    /// The first draw rule that applies now: the repetition rule, then (without `claims`) the
    /// endgame rules, then the move-count rules, each only if its `claim` flag equals `claims`.
    /// `shot` says whether the side to move has a shot in the air (asked only for a rule that
    /// needs it and holds otherwise).
    ///
    /// # Errors
    /// Whatever `shot` returns.
    pub fn draw<E>(
        &self,
        claims: bool,
        shot: &mut dyn FnMut() -> Result<bool, E>,
    ) -> Result<Option<Draw>, E> {
        let spec = &self.spec;
        if spec.repetitions > 0
            && spec.repetition_claim == claims
            && self.repetitions() >= spec.repetitions
        {
            return Ok(Some(Draw::Repetition));
        }
        spec.rule_draw(
            claims,
            self.current(),
            self.move_counts(),
            self.since_material_change(),
            shot,
        )
    }

    /// The rules shared with the counter's copies (a search carries them along its lines).
    pub fn shared_spec(&self) -> Arc<DrawSpec> {
        Arc::clone(&self.spec)
    }
}

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const SEED: u64 = 0x0D4A_F7D2_0A11_2026;

/// The Zobrist keys: White's bits, Black's bits, then the kings' bits.
static KEYS: [u64; 3 * MAX_BITS] = {
    let mut keys = [0; 3 * MAX_BITS];
    let mut index = 0;
    while index < keys.len() {
        keys[index] = splitmix(SEED ^ (index as u64).wrapping_mul(0xA24B_AED4_963E_E407));
        index += 1;
    }
    keys
};

/// The key of Black to move.
pub const BLACK_TO_MOVE: u64 = splitmix(SEED.wrapping_sub(1));

/// The Zobrist key of bit `bit` in role `role` (0 White's pieces, 1 Black's, 2 the kings), so
/// that a search can update a hash move by move (xor the keys of the bits a move toggles);
/// 0 out of range.
pub fn key(role: usize, bit: usize) -> u64 {
    if role < 3 && bit < MAX_BITS {
        KEYS[role * MAX_BITS + bit]
    } else {
        0
    }
}

/// The rule state's part of the hash (0 for no state).
pub fn state_key(state: u128) -> u64 {
    if state == 0 {
        return 0;
    }
    splitmix(state as u64 ^ SEED) ^ splitmix((state >> 64) as u64 ^ !SEED).rotate_left(17)
}

/// The 64-bit Zobrist hash of a position: the xor of the keys of White's, Black's and the
/// kings' bits, [`BLACK_TO_MOVE`] when Black moves, and the rule state's key. Limbs beyond
/// [`MAX_LIMBS`] are ignored.
pub fn hash(white: &[u64], black: &[u64], kings: &[u64], color: u8, state: u128) -> u64 {
    let mut out = if color == 0 { 0 } else { BLACK_TO_MOVE };
    for (role, bits) in [white, black, kings].into_iter().enumerate() {
        for (limb, &word) in bits.iter().take(MAX_LIMBS).enumerate() {
            let mut word = word;
            while word != 0 {
                let bit = word.trailing_zeros() as usize;
                out ^= KEYS[role * MAX_BITS + limb * 64 + bit];
                word &= word - 1;
            }
        }
    }
    out ^ state_key(state)
}

#[cfg(test)]
mod tests;

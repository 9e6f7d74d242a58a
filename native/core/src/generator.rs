//! The one move generator: quiet moves, captures, counting, playing and the public listing, for
//! every ruleset (Python's `draughts._core.movegen`).
//!
//! A **node** is [`Node`]: the pieces of the side to move and of the other side, both sides'
//! kings, the side to move and the rule state. A **move** for counting and playing is [`Compact`],
//! three xor masks. Everything a ruleset changes comes from its [`Tables`].
//!
//! How counting stays fast: "can this side capture?" is a few whole-board shifts; captures by men
//! that cannot go on are read off shift masks without a search; the last ply is counted with
//! population counts ([`Generator::count1`]); and [`Generator::count2`] counts two plies at once
//! where the opponent has only men and no capture, because then a quiet man move changes the
//! opponent's options only at the two squares it touches.

use smallvec::{smallvec, SmallVec};

use crate::bitboard::Bits;
use crate::capture::{Abort, Dirs, RawCapture};
use crate::error::Error;
use crate::resolver::legal_captures;
use crate::spec::{PrecedenceFacts, PrecedenceRule, RulesSpec};
use crate::state::{Compact, Node};
use crate::tables::{reverse, Layout, Step, Tables};

/// Square numbers of a move (its path or its captures), inline up to four.
pub type Squares = SmallVec<[u32; 4]>;

/// A legal move in its public form (square numbers), with the xor masks it is played with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicMove<B: Bits> {
    /// The start square.
    pub start: u32,
    /// The end square.
    pub end: u32,
    /// The captured squares in capture order.
    pub captured: Squares,
    /// The start, every landing or turning square PDN 3.0 restriction 9 names, and the end.
    pub path: Squares,
    /// Whether the move crowns a man.
    pub promotes: bool,
    /// The xor masks.
    pub compact: Compact<B>,
}

/// The per-side tables the generator reads (derived from [`Tables`] once).
#[derive(Clone, Debug)]
pub(crate) struct Side {
    /// A man's jumps in the ruleset's order of directions: `(amount, up)`.
    pub man_jumps: Vec<(u32, bool)>,
    /// The men's jumps that shift up, as `(a, 2a)`.
    pub jumps_up: Vec<(u32, u32)>,
    /// The men's jumps that shift down.
    pub jumps_down: Vec<(u32, u32)>,
    /// A man's capture steps, the up ones first (the short search's order).
    pub short_man: Vec<Step>,
    /// A short king's capture steps, the up ones first.
    pub short_king: Vec<Step>,
    /// Every direction a king captures in.
    pub king_dirs: Dirs,
    /// See [`Tables::turns`].
    pub turns: [Dirs; 8],
    /// See [`Tables::crowned_turns`].
    pub crowned_turns: [Dirs; 8],
    /// A man's quiet steps that shift up (amounts).
    pub steps_up: Vec<u32>,
    /// A man's quiet steps that shift down.
    pub steps_down: Vec<u32>,
    /// Per direction `e` of this side's man steps: whether an enemy man right in front captures
    /// in the reverse direction.
    pub offered: [bool; 8],
}

/// A ruleset compiled into its move generator, in bitboard width `B`. Build one with
/// [`Generator::new`]; it is immutable, `Send` and `Sync`.
///
/// The methods expect nodes that pass [`Generator::check`] (as [`crate::Engine`] checks them);
/// on other nodes their answers mean nothing, but they never panic.
#[derive(Clone, Debug)]
pub struct Generator<B: Bits> {
    /// The compiled tables.
    pub tables: Tables<B>,
    pub(crate) sides: [Side; 2],
    pub(crate) precedence: PrecedenceRule,
    pub(crate) facts: PrecedenceFacts,
    /// The side that moves first.
    pub first_to_move: u8,
    /// Whether a player with no move wins (not read by the generator).
    pub no_move_wins: bool,
}

fn split(steps: &[Step]) -> Vec<Step> {
    steps
        .iter()
        .filter(|s| s.up)
        .chain(steps.iter().filter(|s| !s.up))
        .copied()
        .collect()
}

/// Men's single jumps by direction: `(amount, up, jumpers)` in the first `len` entries of the
/// array (see [`Generator::single_jump_list`]).
pub type JumpList<B> = ([(u32, bool, B); 8], usize);

/// The man jumps of one side: `(count, landings, origins, jumps)` with `jumps` per direction in
/// the ruleset's order, `(amount, up, jumpers)`.
pub(crate) struct ManJumps<B: Bits> {
    pub total: u32,
    pub landings: B,
    pub origins: B,
    pub jumps: [(u32, bool, B); 8],
    pub len: usize,
}

impl<B: Bits> Generator<B> {
    /// Compiles `spec` in width `B`.
    ///
    /// # Errors
    /// [`Error::InvalidSpec`] if `spec` does not validate or its layout does not fit `B`.
    pub fn new(spec: &RulesSpec) -> Result<Self, Error> {
        spec.validate()?;
        let layout = Layout::new(spec)?;
        let tables = Tables::<B>::new(spec, layout)?;
        let side = |color: usize| -> Side {
            let caps = &tables.man_captures[color];
            let their = &tables.man_captures[1 ^ color];
            Side {
                man_jumps: caps.iter().map(|s| (s.amount, s.up)).collect(),
                jumps_up: caps
                    .iter()
                    .filter(|s| s.up)
                    .map(|s| (s.amount, 2 * s.amount))
                    .collect(),
                jumps_down: caps
                    .iter()
                    .filter(|s| !s.up)
                    .map(|s| (s.amount, 2 * s.amount))
                    .collect(),
                short_man: split(caps),
                short_king: split(&tables.king_captures[color]),
                king_dirs: Dirs::from_slice(
                    &tables.king_captures[color]
                        .iter()
                        .map(|s| s.d)
                        .collect::<Vec<_>>(),
                ),
                turns: core::array::from_fn(|d| Dirs::from_slice(&tables.turns[color][d])),
                crowned_turns: core::array::from_fn(|d| {
                    Dirs::from_slice(&tables.crowned_turns[color][d])
                }),
                steps_up: tables.man_moves[color]
                    .iter()
                    .filter(|s| s.up)
                    .map(|s| s.amount)
                    .collect(),
                steps_down: tables.man_moves[color]
                    .iter()
                    .filter(|s| !s.up)
                    .map(|s| s.amount)
                    .collect(),
                offered: core::array::from_fn(|e| their.iter().any(|s| s.d == reverse(e as u8))),
            }
        };
        let sides = [side(0), side(1)];
        // A built-in criterion that compares the capture order needs it recorded whatever the
        // facts say: without it the list and the counts would each see a different order.
        let order = matches!(&spec.precedence, PrecedenceRule::Criteria(list)
            if list.iter().any(|c| c.needs_order()));
        Ok(Generator {
            tables,
            sides,
            precedence: spec.precedence.clone(),
            facts: PrecedenceFacts {
                needs_order: spec.precedence_facts.needs_order || order,
                ..spec.precedence_facts
            },
            first_to_move: spec.first_to_move,
            no_move_wins: spec.no_move_wins,
        })
    }

    /// What the precedence implies for the search.
    pub fn precedence_facts(&self) -> PrecedenceFacts {
        self.facts
    }

    /// The start position: the first side to move, its men and the other side's.
    pub fn start(&self) -> Node<B> {
        let color = self.first_to_move;
        let t = &self.tables;
        Node {
            own: t.start_men[(color & 1) as usize],
            opp: t.start_men[1 ^ (color & 1) as usize],
            kings: B::ZERO,
            color,
            state: 0,
        }
    }

    /// Checks that `node` fits these rules: sides apart and on the board, kings owned, colour 0
    /// or 1, a rule state that decodes.
    ///
    /// # Errors
    /// [`Error::InvalidNode`] saying what is wrong.
    pub fn check(&self, node: &Node<B>) -> Result<(), Error> {
        let t = &self.tables;
        let bad = |text: &str| Err(Error::InvalidNode(text.into()));
        if node.color > 1 {
            return bad("the side to move must be 0 (White) or 1 (Black)");
        }
        if (node.own & node.opp).any() {
            return bad("a square holds pieces of both sides");
        }
        if ((node.own | node.opp | node.kings) & !t.board).any() {
            return bad("a piece stands off the board's squares");
        }
        if (node.kings & !(node.own | node.opp)).any() {
            return bad("a king stands on an empty square");
        }
        if !t.state.is_valid(node.state, t.nbits() as u32) {
            return bad("the rule state does not decode for these rules");
        }
        Ok(())
    }

    // --- the jump tests ---

    /// The jumps of `men` over `prey` onto `empty` squares, read off whole-board shifts.
    #[inline(always)]
    pub(crate) fn man_jumps(&self, men: B, prey: B, empty: B, color: u8) -> ManJumps<B> {
        let mut out = ManJumps {
            total: 0,
            landings: B::ZERO,
            origins: B::ZERO,
            jumps: [(0, false, B::ZERO); 8],
            len: 0,
        };
        for &(a, up) in &self.sides[(color & 1) as usize].man_jumps {
            let here;
            let jumpers;
            if up {
                here = prey.down(a) & empty.down(2 * a);
                jumpers = men & here;
                if jumpers.any() {
                    out.landings |= jumpers.up(2 * a);
                }
            } else {
                here = prey.up(a) & empty.up(2 * a);
                jumpers = men & here;
                if jumpers.any() {
                    out.landings |= jumpers.down(2 * a);
                }
            }
            out.origins |= here;
            if jumpers.any() {
                out.total += jumpers.count();
                if out.len < 8 {
                    out.jumps[out.len] = (a, up, jumpers);
                    out.len += 1;
                }
            }
        }
        out
    }

    /// Whether some king of `own_kings` can jump a piece of `prey`.
    #[inline]
    pub(crate) fn kings_can_jump(&self, own_kings: B, prey: B, empty: B, color: u8) -> bool {
        let t = &self.tables;
        for s in &t.king_captures[(color & 1) as usize] {
            let (a, up) = (s.amount, s.up);
            let mut reach = own_kings;
            if t.flying {
                let mut front = own_kings.shift(a, up) & empty;
                while front.any() {
                    reach |= front;
                    front = front.shift(a, up) & empty;
                }
            }
            if ((reach.shift(a, up) & prey).shift(a, up) & empty).any() {
                return true;
            }
        }
        false
    }

    /// Whether every capture is one jump by a man that cannot go on (no search needed).
    #[inline(always)]
    fn single_jumps_only(&self, own_kings: B, landings: B, origins: B, color: u8) -> bool {
        let t = &self.tables;
        own_kings.is_zero()
            && (landings
                & ((origins & t.jump_goes_on[(color & 1) as usize])
                    | t.jump_needs_search[(color & 1) as usize]))
                .is_zero()
    }

    /// The single jumps the precedence keeps: over kings, or over men, as it prefers.
    fn preferred(&self, jumps: &ManJumps<B>, prey_kings: B) -> JumpList<B> {
        let preference = self.facts.single_jump_preference;
        let mut chosen = [(0, false, B::ZERO); 8];
        let mut len = 0;
        for &(a, up, jumpers) in &jumps.jumps[..jumps.len] {
            let over_kings = if up {
                prey_kings.down(a)
            } else {
                prey_kings.up(a)
            };
            let kept = if preference > 0 {
                jumpers & over_kings
            } else {
                jumpers & !over_kings
            };
            if kept.any() {
                chosen[len] = (a, up, kept);
                len += 1;
            }
        }
        if len == 0 {
            (jumps.jumps, jumps.len)
        } else {
            (chosen, len)
        }
    }

    fn chosen_jumps(&self, jumps: &ManJumps<B>, prey_kings: B) -> JumpList<B> {
        if self.facts.single_jump_preference != 0 && prey_kings.any() {
            self.preferred(jumps, prey_kings)
        } else {
            (jumps.jumps, jumps.len)
        }
    }

    /// The legal captures when each is one jump by a man that cannot go on, as recorded raw
    /// captures, precedence applied.
    fn single_raws(&self, jumps: &ManJumps<B>, prey_kings: B, color: u8) -> Vec<RawCapture<B>> {
        let crown = self.tables.crown_row[(color & 1) as usize];
        let (list, len) = self.chosen_jumps(jumps, prey_kings);
        let mut out = Vec::new();
        for &(a, up, jumpers) in &list[..len] {
            for start in jumpers.iter() {
                let (over, to) = if up {
                    (start + a, start + 2 * a)
                } else {
                    (start - a, start - 2 * a)
                };
                out.push(RawCapture {
                    start,
                    end: to,
                    captured: B::bit(over),
                    promotes: crown.has(to),
                    order: vec![over],
                    path: vec![to],
                });
            }
        }
        out
    }

    fn raw_compact(raw: &RawCapture<B>, kings: B) -> Compact<B> {
        let moved = B::bit(raw.start) ^ B::bit(raw.end);
        let crowned = if kings.has(raw.start) {
            moved
        } else if raw.promotes {
            B::bit(raw.end)
        } else {
            B::ZERO
        };
        Compact {
            moved,
            captured: raw.captured,
            crowned: crowned ^ (kings & raw.captured),
        }
    }

    /// The legal captures as xor masks, or `None` if the side to move has no capture.
    pub(crate) fn capture_list(
        &self,
        node: &Node<B>,
        paths: bool,
        abort: Abort<'_>,
    ) -> Result<Option<Vec<Compact<B>>>, Error> {
        let t = &self.tables;
        let Node {
            own,
            opp,
            kings,
            color,
            ..
        } = *node;
        let empty = t.board ^ (own | opp);
        let men = own & !kings;
        let own_kings = own & kings;
        let prey = if t.men_capture_kings {
            opp
        } else {
            opp & !kings
        };
        let jumps = self.man_jumps(men, prey, empty, color);
        if jumps.total == 0
            && !(own_kings.any() && self.kings_can_jump(own_kings, opp, empty, color))
        {
            return Ok(None);
        }
        if jumps.total == 0
            || !self.single_jumps_only(own_kings, jumps.landings, jumps.origins, color)
        {
            let raws = legal_captures(self, color, own, opp, kings, paths, false, paths, abort)?;
            return Ok(Some(
                raws.iter().map(|r| Self::raw_compact(r, kings)).collect(),
            ));
        }
        let crown = t.crown_row[(color & 1) as usize];
        let (list, len) = self.chosen_jumps(&jumps, prey & kings);
        let mut out = Vec::with_capacity(jumps.total as usize);
        for &(a, up, jumpers) in &list[..len] {
            for start in jumpers.iter() {
                let s = B::bit(start);
                let over = s.shift(a, up);
                let to = over.shift(a, up);
                out.push(Compact::man_jump(s, over, to, kings, crown));
            }
        }
        Ok(Some(out))
    }

    /// The legal captures of `node` when each is a single jump by a man that cannot go on (the
    /// precedence applied): `(amount, up, jumpers)` per direction, the first `len` of the array;
    /// `None` where a capture may need a search (or there is none). A jumper at bit `s` lands at
    /// `s + 2 * amount` (up) or `s - 2 * amount`, over the piece halfway.
    pub fn single_jump_list(&self, node: &Node<B>) -> Option<JumpList<B>> {
        let t = &self.tables;
        let Node {
            own,
            opp,
            kings,
            color,
            ..
        } = *node;
        let empty = t.board ^ (own | opp);
        let prey = if t.men_capture_kings {
            opp
        } else {
            opp & !kings
        };
        let jumps = self.man_jumps(own & !kings, prey, empty, color);
        let own_kings = own & kings;
        if jumps.total == 0
            || !self.single_jumps_only(B::ZERO, jumps.landings, jumps.origins, color)
            || (own_kings.any() && self.kings_can_jump(own_kings, opp, empty, color))
        {
            return None;
        }
        Some(self.chosen_jumps(&jumps, prey & kings))
    }

    /// The captures of `node` when every one is a single jump by a man that cannot go on (the
    /// short path of `Generator::capture_list` and [`Generator::legal`], precedence applied;
    /// the side to move may have kings, none of which can jump), each given to `each` as
    /// `(start bit, landing bit, xor masks, promotes)`; false, nothing given, where there is no
    /// capture or one may need a search (then ask [`Generator::legal`]). For the Python
    /// binding's listing of a position's moves.
    pub fn single_jumps_each(
        &self,
        node: &Node<B>,
        mut each: impl FnMut(u32, u32, Compact<B>, bool),
    ) -> bool {
        let Some((list, len)) = self.single_jump_list(node) else {
            return false;
        };
        let kings = node.kings;
        let crown = self.tables.crown_row[(node.color & 1) as usize];
        for &(a, up, jumpers) in &list[..len] {
            for start in jumpers.iter() {
                let s = B::bit(start);
                let over = s.shift(a, up);
                let to = over.shift(a, up);
                let compact = Compact::man_jump(s, over, to, kings, crown);
                each(start, to.lowest_index(), compact, (to & crown).any());
            }
        }
        true
    }

    // --- quiet moves ---

    /// The quiet moves as xor masks: men's steps by direction then target, then each movable
    /// king's moves by direction, nearest first.
    pub fn quiet_list(&self, node: &Node<B>) -> Vec<Compact<B>> {
        let mut out = Vec::with_capacity(32);
        self.quiet_into(node, &mut out);
        out
    }

    /// [`Generator::quiet_list`] into `out` (cleared first): no allocation once `out` has room,
    /// for callers that generate over and over (the batches of `crate::batch`).
    pub fn quiet_into(&self, node: &Node<B>, out: &mut Vec<Compact<B>>) {
        out.clear();
        self.quiet_each(node, |c| out.push(c));
    }

    /// Calls `found` with each quiet move, in [`Generator::quiet_list`]'s order: for callers that
    /// keep the moves in their own form (the Python binding sorts them as it goes, with no list
    /// of its own in between).
    #[inline]
    pub fn quiet_each(&self, node: &Node<B>, mut found: impl FnMut(Compact<B>)) {
        let t = &self.tables;
        let Node {
            own,
            opp,
            kings,
            color,
            state,
        } = *node;
        let empty = t.board ^ (own | opp);
        let men = own & !kings;
        let crown = t.crown_row[(color & 1) as usize];
        for s in &t.man_moves[(color & 1) as usize] {
            let targets = men.shift(s.amount, s.up) & empty;
            for to in targets.iter() {
                let to_b = B::bit(to);
                let from_b = to_b.shift(s.amount, !s.up);
                found(Compact {
                    moved: to_b | from_b,
                    captured: B::ZERO,
                    crowned: to_b & crown,
                });
            }
        }
        let movers = t.state.movable_kings(own, kings, color, state);
        self.king_steps_each(movers, empty, color, found);
    }

    fn king_steps_into(&self, movers: B, empty: B, color: u8, out: &mut Vec<Compact<B>>) {
        self.king_steps_each(movers, empty, color, |c| out.push(c));
    }

    /// Calls `found` with each quiet move of the kings `movers` onto `empty` squares, by king,
    /// then direction, nearest first.
    #[inline(always)]
    fn king_steps_each(&self, movers: B, empty: B, color: u8, mut found: impl FnMut(Compact<B>)) {
        let t = &self.tables;
        for king in movers.iter() {
            let king_b = B::bit(king);
            for s in &t.king_moves[(color & 1) as usize] {
                let mut to = king_b.shift(s.amount, s.up) & empty;
                while to.any() {
                    let moved = king_b | to;
                    found(Compact {
                        moved,
                        captured: B::ZERO,
                        crowned: moved,
                    });
                    if !t.flying {
                        break;
                    }
                    to = to.shift(s.amount, s.up) & empty;
                }
            }
        }
    }

    /// The number of quiet moves of the kings `own_kings` onto `empty` squares.
    #[inline]
    fn count_king_steps(&self, own_kings: B, empty: B, color: u8) -> u64 {
        let t = &self.tables;
        let mut total = 0u64;
        for s in &t.king_moves[(color & 1) as usize] {
            let mut front = own_kings.shift(s.amount, s.up) & empty;
            if !t.flying {
                total += front.count() as u64;
                continue;
            }
            while front.any() {
                total += front.count() as u64;
                front = front.shift(s.amount, s.up) & empty;
            }
        }
        total
    }

    // --- the entry points ---

    /// The legal moves as xor masks (captures first); with `paths` one per capture path (the
    /// perft "keep" convention), else one per move.
    ///
    /// # Errors
    /// [`Error::CaptureSearchLimit`], or what the abort hook or an external precedence returns.
    pub fn moves(
        &self,
        node: &Node<B>,
        paths: bool,
        abort: Abort<'_>,
    ) -> Result<Vec<Compact<B>>, Error> {
        if self.tables.crowning_wins && node.kings.any() {
            return Ok(Vec::new());
        }
        match self.capture_list(node, paths, abort)? {
            None => Ok(self.quiet_list(node)),
            Some(found) if self.tables.capture_mandatory => Ok(found),
            Some(mut found) => {
                found.extend(self.quiet_list(node));
                Ok(found)
            }
        }
    }

    /// The node after `mv` (copy-make: pieces updated, sides swapped, rule state updated).
    #[inline(always)]
    pub fn play(&self, node: &Node<B>, mv: &Compact<B>) -> Node<B> {
        self.tables.state.play(node, mv)
    }

    /// The legal captures as xor masks, empty if there is none, whether capturing is mandatory or
    /// not (for a quiescence search).
    ///
    /// # Errors
    /// As [`Generator::moves`].
    pub fn captures(&self, node: &Node<B>, abort: Abort<'_>) -> Result<Vec<Compact<B>>, Error> {
        if self.tables.crowning_wins && node.kings.any() {
            return Ok(Vec::new());
        }
        Ok(self.capture_list(node, false, abort)?.unwrap_or_default())
    }

    /// Whether the side to move has a capture (whole-board shifts only).
    pub fn can_capture(&self, node: &Node<B>) -> bool {
        let t = &self.tables;
        let Node {
            own,
            opp,
            kings,
            color,
            ..
        } = *node;
        if t.crowning_wins && kings.any() {
            return false;
        }
        let empty = t.board ^ (own | opp);
        let men = own & !kings;
        let side = &self.sides[(color & 1) as usize];
        if men.any() {
            let prey = if t.men_capture_kings {
                opp
            } else {
                opp & !kings
            };
            for &(a, a2) in &side.jumps_up {
                if (men & prey.down(a) & empty.down(a2)).any() {
                    return true;
                }
            }
            for &(a, a2) in &side.jumps_down {
                if (men & prey.up(a) & empty.up(a2)).any() {
                    return true;
                }
            }
        }
        let own_kings = own & kings;
        own_kings.any() && self.kings_can_jump(own_kings, opp, empty, color)
    }

    /// The number of legal moves (perft 1), without listing them.
    ///
    /// # Errors
    /// As [`Generator::moves`].
    pub fn count1(&self, node: &Node<B>, paths: bool, abort: Abort<'_>) -> Result<u64, Error> {
        let t = &self.tables;
        let Node {
            own,
            opp,
            kings,
            color,
            state,
        } = *node;
        if t.crowning_wins && kings.any() {
            return Ok(0);
        }
        let side = &self.sides[(color & 1) as usize];
        let empty = t.board ^ (own | opp);
        let men = own & !kings;
        let own_kings = own & kings;
        let prey = if t.men_capture_kings {
            opp
        } else {
            opp & !kings
        };
        let mut total = 0u64;
        let mut landings = B::ZERO;
        let mut origins = B::ZERO;
        for &(a, a2) in &side.jumps_up {
            let here = prey.down(a) & empty.down(a2);
            origins |= here;
            let jumpers = men & here;
            if jumpers.any() {
                landings |= jumpers.up(a2);
                total += jumpers.count() as u64;
            }
        }
        for &(a, a2) in &side.jumps_down {
            let here = prey.up(a) & empty.up(a2);
            origins |= here;
            let jumpers = men & here;
            if jumpers.any() {
                landings |= jumpers.down(a2);
                total += jumpers.count() as u64;
            }
        }
        if total > 0 {
            if own_kings.any()
                || (landings
                    & ((origins & t.jump_goes_on[(color & 1) as usize])
                        | t.jump_needs_search[(color & 1) as usize]))
                    .any()
            {
                total = legal_captures(self, color, own, opp, kings, paths, false, paths, abort)?
                    .len() as u64;
            } else if self.facts.single_jump_preference != 0 && (prey & kings).any() {
                let jumps = self.man_jumps(men, prey, empty, color);
                let (list, len) = self.preferred(&jumps, prey & kings);
                total = list[..len].iter().map(|j| j.2.count() as u64).sum();
            }
            if t.capture_mandatory {
                return Ok(total);
            }
        } else if own_kings.any() && self.kings_can_jump(own_kings, opp, empty, color) {
            total = legal_captures(self, color, own, opp, kings, paths, false, paths, abort)?.len()
                as u64;
            if t.capture_mandatory {
                return Ok(total);
            }
        }
        for &a in &side.steps_up {
            total += (men.up(a) & empty).count() as u64;
        }
        for &a in &side.steps_down {
            total += (men.down(a) & empty).count() as u64;
        }
        if own_kings.any() {
            let movers = if t.king_move_limit > 0 {
                t.state.movable_kings(own, kings, color, state)
            } else {
                own_kings
            };
            if movers.any() {
                total += self.count_king_steps(movers, empty, color);
            }
        }
        Ok(total)
    }

    /// The number of two-move sequences (perft 2), mostly in bulk.
    ///
    /// Captures, king moves, and positions where the opponent has kings or a capture already are
    /// played one by one and their replies counted by [`Generator::count1`]. Otherwise a quiet man
    /// move from `f` to `t` gives the opponent a capture only by offering the man on `t` or by
    /// opening `f` as a landing square; those moves are found for all men at once with masks and
    /// counted one by one. Every other move leaves the opponent only quiet man moves, whose number
    /// differs from the current one only at `f` and `t`.
    ///
    /// # Errors
    /// As [`Generator::moves`].
    pub fn count2(&self, node: &Node<B>, paths: bool, abort: Abort<'_>) -> Result<u64, Error> {
        let t = &self.tables;
        let Node {
            own,
            opp,
            kings,
            color,
            state,
        } = *node;
        if t.crowning_wins && kings.any() {
            return Ok(0);
        }
        let mut total: i64 = 0;
        let other = 1 ^ (color & 1);
        if let Some(found) = self.capture_list(node, paths, abort)? {
            for mv in &found {
                total += self.count1(&self.play(node, mv), paths, abort)? as i64;
            }
            if t.capture_mandatory {
                return Ok(total as u64);
            }
        }
        let empty = t.board ^ (own | opp);
        let crown = t.crown_row[(color & 1) as usize];
        let men = own & !kings;
        let their_men = opp & !kings;
        let their_prey = if t.men_capture_kings { own } else { men };
        let theirs = &self.sides[other as usize];
        let mut exposed = B::ZERO;
        let mut opened = B::ZERO;
        for &(a, a2) in &theirs.jumps_up {
            exposed |= their_men.up(a) & empty.down(a);
            opened |= their_men.up(a2) & their_prey.up(a);
        }
        for &(a, a2) in &theirs.jumps_down {
            exposed |= their_men.down(a) & empty.up(a);
            opened |= their_men.down(a2) & their_prey.down(a);
        }
        if (opp & kings).any() || (opened & empty).any() {
            for mv in &self.quiet_list(node) {
                total += self.count1(&self.play(node, mv), paths, abort)? as i64;
            }
            return Ok(total as u64);
        }
        let safe = if t.men_capture_kings {
            !B::ZERO
        } else {
            !crown
        };
        let special = if t.crowning_wins { crown } else { B::ZERO };
        let mut replies: i64 = 0;
        let mut their_steps = [B::ZERO; 8];
        let mut n_steps = 0;
        for &a in &theirs.steps_up {
            let step = their_men.up(a);
            their_steps[n_steps] = step;
            n_steps += 1;
            replies += (step & empty).count() as i64;
        }
        for &a in &theirs.steps_down {
            let step = their_men.down(a);
            their_steps[n_steps] = step;
            n_steps += 1;
            replies += (step & empty).count() as i64;
        }
        let front = &self.sides[(color & 1) as usize].offered;
        for s in &t.man_moves[(color & 1) as usize] {
            let (a, up) = (s.amount, s.up);
            let targets = men.shift(a, up) & empty;
            let ahead = if front[s.d as usize] {
                their_men.shift(a, !up)
            } else {
                B::ZERO
            };
            let bad = targets & (((exposed | ahead) & safe) | opened.shift(a, up) | special);
            let good = targets ^ bad;
            let sources = good.shift(a, !up);
            if good.any() {
                total += good.count() as i64 * replies;
                for step in &their_steps[..n_steps] {
                    total += (*step & sources).count() as i64 - (*step & good).count() as i64;
                }
            }
            for to in bad.iter() {
                let to_b = B::bit(to);
                let moved = to_b | to_b.shift(a, !up);
                let next = Node {
                    own: opp,
                    opp: own ^ moved,
                    kings: kings | (to_b & crown),
                    color: other,
                    state: 0,
                };
                total += self.count1(&next, paths, abort)? as i64;
            }
        }
        let movers = t.state.movable_kings(own, kings, color, state);
        if movers.any() {
            let mut steps = Vec::new();
            self.king_steps_into(movers, empty, color, &mut steps);
            for mv in &steps {
                total += self.count1(&self.play(node, mv), paths, abort)? as i64;
            }
        }
        Ok(total as u64)
    }

    // --- the public listing ---

    fn public_of_raw(&self, raw: &RawCapture<B>, kings: B) -> PublicMove<B> {
        let t = &self.tables;
        let first = t.square(raw.start);
        let mut path = Squares::with_capacity(raw.path.len() + 1);
        path.push(first);
        path.extend(raw.path.iter().map(|&b| t.square(b)));
        PublicMove {
            start: first,
            end: t.square(raw.end),
            captured: raw.order.iter().map(|&b| t.square(b)).collect(),
            path,
            promotes: raw.promotes,
            compact: Self::raw_compact(raw, kings),
        }
    }

    /// The quiet moves in public form, sorted by start and end square.
    fn quiet_public(&self, node: &Node<B>) -> Vec<PublicMove<B>> {
        let t = &self.tables;
        // Sorted as small (start, end, masks) triples (each start and end pair is one move), then
        // made public: moving the larger public moves around would cost more than the sort.
        let mut keyed: Vec<(u32, u32, Compact<B>)> = self
            .quiet_list(node)
            .into_iter()
            .map(|c| {
                let from = (c.moved & node.own).lowest_index();
                let to = (c.moved & !node.own).lowest_index();
                (t.square(from), t.square(to), c)
            })
            .collect();
        keyed.sort_unstable_by_key(|&(start, end, _)| (start, end));
        keyed
            .into_iter()
            .map(|(start, end, c)| PublicMove {
                start,
                end,
                captured: Squares::new(),
                path: smallvec![start, end],
                promotes: c.crowned.any() && (c.moved & node.kings).is_zero(),
                compact: c,
            })
            .collect()
    }

    /// The legal moves in their public form and move order (start, end, path squares), with their
    /// xor masks: with `paths` one per capture path, else one per move (its first path in
    /// square order).
    ///
    /// # Errors
    /// As [`Generator::moves`].
    pub fn legal(
        &self,
        node: &Node<B>,
        paths: bool,
        abort: Abort<'_>,
    ) -> Result<Vec<PublicMove<B>>, Error> {
        let t = &self.tables;
        let Node {
            own,
            opp,
            kings,
            color,
            ..
        } = *node;
        if t.crowning_wins && kings.any() {
            return Ok(Vec::new());
        }
        let own_kings = own & kings;
        let men = own & !kings;
        let prey = if t.men_capture_kings {
            opp
        } else {
            opp & !kings
        };
        let empty = t.board ^ (own | opp);
        let jumps = self.man_jumps(men, prey, empty, color);
        if jumps.total == 0
            && !(own_kings.any() && self.kings_can_jump(own_kings, opp, empty, color))
        {
            return Ok(self.quiet_public(node));
        }
        let found = if jumps.total > 0
            && self.single_jumps_only(own_kings, jumps.landings, jumps.origins, color)
        {
            self.single_raws(&jumps, prey & kings, color)
        } else {
            legal_captures(self, color, own, opp, kings, true, true, paths, abort)?
        };
        let mut entries: Vec<PublicMove<B>> =
            found.iter().map(|r| self.public_of_raw(r, kings)).collect();
        if !t.capture_mandatory {
            entries.extend(self.quiet_public(node));
        }
        if entries.len() > 1 {
            entries.sort_by(|a, b| (a.start, a.end, &a.path).cmp(&(b.start, b.end, &b.path)));
            if !paths {
                dedupe_sorted(&mut entries);
            }
        }
        Ok(entries)
    }
}

/// Keeps one move of each (start, end, captured set) of `entries`, sorted by start, end and path:
/// its first path in square order. The captured set is the move's captured mask, and moves with
/// one start and end are neighbours, so each is compared with the kept moves of its own (start,
/// end) run only: no hashing, no copy of the squares (a position has a few captures).
fn dedupe_sorted<B: Bits>(entries: &mut Vec<PublicMove<B>>) {
    let mut run = 0; // where the kept moves of the current (start, end) begin
    let mut kept = 0;
    for read in 0..entries.len() {
        let (start, end) = (entries[read].start, entries[read].end);
        if kept > 0 && (entries[kept - 1].start, entries[kept - 1].end) != (start, end) {
            run = kept;
        }
        let captured = entries[read].compact.captured;
        if !entries[run..kept]
            .iter()
            .any(|m| m.compact.captured == captured)
        {
            entries.swap(kept, read);
            kept += 1;
        }
    }
    entries.truncate(kept);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::RulesSpec;

    fn international() -> RulesSpec {
        crate::spec::international_for_tests()
    }

    #[test]
    fn start_position_has_nine_moves() {
        let g = Generator::<u64>::new(&international()).unwrap();
        let start = g.start();
        assert_eq!(g.moves(&start, false, None).unwrap().len(), 9);
        assert_eq!(g.count1(&start, false, None).unwrap(), 9);
        assert_eq!(g.count2(&start, false, None).unwrap(), 81);
        let legal = g.legal(&start, false, None).unwrap();
        assert_eq!(legal[0].start, 31);
        assert_eq!(legal[0].end, 26);
        assert!(!g.can_capture(&start));
    }

    #[test]
    fn a_bad_node_is_refused() {
        let g = Generator::<u64>::new(&international()).unwrap();
        let mut node = g.start();
        node.opp = node.own;
        assert!(g.check(&node).is_err());
    }
}

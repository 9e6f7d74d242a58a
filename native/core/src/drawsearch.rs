//! The game's draw rules inside the search: the move-count and endgame rules' counts carried
//! along each line, so that a line the rules end in a draw scores as a draw.
//!
//! A search starts from the game's counts (a board's [`DrawCounter`]: the move-count rules'
//! counts and the plies since the last capture or crowning; a position without a game starts
//! from zero) and [`DrawTrack::enter`] updates them at each move, one frame per ply, with the
//! counter's own steps ([`crate::drawrules::MoveCountRule::next`], [`next_since`]). Whether a rule draws is asked
//! of the rules themselves ([`DrawSpec::rule_draw`]): nothing here restates a rule. Repetitions
//! stay with the searcher's table of the game's nodes ([`crate::search::Searcher`]).
//!
//! Cheap where no rule is near: each frame keeps which endgame rules the material can match (the
//! material changes only with a capture or a crowning, which restart the count, so it is worked
//! out only then), the plies to the nearest draw, and whether one may draw now. The rules are
//! asked only at a frame where a count has reached its limit.
//!
//! The transposition table: a node's score depends on its counts only when a draw is within
//! reach of its search. [`DrawTrack::key`] is 0 (the node alone) when every rule is more than
//! `depth + `[`SLACK`] plies from its limit, else a key of each near rule's distance, so nodes
//! whose draws differ within reach never share an entry while far from the limits they share as
//! before. Rulesets without an automatic move-count or endgame rule have no track at all: their
//! search is the one without it.

use std::sync::Arc;

use crate::bitboard::Bits;
use crate::drawrules::{events, next_since, DrawCounter, DrawSpec, Frame, Material};
use crate::error::Error;
use crate::state::{Compact, Node};

/// Plies beyond a node's depth that its search may still reach without a capture or a crowning
/// (forced moves cost no depth, the quiescence search answers a threat with a quiet move).
pub const SLACK: i32 = 4;

/// What one ply of the line knows of the counts. A count is kept as the ply (from the root,
/// negative before it) at which it was last 0, so a move that restarts nothing leaves the frame
/// as it was: the child's frame is the parent's.
#[derive(Clone, Copy, Debug, Default)]
struct Frame64 {
    /// The ply at which the plies since the last capture or crowning were 0.
    since_from: i64,
    /// The ply whose slot of [`DrawTrack`]'s `bases` holds the move-count rules' zero plies.
    slot: u32,
    /// The endgame rules whose conditions on the material hold (rule `i` as bit `i`; rules past
    /// the 64th are always counted).
    mask: u64,
    /// The first ply at which an automatic rule reaches its limit ([`i64::MAX`]: none).
    deadline: i64,
}

/// The draw rules' counts along the line a search is on.
#[derive(Clone, Debug)]
pub struct DrawTrack<B: Bits> {
    spec: Arc<DrawSpec>,
    diagonal: B,
    /// Per endgame rule: the most pieces on the board and the most pieces of the weaker side it
    /// can match (a quick test before the rule's own), and its limit in plies.
    bounds: Vec<(u32, u32, i64)>,
    /// Per move-count rule: its limit in plies ([`i64::MAX`] for a claimed one: not searched).
    limits: Vec<i64>,
    /// The events that restart an automatic count: a capture, a crowning, and each rule's.
    touch: u8,
    /// The events that restart a move-count rule.
    count_resets: u8,
    root: Node<B>,
    frames: Vec<Frame64>,
    /// The move-count rules' zero plies, `rules` per slot (a slot per ply, written where a move
    /// restarts one).
    bases: Vec<i64>,
    rules: usize,
}

/// What a move did, as the bits the draw counts are restarted by ([`events`]), read from its xor
/// masks as `Board.push` reads it from the move: a capture, a crowning, a man's move. A capture
/// that ends on its own start square is read as a king's unless it crowned (the masks do not tell
/// a man's from a king's there; a capture restarts the counts of every rule of the catalogue).
pub fn event_of<B: Bits>(parent: &Node<B>, m: &Compact<B>) -> u8 {
    let mut event = 0;
    if m.captured.any() {
        event |= events::CAPTURE;
    }
    let turned = m.crowned & m.moved;
    let (king, crowned) = if m.moved.any() {
        (turned == m.moved, turned.any() && turned != m.moved)
    } else {
        let crowned = (m.crowned & parent.own).any();
        (!crowned, crowned)
    };
    if crowned {
        event |= events::CROWNING;
    }
    if !king {
        event |= events::MAN_MOVED;
    }
    event
}

/// The move from `parent` to its child `child`, as xor masks.
pub fn move_between<B: Bits>(parent: &Node<B>, child: &Node<B>) -> Compact<B> {
    Compact {
        moved: parent.own ^ child.opp,
        captured: parent.opp ^ child.own,
        crowned: parent.kings ^ child.kings,
    }
}

fn most(sides: &[(u32, u32)]) -> Option<u32> {
    sides.iter().map(|&(k, m)| k + m).max()
}

/// A count's limit in plies as a ply distance (huge limits clamp far beyond any search).
fn plies_of(limit: u64) -> i64 {
    i64::try_from(limit).unwrap_or(i64::MAX).min(1 << 40)
}

impl<B: Bits> DrawTrack<B> {
    /// A track of `plies` plies from `root` with the move-count rules' `counts` and `since` plies
    /// since the last capture or crowning; `None` when the rules have no automatic move-count or
    /// endgame rule (nothing to carry).
    ///
    /// # Errors
    /// [`Error::InvalidNode`] for counts of another number of rules or a long diagonal wider than
    /// the board.
    pub fn new(
        spec: Arc<DrawSpec>,
        root: &Node<B>,
        counts: &[u64],
        since: u64,
        plies: usize,
    ) -> Result<Option<Self>, Error> {
        if counts.len() != spec.move_counts.len() {
            return Err(Error::InvalidNode(format!(
                "{} move counts for {} move-count rules",
                counts.len(),
                spec.move_counts.len()
            )));
        }
        if spec.endgames.is_empty() && spec.move_counts.iter().all(|r| r.claim) {
            return Ok(None);
        }
        let diagonal = B::from_limbs(&spec.main_diagonal).ok_or_else(|| {
            Error::InvalidNode("the long diagonal is wider than the board".into())
        })?;
        let bounds = spec
            .endgames
            .iter()
            .map(|rule| {
                let weak = most(&rule.weak);
                let total = match (rule.total_pieces.iter().max(), most(&rule.strong), weak) {
                    (Some(&total), _, _) => total,
                    (None, Some(strong), Some(weak)) => strong + weak,
                    _ => u32::MAX,
                };
                (total, weak.unwrap_or(u32::MAX), plies_of(rule.plies()))
            })
            .collect();
        let auto = spec.move_counts.iter().filter(|r| !r.claim);
        let count_resets = auto.fold(0, |resets, rule| resets | rule.resets);
        let limits = spec
            .move_counts
            .iter()
            .map(|r| {
                if r.claim {
                    i64::MAX
                } else {
                    plies_of(r.moves.saturating_mul(2))
                }
            })
            .collect();
        let rules = spec.move_counts.len();
        let plies = plies.max(1);
        let mut track = DrawTrack {
            spec,
            diagonal,
            bounds,
            limits,
            touch: count_resets | events::CAPTURE | events::CROWNING,
            count_resets,
            root: *root,
            frames: vec![Frame64::default(); plies],
            bases: vec![0; plies * rules],
            rules,
        };
        for (base, &count) in track.bases.iter_mut().zip(counts) {
            *base = -plies_of(count);
        }
        let mut frame = Frame64 {
            since_from: -plies_of(since),
            slot: 0,
            mask: track.mask_of(root),
            deadline: 0,
        };
        frame.deadline = track.deadline(&frame);
        track.frames[0] = frame;
        Ok(Some(track))
    }

    /// A track from a game's `counter` (its counts now; `root` its current position).
    ///
    /// # Errors
    /// As [`DrawTrack::new`].
    pub fn of_counter(
        counter: &DrawCounter,
        root: &Node<B>,
        plies: usize,
    ) -> Result<Option<Self>, Error> {
        Self::new(
            counter.shared_spec(),
            root,
            counter.move_counts(),
            counter.since_material_change(),
            plies,
        )
    }

    /// The root the track starts from.
    pub fn root(&self) -> &Node<B> {
        &self.root
    }

    fn material(&self, node: &Node<B>) -> Material {
        let side = |pieces: B| {
            let kings = (pieces & node.kings).count();
            (kings, pieces.count() - kings)
        };
        let (white, black) = if node.color == 0 {
            (node.own, node.opp)
        } else {
            (node.opp, node.own)
        };
        Material {
            white: side(white),
            black: side(black),
        }
    }

    /// The endgame rules whose conditions on the material of `node` hold (see
    /// [`Frame64::mask`]); the material is counted only if a rule's bounds let it match.
    fn mask_of(&self, node: &Node<B>) -> u64 {
        let (own, opp) = (node.own.count(), node.opp.count());
        let (total, weaker) = (own + opp, own.min(opp));
        if self
            .bounds
            .iter()
            .all(|&(most, weak, _)| total > most || weaker > weak)
        {
            return 0;
        }
        self.mask(&self.material(node))
    }

    /// The endgame rules whose conditions on `material` hold (see [`Frame64::mask`]).
    fn mask(&self, material: &Material) -> u64 {
        let total = material.pieces();
        let weaker = (material.white.0 + material.white.1).min(material.black.0 + material.black.1);
        let mut mask = 0;
        for (index, (rule, &(most, weak, _))) in
            self.spec.endgames.iter().zip(&self.bounds).enumerate()
        {
            if index >= 64 {
                break;
            }
            if total <= most && weaker <= weak && rule.material_applies(material) {
                mask |= 1 << index;
            }
        }
        mask
    }

    /// The move-count rules' zero plies of `frame`.
    fn bases_of(&self, frame: &Frame64) -> &[i64] {
        let at = frame.slot as usize * self.rules;
        &self.bases[at..at + self.rules]
    }

    /// The first ply at which a rule of `frame` reaches its limit.
    fn deadline(&self, frame: &Frame64) -> i64 {
        let mut deadline = i64::MAX;
        for (&base, &limit) in self.bases_of(frame).iter().zip(&self.limits) {
            deadline = deadline.min(base.saturating_add(limit));
        }
        let mut matched = frame.mask;
        while matched != 0 {
            let (_, _, limit) = self.bounds[matched.trailing_zeros() as usize];
            matched &= matched - 1;
            deadline = deadline.min(frame.since_from.saturating_add(limit));
        }
        if self.bounds.len() > 64 {
            for &(_, _, limit) in &self.bounds[64..] {
                deadline = deadline.min(frame.since_from.saturating_add(limit));
            }
        }
        deadline
    }

    /// Records the move `m` from `parent` (at `ply - 1`) to `child` (at `ply`).
    #[inline]
    pub fn enter(&mut self, ply: usize, parent: &Node<B>, m: &Compact<B>, child: &Node<B>) {
        if ply == 0 || ply >= self.frames.len() {
            return;
        }
        let mut frame = self.frames[ply - 1];
        let event = event_of(parent, m);
        if event & self.touch != 0 {
            self.restart(ply, &mut frame, event, child);
        }
        self.frames[ply] = frame;
    }

    /// `frame` after a move to `child` at `ply` that restarted a count (`event`).
    #[inline(never)]
    fn restart(&mut self, ply: usize, frame: &mut Frame64, event: u8, child: &Node<B>) {
        let at = ply as i64;
        if event & self.count_resets != 0 {
            let (from, to) = (frame.slot as usize * self.rules, ply * self.rules);
            for (index, rule) in self.spec.move_counts.iter().enumerate() {
                // MoveCountRule::next: restarted (0 at this ply) or counting on from its base.
                let restarted = rule.next(0, event) == 0;
                self.bases[to + index] = if restarted {
                    at
                } else {
                    self.bases[from + index]
                };
            }
            frame.slot = ply as u32;
        }
        if next_since(0, event) == 0 {
            frame.since_from = at;
            frame.mask = self.mask_of(child);
        }
        frame.deadline = self.deadline(frame);
    }

    /// Records the root's child `child` at ply 1 (the move read from the two nodes).
    pub fn enter_root_child(&mut self, child: &Node<B>) {
        let root = self.root;
        self.enter(1, &root, &move_between(&root, child), child);
    }

    /// Whether a rule may draw at `ply` (a count at its limit): only then is [`DrawTrack::draws`]
    /// worth asking.
    #[inline]
    pub fn alarm(&self, ply: usize) -> bool {
        self.frames
            .get(ply)
            .is_some_and(|f| f.deadline <= ply as i64)
    }

    /// Whether an automatic rule draws `node` at `ply` (the node has a legal move: the caller
    /// asks first); `shot` says whether its side to move has a shot in the air.
    ///
    /// # Errors
    /// Whatever `shot` returns.
    pub fn draws(
        &self,
        node: &Node<B>,
        ply: usize,
        shot: &mut dyn FnMut() -> Result<bool, Error>,
    ) -> Result<bool, Error> {
        let Some(frame) = self.frames.get(ply) else {
            return Ok(false);
        };
        let at = ply as i64;
        let counts: Vec<u64> = self
            .bases_of(frame)
            .iter()
            .map(|&base| at.saturating_sub(base).max(0).unsigned_abs())
            .collect();
        let since = at.saturating_sub(frame.since_from).max(0).unsigned_abs();
        let lone = |pieces: B| {
            let kings = pieces & node.kings;
            kings.count() == 1 && (kings & self.diagonal).any()
        };
        let (white, black) = if node.color == 0 {
            (node.own, node.opp)
        } else {
            (node.opp, node.own)
        };
        let facts = Frame {
            hash: 0, // not read by the rules
            color: node.color,
            state: node.state,
            material: self.material(node),
            lone_king_on_diagonal: [lone(white), lone(black)],
        };
        Ok(self
            .spec
            .rule_draw(false, &facts, &counts, since, shot)?
            .is_some())
    }

    /// The transposition table's key of the counts at `ply` for a search `depth` plies deep: 0
    /// where no rule can reach its limit within the search, else one made of each near rule's
    /// distance to it (never 0).
    #[inline]
    pub fn key(&self, ply: usize, depth: i32) -> u64 {
        let Some(frame) = self.frames.get(ply) else {
            return 0;
        };
        let at = ply as i64;
        let reach = i64::from(depth.max(0) + SLACK);
        if frame.deadline.saturating_sub(at) > reach {
            return 0;
        }
        self.near_key(frame, at, reach)
    }

    /// [`DrawTrack::key`] where a rule is within `reach` plies of its limit.
    #[cold]
    #[inline(never)]
    fn near_key(&self, frame: &Frame64, at: i64, reach: i64) -> u64 {
        let mut key: u64 = 0x2545_F491_4F6C_DD1D;
        let mut mix = |limit_ply: Option<i64>| {
            let distance = limit_ply.map(|ply| ply.saturating_sub(at).max(0));
            let value = distance
                .filter(|&d| d <= reach)
                .map_or(0, |d| d.unsigned_abs() + 1);
            key = (key ^ value)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .rotate_left(23);
        };
        for (&base, &limit) in self.bases_of(frame).iter().zip(&self.limits) {
            mix((limit != i64::MAX).then(|| base.saturating_add(limit)));
        }
        for (index, &(_, _, limit)) in self.bounds.iter().enumerate() {
            let matched = index >= 64 || frame.mask & (1 << index) != 0;
            mix(matched.then(|| frame.since_from.saturating_add(limit)));
        }
        key.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drawrules::{EndgameRule, MoveCountRule};

    fn spec(move_counts: Vec<MoveCountRule>, endgames: Vec<EndgameRule>) -> Arc<DrawSpec> {
        Arc::new(DrawSpec {
            repetitions: 3,
            move_counts,
            endgames,
            limbs: 1,
            main_diagonal: vec![0],
            ..DrawSpec::default()
        })
    }

    fn kings_only() -> MoveCountRule {
        MoveCountRule {
            moves: 2,
            resets: events::MAN_MOVED | events::CAPTURE,
            claim: false,
        }
    }

    fn node(own: u64, opp: u64, kings: u64, color: u8) -> Node<u64> {
        Node {
            own,
            opp,
            kings,
            color,
            state: 0,
        }
    }

    #[test]
    fn no_automatic_rule_no_track() {
        let claimed = MoveCountRule {
            claim: true,
            ..kings_only()
        };
        let root = node(1, 2, 3, 0);
        let none = DrawTrack::new(spec(vec![claimed], vec![]), &root, &[0], 0, 8).unwrap();
        assert!(none.is_none());
        let wrong = DrawTrack::new(spec(vec![kings_only()], vec![]), &root, &[], 0, 8);
        assert!(wrong.is_err());
    }

    #[test]
    fn king_moves_count_up_to_the_limit_and_a_man_restarts_them() {
        // Kings on bits 0 and 10, a man on bit 20 (White's).
        let root = node(1 | 1 << 20, 1 << 10, 1 | 1 << 10, 0);
        let mut t = DrawTrack::new(spec(vec![kings_only()], vec![]), &root, &[2], 0, 8)
            .unwrap()
            .unwrap();
        assert!(!t.alarm(0));
        assert_eq!(t.key(0, 10), t.key(0, 2)); // within reach either way: the same distance
        assert_eq!(t.key(0, 0), t.key(0, -1));
        let king = Compact {
            moved: 1 | 2,
            captured: 0,
            crowned: 1 | 2,
        };
        let child = node(1 << 10, 2 | 1 << 20, 2 | 1 << 10, 1);
        t.enter(1, &root, &king, &child);
        assert!(!t.alarm(1));
        let back = Compact {
            moved: 1 << 10 | 1 << 11,
            captured: 0,
            crowned: 1 << 10 | 1 << 11,
        };
        let grandchild = node(2 | 1 << 20, 1 << 11, 2 | 1 << 11, 0);
        t.enter(2, &child, &back, &grandchild);
        assert!(t.alarm(2)); // 4 plies of king moves: 2 moves each
        let mut never = || -> Result<bool, Error> { Ok(false) };
        assert!(t.draws(&grandchild, 2, &mut never).unwrap());
        let man = Compact {
            moved: 1 << 20 | 1 << 21,
            captured: 0,
            crowned: 0,
        };
        t.enter(2, &child, &man, &grandchild); // another second move: a man's
        assert!(!t.alarm(2));
        assert!(!t.draws(&grandchild, 2, &mut never).unwrap());
    }

    #[test]
    fn a_far_limit_keys_as_the_node_alone() {
        let root = node(1, 2, 3, 0);
        let rule = MoveCountRule {
            moves: 50,
            ..kings_only()
        };
        let t = DrawTrack::new(spec(vec![rule], vec![]), &root, &[0], 0, 8)
            .unwrap()
            .unwrap();
        assert_eq!(t.key(0, 10), 0);
        assert_ne!(t.key(0, 100), 0);
    }

    #[test]
    fn an_endgame_rule_counts_only_where_its_material_holds() {
        // Two White kings against one Black king: drawn after one move each.
        let rule = EndgameRule {
            moves: 1,
            strong: vec![(2, 0)],
            weak: vec![(1, 0)],
            ..EndgameRule::default()
        };
        let s = spec(vec![], vec![rule]);
        let three = node(1 | 2, 4, 1 | 2 | 4, 0);
        let t = DrawTrack::new(s.clone(), &three, &[], 2, 8)
            .unwrap()
            .unwrap();
        assert!(t.alarm(0));
        let mut never = || -> Result<bool, Error> { Ok(false) };
        assert!(t.draws(&three, 0, &mut never).unwrap());
        let more = node(1 | 2, 4 | 8, 1 | 2 | 4 | 8, 0);
        let t = DrawTrack::new(s, &more, &[], 2, 8).unwrap().unwrap();
        assert!(!t.alarm(0));
        assert_eq!(t.key(0, 0), 0);
    }

    #[test]
    fn events_read_from_masks() {
        let parent = node(1 | 1 << 5, 1 << 9, 1, 0);
        let king = Compact {
            moved: 1 | 1 << 3,
            captured: 0,
            crowned: 1 | 1 << 3,
        };
        assert_eq!(event_of(&parent, &king), 0);
        let man = Compact {
            moved: 1 << 5 | 1 << 6,
            captured: 0,
            crowned: 0,
        };
        assert_eq!(event_of(&parent, &man), events::MAN_MOVED);
        let crowning = Compact {
            moved: 1 << 5 | 1 << 6,
            captured: 1 << 9,
            crowned: 1 << 6,
        };
        assert_eq!(
            event_of(&parent, &crowning),
            events::MAN_MOVED | events::CAPTURE | events::CROWNING
        );
        let child = node(0, 1 | 1 << 6, 1 | 1 << 6, 1);
        assert_eq!(move_between(&parent, &child), crowning);
    }
}

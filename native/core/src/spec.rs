//! The rules as plain data ([`RulesSpec`]): what the Python `Ruleset` tells the native core.
//!
//! Every field is a rule dimension; no variant is named anywhere in the crate. The Python side
//! fills a `RulesSpec` from its frozen `Ruleset` (and, for user-defined precedence criteria,
//! implements [`Precedence`] by calling Python).

use std::sync::Arc;

use crate::error::Error;
use crate::geometry::{Geometry, Numbering};

/// Direction flags, with the values of Python's `draughts.Directions` (seen from the piece's
/// owner: forward is towards the opponent). Combine them with `|`.
pub mod directions {
    /// The two diagonal steps towards the opponent.
    pub const DIAGONAL_FORWARD: u8 = 1;
    /// The two diagonal steps towards the own side.
    pub const DIAGONAL_BACKWARD: u8 = 2;
    /// Straight ahead along the column.
    pub const ORTHOGONAL_FORWARD: u8 = 4;
    /// Left and right along the row.
    pub const ORTHOGONAL_SIDEWAYS: u8 = 8;
    /// Straight back along the column.
    pub const ORTHOGONAL_BACKWARD: u8 = 16;
    /// Both diagonal groups.
    pub const DIAGONAL: u8 = DIAGONAL_FORWARD | DIAGONAL_BACKWARD;
    /// The three orthogonal groups.
    pub const ORTHOGONAL: u8 = ORTHOGONAL_FORWARD | ORTHOGONAL_SIDEWAYS | ORTHOGONAL_BACKWARD;
    /// All eight directions.
    pub const ALL: u8 = DIAGONAL | ORTHOGONAL;
}

/// Where a flying king may stop after jumping a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KingLanding {
    /// Any free square beyond it (but where the capture continues, if it can from some).
    Anywhere,
    /// Only the square right behind each captured piece.
    DirectlyBehind,
    /// Anywhere, except that a capture whose last captured piece is a king ends right behind it.
    BehindLastKing,
}

/// What a man reaching its crowning row in the middle of a capture does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CapturePromotion {
    /// The capture stops there and the man is crowned.
    EndsMove,
    /// The man is crowned at once and goes on capturing as a king if it can.
    ContinuesAsKing,
    /// The man goes on capturing as a man and is crowned only if the capture ends on the row.
    OnlyAtEnd,
}

/// What a precedence criterion may compare about one capture (Python's `CaptureFacts`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CaptureFacts {
    /// Pieces captured.
    pub pieces: u32,
    /// Kings among them.
    pub kings: u32,
    /// Whether the capturing piece was a king when the move began.
    pub with_king: bool,
    /// For each captured piece in capture order, whether it was a king; filled only when the
    /// rules say `needs_order`, otherwise empty.
    pub order: Vec<bool>,
}

/// A built-in precedence criterion (larger keys preferred), as in Python's `draughts.rules`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Criterion {
    /// The most pieces.
    MostPieces,
    /// With a king rather than with a man.
    WithKing,
    /// The most kings.
    MostKings,
    /// The king/man pattern in capture order, compared lexicographically, king first.
    KingsEarliest,
    /// The largest total value, a man worth `man` and a king `king` (both at least 1).
    MostValue {
        /// A man's value.
        man: u32,
        /// A king's value.
        king: u32,
    },
}

impl Criterion {
    /// `(man, king)` when the key is the total of these over the pieces captured.
    pub fn weights(self) -> Option<(u32, u32)> {
        match self {
            Criterion::MostPieces => Some((1, 1)),
            Criterion::MostKings => Some((0, 1)),
            Criterion::MostValue { man, king } => Some((man, king)),
            Criterion::WithKing | Criterion::KingsEarliest => None,
        }
    }

    /// Whether the key reads [`CaptureFacts::order`].
    pub fn needs_order(self) -> bool {
        matches!(self, Criterion::KingsEarliest)
    }
}

/// A precedence rule implemented outside the crate (the Python bindings: user-defined criteria).
pub trait Precedence: Send + Sync {
    /// Which of `facts` (two or more captures of one side) have the best key: one flag per entry,
    /// at least one of them true.
    ///
    /// # Errors
    /// Whatever the implementation fails with (it reaches the caller of the generator).
    fn best(&self, facts: &[CaptureFacts]) -> Result<Vec<bool>, Error>;
}

/// The capture-priority rule of a ruleset.
#[derive(Clone, Default)]
pub enum PrecedenceRule {
    /// Free choice among captures.
    #[default]
    Free,
    /// Built-in criteria in order of importance (an empty list is free choice).
    Criteria(Vec<Criterion>),
    /// A rule implemented outside the crate.
    External(Arc<dyn Precedence>),
}

impl core::fmt::Debug for PrecedenceRule {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            PrecedenceRule::Free => write!(f, "Free"),
            PrecedenceRule::Criteria(list) => write!(f, "Criteria({list:?})"),
            PrecedenceRule::External(_) => write!(f, "External(..)"),
        }
    }
}

/// What the precedence implies for the search, derived from the criteria (see
/// [`derived_precedence`]); the Python side computes it from its `Criterion` objects for
/// external rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrecedenceFacts {
    /// `(man, king)` weights of the first criterion when it is a total value (enables the value
    /// bound of the flying search).
    pub value_weights: Option<(u32, u32)>,
    /// Among single jumps by men: +1 prefer taking kings, -1 prefer taking men, 0 no preference.
    pub single_jump_preference: i8,
    /// Whether some criterion compares the capture order.
    pub needs_order: bool,
}

/// The [`PrecedenceFacts`] of a list of built-in criteria (Python's `compile_rules` and
/// `_value_weights`).
pub fn derived_precedence(criteria: &[Criterion]) -> PrecedenceFacts {
    let king = key(
        criteria,
        &CaptureFacts {
            pieces: 1,
            kings: 1,
            with_king: false,
            order: vec![true],
        },
    );
    let man = key(
        criteria,
        &CaptureFacts {
            pieces: 1,
            kings: 0,
            with_king: false,
            order: vec![false],
        },
    );
    PrecedenceFacts {
        value_weights: criteria.first().and_then(|c| c.weights()),
        single_jump_preference: if criteria.is_empty() {
            0
        } else {
            (king > man) as i8 - (king < man) as i8
        },
        needs_order: criteria.iter().any(|c| c.needs_order()),
    }
}

/// One part of a built-in key.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum KeyPart {
    Number(u64),
    Order(Vec<bool>),
}

/// The key of `facts` under `criteria` (compared lexicographically, larger preferred).
pub(crate) fn key(criteria: &[Criterion], facts: &CaptureFacts) -> Vec<KeyPart> {
    criteria
        .iter()
        .map(|c| match *c {
            Criterion::MostPieces => KeyPart::Number(facts.pieces as u64),
            Criterion::WithKing => KeyPart::Number(facts.with_king as u64),
            Criterion::MostKings => KeyPart::Number(facts.kings as u64),
            Criterion::KingsEarliest => KeyPart::Order(facts.order.clone()),
            Criterion::MostValue { man, king } => KeyPart::Number(
                (facts.pieces - facts.kings) as u64 * man as u64 + facts.kings as u64 * king as u64,
            ),
        })
        .collect()
}

/// Colour index of White (the side whose men move up the board).
pub const WHITE: u8 = 0;
/// Colour index of Black.
pub const BLACK: u8 = 1;

/// The largest king-move limit the native rule state holds (its count has 40 bits).
pub const LARGEST_KING_MOVE_LIMIT: u64 = (1 << 40) - 1;

/// Every rule of a variant the move generator needs, as plain data (the fields of Python's
/// `Ruleset`; see its documentation for each rule).
#[derive(Clone, Debug)]
pub struct RulesSpec {
    /// Files of the board (squares along a rank), 4 to 26, even on a board of dark squares; the
    /// side of a square board.
    pub board_size: u32,
    /// Ranks of the board, 4 to 26; `None` for a square board of `board_size`.
    pub board_height: Option<u32>,
    /// Every square is played (Turkish), else the dark squares only.
    pub all_squares: bool,
    /// Whether White's near-left corner is a playing square.
    pub bottom_left_playable: bool,
    /// Where square 1 is.
    pub numbering: Numbering,
    /// Rows of men per side.
    pub rows_per_side: u32,
    /// The row (from 1, counted from each side) of the first row of men.
    pub men_start_row: u32,
    /// The side that moves first (0 White, 1 Black).
    pub first_to_move: u8,
    /// Directions of a man's quiet step ([`directions`] flags).
    pub men_move: u8,
    /// Directions a man captures in.
    pub men_capture: u8,
    /// Directions of a king's quiet move.
    pub kings_move: u8,
    /// Directions a king captures in.
    pub kings_capture: u8,
    /// Whether men may capture kings.
    pub men_capture_kings: bool,
    /// Flying kings (any distance), else short kings.
    pub flying_kings: bool,
    /// Where a flying king lands (anything but `Anywhere` needs flying kings).
    pub king_landing: KingLanding,
    /// A man reaching the crowning row mid-capture.
    pub capture_promotion: CapturePromotion,
    /// Whether capturing is mandatory.
    pub capture_mandatory: bool,
    /// Captured pieces leave the board as they are jumped (else at the end of the move).
    pub immediate_removal: bool,
    /// Whether a flying king may turn back 180° between two jumps (only with immediate removal).
    pub capture_reversal: bool,
    /// Quiet moves in a row by one king while its side has men (0: no limit).
    pub king_move_limit: u64,
    /// A player with no legal move wins (the generator does not read it; kept for the bindings).
    pub no_move_wins: bool,
    /// Crowning wins: no moves once any king is on the board.
    pub crowning_wins: bool,
    /// The capture-priority rule.
    pub precedence: PrecedenceRule,
    /// What the precedence implies for the search (see [`derived_precedence`]).
    pub precedence_facts: PrecedenceFacts,
}

impl Default for RulesSpec {
    /// The defaults of Python's `Ruleset`: 8x8 dark squares, three rows, short kings, diagonal
    /// forward men, mandatory capture, free choice.
    fn default() -> Self {
        RulesSpec {
            board_size: 8,
            board_height: None,
            all_squares: false,
            bottom_left_playable: true,
            numbering: Numbering::TopLeft,
            rows_per_side: 3,
            men_start_row: 1,
            first_to_move: WHITE,
            men_move: directions::DIAGONAL_FORWARD,
            men_capture: directions::DIAGONAL_FORWARD,
            kings_move: directions::DIAGONAL,
            kings_capture: directions::DIAGONAL,
            men_capture_kings: true,
            flying_kings: false,
            king_landing: KingLanding::Anywhere,
            capture_promotion: CapturePromotion::EndsMove,
            capture_mandatory: true,
            immediate_removal: false,
            capture_reversal: true,
            king_move_limit: 0,
            no_move_wins: false,
            crowning_wins: false,
            precedence: PrecedenceRule::Free,
            precedence_facts: derived_precedence(&[]),
        }
    }
}

impl RulesSpec {
    /// Sets built-in criteria and the facts derived from them.
    pub fn with_criteria(mut self, criteria: Vec<Criterion>) -> Self {
        self.precedence_facts = derived_precedence(&criteria);
        self.precedence = if criteria.is_empty() {
            PrecedenceRule::Free
        } else {
            PrecedenceRule::Criteria(criteria)
        };
        self
    }

    /// Ranks of the board (`board_height`, or `board_size` on a square board).
    pub fn height(&self) -> u32 {
        self.board_height.unwrap_or(self.board_size)
    }

    /// The board's geometry.
    ///
    /// # Errors
    /// [`Error::InvalidSpec`] for a bad board size or shape.
    pub fn geometry(&self) -> Result<Geometry, Error> {
        Geometry::new(
            self.board_size,
            self.height(),
            self.all_squares,
            self.bottom_left_playable,
            self.numbering,
        )
    }

    /// Whether any direction set holds an orthogonal direction.
    pub fn uses_orthogonal(&self) -> bool {
        [
            self.men_move,
            self.men_capture,
            self.kings_move,
            self.kings_capture,
        ]
        .iter()
        .any(|flags| flags & directions::ORTHOGONAL != 0)
    }

    /// Checks every field (what Python's `Ruleset` validators check, plus the native limits).
    ///
    /// # Errors
    /// [`Error::InvalidSpec`] naming the first bad field.
    pub fn validate(&self) -> Result<(), Error> {
        let bad = |text: String| Err(Error::InvalidSpec(text));
        self.geometry()?;
        if self.rows_per_side < 1 || self.men_start_row < 1 {
            return bad("rows_per_side and men_start_row must be at least 1".into());
        }
        if 2 * (self.men_start_row as u64 - 1 + self.rows_per_side as u64) >= self.height() as u64 {
            return bad(format!(
                "rows_per_side {} from row {} leaves no empty row between the sides",
                self.rows_per_side, self.men_start_row
            ));
        }
        if self.first_to_move > 1 {
            return bad(format!(
                "first_to_move {} must be 0 (White) or 1 (Black)",
                self.first_to_move
            ));
        }
        for (name, flags) in [
            ("men_move", self.men_move),
            ("men_capture", self.men_capture),
            ("kings_move", self.kings_move),
            ("kings_capture", self.kings_capture),
        ] {
            if flags == 0 || flags & !directions::ALL != 0 {
                return bad(format!(
                    "{name} {flags} is not a non-empty set of directions"
                ));
            }
        }
        if self.king_landing != KingLanding::Anywhere && !self.flying_kings {
            return bad("king_landing other than Anywhere needs flying kings".into());
        }
        if self.king_move_limit > LARGEST_KING_MOVE_LIMIT {
            return bad(format!(
                "king_move_limit {} is above {LARGEST_KING_MOVE_LIMIT}",
                self.king_move_limit
            ));
        }
        if !(-1..=1).contains(&self.precedence_facts.single_jump_preference) {
            return bad("single_jump_preference must be -1, 0 or 1".into());
        }
        self.check_precedence_facts()?;
        if let PrecedenceRule::Criteria(list) = &self.precedence {
            for (i, c) in list.iter().enumerate() {
                if let Criterion::MostValue { man, king } = c {
                    if *man < 1 || *king < 1 {
                        return bad("MostValue weights must be at least 1".into());
                    }
                }
                if list[..i].contains(c) {
                    return bad(format!("precedence lists {c:?} twice"));
                }
            }
        }
        Ok(())
    }

    /// Refuses facts that do not follow from built-in criteria (or free choice).
    ///
    /// The search trusts `value_weights` (the value bound of the flying search) and
    /// `single_jump_preference` (the single jumps a count keeps) where the lists apply the
    /// criteria themselves, so a spec whose facts say otherwise (written by hand: the bindings
    /// derive them) would make `legal` and `moves` disagree. `needs_order` may say more than the
    /// criteria need (the generator forces it where they need it). An external precedence's facts
    /// come from its implementation, which alone knows its key: they are trusted.
    ///
    /// # Errors
    /// [`Error::InvalidSpec`] quoting the facts given and those the criteria imply.
    fn check_precedence_facts(&self) -> Result<(), Error> {
        let criteria: &[Criterion] = match &self.precedence {
            PrecedenceRule::Free => &[],
            PrecedenceRule::Criteria(list) => list,
            PrecedenceRule::External(_) => return Ok(()),
        };
        let derived = derived_precedence(criteria);
        let given = self.precedence_facts;
        if given.value_weights == derived.value_weights
            && given.single_jump_preference == derived.single_jump_preference
        {
            return Ok(());
        }
        Err(Error::InvalidSpec(format!(
            "value_weights {:?} and single_jump_preference {} do not follow from the precedence \
             {criteria:?}, which implies {:?} and {}",
            given.value_weights,
            given.single_jump_preference,
            derived.value_weights,
            derived.single_jump_preference
        )))
    }
}

/// The spec of International draughts (10x10, flying kings, men capture backward, the most
/// pieces), shared by the crate's unit tests.
#[cfg(test)]
pub(crate) fn international_for_tests() -> RulesSpec {
    RulesSpec {
        board_size: 10,
        rows_per_side: 4,
        men_capture: directions::DIAGONAL,
        flying_kings: true,
        capture_promotion: CapturePromotion::OnlyAtEnd,
        ..RulesSpec::default()
    }
    .with_criteria(vec![Criterion::MostPieces])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_facts_of_builtin_criteria() {
        let facts = derived_precedence(&[
            Criterion::MostValue {
                man: 100,
                king: 199,
            },
            Criterion::WithKing,
        ]);
        assert_eq!(facts.value_weights, Some((100, 199)));
        assert_eq!(facts.single_jump_preference, 1);
        assert!(!facts.needs_order);
        let facts = derived_precedence(&[Criterion::MostPieces]);
        assert_eq!(facts.single_jump_preference, 0);
        let facts = derived_precedence(&[Criterion::MostPieces, Criterion::KingsEarliest]);
        assert_eq!(facts.single_jump_preference, 1);
        assert!(facts.needs_order);
        assert_eq!(
            derived_precedence(&[Criterion::WithKing]).value_weights,
            None
        );
    }

    #[test]
    fn facts_that_do_not_follow_from_built_in_criteria_are_refused() {
        let spec = RulesSpec::default().with_criteria(vec![Criterion::MostPieces]);
        assert!(spec.validate().is_ok());
        let mut lying = spec.clone();
        lying.precedence_facts.value_weights = Some((1, 5));
        let Err(Error::InvalidSpec(text)) = lying.validate() else {
            panic!("lying value_weights accepted");
        };
        assert!(
            text.contains("Some((1, 5))") && text.contains("Some((1, 1))"),
            "{text}"
        );
        let mut lying = spec.clone();
        lying.precedence_facts.single_jump_preference = 1;
        assert!(matches!(lying.validate(), Err(Error::InvalidSpec(_))));
        let mut free = RulesSpec::default();
        free.precedence_facts.single_jump_preference = -1;
        assert!(matches!(free.validate(), Err(Error::InvalidSpec(_))));
        let mut ordered = spec;
        ordered.precedence_facts.needs_order = true; // more than needed: harmless, accepted
        assert!(ordered.validate().is_ok());
    }

    #[test]
    fn order_keys_compare_like_python_tuples() {
        assert!(KeyPart::Order(vec![true]) > KeyPart::Order(vec![false, true]));
        assert!(KeyPart::Order(vec![true, false]) > KeyPart::Order(vec![true]));
    }

    #[test]
    fn validation_refuses_bad_fields() {
        assert!(RulesSpec::default().validate().is_ok());
        let bad = RulesSpec {
            rows_per_side: 4,
            ..RulesSpec::default()
        };
        assert!(bad.validate().is_err());
        let bad = RulesSpec {
            men_move: 0,
            ..RulesSpec::default()
        };
        assert!(bad.validate().is_err());
        let bad = RulesSpec {
            king_landing: KingLanding::DirectlyBehind,
            ..RulesSpec::default()
        };
        assert!(bad.validate().is_err());
    }
}

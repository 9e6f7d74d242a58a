//! The one error type of the crate.

use core::fmt;

/// Everything that can go wrong: no public function of the crate panics on any input, it returns
/// one of these instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The rules cannot be compiled (a field out of range, impossible combinations).
    InvalidSpec(String),
    /// A node (position) does not fit the compiled rules: overlapping sides, pieces off the
    /// board, kings that belong to nobody, a colour other than 0/1, or a rule state that does not
    /// decode.
    InvalidNode(String),
    /// A move given to `play` cannot be played in this node.
    InvalidMove(String),
    /// The capture search of the piece on `square` expanded more than `limit` states.
    CaptureSearchLimit {
        /// The square number of the piece whose search went over the bound.
        square: u32,
        /// The bound ([`crate::capture::MAX_STATES`]).
        limit: u64,
    },
    /// An abort hook (time limit, Ctrl-C) stopped a long computation; the text is the hook's.
    Interrupted(String),
    /// An external precedence rule failed; the text is its own.
    Precedence(String),
    /// Game `index` of a batch was given `action`, which is not legal there (nothing moved).
    IllegalAction {
        /// The game.
        index: usize,
        /// The action given.
        action: i64,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidSpec(text) => write!(f, "invalid rules: {text}"),
            Error::InvalidNode(text) => write!(f, "invalid position: {text}"),
            Error::InvalidMove(text) => write!(f, "invalid move: {text}"),
            Error::CaptureSearchLimit { square, limit } => write!(
                f,
                "the capture search of the piece on square {square} expanded more than {limit} states: \
                 the ruleset allows captures too many to enumerate in this position"
            ),
            Error::Interrupted(text) => write!(f, "interrupted: {text}"),
            Error::Precedence(text) => write!(f, "precedence rule failed: {text}"),
            Error::IllegalAction { index, action } => {
                write!(f, "action {action} is not legal in game {index}")
            }
        }
    }
}

impl std::error::Error for Error {}

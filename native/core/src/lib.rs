//! # draughts-core
//!
//! The rules of every draughts variant from **one** generic move generator driven by a
//! declarative ruleset: the native core of the Python library polydraughts (`draughts`).
//!
//! * [`spec::RulesSpec`]: the rules as plain data (board, directions, kings, captures,
//!   precedence, rule state); no variant is named anywhere in the crate.
//! * [`geometry`]: square numbers and coordinates; [`tables`]: the bit layout (bit for bit the
//!   Python one, so bitboards pass unchanged) and the compiled tables; [`bitboard`]: the widths
//!   (`u64`, `u128`, [`bitboard::Wide`]).
//! * [`state`]: nodes, moves as xor masks, the king-move limit's rule state.
//! * [`capture`]: the capture search (bounded work, abort hook); [`resolver`]: precedence and
//!   de-duplication; [`generator`]: quiet moves, legal lists, counting; [`perft`].
//! * [`drawrules`]: the draw rules a game keeps (repetition, move-count and endgame rules) and
//!   the 64-bit Zobrist position hash.
//! * [`engine::Engine`]: a compiled ruleset in the width its board needs, with limb-based nodes
//!   (what bindings use).
//!
//! ```
//! use draughts_core::spec::{directions, CapturePromotion, Criterion, RulesSpec};
//! use draughts_core::engine::Engine;
//! // International draughts as data.
//! let spec = RulesSpec {
//!     board_size: 10,
//!     rows_per_side: 4,
//!     men_capture: directions::DIAGONAL,
//!     flying_kings: true,
//!     capture_promotion: CapturePromotion::OnlyAtEnd,
//!     ..RulesSpec::default()
//! }
//! .with_criteria(vec![Criterion::MostPieces]);
//! let engine = Engine::new(&spec).unwrap();
//! assert_eq!(engine.perft(&engine.start(), 3, false, None).unwrap(), 658);
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod batch;
pub mod bitboard;
pub mod capture;
pub mod drawrules;
pub mod drawsearch;
pub mod endgame;
pub mod engine;
pub mod error;
pub mod evaluation;
pub mod generator;
pub mod geometry;
pub mod parallel;
pub mod perft;
pub mod resolver;
pub mod root;
pub mod search;
pub mod selfplay;
pub mod spec;
pub mod state;
pub mod tables;

pub use engine::Engine;
pub use error::Error;
pub use spec::RulesSpec;

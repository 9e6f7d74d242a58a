//! Reading the fixtures the Python generator recorded (commit 687cb68; tools/native_fixtures.py checks them).

#![allow(dead_code)]

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use draughts_core::engine::{AnyCompact, AnyMove, AnyNode, Engine};
use draughts_core::geometry::Numbering;
use draughts_core::spec::{
    CaptureFacts, CapturePromotion, Criterion, KingLanding, Precedence, PrecedenceFacts,
    PrecedenceRule, RulesSpec,
};
use draughts_core::Error;
use serde_json::Value;

/// A fixture file of tests/data/native.
pub fn fixture(name: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/native")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("valid JSON")
}

/// A published data file of tests/data.
pub fn data(name: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(path).expect("readable")).expect("valid JSON")
}

/// A hex string (`0x..` or bare) as little-endian limbs.
pub fn limbs(text: &str) -> Vec<u64> {
    let digits = text.trim_start_matches("0x");
    let digits = if digits.is_empty() { "0" } else { digits };
    let mut out = Vec::new();
    let bytes = digits.as_bytes();
    let mut end = bytes.len();
    while end > 0 {
        let start = end.saturating_sub(16);
        let chunk = std::str::from_utf8(&bytes[start..end]).unwrap();
        out.push(u64::from_str_radix(chunk, 16).expect("hex"));
        end = start;
    }
    while out.len() > 1 && *out.last().unwrap() == 0 {
        out.pop();
    }
    out
}

/// Limbs as a bare lower-case hex string (as Python's `f"{v:x}"`).
pub fn hex(limbs: &[u64]) -> String {
    let mut out = String::new();
    let mut started = false;
    for &limb in limbs.iter().rev() {
        if started {
            out.push_str(&format!("{limb:016x}"));
        } else if limb != 0 {
            out.push_str(&format!("{limb:x}"));
            started = true;
        }
    }
    if out.is_empty() {
        "0".into()
    } else {
        out
    }
}

fn criterion(v: &Value) -> Criterion {
    match v["kind"].as_str().unwrap() {
        "MostPieces" => Criterion::MostPieces,
        "WithKing" => Criterion::WithKing,
        "MostKings" => Criterion::MostKings,
        "KingsEarliest" => Criterion::KingsEarliest,
        "MostValue" => Criterion::MostValue {
            man: v["man"].as_u64().unwrap() as u32,
            king: v["king"].as_u64().unwrap() as u32,
        },
        other => panic!("unknown criterion {other}"),
    }
}

/// One part of a user-defined key.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Part {
    Number(i64),
    Order(Vec<bool>),
}

/// A precedence given from outside the crate, as the bindings give user-defined criteria: the
/// fixture's criteria (built-in ones and the tool's `FewestPieces`) evaluated here.
struct UserCriteria(Vec<Value>);

impl UserCriteria {
    fn key(&self, f: &CaptureFacts) -> Vec<Part> {
        self.0
            .iter()
            .map(|c| match c["kind"].as_str().unwrap() {
                "External" if c["label"] == "fewest pieces" => Part::Number(-(f.pieces as i64)),
                "MostPieces" => Part::Number(f.pieces as i64),
                "WithKing" => Part::Number(f.with_king as i64),
                "MostKings" => Part::Number(f.kings as i64),
                "KingsEarliest" => Part::Order(f.order.clone()),
                "MostValue" => Part::Number(
                    (f.pieces - f.kings) as i64 * c["man"].as_i64().unwrap()
                        + f.kings as i64 * c["king"].as_i64().unwrap(),
                ),
                other => panic!("no such criterion {other}"),
            })
            .collect()
    }
}

impl Precedence for UserCriteria {
    fn best(&self, facts: &[CaptureFacts]) -> Result<Vec<bool>, Error> {
        let keys: Vec<Vec<Part>> = facts.iter().map(|f| self.key(f)).collect();
        let top = keys.iter().max().cloned().unwrap_or_default();
        Ok(keys.iter().map(|k| *k == top).collect())
    }
}

/// The RulesSpec of a fixture entry, with the precedence facts as Python derived them.
pub fn spec(v: &Value) -> RulesSpec {
    let b = |k: &str| v[k].as_bool().unwrap_or_else(|| panic!("{k}"));
    let n = |k: &str| v[k].as_u64().unwrap_or_else(|| panic!("{k}"));
    let list = v["precedence"].as_array().unwrap();
    let external = list.iter().any(|c| c["kind"] == "External");
    let criteria: Vec<Criterion> = if external {
        Vec::new()
    } else {
        list.iter().map(criterion).collect()
    };
    RulesSpec {
        board_size: n("board_size") as u32,
        board_height: v
            .get("board_height")
            .and_then(Value::as_u64)
            .map(|h| h as u32),
        all_squares: b("all_squares"),
        bottom_left_playable: b("bottom_left_playable"),
        numbering: match v["numbering"].as_str().unwrap() {
            "TOP_LEFT" => Numbering::TopLeft,
            "TOP_RIGHT" => Numbering::TopRight,
            "BOTTOM_LEFT" => Numbering::BottomLeft,
            "BOTTOM_RIGHT" => Numbering::BottomRight,
            other => panic!("numbering {other}"),
        },
        rows_per_side: n("rows_per_side") as u32,
        men_start_row: n("men_start_row") as u32,
        first_to_move: n("first_to_move") as u8,
        men_move: n("men_move") as u8,
        men_capture: n("men_capture") as u8,
        kings_move: n("kings_move") as u8,
        kings_capture: n("kings_capture") as u8,
        men_capture_kings: b("men_capture_kings"),
        flying_kings: b("flying_kings"),
        king_landing: match v["king_landing"].as_str().unwrap() {
            "ANYWHERE" => KingLanding::Anywhere,
            "DIRECTLY_BEHIND" => KingLanding::DirectlyBehind,
            "BEHIND_LAST_KING" => KingLanding::BehindLastKing,
            other => panic!("landing {other}"),
        },
        capture_promotion: match v["capture_promotion"].as_str().unwrap() {
            "ENDS_MOVE" => CapturePromotion::EndsMove,
            "CONTINUES_AS_KING" => CapturePromotion::ContinuesAsKing,
            "ONLY_AT_END" => CapturePromotion::OnlyAtEnd,
            other => panic!("promotion {other}"),
        },
        capture_mandatory: b("capture_mandatory"),
        immediate_removal: b("immediate_removal"),
        capture_reversal: b("capture_reversal"),
        king_move_limit: n("king_move_limit"),
        no_move_wins: b("no_move_wins"),
        crowning_wins: b("crowning_wins"),
        precedence: if external {
            PrecedenceRule::External(Arc::new(UserCriteria(list.clone())))
        } else if criteria.is_empty() {
            PrecedenceRule::Free
        } else {
            PrecedenceRule::Criteria(criteria)
        },
        precedence_facts: PrecedenceFacts {
            value_weights: v["value_weights"]
                .as_array()
                .map(|w| (w[0].as_u64().unwrap() as u32, w[1].as_u64().unwrap() as u32)),
            single_jump_preference: v["single_jump_preference"].as_i64().unwrap() as i8,
            needs_order: b("needs_order"),
        },
    }
}

/// Every fixture ruleset by name: its JSON entry and its engine.
pub fn engines() -> HashMap<String, (Value, Engine)> {
    fixture("rulesets.json")
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            let engine = Engine::new(&spec(v)).unwrap_or_else(|e| panic!("{}: {e}", v["name"]));
            (v["name"].as_str().unwrap().to_string(), (v.clone(), engine))
        })
        .collect()
}

/// A node written `[own, opp, kings, color, state]` (hex bitboards and state).
pub fn node(v: &Value) -> AnyNode {
    let a = v.as_array().unwrap();
    let state = a[4].as_str().unwrap().trim_start_matches("0x");
    AnyNode {
        own: limbs(a[0].as_str().unwrap()),
        opp: limbs(a[1].as_str().unwrap()),
        kings: limbs(a[2].as_str().unwrap()),
        color: a[3].as_u64().unwrap() as u8,
        state: u128::from_str_radix(if state.is_empty() { "0" } else { state }, 16).unwrap(),
    }
}

/// A compact as Python's fixture writes it: `moved,captured,crowned` in bare hex.
pub fn compact_text(c: &AnyCompact) -> String {
    format!("{},{},{}", hex(&c.moved), hex(&c.captured), hex(&c.crowned))
}

/// A public move as the fixture writes it.
pub fn move_text(m: &AnyMove) -> String {
    let join = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
    format!(
        "{}-{}|{}|{}|{}|{}",
        m.start,
        m.end,
        join(&m.captured),
        join(&m.path),
        m.promotes as u8,
        compact_text(&m.compact)
    )
}

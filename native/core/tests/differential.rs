//! The native generator against the Python generator (the specification) on random positions of
//! every fixture ruleset (tests/data/native/positions.json) and on capture floods
//! (floods.json): legal lists in both conventions (start, end, captured order, path, promotes,
//! xor masks, in order), moves as xor masks in order, captures, can_capture, count1, count2,
//! small perft, the capture-search limit where Python hit it, and the abort hook's calls.

mod common;

use std::cell::Cell;

use common::{compact_text, engines, fixture, move_text, node};
use draughts_core::engine::{AnyNode, Engine};
use draughts_core::Error;
use serde_json::Value;

const LABELS: [&str; 9] = [
    "legal",
    "legal_paths",
    "moves",
    "moves_paths",
    "captures",
    "can_capture",
    "count1",
    "count2",
    "perft",
];

/// The fixture's answer as strings.
fn strings(v: &Value) -> Vec<String> {
    match v {
        Value::Array(items) => items
            .iter()
            .map(|i| match i {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            })
            .collect(),
        other => vec![other.to_string()],
    }
}

/// Rust's answer to one of Python's calls, as strings.
fn answer(engine: &Engine, n: &AnyNode, label: &str, p: &Value) -> Result<Vec<String>, Error> {
    let texts = |moves: Vec<_>| moves.iter().map(compact_text).collect::<Vec<_>>();
    Ok(match label {
        "legal" => engine
            .legal(n, false, None)?
            .iter()
            .map(move_text)
            .collect(),
        "legal_paths" => engine.legal(n, true, None)?.iter().map(move_text).collect(),
        "moves" => texts(engine.moves(n, false, None)?),
        "moves_paths" => texts(engine.moves(n, true, None)?),
        "captures" => texts(engine.captures(n, None)?),
        "can_capture" => vec![engine.can_capture(n)?.to_string()],
        "count1" => vec![
            engine.count1(n, false, None)?.to_string(),
            engine.count1(n, true, None)?.to_string(),
        ],
        "count2" => vec![
            engine.count2(n, false, None)?.to_string(),
            engine.count2(n, true, None)?.to_string(),
        ],
        "perft" => {
            let depth = p["perft"][0].as_u64().unwrap_or(0) as u32;
            vec![
                depth.to_string(),
                engine.perft(n, depth, false, None)?.to_string(),
                engine.perft(n, depth, true, None)?.to_string(),
            ]
        }
        _ => unreachable!(),
    })
}

/// Compares every answer of one fixture position; returns the failures.
fn compare(engine: &Engine, p: &Value, at: &str) -> Vec<String> {
    let n = node(&p["node"]);
    let mut failures = Vec::new();
    let error_at = p.get("error_at").and_then(Value::as_str);
    for label in LABELS {
        if error_at == Some(label) {
            let square = p["square"].as_u64().unwrap() as u32;
            match answer(engine, &n, label, p) {
                Err(Error::CaptureSearchLimit { square: s, .. }) if s == square => {}
                other => failures.push(format!(
                    "{at} {label}: expected the search limit on {square}, got {other:?}"
                )),
            }
            break;
        }
        let want = match (label, p.get(label)) {
            (_, Some(v)) => strings(v),
            ("legal_paths", None)
                if p.get("legal").is_some() && p.get("legal_paths_count").is_none() =>
            {
                strings(&p["legal"])
            }
            ("moves_paths", None)
                if p.get("moves").is_some() && p.get("moves_paths_count").is_none() =>
            {
                strings(&p["moves"])
            }
            _ => continue,
        };
        match answer(engine, &n, label, p) {
            Ok(got) if got == want => {}
            got => {
                let mut text = format!("{at} {label}:\n  got  {got:?}\n  want {want:?}");
                text.truncate(2000);
                failures.push(text);
            }
        }
    }
    failures
}

fn report(failures: &[String], checked: usize) {
    let shown: Vec<&str> = failures.iter().take(12).map(String::as_str).collect();
    assert!(
        failures.is_empty(),
        "{} failures in {checked} positions:\n{}",
        failures.len(),
        shown.join("\n")
    );
}

#[test]
fn random_positions_answer_as_in_python() {
    let all = engines();
    let mut checked = 0;
    let mut failures = Vec::new();
    for group in fixture("positions.json").as_array().unwrap() {
        let name = group["ruleset"].as_str().unwrap();
        let (_, engine) = &all[name];
        for (i, p) in group["positions"].as_array().unwrap().iter().enumerate() {
            failures.extend(compare(engine, p, &format!("{name} #{i}")));
            checked += 1;
        }
    }
    report(&failures, checked);
    assert!(checked > 2000, "only {checked} positions");
}

#[test]
fn floods_answer_as_in_python_with_the_same_work() {
    let all = engines();
    let floods = fixture("floods.json");
    let mut failures = Vec::new();
    for (i, p) in floods.as_array().unwrap().iter().enumerate() {
        let name = p["ruleset"].as_str().unwrap();
        let (_, engine) = &all[name];
        let at = format!("flood {name} #{i}");
        failures.extend(compare(engine, p, &at));
        let n = node(&p["node"]);
        for (label, paths) in [("legal_paths_count", true), ("moves_paths_count", true)] {
            let Some(want) = p.get(label).and_then(Value::as_u64) else {
                continue;
            };
            let got = if label.starts_with("legal") {
                engine.legal(&n, paths, None).map(|m| m.len() as u64)
            } else {
                engine.moves(&n, paths, None).map(|m| m.len() as u64)
            };
            if got != Ok(want) {
                failures.push(format!("{at} {label}: {got:?} (Python {want})"));
            }
        }
        let calls = Cell::new(0u64);
        let hook = || -> Result<(), Error> {
            calls.set(calls.get() + 1);
            Ok(())
        };
        for (label, run) in [("legal", 0), ("moves", 1), ("count1", 2)] {
            calls.set(0);
            let _ = match run {
                0 => engine.legal(&n, false, Some(&hook)).map(|_| ()),
                1 => engine.moves(&n, false, Some(&hook)).map(|_| ()),
                _ => engine.count1(&n, false, Some(&hook)).map(|_| ()),
            };
            let want = p["hook_calls"][label].as_u64().unwrap();
            if calls.get() != want {
                failures.push(format!(
                    "{at} hook calls in {label}: {} (Python {want})",
                    calls.get()
                ));
            }
        }
    }
    report(&failures, floods.as_array().unwrap().len());
}

//! The published perft counts (tests/data/perft*.json, as tools/native_fixtures.py lists them
//! with each node in Python's bit layout), up to a number of leaves that runs in seconds.

mod common;

use common::{engines, fixture, node};

/// The most leaves a case may count here (the deeper ones run with `--ignored`).
const FAST_LEAVES: u64 = 60_000_000;

fn run(low: u64, high: u64) -> usize {
    let all = engines();
    let mut ran = 0;
    for case in fixture("perft.json").as_array().unwrap() {
        let Some(count) = case["count"].as_u64() else {
            continue; // beyond 64 bits (OEIS A133046 at depth 29)
        };
        if count <= low || count > high || case["checked_by_python"] != true {
            continue;
        }
        let name = case["ruleset"].as_str().unwrap();
        let (_, engine) = &all[name];
        let depth = case["depth"].as_u64().unwrap() as u32;
        let paths = case["paths"].as_bool().unwrap();
        let got = engine
            .perft(&node(&case["node"]), depth, paths, None)
            .unwrap();
        assert_eq!(
            got, count,
            "{name} depth {depth} paths {paths} ({})",
            case["source"]
        );
        ran += 1;
    }
    ran
}

#[test]
fn published_counts_up_to_sixty_million_leaves() {
    let ran = run(0, FAST_LEAVES);
    assert!(ran > 150, "only {ran} cases");
}

#[test]
#[ignore = "deep: billions of leaves"]
fn published_counts_beyond() {
    run(FAST_LEAVES, u64::MAX);
}

/// Published counts the Python suite does not assert (too deep for it, or peers' counts it
/// disagrees with on purpose): printed, for a look with `--ignored --nocapture`
/// (`NATIVE_PERFT_SOURCE=perft-family.json` keeps the cases of one data file).
#[test]
#[ignore = "deep, and some published counts are knowingly not matched (kish's Turkish actions)"]
fn published_counts_python_does_not_check() {
    let all = engines();
    for case in fixture("perft.json").as_array().unwrap() {
        let Some(count) = case["count"].as_u64() else {
            continue;
        };
        if case["checked_by_python"] == true || count > 3_000_000_000 {
            continue;
        }
        if let Ok(source) = std::env::var("NATIVE_PERFT_SOURCE") {
            if case["source"] != source.as_str() {
                continue;
            }
        }
        let name = case["ruleset"].as_str().unwrap();
        let depth = case["depth"].as_u64().unwrap() as u32;
        let paths = case["paths"].as_bool().unwrap();
        let got = all[name]
            .1
            .perft(&node(&case["node"]), depth, paths, None)
            .unwrap();
        println!(
            "{} {name} depth {depth} paths {paths}: {got} (published {count}, {})",
            if got == count { "same" } else { "DIFFERS" },
            case["source"]
        );
    }
}

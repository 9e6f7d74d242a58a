//! libFuzzer drives the harness of `native/core/tests/harness`: its bytes are the harness's
//! choices (rules, nodes, moves), so a mutation changes one choice; a panic (a broken invariant
//! or a panic in the core) is a crash. Run: `cd native/fuzz && cargo +nightly fuzz run engine`.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../core/tests/harness/mod.rs"]
mod harness;

fuzz_target!(|data: &[u8]| {
    let mut counts = harness::Counts::default();
    harness::run_case(&mut harness::Rng::Bytes(data), &mut counts);
});

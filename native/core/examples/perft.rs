//! Times perft from the start position of a few rulesets (International and others), built from
//! their rule dimensions only.
//!
//! `cargo run --release --example perft -- [international|russian|frisian|turkish|canadian|custom-14|custom-18-wide|all] [depth] [keep]`

use std::time::Instant;

use draughts_core::geometry::Numbering;
use draughts_core::spec::{directions, CapturePromotion, Criterion, RulesSpec};
use draughts_core::Engine;

fn international() -> RulesSpec {
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

fn rulesets() -> Vec<(&'static str, RulesSpec, u32)> {
    let russian = RulesSpec {
        men_capture: directions::DIAGONAL,
        flying_kings: true,
        capture_promotion: CapturePromotion::ContinuesAsKing,
        ..RulesSpec::default()
    };
    let frisian = RulesSpec {
        men_capture: directions::ALL,
        kings_capture: directions::ALL,
        king_move_limit: 3,
        ..international()
    }
    .with_criteria(vec![
        Criterion::MostValue {
            man: 100,
            king: 199,
        },
        Criterion::WithKing,
    ]);
    let turkish = RulesSpec {
        board_size: 8,
        all_squares: true,
        rows_per_side: 2,
        men_start_row: 2,
        men_move: directions::ORTHOGONAL_FORWARD | directions::ORTHOGONAL_SIDEWAYS,
        men_capture: directions::ORTHOGONAL_FORWARD | directions::ORTHOGONAL_SIDEWAYS,
        kings_move: directions::ORTHOGONAL,
        kings_capture: directions::ORTHOGONAL,
        immediate_removal: true,
        capture_reversal: false,
        numbering: Numbering::BottomLeft,
        ..international()
    }
    .with_criteria(vec![Criterion::MostPieces]);
    let canadian = RulesSpec {
        board_size: 12,
        rows_per_side: 5,
        ..international()
    };
    let custom_14 = RulesSpec {
        board_size: 14,
        rows_per_side: 5,
        immediate_removal: true,
        ..international()
    }
    .with_criteria(vec![
        Criterion::MostValue { man: 1, king: 3 },
        Criterion::WithKing,
    ]);
    let custom_18 = RulesSpec {
        board_size: 18,
        rows_per_side: 6,
        ..international()
    };
    vec![
        ("international", international(), 8),
        ("russian", russian, 9),
        ("frisian", frisian, 8),
        ("turkish", turkish, 7),
        ("canadian", canadian, 7),
        ("custom-14", custom_14, 8),
        ("custom-18-wide", custom_18, 7),
    ]
}

/// This process's CPU time in seconds (user + system, from /proc/self/stat; 0 where unreadable):
/// on a loaded machine the rate per CPU second is the steadier figure.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    let Some(rest) = stat.rsplit(')').next() else {
        return 0.0;
    };
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields
        .get(11..13)
        .map(|f| f.iter().filter_map(|v| v.parse::<f64>().ok()).sum())
        .unwrap_or(0.0);
    ticks / 100.0
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).map(String::as_str).unwrap_or("international");
    let depth: Option<u32> = args.get(2).and_then(|d| d.parse().ok());
    let keep = args.get(3).map(String::as_str) == Some("keep");
    for (name, spec, default_depth) in rulesets() {
        if which != "all" && which != name {
            continue;
        }
        let engine = Engine::new(&spec).expect("valid rules");
        let start = engine.start();
        let depth = depth.unwrap_or(default_depth);
        let clock = Instant::now();
        let cpu = cpu_seconds();
        let leaves = engine.perft(&start, depth, keep, None).expect("perft");
        let seconds = clock.elapsed().as_secs_f64();
        let cpu = cpu_seconds() - cpu;
        println!(
            "{name:14} width {:3} depth {depth} {}: {leaves:>14} leaves in {seconds:8.3} s = {:7.2} M leaves/s ({cpu:.2} CPU s = {:7.2} M/CPU s)",
            engine.width(),
            if keep { "keep " } else { "dedup" },
            leaves as f64 / seconds / 1e6,
            if cpu > 0.0 { leaves as f64 / cpu / 1e6 } else { 0.0 }
        );
    }
}

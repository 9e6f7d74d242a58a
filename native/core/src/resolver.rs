//! The capture-priority resolver: which of the search's capture paths are legal.
//!
//! The precedence criteria form a lexicographic key on the facts of each capture
//! ([`CaptureFacts`]); only the captures with the best key are legal. Then paths with one FMJD
//! identity (start, end, set of captured pieces) are merged, keeping the first, unless every path
//! is wanted (the perft "keep" convention). As Python's `draughts._core.resolver`.

use std::collections::HashSet;

use crate::bitboard::Bits;
use crate::capture::{search, Abort, RawCapture, SearchInput};
use crate::error::Error;
use crate::generator::Generator;
use crate::spec::{CaptureFacts, Criterion, PrecedenceRule};

/// What the precedence may compare about `raw` (`kings`: all kings before the move; the order
/// filled when `order`, from the recorded order or, unrecorded, as all men).
pub fn facts<B: Bits>(raw: &RawCapture<B>, kings: B, order: bool, recorded: bool) -> CaptureFacts {
    let taken = raw.captured.count();
    let pattern = if !order {
        Vec::new()
    } else if recorded {
        raw.order.iter().map(|&bit| kings.has(bit)).collect()
    } else {
        vec![false; taken as usize]
    };
    CaptureFacts {
        pieces: taken,
        kings: (raw.captured & kings).count(),
        with_king: kings.has(raw.start),
        order: pattern,
    }
}

fn number<B: Bits>(c: Criterion, raw: &RawCapture<B>, kings: B) -> u64 {
    let pieces = raw.captured.count() as u64;
    let taken_kings = (raw.captured & kings).count() as u64;
    match c {
        Criterion::MostPieces => pieces,
        Criterion::WithKing => kings.has(raw.start) as u64,
        Criterion::MostKings => taken_kings,
        Criterion::MostValue { man, king } => {
            (pieces - taken_kings) * man as u64 + taken_kings * king as u64
        }
        Criterion::KingsEarliest => 0,
    }
}

fn pattern<B: Bits>(raw: &RawCapture<B>, kings: B, recorded: bool) -> Vec<bool> {
    if recorded {
        raw.order.iter().map(|&bit| kings.has(bit)).collect()
    } else {
        vec![false; raw.captured.count() as usize]
    }
}

/// The captures with the best precedence key (all of them under free choice).
///
/// # Errors
/// What an external precedence fails with, or [`Error::Precedence`] if it keeps no capture or
/// answers with the wrong number of flags.
pub fn best<B: Bits>(
    rule: &PrecedenceRule,
    needs_order: bool,
    raws: Vec<RawCapture<B>>,
    kings: B,
    recorded: bool,
) -> Result<Vec<RawCapture<B>>, Error> {
    if raws.len() < 2 {
        return Ok(raws);
    }
    match rule {
        PrecedenceRule::Free => Ok(raws),
        PrecedenceRule::Criteria(criteria) if criteria.is_empty() => Ok(raws),
        PrecedenceRule::Criteria(criteria) => {
            let mut alive = vec![true; raws.len()];
            for &c in criteria {
                if c == Criterion::KingsEarliest {
                    let patterns: Vec<Vec<bool>> =
                        raws.iter().map(|r| pattern(r, kings, recorded)).collect();
                    let top = patterns
                        .iter()
                        .zip(&alive)
                        .filter(|(_, &a)| a)
                        .map(|(p, _)| p)
                        .max()
                        .cloned();
                    for (i, p) in patterns.iter().enumerate() {
                        if alive[i] && Some(p) != top.as_ref() {
                            alive[i] = false;
                        }
                    }
                } else {
                    let values: Vec<u64> = raws.iter().map(|r| number(c, r, kings)).collect();
                    let top = values
                        .iter()
                        .zip(&alive)
                        .filter(|(_, &a)| a)
                        .map(|(v, _)| *v)
                        .max()
                        .unwrap_or(0);
                    for (i, &v) in values.iter().enumerate() {
                        if v != top {
                            alive[i] = false;
                        }
                    }
                }
            }
            Ok(raws
                .into_iter()
                .zip(alive)
                .filter(|(_, a)| *a)
                .map(|(r, _)| r)
                .collect())
        }
        PrecedenceRule::External(rule) => {
            let all: Vec<CaptureFacts> = raws
                .iter()
                .map(|r| facts(r, kings, needs_order, recorded))
                .collect();
            let flags = rule.best(&all)?;
            if flags.len() != raws.len() || !flags.iter().any(|&f| f) {
                return Err(Error::Precedence(format!(
                    "kept {} of {} captures with {} flags",
                    flags.iter().filter(|&&f| f).count(),
                    raws.len(),
                    flags.len()
                )));
            }
            Ok(raws
                .into_iter()
                .zip(flags)
                .filter(|(_, f)| *f)
                .map(|(r, _)| r)
                .collect())
        }
    }
}

/// One capture per identity (start, end, captured set), keeping the first generated.
pub fn deduplicate<B: Bits>(raws: Vec<RawCapture<B>>) -> Vec<RawCapture<B>> {
    if raws.len() < 2 {
        return raws;
    }
    if raws.len() <= 32 {
        let mut kept: Vec<RawCapture<B>> = Vec::with_capacity(raws.len());
        for r in raws {
            if !kept
                .iter()
                .any(|k| k.start == r.start && k.end == r.end && k.captured == r.captured)
            {
                kept.push(r);
            }
        }
        return kept;
    }
    let mut seen = HashSet::new();
    raws.into_iter()
        .filter(|r| seen.insert((r.start, r.end, r.captured)))
        .collect()
}

/// The legal captures of the side to move (precedence applied; de-duplicated unless `paths`).
///
/// The capture order is recorded when `record` asks for it, or when a criterion compares it and
/// there are kings to meet. `every_path` false lets a search that finds a flood of paths prune.
#[allow(clippy::too_many_arguments)]
pub(crate) fn legal_captures<B: Bits>(
    g: &Generator<B>,
    color: u8,
    own: B,
    opp: B,
    kings: B,
    paths: bool,
    record: bool,
    every_path: bool,
    abort: Abort<'_>,
) -> Result<Vec<RawCapture<B>>, Error> {
    let recorded = record || (g.facts.needs_order && (opp & kings).any());
    let input = SearchInput {
        color,
        men: own & !kings,
        kings: own & kings,
        opponents: opp,
        opponent_kings: opp & kings,
        empty: g.tables.board & !(own | opp),
    };
    let raws = search(g, &input, recorded, every_path, abort)?;
    let raws = best(&g.precedence, g.facts.needs_order, raws, kings, recorded)?;
    Ok(if paths { raws } else { deduplicate(raws) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(start: u32, end: u32, captured: u64, order: Vec<u32>) -> RawCapture<u64> {
        RawCapture {
            start,
            end,
            captured,
            promotes: false,
            order,
            path: vec![end],
        }
    }

    #[test]
    fn criteria_keep_the_best_lexicographically() {
        let kings = 1u64 << 10;
        let raws = vec![
            raw(1, 5, 0b11 << 20, vec![20, 21]),
            raw(2, 6, (1 << 10) | (1 << 30), vec![30, 10]),
            raw(3, 7, (1 << 10) | (1 << 31), vec![10, 31]),
            raw(4, 8, 1 << 40, vec![40]),
        ];
        let most = PrecedenceRule::Criteria(vec![Criterion::MostPieces]);
        assert_eq!(
            best(&most, false, raws.clone(), kings, true).unwrap().len(),
            3
        );
        let earliest =
            PrecedenceRule::Criteria(vec![Criterion::MostPieces, Criterion::KingsEarliest]);
        let kept = best(&earliest, true, raws.clone(), kings, true).unwrap();
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].start, 3);
        let free = best(&PrecedenceRule::Free, false, raws.clone(), kings, true).unwrap();
        assert_eq!(free.len(), 4);
    }

    #[test]
    fn duplicates_keep_the_first() {
        let raws = vec![
            raw(1, 5, 0b11, vec![0, 1]),
            raw(1, 5, 0b11, vec![1, 0]),
            raw(1, 6, 0b11, vec![0, 1]),
        ];
        let kept = deduplicate(raws);
        assert_eq!(kept.len(), 2);
        assert_eq!(kept[0].order, vec![0, 1]);
    }

    struct Fewest;
    impl crate::spec::Precedence for Fewest {
        fn best(&self, facts: &[CaptureFacts]) -> Result<Vec<bool>, Error> {
            let low = facts.iter().map(|f| f.pieces).min().unwrap_or(0);
            Ok(facts.iter().map(|f| f.pieces == low).collect())
        }
    }

    #[test]
    fn an_external_rule_chooses() {
        let rule = PrecedenceRule::External(std::sync::Arc::new(Fewest));
        let raws = vec![raw(1, 5, 0b11, vec![0, 1]), raw(2, 6, 0b100, vec![2])];
        let kept = best(&rule, false, raws, 0, true).unwrap();
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].start, 2);
    }
}

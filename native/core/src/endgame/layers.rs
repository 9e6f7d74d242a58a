//! The verdicts within the rules of a *sliced* frame where both counts matter (plan "both"), one
//! layer of `k` at a time instead of 31 states a position spread together.
//!
//! In a slice only kings move inside the frame (a man's move leaves it for a slice solved
//! already, read like an exit), and a king's move takes `k` (plies since a man moved) one
//! further. So the states `(position, k)` of a frame form layers joined only from `k` to `k + 1`:
//! layer `k` follows from layer `k + 1` and the exits in one pass over the reversed moves, no
//! spreading, no queue. The layer at the limit is drawn but for positions without a move; every
//! layer below it is the same function of the layer above (the caps do not depend on `k`), so
//! once two layers agree every layer below is that layer too, and the work stops there.
//!
//! The verdict and budget of each state are those [`super::within::spread`] gives (a won state's
//! budget is the largest a move passes on, capped; a lost state's the smallest, every move reaching
//! a won child and no exit drawing or winning): the frame's states are a DAG in `k`, so the
//! equations have one solution, which both compute.

use super::solve::{Walk, MAN};
use super::within::{Caps, Plan, INF};
use super::{DRAW, EXIT_DRAWS, EXIT_WINS, HOLE, LOSS, NO_MOVE_LOST, NO_MOVE_WON, WIN};

/// One layer of `k`: per entry its code and the budget it was decided at.
#[derive(Clone, PartialEq, Eq)]
struct Layer {
    codes: Vec<u8>,
    budgets: Vec<i16>,
}

/// The budget a move to a child decided at `budget` passes on (a ply less; [`INF`] stays).
#[inline]
fn below(budget: i16) -> i16 {
    if i32::from(budget) >= INF {
        budget
    } else {
        budget - 1
    }
}

/// The codes within the rules of a sliced frame of a "both" plan, counts at 0, and the budgets
/// they were decided at; `None` where the walk is not of such a frame (no exit budgets, or a man's
/// move inside it): then [`super::within::spread`] spreads the states together.
pub fn spread(plan: &Plan, walk: &Walk) -> Option<(Vec<u8>, Vec<i16>)> {
    let limit = usize::try_from(plan.count_limit).ok()?;
    if i32::try_from(limit).ok()? >= INF || walk.flat.iter().any(|&entry| entry & MAN != 0) {
        return None;
    }
    let (top, low) = walk.exit_budgets.as_ref()?;
    let caps = walk.caps.as_ref().unwrap_or(&plan.caps);
    let mut layer = top_layer(walk);
    for _ in 0..limit {
        let next = step(walk, caps, top, low, &layer);
        if next == layer {
            break;
        }
        layer = next;
    }
    Some((layer.codes, layer.budgets))
}

/// The layer at the limit: drawn, but for positions without a move.
fn top_layer(walk: &Walk) -> Layer {
    let codes = walk
        .codes
        .iter()
        .zip(&walk.exits)
        .map(|(&code, &flag)| {
            if code == HOLE {
                HOLE
            } else if flag & NO_MOVE_LOST != 0 {
                LOSS
            } else if flag & NO_MOVE_WON != 0 {
                WIN
            } else {
                DRAW
            }
        })
        .collect();
    Layer {
        codes,
        budgets: vec![INF as i16; walk.codes.len()],
    }
}

/// Layer `k` from layer `k + 1` (`above`) and the exits.
fn step(walk: &Walk, caps: &Caps, top: &[i16], low: &[i16], above: &Layer) -> Layer {
    let size = walk.codes.len();
    let mut best = top.to_vec();
    let mut lowest = low.to_vec();
    let mut remaining = walk.inside.clone();
    for child in 0..size {
        let code = above.codes[child];
        if code != WIN && code != LOSS {
            continue;
        }
        let passed = below(above.budgets[child]);
        let parents = &walk.flat[walk.start[child] as usize..walk.start[child + 1] as usize];
        for &parent in parents {
            let parent = parent as usize;
            if code == LOSS {
                best[parent] = best[parent].max(passed);
            } else {
                remaining[parent] -= 1;
                lowest[parent] = lowest[parent].min(passed);
            }
        }
    }
    let mut codes = vec![DRAW; size];
    let mut budgets = vec![INF as i16; size];
    for index in 0..size {
        let flag = walk.exits[index];
        let (code, budget) = if walk.codes[index] == HOLE {
            (HOLE, INF)
        } else if flag & NO_MOVE_LOST != 0 {
            (LOSS, INF)
        } else if flag & NO_MOVE_WON != 0 {
            (WIN, INF)
        } else {
            decide(
                i32::from(best[index]),
                i32::from(lowest[index]),
                remaining[index] == 0 && flag & (EXIT_WINS | EXIT_DRAWS) == 0,
                caps.at(index),
            )
        };
        codes[index] = code;
        budgets[index] = budget as i16;
    }
    Layer { codes, budgets }
}

/// One state's verdict: won where a move passes on a budget within the cap, else lost where
/// every move reaches a won child (`all_won`) within the cap, else drawn.
#[inline]
fn decide(best: i32, lowest: i32, all_won: bool, cap: i32) -> (u8, i32) {
    if best.min(cap) >= 0 {
        (WIN, best.min(cap))
    } else if all_won && lowest.min(cap) >= 0 {
        (LOSS, lowest.min(cap))
    } else {
        (DRAW, INF)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::endgame::within::{spread_states, Counts};

    /// A splitmix64 stream (no dependency for a test).
    struct Stream(u64);

    impl Stream {
        fn next(&mut self, below: u64) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            (z ^ (z >> 31)) % below
        }

        fn budget(&mut self) -> i16 {
            if self.next(5) == 0 {
                INF as i16
            } else {
                self.next(24) as i16 - 1
            }
        }
    }

    /// A frame of kings' moves (cycles included) with random exits, caps and ends of the game,
    /// as a sliced walk records them.
    fn random_walk(stream: &mut Stream, size: usize) -> Walk {
        let codes: Vec<u8> = (0..size)
            .map(|_| if stream.next(8) == 0 { HOLE } else { DRAW })
            .collect();
        let live: Vec<usize> = (0..size).filter(|&i| codes[i] != HOLE).collect();
        let mut parents: Vec<Vec<u32>> = vec![Vec::new(); size];
        let (mut inside, mut exits) = (vec![0u16; size], vec![0u8; size]);
        let (mut top, mut low) = (vec![-1i16; size], vec![INF as i16; size]);
        for &entry in &live {
            for _ in 0..stream.next(4) {
                let child = live[stream.next(live.len() as u64) as usize];
                parents[child].push(entry as u32);
                inside[entry] += 1;
            }
            match stream.next(6) {
                0 if inside[entry] == 0 => exits[entry] = NO_MOVE_LOST,
                1 if inside[entry] == 0 => exits[entry] = NO_MOVE_WON,
                2 => {
                    exits[entry] = EXIT_WINS;
                    top[entry] = stream.budget();
                }
                3 => exits[entry] = EXIT_DRAWS,
                4 => low[entry] = stream.budget(),
                _ if inside[entry] == 0 => exits[entry] = NO_MOVE_LOST,
                _ => {}
            }
        }
        let mut start = vec![0u32];
        let mut flat = Vec::new();
        for row in &parents {
            flat.extend_from_slice(row);
            start.push(flat.len() as u32);
        }
        Walk {
            codes,
            inside,
            exits,
            blocked: vec![0; size],
            longest: vec![0; size],
            seed: vec![0; size],
            ranks: None,
            caps: Some(Caps::Each((0..size).map(|_| stream.budget()).collect())),
            exit_budgets: Some((top, low)),
            start,
            flat,
        }
    }

    #[test]
    fn layers_give_the_states_spread_together() {
        let mut stream = Stream(38);
        let mut decided = 0;
        for round in 0..400 {
            let walk = random_walk(&mut stream, 2 + round % 40);
            let plan = Plan {
                counts: Counts::Both,
                count_limit: 1 + stream.next(8) as i32,
                caps: Caps::Uniform(INF as i16),
                advance: None,
                placement: Vec::new(),
                material_limit: INF,
                diagonal: Vec::new(),
            };
            let layered = spread(&plan, &walk).expect("a sliced frame of a both plan");
            let together = spread_states(&plan, &walk).unwrap();
            assert_eq!(layered, together, "round {round}");
            decided += layered.0.iter().filter(|&&c| c == WIN || c == LOSS).count();
        }
        assert!(decided > 1000, "{decided}");
    }

    #[test]
    fn a_mans_move_inside_the_frame_is_left_to_the_states() {
        let mut walk = random_walk(&mut Stream(5), 30);
        let plan = Plan {
            counts: Counts::Both,
            count_limit: 4,
            caps: Caps::Uniform(INF as i16),
            advance: None,
            placement: Vec::new(),
            material_limit: INF,
            diagonal: Vec::new(),
        };
        assert!(spread(&plan, &walk).is_some());
        walk.flat[0] |= MAN;
        assert!(spread(&plan, &walk).is_none());
        walk.flat[0] &= !MAN;
        walk.exit_budgets = None; // a whole solve: no exit budgets
        assert!(spread(&plan, &walk).is_none());
    }
}

//! The verdicts within the rules (the Python `draughts.endgame.within.spread`, natively): the
//! same retrograde spreading as the pure values, over *budgets* (the largest count at which a
//! position is still won or lost) instead of distances, budgets taken largest first.
//!
//! A state is a position (one count: plans "ply" and "men") or a position and a value of `k`,
//! the plies since a man moved (plan "both": state `index * width + k`).

use std::collections::BTreeMap;

use super::solve::{Walk, MAN};
use super::{DRAW, EXIT_DRAWS, EXIT_WINS, HOLE, LOSS, NO_MOVE_LOST, NO_MOVE_WON, WIN};
use crate::bitboard::Bits;
use crate::error::Error;
use crate::generator::Generator;
use crate::state::Node;

/// A budget no count limits.
pub const INF: i32 = 0x7FFF;

/// Which count is the budget (see the Python `draughts.endgame.within`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counts {
    /// One count: plies in the material.
    Ply,
    /// Plies since a man moved alone: a man's move restarts the budget.
    Men,
    /// Each position once per value of the plies since a man moved.
    Both,
}

/// How the draw rules count in one material.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Which count is the budget.
    pub counts: Counts,
    /// The limit of the plies since a man moved ([`INF`]: none).
    pub count_limit: i32,
    /// The largest budget of each position (its limit less one; -1: drawn at once): one value
    /// for all, or one per entry.
    pub caps: Caps,
    /// "men" plans: per colour and bit, how far a man on that bit has come.
    pub advance: Option<[Vec<u16>; 2]>,
    /// The endgame rules that look at where the pieces stand (only those shorter than
    /// `material_limit`): with them, each position's cap is computed in the walk.
    pub placement: Vec<PlacementRule>,
    /// The limit in plies of the count in the material wherever the pieces stand ([`INF`]: none).
    pub material_limit: i32,
    /// The bits of the long diagonal (joining the two playable corners).
    pub diagonal: Vec<u32>,
}

/// An endgame rule that looks at where the pieces stand (the Python `draughts.drawrules.applies`,
/// its conditions on the material already checked).
#[derive(Clone, Debug)]
pub struct PlacementRule {
    /// Its limit in plies.
    pub plies: i32,
    /// The colours it may take as the weaker side (`None`: it names none).
    pub weak: Option<Vec<u8>>,
    /// It applies only with a weaker side's lone king on the long diagonal.
    pub weak_king_on_main_diagonal: bool,
    /// It does not apply while a shot is in the air (a capture now, or every move allows one).
    pub no_shot: bool,
}

/// The caps of a plan's positions.
#[derive(Clone, Debug)]
pub enum Caps {
    /// The same cap everywhere.
    Uniform(i16),
    /// One cap per entry.
    Each(Vec<i16>),
}

impl Plan {
    /// The cap of one position: its limit less one (-1: drawn at once; [`INF`]: none).
    ///
    /// # Errors
    /// What the generator returns.
    pub fn cap<B: Bits>(
        &self,
        g: &Generator<B>,
        node: &Node<B>,
        white: B,
        black: B,
    ) -> Result<i16, Error> {
        let mut limit = self.material_limit;
        let mut shot: Option<bool> = None;
        for rule in &self.placement {
            if rule.plies >= limit {
                continue;
            }
            if rule.no_shot {
                if shot.is_none() {
                    shot = Some(shot_in_the_air(g, node)?);
                }
                if shot == Some(true) {
                    continue;
                }
            }
            let applies = match &rule.weak {
                Some(weak) if rule.weak_king_on_main_diagonal => weak.iter().any(|&color| {
                    let kings = node.kings & if color == 0 { white } else { black };
                    kings.count() == 1 && self.diagonal.contains(&kings.lowest_index())
                }),
                _ => true,
            };
            if applies {
                limit = rule.plies;
            }
        }
        Ok(if limit >= INF {
            INF as i16
        } else {
            (limit - 1) as i16
        })
    }
}

/// Whether the side to move can capture, or every move of it lets the opponent capture.
fn shot_in_the_air<B: Bits>(g: &Generator<B>, node: &Node<B>) -> Result<bool, Error> {
    let moves = g.moves(node, false, None)?;
    if moves.iter().any(|m| m.captured.any()) {
        return Ok(true);
    }
    if moves.is_empty() {
        return Ok(false);
    }
    for m in &moves {
        let child = g.play(node, m);
        if !g
            .moves(&child, false, None)?
            .iter()
            .any(|c| c.captured.any())
        {
            return Ok(false);
        }
    }
    Ok(true)
}

impl Caps {
    /// The cap of entry `index`.
    #[inline]
    pub(crate) fn at(&self, index: usize) -> i32 {
        match self {
            Caps::Uniform(cap) => i32::from(*cap),
            Caps::Each(caps) => i32::from(caps[index]),
        }
    }
}

/// The states waiting, by key (smallest first), each key with its won and lost states.
struct Levels<'a> {
    ranks: Option<&'a [u16]>,
    top: i64,
    queues: BTreeMap<i64, (Vec<u64>, Vec<u64>)>,
}

impl Levels<'_> {
    fn push(&mut self, state: u64, budget: i32, code: u8) {
        let rank = self.ranks.map_or(0, |r| i64::from(r[state as usize]));
        let key = (self.top - rank) * i64::from(INF + 1) + i64::from(INF - budget);
        let entry = self.queues.entry(key).or_default();
        if code == WIN {
            entry.0.push(state);
        } else {
            entry.1.push(state);
        }
    }

    fn pop(&mut self) -> Option<(i32, Vec<u64>, Vec<u64>)> {
        let (key, (wins, losses)) = self.queues.pop_first()?;
        Some((INF - (key % i64::from(INF + 1)) as i32, wins, losses))
    }
}

struct Spread<'a> {
    width: u64,
    limit: i32,
    reset: bool,
    walk: &'a Walk,
    caps: &'a Caps,
    states: Vec<u8>,
    remaining: Vec<u16>,
    lowest: Vec<i16>,
    /// Per entry: the budget its state with the count at 0 was decided at.
    budgets: Vec<i16>,
    levels: Levels<'a>,
    /// The moves of the state being decided (one buffer for all, no allocation per state).
    moves: Vec<(usize, u64, u64, i32)>,
}

/// The codes within the rules, counts at 0, from what the forward walk recorded.
///
/// # Errors
/// [`Error::InvalidSpec`] if the states do not fit memory's index range.
pub fn spread(plan: &Plan, walk: &Walk) -> Result<(Vec<u8>, Vec<i16>), Error> {
    if plan.counts == Counts::Both {
        if let Some(layered) = super::layers::spread(plan, walk) {
            return Ok(layered);
        }
    }
    spread_states(plan, walk)
}

/// [`spread`] over every state at once (a sliced frame of a "both" plan goes by layers instead).
///
/// # Errors
/// As [`spread`].
pub(crate) fn spread_states(plan: &Plan, walk: &Walk) -> Result<(Vec<u8>, Vec<i16>), Error> {
    let size = walk.codes.len();
    let width: u64 = if plan.counts == Counts::Both {
        (plan.count_limit + 1) as u64
    } else {
        1
    };
    let total = usize::try_from(size as u64 * width).map_err(|_| {
        Error::InvalidSpec("too many states for the verdicts within the rules".into())
    })?;
    let init: Vec<u8> = walk
        .codes
        .iter()
        .map(|&c| if c == HOLE { HOLE } else { DRAW })
        .collect();
    let states = if width == 1 {
        init.clone()
    } else {
        vec![DRAW; total]
    };
    let remaining = if width == 1 {
        walk.inside.clone()
    } else {
        walk.inside
            .iter()
            .flat_map(|&m| std::iter::repeat_n(m, width as usize))
            .collect()
    };
    let ranks = walk.ranks.as_deref();
    let mut run = Spread {
        width,
        limit: plan.count_limit,
        reset: plan.counts == Counts::Men,
        walk,
        caps: walk.caps.as_ref().unwrap_or(&plan.caps),
        states,
        remaining,
        lowest: match &walk.exit_budgets {
            Some((_, low)) if width == 1 => low.clone(),
            Some((_, low)) => low
                .iter()
                .flat_map(|&l| std::iter::repeat_n(l, width as usize))
                .collect(),
            None => vec![INF as i16; total],
        },
        budgets: vec![INF as i16; size],
        moves: Vec::new(),
        levels: Levels {
            ranks,
            top: ranks.map_or(0, |r| i64::from(r.iter().copied().max().unwrap_or(0))),
            queues: BTreeMap::new(),
        },
    };
    run.seed(&init);
    while let Some((budget, wins, losses)) = run.levels.pop() {
        for state in losses {
            run.lost(state, budget);
        }
        for state in wins {
            run.won(state, budget);
        }
    }
    let mut within = init;
    if width > 1 {
        for (index, code) in within.iter_mut().enumerate() {
            if *code != HOLE {
                *code = run.states[index * width as usize];
            }
        }
    } else {
        within = run.states;
    }
    Ok((within, run.budgets))
}

impl Spread<'_> {
    /// Records the budget a state with the count at 0 is decided at.
    #[inline]
    fn decided(&mut self, state: u64, budget: i32) {
        if state.is_multiple_of(self.width) {
            self.budgets[(state / self.width) as usize] = budget as i16;
        }
    }

    fn seed(&mut self, codes: &[u8]) {
        for (index, &code) in codes.iter().enumerate() {
            if code == HOLE {
                continue;
            }
            let flag = self.walk.exits[index];
            let moves = self.walk.inside[index];
            if flag == 0 && moves != 0 {
                continue;
            }
            for count in 0..self.width {
                let state = index as u64 * self.width + count;
                if flag & (NO_MOVE_LOST | NO_MOVE_WON) != 0 {
                    let code = if flag & NO_MOVE_LOST != 0 { LOSS } else { WIN };
                    self.levels.push(state, INF, code);
                    continue;
                }
                let cap = if self.width == 1 || (count as i32) < self.limit {
                    self.caps.at(index)
                } else {
                    -1
                };
                if cap < 0 {
                    continue;
                }
                let (top, low) = match &self.walk.exit_budgets {
                    Some((top, low)) => (i32::from(top[index]), i32::from(low[index])),
                    None => (INF, INF),
                };
                if flag & EXIT_WINS != 0 {
                    if top.min(cap) >= 0 {
                        self.levels.push(state, top.min(cap), WIN);
                    }
                } else if moves == 0 && flag & EXIT_DRAWS == 0 && low.min(cap) >= 0 {
                    self.levels.push(state, low.min(cap), LOSS);
                }
            }
        }
    }

    /// The moves that reach `state` decided at `budget`: per move its parent, the parent's
    /// states it is a move of (a range), and the budget it gives them (before their cap).
    fn moves_to(&self, state: u64, budget: i32, out: &mut Vec<(usize, u64, u64, i32)>) {
        out.clear();
        let (index, count) = (state / self.width, state % self.width);
        let walk = self.walk;
        let row = &walk.flat
            [walk.start[index as usize] as usize..walk.start[index as usize + 1] as usize];
        let below = if budget == INF { INF } else { budget - 1 };
        for &entry in row {
            let parent = (entry & !MAN) as u64;
            let man = entry & MAN != 0;
            if self.width == 1 {
                let candidate = if self.reset && man { INF } else { below };
                out.push((parent as usize, parent, parent + 1, candidate));
                continue;
            }
            let base = parent * self.width;
            if man && count == 0 {
                out.push((parent as usize, base, base + self.limit as u64, below));
            } else if count != 0 && !man {
                out.push((parent as usize, base + count - 1, base + count, below));
            }
        }
    }

    fn lost(&mut self, state: u64, budget: i32) {
        if self.states[state as usize] != DRAW {
            return;
        }
        self.states[state as usize] = LOSS;
        self.decided(state, budget);
        let mut moves = std::mem::take(&mut self.moves);
        self.moves_to(state, budget, &mut moves);
        for &(parent, low, high, candidate) in &moves {
            let top = candidate.min(self.caps.at(parent));
            if top < 0 {
                continue;
            }
            for target in low..high {
                if self.states[target as usize] == DRAW {
                    self.levels.push(target, top, WIN);
                }
            }
        }
        self.moves = moves;
    }

    fn won(&mut self, state: u64, budget: i32) {
        if self.states[state as usize] != DRAW {
            return;
        }
        self.states[state as usize] = WIN;
        self.decided(state, budget);
        let mut moves = std::mem::take(&mut self.moves);
        self.moves_to(state, budget, &mut moves);
        for &(parent, low, high, candidate) in &moves {
            let blocked = self.walk.exits[parent] & (EXIT_WINS | EXIT_DRAWS) != 0;
            let cap = self.caps.at(parent);
            for target in low..high {
                let t = target as usize;
                if self.states[t] != DRAW {
                    continue;
                }
                if candidate < i32::from(self.lowest[t]) {
                    self.lowest[t] = candidate as i16;
                }
                self.remaining[t] -= 1;
                if self.remaining[t] == 0 && !blocked {
                    let top = i32::from(self.lowest[t]).min(cap);
                    if top >= 0 {
                        self.levels.push(target, top, LOSS);
                    }
                }
            }
        }
        self.moves = moves;
    }
}

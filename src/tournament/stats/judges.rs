//! What the statistics say of the judges themselves: how often a verdict
//! flipped when re-judged with the sides swapped, and whether a judge's
//! own model does better when that judge decides.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::game::{Game, Pick};
use super::records::{Outcome, outcome_for};
use super::wilson::{Rate, wilson};

/// One judge's swap checks and how many flipped.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SwapFlips {
    pub judge: String,
    pub checks: u64,
    /// Never more than the checks: a game's extra flips are not counted.
    pub flips: u64,
    /// `flips / checks`; `None` when the judge made no checks.
    pub rate: Option<Rate>,
}

/// Every judge's swap checks, by name.
pub fn swap_flips(games: &[Game]) -> Vec<SwapFlips> {
    let mut by_judge: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    for game in games {
        let (checks, flips) = by_judge.entry(&game.judge).or_default();
        *checks += u64::from(game.swap_checks);
        *flips += u64::from(game.flips_within_checks());
    }
    by_judge
        .into_iter()
        .map(|(judge, (checks, flips))| SwapFlips {
            judge: judge.to_string(),
            checks,
            flips,
            rate: wilson(flips as f64, checks),
        })
        .collect()
}

/// A judge's model that also debated: its win rate (a draw half a win,
/// games against itself left out) when that judge decided, and when
/// other judges did. A rate's `trials` is the games it counts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SelfPreference {
    pub model: String,
    pub by_itself: Option<Rate>,
    pub by_others: Option<Rate>,
}

/// Self-preference of every judge's model that debated in some game, by name.
pub fn self_preference(games: &[Game]) -> Vec<SelfPreference> {
    let debaters: BTreeSet<&str> = games.iter().flat_map(|g| [g.advocate.as_str(), g.skeptic.as_str()]).collect();
    let judges: BTreeSet<&str> = games.iter().map(|g| g.judge.as_str()).filter(|j| debaters.contains(j)).collect();
    judges
        .into_iter()
        .map(|model| {
            // (points, games) judged by the model itself, and by others.
            let mut own = (0.0, 0);
            let mut others = (0.0, 0);
            for game in games.iter().filter(|g| !g.is_mirror()) {
                let side = if game.advocate == model {
                    Pick::Advocate
                } else if game.skeptic == model {
                    Pick::Skeptic
                } else {
                    continue;
                };
                let Some(outcome) = outcome_for(game, side) else { continue };
                let tally = if game.judge == model { &mut own } else { &mut others };
                tally.0 += match outcome {
                    Outcome::Won => 1.0,
                    Outcome::Drew => 0.5,
                    Outcome::Lost => 0.0,
                };
                tally.1 += 1;
            }
            SelfPreference {
                model: model.to_string(),
                by_itself: wilson(own.0, own.1),
                by_others: wilson(others.0, others.1),
            }
        })
        .collect()
}

//! The pairwise matrix: for each ordered pair of models that met, the
//! first's wins, the second's wins and their draws against each other.

use std::collections::BTreeMap;

use serde::Serialize;

use super::game::{Game, Pick};
use super::records::{Outcome, outcome_for};

/// One ordered pair's games against each other (the pair the other way
/// round has its own row, with wins and opponent's wins exchanged).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HeadToHead {
    pub model: String,
    pub opponent: String,
    pub wins: u64,
    pub opponent_wins: u64,
    pub draws: u64,
    /// Games between them the judge never decided.
    pub unjudged: u64,
}

/// Every ordered pair of different models that met, by (model, opponent).
pub fn head_to_head(games: &[Game]) -> Vec<HeadToHead> {
    let mut pairs: BTreeMap<(&str, &str), HeadToHead> = BTreeMap::new();
    for game in games.iter().filter(|g| !g.is_mirror()) {
        for (model, opponent, side) in
            [(&game.advocate, &game.skeptic, Pick::Advocate), (&game.skeptic, &game.advocate, Pick::Skeptic)]
        {
            let pair = pairs.entry((model, opponent)).or_insert_with(|| HeadToHead {
                model: model.clone(),
                opponent: opponent.clone(),
                wins: 0,
                opponent_wins: 0,
                draws: 0,
                unjudged: 0,
            });
            match outcome_for(game, side) {
                Some(Outcome::Won) => pair.wins += 1,
                Some(Outcome::Lost) => pair.opponent_wins += 1,
                Some(Outcome::Drew) => pair.draws += 1,
                None => pair.unjudged += 1,
            }
        }
    }
    pairs.into_values().collect()
}

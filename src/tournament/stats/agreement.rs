//! How often the judge, the person and the room picked the same side,
//! counted over the games where both of a pair gave a pick.

use serde::Serialize;

use super::game::{Game, Pick};
use super::wilson::{Rate, wilson};

/// Agreed picks over games where both gave one; `None` with no such game.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Agreement {
    pub judge_person: Option<Rate>,
    pub judge_room: Option<Rate>,
    pub person_room: Option<Rate>,
}

/// The three agreements of `games`. The judge's pick is its verdict
/// (`winner`); an even pick agrees only with an even one.
pub fn agreement(games: &[Game]) -> Agreement {
    let rate = |picks: fn(&Game) -> (Option<Pick>, Option<Pick>)| {
        let pairs: Vec<(Pick, Pick)> = games
            .iter()
            .filter_map(|g| match picks(g) {
                (Some(a), Some(b)) => Some((a, b)),
                _ => None,
            })
            .collect();
        let agreed = pairs.iter().filter(|(a, b)| a == b).count();
        wilson(agreed as f64, pairs.len() as u64)
    };
    Agreement {
        judge_person: rate(|g| (g.winner, g.person)),
        judge_room: rate(|g| (g.winner, g.room)),
        person_room: rate(|g| (g.person, g.room)),
    }
}

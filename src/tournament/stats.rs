//! The statistics of a tournament: pure functions from the finished games
//! ([`Game`]) to a [`Summary`] (each model's record and Bradley–Terry
//! rating, the head to head, the judges' leans to a side and to length,
//! their swap-check flips and self-preference, and how judge, person and
//! room agreed) and the plain-text report of it ([`text`]). No I/O; it
//! imports nothing from heat, so any floor may use it.

mod agreement;
mod bias;
mod bradley_terry;
mod game;
mod head_to_head;
mod judges;
mod ratings;
mod records;
mod text;
mod wilson;

#[cfg(test)]
mod tests;

use serde::Serialize;

pub use agreement::Agreement;
pub use bias::{JudgeSideBias, SideBias};
pub use bradley_terry::{Bout, Fit, elo, fit, fit_without_prior};
pub use game::{Game, Pick};
pub use head_to_head::HeadToHead;
pub use judges::{SelfPreference, SwapFlips};
pub use ratings::{RESAMPLES, Rating, Ratings};
pub use records::{ModelRecord, Record};
pub use text::text;
pub use wilson::{Rate, Z_95, wilson};

/// Everything the statistics say of a list of games.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    pub games: u64,
    /// Games with a verdict (an even one included).
    pub judged: u64,
    /// Games the judge called even.
    pub draws: u64,
    /// Each model's record, in the ratings' order, then the unrated by name.
    pub models: Vec<ModelRecord>,
    pub ratings: Ratings,
    /// Every ordered pair of models that met, by names.
    pub head_to_head: Vec<HeadToHead>,
    pub side_bias: SideBias,
    /// Every judge's swap checks, by name.
    pub swap_flips: Vec<SwapFlips>,
    /// The share of decisive verdicts won by the side that wrote more.
    pub length_bias: Option<Rate>,
    pub self_preference: Vec<SelfPreference>,
    pub agreement: Agreement,
}

/// The summary of `games`, its rating intervals from [`RESAMPLES`]
/// resamples drawn from `seed` (the same seed, the same summary).
pub fn summarise(games: &[Game], seed: u64) -> Summary {
    summarise_with_resamples(games, seed, RESAMPLES)
}

/// [`summarise`] with as many bootstrap resamples as asked (fewer is
/// quicker and rougher; 0 leaves each interval at its rating).
pub fn summarise_with_resamples(games: &[Game], seed: u64, resamples: u32) -> Summary {
    let ratings = ratings::ratings_with_resamples(games, seed, resamples);
    let mut models = records::model_records(games);
    let rank = |model: &str| ratings.models.iter().position(|r| r.model == model).unwrap_or(usize::MAX);
    // Stable: the unrated keep their order by name.
    models.sort_by_key(|record| rank(&record.model));
    Summary {
        games: games.len() as u64,
        judged: games.iter().filter(|g| g.winner.is_some()).count() as u64,
        draws: games.iter().filter(|g| g.winner == Some(Pick::Even)).count() as u64,
        models,
        head_to_head: head_to_head::head_to_head(games),
        side_bias: bias::side_bias(games),
        swap_flips: judges::swap_flips(games),
        length_bias: bias::length_bias(games),
        self_preference: judges::self_preference(games),
        agreement: agreement::agreement(games),
        ratings,
    }
}

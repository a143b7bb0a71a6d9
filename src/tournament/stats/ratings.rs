//! The models' Bradley–Terry ratings on the Elo-like scale, with 95 %
//! bootstrap intervals: the decided games between different models
//! resampled with replacement, refitted, and the 2.5th and 97.5th
//! percentiles of each model's ratings taken (linear interpolation between
//! order statistics, as numpy's default). Each resample is fitted as all
//! the games are, with the prior of virtual draws only if it needs it (a
//! model that drew no game in it, or won all of its games there, does).
//! The resamples draw from `fastrand` seeded by the caller, so a summary
//! is reproducible.

use std::collections::BTreeSet;

use serde::Serialize;

use super::bradley_terry::{Bout, elo, fit, fit_from};
use super::game::Game;

/// How many times the games are resampled for the intervals.
pub const RESAMPLES: u32 = 1000;

/// One model's rating and its 95 % bootstrap interval.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rating {
    pub model: String,
    /// `1000 + 400 · log10(strength)`, strengths at a geometric mean of 1.
    pub rating: f64,
    pub low: f64,
    pub high: f64,
}

/// Every rated model, and how the ratings were made.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ratings {
    /// Highest rating first; equal ratings by name.
    pub models: Vec<Rating>,
    /// Whether the fit of all the games needed the prior of one virtual
    /// draw between each pair (see `bradley_terry`).
    pub prior: bool,
    pub resamples: u32,
    pub seed: u64,
    /// Models with no decided game against another model: not rated.
    pub unrated: Vec<String>,
}

/// The ratings of the models in `games`, their intervals from `resamples`
/// resamples drawn from `seed` (0: each interval is the rating itself).
pub fn ratings_with_resamples(games: &[Game], seed: u64, resamples: u32) -> Ratings {
    let decided: Vec<&Game> = games.iter().filter(|g| g.winner.is_some() && !g.is_mirror()).collect();
    let rated: Vec<&str> = decided
        .iter()
        .flat_map(|g| [g.advocate.as_str(), g.skeptic.as_str()])
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let unrated: Vec<String> = games
        .iter()
        .flat_map(|g| [g.advocate.as_str(), g.skeptic.as_str()])
        .filter(|m| !rated.contains(m))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .map(str::to_string)
        .collect();
    let index = |model: &str| rated.binary_search(&model).unwrap_or_default();
    let bouts: Vec<Bout> = decided
        .iter()
        .filter_map(|g| {
            Some(Bout { first: index(&g.advocate), second: index(&g.skeptic), points: g.advocate_points()? })
        })
        .collect();
    let point = fit(rated.len(), &bouts);
    let intervals = bootstrap(rated.len(), &bouts, &point.strengths, seed, resamples);
    let mut models: Vec<Rating> = rated
        .iter()
        .zip(&point.strengths)
        .zip(intervals)
        .map(|((model, strength), (low, high))| {
            let rating = elo(*strength);
            // Without resamples there is no spread to report.
            let (low, high) = if resamples == 0 { (rating, rating) } else { (low, high) };
            Rating { model: (*model).to_string(), rating, low, high }
        })
        .collect();
    models.sort_by(|a, b| b.rating.total_cmp(&a.rating).then_with(|| a.model.cmp(&b.model)));
    Ratings { models, prior: point.prior, resamples, seed, unrated }
}

/// Each model's (2.5th, 97.5th) percentile rating over `resamples` fits of
/// the bouts resampled with replacement.
fn bootstrap(models: usize, bouts: &[Bout], point: &[f64], seed: u64, resamples: u32) -> Vec<(f64, f64)> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(resamples as usize); models];
    let mut resample = Vec::with_capacity(bouts.len());
    for _ in 0..resamples {
        resample.clear();
        resample.extend((0..bouts.len()).map(|_| bouts[rng.usize(..bouts.len())]));
        let refit = fit_from(models, &resample, Some(point));
        for (sample, strength) in samples.iter_mut().zip(refit.strengths) {
            sample.push(elo(strength));
        }
    }
    samples
        .into_iter()
        .map(|mut sample| {
            sample.sort_by(f64::total_cmp);
            (percentile(&sample, 0.025), percentile(&sample, 0.975))
        })
        .collect()
}

/// The `q` quantile of sorted values, interpolating linearly between the
/// two nearest; 0 for no values.
fn percentile(sorted: &[f64], q: f64) -> f64 {
    let Some(last) = sorted.len().checked_sub(1) else { return 0.0 };
    let position = q.clamp(0.0, 1.0) * last as f64;
    let below = position.floor() as usize;
    let above = (below + 1).min(last);
    let weight = position - below as f64;
    sorted[below] + (sorted[above] - sorted[below]) * weight
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_interpolate_as_numpy_does() {
        let values: Vec<f64> = (0..=10).map(f64::from).collect();
        assert!((percentile(&values, 0.025) - 0.25).abs() < 1e-12);
        assert!((percentile(&values, 0.975) - 9.75).abs() < 1e-12);
        assert!((percentile(&[3.0], 0.5) - 3.0).abs() < 1e-12);
        assert!(percentile(&[], 0.5).abs() < 1e-12);
    }
}

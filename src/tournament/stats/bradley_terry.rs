//! Bradley–Terry strengths, fitted by the MM algorithm (Hunter 2004, "MM
//! algorithms for generalized Bradley–Terry models"), a draw counted as
//! half a win to each side, and put on an Elo-like scale.
//!
//! The maximum-likelihood fit exists only when the models cannot be split
//! in two groups one of which never scored against the other (the graph
//! "i scored against j" is strongly connected). When it is not (a model
//! won or lost every game, or the games fall in groups that never met), MM
//! drives some strengths to 0 or infinity; then, and only then, a weak
//! prior is added: one virtual draw between each pair of models, which
//! connects everything and keeps every strength finite.

/// One game between two models, by index: `first` scored `points` (1 a
/// win, ½ a draw, 0 a loss) and `second` the rest.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bout {
    pub first: usize,
    pub second: usize,
    pub points: f64,
}

/// Fitted strengths, normalised to a geometric mean of 1, and whether the
/// prior of virtual draws was needed to fit them.
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    pub strengths: Vec<f64>,
    pub prior: bool,
}

/// The iterations stop when no log-strength moves more than this.
const TOLERANCE: f64 = 1e-10;
/// A bound on the iterations, far above what a fit of a tournament needs.
const MAX_ITERATIONS: usize = 20_000;

/// A strength on the Elo-like scale: `1000 + 400 · log10(strength)`.
pub fn elo(strength: f64) -> f64 {
    1000.0 + 400.0 * strength.log10()
}

/// The strengths of `models` models from `bouts`, with the prior only if
/// the plain fit does not exist.
pub fn fit(models: usize, bouts: &[Bout]) -> Fit {
    fit_from(models, bouts, None)
}

/// [`fit`], starting the iterations from `start` (a close guess, such as
/// the fit of all the games for a resample of them, saves iterations).
pub fn fit_from(models: usize, bouts: &[Bout], start: Option<&[f64]>) -> Fit {
    let mut scored = Scored::new(models, bouts);
    let prior = !scored.strongly_connected();
    if prior {
        scored.add_virtual_draws();
    }
    Fit { strengths: scored.maximise(start), prior }
}

/// The plain maximum-likelihood strengths, without any prior; `None` when
/// they do not exist (see the module's comment).
pub fn fit_without_prior(models: usize, bouts: &[Bout]) -> Option<Vec<f64>> {
    let scored = Scored::new(models, bouts);
    scored.strongly_connected().then(|| scored.maximise(None))
}

/// What each model scored against each other: `points[i][j]` is i's wins
/// over j plus half their draws.
struct Scored {
    points: Vec<Vec<f64>>,
}

impl Scored {
    fn new(models: usize, bouts: &[Bout]) -> Self {
        let mut points = vec![vec![0.0; models]; models];
        for bout in bouts.iter().filter(|b| b.first != b.second && b.first < models && b.second < models) {
            let first = bout.points.clamp(0.0, 1.0);
            points[bout.first][bout.second] += first;
            points[bout.second][bout.first] += 1.0 - first;
        }
        Scored { points }
    }

    fn models(&self) -> usize {
        self.points.len()
    }

    fn add_virtual_draws(&mut self) {
        for (i, row) in self.points.iter_mut().enumerate() {
            for (j, points) in row.iter_mut().enumerate() {
                if i != j {
                    *points += 0.5;
                }
            }
        }
    }

    /// Whether every model reaches every other along "scored against"
    /// edges, and is reached back.
    fn strongly_connected(&self) -> bool {
        let forward = self.reached_from_first(|i, j| self.points[i][j] > 0.0);
        let backward = self.reached_from_first(|i, j| self.points[j][i] > 0.0);
        forward && backward
    }

    fn reached_from_first(&self, edge: impl Fn(usize, usize) -> bool) -> bool {
        let n = self.models();
        if n == 0 {
            return true;
        }
        let mut seen = vec![false; n];
        seen[0] = true;
        let mut stack = vec![0];
        while let Some(i) = stack.pop() {
            for (j, seen) in seen.iter_mut().enumerate() {
                if !*seen && edge(i, j) {
                    *seen = true;
                    stack.push(j);
                }
            }
        }
        seen.into_iter().all(|s| s)
    }

    /// Hunter's MM iterations, `γᵢ ← Wᵢ / Σⱼ Nᵢⱼ / (γᵢ + γⱼ)`, to their
    /// fixed point. Called only on a strongly connected table, where every
    /// model has scored and every denominator is positive.
    fn maximise(&self, start: Option<&[f64]>) -> Vec<f64> {
        let n = self.models();
        let won: Vec<f64> = self.points.iter().map(|row| row.iter().sum()).collect();
        let mut strengths: Vec<f64> = match start {
            Some(start) if start.len() == n && start.iter().all(|s| s.is_finite() && *s > 0.0) => start.to_vec(),
            _ => vec![1.0; n],
        };
        for _ in 0..MAX_ITERATIONS {
            let mut next: Vec<f64> = (0..n)
                .map(|i| {
                    let pressure: f64 = (0..n)
                        .filter(|&j| j != i)
                        .map(|j| (self.points[i][j] + self.points[j][i]) / (strengths[i] + strengths[j]))
                        .sum();
                    if pressure > 0.0 && won[i] > 0.0 { won[i] / pressure } else { 1.0 }
                })
                .collect();
            normalise(&mut next);
            let moved = next.iter().zip(&strengths).map(|(a, b)| (a.ln() - b.ln()).abs()).fold(0.0, f64::max);
            strengths = next;
            if moved < TOLERANCE {
                break;
            }
        }
        strengths
    }
}

/// Scales strengths to a geometric mean of 1.
fn normalise(strengths: &mut [f64]) {
    if strengths.is_empty() {
        return;
    }
    let mean_log = strengths.iter().map(|s| s.ln()).sum::<f64>() / strengths.len() as f64;
    let scale = (-mean_log).exp();
    for s in strengths.iter_mut() {
        *s *= scale;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bouts(games: &[(usize, usize, f64)]) -> Vec<Bout> {
        games.iter().map(|&(first, second, points)| Bout { first, second, points }).collect()
    }

    /// 4 models, 20 games, 2 of them draws; every model won and lost.
    #[rustfmt::skip]
    const GAMES: [(usize, usize, f64); 20] = [
        (0, 1, 1.0), (0, 1, 1.0), (0, 1, 1.0), (0, 1, 0.0),
        (0, 2, 1.0), (0, 2, 1.0), (0, 2, 0.0), (0, 2, 0.5),
        (0, 3, 1.0), (0, 3, 1.0), (0, 3, 0.0),
        (1, 2, 1.0), (1, 2, 1.0), (1, 2, 0.0),
        (1, 3, 1.0), (1, 3, 1.0), (1, 3, 0.5),
        (2, 3, 1.0), (2, 3, 1.0), (2, 3, 0.0),
    ];

    /// The reference, from Python's `choix` 0.4.1 (numpy 2.4), where a game
    /// is a (winner, loser) pair: a win enters twice and a draw once each
    /// way, which doubles the log-likelihood of "a draw is half a win"
    /// and keeps its maximum. Both `ilsr_pairwise` and `mm_pairwise` give:
    ///
    /// ```python
    /// import choix, numpy as np
    /// games = [(0,1,1),(0,1,1),(0,1,1),(0,1,0), (0,2,1),(0,2,1),(0,2,0),(0,2,.5),
    ///          (0,3,1),(0,3,1),(0,3,0), (1,2,1),(1,2,1),(1,2,0),
    ///          (1,3,1),(1,3,1),(1,3,.5), (2,3,1),(2,3,1),(2,3,0)]
    /// data = []
    /// for a, b, p in games:
    ///     data += [(a, b)] * 2 if p == 1 else [(b, a)] * 2 if p == 0 else [(a, b), (b, a)]
    /// theta = choix.ilsr_pairwise(4, data, alpha=0.0, max_iter=100000, tol=1e-14)
    /// print(np.exp(theta - theta.mean()))   # geometric mean 1
    /// ```
    const CHOIX: [f64; 4] = [1.872_949_313, 1.241_181_884, 0.894_362_044, 0.480_977_973];

    #[test]
    fn the_fit_matches_choix() {
        let plain = fit_without_prior(4, &bouts(&GAMES)).expect("connected");
        let fitted = fit(4, &bouts(&GAMES));
        assert!(!fitted.prior, "every model won and lost: no prior");
        for (model, reference) in CHOIX.iter().enumerate() {
            assert!((plain[model] - reference).abs() < 1e-3, "{plain:?}");
            assert!((fitted.strengths[model] - reference).abs() < 1e-3, "{fitted:?}");
        }
        // On the Elo-like scale: 1109.010, 1037.534, 980.605, 872.850.
        assert!((elo(fitted.strengths[0]) - 1109.010).abs() < 1e-2);
        assert!((elo(fitted.strengths[3]) - 872.850).abs() < 1e-2);
    }

    /// With the prior, checked the same way: model 0 won all four of its
    /// games, 1 and 2 split theirs. The snippet as above, with
    /// `games = [(0,1,1),(0,1,1),(0,2,1),(0,2,1),(1,2,1),(1,2,0)]` plus
    /// `(a, b, .5)` for each pair, on 3 models, gives these.
    #[test]
    fn an_undefeated_model_is_fitted_with_the_prior_as_choix_does() {
        let games = bouts(&[(0, 1, 1.0), (0, 1, 1.0), (0, 2, 1.0), (0, 2, 1.0), (1, 2, 1.0), (1, 2, 0.0)]);
        assert_eq!(fit_without_prior(3, &games), None);
        let fitted = fit(3, &games);
        assert!(fitted.prior);
        for (model, reference) in [2.924_017_738, 0.584_803_548, 0.584_803_548].iter().enumerate() {
            assert!((fitted.strengths[model] - reference).abs() < 1e-3, "{fitted:?}");
        }
    }

    #[test]
    fn groups_that_never_met_stay_finite() {
        // 0 and 1 met, 2 and 3 met, 4 never played.
        let games = bouts(&[(0, 1, 1.0), (0, 1, 0.0), (2, 3, 1.0), (2, 3, 1.0), (3, 2, 1.0)]);
        let fitted = fit(5, &games);
        assert!(fitted.prior);
        assert!(fitted.strengths.iter().all(|s| s.is_finite() && *s > 0.0), "{fitted:?}");
        assert!((fitted.strengths[0] - fitted.strengths[1]).abs() < 1e-9);
        assert!(fitted.strengths[2] > fitted.strengths[3]);
    }

    #[test]
    fn no_models_and_one_model() {
        assert_eq!(fit(0, &[]), Fit { strengths: vec![], prior: false });
        assert_eq!(fit(1, &[]), Fit { strengths: vec![1.0], prior: false });
    }
}

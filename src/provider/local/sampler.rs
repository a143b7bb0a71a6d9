//! Choosing the next token from the model's logits: the grammar's mask,
//! a repetition penalty over recent tokens (a tiny model falls into loops),
//! top-k, top-p and temperature, drawn from a seeded generator so the same
//! request with the same seed gives the same answer. Temperature 0 is greedy.

use toktrie::SimpleVob;

/// Sampling settings for one request.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sampling {
    pub temperature: f32,
    pub top_k: usize,
    pub top_p: f32,
    pub repeat_penalty: f32,
    /// How many recent tokens the penalty looks back over.
    pub penalty_window: usize,
    /// No run of this many tokens appears twice in an answer (0: any may);
    /// a tiny model otherwise loops on a phrase ("The fifth point is wrong
    /// because it doesn't take into account all possible scenarios…").
    pub no_repeat_ngram: usize,
    pub seed: u64,
}

pub struct Sampler {
    settings: Sampling,
    rng: fastrand::Rng,
    /// Scratch space: candidate (token, weight) pairs.
    candidates: Vec<(u32, f32)>,
}

impl Sampler {
    pub fn new(settings: Sampling) -> Self {
        Self { settings, rng: fastrand::Rng::with_seed(settings.seed), candidates: Vec::new() }
    }

    /// Picks a token. `allowed` is the grammar's mask, when there is one;
    /// `recent` the tokens generated so far. `None` when no token is allowed.
    pub fn sample(&mut self, logits: &mut [f32], allowed: Option<&SimpleVob>, recent: &[u32]) -> Option<u32> {
        if let Some(mask) = allowed {
            mask.iter_unset_entries(|token| {
                if let Some(logit) = logits.get_mut(token) {
                    *logit = f32::NEG_INFINITY;
                }
            });
        }
        let s = self.settings;
        ban_repeated_ngrams(logits, recent, s.no_repeat_ngram);
        if (s.repeat_penalty - 1.0).abs() > f32::EPSILON {
            let start = recent.len().saturating_sub(s.penalty_window);
            let mut seen = recent[start..].to_vec();
            seen.sort_unstable();
            seen.dedup();
            for token in seen {
                if let Some(logit) = logits.get_mut(token as usize) {
                    *logit = if *logit > 0.0 { *logit / s.repeat_penalty } else { *logit * s.repeat_penalty };
                }
            }
        }
        self.candidates.clear();
        self.candidates.extend(
            logits.iter().enumerate().filter(|(_, l)| l.is_finite()).map(|(token, logit)| (token as u32, *logit)),
        );
        if self.candidates.is_empty() {
            return None;
        }
        let by_logit = |a: &(u32, f32), b: &(u32, f32)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
        if s.temperature <= 0.0 {
            return self.candidates.iter().min_by(|a, b| by_logit(a, b)).map(|(token, _)| *token);
        }
        let k = s.top_k.clamp(1, self.candidates.len());
        if k < self.candidates.len() {
            self.candidates.select_nth_unstable_by(k - 1, by_logit);
            self.candidates.truncate(k);
        }
        self.candidates.sort_unstable_by(by_logit);
        let top = self.candidates[0].1;
        let mut total = 0.0;
        for candidate in &mut self.candidates {
            candidate.1 = ((candidate.1 - top) / s.temperature).exp();
            total += candidate.1;
        }
        // Top-p: the smallest head of the list whose mass reaches p.
        let mut mass = 0.0;
        let mut keep = self.candidates.len();
        for (i, candidate) in self.candidates.iter().enumerate() {
            mass += candidate.1 / total;
            if mass >= s.top_p {
                keep = i + 1;
                break;
            }
        }
        self.candidates.truncate(keep);
        let kept: f32 = self.candidates.iter().map(|c| c.1).sum();
        let mut draw = self.rng.f32() * kept;
        for (token, weight) in &self.candidates {
            if draw < *weight {
                return Some(*token);
            }
            draw -= weight;
        }
        self.candidates.last().map(|(token, _)| *token)
    }
}

/// Forbids each token that would complete a run of `n` tokens already in
/// `recent`: wherever the last `n - 1` tokens occurred before, the token
/// that followed them then may not follow them now.
fn ban_repeated_ngrams(logits: &mut [f32], recent: &[u32], n: usize) {
    if n < 2 || recent.len() < n {
        return;
    }
    let key = &recent[recent.len() - (n - 1)..];
    let banned: Vec<usize> =
        recent.windows(n).filter(|window| &window[..n - 1] == key).map(|window| window[n - 1] as usize).collect();
    // A grammar may allow nothing but a repeat (its fixed text): then it stands.
    let other = logits.iter().enumerate().any(|(token, logit)| logit.is_finite() && !banned.contains(&token));
    if !other {
        return;
    }
    for token in banned {
        if let Some(logit) = logits.get_mut(token) {
            *logit = f32::NEG_INFINITY;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(temperature: f32, seed: u64) -> Sampling {
        Sampling {
            temperature,
            top_k: 40,
            top_p: 0.95,
            repeat_penalty: 1.0,
            penalty_window: 64,
            no_repeat_ngram: 0,
            seed,
        }
    }

    #[test]
    fn temperature_zero_is_greedy() {
        let mut sampler = Sampler::new(settings(0.0, 1));
        let mut logits = vec![0.1, 2.0, 1.9, -3.0];
        assert_eq!(sampler.sample(&mut logits, None, &[]), Some(1));
    }

    #[test]
    fn the_same_seed_draws_the_same_tokens_and_another_seed_may_not() {
        let draw = |seed| {
            let mut sampler = Sampler::new(settings(1.0, seed));
            (0..64).map(|_| sampler.sample(&mut [1.0; 50], None, &[]).unwrap_or(0)).collect::<Vec<_>>()
        };
        assert_eq!(draw(7), draw(7));
        assert_ne!(draw(7), draw(8));
    }

    #[test]
    fn the_mask_leaves_only_allowed_tokens() {
        let mut mask = SimpleVob::alloc(8);
        mask.allow_token(5);
        let mut sampler = Sampler::new(settings(1.0, 3));
        for _ in 0..20 {
            let mut logits = vec![5.0; 8];
            assert_eq!(sampler.sample(&mut logits, Some(&mask), &[]), Some(5));
        }
        let mut logits = vec![5.0; 8];
        assert_eq!(sampler.sample(&mut logits, Some(&SimpleVob::alloc(8)), &[]), None, "nothing allowed");
    }

    #[test]
    fn a_repeated_token_is_penalised() {
        let mut sampler = Sampler::new(Sampling { repeat_penalty: 2.0, ..settings(0.0, 1) });
        let mut logits = vec![1.0, 1.5, 0.2];
        assert_eq!(sampler.sample(&mut logits, None, &[1, 1]), Some(0), "1.5 / 2 falls under 1.0");
    }

    #[test]
    fn a_run_of_n_tokens_is_never_repeated() {
        let mut sampler = Sampler::new(Sampling { no_repeat_ngram: 3, ..settings(0.0, 1) });
        // After 1 2 3 … 1 2, token 3 would repeat the run 1 2 3: the next best comes instead.
        let mut logits = vec![0.0, 0.0, 0.0, 5.0, 4.0];
        assert_eq!(sampler.sample(&mut logits, None, &[1, 2, 3, 4, 1, 2]), Some(4));
        let mut logits = vec![0.0, 0.0, 0.0, 5.0, 4.0];
        assert_eq!(sampler.sample(&mut logits, None, &[1, 2, 3, 4, 2, 1]), Some(3), "no run repeats here");
    }

    #[test]
    fn a_repeat_the_grammar_alone_allows_is_taken() {
        let mut sampler = Sampler::new(Sampling { no_repeat_ngram: 3, ..settings(0.0, 1) });
        // Only token 3 is allowed, and it would repeat the run 1 2 3: it is taken all the same.
        let mut only_three = SimpleVob::alloc(5);
        only_three.allow_token(3);
        let mut logits = vec![0.0, 0.0, 0.0, 5.0, 4.0];
        assert_eq!(sampler.sample(&mut logits, Some(&only_three), &[1, 2, 3, 4, 1, 2]), Some(3));
    }

    #[test]
    fn top_k_one_is_greedy_at_any_temperature() {
        let mut sampler = Sampler::new(Sampling { top_k: 1, ..settings(1.5, 9) });
        for _ in 0..20 {
            assert_eq!(sampler.sample(&mut [0.0, 3.0, 2.9], None, &[]), Some(1));
        }
    }
}

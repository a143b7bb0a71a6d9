//! A share of trials with its 95 % Wilson score interval ([`Rate`]): every
//! rate the statistics report (win rates, biases, flips, agreement) is one.

use serde::Serialize;

/// The normal quantile of a two-sided 95 % interval.
pub const Z_95: f64 = 1.959_964;

/// `successes` out of `trials`, the share they make and its 95 % Wilson
/// score interval. Successes may be fractional: a draw counts half a win.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Rate {
    pub successes: f64,
    pub trials: u64,
    /// `successes / trials`, in [0, 1].
    pub share: f64,
    /// The interval's lower end, in [0, share].
    pub low: f64,
    /// The interval's upper end, in [share, 1].
    pub high: f64,
}

/// The share `successes / trials` with its Wilson score interval at 95 %;
/// `None` when there are no trials. Successes are clamped to `[0, trials]`.
pub fn wilson(successes: f64, trials: u64) -> Option<Rate> {
    if trials == 0 {
        return None;
    }
    let n = trials as f64;
    let successes = successes.clamp(0.0, n);
    let share = successes / n;
    let z2 = Z_95 * Z_95;
    let scale = 1.0 + z2 / n;
    let centre = (share + z2 / (2.0 * n)) / scale;
    let half = Z_95 / scale * (share * (1.0 - share) / n + z2 / (4.0 * n * n)).sqrt();
    // At 0 and at all of them the interval touches its end exactly; rounding
    // would leave it a hair off.
    let low = if successes <= 0.0 { 0.0 } else { (centre - half).clamp(0.0, share) };
    let high = if successes >= n { 1.0 } else { (centre + half).clamp(share, 1.0) };
    Some(Rate { successes, trials, share, low, high })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-4
    }

    #[test]
    fn seven_of_ten() {
        let rate = wilson(7.0, 10).expect("trials");
        assert!(close(rate.share, 0.7));
        assert!(close(rate.low, 0.3968), "{rate:?}");
        assert!(close(rate.high, 0.8922), "{rate:?}");
    }

    #[test]
    fn none_and_all_touch_their_ends() {
        let none = wilson(0.0, 10).expect("trials");
        assert_eq!((none.share, none.low), (0.0, 0.0));
        assert!(close(none.high, 0.2775), "{none:?}");
        let all = wilson(10.0, 10).expect("trials");
        assert_eq!((all.share, all.high), (1.0, 1.0));
        assert!(close(all.low, 0.7225), "{all:?}");
    }

    #[test]
    fn no_trials_is_no_rate() {
        assert_eq!(wilson(0.0, 0), None);
    }

    #[test]
    fn a_half_success_counts_and_too_many_are_clamped() {
        let half = wilson(2.5, 5).expect("trials");
        assert!(close(half.share, 0.5));
        assert!(close(half.low, 1.0 - half.high));
        assert!(close(wilson(12.0, 10).expect("trials").share, 1.0));
    }
}

//! How far an install has got, as the CLI and the studio show it: bytes
//! done of the total in MB, and the rate since the stage began.

use std::time::{Duration, Instant};

/// How far an install has got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    pub stage: &'static str,
    pub done: u64,
    pub total: Option<u64>,
    /// Bytes a second since this stage began (filled in by the install).
    pub per_second: Option<u64>,
}

impl Progress {
    pub fn new(stage: &'static str, done: u64, total: Option<u64>) -> Self {
        Self { stage, done, total, per_second: None }
    }

    /// `downloading 45.2 of 92.9 MB, 11.8 MB/s`.
    pub fn describe(&self) -> String {
        let mb = |bytes: u64| bytes as f64 / 1e6;
        let mut text = match self.total {
            Some(total) => format!("{} {:.1} of {:.1} MB", self.stage, mb(self.done), mb(total)),
            None => format!("{} {:.1} MB", self.stage, mb(self.done)),
        };
        if let Some(rate) = self.per_second {
            text.push_str(&format!(", {:.1} MB/s", mb(rate)));
        }
        text
    }

    pub fn is_finished(&self) -> bool {
        self.total.is_some_and(|t| self.done >= t)
    }
}

/// Measures each stage's rate from the reports that pass through it.
#[derive(Debug, Default)]
pub struct Meter {
    stage: &'static str,
    last: u64,
    since: Option<(Instant, u64)>,
}

/// Too short a time to say a rate that means anything.
const SETTLE: Duration = Duration::from_millis(200);

impl Meter {
    /// The report with its rate: bytes since the stage began (or since
    /// the count went back, as when a download starts over) over the time.
    pub fn read(&mut self, mut progress: Progress, now: Instant) -> Progress {
        if self.since.is_none() || progress.stage != self.stage || progress.done < self.last {
            self.stage = progress.stage;
            self.since = Some((now, progress.done));
        }
        self.last = progress.done;
        let (start, base) = self.since.unwrap_or((now, progress.done));
        let elapsed = now.saturating_duration_since(start);
        progress.per_second =
            (elapsed >= SETTLE).then(|| ((progress.done - base) as f64 / elapsed.as_secs_f64()) as u64);
        progress
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_reads_as_megabytes_and_a_rate() {
        let mut p = Progress::new("downloading", 45_200_000, Some(92_871_040));
        assert_eq!(p.describe(), "downloading 45.2 of 92.9 MB");
        p.per_second = Some(11_760_000);
        assert_eq!(p.describe(), "downloading 45.2 of 92.9 MB, 11.8 MB/s");
        assert_eq!(Progress::new("downloading", 1_500_000, None).describe(), "downloading 1.5 MB");
        assert!(!p.is_finished());
        assert!(Progress::new("unpacking", 7, Some(7)).is_finished());
    }

    #[test]
    fn the_rate_counts_from_the_stage_start_and_restarts_with_it() {
        let t0 = Instant::now();
        let at = |ms| t0 + Duration::from_millis(ms);
        let mut meter = Meter::default();
        // Resumed at 40 MB: only the bytes fetched now count.
        assert_eq!(meter.read(Progress::new("downloading", 40_000_000, Some(90_000_000)), at(0)).per_second, None);
        assert_eq!(meter.read(Progress::new("downloading", 40_100_000, Some(90_000_000)), at(100)).per_second, None);
        let p = meter.read(Progress::new("downloading", 50_000_000, Some(90_000_000)), at(2000));
        assert_eq!(p.per_second, Some(5_000_000));
        // A download that starts over measures afresh.
        meter.read(Progress::new("downloading", 1_000, Some(90_000_000)), at(2100));
        let p = meter.read(Progress::new("downloading", 2_001_000, Some(90_000_000)), at(3100));
        assert_eq!(p.per_second, Some(2_000_000));
        // So does a new stage.
        assert_eq!(meter.read(Progress::new("unpacking", 0, Some(98_000_000)), at(3200)).per_second, None);
        let p = meter.read(Progress::new("unpacking", 60_000_000, Some(98_000_000)), at(4200));
        assert_eq!(p.per_second, Some(60_000_000));
    }
}

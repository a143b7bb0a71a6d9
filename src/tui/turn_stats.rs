//! Each role's latest turn timed from the debate's events: when it started,
//! when its first word came, when it ended and how many tokens it wrote,
//! for the pane title's "14.2 s · 18 tok/s" (`m`, or `ui.turn_stats`).
//! Times are milliseconds on the debate's clock: the recorded times in a
//! replay, the studio's own while a debate runs.

use crate::debate::DebateEvent;
use crate::debate::Role;

/// One turn's times.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TurnTime {
    /// The round it belongs to (from 0, as the events count).
    pub round: u32,
    pub started: u64,
    /// The first text or reasoning (of the attempt that counts).
    pub first: Option<u64>,
    pub ended: Option<u64>,
    /// Output tokens, as the provider reported them.
    pub tokens: Option<u64>,
}

/// The latest turn of each role (advocate, skeptic, judge).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TurnTimes(pub [Option<TurnTime>; Role::COUNT]);

impl TurnTimes {
    /// Notes what `event`, at `ms`, says about a turn's timing.
    pub fn record(&mut self, event: &DebateEvent, ms: u64) {
        let role = match event {
            DebateEvent::TurnStarted { role, .. }
            | DebateEvent::Delta { role, .. }
            | DebateEvent::Reasoning { role, .. }
            | DebateEvent::TurnRetrying { role, .. }
            | DebateEvent::TurnCompleted { role, .. }
            | DebateEvent::TurnCancelled { role, .. }
            | DebateEvent::TurnFailed { role, .. } => *role,
            _ => return,
        };
        let slot = &mut self.0[role.position()];
        if let DebateEvent::TurnStarted { round, .. } = event {
            *slot = Some(TurnTime { round: *round, started: ms, ..TurnTime::default() });
            return;
        }
        let Some(time) = slot else { return };
        match event {
            DebateEvent::Delta { .. } | DebateEvent::Reasoning { .. } => {
                time.first.get_or_insert(ms);
            }
            // The partial answer is thrown away: its first word no longer counts.
            DebateEvent::TurnRetrying { .. } => time.first = None,
            DebateEvent::TurnCompleted { usage, .. } => {
                time.ended = Some(ms);
                time.tokens = usage.map(|u| u.output_tokens);
            }
            _ => time.ended = Some(ms),
        }
    }
}

impl TurnTime {
    /// "14.2 s · 18 tok/s" once it ended (tokens/s over the time from its
    /// first word to its end, when the provider counted them); "3.1 s" so
    /// far while it runs, `now` being the clock's time.
    pub fn describe(&self, now: u64) -> String {
        let end = self.ended.unwrap_or(now);
        let seconds = end.saturating_sub(self.started) as f64 / 1000.0;
        let Some((tokens, ended)) = self.tokens.zip(self.ended) else {
            return format!("{seconds:.1} s");
        };
        // A turn that came in one piece has no stream to time: its whole time counts.
        let writing = match ended.saturating_sub(self.first.unwrap_or(self.started)) {
            0..100 => ended.saturating_sub(self.started),
            ms => ms,
        };
        if writing == 0 {
            return format!("{seconds:.1} s");
        }
        format!("{seconds:.1} s · {:.0} tok/s", tokens as f64 * 1000.0 / writing as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debate::{Role, TurnPurpose};
    use crate::provider::Usage;

    #[test]
    fn a_turn_is_timed_from_start_to_end_and_its_rate_from_its_first_word() {
        let mut times = TurnTimes::default();
        let started =
            DebateEvent::TurnStarted { round: 0, role: Role::Skeptic, purpose: TurnPurpose::Argue, temperature: None };
        times.record(&started, 10_000);
        let delta = DebateEvent::Delta { round: 0, role: Role::Skeptic, text: "A".into() };
        times.record(&delta, 12_000);
        times.record(&delta, 13_000);
        let skeptic = times.0[1].expect("timed");
        assert_eq!(skeptic.describe(13_100), "3.1 s", "so far, while it runs");
        let usage = Some(Usage { input_tokens: 900, output_tokens: 220, cached_input_tokens: 0, ..Usage::default() });
        let done = DebateEvent::TurnCompleted {
            round: 0,
            role: Role::Skeptic,
            text: "A".into(),
            usage,
            truncated_at: None,
            possibly_cut: false,
        };
        times.record(&done, 24_200);
        // 14.2 s in all; 220 tokens written over the 12.2 s after the first word.
        assert_eq!(times.0[1].expect("timed").describe(99_000), "14.2 s · 18 tok/s");
        assert!(times.0[0].is_none() && times.0[2].is_none());
    }

    #[test]
    fn a_retry_forgets_the_first_word_and_a_turn_in_one_piece_counts_its_whole_time() {
        let mut times = TurnTimes::default();
        let role = Role::Judge;
        times.record(&DebateEvent::TurnStarted { round: 0, role, purpose: TurnPurpose::Judge, temperature: None }, 0);
        times.record(&DebateEvent::Delta { round: 0, role, text: "{".into() }, 500);
        let retry =
            DebateEvent::TurnRetrying { round: 0, role, attempt: 1, max_retries: 2, delay_ms: 10, reason: "x".into() };
        times.record(&retry, 600);
        assert_eq!(times.0[2].expect("timed").first, None);
        times.record(&DebateEvent::Delta { round: 0, role, text: "{}".into() }, 4_000);
        let usage = Some(Usage { input_tokens: 1, output_tokens: 40, cached_input_tokens: 0, ..Usage::default() });
        times.record(
            &DebateEvent::TurnCompleted {
                round: 0,
                role,
                text: "{}".into(),
                usage,
                truncated_at: None,
                possibly_cut: false,
            },
            4_000,
        );
        assert_eq!(times.0[2].expect("timed").describe(0), "4.0 s · 10 tok/s");
    }
}

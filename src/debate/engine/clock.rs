//! The debate's clock (`debate.turn_seconds`, `debate.round_seconds`): when
//! a debater's turn and the current round run out of time, with the time
//! spent paused left out, read on the runtime's clock (`now`). The engine
//! asks it for the next moment to wake and what has run out then.

use std::time::{Duration, Instant};

use crate::debate::call::Call;
use crate::debate::setup::Clock;
use crate::debate::state::DebateState;

/// The runtime's clock (a test that pauses time sees its own).
pub(super) fn now() -> Instant {
    tokio::time::Instant::now().into_std()
}

/// The running debate's deadlines.
#[derive(Debug, Default)]
pub(super) struct Deadlines {
    limits: Clock,
    /// When the current round runs out.
    round: Option<Instant>,
    /// Since when the debate has been paused: deadlines move on by as much.
    paused_since: Option<Instant>,
}

impl Deadlines {
    pub(super) fn new(limits: Clock) -> Self {
        Self { limits, ..Self::default() }
    }

    /// A debater's turn asked `now`: when it must end, if turns are timed.
    pub(super) fn turn_from(&self, now: Instant) -> Option<Instant> {
        self.limits.turn.map(|limit| now + limit)
    }

    /// When `call`, asked `now`, must end: a debater's turn, if turns are
    /// timed; a person's turn takes as long as it takes.
    pub(super) fn of_call(&self, state: &DebateState, call: Call, now: Instant) -> Option<Instant> {
        let timed = matches!(call, Call::Turn { role, .. } if role.is_debater() && !state.seated_person(role));
        timed.then(|| self.turn_from(now)).flatten()
    }

    /// The turn limit in whole seconds, as a turn cut by it is marked.
    pub(super) fn turn_seconds(&self) -> u32 {
        self.limits.turn.map_or(0, |d| u32::try_from(d.as_secs()).unwrap_or(u32::MAX))
    }

    /// The round limit in whole seconds, as a round ended by it says.
    pub(super) fn round_seconds(&self) -> u32 {
        self.limits.round.map_or(0, |d| u32::try_from(d.as_secs()).unwrap_or(u32::MAX))
    }

    /// A round began `now`.
    pub(super) fn round_started(&mut self, now: Instant) {
        self.round = self.limits.round.map(|limit| now + limit);
    }

    /// Whether the round's time ran out by `now`.
    pub(super) fn round_over(&self, now: Instant) -> bool {
        self.paused_since.is_none() && self.round.is_some_and(|end| end <= now)
    }

    pub(super) fn pause(&mut self, now: Instant) {
        self.paused_since.get_or_insert(now);
    }

    /// The pause ended `now`: how long it held, which every deadline moves on by.
    pub(super) fn resume(&mut self, now: Instant) -> Duration {
        let held = self.paused_since.take().map_or(Duration::ZERO, |since| now.saturating_duration_since(since));
        if let Some(end) = &mut self.round {
            *end += held;
        }
        held
    }

    /// The next moment something runs out, of the round and of `turns`
    /// (each turn's deadline); none while paused.
    pub(super) fn next(&self, turns: impl Iterator<Item = Instant>) -> Option<Instant> {
        if self.paused_since.is_some() {
            return None;
        }
        turns.chain(self.round).min()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_spent_paused_moves_the_round_on_and_nothing_runs_out_while_paused() {
        let start = Instant::now();
        let mut clock =
            Deadlines::new(Clock { turn: Some(Duration::from_secs(30)), round: Some(Duration::from_secs(90)) });
        clock.round_started(start);
        assert_eq!(clock.turn_from(start), Some(start + Duration::from_secs(30)));
        assert_eq!(clock.next(std::iter::empty()), Some(start + Duration::from_secs(90)));
        clock.pause(start + Duration::from_secs(60));
        assert!(!clock.round_over(start + Duration::from_secs(200)));
        assert_eq!(clock.next(std::iter::once(start)), None);
        let held = clock.resume(start + Duration::from_secs(100));
        assert_eq!(held, Duration::from_secs(40));
        assert!(!clock.round_over(start + Duration::from_secs(120)));
        assert!(clock.round_over(start + Duration::from_secs(130)));
        assert_eq!((clock.turn_seconds(), clock.round_seconds()), (30, 90));
    }

    #[test]
    fn an_untimed_debate_never_wakes() {
        let clock = Deadlines::new(Clock::default());
        assert_eq!(clock.turn_from(Instant::now()), None);
        assert_eq!(clock.next(std::iter::empty()), None);
    }
}

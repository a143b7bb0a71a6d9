//! The studio's clocks: the debate's own (which a resumed debate continues
//! from its log), each seat's pending retry and wait for its first word,
//! and each seat's latest turn timed. The countdowns and "thinking 3 s" read
//! them.

use std::time::{Duration, Instant};

use super::turn_stats::TurnTimes;
use crate::debate::state::TurnStatus;
use crate::debate::{DebateEvent, DebateState, Role};

#[derive(Debug, Clone)]
pub struct Clocks {
    /// When each seat's pending retry fires.
    pub retry_at: [Option<Instant>; Role::COUNT],
    /// Since when each seat's turn has waited for its first word.
    pub thinking_since: [Option<Instant>; Role::COUNT],
    /// Each seat's latest turn, timed.
    pub turn_times: TurnTimes,
    /// When each seat's turn runs out of time (`debate.turn_seconds`), as
    /// the engine keeps it: a pause moves it on by the time it held.
    pub out_of_time_at: [Option<Instant>; Role::COUNT],
    /// Since when the debate has been paused.
    paused_since: Option<Instant>,
    /// `debate.turn_seconds`: how long a debater's turn may take.
    pub turn_limit: Option<Duration>,
    /// The debate's clock: milliseconds at `debate.0`; it runs on from there
    /// (a resumed debate's clock goes on from its log's last event).
    debate: (Instant, u64),
    /// When the latest event happened on that clock (a replay's recorded time).
    pub event_ms: u64,
    /// The time of the frame being drawn.
    pub now: Instant,
}

impl Default for Clocks {
    fn default() -> Self {
        let now = Instant::now();
        Clocks {
            retry_at: [None; Role::COUNT],
            thinking_since: [None; Role::COUNT],
            turn_times: TurnTimes::default(),
            out_of_time_at: [None; Role::COUNT],
            paused_since: None,
            turn_limit: None,
            debate: (now, 0),
            event_ms: 0,
            now,
        }
    }
}

impl Clocks {
    /// A fresh debate: every clock starts again at zero.
    pub fn restart(&mut self) {
        *self = Clocks { now: self.now, turn_limit: self.turn_limit, ..Clocks::default() };
    }

    /// Sets the debate's clock to `ms` now (a resumed debate's goes on
    /// from its log's last event).
    pub fn continue_from(&mut self, ms: u64) {
        self.debate = (Instant::now(), ms);
    }

    /// The debate's clock at `at`.
    pub fn at(&self, at: Instant) -> u64 {
        self.debate.1 + u64::try_from(at.saturating_duration_since(self.debate.0).as_millis()).unwrap_or(u64::MAX)
    }

    /// Notes what an event that happened at `ms` on the debate's clock
    /// starts or stops: a turn's timing, a retry's countdown, a wait for
    /// the first word.
    pub fn record(&mut self, event: &DebateEvent, ms: u64) {
        self.event_ms = ms;
        self.turn_times.record(event, ms);
        match event {
            DebateEvent::TurnStarted { role, .. } if role.is_debater() => {
                self.out_of_time_at[role.position()] = self.turn_limit.map(|limit| Instant::now() + limit);
            }
            DebateEvent::Paused => self.paused_since = Some(Instant::now()),
            DebateEvent::Resumed => {
                let held = self.paused_since.take().map_or(Duration::ZERO, |since| since.elapsed());
                for at in self.out_of_time_at.iter_mut().flatten() {
                    *at += held;
                }
            }
            _ => {}
        }
        match event {
            // A wait in heat's own queue is counted apart from the wait for the server that follows it.
            DebateEvent::TurnStarted { role, .. } | DebateEvent::TurnSent { role, .. } => {
                self.thinking_since[role.position()] = Some(Instant::now());
            }
            DebateEvent::TurnRetrying { role, delay_ms, .. } => {
                self.retry_at[role.position()] = Some(self.now + Duration::from_millis(*delay_ms));
            }
            DebateEvent::Delta { role, .. } | DebateEvent::TurnCompleted { role, .. } => {
                self.retry_at[role.position()] = None;
                self.thinking_since[role.position()] = None;
            }
            DebateEvent::TurnFailed { role, .. } => self.retry_at[role.position()] = None,
            _ => {}
        }
    }

    /// Whole seconds left of a debater's streaming turn under a turn limit
    /// (none while paused, or once it ended).
    pub fn time_left(&self, debate: &DebateState, role: Role) -> Option<u64> {
        let turn = debate.current_round()?.turn(role)?;
        if !turn.is_open() || self.paused_since.is_some() || debate.finish.is_some() {
            return None;
        }
        let at = self.out_of_time_at[role.position()]?;
        Some(at.saturating_duration_since(self.now).as_secs_f32().ceil() as u64)
    }

    /// Seconds until a seat's retry, while it waits.
    pub fn retry_in(&self, debate: &DebateState, role: Role) -> Option<u64> {
        let turn = debate.current_round()?.turn(role)?;
        if !matches!(turn.status, TurnStatus::Retrying { .. }) {
            return None;
        }
        let at = self.retry_at[role.position()]?;
        Some(at.saturating_duration_since(self.now).as_secs_f32().ceil() as u64)
    }

    /// Whole seconds a seat's turn has waited for its first word, while it
    /// still waits (not `paused`, not retrying).
    pub fn thinking_for(&self, debate: &DebateState, role: Role, paused: bool) -> Option<u64> {
        let turn = debate.current_round()?.turn(role)?;
        let waiting = turn.status == TurnStatus::Streaming && turn.text.is_empty() && turn.reasoning.is_empty();
        if !waiting || paused || debate.finish.is_some() {
            return None;
        }
        let since = self.thinking_since[role.position()]?;
        Some(self.now.saturating_duration_since(since).as_secs())
    }

    /// "14.2 s · 18 tok/s" for a seat's turn in the current round (the one
    /// its title's state is about): so far while it runs (a replay's clock,
    /// `replaying`, stands at its latest event), nothing for a turn left
    /// open when the debate ended.
    pub fn turn_stats(&self, debate: &DebateState, role: Role, replaying: bool) -> Option<String> {
        let time = self.turn_times.0[role.position()]?;
        if debate.current_round().map(|r| r.number) != Some(time.round) {
            return None;
        }
        if time.ended.is_none() && debate.finish.is_some() {
            return None;
        }
        let now = if replaying { self.event_ms } else { self.at(self.now) };
        Some(time.describe(now.max(self.event_ms)))
    }
}

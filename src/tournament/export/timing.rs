//! When things happened in a debate, from its log's stamps (ms since the
//! session was created; a resumed session goes on from its last stamp, so
//! the time it lay stopped is not counted): the debate's span, each round's,
//! and each turn's start, first token and end. Turns are followed as the
//! reducer keeps them (a turn begun again replaces the open one, a discarded
//! one is set aside, a reopened debate drops its failed ones), so the n-th
//! turn here is the n-th turn of the round in the folded state; where they
//! do not line up the export leaves the times out rather than guess.

use std::collections::BTreeMap;

use crate::debate::{DebateEvent, Role};

/// One turn's times, in ms since the session was created.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnSpan {
    pub role: Role,
    /// Its latest start (the request queued or sent).
    pub started: u64,
    /// Its first streamed text or reasoning after that start.
    pub first_token: Option<u64>,
    /// When it completed, timed out, was cancelled or failed.
    pub settled: Option<u64>,
    failed: bool,
    /// A judge turn whose verdict could not be read, not to be asked again.
    gave_up: bool,
}

impl TurnSpan {
    fn is_open(&self) -> bool {
        self.settled.is_none()
    }
}

/// A round's first stamp and the last of its turns, verdicts and checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RoundSpan {
    pub started: u64,
    pub last: u64,
}

/// The times of one debate.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Timing {
    /// The first event's stamp.
    pub first: Option<u64>,
    /// The stamp of the event that finished it (the last, if it was taken up again).
    pub finished: Option<u64>,
    rounds: BTreeMap<u32, RoundSpan>,
    turns: BTreeMap<u32, Vec<TurnSpan>>,
    /// A panel sits: reopened, it drops the verdicts that could not be read.
    panel: bool,
}

impl Timing {
    /// The times of a debate from its events and their stamps, in log order.
    pub fn of<'a>(stamped: impl IntoIterator<Item = (u64, &'a DebateEvent)>) -> Self {
        let mut timing = Timing::default();
        for (ms, event) in stamped {
            timing.first.get_or_insert(ms);
            timing.apply(ms, event);
            // A person's or the room's vote may come at any time after: not the round's work.
            let vote = matches!(event, DebateEvent::HumanVerdict { .. } | DebateEvent::AudienceVoted { .. });
            if let Some(round) = event.round().filter(|_| !vote)
                && let Some(span) = timing.rounds.get_mut(&round)
            {
                span.last = span.last.max(ms);
            }
        }
        timing
    }

    /// The debate's length: from its first event to the one that finished it.
    pub fn duration(&self) -> Option<u64> {
        Some(self.finished?.saturating_sub(self.first?))
    }

    /// Round `round`'s (from 0) first and last stamps.
    pub fn round(&self, round: u32) -> Option<RoundSpan> {
        self.rounds.get(&round).copied()
    }

    /// The turns of round `round` (from 0), in the state's order, if they
    /// are `roles` in that order; `None` when they are not (the export then
    /// leaves their times out).
    pub fn turns(&self, round: u32, roles: &[Role]) -> Option<&[TurnSpan]> {
        let spans = self.turns.get(&round)?;
        let same = spans.len() == roles.len() && spans.iter().zip(roles).all(|(s, r)| s.role == *r);
        same.then_some(spans.as_slice())
    }

    fn apply(&mut self, ms: u64, event: &DebateEvent) {
        match event {
            DebateEvent::Formatted { format } => self.panel = format.judges > 1,
            DebateEvent::RoundStarted { round, .. } => {
                self.rounds.insert(*round, RoundSpan { started: ms, last: ms });
                self.turns.entry(*round).or_default();
            }
            DebateEvent::TurnStarted { round, role, .. } => self.start(ms, *round, *role),
            DebateEvent::Delta { round, role, .. } | DebateEvent::Reasoning { round, role, .. } => {
                if let Some(span) = self.open(*round, *role) {
                    span.first_token.get_or_insert(ms);
                }
            }
            DebateEvent::TurnRetrying { round, role, .. } => {
                if let Some(span) = self.open(*round, *role) {
                    span.first_token = None;
                }
            }
            DebateEvent::TurnCompleted { round, role, .. }
            | DebateEvent::TurnTimedOut { round, role, .. }
            | DebateEvent::TurnCancelled { round, role } => self.settle(ms, *round, *role, false),
            DebateEvent::TurnFailed { round, role, .. } => self.settle(ms, *round, *role, true),
            DebateEvent::TurnDiscarded { round, role } => {
                if let Some(spans) = self.turns.get_mut(round) {
                    spans.retain(|s| s.role != *role);
                }
            }
            DebateEvent::VerdictInvalid { round, will_retry, .. } => {
                if let Some(span) = self.latest(*round, Role::Judge) {
                    span.gave_up = !will_retry;
                }
            }
            DebateEvent::VerdictReached { round, .. } => {
                if let Some(span) = self.latest(*round, Role::Judge) {
                    span.gave_up = false;
                }
            }
            DebateEvent::Reopened => self.reopen(),
            DebateEvent::Finished { .. } => self.finished = Some(ms),
            _ => {}
        }
    }

    fn start(&mut self, ms: u64, round: u32, role: Role) {
        let Some(spans) = self.turns.get_mut(&round) else { return };
        let span = TurnSpan { role, started: ms, first_token: None, settled: None, failed: false, gave_up: false };
        match spans.iter_mut().rev().find(|s| s.role == role) {
            Some(open) if open.is_open() => *open = span,
            _ => spans.push(span),
        }
    }

    fn settle(&mut self, ms: u64, round: u32, role: Role, failed: bool) {
        if let Some(span) = self.open(round, role) {
            span.settled = Some(ms);
            span.failed = failed;
        }
    }

    /// As the reducer does: the last round's failed turns go (a debater's
    /// stays once its judge has taken the round up), and on a panel the
    /// verdicts that could not be read.
    fn reopen(&mut self) {
        let Some(spans) = self.turns.values_mut().next_back() else { return };
        let judged = spans.iter().any(|s| s.role.is_judge());
        spans.retain(|s| !s.failed || (judged && !s.role.is_judge()));
        if self.panel {
            spans.retain(|s| !s.gave_up);
        }
    }

    fn latest(&mut self, round: u32, role: Role) -> Option<&mut TurnSpan> {
        self.turns.get_mut(&round)?.iter_mut().rev().find(|s| s.role == role)
    }

    fn open(&mut self, round: u32, role: Role) -> Option<&mut TurnSpan> {
        self.latest(round, role).filter(|s| s.is_open())
    }
}

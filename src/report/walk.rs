//! One pass over a session's records for what the folded state does not
//! keep: when each turn started and ended and how often it was retried, and
//! the person's steering with when and in which round it happened, in the
//! order things happened.

use super::intervention::{Intervention, intervention_of};
use super::time::clock;
use crate::debate::{DebateEvent, Role};
use crate::store::log::Record;

/// Where each turn of the state started and ended, and the steering, read
/// in one pass over the records.
pub(super) struct Walk {
    /// Per round (by index in `state.rounds`), per turn (by index in the
    /// round's turns): the turn's timing, and the steering between turns.
    pub(super) rounds: Vec<Vec<Slot>>,
    /// Steering before the first round.
    pub(super) before: Vec<Intervention>,
    pub(super) steering: Vec<Intervention>,
}

#[derive(Debug, Clone)]
pub(super) enum Slot {
    Turn { role: Role, started_ms: u64, ended_ms: Option<u64>, retries: u32, failed: bool },
    Intervention(Intervention),
}

impl Walk {
    pub(super) fn over(records: &[Record]) -> Walk {
        let mut walk = Walk { rounds: Vec::new(), before: Vec::new(), steering: Vec::new() };
        let mut numbers: Vec<u32> = Vec::new();
        for record in records {
            let index = |round: u32| numbers.iter().rposition(|n| *n == round);
            match &record.event {
                DebateEvent::RoundStarted { round, .. } => {
                    numbers.push(*round);
                    walk.rounds.push(Vec::new());
                }
                DebateEvent::TurnStarted { round, role, .. } => {
                    let Some(slots) = index(*round).map(|i| &mut walk.rounds[i]) else { continue };
                    let turn =
                        Slot::Turn { role: *role, started_ms: record.ms, ended_ms: None, retries: 0, failed: false };
                    // As the reducer does: an open turn started again is replaced.
                    match latest_turn(slots, *role) {
                        Some(open @ Slot::Turn { ended_ms: None, .. }) => *open = turn,
                        _ => slots.push(turn),
                    }
                }
                DebateEvent::TurnRetrying { round, role, .. } => {
                    if let Some(Slot::Turn { retries, ended_ms: None, .. }) =
                        index(*round).and_then(|i| latest_turn(&mut walk.rounds[i], *role))
                    {
                        *retries += 1;
                    }
                }
                DebateEvent::TurnCompleted { round, role, .. }
                | DebateEvent::TurnCancelled { round, role }
                | DebateEvent::TurnFailed { round, role, .. } => {
                    if let Some(Slot::Turn { ended_ms: ended @ None, failed, .. }) =
                        index(*round).and_then(|i| latest_turn(&mut walk.rounds[i], *role))
                    {
                        *ended = Some(record.ms);
                        *failed = matches!(record.event, DebateEvent::TurnFailed { .. });
                    }
                }
                DebateEvent::Reopened => {
                    // As the reducer does: the last round's failed turns are run again.
                    if let Some(slots) = walk.rounds.last_mut() {
                        slots.retain(|s| !matches!(s, Slot::Turn { failed: true, .. }));
                    }
                }
                _ => {}
            }
            if let Some((kind, text)) = intervention_of(&record.event) {
                let steer = Intervention { kind, clock: clock(record.ms), round: numbers.len() as u32, text };
                walk.steering.push(steer.clone());
                match walk.rounds.last_mut() {
                    Some(slots) => slots.push(Slot::Intervention(steer)),
                    None => walk.before.push(steer),
                }
            }
        }
        walk
    }

    /// The timing of the `n`th turn of a round (both counted as the state does).
    pub(super) fn turn(&self, round: usize, n: usize) -> Option<(Option<f64>, u32)> {
        let slots = self.rounds.get(round)?;
        let Slot::Turn { started_ms, ended_ms, retries, .. } =
            slots.iter().filter(|s| matches!(s, Slot::Turn { .. })).nth(n)?
        else {
            return None;
        };
        let seconds = ended_ms.map(|end| end.saturating_sub(*started_ms) as f64 / 1000.0);
        Some((seconds, *retries))
    }
}

fn latest_turn(slots: &mut [Slot], role: Role) -> Option<&mut Slot> {
    slots.iter_mut().rev().find(|s| matches!(s, Slot::Turn { role: r, .. } if *r == role))
}

//! The turns that stopped to look things up: the answers their calls get
//! (from the library at once, or from an MCP server on a task of its own),
//! and the turns waiting to be asked on once every call of theirs has its
//! answer. Not while paused: a call may finish then, and is recorded, but
//! the turn's next request waits for the resume. A cancel ends the waiting
//! turns it names and aborts their calls.

use std::time::{Duration, Instant};

use super::tool_tasks::{ToolDone, ToolTasks};
use crate::debate::call::Call;
use crate::debate::command::Command;
use crate::debate::event::{DebateEvent, TurnPurpose};
use crate::debate::grounding::lookup;
use crate::debate::looking_up::{self, Answering};
use crate::debate::seat::Role;
use crate::debate::setup::EngineSetup;
use crate::debate::state::DebateState;

/// A turn to ask on once its tool calls are answered.
#[derive(Debug, Clone, Copy)]
pub(super) struct Continuing {
    pub(super) round: u32,
    pub(super) role: Role,
    pub(super) purpose: TurnPurpose,
    /// When the turn runs out of time, as it did before it stopped.
    pub(super) deadline: Option<Instant>,
    /// Its answer so far is the one more try a guard asked for.
    pub(super) guard_retry: bool,
}

#[derive(Default)]
pub(super) struct Lookups {
    waiting: Vec<Continuing>,
    pub(super) tasks: ToolTasks,
}

impl Lookups {
    /// Answers what `role`'s open turn in `round` has not had answered:
    /// the events that record what is answered now; MCP calls are started.
    pub(super) fn answer(
        &mut self,
        setup: &EngineSetup,
        state: &DebateState,
        round: u32,
        role: Role,
    ) -> Vec<DebateEvent> {
        let mut now = Vec::new();
        for answering in looking_up::answering(setup, state, round, role) {
            match answering {
                Answering::Now(event) => now.push(event),
                Answering::Server { id, server, tool, arguments } => {
                    self.tasks.start((round, role, id), server, tool, arguments);
                }
            }
        }
        now
    }

    /// `next` waits until its calls are answered.
    pub(super) fn wait(&mut self, next: Continuing) {
        self.waiting.push(next);
    }

    /// A server's answer, as the event that records it (cut to the bound);
    /// `None` for a call no longer wanted (its turn was cancelled).
    pub(super) fn answered(&mut self, done: ToolDone) -> Option<DebateEvent> {
        if !self.tasks.ended(&done) {
            return None;
        }
        let ToolDone { round, role, id, answer, millis } = done;
        let text = lookup::clip(answer.text);
        Some(DebateEvent::ToolAnswered { round, role, id, text, failed: answer.failed, millis })
    }

    /// The waiting turns to ask on now: every call answered, and not paused.
    pub(super) fn ready(&mut self, state: &DebateState) -> Vec<Continuing> {
        if state.paused {
            return Vec::new();
        }
        let tasks = &self.tasks;
        let (ready, waiting) = std::mem::take(&mut self.waiting).into_iter().partition(|next| {
            looking_up::all_answered(state, next.round, next.role) && !tasks.running_for(next.round, next.role)
        });
        self.waiting = waiting;
        ready
    }

    /// The waiting turns `command` cancels, their calls aborted.
    pub(super) fn cancelled(&mut self, command: &Command) -> Vec<Call> {
        let seat = match command {
            Command::CancelTurn => None,
            Command::CancelSeat(role) => Some(*role),
            _ => return Vec::new(),
        };
        self.tasks.abort(seat);
        let hit = |next: &Continuing| seat.is_none_or(|seat| seat == next.role);
        let (ended, waiting): (Vec<Continuing>, Vec<Continuing>) =
            std::mem::take(&mut self.waiting).into_iter().partition(hit);
        self.waiting = waiting;
        ended.into_iter().map(|next| Call::Turn { round: next.round, role: next.role }).collect()
    }

    /// The turns under way here, as the planner counts them.
    pub(super) fn under_way(&self) -> impl Iterator<Item = Call> + '_ {
        self.waiting.iter().map(|next| Call::Turn { round: next.round, role: next.role })
    }

    /// Time spent paused is no one's: each waiting turn's deadline moves on by it.
    pub(super) fn shift_deadlines(&mut self, shift: Duration) {
        for next in &mut self.waiting {
            next.deadline = next.deadline.map(|d| d + shift);
        }
    }

    /// The debate stops: every call is aborted.
    pub(super) fn abort_all(&mut self) {
        self.tasks.abort(None);
    }
}

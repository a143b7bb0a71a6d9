//! The debate as the engine records it: the state it folds every event it
//! emits into, what it said once (`memory`), the block every request starts
//! with, and the channel its events go out on, each stamped with when it
//! happened. The pause the calls' models watch follows the recorded state.

use std::time::Instant;

use tokio::sync::{mpsc, watch};

use super::clock::now;
use super::handle::Stamped;
use super::memory::Memory;
use super::request::Requests;
use crate::debate::event::DebateEvent;
use crate::debate::notices;
use crate::debate::seat::Role;
use crate::debate::setup::EngineSetup;
use crate::debate::state::DebateState;

/// What the engine has recorded of the debate, and where it sends it.
pub(super) struct Record {
    pub(super) state: DebateState,
    /// What was said once this debate.
    pub(super) memory: Memory,
    /// The date and the source every request starts with (`grounding::preamble`).
    pub(super) preamble: Option<String>,
    events: mpsc::UnboundedSender<Stamped>,
    /// `state.paused`, for the calls of models that pause in place.
    paused: watch::Sender<bool>,
    /// When the held call message being told arrived: the stamp of what it causes.
    arrived: Option<Instant>,
}

impl Record {
    /// The record of a debate going on from `state`, its events sent to `events`.
    pub(super) fn new(state: DebateState, events: mpsc::UnboundedSender<Stamped>) -> Self {
        let (paused, _) = watch::channel(state.paused);
        let memory = Memory::of(&state);
        Self { state, memory, preamble: None, events, paused, arrived: None }
    }

    /// Records `event`: traced, folded into the state, and sent out stamped.
    pub(super) fn emit(&mut self, event: DebateEvent) {
        crate::debate::trace::event(&event);
        self.state.apply(&event);
        let paused = self.state.paused;
        self.paused.send_if_modified(|p| std::mem::replace(p, paused) != paused);
        let at = self.arrived.unwrap_or_else(now);
        // A consumer that went away does not stop the debate from ending cleanly.
        let _ = self.events.send(Stamped { event, at });
    }

    /// What is emitted from now on is stamped `at`; `None`: when it is emitted.
    pub(super) fn stamp(&mut self, at: Option<Instant>) {
        self.arrived = at;
    }

    /// Whether the debate is paused, as a call's task watches it.
    pub(super) fn paused(&self) -> watch::Receiver<bool> {
        self.paused.subscribe()
    }

    /// What requests are built from, now.
    pub(super) fn requests<'a>(&'a self, setup: &'a EngineSetup) -> Requests<'a> {
        Requests { setup, state: &self.state, preamble: self.preamble.as_deref() }
    }

    /// Says once, as it grows, how many earlier rounds `role`'s prompt
    /// leaves out to fit its server's context.
    pub(super) fn say_left_out(&mut self, setup: &EngineSetup, role: Role, left_out: usize) {
        if !self.memory.leaves_out(role, left_out) {
            return;
        }
        let window = self.requests(setup).window(setup.role(role)).unwrap_or_default();
        let message = notices::rounds_left_out(&self.state.seat_name(role), left_out, window);
        self.emit(DebateEvent::Notice { message });
    }
}

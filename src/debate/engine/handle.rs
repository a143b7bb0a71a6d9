//! The running debate seen from outside: a handle to send commands, read
//! its stamped events and wait for its final state.

use std::time::Instant;

use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::debate::command::Command;
use crate::debate::event::DebateEvent;
use crate::debate::state::DebateState;

/// The running debate, seen from outside: send commands, read events.
pub struct DebateHandle {
    pub(super) commands: mpsc::UnboundedSender<Command>,
    pub(super) events: mpsc::UnboundedReceiver<Stamped>,
    pub(super) task: JoinHandle<DebateState>,
}

/// An event and when it happened. A turn's text held back while the debate
/// was paused happened when it arrived, not when it is shown.
#[derive(Debug, Clone, PartialEq)]
pub struct Stamped {
    pub event: DebateEvent,
    pub at: Instant,
}

impl DebateHandle {
    /// Sends a command; false if the debate has already ended.
    pub fn send(&self, command: Command) -> bool {
        self.commands.send(command).is_ok()
    }

    /// A sender that can live elsewhere (a signal handler, the UI loop).
    pub fn commander(&self) -> mpsc::UnboundedSender<Command> {
        self.commands.clone()
    }

    /// The next event; `None` once the debate has ended and all were read.
    pub async fn next_event(&mut self) -> Option<DebateEvent> {
        self.next_stamped().await.map(|s| s.event)
    }

    /// The next event with when it happened (what a log records).
    pub async fn next_stamped(&mut self) -> Option<Stamped> {
        self.events.recv().await
    }

    /// Waits for the engine to stop and returns its final state.
    pub async fn join(self) -> DebateState {
        drop(self.commands);
        self.task.await.unwrap_or_default()
    }
}

//! One model call on a task of its own: its retried stream driven on that
//! task (`retry::drive`), every item sent straight to the engine's channel
//! tagged with the call's number. No other task or channel stands between
//! the model's stream and the engine: aborting the task drops the stream,
//! which aborts the request. A model that pauses in place is not polled
//! while the debate is paused.

use std::sync::Arc;

use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

use crate::provider::retry::{self, RetryPolicy, Sink, TurnItem};
use crate::provider::{ChatModel, ChatRequest, ProviderError};

/// A message from a call's task.
pub struct CallMsg {
    /// Which call sent it: a cancelled or replaced call's messages are dropped.
    pub task: u64,
    pub kind: CallMsgKind,
}

pub enum CallMsgKind {
    Item(TurnItem),
    Done,
    Failed(ProviderError),
}

/// What a call's task needs besides its request.
pub struct Task {
    pub number: u64,
    pub model: Arc<dyn ChatModel>,
    pub policy: RetryPolicy,
    /// Whether the debate is paused.
    pub paused: watch::Receiver<bool>,
}

/// Starts `task` and sends what it yields to `tx`. A model that pauses in
/// place is held where it is while the debate is paused; any other runs on
/// (its server would not wait), and the engine holds what it sends.
pub fn spawn(task: Task, request: ChatRequest, tx: mpsc::UnboundedSender<CallMsg>) -> JoinHandle<()> {
    let Task { number, model, policy, paused } = task;
    let paused = model.pauses_in_place().then_some(paused);
    tokio::spawn(async move {
        let mut to_engine = ToEngine { number, tx };
        let engine = to_engine.tx.clone();
        tokio::select! {
            answered = retry::drive(model.as_ref(), request, policy, paused, &mut to_engine) => {
                if answered {
                    to_engine.send(CallMsgKind::Done);
                }
            }
            // The engine went away: stop at once, dropping the request.
            () = engine.closed() => {}
        }
    })
}

/// The engine's channel, as one call's task sends to it.
struct ToEngine {
    number: u64,
    tx: mpsc::UnboundedSender<CallMsg>,
}

impl ToEngine {
    /// Sends `kind` tagged with the call's number; false once the engine is gone.
    fn send(&self, kind: CallMsgKind) -> bool {
        self.tx.send(CallMsg { task: self.number, kind }).is_ok()
    }
}

impl Sink for ToEngine {
    fn take(&mut self, item: Result<TurnItem, ProviderError>) -> impl Future<Output = bool> + Send {
        let kind = match item {
            Ok(item) => CallMsgKind::Item(item),
            Err(error) => CallMsgKind::Failed(error),
        };
        std::future::ready(self.send(kind))
    }
}

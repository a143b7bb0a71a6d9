//! One model call on a task of its own: its retried stream read to its end,
//! every item sent to the engine tagged with the call's number. Aborting
//! the task drops the stream, which aborts the request. A model that pauses
//! in place is not polled while the debate is paused.

use std::sync::Arc;

use futures::StreamExt;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

use crate::provider::retry::{self, RetryPolicy, TurnItem};
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
        let send = |kind| tx.send(CallMsg { task: number, kind }).is_ok();
        let mut stream = retry::pausable(model, request, policy, paused);
        while let Some(item) = stream.next().await {
            let ok = match item {
                Ok(item) => send(CallMsgKind::Item(item)),
                Err(error) => {
                    send(CallMsgKind::Failed(error));
                    return;
                }
            };
            if !ok {
                return;
            }
        }
        send(CallMsgKind::Done);
    })
}

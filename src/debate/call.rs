//! One model call on a task of its own: the turn's retried stream read to
//! its end, every item sent to the engine tagged with the call and its
//! role. Aborting the task drops the stream, which aborts the request. A
//! model that pauses in place is not polled while the debate is paused.

use std::sync::Arc;

use futures::StreamExt;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

use super::seat::Role;
use crate::provider::retry::{self, RetryPolicy, TurnItem};
use crate::provider::{ChatModel, ChatRequest, ProviderError};

/// A message from a call's task.
pub struct TurnMsg {
    /// Which call sent it: a cancelled or replaced call's messages are dropped.
    pub task: u64,
    pub role: Role,
    pub kind: TurnMsgKind,
}

pub enum TurnMsgKind {
    Item(TurnItem),
    Done,
    Failed(ProviderError),
}

/// What a call needs besides its request.
pub struct Call {
    pub task: u64,
    pub role: Role,
    pub model: Arc<dyn ChatModel>,
    pub policy: RetryPolicy,
    /// Whether the debate is paused.
    pub paused: watch::Receiver<bool>,
}

/// Starts `call` and sends what it yields to `tx`. A model that pauses in
/// place is held where it is while the debate is paused; any other runs
/// on (its server would not wait), and the engine holds what it sends.
pub fn spawn(call: Call, request: ChatRequest, tx: mpsc::UnboundedSender<TurnMsg>) -> JoinHandle<()> {
    let Call { task, role, model, policy, paused } = call;
    let paused = model.pauses_in_place().then_some(paused);
    tokio::spawn(async move {
        let send = |kind| tx.send(TurnMsg { task, role, kind }).is_ok();
        let mut stream = retry::pausable(model, request, policy, paused);
        while let Some(item) = stream.next().await {
            let ok = match item {
                Ok(item) => send(TurnMsgKind::Item(item)),
                Err(error) => {
                    send(TurnMsgKind::Failed(error));
                    return;
                }
            };
            if !ok {
                return;
            }
        }
        send(TurnMsgKind::Done);
    })
}

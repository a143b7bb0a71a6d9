//! One model call on a task of its own: the turn's retried stream read to
//! its end, every item sent to the engine tagged with the call and its
//! role. Aborting the task drops the stream, which aborts the request.

use std::sync::Arc;

use futures::StreamExt;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::event::Role;
use crate::provider::retry::{RetryPolicy, TurnItem, with_retry};
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

/// Starts call `task` for `role` and sends what it yields to `tx`.
pub fn spawn(
    task: u64,
    role: Role,
    model: Arc<dyn ChatModel>,
    request: ChatRequest,
    policy: RetryPolicy,
    tx: mpsc::UnboundedSender<TurnMsg>,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        let send = |kind| tx.send(TurnMsg { task, role, kind }).is_ok();
        let mut stream = with_retry(model, request, policy);
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

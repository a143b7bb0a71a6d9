//! The calls to MCP servers under way, each on a task of its own: started
//! for a seat's turn, its answer sent back to the engine with how long it
//! took, aborted (the server is told the call is cancelled as its future
//! drops) when the person cancels that turn or the debate stops.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::debate::seat::Role;
use crate::mcp::{Answer, McpServer};

/// A call that ended: whose it was, what it answered, and in how long.
pub(super) struct ToolDone {
    pub(super) round: u32,
    pub(super) role: Role,
    pub(super) id: String,
    pub(super) answer: Answer,
    pub(super) millis: u64,
}

type Key = (u32, Role, String);

pub(super) struct ToolTasks {
    running: HashMap<Key, JoinHandle<()>>,
    tx: mpsc::UnboundedSender<ToolDone>,
    pub(super) rx: mpsc::UnboundedReceiver<ToolDone>,
}

impl Default for ToolTasks {
    fn default() -> Self {
        let (tx, rx) = mpsc::unbounded_channel();
        Self { running: HashMap::new(), tx, rx }
    }
}

impl ToolTasks {
    /// Runs `tool` on `server` for call `id` of `role`'s turn in `round`,
    /// unless that call runs already.
    pub(super) fn start(
        &mut self,
        (round, role, id): Key,
        server: Arc<McpServer>,
        tool: String,
        arguments: serde_json::Value,
    ) {
        let key = (round, role, id.clone());
        if self.running.contains_key(&key) {
            return;
        }
        let tx = self.tx.clone();
        let handle = tokio::spawn(async move {
            let began = Instant::now();
            let answer = server.call(&tool, arguments).await;
            let millis = u64::try_from(began.elapsed().as_millis()).unwrap_or(u64::MAX);
            let _ = tx.send(ToolDone { round, role, id, answer, millis });
        });
        self.running.insert(key, handle);
    }

    /// Whether `done` is a call still wanted (not aborted); it is no longer under way.
    pub(super) fn ended(&mut self, done: &ToolDone) -> bool {
        self.running.remove(&(done.round, done.role, done.id.clone())).is_some()
    }

    /// Whether any call of `role`'s turn in `round` is under way.
    pub(super) fn running_for(&self, round: u32, role: Role) -> bool {
        self.running.keys().any(|(r, who, _)| *r == round && *who == role)
    }

    /// Aborts the calls of `seat`'s turns (`None`: every seat's).
    pub(super) fn abort(&mut self, seat: Option<Role>) {
        self.running.retain(|(_, role, _), handle| {
            let hit = seat.is_none_or(|seat| seat == *role);
            if hit {
                handle.abort();
            }
            !hit
        });
    }
}

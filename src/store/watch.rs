//! Follows a session log as it grows, for `heat watch`: a task wakes its
//! `Follower` when the file changes (OS file notifications through the
//! `notify` crate) and at least every 500 ms in case a notification is
//! missed, and sends what it reads on a channel, until the receiver is
//! dropped or the log is lost. Never writes or locks the log.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher};
use tokio::sync::{Notify, mpsc};

use super::follow::Follower;
use super::log::Record;

/// The slowest a change is noticed when file notifications are missed.
pub const POLL: Duration = Duration::from_millis(500);

/// What following a log brings.
#[derive(Debug, PartialEq)]
pub enum Followed {
    /// Events appended to the log, in order.
    Records(Vec<Record>),
    /// A line that was skipped, or a note on how the log is followed.
    Notice(String),
    /// The log was cut short, replaced or could not be read: nothing more comes.
    Lost(String),
}

/// A log being followed; dropping it stops the following.
pub struct Watch {
    pub rx: mpsc::UnboundedReceiver<Followed>,
    task: tokio::task::JoinHandle<()>,
    /// Kept alive while following (`None` when notifications are unavailable).
    _watcher: Option<RecommendedWatcher>,
}

impl Watch {
    /// Follows the log at `path` from where `follower` stands. Must be
    /// called within a tokio runtime.
    pub fn start(path: &Path, follower: Follower) -> Watch {
        let (tx, rx) = mpsc::unbounded_channel();
        let wake = Arc::new(Notify::new());
        let watcher = match notifications(path, Arc::clone(&wake)) {
            Ok(watcher) => Some(watcher),
            Err(e) => {
                let _ = tx.send(Followed::Notice(format!(
                    "file notifications are unavailable ({e}); the log is checked every {} ms",
                    POLL.as_millis()
                )));
                None
            }
        };
        let task = tokio::spawn(follow(follower, wake, tx));
        Watch { rx, task, _watcher: watcher }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Wakes `wake` whenever the file at `path` changes (reads are not changes).
fn notifications(path: &Path, wake: Arc<Notify>) -> notify::Result<RecommendedWatcher> {
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if event.is_ok_and(|e| !matches!(e.kind, EventKind::Access(_))) {
            wake.notify_one();
        }
    })?;
    watcher.watch(path, RecursiveMode::NonRecursive)?;
    Ok(watcher)
}

async fn follow(mut follower: Follower, wake: Arc<Notify>, tx: mpsc::UnboundedSender<Followed>) {
    loop {
        let sent = match follower.read() {
            Ok(batch) => {
                let lost = batch.lost.clone();
                let mut sent = batch.notices.into_iter().all(|n| tx.send(Followed::Notice(n)).is_ok());
                if !batch.records.is_empty() {
                    sent &= tx.send(Followed::Records(batch.records)).is_ok();
                }
                if let Some(lost) = lost {
                    let _ = tx.send(Followed::Lost(lost));
                    return;
                }
                sent
            }
            Err(e) => {
                let _ = tx.send(Followed::Lost(format!("{e:#}")));
                return;
            }
        };
        if !sent {
            return;
        }
        tokio::select! {
            () = wake.notified() => {}
            () = tokio::time::sleep(POLL) => {}
            () = tx.closed() => return,
        }
    }
}

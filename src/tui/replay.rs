//! Plays a stored debate into the studio at its recorded pace: a task that
//! sends the logged events with their gaps (long waits cut short), holding
//! while the person pauses.

use std::time::Duration;

use tokio::sync::{mpsc, watch};

use crate::debate::DebateEvent;
use crate::store::log::Record;

/// The longest pause replayed as is; longer waits (a paused debate, a
/// retry's backoff) are cut to this.
const LONGEST_GAP: Duration = Duration::from_secs(2);

/// A playback under way.
pub struct Playback {
    pub events: mpsc::UnboundedReceiver<DebateEvent>,
    paused: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
}

impl Playback {
    pub fn start(records: Vec<Record>, speed: f64) -> Playback {
        let (tx, events) = mpsc::unbounded_channel();
        let (paused, mut watch) = watch::channel(false);
        let task = tokio::spawn(async move {
            let mut previous = records.first().map_or(0, |r| r.ms);
            for record in records {
                let gap = Duration::from_millis(record.ms.saturating_sub(previous)).min(LONGEST_GAP);
                previous = record.ms;
                // Speed 0 shows it all at once.
                if !gap.is_zero() && speed > 0.0 {
                    tokio::time::sleep(gap.div_f64(speed)).await;
                }
                while *watch.borrow() {
                    if watch.changed().await.is_err() {
                        return;
                    }
                }
                if tx.send(record.event).is_err() {
                    return;
                }
            }
        });
        Playback { events, paused, task }
    }

    pub fn set_paused(&self, paused: bool) {
        self.paused.send_replace(paused);
    }
}

impl Drop for Playback {
    fn drop(&mut self) {
        self.task.abort();
    }
}

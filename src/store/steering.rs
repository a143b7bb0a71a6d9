//! The steering spool beside a session log (`<id>.steer`): a person
//! watching a debate another heat runs (`heat watch`) appends the commands
//! their keys give, and the heat that runs it sends them to its engine, as
//! if they were its own keys. A heat that takes steering this way makes the
//! spool when the debate starts and removes it when it lets the debate go,
//! so a watch knows whether its keys reach the debate; one that does not
//! (a studio, whose operator steers at its own keyboard) makes none.

use std::path::{Path, PathBuf};

use anyhow::Context;
use tokio::sync::mpsc;

use super::spool;
use crate::debate::Command;
use crate::debate::engine::{DebateHandle, Stamped};

const KIND: &str = "steer";

/// The steering spool beside the log at `log`.
pub fn path_for(log: &Path) -> PathBuf {
    spool::path_for(log, KIND)
}

/// Whether a heat records the debate at `log` and takes steering from a watch.
pub fn taken(log: &Path) -> bool {
    path_for(log).exists() && super::log::is_held(log)
}

/// Appends `commands` for the heat that runs the debate at `log`: false
/// (nothing sent) when no heat runs it or the one that does takes no
/// steering from a watch.
pub fn offer(log: &Path, commands: &[Command]) -> anyhow::Result<bool> {
    let path = path_for(log);
    let spool = match spool::open(&path, false) {
        Ok(spool) => spool,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(e).with_context(|| format!("could not open {}", path.display())),
    };
    spool::append_while_recorded(log, &path, &spool, commands)
}

/// The commands a watch sends to the debate this heat runs; the spool is
/// removed when it is dropped.
pub struct Steering {
    path: PathBuf,
    commands: mpsc::Receiver<Vec<Command>>,
}

impl Steering {
    /// Takes steering for the debate at `log`: an empty spool (what an
    /// earlier run left is not this run's to act on), followed. Must be
    /// called within a tokio runtime.
    pub fn take(log: &Path) -> anyhow::Result<Steering> {
        let path = path_for(log);
        let spool = spool::open(&path, true).with_context(|| format!("could not make {}", path.display()))?;
        spool.set_len(0).with_context(|| format!("could not empty {}", path.display()))?;
        Ok(Steering { commands: spool::follow(path.clone()), path })
    }

    /// The next commands a watch sent; never, once the spool cannot be followed.
    pub async fn next(&mut self) -> Vec<Command> {
        match self.commands.recv().await {
            Some(commands) => commands,
            None => std::future::pending().await,
        }
    }
}

/// The next commands a watch sent, where steering was taken (a heat that
/// could not make the spool runs on without it); never otherwise.
pub async fn next(steering: Option<&mut Steering>) -> Option<Vec<Command>> {
    match steering {
        Some(steering) => Some(steering.next().await),
        None => std::future::pending().await,
    }
}

/// The engine's next event (`None`: it has sent its last); meanwhile,
/// what a watch sends goes to the engine as it comes.
pub async fn next_event(handle: &mut DebateHandle, steering: &mut Option<Steering>) -> Option<Stamped> {
    loop {
        tokio::select! {
            Some(commands) = next(steering.as_mut()) => {
                for command in commands {
                    handle.send(command);
                }
            }
            stamped = handle.next_stamped() => return stamped,
        }
    }
}

impl Drop for Steering {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::debate::Heat;

    #[tokio::test]
    async fn a_watch_reaches_the_heat_that_takes_steering_and_only_it() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("s.jsonl");
        let held = std::fs::File::create(&log).unwrap();
        assert!(!offer(&log, &[Command::Pause]).unwrap(), "no spool: the heat running it takes no steering");
        held.lock().unwrap();
        let mut steering = Steering::take(&log).unwrap();
        assert!(taken(&log));
        let sent = [Command::InjectTopic("cost".into()), Command::PinTemperature(Heat::new(0.5))];
        assert!(offer(&log, &sent).unwrap());
        let got = tokio::time::timeout(std::time::Duration::from_secs(5), steering.next()).await.unwrap();
        assert_eq!(got, sent);
        held.unlock().unwrap();
        assert!(!taken(&log) && !offer(&log, &[Command::Pause]).unwrap(), "no heat records it any more");
        drop(steering);
        assert!(!path_for(&log).exists(), "the spool goes with the heat that took it");
    }
}

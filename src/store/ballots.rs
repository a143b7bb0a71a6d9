//! The ballot spool beside a session log (`<id>.ballots`): the audience
//! page's server appends each ballot it takes, one JSON line each, and the
//! process that holds the log reads them from it and records them as
//! events. A server never writes the log itself (another process may hold
//! it), and the log's writer never answers the network. A line cut short
//! or unreadable is skipped; a ballot read twice is counted once (the
//! fold counts a voter once per round). The spool itself is `spool.rs`.

use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use super::spool::{self, Reader};
use crate::debate::audience::Ballot;

/// A ballot as spooled: the round (from 0) it was cast for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spooled {
    pub round: u32,
    #[serde(flatten)]
    pub ballot: Ballot,
}

/// The spool beside the session log at `log`.
pub fn path_for(log: &Path) -> PathBuf {
    spool::path_for(log, "ballots")
}

/// Appends `ballots` to the spool beside the log at `log` in one write,
/// when a heat still records that debate: false (and nothing written) when
/// none does. Checked and written under the spool's lock, which the log's
/// writer takes for its last read before it lets the log go ([`last_read`]),
/// so a ballot written is always read.
pub fn append_while_recorded(log: &Path, ballots: &[Spooled]) -> anyhow::Result<bool> {
    let path = path_for(log);
    let spool = open_spool(&path)?;
    spool::append_while_recorded(log, &path, &spool, ballots)
}

/// The spool held by the log's writer for its last read: every ballot in
/// it, under its lock, which is held until the log is let go.
pub struct LastRead {
    spool: std::fs::File,
    path: PathBuf,
    pub ballots: Vec<Spooled>,
}

/// Takes the spool's lock for the log's writer's last read (the spool made
/// if there is none, so a page cannot make one unseen); `None` when it
/// cannot be opened or locked.
pub fn last_read(log: &Path) -> Option<LastRead> {
    let path = path_for(log);
    let spool = open_spool(&path).ok()?;
    spool.lock().ok()?;
    let ballots = Reader::<Spooled>::new(path.clone()).read().unwrap_or_default();
    Some(LastRead { spool, path, ballots })
}

impl LastRead {
    /// Lets the spool go once the log has been let go: an empty one is
    /// removed (a page waiting for its lock then finds the log let go, and
    /// writes nothing).
    pub fn close(self) {
        if self.spool.metadata().is_ok_and(|m| m.len() == 0) {
            let _ = std::fs::remove_file(&self.path);
        }
        drop(self.spool);
    }
}

fn open_spool(path: &Path) -> anyhow::Result<std::fs::File> {
    spool::open(path, true).with_context(|| format!("could not open the ballots {}", path.display()))
}

/// Follows the spool beside the log at `log` from its start: each batch of
/// ballots found, until the receiver is dropped. Must be called within a
/// tokio runtime.
pub fn follow(log: &Path) -> mpsc::Receiver<Vec<Spooled>> {
    spool::follow(path_for(log))
}

/// The rounds' ballots as the events they make: ballots grouped by round,
/// in the order their rounds first appear.
pub fn by_round(ballots: Vec<Spooled>) -> Vec<(u32, Vec<Ballot>)> {
    let mut rounds: Vec<(u32, Vec<Ballot>)> = Vec::new();
    for Spooled { round, ballot } in ballots {
        match rounds.iter_mut().find(|(r, _)| *r == round) {
            Some((_, list)) => list.push(ballot),
            None => rounds.push((round, vec![ballot])),
        }
    }
    rounds
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debate::Role;
    use std::io::Write;

    fn spooled(round: u32, n: u8) -> Spooled {
        Spooled { round, ballot: Ballot { voter: format!("{n:012x}"), side: Some(Role::Advocate) } }
    }

    #[test]
    fn whole_lines_are_read_once_and_a_bad_line_is_skipped() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = path_for(&dir.path().join("s.jsonl"));
        let mut reader = Reader::<Spooled>::new(path.clone());
        assert_eq!(reader.read().expect("no spool yet"), Vec::new());
        spool::write(&open_spool(&path).expect("the spool"), &path, &[spooled(0, 1), spooled(1, 2)]).expect("written");
        assert_eq!(reader.read().expect("read"), vec![spooled(0, 1), spooled(1, 2)]);
        assert_eq!(reader.read().expect("read again"), Vec::new());
        // A line half written waits; a garbled line is skipped.
        let mut file = std::fs::OpenOptions::new().append(true).open(&path).expect("open");
        file.write_all(b"{not json}\n{\"round\":0,").expect("write");
        assert_eq!(reader.read().expect("read"), Vec::new());
        file.write_all(b"\"voter\":\"000000000003\",\"side\":null}\n").expect("write");
        let read = reader.read().expect("read");
        assert_eq!(read.len(), 1);
        assert_eq!(read[0].ballot.side, None);
        assert_eq!(
            by_round(vec![spooled(1, 1), spooled(0, 2), spooled(1, 3)])
                .iter()
                .map(|(r, b)| (*r, b.len()))
                .collect::<Vec<_>>(),
            vec![(1, 2), (0, 1)]
        );
    }
}

//! The sessions index: one small JSON file listing every session (id, topic,
//! times, rounds, outcome, models) so listing never reads the logs. Replaced
//! atomically (temp file + rename) under a lock file; rebuilt from the logs
//! when missing or unreadable.

use std::fs::File;
use std::path::Path;

use anyhow::Context;
use serde::{Deserialize, Serialize};

use crate::debate::DebateState;

/// One session as listed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexEntry {
    pub id: String,
    pub topic: String,
    pub created_ms: u64,
    pub updated_ms: u64,
    pub rounds: u32,
    /// How it ended, in words; `None` while unfinished.
    pub outcome: Option<String>,
    /// `role: provider/model` for each participant.
    pub models: Vec<String>,
    /// The stored debate this one runs again (`heat rematch`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch_of: Option<String>,
}

impl IndexEntry {
    /// The entry describing a session's folded state.
    pub fn describe(id: &str, created_ms: u64, updated_ms: u64, state: &DebateState) -> Self {
        Self {
            id: id.to_string(),
            topic: state.topic.clone(),
            created_ms,
            updated_ms,
            rounds: u32::try_from(state.rounds.len()).unwrap_or(u32::MAX),
            outcome: state.finish.as_ref().map(|f| f.outcome.describe()),
            models: state
                .participants
                .iter()
                .map(|p| format!("{}: {}/{}", p.role.key(), p.provider, p.model))
                .collect(),
            rematch_of: state.origin.as_ref().map(|(from, _)| from.clone()),
        }
    }
}

impl IndexEntry {
    /// The topic as listed, with ` ↳ rematch of ID` when it reruns another.
    pub fn listed_topic(&self) -> String {
        let topic = crate::sanitize::clean(&self.topic);
        match &self.rematch_of {
            Some(from) => format!("{topic} ↳ rematch of {}", crate::sanitize::clean(from)),
            None => topic,
        }
    }

    /// Whether `heat resume` can go on with it: unfinished, failed or
    /// cancelled (the words `Outcome::describe` gives those endings).
    pub fn continuable(&self) -> bool {
        // "cancelled" is what older indexes say for "stopped".
        self.outcome.as_deref().is_none_or(|o| matches!(o, "stopped" | "cancelled") || o.starts_with("failed"))
    }
}

const FILE: &str = "index.json";

/// Reads the index; `None` if it is missing or unreadable (then rebuild).
pub fn read(dir: &Path) -> Option<Vec<IndexEntry>> {
    let bytes = std::fs::read(dir.join(FILE)).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// Writes the whole index atomically.
pub fn write(dir: &Path, entries: &[IndexEntry]) -> anyhow::Result<()> {
    let mut tmp = tempfile::NamedTempFile::new_in(dir).context("could not write the sessions index")?;
    serde_json::to_writer(&mut tmp, entries)?;
    tmp.as_file().sync_data()?;
    tmp.persist(dir.join(FILE)).context("could not replace the sessions index")?;
    Ok(())
}

/// Inserts or replaces one entry, holding the index lock.
pub fn upsert(dir: &Path, entry: IndexEntry, rebuild: impl FnOnce() -> Vec<IndexEntry>) -> anyhow::Result<()> {
    let lock = File::create(dir.join("index.lock")).context("could not lock the sessions index")?;
    lock.lock().context("could not lock the sessions index")?;
    let mut entries = read(dir).unwrap_or_else(rebuild);
    entries.retain(|e| e.id != entry.id);
    entries.push(entry);
    write(dir, &entries)
}

/// Removes one entry, holding the index lock.
pub fn remove(dir: &Path, id: &str) -> anyhow::Result<()> {
    let lock = File::create(dir.join("index.lock")).context("could not lock the sessions index")?;
    lock.lock().context("could not lock the sessions index")?;
    let mut entries = read(dir).unwrap_or_default();
    entries.retain(|e| e.id != id);
    write(dir, &entries)
}

//! Tournaments kept in the data dir: each in `tournaments/<id>/`, the file
//! it was started from (`tournament.toml`, as written) and its journal
//! (`journal.jsonl`), appended as its debates start, finish and fail, one
//! line each, flushed to disk before the next debate is told of. A resumed
//! tournament reads the journal to know what it has run: a line a crash cut
//! short is passed over.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};

use crate::debate::Outcome;

/// What a tournament's journal records, a line each.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Entry {
    /// The tournament began: the seed its plan was drawn with, and how many
    /// debates it plans.
    Began { seed: u64, debates: usize, at_ms: u64 },
    /// A planned debate began as a session.
    Started { key: String, session: String },
    /// It ended as the session records, having spent `tokens` (in and out)
    /// and `usd` (when every call's price is known).
    Finished {
        key: String,
        session: String,
        outcome: Outcome,
        #[serde(default)]
        tokens: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        usd: Option<f64>,
    },
    /// It could not run, or failed: `attempt` 1 is tried again at the end,
    /// 2 is where it stays.
    Failed {
        key: String,
        session: Option<String>,
        why: String,
        attempt: u32,
        #[serde(default)]
        tokens: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        usd: Option<f64>,
    },
    /// It reached its budget and paused; resumed, it goes on past it.
    BudgetReached { spent: String },
    /// Every planned debate has ended (finished or failed for good).
    Ended { at_ms: u64 },
}

/// A tournament as stored: its file's text and journal.
#[derive(Debug, Clone)]
pub struct Stored {
    pub id: String,
    pub dir: PathBuf,
    pub text: String,
    pub entries: Vec<Entry>,
}

impl Stored {
    /// The seed its plan was drawn with.
    pub fn seed(&self) -> Option<u64> {
        self.entries.iter().find_map(|e| match e {
            Entry::Began { seed, .. } => Some(*seed),
            _ => None,
        })
    }

    /// What its debates have spent so far: tokens, and dollars where known.
    pub fn spent(&self) -> (u64, f64) {
        self.entries.iter().fold((0, 0.0), |(tokens, usd), e| match e {
            Entry::Finished { tokens: t, usd: u, .. } | Entry::Failed { tokens: t, usd: u, .. } => {
                (tokens + t, usd + u.unwrap_or(0.0))
            }
            _ => (tokens, usd),
        })
    }

    /// Whether it paused at its budget once (and so goes on past it).
    pub fn budget_reached(&self) -> bool {
        self.entries.iter().any(|e| matches!(e, Entry::BudgetReached { .. }))
    }

    /// Whether every planned debate has ended.
    pub fn ended(&self) -> bool {
        self.entries.iter().any(|e| matches!(e, Entry::Ended { .. }))
    }

    /// The session each started debate has, by key (the latest, if one began twice).
    pub fn sessions(&self) -> std::collections::BTreeMap<String, String> {
        let mut sessions = std::collections::BTreeMap::new();
        for entry in &self.entries {
            match entry {
                Entry::Started { key, session }
                | Entry::Finished { key, session, .. }
                | Entry::Failed { key, session: Some(session), .. } => {
                    sessions.insert(key.clone(), session.clone());
                }
                _ => {}
            }
        }
        sessions
    }

    /// The keys of the debates that finished.
    pub fn finished(&self) -> std::collections::BTreeSet<String> {
        self.entries
            .iter()
            .filter_map(|e| match e {
                Entry::Finished { key, .. } => Some(key.clone()),
                _ => None,
            })
            .collect()
    }

    /// The debates that failed, by key: how many times, and the latest reason.
    pub fn failures(&self) -> std::collections::BTreeMap<String, (u32, String)> {
        let mut failed = std::collections::BTreeMap::new();
        for entry in &self.entries {
            if let Entry::Failed { key, why, attempt, .. } = entry {
                failed.insert(key.clone(), (*attempt, why.clone()));
            }
        }
        failed
    }
}

/// The tournaments folder of a data dir.
#[derive(Debug, Clone)]
pub struct Tournaments {
    dir: PathBuf,
}

/// The journal of a running tournament, appended to.
#[derive(Debug)]
pub struct Journal {
    file: std::fs::File,
}

impl Journal {
    /// Appends one entry and makes it last before returning.
    pub fn write(&mut self, entry: &Entry) -> anyhow::Result<()> {
        let mut line = serde_json::to_string(entry)?;
        line.push('\n');
        self.file.write_all(line.as_bytes()).context("could not write the tournament's journal")?;
        self.file.sync_data().context("could not write the tournament's journal to disk")?;
        Ok(())
    }
}

impl Tournaments {
    /// Opens (creating if needed) `<data_dir>/tournaments`.
    pub fn open(data_dir: &Path) -> anyhow::Result<Self> {
        let dir = data_dir.join("tournaments");
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("could not create the tournaments directory {}", dir.display()))?;
        Ok(Self { dir })
    }

    /// Stores a new tournament's file and opens its journal.
    pub fn create(&self, text: &str) -> anyhow::Result<(String, Journal)> {
        for _ in 0..16 {
            let id = super::new_id();
            let dir = self.dir.join(&id);
            match std::fs::create_dir(&dir) {
                Ok(()) => {
                    std::fs::write(dir.join("tournament.toml"), text)
                        .with_context(|| format!("could not write {}", dir.join("tournament.toml").display()))?;
                    return Ok((id.clone(), self.journal(&id)?));
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e).with_context(|| format!("could not create {}", dir.display())),
            }
        }
        bail!("could not find a free id for the tournament in {}", self.dir.display())
    }

    /// Opens a stored tournament's journal to append to it.
    pub fn journal(&self, id: &str) -> anyhow::Result<Journal> {
        let path = self.dir.join(id).join("journal.jsonl");
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .with_context(|| format!("could not open {}", path.display()))?;
        Ok(Journal { file })
    }

    /// Reads a stored tournament; a journal line that cannot be read (a
    /// crash cut it short) is passed over.
    pub fn load(&self, id: &str) -> anyhow::Result<Stored> {
        let dir = self.dir.join(id);
        let text = std::fs::read_to_string(dir.join("tournament.toml"))
            .with_context(|| format!("tournament {id} has no readable tournament.toml in {}", dir.display()))?;
        let journal = std::fs::read_to_string(dir.join("journal.jsonl")).unwrap_or_default();
        let entries = journal.lines().filter_map(|line| serde_json::from_str(line).ok()).collect();
        Ok(Stored { id: id.to_string(), dir, text, entries })
    }

    /// Every stored tournament's id, newest first.
    pub fn ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = std::fs::read_dir(&self.dir)
            .map(|dir| {
                dir.filter_map(Result::ok)
                    .filter(|e| e.path().join("tournament.toml").is_file())
                    .filter_map(|e| e.file_name().to_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        ids.sort_unstable_by(|a, b| b.cmp(a));
        ids
    }

    /// The tournament `id` names (or the start of one); with none, the
    /// newest, or the newest unfinished when `unfinished`.
    pub fn resolve(&self, id: Option<&str>, unfinished: bool) -> anyhow::Result<String> {
        let ids = self.ids();
        if ids.is_empty() {
            bail!("there are no tournaments yet; start one with heat tournament FILE");
        }
        let Some(wanted) = id else {
            if !unfinished {
                return Ok(ids[0].clone());
            }
            return ids
                .iter()
                .find(|id| self.load(id).is_ok_and(|t| !t.ended()))
                .cloned()
                .context("every tournament has ended; `heat stats` counts the newest");
        };
        let matches: Vec<&String> = ids.iter().filter(|id| id.starts_with(wanted)).collect();
        match matches.as_slice() {
            [one] => Ok((*one).clone()),
            [] => bail!("no tournament has an id starting with {wanted:?}; the newest is {}", ids[0]),
            many => bail!("{} tournaments have ids starting with {wanted:?}; give more of the id", many.len()),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_journal_is_read_back_and_a_torn_line_passed_over() {
        let data = std::env::temp_dir().join(format!("heat-tournaments-{}", std::process::id()));
        let tournaments = Tournaments::open(&data).unwrap();
        let (id, mut journal) = tournaments.create("models = []\n").unwrap();
        journal.write(&Entry::Began { seed: 9, debates: 2, at_ms: 1 }).unwrap();
        journal.write(&Entry::Started { key: "a".into(), session: "s1".into() }).unwrap();
        let outcome = Outcome::MaxRounds;
        journal
            .write(&Entry::Finished { key: "a".into(), session: "s1".into(), outcome, tokens: 90, usd: Some(0.5) })
            .unwrap();
        journal.write(&Entry::Started { key: "b".into(), session: "s2".into() }).unwrap();
        let path = data.join("tournaments").join(&id).join("journal.jsonl");
        let mut file = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(b"{\"kind\":\"finished\",\"key\":\"b\",\"ses").unwrap();
        let stored = tournaments.load(&id).unwrap();
        assert_eq!(stored.seed(), Some(9));
        assert_eq!(stored.finished(), ["a".to_string()].into());
        assert_eq!(stored.sessions().get("b").map(String::as_str), Some("s2"));
        assert!(!stored.ended());
        assert_eq!(stored.spent(), (90, 0.5));
        assert_eq!(tournaments.resolve(None, true).unwrap(), id);
        assert_eq!(tournaments.resolve(Some(&id[..10]), false).unwrap(), id);
        assert!(tournaments.resolve(Some("zz"), false).unwrap_err().to_string().starts_with("no tournament"));
        std::fs::remove_dir_all(&data).unwrap();
    }
}

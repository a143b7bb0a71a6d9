//! The sessions index: one small JSON file listing every session (id, topic,
//! times, rounds, outcome, models, and the name and tags of its label) so
//! listing never reads the logs. Changed under a lock file: a change is a
//! line appended to `index.log` beside `index.json`, and the two are folded
//! into a new `index.json` (temp file + rename) once the changes outgrow it,
//! so a session's update costs one short append however many sessions
//! there are. Rebuilt from the logs (and their labels) when missing or
//! unreadable.

use std::fs::File;
use std::path::Path;

use anyhow::Context;
use serde::{Deserialize, Serialize};

use super::label::{self, Label};
use crate::debate::DebateState;

/// One session as listed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
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
    /// The stored debate this one branches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch_of: Option<String>,
    /// The last round it shares with the debate it branches (from 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch_round: Option<u32>,
    /// The debate's format, when it is not the duel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// The name a person gave it (`heat sessions rename`), shown with the topic.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The tags a person gave it (`heat sessions tag`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
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
            branch_of: state.branch.as_ref().map(|b| b.from.clone()),
            branch_round: state.branch.as_ref().map(|b| b.round),
            format: state.format.as_ref().map(|f| f.name.clone()),
            name: None,
            tags: Vec::new(),
        }
    }

    /// The entry with `label`'s name and tags.
    #[must_use]
    pub fn labelled(mut self, label: Label) -> Self {
        self.name = label.name;
        self.tags = label.tags;
        self
    }

    /// Whether `text` (in lower case) is in its topic, id, name or one of its tags.
    pub fn mentions(&self, text: &str) -> bool {
        let has = |field: &str| field.to_lowercase().contains(text);
        has(&self.topic) || has(&self.id) || self.name.as_deref().is_some_and(has) || self.tags.iter().any(|t| has(t))
    }

    /// Whether it has `tag`, in any case.
    pub fn has_tag(&self, tag: &str) -> bool {
        self.tags.iter().any(|t| label::same_tag(t, tag))
    }

    /// Its name and tags as listed before the topic (`A title #work #later`),
    /// empty when it has neither.
    pub fn listed_label(&self) -> String {
        let name = self.name.as_deref().map(crate::sanitize::one_line);
        let tags = Some(label::hashed(&self.tags)).filter(|t| !t.is_empty());
        name.into_iter().chain(tags).collect::<Vec<_>>().join(" ")
    }
}

impl IndexEntry {
    /// The topic as listed: after its label (`A title #work — `) when it has
    /// one, with its format when it is not the duel (` · oxford`), then
    /// ` ↳ rematch of ID` when it reruns another or ` ⑂ after round N of ID`
    /// when it branches one.
    pub fn listed_topic(&self) -> String {
        let label = self.listed_label();
        let mut topic = if label.is_empty() { String::new() } else { format!("{label} — ") };
        topic.push_str(&crate::sanitize::one_line(&self.topic));
        if let Some(format) = &self.format {
            topic.push_str(&format!(" · {}", crate::sanitize::clean(format)));
        }
        // A branch of a rematch shares the rematch's record: the branch is what it is.
        match (&self.branch_of, &self.rematch_of) {
            (Some(from), _) => {
                format!("{topic} ⑂ after round {} of {}", self.branch_round.unwrap_or(0), crate::sanitize::clean(from))
            }
            (None, Some(from)) => format!("{topic} ↳ rematch of {}", crate::sanitize::clean(from)),
            (None, None) => topic,
        }
    }

    /// Whether `heat resume` can go on with it: unfinished, failed or
    /// cancelled (the words `Outcome::describe` gives those endings).
    pub fn continuable(&self) -> bool {
        // "cancelled" is what older indexes say for "stopped".
        self.outcome.as_deref().is_none_or(|o| matches!(o, "stopped" | "cancelled") || o.starts_with("failed"))
    }
}

/// The entries as a tree: each debate followed by its branches (and theirs),
/// as (depth, index into `entries`); a branch whose parent is not among the
/// entries stands at the top. Otherwise the entries keep their order.
pub fn tree(entries: &[IndexEntry]) -> Vec<(usize, usize)> {
    let ids: std::collections::HashSet<&str> = entries.iter().map(|e| e.id.as_str()).collect();
    let mut out = Vec::with_capacity(entries.len());
    let mut placed = vec![false; entries.len()];
    let is_root = |e: &IndexEntry| e.branch_of.as_deref().is_none_or(|p| !ids.contains(p) || p == e.id);
    for (i, entry) in entries.iter().enumerate() {
        if is_root(entry) {
            place(entries, i, 0, &mut placed, &mut out);
        }
    }
    // Whatever a damaged index left unplaced (a loop of branches) is listed at the top.
    for (i, placed) in placed.iter_mut().enumerate() {
        if !*placed {
            *placed = true;
            out.push((0, i));
        }
    }
    out
}

/// A short, human age: `12 s ago`, `4 min ago`, `3 h ago`, `2 d ago`,
/// `5 mo ago`, `2 y ago`; never wider than `59 min ago`.
pub fn age(ms: u64) -> String {
    let s = ms / 1000;
    let days = s / 86_400;
    match s {
        0..60 => format!("{s} s ago"),
        60..3600 => format!("{} min ago", s / 60),
        3600..86_400 => format!("{} h ago", s / 3600),
        _ if days < 30 => format!("{days} d ago"),
        _ if days < 365 => format!("{} mo ago", (days * 12 / 365).max(1)),
        _ => format!("{} y ago", days / 365),
    }
}

/// How a debate at `depth` in the [`tree`] is set in: nothing at the top,
/// then `└ ` under its parent, two spaces more for each level below.
pub fn indent(depth: usize) -> String {
    if depth == 0 { String::new() } else { format!("{}└ ", "  ".repeat(depth - 1)) }
}

fn place(entries: &[IndexEntry], at: usize, depth: usize, placed: &mut [bool], out: &mut Vec<(usize, usize)>) {
    if placed[at] {
        return;
    }
    placed[at] = true;
    out.push((depth, at));
    for (i, child) in entries.iter().enumerate() {
        if child.branch_of.as_deref() == Some(entries[at].id.as_str()) {
            place(entries, i, depth + 1, placed, out);
        }
    }
}

const FILE: &str = "index.json";
/// The changes since `index.json` was written, a JSON line each.
const CHANGES: &str = "index.log";
/// The changes are folded in once they are this large and larger than the index.
const FOLD_FROM: u64 = 64 * 1024;

/// One change to the index, as a line of `index.log`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Change {
    Upsert(Box<IndexEntry>),
    Remove(String),
}

/// Reads the index with its changes; `None` if it is missing or unreadable
/// (then rebuild). A change cut short by a crash (the last line, half
/// written) is left out: the session's next update says it again.
pub fn read(dir: &Path) -> Option<Vec<IndexEntry>> {
    let bytes = std::fs::read(dir.join(FILE)).ok()?;
    let mut entries: Vec<IndexEntry> = serde_json::from_slice(&bytes).ok()?;
    let Ok(changes) = std::fs::read(dir.join(CHANGES)) else { return Some(entries) };
    let lines: Vec<&[u8]> = changes.split(|b| *b == b'\n').filter(|l| !l.is_empty()).collect();
    for (at, line) in lines.iter().enumerate() {
        match serde_json::from_slice::<Change>(line) {
            Ok(Change::Upsert(entry)) => match entries.iter_mut().find(|e| e.id == entry.id) {
                Some(listed) => *listed = *entry,
                None => entries.push(*entry),
            },
            Ok(Change::Remove(id)) => entries.retain(|e| e.id != id),
            Err(_) if at + 1 == lines.len() && !changes.ends_with(b"\n") => {}
            // A change in the middle unreadable: the index cannot be trusted.
            Err(_) => return None,
        }
    }
    Some(entries)
}

/// Writes the whole index atomically, its changes folded in.
pub fn write(dir: &Path, entries: &[IndexEntry]) -> anyhow::Result<()> {
    let mut tmp = tempfile::NamedTempFile::new_in(dir).context("could not write the sessions index")?;
    // One write, not one a JSON fragment (37,000 for a thousand sessions).
    let json = serde_json::to_vec(entries)?;
    std::io::Write::write_all(&mut tmp, &json).context("could not write the sessions index")?;
    tmp.as_file().sync_data()?;
    tmp.persist(dir.join(FILE)).context("could not replace the sessions index")?;
    // Were heat stopped before this, the changes would be read again over
    // the index that holds them, to the same result.
    match std::fs::remove_file(dir.join(CHANGES)) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(e).context("could not clear the sessions index's changes")
        }
        _ => Ok(()),
    }
}

/// Appends one change, under the caller's lock; folds the changes into the
/// index once they outgrow it. With no index, it is rebuilt first.
fn change(dir: &Path, change: &Change, rebuild: impl FnOnce() -> Vec<IndexEntry>) -> anyhow::Result<()> {
    let Ok(index) = std::fs::metadata(dir.join(FILE)) else {
        let mut entries = rebuild();
        apply(&mut entries, change);
        return write(dir, &entries);
    };
    let mut line = serde_json::to_vec(change)?;
    line.push(b'\n');
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join(CHANGES))
        .context("could not write the sessions index")?;
    // One write: a line is whole, or (cut by a crash) the last and left out.
    std::io::Write::write_all(&mut log, &line).context("could not write the sessions index")?;
    let grown = log.metadata().map_or(0, |m| m.len());
    if grown >= FOLD_FROM && grown > index.len() {
        let entries = read(dir).unwrap_or_else(rebuild);
        write(dir, &entries)?;
    }
    Ok(())
}

fn apply(entries: &mut Vec<IndexEntry>, change: &Change) {
    match change {
        Change::Upsert(entry) => {
            entries.retain(|e| e.id != entry.id);
            entries.push(IndexEntry::clone(entry));
        }
        Change::Remove(id) => entries.retain(|e| e.id != *id),
    }
}

/// Takes the index lock, held until the file returned is dropped. A label
/// is changed under it too, so an entry written from the debate's state
/// never puts back a label another heat just changed.
pub fn lock(dir: &Path) -> anyhow::Result<File> {
    let lock = File::create(dir.join("index.lock")).context("could not lock the sessions index")?;
    lock.lock().context("could not lock the sessions index")?;
    Ok(lock)
}

/// Inserts or replaces one entry, with the session's label as it stands,
/// holding the index lock.
pub fn upsert(dir: &Path, entry: IndexEntry, rebuild: impl FnOnce() -> Vec<IndexEntry>) -> anyhow::Result<()> {
    let _lock = lock(dir)?;
    let label = label::read(dir, &entry.id);
    change(dir, &Change::Upsert(Box::new(entry.labelled(label))), rebuild)
}

/// Changes one entry's label where it is listed, while the caller holds the
/// index lock (see [`lock`]); a missing index is left to be rebuilt.
pub fn relabel(dir: &Path, id: &str, label: &Label) -> anyhow::Result<()> {
    let Some(entries) = read(dir) else { return Ok(()) };
    let Some(entry) = entries.into_iter().find(|e| e.id == id) else { return Ok(()) };
    change(dir, &Change::Upsert(Box::new(entry.labelled(label.clone()))), Vec::new)
}

/// Removes one entry, holding the index lock (a missing index stays missing).
pub fn remove(dir: &Path, id: &str) -> anyhow::Result<()> {
    let _lock = lock(dir)?;
    if !dir.join(FILE).exists() {
        return Ok(());
    }
    change(dir, &Change::Remove(id.to_string()), Vec::new)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn entry(id: &str, topic: &str) -> IndexEntry {
        IndexEntry { id: id.into(), topic: topic.into(), ..IndexEntry::default() }
    }

    fn topics(dir: &Path) -> Vec<(String, String)> {
        read(dir).unwrap().into_iter().map(|e| (e.id, e.topic)).collect()
    }

    #[test]
    fn an_update_is_one_line_appended_and_read_over_the_index() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), &[entry("a", "first"), entry("b", "second")]).unwrap();
        let written = std::fs::read(dir.path().join(FILE)).unwrap();
        upsert(dir.path(), entry("a", "first, again"), Vec::new).unwrap();
        upsert(dir.path(), entry("c", "third"), Vec::new).unwrap();
        remove(dir.path(), "b").unwrap();
        assert_eq!(std::fs::read(dir.path().join(FILE)).unwrap(), written, "the index itself is not rewritten");
        let changes = std::fs::read_to_string(dir.path().join(CHANGES)).unwrap();
        assert_eq!(changes.lines().count(), 3, "{changes}");
        assert_eq!(
            topics(dir.path()),
            [("a".to_string(), "first, again".to_string()), ("c".to_string(), "third".to_string())]
        );
    }

    #[test]
    fn a_change_cut_short_is_left_out_and_one_unreadable_in_the_middle_asks_for_a_rebuild() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), &[entry("a", "first")]).unwrap();
        upsert(dir.path(), entry("b", "second"), Vec::new).unwrap();
        let path = dir.path().join(CHANGES);
        let whole = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, format!("{whole}{{\"upsert\":{{\"id\":\"c\",\"to")).unwrap();
        assert_eq!(topics(dir.path()).len(), 2, "the torn last line is left out");
        std::fs::write(&path, format!("not json\n{whole}")).unwrap();
        assert_eq!(read(dir.path()), None);
    }

    #[test]
    fn the_changes_are_folded_into_the_index_once_they_outgrow_it() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), &[entry("a", "first")]).unwrap();
        let long = "a proposition argued at some length ".repeat(20);
        let mut folded = false;
        for n in 0..400 {
            upsert(dir.path(), entry(&format!("s{n}"), &long), Vec::new).unwrap();
            folded |= !dir.path().join(CHANGES).exists();
        }
        assert!(folded, "the changes were folded in at least once");
        let index: Vec<IndexEntry> = serde_json::from_slice(&std::fs::read(dir.path().join(FILE)).unwrap()).unwrap();
        assert!(index.len() > 100, "the index holds what was folded: {}", index.len());
        assert_eq!(read(dir.path()).unwrap().len(), 401);
    }

    #[test]
    fn with_no_index_an_update_rebuilds_it_first() {
        let dir = tempfile::tempdir().unwrap();
        upsert(dir.path(), entry("b", "second"), || vec![entry("a", "first")]).unwrap();
        assert!(!dir.path().join(CHANGES).exists());
        assert_eq!(topics(dir.path()).len(), 2);
    }

    #[test]
    fn a_topic_stored_with_line_breaks_is_listed_on_one_line() {
        // Debates stored before propositions were kept as one line.
        let entry = IndexEntry { id: "a".into(), topic: "Tabs beat\r\nspaces\rreally".into(), ..IndexEntry::default() };
        assert_eq!(entry.listed_topic(), "Tabs beat spaces really");
    }
}

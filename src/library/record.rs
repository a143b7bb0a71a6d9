//! What a debate's library held, as the session records it: the paths
//! given and each file's name, size and hash (not the text: a library may
//! be large, and the passages each seat read are recorded with its turn).
//! A resume compares it with the files as they are now.

use serde::{Deserialize, Serialize};

use super::catalog::Library;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LibraryRecord {
    /// The paths given, absolute, in order.
    pub roots: Vec<String>,
    pub files: Vec<FileRecord>,
    /// How many files were found and not read.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub skipped: usize,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_zero(n: &usize) -> bool {
    *n == 0
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileRecord {
    pub name: String,
    pub size: u64,
    pub sha256: String,
}

impl LibraryRecord {
    /// What `library` read, for the session.
    pub fn of(library: &Library) -> LibraryRecord {
        LibraryRecord {
            roots: library.roots.iter().map(|r| r.display().to_string()).collect(),
            files: library
                .docs
                .iter()
                .map(|d| FileRecord { name: d.name.clone(), size: d.size, sha256: d.sha256.clone() })
                .collect(),
            skipped: library.skipped.len(),
        }
    }

    /// `2 files`, or `2 files, 1 left out`.
    pub fn counted(&self) -> String {
        let files = crate::words::count(self.files.len(), "file");
        if self.skipped == 0 { files } else { format!("{files}, {} left out", self.skipped) }
    }

    /// The library opened again from the paths recorded (on resume, branch
    /// or rematch), with what changed since said in one sentence; when it
    /// cannot be opened, `None` and the sentence saying the debate goes on
    /// without it. Its index is taken from `kept` where it was kept.
    pub fn reopen(&self, kept: Option<&std::path::Path>) -> (Option<std::sync::Arc<Library>>, Option<String>) {
        match Library::open_kept(&self.roots, kept) {
            Ok(library) => {
                let notice = self.changes(&library);
                (Some(std::sync::Arc::new(library)), notice)
            }
            Err(e) => (
                None,
                Some(format!(
                    "the library cannot be opened again ({e}); the debate goes on without it, its passages read so far kept in its rounds"
                )),
            ),
        }
    }

    /// What differs in `now` (the library opened again from the same
    /// roots): `None` when nothing does, else one sentence naming up to
    /// three files of each kind of change.
    pub fn changes(&self, now: &Library) -> Option<String> {
        let then: std::collections::HashMap<&str, &str> =
            self.files.iter().map(|f| (f.name.as_str(), f.sha256.as_str())).collect();
        let here: std::collections::HashMap<&str, &str> =
            now.docs.iter().map(|d| (d.name.as_str(), d.sha256.as_str())).collect();
        let changed: Vec<&str> = self
            .files
            .iter()
            .filter(|f| here.get(f.name.as_str()).is_some_and(|h| *h != f.sha256))
            .map(|f| f.name.as_str())
            .collect();
        let gone: Vec<&str> =
            self.files.iter().filter(|f| !here.contains_key(f.name.as_str())).map(|f| f.name.as_str()).collect();
        let added: Vec<&str> =
            now.docs.iter().filter(|d| !then.contains_key(d.name.as_str())).map(|d| d.name.as_str()).collect();
        let parts: Vec<String> = [("changed", changed), ("gone", gone), ("new", added)]
            .into_iter()
            .filter(|(_, names)| !names.is_empty())
            .map(|(what, names)| format!("{} {what} ({})", names.len(), listed(&names)))
            .collect();
        (!parts.is_empty()).then(|| {
            format!("the library has changed since this debate began: {}; the debate goes on with the files as they are now", parts.join(", "))
        })
    }
}

fn listed(names: &[&str]) -> String {
    let shown: Vec<&str> = names.iter().take(3).copied().collect();
    let more = names.len().saturating_sub(3);
    if more == 0 { shown.join(", ") } else { format!("{}, and {more} more", shown.join(", ")) }
}

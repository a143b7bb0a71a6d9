//! The library itself: the files read from the paths given, their passages
//! and the index over them, opened once per debate; with the limits it
//! keeps and one sentence for each way it cannot be opened.

use std::path::PathBuf;

use super::document::{Document, Skip};
use super::index::{self, Index};
use super::passage::{self, Passage};
use super::walk::{self, Found, WalkError};

/// The most files a library holds.
pub const MAX_FILES: usize = 10_000;
/// The most text it holds, in bytes.
pub const MAX_BYTES: u64 = 200 * 1024 * 1024;

/// Files, passages and the index, read from `roots`.
#[derive(Debug)]
pub struct Library {
    /// The paths given, absolute.
    pub roots: Vec<PathBuf>,
    pub docs: Vec<Document>,
    pub passages: Vec<Passage>,
    /// Files found and not read, with why (a folder's binary files…).
    pub skipped: Vec<(String, Skip)>,
    index: Index,
}

/// An open library shared by the debate that reads it: equal only to
/// itself, shown by its summary.
#[derive(Clone)]
pub struct Shared(pub std::sync::Arc<Library>);

impl PartialEq for Shared {
    fn eq(&self, other: &Self) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Library({})", self.0.summary())
    }
}

/// A passage found by a search, with its score.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub passage: usize,
    pub score: f32,
}

/// Why a library cannot be opened. `Display` is the whole sentence.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LibraryError {
    #[error(transparent)]
    Walk(#[from] WalkError),
    #[error("the source {0} {1}")]
    Unreadable(String, Skip),
    #[error("the folder {0} holds nothing heat can read{1}")]
    NothingReadable(String, String),
    #[error(
        "the sources hold {0} files, more than the {MAX_FILES} a library may; name fewer folders, or add the rest to a .gitignore"
    )]
    TooManyFiles(usize),
    #[error("the sources hold {0} MB of text, more than the 200 MB a library may; name fewer folders")]
    TooLarge(u64),
}

impl Library {
    /// Reads every file under `roots` (files and folders, see
    /// [`walk::files`]). A file named itself that cannot be read, a folder
    /// with nothing readable, and a library past its limits are refused;
    /// a folder's unreadable files are left out and listed in `skipped`.
    pub fn open(roots: &[String]) -> Result<Library, LibraryError> {
        let found = walk::files(roots)?;
        if found.len() > MAX_FILES {
            return Err(LibraryError::TooManyFiles(found.len()));
        }
        // Sized before anything is read: a library past its limit is never loaded.
        let sizes: u64 = found
            .iter()
            .filter_map(|f| std::fs::metadata(&f.path).ok())
            .map(|m| m.len())
            .filter(|&len| len <= super::document::MAX_FILE_BYTES)
            .sum();
        if sizes > MAX_BYTES {
            return Err(LibraryError::TooLarge(sizes / (1024 * 1024)));
        }
        let mut docs = Vec::new();
        let mut skipped = Vec::new();
        let mut bytes = 0;
        for (file, read) in read_in_parallel(&found) {
            match read {
                Ok(doc) => {
                    bytes += doc.size;
                    if bytes > MAX_BYTES {
                        return Err(LibraryError::TooLarge(bytes / (1024 * 1024)));
                    }
                    docs.push(doc);
                }
                Err(skip) if file.named => return Err(LibraryError::Unreadable(file.name, skip)),
                Err(skip) => skipped.push((file.name, skip)),
            }
        }
        if docs.is_empty() {
            let root = roots.first().cloned().unwrap_or_default();
            let why = if skipped.is_empty() { String::new() } else { format!(" ({})", Self::skipped_counts(&skipped)) };
            return Err(LibraryError::NothingReadable(root, why));
        }
        let roots = roots.iter().map(|r| std::fs::canonicalize(r).unwrap_or_else(|_| PathBuf::from(r))).collect();
        Ok(Self::from_docs(roots, docs, skipped))
    }

    /// A library of documents already read.
    pub fn from_docs(roots: Vec<PathBuf>, docs: Vec<Document>, skipped: Vec<(String, Skip)>) -> Library {
        let passages: Vec<Passage> = docs.iter().enumerate().flat_map(|(i, d)| passage::cut(i, &d.text)).collect();
        let index = index_in_parallel(&docs, &passages);
        Library { roots, docs, passages, skipped, index }
    }

    /// The passages that best answer `query`, best first, at most `most`.
    pub fn search(&self, query: &str, most: usize) -> Vec<Hit> {
        let terms = index::terms(query);
        self.index
            .search(&terms)
            .into_iter()
            .take(most)
            .map(|(id, score)| Hit { passage: id as usize, score })
            .collect()
    }

    /// A passage's lines, as written.
    pub fn text(&self, passage: &Passage) -> String {
        let doc = &self.docs[passage.doc];
        doc.lines(passage.start, passage.end).map(|l| l.join("\n")).unwrap_or_default()
    }

    /// The document cited as `name`: by its name, or by a path that ends
    /// with its name's last parts (`studio.md` for `docs/studio.md`) when
    /// only one does.
    pub fn doc(&self, name: &str) -> Option<&Document> {
        let name = name.trim().trim_start_matches("./");
        if let Some(doc) = self.docs.iter().find(|d| d.name == name) {
            return Some(doc);
        }
        let mut ends = self
            .docs
            .iter()
            .filter(|d| d.name.ends_with(&format!("/{name}")) || name.ends_with(&format!("/{}", d.name)));
        match (ends.next(), ends.next()) {
            (Some(doc), None) => Some(doc),
            _ => None,
        }
    }

    /// `12 files, 340 KB, 210 passages`, and what was left out.
    pub fn summary(&self) -> String {
        let bytes: u64 = self.docs.iter().map(|d| d.size).sum();
        let mut out = format!(
            "{} file{}, {}, {} passages",
            self.docs.len(),
            if self.docs.len() == 1 { "" } else { "s" },
            size(bytes),
            self.passages.len()
        );
        if !self.skipped.is_empty() {
            out.push_str(&format!("; left out {}", Self::skipped_counts(&self.skipped)));
        }
        out
    }

    /// `3 binary, 1 PDF`.
    fn skipped_counts(skipped: &[(String, Skip)]) -> String {
        let mut kinds: Vec<(&str, usize)> = Vec::new();
        for (_, skip) in skipped {
            match kinds.iter_mut().find(|(k, _)| *k == skip.kind()) {
                Some((_, n)) => *n += 1,
                None => kinds.push((skip.kind(), 1)),
            }
        }
        kinds.iter().map(|(k, n)| format!("{n} {k}")).collect::<Vec<_>>().join(", ")
    }
}

/// How many threads read and index a library: one a core, up to four.
fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get).clamp(1, 4)
}

/// Each file found, read (and hashed) on [`threads`] threads, in order.
fn read_in_parallel(found: &[Found]) -> Vec<(Found, Result<Document, Skip>)> {
    let run = found.len().div_ceil(threads()).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = found
            .chunks(run)
            .map(|part| {
                scope.spawn(move || {
                    part.iter().map(|f| (f.clone(), Document::read(f.name.clone(), &f.path))).collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
    })
}

/// The index over `passages`, built on as many threads as there are
/// cores (up to four), each over a run of passages, then merged in order.
fn index_in_parallel(docs: &[Document], passages: &[Passage]) -> Index {
    let run = passages.len().div_ceil(threads()).max(1);
    let build = |part: &[Passage]| {
        let mut builder = index::Builder::default();
        for p in part {
            let doc = &docs[p.doc];
            builder.add_text(&doc.name);
            for heading in &p.headings {
                builder.add_text(heading);
            }
            for line in doc.text.lines().skip(p.start - 1).take(p.end + 1 - p.start) {
                builder.add_text(line);
            }
            builder.end_passage();
        }
        builder.finish()
    };
    let parts: Vec<Index> = std::thread::scope(|scope| {
        let handles: Vec<_> = passages.chunks(run).map(|part| scope.spawn(move || build(part))).collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
    });
    parts.into_iter().reduce(Index::merge).unwrap_or_default()
}

/// `340 KB`, `12.5 MB`.
fn size(bytes: u64) -> String {
    match bytes {
        b if b < 1024 => format!("{b} B"),
        b if b < 1024 * 1024 => format!("{} KB", b.div_ceil(1024)),
        b => format!("{:.1} MB", b as f64 / (1024.0 * 1024.0)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(name: &str, text: &str) -> Document {
        Document::from_bytes(name.into(), PathBuf::from(name), text.as_bytes()).expect("doc")
    }

    #[test]
    fn a_search_finds_the_passage_and_a_citation_finds_its_file() {
        let library = Library::from_docs(
            Vec::new(),
            vec![
                doc(
                    "docs/queue.md",
                    "# Queue\nJobs wait in Postgres.\n\n# Retries\nA failed job is tried three times.\n",
                ),
                doc("src/net.rs", "fn connect() {}\n"),
            ],
            Vec::new(),
        );
        let hits = library.search("how often is a failed job retried?", 3);
        let first = &library.passages[hits[0].passage];
        assert_eq!((first.start, first.end), (4, 5));
        assert_eq!(library.text(first), "# Retries\nA failed job is tried three times.");
        assert_eq!(library.doc("queue.md").map(|d| d.name.as_str()), Some("docs/queue.md"));
        assert_eq!(library.doc("heat/src/net.rs").map(|d| d.name.as_str()), Some("src/net.rs"));
        assert!(library.doc("nope.md").is_none());
        assert_eq!(library.summary(), "2 files, 93 B, 3 passages");
    }

    #[test]
    fn a_folder_with_nothing_readable_is_refused_with_what_was_there() {
        let dir = tempfile::tempdir().expect("dir");
        std::fs::write(dir.path().join("a.bin"), b"\0\0").expect("write");
        std::fs::write(dir.path().join("b.pdf"), b"%PDF-1.4").expect("write");
        let root = dir.path().display().to_string();
        let err = Library::open(std::slice::from_ref(&root)).expect_err("nothing readable");
        assert_eq!(err.to_string(), format!("the folder {root} holds nothing heat can read (1 binary, 1 PDF)"));
        let named = Library::open(&[format!("{root}/a.bin")]).expect_err("named binary");
        assert_eq!(named.to_string(), format!("the source {root}/a.bin looks binary (it holds NUL bytes)"));
    }
}

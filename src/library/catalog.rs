//! The library itself: the files read from the paths given, their passages
//! and the index over them, opened once per debate; with the limits it
//! keeps and one sentence for each way it cannot be opened.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::document::{Document, Skip};
use super::index::{self, Index};
use super::kept::{Kept, Stamp};
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
        Self::open_kept(roots, None)
    }

    /// As [`Library::open`], its index kept under `kept` (see
    /// [`kept`](super::kept)): the files unchanged since it was kept are
    /// taken from it, and it is kept again when anything changed. A kept
    /// index that cannot be written is passed over: the library is open.
    pub fn open_kept(roots: &[String], kept: Option<&Path>) -> Result<Library, LibraryError> {
        let found = walk::files(roots)?;
        if found.len() > MAX_FILES {
            return Err(LibraryError::TooManyFiles(found.len()));
        }
        let stamps: Vec<Option<Stamp>> = found.iter().map(|f| Stamp::of(&f.path)).collect();
        // Sized before anything is read: a library past its limit is never loaded.
        let sizes: u64 = found
            .iter()
            .zip(&stamps)
            .filter_map(|(f, stamp)| stamp.map(|s| (s.size, super::document::max_bytes(&f.path))))
            .filter(|&(len, most)| len <= most)
            .map(|(len, _)| len)
            .sum();
        if sizes > MAX_BYTES {
            return Err(LibraryError::TooLarge(sizes / (1024 * 1024)));
        }
        let absolute: Vec<PathBuf> =
            roots.iter().map(|r| std::fs::canonicalize(r).unwrap_or_else(|_| PathBuf::from(r))).collect();
        let kept_at = kept.map(|dir| Kept::path(dir, &absolute));
        let mut kept = kept_at.as_deref().and_then(Kept::load).unwrap_or_default();
        let reusable: Vec<Option<usize>> = {
            let by_path: HashMap<&Path, usize> =
                kept.files.iter().enumerate().map(|(i, f)| (f.path.as_path(), i)).collect();
            found
                .iter()
                .zip(&stamps)
                .map(|(f, stamp)| {
                    let i = *by_path.get(f.path.as_path())?;
                    (kept.files[i].name == f.name && Some(kept.files[i].stamp) == *stamp).then_some(i)
                })
                .collect()
        };
        let mut docs = Vec::new();
        let mut from_kept = Vec::new();
        let mut doc_stamps = Vec::new();
        let mut skipped = Vec::new();
        let mut bytes = 0;
        for ((file, read, reused), stamp) in read_in_parallel(&found, &reusable, &kept).into_iter().zip(stamps) {
            match read {
                Ok(doc) => {
                    bytes += doc.size;
                    if bytes > MAX_BYTES {
                        return Err(LibraryError::TooLarge(bytes / (1024 * 1024)));
                    }
                    doc_stamps.push(stamp.unwrap_or(Stamp { size: doc.size, modified: 0 }));
                    from_kept.push(reused);
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
        let all_kept = from_kept.iter().all(Option::is_some) && kept.files.len() == docs.len();
        let library = Self::assemble(absolute, docs, skipped, &from_kept, &mut kept);
        if let Some(path) = kept_at.filter(|_| !all_kept) {
            let kept = Kept::of(&library.docs, &library.passages, &library.index, &doc_stamps);
            if let Err(e) = kept.save(&path) {
                tracing::warn!("the library's index could not be kept at {}: {e}", path.display());
            }
        }
        Ok(library)
    }

    /// A library of documents already read.
    pub fn from_docs(roots: Vec<PathBuf>, docs: Vec<Document>, skipped: Vec<(String, Skip)>) -> Library {
        let passages: Vec<Passage> = docs.iter().enumerate().flat_map(|(i, d)| passage::cut(i, &d.text)).collect();
        let index = index_in_parallel(&docs, &passages);
        Library { roots, docs, passages, skipped, index }
    }

    /// A library of documents read, those `from_kept` names taking their
    /// passages and their part of the index from `kept`; the others cut
    /// and indexed afresh, each run of them on [`threads`] threads.
    fn assemble(
        roots: Vec<PathBuf>,
        docs: Vec<Document>,
        skipped: Vec<(String, Skip)>,
        from_kept: &[Option<usize>],
        kept: &mut Kept,
    ) -> Library {
        if from_kept.iter().all(Option::is_none) {
            return Self::from_docs(roots, docs, skipped);
        }
        let mut index = Index::with_terms(std::mem::take(&mut kept.terms));
        let mut passages = Vec::new();
        let mut fresh: Vec<Passage> = Vec::new();
        let flush = |index: Index, fresh: &mut Vec<Passage>, passages: &mut Vec<Passage>| -> Index {
            if fresh.is_empty() {
                return index;
            }
            let built = index_in_parallel(&docs, fresh);
            passages.append(fresh);
            index.merge(built)
        };
        for (i, reused) in from_kept.iter().enumerate() {
            match reused {
                Some(k) => {
                    index = flush(index, &mut fresh, &mut passages);
                    let file = &mut kept.files[*k];
                    index.append(&file.part);
                    passages.extend(std::mem::take(&mut file.passages).into_iter().map(|p| Passage { doc: i, ..p }));
                }
                None => fresh.extend(passage::cut(i, &docs[i].text)),
            }
        }
        index = flush(index, &mut fresh, &mut passages);
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

/// A file found, read, and the kept file it was taken from.
type Read = (Found, Result<Document, Skip>, Option<usize>);

/// Each file found, read (and hashed) on [`threads`] threads, in order;
/// one `reusable` names is taken from `kept` (its text read again when it
/// was not converted, not hashed), or read afresh when it no longer reads.
fn read_in_parallel(found: &[Found], reusable: &[Option<usize>], kept: &Kept) -> Vec<Read> {
    let run = found.len().div_ceil(threads()).max(1);
    let read = |f: &Found, reuse: Option<usize>| -> Read {
        let again = reuse.and_then(|k| {
            let file = &kept.files[k];
            Document::reread(f.name.clone(), &f.path, file.stamp.size, file.sha256.clone(), file.converted.clone())
        });
        match again {
            Some(doc) => (f.clone(), Ok(doc), reuse),
            None => (f.clone(), Document::read(f.name.clone(), &f.path), None),
        }
    };
    std::thread::scope(|scope| {
        let handles: Vec<_> = found
            .chunks(run)
            .zip(reusable.chunks(run))
            .map(|(part, reuse)| {
                scope.spawn(move || part.iter().zip(reuse).map(|(f, r)| read(f, *r)).collect::<Vec<_>>())
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
    fn a_kept_index_is_used_for_files_unchanged_and_kept_again_when_one_changes() {
        let dir = tempfile::tempdir().expect("dir");
        let notes = dir.path().join("notes");
        std::fs::create_dir_all(&notes).expect("mkdir");
        std::fs::write(notes.join("queue.md"), "# Queue\nJobs wait in Postgres.\n").expect("write");
        std::fs::write(notes.join("page.html"), "<h1>Retries</h1><p>A failed job is tried three times.</p>")
            .expect("write");
        let kept_dir = dir.path().join("kept");
        let roots = [notes.display().to_string()];
        let fresh = Library::open(&roots).expect("fresh");
        let first = Library::open_kept(&roots, Some(&kept_dir)).expect("first");
        let at = Kept::path(&kept_dir, &first.roots);
        let written = std::fs::read(&at).expect("kept after the first open");
        let query = "how often is a failed job retried";
        assert_eq!(first.search(query, 3), fresh.search(query, 3));

        let again = Library::open_kept(&roots, Some(&kept_dir)).expect("again");
        assert_eq!(again.passages, fresh.passages);
        assert_eq!(again.search(query, 3), fresh.search(query, 3));
        assert_eq!(std::fs::read(&at).expect("kept"), written, "nothing changed, nothing kept again");

        // What was kept is what is used: a converted page's text comes from it.
        let mut kept = Kept::load(&at).expect("load");
        let page = kept.files.iter_mut().find(|f| f.name.ends_with("page.html")).expect("page kept");
        page.converted = Some("# Retries\nA failed job is tried five times.\n".into());
        kept.save(&at).expect("save");
        let taken = Library::open_kept(&roots, Some(&kept_dir)).expect("taken");
        assert!(taken.doc("page.html").expect("page").text.contains("five times"));

        std::fs::write(notes.join("queue.md"), "# Queue\nJobs wait in Redis, in memory.\n").expect("edit");
        let changed = Library::open_kept(&roots, Some(&kept_dir)).expect("changed");
        assert!(!changed.search("redis memory", 1).is_empty(), "the changed file is read again");
        assert!(changed.search("postgres", 1).is_empty(), "and its old words are gone");
        let kept_again = Kept::load(&at).expect("kept again");
        let queue = kept_again.files.iter().find(|f| f.name.ends_with("queue.md")).expect("queue kept");
        assert_eq!(queue.stamp.size, 39, "kept again as it is now");

        std::fs::write(&at, b"not an index").expect("spoil");
        let spoiled = Library::open_kept(&roots, Some(&kept_dir)).expect("a spoiled kept index is passed over");
        assert_eq!(spoiled.search("redis memory", 3), changed.search("redis memory", 3));
    }

    #[test]
    fn a_folder_with_nothing_readable_is_refused_with_what_was_there() {
        let dir = tempfile::tempdir().expect("dir");
        std::fs::write(dir.path().join("a.bin"), b"\0\0").expect("write");
        std::fs::write(dir.path().join("b.pdf"), b"%PDF-1.4").expect("write");
        let root = dir.path().display().to_string();
        let err = Library::open(std::slice::from_ref(&root)).expect_err("nothing readable");
        assert_eq!(
            err.to_string(),
            format!("the folder {root} holds nothing heat can read (1 binary, 1 unreadable PDF)")
        );
        let named = Library::open(&[format!("{root}/a.bin")]).expect_err("named binary");
        assert_eq!(named.to_string(), format!("the source {root}/a.bin looks binary (it holds NUL bytes)"));
    }
}

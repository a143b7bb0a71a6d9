//! A library's index kept between debates, one file per library in heat's
//! data dir (named by the paths given): for each file read, where it was
//! and how large and how new it was, its hash, its passages, its part of
//! the index and, for a PDF or an HTML page, the text read from it. A file
//! found as it was kept (same path, size and modified time, as git's index
//! judges) is not hashed, converted, cut or indexed again. A kept file that
//! cannot be read, or was written by another format, is passed over and
//! written afresh.

use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::document::{Document, hex};
use super::index::{Index, Part};
use super::passage::Passage;

/// Changed whenever what is kept would read differently: the terms, the
/// passages' cut, or the text a PDF or an HTML page gives.
const FORMAT: u32 = 1;

/// What a file looked like when it was read: its size and modified time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamp {
    pub size: u64,
    /// Nanoseconds since 1970.
    pub modified: u64,
}

impl Stamp {
    /// `path`'s stamp now; `None` when it cannot be read.
    pub fn of(path: &Path) -> Option<Stamp> {
        let meta = std::fs::metadata(path).ok()?;
        let modified = meta.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
        Some(Stamp { size: meta.len(), modified: u64::try_from(modified.as_nanos()).unwrap_or(u64::MAX) })
    }
}

/// One file as kept.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KeptFile {
    pub name: String,
    pub path: PathBuf,
    pub stamp: Stamp,
    pub sha256: String,
    /// The text read from a PDF or an HTML page; `None` for text read as it is.
    pub converted: Option<String>,
    /// Its passages (their `doc` is renumbered when used).
    pub passages: Vec<Passage>,
    /// Its part of the index, terms numbered by [`Kept::terms`].
    pub part: Part,
}

/// A library as kept.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Kept {
    format: u32,
    /// The index's terms, by number.
    pub terms: Vec<String>,
    pub files: Vec<KeptFile>,
}

impl Kept {
    /// Where the library of `roots` is kept, under `dir`.
    pub fn path(dir: &Path, roots: &[PathBuf]) -> PathBuf {
        let mut hasher = Sha256::new();
        for root in roots {
            hasher.update(root.to_string_lossy().as_bytes());
            hasher.update([0]);
        }
        dir.join(format!("{}.index", &hex(&hasher.finalize())[..16]))
    }

    /// The library kept at `path`; `None` when there is none, it cannot
    /// be read, or it was kept in another format.
    pub fn load(path: &Path) -> Option<Kept> {
        let bytes = std::fs::read(path).ok()?;
        let kept: Kept = postcard::from_bytes(&bytes).ok()?;
        (kept.format == FORMAT).then_some(kept)
    }

    /// A library's documents, passages and index as kept, given each
    /// document's stamp.
    pub fn of(docs: &[Document], passages: &[Passage], index: &Index, stamps: &[Stamp]) -> Kept {
        let mut by_doc: Vec<Vec<Passage>> = vec![Vec::new(); docs.len()];
        for p in passages {
            by_doc[p.doc].push(p.clone());
        }
        let ends: Vec<usize> = by_doc
            .iter()
            .scan(0, |end, passages| {
                *end += passages.len();
                Some(*end)
            })
            .collect();
        let files = docs
            .iter()
            .zip(by_doc)
            .zip(index.split(&ends))
            .zip(stamps)
            .map(|(((doc, passages), part), stamp)| KeptFile {
                name: doc.name.clone(),
                path: doc.path.clone(),
                stamp: *stamp,
                sha256: doc.sha256.clone(),
                converted: doc.converted.then(|| doc.text.clone()),
                passages,
                part,
            })
            .collect();
        Kept { format: FORMAT, terms: index.terms().into_iter().map(String::from).collect(), files }
    }

    /// Writes it to `path`, whole or not at all (a temporary file renamed).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let bytes = postcard::to_stdvec(self).map_err(std::io::Error::other)?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let mut file = tempfile::NamedTempFile::new_in(path.parent().unwrap_or(Path::new(".")))?;
        std::io::Write::write_all(&mut file, &bytes)?;
        file.persist(path).map_err(|e| e.error)?;
        Ok(())
    }
}

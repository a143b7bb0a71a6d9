//! The export's file: its kind, from the name's extension (`.csv`,
//! `.parquet`), and its writing, whole or not at all: into a temporary file
//! beside it, flushed to disk, then renamed over the name (never over an
//! existing file unless asked), so a failed export leaves nothing
//! half-written.

use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::{Context as _, bail};

use super::table::Table;

/// What kind of file an export writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Csv,
    Parquet,
}

impl FileKind {
    /// The kind `path`'s extension names, or why there is none, in one sentence.
    pub fn of(path: &Path) -> anyhow::Result<FileKind> {
        let extension = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
        match extension.as_deref() {
            Some("csv") => Ok(FileKind::Csv),
            Some("parquet") => Ok(FileKind::Parquet),
            _ => {
                let stem = path.file_stem().map_or_else(|| "export".into(), |s| s.to_string_lossy());
                bail!(
                    "heat exports to a .csv or a .parquet file, and {} is neither: name it {stem}.csv or {stem}.parquet",
                    path.display()
                )
            }
        }
    }
}

/// Writes `table` to `path` as `kind`, whole or not at all; over an
/// existing file only with `force`.
pub fn write(path: &Path, kind: FileKind, table: &Table, force: bool) -> anyhow::Result<()> {
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let temporary =
        tempfile::Builder::new().prefix(".heat-export-").suffix(".part").tempfile_in(folder).with_context(|| {
            format!("could not write {}: no file can be made in {}", path.display(), folder.display())
        })?;
    let mut out = BufWriter::new(temporary.as_file());
    match kind {
        FileKind::Csv => super::csv::write(table, &mut out),
        FileKind::Parquet => super::parquet::write(table, &mut out),
    }
    .with_context(|| format!("could not write {}", path.display()))?;
    out.flush().with_context(|| format!("could not write {}", path.display()))?;
    drop(out);
    temporary.as_file().sync_all().with_context(|| format!("could not write {} to disk", path.display()))?;
    let kept = if force { temporary.persist(path) } else { temporary.persist_noclobber(path) };
    match kept {
        Ok(_) => Ok(()),
        Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => {
            bail!("{} already exists; pass --force to replace it, or name another file", path.display())
        }
        Err(e) => Err(e.error).with_context(|| format!("could not write {}", path.display())),
    }
}

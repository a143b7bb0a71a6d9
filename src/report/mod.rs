//! `heat report`: a finished (or running) debate as one self-contained HTML
//! page that works offline — its facts, heat and words charts, verdicts,
//! evidence and transcript. `model` reads the session, `charts` draws, `page`
//! lays it out. `standings` is the other page: a tournament's or a tag's
//! statistics, as `heat stats` counts them.

pub mod agreement;
pub mod charts;
pub mod export;
pub mod intervention;
pub mod map;
mod markdown;
pub mod model;
mod page;
mod palette;
pub mod requests;
pub mod standings;
mod time;
pub mod transcript;
pub mod walk;
mod words;

pub use model::{Context, Report};
pub use page::CSP;

use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::store::log::{Header, Record};

/// The HTML report of a session's records.
pub fn html(header: &Header, records: &[Record], context: &Context) -> anyhow::Result<String> {
    page::render(&Report::build(header, records, context))
}

/// Writes a report as `dir/<id>.html`, replacing it whole (written beside
/// it, then renamed), so a reader never sees half a page.
pub fn save(dir: &Path, id: &str, html: &str) -> anyhow::Result<PathBuf> {
    std::fs::create_dir_all(dir).with_context(|| format!("could not create {}", dir.display()))?;
    let path = dir.join(format!("{id}.html"));
    let mut file =
        tempfile::NamedTempFile::new_in(dir).with_context(|| format!("could not write in {}", dir.display()))?;
    std::io::Write::write_all(&mut file, html.as_bytes())
        .with_context(|| format!("could not write {}", path.display()))?;
    file.persist(&path).with_context(|| format!("could not write {}", path.display()))?;
    Ok(path)
}

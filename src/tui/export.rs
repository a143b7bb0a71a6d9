//! `e` in the studio: the shown debate written as Markdown into the
//! directory heat was started in, under a name no file has yet
//! (`heat-ID.md`, then `heat-ID-2.md`, …), so an earlier export is never
//! replaced; a failure says how else to get the export.

use std::fs::OpenOptions;
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::report::export::{self, ExportKind};
use crate::store::label::Label;
use crate::store::log::{Header, Record};

/// How many numbered names are tried before giving up.
const MOST_NAMES: usize = 1000;

/// Writes the debate as Markdown into `dir`; `stored` is its session id
/// when it is in the store (the sentence on failure then names
/// `heat export`). The error is the sentence to show: the way out first,
/// so a narrow status line still shows it, then why.
pub fn markdown(
    dir: &Path,
    (header, records): (&Header, &[Record]),
    label: &Label,
    stored: Option<&str>,
) -> Result<PathBuf, String> {
    let text = export::render_with(ExportKind::Md, header, records, None, label);
    write_new(dir, &format!("heat-{}", header.id), "md", &text).map_err(|e| {
        let elsewhere = match stored {
            Some(id) => format!("`heat export {id} -o FILE` writes it elsewhere"),
            None => "start heat in a directory it can write to".to_string(),
        };
        format!("Export failed: {elsewhere} ({e:#})")
    })
}

/// Writes `text` to `dir/stem.ext`, or `stem-2.ext`, `stem-3.ext`…: the
/// first name no file has. Never replaces a file, even one that appears
/// meanwhile.
pub fn write_new(dir: &Path, stem: &str, ext: &str, text: &str) -> anyhow::Result<PathBuf> {
    for n in 1..=MOST_NAMES {
        let name = if n == 1 { format!("{stem}.{ext}") } else { format!("{stem}-{n}.{ext}") };
        let path = dir.join(name);
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(mut file) => {
                file.write_all(text.as_bytes()).with_context(|| format!("could not write {}", path.display()))?;
                return Ok(path);
            }
            Err(e) if e.kind() == ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e).with_context(|| format!("could not write {}", path.display())),
        }
    }
    anyhow::bail!("{} already holds {stem}.{ext} and {MOST_NAMES} numbered copies", dir.display())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_export_takes_a_fresh_name_and_the_first_is_kept() {
        let dir = tempfile::tempdir().expect("tempdir");
        let first = write_new(dir.path(), "heat-x", "md", "one").expect("first");
        let second = write_new(dir.path(), "heat-x", "md", "two").expect("second");
        assert_eq!(first, dir.path().join("heat-x.md"));
        assert_eq!(second, dir.path().join("heat-x-2.md"));
        assert_eq!(std::fs::read_to_string(first).expect("read"), "one");
        assert_eq!(std::fs::read_to_string(second).expect("read"), "two");
    }

    #[test]
    fn a_failure_says_how_else_to_export() {
        let dir = tempfile::tempdir().expect("tempdir");
        let gone = dir.path().join("gone");
        let header = Header { heat_session: 1, id: "20261122-101500-beef".into(), created_ms: 0 };
        let err = markdown(&gone, (&header, &[]), &Label::default(), Some("20261122-101500-beef"))
            .expect_err("no such directory");
        assert!(err.contains("could not write") && err.contains("heat-20261122-101500-beef.md"), "{err}");
        let way_out = "Export failed: `heat export 20261122-101500-beef -o FILE` writes it elsewhere (";
        assert!(err.starts_with(way_out) && way_out.chars().count() < 80, "{err}");
        let demo = markdown(&gone, (&header, &[]), &Label::default(), None).expect_err("no such directory");
        assert!(demo.starts_with("Export failed: start heat in a directory it can write to ("), "{demo}");
    }
}

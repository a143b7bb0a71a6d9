//! Reads what has been appended to a session log since an offset: only
//! complete lines (a last line without its newline waits for it), each
//! parsed as a `Record`; a line that is not one is skipped with a notice
//! naming it. A log cut shorter than what was read, or replaced by another
//! file, is reported and not read on. Only reads: never writes or locks.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use anyhow::Context;

use super::log::{Record, skip_notice};

/// What one read found.
#[derive(Debug, Default, PartialEq)]
pub struct Batch {
    /// The complete lines appended since the last read, as records.
    pub records: Vec<Record>,
    /// Lines that were skipped, each in one sentence.
    pub notices: Vec<String>,
    /// Set when the log was cut short or replaced: nothing more will be read.
    pub lost: Option<String>,
}

/// Follows one log from an offset where its complete lines end.
#[derive(Debug)]
pub struct Follower {
    path: PathBuf,
    /// The open log: a file put in its place is told apart by its identity.
    file: File,
    /// Bytes of complete lines read so far.
    offset: u64,
    /// The number of the next line (1 is the header).
    line: usize,
    /// Set once the log was cut short or replaced.
    lost: bool,
}

impl Follower {
    /// Follows `path` from `offset`, which must end a line (`Loaded::valid_len`).
    pub fn at(path: &Path, offset: u64) -> anyhow::Result<Self> {
        let mut file =
            File::open(path).with_context(|| format!("could not open the session log {}", path.display()))?;
        let mut prefix = Vec::new();
        (&mut file)
            .take(offset)
            .read_to_end(&mut prefix)
            .with_context(|| format!("could not read the session log {}", path.display()))?;
        let line = memchr::memchr_iter(b'\n', &prefix).count() + 1;
        Ok(Self { path: path.to_path_buf(), file, offset, line, lost: false })
    }

    /// Bytes of complete lines read so far.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Reads the complete lines appended since the last read.
    pub fn read(&mut self) -> anyhow::Result<Batch> {
        let mut batch = Batch::default();
        if self.lost {
            return Ok(batch);
        }
        if let Some(lost) = self.check_same_file()? {
            self.lost = true;
            batch.lost = Some(lost);
            return Ok(batch);
        }
        let mut bytes = Vec::new();
        self.file.seek(SeekFrom::Start(self.offset))?;
        self.file
            .read_to_end(&mut bytes)
            .with_context(|| format!("could not read the session log {}", self.path.display()))?;
        // A last line without its newline is still being written: it waits.
        let complete = memchr::memrchr(b'\n', &bytes).map_or(0, |end| end + 1);
        for line in bytes[..complete].split_inclusive(|&b| b == b'\n') {
            let number = self.line;
            self.line += 1;
            let text = line.trim_ascii();
            if text.is_empty() {
                continue;
            }
            match serde_json::from_slice::<Record>(text) {
                Ok(record) => batch.records.push(record),
                Err(e) => batch.notices.push(skip_notice(number, text, &e)),
            }
        }
        self.offset += complete as u64;
        Ok(batch)
    }

    /// Why the log can no longer be followed: cut shorter than what was
    /// read, or another file now at its path; `None` while it is the same.
    fn check_same_file(&self) -> anyhow::Result<Option<String>> {
        let name = self.path.display();
        let Ok(now) = std::fs::metadata(&self.path) else {
            return Ok(Some(format!("the session log {name} was removed; nothing more can be followed")));
        };
        let open = self.file.metadata().with_context(|| format!("could not read the session log {name}"))?;
        if !same_file(&open, &now) {
            return Ok(Some(format!("the session log {name} was replaced by another file; the watch stops here")));
        }
        if open.len() < self.offset {
            return Ok(Some(format!(
                "the session log {name} was cut short ({} bytes, {} already read); the watch stops here",
                open.len(),
                self.offset
            )));
        }
        Ok(None)
    }
}

#[cfg(unix)]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    (a.dev(), a.ino()) == (b.dev(), b.ino())
}

#[cfg(not(unix))]
fn same_file(_: &std::fs::Metadata, _: &std::fs::Metadata) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;
    use crate::debate::DebateEvent;

    const HEADER: &str = "{\"heat_session\":1,\"id\":\"s\",\"created_ms\":0}\n";

    fn line(ms: u64, message: &str) -> String {
        let record = Record { ms, event: DebateEvent::Notice { message: message.into() } };
        format!("{}\n", serde_json::to_string(&record).unwrap_or_default())
    }

    fn messages(batch: &Batch) -> Vec<String> {
        batch
            .records
            .iter()
            .map(|r| match &r.event {
                DebateEvent::Notice { message } => message.clone(),
                other => format!("{other:?}"),
            })
            .collect()
    }

    /// A log holding the header, and a follower from its end.
    fn log() -> anyhow::Result<(tempfile::TempDir, PathBuf, Follower)> {
        let dir = tempfile::tempdir()?;
        let path = dir.path().join("s.jsonl");
        std::fs::write(&path, HEADER)?;
        let follower = Follower::at(&path, HEADER.len() as u64)?;
        Ok((dir, path, follower))
    }

    fn append(path: &Path, bytes: &str) -> anyhow::Result<()> {
        let mut file = std::fs::OpenOptions::new().append(true).open(path)?;
        file.write_all(bytes.as_bytes())?;
        Ok(())
    }

    #[test]
    fn a_partial_last_line_waits_for_its_newline() -> anyhow::Result<()> {
        let (_dir, path, mut follower) = log()?;
        let whole = line(5, "first");
        let (head, tail) = whole.split_at(10);
        append(&path, head)?;
        let batch = follower.read()?;
        assert!(batch.records.is_empty() && batch.notices.is_empty(), "{batch:?}");
        assert_eq!(follower.offset(), HEADER.len() as u64, "nothing of the partial line is consumed");
        append(&path, tail)?;
        assert_eq!(messages(&follower.read()?), ["first"]);
        assert_eq!(follower.offset(), (HEADER.len() + whole.len()) as u64);
        Ok(())
    }

    #[test]
    fn several_lines_at_once_come_in_order() -> anyhow::Result<()> {
        let (_dir, path, mut follower) = log()?;
        append(&path, &format!("{}{}{}", line(1, "a"), line(2, "b"), line(3, "c")))?;
        assert_eq!(messages(&follower.read()?), ["a", "b", "c"]);
        assert!(follower.read()?.records.is_empty(), "each line is read once");
        Ok(())
    }

    #[test]
    fn a_garbage_line_gives_a_notice_naming_it_and_is_skipped() -> anyhow::Result<()> {
        let (_dir, path, mut follower) = log()?;
        append(&path, &format!("{}not json at all\n{}", line(1, "a"), line(2, "b")))?;
        let batch = follower.read()?;
        assert_eq!(messages(&batch), ["a", "b"]);
        assert_eq!(batch.notices.len(), 1, "{batch:?}");
        assert!(batch.notices[0].starts_with("line 3: not a heat event"), "{:?}", batch.notices);
        Ok(())
    }

    #[test]
    fn a_truncated_log_is_reported_and_not_read_on() -> anyhow::Result<()> {
        let (_dir, path, mut follower) = log()?;
        append(&path, &line(1, "a"))?;
        assert_eq!(messages(&follower.read()?), ["a"]);
        std::fs::OpenOptions::new().write(true).open(&path)?.set_len(3)?;
        let batch = follower.read()?;
        let lost = batch.lost.unwrap_or_default();
        assert!(lost.contains("was cut short"), "{lost}");
        append(&path, &line(2, "b"))?;
        assert_eq!(follower.read()?, Batch::default(), "nothing is read after the loss");
        Ok(())
    }

    #[test]
    fn a_replaced_log_is_reported() -> anyhow::Result<()> {
        let (dir, path, mut follower) = log()?;
        let other = dir.path().join("other.jsonl");
        std::fs::write(&other, format!("{HEADER}{}{}", line(1, "a"), line(2, "b")))?;
        std::fs::rename(&other, &path)?;
        let lost = follower.read()?.lost.unwrap_or_default();
        assert!(lost.contains("was replaced by another file"), "{lost}");
        Ok(())
    }
}

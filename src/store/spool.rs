//! A spool beside a session log (`<id>.<kind>`): processes that do not
//! hold the log (the audience page's server, a person watching) append JSON
//! lines to it while a heat records the debate, and that heat reads them as
//! they come and acts on them. Nobody but the log's writer writes the log.
//! A line cut short or unreadable is skipped.

use std::fs::OpenOptions;
use std::io::{Read, Seek, SeekFrom, Write};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;
use serde::Serialize;
use serde::de::DeserializeOwned;
use tokio::sync::mpsc;

/// How often the log's writer looks for new lines.
pub const POLL: Duration = Duration::from_millis(200);

/// The most bytes read from a spool at once.
const READ_MAX: u64 = 1 << 20;

/// The spool of `kind` beside the session log at `log`.
pub fn path_for(log: &Path, kind: &str) -> PathBuf {
    log.with_extension(kind)
}

/// Opens the spool at `path` to append and read, made (readable by its
/// owner only) when `create`.
pub fn open(path: &Path, create: bool) -> std::io::Result<std::fs::File> {
    let mut options = OpenOptions::new();
    options.append(true).create(create).read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

/// Appends `items` to the spool at `path` (open as `spool`) in one write.
pub fn write<T: Serialize>(mut spool: &std::fs::File, path: &Path, items: &[T]) -> anyhow::Result<()> {
    let mut bytes = Vec::new();
    for item in items {
        serde_json::to_writer(&mut bytes, item)?;
        bytes.push(b'\n');
    }
    spool.write_all(&bytes).with_context(|| format!("could not write {}", path.display()))
}

/// Appends `items` to the spool at `path` beside the log at `log` in one
/// write, when a heat still records that debate: false (and nothing
/// written) when none does. Checked and written under the spool's lock.
pub fn append_while_recorded<T: Serialize>(
    log: &Path,
    path: &Path,
    spool: &std::fs::File,
    items: &[T],
) -> anyhow::Result<bool> {
    spool.lock().with_context(|| format!("could not lock {}", path.display()))?;
    if !super::log::is_held(log) {
        return Ok(false);
    }
    write(spool, path, items)?;
    Ok(true)
}

/// Reads a spool as it grows, whole lines only.
#[derive(Debug)]
pub struct Reader<T> {
    path: PathBuf,
    /// Bytes read and taken so far (always at a line's end).
    offset: u64,
    read: PhantomData<fn() -> T>,
}

impl<T: DeserializeOwned> Reader<T> {
    /// Reads the spool at `path` from its start.
    pub fn new(path: PathBuf) -> Self {
        Reader { path, offset: 0, read: PhantomData }
    }

    /// The lines appended since the last read (none while there is no
    /// spool). A line not yet ended is left for the next read; a line that
    /// cannot be read is skipped.
    pub fn read(&mut self) -> std::io::Result<Vec<T>> {
        let mut file = match std::fs::File::open(&self.path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(e),
        };
        let len = file.metadata()?.len();
        if len < self.offset {
            // Replaced by a shorter file: read it from its start.
            self.offset = 0;
        }
        if len == self.offset {
            return Ok(Vec::new());
        }
        file.seek(SeekFrom::Start(self.offset))?;
        let mut bytes = Vec::new();
        file.take(READ_MAX).read_to_end(&mut bytes)?;
        let Some(end) = bytes.iter().rposition(|b| *b == b'\n') else { return Ok(Vec::new()) };
        self.offset += end as u64 + 1;
        Ok(bytes[..end].split(|b| *b == b'\n').filter_map(|line| serde_json::from_slice(line).ok()).collect())
    }
}

/// Follows the spool at `path` from its start: each batch of lines found,
/// until the receiver is dropped. Must be called within a tokio runtime.
pub fn follow<T: DeserializeOwned + Send + 'static>(path: PathBuf) -> mpsc::Receiver<Vec<T>> {
    let (tx, rx) = mpsc::channel(16);
    let mut reader = Reader::new(path);
    tokio::spawn(async move {
        loop {
            // An unreadable spool is tried again: what it holds is never worth stopping a debate for.
            // (A read of a small file that grows a line at a time: not worth a blocking thread.)
            let items = reader.read().unwrap_or_default();
            if !items.is_empty() && tx.send(items).await.is_err() {
                return;
            }
            tokio::select! {
                () = tokio::time::sleep(POLL) => {}
                () = tx.closed() => return,
            }
        }
    });
    rx
}

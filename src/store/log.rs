//! One session's append-only JSONL event log: a versioned header line, then
//! one `{"ms": …, "event": …}` line per event, stamped when it happened (a
//! turn's text held while the debate was paused, when it arrived), never
//! earlier than the line before. Crash-safe: a torn last line is
//! cut off on open (the bytes kept aside in a `.torn` file) and reported;
//! garbage and events from a newer heat are skipped with a notice naming the
//! line. One writer per session, enforced with an OS file lock; readers
//! (`heat watch`, exports) never take it.
//!
//! When a line reaches the file: token deltas (`delta`, `reasoning`) are
//! buffered and flushed once 50 ms have passed since the last flush (so a
//! watcher following the file sees streaming text within that, without a
//! write per token); every other event is flushed at once, and turn
//! boundaries and steering actions are also fsynced.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};

use crate::debate::DebateEvent;

/// The longest buffered token deltas wait before they are flushed (once
/// another delta arrives).
pub const DELTA_FLUSH: Duration = Duration::from_millis(50);

/// The log format this heat writes and reads.
pub const FORMAT_VERSION: u32 = 1;

/// The first line of every log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    pub heat_session: u32,
    pub id: String,
    pub created_ms: u64,
}

/// One stored event and when it happened (ms since the session was created;
/// a resumed session goes on from its last stamp).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub ms: u64,
    pub event: DebateEvent,
}

/// A log read back: its header, events, and anything odd found on the way.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    pub header: Header,
    pub records: Vec<Record>,
    pub notices: Vec<String>,
    /// Byte length of the valid prefix (where appending resumes).
    valid_len: u64,
    /// The last line was cut short by a crash.
    torn: bool,
}

impl Loaded {
    /// Whether the log ends in a line a crash cut short.
    pub fn has_torn_tail(&self) -> bool {
        self.torn
    }

    /// Byte length of the valid prefix of the session's own file: where
    /// its complete lines end (a follower reads on from here).
    pub fn valid_len(&self) -> u64 {
        self.valid_len
    }
}

/// Reads a log without changing it.
pub fn load(path: &Path) -> anyhow::Result<Loaded> {
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .with_context(|| format!("could not read the session log {}", path.display()))?;
    parse(&bytes).with_context(|| format!("the session log {} cannot be opened", path.display()))
}

/// Reads a log from bytes (a file's contents, or the bundled demo).
pub fn parse(bytes: &[u8]) -> anyhow::Result<Loaded> {
    parse_until(bytes, &|_| false)
}

/// Reads a log up to the first record `stop` picks (which is left out):
/// for a reader that needs only the log's start, such as a branch taken
/// early in a long debate. Such a log is not for appending to.
pub fn load_until(path: &Path, stop: &dyn Fn(&Record) -> bool) -> anyhow::Result<Loaded> {
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .with_context(|| format!("could not read the session log {}", path.display()))?;
    parse_until(&bytes, stop).with_context(|| format!("the session log {} cannot be opened", path.display()))
}

fn parse_until(bytes: &[u8], stop: &dyn Fn(&Record) -> bool) -> anyhow::Result<Loaded> {
    if bytes.is_empty() {
        bail!("the file is empty");
    }
    let mut lines = bytes.split_inclusive(|&b| b == b'\n');
    let first = lines.next().unwrap_or_default();
    let header: Header = serde_json::from_slice(first.trim_ascii_end())
        .map_err(|_| anyhow::anyhow!("line 1 is not a heat session header"))?;
    if header.heat_session != FORMAT_VERSION {
        bail!(
            "it was written in session format {} and this heat reads format {FORMAT_VERSION}; use a newer heat",
            header.heat_session
        );
    }
    let mut loaded =
        Loaded { header, records: Vec::new(), notices: Vec::new(), valid_len: first.len() as u64, torn: false };
    if !first.ends_with(b"\n") {
        loaded.notices.push("line 1 was not terminated; it was repaired".into());
    }
    for (index, line) in lines.enumerate() {
        let number = index + 2;
        if !line.ends_with(b"\n") {
            // A write cut short by a crash: only ever the last line.
            loaded.torn = true;
            loaded
                .notices
                .push(format!("line {number} was cut short by a crash ({} bytes); it was dropped", line.len()));
            break;
        }
        loaded.valid_len += line.len() as u64;
        let text = line.trim_ascii();
        if text.is_empty() {
            continue;
        }
        match serde_json::from_slice::<Record>(text) {
            Ok(record) if stop(&record) => break,
            Ok(record) => loaded.records.push(record),
            Err(e) => loaded.notices.push(skip_notice(number, text, &e)),
        }
    }
    Ok(loaded)
}

pub(crate) fn skip_notice(number: usize, text: &[u8], error: &serde_json::Error) -> String {
    let kind = serde_json::from_slice::<serde_json::Value>(text)
        .ok()
        .and_then(|v| v["event"]["type"].as_str().map(String::from));
    match kind {
        Some(kind) if error.to_string().contains("unknown variant") => {
            format!("line {number}: event kind `{kind}` comes from a newer heat; skipped")
        }
        _ => format!("line {number}: not a heat event ({error}); skipped"),
    }
}

/// The writing end of a session log. Holds the session's lock while alive.
pub struct SessionLog {
    path: PathBuf,
    out: BufWriter<File>,
    opened: Instant,
    /// `ms` of the session's clock when this writer opened it.
    base_ms: u64,
    /// The last `ms` written: stamps never go back.
    last_ms: u64,
    /// When the buffer was last flushed to the file.
    flushed: Instant,
    /// The API keys set in heat's environment: never written, whatever
    /// text carries one (a note a key was pasted into).
    secrets: Vec<String>,
}

impl SessionLog {
    /// Creates a new log (user-readable only) and writes its header.
    pub fn create(path: &Path, header: &Header) -> anyhow::Result<Self> {
        Self::create_from(path, header, 0)
    }

    /// As [`SessionLog::create`], its clock starting at `base_ms` (a branch
    /// goes on from the moment its parent's shared events end).
    pub fn create_from(path: &Path, header: &Header, base_ms: u64) -> anyhow::Result<Self> {
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let file =
            options.open(path).with_context(|| format!("could not create the session log {}", path.display()))?;
        lock(&file, path)?;
        let mut log = Self {
            path: path.to_path_buf(),
            out: BufWriter::new(file),
            opened: Instant::now(),
            base_ms,
            last_ms: base_ms,
            flushed: Instant::now(),
            secrets: crate::secrets::known_keys(),
        };
        serde_json::to_writer(&mut log.out, header)?;
        log.out.write_all(b"\n")?;
        log.sync()?;
        Ok(log)
    }

    /// Opens an existing log to continue it: loads it, cuts a torn last line
    /// off (saving the bytes beside it) and positions for appending.
    pub fn reopen(path: &Path) -> anyhow::Result<(Self, Loaded)> {
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .with_context(|| format!("could not open the session log {}", path.display()))?;
        lock(&file, path)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)?;
        let loaded = parse(&bytes).with_context(|| format!("the session log {} cannot be opened", path.display()))?;
        let valid = usize::try_from(loaded.valid_len).unwrap_or(bytes.len());
        if valid < bytes.len() {
            let torn = path.with_extension("jsonl.torn");
            std::fs::write(&torn, &bytes[valid..]).with_context(|| format!("could not save {}", torn.display()))?;
            file.set_len(loaded.valid_len)?;
        }
        if !bytes[..valid].ends_with(b"\n") {
            file.seek(SeekFrom::End(0))?;
            file.write_all(b"\n")?;
        }
        file.seek(SeekFrom::End(0))?;
        let base_ms = loaded.records.last().map_or(0, |r| r.ms);
        let opened = Instant::now();
        let log = Self {
            path: path.to_path_buf(),
            out: BufWriter::new(file),
            opened,
            base_ms,
            last_ms: base_ms,
            flushed: opened,
            secrets: crate::secrets::known_keys(),
        };
        Ok((log, loaded))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends an event that happens now.
    pub fn append(&mut self, event: &DebateEvent) -> anyhow::Result<()> {
        self.append_at(event, Instant::now())
    }

    /// Appends an event that happened `at`. Token deltas stay buffered
    /// until [`DELTA_FLUSH`] has passed since the last flush; every other
    /// event is flushed, and turn boundaries and steering actions are fsynced.
    pub fn append_at(&mut self, event: &DebateEvent, at: Instant) -> anyhow::Result<()> {
        let since = at.saturating_duration_since(self.opened).as_millis();
        let ms = self.base_ms.saturating_add(u64::try_from(since).unwrap_or(u64::MAX)).max(self.last_ms);
        self.last_ms = ms;
        let record = RecordRef { ms, event };
        if self.secrets.is_empty() {
            serde_json::to_writer(&mut self.out, &record)?;
        } else {
            // Written through a string only where a key could be in it, to be cleaned out.
            let line = serde_json::to_string(&record)?;
            self.out.write_all(crate::secrets::without_known(&line, &self.secrets).as_bytes())?;
        }
        self.out.write_all(b"\n")?;
        match event {
            DebateEvent::Delta { .. } | DebateEvent::Reasoning { .. } => {
                if self.flushed.elapsed() >= DELTA_FLUSH {
                    self.flush()
                } else {
                    Ok(())
                }
            }
            // Ballots are kept in their spool too, read again on resume: no fsync to wait for.
            DebateEvent::TurnStarted { .. }
            | DebateEvent::TurnRetrying { .. }
            | DebateEvent::Notice { .. }
            | DebateEvent::AudienceVoted { .. } => self.flush(),
            _ => self.sync(),
        }
    }

    /// Hands what is buffered to the file (readers see it; no fsync).
    fn flush(&mut self) -> anyhow::Result<()> {
        self.flushed = Instant::now();
        self.out.flush().context("could not write the session log")
    }

    /// Writes out what is buffered and lets the log's lock go (a heat may
    /// open it again); nothing is appended after.
    pub fn release(&mut self) {
        let _ = self.sync();
        let _ = self.out.get_ref().unlock();
    }

    /// Flushes and fsyncs: everything appended so far survives a crash.
    pub fn sync(&mut self) -> anyhow::Result<()> {
        self.flush()?;
        self.out.get_ref().sync_data().context("could not sync the session log")
    }
}

#[derive(Serialize)]
struct RecordRef<'a> {
    ms: u64,
    event: &'a DebateEvent,
}

/// Whether a writer (a running debate) holds the log's lock. Only looks:
/// opens the file to read and asks for a shared lock it drops at once.
pub fn is_held(path: &Path) -> bool {
    let Ok(file) = File::open(path) else { return false };
    matches!(file.try_lock_shared(), Err(std::fs::TryLockError::WouldBlock))
}

fn lock(file: &File, path: &Path) -> anyhow::Result<()> {
    match file.try_lock() {
        Ok(()) => Ok(()),
        Err(std::fs::TryLockError::WouldBlock) => bail!(
            "the session {} is open in another heat; close that one first",
            path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
        ),
        Err(std::fs::TryLockError::Error(e)) => Err(e).with_context(|| format!("could not lock {}", path.display())),
    }
}

//! A source document to debate: read once (a file or standard input),
//! refused with one sentence when it cannot be debated, hashed, and shown to
//! every role with line numbers.

use std::io::Read;
use std::path::Path;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The largest source heat reads, in bytes.
pub const MAX_BYTES: usize = 2 * 1024 * 1024;

/// A document under debate, as recorded in the session: its text is kept
/// there, so replay, export and resume never need the file again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// The path as given (`-` read from standard input is named `stdin`).
    pub name: String,
    /// The file's absolute path, to find it again on resume from anywhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The sha256 of `text`, in hex.
    pub sha256: String,
    /// The sha256 of the whole file, when `text` is one section of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_sha256: Option<String>,
    pub text: String,
    /// The number of the text's first line in the file (a section starts
    /// further down; citations use the file's numbers).
    #[serde(default = "first", skip_serializing_if = "is_first")]
    pub first_line: usize,
    /// The headings a section sits under, outermost first, ending with its own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub section: Vec<String>,
}

fn first() -> usize {
    1
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_first(n: &usize) -> bool {
    *n == 1
}

/// Why a source cannot be debated. `Display` is the whole sentence.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SourceError {
    #[error("the source {0} does not exist")]
    Missing(String),
    #[error("the source {0} is a directory; give a Markdown or text file")]
    Directory(String),
    #[error("the source {0} could not be read: {1}")]
    Unreadable(String, String),
    #[error("the source {0} is {1} bytes; heat reads sources of at most 2 MB")]
    TooLarge(String, usize),
    #[error("the source {0} has no heading \"{1}\"; its headings: {2}")]
    NoSuchSection(String, String, String),
    #[error("the source {0} is empty")]
    Empty(String),
    #[error("the source {0} looks binary (it holds NUL bytes); give a Markdown or text file")]
    Binary(String),
    #[error("the source {0} is not UTF-8 text (invalid byte at offset {1})")]
    NotUtf8(String, usize),
}

impl Source {
    /// Reads `path` (`-` for standard input) and checks that it can be debated.
    pub fn read(path: &str) -> Result<Source, SourceError> {
        let (name, bytes) = if path == "-" {
            let mut bytes = Vec::new();
            std::io::stdin()
                .lock()
                .take(MAX_BYTES as u64 + 1)
                .read_to_end(&mut bytes)
                .map_err(|e| SourceError::Unreadable("stdin".into(), e.to_string()))?;
            ("stdin".to_string(), bytes)
        } else {
            (path.to_string(), read_file(Path::new(path))?)
        };
        let mut source = Self::from_bytes(name, &bytes)?;
        if path != "-" {
            source.path = std::fs::canonicalize(path).ok().map(|p| p.display().to_string());
        }
        Ok(source)
    }

    /// Checks bytes read from somewhere named `name`.
    pub fn from_bytes(name: String, bytes: &[u8]) -> Result<Source, SourceError> {
        if bytes.len() > MAX_BYTES {
            return Err(SourceError::TooLarge(name, bytes.len()));
        }
        if memchr::memchr(0, bytes).is_some() {
            return Err(SourceError::Binary(name));
        }
        let text = match std::str::from_utf8(bytes) {
            Ok(text) => text.strip_prefix('\u{feff}').unwrap_or(text),
            Err(e) => return Err(SourceError::NotUtf8(name, e.valid_up_to())),
        };
        if text.trim().is_empty() {
            return Err(SourceError::Empty(name));
        }
        let text = text.replace("\r\n", "\n");
        Ok(Source {
            sha256: sha256(&text),
            file_sha256: None,
            name,
            path: None,
            text,
            first_line: 1,
            section: Vec::new(),
        })
    }

    /// Lines, numbered as in the file.
    pub fn lines(&self) -> impl Iterator<Item = (usize, &str)> {
        self.text.lines().enumerate().map(|(i, line)| (i + self.first_line, line))
    }

    /// The section under the Markdown heading `wanted` (any case, `#`s and
    /// spaces aside): from its heading to the next heading of the same or a
    /// higher level, with the headings above it kept as its path. Its lines
    /// keep the file's numbers.
    pub fn section(&self, wanted: &str) -> Result<Source, SourceError> {
        let key = |title: &str| title.trim().trim_matches('#').trim().to_lowercase();
        let headings = self.headings();
        let Some(at) = headings.iter().position(|(_, _, title)| key(title) == key(wanted)) else {
            let all: Vec<&str> = headings.iter().map(|(_, _, t)| *t).collect();
            let listed = if all.is_empty() { "none".to_string() } else { all.join(", ") };
            return Err(SourceError::NoSuchSection(self.name.clone(), wanted.trim().to_string(), listed));
        };
        let (start, level, _) = headings[at];
        let end = headings[at + 1..].iter().find(|(_, l, _)| *l <= level).map(|(i, _, _)| *i);
        let lines: Vec<&str> = self.text.lines().collect();
        let body = &lines[start..end.unwrap_or(lines.len())];
        let mut path: Vec<String> = Vec::new();
        let mut above = level;
        for (_, l, title) in headings[..at].iter().rev() {
            if *l < above {
                path.insert(0, (*title).to_string());
                above = *l;
            }
        }
        path.push(headings[at].2.to_string());
        let text = body.join("\n") + "\n";
        Ok(Source {
            name: self.name.clone(),
            path: self.path.clone(),
            sha256: sha256(&text),
            file_sha256: Some(self.file_sha256.clone().unwrap_or_else(|| self.sha256.clone())),
            text,
            first_line: self.first_line + start,
            section: path,
        })
    }

    pub fn line_count(&self) -> usize {
        self.text.lines().count()
    }

    /// The topic a source gives when none is: its first Markdown heading,
    /// else the file's stem.
    pub fn topic(&self) -> String {
        match self.headings().first().map(|(_, _, title)| *title) {
            Some(title) => title.to_string(),
            None => Path::new(&self.name).file_stem().map_or_else(|| self.name.clone(), |s| s.to_string_lossy().into()),
        }
    }

    /// Every Markdown heading outside code fences: (index of its line in
    /// the text, level, title).
    fn headings(&self) -> Vec<(usize, usize, &str)> {
        let mut fence: Option<&str> = None;
        let mut found = Vec::new();
        for (i, line) in self.text.lines().enumerate() {
            let trimmed = line.trim_start();
            let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
            match (fence, marker) {
                (None, Some(m)) => fence = Some(m),
                (Some(open), Some(m)) if open == m => fence = None,
                (None, None) => found.extend(heading(line).map(|(level, title)| (i, level, title))),
                _ => {}
            }
        }
        found
    }

    /// The text with line numbers, as every role receives it: `L12: …`.
    pub fn numbered(&self) -> String {
        let mut out = String::with_capacity(self.text.len() + self.line_count() * 6);
        for (n, line) in self.lines() {
            out.push_str(&format!("L{n}: {line}\n"));
        }
        out
    }

    /// A rough token count (four characters a token), for a size check
    /// before the first request.
    pub fn estimated_tokens(&self) -> usize {
        self.numbered().chars().count().div_ceil(4)
    }

    /// Where the file was read from: its absolute path when known.
    pub fn file(&self) -> &Path {
        Path::new(self.path.as_deref().unwrap_or(&self.name))
    }

    /// Whether `path` on disk still holds this text (for `heat resume`):
    /// `None` when it cannot be read (or the source was standard input).
    pub fn matches_file(&self, path: &Path) -> Option<bool> {
        if self.name == "stdin" {
            return None;
        }
        let bytes = std::fs::read(path).ok()?;
        let text = String::from_utf8(bytes).ok()?;
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text).replace("\r\n", "\n");
        Some(sha256(&text) == *self.file_sha256.as_ref().unwrap_or(&self.sha256))
    }

    /// Whether the recorded text is still the text that was hashed: a log
    /// edited or damaged since no longer is.
    pub fn intact(&self) -> bool {
        sha256(&self.text) == self.sha256
    }
}

/// A Markdown heading line's level and title (`## Plan ##` → 2, "Plan").
fn heading(line: &str) -> Option<(usize, &str)> {
    let trimmed = line.trim_start();
    let level = trimmed.chars().take_while(|&c| c == '#').count();
    let rest = &trimmed[level..];
    let title = rest.trim().trim_end_matches('#').trim();
    ((1..=6).contains(&level) && rest.starts_with(' ') && !title.is_empty()).then_some((level, title))
}

fn read_file(path: &Path) -> Result<Vec<u8>, SourceError> {
    let name = path.display().to_string();
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => SourceError::Missing(name.clone()),
        _ => SourceError::Unreadable(name.clone(), e.to_string()),
    })?;
    if meta.is_dir() {
        return Err(SourceError::Directory(name));
    }
    if meta.len() > MAX_BYTES as u64 {
        return Err(SourceError::TooLarge(name, usize::try_from(meta.len()).unwrap_or(usize::MAX)));
    }
    std::fs::read(path).map_err(|e| SourceError::Unreadable(name, e.to_string()))
}

fn sha256(text: &str) -> String {
    use std::fmt::Write as _;
    Sha256::digest(text.as_bytes()).iter().fold(String::with_capacity(64), |mut hex, b| {
        let _ = write!(hex, "{b:02x}");
        hex
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(text: &str) -> Source {
        Source::from_bytes("notes/design.md".into(), text.as_bytes()).expect("a good source")
    }

    #[test]
    fn the_topic_is_the_first_heading_else_the_stem() {
        assert_eq!(source("intro\n\n## Move the queue to Postgres ##\n# Later").topic(), "Move the queue to Postgres");
        assert_eq!(source("#hashtag is not a heading\nplain text").topic(), "design");
    }

    #[test]
    fn a_section_keeps_its_heading_path_and_the_files_line_numbers() {
        let doc = source("# Design\nintro\n## Storage\nwhy postgres\n### Queue\njobs table\nlocks\n## Network\nhttp\n");
        let queue = doc.section("queue").expect("found");
        assert_eq!(queue.section, ["Design", "Storage", "Queue"]);
        assert_eq!(queue.numbered(), "L5: ### Queue\nL6: jobs table\nL7: locks\n");
        let storage = doc.section("## Storage").expect("found");
        assert_eq!(storage.numbered(), "L3: ## Storage\nL4: why postgres\nL5: ### Queue\nL6: jobs table\nL7: locks\n");
        assert_eq!(storage.topic(), "Storage");
        let missing = doc.section("Billing").expect_err("no such heading").to_string();
        assert_eq!(
            missing,
            "the source notes/design.md has no heading \"Billing\"; its headings: Design, Storage, Queue, Network"
        );
    }

    #[test]
    fn comments_in_code_fences_are_not_headings() {
        let doc = source("intro\n## Install\n```sh\n# fetch deps\nmake\n```\ntext\n## Next\nmore\n");
        assert_eq!(doc.topic(), "Install");
        let install = doc.section("Install").expect("found");
        assert_eq!(install.line_count(), 6, "up to ## Next, the fenced comment inside: {}", install.text);
        assert!(doc.section("fetch deps").is_err());
    }

    #[test]
    fn lines_are_numbered_from_one() {
        let s = source("first\r\nsecond\n");
        assert_eq!(s.numbered(), "L1: first\nL2: second\n");
        assert_eq!(s.line_count(), 2);
    }

    #[test]
    fn bad_sources_are_refused_with_the_path_and_the_cause() {
        let named = |bytes: &[u8]| Source::from_bytes("x.md".into(), bytes).expect_err("refused").to_string();
        assert_eq!(named(b"  \n"), "the source x.md is empty");
        assert!(named(b"a\0b").contains("looks binary"));
        assert!(named(&[b'a', 0xff, b'b']).contains("not UTF-8 text (invalid byte at offset 1)"));
        assert!(named(&vec![b'a'; MAX_BYTES + 1]).contains("at most 2 MB"));
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().display().to_string();
        assert_eq!(Source::read(&path).expect_err("refused"), SourceError::Directory(path.clone()));
        let missing = format!("{path}/nope.md");
        assert_eq!(
            Source::read(&missing).expect_err("refused").to_string(),
            format!("the source {missing} does not exist")
        );
    }

    #[test]
    fn a_recorded_text_that_was_altered_is_not_intact() {
        let mut s = source("# Plan\nship it\n## Later\nmaybe\n");
        assert!(s.intact() && s.section("Later").expect("found").intact());
        s.text.push_str("an extra line slipped in\n");
        assert!(!s.intact());
    }

    #[test]
    fn a_changed_file_no_longer_matches() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("doc.md");
        std::fs::write(&path, "# Plan\nship it\n").expect("write");
        let s = Source::read(&path.display().to_string()).expect("read");
        assert_eq!(s.matches_file(&path), Some(true));
        assert_eq!(s.file(), std::fs::canonicalize(&path).expect("canonical"), "found again from anywhere");
        std::fs::write(&path, "# Plan\nship it later\n").expect("write");
        assert_eq!(s.matches_file(&path), Some(false));
        std::fs::remove_file(&path).expect("rm");
        assert_eq!(s.matches_file(&path), None);
    }
}

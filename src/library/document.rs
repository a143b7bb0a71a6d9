//! One file of a library, read as text (a PDF's text layer and an HTML
//! page's words through [`convert`](super::convert)): refused with a reason
//! when it holds no text heat can read (binary, not UTF-8, too large,
//! empty), hashed, and kept whole so its lines can be shown and checked.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::convert::{self, Kind, PdfError};

/// The largest file a library reads, in bytes.
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;
/// The largest PDF it reads: pictures make them larger than their text.
pub const MAX_PDF_BYTES: u64 = 32 * 1024 * 1024;

/// A file of the library.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// How citations name it: the path below the folder given, under that
    /// folder's name (`docs/studio.md`), or a file's name as given.
    pub name: String,
    /// Where it was read from.
    pub path: PathBuf,
    /// Its size in bytes.
    pub size: u64,
    /// The sha256 of its bytes, in hex.
    pub sha256: String,
    /// Its text, line ends made `\n` (a PDF's or an HTML page's, as
    /// [`convert`] reads it).
    pub text: String,
    /// Whether `text` was read from a PDF or an HTML page, not as it is.
    pub converted: bool,
}

/// Why a file is not read. `Display` is the reason, after the file's name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Skip {
    #[error("could not be read: {0}")]
    Unreadable(String),
    #[error("is {0} bytes, over the 4 MB a library file may be (32 MB for a PDF)")]
    TooLarge(u64),
    #[error("looks binary (it holds NUL bytes)")]
    Binary,
    #[error(transparent)]
    Pdf(#[from] PdfError),
    #[error("is not UTF-8 text")]
    NotUtf8,
    #[error("is empty")]
    Empty,
}

impl Skip {
    /// A short name for counting skips of one kind: "binary", "not UTF-8"…
    pub fn kind(&self) -> &'static str {
        match self {
            Skip::Unreadable(_) => "unreadable",
            Skip::TooLarge(_) => "too large",
            Skip::Binary => "binary",
            Skip::Pdf(PdfError::NoText) => "PDF without text",
            Skip::Pdf(PdfError::Encrypted) => "PDF with a password",
            Skip::Pdf(PdfError::Unopenable(_)) => "unreadable PDF",
            Skip::NotUtf8 => "not UTF-8",
            Skip::Empty => "empty",
        }
    }
}

impl Document {
    /// Reads `path`, named `name` in citations.
    pub fn read(name: String, path: &Path) -> Result<Document, Skip> {
        let size = std::fs::metadata(path).map_err(|e| Skip::Unreadable(e.kind().to_string()))?.len();
        if size > max_bytes(path) {
            return Err(Skip::TooLarge(size));
        }
        let bytes = std::fs::read(path).map_err(|e| Skip::Unreadable(e.kind().to_string()))?;
        Self::from_bytes(name, path.to_path_buf(), &bytes)
    }

    /// Checks bytes read from `path`, and reads a PDF's or an HTML page's text.
    pub fn from_bytes(name: String, path: PathBuf, bytes: &[u8]) -> Result<Document, Skip> {
        let kind = Kind::of(&name, bytes);
        let text = match kind {
            Kind::Pdf => convert::pdf(bytes)?,
            Kind::Html => convert::html(text_of(bytes)?).ok_or(Skip::Empty)?,
            Kind::Text => text_of(bytes)?.replace("\r\n", "\n"),
        };
        let sha256 = hex(&Sha256::digest(bytes));
        Ok(Document { name, path, size: bytes.len() as u64, sha256, text, converted: kind != Kind::Text })
    }

    /// A file whose hash and converted text were kept (see
    /// [`kept`](super::kept)): a PDF's or an HTML page's text as kept, any
    /// other file read again, unhashed. `None` when it no longer reads as
    /// text.
    pub fn reread(name: String, path: &Path, size: u64, sha256: String, converted: Option<String>) -> Option<Document> {
        let (text, was_converted) = if let Some(text) = converted {
            (text, true)
        } else {
            let bytes = std::fs::read(path).ok()?;
            (text_of(&bytes).ok()?.replace("\r\n", "\n"), false)
        };
        Some(Document { name, path: path.to_path_buf(), size, sha256, text, converted: was_converted })
    }

    /// Its lines `start..=end` (numbered from 1), `None` when they do not all exist.
    pub fn lines(&self, start: usize, end: usize) -> Option<Vec<&str>> {
        if start == 0 || end < start {
            return None;
        }
        let lines: Vec<&str> = self.text.lines().skip(start - 1).take(end - start + 1).collect();
        (lines.len() == end - start + 1).then_some(lines)
    }

    pub fn line_count(&self) -> usize {
        self.text.lines().count()
    }
}

/// `bytes` as text: no NUL byte, UTF-8, its byte-order mark dropped, not blank.
fn text_of(bytes: &[u8]) -> Result<&str, Skip> {
    if memchr::memchr(0, bytes).is_some() {
        return Err(Skip::Binary);
    }
    let text = std::str::from_utf8(bytes).map_err(|_| Skip::NotUtf8)?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(Skip::Empty);
    }
    Ok(text)
}

/// The largest `path` may be: more for a PDF.
pub fn max_bytes(path: &Path) -> u64 {
    let pdf = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("pdf"));
    if pdf { MAX_PDF_BYTES } else { MAX_FILE_BYTES }
}

/// Bytes as lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::with_capacity(bytes.len() * 2), |mut hex, b| {
        let _ = write!(hex, "{b:02x}");
        hex
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8]) -> Result<Document, Skip> {
        Document::from_bytes("a.md".into(), PathBuf::from("a.md"), bytes)
    }

    #[test]
    fn text_is_read_and_what_is_not_text_is_refused_with_its_reason() {
        let doc = read(b"\xef\xbb\xbf# A\r\nb\r\n").expect("text");
        assert_eq!(doc.text, "# A\nb\n");
        assert_eq!(doc.lines(2, 2), Some(vec!["b"]));
        assert_eq!(doc.lines(2, 3), None);
        assert_eq!(read(b"a\0b"), Err(Skip::Binary));
        assert!(matches!(read(b"%PDF-1.7\n"), Err(Skip::Pdf(PdfError::Unopenable(_)))));
        assert_eq!(read(b"caf\xe9"), Err(Skip::NotUtf8));
        assert_eq!(read(b" \n\n"), Err(Skip::Empty));
        assert_eq!(
            Skip::TooLarge(5_000_000).to_string(),
            "is 5000000 bytes, over the 4 MB a library file may be (32 MB for a PDF)"
        );
    }
}

//! The text a library reads from files that are not plain text: a PDF's
//! text layer, page by page under a `## Page N` heading, and an HTML page
//! as text, its headings kept as Markdown's. Lines are wrapped at
//! [`WIDTH`] columns, so a citation's line numbers point at a few words
//! and not at a whole page.

/// The widest line a converted file has.
pub const WIDTH: usize = 100;

/// What a file's bytes are read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Text,
    Html,
    Pdf,
}

impl Kind {
    /// By its first bytes (`%PDF-`), then by its name's ending.
    pub fn of(name: &str, bytes: &[u8]) -> Kind {
        if bytes.starts_with(b"%PDF-") {
            return Kind::Pdf;
        }
        let lower = name.to_ascii_lowercase();
        if [".html", ".htm", ".xhtml"].iter().any(|end| lower.ends_with(end)) {
            return Kind::Html;
        }
        Kind::Text
    }
}

/// Why a PDF gives no text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PdfError {
    #[error("is a PDF heat cannot open ({0})")]
    Unopenable(String),
    #[error("is a PDF with a password")]
    Encrypted,
    #[error("is a PDF with no text layer (a scan?); give its text (OCR makes one)")]
    NoText,
}

/// A PDF's text layer: each page under `## Page N`, its lines wrapped.
pub fn pdf(bytes: &[u8]) -> Result<String, PdfError> {
    let doc = lopdf::Document::load_mem(bytes).map_err(|e| match e {
        lopdf::Error::Decryption(_) | lopdf::Error::InvalidPassword => PdfError::Encrypted,
        other => PdfError::Unopenable(first_line(&other.to_string())),
    })?;
    let mut out = String::new();
    let mut any = false;
    for &number in doc.get_pages().keys() {
        // A page whose text cannot be decoded is left empty, not the whole file refused.
        let text = doc.extract_text(&[number]).unwrap_or_default();
        let text = text.trim();
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&format!("## Page {number}\n\n"));
        if text.is_empty() {
            continue;
        }
        any = true;
        push_wrapped(&mut out, text);
    }
    if !any {
        // Locked by a user password, it decrypts to nothing heat can read.
        return Err(if doc.is_encrypted() { PdfError::Encrypted } else { PdfError::NoText });
    }
    Ok(out)
}

/// An HTML page as text: scripts and styles left out, links as their words,
/// headings as `#` lines, lines wrapped.
pub fn html(text: &str) -> Option<String> {
    let rendered =
        html2text::config::with_decorator(Words).link_footnotes(false).string_from_read(text.as_bytes(), WIDTH).ok()?;
    let mut out = String::new();
    push_wrapped(&mut out, &rendered);
    (!out.trim().is_empty()).then_some(out)
}

/// How an HTML page's marks are written: headings, lists and quotes as
/// Markdown's, so passages are cut at its headings; links, emphasis and
/// code as their words alone, so a debater's quote of them is found.
#[derive(Clone, Copy)]
struct Words;

impl html2text::render::TextDecorator for Words {
    type Annotation = ();

    fn decorate_link_start(&mut self, _url: &str) -> (String, ()) {
        (String::new(), ())
    }
    fn decorate_link_end(&mut self) -> String {
        String::new()
    }
    fn decorate_em_start(&self) -> (String, ()) {
        (String::new(), ())
    }
    fn decorate_em_end(&self) -> String {
        String::new()
    }
    fn decorate_strong_start(&self) -> (String, ()) {
        (String::new(), ())
    }
    fn decorate_strong_end(&self) -> String {
        String::new()
    }
    fn decorate_strikeout_start(&self) -> (String, ()) {
        (String::new(), ())
    }
    fn decorate_strikeout_end(&self) -> String {
        String::new()
    }
    fn decorate_code_start(&self) -> (String, ()) {
        (String::new(), ())
    }
    fn decorate_code_end(&self) -> String {
        String::new()
    }
    fn decorate_preformat_first(&self) {}
    fn decorate_preformat_cont(&self) {}
    fn decorate_image(&mut self, _src: &str, title: &str) -> (String, ()) {
        (title.to_string(), ())
    }
    fn header_prefix(&self, level: usize) -> String {
        format!("{} ", "#".repeat(level.clamp(1, 6)))
    }
    fn quote_prefix(&self) -> String {
        "> ".into()
    }
    fn unordered_item_prefix(&self) -> String {
        "* ".into()
    }
    fn ordered_item_prefix(&self, i: i64) -> String {
        format!("{i}. ")
    }
    fn make_subblock_decorator(&self) -> Self {
        Words
    }
}

/// `text`'s lines onto `out`, each past [`WIDTH`] wrapped at its spaces,
/// blank runs made one blank line, trailing spaces dropped.
fn push_wrapped(out: &mut String, text: &str) {
    let mut blank = false;
    for line in text.lines() {
        let line = line.trim_end();
        if line.trim().is_empty() {
            if !blank && !out.is_empty() {
                out.push('\n');
            }
            blank = true;
            continue;
        }
        blank = false;
        for piece in textwrap::wrap(line, textwrap::Options::new(WIDTH).break_words(false)) {
            out.push_str(piece.trim_end());
            out.push('\n');
        }
    }
}

fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or_default().trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_read_by_its_first_bytes_then_by_its_name() {
        assert_eq!(Kind::of("notes.txt", b"%PDF-1.7\n"), Kind::Pdf);
        assert_eq!(Kind::of("Page.HTM", b"<p>a</p>"), Kind::Html);
        assert_eq!(Kind::of("index.xhtml", b"<p>a</p>"), Kind::Html);
        assert_eq!(Kind::of("a.md", b"<p>a</p>"), Kind::Text);
    }

    #[test]
    fn html_is_read_as_its_words_with_headings_kept() {
        let page = "<html><head><title>T</title><style>p{color:red}</style><script>var secret=1;</script></head>\
            <body><h1>Sleeper trains</h1><p>The night train &amp; its <a href=\"/x\">berths</a>.</p>\
            <ul><li>one</li><li>two</li></ul></body></html>";
        let text = html(page).expect("text");
        assert!(text.starts_with("# Sleeper trains\n\nThe night train & its berths.\n"), "{text}");
        assert!(text.contains("* one\n* two\n"), "{text}");
        assert!(!text.contains("secret") && !text.contains("color"), "{text}");
        assert_eq!(html("<html><body>  </body></html>"), None);
    }

    #[test]
    fn long_lines_are_wrapped_at_spaces_and_blank_runs_made_one() {
        let mut out = String::new();
        let long = "word ".repeat(50);
        push_wrapped(&mut out, &format!("{long}\n\n\n\nend"));
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines.iter().all(|l| l.len() <= WIDTH), "{out}");
        assert_eq!(lines.len(), 5, "{out}");
        assert_eq!(lines[3], "");
        assert_eq!(lines[4], "end");
    }

    #[test]
    fn what_is_not_a_pdf_heat_can_open_says_so() {
        assert!(matches!(pdf(b"%PDF-1.7\nnot really"), Err(PdfError::Unopenable(_))));
    }
}

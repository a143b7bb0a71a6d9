//! Word-wraps streamed text to a width as it arrives, so `heat run` never
//! splits a word at the terminal's edge. A word is held until it ends; then
//! it goes on the current line if it fits, or starts the next one. A
//! whole line of a report (`fit`) is wrapped the same way, its next lines
//! hanging under its text.

use unicode_width::UnicodeWidthStr;

/// Streaming word wrapper.
#[derive(Debug, Clone)]
pub struct Wrapper {
    width: usize,
    column: usize,
    word: String,
    /// Spaces seen after the last word, written only if the next word fits.
    spaces: String,
    /// The last line break was inserted by wrapping: spaces after it are dropped.
    wrapped: bool,
}

impl Wrapper {
    pub fn new(width: usize) -> Self {
        Self { width: width.max(10), column: 0, word: String::new(), spaces: String::new(), wrapped: false }
    }

    /// Starts a fresh line (after a heading written elsewhere).
    pub fn reset(&mut self) {
        self.column = 0;
        self.word.clear();
        self.spaces.clear();
        self.wrapped = false;
    }

    /// Wraps the next piece of text; returns what can be written now.
    pub fn push(&mut self, text: &str) -> String {
        let mut out = String::with_capacity(text.len() + 8);
        for ch in text.chars() {
            match ch {
                '\n' => {
                    self.flush_word(&mut out);
                    self.spaces.clear();
                    out.push('\n');
                    self.column = 0;
                    self.wrapped = false;
                }
                ' ' | '\t' => {
                    self.flush_word(&mut out);
                    if !(self.wrapped && self.column == 0) {
                        self.spaces.push(if ch == '\t' { ' ' } else { ch });
                    }
                }
                _ => self.word.push(ch),
            }
        }
        out
    }

    /// Writes out a word still held (at the end of a turn).
    pub fn finish(&mut self) -> String {
        let mut out = String::new();
        self.flush_word(&mut out);
        out
    }

    fn flush_word(&mut self, out: &mut String) {
        if self.word.is_empty() {
            return;
        }
        let width = self.word.width();
        if self.column > 0 && self.column + self.spaces.len() + width > self.width {
            out.push('\n');
            self.column = 0;
            self.wrapped = true;
        } else {
            out.push_str(&self.spaces);
            self.column += self.spaces.len();
        }
        self.spaces.clear();
        if width > self.width {
            // A word longer than a line is broken where it must be.
            for ch in self.word.chars() {
                let w = ch.to_string().width();
                if self.column + w > self.width {
                    out.push('\n');
                    self.column = 0;
                }
                out.push(ch);
                self.column += w;
            }
        } else {
            out.push_str(&self.word);
            self.column += width;
        }
        self.word.clear();
        if self.column > 0 {
            self.wrapped = false;
        }
    }
}

/// `line` wrapped to `width` columns (unchanged when `None`: not a
/// terminal), never inside a word; its next lines hang under its text:
/// under the words after its indent, or after a list's number (`  12. `).
pub fn fit(line: &str, width: Option<usize>) -> String {
    let Some(width) = width else { return line.to_string() };
    let indent = line.len() - line.trim_start().len();
    let rest = &line[indent..];
    let number = rest.find(". ").filter(|&at| at > 0 && rest[..at].chars().all(|c| c.is_ascii_digit()));
    let hang = indent + number.map_or(2, |at| at + 2);
    let hanging = " ".repeat(hang.min(width / 2));
    let options = textwrap::Options::new(width.max(20))
        .break_words(false)
        .word_splitter(textwrap::WordSplitter::NoHyphenation)
        .subsequent_indent(&hanging);
    textwrap::wrap(line, options).join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_line_wraps_between_words_hanging_under_its_text() {
        let line =
            "    1. anthropic:claude-sonnet-4-5 for, openai:gpt-4.1 against: Cities should ban cars from their centres";
        let fitted = fit(line, Some(60));
        assert!(fitted.lines().all(|l| l.width() <= 60), "{fitted}");
        assert_eq!(
            fitted.lines().nth(1).map(|l| &l[..7]),
            Some("       "),
            "under the text after the number: {fitted}"
        );
        assert!(fitted.contains("Cities") && !fitted.contains("ba\n"), "{fitted}");
        let hyphened = fit("    7. a for, b against: Night trains beat short-haul flights", Some(50));
        assert!(hyphened.contains("short-haul"), "a hyphen is not a place to break: {hyphened}");
        assert_eq!(fit(line, None), line);
        assert_eq!(fit("heat: 3 of 12 debates done", Some(80)), "heat: 3 of 12 debates done");
    }

    fn wrap(width: usize, pieces: &[&str]) -> String {
        let mut w = Wrapper::new(width);
        let mut out: String = pieces.iter().map(|p| w.push(p)).collect();
        out.push_str(&w.finish());
        out
    }

    #[test]
    fn wraps_at_word_boundaries_however_the_text_is_split() {
        let text = "the quick brown fox jumps over the lazy dog again";
        let expected = "the quick brown\nfox jumps over the\nlazy dog again";
        assert_eq!(wrap(18, &[text]), expected);
        let pieces: Vec<String> = text.chars().map(String::from).collect();
        let pieces: Vec<&str> = pieces.iter().map(String::as_str).collect();
        assert_eq!(wrap(18, &pieces), expected, "one character at a time");
        assert!(wrap(18, &[text]).lines().all(|l| l.width() <= 18));
    }

    #[test]
    fn keeps_newlines_and_indentation() {
        assert_eq!(wrap(20, &["- one\n  - two\n\nend"]), "- one\n  - two\n\nend");
    }

    #[test]
    fn breaks_a_word_longer_than_the_line_and_counts_wide_characters() {
        assert_eq!(wrap(10, &["abcdefghijklmno"]), "abcdefghij\nklmno");
        assert_eq!(wrap(10, &["漢字漢字 漢字漢字"]), "漢字漢字\n漢字漢字", "each CJK character is two columns");
    }
}

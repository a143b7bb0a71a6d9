//! Word-wraps streamed text to a width as it arrives, so `heat run` never
//! splits a word at the terminal's edge. A word is held until it ends; then
//! it goes on the current line if it fits, or starts the next one.

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

#[cfg(test)]
mod tests {
    use super::*;

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

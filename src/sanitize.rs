//! Makes untrusted model text safe for a terminal. A stateful `vte` parser
//! per stream drops escape sequences (CSI, OSC — titles, clipboard writes,
//! hyperlinks —, DCS), C0/C1 controls except newline and tab, and bidi and tag
//! characters, even when a sequence is split across two deltas. A control
//! that ends a line (CR, CR LF, vertical tab, form feed) becomes a newline
//! rather than vanishing and joining two words. `one_line` makes a person's
//! proposition one line of text; `clause` fits a server's message into a
//! sentence heat writes around it.

/// Cleans one stream of text, chunk by chunk.
#[derive(Default)]
pub struct Sanitizer {
    parser: vte::Parser,
    out: Keep,
}

#[derive(Default)]
struct Keep {
    text: String,
    /// A CR was the last thing seen: a newline, unless an LF follows (CR LF
    /// is one line end), which may arrive in the next chunk.
    carriage_return: bool,
}

impl Keep {
    fn end_pending_line(&mut self) {
        if std::mem::take(&mut self.carriage_return) {
            self.text.push('\n');
        }
    }
}

impl vte::Perform for Keep {
    fn print(&mut self, c: char) {
        self.end_pending_line();
        if is_safe(c) {
            self.text.push(c);
        }
    }

    fn execute(&mut self, byte: u8) {
        match byte {
            b'\r' => {
                self.end_pending_line();
                self.carriage_return = true;
            }
            b'\n' => {
                self.carriage_return = false;
                self.text.push('\n');
            }
            // Vertical tab and form feed end a line too.
            0x0b | 0x0c => {
                self.end_pending_line();
                self.text.push('\n');
            }
            b'\t' => {
                self.end_pending_line();
                self.text.push('\t');
            }
            _ => {}
        }
    }
}

/// Printable characters that cannot reorder or hide text.
fn is_safe(c: char) -> bool {
    let bidi = matches!(c, '\u{200E}' | '\u{200F}' | '\u{061C}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
    let tag = ('\u{E0000}'..='\u{E007F}').contains(&c);
    !c.is_control() && !bidi && !tag
}

impl Sanitizer {
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds the next chunk and returns its safe text. An escape sequence
    /// cut at the end of a chunk is held until the next one.
    pub fn push(&mut self, text: &str) -> String {
        self.parser.advance(&mut self.out, text.as_bytes());
        std::mem::take(&mut self.out.text)
    }

    /// The end of the stream: a CR it ended on is a line end.
    pub fn finish(&mut self) -> String {
        self.out.end_pending_line();
        std::mem::take(&mut self.out.text)
    }
}

/// Cleans a complete text in one go.
pub fn clean(text: &str) -> String {
    let mut sanitizer = Sanitizer::new();
    let mut out = sanitizer.push(text);
    out.push_str(&sanitizer.finish());
    out
}

/// A proposition as a person typed or pasted it, as one line: cleaned, and
/// every run of whitespace (line breaks and tabs included) one space.
pub fn one_line(text: &str) -> String {
    clean(text).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A message used as a clause inside a sentence heat writes: without its
/// closing full stop, so `{message}. Next…` never reads `..`.
pub fn clause(message: &str) -> &str {
    message.trim_end().trim_end_matches('.').trim_end()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_text_newlines_and_tabs() {
        assert_eq!(clean("Hello,\n\tworld — ünïcödé 🎉"), "Hello,\n\tworld — ünïcödé 🎉");
    }

    #[test]
    fn drops_escape_sequences_and_controls() {
        let hostile = "a\x1b[2Jb\x1b]0;pwned\x07c\x1b]52;c;ZXZpbA==\x1b\\d\x1b[10;10He\0fg\x08h\u{9b}31mi";
        // The C1 CSI introducer (U+009B) is removed, so what followed it is inert text.
        assert_eq!(clean(hostile), "abcdefgh31mi");
    }

    #[test]
    fn a_control_that_ends_a_line_becomes_a_line_end_not_nothing() {
        assert_eq!(clean("spaces\rreally"), "spaces\nreally");
        assert_eq!(clean("one\r\ntwo\x0bthree\x0cfour\r"), "one\ntwo\nthree\nfour\n");
        // CR LF split across two chunks is still one line end.
        let mut s = Sanitizer::new();
        let mut out = s.push("one\r");
        out.push_str(&s.push("\ntwo"));
        out.push_str(&s.finish());
        assert_eq!(out, "one\ntwo");
    }

    #[test]
    fn a_proposition_is_one_line() {
        assert_eq!(
            one_line("  Tabs beat\r\nspaces\rreally,\n\tin\x0bevery file \x1b[1m "),
            "Tabs beat spaces really, in every file"
        );
    }

    #[test]
    fn drops_bidi_and_tag_characters() {
        assert_eq!(clean("safe\u{202E}txt.exe\u{2066}x\u{E0041}y"), "safetxt.exexy");
    }

    #[test]
    fn a_sequence_split_across_chunks_is_still_dropped() {
        let mut s = Sanitizer::new();
        let mut out = s.push("before \x1b]0;ti");
        out.push_str(&s.push("tle\x07 after \x1b["));
        out.push_str(&s.push("31mred"));
        assert_eq!(out, "before  after red");
    }
}

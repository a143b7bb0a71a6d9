//! Makes untrusted model text safe for a terminal. A stateful `vte` parser
//! per stream drops escape sequences (CSI, OSC — titles, clipboard writes,
//! hyperlinks —, DCS), C0/C1 controls except newline and tab, and bidi and tag
//! characters, even when a sequence is split across two deltas. `clause`
//! fits a server's message into a sentence heat writes around it.

/// Cleans one stream of text, chunk by chunk.
#[derive(Default)]
pub struct Sanitizer {
    parser: vte::Parser,
    out: Keep,
}

#[derive(Default)]
struct Keep(String);

impl vte::Perform for Keep {
    fn print(&mut self, c: char) {
        if is_safe(c) {
            self.0.push(c);
        }
    }

    fn execute(&mut self, byte: u8) {
        if byte == b'\n' || byte == b'\t' {
            self.0.push(byte as char);
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
        std::mem::take(&mut self.out.0)
    }
}

/// Cleans a complete text in one go.
pub fn clean(text: &str) -> String {
    Sanitizer::new().push(text)
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
        let hostile = "a\x1b[2Jb\x1b]0;pwned\x07c\x1b]52;c;ZXZpbA==\x1b\\d\x1b[10;10He\0f\rg\x08h\u{9b}31mi";
        // The C1 CSI introducer (U+009B) is removed, so what followed it is inert text.
        assert_eq!(clean(hostile), "abcdefgh31mi");
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

//! A growing text's layout: the part before the last safe cut is laid out
//! once and kept, so a token costs the last block's layout, not the
//! transcript's. Where a cut is safe comes from the renderer's own parse.

use pulldown_cmark::{Event, Parser};
use ratatui::text::Line;

use super::markdown::{OPTIONS, Palette, render};

/// A growing text's rendering: the part before the last paragraph break is
/// kept, so a token costs one paragraph's layout, not the transcript's.
#[derive(Debug, Default, Clone)]
pub struct StreamingText {
    stable_len: usize,
    /// Where the next cut falls (at or after `stable_len`).
    cut_at: usize,
    /// The text defines a link reference: it is never cut.
    uncut: bool,
    stable: Vec<Line<'static>>,
    tail: Vec<Line<'static>>,
    key: Option<(usize, u16)>,
}

impl StreamingText {
    /// Brings the rendering up to date with `text` at `width`. `text` must
    /// extend the text of the previous call (or be shorter, which starts
    /// over); a caller that replaces the text uses a fresh `StreamingText`.
    pub fn update(&mut self, text: &str, width: u16, palette: &Palette) {
        if self.key == Some((text.len(), width)) {
            return;
        }
        let fresh = self.key.is_none_or(|(len, w)| w != width || text.len() < len);
        if fresh {
            self.stable.clear();
            self.stable_len = 0;
            self.cut_at = 0;
            self.uncut = false;
        }
        // A cut needs a complete line after it: only a newline can make one;
        // a link reference definition (`[a]: url`, perhaps still streaming)
        // forbids cuts as soon as it parses as one.
        let seen = self.key.filter(|_| !fresh).map_or(0, |(len, _)| len);
        if !self.uncut && (text[seen..].contains('\n') || text[self.stable_len..].contains("]:")) {
            if let Some(split) = stable_split(text, self.stable_len) {
                self.cut_at = split;
            } else {
                // A link reference: the whole text is laid out as one from now on.
                self.uncut = true;
                self.stable.clear();
                self.stable_len = 0;
                self.cut_at = 0;
            }
        }
        let split = self.cut_at.max(self.stable_len);
        if split > self.stable_len {
            // Only the paragraphs completed since the last call are laid out.
            let more = render(&text[self.stable_len..split], width, palette);
            if !self.stable.is_empty() && !more.is_empty() {
                self.stable.push(Line::default());
            }
            self.stable.extend(more);
            self.stable_len = split;
        }
        self.tail = render(&text[split..], width, palette);
        if !self.stable.is_empty() && !self.tail.is_empty() {
            self.tail.insert(0, Line::default());
        }
        self.key = Some((text.len(), width));
    }

    pub fn parts(&self) -> [&[Line<'static>]; 2] {
        [&self.stable, &self.tail]
    }

    pub fn len(&self) -> usize {
        self.stable.len() + self.tail.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Where a text may be cut so both halves render as they would together:
/// the start of the last top-level block that follows a blank line and
/// whose first line is complete (a line still streaming may yet turn out to
/// continue the block before it: `1` becoming `1. `). The blocks are the
/// renderer's own parse, so fences, lists, HTML blocks and indentation are
/// judged as they will be drawn. `from` is an earlier cut; the scan starts there.
///
/// `None` when the text defines a link reference (`[a]: url`): a definition
/// applies to the whole text, before it and after it, so such a text is
/// never cut.
fn stable_split(text: &str, from: usize) -> Option<usize> {
    let tail = &text[from..];
    let expanded = tail.replace('\t', "    ");
    let mut depth = 0usize;
    let mut cut = None;
    let events = Parser::new_ext(&expanded, OPTIONS).into_offset_iter();
    if events.reference_definitions().iter().next().is_some() {
        return None;
    }
    for (event, range) in events {
        let top = depth == 0;
        match event {
            Event::Start(_) => depth += 1,
            Event::End(_) => depth = depth.saturating_sub(1),
            _ => {}
        }
        if top && cuttable(&expanded, range.start) {
            cut = Some(range.start);
        }
    }
    // The same line in the text as given (tabs were expanded for the parse).
    Some(cut.map_or(from, |at| {
        let line = expanded[..at].matches('\n').count();
        from + tail.match_indices('\n').nth(line - 1).map_or(0, |(i, _)| i + 1)
    }))
}

/// Whether a block starting at `at` may begin the re-laid tail: at a line
/// start, after a blank line, with its first line complete.
fn cuttable(text: &str, at: usize) -> bool {
    let Some(before) = text[..at].strip_suffix('\n') else { return false };
    let previous = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
    !before.is_empty() && previous.trim().is_empty() && text[at..].contains('\n')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::markdown::tests::{palette, plain};

    #[test]
    fn streaming_matches_a_full_render() {
        let texts = [
            "Para one is here.\n\n- a\n- b\n\nPara three has **bold** words and more.\n\n```\ncode\n\nmore code\n```\n\nEnd.",
            // Found by the model_text fuzz target: an empty quote drew its own gap.
            "- a\n- b\n\n> \nq\n```rust\nfn x() {}\n```\n",
            // Found by the model_text fuzz target: an empty item lost its marker.
            "ovmrl\n\n\n+ \n\n\ntp: x",
            // Found by the model_text fuzz target: a fence line with an info
            // string was taken for the end of an open fence.
            "```# e ev ok\n\n- a\n\n```rus)tn(k\n\n> 1\n\n```rs\n x {}\n```\n",
            // Found by the model_text fuzz target: a code block's blank last
            // line was trimmed when the block ended the kept part.
            "# Head\n```\nes **x**.\n\nSec`\n\n```\n\n> * nu\nrfst\n",
            // Found by the model_text fuzz target: an item whose marker is
            // followed by a tab was taken for the end of the list.
            "# Head\n\n*\n*\t- b\nARem\n\n*\t*\n666 `x`rust",
            // Found by the model_text fuzz target: an HTML block ran into the
            // paragraph before it, with no gap.
            "Second **foci para* wi,\n\n\n<!vite wado](knrht\nmore\n\nafter",
            // Found by the model_text fuzz target: a link reference defined
            // in one paragraph and used in a later one.
            "Vus.\n\n[ink]: /u\nVecus.\n\n[ink] 8888\n\n[x]\n\nmore\n\n[x]: /v\n",
        ];
        let p = palette();
        for text in texts {
            let mut streaming = StreamingText::default();
            for end in 1..=text.len() {
                if !text.is_char_boundary(end) {
                    continue;
                }
                streaming.update(&text[..end], 24, &p);
                let joined: Vec<Line<'static>> = streaming.parts().concat();
                assert_eq!(plain(&joined), plain(&render(&text[..end], 24, &p)), "{text:?} at byte {end}");
            }
        }
    }

    #[test]
    fn split_points_skip_fences() {
        assert_eq!(stable_split("a\n\nb\n", 0), Some(3));
        assert_eq!(stable_split("a\n\n```\nx\n\ny\n", 0), Some(3));
        assert_eq!(stable_split("no break", 0), Some(0));
        assert_eq!(stable_split("a\n\nb\n\nc\n", 3), Some(6));
        // A line still streaming is not judged yet: `1` may become `1. `.
        assert_eq!(stable_split("1. a\n\n1", 0), Some(0));
        assert_eq!(stable_split("a\n\nb", 0), Some(0));
        // Only a bare run of the same character, at least as long, closes a fence.
        assert_eq!(stable_split("```a\n\n```b\n\nc\n", 0), Some(0));
        assert_eq!(stable_split("~~~\nx\n```\n\ny\n", 0), Some(0));
        assert_eq!(stable_split("````\nx\n```\n\ny\n", 0), Some(0));
        assert_eq!(stable_split("```\nx\n````\n\ny\n", 0), Some(12));
        // An indented ``` is code, not a fence.
        assert_eq!(stable_split("\t```\n```\n\n<!--\n", 0), Some(0));
        // An HTML block of the kinds that blank lines do not end.
        assert_eq!(stable_split("<!-- a\n\nb -->\n\nc\n", 0), Some(15));
        assert_eq!(stable_split("<!-- one line -->\n\nz\n", 0), Some(19));
        assert_eq!(stable_split("<!x\n\ny\n", 0), Some(0));
        assert_eq!(stable_split("<SCRIPT>\n\nx\n</script>\n\ny\n", 0), Some(23));
        // A tab after a list marker keeps the list together.
        assert_eq!(stable_split("- a\n\n-\tb\n\nc\n", 0), Some(10));
        // A link reference definition applies to the whole text: no cut.
        assert_eq!(stable_split("[a]\n\nb\n\n[a]: /u\n\nc\n", 0), None);
        // A backtick run with a backtick after it opens no fence.
        assert_eq!(stable_split("```a`\n\nb\n", 0), Some(7));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        /// Markdown made of the pieces that change how later text parses
        /// (fences, lists, quotes, HTML blocks, tabs, blank lines), streamed
        /// a character at a time, lays out exactly as the whole text does.
        #[test]
        fn any_streamed_markdown_matches_its_full_render(
            pieces in proptest::collection::vec(proptest::sample::select(vec![
                "# ", "- ", "* ", "+ ", "1. ", "2) ", "> ", "```", "~~~", "```rs", "\n", "\n\n", "\t", "  ", "    ",
                "<!--", "-->", "<!x", ">", "<pre>", "</pre>", "word", " ", "**", "*", "`", "_", "[a](b)", "---", "===",
                "[a]", "[a]: /u",
            ]), 1..40),
            width in 8u16..40,
        ) {
            let text: String = pieces.concat();
            let p = palette();
            let mut streaming = StreamingText::default();
            for end in (1..=text.len()).filter(|e| text.is_char_boundary(*e)) {
                streaming.update(&text[..end], width, &p);
            }
            let streamed: Vec<Line<'static>> = streaming.parts().concat();
            proptest::prop_assert_eq!(streamed, render(&text, width, &p), "{:?}", text);
        }
    }
}

//! Markdown to wrapped, styled terminal lines (pulldown-cmark events, words
//! laid out by textwrap's first-fit). `streaming_text` keeps a growing
//! text's layout on top of it.

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use textwrap::core::Fragment;
use unicode_width::UnicodeWidthStr;

use super::theme::Theme;

/// Styles the renderer uses; taken from the theme once.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Palette {
    pub text: Style,
    pub heading: Style,
    pub code: Style,
    pub quote: Style,
    pub link: Style,
    pub bullet: Style,
}

impl Palette {
    pub fn from_theme(theme: &Theme, accent: ratatui::style::Color) -> Self {
        Palette {
            text: Style::new().fg(theme.text),
            heading: Style::new().fg(theme.heading).add_modifier(Modifier::BOLD),
            code: Style::new().fg(theme.code),
            quote: Style::new().fg(theme.quote).add_modifier(Modifier::ITALIC),
            link: Style::new().fg(theme.link).add_modifier(Modifier::UNDERLINED),
            bullet: Style::new().fg(accent),
        }
    }

    /// Every style dimmed, for reasoning text.
    #[must_use]
    pub fn secondary(self, theme: &Theme) -> Self {
        let s = theme.secondary().add_modifier(Modifier::ITALIC);
        Palette { text: s, heading: s, code: s, quote: s, link: s, bullet: s }
    }
}

/// The Markdown extensions heat draws.
pub(super) const OPTIONS: Options = Options::ENABLE_STRIKETHROUGH;

/// Renders Markdown into lines no wider than `width`.
pub fn render(text: &str, width: u16, palette: &Palette) -> Vec<Line<'static>> {
    let mut r = Renderer::new(width.max(8) as usize, *palette);
    let text = text.replace('\t', "    ");
    let text = issue_lines_apart(&text);
    for event in Parser::new_ext(&text, OPTIONS) {
        r.event(event);
    }
    r.flush();
    // No trailing blank to trim: a gap is only drawn before a line, and a
    // code block's blank last line is its content.
    r.lines
}

/// A critic's issue line (`ISSUE L1 [high] …`) stands on a line of its
/// own, as written, where Markdown would run it into the lines around it:
/// a hard break (two trailing spaces) ends it and the line before it.
fn issue_lines_apart(text: &str) -> std::borrow::Cow<'_, str> {
    // Most text names no issue: it is passed through without a look at its lines.
    if !text.as_bytes().windows(5).any(|w| w.eq_ignore_ascii_case(b"issue")) {
        return text.into();
    }
    let lines: Vec<&str> = text.split('\n').collect();
    let issue: Vec<bool> = lines.iter().map(|line| crate::debate::issues::is_issue_line(line)).collect();
    if !issue.contains(&true) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 4 * lines.len());
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(line);
        let breaks = issue[i] || issue.get(i + 1).copied().unwrap_or(false);
        if breaks && !line.trim().is_empty() && i + 1 < lines.len() {
            out.push_str("  ");
        }
    }
    out.into()
}

#[derive(Debug)]
struct Frag {
    spans: Vec<Span<'static>>,
    width: usize,
    space: bool,
}

impl Fragment for Frag {
    fn width(&self) -> f64 {
        self.width as f64
    }
    fn whitespace_width(&self) -> f64 {
        if self.space { 1.0 } else { 0.0 }
    }
    fn penalty_width(&self) -> f64 {
        0.0
    }
}

struct Renderer {
    width: usize,
    palette: Palette,
    lines: Vec<Line<'static>>,
    /// Inline text of the block being built.
    pieces: Vec<(String, Style)>,
    styles: Vec<Style>,
    /// Prefix of every line in the current block (quote bars, list indent).
    indent: Vec<(String, Style)>,
    /// A list marker waiting for the first line of its item.
    marker: Option<(String, Style)>,
    lists: Vec<Option<u64>>,
    code: Option<Style>,
    /// A block ended: the next one starts after a blank line.
    pending_gap: bool,
    /// The blank line owed before the next line drawn (with the prefix of
    /// where the gap was asked for). Held, not drawn, so a block that draws
    /// nothing (an empty quote) leaves no gap of its own.
    gap_line: Option<Line<'static>>,
    /// How many quotes deep `gap_line` was asked for.
    gap_depth: usize,
}

impl Renderer {
    fn new(width: usize, palette: Palette) -> Self {
        Renderer {
            width,
            palette,
            lines: Vec::new(),
            pieces: Vec::new(),
            styles: vec![palette.text],
            indent: Vec::new(),
            marker: None,
            lists: Vec::new(),
            code: None,
            pending_gap: false,
            gap_line: None,
            gap_depth: 0,
        }
    }

    fn style(&self) -> Style {
        self.styles.last().copied().unwrap_or(self.palette.text)
    }

    fn push_style(&mut self, f: impl FnOnce(Style) -> Style) {
        let next = f(self.style());
        self.styles.push(next);
    }

    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(text) => {
                if let Some(style) = self.code {
                    self.code_text(&text, style);
                } else {
                    self.pieces.push((text.into_string(), self.style()));
                }
            }
            Event::Code(text) => self.pieces.push((text.into_string(), self.palette.code)),
            Event::SoftBreak => self.pieces.push((" ".into(), self.style())),
            Event::HardBreak => self.flush(),
            Event::Rule => {
                self.gap();
                let bar = "─".repeat(self.width.saturating_sub(self.indent_width()).min(40));
                self.push_line(Line::from(Span::styled(bar, self.palette.quote)));
                self.pending_gap = true;
            }
            // Shown as text; an HTML block's line breaks fold like a paragraph's.
            Event::Html(text) => self.pieces.push((text.replace('\n', " "), self.style())),
            Event::InlineHtml(text) => self.pieces.push((text.into_string(), self.style())),
            Event::TaskListMarker(done) => self.pieces.push((if done { "[x] " } else { "[ ] " }.into(), self.style())),
            Event::FootnoteReference(_) | Event::InlineMath(_) | Event::DisplayMath(_) => {}
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        match tag {
            Tag::Paragraph | Tag::HtmlBlock => self.gap(),
            Tag::Heading { level, .. } => {
                self.gap();
                let heading = self.palette.heading;
                let underline = matches!(level, HeadingLevel::H1);
                self.styles.push(if underline { heading.add_modifier(Modifier::UNDERLINED) } else { heading });
            }
            Tag::BlockQuote(_) => {
                self.gap();
                self.indent.push(("│ ".into(), self.palette.quote));
                let quote = self.palette.quote;
                self.styles.push(quote);
            }
            Tag::CodeBlock(kind) => {
                self.gap();
                if let CodeBlockKind::Fenced(lang) = kind
                    && !lang.is_empty()
                {
                    let label = Span::styled(format!("  {lang}"), self.palette.quote);
                    let mut spans = self.prefix(false);
                    spans.push(label);
                    self.push_line(Line::from(spans));
                }
                self.code = Some(self.palette.code);
            }
            Tag::List(start) => {
                self.gap();
                self.lists.push(start);
            }
            Tag::Item => {
                self.flush();
                let marker = match self.lists.last_mut() {
                    Some(Some(n)) => {
                        let m = format!("{n}. ");
                        *n += 1;
                        m
                    }
                    _ => "• ".into(),
                };
                self.marker = Some((marker, self.palette.bullet));
                self.pending_gap = false;
            }
            Tag::Emphasis => self.push_style(|s| s.add_modifier(Modifier::ITALIC)),
            Tag::Strong => self.push_style(|s| s.add_modifier(Modifier::BOLD)),
            Tag::Strikethrough => self.push_style(|s| s.add_modifier(Modifier::CROSSED_OUT)),
            Tag::Link { .. } => {
                let link = self.palette.link;
                self.styles.push(link);
            }
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph | TagEnd::HtmlBlock => {
                self.flush();
                self.pending_gap = true;
            }
            TagEnd::Heading(_) => {
                self.flush();
                self.styles.pop();
                self.pending_gap = true;
            }
            TagEnd::BlockQuote(_) => {
                self.flush();
                self.indent.pop();
                self.styles.pop();
                // A gap owed inside the quote (an empty nested one) is not
                // drawn with its bar after it: the next block owes its own.
                if self.gap_depth > self.indent.len() {
                    self.gap_line = None;
                }
                self.pending_gap = true;
            }
            TagEnd::CodeBlock => {
                self.code = None;
                self.pending_gap = true;
            }
            TagEnd::List(_) => {
                self.flush();
                self.lists.pop();
                self.pending_gap = true;
            }
            TagEnd::Item => {
                self.flush();
                if self.marker.is_some() {
                    // An empty item still shows its marker (`prefix` takes it).
                    let line: Vec<Span<'static>> = self.prefix(true);
                    self.push_line(Line::from(line));
                }
            }
            TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough | TagEnd::Link => {
                self.styles.pop();
            }
            _ => {}
        }
    }

    /// A blank line before a block that follows another.
    fn gap(&mut self) {
        self.flush();
        if self.pending_gap && !self.lines.is_empty() && self.gap_line.is_none() {
            self.gap_line = Some(Line::from(self.prefix(false)));
            self.gap_depth = self.indent.len();
        }
        self.pending_gap = false;
    }

    /// Draws a line, after the gap owed before it.
    fn push_line(&mut self, line: Line<'static>) {
        if let Some(gap) = self.gap_line.take() {
            self.lines.push(gap);
        }
        self.lines.push(line);
    }

    fn indent_width(&self) -> usize {
        self.indent.iter().map(|(s, _)| s.width()).sum::<usize>() + self.lists.len().saturating_sub(1) * 2
    }

    /// The line prefix: quote bars and list indentation, plus the item
    /// marker (or its width in spaces) when `first`.
    fn prefix(&mut self, first: bool) -> Vec<Span<'static>> {
        let mut spans: Vec<Span<'static>> =
            self.indent.iter().map(|(s, style)| Span::styled(s.clone(), *style)).collect();
        let depth = self.lists.len();
        if depth > 0 {
            spans.push(Span::raw("  ".repeat(depth - 1)));
            let marker_width = self.marker.as_ref().map_or(2, |(m, _)| m.width());
            match (first, self.marker.take()) {
                (true, Some((m, style))) => spans.push(Span::styled(m, style)),
                (_, held) => {
                    self.marker = held;
                    spans.push(Span::raw(" ".repeat(marker_width.max(2))));
                }
            }
        }
        spans
    }

    fn code_text(&mut self, text: &str, style: Style) {
        for raw in text.lines() {
            let mut prefix = self.prefix(false);
            prefix.push(Span::raw("  "));
            let room = self.width.saturating_sub(prefix.iter().map(Span::width).sum()).max(1);
            let mut rest = raw;
            loop {
                let (head, tail) = take_width(rest, room);
                let mut spans = prefix.clone();
                spans.push(Span::styled(head.to_string(), style));
                self.push_line(Line::from(spans));
                if tail.is_empty() {
                    break;
                }
                rest = tail;
            }
        }
    }

    /// Lays the pending inline text out as wrapped lines.
    fn flush(&mut self) {
        if self.pieces.is_empty() {
            return;
        }
        let pieces = std::mem::take(&mut self.pieces);
        let first_prefix = self.prefix(true);
        let rest_prefix = self.prefix(false);
        let first_room = self.width.saturating_sub(first_prefix.iter().map(Span::width).sum()).max(1);
        let rest_room = self.width.saturating_sub(rest_prefix.iter().map(Span::width).sum()).max(1);
        let frags = fragments(&pieces, rest_room.min(first_room));
        if frags.is_empty() {
            return;
        }
        let widths = [first_room as f64, rest_room as f64];
        for (i, line) in textwrap::wrap_algorithms::wrap_first_fit(&frags, &widths).into_iter().enumerate() {
            let mut spans = if i == 0 { first_prefix.clone() } else { rest_prefix.clone() };
            for (j, frag) in line.iter().enumerate() {
                spans.extend(frag.spans.iter().cloned());
                if frag.space && j + 1 < line.len() {
                    spans.push(Span::styled(" ", frag.spans.last().map_or(self.palette.text, |s| s.style)));
                }
            }
            self.push_line(Line::from(spans));
        }
    }
}

/// Splits styled text into words (runs without spaces, which may mix
/// styles), breaking any word wider than `room`.
fn fragments(pieces: &[(String, Style)], room: usize) -> Vec<Frag> {
    let mut frags: Vec<Frag> = Vec::new();
    let mut open = false;
    for (text, style) in pieces {
        for (i, word) in text.split(' ').enumerate() {
            if i > 0 {
                if let Some(last) = frags.last_mut().filter(|_| open) {
                    last.space = true;
                }
                open = false;
            }
            if word.is_empty() {
                continue;
            }
            match frags.last_mut().filter(|_| open) {
                Some(last) => {
                    last.spans.push(Span::styled(word.to_string(), *style));
                    last.width += word.width();
                }
                None => frags.push(Frag {
                    spans: vec![Span::styled(word.to_string(), *style)],
                    width: word.width(),
                    space: false,
                }),
            }
            open = true;
        }
    }
    let mut out = Vec::with_capacity(frags.len());
    for frag in frags {
        if frag.width <= room {
            out.push(frag);
            continue;
        }
        let space = frag.space;
        let mut chunk = Frag { spans: Vec::new(), width: 0, space: false };
        for span in frag.spans {
            let mut rest: &str = &span.content;
            while !rest.is_empty() {
                let (head, tail) = if chunk.spans.is_empty() {
                    take_width(rest, room)
                } else {
                    split_at_width(rest, room - chunk.width)
                };
                if head.is_empty() {
                    out.push(std::mem::replace(&mut chunk, Frag { spans: Vec::new(), width: 0, space: false }));
                    continue;
                }
                chunk.width += head.width();
                chunk.spans.push(Span::styled(head.to_string(), span.style));
                rest = tail;
                if chunk.width >= room {
                    out.push(std::mem::replace(&mut chunk, Frag { spans: Vec::new(), width: 0, space: false }));
                }
            }
        }
        if !chunk.spans.is_empty() {
            out.push(chunk);
        }
        if let Some(last) = out.last_mut() {
            last.space = space;
        }
    }
    out
}

/// The longest prefix of `text` at most `room` columns wide, and the rest.
fn split_at_width(text: &str, room: usize) -> (&str, &str) {
    let mut used = 0;
    for (i, c) in text.char_indices() {
        let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if used + w > room {
            return text.split_at(i);
        }
        used += w;
    }
    (text, "")
}

/// Like `split_at_width`, but always takes at least one character, so a
/// character wider than the room still makes progress.
fn take_width(text: &str, room: usize) -> (&str, &str) {
    match split_at_width(text, room) {
        ("", _) => text.split_at(text.chars().next().map_or(text.len(), char::len_utf8)),
        split => split,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn plain(lines: &[Line<'_>]) -> Vec<String> {
        lines.iter().map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect::<String>()).collect()
    }

    pub(crate) fn palette() -> Palette {
        Palette::from_theme(&Theme::load("default", None, false).expect("theme"), ratatui::style::Color::Blue)
    }

    #[test]
    fn wraps_words_within_the_width() {
        let lines = render("the quick brown fox jumps over the lazy dog", 15, &palette());
        assert_eq!(plain(&lines), ["the quick brown", "fox jumps over", "the lazy dog"]);
        for line in &lines {
            assert!(line.width() <= 15);
        }
    }

    #[test]
    fn an_issue_line_stands_on_a_line_of_its_own() {
        let critic =
            "The plan is thin.\nISSUE L1 [high] The retry loop never ends — evidence: step 3\nIt will pin a worker.";
        assert_eq!(
            plain(&render(critic, 80, &palette())),
            [
                "The plan is thin.",
                "ISSUE L1 [high] The retry loop never ends — evidence: step 3",
                "It will pin a worker."
            ]
        );
        // Prose keeps Markdown's soft breaks.
        assert_eq!(plain(&render("one\ntwo", 80, &palette())), ["one two"]);
    }

    #[test]
    fn styles_emphasis_without_markers() {
        let lines = render("a **bold** and *soft* word", 40, &palette());
        assert_eq!(plain(&lines), ["a bold and soft word"]);
        let bold = lines[0].spans.iter().find(|s| s.content == "bold").expect("bold span");
        assert!(bold.style.add_modifier.contains(Modifier::BOLD));
        let soft = lines[0].spans.iter().find(|s| s.content == "soft").expect("italic span");
        assert!(soft.style.add_modifier.contains(Modifier::ITALIC));
    }

    #[test]
    fn lists_quotes_headings_and_code() {
        let md = "# Claim\n\nFirst:\n\n- one long item that wraps\n- two\n\n1. alpha\n2. beta\n\n> quoted words\n\n```rust\nlet x = 1;\n```\n";
        let lines = plain(&render(md, 20, &palette()));
        assert_eq!(
            lines,
            [
                "Claim",
                "",
                "First:",
                "",
                "• one long item that",
                "  wraps",
                "• two",
                "",
                "1. alpha",
                "2. beta",
                "",
                "│ quoted words",
                "",
                "  rust",
                "  let x = 1;",
            ]
        );
    }

    #[test]
    fn breaks_words_longer_than_a_line() {
        let lines = plain(&render("aaaaaaaaaaaaaaaaaaaa bb", 8, &palette()));
        assert_eq!(lines, ["aaaaaaaa", "aaaaaaaa", "aaaa bb"]);
    }
}

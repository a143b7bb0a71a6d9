//! Writing one line of text into the frame, fast: most of a studio frame
//! is single lines of ASCII model text.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthStr;

/// Draws one line on the top row of `area`, cut at its width: what a
/// one-line `Paragraph` draws, without its reflow machinery (which costs a
/// fifth of a studio frame for the header and status rows) and, for ASCII
/// text, without grapheme segmentation.
pub fn one_line(frame: &mut Frame<'_>, area: Rect, line: &Line<'_>) {
    if area.height > 0 && area.width > 0 {
        put_line(frame.buffer_mut(), area.x, area.y, line, area.width, Style::new());
    }
}

/// Writes a line into the buffer. ASCII spans (most model text) go in cell
/// by cell, skipping grapheme segmentation, which is most of a frame's cost
/// otherwise (and spaces over blank cells only take the style); other text
/// takes ratatui's path.
pub fn put_line(buffer: &mut ratatui::buffer::Buffer, x: u16, y: u16, line: &Line<'_>, width: u16, base: Style) {
    let right = x.saturating_add(width);
    let mut at = x;
    for span in &line.spans {
        if at >= right {
            return;
        }
        let style = base.patch(line.style).patch(span.style);
        if span.content.is_ascii() {
            let n = span.content.len().min(usize::from(right - at));
            let start = buffer.index_of(at, y);
            for (cell, byte) in buffer.content[start..start + n].iter_mut().zip(span.content.bytes()) {
                // A blank cell already draws a space: a fifth of the text is spaces.
                if byte != b' ' || cell.symbol() != " " {
                    cell.set_char(char::from(byte));
                }
                cell.set_style(style);
            }
            at += n as u16;
        } else {
            at = buffer.set_stringn(at, y, &span.content, usize::from(right - at), style).0;
        }
    }
}

/// A bar's key hints, `keys label` each, in the order given while they fit
/// in `room` columns (display columns: `↑/↓` is three, `·` one); what did
/// not fit is left out whole. Returns the spans and the columns they take.
pub fn key_hints<'a>(
    hints: impl IntoIterator<Item = (&'a str, &'a str)>,
    room: usize,
    key: Style,
    bar: Style,
) -> (Vec<Span<'static>>, usize) {
    let mut spans = Vec::new();
    let mut used = 0;
    for (keys, label) in hints.into_iter().filter(|(keys, _)| !keys.is_empty()) {
        let cost = keys.width() + 1 + label.width() + 2;
        if used + cost > room {
            break;
        }
        used += cost;
        spans.push(Span::styled(keys.to_string(), key));
        spans.push(Span::styled(format!(" {label}  "), bar));
    }
    (spans, used)
}

/// Hints joined by ` · ` ("←/→ who · type a note · Enter records · Esc
/// cancels") fitted to `width` columns, each kept whole or left out: the
/// others go from the end first, the ways to finish (a hint naming Enter,
/// Esc or "other key") last. A single hint too wide for the row is cut
/// after a whole word, ending in `…`.
pub fn fit_hints(text: &str, width: usize) -> String {
    let pieces: Vec<&str> = text.split(" · ").collect();
    let finishes = |piece: &str| ["Enter", "Esc", "other key"].iter().any(|w| piece.contains(w));
    let mut kept = vec![true; pieces.len()];
    let joined =
        |kept: &[bool]| pieces.iter().zip(kept).filter(|(_, k)| **k).map(|(p, _)| *p).collect::<Vec<_>>().join(" · ");
    loop {
        let line = joined(&kept);
        if line.width() <= width {
            return line;
        }
        let left: Vec<usize> = (0..pieces.len()).filter(|&i| kept[i]).collect();
        if left.len() <= 1 {
            return crate::tui::wrap::cut_words(&line, width);
        }
        let drop = left.iter().rev().find(|&&i| !finishes(pieces[i])).copied().unwrap_or(left[0]);
        kept[drop] = false;
    }
}

#[cfg(test)]
mod tests {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    use ratatui::style::{Color, Modifier, Style};
    use ratatui::text::{Line, Span};
    use ratatui::widgets::Paragraph;

    #[test]
    fn hints_are_left_out_whole_and_the_ways_to_finish_stay_longest() {
        let hints = "←/→ who · ↑/↓ how sure · type a note · Enter records · Esc cancels";
        assert_eq!(super::fit_hints(hints, 80), hints);
        assert_eq!(super::fit_hints(hints, 60), "←/→ who · ↑/↓ how sure · Enter records · Esc cancels");
        assert_eq!(super::fit_hints(hints, 46), "←/→ who · Enter records · Esc cancels");
        assert_eq!(super::fit_hints(hints, 27), "Enter records · Esc cancels");
        assert_eq!(super::fit_hints(hints, 20), "Esc cancels");
        assert_eq!(super::fit_hints("any other key closes", 12), "any other…");
    }

    #[test]
    fn one_line_draws_what_a_one_line_paragraph_draws() {
        let lines = [
            Line::from(vec![Span::styled(" heat ", Style::new().bg(Color::Red)), Span::raw(" topic é 世界")]),
            Line::from(vec![Span::styled("keys ", Style::new().fg(Color::Blue)), Span::raw("x".repeat(50))])
                .style(Style::new().add_modifier(Modifier::REVERSED)),
            Line::default(),
        ];
        for line in lines {
            for width in [3, 17, 30] {
                let area = Rect::new(2, 1, width, 1);
                let draw = |paragraph: bool| {
                    let mut term = Terminal::new(TestBackend::new(34, 3)).unwrap();
                    term.draw(|f| {
                        let all = f.area();
                        f.buffer_mut().set_style(all, Style::new().fg(Color::White));
                        if paragraph {
                            f.render_widget(Paragraph::new(line.clone()), area);
                        } else {
                            super::one_line(f, area, &line);
                        }
                    })
                    .unwrap();
                    term.backend().buffer().clone()
                };
                assert_eq!(draw(false), draw(true), "{line:?} at width {width}");
            }
        }
    }

    #[test]
    fn the_ascii_fast_path_draws_what_ratatui_draws() {
        let line = Line::from(vec![
            Span::styled("plain ascii ", Style::new().fg(Color::Blue)),
            Span::styled("héllo 世界 ", Style::new().add_modifier(Modifier::BOLD)),
            Span::raw("tail that is cut off at the edge"),
        ])
        .style(Style::new().bg(Color::Black));
        for width in [5, 14, 20, 40] {
            let area = Rect::new(0, 0, 40, 1);
            // Over blank cells, and over cells already drawn (the spaces too).
            let mut fast = Buffer::empty(area);
            let mut reference = Buffer::empty(area);
            let mut drawn = Buffer::filled(area, ratatui::buffer::Cell::new("x"));
            super::put_line(&mut drawn, 0, 0, &line, width, Style::new());
            let mut drawn_reference = Buffer::filled(area, ratatui::buffer::Cell::new("x"));
            drawn_reference.set_line(0, 0, &line, width);
            assert_eq!(drawn, drawn_reference, "over drawn cells, width {width}");
            super::put_line(&mut fast, 0, 0, &line, width, Style::new());
            reference.set_line(0, 0, &line, width);
            assert_eq!(fast, reference, "width {width}");
        }
    }
}

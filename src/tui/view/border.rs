//! A pane's frame: a border on all four sides, a title on the top edge and an
//! optional note at the right of the bottom edge, drawn straight into the
//! buffer. It draws what a `Block` with all borders draws, cell for cell, but
//! without the pass `Block` makes over every cell of its area to apply its
//! style: at 200×50 that pass touches nine thousand 48-byte cells a frame to
//! change nothing, about a tenth of a studio frame.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::symbols::border;
use ratatui::text::Line;
use ratatui::widgets::Widget;

pub struct Border<'a> {
    pub set: border::Set<'static>,
    pub style: Style,
    pub title: Line<'a>,
    pub note: Option<Line<'a>>,
}

impl Border<'_> {
    /// The area inside the border (what `Block::inner` gives).
    pub fn inner(area: Rect) -> Rect {
        let x = area.x.saturating_add(1).min(area.right());
        let y = area.y.saturating_add(1).min(area.bottom());
        Rect { x, y, width: area.width.saturating_sub(2), height: area.height.saturating_sub(2) }
    }

    pub fn draw(&self, area: Rect, buffer: &mut Buffer) {
        let area = area.intersection(buffer.area);
        if area.is_empty() {
            return;
        }
        let (left, top) = (area.left(), area.top());
        let (right, bottom) = (area.right() - 1, area.bottom() - 1);
        let set = &self.set;
        let mut put = |x: u16, y: u16, symbol: &str| {
            buffer[(x, y)].set_symbol(symbol).set_style(self.style);
        };
        // Sides first, whole length; the corners then replace their ends.
        for y in top..=bottom {
            put(left, y, set.vertical_left);
        }
        for x in left..=right {
            put(x, top, set.horizontal_top);
        }
        for y in top..=bottom {
            put(right, y, set.vertical_right);
        }
        for x in left..=right {
            put(x, bottom, set.horizontal_bottom);
        }
        put(right, bottom, set.bottom_right);
        put(right, top, set.top_right);
        put(left, bottom, set.bottom_left);
        put(left, top, set.top_left);

        let edge = Rect { x: left.saturating_add(1), y: top, width: area.width.saturating_sub(2), height: 1 };
        if edge.is_empty() {
            return;
        }
        let title_width = line_width(&self.title).min(edge.width);
        (&self.title).render(Rect { width: title_width, ..edge }, buffer);
        if let Some(note) = &self.note {
            let width = line_width(note);
            let x = edge.right().saturating_sub(width).max(edge.left());
            note.render(Rect { x, y: bottom, width: width.min(edge.width), height: 1 }, buffer);
        }
    }
}

fn line_width(line: &Line<'_>) -> u16 {
    u16::try_from(line.width()).unwrap_or(u16::MAX)
}

#[cfg(test)]
mod tests {
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    use ratatui::style::{Color, Modifier, Style};
    use ratatui::symbols::border;
    use ratatui::text::{Line, Span};
    use ratatui::widgets::{Block, BorderType, Widget};

    use super::Border;

    #[test]
    fn draws_what_a_bordered_block_draws() {
        let title = Line::from(vec![
            Span::styled(" Advocate ", Style::new().fg(Color::Blue).add_modifier(Modifier::BOLD)),
            Span::raw("local/model "),
            Span::styled("· streaming ", Style::new().fg(Color::Green)),
        ]);
        let note = Line::from(Span::styled(" ▼ 12 more · G follows ", Style::new().fg(Color::Yellow))).right_aligned();
        let sizes = [(1, 1), (2, 2), (3, 1), (1, 3), (5, 3), (12, 4), (30, 6), (60, 10)];
        for (kind, set) in [(BorderType::Rounded, border::ROUNDED), (BorderType::Thick, border::THICK)] {
            for (width, height) in sizes {
                for note in [None, Some(note.clone())] {
                    let style = Style::new().fg(Color::DarkGray);
                    // Offset inside a larger buffer that already holds text.
                    let whole = Rect::new(0, 0, 64, 12);
                    let area = Rect::new(2, 1, width, height);
                    let mut block = Block::bordered().border_type(kind).border_style(style).title(title.clone());
                    if let Some(note) = &note {
                        block = block.title_bottom(note.clone());
                    }
                    let mut expected = Buffer::filled(whole, ratatui::buffer::Cell::new("x"));
                    (&block).render(area, &mut expected);
                    let mut drawn = Buffer::filled(whole, ratatui::buffer::Cell::new("x"));
                    Border { set, style, title: title.clone(), note: note.clone() }.draw(area, &mut drawn);
                    assert_eq!(drawn, expected, "{kind:?} {width}×{height} note {}", note.is_some());
                    assert_eq!(Border::inner(area), block.inner(area), "{width}×{height}");
                }
            }
        }
    }
}

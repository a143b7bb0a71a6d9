//! What every dialog is drawn in: a box centred on the screen, titled,
//! with a row of hints at its foot.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear};

use crate::tui::app::App;

/// A rectangle of at most `width`×`height`, centred in `area`.
pub fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let w = width.min(area.width);
    let h = height.min(area.height);
    Rect { x: area.x + (area.width - w) / 2, y: area.y + (area.height - h) / 2, width: w, height: h }
}

/// Clears `rect`, draws a titled box and returns its inside.
pub fn frame_box(frame: &mut Frame<'_>, app: &App, rect: Rect, title: &str) -> Rect {
    let theme = &app.theme;
    let block = Block::bordered()
        .border_type(BorderType::Rounded)
        .border_style(Style::new().fg(theme.border_focus))
        .title(Span::styled(title.to_string(), Style::new().fg(theme.title).add_modifier(Modifier::BOLD)))
        .style(Style::new().bg(theme.overlay_bg).fg(theme.text));
    frame.render_widget(Clear, rect);
    frame.render_widget(block, rect);
    box_inner(rect)
}

/// Where a dialog framed in `rect` by [`frame_box`] writes: inside its
/// border, a column in from each side.
pub fn box_inner(rect: Rect) -> Rect {
    let inner = Block::bordered().inner(rect);
    Rect { x: inner.x + 1, width: inner.width.saturating_sub(2), ..inner }
}

pub fn split_last(area: Rect) -> [Rect; 2] {
    let body = Rect { height: area.height.saturating_sub(1), ..area };
    let hint = Rect { y: area.y + area.height.saturating_sub(1), height: area.height.min(1), ..area };
    [body, hint]
}

/// A dialog's row of hints ("Enter sends · Esc cancels") fitted to
/// `width` columns: whole hints are left out rather than a word cut
/// (`line::fit_hints`).
pub fn hint_line(app: &App, text: &str, width: u16) -> Line<'static> {
    Line::from(Span::styled(super::line::fit_hints(text, usize::from(width)), app.theme.secondary()))
}

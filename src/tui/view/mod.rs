//! Drawing: the screen's layout, the root `draw` (a function of the `App`;
//! panes are laid out beforehand by `App::prepare`), and the line-drawing
//! helpers the parts share.

mod agreement;
mod border;
mod branch;
mod grid;
mod header;
mod help;
mod overlay;
mod panes;
mod results;
mod retained;
mod settings;
mod start;
mod status;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

pub use retained::Retained;

use super::app::App;
use super::modal::Modal;
use crate::debate::Role;

/// The smallest terminal the studio draws in.
pub const MIN_WIDTH: u16 = 50;
pub const MIN_HEIGHT: u16 = 12;
/// At or above this width the panes of the seats that sit are all drawn
/// (side by side, or in two rows: `grid`); below, one pane shows at a time
/// under a tab bar.
pub const SIDE_BY_SIDE: u16 = 120;

/// Where everything goes on a screen of a given size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Plan {
    pub header: Rect,
    pub tabs: Option<Rect>,
    /// Each pane's outer area; a hidden pane's is empty.
    pub panes: [Rect; Role::COUNT],
    pub status: Rect,
    pub too_small: bool,
}

impl Plan {
    /// The layout for the seats that sit (`seats`, in screen order), one
    /// pane showing on a narrow screen: the focused one (a row in per-seat
    /// tables), or the first seat's when the focused one does not sit.
    /// `status_rows` is what the status area needs (see `status::rows`).
    pub fn new(area: Rect, focus: usize, seats: &[Role], status_rows: u16) -> Plan {
        if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
            return Plan { too_small: true, ..Plan::default() };
        }
        let [header, body, status] =
            Layout::vertical([Constraint::Length(2), Constraint::Min(3), Constraint::Length(status_rows.max(2))])
                .areas(area);
        if area.width >= SIDE_BY_SIDE {
            let panes = grid::areas(body, seats);
            return Plan { header, tabs: None, panes, status, too_small: false };
        }
        let [tabs, pane] = Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(body);
        let mut panes = [Rect::default(); Role::COUNT];
        let sits = seats.iter().any(|r| r.position() == focus);
        let shown = if sits { focus } else { seats.first().map_or(focus, |r| r.position()) };
        panes[shown] = pane;
        Plan { header, tabs: Some(tabs), panes, status, too_small: false }
    }

    /// The text area inside each pane's border.
    pub fn inner(&self) -> ([u16; Role::COUNT], [u16; Role::COUNT]) {
        let widths = self.panes.map(|r| r.width.saturating_sub(2));
        let heights = self.panes.map(|r| r.height.saturating_sub(2));
        (widths, heights)
    }
}

/// Lays out the panes and draws one frame. `retained` is what the
/// terminal drawn on showed at its last frame: one per terminal.
pub fn render(frame: &mut Frame<'_>, app: &mut App, retained: &mut Retained) {
    let area = frame.area();
    let plan = Plan::new(area, app.focus, &app.seats(), status::rows(app, area.width, area.height));
    // Help scrolls within what this screen shows of it.
    if matches!(app.modal, Some(Modal::Help(_))) {
        let (total, rows) = help::fit(app, frame.area());
        if let Some(Modal::Help(view)) = &mut app.modal {
            view.fit(total, rows);
        }
    }
    let (widths, heights) = plan.inner();
    app.prepare(widths, heights);
    app.pane_areas = plan.panes;
    let shown = draw(frame, app, retained, &plan);
    retained.record(frame.count(), shown);
}

/// Draws the screen; returns what each pane's text area shows (see
/// `retained`): nothing for a pane drawn over by a dialog.
fn draw(frame: &mut Frame<'_>, app: &App, retained: &Retained, plan: &Plan) -> [Option<u64>; Role::COUNT] {
    let area = frame.area();
    // A theme's text colour and background go under every cell first.
    let base = app.theme.base();
    if base != Style::new() {
        frame.buffer_mut().set_style(area, base);
    }
    let mut shown = [None; Role::COUNT];
    if plan.too_small {
        too_small(frame, app, area);
        return shown;
    }
    if app.start.is_some() {
        start::draw(frame, app, area);
    } else {
        header::draw(frame, app, plan.header);
        if let Some(tabs) = plan.tabs {
            panes::tabs(frame, app, tabs);
        }
        for (i, pane_area) in plan.panes.iter().enumerate() {
            if !pane_area.is_empty() {
                shown[i] = panes::draw(frame, app, retained, i, *pane_area);
            }
        }
        status::draw(frame, app, plan.status);
    }
    // The search prompt sits in the status line, over no pane.
    if app.modal.is_some() && !matches!(app.modal, Some(Modal::Search(_))) {
        overlay::draw(frame, app, area);
        shown = [None; Role::COUNT];
    }
    shown
}

fn too_small(frame: &mut Frame<'_>, app: &App, area: Rect) {
    let bold = Style::new().fg(app.theme.warn).add_modifier(Modifier::BOLD);
    let text = vec![
        Line::from(Span::styled("terminal too small", bold)),
        Line::from(format!("need {MIN_WIDTH}×{MIN_HEIGHT}, have {}×{}", area.width, area.height)),
    ];
    let top = area.height.saturating_sub(2) / 2;
    let rect = Rect { y: area.y + top, height: area.height.saturating_sub(top).min(4), ..area };
    frame.render_widget(Paragraph::new(text).centered().wrap(Wrap { trim: true }), rect);
}

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
fn put_line(buffer: &mut ratatui::buffer::Buffer, x: u16, y: u16, line: &Line<'_>, width: u16, base: Style) {
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

/// A rectangle of at most `width`×`height`, centred in `area`.
pub fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let w = width.min(area.width);
    let h = height.min(area.height);
    Rect { x: area.x + (area.width - w) / 2, y: area.y + (area.height - h) / 2, width: w, height: h }
}

/// `text` wrapped to `width` columns in at most `rows` rows; when more was
/// left out, the last row is cut to `fit` columns and ends in `…`.
pub fn wrap_rows(text: &str, width: usize, rows: usize, fit: usize) -> Vec<String> {
    let lines = textwrap::wrap(text, width.max(1));
    let cut = lines.len() > rows;
    let mut kept: Vec<String> = lines.into_iter().take(rows.max(1)).map(std::borrow::Cow::into_owned).collect();
    if cut && let Some(last) = kept.last_mut() {
        *last = format!("{}…", truncate(last, fit.saturating_sub(1)).trim_end_matches('…').trim_end());
    }
    kept
}

/// Cuts text to `width` columns, ending in `…` when cut.
pub fn truncate(text: &str, width: usize) -> String {
    use unicode_width::UnicodeWidthChar;
    let mut used = 0;
    let mut out = String::new();
    let total: usize = text.chars().map(|c| c.width().unwrap_or(0)).sum();
    if total <= width {
        return text.to_string();
    }
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w + 1 > width {
            break;
        }
        used += w;
        out.push(c);
    }
    if width > 0 {
        out.push('…');
    }
    out
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

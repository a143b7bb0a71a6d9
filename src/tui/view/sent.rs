//! The dialog showing what a turn was sent (`w`): the request's settings on
//! one line, then each part (the system prompt, the grounding block, each
//! message) under its heading, wrapped; scrolled when it does not fit.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::dialog::{centered, frame_box, hint_line, split_last};
use crate::sanitize::clean;
use crate::tui::app::App;
use crate::tui::sent::SentView;
use crate::tui::wrap::wrap_plain;

/// The dialog's box on a screen of `area`: all of it but a margin.
fn outer(area: Rect) -> Rect {
    centered(area, area.width.saturating_sub(4).min(110), area.height.saturating_sub(2))
}

/// How many lines the request has at this size, and how many show at once.
pub fn fit(app: &App, view: &SentView, area: Rect) -> (usize, usize) {
    let body = outer(area);
    let width = body.width.saturating_sub(4);
    (laid_out(app, view, width).len(), usize::from(body.height.saturating_sub(3)))
}

pub fn draw(frame: &mut Frame<'_>, app: &App, area: Rect, view: &SentView) {
    let rect = outer(area);
    let title = format!(" What {} was sent ", view.what(&app.debate));
    let inner = frame_box(frame, app, rect, &title);
    let [body, hint] = split_last(inner);
    let lines = laid_out(app, view, body.width);
    let (rows, total) = (usize::from(body.height), lines.len());
    let top = view.paged.top.min(total.saturating_sub(rows));
    let below = top + rows < total;
    frame.render_widget(Paragraph::new(lines.into_iter().skip(top).take(rows).collect::<Vec<_>>()), body);
    let keys = if top > 0 || below { "↑/↓ PgUp/PgDn scroll · any other key closes" } else { "any key closes" };
    let keys = if below { format!("more ↓ · {keys}") } else { keys.to_string() };
    frame.render_widget(Paragraph::new(hint_line(app, &keys, hint.width)), hint);
}

/// The request's lines at `width` columns.
fn laid_out(app: &App, view: &SentView, width: u16) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let turn = app.debate.rounds.iter().find(|r| r.number == view.round).and_then(|r| r.turn(view.role));
    let Some(sent) = turn.and_then(|t| t.sent.as_deref()) else {
        return wrap_plain(
            "This turn's request is no longer in the debate (it was asked again).",
            width,
            theme.secondary(),
        );
    };
    let mut lines = wrap_plain(&clean(&sent.settings()), width, theme.secondary());
    let heading = Style::new().fg(theme.role(view.role)).add_modifier(Modifier::BOLD);
    for (title, text) in sent.parts() {
        lines.push(Line::default());
        lines.push(Line::from(Span::styled(title, heading)));
        let text = if text.trim().is_empty() { "(empty)".to_string() } else { clean(&text) };
        lines.extend(wrap_plain(&text, width, Style::new().fg(theme.text)));
    }
    lines
}

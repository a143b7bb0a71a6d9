//! The dialog listing what waits to be carried (`u`): each item with what
//! would carry it, the chosen one marked, to take one back.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::dialog::{centered, frame_box, hint_line, split_last};
use crate::debate::event::Waiting;
use crate::sanitize::clean;
use crate::tui::app::App;
use crate::tui::waiting::WaitingList;

pub fn draw(frame: &mut Frame<'_>, app: &App, area: Rect, list: &WaitingList) {
    let theme = &app.theme;
    let height = u16::try_from(list.items.len() * 2 + 4).unwrap_or(u16::MAX);
    let rect = centered(area, 76, height);
    let inner = frame_box(frame, app, rect, " Take back before it is sent ");
    let [body, hint] = split_last(inner);
    let next = app.debate.current_round().map_or(1, |r| r.number + 2);
    let mut lines = Vec::new();
    for (i, item) in list.items.iter().enumerate() {
        let chosen = i == list.at;
        let what = clean(&item.describe(|r| app.debate.seat_name(r)));
        let style = if chosen { Style::new().fg(theme.key).add_modifier(Modifier::BOLD) } else { Style::new() };
        lines.push(Line::from(vec![Span::styled(if chosen { "› " } else { "  " }, style), Span::styled(what, style)]));
        let carried = match item {
            Waiting::Topic { .. } => format!("    round {next}'s prompts would carry it"),
            Waiting::Note { seats, .. } if seats.len() == 1 => "    that seat's next request would carry it".into(),
            Waiting::Note { .. } => "    those seats' next requests would carry it".into(),
            Waiting::Question { .. } => format!("    round {next} would ask it instead of the judge's"),
        };
        lines.push(Line::from(Span::styled(carried, theme.secondary())));
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), body);
    frame.render_widget(
        Paragraph::new(hint_line(app, "↑/↓ choose · Enter takes it back · Esc closes", hint.width)),
        hint,
    );
}

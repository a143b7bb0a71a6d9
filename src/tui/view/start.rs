//! The start screen: a topic editor, who speaks for each role, and the
//! most recent sessions.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Paragraph, Wrap};

use super::{centered, truncate};
use crate::tui::app::App;
use crate::tui::install::InstallState;

pub fn draw(frame: &mut Frame<'_>, app: &App, area: Rect) {
    let theme = &app.theme;
    let Some(editor) = &app.start else { return };
    let rect = centered(area, 90, 26);
    // The install offer needs room for a wrapped sentence under the roster.
    let roster_rows = if app.install.is_some() { 7 } else { 5 };
    let [title, topic, roster, recent, flash] = Layout::vertical([
        Constraint::Length(3),
        Constraint::Length(5),
        Constraint::Length(roster_rows),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(rect);
    let brand = Style::new().fg(theme.title).add_modifier(Modifier::BOLD);
    frame.render_widget(
        Paragraph::new(vec![
            Line::from(Span::styled("heat", brand)),
            Line::from(Span::styled(
                "An advocate and a skeptic argue; a judge weighs each round and sets the heat.",
                theme.secondary(),
            )),
        ]),
        title,
    );
    let block = Block::bordered()
        .border_type(BorderType::Thick)
        .border_style(Style::new().fg(theme.border_focus))
        .title(Span::styled(" Proposition ", brand))
        .title_bottom(Line::from(Span::styled(" Enter starts · Alt-Enter new line · Esc quits ", theme.secondary())));
    let inner = block.inner(topic);
    frame.render_widget(block, topic);
    frame.render_widget(editor, inner);

    let width = usize::from(rect.width);
    let mut lines = vec![Line::from(Span::styled("Who debates", Style::new().add_modifier(Modifier::BOLD)))];
    for entry in &app.roster {
        let model = format!("{} · {}", entry.provider, entry.model);
        lines.push(Line::from(vec![
            Span::styled(format!("  {:<9}", entry.role.label()), Style::new().fg(theme.role(entry.role))),
            Span::raw(truncate(&crate::sanitize::clean(&model), width.saturating_sub(12))),
        ]));
    }
    if let Some(install) = &app.install {
        let color = match install {
            InstallState::Running(_) => theme.title,
            InstallState::Offered | InstallState::Failed(_) => theme.warn,
        };
        lines.push(Line::from(Span::styled(install.describe(), Style::new().fg(color))));
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), roster);

    if !app.recent.is_empty() {
        let mut lines = vec![Line::from(Span::styled("Recent debates", Style::new().add_modifier(Modifier::BOLD)))];
        for (id, line) in app.recent.iter().take(usize::from(recent.height.saturating_sub(2))) {
            lines.push(Line::from(vec![
                Span::styled(format!("  {id}  "), theme.secondary()),
                Span::raw(truncate(line, width.saturating_sub(id.len() + 4))),
            ]));
        }
        lines.push(Line::from(Span::styled("  `heat resume <id>` continues one.", theme.secondary())));
        frame.render_widget(Paragraph::new(lines), recent);
    }
    if let Some(f) = &app.flash {
        frame.render_widget(Paragraph::new(Span::styled(f.text.clone(), Style::new().fg(theme.warn))), flash);
    } else if let Some(notice) = &app.notice {
        frame.render_widget(Paragraph::new(Span::styled(notice.clone(), theme.secondary())), flash);
    }
}
